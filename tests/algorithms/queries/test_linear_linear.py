"""Point/segment/ray/line pairs: the robust st-plane minimiser (GTCG §10.8) and its registry
answers, against hand-derived cases and the exact rational brute force of exact_oracle.py.

The large oracle run: ``LINEAR_ORACLE_EXAMPLES=20000 pytest -s
tests/algorithms/queries/test_linear_linear.py -k oracle`` prints the largest error (in units of the
coordinate scale) of every oracle test.

Measured with 20000 examples per test (31 min): max |distance - exact| / scale was 1.46e-15
(any pair), 4.25e-16 (integer grid), 1.74e-15 (near-parallel segments, angles down to 1e-15,
offsets to 1e6), 1.77e-15 (near-parallel rays/lines); the values near 8 eps come from the
touching tolerance (distances below 8 eps x scale are reported as 0). Exact inputs matched
the brute force exactly in all 20000 cases.
"""

from __future__ import annotations

import math
import os
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, assume, example, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Line, Point, Ray, Segment, query
from algorithms.report import evaluate_json as evaluate_pair
from algorithms.kernels.stplane import DOMAINS, linear_form
from algorithms.queries.linear_linear import (closest_approach, closest_point_on_ray,
                                              linear_distance, segment_segment_st)
from tests.algorithms.exact_oracle import (brute_force, exact_parts, exact_sqr_distance,
                                           fraction_sqrt)

R2 = math.sqrt(2.0)
N_ORACLE = examples(int(os.environ.get("LINEAR_ORACLE_EXAMPLES", "80")))
TOL = 1e-12  # times the coordinate scale
WORST: dict[str, float] = {}


def dist(a, b):
    return query("distance", a, b)


# ----------------------------------------------------------------------------- regions 0-8

# Family for Fig. 10.36: seg0 = x-axis [0,1] at z=0, seg1 = (x1, y1 + [0,1], 1) along +y.
# Then D + s m0 - t m1 = (s - x1, -y1 - t, -1), so Q = (s - x1)^2 + (t + y1)^2 + 1 is separable:
# s_bar = x1, t_bar = -y1, and the constrained minimum is simply (clamp(x1), clamp(-y1)), with
# Q = (clamp(x1) - x1)^2 + (clamp(-y1) + y1)^2 + 1. Each (x1, y1) below puts (s_bar, t_bar) in
# the named region of the book's layout 4 3 2 / 5 0 1 / 6 7 8.
REGION_CASES = [
    # region, x1 (= s_bar), t_bar, expected (s, t), expected Q
    (0, 0.5, 0.5, (0.5, 0.5), 1.0),
    (1, 3.0, 0.5, (1.0, 0.5), 4.0 + 1.0),       # s clamped 3 -> 1: (1-3)^2 + 1
    (2, 3.0, 2.0, (1.0, 1.0), 4.0 + 1.0 + 1.0),  # both clamped: (1-3)^2 + (1-2)^2 + 1
    (3, 0.25, 2.0, (0.25, 1.0), 1.0 + 1.0),     # t clamped 2 -> 1
    (4, -1.0, 3.0, (0.0, 1.0), 1.0 + 4.0 + 1.0),
    (5, -2.0, 0.75, (0.0, 0.75), 4.0 + 1.0),
    (6, -1.0, -1.0, (0.0, 0.0), 1.0 + 1.0 + 1.0),
    (7, 0.5, -3.0, (0.5, 0.0), 9.0 + 1.0),
    (8, 2.0, -2.0, (1.0, 0.0), 1.0 + 4.0 + 1.0),
]


