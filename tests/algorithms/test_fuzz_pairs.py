"""The ``evaluate_pair`` fuzzer of issue 15 part 4: all 66 pairs, both orders, every scale.

Each case is a random pair of shapes (``tests.algorithms.test_all_pairs.make``) scaled by a
factor between ``2**-1000`` and ``2**1000`` (an exact power of two, or a power of two times a
random factor), optionally moved off the origin, optionally moved into contact (B shifted by
the difference of the unit-scale closest points, so it touches A up to rounding: the hard
case for consistency), optionally degenerate (zero radius or height, flat boxes, zero-length
segments, collinear triangles), optionally moving. The checks are issue 15 part 1's
invariants:

* no ``error`` key and no warning (numpy must not print to stderr);
* ``distance`` finite and ``>= 0``, and ``distance == 0`` iff ``intersects``;
* no ``separating_axis`` for intersecting shapes, and a returned axis separates the closed-form
  projections (``kernels.support.support_interval``) of bounded shapes;
* the closest points lie on their shapes (the independent ``dist_to`` of test_all_pairs, on
  the unscaled shapes so the oracle itself cannot overflow) and are ``distance`` apart, and
  no sampled point of one shape is nearer the other than ``distance``;
* ``toi`` is in ``[0, 1]``, and ``0`` when the shapes intersect at ``t = 0``;
* a segment or ray that intersects has a ``first_t``, and so has a line that touches a bounded
  shape (against a plane, line or ray its contact may be unbounded below); a plane pair's ``side`` is ``0`` iff it
  intersects;
* swapping the arguments gives the same ``intersects`` and ``distance``;
* a unit-size pair moved up to ``2**1000`` apart is apart, with a positive distance.

Runs
----
* the normal test command runs a short hypothesis version: ``FUZZ_EXAMPLES`` cases (default
  8) for each of the 66 pairs, each case in both orders (``CI=true`` derandomises it, see
  tests/conftest.py);
* the long version on demand: ``FUZZ_LONG=20000 pytest tests/algorithms/test_fuzz_pairs.py
  -s`` or ``python -m tests.algorithms.test_fuzz_pairs 20000`` runs that many random cases
  (numpy seeds, not hypothesis), prints ``tried N found M`` with the failures by class and
  one example each, and fails when ``M > 0``.
"""

from __future__ import annotations

import collections
import itertools
import math
import os
import sys
import warnings

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms.report import evaluate_json
from algorithms.core.tolerance import ITERATIVE_REL
from algorithms.kernels.support import BOUNDED_KINDS, support_interval
from algorithms.primitives import (
    AABB,
    OBB,
    Capsule,
    Cylinder,
    Line,
    Plane,
    Point,
    Ray,
    Segment,
    Sphere,
    Triangle,
)
from tests.algorithms.test_all_pairs import KINDS, dist_to, make, samples

PAIRS = list(itertools.combinations_with_replacement(KINDS, 2))
assert len(PAIRS) == 66
#: exponents of the scale factor: unit scale, moderate, and the ends of the float range
EXPONENTS = (0, 0, 0, -3, 3, -60, 60, -150, 150, -300, 300, -700, 700, -990, 990, -1000, 1000)
#: closest points within this of their (unscaled, size ~1) shapes; iterative methods
#: (GJK on cylinders, golden-section rim searches) are accurate to about 1e-8
ON_SHAPE = 1e-7


def scaled(p, s: float, off):
    """``p`` with every length times ``s``, then moved by ``off`` (directions kept)."""
    k = p.kind
    f = lambda v: tuple(float(x) * s + o for x, o in zip(v, off))  # noqa: E731
    g = lambda v: tuple(float(x) * s for x in v)  # noqa: E731
    if k == "point":
        return Point(f(p.position))
    if k == "segment":
        return Segment(f(p.p0), f(p.p1))
    if k in ("ray", "line"):
        return (Ray if k == "ray" else Line)(f(p.origin), p.direction)
    if k == "plane":
        return Plane(p.normal, p.d * s + float(np.dot(p.normal, off)))
    if k == "triangle":
        return Triangle([f(v) for v in p.vertices])
    if k == "sphere":
        return Sphere(f(p.center), p.radius * s)
    if k == "aabb":
        return AABB(f(p.min), f(p.max))
    if k == "obb":
        return OBB(f(p.center), p.axes, g(p.extents))
    if k == "cylinder":
        return Cylinder(f(p.center), p.axis, p.radius * s, p.height * s)
    if k == "capsule":
        return Capsule(f(p.p0), f(p.p1), p.radius * s)
    raise AssertionError(k)


