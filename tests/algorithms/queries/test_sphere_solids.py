"""Sphere vs sphere, AABB, OBB, triangle: distance, intersects (Arvo + hollow), separating axis.

Oracles: hand-derived values; exact Fractions at tangency; dense sampling of the box / box
surface for Arvo's hollow variants; random points of the other shape (none closer than the
returned closest point); the GJK distance and the support intervals for the property tests;
swapped arguments through the registry.
"""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, OBB, Sphere, Triangle, registry
from algorithms.core import vec as V
from algorithms.kernels.gjk import gjk_distance
from algorithms.kernels.support import support_interval
from tests.algorithms.queries.test_sat import quat_rotation

I3 = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
Q = lambda *a, **k: registry.query(*a, **k)  # noqa: E731


# ----------------------------------------------------------------------------- sphere-sphere


def test_sphere_sphere_hand():
    # centres 5 apart on x, radii 1 and 2: distance 5 - 3 = 2, closest (1,0,0) and (3,0,0)
    a, b = Sphere((0, 0, 0), 1), Sphere((5, 0, 0), 2)
    r = Q("distance", a, b)
    assert r.distance == 2.0 and r.closest == ((1.0, 0.0, 0.0), (3.0, 0.0, 0.0))
    s = Q("separating_axis", a, b)
    assert s.axis == (1.0, 0.0, 0.0) and s.intervals == ((-1.0, 1.0), (3.0, 7.0))
    assert s.trace["axes"][0]["margin"] == 2.0
    assert not Q("intersects", a, b).intersects
    # touching at distance 3: intersects, distance 0, common point (1, 0, 0)
    b = Sphere((3, 0, 0), 2)
    r = Q("distance", a, b)
    assert r.distance == 0 and r.closest[0] == r.closest[1] == (1.0, 0.0, 0.0)
    assert Q("intersects", a, b).intersects and Q("separating_axis", a, b).intersects
    # overlapping (centres 2 apart): common part of the diameters along x is [1, 1]... here
    # [max(-1, 2-2), min(1, 2+2)] = [0, 1], middle 0.5
    r = Q("distance", a, Sphere((2, 0, 0), 2))
    assert r.closest[0] == (0.5, 0.0, 0.0)
    # the centre line is still traced when they overlap: margin 2 - 3 = -1, not separating
    s = Q("separating_axis", a, Sphere((2, 0, 0), 2))
    assert s.intersects and s.axis is None and s.trace["chosen"] is None
    assert [(e["name"], e["margin"], e["separating"]) for e in s.trace["axes"]] == [
        ("centre line", -1.0, False)]
    # concentric, and zero radii
    assert Q("distance", a, Sphere((0, 0, 0), 3)).closest[0] == (0.0, 0.0, 0.0)
    r = Q("distance", Sphere((0, 0, 0), 0), Sphere((0, 3, 4), 0))
    assert r.distance == 5.0


def test_sphere_sphere_exact_tangency():
    # r1 = 1/3, r2 = 2/3, centres (3/5, 4/5, 0) apart: |d| = 1 = r1 + r2 exactly
    a = Sphere((0, 0, 0), F(1, 3), exact=True)
    b = Sphere((F(3, 5), F(4, 5), 0), F(2, 3), exact=True)
    assert Q("intersects", a, b).intersects
    assert Q("distance", a, b).sqr_distance == 0
    b = Sphere((F(3, 5), F(4, 5), 0), F(2, 3) - F(1, 10 ** 30), exact=True)
    assert not Q("intersects", a, b).intersects
    assert not Q("separating_axis", a, b).intersects


# ----------------------------------------------------------------------------- sphere-box


