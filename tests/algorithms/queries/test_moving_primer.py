"""Hand cases for the Primer's exact dynamic tests (App. A.10, A.13, A.15, A.17, sphere-AABB).

Every case says how its numbers were derived. A is still and B moves by ``motion`` (A.6);
the normal points from A towards B.
"""

import math

import pytest

from algorithms import (AABB, OBB, Capsule, Cylinder, Line, Plane, Point, Ray, Sphere, Triangle,
                        query, registry)

S2 = math.sqrt(2)
S3 = math.sqrt(3)


def approx(v, tol=1e-12):
    return pytest.approx(v, abs=tol)


def toi(a, b, m, method=None):
    return query("toi", a, b, m, method=method)


# ----------------------------------------------------------------------------- A.13


A13 = "primer_a13_moving_spheres"


def test_spheres_head_on():
    # e = c_s - c_m = (-5,0,0), r = 2, l = 6, d_hat = (-1,0,0): e.d_hat = 5,
    # radicand 25 + 4 - 25 = 4, smaller root t = 5 - 2 = 3 (length units) -> toi = 3/6.
    # At toi B's centre is (2,0,0): normal +x, contact point c_s + r_s n = (1,0,0).
    r = toi(Sphere((0, 0, 0), 1), Sphere((5, 0, 0), 1), (-6, 0, 0))
    assert r.method.endswith("App. A.13)")
    assert r.toi == approx(0.5)
    assert r.point == approx((1, 0, 0))
    assert r.normal == approx((1, 0, 0))
    assert r.trace["e_dot_d"] == approx(5) and r.trace["discriminant"] == approx(4)
    assert r.trace["roots"] == approx((3, 7))  # the larger root: where they stop intersecting
    assert r.trace["A.6"]["d"] == (-6, 0, 0)


def test_spheres_glancing():
    # e = (-5,-2,0), e.e = 29, e.d_hat = 5, radicand 25 + 4 - 29 = 0: one tangent contact at
    # t = 5 of l = 10 -> toi 0.5; B's centre is then (0,2,0), the contact point (0,1,0).
    r = toi(Sphere((0, 0, 0), 1), Sphere((5, 2, 0), 1), (-10, 0, 0))
    assert r.toi == approx(0.5)
    assert r.point == approx((0, 1, 0))
    assert r.normal == approx((0, 1, 0))


def test_spheres_missing():
    # e.e = 25 + 6.25 = 31.25 > 25 + 4: negative radicand
    r = toi(Sphere((0, 0, 0), 1), Sphere((5, 2.5, 0), 1), (-10, 0, 0))
    assert r.toi is None and r.trace["discriminant"] == approx(-2.25)


def test_spheres_start_inside():
    # ||e|| = 1.5 < r = 2: they intersect at t = 0; no normal (interpenetrating)
    r = toi(Sphere((0, 0, 0), 1), Sphere((1.5, 0, 0), 1), (7, 0, 0))
    assert r.toi == 0 and r.normal is None
    # the point lies in both balls: c_s + (r_s / r)(c_m - c_s) = (0.75, 0, 0)
    assert r.point == approx((0.75, 0, 0))


def test_spheres_moving_apart_short_and_exactly_at_one():
    a, b = Sphere((0, 0, 0), 1), Sphere((5, 0, 0), 1)
    assert toi(a, b, (1, 0, 0)).toi is None  # e.d_hat = -5 < 0: both roots negative
    assert toi(a, b, (-2, 0, 0)).toi is None  # t = 3 > l = 2
    assert toi(a, b, (-3, 0, 0)).toi == 1.0  # t = 3 = l: touching exactly at t = 1
    assert toi(a, b, (0, 0, 0)).toi is None  # no relative motion


def test_spheres_zero_radius():
    # two points 2 apart closing at 4 per unit time: t = 0.5; the normal is -d_hat = +x
    r = toi(Sphere((0, 0, 0), 0), Sphere((2, 0, 0), 0), (-4, 0, 0))
    assert r.toi == approx(0.5) and r.normal == approx((1, 0, 0)) and r.point == approx((0, 0, 0))


# ----------------------------------------------------------------------------- A.15