def degenerate(p, rng):
    """A degenerate but valid version of ``p`` (scene-v1 allows them all): zero radius or
    height, a flat or point box, a zero-length segment or capsule core, a collinear triangle."""
    k = p.kind
    if k == "segment":
        return Segment(p.p0, p.p0)
    if k == "triangle":
        a, b, _ = (np.asarray(v) for v in p.vertices)
        return Triangle([tuple(a), tuple(b), tuple(a + rng.uniform(-1, 2) * (b - a))])
    if k == "sphere":
        return Sphere(p.center, 0.0)
    if k == "aabb":
        lo, hi = np.asarray(p.min), np.asarray(p.max)
        i = int(rng.integers(3))
        hi[i] = lo[i]
        return AABB(tuple(lo), tuple(hi if rng.random() < 0.7 else lo))
    if k == "obb":
        e = np.asarray(p.extents)
        e[int(rng.integers(3))] = 0.0
        return OBB(p.center, p.axes, tuple(e))
    if k == "cylinder":
        return Cylinder(p.center, p.axis, *((0.0, p.height) if rng.random() < 0.5
                                            else (p.radius, 0.0)))
    if k == "capsule":
        return Capsule(p.p0, p.p0, p.radius) if rng.random() < 0.5 else \
            Capsule(p.p0, p.p1, 0.0)
    return p


def build_case(ka, kb, seed, exponent, factor, offset, touch, moving, flat=False):
    """``(a, b, motion_b, unscale)``: the shapes at scale ``2**exponent * factor``, and a
    function mapping a point back to the unit-scale shapes (for the oracle)."""
    rng = np.random.default_rng(seed)
    a0, b0 = make(ka, rng), make(kb, rng)
    if flat:
        a0, b0 = degenerate(a0, rng), degenerate(b0, rng)
    if touch:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            r0 = evaluate_json(a0, b0)
        shift = np.asarray(r0["closest"][0]) - np.asarray(r0["closest"][1])
        if touch == 2:
            shift = np.round(shift * 64) / 64  # dyadic: touching or 1/128 apart
        b0 = b0.translated(tuple(float(c) for c in shift))
    s = math.ldexp(factor, exponent)
    off = tuple(float(c) * s for c in rng.uniform(-3, 3, 3)) if offset else (0.0, 0.0, 0.0)
    motion = tuple(float(c) * s for c in rng.normal(size=3) * 3) if moving else None
    offv = np.asarray(off, dtype=float)

    def unscale(p):
        with np.errstate(all="ignore"):
            return (np.asarray(p, dtype=float) - offv) / s

    unscale.scale = s
    return (a0, b0), (scaled(a0, s, off), scaled(b0, s, off)), motion, unscale


