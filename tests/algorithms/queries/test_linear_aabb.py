"""Point, segment, ray, line vs AABB: A.5 clamp, Woo (App. A.18, Listing A.6), slabs,
features distance."""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from algorithms import AABB, OBB, Line, Point, Ray, Segment
from algorithms.report import evaluate_json as evaluate_pair
from algorithms.kernels.closest import closest_point_aabb
from algorithms.registry import methods, query
from tests.algorithms.queries.test_linear_plane import (MY_QUERIES, any_a, check_distance,
                                                        check_hits, ex, ivec3, linear, oracle_min,
                                                        scale_of, vec3)

U = AABB((0, 0, 0), (1, 1, 1))


def norm_rows(V):
    """Each row's length, scaled by its largest component first: ``np.linalg.norm`` squares
    the components, so a gap of 6.7e-203 (a box tilted by that angle) would come out 0."""
    m = np.abs(V).max(axis=1)
    safe = np.where(m > 0, m, 1.0)
    return m * np.linalg.norm(V / safe[:, None], axis=1)


def box_np(bmin, bmax, to_local=None):
    """Independent oracles: per-axis outside amounts q = max(min - x, x - max);
    distance |max(q, 0)|, signed distance that plus min(max_i q_i, 0)."""
    lo, hi = np.array(bmin, float), np.array(bmax, float)

    def q(X):
        if to_local is not None:
            X = to_local(X)
        return np.maximum(lo - X, X - hi)

    def dist(X):
        return norm_rows(np.maximum(q(X), 0.0))

    def sdf(X):
        Q = q(X)
        return norm_rows(np.maximum(Q, 0.0)) + np.minimum(Q.max(axis=1), 0.0)

    return dist, sdf


def ball(box):
    lo, hi = np.array(box.min, float), np.array(box.max, float)
    return (lo + hi) / 2, float(np.linalg.norm(hi - lo) / 2)


extent = st.one_of(st.just(0.0), st.floats(0, 3).map(lambda x: round(x, 6)))


@st.composite
def boxes(draw, pts=vec3, ext=extent):
    p = draw(pts)
    e = (draw(ext), draw(ext), draw(ext))
    return AABB(p, tuple(a + b for a, b in zip(p, e)))


def woo(a, b):
    return query("hits", a, b, method="woo")


# ----------------------------------------------------------------------------- hand cases


def test_a5_clamp():
    # Listing A.1: each coordinate pushed into [min, max]
    assert closest_point_aabb((2, 0.5, -3), U) == (1, 0.5, 0)
    r = query("distance", Point((2, 0.5, -3)), U)
    assert r.distance == pytest.approx(math.sqrt(1 + 9)) and r.closest[1] == (1, 0.5, 0)
    # inside: the point itself (the listing: "returns the original point")
    assert query("distance", Point((0.2, 0.3, 0.4)), U).closest[1] == (0.2, 0.3, 0.4)
    assert query("intersects", Point((1, 1, 1)), U).intersects  # a corner counts
    # exact on Fractions
    eb = AABB((0, 0, 0), (Fraction(1, 3), 1, 1), exact=True)
    assert closest_point_aabb((Fraction(1, 2), 0, 0), eb) == (Fraction(1, 3), 0, 0)


def test_woo_listing_values():
    # o = (-2, -0.5, .5), delta = (2, 1, 0): xt = (0 - -2)/2 = 1, yt = (0 - -.5)/1 = .5, z inside
    # (the listing's -1); the farthest candidate is x: t = 1, y = -.5 + 1 = .5 inside, normal -x
    hr = woo(Ray((-2, -0.5, 0.5), (2, 1, 0)), U)
    tr = hr.trace
    assert [c["t"] for c in tr["candidate planes"]] == [1, 0.5, -1]
    assert tr["chosen"]["axis"] == "x" and tr["chosen"]["plane"] == "min x"
    assert hr.first_t == 1 and hr.hits[0].normal == (-1, 0, 0)
    # exit: back planes x = 1 at t = 1.5, y = 1 at t = 1.5 -> 1.5
    assert hr.hits[1].t == 1.5 and hr.hits[1].kind == "exit"
    assert methods("hits", "ray", "aabb")[:2] == ["woo", "slabs"]