A15 = "primer_a15_moving_sphere_plane"
PLANE = Plane((0, 0, 2), 2)  # n_hat = +z, planeD = 1: the plane z = 1


def test_sphere_plane_front():
    # Listing A.3: d = n.c - planeD = 5 - 1 = 4 >= r: front. p0 = c - r n = (0,0,4);
    # t = (planeD - c.n + r) / (d.n) = (1 - 5 + 1) / (-8) = 3/8; point p0 + t d = (0,0,1).
    r = toi(PLANE, Sphere((0, 0, 5), 1), (0, 0, -8))
    assert r.method.endswith("App. A.15)")
    assert r.toi == approx(3 / 8)
    assert r.point == approx((0, 0, 1)) and r.normal == approx((0, 0, 1))
    assert r.trace["classify"] == 1 and r.trace["p0"] == approx((0, 0, 4))
    assert r.trace["t_book"] == approx(3)  # along the unit direction: 3 of l = 8


def test_sphere_plane_oblique():
    # same t = 3/8 (only d.n matters); point (0,0,4) + 3/8 (3,0,-8) = (1.125, 0, 1)
    r = toi(PLANE, Sphere((0, 0, 5), 1), (3, 0, -8))
    assert r.toi == approx(3 / 8) and r.point == approx((1.125, 0, 1))


def test_sphere_plane_back():
    # d = -3 - 1 = -4 <= -r: back; p0 = c + r n = (0,0,-2); t = (1 + 3 - 1) / 8 = 3/8;
    # normal from the plane towards the sphere: -z
    r = toi(PLANE, Sphere((0, 0, -3), 1), (0, 0, 8))
    assert r.trace["classify"] == -1
    assert r.toi == approx(3 / 8) and r.normal == approx((0, 0, -1))
    assert r.point == approx((0, 0, 1))


def test_sphere_plane_parallel_away_straddle_swapped():
    sph = Sphere((0, 0, 5), 1)
    assert toi(PLANE, sph, (5, 0, 0)).toi is None  # d.n = 0: parallel motion
    assert toi(PLANE, sph, (0, 0, 1)).toi is None  # t = -3 < 0: moving away
    assert toi(PLANE, sph, (0, 0, -2)).toi is None  # t = (1 - 5 + 1)/(-2) = 1.5 > 1
    assert toi(PLANE, Sphere((0, 0, 1.5), 1), (0, 0, 9)).toi == 0  # |d| = 0.5 <= r
    # swapped order: the sphere still, the plane moving up by 8 reaches z = 4 at t = 3/8;
    # the point in the sphere's frame is (0,0,4) and the normal from the sphere is -z
    r = toi(sph, PLANE, (0, 0, 8))
    assert r.toi == approx(3 / 8)
    assert r.point == approx((0, 0, 4)) and r.normal == approx((0, 0, -1))


def test_sphere_plane_touching_exactly_at_one():
    # (1 - 5 + 1) / (-3) = 1
    assert toi(PLANE, Sphere((0, 0, 5), 1), (0, 0, -3)).toi == approx(1)


# ----------------------------------------------------------------------------- A.10


def test_aabb_plane_front_corner():
    # n = (1,1,0) (not unit), d = 0. Listing A.2: n.x > 0 -> minD uses min.x = 2, n.y > 0 ->
    # min.y = 1, n.z = 0 -> the else branch, max.z = 1: corner (2,1,1), minD = 3; maxD = 5.
    # minD > d: front. A.9 from the corner: t = (0 - 3) / (n.d) = -3 / -4 = 0.75;
    # point (2,1,1) + 0.75 (-2,-2,0) = (0.5,-0.5,1).
    r = toi(Plane((1, 1, 0), 0), AABB((2, 1, 0), (3, 2, 1)), (-2, -2, 0))
    assert r.method.endswith("Listing A.2)")
    assert r.trace["minD"] == approx(3) and r.trace["maxD"] == approx(5)
    assert r.trace["first_point"] == approx((2, 1, 1))
    assert r.toi == approx(0.75)
    assert r.point == approx((0.5, -0.5, 1))
    assert r.normal == approx((1 / S2, 1 / S2, 0))