def violations(a, b, a0, b0, motion, unscale) -> list[str]:
    """The invariants (module notes) that the scene-v1 result of ``evaluate_pair(a, b,
    motion_b=motion)`` breaks (``report.evaluate_json``: the typed answer as ``explorer eval``
    writes it)."""
    out = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = evaluate_json(a, b, motion_b=motion)
        swapped = evaluate_json(b, a, motion_a=motion)
    if caught:
        out.append(f"warning: {caught[0].message}")
    for res in (r, swapped):
        if "error" in res:
            out.append(f"error: {res['error'][:160]}")
    if out:
        return out
    d, hit = r["distance"], r["intersects"]
    if d is None or not (math.isfinite(d) and d >= 0):
        return [f"distance {d!r}"]
    if (d == 0) != (hit is True):
        out.append(f"distance {d!r} but intersects {hit!r}")
    axis = r["separating_axis"]
    if hit and axis is not None:
        out.append("separating axis for intersecting shapes")
    if axis is not None and a.kind in BOUNDED_KINDS and b.kind in BOUNDED_KINDS:
        la, ha = support_interval(a, axis)
        lb, hb = support_interval(b, axis)
        if not max(lb - ha, la - hb) > 0:
            out.append(f"axis does not separate: overlap {min(ha, hb) - max(la, lb):.3g}")
    if r["closest"] is None:
        out.append("closest null")
    else:
        pa, pb = r["closest"]
        if None in pa or None in pb:
            out.append("closest has null")
        else:
            for shape, p, name in ((a0, pa, "A"), (b0, pb, "B")):
                gap = dist_to(shape, unscale(p))
                if not gap <= ON_SHAPE:
                    out.append(f"closest[{name}] off its shape by {gap:.3g} (unit scale)")
            with np.errstate(all="ignore"):
                sep = float(np.linalg.norm(unscale(pa) - unscale(pb)))
                d_unit = float(d / unscale.scale)  # d in unit-scale lengths
            if math.isfinite(d_unit) and abs(sep - d_unit) > ON_SHAPE * (1 + d_unit):
                out.append(f"closest points {sep:.6g} apart, distance {d_unit:.6g} (unit)")
            # not too large: no sampled point of one shape is nearer the other (the oracle of
            # test_all_pairs, on the unit-scale shapes)
            rng = np.random.default_rng(len(out))
            for x, y, name in ((a0, b0, "A"), (b0, a0, "B")):
                near = min(dist_to(y, p) for p in samples(x, rng, n=24))
                if math.isfinite(d_unit) and near < d_unit - ON_SHAPE * (1 + d_unit):
                    out.append(f"a point of {name} is {near:.6g} from the other, distance "
                               f"{d_unit:.6g} (unit)")
    if motion is not None:
        t = r["toi"]
        if t is not None and not 0 <= t <= 1:
            out.append(f"toi {t!r} outside [0, 1]")
        if hit and t != 0:
            out.append(f"intersecting at t = 0 but toi {t!r}")
    if hit and r["first_t"] is None and (
            a.kind in ("segment", "ray")
            or (a.kind == "line" and b.kind not in ("plane", "line", "ray"))):
        out.append("intersects but first_t null")
    if r["side"] is not None and (r["side"] == 0) != bool(hit):
        out.append(f"side {r['side']} but intersects {hit!r}")
    if swapped["intersects"] != hit:
        out.append(f"swapped intersects {swapped['intersects']!r} vs {hit!r}")
    ds = swapped["distance"]
    # the orders agree to 1e-9 relative, or to GJK's accuracy on curved shapes (ITERATIVE_REL
    # of the coordinate scale: the shapes' coordinates are a few units times s)
    if ds is None or abs(ds - d) > 1e-9 * max(d, ds) + 8 * ITERATIVE_REL * unscale.scale:
        out.append(f"swapped distance {ds!r} vs {d!r}")
    return out


def far_violations(a, b) -> list[str]:
    """A unit-size pair with B moved ``|T|`` up to ``2**1000`` away: apart, at about ``|T|``
    (issue 15: cylinders 1e300 apart intersected, a segment 1e200 away hit a sphere)."""
    out = []
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = evaluate_json(a, b)
    if caught:
        out.append(f"warning: {caught[0].message}")
    if "error" in r:
        return out + [f"error: {r['error'][:160]}"]
    if r["intersects"] is not False or not r["distance"]:
        out.append(f"far apart but intersects {r['intersects']!r}, distance {r['distance']!r}")
    return out


def check_case(ka, kb, seed, exponent, factor, offset, touch, moving, swap, flat=False,
               far=0) -> list[str]:
    (a0, b0), (a, b), motion, unscale = build_case(ka, kb, seed, exponent, factor, offset,
                                                    touch, moving, flat)
    if far and "plane" not in (ka, kb) and not ({ka, kb} & {"line"} and ka != kb or
                                                 ka == kb == "line"):
        # B moved 2**far away along a random direction (a line or plane reaches everywhere)
        rng = np.random.default_rng(seed + 1)
        t = rng.normal(size=3)
        t = tuple(float(c) for c in t / np.abs(t).max() * math.ldexp(1.0, far))
        a, b = a0, b0.translated(t)
        return far_violations(b, a) if swap else far_violations(a, b)
    if swap:
        a0, b0, a, b = b0, a0, b, a
        motion = None if motion is None else tuple(-m for m in motion)
    return violations(a, b, a0, b0, motion, unscale)


# ----------------------------------------------------------------------------- short (CI)