@pytest.mark.parametrize("region,x1,t_bar,st_expected,q_expected", REGION_CASES)
def test_segment_segment_regions(region, x1, t_bar, st_expected, q_expected):
    y1 = -t_bar
    seg0 = Segment((0, 0, 0), (1, 0, 0))
    seg1 = Segment((x1, y1, 1), (x1, y1 + 1, 1))
    r = dist(seg0, seg1)
    assert r.trace["region"] == region
    assert r.trace["domain"] == "segment-segment"
    assert (r.trace["s_bar"], r.trace["t_bar"]) == pytest.approx((x1, t_bar))
    assert r.parameter == pytest.approx(st_expected)
    assert r.sqr_distance == pytest.approx(q_expected)
    assert r.distance == pytest.approx(math.sqrt(q_expected))
    # the book's coefficients: a = m0.m0 = 1, b = -m0.m1 = 0, c = 1, det = 1,
    # d = m0.(B0 - B1) = -x1, e = -m1.(B0 - B1) = y1, f = x1^2 + y1^2 + 1
    tr = r.trace
    assert (tr["a"], tr["b"], tr["c"], tr["det"]) == (1, 0, 1, 1)
    assert (tr["d"], tr["e"], tr["f"]) == pytest.approx((-x1, y1, x1 * x1 + y1 * y1 + 1))
    # the same answer exactly, from the same code on Fractions
    s, t, q, _ = segment_segment_st(seg0.as_exact(), seg1.as_exact())
    assert isinstance(q, Fraction) and q == Fraction(q_expected)
    assert (s, t) == tuple(Fraction(x) for x in st_expected)


def test_region2_minimum_inside_edge_s1():
    # seg0 = x-axis [0,1]; seg1 = (0,-4,1) + t (5,1,0). In the plane z=0 the projection of seg1
    # crosses y=0 at t=4, x=20: (s_bar, t_bar) = (20, 4), region 2. Book: Q_s(1,1) > 0? With
    # b = -5, d = 0, a = 1: a + b + d = -4 < 0, so edge s = 1 is tested: F(t) = Q(1, t) is least at
    # t = (P1 - B1).m1 / c = (1,4,-1).(5,1,0) / 26 = 9/26 (inside [0,1]). Then
    # L0(1) - L1(9/26) = (1 - 45/26, 4 - 9/26, -1) = (-19/26, 95/26, -1):
    # Q = (361 + 9025)/676 + 1 = 10062/676 = 5031/338.
    seg0 = Segment((0, 0, 0), (1, 0, 0), exact=True)
    seg1 = Segment((0, -4, 1), (5, -3, 1), exact=True)
    s, t, q, tr = segment_segment_st(seg0, seg1)
    assert tr["region"] == 2 and (tr["s_bar"], tr["t_bar"]) == (20, 4)
    assert (s, t, q) == (1, Fraction(9, 26), Fraction(5031, 338))
    assert tr["edge"] == "s=1"
    # swapped: the same minimum on edge t = 1 at s = 9/26
    s, t, q, tr = segment_segment_st(seg1, seg0)
    assert tr["region"] == 2 and (s, t, q) == (Fraction(9, 26), 1, Fraction(5031, 338))
    assert tr["edge"] == "t=1"
    f = linear_distance(Segment((0, 0, 0), (1, 0, 0)), Segment((0, -4, 1), (5, -3, 1)))
    assert f.distance == pytest.approx(math.sqrt(5031 / 338), rel=1e-15)


def test_ray_segment_half_strip_fig_10_35():
    # Ray along +x from the origin against the family above with s_bar = x1 = 5 (ahead of the ray
    # origin, beyond s = 1): on the ray's half-strip [0, inf) x [0, 1] that is region 0 and the
    # distance is the z offset 1; for a segment A it is region 1 (s clamped to 1: Q = 16 + 1).
    seg1 = Segment((5, -0.5, 1), (5, 0.5, 1))
    r = dist(Ray((0, 0, 0), (1, 0, 0)), seg1)
    assert r.trace["domain"] == "ray-segment" and r.trace["region"] == 0
    assert r.distance == 1.0 and r.parameter == (5.0, 0.5)
    r = dist(Segment((0, 0, 0), (1, 0, 0)), seg1)
    assert r.trace["region"] == 1 and r.distance == pytest.approx(math.sqrt(17.0))
    # s_bar = -2 (behind the ray): region 5, minimum on the edge s = 0 at t = 0.5: Q = 4 + 1
    r = dist(Ray((0, 0, 0), (1, 0, 0)), Segment((-2, -0.5, 1), (-2, 0.5, 1)))
    assert r.trace["region"] == 5 and r.parameter == (0.0, 0.5)
    assert r.distance == pytest.approx(math.sqrt(5.0))
    # s_bar = -2, t_bar = -3: region 6, corner (0, 0): Q = 4 + 9 + 1; the half-strip never has 1,2,8
    r = dist(Ray((0, 0, 0), (1, 0, 0)), Segment((-2, 3, 1), (-2, 4, 1)))
    assert r.trace["region"] == 6 and r.parameter == (0.0, 0.0)
    assert r.distance == pytest.approx(math.sqrt(14.0))
    # s_bar = 1e6, t_bar = 5: region 3 for the ray (s inside, t above): (1e6, 1), Q = 16 + 1
    r = dist(Ray((0, 0, 0), (1, 0, 0)), Segment((1e6, -5, 1), (1e6, -4, 1)))
    assert r.trace["region"] == 3 and r.parameter == (1e6, 1.0)
    assert r.distance == pytest.approx(math.sqrt(17.0))


