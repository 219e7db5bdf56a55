"""Plane pairs: ``side`` against every kind and the analytic plane distances.

Oracles: exact Fraction arithmetic at the vertices (the eight corners of a box, the ends of a
segment), sampled boundaries (test_support.samples) for round shapes, the membership test
``contains`` for closest points; hand cases derived in the comments. Integer coordinates make
touching (side 0) frequent in the property tests.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import registry
from algorithms.primitives import (AABB, OBB, Capsule, Cylinder, Line, Plane, Point, Ray, Segment,
                                   Sphere, Triangle)
from algorithms.queries.plane_side import (side_plane_aabb, side_plane_aabb_boreskov,
                                           side_plane_sphere, side_plane_sphere_boreskov)
from algorithms.results import to_jsonable
from tests.algorithms.kernels.test_support import contains, primitives, samples

I = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
Z1 = Plane((0, 0, 2), 2)  # the plane z = 1 with a non-unit normal; front is z > 1


def side(a, b, method=None):
    return registry.query("side", a, b, method=method)


# ----------------------------------------------------------------------------- hand cases: side

# Each case: (object, expected side of it relative to z = 1), derived from its extent in z.
HAND = [
    (Point((0, 0, 3)), 1),  # z = 3 > 1
    (Point((5, 5, 1)), 0),  # on the plane
    (Point((0, 0, -2)), -1),
    (Segment((0, 0, 2), (4, 4, 5)), 1),  # z in [2, 5]
    (Segment((0, 0, 1), (0, 0, 3)), 0),  # p0 touches
    (Segment((0, 0, 0), (0, 0, 3)), 0),  # straddles
    (Segment((2, 2, -1), (2, 2, -1)), -1),  # zero length, z = -1
    (Triangle(((0, 0, 2), (1, 0, 2), (0, 1, 7))), 1),
    (Triangle(((0, 0, 1), (1, 0, 2), (0, 1, 7))), 0),  # a vertex touches
    (Triangle(((0, 0, 0), (1, 0, 0), (2, 0, 0))), -1),  # collinear, z = 0
    (Sphere((0, 0, 3), 2), 0),  # lowest point z = 3 - 2 = 1: touches
    (Sphere((0, 0, 3), 1.5), 1),  # lowest z = 1.5
    (Sphere((0, 0, -3), 3.5), 0),  # highest z = 0.5? no: -3 + 3.5 = 0.5 < 1 -> behind
    (Sphere((7, 0, 1), 0), 0),  # zero radius on the plane
    (AABB((0, 0, 1), (1, 1, 2)), 0),  # bottom face in the plane
    (AABB((0, 0, 1.5), (1, 1, 2)), 1),
    (AABB((0, 0, -2), (1, 1, 0.5)), -1),
    (AABB((0, 0, 0), (1, 1, 0)), -1),  # flat box at z = 0
    (OBB((0, 0, 5), I, (1, 1, 4)), 0),  # z in [1, 9]
    (OBB((0, 0, 5), I, (1, 1, 3.5)), 1),  # z in [1.5, 8.5]
    # rotated 45 degrees about x: the half-height along z is (e1 + e2)/sqrt 2 = 2/sqrt2 = 1.414
    (OBB((0, 0, 2.5), ((1, 0, 0), (0, 0.7071067811865476, 0.7071067811865476),
                       (0, -0.7071067811865476, 0.7071067811865476)), (1, 1, 1)), 1),
    (Capsule((0, 0, -1), (0, 0, -3), 1), -1),  # top z = -1 + 1 = 0
    (Capsule((0, 0, -1), (5, 0, -1), 2), 0),  # top z = -1 + 2 = 1: touches
    (Capsule((0, 0, 3), (3, 0, 4), 1.9), 1),  # lowest z = 3 - 1.9 = 1.1
    (Cylinder((0, 0, 3), (0, 0, 1), 1, 4), 0),  # axis z, z in [1, 5]
    (Cylinder((0, 0, 3), (0, 0, 1), 1, 3.9), 1),  # z in [1.05, 4.95]
    (Cylinder((0, 0, 3), (1, 0, 0), 2, 10), 0),  # axis x, radius 2: z in [1, 5]
    (Cylinder((0, 0, 3), (1, 0, 0), 1.5, 10), 1),
    (Cylinder((0, 0, -3), (0, 1, 0), 0, 0), -1),  # a point at z = -3
    (Ray((0, 0, 2), (1, 0, 1)), 1),  # starts at z = 2, climbs
    (Ray((0, 0, 2), (1, 0, -1)), 0),  # reaches z = 1 at t = 1
    (Ray((0, 0, 0), (1, 0, 0)), -1),  # parallel at z = 0
    (Ray((0, 0, 1), (1, 0, 0)), 0),  # in the plane
    (Line((0, 0, 2), (1, 0, 0)), 1),  # parallel at z = 2
    (Line((0, 0, 2), (1, 0, 1)), 0),  # crosses
    (Plane((0, 0, -1), 0), -1),  # z = 0, normal flipped: still the plane z = 0, behind z = 1
    (Plane((0, 0, 1), 1), 0),  # coincident
    (Plane((0, 0, 3), 6), 1),  # z = 2
    (Plane((1, 0, 1), 1), 0),  # crossing
]
HAND[12] = (Sphere((0, 0, -3), 3.5), -1)  # highest z = -3 + 3.5 = 0.5 < 1: behind


@pytest.mark.parametrize("obj, want", HAND, ids=[f"{i}-{o.kind}" for i, (o, _) in enumerate(HAND)])
def test_side_hand_cases(obj, want):
    for m in registry.methods("side", "plane", obj.kind):
        r = side(Z1, obj, method=m)
        assert r.side == want, m
        to_jsonable(r.trace)
        if obj.kind != "plane":
            assert side(obj, Z1, method=m).side == want  # swapped through the registry
    # flipping the plane (-n, -d) is the same plane with front and back exchanged
    if obj.kind != "plane":
        assert side(Plane((0, 0, -2), -2), obj).side == -want


def test_side_trace_values():
    # sphere centre z = 3, plane z = 1: signed distance 2, effective radius r = 1.5
    r = side(Z1, Sphere((0, 0, 3), 1.5))
    assert (r.signed_distance, r.effective_radius) == (2.0, 1.5)
    # cylinder axis (1,0,1)/sqrt2, r 1, h 2: r_eff = 1 * (1/sqrt2) + 1 * (1/sqrt2) = sqrt2
    r = side(Z1, Cylinder((0, 0, 4), (1, 0, 1), 1, 2))
    assert r.signed_distance == 3.0 and r.effective_radius == pytest.approx(math.sqrt(2))
    # obb: extents (1, 2, 3) along identity, plane normal (0, 3, 4)/5: r_eff = (2*3 + 3*4)/5
    r = side(Plane((0, 3, 4), 0), OBB((0, 0, 10), I, (1, 2, 3)))
    assert r.effective_radius == pytest.approx(18 / 5) and r.signed_distance == 8.0
    assert r.side == 1


def test_boreskov_corner_trace():
    # n = (1, -1, 2): bit 1 set (n_y < 0) -> corner index 2 = (min x, max y, min z)
    box = AABB((0, 0, 0), (1, 2, 3))
    r = side_plane_aabb_boreskov(Plane((1, -1, 2), -3), box)
    assert r.trace["corner_index"] == 2 and r.trace["corner"] == [0, 2, 0]
    # f at that corner: 0 - 2 + 0 - (-3) = 1 > 0: wholly in front
    assert r.trace["f_corner"] == 1.0 and r.side == 1 and r.trace["classify"] == "IN_FRONT"
    r = side_plane_aabb_boreskov(Plane((1, -1, 2), 7), box)
    # corner f = -2 - 7 = -9; opposite (1, 0, 3): 1 + 6 - 7 = 0 -> touches: IN_BOTH
    assert r.trace["f_opposite"] == 0.0 and r.side == 0 and r.trace["classify"] == "IN_BOTH"
    # A.10's minD/maxD for the same case: minD = 0 - 2 + 0 = -2, maxD = 1 - 0 + 6 = 7
    r = side_plane_aabb(Plane((1, -1, 2), 7), box)
    assert (r.trace["minD"], r.trace["maxD"]) == (-2.0, 7.0) and r.side == 0


# ----------------------------------------------------------------------------- property tests

small = st.integers(-3, 3)
ivec = st.tuples(small, small, small)
inormal = ivec.filter(any)


@settings(max_examples=examples(300), deadline=None)
@given(inormal, st.integers(-6, 6), ivec, st.tuples(*[st.integers(0, 3)] * 3))
def test_aabb_methods_agree_with_eight_corners_exactly(n, d, lo, size):
    """Exact Fractions: A.10, Boreskov's corner and the brute-force eight corners agree."""
    plane = Plane(n, d, exact=True)
    box = AABB(lo, tuple(a + s for a, s in zip(lo, size)), exact=True)
    fs = [sum(Fraction(ni) * c for ni, c in zip(n, corner)) - d
          for corner in itertools.product(*zip(box.min, box.max))]
    want = 1 if min(fs) > 0 else (-1 if max(fs) < 0 else 0)
    assert side_plane_aabb(plane, box).side == want
    assert side_plane_aabb_boreskov(plane, box).side == want


