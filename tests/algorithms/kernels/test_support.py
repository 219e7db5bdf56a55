"""Support functions (algorithms/kernels/support.py) against brute force over sampled points.

The oracle: dense samples of each shape's boundary (vertices included for polytopes, rim
circles for cylinders, great circles plus random points for spheres) and an independent
membership test. For every direction the support point must lie in the shape, attain the
closed-form support value, and no sample may beat it.

The strategies and the membership test are reused by test_gjk.py.
"""

from __future__ import annotations

import dataclasses
import itertools
import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms.kernels.support import (BOUNDED_KINDS, support, support_fn, support_interval,
                                        support_value)
from algorithms.primitives import AABB, OBB, Capsule, Cylinder, Point, Segment, Sphere, Triangle

# ----------------------------------------------------------------------------- strategies

coord = st.one_of(st.integers(-4, 4).map(float), st.floats(-4, 4, allow_nan=False))
size = st.one_of(st.just(0.0), st.integers(0, 3).map(float), st.floats(0, 3))
vec3 = st.tuples(coord, coord, coord)
nonzero_vec = vec3.filter(lambda v: sum(c * c for c in v) > 1e-6)


@st.composite
def rotations(draw):
    """Orthonormal rows from a random unit quaternion (or the identity)."""
    if draw(st.booleans()):
        return ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    q = np.array(draw(st.tuples(*[st.floats(-1, 1)] * 4)))
    if np.linalg.norm(q) < 1e-3:
        q = np.array([1.0, 0.0, 0.0, 0.0])
    w, x, y, z = q / np.linalg.norm(q)
    R = np.array([[1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
                  [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
                  [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)]])
    return tuple(tuple(float(c) for c in row) for row in R)


@st.composite
def primitives(draw, kind=None):
    kind = kind or draw(st.sampled_from(BOUNDED_KINDS))
    if kind == "point":
        return Point(draw(vec3))
    if kind == "segment":
        p0 = draw(vec3)
        return Segment(p0, draw(st.one_of(st.just(p0), vec3)))
    if kind == "triangle":
        a, b = draw(vec3), draw(vec3)
        c = draw(st.one_of(vec3, st.just(tuple((x + y) / 2 for x, y in zip(a, b)))))
        return Triangle((a, b, c))
    if kind == "sphere":
        return Sphere(draw(vec3), draw(size))
    if kind == "aabb":
        lo = draw(vec3)
        return AABB(lo, tuple(a + draw(size) for a in lo))
    if kind == "obb":
        return OBB(draw(vec3), draw(rotations()), (draw(size), draw(size), draw(size)))
    if kind == "capsule":
        p0 = draw(vec3)
        return Capsule(p0, draw(st.one_of(st.just(p0), vec3)), draw(size))
    if kind == "cylinder":
        return Cylinder(draw(vec3), draw(nonzero_vec), draw(size), draw(size))
    raise AssertionError(kind)


# ----------------------------------------------------------------------------- independent oracle


def _seg_dist(x, p0, p1):
    d = p1 - p0
    dd = d @ d
    t = 0.0 if dd == 0 else min(max((x - p0) @ d / dd, 0.0), 1.0)
    return float(np.linalg.norm(x - (p0 + t * d)))


def _frame(w):
    """Two unit vectors completing unit ``w`` to an orthonormal frame."""
    a = np.array([1.0, 0, 0]) if abs(w[0]) < 0.9 else np.array([0, 1.0, 0])
    u = np.cross(w, a)
    u /= np.linalg.norm(u)
    return u, np.cross(w, u)


def contains(prim, x, eps=1e-9) -> bool:
    """Is ``x`` in ``prim`` (within ``eps`` times the scale)? Written independently of
    algorithms.kernels.support: local coordinates and clamping per kind."""
    x = np.asarray(x, float)
    scale = 1.0 + float(np.max(np.abs(x)))
    tol = eps * scale
    k = prim.kind
    if k == "point":
        return float(np.linalg.norm(x - np.asarray(prim.position))) <= tol
    if k == "segment":
        return _seg_dist(x, np.asarray(prim.p0), np.asarray(prim.p1)) <= tol
    if k == "capsule":
        return _seg_dist(x, np.asarray(prim.p0), np.asarray(prim.p1)) <= prim.radius + tol
    if k == "sphere":
        return float(np.linalg.norm(x - np.asarray(prim.center))) <= prim.radius + tol
    if k == "aabb":
        return bool(np.all(x >= np.asarray(prim.min) - tol) and np.all(x <= np.asarray(prim.max) + tol))
    if k == "obb":
        local = np.asarray(prim.axes) @ (x - np.asarray(prim.center))
        return bool(np.all(np.abs(local) <= np.asarray(prim.extents) + tol))
    if k == "cylinder":
        w = prim.unit_axis
        r = x - np.asarray(prim.center)
        z = r @ w
        radial = np.linalg.norm(r - z * w)
        return abs(z) <= prim.height / 2 + tol and radial <= prim.radius + tol
    if k == "triangle":
        a, b, c = (np.asarray(v) for v in prim.vertices)
        # least-squares barycentrics on the edges; fall back to the three edges when flat
        E = np.stack([b - a, c - a], axis=1)
        G = E.T @ E
        if abs(np.linalg.det(G)) > 1e-12 * (1 + np.trace(G)) ** 2:
            s, t = np.linalg.solve(G, E.T @ (x - a))
            q = a + s * (b - a) + t * (c - a)
            if s >= -1e-9 and t >= -1e-9 and s + t <= 1 + 1e-9:
                return float(np.linalg.norm(x - q)) <= tol
        return min(_seg_dist(x, a, b), _seg_dist(x, b, c), _seg_dist(x, a, c)) <= tol
    raise AssertionError(k)


def samples(prim, n=64) -> np.ndarray:
    """Points of ``prim`` covering its boundary: vertices, edges, rims, sphere grids."""
    k = prim.kind
    if k == "point":
        return np.array([prim.position], float)
    if k == "segment":
        return np.array([prim.p0, prim.p1], float)
    if k == "triangle":
        return np.array(prim.vertices, float)
    if k == "aabb":
        lo, hi = np.asarray(prim.min), np.asarray(prim.max)
        return np.array([[(lo, hi)[b][i] for i, b in enumerate(bits)]
                         for bits in itertools.product((0, 1), repeat=3)])
    if k == "obb":
        c, A, e = np.asarray(prim.center), np.asarray(prim.axes), np.asarray(prim.extents)
        return np.array([c + (np.array(s) * e) @ A for s in itertools.product((-1, 1), repeat=3)])
    th = np.linspace(0, 2 * np.pi, n, endpoint=False)
    ph = np.linspace(0, np.pi, n // 2 + 1)
    unit = np.array([[np.sin(p) * np.cos(t), np.sin(p) * np.sin(t), np.cos(p)]
                     for p in ph for t in th])
    if k == "sphere":
        return np.asarray(prim.center) + prim.radius * unit
    if k == "capsule":
        return np.concatenate([np.asarray(prim.p0) + prim.radius * unit,
                               np.asarray(prim.p1) + prim.radius * unit])
    if k == "cylinder":
        w = prim.unit_axis
        u, v = _frame(w)
        rim = prim.radius * (np.cos(th)[:, None] * u + np.sin(th)[:, None] * v)
        lo, hi = prim.end_points
        return np.concatenate([lo + rim, hi + rim])
    raise AssertionError(k)


# ----------------------------------------------------------------------------- tests

directions = st.one_of(nonzero_vec, st.sampled_from([(1.0, 0, 0), (0, 0, -1.0), (1.0, 1.0, 0),
                                                     (0, 1e-9, 1.0)]))


@settings(max_examples=examples(300), deadline=None)
@given(primitives(), directions)
def test_support_point_is_in_shape_and_beats_every_sample(prim, d):
    d = np.asarray(d, float)
    s = support(prim, d)
    h = support_value(prim, d)
    assert contains(prim, s), (prim, d, s)
    # the support point attains the closed-form support value
    assert abs(float(s @ d) - h) <= 1e-9 * (1 + abs(h)) * (1 + np.linalg.norm(d))
    pts = samples(prim)
    best = float(np.max(pts @ d))
    nd = float(np.linalg.norm(d))
    assert best <= h + 1e-9 * (1 + abs(h)) * (1 + nd)
    if prim.kind in ("point", "segment", "triangle", "aabb", "obb"):
        # polytopes: a vertex attains the maximum, so the samples reach it exactly
        assert abs(best - h) <= 1e-9 * (1 + abs(h)) * (1 + nd)
    else:
        # 64 directions per circle: a sampled point is within r (1 - cos(pi/64)) of the top
        r = prim.radius
        assert h - best <= r * (1 - math.cos(math.pi / 64)) * 2 * nd + 1e-9 * (1 + abs(h))


@settings(max_examples=examples(200), deadline=None)
@given(primitives(), directions)
def test_interval_is_negated_support_of_minus_d(prim, d):
    d = np.asarray(d, float)
    d = d / np.linalg.norm(d)
    lo, hi = support_interval(prim, d)
    assert lo <= hi + 1e-12
    assert hi == pytest.approx(float(support(prim, d) @ d), abs=1e-9)
    assert lo == pytest.approx(float(support(prim, -d) @ d), abs=1e-9)


def test_hand_cases():
    # sphere: centre (1,0,0) + 2 * unit(0,0,5) = (1,0,2)
    assert support(Sphere((1, 0, 0), 2), (0, 0, 5)).tolist() == [1, 0, 2]
    # aabb [0,1]^3, d = (1,-1,0): x -> max 1, y -> min 0, z: d_z = 0 -> centre 0.5
    assert support(AABB((0, 0, 0), (1, 1, 1)), (1, -1, 0)).tolist() == [1, 0, 0.5]
    # obb with identity axes, extents (1,2,3), d = (1,-1,0): (1,-2,0)
    I = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    assert support(OBB((0, 0, 0), I, (1, 2, 3)), (1, -1, 0)).tolist() == [1, -2, 0]
    # cylinder along z, r 1, h 4: d = (1,0,1) picks the top disk (z = 2) and rim x = 1;
    # projection on x is [-1, 1]; on (0.6,0,0.8): 0.8*2 + 1*0.6 = 2.2 (GTCG 11.12.9 r_C)
    cyl = Cylinder((0, 0, 0), (0, 0, 2), 1, 4)
    assert support(cyl, (1, 0, 1)).tolist() == [1, 0, 2]
    assert support_interval(cyl, (1, 0, 0)) == (-1.0, 1.0)
    assert support_value(cyl, (0.6, 0, 0.8)) == pytest.approx(2.2, abs=1e-15)
    # cylinder, d along the axis: the end disk's centre
    assert support(cyl, (0, 0, -3)).tolist() == [0, 0, -2]
    # capsule (0,0,0)-(2,0,0) radius 1, d = (1,0,0): p1 + (1,0,0) = (3,0,0)
    assert support(Capsule((0, 0, 0), (2, 0, 0), 1), (1, 0, 0)).tolist() == [3, 0, 0]
    # degenerate: zero radius sphere, zero height cylinder (a disk), zero direction
    assert support(Sphere((1, 2, 3), 0), (1, 1, 1)).tolist() == [1, 2, 3]
    assert support(Cylinder((0, 0, 0), (0, 0, 1), 2, 0), (0, 1, 1)).tolist() == [0, 2, 0]
    assert support(Sphere((1, 2, 3), 5), (0, 0, 0)).tolist() == [1, 2, 3]
    # regression: d numerically along the axis (2,4,1) (from a GJK run); the rim point used
    # to pick up a component along the axis and leave the cylinder
    c = Cylinder((1, 0, 0), (2, 4, 1), 1, 0.25)
    d = (-0.1359217179171921, -0.271843435834385, -0.06796085895859626)
    assert contains(c, support(c, d))
    assert float(support(c, d) @ d) == pytest.approx(support_value(c, d), abs=1e-12)
    # triangle: the vertex with the largest d . v
    tri = Triangle(((0, 0, 0), (1, 0, 0), (0, 3, 0)))
    assert support(tri, (1, 1, 0)).tolist() == [0, 3, 0]


def test_unbounded_kinds_refused():
    from algorithms.primitives import Plane, Ray

    with pytest.raises(ValueError):
        support(Ray((0, 0, 0), (1, 0, 0)), (1, 0, 0))
    with pytest.raises(ValueError):
        support_interval(Plane((0, 0, 1), 0), (1, 0, 0))


def test_the_arrays_kept_on_a_primitive_change_no_answer_and_cannot_be_written():
    # support() keeps each primitive's arrays on it after the first call: a second call
    # answers exactly as the first, a caller writing into an answer changes nothing, the
    # kept arrays are read-only, and the primitive still equals a fresh copy of itself
    shapes = [Point((1, 2, 3)), Segment((0, 0, 0), (2, 0, 0)), Sphere((1, 0, 0), 2),
              Triangle(((0, 0, 0), (1, 0, 0), (0, 3, 0))), AABB((0, 0, 0), (1, 1, 1)),
              OBB((0, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (1, 2, 3)),
              Capsule((0, 0, 0), (2, 0, 0), 1), Cylinder((0, 0, 0), (0, 0, 2), 1, 4)]
    for s in shapes:
        fresh = type(s)(**{f.name: getattr(s, f.name) for f in dataclasses.fields(s)})
        first = support(s, (1, -1, 1))
        first_values = first.tolist()
        first += 100.0  # the caller owns the answer
        assert support(s, (1, -1, 1)).tolist() == first_values
        # the same bits as the primitive built again (nothing kept on it yet)
        assert support(fresh, (1, -1, 1)).tolist() == first_values
        for kept in s.__dict__["_support_arrays"]:
            if isinstance(kept, np.ndarray):
                assert not kept.flags.writeable
        assert s == fresh and hash(s) == hash(fresh)
    # aabb [0,1]^3, d = (1,-1,0) through the kept arrays: (1, 0, 0.5) as by hand above
    box = AABB((0, 0, 0), (1, 1, 1))
    support(box, (1, 1, 1))
    assert support(box, (1, -1, 0)).tolist() == [1, 0, 0.5]


def _same_bits(a, b) -> bool:
    """Equal floats with the same sign of zero (or both NaN), element for element."""
    return len(a) == len(b) and all(
        type(y) is float and ((x == y and math.copysign(1.0, x) == math.copysign(1.0, y))
                              or (x != x and y != y)) for x, y in zip(a, b))


#: directions where the filtered comparisons of support_fn are too close to call (numpy's own
#: computation answers): zeros, signed zeros, axis and diagonal directions, a tiny and a huge
#: component, a NaN
_EDGE_DIRECTIONS = [(0.0, 0.0, 0.0), (-0.0, 0.0, -0.0), (1.0, 0.0, 0.0), (0.0, -1.0, 0.0),
                    (0.0, 0.0, 1.0), (1.0, 1.0, 0.0), (1.0, -1.0, 1.0), (1e-300, 0.0, 0.0),
                    (1e300, 1.0, -1e300), (1.0, 1e-17, 0.0), (float("nan"), 1.0, 0.0)]


@settings(max_examples=examples(300), deadline=None)
@given(primitives(), st.one_of(directions, st.sampled_from(_EDGE_DIRECTIONS)))
# (the long fuzz, seed 5: d perpendicular to the axis, d . w = 0 summed from the left but not
# by numpy's dot here: an end disk against the centre, a tie both ways; now one sum for both)
@example(Cylinder((0.0, 0.0, 0.0), (1.0, 3.0, -3.0), 0.0, 1.0), (0.0, 3.0, 3.0))
@example(Cylinder((0.0, 0.0, 0.0), (1.0, 3.0, -3.0), 0.5, 1.0), (0.0, 3.0, 3.0))
def test_support_fn_is_support(prim, d):
    # support_fn (GJK's tuple support) gives support()'s point: a vertex (point, segment,
    # triangle, box corner) exactly, since its filtered argmax and signs fall back to numpy
    # where a decision is within the filter's margin, which covers any rounding of numpy's
    # products; an obb's or a cylinder's computed point within a few ulps of the shape's size.
    # (Bit for bit where numpy sums 3-vector products from the left unfused, as on the AVX2
    # machine that measured it; numpy's kernels on another CPU may round the last bit
    # differently, and so may support() then.)
    from algorithms.core.tolerance import EPS, pair_scale
    from algorithms.kernels.support import support_fn

    d = tuple(float(c) for c in d)
    with np.errstate(all="ignore"):
        want = tuple(support(prim, d).tolist())
    got = support_fn(prim)(d)
    if prim.kind in ("obb", "cylinder") and all(math.isfinite(c) for c in d):
        scale = pair_scale(prim)
        assert all(abs(x - y) <= 16 * EPS * scale for x, y in zip(want, got)), (prim, d)
    else:
        assert _same_bits(want, got), (prim, d)


def test_support_fn_on_ties_and_flat_shapes():
    # ties (a face or an edge perpendicular to d) are decided by numpy's argmax/sign, which
    # keep the first vertex and the centre's coordinate: the same points here
    from algorithms.kernels.support import support_fn

    cases = [(Segment((0.0, 0.0, 0.0), (0.0, 0.0, 0.0)), (1.0, 2.0, 3.0)),
             (Segment((0.0, 0.0, 0.0), (0.0, 1.0, 0.0)), (1.0, 0.0, 0.0)),
             (Triangle(((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))), (0.0, 0.0, 1.0)),
             (OBB((1.0, 2.0, 3.0), ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
                  (1.0, 0.5, 0.0)), (0.0, 1.0, 1.0)),
             (AABB((0.0, 0.0, 0.0), (1.0, 2.0, 3.0)), (-0.0, 1.0, 0.0)),
             (Cylinder((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0), (0.0, 0.0, 1.0))]
    expected = [(0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (0.0, 0.0, 0.0), (1.0, 2.5, 3.0),
                (0.5, 2.0, 1.5), (0.0, 0.0, 1.0)]  # by hand: the first vertex, the centre's
    for (prim, d), hand in zip(cases, expected):  # coordinate on a zero d_i, the disk centre
        got = support_fn(prim)(d)
        assert _same_bits(tuple(support(prim, d).tolist()), got), (prim, d)
        assert got == hand, (prim, d, got)


def test_centre_tuple_is_centre():
    from algorithms.kernels.support import centre, centre_tuple

    tri = Triangle(((0.1, 0.2, 0.3), (1.7, -2.9, 4.1), (-0.3, 0.7, 1e-17)))
    for prim in (Point((1.0, -0.0, 2.0)), Segment((0.1, 0.2, 0.3), (0.4, 0.5, 0.6)), tri,
                 Sphere((1.0, 2.0, 3.0), 0.5), AABB((-1.0, 0.1, 0.2), (0.3, 0.7, 1.1)),
                 Capsule((0.1, 0.2, 0.3), (0.7, 0.5, 0.6), 0.2),
                 Cylinder((1.0, 2.0, 3.0), (0.0, 1.0, 1.0), 0.5, 1.0)):
        assert _same_bits(tuple(centre(prim).tolist()), centre_tuple(prim)), prim
    # numpy's mean of the triangle: ((v0 + v1) + v2) / 3 per coordinate
    assert centre_tuple(tri) == ((0.1 + 1.7 + -0.3) / 3, (0.2 + -2.9 + 0.7) / 3,
                                 (0.3 + 4.1 + 1e-17) / 3)


def test_support_of_a_huge_cylinder_along_a_direction_near_its_axis_is_finite():
    # (the property test's case: tests/algorithms/test_mixed_scale.py, plane-cylinder) the
    # axis w = (0, 1, 2^-35) and d = (2^-35, 1, 0) are 2^-35 sqrt(2) = 4.1e-11 apart, so the
    # rim point is r (perp / |perp|) with perp ~ (2^-35, 0, -2^-35): a unit vector
    # (1, 0, -1) / sqrt(2) times r = 1.046e298, whose coordinates are 7.4e297. radius / |perp|
    # = 2.5e308 overflows: the support point came out (inf, inf, -inf).
    r = 1.0463951242053392e298
    cyl = Cylinder((0.0, 0.0, 0.0), (0.0, 1.0, 2.0 ** -35), r, 0.0)
    d = np.array([2.0 ** -35, 1.0, 0.0])
    p = support(cyl, d)
    assert np.all(np.isfinite(p))
    assert p[0] == pytest.approx(r / math.sqrt(2), rel=1e-9)
    assert p[2] == pytest.approx(-r / math.sqrt(2), rel=1e-9)
    assert float(np.linalg.norm(p / r)) == pytest.approx(1.0, rel=1e-12)  # on the rim
    assert float(d @ p) == pytest.approx(support_value(cyl, d), rel=1e-12)
    # support_fn's fast cylinder (GJK's), operation for operation the same
    assert support_fn(cyl)(tuple(d)) == tuple(p.tolist())
