"""results.builder: a record built by its builder class (the lean kernels' hot path) is the
record the dataclass constructor builds, in every way the rest of the code looks at one."""

import copy
import dataclasses
import pickle

import pytest

from algorithms import AABB, Ray, Segment, Triangle, query
from algorithms.queries import linear_aabb, linear_triangle
from algorithms.results import (DISTANCE_BUILDER, HIT_BUILDER, PENDING, DistanceResult, Hit,
                                HitResult, builder, make, to_jsonable)


def _built_hit(method, trace, intersects, first_t, hits):
    obj = HIT_BUILDER()
    obj.method = method
    obj.trace = trace
    obj.intersects = intersects
    obj.first_t = first_t
    obj.hits = hits
    obj.__class__ = HitResult
    return obj


def _built_distance(**fields):
    obj = DISTANCE_BUILDER()
    for name, value in fields.items():  # (in the dataclass's order, as the kernels store them)
        setattr(obj, name, value)
    obj.__class__ = DistanceResult
    return obj


def _same_record(built, made):
    assert type(built) is type(made)
    assert list(built.__dict__) == list(made.__dict__)  # the same fields, in the same order
    assert built.__dict__ == made.__dict__
    assert built == made and repr(built) == repr(made)


HITS = (Hit(1.0, (0.0, 0.5, 0.5), (-1.0, 0.0, 0.0), "entry"),
        Hit(2.0, (1.0, 0.5, 0.5), (1.0, 0.0, 0.0), "exit"))


def test_a_built_hit_record_is_the_constructors_record():
    fields = dict(method="m", trace={"t_enter": 1.0}, intersects=True, first_t=1.0, hits=HITS)
    built = _built_hit(**fields)
    made = HitResult(**fields)
    _same_record(built, made)
    _same_record(built, make(HitResult, **fields))
    assert dataclasses.asdict(built) == dataclasses.asdict(made)
    assert to_jsonable(built) == to_jsonable(made)
    for twin in (pickle.loads(pickle.dumps(built)), copy.deepcopy(built), copy.copy(built)):
        _same_record(twin, made)
    moved = dataclasses.replace(built, first_t=None)
    assert moved == HitResult(**{**fields, "first_t": None})
    assert built.flipped() == made.flipped()
    with pytest.raises(dataclasses.FrozenInstanceError):
        built.first_t = 2.0  # frozen, as the constructor's


def test_a_built_distance_record_is_the_constructors_record():
    fields = dict(method="m", trace={"region": 0}, distance=1.0, sqr_distance=1.0,
                  closest=((0.5, 0.0, 0.0), (0.5, 1.0, 0.0)), parameter=(0.5, 0.5))
    built = _built_distance(**fields)
    made = DistanceResult(**fields)
    _same_record(built, made)
    _same_record(pickle.loads(pickle.dumps(built)), made)
    _same_record(copy.deepcopy(built), made)
    assert dataclasses.replace(built, distance=2.0).distance == 2.0
    assert built.flipped() == made.flipped()
    assert built.intersects is False


def test_a_built_record_with_a_pending_trace_reads_it_as_the_deferred_fields_do():
    # the lean casts' records hold one shared pending value for the trace and the hit list
    ray, box = Ray((-1.0, 0.5, 0.5), (1.0, 0.0, 0.0)), AABB((0, 0, 0), (1, 1, 1))
    x = (PENDING, linear_aabb._cast_field, ray, box)
    built = _built_hit(linear_aabb.A18, x, True, 1.0, x)
    careful = linear_aabb.hits_linear_aabb(ray, box)
    assert repr(built.trace) == repr(careful.trace)
    assert built.hits == careful.hits
    assert [(h.t, h.kind) for h in built.hits] == [(1.0, "entry"), (2.0, "exit")]
    assert built == careful
    # unread, it pickles and copies with its pending value, and reads the same afterwards
    fresh = _built_hit(linear_aabb.A18, x, True, 1.0, x)
    for twin in (pickle.loads(pickle.dumps(fresh)), copy.deepcopy(fresh)):
        assert twin == careful and repr(twin.trace) == repr(careful.trace)


@pytest.mark.parametrize("a, b, careful", [
    # a hit (entry at t = 1, exit at t = 2) and a clear miss of the unit box
    (Ray((-1.0, 0.5, 0.5), (1.0, 0.0, 0.0)), AABB((0, 0, 0), (1, 1, 1)),
     linear_aabb.hits_linear_aabb),
    (Ray((-1.0, 5.0, 0.5), (1.0, 0.0, 0.0)), AABB((0, 0, 0), (1, 1, 1)),
     linear_aabb.hits_linear_aabb),
    (Segment((-1.0, 0.5, 0.5), (3.0, 0.5, 0.5)), AABB((0, 0, 0), (1, 1, 1)),
     linear_aabb.hits_linear_aabb),
    # a certified miss of a triangle (the lean kernel's own record)
    (Ray((5.0, 5.0, -1.0), (0.0, 0.0, 1.0)), Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0))),
     linear_triangle.hits_linear_triangle),
])
def test_the_kernels_built_records_pickle_copy_and_replace_as_the_careful_ones(a, b, careful):
    r = query("hits", a, b)
    want = careful(a, b)
    assert type(r) is HitResult and r == want
    for twin in (pickle.loads(pickle.dumps(r)), copy.deepcopy(r)):
        assert type(twin) is HitResult and twin == want
        assert repr(twin.trace) == repr(want.trace)
    assert dataclasses.replace(r, method="x") == dataclasses.replace(want, method="x")
    assert dataclasses.asdict(r) == dataclasses.asdict(want)


def test_the_segment_kernels_built_record_is_the_careful_one():
    a, b = Segment((0, 0, 0), (1, 0, 0)), Segment((0.5, 1, -1), (0.5, 1, 1))
    r = query("distance", a, b)
    assert type(r) is DistanceResult
    # the x axis against the z-parallel segment at x = 0.5, y = 1: 1 apart (hand-derived)
    assert (r.distance, r.parameter, r.closest) == (1.0, (0.5, 0.5),
                                                    ((0.5, 0.0, 0.0), (0.5, 1.0, 0.0)))
    twin = pickle.loads(pickle.dumps(r))
    assert twin == r and repr(twin.trace) == repr(r.trace)
    assert copy.deepcopy(r) == r


def test_a_builder_refuses_a_record_laid_out_otherwise():
    @dataclasses.dataclass(frozen=True, slots=True)
    class Slotted:
        x: int = 0

    with pytest.raises(TypeError):
        builder(Slotted)
