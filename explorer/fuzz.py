"""``explorer fuzz``: search for inputs where two methods of a pair disagree.

The search is hypothesis's (a property-based testing library with shrinking): for each *target*
(a query, an ordered pair of types, the method under test and the reference, the pair's default
method) it generates pairs of primitives and asks :func:`algorithms.compare.judge` whether the
method disagrees with the reference; the first disagreement is shrunk by hypothesis to a small,
readable case and written out as a scene and a failing pytest file.

The generators are biased to where geometric code breaks (see :func:`cases`): coordinates on
small integer and dyadic grids (so touching and on-the-face cases are exact), the second object
built from the first one's corners, vertices, coordinates and directions (touching, grazing,
points on edges and faces, collinear and exactly or nearly parallel directions down to 1e-12
rad, directions scaled by a non-power of two so parallelism is only "parallel within
rounding"), zero sizes (a segment with ``p0 == p1``, a zero radius, a flat box) and tiny and
huge scales (``2**-20`` to ``2**20``, ``1e-3``, ``1e3``), and for the time of impact a motion
aimed at the first object.

:func:`run` is the engine (used by the command line and by the window's Fuzz panel);
:func:`main` the command line. Qt-free.
"""

from __future__ import annotations

import json
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional

import numpy as np
from hypothesis import HealthCheck, Phase, Verbosity, given, settings
from hypothesis import seed as hypothesis_seed
from hypothesis import strategies as st
from hypothesis.errors import HypothesisException, Unsatisfiable

from algorithms import registry
from algorithms.compare import judge
from algorithms.primitives import LINEAR_KINDS, SEPARABLE_KINDS, TYPES, GeometryError, from_fields

EXIT_FOUND = 1
EXIT_BAD_INPUT = 2


# ----------------------------------------------------------------------------- targets


@dataclass(frozen=True)
class Target:
    """One search: does ``method`` agree with ``reference`` on ``query`` for ``kind_a-kind_b``?"""

    query: str
    kind_a: str
    kind_b: str
    method: str
    reference: str
    user: bool = False
    source: Optional[str] = None  # the user's methods file

    @property
    def pair(self) -> str:
        return f"{self.kind_a}-{self.kind_b}"


def _applies(query: str, ka: str, kb: str) -> bool:
    if query == "hits":
        return ka in LINEAR_KINDS
    if query == "side":
        return "plane" in (ka, kb)
    if query == "separating_axis":
        return ka in SEPARABLE_KINDS and kb in SEPARABLE_KINDS
    return True


def _pair_matches(pair: Optional[str], ka: str, kb: str) -> bool:
    if not pair:
        return True
    return pair in (f"{ka}-{kb}", f"{kb}-{ka}")


def find_targets(query: Optional[str] = None, pair: Optional[str] = None,
                 user: Optional[bool] = None) -> list[Target]:
    """The searches to run. ``user=True``: every user method against the pair's default;
    ``False``: every second library method against the default; ``None``: user methods when
    any is loaded, else the library's."""
    entries = registry.table(include_user=True)
    if user is None:
        user = any(e.user for e in entries)
    out: list[Target] = []
    seen = set()
    if user:
        for e in entries:
            if not e.user or (query and e.query != query):
                continue
            kas = list(TYPES) if e.kind_a == registry.WILDCARD else [e.kind_a]
            kbs = list(TYPES) if e.kind_b == registry.WILDCARD else [e.kind_b]
            for ka in kas:
                for kb in kbs:
                    if not _applies(e.query, ka, kb) or not _pair_matches(pair, ka, kb):
                        continue
                    ref = registry.default_method(e.query, ka, kb)
                    if ref is None:
                        continue
                    key = (e.query, ka, kb, e.name)
                    if key not in seen:
                        seen.add(key)
                        out.append(Target(e.query, ka, kb, e.name, ref, True, e.source))
        return out
    kinds = list(TYPES)
    for q in registry.QUERIES:
        if query and q != query:
            continue
        for i, ka in enumerate(kinds):
            for kb in kinds[i:] if q != "hits" else kinds:
                if not _applies(q, ka, kb) or not _pair_matches(pair, ka, kb):
                    continue
                names = [n for n in registry.methods(q, ka, kb)
                         if not registry.is_user(q, ka, kb, n)]
                if len(names) < 2:
                    continue
                for other in names[1:]:
                    out.append(Target(q, ka, kb, other, names[0]))
    return out


