"""Points, segments, rays and lines against capsules: distance (axis st-plane distance minus
radius) and the ray-capsule cast, against hand-derived cases, the exact Fraction axis distance
of exact_oracle.py and a bisection oracle for the first contact."""

from __future__ import annotations

import math
import os
from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Capsule, Line, Point, Ray, Segment, query
from algorithms.report import evaluate_json as evaluate_pair
from algorithms.kernels.stplane import DOMAINS, linear_form
from tests.algorithms.exact_oracle import (brute_force, exact_parts, exact_point_segment_sqr,
                                           fraction_sqrt)

N = examples(int(os.environ.get("LINEAR_ORACLE_EXAMPLES", "60")))
CAP = Capsule((0, 0, 0), (2, 0, 0), 1)  # axis x in [0, 2], radius 1
WORST: dict[str, float] = {}


def hits_of(a, cap=CAP):
    h = query("hits", a, cap)
    return h, [(x.t, x.kind) for x in h.hits]


# ----------------------------------------------------------------------------- hand cases


def test_cast_along_axis_through_both_hemispheres():
    # origin (-5,0,0) along +x: enters the p0 hemisphere at x = -1 (t = 4, normal -x), leaves
    # the p1 hemisphere at x = 3 (t = 8, normal +x)
    h, hk = hits_of(Ray((-5, 0, 0), (1, 0, 0)))
    assert h.first_t == 4.0 and hk == [(4.0, "entry"), (8.0, "exit")]
    assert h.hits[0].normal == (-1.0, 0.0, 0.0) and h.hits[1].normal == (1.0, 0.0, 0.0)


def test_cast_through_the_wall():
    # origin (1,5,0) along -y: wall y = 1 at t = 4 (normal +y), y = -1 at t = 6 (normal -y)
    h, hk = hits_of(Ray((1, 5, 0), (0, -1, 0)))
    assert hk == [(4.0, "entry"), (6.0, "exit")]
    assert h.hits[0].normal == (0.0, 1.0, 0.0) and h.hits[0].point == (1.0, 1.0, 0.0)
    # oblique from (3,3,0) towards -(1,1,0): hits the wall y = 1 at x = 1 (t = 2); leaves the
    # p0 hemisphere where |(3-t, 3-t)| = 1, i.e. t = 3 + 1/sqrt2, normal -(1,1,0)/sqrt2
    h, hk = hits_of(Ray((3, 3, 0), (-1, -1, 0)))
    assert hk[0] == (2.0, "entry")
    assert h.hits[1].t == pytest.approx(3 + 1 / math.sqrt(2), rel=1e-15)
    assert h.hits[1].normal == pytest.approx((-1 / math.sqrt(2), -1 / math.sqrt(2), 0))
    # a segment ending inside: (1,5,0) -> (1,0,0) enters at 5 - 5t = 1, t = 0.8, no exit
    h, hk = hits_of(Segment((1, 5, 0), (1, 0, 0)))
    assert hk == [(pytest.approx(0.8), "entry")] and h.first_t == pytest.approx(0.8)


def test_cast_starting_inside_or_on_the_surface():
    # ray from the axis point (1,0,0) along +y: inside, first_t 0, exit at y = 1
    h, hk = hits_of(Ray((1, 0, 0), (0, 1, 0)))
    assert h.first_t == 0.0 and hk == [(0.0, "inside"), (1.0, "exit")]
    # a line through the same point: the least t is the entry at y = -1, t = -1
    h, hk = hits_of(Line((1, 0, 0), (0, 1, 0)))
    assert h.first_t == -1.0 and hk == [(-1.0, "entry"), (1.0, "exit")]
    # a segment wholly inside: one "inside" hit at 0
    h, hk = hits_of(Segment((0.5, 0.2, 0), (1.5, -0.2, 0)))
    assert h.first_t == 0.0 and hk == [(0.0, "inside")]
    # a zero-length segment inside the capsule
    h, hk = hits_of(Segment((1, 0.5, 0), (1, 0.5, 0)))
    assert h.first_t == 0.0 and h.intersects
    # ray starting on the surface going in: entry at t = 0 (normal +y), exit at y = -1 (t = 2)
    h, hk = hits_of(Ray((1, 1, 0), (0, -1, 0)))
    assert h.first_t == 0.0 and hk == [(0.0, "entry"), (2.0, "exit")]
    # ... going out: touches only at its origin: first_t 0
    h, hk = hits_of(Ray((1, 1, 0), (0, 1, 0)))
    assert h.intersects and h.first_t == 0.0


