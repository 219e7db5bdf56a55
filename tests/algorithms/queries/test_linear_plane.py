"""Point, segment, ray, line vs plane (App. A.1, A.3, A.9), plus the shared test oracles.

The oracle helpers at the top (numpy distance functions written independently of
``algorithms``, dense sampling + golden refinement along a linear component, the generic hit /
distance property checks) are imported by the other ``test_linear_<shape>.py`` files.
"""

from __future__ import annotations

import math
import os
from fractions import Fraction

import numpy as np
import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Line, Plane, Point, Ray, Segment
from algorithms.report import evaluate_json as evaluate_pair
from algorithms.kernels.closest import closest_point_line2d, closest_point_plane
from algorithms.registry import methods, query

# ============================================================================ shared oracles

MY_QUERIES = ("distance", "hits", "intersects")
#: LINEAR_EXAMPLES_SCALE=20 multiplies these linear tests' example counts (on top of FUZZ_SCALE
#: under FUZZ_PROFILE=long, tests/fuzz.py)
SCALE = float(os.environ.get("LINEAR_EXAMPLES_SCALE", "1"))


def ex(n):
    """Hypothesis example count, scaled by LINEAR_EXAMPLES_SCALE and by the long fuzz mode."""
    return examples(max(1, int(n * SCALE)))


def parts(a):
    """(o, d, lo, hi) as numpy, independent of algorithms.kernels.closest.linear_parts."""
    if a.kind == "segment":
        p0 = np.array(a.p0, float)
        return p0, np.array(a.p1, float) - p0, 0.0, 1.0
    o, d = np.array(a.origin, float), np.array(a.direction, float)
    return o, d, (0.0 if a.kind == "ray" else -math.inf), math.inf


def seg_dist_np(X, p, q):
    e = q - p
    ee = e @ e
    t = np.zeros(len(X)) if ee == 0 else np.clip(((X - p) @ e) / ee, 0.0, 1.0)
    return np.linalg.norm(X - (p + t[:, None] * e), axis=1)


def scale_of(*shapes):
    vals = [1.0]
    for s in shapes:
        for v in s.to_fields().values():
            vals += [abs(x) for x in np.ravel(v)]
    return max(vals)


def bracket(a, center, radius, pad=1.0):
    """A t-interval of A that contains every minimiser of the distance to a set inside the
    ball (center, radius) -- generous: |d||t - t0| <= 2 (h + R) + pad."""
    o, d, lo, hi = parts(a)
    if lo > -math.inf and hi < math.inf:
        return lo, hi
    dd = d @ d
    t0 = d @ (np.asarray(center, float) - o) / dd
    h = np.linalg.norm(o + t0 * d - center)
    w = (2 * (h + radius) + pad) / math.sqrt(dd)
    L, H = max(lo, t0 - w), min(hi, t0 + w)
    if L > H:
        L = H = min(max(t0, lo), hi)
    return L, H


def oracle_min(a, dist_np, center, radius, n=2001):
    """Dense sampling of dist_np along A, then golden refinement around the best sample
    (the distance is convex in t). Returns (min distance, t)."""
    o, d, _, _ = parts(a)
    L, H = bracket(a, center, radius)
    ts = np.linspace(L, H, n)
    f = dist_np(o + ts[:, None] * d)
    i = int(np.argmin(f))
    best = (float(f[i]), float(ts[i]))
    lo, hi = ts[max(i - 1, 0)], ts[min(i + 1, n - 1)]
    g = (math.sqrt(5) - 1) / 2

    def F(t):
        return float(dist_np((o + t * d)[None, :])[0])

    x1, x2 = hi - g * (hi - lo), lo + g * (hi - lo)
    f1, f2 = F(x1), F(x2)
    for _ in range(90):
        if f1 <= f2:
            hi, x2, f2 = x2, x1, f1
            x1 = hi - g * (hi - lo)
            f1 = F(x1)
        else:
            lo, x1, f1 = x1, x2, f2
            x2 = lo + g * (hi - lo)
            f2 = F(x2)
    for t in (x1, x2):
        v = F(t)
        if v < best[0]:
            best = (v, t)
    return best