# ----------------------------------------------------------------------------- generators

SCALES = (1.0, 2.0 ** -20, 2.0 ** 20, 1e-3, 1e3)
TINY_ANGLES = (1e-3, 1e-6, 1e-9, 1e-12, 1e-16)
#: factors that keep a direction parallel but not bit for bit (rounding breaks parallelism)
PARALLEL_FACTORS = (1.0, -1.0, 3.0, 0.1, -7.5)

_grid = st.integers(-3, 3).map(float)
_dyadic = st.integers(-24, 24).map(lambda k: k / 8)
#: generic doubles, kept clear of underflow (tiny sizes come from the scales below)
_free = st.floats(-10, 10, allow_nan=False, allow_infinity=False,
                  allow_subnormal=False).filter(lambda x: x == 0 or abs(x) >= 1e-6)
coords = st.one_of(_grid, _dyadic, _free)
points = st.tuples(coords, coords, coords)
sizes = st.one_of(st.just(0.0), st.integers(0, 3).map(float),
                  st.integers(1, 24).map(lambda k: k / 8),
                  st.floats(0, 5, allow_nan=False, allow_subnormal=False))


def _unit(v):
    v = np.asarray(v, float)
    n = float(np.linalg.norm(v))
    return None if n == 0 or not math.isfinite(n) else v / n


def _perpendicular(d):
    d = np.asarray(d, float)
    i = int(np.argmin(np.abs(d)))
    e = np.zeros(3)
    e[i] = 1.0
    p = np.cross(d, e)
    return p / np.linalg.norm(p)


@st.composite
def rotations(draw):
    """Orthonormal rows: a signed permutation (exact) or a rotation by an angle about an
    axis (orthonormal to rounding)."""
    if draw(st.booleans()):
        perm = draw(st.permutations([0, 1, 2]))
        signs = draw(st.tuples(*[st.sampled_from([1.0, -1.0])] * 3))
        rows = []
        for i, s in zip(perm, signs):
            r = [0.0, 0.0, 0.0]
            r[i] = s
            rows.append(tuple(r))
        return tuple(rows)
    axis = _unit(draw(points))
    if axis is None:
        axis = np.array([0.0, 0.0, 1.0])
    angle = draw(st.floats(-math.pi, math.pi, allow_nan=False))
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    r = np.eye(3) + math.sin(angle) * k + (1 - math.cos(angle)) * (k @ k)
    u, _, vt = np.linalg.svd(r)
    r = u @ vt
    return tuple(tuple(float(c) for c in row) for row in r)


def _build(kind: str, fields: dict):
    try:
        return from_fields(kind, fields)
    except GeometryError:
        return None


def _sorted_box(lo, hi):
    return tuple(min(x, y) for x, y in zip(lo, hi)), tuple(max(x, y) for x, y in zip(lo, hi))


@st.composite
def primitive(draw, kind: str, pt=points, direction=None, size=sizes, coord=coords):
    """One primitive of ``kind`` whose points come from ``pt`` and directions from
    ``direction`` (default: ``pt``, nonzero)."""
    direction = pt if direction is None else direction
    if kind == "point":
        f = {"position": draw(pt)}
    elif kind == "segment":
        p0 = draw(pt)
        f = {"p0": p0, "p1": draw(st.one_of(pt, st.just(p0)))}
    elif kind in ("ray", "line"):
        f = {"origin": draw(pt), "direction": draw(direction)}
    elif kind == "plane":
        f = {"normal": draw(direction), "d": draw(coord)}
    elif kind == "triangle":
        f = {"vertices": (draw(pt), draw(pt), draw(pt))}
    elif kind == "sphere":
        f = {"center": draw(pt), "radius": draw(size)}
    elif kind == "aabb":
        lo, hi = _sorted_box(draw(pt), draw(pt))
        f = {"min": lo, "max": hi}
    elif kind == "obb":
        f = {"center": draw(pt), "axes": draw(rotations()),
             "extents": (draw(size), draw(size), draw(size))}
    elif kind == "cylinder":
        f = {"center": draw(pt), "axis": draw(direction), "radius": draw(size),
             "height": draw(size)}
    elif kind == "capsule":
        p0 = draw(pt)
        f = {"p0": p0, "p1": draw(st.one_of(pt, st.just(p0))), "radius": draw(size)}
    else:
        raise ValueError(kind)
    p = _build(kind, f)
    if p is None:
        from hypothesis import assume

        assume(False)
    return p


