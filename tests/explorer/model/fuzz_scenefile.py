"""The scene-file fuzzer (issue 15, part 4): hypothesis-generated valid and mutated scene files
through the loader and ``explorer eval``.

Every file must end one of two ways:

* **evaluated**: exit 0, standard output one strict JSON document (no NaN, no Infinity) with a
  result per query, each with ``a``, ``b``, ``pair`` and all nine keys of scene-v1;
* **refused**: exit 2, standard output empty, standard error exactly one line of bounded length
  starting ``explorer: `` (no traceback, no "internal error").

Anything else (a traceback, an "internal error" line, a second line, a hang, a non-strict
number, a missing key, a loader exception other than ``SceneError``) is a finding.

``tests/explorer/model/test_fuzz_scenefile.py`` runs a short derandomised version in the normal
test command. The long version runs on demand and reports counts::

    python -m tests.explorer.model.fuzz_scenefile --examples 5000 [--seed N]

It keeps going after a finding (each is recorded with its smallest file) and prints how many
files were tried, evaluated and refused, and the findings by kind; it exits 1 on any finding.
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import math
import os
import sys
import tempfile
from collections import Counter

from hypothesis import strategies as st

from algorithms.primitives import TYPES as _TYPES
from explorer.cli import MAX_LINE, main
from explorer.model.scenefile import SceneError, loads

FORMAT = "intersection-explorer-scene"
TYPES = list(_TYPES)
KEYS = ("intersects", "distance", "closest", "first_t", "separating_axis", "side", "toi",
        "method", "trace")

# ----------------------------------------------------------------------------- numbers

#: the magnitudes an unlucky user or an attacker writes: ordinary, tiny, huge, denormal, exact
EXTREME = [0.0, -0.0, 1.0, -1.0, 0.5, 1e-300, -1e-300, 1e300, -1e300, 5e-324, 4.9e-324,
           2.2250738585072014e-308, 1.7976931348623157e308, 1e-10, 1e10, 1e50, 1e150, 1e200,
           -1e200, 10 ** 20, -(10 ** 20), 2 ** 53 + 1, 0.1, 1 / 3]


def numbers(allow_extreme: bool = True):
    ordinary = st.one_of(st.integers(-10, 10), st.floats(-10, 10, allow_nan=False))
    if not allow_extreme:
        return ordinary
    return st.one_of(ordinary, ordinary, st.sampled_from(EXTREME),
                     st.floats(allow_nan=False, allow_infinity=False))


def vec(allow_extreme=True):
    return st.lists(numbers(allow_extreme), min_size=3, max_size=3)


def nonzero_vec(allow_extreme=True):
    return vec(allow_extreme).filter(lambda v: any(float(x) != 0 for x in v))


def nonneg(allow_extreme=True):
    return numbers(allow_extreme).map(lambda x: abs(x))


@st.composite
def orthonormal_axes(draw):
    """Rows of a rotation: a signed permutation of the identity or a rotation about z."""
    if draw(st.booleans()):
        perm = draw(st.permutations([0, 1, 2]))
        signs = draw(st.lists(st.sampled_from([1, -1]), min_size=3, max_size=3))
        return [[signs[i] if j == perm[i] else 0 for j in range(3)] for i in range(3)]
    a = draw(st.floats(0, 2 * math.pi))
    c, s = math.cos(a), math.sin(a)
    return [[c, s, 0.0], [-s, c, 0.0], [0.0, 0.0, 1.0]]


@st.composite
def aabb_fields(draw, allow_extreme=True):
    lo, hi = draw(vec(allow_extreme)), draw(vec(allow_extreme))
    return {"min": [min(a, b) for a, b in zip(lo, hi)], "max": [max(a, b) for a, b in zip(lo, hi)]}


def plane_in_range(fields) -> bool:
    """|d| / |normal| is a float: the loader refuses a plane beyond 1.8e308 (a subnormal
    normal with d = 3.6e16, say: algorithms.primitives.Plane), so a valid file has none."""
    try:
        return math.isfinite(abs(fields["d"]) / max(abs(n) for n in fields["normal"]))
    except OverflowError:
        return False


def fields_for(kind: str, allow_extreme: bool = True):
    v, nz, nn = vec(allow_extreme), nonzero_vec(allow_extreme), nonneg(allow_extreme)
    table = {
        "point": st.fixed_dictionaries({"position": v}),
        "segment": st.fixed_dictionaries({"p0": v, "p1": v}),
        "ray": st.fixed_dictionaries({"origin": v, "direction": nz}),
        "line": st.fixed_dictionaries({"origin": v, "direction": nz}),
        "plane": st.fixed_dictionaries({"normal": nz, "d": numbers(allow_extreme)})
        .filter(plane_in_range),
        "triangle": st.fixed_dictionaries({"vertices": st.lists(v, min_size=3, max_size=3)}),
        "sphere": st.fixed_dictionaries({"center": v, "radius": nn}),
        "aabb": aabb_fields(allow_extreme),
        "obb": st.fixed_dictionaries({"center": v, "axes": orthonormal_axes(),
                                      "extents": st.lists(nn, min_size=3, max_size=3)}),
        "cylinder": st.fixed_dictionaries({"center": v, "axis": nz, "radius": nn, "height": nn}),
        "capsule": st.fixed_dictionaries({"p0": v, "p1": v, "radius": nn}),
    }
    return table[kind]


IDS = st.one_of(st.sampled_from(["A", "B", "C", "ball", "ray 1", "é", "日本", ""]),
                st.text(max_size=12))


@st.composite
def valid_object(draw, obj_id: str, allow_extreme: bool = True):
    kind = draw(st.sampled_from(TYPES))
    obj = {"id": obj_id, "type": kind}
    obj.update(draw(fields_for(kind, allow_extreme)))
    if draw(st.booleans()):
        obj["motion"] = draw(vec(allow_extreme))
    if draw(st.integers(0, 4)) == 0:
        obj["label"] = draw(st.text(max_size=10))
    if draw(st.integers(0, 4)) == 0:
        obj["color"] = draw(st.sampled_from(["red", "#00ff00", [0.1, 0.2, 0.3]]))
    if draw(st.integers(0, 5)) == 0:
        obj["mass"] = draw(st.one_of(st.integers(), st.text(max_size=5)))
    return obj


@st.composite
def valid_document(draw, allow_extreme: bool = True, max_objects: int = 5):
    ids = draw(st.lists(IDS, min_size=0, max_size=max_objects, unique=True))
    objects = [draw(valid_object(i, allow_extreme)) for i in ids]
    doc = {"format": FORMAT, "version": 1}
    if draw(st.booleans()):
        doc["name"] = draw(st.text(max_size=20))
    doc["objects"] = objects
    if len(ids) >= 2 and draw(st.booleans()):
        pairs = st.tuples(st.sampled_from(ids), st.sampled_from(ids)).filter(
            lambda p: p[0] != p[1])
        doc["queries"] = [{"a": a, "b": b} for a, b in draw(st.lists(pairs, max_size=6))]
    if draw(st.booleans()):
        doc["view"] = {"camera": {"position": [1, 2, 3], "focal_point": [0, 0, 0],
                                  "up": [0, 0, 1]}} if draw(st.booleans()) else {}
    if draw(st.integers(0, 4)) == 0:
        doc["author"] = draw(st.text(max_size=10))
    return doc


# ----------------------------------------------------------------------------- mutations

#: hostile number literals, spliced into the text in place of a number
HOSTILE_LITERALS = ["1" * 400, "1" * 401, "-" + "9" * 5001, "1e999", "-1e999", "NaN",
                    "Infinity", "-Infinity", "4.9e-324", "-0.0", "1E+400", "0e0", "1.",
                    ".5", "01", "0x10", "1_000", "+1"]

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(), st.text(max_size=8),
                      st.floats(), st.sampled_from([10 ** 400, -(10 ** 30), 5e-324]))
json_value = st.recursive(json_leaf, lambda inner: st.one_of(
    st.lists(inner, max_size=4), st.dictionaries(st.text(max_size=6), inner, max_size=4)),
    max_leaves=12)


def _containers(value, out=None, depth=0):
    """The lists and dicts inside ``value``, 8 levels down at most (places to mutate)."""
    out = [] if out is None else out
    if isinstance(value, (list, dict)) and depth < 8:
        out.append(value)
        for v in (value.values() if isinstance(value, dict) else value):
            _containers(v, out, depth + 1)
    return out


@st.composite
def mutated_text(draw):
    """A valid file changed in one to three places: in its JSON tree or in its text."""
    doc = draw(valid_document())
    for _ in range(draw(st.integers(1, 3))):
        places = _containers(doc)
        place = draw(st.sampled_from(places))
        op = draw(st.sampled_from(["replace", "delete", "insert", "deep", "dup", "kind"]))
        if isinstance(place, dict) and place:
            key = draw(st.sampled_from(sorted(place, key=str)))
            if op == "delete":
                del place[key]
            elif op == "deep":
                deep = []
                for _i in range(draw(st.sampled_from([50, 63, 64, 65, 200, 999, 1000, 3000]))):
                    deep = [deep]
                place[key] = deep
            elif op == "kind" and key == "type":
                place[key] = draw(st.sampled_from(TYPES + ["torus", 7, None]))
            else:
                place[key] = draw(json_value)
        elif isinstance(place, list):
            if place and op == "delete":
                del place[draw(st.integers(0, len(place) - 1))]
            elif place and op == "dup":
                place.append(place[draw(st.integers(0, len(place) - 1))])
            elif place and op == "replace":
                place[draw(st.integers(0, len(place) - 1))] = draw(json_value)
            else:
                place.append(draw(json_value))
    try:
        text = json.dumps(doc)  # NaN and Infinity are written as such: the loader must refuse
    except (ValueError, RecursionError):
        text = "[" * 5000
    how = draw(st.sampled_from(["as is", "as is", "literal", "truncate", "splice", "bytes"]))
    if how == "literal":
        digits = [i for i, c in enumerate(text) if c.isdigit() and (i == 0 or not
                                                                 text[i - 1].isalnum())]
        if digits:
            i = draw(st.sampled_from(digits))
            j = i
            while j < len(text) and (text[j].isalnum() or text[j] in ".+-"):
                j += 1
            text = text[:i] + draw(st.sampled_from(HOSTILE_LITERALS)) + text[j:]
    elif how == "truncate" and text:
        text = text[:draw(st.integers(0, len(text) - 1))]
    elif how == "splice" and text:
        i = draw(st.integers(0, len(text)))
        text = text[:i] + draw(st.sampled_from(["{", "]", ",", '"', "\\", "\x00", "\ud800",
                                                 "\n", "null", "//"])) + text[i:]
    data = text.encode("utf-8", "surrogatepass")
    if how == "bytes" and data:
        i = draw(st.integers(0, len(data) - 1))
        data = data[:i] + draw(st.sampled_from([b"\xff", b"\xc3", b"\xef\xbb\xbf", b"\x00"])) \
            + data[i + 1:]
    return data


def scene_files():
    """Valid files (ordinary and extreme numbers) and mutated ones, as bytes."""
    return st.one_of(
        valid_document(allow_extreme=False).map(lambda d: json.dumps(d).encode()),
        valid_document().map(lambda d: json.dumps(d).encode()),
        mutated_text(), mutated_text())


# ----------------------------------------------------------------------------- the check


class Finding(AssertionError):  # noqa: N818 - a finding, not an error of the fuzzer
    """A file that was neither evaluated nor refused properly; ``kind`` groups them."""

    def __init__(self, kind: str, detail: str):
        super().__init__(f"{kind}: {detail}")
        self.kind = kind


def _strict(text: str):
    def bad(name):
        raise ValueError(f"non-strict JSON constant {name}")
    return json.loads(text, parse_constant=bad)


def run_eval(path: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        rc = main(["eval", path])
    return rc, out.getvalue(), err.getvalue()


def check_file(data: bytes, folder: str, pair_errors: bool = True) -> str:
    """Run one file through the loader and ``explorer eval``: ``"evaluated"``, ``"refused"``,
    or ``"pair errors"`` (evaluated, all keys, but a result carries an ``error`` key: an
    exception inside a query, issue 15 part 2; a :class:`Finding` when ``pair_errors`` is
    false); anything else raises :class:`Finding`."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        text = None
    if text is not None:
        try:
            loads(text)
            loaded = True
        except SceneError as exc:
            loaded = False
            msg = str(exc)
            if "\n" in msg or len(msg) > 400:
                raise Finding("loader message not one bounded line", repr(msg[:200])) from None
        except Exception as exc:  # noqa: BLE001 - exactly what the fuzzer looks for
            raise Finding(f"loader raised {type(exc).__name__}", str(exc)[:200]) from None
    path = os.path.join(folder, "fuzz.json")
    with open(path, "wb") as f:
        f.write(data)
    rc, out, err = run_eval(path)
    if rc == 2:
        lines = err.splitlines()
        if out:
            raise Finding("refusal wrote to stdout", out[:200])
        if len(lines) != 1:
            raise Finding("refusal not one line", err[:300])
        line = lines[0]
        if not line.startswith("explorer: ") or len(line) > MAX_LINE + 20:
            raise Finding("refusal line malformed or too long", line[:200])
        if "internal error" in line or "Traceback" in err:
            raise Finding("internal error", line[:300])
        if text is not None and loaded and "pairs, more than the limit" not in line:
            raise Finding("loader accepted, eval refused", line[:200])
        return "refused"
    if rc != 0:
        raise Finding(f"exit status {rc}", err[:300])
    if text is not None and not loaded:
        raise Finding("loader refused, eval accepted", text[:200])
    try:
        doc = _strict(out)
    except ValueError as exc:
        raise Finding("stdout not strict JSON", str(exc)[:200]) from None
    results = doc.get("results") if isinstance(doc, dict) else None
    if not isinstance(results, list):
        raise Finding("no results list", out[:200])
    errors = []
    for r in results:
        missing = [k for k in ("a", "b", "pair", *KEYS) if k not in r]
        if missing:
            raise Finding("result missing keys", f"{missing} in {json.dumps(r)[:200]}")
        if "error" in r:
            errors.append(f"{r['pair']}: {r['error'][:200]}")
    if errors and not pair_errors:
        raise Finding("result with an error key", errors[0])
    return "pair errors" if errors else "evaluated"


