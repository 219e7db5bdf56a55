"""``explorer bench kernels | batch | eval``: speed figures as ratios against a baseline
measured in the same run (issue 12).

Every figure is printed beside the baseline it is compared with, both timed in this process,
interleaved (baseline, target, baseline, target, ...) and reduced to the best over rounds, so
a machine shared with other jobs moves both alike and the ratio stays meaningful:

``bench kernels``
    the library's scalar ``query`` against the plain textbook function written here, in pure
    Python, without traces or tolerances: segment-segment distance against Ericson's
    ``ClosestPtSegmentSegment`` (RTCD §5.1.9), ray-AABB ``hits`` against a bare Woo (Primer
    App. A.18, Listing A.6), ray-triangle ``hits`` against a bare Badouel (App. A.16,
    Listing A.4), each with how many of its cases the lean filters sent to the careful path
    (:data:`algorithms.kernels.filters.FALLBACKS`); capsule, cylinder and generic pairs as the
    library's own figures with the fast paths on and off
    (:func:`algorithms.kernels.filters.careful_only`); moving pairs
    (:data:`TOI_PAIRS`) ``query("toi")`` against today's careful conservative advancement,
    the time-of-impact fast path off (:func:`algorithms.kernels.toi_fast.off`), best of
    ``--rounds`` interleaved rounds in this process's CPU time, with how many cases the fast
    path answered itself (the others it handed to the careful path); and against the code
    issue 12 measured when it was filed (:data:`FILED_COMMIT`, the "today" of its "10x faster
    than today"), taken from the repository's history into a child process and timed on the
    same cases, interleaved round by round (:class:`FiledCode`; without the history, a
    wheel's install, that line says it was not measured).
``bench batch``
    :mod:`algorithms.batch` per pair at ``N`` rows against a Python loop over the scalar
    ``query`` (and against a 20-line numpy Ericson written here, the floor of what numpy
    does for segment-segment).
``bench answers``
    :func:`algorithms.evaluate_pair` (every key of a pair) against the single default query it
    builds on (issue 10: each pair analysed once; at most 1.3x).
``bench eval``
    ``explorer eval`` (evaluate and write the JSON) on a generated mixed scene of
    ``--queries`` queries: queries per second.

The last line of each is one JSON object with the figures. Nothing here asserts a time: the
tests only check the output format on a tiny run.
"""

from __future__ import annotations

import io
import json
import math
import os
import random
import statistics
import time

# ----------------------------------------------------------------------------- baselines


def ericson_segment_segment(p1, q1, p2, q2):
    """Ericson, *Real-Time Collision Detection*, §5.1.9 ``ClosestPtSegmentSegment``, in plain
    Python: returns ``(sqr_distance, s, t, c1, c2)``. The baseline of ``bench kernels``."""
    EPSILON = 1e-12
    d1 = (q1[0] - p1[0], q1[1] - p1[1], q1[2] - p1[2])
    d2 = (q2[0] - p2[0], q2[1] - p2[1], q2[2] - p2[2])
    r = (p1[0] - p2[0], p1[1] - p2[1], p1[2] - p2[2])
    a = d1[0] * d1[0] + d1[1] * d1[1] + d1[2] * d1[2]
    e = d2[0] * d2[0] + d2[1] * d2[1] + d2[2] * d2[2]
    f = d2[0] * r[0] + d2[1] * r[1] + d2[2] * r[2]
    if a <= EPSILON and e <= EPSILON:
        s = t = 0.0
    elif a <= EPSILON:
        s = 0.0
        t = min(max(f / e, 0.0), 1.0)
    else:
        c = d1[0] * r[0] + d1[1] * r[1] + d1[2] * r[2]
        if e <= EPSILON:
            t = 0.0
            s = min(max(-c / a, 0.0), 1.0)
        else:
            b = d1[0] * d2[0] + d1[1] * d2[1] + d1[2] * d2[2]
            denom = a * e - b * b
            s = min(max((b * f - c * e) / denom, 0.0), 1.0) if denom != 0.0 else 0.0
            t = (b * s + f) / e
            if t < 0.0:
                t = 0.0
                s = min(max(-c / a, 0.0), 1.0)
            elif t > 1.0:
                t = 1.0
                s = min(max((b - c) / a, 0.0), 1.0)
    c1 = (p1[0] + d1[0] * s, p1[1] + d1[1] * s, p1[2] + d1[2] * s)
    c2 = (p2[0] + d2[0] * t, p2[1] + d2[1] * t, p2[2] + d2[2] * t)
    w = (c1[0] - c2[0], c1[1] - c2[1], c1[2] - c2[2])
    return w[0] * w[0] + w[1] * w[1] + w[2] * w[2], s, t, c1, c2


def bare_woo(org, delta, bmin, bmax):
    """Woo's ray-box test as printed in Dunn & Parberry, *3D Math Primer*, App. A.18,
    Listing A.6 (a ray: no ``rayDelta`` bound): the parametric point of intersection and the
    normal, or ``None``. No trace, no tolerance, no degenerate cases."""
    inside = True
    xt = yt = zt = -1.0
    xn = yn = zn = 0.0
    if org[0] < bmin[0]:
        xt = bmin[0] - org[0]
        if delta[0] <= 0:
            return None
        xt /= delta[0]
        inside = False
        xn = -1.0
    elif org[0] > bmax[0]:
        xt = bmax[0] - org[0]
        if delta[0] >= 0:
            return None
        xt /= delta[0]
        inside = False
        xn = 1.0
    if org[1] < bmin[1]:
        yt = bmin[1] - org[1]
        if delta[1] <= 0:
            return None
        yt /= delta[1]
        inside = False
        yn = -1.0
    elif org[1] > bmax[1]:
        yt = bmax[1] - org[1]
        if delta[1] >= 0:
            return None
        yt /= delta[1]
        inside = False
        yn = 1.0
    if org[2] < bmin[2]:
        zt = bmin[2] - org[2]
        if delta[2] <= 0:
            return None
        zt /= delta[2]
        inside = False
        zn = -1.0
    elif org[2] > bmax[2]:
        zt = bmax[2] - org[2]
        if delta[2] >= 0:
            return None
        zt /= delta[2]
        inside = False
        zn = 1.0
    if inside:
        return 0.0, None
    which = 0
    t = xt
    if yt > t:
        which, t = 1, yt
    if zt > t:
        which, t = 2, zt
    if which == 0:
        y = org[1] + delta[1] * t
        if y < bmin[1] or y > bmax[1]:
            return None
        z = org[2] + delta[2] * t
        if z < bmin[2] or z > bmax[2]:
            return None
        return t, (xn, 0.0, 0.0)
    if which == 1:
        x = org[0] + delta[0] * t
        if x < bmin[0] or x > bmax[0]:
            return None
        z = org[2] + delta[2] * t
        if z < bmin[2] or z > bmax[2]:
            return None
        return t, (0.0, yn, 0.0)
    x = org[0] + delta[0] * t
    if x < bmin[0] or x > bmax[0]:
        return None
    y = org[1] + delta[1] * t
    if y < bmin[1] or y > bmax[1]:
        return None
    return t, (0.0, 0.0, zn)