def anchors(p) -> tuple[list, list]:
    """``(points, directions)`` of a primitive where a second object is likely to break an
    algorithm: corners, vertices, ends, face and edge points; edges, axes and normals."""
    f = p.to_fields()
    P, D = [], []
    k = p.kind
    if k == "point":
        P = [f["position"]]
    elif k in ("segment", "capsule"):
        a, b = np.array(f["p0"]), np.array(f["p1"])
        P = [a, b, (a + b) / 2]
        D = [b - a]
        if k == "capsule":
            P += [a + f["radius"] * _perpendicular(b - a if np.any(b - a) else [1, 0, 0])]
    elif k in ("ray", "line"):
        o, d = np.array(f["origin"]), np.array(f["direction"])
        P, D = [o, o + d, o - d], [d]
    elif k == "plane":
        n = np.array(f["normal"])
        P, D = [n * f["d"] / float(n @ n)], [n, _perpendicular(n)]
    elif k == "triangle":
        v = [np.array(x) for x in f["vertices"]]
        P = v + [(v[0] + v[1]) / 2, (v[1] + v[2]) / 2, (v[0] + v[2]) / 3 + v[1] / 3]
        D = [v[1] - v[0], v[2] - v[1], v[0] - v[2], np.cross(v[1] - v[0], v[2] - v[0])]
    elif k == "sphere":
        c, r = np.array(f["center"]), f["radius"]
        P = [c] + [c + s * r * e for e in np.eye(3) for s in (1, -1)]
        D = list(np.eye(3))
    elif k == "aabb":
        lo, hi = np.array(f["min"]), np.array(f["max"])
        P = [np.array([(lo, hi)[i][0], (lo, hi)[j][1], (lo, hi)[m][2]])
             for i in (0, 1) for j in (0, 1) for m in (0, 1)] + [(lo + hi) / 2]
        D = list(np.eye(3))
    elif k == "obb":
        c, ax, e = np.array(f["center"]), np.array(f["axes"]), np.array(f["extents"])
        P = [c + sum(s[i] * e[i] * ax[i] for i in range(3))
             for s in ((1, 1, 1), (1, -1, 1), (-1, -1, 1), (1, 1, -1), (-1, -1, -1))]
        P += [c + e[0] * ax[0], c]
        D = list(ax)
    elif k == "cylinder":
        c, w, r, h = (np.array(f["center"]), np.array(f["axis"]), f["radius"], f["height"])
        u = w / np.linalg.norm(w)
        P = [c, c + h / 2 * u, c - h / 2 * u, c + h / 2 * u + r * _perpendicular(u)]
        D = [w, _perpendicular(u)]
    D = [d for d in D if np.any(d)] or [np.array([1.0, 0, 0])]
    return [tuple(float(c) for c in q) for q in P], [tuple(float(c) for c in d) for d in D]


@st.composite
def related_point(draw, P, D):
    """A point built from A's anchors: one of them, a mix of their coordinates (faces, edges,
    corners of boxes), or one moved along A's directions (collinear, just off a face)."""
    cols = [sorted({q[i] for q in P}) for i in range(3)]
    how = draw(st.integers(0, 3))
    if how == 0:
        return draw(st.sampled_from(P))
    if how == 1:
        return tuple(draw(st.sampled_from(cols[i])) for i in range(3))
    base = np.array(draw(st.sampled_from(P)))
    d = np.array(draw(st.sampled_from(D)))
    if how == 2:
        k = draw(st.one_of(_grid, _dyadic, _free))
    else:
        k = draw(st.sampled_from((1e-9, -1e-9, 1e-6, 2.0 ** -30)))
    return tuple(float(c) for c in base + k * d)


@st.composite
def related_direction(draw, D):
    """A direction built from A's: the same, scaled by a non-power of two (parallel within
    rounding), or turned by a tiny angle (nearly parallel)."""
    d = np.array(draw(st.sampled_from(D)))
    how = draw(st.integers(0, 2))
    if how == 0:
        return tuple(float(c) for c in d)
    if how == 1:
        return tuple(float(c) for c in d * draw(st.sampled_from(PARALLEL_FACTORS)))
    eps = draw(st.sampled_from(TINY_ANGLES))
    p = _perpendicular(d)
    return tuple(float(c) for c in d + eps * float(np.linalg.norm(d)) * p)


