"""The GJK ray cast (van den Bergen 2004) against the exact tests and conservative advancement."""

import math

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import OBB, Capsule, Cylinder, Point, Segment, Triangle, query, registry
from tests.algorithms.generic.test_advancement import (BOUNDED, BOUNDED_PAIRS, aabb_st,
                                                       check_contact_properties, motion_st)

GJK = "gjk_ray_cast"


def test_hand_cases():
    # capsule (radius 0.5 about the y axis) vs an OBB turned 45 degrees about z, closing at 2:
    # its corner at x = 3 - sqrt(2) meets the capsule surface x = 0.5 at t = (2.5 - sqrt 2)/2
    c = 1 / math.sqrt(2)
    box = OBB((3, 0, 0), [(c, c, 0), (-c, c, 0), (0, 0, 1)], (1, 1, 1))
    cap = Capsule((0, -1, 0), (0, 1, 0), 0.5)
    r = query("toi", cap, box, (-2, 0, 0), method=GJK)
    assert r.toi == pytest.approx((2.5 - math.sqrt(2)) / 2, abs=1e-12)
    assert r.normal == pytest.approx((1, 0, 0), abs=1e-9)
    assert r.point == pytest.approx((0.5, 0, 0), abs=1e-9)
    # triangle in z = 0, cylinder's bottom disk at z = 2 falls by 4: t = 0.5, normal +z
    tri = Triangle([(0, 0, 0), (1, 0, 0), (0, 1, 0)])
    cyl = Cylinder((0.2, 0.2, 3), (0, 0, 1), 0.5, 2)
    r = query("toi", tri, cyl, (0, 0, -4), method=GJK)
    assert r.toi == pytest.approx(0.5, abs=1e-12) and r.normal == pytest.approx((0, 0, 1))
    assert query("toi", tri, cyl, (0, 0, 4), method=GJK).toi is None  # moving away
    assert query("toi", tri, cyl, (0, 0, -1.9), method=GJK).toi is None  # too short
    assert query("toi", tri, cyl, (0, 0, -2), method=GJK).toi == pytest.approx(1)  # at t = 1
    assert query("toi", tri, cyl.translated((0, 0, -2.5)), (1, 0, 0), method=GJK).toi == 0
    # point vs point: (0,0,0) and (2,0,0) closing at 4 -> 0.5
    assert query("toi", Point((0, 0, 0)), Point((2, 0, 0)), (-4, 0, 0),
                 method=GJK).toi == pytest.approx(0.5)
    # crossing segments (the parallelogram swept by B reaches A): 0.5
    r = query("toi", Segment((0, 0, 0), (1, 0, 0)), Segment((0.5, -1, 2), (0.5, 1, 2)),
              (0, 0, -4), method=GJK)
    assert r.toi == pytest.approx(0.5, abs=1e-12)


def test_registered_for_bounded_pairs_only():
    assert GJK in registry.methods("toi", "cylinder", "obb")
    assert GJK not in registry.methods("toi", "ray", "sphere")
    assert registry.methods("toi", "cylinder", "obb")[0] == "conservative_advancement"


@settings(max_examples=examples(60), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_agrees_with_conservative_advancement(data):
    ka, kb = data.draw(st.sampled_from(BOUNDED_PAIRS))
    a, b = data.draw(BOUNDED[ka]), data.draw(BOUNDED[kb])
    m = data.draw(motion_st)
    g = query("toi", a, b, m, method=GJK)
    ca = query("toi", a, b, m, method="conservative_advancement")
    if (g.toi is None) != (ca.toi is None):
        # only a grazing path may be called either way: the distance along it gets within
        # 1e-6 of touching
        dmin = min(query("distance", a, b.translated(tuple(k / 200 * c for c in m))).distance
                   for k in range(201))
        assert dmin < 1e-6, (a, b, m, g.toi, ca.toi)
        return
    if g.toi is None:
        return
    check_contact_properties(a, b, m, g, samples=6)
    assert g.toi == pytest.approx(ca.toi, abs=1e-5)


@settings(max_examples=examples(40), deadline=None)
@given(st.data())
def test_agrees_with_exact(data):
    pair = data.draw(st.sampled_from([("sphere", "sphere"), ("aabb", "aabb"),
                                      ("sphere", "aabb")]))
    gen = {"sphere": BOUNDED["sphere"], "aabb": aabb_st()}
    a, b = data.draw(gen[pair[0]]), data.draw(gen[pair[1]])
    m = data.draw(motion_st)
    ex = query("toi", a, b, m)
    g = query("toi", a, b, m, method=GJK)
    if ex.toi is None or g.toi is None:
        if ex.toi != g.toi:  # only a grazing path may be called either way
            dmin = min(query("distance", a, b.translated(tuple(k / 200 * c for c in m))).distance
                       for k in range(201))
            assert dmin < 1e-6
        return
    assert g.toi == pytest.approx(ex.toi, abs=1e-6)
    if ex.toi > 0 and ex.normal is not None and -np.dot(ex.normal, m) > 1e-2 * np.linalg.norm(m):
        assert g.toi == pytest.approx(ex.toi, abs=1e-10)
        assert np.dot(g.normal, ex.normal) > 1 - 1e-9
