"""The precision lab's numbers (explorer.present.precision) and the Precision panel."""

from __future__ import annotations

import math

import pytest

from algorithms import Segment
from explorer.present import precision as prec


def test_trace_rows_float64_matches_exact_on_a_dyadic_pair():
    # A = (0,0,0)-(1,0,0), B = (0,1,0)-(1,1,0): a = c = 1, b = -1, d = e = 0, det = 0
    # (parallel), Q = 1 everywhere: every value is exact in binary, 0 ulps off
    rows = {r["name"]: r for r in prec.trace_rows(Segment((0, 0, 0), (1, 0, 0)),
                                               Segment((0, 1, 0), (1, 1, 0)))["rows"]}
    assert rows["a"]["f64"] == rows["a"]["exact"] == 1 and rows["b"]["f64"] == -1
    assert rows["det"]["exact"] == 0 and rows["Q"]["ulps64"] == 0
    assert all(not r["alarm"] for r in rows.values())


def test_a_sign_flip_in_float32_raises_the_alarm():
    # turned by 1e-9 rad: det = a c sin^2 = 1e-18 exactly-ish, far below float32's rounding
    # of a c = 1: float32 computes det = 0 (sign 0), the exact det is positive
    a = Segment((0, 0, 0), (1, 0, 0))
    out = prec.trace_rows(a, prec.nearly_parallel(a, 1e-9))
    det = next(r for r in out["rows"] if r["name"] == "det")
    assert det["f32"] == 0.0 and det["exact"] > 0 and "float32" in det["alarm"]
    assert any(x.startswith("det:") for x in out["alarms"])


def test_nearly_parallel_builds_the_angle():
    a = Segment((0, 0, 0), (2, 0, 0))
    b = prec.nearly_parallel(a, 1e-3, offset=0.5)
    u = [q - p for p, q in zip(b.p0, b.p1)]
    assert math.isclose(math.atan2(math.hypot(u[1], u[2]), u[0]), 1e-3, rel_tol=1e-9)
    assert math.isclose(math.dist(b.p0, b.p1), 2.0)


def test_sweep_library_beats_the_textbook_when_nearly_parallel():
    a = Segment((0.1, 0.2, 0.3), (1.7, 0.9, -0.4))
    sweep = prec.angle_sweep(a)
    assert [round(-math.log10(s["angle"])) for s in sweep] == list(range(1, 17))
    # the library stays within a few ulps of the exact distance at every angle; Ericson's
    # textbook algorithm in float64 loses digits as 1/angle (about 1e-9 at 1e-9 rad here)
    assert max(s["error"] for s in sweep) <= 4 * 2.2e-16
    assert max(s["ericson64"] for s in sweep) > 1e3 * max(s["error"] for s in sweep)


def test_minimiser_set_of_parallel_overlapping_segments():
    # A on [0, 1] of the x axis, B on [0.5, 2] one above: every s in [0.5, 1] is a minimiser
    m = prec.minimiser_set(Segment((0, 0, 0), (1, 0, 0)), Segment((0.5, 1, 0), (2, 1, 0)))
    assert m is not None and m["s"] == pytest.approx((0.5, 1.0))
    assert prec.minimiser_set(Segment((0, 0, 0), (1, 0, 0)), Segment((0, 1, 0), (1, 2, 0))) is None


def test_woo_rows_on_a_dyadic_ray_box():
    # ray from (-2, .5, .5) along (1, .1, .05) into the unit box: the only candidate plane is
    # min x (the origin is inside the y and z slabs), t_x = (0 - (-2)) / 1 = 2 exactly in every
    # format; Woo chooses min x and hits
    from algorithms import AABB, Ray

    out = prec.cast_rows(Ray((-2, 0.5, 0.5), (1, 0.1, 0.05)), AABB((0, 0, 0), (1, 1, 1)))
    rows = {r["name"]: r for r in out["rows"]}
    assert rows["t (x)"]["f32"] == rows["t (x)"]["f64"] == rows["t (x)"]["exact"] == 2
    assert rows["t (x)"]["ulps64"] == 0 and rows["chosen plane"]["exact"] == "min x"
    assert rows["hit"]["f64"] is rows["hit"]["exact"] is True and not out["alarms"]


def test_badouel_barycentric_sign_alarm_on_an_edge_within_rounding():
    # the vertical ray through (0.01, 0.99) as doubles: 0.01 + 0.99 is 1 - 5 * 2**-59 exactly
    # (just inside the hypotenuse x + y = 1), so the exact gamma = 1 - alpha - beta is
    # 5 * 2**-59 > 0, while float64 rounds it to 0 (on the edge): a sign alarm on gamma; the
    # hit decision agrees (touching counts)
    from fractions import Fraction

    from algorithms import Ray, Triangle

    x, y = 0.01, 1 - 0.01
    assert Fraction(x) + Fraction(y) == 1 - Fraction(5, 2**59)
    out = prec.cast_rows(Ray((x, y, -1), (0, 0, 1)), Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0))))
    rows = {r["name"]: r for r in out["rows"]}
    assert rows["gamma"]["exact"] == Fraction(5, 2**59) and rows["gamma"]["f64"] == 0.0
    assert "float64" in rows["gamma"]["alarm"] and out["alarms"] == [
        "gamma: " + rows["gamma"]["alarm"]]
    assert rows["hit"]["f64"] is True and rows["hit"]["exact"] is True