# ----------------------------------------------------------------------------- parallel cases


def test_parallel_disjoint_sigma_intervals():
    # seg1 on the line y=1 over x in [2,3]: sigma0 = -d/a = 2, sigma1 = -(b+d)/a = 3 (the
    # projections of its ends onto seg0's parameter). [2,3] lies right of [0,1]: closest are
    # seg0's end (1,0,0) and seg1's start (2,1,0): distance sqrt(1 + 1).
    r = dist(Segment((0, 0, 0), (1, 0, 0)), Segment((2, 1, 0), (3, 1, 0)))
    assert r.trace["parallel"] is True and r.trace["region"] is None
    assert (r.trace["sigma0"], r.trace["sigma1"]) == (2.0, 3.0)
    assert r.distance == pytest.approx(R2) and r.parameter == (1.0, 0.0)
    # reversed seg1 (book's b > 0 branch): sigma0 = 3, sigma1 = 2, minimum at (s, t) = (1, 1)
    r = dist(Segment((0, 0, 0), (1, 0, 0)), Segment((3, 1, 0), (2, 1, 0)))
    assert r.trace["b"] > 0 and (r.trace["sigma0"], r.trace["sigma1"]) == (3.0, 2.0)
    assert r.distance == pytest.approx(R2) and r.parameter == (1.0, 1.0)
    # the valley a s + b t + d = 0 through (sigma0, 0) with slope -b/a: s = 3 - t
    assert r.trace["valley"] == {"point": (3.0, 0.0), "direction": (-1.0, 1.0)}


def test_parallel_overlapping_and_collinear():
    # Overlapping projections: the offset y = 1 is the distance; any overlapped pair is closest.
    r = dist(Segment((0, 0, 0), (1, 0, 0)), Segment((0.5, 1, 0), (3, 1, 0)))
    assert r.distance == 1.0
    s, t = r.parameter
    assert 0.5 <= s <= 1 and r.closest[1] == pytest.approx((r.closest[0][0], 1, 0))
    # Collinear overlap [0.5, 1] of seg0's parameter (seg1 = x in [0.5, 3] on the x-axis):
    # distance 0; hits are the overlap ends with kind "overlap", first_t = 0.5.
    a, b = Segment((0, 0, 0), (1, 0, 0)), Segment((0.5, 0, 0), (3, 0, 0))
    assert dist(a, b).distance == 0.0
    h = query("hits", a, b)
    assert h.first_t == 0.5 and [(x.t, x.kind) for x in h.hits] == [(0.5, "overlap"),
                                                                      (1.0, "overlap")]
    # seg1 reversed covers the same set: same overlap
    h = query("hits", a, Segment((3, 0, 0), (0.5, 0, 0)))
    assert h.first_t == 0.5 and [x.t for x in h.hits] == [0.5, 1.0]
    # end to end (touch at x = 1 only): one hit, kind "hit"
    h = query("hits", a, Segment((1, 0, 0), (2, 0, 0)))
    assert h.first_t == 1.0 and [(x.t, x.kind) for x in h.hits] == [(1.0, "hit")]
    # collinear, disjoint: distance 1, no hits
    assert dist(a, Segment((2, 0, 0), (3, 0, 0))).distance == 1.0
    assert query("hits", a, Segment((2, 0, 0), (3, 0, 0))).hits == ()