#: the largest |distance - oracle| / scale seen by check_distance (reported by the tests)
MEASURED = {"distance": 0.0, "cases": 0}


def check_distance(a, b, dist_np, center, radius, method=None, tol=1e-9):
    """The distance query against the dense-sampling oracle, closest points on A and in B,
    and swap symmetry through the registry."""
    r = query("distance", a, b, method=method)
    sc = scale_of(a, b)
    pa, pb = np.array(r.closest[0], float), np.array(r.closest[1], float)
    assert r.distance >= 0
    assert abs(np.linalg.norm(pa - pb) - r.distance) <= 1e-12 * sc
    assert abs(r.sqr_distance - r.distance ** 2) <= 1e-9 * sc * sc
    # closest[1] lies in B, closest[0] on A at parameter t
    assert dist_np(pb[None, :])[0] <= 1e-9 * sc
    if a.kind != "point":
        o, d, lo, hi = parts(a)
        t = r.parameter[0]
        assert lo <= t <= hi
        assert np.linalg.norm(o + t * d - pa) <= 1e-9 * sc
        want, _ = oracle_min(a, dist_np, center, radius)
    else:
        assert np.allclose(pa, a.position)
        want = float(dist_np(np.array([a.position], float))[0])
    err = abs(r.distance - want)
    MEASURED["distance"] = max(MEASURED["distance"], err / sc)
    MEASURED["cases"] += 1
    key = f"{a.kind}-{b.kind} {method or 'default'}"
    n, worst = MEASURED.setdefault("by pair", {}).get(key, (0, 0.0))
    MEASURED["by pair"][key] = (n + 1, max(worst, err / sc))
    assert err <= tol * sc, (r.distance, want, r.trace)
    # the oracle's refinement is only as good as the sampling: never beat the true minimum
    assert r.distance <= want + tol * sc
    # swap symmetry
    s = query("distance", b, a, method=method)
    assert s.distance == pytest.approx(r.distance, abs=1e-12 * sc)
    assert np.allclose(s.closest[0], r.closest[1], atol=1e-12 * sc)
    assert np.allclose(s.closest[1], r.closest[0], atol=1e-12 * sc)
    assert s.parameter == (r.parameter[1], r.parameter[0])
    return r


def check_hits(a, b, dist_np, center, radius, sdf_np=None, method=None, **kw):
    """Hit points lie on B's surface, the part of A before first_t is outside B (dense
    sampling), a miss has a positive oracle distance, and intersects agrees with distance."""
    hr = query("hits", a, b, method=method, **kw)
    sc = scale_of(a, b)
    o, d, lo, hi = parts(a)
    ts = [h.t for h in hr.hits]
    assert ts == sorted(ts)
    for h in hr.hits:
        assert lo <= h.t <= hi
        x = np.array(h.point, float)
        assert np.linalg.norm(o + h.t * d - x) <= 1e-9 * sc
        assert dist_np(x[None, :])[0] <= 1e-8 * sc, (h, hr.trace)
        if sdf_np is not None and h.kind in ("entry", "exit", "hit"):
            assert abs(sdf_np(x[None, :])[0]) <= 1e-8 * sc, (h, hr.trace)
        if h.normal is not None:
            assert abs(np.linalg.norm(h.normal) - 1) <= 1e-9
    if hr.first_t is not None:
        assert hr.intersects
        t1 = hr.first_t
        x = o + t1 * d
        assert dist_np(x[None, :])[0] <= 1e-8 * sc
        L, _ = bracket(a, center, radius)
        L = min(L, t1)
        delta = 1e-6 * (1 + abs(t1))
        if t1 - delta > L:
            tt = np.linspace(L, t1 - delta, 2001)
            before = dist_np(o + tt[:, None] * d)
            assert before.min() > 0, (t1, tt[np.argmin(before)], hr.trace)
    elif not hr.intersects and method is None:
        # (a second method is compared with the default by the agreement tests instead)
        # a miss: the oracle's minimum distance is positive and matches the distance query
        # (which, for a component the cast missed, minimises without the cast), and no sample
        # lies deep inside a solid
        want, t = oracle_min(a, dist_np, center, radius)
        r = query("distance", a, b)
        # (the oracle may round a graze through an edge to 0: then the distance is tiny too;
        # a missed crossing of the face would leave the ends/edges distance far from 0)
        assert r.distance > 0, (want, t, hr.trace)
        assert abs(r.distance - want) <= 1e-9 * sc, (r.distance, want, hr.trace)
        if sdf_np is not None:
            L, H = bracket(a, center, radius)
            tt = np.linspace(L, H, 2001)
            assert sdf_np(o + tt[:, None] * d).min() > -1e-9 * sc
    return hr