def _scaled(p, s: float):
    if s == 1.0:
        return p
    f = p.to_fields()
    out = {}
    for name, v in f.items():
        if name == "axes":
            out[name] = v
        elif isinstance(v, list):
            out[name] = [[c * s for c in x] if isinstance(x, list) else x * s for x in v]
        else:
            out[name] = v * s
    return _build(p.kind, out)


@dataclass(frozen=True)
class Case:
    """One generated input: ``a``, ``b`` and, for ``toi``, B's motion relative to A."""

    a: object
    b: object
    motion: Optional[tuple] = None

    @property
    def args(self) -> tuple:
        return () if self.motion is None else (self.motion,)


@st.composite
def cases(draw, kind_a: str, kind_b: str, moving: bool = False):
    """A biased pair ``(a, b)`` of the given kinds (module docstring)."""
    a = draw(primitive(kind_a))
    P, D = anchors(a)
    if draw(st.booleans()):
        pt = st.one_of(related_point(P, D), points)
        direction = st.one_of(related_direction(D), points)
        size = st.one_of(sizes, st.sampled_from(
            [abs(x) for x in {c for q in P for c in q}] or [0.0]))
        b = draw(primitive(kind_b, pt=pt, direction=direction, size=size))
    else:
        b = draw(primitive(kind_b))
    motion = None
    if moving:
        if draw(st.booleans()):
            target = np.array(draw(st.sampled_from(P)))
            start = np.array(anchors(b)[0][0])
            k = draw(st.sampled_from((1.0, 2.0, 0.5, 1.5)))
            motion = tuple(float(c) for c in (target - start) * k)
        else:
            motion = draw(points)
    s = draw(st.sampled_from(SCALES))
    if s != 1.0:
        a, b = _scaled(a, s), _scaled(b, s)
        if a is None or b is None:
            from hypothesis import assume

            assume(False)
        if motion is not None:
            motion = tuple(c * s for c in motion)
    return Case(a, b, motion)


# ----------------------------------------------------------------------------- the engine


@dataclass
class Finding:
    target: Target
    case: Case
    verdict: dict
    scene: Optional[str] = None
    test: Optional[str] = None


class _Disagreement(Exception):  # noqa: N818 - private
    def __init__(self, case, verdict):
        self.case, self.verdict = case, verdict
        super().__init__(verdict.get("why", ""))


class _Stop(BaseException):
    """Ends a search at once, without shrinking (stop pressed, or a hang found)."""


def run_case(target: Target, case: Case) -> dict:
    """The verdict of :func:`algorithms.compare.judge` for one input."""
    try:
        ref = registry.query(target.query, case.a, case.b, *case.args, method=target.reference)
    except Exception as exc:  # noqa: BLE001 - a failing reference is no disagreement
        ref = exc
    try:
        got = registry.query(target.query, case.a, case.b, *case.args, method=target.method)
    except Exception as exc:  # noqa: BLE001 - the method under test failed: a finding
        got = exc
    return judge(target.query, case.a, case.b, case.args, ref, got)


@dataclass
class Progress:
    cases: int = 0
    done_targets: int = 0
    targets: int = 0
    elapsed: float = 0.0
    seconds: Optional[float] = None
    findings: list = field(default_factory=list)
    current: str = ""


def search(target: Target, *, examples: int, seed: int, deadline: Optional[float],
           on_case: Callable[[], None], should_stop: Callable[[], bool]) -> Optional[Finding]:
    """One hypothesis run of at most ``examples`` inputs on ``target``: its shrunk
    disagreement, or ``None``."""
    seen: list = []
    failing = False

    @settings(max_examples=examples, deadline=None, database=None,
              phases=(Phase.generate, Phase.shrink), verbosity=Verbosity.quiet,
              suppress_health_check=list(HealthCheck), report_multiple_bugs=False)
    @hypothesis_seed(seed)
    @given(case=cases(target.kind_a, target.kind_b, moving=target.query == "toi"))
    def check(case):
        nonlocal failing
        on_case()
        if should_stop():
            raise _Stop()
        if not failing and deadline is not None and time.monotonic() > deadline:
            from hypothesis import assume

            assume(False)  # out of time: the rest of this run is skipped
        verdict = run_case(target, case)
        if verdict["disagrees"]:
            failing = True
            seen.append((case, verdict))
            if "time limit" in verdict["why"] or "suspended" in verdict["why"]:
                raise _Stop()  # a hang is not shrunk (each try would take the time limit)
            raise _Disagreement(case, verdict)

    try:
        check()
    except _Disagreement as d:
        return Finding(target, d.case, d.verdict)
    except _Stop:
        if seen:
            return Finding(target, *seen[-1])
        raise
    except (HypothesisException, ExceptionGroup) as exc:  # flaky user code and the like
        if seen:
            return Finding(target, *seen[-1])
        if isinstance(exc, Unsatisfiable) and deadline is not None \
                and time.monotonic() > deadline:
            # the time ran out before this target's first case (every case after the deadline
            # is skipped with assume(False)): nothing found in the time given, not an error
            # (a run of several targets on a busy machine reported "internal error")
            return None
        raise RuntimeError(f"{target.pair} {target.query}: {exc}") from exc
    return None