def test_aabb_plane_back_corner_straddle_parallel_short():
    plane = Plane((1, 1, 0), 0)
    # maxD = -2 - 2 = -4 < 0: behind, the corner with maxD is (-2,-2,0) (n.z = 0: min.z);
    # t = (0 + 4) / 8 = 0.5
    r = toi(plane, AABB((-3, -3, 0), (-2, -2, 1)), (4, 4, 0))
    assert r.toi == approx(0.5) and r.normal == approx((-1 / S2, -1 / S2, 0))
    assert r.trace["first_point"] == approx((-2, -2, 0))
    assert toi(plane, AABB((-1, -1, -1), (1, 1, 1)), (9, 9, 9)).toi == 0  # straddles
    assert toi(plane, AABB((2, 1, 0), (3, 2, 1)), (1, -1, 5)).toi is None  # n.d = 0
    assert toi(plane, AABB((2, 1, 0), (3, 2, 1)), (-1, -1, 0)).toi is None  # t = 1.5 > 1


def test_plane_support_point_other_kinds():
    z1 = Plane((0, 0, 1), 1)
    # capsule lowest point p0 - r n = (0,0,2.5); closing 5 per unit time -> t = 1.5/5 = 0.3
    r = toi(z1, Capsule((0, 0, 3), (0, 0, 6), 0.5), (0, 0, -5))
    assert r.toi == approx(0.3) and r.point == approx((0, 0, 1))
    # cylinder with a horizontal axis: lowest point c - r z = (0,0,3): t = 2/4
    assert toi(z1, Cylinder((0, 0, 4), (1, 0, 0), 1, 10), (0, 0, -4)).toi == approx(0.5)
    # ray pointing away from the plane (up) moving down: its origin hits first; t = 2/4
    assert toi(z1, Ray((0, 0, 3), (0, 1, 1)), (0, 0, -4)).toi == approx(0.5)
    # ray pointing down already crosses the plane
    assert toi(z1, Ray((0, 0, 3), (0, 1, -1)), (0, 0, 4)).toi == 0
    # a line parallel to the plane: like a point; a line crossing it: 0
    assert toi(z1, Line((0, 0, 3), (1, 1, 0)), (0, 0, -4)).toi == approx(0.5)
    assert toi(z1, Line((0, 0, 3), (1, 1, 1)), (0, 0, 0)).toi == 0
    # parallel planes z = 1 and 2z = 6 (z = 3) closing at 4: t = 0.5; crossing planes: 0
    assert toi(z1, Plane((0, 0, 2), 6), (0, 0, -4)).toi == approx(0.5)
    assert toi(z1, Plane((0, 1, 1), 6), (0, 0, 0)).toi == 0
    # swapped (point still, plane moving up by 4 from z = 1 to the point at z = 3): t = 0.5,
    # the contact point is the point itself, the normal from the point towards the plane: -z
    r = toi(Point((0, 0, 3)), z1, (0, 0, 4))
    assert r.toi == approx(0.5) and r.point == approx((0, 0, 3)) and r.normal == approx((0, 0, -1))
    # triangle / obb: lowest vertex z = 2 and lowest OBB corner z = 3 - sqrt(2)
    tri = Triangle([(0, 0, 2), (1, 0, 4), (0, 1, 5)])
    assert toi(z1, tri, (0, 0, -2)).toi == approx(0.5)
    c, s = 1 / S2, 1 / S2
    box = OBB((0, 0, 3), [(1, 0, 0), (0, c, s), (0, -s, c)], (1, 1, 1))
    assert toi(z1, box, (0, 0, -4)).toi == approx((2 - S2) / 4)


# ----------------------------------------------------------------------------- A.17


A17 = "primer_a17_moving_aabbs"
UNIT = AABB((0, 0, 0), (1, 1, 1))