# ============================================================================ strategies

# six decimals: no subnormals or 1e-300 components, whose oracle answers round to nonsense
coord = st.floats(-4, 4, allow_nan=False, allow_infinity=False).map(lambda x: round(x, 6))
vec3 = st.tuples(coord, coord, coord)
small_int = st.integers(-3, 3)
ivec3 = st.tuples(small_int, small_int, small_int)  # lattice points: exact touching cases
direction = vec3.filter(lambda v: math.sqrt(sum(c * c for c in v)) > 1e-2)


@st.composite
def linear(draw, kinds=("segment", "ray", "line"), pts=vec3):
    kind = draw(st.sampled_from(kinds))
    p = draw(pts)
    if kind == "segment":
        return Segment(p, draw(pts))
    return (Ray if kind == "ray" else Line)(p, draw(direction))


@st.composite
def any_a(draw, pts=vec3):
    if draw(st.integers(0, 3)) == 0:
        return Point(draw(pts))
    return draw(linear(pts=pts))


# ============================================================================ plane oracles


def plane_np(pl):
    n = np.array(pl.normal, float)
    ln = np.linalg.norm(n)
    return lambda X: np.abs(X @ n - pl.d) / ln


def plane_ball(pl, a):
    """A finite stand-in 'bounding ball' for the (unbounded) plane, so the oracle's bracket
    holds the minimiser: around the projection of A's point nearest the plane (its crossing
    clamped to the domain, or its origin when parallel)."""
    n = np.array(pl.normal, float)
    if a.kind == "point":
        o = np.array(a.position, float)
    else:
        o, d, lo, hi = parts(a)
        # d . n in exact rational arithmetic: numpy's dot may fuse a multiply-add and leave
        # a rounding residue for an exactly parallel component (the ray (0, 0, 1) +
        # t (0, -0.554688, -0.554688) against n = (0, 3, -3): -3a + 3a = 0 exactly, numpy
        # gave 4e-17), which put the bracket at t ~ 2.7e16, where the sampled points round
        # onto the plane and the oracle's distance became 0
        dn = float(sum(Fraction(x) * Fraction(y) for x, y in zip(d.tolist(), n.tolist())))
        if dn != 0:
            t = min(max((pl.d - o @ n) / dn, lo), hi)
            if math.isfinite(t):
                o = o + t * d
    c = o - (o @ n - pl.d) / (n @ n) * n
    return c, 10.0


planes = st.builds(Plane, direction, coord)

# ============================================================================ hand cases

Z2 = Plane((0, 0, 1), 2)  # the plane z = 2, front side z > 2


def test_a1_closest_point_on_2d_implicit_line():
    # line y = 1 written with a non-unit normal (0, 2) . p = 2; q = (3, 5) drops to (3, 1),
    # signed distance +4 (q is on the side n points to)
    assert closest_point_line2d((3.0, 5.0), (0.0, 2.0), 2.0) == ((3.0, 1.0), 4.0)
    # x + y = 2 (n = (1,1), d = 2): q = (0, 0) -> q' = (1, 1), signed distance -sqrt(2)
    qp, s = closest_point_line2d((0.0, 0.0), (1.0, 1.0), 2.0)
    assert qp == (1.0, 1.0) and s == pytest.approx(-math.sqrt(2))
    with pytest.raises(ValueError):
        closest_point_line2d((0.0, 0.0), (0.0, 0.0), 1.0)