def test_sphere_aabb_arvo_terms():
    # C = (3, 0.5, -2) against [0,1]^3: x above max -> (3-1)^2 = 4; y inside -> 0;
    # z below min -> (-2-0)^2 = 4; dist^2 = 8, closest point (1, 0.5, 0).
    box = AABB((0, 0, 0), (1, 1, 1))
    r = Q("distance", Sphere((3, 0.5, -2), 2), box)
    terms = [p["term"] for p in r.trace["per_axis"]]
    assert terms == [4.0, 0.0, 4.0] and r.trace["dist_squared"] == 8.0
    assert r.closest[1] == (1.0, 0.5, 0.0)
    assert r.distance == pytest.approx(math.sqrt(8) - 2)
    # r = sqrt(8) exactly is tangency: Fractions can't hold sqrt(8); use C = (3, 0.5, 0.5)
    # -> dist^2 = 4 and r = 2: touching, distance 0, common point (1, 0.5, 0.5)
    ex = AABB((0, 0, 0), (1, 1, 1), exact=True)
    s = Sphere((3, F(1, 2), F(1, 2)), 2, exact=True)
    assert Q("intersects", s, ex).intersects
    r = Q("distance", s, ex)
    assert r.sqr_distance == 0 and r.closest[0] == (1, F(1, 2), F(1, 2))
    assert Q("separating_axis", s, ex).intersects
    # centre inside the box: distance 0, closest = centre; no closest-point direction to trace
    r = Q("distance", Sphere((0.5, 0.5, 0.5), 0.1), box)
    assert r.distance == 0 and r.closest[0] == (0.5, 0.5, 0.5)
    s = Q("separating_axis", Sphere((0.5, 0.5, 0.5), 0.1), box)
    assert s.intersects and s.trace["axes"] == []


def test_sphere_obb_in_box_frame():
    # the box [-1,1]x[-2,2]x[-1,1] turned by (3/5, 4/5) about z and moved to (1,1,1); the
    # sphere centre is given in the box frame as (4, 3, 0) -> world (1,1,1) + 4 a0 + 3 a1.
    # In the box frame: x above 1 -> 9, y above 2 -> 1, z inside: dist^2 = 10, distance
    # sqrt(10) - r.
    c, s = F(3, 5), F(4, 5)
    axes = ((c, s, 0), (-s, c, 0), (0, 0, 1))
    box = OBB((1, 1, 1), axes, (1, 2, 1), exact=True)
    C = tuple(1 + 4 * a + 3 * b for a, b in zip(axes[0], axes[1]))
    sph = Sphere(C, F(1, 2), exact=True)
    r = Q("distance", sph, box)
    assert r.trace["dist_squared"] == 10 and r.trace["local_center"] == (4, 3, 0)
    assert r.distance == pytest.approx(math.sqrt(10) - 0.5)
    # closest point: box frame (1, 2, 0) -> world
    assert r.closest[1] == tuple(1 + a + 2 * b for a, b in zip(axes[0], axes[1]))
    sep = Q("separating_axis", sph, box)
    assert not sep.intersects
    assert sep.trace["axes"][0]["margin"] == pytest.approx(math.sqrt(10) - 0.5)
    # radius sqrt(10) (not rational) is tangency; use r^2 >= 10 exactly -> r = 4 intersects
    assert Q("intersects", Sphere(C, 4, exact=True), box).intersects


def _dist_range_box_surface(C, box_min, box_max, n=41):
    """(min, max) distance from C to a dense grid on the box surface (sampling oracle)."""
    lo, hi = np.asarray(box_min, float), np.asarray(box_max, float)
    g = np.linspace(0, 1, n)
    pts = []
    for k in range(3):
        i, j = [m for m in range(3) if m != k]
        U, W = np.meshgrid(g, g)
        for side in (lo[k], hi[k]):
            P = np.zeros((U.size, 3))
            P[:, k] = side
            P[:, i] = lo[i] + U.ravel() * (hi[i] - lo[i])
            P[:, j] = lo[j] + W.ravel() * (hi[j] - lo[j])
            pts.append(P)
    d = np.linalg.norm(np.vstack(pts) - np.asarray(C), axis=1)
    return d.min(), d.max()


def test_arvo_hollow_hand_cases():
    box = AABB((0, 0, 0), (2, 2, 2))
    # small sphere strictly inside: solid yes; box surface no; sphere surface (inside the
    # solid box) yes; both hollow no
    s = Sphere((1, 1, 1), 0.5)
    got = [Q("intersects", s, box, hollow_sphere=hs, hollow_box=hb).intersects
           for hs, hb in ((False, False), (False, True), (True, False), (True, True))]
    assert got == [True, False, True, False]
    # huge sphere around the box (r^2 = 100 > dmax = 3): solid yes; box surface inside the
    # solid sphere yes; sphere surface misses the box; both hollow no
    s = Sphere((1, 1, 1), 10)
    got = [Q("intersects", s, box, hollow_sphere=hs, hollow_box=hb).intersects
           for hs, hb in ((False, False), (False, True), (True, False), (True, True))]
    assert got == [True, True, False, False]
    # sphere reaching one face from inside (centre (1,1,1.6), r 0.5 reaches z = 2): all true
    s = Sphere((1, 1, 1.6), 0.5)
    assert all(Q("intersects", s, box, hollow_sphere=hs, hollow_box=hb).intersects
               for hs in (False, True) for hb in (False, True))
    # swapped order passes the keyword through the registry flip
    assert not Q("intersects", box, Sphere((1, 1, 1), 0.5), hollow_box=True).intersects
    # the OBB version agrees with the AABB one for an axis-aligned OBB
    ob = OBB((1, 1, 1), I3, (1, 1, 1))
    assert not Q("intersects", Sphere((1, 1, 1), 0.5), ob, hollow_box=True).intersects