def test_aabbs_moving_left_swap():
    # x: t_enter = (s_min - m_max)/d = (0 - 4)/(-4) = 1, t_leave = (1 - 3)/(-4) = 0.5:
    # t_enter > t_leave, swapped -> [0.5, 1]. y, z: d = 0 and overlapping -> (-inf, inf).
    # Intersection with [0, 1]: [0.5, 1] -> toi 0.5; B arrives from +x: normal +x.
    # At 0.5 B = [1,2]x[0.5,1.5]x[0,1]; the overlap face [1,1]x[0.5,1]x[0,1] has centre
    # (1, 0.75, 0.5).
    r = toi(UNIT, AABB((3, 0.5, 0), (4, 1.5, 1)), (-4, 0, 0))
    x, y, z = r.trace["axes"]
    assert x["swapped"] and (x["t_enter"], x["t_leave"]) == approx((0.5, 1))
    assert y["zero_velocity"] and y["overlap"] and y["t_enter"] == -math.inf
    assert r.toi == approx(0.5) and r.normal == approx((1, 0, 0))
    assert r.point == approx((1, 0.75, 0.5))
    assert r.trace["interval"] == approx((0.5, 1))


def test_aabbs_moving_right_no_swap():
    # t_enter = (0 - (-2))/4 = 0.5, t_leave = (1 - (-3))/4 = 1; normal -x
    r = toi(UNIT, AABB((-3, 0, 0), (-2, 1, 1)), (4, 0, 0))
    assert not r.trace["axes"][0]["swapped"]
    assert r.toi == approx(0.5) and r.normal == approx((-1, 0, 0))


def test_aabbs_zero_velocity_axis_not_overlapping():
    # y: d = 0 and m_min = 2 > s_max = 1: never overlap on y -> empty
    r = toi(UNIT, AABB((3, 2, 0), (4, 3, 1)), (-4, 0, 0))
    assert r.trace["axes"][1]["overlap"] is False
    assert r.toi is None


def test_aabbs_disjoint_and_overlapping_intervals():
    # x: [0.5, 1] as above. y with d = 16: t_enter = (0 + 3)/16 = 3/16, t_leave = (1 + 4)/16
    # = 5/16: [0.1875, 0.3125] and [0.5, 1] are disjoint (Fig. A.16): no collision.
    r = toi(UNIT, AABB((3, -4, 0), (4, -3, 1)), (-4, 16, 0))
    assert r.trace["axes"][1]["t_enter"] == approx(3 / 16)
    assert r.toi is None
    # y with d = 8: [3/8, 5/8] meets [0.5, 1] in [0.5, 5/8]: toi 0.5 set by the x axis
    r = toi(UNIT, AABB((3, -4, 0), (4, -3, 1)), (-4, 8, 0))
    assert r.toi == approx(0.5) and r.trace["t_leave"] == approx(5 / 8)
    assert r.normal == approx((1, 0, 0))


def test_aabbs_touching_start_end_and_overlap():
    # touching at t = 0 (B's min.x = A's max.x), moving away: t_leave = 0 -> toi 0
    assert toi(UNIT, AABB((1, 0, 0), (2, 1, 1)), (1, 0, 0)).toi == 0
    # x: [(0-4)/-2, (1-3)/-2] = [2, 1] swapped [1, 2]: touching exactly at t = 1
    assert toi(UNIT, AABB((3, 0, 0), (4, 1, 1)), (-2, 0, 0)).toi == 1
    r = toi(UNIT, AABB((0.5, 0.5, 0.5), (2, 2, 2)), (0, 0, 0))
    assert r.toi == 0 and r.normal is None and r.point == approx((0.75, 0.75, 0.75))
    assert toi(UNIT, AABB((3, 0, 0), (4, 1, 1)), (0, 0, 0)).toi is None  # zero motion


# ----------------------------------------------------------------------------- sphere-AABB


def test_sphere_aabb_face():
    # the centre moves (0,0,-4) relative to the box from z = 3; it enters the slab box
    # [0,1]x[0,1]x[-1,2] at z = 2: t = 1/4. The box has moved by (0,0,1); contact (0.5,0.5,2).
    r = toi(Sphere((0.5, 0.5, 3), 1), UNIT, (0, 0, 4))
    assert r.trace["feature"] == "face z"
    assert r.toi == approx(0.25)
    assert r.point == approx((0.5, 0.5, 2)) and r.normal == approx((0, 0, -1))


