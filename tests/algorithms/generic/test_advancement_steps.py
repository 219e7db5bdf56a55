"""Conservative advancement's recorded steps (``record=True``, issue 13 part 2): what the time
line and the step-through draw. Hand-derived cases, and the property that recording changes
nothing of the answer."""

import math
import typing

import numpy as np
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Sphere
from algorithms.generic.advancement import conservative_advancement
from algorithms.traces import FAMILIES, AdvancementStep

SETTINGS = settings(max_examples=examples(40), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_head_on_spheres_take_one_step_of_d_over_the_closing_speed():
    # A: r = 1 at the origin, still; B: r = 1 at x = 5, moving -10 in x. The gap is
    # d(t) = (5 - 10 t) - 2 = 3 - 10 t: linear, so one Newton step lands on the contact.
    # n = (1, 0, 0) (A towards B), closing speed -n . motion = 10, dt = d / 10 = 0.3
    # (minus tol / 20, the aim at tol / 2), closest points (1, 0, 0) on A and (4, 0, 0) on B.
    r = conservative_advancement(Sphere((0, 0, 0), 1.0), Sphere((5, 0, 0), 1.0), (-10, 0, 0),
                                 record=True)
    steps = r.trace["steps"]
    assert [s["phase"] for s in steps] == ["advance", "toi"]
    s0 = steps[0]
    assert s0["t"] == 0.0 and s0["distance"] == 3.0 and s0["closing_speed"] == 10.0
    assert s0["normal"] == (1.0, 0.0, 0.0)
    assert s0["closest"] == ((1.0, 0.0, 0.0), (4.0, 0.0, 0.0))
    assert math.isclose(s0["dt"], 0.3, abs_tol=1e-9) and s0["t_next"] == s0["dt"]
    last = steps[-1]
    assert math.isclose(last["t"], 0.3, abs_tol=1e-12) and last["t"] == r.toi
    assert last["distance"] <= 1e-12


def test_an_offset_path_converges_from_below_in_newton_steps():
    # B: r = 1 at (-5, 1.5, 0) moving +10 in x past A: r = 1 at the origin. The centres are
    # 2 apart when (10 t - 5)^2 + 1.5^2 = 4: t = (5 - sqrt(1.75)) / 10 = 0.36771243444677...
    # d(0) = sqrt(25 + 2.25) - 2 = 3.22015...; n = (-5, 1.5, 0) / sqrt(27.25) from A to B,
    # closing speed -n . (10, 0, 0) = 50 / sqrt(27.25) = 9.57826...; dt = d / 9.578 = 0.33619.
    r = conservative_advancement(Sphere((0, 0, 0), 1.0), Sphere((-5, 1.5, 0), 1.0), (10, 0, 0),
                                 record=True)
    toi = (5 - math.sqrt(1.75)) / 10
    steps = r.trace["steps"]
    adv = [s for s in steps if s["phase"] == "advance"]
    assert len(adv) == 4 and steps[-1]["phase"] == "toi"
    assert math.isclose(adv[0]["distance"], math.sqrt(27.25) - 2, rel_tol=1e-14)
    assert math.isclose(adv[0]["closing_speed"], 50 / math.sqrt(27.25), rel_tol=1e-14)
    assert math.isclose(adv[0]["dt"], (math.sqrt(27.25) - 2) / (50 / math.sqrt(27.25)),
                        abs_tol=1e-8)  # tol / 2 = 5e-9 below d
    # every step lands where the previous one aimed, below the contact, the gap shrinking
    for s, nxt in zip(adv, steps[1:]):
        assert nxt["t"] == s["t_next"] or nxt["phase"] == "toi"
        assert s["t"] < toi and nxt["distance"] < s["distance"]
    for s in steps:  # the closest points are the distance apart
        pa, pb = (np.asarray(p) for p in s["closest"])
        assert math.isclose(float(np.linalg.norm(pb - pa)), s["distance"], abs_tol=1e-12)
    assert math.isclose(steps[-1]["t"], toi, abs_tol=1e-15) and steps[-1]["t"] == r.toi


def test_no_contact_rows_say_why():
    # moving apart: B at x = 5 moving +10: closing speed -10 <= 0, no step
    r = conservative_advancement(Sphere((0, 0, 0), 1.0), Sphere((5, 0, 0), 1.0), (10, 0, 0),
                                 record=True)
    assert r.toi is None
    [s] = r.trace["steps"]
    assert s["closing_speed"] == -10.0 and s["dt"] is None and s["t_next"] is None
    # too far: gap 8 at t = 0 (centres 10 apart), closing 5: dt = 1.6 passes t = 1; the last row
    # is d(1) = 10 - 5 - 2 = 3
    r = conservative_advancement(Sphere((0, 0, 0), 1.0), Sphere((10, 0, 0), 1.0), (-5, 0, 0),
                                 record=True)
    assert r.toi is None
    assert [s["phase"] for s in r.trace["steps"]] == ["advance", "end"]
    assert math.isclose(r.trace["steps"][0]["t_next"], 1.6, rel_tol=1e-9)
    end = r.trace["steps"][-1]
    assert end["t"] == 1.0 and math.isclose(end["distance"], 3.0, rel_tol=1e-14)


def test_already_touching_records_one_row_at_zero():
    r = conservative_advancement(Sphere((0, 0, 0), 1.0), Sphere((2, 0, 0), 1.0), (1, 0, 0),
                                 record=True)
    assert r.toi == 0.0 and [s["phase"] for s in r.trace["steps"]] == ["toi"]


def test_off_by_default():
    r = conservative_advancement(Sphere((0, 0, 0), 1.0), Sphere((5, 0, 0), 1.0), (-10, 0, 0))
    assert "steps" not in r.trace


def test_the_rows_keys_are_declared():
    declared = set(typing.get_type_hints(AdvancementStep))
    r = conservative_advancement(Sphere((0, 0, 0), 1.0), Sphere((-5, 1.5, 0), 1.0), (10, 0, 0),
                                 record=True)
    required = FAMILIES["advancement_step"][1]
    for s in r.trace["steps"]:
        assert set(s) <= declared and set(required) <= set(s)
    assert set(FAMILIES["advancement"][1]) <= set(r.trace)


coord = st.floats(-5, 5, allow_nan=False)


@SETTINGS
@given(st.tuples(coord, coord, coord), st.floats(0.1, 2), st.tuples(coord, coord, coord),
       st.floats(0.1, 2), st.tuples(coord, coord, coord))
def test_recording_changes_nothing(ca, ra, cb, rb, m):
    a, b = Sphere(ca, ra), Sphere(cb, rb)
    m = tuple(3 * c for c in m)
    plain = conservative_advancement(a, b, m)
    rec = conservative_advancement(a, b, m, record=True)
    assert rec.toi == plain.toi and rec.point == plain.point and rec.normal == plain.normal
    assert rec.trace["iterations"] == plain.trace["iterations"]
    assert rec.trace["static_queries"] == plain.trace["static_queries"]
    steps = rec.trace["steps"]
    adv = [s for s in steps if s["phase"] == "advance"]
    assert [(s["t"], s["distance"]) for s in adv] == \
        [(it["t"], it["distance"]) for it in plain.trace["iterations"][:len(adv)]]
    if plain.toi is not None:
        assert steps[-1]["phase"] == "toi" and steps[-1]["t"] == plain.toi
