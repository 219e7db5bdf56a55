"""evaluate_pair's per-kind-pair plan, the fused analyses and the lean dispatch (issue 10
part 3, issue 12 part 1): derived from the one registration table, invalidated by a new
registration, and giving byte-identical answers to the query-by-query path."""

import json

import pytest

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, Line, Ray, Segment, Triangle, evaluate, evaluate_pair, registry
from algorithms.core import once
from algorithms.core.tolerance import plain
from algorithms.queries import linear_aabb, linear_linear, linear_triangle
from algorithms.report import result_json
from algorithms.results import DistanceResult, Hit


def _remove(key, name):
    """Undo a test registration (and drop what the cache derived from it)."""
    registry._TABLE[key] = [e for e in registry._TABLE[key] if e.name != name]
    registry._CACHE.clear()


def test_plan_is_derived_from_the_registry():
    p = evaluate.plan("segment", "segment")
    assert p.fused is linear_linear.answer_linear_linear
    assert evaluate.plan("ray", "aabb").fused is linear_aabb.answer_linear_aabb
    assert evaluate.plan("segment", "triangle").fused is linear_triangle.answer_linear_triangle
    # a point has no hits: the three queries are not all asked, nothing is fused
    assert evaluate.plan("point", "segment").fused is None
    # the swapped pair runs the flipped registration: no fused analysis either
    assert evaluate.plan("aabb", "ray").fused is None
    # nothing answers "side" for a pair without a plane: not asked, no error
    assert evaluate.plan("segment", "segment").side is None
    assert evaluate.plan("segment", "segment").missing == {}


def test_a_new_default_method_invalidates_the_plan_and_the_runner():
    a, b = Segment((0, 0, 0), (1, 0, 0)), Segment((0, 2, 0), (1, 2, 0))
    before = evaluate_pair(a, b)
    assert before.distance == 2.0  # the segments are 2 apart along y
    old_plan = evaluate.plan("segment", "segment")
    key = ("distance", "segment", "segment")

    def fake(x, y):
        return DistanceResult(method="fake", distance=7.0, sqr_distance=49.0,
                              closest=((0.0, 0.0, 0.0), (0.0, 7.0, 0.0)), parameter=(0.0, 0.0))

    registry.register(*key, name="fake", priority=99)(fake)
    try:
        new_plan = evaluate.plan("segment", "segment")
        assert new_plan is not old_plan
        # the fused analysis no longer matches the default distance: not used
        assert new_plan.fused is None
        assert registry.query("distance", a, b).method == "fake"
        ans = evaluate_pair(a, b)
        assert ans.distance == 7.0 and ans.records.distance.method == "fake"
        assert ans.methods[0] == "fake"
    finally:
        _remove(key, "fake")
    assert evaluate.plan("segment", "segment").fused is linear_linear.answer_linear_linear
    assert result_json(evaluate_pair(a, b)) == result_json(before)