def test_a3_point_plane_hand():
    # (1,2,3) above z = 2 by 1: closest (1,2,2). Non-unit normal (0,0,2), d = 4 is the same plane.
    for pl in (Z2, Plane((0, 0, 2), 4)):
        r = query("distance", Point((1, 2, 3)), pl)
        assert r.distance == 1 and r.closest == ((1.0, 2.0, 3.0), (1.0, 2.0, 2.0))
    # on the plane: distance 0 exactly, the point itself
    r = query("distance", Point((7, -1, 2)), Z2)
    assert r.distance == 0 and r.closest[0] == r.closest[1] == (7.0, -1.0, 2.0)
    assert query("intersects", Point((7, -1, 2)), Z2).intersects
    assert not query("intersects", Point((7, -1, 2.5)), Z2).intersects


def test_a3_exact_in_fractions():
    # Same code on Fractions: q' = q + (d - q.n) n / (n.n) satisfies n.q' = d exactly.
    pl = Plane((1, 2, 3), Fraction(1, 3), exact=True)
    q = (Fraction(1, 7), Fraction(-2), Fraction(5, 11))
    qp = closest_point_plane(q, pl)
    assert sum(a * b for a, b in zip(pl.normal, qp)) == Fraction(1, 3)
    # and q - q' is parallel to n: cross product zero
    v = [a - b for a, b in zip(q, qp)]
    n = pl.normal
    assert (v[1] * n[2] - v[2] * n[1], v[2] * n[0] - v[0] * n[2]) == (0, 0)


def test_a9_ray_plane_hand():
    # t = (d - p0.n)/(d.n) = (2 - 5)/(-1) = 3; with n = (0,0,2), d = 4: (4 - 10)/(-2) = 3
    for pl in (Z2, Plane((0, 0, 2), 4)):
        hr = query("hits", Ray((0, 0, 5), (0, 0, -1)), pl)
        assert hr.first_t == 3 and hr.hits[0].point == (0.0, 0.0, 2.0)
        assert hr.hits[0].normal == (0.0, 0.0, 1.0)  # approached from the front
        assert hr.trace["d.n"] < 0 and hr.trace["t"] == 3
    # pointing away: t = -3 < 0 -> miss for a ray, hit at -3 for the line
    assert query("hits", Ray((0, 0, 5), (0, 0, 1)), Z2).first_t is None
    assert query("hits", Line((0, 0, 5), (0, 0, 1)), Z2).first_t == -3
    # from behind (z = 0 going up): d.n = 1 > 0, t = 2, normal faces the back side
    hr = query("hits", Ray((0, 0, 0), (0, 0, 1)), Z2)
    assert hr.first_t == 2 and hr.hits[0].normal == (0.0, 0.0, -1.0)
    # A.9's front-face-only option rejects it
    assert query("hits", Ray((0, 0, 0), (0, 0, 1)), Z2, front_only=True).first_t is None
    # segment z 5 -> 3: t would be 3/2 > 1, miss; distance 1 at p1
    s = Segment((0, 0, 5), (0, 0, 3))
    assert query("hits", s, Z2).first_t is None
    r = query("distance", s, Z2)
    assert r.distance == 1 and r.parameter == (1.0, None) and r.closest[1] == (0.0, 0.0, 2.0)
    # segment ending exactly on the plane: t = 1
    assert query("hits", Segment((0, 0, 5), (0, 0, 2)), Z2).first_t == 1


def test_parallel_and_in_plane():
    # parallel, 3 above: miss, distance 3 at the origin (t = 0)
    for a in (Ray((0, 0, 5), (1, 0, 0)), Line((0, 0, 5), (1, 1, 0))):
        assert query("hits", a, Z2).first_t is None
        r = query("distance", a, Z2)
        assert r.distance == 3 and r.parameter[0] == 0
    # lying in the plane: overlap over the whole domain; first_t 0, for a line None (scene-v1:
    # unbounded below) but intersects and distance 0
    hr = query("hits", Segment((0, 0, 2), (1, 0, 2)), Z2)
    assert hr.first_t == 0 and [h.kind for h in hr.hits] == ["overlap", "overlap"]
    assert [h.t for h in hr.hits] == [0.0, 1.0]
    assert query("hits", Ray((0, 0, 2), (1, 0, 0)), Z2).first_t == 0
    hr = query("hits", Line((0, 0, 2), (1, 0, 0)), Z2)
    assert hr.first_t is None and hr.intersects
    assert query("distance", Line((0, 0, 2), (1, 0, 0)), Z2).distance == 0
    r = evaluate_pair(Line((0, 0, 2), (1, 0, 0)), Z2)
    assert r["intersects"] is True and r["first_t"] is None and r["distance"] == 0