def bare_badouel(org, delta, p0, p1, p2):
    """Badouel's ray-triangle test as printed in Dunn & Parberry, App. A.16, Listing A.4, both
    faces (a ray: no ``minT``): ``(t, normal)`` or ``None``. No trace, no degenerate cases."""
    e1 = (p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2])
    e2 = (p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2])
    n = (e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
         e1[0] * e2[1] - e1[1] * e2[0])
    dot = n[0] * delta[0] + n[1] * delta[1] + n[2] * delta[2]
    if not (dot != 0):
        return None
    d = n[0] * p0[0] + n[1] * p0[1] + n[2] * p0[2]
    t = d - (n[0] * org[0] + n[1] * org[1] + n[2] * org[2])
    if dot < 0:
        if not (t <= 0):
            return None
    elif not (t >= 0):
        return None
    t /= dot
    p = (org[0] + delta[0] * t, org[1] + delta[1] * t, org[2] + delta[2] * t)
    ax, ay, az = abs(n[0]), abs(n[1]), abs(n[2])
    if ax > ay:
        if ax > az:
            u0, u1, u2 = p[1] - p0[1], p1[1] - p0[1], p2[1] - p0[1]
            v0, v1, v2 = p[2] - p0[2], p1[2] - p0[2], p2[2] - p0[2]
        else:
            u0, u1, u2 = p[0] - p0[0], p1[0] - p0[0], p2[0] - p0[0]
            v0, v1, v2 = p[1] - p0[1], p1[1] - p0[1], p2[1] - p0[1]
    elif ay > az:
        u0, u1, u2 = p[0] - p0[0], p1[0] - p0[0], p2[0] - p0[0]
        v0, v1, v2 = p[2] - p0[2], p1[2] - p0[2], p2[2] - p0[2]
    else:
        u0, u1, u2 = p[0] - p0[0], p1[0] - p0[0], p2[0] - p0[0]
        v0, v1, v2 = p[1] - p0[1], p1[1] - p0[1], p2[1] - p0[1]
    temp = u1 * v2 - v1 * u2
    if not (temp != 0):
        return None
    temp = 1.0 / temp
    alpha = (u0 * v2 - v0 * u2) * temp
    if not (alpha >= 0):
        return None
    beta = (u1 * v0 - v1 * u0) * temp
    if not (beta >= 0):
        return None
    if not (1.0 - alpha - beta >= 0):
        return None
    m = math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
    s = 1.0 / m if dot < 0 else -1.0 / m
    return t, (n[0] * s, n[1] * s, n[2] * s)


def numpy_ericson(p1, q1, p2, q2):
    """The 20-line numpy vectorisation of Ericson §5.1.9 (no degenerate or parallel care):
    the floor ``bench batch`` compares :func:`algorithms.batch.segment_segment` with."""
    import numpy as np

    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    a = np.einsum("ij,ij->i", d1, d1)
    e = np.einsum("ij,ij->i", d2, d2)
    f = np.einsum("ij,ij->i", d2, r)
    c = np.einsum("ij,ij->i", d1, r)
    b = np.einsum("ij,ij->i", d1, d2)
    denom = a * e - b * b
    with np.errstate(divide="ignore", invalid="ignore"):
        s = np.where(denom != 0, np.clip((b * f - c * e) / denom, 0, 1), 0.0)
        t = (b * s + f) / e
        s = np.where(t < 0, np.clip(-c / a, 0, 1), np.where(t > 1, np.clip((b - c) / a, 0, 1), s))
    t = np.clip(t, 0, 1)
    w = p1 + d1 * s[:, None] - p2 - d2 * t[:, None]
    return np.sqrt(np.einsum("ij,ij->i", w, w))


# ----------------------------------------------------------------------------- timing


def interleaved(funcs: dict, rounds: int, clock=time.perf_counter, timed=None) -> dict:
    """Seconds per call of each ``name -> (callable, calls per run)``: the best of
    ``rounds`` runs, interleaved round by round so a loaded machine slows each alike (the
    best, not the median: on a machine shared with other jobs the slow runs measure the
    others; the ``timeit`` module's advice). ``clock``: wall time by default;
    ``time.process_time`` (this process's CPU time) leaves out the time other jobs hold the
    cores, for the same work on both sides of a ratio. ``timed``: more ``name -> callable``
    that time themselves (return seconds per call: a child process's own clock), run in the
    same rounds, each after the job of the same name without its prefix ``filed_`` (not
    before it: waiting on a child, this process loses its caches, as its next run shows)."""
    timed = timed or {}
    times = {name: [] for name in (*funcs, *timed)}
    for fn, _calls in funcs.values():
        fn()  # warm up, untimed: imports, the registry's first lookups, caches
    for _ in range(rounds):
        for name, (fn, calls) in funcs.items():
            t0 = clock()
            fn()
            times[name].append((clock() - t0) / calls)
            if "filed_" + name in timed:
                times["filed_" + name].append(timed["filed_" + name]())
    return {name: min(v) for name, v in times.items() if v}


def _us(sec: float) -> str:
    return f"{sec * 1e6:.2f} us"


def _ns(sec: float) -> str:
    return f"{sec * 1e9:.1f} ns"


def _ratio(x: float, base: float) -> float:
    return x / base if base > 0 else float("nan")


# ----------------------------------------------------------------------------- inputs


def _rv(rng, s=1.0):
    return tuple(rng.uniform(-s, s) for _ in range(3))


def _kernel_cases(rng, count):
    """Fixed random inputs: segment pairs, rays with boxes and triangles (about half hit)."""
    from algorithms import AABB, Ray, Segment, Triangle

    segs = []
    for _ in range(count):
        p1, q1, p2, q2 = (_rv(rng) for _ in range(4))
        segs.append(((p1, q1, p2, q2), (Segment(p1, q1), Segment(p2, q2))))
    boxes, tris = [], []
    for _ in range(count):
        o = tuple(3 * x for x in _rv(rng))
        target = _rv(rng, 0.8)
        d = tuple(t - x + 0.3 * e for t, x, e in zip(target, o, _rv(rng)))
        lo = tuple(x - 0.5 for x in _rv(rng, 0.3))
        hi = tuple(x + 1.0 for x in lo)
        boxes.append(((o, d, lo, hi), (Ray(o, d), AABB(lo, hi))))
        v = (_rv(rng), _rv(rng), _rv(rng))
        tris.append(((o, d) + v, (Ray(o, d), Triangle(v))))
    return segs, boxes, tris


def _solid_cases(rng, count):
    from algorithms import OBB, Capsule, Cylinder

    caps, cyls, tois = [], [], []
    for _ in range(count):
        caps.append((Capsule(_rv(rng), _rv(rng), 0.2), Capsule(_rv(rng, 2), _rv(rng, 2), 0.3)))
        cyls.append((Cylinder(_rv(rng), _rv(rng), 0.3, 0.8),
                     Cylinder(tuple(1.0 + x for x in _rv(rng, 0.3)), _rv(rng), 0.4, 1.0)))
        c, s = math.cos(0.4), math.sin(0.4)
        tois.append((OBB(_rv(rng), ((c, s, 0.0), (-s, c, 0.0), (0.0, 0.0, 1.0)), (0.5, 0.3, 0.4)),
                     Cylinder(tuple(3 + x for x in _rv(rng)), (0.0, 0.0, 1.0), 0.4, 1.0),
                     (-4.0, 0.5, 0.2)))
    return caps, cyls, tois


#: the moving pairs of ``bench kernels``'s time-of-impact rows (issue 12: "capsule, cylinder
#: and generic time-of-impact pairs 10x faster")
TOI_PAIRS = (("capsule", "capsule"), ("sphere", "capsule"), ("capsule", "obb"),
             ("sphere", "cylinder"), ("capsule", "cylinder"), ("obb", "cylinder"),
             ("cylinder", "cylinder"), ("triangle", "cylinder"), ("obb", "obb"),
             ("aabb", "triangle"))