@settings(max_examples=examples(300), deadline=None)
@given(inormal, st.integers(-6, 6), ivec, st.integers(0, 4))
def test_sphere_methods_agree_exactly(n, d, c, r):
    """Integer data: the ball's least f is f(c) - r|n|; compared in exact squares."""
    plane = Plane(n, d, exact=True)
    sph = Sphere(c, r, exact=True)
    f = sum(a * b for a, b in zip(n, c)) - d
    nn = sum(a * a for a in n)
    # f - r sqrt(nn) > 0  <=>  f > 0 and f^2 > r^2 nn (integers: exact)
    want = (1 if f > 0 and f * f > r * r * nn else
            -1 if f < 0 and f * f > r * r * nn else 0)
    assert side_plane_sphere(plane, sph).side == want
    assert side_plane_sphere_boreskov(plane, sph).side == want


@settings(max_examples=examples(300), deadline=None)
@given(inormal, st.integers(-6, 6), st.sampled_from(["point", "segment", "triangle",
                                                      "aabb", "capsule"]), st.data())
def test_side_matches_exact_vertex_signs(n, d, kind, data):
    """Polytopes (and capsules, by their end balls) against exact vertex values."""
    pts = [data.draw(ivec) for _ in range(3)]
    r = data.draw(st.integers(0, 2))
    if kind == "point":
        obj, verts = Point(pts[0], exact=True), pts[:1]
    elif kind == "segment":
        obj, verts = Segment(pts[0], pts[1], exact=True), pts[:2]
    elif kind == "triangle":
        obj, verts = Triangle(pts, exact=True), pts
    elif kind == "aabb":
        lo, hi = np.minimum(pts[0], pts[1]), np.maximum(pts[0], pts[1])
        obj = AABB(tuple(int(x) for x in lo), tuple(int(x) for x in hi), exact=True)
        verts = list(itertools.product(*zip(obj.min, obj.max)))
    else:
        obj, verts = Capsule(pts[0], pts[1], r, exact=True), pts[:2]
    fs = [sum(Fraction(a) * b for a, b in zip(n, v)) - d for v in verts]
    nn = sum(a * a for a in n)
    if kind == "capsule":
        # the capsule's least f is min f(p_i) - r|n| (f is linear along the segment)
        lo_ok = min(fs) > 0 and min(fs) ** 2 > r * r * nn
        hi_ok = max(fs) < 0 and max(fs) ** 2 > r * r * nn
        want = 1 if lo_ok else (-1 if hi_ok else 0)
    else:
        want = 1 if min(fs) > 0 else (-1 if max(fs) < 0 else 0)
    plane = Plane(n, d, exact=True)
    assert side(plane, obj).side == want
    assert side(obj, plane).side == want