@pytest.mark.parametrize("method", ["woo", "slabs"])
def test_rays_segments_lines(method):
    def h(a):
        return query("hits", a, U, method=method)

    # straight in along x: entry t = 1 normal -x, exit t = 2 normal +x
    hr = h(Ray((-1, 0.5, 0.5), (1, 0, 0)))
    assert [(x.t, x.kind, x.normal) for x in hr.hits] == [(1, "entry", (-1, 0, 0)),
                                                         (2, "exit", (1, 0, 0))]
    # segment with delta (4,0,0): xt = 1 <= 4, t = 1/4; exit 1/2
    assert [x.t for x in h(Segment((-1, 0.5, 0.5), (3, 0.5, 0.5))).hits] == [0.25, 0.5]
    # segment too short: the listing's `xt > rayDelta.x` early out (1 > 0.5)
    s = Segment((-1, 0.5, 0.5), (-0.5, 0.5, 0.5))
    assert h(s).first_t is None and query("distance", s, U).distance == 0.5
    # origin inside: first_t 0, exit through z = 1 at t = 1/2
    hr = h(Ray((0.5, 0.5, 0.5), (0, 0, 1)))
    assert [(x.t, x.kind) for x in hr.hits] == [(0, "inside"), (0.5, "exit")]
    assert hr.hits[1].normal == (0, 0, 1)
    # a line enters at negative t
    assert [x.t for x in h(Line((5, 0.5, 0.5), (1, 0, 0))).hits] == [-5, -4]
    # parallel above the y = 1 face: miss, distance 1
    a = Ray((-1, 2, 0.5), (1, 0, 0))
    assert h(a).first_t is None and query("distance", a, U).distance == 1


@pytest.mark.parametrize("method", ["woo", "slabs"])
def test_grazing(method):
    def h(a):
        return query("hits", a, U, method=method)

    # along the top face z = 1 (closed slab): entry 1, exit 2
    assert [x.t for x in h(Ray((-1, 0.5, 1), (1, 0, 0))).hits] == [1, 2]
    # through the corner edge x = y = 0: o = (-1,-2,.5), delta (1,2,0): xt = yt = 1 (a tie: the
    # listing keeps x), exit min(x: 2, y: 1.5) = 1.5
    assert [x.t for x in h(Ray((-1, -2, 0.5), (1, 2, 0))).hits] == [1, 1.5]
    # touching only the corner (0,1,1): o = (-1,0,0), d = (1,1,1): entry x-plane t = 1,
    # exit min(x 2, y 1, z 1) = 1 -> one hit of kind "hit"
    hr = h(Ray((-1, 0, 0), (1, 1, 1)))
    assert [(x.t, x.kind) for x in hr.hits] == [(1, "hit")] and hr.hits[0].point == (0, 1, 1)
    # grazing the edge x = 0, z = 1: o = (-1, .5, 0), d = (1, 0, 1) reaches (0, .5, 1) at t = 1,
    # outside before (x < 0) and after (z > 1): entry x-plane t = 1 = exit z-plane t -> "hit"
    hr = h(Ray((-1, 0.5, 0), (1, 0, 1)))
    assert [(x.t, x.kind) for x in hr.hits] == [(1, "hit")]
    # lifted by 1e-9 it misses; it passes the edge at distance 1e-9 / sqrt(2)
    a = Ray((-1, 0.5, 1e-9), (1, 0, 1))
    assert h(a).first_t is None
    assert query("distance", a, U).distance == pytest.approx(1e-9 / math.sqrt(2), rel=1e-6)


@pytest.mark.parametrize("method", ["woo", "slabs"])
def test_flat_and_point_boxes(method):
    flat = AABB((0, 0, 0), (1, 1, 0))
    hr = query("hits", Ray((0.5, 0.5, 1), (0, 0, -1)), flat, method=method)
    assert [(x.t, x.kind, x.normal) for x in hr.hits] == [(1, "hit", (0, 0, 1))]
    dot = AABB((1, 2, 3), (1, 2, 3))
    assert query("hits", Line((0, 0, 0), (1, 2, 3)), dot, method=method).first_t == 1
    assert query("distance", Line((0, 0, 0), (1, 0, 0)), dot).distance == pytest.approx(
        math.sqrt(13))
    # zero-length segments
    assert query("hits", Segment((0.5, 0.5, 0.5), (0.5, 0.5, 0.5)), U,
                 method=method).first_t == 0
    assert query("hits", Segment((2, 2, 2), (2, 2, 2)), U, method=method).first_t is None


