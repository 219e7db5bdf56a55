"""Capsule-capsule and capsule-sphere (GTCG §11.12.9: segment distance vs radius sum).

Oracles: hand-derived values; exact Fractions at tangency (the segment distance runs exactly);
a brute-force segment-segment distance (dense (s, t) grid refined by ternary search in t for
each s, which is exact for the convex 1D restriction); the GJK distance; support intervals;
swapped arguments through the registry.
"""

from __future__ import annotations

import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Capsule, Sphere, registry
from algorithms.core import vec as V
from algorithms.kernels.gjk import gjk_distance
from algorithms.kernels.support import support_interval

Q = registry.query


def test_parallel_capsules_hand():
    # segments (0,0,0)-(1,0,0) and (0,2,0)-(1,2,0), radii 0.5: segment distance 2 (any
    # overlapping x), capsule distance 2 - 1 = 1; separating axis y with intervals
    # [-0.5, 0.5] and [1.5, 2.5]
    a = Capsule((0, 0, 0), (1, 0, 0), 0.5)
    b = Capsule((0, 2, 0), (1, 2, 0), 0.5)
    r = Q("distance", a, b)
    assert r.distance == 1.0
    assert r.closest[0][1] == 0.5 and r.closest[1][1] == 1.5
    assert r.closest[0][0] == r.closest[1][0]
    s = Q("separating_axis", a, b)
    assert s.axis == (0.0, 1.0, 0.0) and s.intervals == ((-0.5, 0.5), (1.5, 2.5))
    assert s.trace["axes"][0]["margin"] == 1.0
    assert not Q("intersects", a, b).intersects


def test_crossing_and_touching_capsules_exact():
    # skew segments x-axis [0,1] at z=0 and the line x = 1/2, y in [-1, 1] at z = 1: segment
    # distance 1 at (1/2, 0, 0)-(1/2, 0, 1). Radii 1/2 + 1/2 = 1: touching -> intersects,
    # common point (1/2, 0, 1/2).
    a = Capsule((0, 0, 0), (1, 0, 0), F(1, 2), exact=True)
    b = Capsule((F(1, 2), -1, 1), (F(1, 2), 1, 1), F(1, 2), exact=True)
    assert Q("intersects", a, b).intersects
    r = Q("distance", a, b)
    assert r.distance == 0 and r.closest[0] == r.closest[1] == (0.5, 0.0, 0.5)
    assert Q("separating_axis", a, b).intersects
    # shrink one radius by 1e-30: separated (exactly decided), axis z
    b = Capsule((F(1, 2), -1, 1), (F(1, 2), 1, 1), F(1, 2) - F(1, 10 ** 30), exact=True)
    assert not Q("intersects", a, b).intersects
    s = Q("separating_axis", a, b)
    assert not s.intersects and s.axis == (0.0, 0.0, 1.0)
    # segments that cross: distance 0 with the crossing point (1/2, 0, 0) common
    b = Capsule((F(1, 2), -1, 0), (F(1, 2), 1, 0), 0, exact=True)
    r = Q("distance", a, b)
    assert r.distance == 0 and r.closest[0] == (0.5, 0.0, 0.0)


def test_degenerate_capsules():
    # zero-length capsule = sphere: same answer as capsule-sphere and sphere-sphere
    a = Capsule((0, 0, 0), (0, 0, 0), 1)
    b = Capsule((3, 4, 0), (3, 4, 0), 1)
    assert Q("distance", a, b).distance == 3.0  # 5 - 2
    assert Q("distance", a, Sphere((3, 4, 0), 1)).distance == 3.0
    # zero radius: plain segment distance; collinear overlapping segments intersect
    a = Capsule((0, 0, 0), (2, 0, 0), 0)
    assert Q("intersects", a, Capsule((1, 0, 0), (3, 0, 0), 0)).intersects
    r = Q("distance", a, Capsule((3, 0, 0), (5, 0, 0), 0))
    assert r.distance == 1.0 and r.closest == ((2.0, 0.0, 0.0), (3.0, 0.0, 0.0))
    # parallel, offset: distance 1 - 0 for radius 0
    assert Q("distance", a, Capsule((0, 1, 0), (2, 1, 0), 0)).distance == 1.0


