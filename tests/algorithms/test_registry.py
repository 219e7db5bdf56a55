"""The pair-dispatch table: priority across argument orders, flipping, wildcards, errors."""

import pytest

from algorithms import registry
from algorithms.primitives import AABB, OBB, Point, Sphere, Triangle
from algorithms.registry import QueryNotAvailable, query
from algorithms.results import DistanceResult, SeparationResult


@pytest.fixture
def table(monkeypatch):
    """A private, empty registration table (the real one is left as it was)."""
    registry.load_all()
    monkeypatch.setattr(registry, "_TABLE", {})
    return registry._TABLE


def _dist(tag):
    def f(a, b):
        return DistanceResult(method=tag, distance=1.0, sqr_distance=1.0,
                              closest=(a.position, b.center), parameter=(None, None))
    f.__name__ = tag
    return f


def test_a_specialised_function_in_the_other_order_beats_a_generic_one(table):
    registry.register("distance", "point", "sphere", priority=-10)(_dist("generic"))
    def special(s, p):
        return DistanceResult(method="special", distance=1.0, sqr_distance=1.0,
                              closest=(s.center, p.position), parameter=(None, None))

    registry.register("distance", "sphere", "point")(special)
    p, s = Point((0, 0, 0)), Sphere((3, 0, 0), 2)
    r = query("distance", p, s)
    assert r.method == "special"
    # flipped: closest[0] is on the first argument (the point), closest[1] on the sphere
    assert r.closest == ((0.0, 0.0, 0.0), (3.0, 0.0, 0.0))
    assert registry.methods("distance", "point", "sphere") == ["special", "generic"]


def test_equal_priority_prefers_the_unflipped_order(table):
    registry.register("distance", "point", "sphere")(_dist("ps"))
    registry.register("distance", "sphere", "point")(
        lambda s, p: DistanceResult(method="sp", closest=(s.center, p.position)))
    assert query("distance", Point((0, 0, 0)), Sphere((1, 0, 0), 0)).method == "ps"
    assert query("distance", Sphere((1, 0, 0), 0), Point((0, 0, 0))).method == "sp"


def test_wildcards_answer_only_pairs_with_no_registration(table):
    registry.register("distance", "*", "*", priority=-100)(
        lambda a, b: DistanceResult(method="wild", closest=(None, None)))
    registry.register("distance", "point", "sphere", priority=-200)(_dist("low"))
    assert query("distance", Point((0, 0, 0)), Sphere((1, 0, 0), 0)).method == "low"
    assert query("distance", Point((0, 0, 0)), Point((1, 0, 0))).method == "wild"


def test_hits_are_never_flipped_and_a_missing_query_names_the_pair(table):
    with pytest.raises(QueryNotAvailable, match="no hits query for sphere-point"):
        query("hits", Sphere((0, 0, 0), 1), Point((0, 0, 0)))


def test_flipped_separation_swaps_intervals_radii_and_the_axis_names():
    r = SeparationResult(intersects=False, axis=(1.0, 0.0, 0.0), intervals=((0, 1), (2, 3)),
                         trace={"axes": [{"name": "A1xB0", "r_A": 1.0, "r_B": 2.0},
                                         {"name": "edge0 x B1", "r_A": 3.0, "r_B": 4.0}],
                                "chosen": "A1xB0"})
    f = r.flipped()
    assert f.intervals == ((2, 3), (0, 1))
    assert [(a["name"], a["r_A"], a["r_B"]) for a in f.trace["axes"]] == [
        ("B1xA0", 2.0, 1.0), ("edge0 x A1", 4.0, 3.0)]
    assert f.trace["chosen"] == "B1xA0" and f.trace["swapped"] is True
    assert f.flipped().trace["axes"] == r.trace["axes"]