def test_distance_hand():
    # segment above the box, crossing over the edge y = 1, z = 1 in x: (.5, 2, 3) -> (.5, 3, 1)?
    # take the line x = 2, y = 2 along z: nearest is the vertical edge x = y = 1: sqrt(2)
    r = query("distance", Line((2, 2, -5), (0, 0, 1)), U)
    assert r.distance == pytest.approx(math.sqrt(2))
    assert r.closest[1][:2] == pytest.approx((1, 1)) and 0 <= r.closest[1][2] <= 1
    # skew to an edge: line through (2, -1, 0.5) along (0, 1, 1)... nearest the edge x = 1,
    # z = 1? Use a clean one: line x = 2, z = 2 along y: nearest edge x = 1, z = 1: sqrt(2)
    r = query("distance", Line((2, -7, 2), (0, 1, 0)), U)
    assert r.distance == pytest.approx(math.sqrt(2)) and "edge" in r.trace["feature"]
    g = query("distance", Line((2, -7, 2), (0, 1, 0)), U, method="golden_section")
    assert g.distance == pytest.approx(math.sqrt(2), rel=1e-14)


# ----------------------------------------------------------------------------- properties


@settings(max_examples=ex(60), deadline=None)
@given(a=any_a(), box=boxes())
def test_distance_vs_oracle(a, box):
    c, R = ball(box)
    check_distance(a, box, box_np(box.min, box.max)[0], c, R)


@settings(max_examples=ex(20), deadline=None)
@given(a=linear(), box=boxes())
def test_golden_section_vs_oracle(a, box):
    c, R = ball(box)
    check_distance(a, box, box_np(box.min, box.max)[0], c, R, method="golden_section")


@settings(max_examples=ex(60), deadline=None)
@given(a=linear(), box=boxes())
def test_hits_vs_oracle_woo_and_slabs(a, box):
    c, R = ball(box)
    dist, sdf = box_np(box.min, box.max)
    w = check_hits(a, box, dist, c, R, sdf)
    s = check_hits(a, box, dist, c, R, sdf, method="slabs")
    sc = scale_of(a, box)
    if w.intersects != s.intersects:
        want, _ = oracle_min(a, dist, c, R)
        assert want <= 1e-9 * sc, (w.trace, s.trace)
    elif w.intersects:
        assert w.first_t == pytest.approx(s.first_t, abs=1e-9 * sc)
        # starting exactly on the surface is "inside" for Woo's closed origin test and an
        # "entry" at t = 0 for the slabs: both right
        def kinds(hr):
            return [("inside" if h.kind == "entry" and h.t == 0 else h.kind) for h in hr.hits]

        assert kinds(w) == kinds(s) or "rescued" in w.trace
        # every axis normal names the face the hit point lies on (at an edge either face)
        for h in w.hits + s.hits:
            if h.normal is not None:
                i = int(np.argmax(np.abs(h.normal)))
                face = box.max[i] if h.normal[i] > 0 else box.min[i]
                assert abs(h.point[i] - face) <= 1e-9 * sc, (h, w.trace, s.trace)
    assert query("intersects", a, box).intersects == w.intersects
    assert w.intersects == (query("distance", a, box).distance == 0)


@settings(max_examples=ex(40), deadline=None)
@given(a=linear(pts=ivec3), box=boxes(pts=ivec3, ext=st.integers(0, 2)))
def test_lattice_cases(a, box):
    # integer data: components along faces and edges, through corners, flat boxes
    c, R = ball(box)
    dist, sdf = box_np(box.min, box.max)
    check_hits(a, box, dist, c, R, sdf)
    check_distance(a, box, dist, c, R)


def test_evaluate_pairs_no_error():
    box = AABB((0, 0, 0), (1, 2, 0))
    for a in (Point((1, 2, 3)), Segment((0, 0, -1), (0.2, 0.2, 1)), Ray((0, 3, 0), (1, 0, 0)),
              Line((0, 0, 0), (0, 1, 1))):
        for x, y in ((a, box), (box, a)):
            r = evaluate_pair(x, y)
            err = r.get("error", "")
            assert all(f"no {q} " not in err and f"{q} failed" not in err
                       for q in MY_QUERIES), err
            assert r["distance"] is not None and r["intersects"] is not None


@settings(max_examples=ex(80), deadline=None)
@given(a=linear(pts=ivec3), box=boxes(pts=ivec3, ext=st.integers(0, 2)))
# the long fuzz's case (SEED=3 FUZZ_SCALE=10): test_a_ray_from_edge_to_edge_enters_first
@example(a=Ray((2.0, 0.0, 0.0), (-3.0625, -3.0625, 1.0)), box=AABB((0.0, -2.0, 0.0), (1.0, -1.0, 1.0)))
def test_woo_equals_slabs_exactly_in_fractions(a, box):
    # In rational arithmetic both methods are exact, so on lattice data (edges, corners, faces
    # grazed exactly, flat boxes) they must agree to the last bit: same first_t, same hit
    # parameters, and Woo never needs the rounding rescue.
    ae, be = a.as_exact(), box.as_exact()
    w = query("hits", ae, be, method="woo")
    s = query("hits", ae, be, method="slabs")
    assert "rescued" not in w.trace
    assert w.intersects == s.intersects and w.first_t == s.first_t
    assert [h.t for h in w.hits] == [h.t for h in s.hits]
    # and the float run agrees with the exact one up to rounding
    f = query("hits", a, box)
    sc = scale_of(a, box)
    if f.intersects == w.intersects and w.first_t is not None:
        assert f.first_t == pytest.approx(w.first_t, abs=1e-12 * sc)