# ----------------------------------------------------------------------------- long run


def long_run(examples: int, seed: int | None = None) -> int:
    """Fuzz ``examples`` files; print the counts; 1 if anything was found."""
    from hypothesis import HealthCheck, given, settings
    from hypothesis import seed as hseed

    counts: Counter = Counter()
    findings: dict[str, tuple[int, bytes, str]] = {}
    pair_error_examples: list[str] = []
    folder = tempfile.mkdtemp(prefix="fuzz-scenes-")

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=list(HealthCheck))
    @given(scene_files())
    def one(data):
        counts["tried"] += 1
        try:
            outcome = check_file(data, folder)
            counts[outcome] += 1
            if outcome == "pair errors":
                _o, out, _e = run_eval(os.path.join(folder, "fuzz.json"))
                errs = {r["error"][:120] for r in json.loads(out)["results"] if "error" in r}
                pair_error_examples.extend(sorted(errs - set(pair_error_examples)))
        except Finding as f:
            counts["found"] += 1
            n, smallest, detail = findings.get(f.kind, (0, data, str(f)))
            if len(data) < len(smallest):
                smallest, detail = data, str(f)
            findings[f.kind] = (n + 1, smallest, detail)

    if seed is not None:
        one = hseed(seed)(one)
    one()
    print(f"scene-file fuzzer: {counts['tried']} files tried, {counts['evaluated']} evaluated "
          f"(exit 0, strict JSON, all keys), {counts['refused']} refused (exit 2, one line), "
          f"{counts['pair errors']} evaluated with an 'error' key in a result (an exception "
          f"inside a query: part 2), {counts['found']} findings")
    for text in pair_error_examples[:5]:
        print(f"  pair error: {text[:160]}")
    for kind, (n, smallest, detail) in sorted(findings.items(), key=lambda kv: -kv[1][0]):
        print(f"  {n:6d}  {kind}: {detail[:160]}")
        print(f"          smallest file ({len(smallest)} bytes): {smallest[:160]!r}")
    return 1 if findings else 0


def _main(argv=None) -> int:
    p = argparse.ArgumentParser(description="Fuzz scene files through the loader and "
                                            "`explorer eval`; print the counts.")
    p.add_argument("--examples", type=int, default=2000)
    p.add_argument("--seed", type=int, default=None)
    args = p.parse_args(argv)
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 1000))
    return long_run(args.examples, args.seed)


if __name__ == "__main__":
    sys.exit(_main())



