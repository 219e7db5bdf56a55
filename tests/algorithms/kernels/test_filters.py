"""The filters in front of the careful kernels (algorithms.kernels.filters) never change an
answer: hits with and without them are identical records, and the st-plane fast path takes
the same decisions (region, edge, touching) with values equal up to rounding. The oracle is
the careful path itself (:func:`careful_only`), which the other tests check against Fractions.
"""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, Line, Ray, Segment, Triangle, query
from algorithms.kernels import stplane
from algorithms.kernels.filters import (
    careful_only,
    segment_clearly_misses_box,
    triangle_clearly_misses,
    triangle_miss_bound,
)

# coordinates on a coarse grid (touching, grazing and parallel cases are common) or anywhere
coord = st.one_of(st.sampled_from([-2.0, -1.0, -0.5, 0.0, 0.5, 1.0, 2.0]),
                  st.floats(-3, 3, allow_nan=False, allow_infinity=False))
vec = st.tuples(coord, coord, coord)
nonzero = vec.filter(lambda v: any(v))


@st.composite
def linear(draw):
    kind = draw(st.sampled_from(["segment", "ray", "line"]))
    o, d = draw(vec), draw(nonzero)
    if kind == "segment":
        return Segment(o, tuple(a + b for a, b in zip(o, d)))
    return (Ray if kind == "ray" else Line)(o, d)


@st.composite
def box(draw):
    lo, size = draw(vec), draw(vec)
    return AABB(lo, tuple(a + abs(b) for a, b in zip(lo, size)))


@settings(max_examples=examples(400), deadline=None)
@given(linear(), box(), st.tuples(vec, vec, vec))
def test_hits_identical_with_and_without_filters(a, b, verts):
    tri = Triangle(verts)
    for other in (b, tri):
        fast = query("hits", a, other)
        with careful_only():
            careful = query("hits", a, other)
        assert repr(fast) == repr(careful)  # repr: a trace may hold nan (nan != nan)
        assert query("intersects", a, other).intersects == careful.intersects


@settings(max_examples=examples(400), deadline=None)
@given(linear(), linear())
def test_st_fast_path_same_decisions(a, b):
    try:
        with careful_only():
            careful = query("distance", a, b)
    except stplane.BeyondFloatRange:
        # closest points beyond the floats (a subnormal direction component, long fuzz seed
        # 882741814): the documented refusal, which the fast path gives too
        with pytest.raises(stplane.BeyondFloatRange):
            query("distance", a, b)
        return
    fast = query("distance", a, b)
    for key in ("region", "edge", "parallel", "domain"):
        assert fast.trace.get(key) == careful.trace.get(key)
    assert set(fast.trace) == set(careful.trace)
    assert (fast.distance == 0) == (careful.distance == 0)
    scale = 1.0 + max(abs(x) for p in careful.closest for x in p)
    # rounding only: the fast path's plain products against correctly rounded sums
    assert abs(fast.distance - careful.distance) <= 1e-13 * scale
    for p, q in zip(fast.closest, careful.closest):
        assert all(abs(x - y) <= 1e-13 * scale for x, y in zip(p, q))


def test_st_fast_declines_the_hard_cases():
    # parallel (m0 x m1 = 0), nearly parallel (1e-4 rad < 0.45 deg), touching (crossing at
    # (0.5, 0.5, 0)), a point, Fractions: the careful path answers
    def fast(a, b):
        k0, B0, m0 = stplane.linear_form(a)
        k1, B1, m1 = stplane.linear_form(b)
        return stplane.st_fast(k0, B0, m0, k1, B1, m1, getattr(a, "p1", None),
                               getattr(b, "p1", None))

    a = Segment((0, 0, 0), (1, 0, 0))
    assert fast(a, Segment((0, 1, 0), (1, 1, 0))) is None
    assert fast(a, Segment((0, 1, 0), (1, 1, 1e-4))) is None
    assert fast(Segment((0, 0, 0), (1, 1, 0)), Segment((1, 0, 0), (0, 1, 0))) is None
    assert fast(a, Segment((0, 0, 0), (1, 0, 0), exact=True)) is None
    # skew and clear (distance 1 between x and a z-parallel segment over x = 0.5): decided,
    # region 0, s = t = 1/2 (hand-derived: B spans z in [-1, 1] at x = 0.5, y = 1)
    sol = fast(a, Segment((0.5, 1, -1), (0.5, 1, 1)))
    assert sol is not None and sol.trace["region"] == 0
    assert (sol.s, sol.t, sol.distance) == (0.5, 0.5, 1.0)
    with careful_only():
        assert fast(a, Segment((0.5, 1, -1), (0.5, 1, 1))) is None