@pytest.mark.parametrize("seed", range(3))
def test_arvo_hollow_against_surface_sampling(seed):
    """Hollow variants vs dense sampling of the box surface and of the solid box."""
    rng = np.random.default_rng(seed)
    checked = 0
    for _ in range(60):
        c = rng.uniform(-1, 1, 3)
        e = rng.uniform(0.1, 1, 3)
        box = AABB(c - e, c + e)
        C = rng.uniform(-2, 2, 3)
        r = rng.uniform(0, 2.5)
        smin, smax = _dist_range_box_surface(C, box.min, box.max)
        inside = bool(np.all(np.abs(C - c) <= e))
        solid_min = 0.0 if inside else smin
        smin, smax = float(smin), float(smax)
        margin = 0.06  # grid spacing ~ 2/40 of the box size
        if min(abs(r - smin), abs(r - smax), abs(r - solid_min)) < margin:
            continue
        expect = {
            (False, False): r >= solid_min,
            (True, False): solid_min <= r <= smax,   # sphere surface meets the solid box
            (False, True): r >= smin,                # solid ball reaches the box surface
            (True, True): smin <= r <= smax,         # sphere surface meets box surface
        }
        for (hs, hb), want in expect.items():
            got = Q("intersects", Sphere(C, r), box, hollow_sphere=hs, hollow_box=hb)
            assert got.intersects is bool(want), (hs, hb, C, r, box)
        checked += 1
    assert checked > 30


# ----------------------------------------------------------------------------- sphere-triangle


def test_sphere_triangle_hand():
    tri = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)))
    # above the face: distance 2 - 1 = 1, closest (0.25, 0.25, 1) and (0.25, 0.25, 0)
    r = Q("distance", Sphere((0.25, 0.25, 2), 1), tri)
    assert r.distance == 1.0 and r.trace["region"] == "face"
    assert r.closest == ((0.25, 0.25, 1.0), (0.25, 0.25, 0.0))
    s = Q("separating_axis", Sphere((0.25, 0.25, 2), 1), tri)
    assert s.axis == (0.0, 0.0, -1.0) and s.trace["axes"][0]["margin"] == 1.0
    # beyond the hypotenuse in-plane: centre (1, 1, 0) is 1/sqrt(2) from (0.5, 0.5, 0)
    r = Q("distance", Sphere((1, 1, 0), 0.5), tri)
    assert r.closest[1] == (0.5, 0.5, 0.0) and r.distance == pytest.approx(math.sqrt(0.5) - 0.5)
    # exact tangency with a Fraction radius: centre (1/4, 1/4, 3/4), r = 3/4 touches the face
    e = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)), exact=True)
    assert Q("separating_axis", Sphere((F(1, 4), F(1, 4), F(3, 4)), F(3, 4), exact=True),
             e).intersects
    assert not Q("separating_axis", Sphere((F(1, 4), F(1, 4), F(3, 4)),
                                           F(3, 4) - F(1, 10 ** 20), exact=True), e).intersects
    # collinear triangle (a segment from (0,0,0) to (2,0,0)): distance from (1, 3, 0) is 3 - r
    col = Triangle(((0, 0, 0), (1, 0, 0), (2, 0, 0)))
    r = Q("distance", Sphere((1, 3, 0), 1), col)
    assert r.distance == 2.0 and r.closest[1] == (1.0, 0.0, 0.0)


# ----------------------------------------------------------------------------- properties


def rand_rotation(rng):
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


def rand_other(kind, rng):
    c = rng.uniform(-1.5, 1.5, 3)
    if kind == "sphere":
        return Sphere(c, rng.uniform(0, 1) * (rng.random() > 0.1))
    if kind in ("aabb", "obb"):
        e = rng.uniform(0, 1.2, 3)
        e[rng.random(3) < 0.15] = 0
        return AABB(c - e, c + e) if kind == "aabb" else OBB(c, rand_rotation(rng), e)
    v = c + rng.uniform(-1.2, 1.2, (3, 3))
    if rng.random() < 0.15:
        v[2] = (v[0] + v[1]) / 2  # collinear
    return Triangle(v)