def test_rays_and_lines_collinear_first_t():
    # Ray A from 0 along +x, ray B from 5 along -x: overlap s in [0, 5], first_t 0.
    h = query("hits", Ray((0, 0, 0), (1, 0, 0)), Ray((5, 0, 0), (-1, 0, 0)))
    assert h.first_t == 0.0 and [(x.t, x.kind) for x in h.hits] == [(0, "overlap"),
                                                                      (5, "overlap")]
    # Ray B from -1 along -x: disjoint, distance 1 (between the two origins)
    r = dist(Ray((0, 0, 0), (1, 0, 0)), Ray((-1, 0, 0), (-1, 0, 0)))
    assert r.distance == 1.0 and r.parameter == (0.0, 0.0)
    # Line A (direction 2 along x) lying on line B: intersects, first_t None (unbounded below)
    A = Line((0, 0, 0), (2, 0, 0))
    h = query("hits", A, Line((1, 0, 0), (-1, 0, 0)))
    assert h.intersects and h.first_t is None and h.hits == ()
    # Line A against ray B from (1,0,0) along -x: covers s <= 0.5, unbounded below: None
    h = query("hits", A, Ray((1, 0, 0), (-1, 0, 0)))
    assert h.first_t is None and [x.t for x in h.hits] == [0.5]
    # ... along +x: covers s >= 0.5: first_t 0.5
    h = query("hits", A, Ray((1, 0, 0), (3, 0, 0)))
    assert h.first_t == 0.5
    # Line A crossing line B at x = 3: s = 3/2 (direction length 2)
    h = query("hits", A, Line((3, -1, 0), (0, 1, 0)))
    assert h.first_t == 1.5 and h.hits[0].point == (3.0, 0.0, 0.0)
    # Parallel lines one apart: the valley candidate, distance 1
    r = dist(A, Line((7, 1, 0), (-1, 0, 0)))
    assert r.distance == 1.0 and r.trace["parallel"] and r.trace["edge"] == "valley"


def test_touching_and_crossing():
    # X crossing at (0.5, 0.5, 0): exact in floats; distance 0, hits at s = 0.5
    a, b = Segment((0, 0, 0), (1, 1, 0)), Segment((1, 0, 0), (0, 1, 0))
    r = dist(a, b)
    assert r.distance == 0 and r.closest == ((0.5, 0.5, 0.0), (0.5, 0.5, 0.0))
    assert query("intersects", a, b).intersects
    assert query("hits", a, b).first_t == 0.5
    # T-junction: b's start lies on a at s = 0.25 (a = [0,4] on x, b from (1,0,0) up)
    a, b = Segment((0, 0, 0), (4, 0, 0)), Segment((1, 0, 0), (1, 2, 0))
    assert dist(a, b).distance == 0 and query("hits", a, b).first_t == 0.25
    # a clean crossing at 1e6: 1e6 + [0, 1] segments crossing at (1e6 + 0.5, 1e6 + 0.5, 7)
    o = 1e6
    a = Segment((o, o, 7), (o + 1, o + 1, 7))
    b = Segment((o + 1, o, 7), (o, o + 1, 7))
    assert dist(a, b).distance == 0 and query("intersects", a, b).intersects
    # just missing by 1e-3 in z: distance 1e-3 (tolerance is ~1e-9 at this scale)
    b2 = Segment((o + 1, o, 7.001), (o, o + 1, 7.001))
    assert dist(a, b2).distance == pytest.approx(0.001, rel=1e-6)
    assert not query("intersects", a, b2).intersects


def test_zero_length_and_points():
    # point-point: |(1,2,2)| = 3
    r = dist(Point((0, 0, 0)), Point((1, 2, 2)))
    assert r.distance == 3.0 and r.parameter == (None, None)
    # zero-length segment vs segment: the point (0.5, 1, 0) to the x-axis [0,1]: distance 1
    z = Segment((0.5, 1, 0), (0.5, 1, 0))
    r = dist(Segment((0, 0, 0), (1, 0, 0)), z)
    assert r.distance == 1.0 and r.parameter[0] == 0.5
    assert r.trace["degenerate"] == ["B has zero length"]
    # both zero length: (0,0,0) vs (3,4,0): 5
    r = dist(Segment((0, 0, 0), (0, 0, 0)), Segment((3, 4, 0), (3, 4, 0)))
    assert r.distance == 5.0
    # zero-length segment A touching B: first_t 0
    h = query("hits", Segment((1, 0, 0), (1, 0, 0)), Segment((0, 0, 0), (2, 0, 0)))
    assert h.intersects and h.first_t == 0.0
    # ray-point: (3, 4, 0) projects at t = 3 (A.2): distance 4; point behind the ray: origin
    r = dist(Ray((0, 0, 0), (1, 0, 0)), Point((3, 4, 0)))
    assert r.distance == 4.0 and r.parameter == (3.0, None)
    r = dist(Ray((0, 0, 0), (1, 0, 0)), Point((-3, 4, 0)))
    assert r.distance == 5.0 and r.parameter == (0.0, None)
    h = query("hits", Ray((0, 0, 0), (2, 0, 0)), Point((3, 0, 0)))
    assert h.first_t == 1.5 and h.hits[0].point == (3.0, 0.0, 0.0)