@settings(max_examples=examples(200), deadline=None)
@given(st.tuples(*[st.floats(-1, 1)] * 3).filter(lambda v: sum(c * c for c in v) > 1e-2),
       st.floats(-4, 4), st.sampled_from(["obb", "cylinder", "sphere", "capsule", "triangle"]),
       st.data())
def test_side_matches_sampled_extent(n, d, kind, data):
    """Round/oriented shapes: the sampled boundary's f-range decides when it is clear of 0.

    64 samples per circle find the true extreme within r (1 - cos(pi/64)) < 1.3e-3 r."""
    obj = data.draw(primitives(kind))
    pts = samples(obj)
    f = pts @ np.asarray(n) - d
    margin = 1e-2 * (1 + float(np.abs(pts).max()))
    plane = Plane(n, d)
    got = side(plane, obj).side
    if f.min() > margin:
        assert got == 1
    elif f.max() < -margin:
        assert got == -1
    elif f.min() < -margin and f.max() > margin:
        assert got == 0


# ----------------------------------------------------------------------------- plane distances


def test_plane_distance_hand_cases():
    # sphere centre z = 5, radius 1, plane z = 1 (normal (0,0,2)): 5 - 1 - 1 = 3
    r = registry.query("distance", Z1, Sphere((0, 0, 5), 1))
    assert r.distance == 3.0 and r.closest == ((0, 0, 1), (0, 0, 4))
    # swapped: closest[0] on the sphere
    r = registry.query("distance", Sphere((0, 0, 5), 1), Z1)
    assert r.closest == ((0, 0, 4), (0, 0, 1))
    # box [0,1]^2 x [-3,-2]: top face z = -2, 3 below the plane
    assert registry.query("distance", Z1, AABB((0, 0, -3), (1, 1, -2))).distance == 3.0
    # cylinder axis (1,0,1)/sqrt2, r 1, h 2, centre z = 3: lowest z = 3 - 2/sqrt2
    r = registry.query("distance", Z1, Cylinder((0, 0, 3), (1, 0, 1), 1, 2))
    assert r.distance == pytest.approx(2 - math.sqrt(2), rel=1e-15)
    # straddling box: distance 0, a common point in the plane and in the box
    r = registry.query("distance", Z1, AABB((0, 0, 0), (1, 1, 2)))
    assert r.distance == 0.0 and r.closest[0] == r.closest[1] and r.closest[0][2] == 1.0
    # touching capsule (top z = -1 + 2 = 1)
    r = registry.query("distance", Z1, Capsule((0, 0, -1), (5, 0, -1), 2))
    assert r.distance == 0.0 and r.closest[0][2] == 1.0
    # triangle 2 above (z in [3, 7])
    r = registry.query("distance", Z1, Triangle(((0, 0, 3), (1, 0, 4), (0, 1, 7))))
    assert r.distance == 2.0 and r.closest[1] == (0, 0, 3)
    # zero-height, zero-radius cylinder: a point at z = 4
    assert registry.query("distance", Z1, Cylinder((0, 0, 4), (0, 1, 0), 0, 0)).distance == 3.0