def contains(shape, p, tol=1e-9):
    p = np.asarray(p, float)
    if shape.kind == "sphere":
        return np.linalg.norm(p - np.asarray(shape.center)) <= shape.radius + tol
    if shape.kind == "aabb":
        return bool(np.all(p >= np.asarray(shape.min) - tol) and np.all(p <= np.asarray(shape.max) + tol))
    if shape.kind == "obb":
        u = np.asarray(shape.axes) @ (p - np.asarray(shape.center))
        return bool(np.all(np.abs(u) <= np.asarray(shape.extents) + tol))
    # triangle: distance to it via gjk of a point-sphere
    return gjk_distance(Sphere(p, 0), shape).distance <= tol


def random_points(shape, rng, n=200):
    if shape.kind == "aabb":
        return rng.uniform(shape.min, shape.max, (n, 3))
    if shape.kind == "obb":
        u = rng.uniform(-1, 1, (n, 3)) * np.asarray(shape.extents)
        return np.asarray(shape.center) + u @ np.asarray(shape.axes)
    if shape.kind == "triangle":
        w = rng.dirichlet((1, 1, 1), n)
        return w @ np.asarray(shape.vertices)
    d = rng.normal(size=(n, 3))
    d /= np.linalg.norm(d, axis=1)[:, None]
    return np.asarray(shape.center) + d * shape.radius * rng.random((n, 1)) ** (1 / 3)


@pytest.mark.parametrize("kind", ["sphere", "aabb", "obb", "triangle"])
def test_sphere_pairs_against_gjk_sampling_and_swap(kind):
    rng = np.random.default_rng(["sphere", "aabb", "obb", "triangle"].index(kind) + 11)
    n_sep = n_int = 0
    worst = 0.0
    for _ in range(120):
        s = Sphere(rng.uniform(-2, 2, 3), rng.uniform(0, 1.2) * (rng.random() > 0.1))
        b = rand_other(kind, rng)
        d = Q("distance", s, b)
        g = gjk_distance(s, b).distance
        worst = max(worst, abs(d.distance - g))
        assert d.distance == pytest.approx(g, abs=1e-9)
        pa, pb = np.asarray(d.closest[0], float), np.asarray(d.closest[1], float)
        assert contains(s, pa) and contains(b, pb)
        assert np.linalg.norm(pa - pb) == pytest.approx(d.distance, abs=1e-9)
        # sampling: no point of B is nearer the sphere's centre than the closest point
        C = np.asarray(s.center)
        dq = np.linalg.norm(pb - C)
        if d.distance > 0:
            assert np.min(np.linalg.norm(random_points(b, rng) - C, axis=1)) >= dq - 1e-9
        sep = Q("separating_axis", s, b)
        assert sep.intersects is (d.distance == 0)
        if registry.has_query("intersects", "sphere", kind, specific=True):
            assert Q("intersects", s, b).intersects is sep.intersects
        if not sep.intersects:
            n_sep += 1
            u = np.asarray(sep.axis)
            ia, ib = support_interval(s, u), support_interval(b, u)
            assert sep.intervals[0] == pytest.approx(ia, abs=1e-9)
            assert sep.intervals[1] == pytest.approx(ib, abs=1e-9)
            assert ib[0] - ia[1] == pytest.approx(d.distance, abs=1e-9)  # closest direction
            e = sep.trace["axes"][0]
            assert e["margin"] == pytest.approx(d.distance, abs=1e-9)
        else:
            n_int += 1
        # swapped through the registry
        f = Q("distance", b, s)
        if kind == "sphere":  # same kind: computed with the roles exchanged (rounding differs)
            assert f.distance == pytest.approx(d.distance, abs=1e-12)
            assert np.allclose(f.closest, (d.closest[1], d.closest[0]), atol=1e-12)
        else:  # the flipped registration: identical numbers
            assert f.distance == d.distance and f.closest == (d.closest[1], d.closest[0])
        fs = Q("separating_axis", b, s)
        assert fs.intersects is sep.intersects
        if not sep.intersects and kind != "sphere":  # same kind: roles exchanged, no flip
            assert fs.intervals == (sep.intervals[1], sep.intervals[0])
            assert fs.axis == sep.axis and fs.trace["swapped"]
    assert n_sep > 10 and n_int >= 5
    assert worst < 1e-9