def test_zero_length_segment():
    # a point-segment on the plane touches at t = 0; off it, its distance is the point's
    hr = query("hits", Segment((1, 1, 2), (1, 1, 2)), Z2)
    assert hr.first_t == 0 and len(hr.hits) == 1
    assert query("hits", Segment((1, 1, 3), (1, 1, 3)), Z2).first_t is None
    assert query("distance", Segment((1, 1, 3), (1, 1, 3)), Z2).distance == 1


# ============================================================================ properties


@settings(max_examples=ex(100), deadline=None)
@given(a=any_a(), pl=planes)
def test_distance_vs_oracle(a, pl):
    c, R = plane_ball(pl, a)
    check_distance(a, pl, plane_np(pl), c, R)


@settings(max_examples=ex(100), deadline=None)
@given(a=linear(), pl=planes)
def test_hits_vs_oracle(a, pl):
    c, R = plane_ball(pl, a)
    hr = check_hits(a, pl, plane_np(pl), c, R)
    r = query("distance", a, pl)
    assert hr.intersects == (r.distance == 0)
    assert query("intersects", a, pl).intersects == hr.intersects


@settings(max_examples=ex(53), deadline=None)
@given(a=linear(pts=ivec3), n=ivec3.filter(any), d=small_int)
# the seed that failed in the oracle (issue 15): a ray exactly parallel to the plane
@example(a=Ray((0, 0, 1), (0, -0.554688, -0.554688)), n=(0, 3, -3), d=0)
def test_lattice_cases_touching(a, n, d):
    # integer data: in-plane components and exact touching at segment ends happen often
    pl = Plane(n, d)
    c, R = plane_ball(pl, a)
    check_hits(a, pl, plane_np(pl), c, R)
    check_distance(a, pl, plane_np(pl), c, R)


def test_evaluate_pairs_no_error():
    pl = Plane((0, 0.3, 1), 0.5)
    for a in (Point((1, 2, 3)), Segment((0, 0, 0), (1, 1, 1)), Ray((0, 0, 0), (1, 0, 0)),
              Line((0, 0, 0), (0, 1, 1))):
        for x, y in ((a, pl), (pl, a)):
            r = evaluate_pair(x, y)
            err = r.get("error", "")
            assert all(f"no {q} " not in err and f"{q} failed" not in err
                       for q in MY_QUERIES), err
            assert r["distance"] is not None
            if a.kind != "point" and x is a:
                assert "hits" in r["trace"]


def test_registered_methods():
    for k in ("segment", "ray", "line"):
        assert methods("hits", k, "plane") and methods("distance", k, "plane")
    assert "side" not in [q for q in MY_QUERIES]


def test_a_direction_exactly_parallel_to_the_plane_is_parallel_after_rounding():
    # d = (x, x, x) with x = -0.554688 and n = (-1, 3, -2): d.n = x (-1 + 3 - 2) = 0 exactly,
    # but the plain float sum of the three products rounds to 2.2e-16, which put a "hit" at
    # t = 9e15 (hypothesis found it). Correctly rounded, d.n == 0: parallel, no hit; the ray's
    # origin (0, 0, 1) has n.o - d = -2, so the distance is 2 / sqrt(14) at every t
    x = -0.554688
    r = Ray((0.0, 0.0, 1.0), (x, x, x))
    p = Plane((-1.0, 3.0, -2.0), 0.0)
    h = query("hits", r, p)
    assert h.trace["d.n"] == 0.0 and h.trace["parallel"] is True
    assert not h.intersects and h.hits == () and h.first_t is None
    assert query("distance", r, p).distance == pytest.approx(2 / 14 ** 0.5, rel=1e-15)
