"""The capsule-capsule lean kernel (algorithms.queries.capsule_solids._lean_distance, issue 12
part 1) returns the very record of :func:`distance_capsule_capsule`, bit for bit, counts the
segment filter's declines as that function does, and asks the registry's segment-segment
default at run time: a new default is used, not bypassed."""

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Capsule, Segment, query, registry
from algorithms.core.once import one_analysis
from algorithms.core.tolerance import plain
from algorithms.kernels.filters import careful_only
from algorithms.queries import capsule_solids
from algorithms.results import DistanceResult
from tests.algorithms.kernels.test_lean_kernels import _counted, _same, vec

radius = st.one_of(st.sampled_from([0.0, 0.25, 0.5, 1.0]),
                   st.floats(0, 2, allow_nan=False, allow_infinity=False))


def test_the_kernel_is_the_default_and_answers_a_hand_case():
    lean, careful = capsule_solids.distance_capsule_capsule.lean[("capsule", "capsule")]
    assert careful is capsule_solids.distance_capsule_capsule
    assert "lean" in registry.runner("distance", "capsule", "capsule").__qualname__
    # the x axis from 0 to 1 (radius 0.2) against the z-parallel segment at x = 0.5, y = 1
    # (radius 0.3): the segments are 1 apart at (0.5, 0, 0) and (0.5, 1, 0) (region 0), so the
    # capsules are 1 - 0.5 = 0.5 apart, at y = 0.2 and y = 1 - 0.3 = 0.7 (hand-derived)
    a = Capsule((0, 0, 0), (1, 0, 0), 0.2)
    b = Capsule((0.5, 1, -1), (0.5, 1, 1), 0.3)
    query("distance", a, b)  # (the first query caches the segment pair's dispatch)
    r = lean(a, b)
    assert r is not None
    assert (r.distance, r.closest, r.parameter) == (0.5, ((0.5, 0.2, 0.0), (0.5, 0.7, 0.0)),
                                                    (0.5, 0.5))
    assert r.trace["segment_distance"] == 1.0 and r.trace["intersects"] is False
    _same(r, capsule_solids.distance_capsule_capsule(a, b))


@settings(max_examples=examples(400), deadline=None)
@given(vec, vec, radius, vec, vec, radius)
def test_capsule_kernel_is_distance_capsule_capsule_bit_for_bit(p0, p1, ra, q0, q1, rb):
    a, b = Capsule(p0, p1, ra), Capsule(q0, q1, rb)
    if not (plain(a) and plain(b)):
        return  # rescaled first (call_rescaled): never the kernels' business
    query("distance", Segment((0, 0, 0), (1, 0, 0)), Segment((0, 1, 0), (1, 1, 1)))
    q, nq = _counted(lambda: query("distance", a, b))
    f, nf = _counted(lambda: capsule_solids.distance_capsule_capsule(a, b))
    _same(q, f)
    assert nq == nf  # the segment filter's declines, counted alike
    with one_analysis():  # inside a scope the shared path answers: the same record
        _same(query("distance", a, b), f)
    with careful_only():  # the filters off: the segment's careful path, the same closest points
        assert repr(query("distance", a, b).closest) == repr(
            capsule_solids.distance_capsule_capsule(a, b).closest)


def test_a_new_segment_default_is_asked_not_bypassed():
    a = Capsule((0, 0, 0), (1, 0, 0), 0.25)
    b = Capsule((0, 2, 0), (1, 2, 0), 0.25)
    assert query("distance", a, b).distance == 1.5  # segments 2 apart, minus 0.25 + 0.25
    key = ("distance", "segment", "segment")

    def fake(x, y):  # a user's default that says the segments are 7 apart along y
        return DistanceResult(method="fake", distance=7.0, sqr_distance=49.0,
                              closest=((0.0, 0.0, 0.0), (0.0, 7.0, 0.0)), parameter=(0.0, 0.0))

    registry.register(*key, name="fake", priority=99)(fake)
    try:
        r = query("distance", a, b)
        assert r.distance == 6.5 and r.trace["segment_method"] == "fake"
        assert r.closest == ((0.0, 0.25, 0.0), (0.0, 6.75, 0.0))
    finally:
        registry._TABLE[key] = [e for e in registry._TABLE[key] if e.name != "fake"]
        registry._CACHE.clear()
    assert query("distance", a, b).trace["segment_method"] != "fake"
