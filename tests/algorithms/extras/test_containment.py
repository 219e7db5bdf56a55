"""Boreskov's bounding-volume tests: aabb from points, point in aabb, aabb in aabb, sphere in
sphere, sphere-plane classify.

Oracles: hand cases (boundaries included); exact Fractions at the boundary; sampling (every
sampled point of the inner volume lies in the outer one iff contained, checked where the margin
is clear of the sampling error).
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest

from algorithms import AABB, Plane, Sphere
from algorithms.extras.containment import (IN_BACK, IN_BOTH, IN_FRONT, aabb_contains_aabb,
                                           aabb_from_points, aabb_overlaps_aabb, point_in_aabb,
                                           sphere_classify_plane, sphere_contains_sphere,
                                           sphere_intersects_sphere)


def test_aabb_from_points_and_point_in_aabb():
    # Boreskov (3.7): per-coordinate min and max of (1,5,-2), (3,0,4), (-1,2,0)
    box = aabb_from_points([(1, 5, -2), (3, 0, 4), (-1, 2, 0)])
    assert box.min == (-1, 0, -2) and box.max == (3, 5, 4)
    assert point_in_aabb((3, 5, 4), box)          # a corner counts
    assert point_in_aabb((0, 0, 0), box)          # on the face y = 0
    assert not point_in_aabb((0, -1e-12, 0), box)
    ex = aabb_from_points([(F(1, 3), 0, 0)], exact=True)
    assert ex.min == ex.max == (F(1, 3), 0, 0)   # a single point: a flat (zero) box
    with pytest.raises(ValueError):
        aabb_from_points([])


def test_aabb_contains_and_overlaps():
    outer = AABB((0, 0, 0), (4, 4, 4))
    assert aabb_contains_aabb(outer, AABB((1, 1, 1), (2, 2, 2)))
    assert aabb_contains_aabb(outer, outer)                         # equal boxes
    assert not aabb_contains_aabb(outer, AABB((1, 1, 1), (5, 2, 2)))
    assert not aabb_contains_aabb(AABB((1, 1, 1), (2, 2, 2)), outer)
    assert aabb_overlaps_aabb(outer, AABB((4, 0, 0), (5, 1, 1)))    # touching the face x = 4
    assert not aabb_overlaps_aabb(outer, AABB((4.5, 0, 0), (5, 1, 1)))


def test_sphere_contains_sphere():
    # Boreskov: |c_s - c| + r_s <= r. Centres 3/5, 4/5 apart (distance 1): inner r 1 fits in
    # outer r 2 exactly (internally tangent); r 1 + 1e-30 does not
    o = Sphere((0, 0, 0), 2, exact=True)
    assert sphere_contains_sphere(o, Sphere((F(3, 5), F(4, 5), 0), 1, exact=True))
    assert not sphere_contains_sphere(o, Sphere((F(3, 5), F(4, 5), 0), 1 + F(1, 10 ** 30),
                                                exact=True))
    assert not sphere_contains_sphere(Sphere((0, 0, 0), 1), Sphere((0, 0, 0), 2))
    assert sphere_contains_sphere(Sphere((0, 0, 0), 0), Sphere((0, 0, 0), 0))
    assert sphere_intersects_sphere(Sphere((0, 0, 0), 1), Sphere((3, 0, 0), 2))  # touching
    assert not sphere_intersects_sphere(Sphere((0, 0, 0), 1), Sphere((3.001, 0, 0), 2))


def test_sphere_contains_sphere_by_sampling():
    rng = np.random.default_rng(2)
    checked = 0
    for _ in range(300):
        o = Sphere(rng.uniform(-1, 1, 3), rng.uniform(0.5, 2))
        i = Sphere(rng.uniform(-1, 1, 3), rng.uniform(0, 1.5))
        margin = o.radius - (np.linalg.norm(np.subtract(i.center, o.center)) + i.radius)
        if abs(margin) < 1e-3:
            continue
        # the inner sphere's farthest point from o's centre decides; sample its surface
        d = rng.normal(size=(2000, 3))
        d /= np.linalg.norm(d, axis=1)[:, None]
        pts = np.asarray(i.center) + i.radius * d
        far = np.max(np.linalg.norm(pts - np.asarray(o.center), axis=1))
        if abs(far - o.radius) < 0.05:  # sampling cannot decide
            continue
        assert sphere_contains_sphere(o, i) is bool(far <= o.radius)
        checked += 1
    assert checked > 150


def test_sphere_classify_plane():
    # plane z = 1 (normal (0,0,2), d = 2: n.x = d): centre z = 3, r 1 -> front; r 2 touches
    # -> both; centre z = -1, r 1.5 -> back (v = -4 vs r|n| = 3)
    p = Plane((0, 0, 2), 2)
    assert sphere_classify_plane(Sphere((0, 0, 3), 1), p) == IN_FRONT
    assert sphere_classify_plane(Sphere((0, 0, 3), 2), p) == IN_BOTH
    assert sphere_classify_plane(Sphere((0, 0, -1), 1.5), p) == IN_BACK
    assert sphere_classify_plane(Sphere((5, 5, 1), 0), p) == IN_BOTH     # point on the plane
    # exact: normal (3, 4, 0), d = 0; centre (3, 4, 0): v = 25, r|n| = 5 r; r = 5 touches
    pe = Plane((3, 4, 0), 0, exact=True)
    assert sphere_classify_plane(Sphere((3, 4, 0), 5, exact=True), pe) == IN_BOTH
    assert sphere_classify_plane(Sphere((3, 4, 0), 5 - F(1, 10 ** 20), exact=True), pe) == IN_FRONT


def test_aabb_containment_by_sampling():
    rng = np.random.default_rng(4)
    for _ in range(200):
        c1, c2 = rng.uniform(-1, 1, (2, 3))
        e1, e2 = rng.uniform(0, 1.5, (2, 3))
        a, b = AABB(c1 - e1, c1 + e1), AABB(c2 - e2, c2 + e2)
        # b's 8 corners all in a <=> b in a (a is convex, b the hull of its corners)
        corners = [tuple(np.where(np.array(bits), b.max, b.min))
                   for bits in np.ndindex(2, 2, 2)]
        assert aabb_contains_aabb(a, b) is all(point_in_aabb(p, a) for p in corners)
