"""The one-frame lean kernels (algorithms.registry.lean_kernels, issue 12 part 1) return the very
records of the functions they stand in for, bit for bit, and count the filters' declines
exactly as those functions do. The oracle is the registered function's own path (its own
filters, then the careful kernels), which the other tests check against Fractions and
against :func:`careful_only`."""

from hypothesis import given, settings
from hypothesis import strategies as st

from algorithms import AABB, Ray, Segment, Triangle, query, registry
from algorithms.core.once import one_analysis
from algorithms.core.tolerance import plain
from algorithms.kernels import stplane
from algorithms.kernels.filters import FALLBACKS, careful_only
from algorithms.queries import linear_aabb, linear_linear, linear_triangle

# a coarse grid (touching, grazing, parallel and axis-aligned cases are common) or anywhere
coord = st.one_of(st.sampled_from([-2.0, -1.0, -0.5, -0.0, 0.0, 0.5, 1.0, 2.0]),
                  st.floats(-3, 3, allow_nan=False, allow_infinity=False))
vec = st.tuples(coord, coord, coord)
nonzero = vec.filter(lambda v: any(v))
FIELDS = ("method", "distance", "sqr_distance", "closest", "parameter", "intersects",
          "first_t", "hits")


def _same(r1, r2):
    """Bit for bit (repr tells -0.0 from 0.0) on every field the records have, traces too."""
    assert type(r1) is type(r2)
    for f in FIELDS:
        if hasattr(r2, f):
            assert repr(getattr(r1, f)) == repr(getattr(r2, f)), f
    assert repr(r1.trace) == repr(r2.trace)


def _counted(fn):
    before = dict(FALLBACKS)
    out = fn()
    return out, {k: v - before.get(k, 0) for k, v in FALLBACKS.items() if v != before.get(k, 0)}


def test_the_kernels_are_the_registry_defaults():
    seg = Segment((0, 0, 0), (1, 0, 0))
    for name, a, b, func in (("distance", seg, Segment((0.5, 1, -1), (0.5, 1, 1)),
                              linear_linear.linear_distance),
                             ("hits", Ray((-1, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1)),
                              linear_aabb.hits_linear_aabb),
                             ("hits", seg, Triangle(((0, -1, -1), (0, 1, -1), (0, 0, 1))),
                              linear_triangle.hits_linear_triangle)):
        lean, careful = func.lean[(a.kind, b.kind)]
        assert lean(a, b) is not None
        assert "lean" in registry.runner(name, a.kind, b.kind).__qualname__
    # the x axis against the z-parallel segment at x = 0.5, y = 1: region 0, 1 apart
    # (hand-derived), answered by the kernel
    r = query("distance", seg, Segment((0.5, 1, -1), (0.5, 1, 1)))
    assert (r.parameter, r.distance, r.closest) == ((0.5, 0.5), 1.0,
                                                    ((0.5, 0.0, 0.0), (0.5, 1.0, 0.0)))


@settings(max_examples=400, deadline=None)
@given(vec, vec, vec, vec)
def test_segment_kernel_is_lean_distance_bit_for_bit(p0, p1, q0, q1):
    a, b = Segment(p0, p1), Segment(q0, q1)
    lean = linear_linear.linear_distance.lean[("segment", "segment")][0]
    r1, n1 = _counted(lambda: lean(a, b))
    r2, n2 = _counted(lambda: stplane.lean_distance(a, b, linear_linear.touch_tolerance,
                                                     linear_linear.METHOD))
    assert n1 == n2  # the same declines, counted alike
    assert (r1 is None) == (r2 is None)
    if r1 is not None:
        _same(r1, r2)
    # and the query (kernel or careful continuation) is the function's own answer, counted once
    # (a pair outside the safe range is rescaled first: never the kernels' business)
    if not (plain(a) and plain(b)):
        return
    q, nq = _counted(lambda: query("distance", a, b))
    f, nf = _counted(lambda: linear_linear.linear_distance(a, b))
    _same(q, f)
    assert nq == nf
    with careful_only():
        assert repr(query("distance", a, b).closest) == repr(
            linear_linear.linear_distance(a, b).closest)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["ray", "segment"]), vec, nonzero, vec, vec)
def test_box_kernel_is_hits_linear_aabb_bit_for_bit(kind, o, d, lo, size):
    a = Ray(o, d) if kind == "ray" else Segment(o, tuple(x + y for x, y in zip(o, d)))
    if not any(a.direction):
        return
    box = AABB(lo, tuple(x + abs(y) for x, y in zip(lo, size)))
    if not (plain(a) and plain(box)):
        return  # rescaled first (call_rescaled): never the kernels' business
    q, nq = _counted(lambda: query("hits", a, box))
    f, nf = _counted(lambda: linear_aabb.hits_linear_aabb(a, box))
    _same(q, f)
    assert nq == nf
    with one_analysis():  # inside a scope the shared path answers: the same record
        _same(query("hits", a, box), f)


@settings(max_examples=400, deadline=None)
@given(st.sampled_from(["ray", "segment"]), vec, nonzero, vec, vec, vec)
def test_triangle_kernel_is_hits_linear_triangle_bit_for_bit(kind, o, d, v0, v1, v2):
    a = Ray(o, d) if kind == "ray" else Segment(o, tuple(x + y for x, y in zip(o, d)))
    if not any(a.direction):
        return
    tri = Triangle((v0, v1, v2))
    if not (plain(a) and plain(tri)):
        return  # rescaled first (call_rescaled): never the kernels' business
    q, nq = _counted(lambda: query("hits", a, tri))
    f, nf = _counted(lambda: linear_triangle.hits_linear_triangle(a, tri))
    _same(q, f)
    assert nq == nf
    with careful_only():  # the filters off: the kernel steps aside, the careful path answers
        _same(query("hits", a, tri), linear_triangle.hits_linear_triangle(a, tri))