def test_sphere_aabb_edge():
    # relative centre path (2 - s, 0.5, 2 - s) with s = 2t; distance to the edge x = z = 1 is
    # sqrt(2)(1 - s) = 1 at s = 1 - 1/sqrt(2): t = (1 - 1/sqrt(2))/2. Normal -(1,0,1)/sqrt(2).
    r = toi(Sphere((2, 0.5, 2), 1), UNIT, (2, 0, 2))
    assert r.trace["feature"] == "edge y"
    assert r.toi == approx((1 - 1 / S2) / 2)
    n = (-1 / S2, 0, -1 / S2)
    assert r.normal == approx(n)
    assert r.point == approx((2 + n[0], 0.5, 2 + n[2]))


def test_sphere_aabb_corner():
    # relative centre (2 - s)(1,1,1), s = 2t; distance to corner (1,1,1) is sqrt(3)(1 - s) = 1
    # at s = 1 - 1/sqrt(3): t = (1 - 1/sqrt(3))/2
    r = toi(Sphere((2, 2, 2), 1), UNIT, (2, 2, 2))
    assert r.trace["feature"] == "corner"
    assert r.toi == approx((1 - 1 / S3) / 2)
    assert r.normal == approx((-1 / S3,) * 3)


def test_sphere_aabb_start_inside_miss_zero_radius_swapped():
    assert toi(Sphere((1.5, 0.5, 0.5), 1), UNIT, (5, 5, 5)).toi == 0  # distance 0.5 <= r
    # the centre's path y = 3 stays 2 from the box, more than r = 1
    assert toi(Sphere((3, 3, 0.5), 1), UNIT, (8, 0, 0)).toi is None
    # r = 0: the point reaches the face z = 1 after 2 of 4: t = 0.5, normal -z
    r = toi(Sphere((0.5, 0.5, 3), 0), UNIT, (0, 0, 4))
    assert r.toi == approx(0.5) and r.normal == approx((0, 0, -1))
    # swapped: the box still, the sphere moving (0,0,-4): same t, the normal from the box, +z,
    # the point in the box's frame (0.5, 0.5, 1)
    r = toi(UNIT, Sphere((0.5, 0.5, 3), 1), (0, 0, -4))
    assert r.toi == approx(0.25) and r.normal == approx((0, 0, 1))
    assert r.point == approx((0.5, 0.5, 1))


def test_sphere_aabb_point_sized_hits_at_the_exact_time():
    # A point-sized sphere against a point-sized box (a corner sphere of radius 0) and against
    # a box that is a segment on the x axis (an edge cylinder of radius 0). Relative to the
    # box the centre moves c - t d with c - P = k u and d = m u for an integer vector u and
    # integers k < m (every coordinate an integer below 2**53: exact), so it reaches P at
    # t = k / m exactly. The quadratic's discriminant b^2 - a c is 0 there in exact
    # arithmetic; computed so it was rounding noise of eps b^2, and its square root put the
    # hit 2.6e-8 (corner) and 2.3e-8 (edge) of t early. a r^2 - |v x w|^2 (Ray Tracing Gems
    # ch. 7) is exactly 0: the products in v x w are the same products, rounded alike.
    k, m, u, P = 281778815477, 515935587845, (-1, 6, 1), (3.0, 1.0, 1.0)
    c = tuple(p + ui * k for p, ui in zip(P, u))
    r = toi(Sphere(c, 0.0), AABB(P, P), tuple(float(ui * m) for ui in u))
    assert r.toi == pytest.approx(k / m, rel=1e-15, abs=0)
    k, m = 1052621669929, 1324491540583  # the point P = (0.5, 0, 0) on the edge, u = (0, 5, -6)
    r = toi(Sphere((0.5, 5.0 * k, -6.0 * k), 0.0), AABB((0, 0, 0), (1, 0, 0)),
            (0.0, 5.0 * m, -6.0 * m))
    assert r.trace["feature"] == "edge x"
    assert r.toi == pytest.approx(k / m, rel=1e-15, abs=0)
    assert r.point == pytest.approx((0.5, 5.0 * k, -6.0 * k), rel=1e-15)  # the still centre


def test_specific_methods_are_the_defaults_in_both_orders():
    cases = [(Sphere((0, 0, 0), 1), Sphere((0, 0, 0), 1), A13),
             (PLANE, Sphere((0, 0, 0), 1), A15), (PLANE, UNIT, "primer_a10_moving_aabb_plane"),
             (UNIT, UNIT, A17), (Sphere((0, 0, 0), 1), UNIT, "rounded_box_ray_cast"),
             (PLANE, Capsule((0, 0, 0), (1, 0, 0), 1), "primer_a10_support_point_plane")]
    for a, b, name in cases:
        assert registry.methods("toi", a.kind, b.kind)[0] == name
        assert registry.methods("toi", b.kind, a.kind)[0] == name