def test_cast_grazing():
    # tangent to the p0 hemisphere at (-1,0,0): origin (-1,0,-5) along +z touches at t = 5 only
    h, hk = hits_of(Ray((-1, 0, -5), (0, 0, 1)))
    assert hk == [(5.0, "hit")] and h.hits[0].normal == (-1.0, 0.0, 0.0)
    # along the wall y = 1: the line lies on the surface for x in [0, 2]: t in [5, 7]
    h, hk = hits_of(Ray((-5, 1, 0), (1, 0, 0)))
    assert h.first_t == 5.0 and hk == [(5.0, "entry"), (7.0, "exit")]
    # a hair outside the wall: miss, distance 1e-9 (well above the touching tolerance)
    h, hk = hits_of(Ray((-5, 1 + 1e-9, 0), (1, 0, 0)))
    assert hk == [] and query("distance", Ray((-5, 1 + 1e-9, 0), (1, 0, 0)),
                                 CAP).distance == pytest.approx(1e-9, rel=1e-6)


def test_cast_zero_radius_and_zero_length_capsules():
    # radius 0: the capsule is its axis segment; the ray (1,5,0) along -y crosses it at t = 5
    h, hk = hits_of(Ray((1, 5, 0), (0, -1, 0)), Capsule((0, 0, 0), (2, 0, 0), 0))
    assert hk == [(5.0, "hit")] and h.hits[0].normal is None
    # zero-length axis: a ball of radius 2 at the origin: from (-5,0,0), t = 3 and t = 7
    h, hk = hits_of(Ray((-5, 0, 0), (1, 0, 0)), Capsule((0, 0, 0), (0, 0, 0), 2))
    assert hk == [(3.0, "entry"), (7.0, "exit")] and h.hits[0].normal == (-1.0, 0.0, 0.0)


def test_distance_hand_cases():
    # beside the wall: (1,3,0) is 3 from the axis: 3 - 1 = 2, capsule point (1,1,0)
    r = query("distance", Point((1, 3, 0)), CAP)
    assert r.distance == 2.0 and r.closest == ((1.0, 3.0, 0.0), (1.0, 1.0, 0.0))
    # beyond the p1 end: (5,0,0) is 3 from p1: 2, capsule point (3,0,0)
    r = query("distance", Point((5, 0, 0)), CAP)
    assert r.distance == 2.0 and r.closest[1] == (3.0, 0.0, 0.0)
    # inside: 0, the point itself on both sides
    r = query("distance", Point((1, 0.5, 0)), CAP)
    assert r.distance == 0 and r.closest == ((1.0, 0.5, 0.0), (1.0, 0.5, 0.0))
    # parallel segment on the line y = -3, z = 4 (5 from the axis): distance 4; the capsule point
    # is the axis point moved 1 along (0,-3,4)/5
    r = query("distance", Segment((-3, -3, 4), (5, -3, 4)), CAP)
    assert r.distance == pytest.approx(4.0)
    assert r.closest[1][1:] == pytest.approx((-0.6, 0.8))
    assert r.closest[0][0] == r.closest[1][0] and 0 <= r.closest[0][0] <= 2
    # swapped through the registry: capsule first
    rs = query("distance", CAP, Segment((-3, -3, 4), (5, -3, 4)))
    assert rs.distance == r.distance and rs.closest == (r.closest[1], r.closest[0])
    # a line missing by 1: y = 2
    r = query("distance", Line((-5, 2, 0), (1, 0, 0)), CAP)
    assert r.distance == 1.0 and not query("intersects", Line((-5, 2, 0), (1, 0, 0)),
                                           CAP).intersects