def test_box_miss_filter_hand_derived():
    # the unit box; a ray along +x at height y = 2 misses it by 1 (far above the 2^-20 margin);
    # at y = 1 it slides along the top face (distance 0): not a clear miss; nor is a ray
    # missing by 1e-9 (below the margin); a ray pointing away from the box misses clearly.
    lo, hi = (0.0, 0.0, 0.0), (1.0, 1.0, 1.0)
    inf = math.inf
    assert segment_clearly_misses_box((-1.0, 2.0, 0.5), (1.0, 0.0, 0.0), 0, inf, lo, hi)
    assert not segment_clearly_misses_box((-1.0, 1.0, 0.5), (1.0, 0.0, 0.0), 0, inf, lo, hi)
    assert not segment_clearly_misses_box((-1.0, 1.0 + 1e-9, 0.5), (1.0, 0.0, 0.0), 0, inf,
                                          lo, hi)
    assert segment_clearly_misses_box((-1.0, 0.5, 0.5), (-1.0, 0.0, 0.0), 0, inf, lo, hi)
    # a segment stopping 0.5 short of the box; the whole line would hit it
    assert segment_clearly_misses_box((-1.0, 0.5, 0.5), (0.5, 0.0, 0.0), 0, 1, lo, hi)
    assert not segment_clearly_misses_box((-1.0, 0.5, 0.5), (0.5, 0.0, 0.0), -inf, inf, lo, hi)
    with careful_only():
        assert not segment_clearly_misses_box((-1.0, 2.0, 0.5), (1.0, 0.0, 0.0), 0, inf, lo, hi)


def test_triangle_miss_bound_hand_derived():
    # triangle (0,0,0) (1,0,0) (0,1,0) in z = 0. A vertical ray down through (2, 0.25, 1):
    # crossing point (2, 0.25, 0) lies 1 beyond the hypotenuse's line x + y = 1 in the plane?
    # no: beyond it by (2 + 0.25 - 1) / sqrt(2) = 1.25 / sqrt(2); at 90 degrees the bound is
    # that distance / sqrt(2) = 0.625, below the true distance 1.25 / sqrt(2) = 0.884.
    verts = ((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0))
    o, d = (2.0, 0.25, 1.0), (0.0, 0.0, -1.0)
    r = query("hits", Ray(o, d), Triangle(verts))
    assert not r.intersects
    bound = triangle_miss_bound(o, d, 0, math.inf, verts, r.trace)
    assert bound > 0 and abs(bound - 0.625) < 1e-12 and bound <= 1.25 / math.sqrt(2)
    assert triangle_clearly_misses(o, d, 0, math.inf, verts, r.trace)
    # the ray starting below the plane and going down: the plane is not reached; the bound is
    # the origin's height 1
    o2 = (0.25, 0.25, -1.0)
    r2 = query("hits", Ray(o2, d), Triangle(verts))
    assert triangle_miss_bound(o2, d, 0, math.inf, verts, r2.trace) == 1.0
    # a ray through the vertex (1, 0, 0): a hit, no bound needed; one passing 1e-12 beyond it
    # is not a clear miss
    o3 = (1.0 + 1e-12, 0.0, 1.0)
    r3 = query("hits", Ray(o3, d), Triangle(verts))
    assert not triangle_clearly_misses(o3, d, 0, math.inf, verts, r3.trace)


@settings(max_examples=examples(200), deadline=None)
@given(linear(), vec, st.sampled_from([0.0, 0.5, 1.2]), st.tuples(coord, coord, coord),
       st.floats(0, 1.5), st.floats(0, 2))
def test_obb_and_cylinder_hits_identical_with_and_without_filters(a, c, angle, ext, r, h):
    from algorithms import OBB, Cylinder

    co, si = math.cos(angle), math.sin(angle)
    box = OBB(c, ((co, si, 0.0), (-si, co, 0.0), (0.0, 0.0, 1.0)),
              tuple(abs(x) + 0.1 for x in ext))
    cyl = Cylinder(c, (si, 0.0, co), r, h)
    for other in (box, cyl):
        fast = query("hits", a, other)
        with careful_only():
            careful = query("hits", a, other)
        assert repr(fast) == repr(careful)


# ----------------------------------------------------------------------------- lean paths


def _declines(name, call):
    """(result, how many times the lean filter ``name`` declined during ``call()``)."""
    from algorithms.kernels.filters import fallbacks

    before = fallbacks(name)
    out = call()
    return out, fallbacks(name) - before


