"""Hollow spheres and boxes (GTCG §11.12.8) and the ``contains`` key (Boreskov), issue 13 part 1.

Oracles: brute force. The sets are sampled (a hollow sphere or box by its surface, a solid one
by its surface and the inside), the least sampled distance bounds the answer from above and
comes within the sampling step of it; containment is checked point by point.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, Point, Sphere, evaluate_pair
from algorithms.extras.containment import contains
from algorithms.report import result_json

N = 16  # samples per sphere angle and per box face side


def sphere_points(s: Sphere, hollow: bool) -> np.ndarray:
    th, ph = np.meshgrid(np.linspace(0, 2 * math.pi, 2 * N), np.linspace(0, math.pi, N))
    dirs = np.stack([np.sin(ph) * np.cos(th), np.sin(ph) * np.sin(th), np.cos(ph)],
                    -1).reshape(-1, 3)
    radii = [s.radius] if hollow else np.linspace(0, s.radius, 5)
    return np.vstack([np.asarray(s.center) + r * dirs for r in radii])


def box_points(b: AABB, hollow: bool) -> np.ndarray:
    lo, hi = np.asarray(b.min, float), np.asarray(b.max, float)
    g = np.linspace(0, 1, N)
    u, v = (a.ravel() for a in np.meshgrid(g, g))
    faces = []
    for i in range(3):
        j, k = [x for x in range(3) if x != i]
        for side in (lo[i], hi[i]):
            p = np.empty((len(u), 3))
            p[:, i] = side
            p[:, j] = lo[j] + u * (hi[j] - lo[j])
            p[:, k] = lo[k] + v * (hi[k] - lo[k])
            faces.append(p)
    pts = np.vstack(faces)
    if not hollow:
        g3 = np.linspace(0, 1, 7)
        x, y, z = (a.ravel() for a in np.meshgrid(g3, g3, g3))
        pts = np.vstack([pts, lo + np.stack([x, y, z], -1) * (hi - lo)])
    return pts


def min_dist(p, q) -> float:
    best = math.inf
    for chunk in np.array_split(p, max(1, len(p) // 400)):
        d = np.linalg.norm(chunk[:, None, :] - q[None, :, :], axis=2)
        best = min(best, float(d.min()))
    return best


c = st.floats(-2, 2, allow_nan=False)


@settings(max_examples=examples(30), deadline=None)
@given(st.tuples(c, c, c), st.floats(0.2, 2.5), st.tuples(c, c, c),
       st.tuples(st.floats(0.3, 2), st.floats(0.3, 2), st.floats(0.3, 2)),
       st.booleans(), st.booleans())
def test_hollow_distance_against_sampling(center, r, lo, size, hs, hb):
    s = Sphere(center, r)
    b = AABB(lo, tuple(a + e for a, e in zip(lo, size)))
    ans = evaluate_pair(s, b, hollow_a=hs, hollow_b=hb)
    flipped = evaluate_pair(b, s, hollow_a=hb, hollow_b=hs)
    assert flipped.intersects == ans.intersects
    assert flipped.distance == pytest.approx(ans.distance, abs=1e-12)
    sampled = min_dist(sphere_points(s, hs), box_points(b, hb))
    step = 2 * math.pi / (2 * N) * r + max(size) / (N - 1) * 2
    assert ans.distance <= sampled + 1e-9       # the sets really are no closer
    assert sampled <= ans.distance + step        # and the answer is attained
    # the closest points lie on their sets and are `distance` apart
    pa, pb = (np.asarray(p) for p in ans.closest)
    assert np.linalg.norm(pa - pb) == pytest.approx(ans.distance, abs=1e-9)
    dc = float(np.linalg.norm(pa - np.asarray(center)))
    assert (abs(dc - r) <= 1e-6) if hs else (dc <= r + 1e-9)
    lo_, hi_ = np.asarray(b.min), np.asarray(b.max)
    assert np.all(pb >= lo_ - 1e-9) and np.all(pb <= hi_ + 1e-9)
    if hb:
        assert np.min(np.minimum(np.abs(pb - lo_), np.abs(pb - hi_))) <= 1e-9
    assert ans.intersects == (ans.distance == 0)
    if ans.intersects:
        assert ans.separating_axis is None


def test_hollow_by_hand():
    box = AABB((-1, -1, -1), (1, 1, 1))
    # a box strictly inside a hollow sphere does not meet it: gap 3 - sqrt(3)
    ans = evaluate_pair(Sphere((0, 0, 0), 3), box, hollow_a=True)
    assert ans.intersects is False and ans.distance == pytest.approx(3 - math.sqrt(3))
    assert ans.separating_axis is None  # no axis separates a box inside a sphere
    assert ans.methods[0].startswith("sphere-box, hollow variants")
    assert evaluate_pair(Sphere((0, 0, 0), 3), box).intersects is True  # solid: it does
    # a small sphere inside a hollow box: 1 - 0.5 from the nearest face
    ans = evaluate_pair(Sphere((0, 0, 0), 0.5), box, hollow_b=True)
    assert ans.intersects is False and ans.distance == pytest.approx(0.5)
    # both hollow, the sphere poking through the faces: they meet
    ans = evaluate_pair(Sphere((0, 0, 0), 1.2), box, hollow_a=True, hollow_b=True)
    assert ans.intersects is True and ans.distance == 0
    # hollow on another pair: treated as solid, and said so
    ans = evaluate_pair(Sphere((0, 0, 0), 1), Point((0, 0, 0)), hollow_a=True)
    assert ans.intersects is True and any("treated as solid" in e for e in ans.errors)


box_lo = st.tuples(c, c, c)
box_size = st.tuples(st.floats(0, 2), st.floats(0, 2), st.floats(0, 2))


def shape(draw_kind, center, r, lo, size):
    if draw_kind == "sphere":
        return Sphere(center, r)
    if draw_kind == "aabb":
        return AABB(lo, tuple(a + e for a, e in zip(lo, size)))
    return Point(center)


def solid_points(p) -> np.ndarray:
    if p.kind == "sphere":
        return sphere_points(p, hollow=True)  # convex: the surface decides containment
    if p.kind == "aabb":
        return box_points(p, hollow=True)
    return np.asarray([p.position], float)


def inside(p, pts, tol) -> np.ndarray:
    if p.kind == "sphere":
        return np.linalg.norm(pts - np.asarray(p.center), axis=1) <= p.radius + tol
    if p.kind == "aabb":
        return np.all((pts >= np.asarray(p.min) - tol) & (pts <= np.asarray(p.max) + tol), axis=1)
    return np.linalg.norm(pts - np.asarray(p.position), axis=1) <= tol


kinds = st.sampled_from(["sphere", "aabb", "point"])


@settings(max_examples=examples(150), deadline=None)
@given(kinds, kinds, st.tuples(c, c, c), st.floats(0.1, 2), box_lo, box_size,
       st.tuples(c, c, c), st.floats(0.1, 2), box_lo, box_size)
def test_contains_against_sampling(ka, kb, ca, ra, la, sa, cb, rb, lb, sb):
    assume(not (ka == kb == "point"))
    a, b = shape(ka, ca, ra, la, sa), shape(kb, cb, rb, lb, sb)
    got = contains(a, b)
    assert result_json(evaluate_pair(a, b))["contains"] == got
    # swapping the arguments swaps the answer
    swapped = {"a": "b", "b": "a", "none": "none"}[got]
    if got == "a" and contains(b, a) == "a":  # equal sets hold each other: "a" both ways
        swapped = "a"
    assert contains(b, a) == swapped
    a_holds_b = inside(a, solid_points(b), 1e-9).all()
    b_holds_a = inside(b, solid_points(a), 1e-9).all()
    # the sampled points are a subset: containment implies every sample inside ...
    if got == "a":
        assert a_holds_b
    if got == "b":
        assert b_holds_a
    # ... and a sample clearly outside refutes it
    if got == "none":
        margin = 1e-6
        assert not inside(a, solid_points(b), -margin).all() or \
            not inside(b, solid_points(a), -margin).all() or ka == "point" or kb == "point"


def test_contains_by_hand():
    big, small = Sphere((0, 0, 0), 2), Sphere((0.5, 0, 0), 1)
    assert contains(big, small) == "a" and contains(small, big) == "b"
    assert contains(Sphere((0, 0, 0), 1), Sphere((1.5, 0, 0), 1)) == "none"
    box = AABB((-1, -1, -1), (1, 1, 1))
    # the farthest corner at sqrt(3) = 1.732 < 2: inside the ball
    assert contains(big, box) == "a" and contains(Sphere((0, 0, 0), 1.7), box) == "none"
    assert contains(box, Sphere((0, 0, 0), 1)) == "a"  # touching the faces counts
    assert contains(box, Point((1, 1, 1))) == "a" and contains(Point((2, 0, 0)), box) == "none"
    assert contains(box, Point((0, 0, 0)), hollow_a=True) == "none"  # a surface holds no inside
    assert contains(Point((0, 0, 0)), Point((0, 0, 0))) is None  # not answered
    assert result_json(evaluate_pair(box, AABB((0, 0, 0), (3, 3, 3))))["contains"] == "none"