def test_a_ray_from_edge_to_edge_enters_first():
    # The long fuzz's case (SEED=3 FUZZ_SCALE=10): O = (2, 0, 0), d = (-3.0625, -3.0625, 1)
    # (3.0625 = 49/16) against [0, 1] x [-2, -1] x [0, 1]. Exactly: x = 2 - 49/16 t is in
    # [0, 1] for t in [16/49, 32/49], y = -49/16 t in [-2, -1] for the same t, z = t in [0, 1]:
    # the ray enters through the edge x = 1, y = -1 at t = 16/49 and leaves through the edge
    # x = 0, y = -2 at 32/49, crossing the interior (the xy diagonal of the box). In floats
    # Woo's hit point on the x = 1 plane has y = -0.9999999999999999 (an ulp outside) and is
    # rejected; the 12-edge distance finds both edges at distance 0, and the rescue reported
    # the first listed, the exit: first_t 0.653 instead of 0.327. Now the first along the ray.
    a, box = Ray((2.0, 0.0, 0.0), (-3.0625, -3.0625, 1.0)), AABB((0.0, -2.0, 0.0), (1.0, -1.0, 1.0))
    # (the exact run's parameters, rounded once to floats)
    w = query("hits", a.as_exact(), box.as_exact(), method="woo")
    assert [h.t for h in w.hits] == [float(Fraction(16, 49)), float(Fraction(32, 49))]
    f = query("hits", a, box)
    assert f.intersects and f.first_t == pytest.approx(16 / 49, abs=4e-16)
    out = evaluate_pair(a, box)
    assert out["intersects"] is True and out["distance"] == 0.0
    assert out["first_t"] == pytest.approx(16 / 49, abs=4e-16)


def test_a_crossing_woo_rejects_by_an_ulp_is_the_slabs_entry_and_exit():
    # The long fuzz's second case (SEED=3): O = (2, 0, 3), d = (-49/16, -49/16, -2) against
    # [-1, 0] x [-3, -2] x [0, 2]. Exactly: x = 2 - 49/16 t is in [-1, 0] and y = -49/16 t in
    # [-3, -2] for t in [32/49, 48/49], z = 3 - 2 t in [0, 2] for t in [1/2, 3/2]: the ray
    # enters through the edge x = 0, y = -2 at t = 32/49 and leaves through x = -1, y = -3 at
    # 48/49, crossing the inside. Woo's point on x = 0 has y an ulp above -2 and is rejected;
    # the edges' distance saw only the exit at distance 0 (the entry's came out 9.9e-32), and
    # first_t was 48/49 with one hit. Now the slabs' interval (slab_crossing): both, in order.
    a, box = Ray((2.0, 0.0, 3.0), (-3.0625, -3.0625, -2.0)), AABB((-1.0, -3.0, 0.0), (0.0, -2.0, 2.0))
    entry, exit_ = float(Fraction(32, 49)), float(Fraction(48, 49))
    e = query("hits", a.as_exact(), box.as_exact())
    assert [float(h.t) for h in e.hits] == [entry, exit_]
    f = query("hits", a, box)
    assert [(h.t, h.kind) for h in f.hits] == [(entry, "entry"), (exit_, "exit")]
    assert f.first_t == entry and "rescued" in f.trace
    # the entry normal: the face x = 0 or y = -2 (through their edge): (1, 0, 0) or (0, -1, 0)
    assert f.hits[0].normal in ((1.0, 0.0, 0.0), (0.0, -1.0, 0.0))
    out = evaluate_pair(a, box)
    assert out["intersects"] is True and out["distance"] == 0.0 and out["first_t"] == entry
    # the same box as an OBB with the world's axes (its own frame: the same slabs)
    obb = OBB((-0.5, -2.5, 1.0), ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)),
              (0.5, 0.5, 1.0))
    g = query("hits", a, obb)
    assert [h.t for h in g.hits] == pytest.approx([entry, exit_], abs=4e-16)
    assert evaluate_pair(a, obb)["first_t"] == pytest.approx(entry, abs=4e-16)
