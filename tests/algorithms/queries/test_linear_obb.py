"""Point, segment, ray, line vs OBB: everything in the box frame (A.5 clamp, Woo A.18, slabs,
features distance)."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from algorithms import OBB, Line, Point, Ray, Segment
from algorithms.report import evaluate_json as evaluate_pair
from algorithms.registry import methods, query
from tests.algorithms.queries.test_linear_aabb import box_np, extent
from tests.algorithms.queries.test_linear_plane import (MY_QUERIES, any_a, check_distance,
                                                        check_hits, ex, linear, oracle_min,
                                                        scale_of, vec3)

# rotation by the 3-4-5 angle about z (0.6 and 0.8 are not exact in binary: the
# hand values below are derived exactly and compared with a tolerance)
R345 = ((0.6, 0.8, 0.0), (-0.8, 0.6, 0.0), (0.0, 0.0, 1.0))
B = OBB((0, 0, 0), R345, (1, 2, 3))


def obb_np(obb):
    c = np.array(obb.center, float)
    A = np.array(obb.axes, float)
    e = np.array(obb.extents, float)
    return box_np(-e, e, to_local=lambda X: (X - c) @ A.T)


def ball(obb):
    return np.array(obb.center, float), float(np.linalg.norm(obb.extents))


@st.composite
def obbs(draw):
    q = np.array([draw(st.floats(-1, 1)) for _ in range(4)])
    if np.linalg.norm(q) < 1e-3:
        q = np.array([1.0, 0, 0, 0])
    w, x, y, z = q / np.linalg.norm(q)
    rot = [(1 - 2 * (y * y + z * z), 2 * (x * y + w * z), 2 * (x * z - w * y)),
           (2 * (x * y - w * z), 1 - 2 * (x * x + z * z), 2 * (y * z + w * x)),
           (2 * (x * z + w * y), 2 * (y * z - w * x), 1 - 2 * (x * x + y * y))]
    return OBB(draw(vec3), rot, (draw(extent), draw(extent), draw(extent)))


# ----------------------------------------------------------------------------- hand cases


def test_point_obb_hand():
    # (3,3,3) in the box frame: u = (.6*3 + .8*3, -.8*3 + .6*3, 3) = (4.2, -.6, 3); clamp to
    # (1, -.6, 3): distance 3.2 along a0; world point .6 a... = (1.08, .44, 3)
    r = query("distance", Point((3, 3, 3)), B)
    assert r.distance == pytest.approx(3.2) and r.closest[1] == pytest.approx((1.08, 0.44, 3))
    assert query("intersects", Point((0.6, 0.8, 3)), B).intersects  # u = (1, 0, 3): a face
    assert not query("intersects", Point((0.7, 0.9, 0)), B).intersects


@pytest.mark.parametrize("method", ["woo", "slabs"])
def test_ray_obb_hand(method):
    # o = (-5,0,0) -> o' = (-3, 4, 0), d' = (.6, -.8, 0). x slab [-1,1]: t in [10/3, 20/3];
    # y slab [-2,2]: t in [2.5, 7.5]. Entry 10/3 on the x-min face (normal -a0 = (-.6,-.8,0)),
    # exit 20/3 on x-max (+a0).
    hr = query("hits", Ray((-5, 0, 0), (1, 0, 0)), B, method=method)
    assert [h.t for h in hr.hits] == pytest.approx([10 / 3, 20 / 3])
    assert hr.hits[0].normal == pytest.approx((-0.6, -0.8, 0))
    assert hr.hits[1].normal == pytest.approx((0.6, 0.8, 0))
    # the same line backwards: entry at -20/3
    hr = query("hits", Line((-5, 0, 0), (-1, 0, 0)), B, method=method)
    assert hr.first_t == pytest.approx(-20 / 3)
    # inside: first_t 0
    assert query("hits", Segment((0, 0, 0), (0, 0, 9)), B, method=method).first_t == 0
    assert methods("hits", "segment", "obb")[:2] == ["woo", "slabs"]


def test_distance_hand():
    # the vertical line through c + 3 a0 = (1.8, 2.4, .) is 3 - 1 = 2 from the x-max face
    r = query("distance", Line((1.8, 2.4, 0), (0, 0, 1)), B)
    assert r.distance == pytest.approx(2)
    # parallel to a face, beyond the corner edge: local (3, 4) from the edge (1, 2): sqrt(8)
    p = np.array(R345[0]) * 3 + np.array(R345[1]) * 4
    r = query("distance", Line(tuple(p), (0, 0, 1)), B)
    assert r.distance == pytest.approx(math.sqrt(8))
    g = query("distance", Line(tuple(p), (0, 0, 1)), B, method="golden_section")
    assert g.distance == pytest.approx(math.sqrt(8), rel=1e-12)


def test_flat_obb():
    flat = OBB((0, 0, 0), R345, (1, 1, 0))  # a rectangle in z = 0
    hr = query("hits", Ray((0, 0, 5), (0, 0, -1)), flat)
    assert [(h.t, h.kind) for h in hr.hits] == [(5, "hit")] and hr.hits[0].normal == (0, 0, 1)


# ----------------------------------------------------------------------------- properties


@settings(max_examples=ex(60), deadline=None)
@given(a=any_a(), obb=obbs())
def test_distance_vs_oracle(a, obb):
    c, R = ball(obb)
    check_distance(a, obb, obb_np(obb)[0], c, R)


@settings(max_examples=ex(20), deadline=None)
@given(a=linear(), obb=obbs())
def test_golden_section_vs_oracle(a, obb):
    c, R = ball(obb)
    check_distance(a, obb, obb_np(obb)[0], c, R, method="golden_section")


@settings(max_examples=ex(60), deadline=None)
@given(a=linear(), obb=obbs())
# found by a local hypothesis run: a flat box (a segment along y tilted by 6.7e-203 towards z)
# that the segment meets exactly at t = 1 (box frame z = (1 - t) 6.7e-203); the oracle's
# distances before t = 1 underflowed to 0 when squared (now: norm_rows)
@example(a=Segment((0., 1., 0.), (0., 0., 0.)),
         obb=OBB((0., 0., 0.), ((-1., 0., 0.), (0., 1., 6.673793401124414e-203),
                                (0., 6.673793401124414e-203, -1.)), (0., 1., 0.)))
def test_hits_vs_oracle_woo_and_slabs(a, obb):
    c, R = ball(obb)
    dist, sdf = obb_np(obb)
    w = check_hits(a, obb, dist, c, R, sdf)
    s = check_hits(a, obb, dist, c, R, sdf, method="slabs")
    sc = scale_of(a, obb)
    if w.intersects != s.intersects:
        want, _ = oracle_min(a, dist, c, R)
        assert want <= 1e-9 * sc
    elif w.intersects:
        assert w.first_t == pytest.approx(s.first_t, abs=1e-9 * sc)
    assert query("intersects", a, obb).intersects == w.intersects
    assert w.intersects == (query("distance", a, obb).distance == 0)


def test_evaluate_pairs_no_error():
    for a in (Point((1, 2, 3)), Segment((0, 0, -1), (0.2, 0.2, 1)), Ray((0, 3, 0), (1, 0, 0)),
              Line((5, 5, 5), (0, 1, 1))):
        for x, y in ((a, B), (B, a)):
            r = evaluate_pair(x, y)
            err = r.get("error", "")
            assert all(f"no {q} " not in err and f"{q} failed" not in err
                       for q in MY_QUERIES), err
            assert r["distance"] is not None and r["intersects"] is not None