def _toi_cases(rng, count):
    """Per pair of :data:`TOI_PAIRS`, ``count`` moving cases: A near the origin, B near
    ``(3, 0, 0)`` moving by about ``(-4, 0, 0)`` with a sideways part, random orientations;
    about two thirds touch within the period."""
    from algorithms import AABB, OBB, Capsule, Cylinder, Sphere, Triangle

    def unit():
        while True:
            v = _rv(rng)
            n = math.sqrt(sum(x * x for x in v))
            if n > 0.1:
                return tuple(x / n for x in v)

    def rot():  # Gram-Schmidt on two random directions
        a = unit()
        b = unit()
        d = sum(x * y for x, y in zip(a, b))
        b = tuple(y - d * x for x, y in zip(a, b))
        n = math.sqrt(sum(x * x for x in b)) or 1.0
        b = tuple(y / n for y in b)
        c = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
        return (a, b, c)

    def make(kind, at):
        c = tuple(o + x for o, x in zip(at, _rv(rng, 0.3)))
        if kind == "capsule":
            u = unit()
            return Capsule(tuple(x - 0.4 * e for x, e in zip(c, u)),
                           tuple(x + 0.4 * e for x, e in zip(c, u)), 0.25)
        if kind == "cylinder":
            return Cylinder(c, unit(), 0.35, 0.9)
        if kind == "obb":
            return OBB(c, rot(), (0.5, 0.3, 0.4))
        if kind == "sphere":
            return Sphere(c, 0.4)
        if kind == "aabb":
            return AABB(tuple(x - 0.4 for x in c), tuple(x + 0.5 for x in c))
        return Triangle(tuple(tuple(x + e for x, e in zip(c, _rv(rng, 0.6))) for _ in range(3)))

    out = {}
    for ka, kb in TOI_PAIRS:
        out[(ka, kb)] = [(make(ka, (0.0, 0.0, 0.0)), make(kb, (3.0, 0.0, 0.0)),
                          (-4 + rng.uniform(-1, 1), rng.uniform(-1.5, 1.5),
                           rng.uniform(-1.5, 1.5))) for _ in range(count)]
    return out


#: the commit whose code issue 12's table measured ("now" there, the "today" of its "capsule,
#: cylinder and generic time-of-impact pairs 10x faster than today"): ``main`` when the session
#: that filed the issue began, 2026-12-01 (68c94d1, the golden files, is that session's first
#: commit on it)
FILED_COMMIT = "d1aa8f934cb906a73deaeb3eb5e219ec2e24a3dc"

# The child process of FiledCode (argv: its folder, the least run in seconds): the cases on its
# first line of input, the answers back, then a round of one pair's cases per line (as many
# passes as make the least run, _passes), its CPU seconds per query back.
_FILED_CHILD = r"""
import json, math, sys, time
import algorithms
if not algorithms.__file__.startswith(sys.argv[1]):
    sys.exit("imported " + algorithms.__file__)
def build(spec):
    return getattr(algorithms, spec[0])(**spec[1])
cases = {k: [(build(a), build(b), tuple(m)) for a, b, m in v]
         for k, v in json.loads(sys.stdin.readline()).items()}
# warm up, untimed; the answers, to hold against today's
print(json.dumps({k: [algorithms.query("toi", a, b, m).toi for a, b, m in v]
                  for k, v in cases.items()}), flush=True)
for k, v in cases.items():
    t0 = time.process_time()
    for a, b, m in v:
        algorithms.query("toi", a, b, m)
    t = time.process_time() - t0
    cases[k] = v * (max(1, math.ceil(float(sys.argv[2]) / t)) if t > 0 else 64)
for line in sys.stdin:
    v = cases[line.strip()]
    t0 = time.process_time()
    for a, b, m in v:
        algorithms.query("toi", a, b, m)
    print((time.process_time() - t0) / len(v), flush=True)
"""


def _spec(prim) -> list:
    """``[class name, {field: value}]`` of a primitive (the constructor's arguments)."""
    import dataclasses

    return [type(prim).__name__, {f.name: getattr(prim, f.name)
                                  for f in dataclasses.fields(prim) if f.init}]


class FiledCode:
    """``query("toi")`` as the code of :data:`FILED_COMMIT` answered it, in a child process:
    ``git archive`` of that commit's ``algorithms`` package from the repository this module
    lies in, unpacked into a temporary folder and imported from there alone (numpy its only
    dependency, then as now). ``cases``: ``name -> [(a, b, motion), ...]``. :meth:`round`
    times one run over one name's cases in the child's CPU time (as many passes as make a run
    of ``min_run`` seconds: :func:`_passes`); :attr:`tois` holds its answers;
    :attr:`reason` says why it is not there (an install without the history: a wheel, a
    shallow clone), and then nothing else is."""

    def __init__(self, cases: dict, min_run: float = 0.0):
        import subprocess
        import sys
        import tarfile
        import tempfile
        from pathlib import Path

        self.tois, self.reason, self._proc, self._dir = {}, None, None, None
        here = Path(__file__).resolve().parent
        try:
            top = subprocess.run(["git", "-C", str(here), "rev-parse", "--show-toplevel"],
                                 capture_output=True, text=True, timeout=60,
                                 check=True).stdout.strip()
            tar = subprocess.run(["git", "-C", top, "archive", "--prefix=algorithms/",
                                  f"{FILED_COMMIT}:algorithms"], capture_output=True,
                                 timeout=120, check=True).stdout
        except (OSError, subprocess.SubprocessError):
            self.reason = (f"the code as filed ({FILED_COMMIT[:7]}) is taken from this "
                           "package's git history, which is not at hand here: not measured")
            return
        self._dir = tempfile.TemporaryDirectory(prefix="explorer-filed-")
        with tarfile.open(fileobj=io.BytesIO(tar)) as archive:
            archive.extractall(self._dir.name, filter="data")
        env = dict(os.environ, PYTHONPATH=self._dir.name)
        self._proc = subprocess.Popen([sys.executable, "-c", _FILED_CHILD, self._dir.name,
                                       repr(min_run)],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      text=True, env=env, cwd=self._dir.name)
        spec = {k: [[_spec(a), _spec(b), list(m)] for a, b, m in v] for k, v in cases.items()}
        self._proc.stdin.write(json.dumps(spec) + "\n")
        self._proc.stdin.flush()
        line = self._proc.stdout.readline()
        if not line:
            self.close()
            self.reason = f"the code as filed ({FILED_COMMIT[:7]}) did not start: not measured"
            return
        self.tois = json.loads(line)

    def round(self, name: str) -> float:
        """CPU seconds per query of one run over ``name``'s cases in the child."""
        self._proc.stdin.write(name + "\n")
        self._proc.stdin.flush()
        return float(self._proc.stdout.readline())

    def close(self):
        if self._proc is not None:
            self._proc.stdin.close()
            self._proc.wait(timeout=60)
            self._proc = None
        if self._dir is not None:
            self._dir.cleanup()
            self._dir = None


def _same_toi(x, y) -> bool:
    """Two answers of ``query("toi")`` agree: both none, or within 1e-6 (the advancement's
    ``tol`` is 1e-9 of the scale; a cylinder's contact within ``tol`` over its closing speed)."""
    return (x is None) == (y is None) and (x is None or abs(x - y) <= 1e-6)


# ----------------------------------------------------------------------------- bench kernels


#: how many times ``bench kernels`` runs each capsule and cylinder distance case a timed run
SOLID_REPEATS = 8
#: the least CPU time of a timed run of ``bench kernels``'s rows (but the solid rows'): each
#: side (the library's query, its baseline, its careful path; the time-of-impact rows' code as
#: filed too) goes through its cases as many times as that takes (:func:`_passes`; ``timeit``'s
#: autorange, for the same reason as SOLID_REPEATS: right after a careful path's long run, a
#: pass over a few cases at a few microseconds each times cold caches first; time of impact,
#: sphere-capsule took 13.0 us a query in a run of one pass of its 12 cases, 10.1 in four and
#: 9.0 in sixteen, 8.1 run alone: a run of 2 ms is within about 10 % of the last)
MIN_RUN = 2e-3


def _passes(run, min_run: float) -> int:
    """How many times ``run()`` (one pass over a row's cases, timed once here, warm) makes a
    run of at least ``min_run`` seconds of CPU time.

    The timed pass follows an untimed one: a row's first pass pays what is paid once (the
    registry's imports and first lookups, the forms its kernels keep on each primitive), and
    timed alone it can take longer than ``min_run`` by itself: the row then ran one pass of
    its cases a round, right after the careful path's long run (cold caches), and ray-AABB
    timed at 2.9 times its baseline instead of 2.5 (the same run, same machine)."""
    run()
    t0 = time.process_time()
    run()
    t = time.process_time() - t0
    return max(1, math.ceil(min_run / t)) if t > 0 else 64