def test_plane_plane_distance():
    # z = 1 and -z = 3 (z = -3): parallel, opposite normals, 4 apart
    r = registry.query("distance", Z1, Plane((0, 0, -1), 3))
    assert r.distance == 4.0 and r.closest == ((0, 0, 1), (0, 0, -3))
    # coincident: z = 1 written as 3z = 3
    r = registry.query("distance", Z1, Plane((0, 0, 3), 3))
    assert r.distance == 0.0 and r.closest[0] == r.closest[1]
    # crossing x + z = 2 and z = 1: a common point on both (x = 1, z = 1), nearest the origin
    r = registry.query("distance", Z1, Plane((1, 0, 1), 2))
    assert r.distance == 0.0 and r.closest[0] == pytest.approx((1, 0, 1))
    # nearly parallel but not exactly: they cross far away; distance still 0
    r = registry.query("distance", Plane((0, 0, 1), 0), Plane((1e-3, 0, 1), 1))
    p = np.asarray(r.closest[0])
    assert r.distance == 0.0 and abs(p[2]) < 1e-9 and abs(1e-3 * p[0] + p[2] - 1) < 1e-9


@settings(max_examples=examples(200), deadline=None)
@given(st.tuples(*[st.floats(-1, 1)] * 3).filter(lambda v: sum(c * c for c in v) > 1e-2),
       st.floats(-4, 4), primitives())