def test_primer_a2_closest_point_on_ray():
    # t = d.(q - p)/(d.d) = (2,0,0).(4,1,0)/4 = 2 ; q' = (4, 0, 0)
    t, p = closest_point_on_ray(Ray((0, 0, 0), (2, 0, 0)), (4, 1, 0))
    assert t == 2.0 and p == (4.0, 0.0, 0.0)
    # behind the origin: t < 0 -> the origin (A.2)
    t, p = closest_point_on_ray(Ray((1, 1, 1), (0, 0, 1)), (5, 5, -3))
    assert t == 0 and p == (1.0, 1.0, 1.0)
    # exact
    t, p = closest_point_on_ray(Ray((0, 0, 0), (3, 0, 0), exact=True), (1, 1, 0))
    assert t == Fraction(1, 3) and p == (1, 0, 0)


def test_primer_a8_closest_approach_classes():
    # crossing: x-axis and the line x=2 along y (both through (2,0,0)): t1 = 2, t2 = 0
    c = closest_approach(Line((0, 0, 0), (1, 0, 0)), Line((2, -3, 0), (0, 1, 0)))
    assert c.classification == "crossing" and (c.t1, c.t2) == (2.0, 3.0)
    # skew: lift the second line to z = 1: same parameters, distance 1
    c = closest_approach(Line((0, 0, 0), (1, 0, 0)), Line((2, -3, 1), (0, 1, 0)))
    assert c.classification == "skew" and (c.t1, c.t2, c.distance) == (2.0, 3.0, 1.0)
    # parallel, 1 apart
    c = closest_approach(Ray((0, 0, 0), (1, 0, 0)), Ray((0, 1, 0), (-2, 0, 0)))
    assert c.classification == "parallel" and c.distance == 1.0 and c.t1 is None
    # coincident
    c = closest_approach(Ray((0, 0, 0), (1, 0, 0)), Line((5, 0, 0), (-2, 0, 0)))
    assert c.classification == "coincident" and c.distance == 0.0
    # rays whose lines cross behind one origin: within_domains False; the rays' own distance
    # (st-plane, ray-ray) is from ray 2's origin (2,1,0) down to (2,0,0) on ray 1: 1
    c = closest_approach(Ray((0, 0, 0), (1, 0, 0)), Ray((2, 1, 0), (0, 1, 0)))
    assert c.classification == "crossing" and c.within_domains is False
    assert c.t2 == -1.0 and c.restricted.distance == 1.0
    assert c.restricted.parameter == (2.0, 0.0)


# ----------------------------------------------------------------------------- oracle tests

KIND_CLS = {"point": Point, "segment": Segment, "ray": Ray, "line": Line}


def make(kind, p, q):
    if kind == "point":
        return Point(p)
    if kind == "segment":
        return Segment(p, q)
    if all(x == 0 for x in q):
        q = (1.0, 0.0, 0.0)
    return KIND_CLS[kind](p, q)


def scale_of(*vectors):
    return max(max((abs(float(x)) for v in vectors for x in v), default=0.0), 1e-300)