# ----------------------------------------------------------------------------- exact certificates
# The closest point Q of a convex polytope to C is certified exactly by the variational
# inequality: Q in the polytope and (C - Q) . (X - Q) <= 0 for every vertex X (the polytope is
# the hull of its vertices). With rational rotations everything is a Fraction.

rat = st.fractions(min_value=-3, max_value=3, max_denominator=6)
rad = st.fractions(min_value=0, max_value=3, max_denominator=6)
quat = st.tuples(*[st.integers(-3, 3)] * 4).filter(any)


@settings(max_examples=examples(80), deadline=None)
@given(st.tuples(rat, rat, rat), rad, quat, st.tuples(rat, rat, rat),
       st.tuples(*[st.fractions(min_value=0, max_value=2, max_denominator=4)] * 3))
def test_exact_sphere_obb_certificate(c, r, q, center, ext):
    box = OBB(center, quat_rotation(*q), ext, exact=True)
    s = Sphere(c, r, exact=True)
    d = Q("distance", s, box)
    Qp = d.closest[1]
    assert all(isinstance(x, F) for x in Qp)
    u = [V.dot(a, V.sub(Qp, box.center)) for a in box.axes]
    assert all(abs(ui) <= e for ui, e in zip(u, box.extents))          # Q in the box
    verts = [V.add(box.center, V.add(V.scale(sx * box.extents[0], box.axes[0]),
                                     V.add(V.scale(sy * box.extents[1], box.axes[1]),
                                           V.scale(sz * box.extents[2], box.axes[2]))))
             for sx, sy, sz in itertools.product((-1, 1), repeat=3)]
    g = V.sub(s.center, Qp)
    assert all(V.dot(g, V.sub(X, Qp)) <= 0 for X in verts)              # Q is the closest
    inter = V.sqr_norm(g) <= r * r
    assert Q("intersects", s, box).intersects is inter
    assert Q("separating_axis", s, box).intersects is inter
    assert (d.sqr_distance == 0) is inter


@settings(max_examples=examples(80), deadline=None)
@given(st.tuples(rat, rat, rat), rad,
       st.tuples(*[st.tuples(rat, rat, rat)] * 3))
def test_exact_sphere_triangle_certificate(c, r, verts):
    tri = Triangle(verts, exact=True)
    s = Sphere(c, r, exact=True)
    d = Q("distance", s, tri)
    Qp = d.closest[1]
    b = d.parameter[1]                                                  # barycentrics
    assert all(x >= 0 for x in b) and sum(b) == 1
    assert tuple(sum(bi * v[k] for bi, v in zip(b, tri.vertices)) for k in range(3)) == Qp
    g = V.sub(s.center, Qp)
    assert all(V.dot(g, V.sub(X, Qp)) <= 0 for X in tri.vertices)
    inter = V.sqr_norm(g) <= r * r
    assert Q("separating_axis", s, tri).intersects is inter
    assert (d.sqr_distance == 0) is inter


def test_sphere_cylinder_by_the_closest_point_of_the_cylinder():
    from algorithms.primitives import Cylinder
    from algorithms.registry import query

    cyl = Cylinder((0, 0, 0), (0, 0, 2), 1, 2)  # radius 1, caps at z = -1 and z = 1
    # beside the wall: centre (3, 0, 0) is 3 from the axis, the wall at 1, radius 0.5: 1.5
    r = query("distance", Sphere((3, 0, 0), 0.5), cyl)
    assert r.distance == pytest.approx(1.5) and r.closest == ((2.5, 0, 0), (1.0, 0.0, 0.0))
    # above the rim: centre (2, 0, 3), rim point (1, 0, 1) at sqrt(1 + 4); minus 0.5
    r = query("distance", cyl, Sphere((2, 0, 3), 0.5))
    assert r.distance == pytest.approx(5 ** 0.5 - 0.5)
    assert r.closest[0] == pytest.approx((1, 0, 1))
    # overlapping the cap: centre (0.3, 0, 1.2) is 0.2 above the cap, radius 0.25: the common
    # point is the centre's projection on the cap, (0.3, 0, 1)
    r = query("distance", Sphere((0.3, 0, 1.2), 0.25), cyl)
    assert r.distance == 0 and r.closest[0] == r.closest[1] == pytest.approx((0.3, 0, 1))
    assert "cylinder" in r.method and "GJK" not in r.method