# ----------------------------------------------------------------------------- exact oracles

from fractions import Fraction  # noqa: E402

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from tests.fuzz import examples  # noqa: E402

half = st.integers(-12, 12).map(lambda k: Fraction(k, 2))


def exact_first_overlap(s_min, s_max, m_min, m_max, d):
    """Least t in [0, 1] with m_min + t d <= s_max and m_max + t d >= s_min on every axis, in
    rational arithmetic: each inequality is a half-line of t (an independent oracle for A.17)."""
    lo, hi = Fraction(0), Fraction(1)
    for i in range(3):
        # m_min + t d <= s_max  and  s_min <= m_max + t d
        for coef, rhs in ((d[i], s_max[i] - m_min[i]), (-d[i], m_max[i] - s_min[i])):
            if coef > 0:
                hi = min(hi, rhs / coef)
            elif coef < 0:
                lo = max(lo, rhs / coef)
            elif rhs < 0:
                return None
    return lo if lo <= hi else None


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(half, min_size=15, max_size=15))
def test_aabbs_against_rational_oracle(v):
    s_min = v[0:3]
    s_max = [a + abs(b) for a, b in zip(v[0:3], v[3:6])]
    m_min = v[6:9]
    m_max = [a + abs(b) for a, b in zip(v[6:9], v[9:12])]
    d = v[12:15]
    want = exact_first_overlap(s_min, s_max, m_min, m_max, d)
    got = toi(AABB(s_min, s_max), AABB(m_min, m_max), d).toi
    if want is None:
        assert got is None
    else:
        assert got is not None and abs(Fraction(got) - want) <= Fraction(1, 2 ** 50)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(half, min_size=10, max_size=10))
def test_aabb_plane_against_rational_oracle(v):
    # the least t in [0, 1] at which some corner of the moved box has n . x = d: the
    # box's n . x range [lo + t n.m, hi + t n.m] (all 8 corners, brute force) contains d
    n = v[0:3]
    if not any(n):
        return
    dval = v[3]
    lo_c, ext, m = v[4:7], [abs(e) for e in v[7:10]], (v[9], -v[8], v[7])
    hi_c = [a + e for a, e in zip(lo_c, ext)]
    corners = [(x, y, z) for x in (lo_c[0], hi_c[0]) for y in (lo_c[1], hi_c[1])
               for z in (lo_c[2], hi_c[2])]
    vals = [sum(a * b for a, b in zip(n, c)) for c in corners]
    lo, hi = min(vals), max(vals)
    nm = sum(a * b for a, b in zip(n, m))
    if lo <= dval <= hi:
        want = Fraction(0)
    elif nm == 0:
        want = None
    else:
        t = ((dval - lo) if lo > dval else (dval - hi)) / nm
        want = t if 0 <= t <= 1 else None
    got = toi(Plane(n, dval), AABB(lo_c, hi_c), m).toi
    if want is None:
        assert got is None
    else:
        assert got is not None and abs(Fraction(got) - want) <= Fraction(1, 2 ** 50)


@pytest.mark.filterwarnings("error")
def test_a_sphere_crawling_at_1e_320_toward_a_box_has_no_contact_and_no_warning():
    # the unit sphere at (5, .5, .5) moves by -1e-320 in x over t in [0, 1] relative to the
    # unit box: its gap is 5 - 1 - 1 = 3, reached at t = 3 / 1e-320 (beyond the float
    # range: the slab's t is inf), so no contact; the same motion at speed 4 closes the gap
    # at t = 3 / 4. (The slab division once warned of a numpy overflow here.)
    box, ball = AABB((0, 0, 0), (1, 1, 1)), Sphere((5.0, 0.5, 0.5), 1.0)
    assert query("toi", box, ball, (-1e-320, 0.0, 0.0)).toi is None
    assert query("toi", box, ball, (-4.0, 0.0, 0.0)).toi == 0.75