def test_st_lean_sends_the_near_degenerate_to_the_careful_path():
    # a clear skew pair (x axis against a z-parallel segment at x = 0.5, y = 1): decided by
    # the lean path, region 0, s = t = 1/2, distance 1 (hand-derived), nothing declined
    a = Segment((0, 0, 0), (1, 0, 0))
    r, n = _declines("st_lean", lambda: query("distance", a, Segment((0.5, 1, -1),
                                                                       (0.5, 1, 1))))
    assert n == 0 and (r.parameter, r.distance) == ((0.5, 0.5), 1.0)
    assert r.trace["region"] == 0 and r.trace["edge"] == "interior"  # the deferred trace
    # ordinary random-looking segment and ray pairs: decided, nothing declined
    for b in (Segment((0.3, 1, 0.2), (0.7, -0.5, 1.1)), Ray((2, 2, 2), (-1, -0.5, 0.3))):
        r, n = _declines("st_lean", lambda b=b: query("distance", a, b))
        assert n == 0 and r.distance > 0.1
    # nearly parallel (1e-4 rad), exactly parallel, crossing (touching at (0.5, 0.5, 0)),
    # a line, a point: each declined once, and the careful path answers
    hard = [(a, Segment((0, 1, 0), (1, 1, 1e-4))), (a, Segment((0, 1, 0), (1, 1, 0))),
            (Segment((0, 0, 0), (1, 1, 0)), Segment((1, 0, 0), (0, 1, 0))),
            (a, Line((0, 1, 0), (0, 0, 1)))]
    for p, q in hard:
        r, n = _declines("st_lean", lambda p=p, q=q: query("distance", p, q))
        assert n == 1, (p, q)
        with careful_only():
            careful = query("distance", p, q)
        assert repr(r) == repr(careful)
    # the crossing pair touches: distance 0 at (0.5, 0.5, 0)
    assert query("distance", *hard[2][:2]).distance == 0.0


def test_woo_lean_certifies_clear_misses_only():
    box = AABB((0, 0, 0), (1, 1, 1))
    # a ray along +x at z = 3 misses by 2 (it never reaches the z-slab): certified
    r, n = _declines("woo_lean", lambda: query("hits", Ray((-1, 0.5, 3), (1, 0, 0)), box))
    assert n == 0 and not r.intersects
    # grazing the edge x = 0, z = 1 exactly: o + t d = (0, 0.5, 1) at t = 1 and then leaves
    # (d = (1, 0, 1)); Woo's comparisons are exact here: one touching hit at t = 1
    r, n = _declines("woo_lean", lambda: query("hits", Ray((-1, 0.5, 0), (1, 0, 1)), box))
    assert n == 0 and r.first_t == 1.0 and [h.kind for h in r.hits] == ["hit"]
    # the same ray lifted by 1e-12: Woo rejects (z = 1 + 1e-12 at t = 1), the bound
    # (1e-12 |d_x| / (|d_x| + |d_z|) = 5e-13) is below the margin: the careful check runs
    ray = Ray((-1, 0.5, 1e-12), (1, 0, 1))
    r, n = _declines("woo_lean", lambda: query("hits", ray, box))
    assert n == 1 and not r.intersects
    with careful_only():
        assert repr(query("hits", ray, box)) == repr(r)
    # and its distance is the lift over sqrt(2), to the rounding of coordinates near 1
    assert abs(query("distance", ray, box).distance - 1e-12 / math.sqrt(2)) < 1e-15  # ulps of 1


def test_badouel_lean_declines_parallel_and_collinear():
    tri = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)))
    # an ordinary crossing: decided, the hit at t = 1 on (0.2, 0.3, 0)
    r, n = _declines("badouel_lean", lambda: query("hits", Ray((0.2, 0.3, 1), (0, 0, -1)),
                                                   tri))
    assert n == 0 and r.first_t == 1.0 and r.hits[0].point == (0.2, 0.3, 0.0)
    assert r.trace["barycentric"] == (0.5, 0.2, 0.3)  # the deferred trace: the full path's
    # a ray in the plane (d . n = 0) and a collinear triangle: the full path answers
    for a, t in ((Ray((-1, 0.25, 0), (1, 0, 0)), tri),
                 (Ray((0.5, 0, 1), (0, 0, -1)), Triangle(((0, 0, 0), (1, 0, 0), (2, 0, 0))))):
        r, n = _declines("badouel_lean", lambda a=a, t=t: query("hits", a, t))
        assert n == 1 and r.intersects
    # a ray passing 1e-12 beyond the vertex (1, 0, 0): rejected, not certified clear
    r, n = _declines("badouel_miss", lambda: query("hits", Ray((1 + 1e-12, 0, 1), (0, 0, -1)),
                                                   tri))
    assert n == 1 and not r.intersects