def check_against_oracle(a, b, name, tol=TOL):
    r = linear_distance(a, b)
    q_exact, s_ex, t_ex = brute_force(*exact_parts(a), *exact_parts(b))
    exact = fraction_sqrt(q_exact)
    vecs = []
    for p in (a, b):
        _, B, m = linear_form(p)
        vecs += [B, m]
    scale = scale_of(*vecs, *r.closest)
    err = abs(r.distance - exact) / scale
    WORST[name] = max(WORST.get(name, 0.0), err)
    assert err <= tol, (a, b, r.distance, exact, r.trace)
    # the closest points are on the components, at the reported parameters, distance apart
    for prim, param, pt in ((a, r.parameter[0], r.closest[0]), (b, r.parameter[1], r.closest[1])):
        if prim.kind == "point":
            assert param is None
            continue
        lo, hi = DOMAINS[prim.kind]
        assert (lo is None or param >= lo) and (hi is None or param <= hi)
    if r.distance > 0:
        d_pts = math.dist(r.closest[0], r.closest[1])
        assert abs(d_pts - r.distance) <= 1e-12 * scale
    return r


coord = st.floats(-10, 10, allow_nan=False, allow_infinity=False)
vec3 = st.tuples(coord, coord, coord)
kinds = st.sampled_from(["point", "segment", "ray", "line"])
small_ints = st.tuples(*[st.integers(-3, 3)] * 3)


@settings(max_examples=N_ORACLE, deadline=None)
@given(kinds, kinds, vec3, vec3, vec3, vec3)
def test_oracle_any_pair(k0, k1, p0, q0, p1, q1):
    check_against_oracle(make(k0, p0, q0), make(k1, p1, q1), "any pair")


@settings(max_examples=N_ORACLE, deadline=None)
@given(kinds, kinds, small_ints, small_ints, small_ints, small_ints)
def test_oracle_integer_grid(k0, k1, p0, q0, p1, q1):
    # small integer coordinates hit the special cases often: parallel, collinear, overlapping,
    # touching, zero-length, crossing exactly; distance and the exact code path both checked
    a, b = make(k0, p0, q0), make(k1, p1, q1)
    check_against_oracle(a, b, "integer grid")
    s, t, q, _ = segment_segment_st(a.as_exact(), b.as_exact())
    assert q == exact_sqr_distance(a, b)


unit_float = st.floats(-1, 1, allow_nan=False)


@st.composite
def near_parallel_pair(draw, kind0="segment", kind1="segment"):
    """Two components of length ~1 around a centre up to 1e6, at angle 10^-k (k in 0..15),
    with separations from 0 to 1 (collinear, overlapping, touching included)."""
    big = draw(st.sampled_from([0.0, 1.0, 1e3, 1e6]))
    centre = tuple(big * draw(unit_float) for _ in range(3))
    u = draw(st.tuples(unit_float, unit_float, unit_float))
    nu = math.sqrt(sum(x * x for x in u))
    assume(nu > 0.1)
    u = tuple(x / nu for x in u)
    w = draw(st.tuples(unit_float, unit_float, unit_float))
    wu = sum(x * y for x, y in zip(w, u))
    w = tuple(x - wu * y for x, y in zip(w, u))
    nw = math.sqrt(sum(x * x for x in w))
    assume(nw > 0.1)
    w = tuple(x / nw for x in w)
    k = draw(st.integers(0, 16))
    theta = 0.0 if k == 16 else draw(st.floats(1, 9.99)) * 10.0 ** -k
    v = tuple(math.cos(theta) * x + math.sin(theta) * y for x, y in zip(u, w))
    sep_exp = draw(st.sampled_from([None, -15, -12, -8, -4, 0]))
    offset = (0.0,) * 3
    if sep_exp is not None:
        o = draw(st.tuples(unit_float, unit_float, unit_float))
        offset = tuple(x * 10.0 ** sep_exp for x in o)
    along = draw(st.floats(-1.5, 1.5))
    c1 = tuple(c + o + along * x for c, o, x in zip(centre, offset, u))
    l0, l1 = draw(st.floats(0, 2)), draw(st.floats(0, 2))
    a0 = tuple(c - 0.5 * l0 * x for c, x in zip(centre, u))
    a1 = tuple(c + 0.5 * l0 * x for c, x in zip(centre, u))
    b0 = tuple(c - 0.5 * l1 * x for c, x in zip(c1, v))
    b1 = tuple(c + 0.5 * l1 * x for c, x in zip(c1, v))
    if draw(st.booleans()):
        b0, b1 = b1, b0

    def build(kind, p, q, direction):
        if kind == "segment":
            return Segment(p, q)
        return KIND_CLS[kind](p, direction)

    return build(kind0, a0, a1, u), build(kind1, b0, b1, v)