def run(targets: list[Target], *, seconds: Optional[float] = 60.0,
        examples_per_target: Optional[int] = None, chunk: int = 60, seed: int = 0,
        on_progress: Optional[Callable[[Progress], None]] = None,
        should_stop: Callable[[], bool] = lambda: False) -> Progress:
    """Search every target round-robin, ``chunk`` inputs at a time, until each has a finding
    or the time (``seconds``) or the inputs per target (``examples_per_target``) run out, or
    ``should_stop()``. Returns the progress with its findings (one per target at most)."""
    started = time.monotonic()
    deadline = None if seconds is None else started + seconds
    prog = Progress(targets=len(targets), seconds=seconds)
    pending = list(targets)
    tried = {t: 0 for t in targets}
    rng = random.Random(seed)
    last_report = 0.0

    def report(force=False):
        nonlocal last_report
        now = time.monotonic()
        prog.elapsed = now - started
        if on_progress and (force or now - last_report > 0.1):
            last_report = now
            on_progress(prog)

    def on_case():
        prog.cases += 1
        report()

    while pending and not should_stop():
        if deadline is not None and time.monotonic() > deadline:
            break
        for target in list(pending):
            if should_stop() or (deadline is not None and time.monotonic() > deadline):
                break
            n = chunk
            if examples_per_target is not None:
                n = min(n, examples_per_target - tried[target])
            prog.current = f"{target.query} {target.pair}: {target.method}"
            try:
                finding = search(target, examples=n, seed=rng.randrange(2 ** 32),
                                 deadline=deadline, on_case=on_case, should_stop=should_stop)
            except _Stop:
                break
            tried[target] += n
            if finding is not None:
                prog.findings.append(finding)
            if finding is not None or (examples_per_target is not None
                                       and tried[target] >= examples_per_target):
                pending.remove(target)
                prog.done_targets += 1
            report(force=True)
    report(force=True)
    return prog


# ----------------------------------------------------------------------------- writing cases


def _next_number(out: Path, pair: str) -> int:
    n = 1
    while (out / f"{pair}-{n}.json").exists() or (out / f"test_{pair.replace('-', '_')}_{n}.py"
                                                  ).exists():
        n += 1
    return n


def scene_document(f: Finding) -> dict:
    """A scene-v1 document reproducing the finding (B carries the motion for ``toi``)."""
    t = f.target
    a = {"id": "A", "type": t.kind_a, **f.case.a.to_fields()}
    b = {"id": "B", "type": t.kind_b, **f.case.b.to_fields()}
    if f.case.motion is not None:
        b["motion"] = list(f.case.motion)
    v = f.verdict
    return {
        "format": "intersection-explorer-scene", "version": 1,
        "name": f"fuzz: {t.method} disagrees with {t.reference} on {t.query} ({t.pair})",
        "objects": [a, b],
        "queries": [{"a": "A", "b": "B"}],
        "fuzz": {"query": t.query, "methods": [t.method, t.reference],
                 "methods_file": t.source, "why": v.get("why"),
                 "value": _json(v.get("value")), "reference_value": _json(v.get("reference"))},
    }


def _json(v):
    if isinstance(v, tuple):
        return list(v)
    if isinstance(v, float) and not math.isfinite(v):
        return None
    return v