def run_kernels(rounds: int = 7, count: int = 64, solids: int = 4, seed: int = 12,
                toi: int = 12, filed: bool = True) -> dict:
    """The figures of ``bench kernels`` (seconds per call); ``toi`` moving cases per pair of
    :data:`TOI_PAIRS` (0: none), also against the code as filed (:class:`FiledCode`) with
    ``filed``."""
    from algorithms import query
    from algorithms.kernels import toi_fast
    from algorithms.kernels.filters import careful_only

    rng = random.Random(seed)
    segs, boxes, tris = _kernel_cases(rng, count)

    # a row's loop over its cases, made by ``loop(fn)`` (a baseline: ``fn(*case)``) or
    # ``asking(name)`` (the library: ``query(name, *case)``, called as a user calls it, as the
    # loop calls a baseline: a function of ours around it would time one more Python call on
    # the library's side alone); the answers dropped as they come (a run that kept a long
    # run's records alive would time the garbage collector's passes over them too)
    def loop(fn):
        def make(cases):
            def run():
                for c in cases:
                    fn(*c)
            return run
        return make

    def asking(name):
        def make(cases):
            if name == "toi":
                def run():
                    for a, b, m in cases:
                        query("toi", a, b, m)
            else:
                def run():
                    for a, b in cases:
                        query(name, a, b)
            return run
        return make

    def careful(f):
        def run():
            with careful_only():
                f()
        return run

    def toi_baseline(f):
        def run():
            with toi_fast.off():
                f()
        return run

    seg_args = [c[0] for c in segs]
    seg_prims = [c[1] for c in segs]
    box_args = [c[0] for c in boxes]
    box_prims = [c[1] for c in boxes]
    tri_args = [c[0] for c in tris]
    tri_prims = [c[1] for c in tris]
    distance = asking("distance")
    cast = asking("hits")
    q_seg = distance(seg_prims)
    q_box = cast(box_prims)
    q_tri = cast(tri_prims)

    def long(make, cases, wrap=lambda run: run):
        """``(run, calls)``: ``wrap(make(...))`` over the cases as many times as make a run
        of MIN_RUN (:func:`_passes`)."""
        k = _passes(wrap(make(cases)), MIN_RUN)
        return wrap(make(cases * k)), len(cases) * k

    figures = interleaved({
        "segment_segment_baseline": long(loop(ericson_segment_segment), seg_args),
        "segment_segment": long(distance, seg_prims),
        "segment_segment_careful": long(distance, seg_prims, careful),
        "ray_aabb_baseline": long(loop(bare_woo), box_args),
        "ray_aabb": long(cast, box_prims),
        "ray_aabb_careful": long(cast, box_prims, careful),
        "ray_triangle_baseline": long(loop(bare_badouel), tri_args),
        "ray_triangle": long(cast, tri_prims),
        "ray_triangle_careful": long(cast, tri_prims, careful),
    }, rounds)
    # how many of the cases each lean filter sent to the careful path (one untimed pass)
    from algorithms.kernels.filters import FALLBACKS

    for key, run, names in (("segment_segment", q_seg, ("st_lean",)),
                            ("ray_aabb", q_box, ("woo_lean",)),
                            ("ray_triangle", q_tri, ("badouel_lean", "badouel_miss"))):
        before = sum(FALLBACKS.get(n, 0) for n in names)
        run()
        figures[key + "_fallbacks"] = sum(FALLBACKS.get(n, 0) for n in names) - before
    hits = sum(bare_woo(*a) is not None for a in box_args)
    figures["ray_aabb_hit_fraction"] = hits / count
    figures["ray_triangle_hit_fraction"] = sum(bare_badouel(*a) is not None
                                               for a in tri_args) / count
    if solids:
        caps, cyls, tois = _solid_cases(rng, solids)
        # each case SOLID_REPEATS times a run: a run of a few microsecond queries right after
        # the careful path's long one times the cold caches as much as the queries
        n = solids * SOLID_REPEATS
        q_cap = distance(caps * SOLID_REPEATS)
        q_cyl = distance(cyls * SOLID_REPEATS)
        q_toi = asking("toi")(tois)
        figures.update(interleaved({
            "capsule_capsule": (q_cap, n),
            "capsule_capsule_careful": (careful(q_cap), n),
            "cylinder_cylinder": (q_cyl, n),
            "cylinder_cylinder_careful": (careful(q_cyl), n),
            "obb_cylinder_toi": (q_toi, solids),
            "obb_cylinder_toi_careful": (careful(q_toi), solids),
            "obb_cylinder_toi_baseline": (toi_baseline(q_toi), solids),
        }, max(1, rounds // 2)))
    if toi:
        # time of impact: the default query against today's careful conservative advancement
        # (the fast path off, algorithms.kernels.toi_fast.off), interleaved per pair, in CPU
        # time (both sides are single-threaded pure Python: what other jobs on a shared
        # machine take is neither's)
        jobs = {}
        answered = {}
        by_name = {f"toi_{ka}_{kb}": cases for (ka, kb), cases in _toi_cases(rng, toi).items()}
        moving = asking("toi")
        for name, cases in by_name.items():
            jobs[name + "_baseline"] = long(moving, cases, toi_baseline)
            jobs[name] = long(moving, cases)
            # how many cases the fast path answered (the rest went to the careful path)
            answered[name + "_fast_answers"] = sum(
                "path" in query("toi", a, b, m).trace for a, b, m in cases)
        # the code as filed, in its child process, each pair's round after today's
        old = FiledCode(by_name, MIN_RUN) if filed else None
        timed = {}
        if old is not None and old.reason is None:
            for name, cases in by_name.items():
                timed["filed_" + name] = (lambda name=name: old.round(name))
                answered[name + "_filed_agree"] = sum(
                    _same_toi(query("toi", a, b, m).toi, x)
                    for (a, b, m), x in zip(cases, old.tois[name]))
        elif old is not None:
            figures["filed_reason"] = old.reason
        try:
            figures.update(interleaved(jobs, max(1, rounds), clock=time.process_time,
                                       timed=timed))
        finally:
            if old is not None:
                old.close()
        figures.update(answered)
        figures["toi_cases"] = toi
    return figures


#: the figures (seconds) issue 12 measured for these queries when it was filed, the "today" of
#: its "10x faster than today" (on another machine; the careful path of this run is today's
#: careful kernel, itself faster since; the time-of-impact rows time the code as filed itself:
#: :class:`FiledCode`)
ISSUE_FIGURES = {"capsule_capsule": 93e-6, "cylinder_cylinder": 0.97e-3,
                 "obb_cylinder_toi": 8.7e-3}

#: compiled figures the issue quotes (not measured here; printed for context)
REFERENCE = {"segment_segment": "Geometric Tools C++ 24 ns", "ray_aabb": "Geometric Tools 31 ns",
             "capsule_capsule": "coal 0.93 us", "cylinder_cylinder": "coal 2.4 us",
             "obb_cylinder_toi": "fcl 6.1 us"}


def kernels_main(args) -> int:
    quick = getattr(args, "quick", False)
    count = 4 if quick else 64
    f = run_kernels(rounds=1 if quick else args.rounds, count=count, solids=1 if quick else 4,
                    toi=1 if quick else 12)
    print(f"bench kernels: best of {1 if quick else args.rounds} interleaved rounds, each run "
          f"at least {MIN_RUN * 1e3:g} ms of passes over its cases (the answers dropped); "
          "'careful' = the same query with every filter off (algorithms.kernels.filters)")
    rows = [("segment_segment", "segment-segment query('distance')",
             "plain Python Ericson RTCD 5.1.9", 3.0),
            ("ray_aabb", "ray-AABB query('hits')", "bare Woo, Primer A.18", 2.0),
            ("ray_triangle", "ray-triangle query('hits')", "bare Badouel, Primer A.16", 2.0)]
    out = {}
    for key, what, base, target in rows:
        t, b, c = f[key], f[key + "_baseline"], f[key + "_careful"]
        r = _ratio(t, b)
        out[key] = {"us": round(t * 1e6, 3), "baseline_us": round(b * 1e6, 3),
                    "careful_us": round(c * 1e6, 3), "ratio": round(r, 2), "target": target}
        out[key]["careful_fallbacks"] = f[key + "_fallbacks"]
        extra = f"; {f[key + '_fallbacks']} of {count} cases sent to the careful path"
        if key + "_hit_fraction" in f:
            extra += f" ({f[key + '_hit_fraction']:.0%} of the rays hit)"
        print(f"{what}: {_us(t)}; baseline {base}: {_us(b)}; ratio {r:.1f} "
              f"(target <= {target:g}); careful path {_us(c)} "
              f"(filters gain {_ratio(c, t):.1f}x){extra}")
    toi_keys = [k[:-len("_baseline")] for k in f if k.startswith("toi_") and
                k.endswith("_baseline")]
    if toi_keys:
        print("time of impact, query('toi') (conservative advancement, its fast path), same "
              f"cases, interleaved, best of {1 if quick else args.rounds} rounds in CPU time "
              "(time.process_time), against today's careful path (algorithms.kernels.toi_fast"
              f".off) and against the code as filed ({FILED_COMMIT[:7]}, the issue's 'today', "
              "in a child process); target 10x faster than the code as filed:")
        if "filed_reason" in f:
            print(f"  ({f['filed_reason']})")
    for key in toi_keys:
        t, b = f[key], f[key + "_baseline"]
        pair = key[len("toi_"):].replace("_", "-")
        fast_n, n = f.get(key + "_fast_answers"), f.get("toi_cases")
        out[key] = {"us": round(t * 1e6, 3), "baseline_us": round(b * 1e6, 3),
                    "speedup": round(_ratio(b, t), 2), "target_speedup": 10.0,
                    "fast_answers": fast_n, "cases": n}
        filed = ""
        if "filed_" + key in f:
            o, agree = f["filed_" + key], f[key + "_filed_agree"]
            out[key].update(filed_us=round(o * 1e6, 3), speedup_vs_filed=round(_ratio(o, t), 2),
                            filed_agree=agree)
            filed = (f"; as filed {_us(o)}: {_ratio(o, t):.1f}x (the same answers on "
                     f"{agree} of {n})")
        print(f"  moving {pair}: {_us(t)}; today's careful path {_us(b)}: "
              f"{_ratio(b, t):.1f}x{filed} ({fast_n} of {n} cases answered by the fast path)")
    for key, what in (("capsule_capsule", "capsule-capsule query('distance')"),
                      ("cylinder_cylinder", "cylinder-cylinder query('distance')"),
                      ("obb_cylinder_toi", "moving OBB-cylinder query('toi')")):
        if key in f:
            t, c = f[key], f[key + "_careful"]
            out[key] = {"us": round(t * 1e6, 3), "careful_us": round(c * 1e6, 3),
                        "speedup": round(_ratio(c, t), 2), "target_speedup": 10.0}
            today = ""
            if key + "_baseline" in f:  # the toi fast path off: today's advancement
                b = f[key + "_baseline"]
                out[key].update(baseline_us=round(b * 1e6, 3),
                                speedup_vs_today=round(_ratio(b, t), 2))
                today = (f"; today's careful advancement (toi fast path off) {_us(b)}: "
                         f"{_ratio(b, t):.1f}x")
            issue = ISSUE_FIGURES[key]
            out[key].update(issue_us=issue * 1e6, speedup_vs_issue=round(_ratio(issue, t), 2))
            print(f"{what}: {_us(t)}; careful path {_us(c)}: filters gain "
                  f"{_ratio(c, t):.1f}x{today}; the issue's figure {_us(issue)} (measured "
                  f"when it was filed, not here): {_ratio(issue, t):.1f}x (target 10x); "
                  f"compiled reference: {REFERENCE[key]} (not measured here)")
    print(json.dumps(out))
    return 0


# ----------------------------------------------------------------------------- bench batch


def _batch_inputs(n, seed=3):
    import numpy as np

    rng = np.random.default_rng(seed)
    g = rng.normal
    lo = g(size=(n, 3))
    hi = lo + rng.uniform(0.2, 2.0, size=(n, 3))
    return {"p0": g(size=(n, 3)), "p1": g(size=(n, 3)), "q0": g(size=(n, 3)),
            "q1": g(size=(n, 3)), "o": 3 * g(size=(n, 3)), "d": g(size=(n, 3)), "lo": lo,
            "hi": hi, "c": g(size=(n, 3)), "r": rng.uniform(0.1, 1.0, size=n),
            "v0": 2 * g(size=(n, 3)), "v1": 2 * g(size=(n, 3)), "v2": 2 * g(size=(n, 3)),
            "m": 3 * g(size=(n, 3))}


def _batch_jobs(x):
    """``name -> (batch call, scalar call of row i)`` for every function of algorithms.batch."""
    import numpy as np

    from algorithms import AABB, Point, Ray, Segment, Sphere, Triangle, batch, query

    def rot(n):
        # rotation matrices from normalised quaternions, rows the box axes
        rng = np.random.default_rng(7)
        q = rng.normal(size=(n, 4))
        q /= np.linalg.norm(q, axis=1)[:, None]
        w, a, b, c = q.T
        rows = ((1 - 2 * (b * b + c * c), 2 * (a * b + c * w), 2 * (a * c - b * w)),
                (2 * (a * b - c * w), 1 - 2 * (a * a + c * c), 2 * (b * c + a * w)),
                (2 * (a * c + b * w), 2 * (b * c - a * w), 1 - 2 * (a * a + b * b)))
        return np.stack([np.stack(row, 1) for row in rows], 1)

    n = len(x["o"])
    ax0, ax1 = rot(n), rot(n)[::-1].copy()
    ext = np.abs(x["lo"]) * 0.5 + 0.1
    from algorithms import OBB

    def T(v):  # noqa: N802 - a row as the tuple the scalar primitives take
        return tuple(float(c) for c in v)

    return {
        "segment_segment": (lambda: batch.segment_segment(x["p0"], x["p1"], x["q0"], x["q1"]),
                            lambda i: query("distance", Segment(T(x["p0"][i]), T(x["p1"][i])),
                                            Segment(T(x["q0"][i]), T(x["q1"][i])))),
        "ray_aabb": (lambda: batch.linear_aabb(x["o"], x["d"], x["lo"], x["hi"]),
                     lambda i: query("hits", Ray(T(x["o"][i]), T(x["d"][i])),
                                     AABB(T(x["lo"][i]), T(x["hi"][i])))),
        "ray_sphere": (lambda: batch.linear_sphere(x["o"], x["d"], x["c"], x["r"]),
                       lambda i: query("hits", Ray(T(x["o"][i]), T(x["d"][i])),
                                       Sphere(T(x["c"][i]), float(x["r"][i])))),
        "ray_triangle": (lambda: batch.linear_triangle(x["o"], x["d"], x["v0"], x["v1"], x["v2"]),
                         lambda i: query("hits", Ray(T(x["o"][i]), T(x["d"][i])),
                                         Triangle((T(x["v0"][i]), T(x["v1"][i]),
                                                   T(x["v2"][i]))))),
        "obb_obb": (lambda: batch.obb_obb(x["c"], ax0, ext, x["p0"], ax1, ext[::-1]),
                    lambda i: query("separating_axis", OBB(T(x["c"][i]), ax0[i], T(ext[i])),
                                    OBB(T(x["p0"][i]), ax1[i], T(ext[::-1][i])))),
        "sphere_aabb": (lambda: batch.sphere_aabb(x["c"], x["r"], x["lo"], x["hi"]),
                        lambda i: query("intersects", Sphere(T(x["c"][i]), float(x["r"][i])),
                                        AABB(T(x["lo"][i]), T(x["hi"][i])))),
        "point_aabb": (lambda: batch.point_aabb(x["o"], x["lo"], x["hi"]),
                       lambda i: query("distance", Point(T(x["o"][i])),
                                       AABB(T(x["lo"][i]), T(x["hi"][i])))),
        "point_triangle": (lambda: batch.point_triangle(x["o"], x["v0"], x["v1"], x["v2"]),
                           lambda i: query("distance", Point(T(x["o"][i])),
                                           Triangle((T(x["v0"][i]), T(x["v1"][i]),
                                                     T(x["v2"][i]))))),
        "moving_spheres": (lambda: batch.moving_spheres(x["c"], x["r"], x["p0"], x["r"][::-1],
                                                        x["m"]),
                           lambda i: query("toi", Sphere(T(x["c"][i]), float(x["r"][i])),
                                           Sphere(T(x["p0"][i]), float(x["r"][::-1][i])),
                                           T(x["m"][i]))),
        "moving_aabbs": (lambda: batch.moving_aabbs(x["lo"], x["hi"], x["c"], x["c"] + ext,
                                                    x["m"]),
                         lambda i: query("toi", AABB(T(x["lo"][i]), T(x["hi"][i])),
                                         AABB(T(x["c"][i]), T(x["c"][i] + ext[i])), T(x["m"][i]))),
    }


def run_batch(n: int = 200_000, loop: int = 500, rounds: int = 3, only=None) -> dict:
    """Seconds per pair of each batch function at ``n`` rows and of the scalar loop (and, where
    :mod:`algorithms.accel` compiles the function, of its numpy fallback)."""
    from algorithms import accel

    x = _batch_inputs(n)
    jobs = _batch_jobs(x)
    out = {}
    for name, (vec, scalar) in jobs.items():
        if only and name not in only:
            continue
        k = min(loop, n)
        funcs = {"batch": (vec, n), "loop": (lambda: [scalar(i) for i in range(k)], k)}
        if accel.kernel(name.replace("ray_", "linear_")) is not None:
            vec()  # compiled (or loaded from numba's cache) before the clock runs

            def numpy_only(vec=vec):
                with accel.disabled():
                    return vec()

            funcs["numpy"] = (numpy_only, n)
        if name == "segment_segment":
            funcs["numpy_ericson"] = (lambda: numpy_ericson(x["p0"], x["p1"], x["q0"], x["q1"]), n)
        f = interleaved(funcs, rounds)
        res = vec()
        f["careful_rows"] = int(res.careful.sum())
        out[name] = f
    return out


def batch_main(args) -> int:
    quick = getattr(args, "quick", False)
    n = 256 if quick else args.n
    f = run_batch(n=n, loop=16 if quick else args.loop, rounds=1 if quick else args.rounds)
    print(f"bench batch: {n} rows per call (algorithms.batch), against a Python loop over the "
          f"scalar query on {min(n, 16 if quick else args.loop)} of them; best of "
          f"interleaved rounds")
    out = {}
    for name, v in f.items():
        r = _ratio(v["loop"], v["batch"])
        out[name] = {"batch_ns": round(v["batch"] * 1e9, 2), "loop_us": round(v["loop"] * 1e6, 3),
                     "speedup": round(r, 1), "careful_rows": v["careful_rows"]}
        extra = ""
        if "numpy" in v:
            out[name]["numpy_ns"] = round(v["numpy"] * 1e9, 2)
            extra += (f"; compiled loop (numba), its numpy fallback {_ns(v['numpy'])}, "
                      f"{_ratio(v['numpy'], v['batch']):.1f}x")
        if "numpy_ericson" in v:
            e = v["numpy_ericson"]
            out[name]["numpy_ericson_ns"] = round(e * 1e9, 2)
            out[name]["ratio_to_numpy_ericson"] = round(_ratio(v["batch"], e), 2)
            extra += (f"; baseline 20-line numpy Ericson (no filter, no degenerate care): "
                     f"{_ns(e)}, ratio {_ratio(v['batch'], e):.2f}; target ~75 ns a pair "
                     f"(3x Geometric Tools, not measured here): "
                     f"{'met' if v['batch'] <= 75e-9 else 'not met'}")
        print(f"{name}: batch {_ns(v['batch'])} a pair; scalar loop {_us(v['loop'])} a pair; "
              f"{r:.0f}x faster; {v['careful_rows']} of {n} rows by the careful scalar "
              f"path{extra}")
    print(json.dumps(out))
    return 0


# ----------------------------------------------------------------------------- bench eval

_KINDS = ("point", "segment", "ray", "line", "plane", "triangle", "sphere", "aabb", "obb",
          "cylinder", "capsule")


def mixed_scene(queries: int = 5000, objects: int = 120, seed: int = 5,
                moving: float = 0.1) -> dict:
    """A scene-v1 document: ``objects`` objects of every type at random, ``queries`` random
    pairs among them (``moving`` of the objects have a motion)."""
    rng = random.Random(seed)

    def v(s=2.0):
        return [round(rng.uniform(-s, s), 3) for _ in range(3)]

    def unit():
        while True:
            w = v(1.0)
            if sum(x * x for x in w) > 0.1:
                return w

    objs = []
    for i in range(objects):
        kind = _KINDS[i % len(_KINDS)]
        o = {"id": f"o{i}", "type": kind}
        c = v(4.0)
        if kind == "point":
            o["position"] = c
        elif kind in ("segment",):
            o.update(p0=c, p1=[a + b for a, b in zip(c, v(1.0))])
        elif kind in ("ray", "line"):
            o.update(origin=c, direction=unit())
        elif kind == "plane":
            o.update(normal=unit(), d=round(rng.uniform(-2, 2), 3))
        elif kind == "triangle":
            o["vertices"] = [[a + b for a, b in zip(c, v(1.0))] for _ in range(3)]
        elif kind == "sphere":
            o.update(center=c, radius=round(rng.uniform(0.1, 1.0), 3))
        elif kind == "aabb":
            e = [abs(x) + 0.1 for x in v(0.8)]
            o.update(min=[a - b for a, b in zip(c, e)], max=[a + b for a, b in zip(c, e)])
        elif kind == "obb":
            ca, sa = math.cos(0.3 * i), math.sin(0.3 * i)
            o.update(center=c, axes=[[ca, sa, 0.0], [-sa, ca, 0.0], [0.0, 0.0, 1.0]],
                     extents=[abs(x) + 0.1 for x in v(0.8)])
        elif kind == "cylinder":
            o.update(center=c, axis=unit(), radius=round(rng.uniform(0.1, 0.8), 3),
                     height=round(rng.uniform(0.2, 1.5), 3))
        else:
            o.update(p0=c, p1=[a + b for a, b in zip(c, v(1.0))],
                     radius=round(rng.uniform(0.1, 0.6), 3))
        if rng.random() < moving:
            o["motion"] = v(3.0)
        objs.append(o)
    qs = []
    for _ in range(queries):
        a, b = rng.sample(range(objects), 2)
        qs.append({"a": f"o{a}", "b": f"o{b}"})
    return {"format": "intersection-explorer-scene", "version": 1, "name": "bench eval",
            "objects": objs, "queries": qs}


def _spin(n: int) -> int:
    s = 0
    for i in range(n):
        s += i
    return s


def two_process_speedup(n: int = 3_000_000) -> float:
    """How much faster two forked processes do two equal pure-Python loops than one process
    does both, now: about 2 on an idle 2-core machine, about 1 when other work holds the
    cores (the most a second ``explorer eval`` worker can give)."""
    import multiprocessing

    t0 = time.perf_counter()
    _spin(n)
    _spin(n)
    t1 = time.perf_counter()
    with multiprocessing.get_context("fork").Pool(2) as pool:
        pool.map(_spin, [n, n])
    return (t1 - t0) / (time.perf_counter() - t1)


_RECORDS = ("distance", "intersection", "hits", "separation", "side", "contact")


def eval_phases(path) -> dict:
    """Where one process's ``explorer eval`` time goes on the scene at ``path``, in seconds:
    ``load`` (read, validate, build the primitives), ``evaluate`` (:func:`evaluate_pair` per
    distinct query), ``deferred`` (the traces and extras ``evaluate_pair`` leaves to be
    computed when read: evaluation work done at writing time; the first reading of every
    answer less a second one), ``build`` (the result dicts of :mod:`algorithms.report`, the
    second reading), ``encode`` (the C ``json`` encoder) and ``write`` (joining the
    texts); each phase run over every query before the next. ``evaluate_pair_share``: the
    fraction of the sum that is :func:`evaluate_pair` (``evaluate + deferred``)."""
    from algorithms import report
    from explorer.model.scenefile import load

    t0 = time.perf_counter()
    scene = load(path)
    t1 = time.perf_counter()
    todo = list(dict.fromkeys(q for q in scene.query_list() if len(q) == 2))
    answers = [scene.answer(a, b) for a, b in todo]
    t2 = time.perf_counter()
    for ans in answers:  # the first reading computes what was deferred, and builds
        rec = ans.records
        for name in _RECORDS:
            r = getattr(rec, name)
            if r is not None:
                r.trace  # noqa: B018 - reading computes a Deferred trace
        ans.contains, ans.lines, ans.plane2d  # noqa: B018 - the lazy extras
        report.trace_of(ans)
        report.result_fields(ans)
    t3 = time.perf_counter()
    raws = []
    for ans in answers:  # the second builds only
        out = report.result_fields(ans)
        out["trace"] = report.trace_of(ans)
        if ans.errors:
            out["error"] = ans.error
        raws.append(out)
    t4 = time.perf_counter()
    texts = []
    for out, ans in zip(raws, answers):
        try:
            texts.append(report.encode(out))
        except (ValueError, TypeError):
            texts.append(json.dumps(report.result_json(ans), allow_nan=False))
    t5 = time.perf_counter()
    buf = io.StringIO()
    buf.write('{"results": [' + ", ".join(texts) + "]}\n")
    t6 = time.perf_counter()
    f = {"load": t1 - t0, "evaluate": t2 - t1, "deferred": max(0.0, (t3 - t2) - (t4 - t3)),
         "build": t4 - t3,
         "encode": t5 - t4, "write": t6 - t5, "distinct": len(todo)}
    total = sum(v for k, v in f.items() if k != "distinct")
    f["evaluate_pair_share"] = (f["evaluate"] + f["deferred"]) / total
    return f


def _cpu_since(c0) -> float:
    """CPU seconds (user and system) of this process and its reaped children since ``c0``
    (an :func:`os.times`): what a run cost, whatever else the machine was doing."""
    c1 = os.times()
    return (c1.user - c0.user + c1.system - c0.system + c1.children_user - c0.children_user
            + c1.children_system - c0.children_system)


def run_eval(queries: int = 5000, rounds: int = 1) -> dict:
    """Seconds of ``explorer eval`` (load, evaluate, write) on :func:`mixed_scene`: in one
    process per core (``seconds``, ``--jobs N``, at least 2) and in one process
    (``serial_seconds``, ``--jobs 1``), interleaved rounds, medians; ``same_bytes``: whether the
    two wrote the same output; ``cpu_seconds`` and ``serial_cpu_seconds``: the CPU time of
    each (workers included), medians; ``auto_jobs``: the processes ``explorer eval`` would
    choose now (:func:`explorer.cli.eval_jobs`: one when no core is free)."""
    import tempfile
    from contextlib import redirect_stdout
    from pathlib import Path

    from explorer.cli import _cores, eval_jobs
    from explorer.cli import main as cli_main

    doc = mixed_scene(queries)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "bench_eval.json"
        path.write_text(json.dumps(doc))
        times: dict = {"auto": [], "serial": []}
        cpu: dict = {"auto": [], "serial": []}
        outs = {}
        for _ in range(rounds):
            for how, extra in (("auto", ["--jobs", str(max(2, _cores()))]),
                               ("serial", ["--jobs", "1"])):
                buf = io.StringIO()
                c0 = os.times()
                t0 = time.perf_counter()
                with redirect_stdout(buf):
                    rc = cli_main(["eval", str(path), *extra])
                times[how].append(time.perf_counter() - t0)
                cpu[how].append(_cpu_since(c0))
                if rc != 0:
                    raise RuntimeError(f"explorer eval exited {rc}")
                outs[how] = buf.getvalue()
        results = json.loads(outs["auto"])["results"]
        # the serialisation alone, both ways (issue 12: json.dumps instead of json.dump)
        t0 = time.perf_counter()
        json.dump({"results": results}, io.StringIO(), allow_nan=False)
        t_dump = time.perf_counter() - t0
        t0 = time.perf_counter()
        io.StringIO().write(json.dumps({"results": results}, allow_nan=False))
        t_dumps = time.perf_counter() - t0
        # the split, the least of each phase over the rounds (the machine is shared)
        rows = [eval_phases(path) for _ in range(rounds)]
        phases = {k: min(r[k] for r in rows) for k in rows[0] if k != "evaluate_pair_share"}
        phases["evaluate_pair_share"] = (phases["evaluate"] + phases["deferred"]) / sum(
            v for k, v in phases.items() if k != "distinct")
    errors = sum(1 for r in results if "error" in r)
    return {"seconds": statistics.median(times["auto"]), "queries": len(results),
            "two_process_speedup": two_process_speedup(),
            "serial_seconds": statistics.median(times["serial"]),
            "cpu_seconds": statistics.median(cpu["auto"]),
            "serial_cpu_seconds": statistics.median(cpu["serial"]),
            "jobs": max(2, _cores()), "auto_jobs": eval_jobs(len(results)),
            "same_bytes": outs["auto"] == outs["serial"],
            "errors": errors, "json_dump_s": t_dump, "json_dumps_s": t_dumps,
            "phases": phases}


def eval_main(args) -> int:
    quick = getattr(args, "quick", False)
    q = 40 if quick else args.queries
    f = run_eval(q, rounds=1 if quick else args.rounds)
    qps = f["queries"] / f["seconds"]
    sqps = f["queries"] / f["serial_seconds"]
    out = {"queries": f["queries"], "seconds": round(f["seconds"], 4),
           "queries_per_s": round(qps, 1), "target_queries_per_s": 10000,
           "ratio_to_target": round(qps / 10000, 3), "errors": f["errors"],
           "json_dump_s": round(f["json_dump_s"], 4), "json_dumps_s": round(f["json_dumps_s"], 4),
           "jobs": f["jobs"], "serial_seconds": round(f["serial_seconds"], 4),
           "serial_queries_per_s": round(sqps, 1), "same_bytes": f["same_bytes"],
           "cpu_seconds": round(f["cpu_seconds"], 4),
           "serial_cpu_seconds": round(f["serial_cpu_seconds"], 4),
           "serial_queries_per_cpu_s": round(f["queries"] / f["serial_cpu_seconds"], 1),
           "two_process_speedup": round(f["two_process_speedup"], 2),
           "auto_jobs": f["auto_jobs"],
           "phases_s": {k: round(v, 4) for k, v in f["phases"].items()
                        if k not in ("distinct", "evaluate_pair_share")},
           "distinct_queries": f["phases"]["distinct"],
           "evaluate_pair_share": round(f["phases"]["evaluate_pair_share"], 3)}
    print(f"bench eval: explorer eval on a generated mixed scene (every type, "
          f"{f['queries']} queries): {f['seconds']:.3f} s, {qps:,.0f} queries/s in "
          f"{f['jobs']} process{'es' if f['jobs'] > 1 else ''} "
          f"(target 10,000: ratio {qps / 10000:.2f}); {f['errors']} results with an error")
    print(f"in one process (--jobs 1, same run): {f['serial_seconds']:.3f} s, {sqps:,.0f} "
          f"queries/s (ratio {f['serial_seconds'] / f['seconds']:.2f}); the same output: "
          f"{'yes' if f['same_bytes'] else 'NO'}; without --jobs it would use "
          f"{f['auto_jobs']} now")
    print(f"CPU time (workers included): {f['cpu_seconds']:.3f} s in {f['jobs']} processes, "
          f"{f['serial_cpu_seconds']:.3f} s in one ({out['serial_queries_per_cpu_s']:,.0f} "
          f"queries per CPU second): a wall time well above its CPU time means the machine is "
          f"busy with other work")
    print(f"two processes against one on a plain loop, now: {f['two_process_speedup']:.2f}x "
          f"(2 on an idle 2-core machine; the most the second core can give explorer eval)")
    print(f"writing the JSON: json.dump {f['json_dump_s'] * 1e3:.1f} ms, json.dumps "
          f"{f['json_dumps_s'] * 1e3:.1f} ms (same run)")
    ph = f["phases"]
    print(f"where one process's time goes ({ph['distinct']} distinct queries, each phase over "
          f"all of them, the least of each over the rounds): load {ph['load'] * 1e3:.0f} ms, "
          f"evaluate_pair "
          f"{ph['evaluate'] * 1e3:.0f} ms + deferred traces {ph['deferred'] * 1e3:.0f} ms, "
          f"result dicts {ph['build'] * 1e3:.0f} ms, json encode {ph['encode'] * 1e3:.0f} ms, "
          f"write {ph['write'] * 1e3:.0f} ms: evaluate_pair "
          f"{ph['evaluate_pair_share'] * 100:.0f}% of it")
    try:
        print(f"load average: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
              f"on {os.cpu_count()} cores")
    except OSError:
        pass
    print(json.dumps(out))
    return 0


def hundred_scene(count: int = 100, seed: int = 100) -> dict:
    """The shipped ``scenes/gui_hundred.json``: ``count`` objects of ten types on a 10 x 10
    grid (2.5 apart), each queried against its right and upper neighbours and one at random
    (about 2 ``count`` queries); every tenth object moves. Regenerate with
    ``python -c "import json; from explorer.benchmarks import hundred_scene;
    print(json.dumps(hundred_scene(), indent=1))" > scenes/gui_hundred.json``."""
    rng = random.Random(seed)
    kinds = ("sphere", "aabb", "obb", "cylinder", "capsule", "triangle", "segment", "aabb",
             "point", "sphere")  # no rays or lines: the view frames the objects, not infinity
    side = int(math.ceil(math.sqrt(count)))
    objs = []

    def r(x):
        return round(x, 3)

    for i in range(count):
        gx, gy = i % side, i // side
        c = [r(2.5 * gx - 11.25 + rng.uniform(-0.4, 0.4)),
             r(2.5 * gy - 11.25 + rng.uniform(-0.4, 0.4)), r(rng.uniform(0.2, 1.5))]
        kind = kinds[(gx + gy) % len(kinds)]
        o = {"id": f"{kind[:2]}{i}", "type": kind, "label": f"{kind} {i}"}
        if kind == "sphere":
            o.update(center=c, radius=r(rng.uniform(0.3, 0.8)))
        elif kind == "aabb":
            e = [r(rng.uniform(0.3, 0.7)) for _ in range(3)]
            o.update(min=[r(a - b) for a, b in zip(c, e)], max=[r(a + b) for a, b in zip(c, e)])
        elif kind == "obb":
            a = rng.uniform(0, math.pi)
            ca, sa = math.cos(a), math.sin(a)
            o.update(center=c, axes=[[ca, sa, 0.0], [-sa, ca, 0.0], [0.0, 0.0, 1.0]],
                     extents=[r(rng.uniform(0.3, 0.7)) for _ in range(3)])
        elif kind == "cylinder":
            o.update(center=c, axis=[r(rng.uniform(-0.3, 0.3)), r(rng.uniform(-0.3, 0.3)), 1.0],
                     radius=r(rng.uniform(0.3, 0.6)), height=r(rng.uniform(0.6, 1.4)))
        elif kind == "capsule":
            o.update(p0=[r(c[0] - 0.6), c[1], c[2]], p1=[r(c[0] + 0.6), r(c[1] + 0.3), c[2]],
                     radius=r(rng.uniform(0.2, 0.4)))
        elif kind == "triangle":
            o["vertices"] = [[r(c[0] + rng.uniform(-0.9, 0.9)), r(c[1] + rng.uniform(-0.9, 0.9)),
                              r(c[2] + rng.uniform(-0.5, 0.5))] for _ in range(3)]
        elif kind == "segment":
            o.update(p0=[r(c[0] - 0.8), r(c[1] - 0.5), c[2]], p1=[r(c[0] + 0.8), r(c[1] + 0.5),
                                                                  r(c[2] + 0.4)])
        elif kind == "ray":
            o.update(origin=c, direction=[1.0, r(rng.uniform(-0.3, 0.3)),
                                          r(rng.uniform(-0.1, 0.1))])
        else:
            o["position"] = c
        if i % 10 == 9:
            o["motion"] = [r(rng.uniform(-2, 2)), r(rng.uniform(-2, 2)), 0.0]
        objs.append(o)
    queries = []
    for i in range(count):
        gx, gy = i % side, i // side
        for j in ([i + 1] if gx + 1 < side else []) + ([i + side] if gy + 1 < side else []):
            if j < count:
                queries.append({"a": objs[i]["id"], "b": objs[j]["id"]})
    return {"format": "intersection-explorer-scene", "version": 1,
            "name": f"{count} objects (the 100-object drag benchmark's scene)",
            "objects": objs, "queries": queries, "view": {}}


# ----------------------------------------------------------------------------- answers

#: (case, the single default query it builds on, A, B): issue 10's "each pair solved once"
ANSWER_CASES = [
    ("segment-segment", "distance", ((0, 0, 0), (1, 0, 0)), ((0.3, 1, 0.2), (0.7, -0.5, 1.1))),
    ("ray-aabb hit", "hits", ((-2, 0.5, 0.5), (1, 0.1, 0.05)), ((0, 0, 0), (1, 1, 1))),
    ("ray-aabb miss", "distance", ((-2, 3, 0.5), (1, 0.1, 0.05)), ((0, 0, 0), (1, 1, 1))),
    ("ray-triangle", "hits", ((0.2, 0.2, -1), (0.05, 0.02, 1)),
     ((0, 0, 0), (1, 0, 0), (0, 1, 0))),
]


def _answer_case(name, a, b):
    from algorithms import AABB, Ray, Segment, Triangle

    if name == "segment-segment":
        return Segment(*a), Segment(*b)
    if name.startswith("ray-aabb"):
        return Ray(*a), AABB(*b)
    return Ray(*a), Triangle(b)


def run_answers(rounds: int = 15) -> list[dict]:
    """``evaluate_pair`` (every key of the pair) against the single default query it builds
    on, interleaved in the same run; issue 10's target is at most 1.3x."""
    from algorithms import evaluate_pair, query

    rows = []
    for name, q, a, b in ANSWER_CASES:
        pa, pb = _answer_case(name, a, b)
        calls = 50

        def single(q=q, pa=pa, pb=pb):
            for _ in range(calls):
                query(q, pa, pb)

        def answer(pa=pa, pb=pb):
            for _ in range(calls):
                evaluate_pair(pa, pb)

        best = interleaved({"single": (single, calls), "answer": (answer, calls)}, rounds)
        rows.append({"case": name, "baseline": f'query("{q}")', "baseline_s": best["single"],
                     "evaluate_pair_s": best["answer"],
                     "ratio": _ratio(best["answer"], best["single"]), "target": 1.3})
    return rows


def answers_main(args) -> int:
    quick = getattr(args, "quick", False)
    rows = run_answers(rounds=1 if quick else args.rounds)
    print(f"bench answers: evaluate_pair against the single default query it builds on; best "
          f"of {1 if quick else args.rounds} interleaved rounds (target <= 1.3x)")
    for r in rows:
        print(f"  {r['case']:16s} evaluate_pair {_us(r['evaluate_pair_s'])}  "
              f"{r['baseline']:18s} {_us(r['baseline_s'])}  ratio {r['ratio']:.2f}")
    print(json.dumps({"answers": [{k: v for k, v in r.items()} for r in rows]}))
    return 0