@settings(max_examples=N_ORACLE, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(near_parallel_pair())
def test_oracle_near_parallel_segments(pair):
    # the headline robustness goal: within 1e-12 x coordinate scale down to 1e-15 radians,
    # at 1e6, collinear/overlapping/touching/zero-length included
    check_against_oracle(*pair, "near-parallel segments")


@settings(max_examples=N_ORACLE, deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(st.data(), kinds, kinds)
def test_oracle_near_parallel_rays_lines(data, k0, k1):
    # rays and lines: the closest points of nearly parallel lines can be ~1/angle away, so the
    # scale includes the closest points (rounding there is unavoidable in doubles)
    k0 = "segment" if k0 == "point" else k0
    k1 = "segment" if k1 == "point" else k1
    a, b = data.draw(near_parallel_pair(k0, k1))
    check_against_oracle(a, b, "near-parallel rays/lines")


@settings(max_examples=N_ORACLE, deadline=None)
@given(kinds, kinds, vec3, vec3, vec3, vec3)
def test_oracle_exact_inputs_agree_exactly(k0, k1, p0, q0, p1, q1):
    # the same code on Fractions gives the brute force's exact squared distance
    a, b = make(k0, p0, q0).as_exact(), make(k1, p1, q1).as_exact()
    s, t, q, _ = segment_segment_st(a, b)
    assert q == exact_sqr_distance(a, b)



# ----------------------------------------------------------------------------- consistency


@settings(max_examples=examples(60), deadline=None)
@given(kinds, kinds, vec3, vec3, vec3, vec3)
@example("ray", "segment", (0.0, 0.0, 2.0), (0.0, 2.2899766131370465e-158,
                                            -9.004061334666784e-176),
         (0.0, 0.0, 0.0), (0.0, 0.0, 1.0))  # a flat minimum (below)
def test_swap_symmetry_through_registry(k0, k1, p0, q0, p1, q1):
    a, b = make(k0, p0, q0), make(k1, p1, q1)
    r, rs = query("distance", a, b), query("distance", b, a)
    scale = scale_of(p0, q0, p1, q1, *r.closest)
    assert abs(r.distance - rs.distance) <= 1e-12 * scale
    assert query("intersects", a, b).intersects == query("intersects", b, a).intersects
    if r.distance > 1e-9 * scale and r.trace.get("parallel") is False and r.trace.get(
            "det", 0) > 1e-6:
        # unique minimiser: the same parameters, swapped (a parameter is in units of its
        # direction's length: a ray along (0, 4.8e-70, 0) has t = 1.2e68, whose rounding is
        # relative, hence rel as well as abs)
        for t, ts, x in ((r.parameter[0], rs.parameter[1], a),
                         (r.parameter[1], rs.parameter[0], b)):
            if ts != pytest.approx(t, rel=1e-12, abs=1e-9 * scale):
                # ... unless the minimum is flat along the component: a ray along
                # (0, 2.3e-158, -9e-176) from (0, 0, 2) against the segment (0,0,0)-(0,0,1)
                # has its exact minimiser at t = 9e-176 / |d|^2 = 1.7e140, where the
                # distance is 1 - 1.5e-35: every t in [0, 1.7e140] gives 1.0 in floats. A
                # distance known to 1e-12 scale pins a point on a quadratic minimum only to
                # sqrt(2e-12) scale: the two orders' points along the component (t |d|)
                # must agree to that
                assert abs(t - ts) * math.hypot(*x.direction) <= math.sqrt(2e-12) * scale


@settings(max_examples=examples(60), deadline=None)
@given(st.sampled_from(["segment", "ray", "line"]), kinds, small_ints, small_ints, small_ints,
       small_ints)
def test_hits_agree_with_distance(k0, k1, p0, q0, p1, q1):
    a, b = make(k0, p0, q0), make(k1, p1, q1)
    r, h = query("distance", a, b), query("hits", a, b)
    assert h.intersects == (r.distance == 0) == query("intersects", a, b).intersects
    for hit in h.hits:
        # every hit point is on B (exact grid: distance 0 up to rounding)
        assert linear_distance(Point(hit.point), b).distance <= 1e-12
    if h.first_t is not None:
        assert h.hits and h.hits[0].t == h.first_t
        assert r.parameter[0] >= h.first_t - 1e-12  # first contact is the least parameter


def test_evaluate_pair_has_no_error():
    shapes = [Point((0, 0, 0)), Segment((0, 0, 0), (1, 1, 0)), Segment((1, 0, 0), (1, 0, 0)),
              Ray((0, 1, 0), (1, 0, 0)), Line((5, 5, 5), (0, 0, 1))]
    for a in shapes:
        for b in shapes:
            out = evaluate_pair(a, b)
            assert "error" not in out, out
            assert out["distance"] is not None
            assert (out["first_t"] is not None) == (a.kind != "point" and out["intersects"]
                                                   and not (a.kind == "line"
                                                            and b.kind == "line"
                                                            and out["trace"].get("parallel")))


@st.composite
def crossing_segments(draw):
    """Two segments through a common point X (up to 1e6 from the origin) at any angle; the
    float end points are rounded, so the exact distance is a few ulps of the scale, not 0."""
    big = draw(st.sampled_from([1.0, 1e3, 1e6]))
    X = tuple(big * draw(unit_float) for _ in range(3))
    dirs = []
    for _ in range(2):
        u = draw(st.tuples(unit_float, unit_float, unit_float))
        n = math.sqrt(sum(x * x for x in u))
        assume(n > 0.1)
        dirs.append(tuple(x / n for x in u))
    segs = []
    for u in dirs:
        lo, hi = draw(st.floats(0.05, 1)), draw(st.floats(0.05, 1))
        segs.append(Segment(tuple(x - lo * c for x, c in zip(X, u)),
                            tuple(x + hi * c for x, c in zip(X, u))))
    return segs[0], segs[1], dirs


@settings(max_examples=examples(60), deadline=None,
          suppress_health_check=[HealthCheck.filter_too_much, HealthCheck.too_slow])
@given(crossing_segments())
def test_clean_crossing_counts_as_touching(case):
    # the documented tolerance (8 eps x scale) absorbs the end-point rounding (<= eps/2 x scale
    # per coordinate): a constructed crossing is reported as touching, with distance 0 and one
    # common point, and a hit on A
    a, b, (u, v) = case
    n = (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])
    assume(math.sqrt(sum(x * x for x in n)) > 1e-3)  # a real crossing, not collinear
    r = query("distance", a, b)
    assert r.distance == 0 and r.closest[0] == r.closest[1]
    assert query("intersects", a, b).intersects and query("hits", a, b).intersects
    # ... while lifting b by 1e-9 x scale along the common normal separates them
    scale = max(abs(x) for x in a.p0 + a.p1 + b.p0 + b.p1)
    nn = math.sqrt(sum(x * x for x in n))
    off = tuple(1e-9 * scale * x / nn for x in n)
    b2 = b.translated(off)
    assert not query("intersects", a, b2).intersects
    assert query("distance", a, b2).distance == pytest.approx(1e-9 * scale, rel=1e-3)


@settings(max_examples=examples(60), deadline=None)
@given(small_ints, small_ints, small_ints, small_ints)
def test_primer_a8_classification_exact(p1, d1, p2, d2):
    # on exact integer input the four classes follow from exact facts: d1 x d2 == 0 decides
    # parallel/coincident vs crossing/skew, and the exact line-line distance (brute force) decides
    # the rest; t1, t2 of a crossing or skew pair are the brute force's minimiser
    assume(any(d1) and any(d2))
    L1, L2 = Line(p1, d1, exact=True), Line(p2, d2, exact=True)
    c = closest_approach(L1, L2)
    q, s, t = brute_force(*exact_parts(L1), *exact_parts(L2))
    n = (d1[1] * d2[2] - d1[2] * d2[1], d1[2] * d2[0] - d1[0] * d2[2],
         d1[0] * d2[1] - d1[1] * d2[0])
    if n == (0, 0, 0):
        assert c.classification == ("coincident" if q == 0 else "parallel")
    else:
        assert c.classification == ("crossing" if q == 0 else "skew")
        assert (c.t1, c.t2) == (s, t)
    assert c.distance == pytest.approx(math.sqrt(q), abs=1e-15)
