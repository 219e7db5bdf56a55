"""Point, segment, ray, line vs solid sphere: App. A.4 (closest point), A.12 (Hultquist)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import Line, Point, Ray, Segment, Sphere
from algorithms.report import evaluate_json as evaluate_pair
from algorithms.kernels.closest import closest_point_on_sphere_surface, closest_point_sphere
from algorithms.registry import query
from tests.algorithms.queries.test_linear_plane import (MY_QUERIES, any_a, check_distance,
                                                        check_hits, ex, ivec3, linear, vec3)

UNIT = Sphere((0, 0, 0), 1)


def sphere_np(s):
    c = np.array(s.center, float)
    return (lambda X: np.maximum(np.linalg.norm(X - c, axis=1) - s.radius, 0.0),
            lambda X: np.linalg.norm(X - c, axis=1) - s.radius)


spheres = st.builds(Sphere, vec3, st.one_of(st.just(0.0), st.floats(0, 3).map(
    lambda x: round(x, 6))))


# ----------------------------------------------------------------------------- hand cases


def test_a4_point_sphere():
    # (3,4,0) is 5 from the centre: distance 5 - 1 = 4, closest (3,4,0)/5
    r = query("distance", Point((3, 4, 0)), UNIT)
    assert r.distance == 4 and r.closest[1] == pytest.approx((0.6, 0.8, 0))
    # inside the solid ball: its own closest point, distance 0 (the A.4 choice for solids)
    r = query("distance", Point((0.1, 0.2, 0.3)), UNIT)
    assert r.distance == 0 and r.closest[0] == r.closest[1] == (0.1, 0.2, 0.3)
    assert closest_point_sphere((0.1, 0.2, 0.3), UNIT) == (0.1, 0.2, 0.3)
    # surface projection: from inside pushed out; the centre case is decided as c + r e_x
    assert closest_point_on_sphere_surface((0, 0, 0.5), UNIT) == (0, 0, 1)
    assert closest_point_on_sphere_surface((1, 2, 3), Sphere((1, 2, 3), 2)) == (3, 2, 3)
    # on the surface counts as touching
    assert query("intersects", Point((0, 0, 1)), UNIT).intersects
    assert not query("intersects", Point((0, 0, 1.0000001)), UNIT).intersects


def test_a12_hultquist_hand():
    # e = (0,0,5), a = 5, e^2 = 25, f^2 = 1 - 25 + 25 = 1: t = a - f = 4, exit a + f = 6
    hr = query("hits", Ray((0, 0, -5), (0, 0, 1)), UNIT)
    assert hr.first_t == 4 and [h.t for h in hr.hits] == [4, 6]
    assert [h.kind for h in hr.hits] == ["entry", "exit"]
    assert hr.hits[0].normal == (0, 0, -1) and hr.hits[1].normal == (0, 0, 1)
    assert (hr.trace["a"], hr.trace["e^2"], hr.trace["f^2"]) == (5, 25, 1)
    # non-unit direction (0,0,2): lengths 4 and 6 divided by |d| = 2
    assert [h.t for h in query("hits", Ray((0, 0, -5), (0, 0, 2)), UNIT).hits] == [2, 3]
    # line through it backwards: entry at -6, exit at -4 (line: first_t may be negative)
    assert query("hits", Line((0, 0, 5), (0, 0, 1)), UNIT).first_t == -6
    # ray pointing away: both roots negative -> miss, distance |e| - r = 4 at t = 0
    assert query("hits", Ray((0, 0, 5), (0, 0, 1)), UNIT).first_t is None
    r = query("distance", Ray((0, 0, 5), (0, 0, 1)), UNIT)
    assert r.distance == 4 and r.parameter[0] == 0


def test_origin_inside_and_segment_ends():
    # segment from the centre up to z = 2: inside (e^2 = 0 < r^2), exit at length 1 -> t = 1/2
    hr = query("hits", Segment((0, 0, 0), (0, 0, 2)), UNIT)
    assert hr.first_t == 0 and [(h.t, h.kind) for h in hr.hits] == [(0, "inside"), (0.5, "exit")]
    assert hr.trace["inside"] is True
    # segment ending inside: entry at length 4 of 5 -> t = 0.8, no exit
    hr = query("hits", Segment((0, 0, -5), (0, 0, 0)), UNIT)
    assert [(h.t, h.kind) for h in hr.hits] == [(0.8, "entry")]
    # segment stopping short: entry would be at t = 4/3 > 1 -> miss, distance 1 (z = -2 to -1)
    s = Segment((0, 0, -5), (0, 0, -2))
    assert query("hits", s, UNIT).first_t is None
    assert query("distance", s, UNIT).distance == 1


def test_tangent_and_zero_radius():
    # y = 1 grazes the unit sphere: b^2 = 1, f^2 = 0, one hit at t = 5, normal (0,1,0)
    hr = query("hits", Ray((-5, 1, 0), (1, 0, 0)), UNIT)
    assert [(h.t, h.kind) for h in hr.hits] == [(5, "hit")]
    assert hr.hits[0].point == (0, 1, 0) and hr.hits[0].normal == (0, 1, 0)
    # y = 2 misses (f^2 = -3); closest approach at t = 5, distance 2 - 1 = 1, sphere point (0,1,0)
    r = query("distance", Ray((-5, 2, 0), (1, 0, 0)), UNIT)
    assert r.distance == 1 and r.closest == ((0, 2, 0), (0, 1, 0)) and r.parameter[0] == 5
    # a zero-radius sphere is its centre: a line through it touches once (no normal)
    dot = Sphere((0, 0, 0), 0)
    hr = query("hits", Line((-1, 0, 0), (1, 0, 0)), dot)
    assert [(h.t, h.kind, h.normal) for h in hr.hits] == [(1, "hit", None)]
    assert query("distance", Line((-1, 3, 4), (1, 0, 0)), dot).distance == 5


def test_zero_length_segment():
    assert query("hits", Segment((0, 0, 0.5), (0, 0, 0.5)), UNIT).first_t == 0
    assert query("hits", Segment((0, 0, 2), (0, 0, 2)), UNIT).first_t is None
    assert query("distance", Segment((0, 0, 2), (0, 0, 2)), UNIT).distance == 1


def test_far_ray_precision():
    # origin 1e6 away, offset 0.5 from the centre line: entry at 1e6 - sqrt(1 - 0.25).
    # The book's f^2 = r^2 - e^2 + a^2 would cancel 1e12-sized terms; b^2 = |e - a d|^2 does not.
    hr = query("hits", Ray((1e6, 0.5, 0), (-1, 0, 0)), UNIT)
    assert hr.first_t == pytest.approx(1e6 - math.sqrt(0.75), rel=1e-15)
    assert hr.trace["f^2"] == 0.75


# ----------------------------------------------------------------------------- properties


@settings(max_examples=ex(100), deadline=None)
@given(a=any_a(), s=spheres)
def test_distance_vs_oracle(a, s):
    dist, _ = sphere_np(s)
    check_distance(a, s, dist, np.array(s.center), s.radius)


@settings(max_examples=ex(100), deadline=None)
@given(a=linear(), s=spheres)
def test_hits_vs_oracle(a, s):
    dist, sdf = sphere_np(s)
    hr = check_hits(a, s, dist, np.array(s.center), s.radius, sdf)
    assert hr.intersects == (query("distance", a, s).distance == 0)
    assert query("intersects", a, s).intersects == hr.intersects


@settings(max_examples=ex(40), deadline=None)
@given(a=linear(pts=ivec3), c=ivec3, r=st.integers(0, 2))
def test_lattice_cases(a, c, r):
    # integer data: tangents, zero radius, origins on the surface
    s = Sphere(c, r)
    dist, sdf = sphere_np(s)
    check_hits(a, s, dist, np.array(s.center, float), s.radius, sdf)
    check_distance(a, s, dist, np.array(s.center, float), s.radius)


def test_evaluate_pairs_no_error():
    s = Sphere((0.5, 0, 0), 1)
    for a in (Point((1, 2, 3)), Segment((0, 0, 0), (1, 1, 1)), Ray((0, 3, 0), (1, 0, 0)),
              Line((0, 0, 0), (0, 1, 1))):
        for x, y in ((a, s), (s, a)):
            r = evaluate_pair(x, y)
            err = r.get("error", "")
            assert all(f"no {q} " not in err and f"{q} failed" not in err
                       for q in MY_QUERIES), err
            assert r["distance"] is not None and r["intersects"] is not None
    assert evaluate_pair(Ray((0, 0, -5), (0, 0, 1)), UNIT)["first_t"] == 4


def test_origin_on_the_surface():
    # e^2 = r^2 (on the sphere). Pointing in: the near root (e^2 - r^2)/(a + f) = 0 is an entry
    # at t = 0, exit through the far side at t = 2 (a + f = 1 + 1).
    hr = query("hits", Ray((0, 0, -1), (0, 0, 1)), UNIT)
    assert [(h.t, h.kind) for h in hr.hits] == [(0, "entry"), (2, "exit")]
    assert hr.hits[0].normal == (0, 0, -1)
    # pointing out: roots -2 and 0; clipped to t >= 0 only the start touches: one "hit" at 0
    hr = query("hits", Ray((0, 0, 1), (0, 0, 1)), UNIT)
    assert [(h.t, h.kind) for h in hr.hits] == [(0, "hit")] and hr.first_t == 0
    assert query("distance", Ray((0, 0, 1), (0, 0, 1)), UNIT).distance == 0