def write_finding(f: Finding, out: Path) -> Finding:
    """Write ``out/<pair>-<n>.json`` and ``out/test_<pair>_<n>.py`` (the next free ``n``)."""
    from explorer.model.exporttest import disagreement_test_source

    out.mkdir(parents=True, exist_ok=True)
    t = f.target
    n = _next_number(out, t.pair)
    scene = out / f"{t.pair}-{n}.json"
    test = out / f"test_{t.pair.replace('-', '_')}_{n}.py"
    from explorer.model.scenefile import dumps, from_document

    scene.write_text(dumps(from_document(scene_document(f))), encoding="utf-8")
    src = disagreement_test_source(
        t.query, f.case.a, f.case.b, f.case.args, method=t.method, reference=t.reference,
        reference_value=f.verdict.get("reference"), verdict=f.verdict,
        methods_file=t.source if t.user else None, scene_file=str(scene))
    test.write_text(src, encoding="utf-8")
    f.scene, f.test = str(scene), str(test)
    return f


def summary(prog: Progress) -> dict:
    """The one-line JSON summary ``explorer fuzz`` prints last."""
    return {"cases": prog.cases,
            "disagreements": [{"pair": f.target.pair, "query": f.target.query,
                               "methods": [f.target.method, f.target.reference],
                               "scene": f.scene, "test": f.test} for f in prog.findings]}


# ----------------------------------------------------------------------------- command line


class _Bar:
    """The progress bar on standard error (rich, a well-kept terminal library)."""

    def __init__(self, seconds, n_targets):
        from rich.console import Console
        from rich.progress import BarColumn, TextColumn, TimeElapsedColumn
        from rich.progress import Progress as RichProgress

        self.console = Console(stderr=True, soft_wrap=True)
        self.bar = RichProgress(TextColumn("fuzz"), BarColumn(), TextColumn("{task.description}"),
                                TimeElapsedColumn(), console=self.console, transient=False)
        self.total = seconds if seconds else n_targets
        self.by_time = bool(seconds)
        self.task = self.bar.add_task("", total=self.total)
        self.reported = 0
        self.bar.start()

    def update(self, prog: Progress):
        done = min(prog.elapsed, self.total) if self.by_time else prog.done_targets
        if prog.done_targets == prog.targets:
            done = self.total
        self.bar.update(self.task, completed=done,
                        description=f"{prog.cases} cases, {len(prog.findings)} found, "
                                    f"{prog.done_targets}/{prog.targets} targets done  "
                                    f"{prog.current}")
        for f in prog.findings[self.reported:]:
            t = f.target
            self.console.print(f"found: {t.method} vs {t.reference} on {t.query} "
                               f"{t.pair}: {f.verdict.get('why')}", highlight=False)
        self.reported = len(prog.findings)

    def close(self):
        self.bar.stop()


def main(args) -> int:
    """``explorer fuzz [--methods FILE.py] [--query Q] [--pair A-B] [--seconds S]
    [--out DIR]``."""
    from algorithms import usermethods

    def fail(msg):
        print(f"explorer: {msg}", file=sys.stderr)
        return EXIT_BAD_INPUT

    if args.query and args.query not in registry.QUERIES:
        return fail(f"--query: unknown query {args.query!r} (known: "
                    f"{', '.join(registry.QUERIES)})")
    if args.pair:
        kinds = args.pair.split("-")
        if len(kinds) != 2 or any(k not in TYPES for k in kinds):
            return fail(f"--pair: expected two types joined by '-' (segment-segment), got "
                        f"{args.pair!r} (types: {', '.join(TYPES)})")
    if args.seconds is not None and not args.seconds > 0:
        return fail(f"--seconds: must be > 0, got {args.seconds}")
    usermethods.POLICY.time_limit = args.time_limit
    for path in args.methods or ():
        try:
            usermethods.load_methods(path)
        except usermethods.MethodsLoadError as exc:
            return fail(f"--methods: {exc}")
    targets = find_targets(args.query, args.pair, user=True if args.methods else None)
    if not targets:
        what = "user methods" if args.methods else "second library methods"
        return fail(f"nothing to fuzz: no {what} for "
                    f"{args.query or 'any query'} and {args.pair or 'any pair'}")
    seed = args.seed if args.seed is not None else random.randrange(2 ** 31)
    print(f"explorer fuzz: {len(targets)} target(s), seed {seed}, "
          f"{args.seconds:g} s at most", file=sys.stderr)
    bar = _Bar(args.seconds, len(targets))
    try:
        prog = run(targets, seconds=args.seconds, seed=seed, on_progress=bar.update)
    except KeyboardInterrupt:
        bar.close()
        raise
    bar.update(prog)
    bar.close()
    out = Path(args.out)
    for f in prog.findings:
        write_finding(f, out)
    sys.stdout.write(json.dumps(summary(prog)) + "\n")
    return EXIT_FOUND if prog.findings else 0