def test_a_plan_whose_entry_left_the_table_is_rebuilt():
    # a test may edit the table directly (as test_crosscheck does): the plan notices
    key = ("hits", "ray", "aabb")
    saved = registry._TABLE[key]
    ray, box = Ray((-2, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    assert evaluate.plan("ray", "aabb").fused is linear_aabb.answer_linear_aabb
    registry._TABLE[key] = [e for e in saved if e.name != "woo"]  # slabs becomes the default
    try:
        p = evaluate.plan("ray", "aabb")
        assert p.fused is None
        assert evaluate_pair(ray, box).records.hits.method == linear_aabb.SLABS
        assert registry.query("hits", ray, box).method == linear_aabb.SLABS
    finally:
        registry._TABLE[key] = saved
        registry._CACHE.clear()
    assert evaluate_pair(ray, box).records.hits.method == linear_aabb.A18


def _unfused(a, b):
    """evaluate_pair with every fused analysis switched off (query by query)."""
    saved = list(registry.FUSED)
    registry.FUSED.clear()
    registry._CACHE.clear()
    try:
        return evaluate_pair(a, b)
    finally:
        registry.FUSED[:] = saved
        registry._CACHE.clear()


coord = st.one_of(st.integers(-3, 3).map(float), st.floats(-3, 3, allow_nan=False))
vec = st.tuples(coord, coord, coord)


@st.composite
def linear(draw):
    kind = draw(st.sampled_from(["segment", "ray", "line"]))
    o, d = draw(vec), draw(vec)
    if kind == "segment":
        return Segment(o, d)
    if d == (0.0, 0.0, 0.0):
        d = (1.0, 0.0, 0.0)
    return (Ray if kind == "ray" else Line)(o, d)


@st.composite
def shape(draw):
    kind = draw(st.sampled_from(["linear", "aabb", "triangle"]))
    if kind == "linear":
        return draw(linear())
    if kind == "aabb":
        lo, size = draw(vec), draw(st.tuples(*[st.floats(0, 2, allow_nan=False)] * 3))
        return AABB(lo, tuple(x + s for x, s in zip(lo, size)))
    return Triangle((draw(vec), draw(vec), draw(vec)))


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(linear(), shape())
def test_fused_answer_equals_the_query_by_query_answer(a, b):
    fused = evaluate_pair(a, b)
    assert evaluate.plan(a.kind, b.kind).fused is not None  # (used when both are plain)
    ref = _unfused(a, b)
    # the same records (traces included: a deferred trace is computed to compare)...
    assert fused.records == ref.records
    # ...and the same scene-v1 result, byte for byte
    assert json.dumps(result_json(fused)) == json.dumps(result_json(ref))


def test_fused_records_are_the_single_queries_records():
    # ray hitting the unit box at x = 0 (t = 2), and a ray through the triangle (t = 1)
    for a, b in ((Ray((-2, 0.5, 0.5), (1, 0.1, 0.05)), AABB((0, 0, 0), (1, 1, 1))),
                 (Ray((0.2, 0.2, -1), (0.05, 0.02, 1)), Triangle(((0, 0, 0), (1, 0, 0),
                                                                  (0, 1, 0))))):
        ans = evaluate_pair(a, b)
        with once.one_analysis():
            single = [registry.query(q, a, b) for q in ("distance", "intersects", "hits")]
        assert (ans.records.distance, ans.records.intersection, ans.records.hits) == \
            tuple(single)
        assert ans.distance == 0.0 and ans.intersects is True
        assert ans.first_t == single[2].first_t


def test_runner_is_the_query():
    a, b = Segment((0, 0, 0), (1, 0, 0)), Segment((0.3, 1, 0.2), (0.7, -0.5, 1.1))
    run = registry.runner("distance", "segment", "segment")
    assert run(a, b) == registry.query("distance", a, b, method="st_plane")
    # flipped: the registry answers (aabb, ray) by swapping; the same as the slow path
    ray, box = Ray((-2, 3, 0.5), (1, 0.1, 0.05)), AABB((0, 0, 0), (1, 1, 1))
    run = registry.runner("distance", "aabb", "ray")
    assert run(box, ray) == registry.query("distance", box, ray, method="features")
    assert run(box, ray).closest[0] == registry.query("distance", ray, box).closest[1]
    # a pair that needs rescaling (coordinates 1e30) still goes through call_rescaled
    big = Segment((0, 0, 0), (1e30, 0, 0)), Segment((0, 1e30, 0), (1e30, 1e30, 0))
    assert not plain(big[0])
    r = registry.query("distance", *big)
    assert r.distance == 1e30 and r.trace["rescaled_by"] > 1
    assert registry.runner("toi", "sphere", "sphere") is None


def test_lean_hits_are_built_when_read_and_equal_the_careful_ones():
    import pickle

    from algorithms.kernels.filters import careful_only
    from algorithms.results import is_pending

    # the ray (-2, 0.5, 0.5) + t (1, 0.1, 0.05) enters the unit box through x = 0 at t = 2
    # (y = 0.7, z = 0.6) and leaves through x = 1 at t = 3 (y = 0.8, z = 0.65; y = 1 and
    # z = 1 would come at t = 5 and t = 10)
    ray, box = Ray((-2, 0.5, 0.5), (1, 0.1, 0.05)), AABB((0, 0, 0), (1, 1, 1))
    r = registry.query("hits", ray, box)
    # the lean cast: neither the hit list nor the trace built yet (one shared pending value)
    assert is_pending(r.__dict__["hits"]) and is_pending(r.__dict__["trace"])
    with careful_only():
        careful = registry.query("hits", ray, box)
    assert type(careful.__dict__["hits"]) is tuple
    # an unread record pickles, and its copy reads the careful answer (and prints it)
    copy = pickle.loads(pickle.dumps(r))
    assert copy == careful and repr(copy) == repr(careful)
    assert pickle.dumps(copy) == pickle.dumps(careful)  # read: the very bytes
    assert [h.t for h in r.hits] == [2.0, 3.0] and [h.kind for h in r.hits] == ["entry", "exit"]
    assert type(r.__dict__["hits"]) is tuple  # built when read, then kept
    assert is_pending(r.__dict__["trace"])  # reading the hits built no trace
    assert r.hits == careful.hits and r.first_t == careful.first_t == 2.0
    assert r.trace == careful.trace and type(r.__dict__["trace"]) is dict
    assert r == careful and repr(r) == repr(careful)
    assert pickle.dumps(r) == pickle.dumps(careful)
    careful_trace = careful.trace
    # the ray (-1, 0, 0.5) + t (1, 1, 0) touches the box's edge x = 0, y = 1 at t = 1 only
    # (it enters the slab x in [0, 1] at t = 1 as it leaves the slab y in [0, 1]): the exit
    # is t_out = 1 = t_in, one touching hit, the hit list solid_hits builds, chosen when read
    touch = Ray((-1, 0, 0.5), (1, 1, 0))
    r = registry.query("hits", touch, box)
    assert r.intersects and r.first_t == 1.0 and is_pending(r.__dict__["hits"])
    with careful_only():
        careful = registry.query("hits", touch, box)
    assert r.hits == careful.hits == (Hit(1.0, (0.0, 1.0, 0.5), (-1.0, 0.0, 0.0), "hit"),)
    assert r.trace == careful.trace and r == careful and repr(r) == repr(careful)
    # a miss: only the trace is pending (no hits to build); the ray starts above the box in
    # y (3 > 1) and moves up (0.1 > 0), so Woo rejects its y-max plane
    r = registry.query("hits", Ray((-2, 3, 0.5), (1, 0.1, 0.05)), box)
    assert r.__dict__["hits"] == () and is_pending(r.__dict__["trace"])
    assert r.trace["rejected"] == "yt: the y-max plane is not reached"
    # flipped unread (Result.flipped): the swapped trace, still deferred, and the hit list
    # read from the shared pending value; copy.deepcopy keeps it pending as well
    import copy as copying

    r = registry.query("hits", ray, box)
    f, deep = r.flipped(), copying.deepcopy(r)
    assert is_pending(f.__dict__["hits"]) and is_pending(deep.__dict__["hits"])
    assert f.trace == {**careful_trace, "swapped": True} and f.first_t is None
    assert f.hits == deep.hits == r.hits and deep == r


def test_careful_only_still_selects_the_careful_path_through_the_runner():
    from algorithms.kernels.filters import careful_only
    from algorithms.results import is_pending

    a, b = Segment((0, 0, 0), (1, 0, 0)), Segment((0.3, 1, 0.2), (0.7, -0.5, 1.1))
    lean = registry.query("distance", a, b)
    assert is_pending(lean.__dict__["trace"])  # the lean kernel's: computed when read
    with careful_only():
        careful = registry.query("distance", a, b)
        ans = evaluate_pair(a, b)
    assert type(careful.__dict__["trace"]) is dict  # st_minimize's own trace
    assert type(ans.records.distance.__dict__["trace"]) is dict
    assert careful.distance == pytest.approx(lean.distance, rel=1e-14)


def test_remember_hands_a_pass_its_result():
    ray, box = Ray((-2, 3, 0.5), (1, 0.1, 0.05)), AABB((0, 0, 0), (1, 1, 1))
    hr = linear_aabb.hits_woo(ray, box)
    with once.one_analysis():
        once.remember(linear_aabb._cast, (ray, box), hr)
        assert linear_aabb._cast(ray, box) is hr
    once.remember(linear_aabb._cast, (ray, box), hr)  # outside a scope: nothing kept
    assert linear_aabb._cast(ray, box) is not hr


def test_a_replaced_registry_query_is_asked(monkeypatch):
    # a wrapper around registry.query (a test injecting a failure, an instrument) sees every
    # query evaluate_pair asks, and its failure is reported on the pair
    real, asked = registry.query, []

    def spy(name, a, b, *args, **kw):
        asked.append(name)
        if name == "hits":
            raise RuntimeError("boom")
        return real(name, a, b, *args, **kw)

    monkeypatch.setattr(registry, "query", spy)
    ans = evaluate_pair(Segment((0, 0, 0), (1, 0, 0)), Segment((0, 2, 0), (1, 2, 0)))
    assert asked == ["distance", "intersects", "hits"]
    assert ans.errors == ("hits failed for segment-segment: RuntimeError: boom",)
    assert ans.distance == 2.0 and ans.records.hits is None