def test_plane_distance_against_samples(n, d, obj):
    """Closest points: on the plane / in the solid, ``distance`` apart; the distance equals
    the least |f|/|n| over the boundary samples (exact for polytopes, within the sampling
    error for round shapes) when the samples are all on one side, and is 0 otherwise."""
    assume(obj.kind != "point" and obj.kind != "segment")  # linear_plane.py owns those
    plane = Plane(n, d)
    r = registry.query("distance", plane, obj)
    nlen = float(np.linalg.norm(n))
    pa, pb = np.asarray(r.closest[0]), np.asarray(r.closest[1])
    scale = 1 + float(np.abs(pb).max())
    assert abs(float(pa @ np.asarray(n)) - d) / nlen <= 1e-9 * scale
    assert contains(obj, pb)
    assert float(np.linalg.norm(pb - pa)) == pytest.approx(r.distance, abs=1e-9 * scale)
    f = (samples(obj) @ np.asarray(n) - d) / nlen
    tol = 1e-9 * scale
    if obj.kind in ("triangle", "aabb", "obb"):
        want = max(f.min(), -f.max(), 0.0)
        assert r.distance == pytest.approx(want, abs=tol)
    else:
        # samples are points of the shape: the true extreme is at least as far out
        rough = max(f.min(), -f.max(), 0.0)
        assert r.distance <= rough + tol
        assert r.distance >= rough - 2e-3 * (1 + getattr(obj, "radius", 0)) - tol
    # consistency with side: nonzero side <=> positive distance
    s = side(plane, obj)
    assert (s.side != 0) == (r.distance > 0) or abs(r.distance) < 1e-12 * scale


@settings(max_examples=examples(300), deadline=None)
@given(primitives(), st.tuples(*[st.floats(-1, 1)] * 3).filter(lambda v: sum(c * c for c in v) > 1e-2),
       st.floats(0.2, 3), st.sampled_from([0.0, 0.0, 1e-9, 1e-4, 0.5]), st.booleans())
def test_plane_through_support_point(obj, n, k, delta, behind):
    """Exact oracle: the plane ``n . x = n . s(-n) - delta |n|`` (``s(-n)`` the support point
    of the object in ``-n``) has the object wholly in front at distance ``delta``, touching
    when ``delta = 0``; negating ``n`` and ``d`` puts it behind. The normal is scaled by
    ``k`` (not unit)."""
    from algorithms.kernels.support import support

    n = np.asarray(n) / np.linalg.norm(n) * k
    s = support(obj, -n)
    d = float(n @ s) - delta * k
    if delta == 0:  # touching only while d's rounding is a few ulps of the object's size:
        # among subnormals (hypothesis found s = (0, 2.2250738585e-313, 0), k = 1.25) the
        # rounded n . s leaves the object 1e-324 in front, 1e-11 of its size: not touching,
        # and side 1 is then right (exact Fractions)
        resid = abs(sum(Fraction(float(x)) * Fraction(float(y)) for x, y in zip(n, s))
                    - Fraction(d))
        assume(resid <= Fraction(8 * 2.0 ** -52) * Fraction(k) * Fraction(float(np.abs(s).max())))
    plane = Plane(tuple(-n), -d) if behind else Plane(tuple(n), d)
    want = 0 if delta == 0 else (-1 if behind else 1)
    for m in registry.methods("side", "plane", obj.kind):
        assert side(plane, obj, method=m).side == want, m
        assert side(obj, plane, method=m).side == want, m
    if obj.kind not in ("point", "segment"):  # those distances are linear_plane.py's
        r = registry.query("distance", plane, obj)
        scale = 1 + float(np.abs(s).max())
        if delta == 0:
            assert r.distance == 0.0
        else:
            assert r.distance == pytest.approx(delta, abs=1e-12 * scale)
        assert contains(obj, r.closest[1])