@pytest.mark.parametrize("pair", PAIRS, ids=[f"{a}-{b}" for a, b in PAIRS])
@settings(max_examples=examples(int(os.environ.get("FUZZ_EXAMPLES", "8"))), deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2 ** 32 - 1),
       exponent=st.sampled_from(EXPONENTS), factor=st.sampled_from([1.0, 1.0, 1.3, 1.9]),
       offset=st.booleans(), touch=st.sampled_from([0, 1, 1, 2]), moving=st.booleans(),
       swap=st.booleans(), flat=st.sampled_from([False, False, False, True]),
       far=st.sampled_from([0] * 6 + [60, 200, 600, 1000]))
def test_evaluate_pair_never_contradicts_itself(pair, seed, exponent, factor, offset, touch,
                                                moving, swap, flat, far):
    found = check_case(*pair, seed, exponent, factor, offset, touch, moving, swap, flat, far)
    assert not found, found


#: cases the long runs found, kept (check_case arguments; what each did before its fix)
FOUND = [
    # a radius-0 sphere against a flat OBB at 2**990: the box frame's round trip put the
    # closest point on the centre with a positive squared distance (TypeError)
    ("sphere", "obb", 4024189450, 990, 1.0, False, 1, False, False, True, 0),
    ("sphere", "obb", 2624593336, 300, 1.3, True, 1, False, True, True, 0),
    # a collinear triangle scaled by 1.3 * 2**150: a rounding-noise "face" region gave a
    # closest point 15 times farther than the nearest edge, and its axis did not separate
    ("triangle", "sphere", 960688238, 150, 1.3, False, 2, False, True, True, 0),
    ("triangle", "sphere", 289371032, 60, 1.9, False, 2, True, False, True, 0),
    # near-touching cylinders at 1.3 * 2**300: the two orders' GJK distances differ by
    # 2e73 = 8e-18 of the scale (within GJK's accuracy; the fuzzer's tolerance was too tight)
    ("cylinder", "cylinder", 4257045247, 300, 1.3, False, 1, False, True, False, 0),
]


@pytest.mark.parametrize("case", FOUND, ids=[f"{c[0]}-{c[1]}-{c[2]}" for c in FOUND])
def test_cases_the_fuzzer_found(case):
    assert check_case(*case) == []


# ----------------------------------------------------------------------------- long (on demand)


def run_long(n: int, seed: int = 0, out=sys.stdout) -> tuple[int, collections.Counter, dict]:
    """``n`` random cases (every pair in turn, both orders); returns (tried, counts, examples)."""
    rng = np.random.default_rng(seed)
    counts: collections.Counter = collections.Counter()
    examples: dict = {}
    tried = 0
    for i in range(n):
        ka, kb = PAIRS[i % len(PAIRS)]
        args = (int(rng.integers(2 ** 32)), int(rng.choice(EXPONENTS)),
                float(rng.choice([1.0, 1.0, 1.3, 1.9])), bool(rng.random() < 0.3),
                int(rng.choice([0, 1, 1, 2])), bool(rng.random() < 0.5), bool(i // 66 % 2),
                bool(rng.random() < 0.25), int(rng.choice([0] * 6 + [60, 200, 600, 1000])))
        tried += 1
        for msg in check_case(ka, kb, *args):
            key = (f"{kb}-{ka}" if args[6] else f"{ka}-{kb}", msg.split(":")[0][:48])
            counts[key] += 1
            examples.setdefault(key, (msg, (ka, kb) + args))
    found = sum(counts.values())
    print(f"evaluate_pair fuzzer: tried {tried} found {found}", file=out)
    for key, c in counts.most_common():
        print(f"  {c:5d} {key[0]}: {examples[key][0]}  case {examples[key][1]}", file=out)
    return tried, counts, examples


@pytest.mark.skipif(not os.environ.get("FUZZ_LONG"), reason="set FUZZ_LONG=N for N cases")
def test_evaluate_pair_fuzzer_long():
    tried, counts, _ = run_long(int(os.environ["FUZZ_LONG"]),
                                int(os.environ.get("FUZZ_SEED", "0")))
    assert not counts, f"{sum(counts.values())} violations in {tried} cases"


if __name__ == "__main__":  # python -m tests.algorithms.test_fuzz_pairs [N [SEED]]
    _tried, _counts, _ = run_long(int(sys.argv[1]) if len(sys.argv) > 1 else 2000,
                                  int(sys.argv[2]) if len(sys.argv) > 2 else 0)
    sys.exit(1 if _counts else 0)