# ----------------------------------------------------------------------------- oracle tests

c10 = st.floats(-10, 10, allow_nan=False)
v10 = st.tuples(c10, c10, c10)
radius = st.one_of(st.just(0.0), st.floats(0, 5))
lin_kinds = st.sampled_from(["segment", "ray", "line"])


def make(kind, p, q):
    if kind == "segment":
        return Segment(p, q)
    if all(x == 0 for x in q):
        q = (1.0, 0.0, 0.0)
    return {"ray": Ray, "line": Line}[kind](p, q)


def g_exact(prim, t, cap):
    """Exact squared distance from A(t) (t a float, taken exactly) to the capsule axis."""
    _, B, m = exact_parts(prim)
    tf = Fraction(t)
    x = tuple(b + tf * mi for b, mi in zip(B, m))
    return exact_point_segment_sqr(x, cap.p0, cap.p1)


def scale_of(*vectors):
    return max(max(abs(float(x)) for v in vectors for x in v), 1e-300)


@settings(max_examples=N, deadline=None)
@given(st.sampled_from(["point", "segment", "ray", "line"]), v10, v10, v10, v10, radius)
def test_distance_against_exact_axis_distance(kind, p, q, c0, c1, r):
    a = Point(p) if kind == "point" else make(kind, p, q)
    cap = Capsule(c0, c1, r)
    res = query("distance", a, cap)
    q_exact = brute_force(*exact_parts(a), *exact_parts(cap.segment))[0]
    expected = max(fraction_sqrt(q_exact) - r, 0.0)
    scale = scale_of(p, q, c0, c1, (r,), *res.closest)
    err = abs(res.distance - expected) / scale
    WORST["capsule distance"] = max(WORST.get("capsule distance", 0), err)
    assert err <= 1e-12
    if res.distance > 0:
        # the capsule point is on the surface, the closest points are `distance` apart
        assert math.dist(*res.closest) == pytest.approx(res.distance, abs=1e-12 * scale)
        axis_d = fraction_sqrt((exact_point_segment_sqr(res.closest[1], c0, c1)))
        assert abs(axis_d - r) <= 1e-12 * scale
    sw = query("distance", cap, a)
    assert sw.distance == res.distance and sw.closest == (res.closest[1], res.closest[0])
    assert query("intersects", a, cap).intersects == (res.distance == 0)


@st.composite
def aimed(draw):
    """A linear component aimed at a random point near the capsule (so most of them hit)."""
    kind = draw(lin_kinds)
    c0, c1, r = draw(v10), draw(v10), draw(st.floats(0.01, 5))
    u = draw(st.floats(-0.2, 1.2))
    target = tuple(a + u * (b - a) + draw(st.floats(-1.5, 1.5)) * r
                   for a, b in zip(c0, c1))
    origin = draw(v10)
    d = tuple(t - o for t, o in zip(target, origin))
    if all(x == 0 for x in d):
        d = (1.0, 0.0, 0.0)
    if kind == "segment":
        k = draw(st.floats(0.2, 2.0))
        return Segment(origin, tuple(o + k * x for o, x in zip(origin, d))), Capsule(c0, c1, r)
    if kind == "line":
        origin = tuple(o + draw(st.floats(-3, 3)) * x for o, x in zip(origin, d))
    return make(kind, origin, d), Capsule(c0, c1, r)