def test_capsule_sphere_hand():
    # segment (0,0,0)-(4,0,0), r 1; sphere at (2, 3, 0) r 1: point-segment distance 3 -> 1;
    # beyond the end: sphere at (7, 4, 0): distance to (4,0,0) is 5 -> 3
    c = Capsule((0, 0, 0), (4, 0, 0), 1)
    r = Q("distance", c, Sphere((2, 3, 0), 1))
    assert r.distance == 1.0 and r.closest == ((2.0, 1.0, 0.0), (2.0, 2.0, 0.0))
    assert r.parameter[0] == 0.5
    r = Q("distance", Sphere((7, 4, 0), 1), c)  # swapped order
    assert r.distance == 3.0 and r.closest[1] == (4.6, 0.8, 0.0)
    s = Q("separating_axis", c, Sphere((7, 4, 0), 1))
    assert s.axis == pytest.approx((0.6, 0.8, 0.0))
    assert s.trace["axes"][0]["margin"] == pytest.approx(3.0)
    # exact touching: sphere centre (2, 2, 0), r 1 reaches y = 1
    ce = Capsule((0, 0, 0), (4, 0, 0), 1, exact=True)
    assert Q("intersects", ce, Sphere((2, 2, 0), 1, exact=True)).intersects
    assert not Q("intersects", ce, Sphere((2, 2, 0), 1 - F(1, 10 ** 20), exact=True)).intersects


def brute_segment_distance(p0, p1, q0, q1, n=401):
    """Grid over s, and for each s the exact clamped projection in t (the t-restriction of
    |P(s) - Q(t)|^2 is a convex quadratic): min over the s-grid, then ternary refinement in s
    (the minimum over t of a jointly convex function is convex in s)."""
    p0, p1, q0, q1 = (np.asarray(v, float) for v in (p0, p1, q0, q1))
    e = q1 - q0
    ee = e @ e

    def f(s):
        P = p0 + np.multiply.outer(s, p1 - p0)
        t = np.zeros(P.shape[:-1]) if ee == 0 else np.clip((P - q0) @ e / ee, 0, 1)
        return np.linalg.norm(P - (q0 + np.multiply.outer(t, e)), axis=-1)

    ss = np.linspace(0, 1, n)
    vals = f(ss)
    i = int(np.argmin(vals))
    lo, hi = ss[max(i - 1, 0)], ss[min(i + 1, n - 1)]
    for _ in range(60):
        m = np.array([lo + (hi - lo) / 3, hi - (hi - lo) / 3])
        f1, f2 = f(m)
        if f1 < f2:
            hi = m[1]
        else:
            lo = m[0]
    return float(min(vals.min(), f(np.array([(lo + hi) / 2]))[0]))


def rand_capsule(rng):
    c = rng.uniform(-1.5, 1.5, 3)
    h = rng.uniform(-1.5, 1.5, 3) * (rng.random() > 0.1)  # 10% zero length
    if rng.random() < 0.1:
        h = np.array([1.0, 0, 0]) * h[0]  # axis-parallel (parallel pairs happen)
    return Capsule(c - h, c + h, rng.uniform(0, 0.8) * (rng.random() > 0.1))


def test_capsule_capsule_against_brute_force_gjk_and_support():
    rng = np.random.default_rng(5)
    n_sep = n_int = 0
    worst = 0.0
    for _ in range(150):
        a, b = rand_capsule(rng), rand_capsule(rng)
        if rng.random() < 0.15:  # exactly parallel pair
            d = np.asarray(a.p1) - np.asarray(a.p0)
            o = rng.uniform(-1.5, 1.5, 3)
            b = Capsule(o, o + 0.7 * d, b.radius)
        r = Q("distance", a, b)
        seg = brute_segment_distance(a.p0, a.p1, b.p0, b.p1)
        want = max(0.0, seg - a.radius - b.radius)
        worst = max(worst, abs(r.distance - want))
        assert r.distance == pytest.approx(want, abs=1e-9)
        assert r.distance == pytest.approx(gjk_distance(a, b).distance, abs=1e-9)
        pa, pb = np.asarray(r.closest[0]), np.asarray(r.closest[1])
        assert np.linalg.norm(pa - pb) == pytest.approx(r.distance, abs=1e-9)
        # the closest points are on/in the capsules
        for cap, p in ((a, pa), (b, pb)):
            assert brute_segment_distance(cap.p0, cap.p1, p, p, 11) <= cap.radius + 1e-9
        s = Q("separating_axis", a, b)
        assert s.intersects is (r.distance == 0) is Q("intersects", a, b).intersects
        if not s.intersects:
            n_sep += 1
            u = np.asarray(s.axis)
            ia, ib = support_interval(a, u), support_interval(b, u)
            assert s.intervals[0] == pytest.approx(ia, abs=1e-9)
            assert s.intervals[1] == pytest.approx(ib, abs=1e-9)
            assert ib[0] - ia[1] == pytest.approx(r.distance, abs=1e-9)
        else:
            n_int += 1
        # swap (same kind: roles exchanged)
        f = Q("distance", b, a)
        assert f.distance == pytest.approx(r.distance, abs=1e-12)
        assert Q("separating_axis", b, a).intersects is s.intersects
    assert n_sep > 20 and n_int > 20
    assert worst < 1e-9


