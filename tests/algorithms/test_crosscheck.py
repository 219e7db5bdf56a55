"""Every pair whose query has several methods: the methods agree (the explorer's flag)."""

import itertools

import numpy as np
import pytest

from algorithms import registry
from algorithms.crosscheck import cross_check
from algorithms.primitives import AABB, Ray, Sphere
from tests.algorithms.test_all_pairs import KINDS, make


def test_disagreement_is_flagged(monkeypatch):
    # A deliberately wrong second method: it says the spheres are 0.5 further apart.
    from algorithms.results import DistanceResult

    a, b = Sphere((0, 0, 0), 1), Sphere((3, 0, 0), 1)
    good = registry.query("distance", a, b)
    registry.register("distance", "sphere", "sphere", name="broken", priority=-99)(
        lambda x, y: DistanceResult(method="broken", distance=good.distance + 0.5))
    try:
        report = cross_check("distance", a, b)
        assert not report["agree"] and report["spread"] == pytest.approx(0.5)
        assert [m["name"] for m in report["methods"]][-1] == "broken"
    finally:
        registry._TABLE[("distance", "sphere", "sphere")] = [
            e for e in registry._TABLE[("distance", "sphere", "sphere")] if e.name != "broken"]


def test_two_misses_agree_and_a_miss_against_a_hit_does_not():
    # Woo and slabs on a ray passing the unit box 1 above it: both say no hit (None), they
    # agree. A method that claims a hit at t = 3 disagrees with them.
    from algorithms.results import HitResult

    ray, box = Ray((-3, 2, 0.5), (1, 0, 0)), AABB((0, 0, 0), (1, 1, 1))
    miss = cross_check("hits", ray, box)
    assert miss["agree"] and all(m["value"] is None for m in miss["methods"])
    assert len(miss["methods"]) >= 2
    key = ("hits", "ray", "aabb")
    registry.register(*key, name="liar", priority=-99)(
        lambda a, b: HitResult(method="liar", intersects=True, first_t=3.0))
    try:
        report = cross_check("hits", ray, box)
        assert not report["agree"] and report["methods"][-1]["value"] == 3.0
    finally:
        registry._TABLE[key] = [e for e in registry._TABLE[key] if e.name != "liar"]


BOUNDED = ["point", "segment", "triangle", "sphere", "aabb", "obb", "cylinder", "capsule"]
MULTI = [(ka, kb) for ka, kb in itertools.combinations_with_replacement(BOUNDED, 2)
         if len(registry.methods("distance", ka, kb)) >= 2]


@pytest.mark.parametrize("ka,kb", MULTI, ids=[f"{a}-{b}" for a, b in MULTI])
def test_specialised_distance_agrees_with_gjk(ka, kb):
    rng = np.random.default_rng(hash((ka, kb)) % 2**32)
    for _ in range(15):
        a, b = make(ka, rng, 3.0), make(kb, rng, 3.0)
        report = cross_check("distance", a, b, rel_tol=1e-7, abs_tol=1e-7)
        assert report["agree"], report


LINEAR_MULTI = [(ka, kb) for ka in ("segment", "ray", "line") for kb in KINDS
                if len(registry.methods("hits", ka, kb)) >= 2]


@pytest.mark.parametrize("ka,kb", LINEAR_MULTI, ids=[f"{a}-{b}" for a, b in LINEAR_MULTI])
def test_second_ray_cast_methods_agree(ka, kb):
    rng = np.random.default_rng(hash((ka, kb, 1)) % 2**32)
    for _ in range(30):
        a, b = make(ka, rng, 1.0), make(kb, rng, 1.0)
        report = cross_check("hits", a, b, rel_tol=1e-9, abs_tol=1e-9)
        assert report["agree"], report


def test_the_pairs_answer_stands_for_the_default_method():
    # issue 10: the cross-check does not rerun the default method; it reads the answer's record.
    # A record that says 123 (the true distance of these spheres is 1) must show up as the
    # default row's value, and disagree with GJK's 1.
    from dataclasses import replace

    from algorithms import OBB, Sphere, evaluate_pair
    from algorithms.crosscheck import cross_check_pair

    a, b = Sphere((0, 0, 0), 1), OBB((3, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (1, 1, 1))
    ans = evaluate_pair(a, b)
    honest = cross_check_pair(a, b, answer=ans)["distance"]
    assert honest["agree"] and honest["methods"][0]["value"] == 1.0
    fake = replace(ans, records=replace(ans.records,
                                        distance=replace(ans.records.distance, distance=123.0)))
    report = cross_check_pair(a, b, answer=fake)["distance"]
    assert report["methods"][0]["value"] == 123.0 and not report["agree"]