def oracle_first_t(a, cap):
    """Least t in A's domain with g(t) <= r^2, by bisection on the convex exact g; returns
    (t or None, margin) where margin = r - (least axis distance) (near 0: grazing)."""
    r2 = Fraction(cap.radius) ** 2
    q, s, _ = brute_force(*exact_parts(a), *exact_parts(cap.segment))
    margin = float(cap.radius) - fraction_sqrt(q)
    if q > r2:
        return None, margin
    lo, hi = DOMAINS[a.kind]
    if lo is not None and g_exact(a, float(lo), cap) <= r2:
        return float(lo), margin
    inside = float(s)
    step = 1.0
    outside = inside - step
    while g_exact(a, outside, cap) <= r2:
        step *= 2
        outside = inside - step
    if lo is not None:
        outside = max(outside, float(lo))
    for _ in range(200):
        mid = (inside + outside) / 2
        if mid in (inside, outside):
            break
        if g_exact(a, mid, cap) <= r2:
            inside = mid
        else:
            outside = mid
    return inside, margin


@settings(max_examples=N, deadline=None)
@given(aimed())
def test_first_t_against_bisection_oracle(pair):
    a, cap = pair
    h = query("hits", a, cap)
    t_oracle, margin = oracle_first_t(a, cap)
    _, B, m = linear_form(a)
    scale = scale_of(B, m, cap.p0, cap.p1, (cap.radius,))
    assert h.intersects == query("intersects", a, cap).intersects
    if abs(margin) <= 1e-9 * scale:
        return  # grazing within rounding: either answer is right (scene-v1)
    assert h.intersects == (t_oracle is not None)
    if t_oracle is None:
        return
    mlen = math.sqrt(sum(x * x for x in m))
    # the entry parameter of a near-grazing line is ill-conditioned (~ eps / sqrt(margin)), so
    # compare the points: |A(first_t) - A(t_oracle)| relative to the scale
    err = abs(h.first_t - t_oracle) * mlen / scale
    bound = 1e-12 + 1e-15 / math.sqrt(max(margin / scale, 1e-300))
    WORST["capsule first_t"] = max(WORST.get("capsule first_t", 0), err)
    assert err <= bound, (h, t_oracle, margin)
    r = float(cap.radius)
    for hit in h.hits:
        x = hit.point
        axis_d = fraction_sqrt((exact_point_segment_sqr(x, cap.p0, cap.p1)))
        if hit.kind in ("entry", "exit"):
            # on the surface, with a unit outward normal
            assert abs(axis_d - r) <= 1e-9 * scale
            assert math.hypot(*hit.normal) == pytest.approx(1.0, abs=1e-12)
            moved = tuple(xi + 1e-6 * scale * ni for xi, ni in zip(x, hit.normal))
            assert fraction_sqrt((exact_point_segment_sqr(moved, cap.p0, cap.p1))) > r
        else:
            assert axis_d <= r + 1e-9 * scale


@settings(max_examples=N, deadline=None)
@given(st.sampled_from(["segment", "ray"]), v10, v10, v10, st.floats(0.01, 5),
       st.floats(0, 1), st.floats(0, 0.99))
def test_start_inside_gives_first_t_zero(kind, d, c0, c1, r, u, depth):
    # an origin strictly inside the capsule (axis point + depth * r along a perpendicular-ish
    # direction): first_t = 0, first hit kind "inside" (or "entry" on the surface)
    cap = Capsule(c0, c1, r)
    axis_pt = tuple(a + u * (b - a) for a, b in zip(c0, c1))
    origin = tuple(p + depth * r * e for p, e in zip(axis_pt, (0.6, 0.0, 0.8)))
    a = make(kind, origin, d)
    h = query("hits", a, cap)
    assert h.intersects and h.first_t == 0.0


def test_evaluate_pair_capsule_has_no_error():
    for a in (Point((1, 3, 0)), Segment((0, 0, 0), (1, 1, 1)), Ray((-5, 0, 0), (1, 0, 0)),
              Line((0, 4, 0), (1, 0, 0))):
        for pair in ((a, CAP), (CAP, a)):
            out = evaluate_pair(*pair)
            assert "error" not in out, out
    out = evaluate_pair(Ray((-5, 0, 0), (1, 0, 0)), CAP)
    assert out["first_t"] == 4.0 and out["intersects"] is True and out["distance"] == 0.0