def test_capsule_sphere_against_brute_force_and_swap():
    rng = np.random.default_rng(6)
    n_sep = n_int = 0
    for _ in range(150):
        c = rand_capsule(rng)
        sph = Sphere(rng.uniform(-1.5, 1.5, 3), rng.uniform(0, 1) * (rng.random() > 0.1))
        r = Q("distance", c, sph)
        p = sph.center
        want = max(0.0, brute_segment_distance(c.p0, c.p1, p, p, 2001) - c.radius - sph.radius)
        assert r.distance == pytest.approx(want, abs=1e-9)
        assert r.distance == pytest.approx(gjk_distance(c, sph).distance, abs=1e-9)
        s = Q("separating_axis", c, sph)
        assert s.intersects is (r.distance == 0) is Q("intersects", c, sph).intersects
        f = Q("distance", sph, c)
        assert f.distance == r.distance and f.closest == (r.closest[1], r.closest[0])
        fs = Q("separating_axis", sph, c)
        assert fs.intersects is s.intersects
        if not s.intersects:
            n_sep += 1
            assert fs.intervals == (s.intervals[1], s.intervals[0])
            u = np.asarray(s.axis)
            ia, ib = support_interval(c, u), support_interval(sph, u)
            assert ib[0] - ia[1] == pytest.approx(r.distance, abs=1e-9)
        else:
            n_int += 1
    assert n_sep > 20 and n_int > 20


def test_segment_distance_comes_from_the_registry():
    # the capsule code asks the registry for segment-segment (GTCG §10.8, st-plane regions)
    r = Q("distance", Capsule((0, 0, 0), (1, 0, 0), 0.1), Capsule((0, 1, 1), (1, 1, 1), 0.1))
    assert "10.8" in r.trace["segment_method"]
    assert r.distance == pytest.approx(math.sqrt(2) - 0.2)


# ----------------------------------------------------------------------------- exact certificates
# (P, Q) minimises |P - Q| over two convex sets iff (Q - P) . (X - P) <= 0 for every X of A
# and (P - Q) . (Y - Q) <= 0 for every Y of B; for segments the endpoints suffice. The
# segment distance runs exactly on Fractions, so this is checked exactly, and with it the
# capsule decision |PQ|^2 <= (r_A + r_B)^2.

ipt = st.tuples(*[st.integers(-3, 3)] * 3)     # integer points: parallel, collinear, touching
rad = st.fractions(min_value=0, max_value=2, max_denominator=4)


@settings(max_examples=examples(100), deadline=None)
@given(ipt, ipt, rad, ipt, ipt, rad)
def test_exact_capsule_capsule_certificate(a0, a1, ra, b0, b1, rb):
    a = Capsule(a0, a1, ra, exact=True)
    b = Capsule(b0, b1, rb, exact=True)
    r = Q("separating_axis", a, b)
    d = Q("distance", a, b)
    P, Qp = d.trace["P"], d.trace["Q"]
    assert all(isinstance(x, F) for x in P + Qp)
    g = V.sub(Qp, P)
    assert all(V.dot(g, V.sub(X, P)) <= 0 for X in (a.p0, a.p1))
    assert all(V.dot(g, V.sub(Qp, Y)) <= 0 for Y in (b.p0, b.p1))
    inter = V.sqr_norm(g) <= (ra + rb) ** 2
    assert r.intersects is inter is Q("intersects", a, b).intersects
    assert (d.distance == 0) is inter
    assert Q("separating_axis", b, a).intersects is inter


@settings(max_examples=examples(100), deadline=None)
@given(ipt, ipt, rad, ipt, rad)
def test_exact_capsule_sphere_certificate(a0, a1, ra, c, rs):
    cap = Capsule(a0, a1, ra, exact=True)
    s = Sphere(c, rs, exact=True)
    d = Q("distance", cap, s)
    P = d.trace["P"]
    g = V.sub(s.center, P)
    assert all(V.dot(g, V.sub(X, P)) <= 0 for X in (cap.p0, cap.p1))
    inter = V.sqr_norm(g) <= (ra + rs) ** 2
    assert Q("intersects", s, cap).intersects is inter
    assert Q("separating_axis", s, cap).intersects is inter
    assert (d.distance == 0) is inter