def test_real_table_swapped_sat_names_the_first_argument_A():
    box = OBB((3, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (1, 1, 1))
    cube = AABB((-1, -1, -1), (1, 1, 1))
    # the boxes are 1 apart along x: face axis 0 of either separates; which one is chosen,
    # it must be named for the argument it belongs to
    r1 = query("separating_axis", box, cube)
    r2 = query("separating_axis", cube, box)
    assert r1.trace["chosen"][0] == "A" and r2.trace["chosen"][0] == "B"
    assert r1.intervals == (r2.intervals[1], r2.intervals[0])


def test_every_registered_specialised_function_wins_in_both_orders():
    registry.load_all()
    t = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)))
    s = Sphere((0, 0, 2), 0.5)
    assert query("distance", t, s).method == query("distance", s, t).method != ""
    assert "GJK" not in query("distance", t, s).method


def test_a_flipped_toi_moves_the_contact_point_into_the_first_arguments_frame():
    # Plane z = 0 still; a unit sphere at z = 3 falls by (0, 0, -4): it touches when its centre
    # is at z = 1, after a drop of 2, so toi = 2/4 = 0.5, and the contact point is (0, 0, 0).
    # Asked the other way round (sphere first, plane moving up by (0, 0, 4) relative to it),
    # the contact happens at the same time; in the sphere's frame (the sphere held still at
    # z = 3) the plane has risen to z = 2: the contact point is (0, 0, 2), and the normal
    # points from the sphere towards the plane: -z.
    from algorithms.primitives import Plane

    plane, ball = Plane((0, 0, 1), 0), Sphere((0, 0, 3), 1)
    r = query("toi", plane, ball, (0, 0, -4))
    assert r.toi == pytest.approx(0.5) and r.point == pytest.approx((0, 0, 0))
    s = query("toi", ball, plane, (0, 0, 4))
    assert s.toi == pytest.approx(0.5) and s.point == pytest.approx((0, 0, 2))
    assert s.normal == pytest.approx((0, 0, -1))


def test_the_lean_toi_dispatch_is_call_rescaled_when_that_calls_directly():
    from algorithms import Capsule, Sphere
    from algorithms.core.tolerance import call_rescaled, toi_direct

    # a ball r 0.9 at x = -3 and a capsule along y at x = 0 moving -6 in x: toi_direct answers
    # exactly what call_rescaled answers (it calls the function as it is for this pair)
    a, b = Sphere((-3.0, 0.2, 0.1), 0.9), Capsule((0.0, -1.0, 0.0), (0.0, 1.0, 0.2), 0.4)
    m = (-6.0, 0.1, 0.05)
    entry = registry.find("toi", "sphere", "capsule", registry.default_method(
        "toi", "sphere", "capsule"))
    assert (entry.kind_a, entry.kind_b) == ("sphere", "capsule")  # registered unflipped
    x, y, mm = a, b, m
    want = call_rescaled(entry.func, "toi", x, y, (mm,))
    assert toi_direct(entry.func, x, y, mm) == want
    assert registry.query("toi", a, b, m).toi == pytest.approx(want.toi, abs=0)
    # a motion beyond the safe range: not answered directly (call_rescaled scales it)
    assert toi_direct(entry.func, x, y, (1e200, 0.0, 0.0)) is None
    assert toi_direct(entry.func, x, y, (1e-200, 0.0, 0.0)) is None


def test_a_table_put_in_place_is_asked_even_with_the_probe_warm():
    # query()'s class-keyed probe is keyed by the table in place: a plain dict put there
    # (unhashable) is never probed, so its (empty) entries answer, not the cached ones
    from algorithms import AABB, Ray

    ray, box = Ray((-2, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    assert query("hits", ray, box).intersects  # the probe is warm
    saved = registry._TABLE
    registry._TABLE = {}
    try:
        with pytest.raises(registry.QueryNotAvailable):
            query("hits", ray, box)
    finally:
        registry._TABLE = saved
        registry._CACHE.clear()  # (the lookups cached "nothing answers" for the empty table)
    assert query("hits", ray, box).intersects


def test_method_none_given_is_the_default_and_a_method_by_name_still_answers():
    from algorithms import AABB, Ray

    ray, box = Ray((-2, 0.5, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    default = query("hits", ray, box)
    assert query("hits", ray, box, method=None) == default
    slabs = query("hits", ray, box, method="slabs")
    # the ray x = -2 + t at y = z = 0.5 enters the unit box at t = 2 and leaves at t = 3
    assert (slabs.first_t, default.first_t) == (2.0, 2.0)
    assert slabs.method != default.method
