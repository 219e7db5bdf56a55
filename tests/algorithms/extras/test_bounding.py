"""Bound these (issue 13, part 1): an AABB and an enclosing sphere of bounded primitives.

Oracle: brute force. Points sampled on every shape's surface (vertices, rims, far points) all
lie in both volumes, and the AABB is tight (each face is reached by a sample up to the
sampling step) as is the sphere (its radius is reached by a sample).
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, OBB, Capsule, Cylinder, Point, Ray, Segment, Sphere, Triangle
from algorithms.extras.containment import bound_aabb, bound_sphere


def _perp_basis(w):
    w = np.asarray(w, float) / np.linalg.norm(w)
    a = np.array([1.0, 0, 0]) if abs(w[0]) < 0.9 else np.array([0, 1.0, 0])
    u = np.cross(w, a)
    u /= np.linalg.norm(u)
    return w, u, np.cross(w, u)


def samples(p, n=400) -> np.ndarray:
    """Points of the shape, dense on the parts that reach farthest."""
    k = p.kind
    ang = np.linspace(0, 2 * math.pi, n, endpoint=False)
    if k == "point":
        return np.array([p.position], float)
    if k == "segment":
        return np.linspace(p.p0, p.p1, n)
    if k == "triangle":
        return np.asarray(p.vertices, float)
    if k == "aabb":
        return np.array([(x, y, z) for x in (p.min[0], p.max[0]) for y in (p.min[1], p.max[1])
                         for z in (p.min[2], p.max[2])], float)
    if k == "obb":
        c, ax, e = (np.asarray(v, float) for v in (p.center, p.axes, p.extents))
        return np.array([c + (np.array(s) * e) @ ax for s in
                         [(i, j, m) for i in (-1, 1) for j in (-1, 1) for m in (-1, 1)]])
    if k in ("sphere", "capsule"):
        cs = [p.center] if k == "sphere" else [p.p0, p.p1]
        th, ph = np.meshgrid(ang, np.linspace(0, math.pi, n // 4))
        dirs = np.stack([np.sin(ph) * np.cos(th), np.sin(ph) * np.sin(th), np.cos(ph)],
                        -1).reshape(-1, 3)
        return np.vstack([np.asarray(c, float) + p.radius * dirs for c in cs])
    if k == "cylinder":
        w, u, v = _perp_basis(p.axis)
        ring = np.outer(np.cos(ang), u) + np.outer(np.sin(ang), v)
        return np.vstack([np.asarray(e, float) + p.radius * ring for e in p.end_points])
    raise AssertionError(k)


coord = st.floats(-5, 5, allow_nan=False)
vec = st.tuples(coord, coord, coord)
radius = st.floats(0, 2)
nonzero = vec.filter(lambda v: math.hypot(*v) > 0.1)


@st.composite
def shapes(draw):
    k = draw(st.sampled_from(["point", "segment", "triangle", "sphere", "aabb", "capsule",
                              "cylinder"]))
    if k == "point":
        return Point(draw(vec))
    if k == "segment":
        return Segment(draw(vec), draw(vec))
    if k == "triangle":
        return Triangle([draw(vec), draw(vec), draw(vec)])
    if k == "sphere":
        return Sphere(draw(vec), draw(radius))
    if k == "aabb":
        a, b = draw(vec), draw(vec)
        return AABB(tuple(map(min, a, b)), tuple(map(max, a, b)))
    if k == "capsule":
        return Capsule(draw(vec), draw(vec), draw(radius))
    return Cylinder(draw(vec), draw(nonzero), draw(radius), draw(st.floats(0, 3)))


@settings(max_examples=examples(60), deadline=None)
@given(st.lists(shapes(), min_size=1, max_size=4))
def test_every_sampled_point_is_inside_and_both_volumes_are_reached(prims):
    box, ball = bound_aabb(prims), bound_sphere(prims)
    pts = np.vstack([samples(p) for p in prims])
    lo, hi = np.asarray(box.min), np.asarray(box.max)
    assert np.all(pts >= lo - 1e-9) and np.all(pts <= hi + 1e-9)
    scale = 1 + float(np.max(np.abs(pts)))
    step = 2 * math.pi / 400 * 4 * scale  # the sampling's reach on a rim of radius <= 2
    assert np.all(np.abs(pts.min(axis=0) - lo) <= step)
    assert np.all(np.abs(pts.max(axis=0) - hi) <= step)
    d = np.linalg.norm(pts - np.asarray(ball.center), axis=1)
    assert np.all(d <= ball.radius + 1e-9)
    assert ball.radius - d.max() <= step


def test_by_hand():
    # a unit ball at the origin and a cylinder at x = 3 (axis z, r 0.5, h 2): x in [-1, 3.5]
    prims = [Sphere((0, 0, 0), 1), Cylinder((3, 0, 0), (0, 0, 1), 0.5, 2)]
    box = bound_aabb(prims)
    assert box.min == (-1, -1, -1) and box.max == (3.5, 1, 1)
    ball = bound_sphere(prims)
    assert ball.center == (1.25, 0, 0)
    # the farthest rim point (3.5, 0, +-1): sqrt(2.25^2 + 1)
    assert ball.radius == pytest.approx(math.sqrt(2.25 ** 2 + 1), abs=1e-15)
    # a rotated box: its 8 corners decide
    r = math.sqrt(0.5)
    obb = OBB((0, 0, 0), [(r, r, 0), (-r, r, 0), (0, 0, 1)], (1, 1, 1))
    assert bound_aabb([obb]).max == pytest.approx((2 * r, 2 * r, 1))
    assert bound_sphere([obb]).radius == pytest.approx(math.sqrt(3))


def test_refusals():
    with pytest.raises(ValueError, match="at least one"):
        bound_aabb([])
    with pytest.raises(ValueError, match="ray is unbounded"):
        bound_sphere([Sphere((0, 0, 0), 1), Ray((0, 0, 0), (1, 0, 0))])
