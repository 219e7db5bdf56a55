"""2D implicit lines on the z = 0 plane in the results (issue 13, part 1; App. A.1, A.7).

Oracles: A.8 on the same lines in 3-D (a different formula) for the crossing point, and exact
Fractions for the closest point of A.1.
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Line, Point
from algorithms.extras.planes import closest_point_2d, implicit_2d, two_rays
from algorithms.report import evaluate_json

small = st.integers(-5, 5)


@settings(max_examples=examples(200), deadline=None)
@given(small, small, small, small, small, small, small, small)
def test_a7_point_is_a8s_crossing(ox1, oy1, dx1, dy1, ox2, oy2, dx2, dy2):
    assume((dx1, dy1) != (0, 0) and (dx2, dy2) != (0, 0))
    l1, l2 = Line((ox1, oy1, 0), (dx1, dy1, 0)), Line((ox2, oy2, 0), (dx2, dy2, 0))
    r = evaluate_json(l1, l2)["trace"]["2d lines"]
    exact = two_rays(*(tuple(Fraction(c) for c in v) for v in
                       ((ox1, oy1, 0), (dx1, dy1, 0), (ox2, oy2, 0), (dx2, dy2, 0))))
    want = {"crossing": "point", "parallel": "parallel", "coincident": "coincident"}[exact.case]
    assert r["case"] == want
    if want == "point":
        x, y = ox1 + exact.t1 * dx1, oy1 + exact.t1 * dy1
        assert r["point"] == pytest.approx([float(x), float(y)], abs=1e-9)
    # each line's (a, b, d) holds its own origin and has a unit normal
    for (a, b, d), (ox, oy) in ((r["line_a"], (ox1, oy1)), (r["line_b"], (ox2, oy2))):
        assert a * a + b * b == pytest.approx(1) and a * ox + b * oy == pytest.approx(d)


@settings(max_examples=examples(200), deadline=None)
@given(small, small, small, small, small, small)
def test_a1_closest_point_exact(ox, oy, dx, dy, qx, qy):
    assume((dx, dy) != (0, 0))
    r = evaluate_json(Line((ox, oy, 0), (dx, dy, 0)), Point((qx, qy, 0)))["trace"]["2d lines"]
    # exact foot of the perpendicular: o + ((q - o) . u) u / |u|^2
    k = Fraction((qx - ox) * dx + (qy - oy) * dy, dx * dx + dy * dy)
    assert r["point"] == pytest.approx([float(ox + k * dx), float(oy + k * dy)], abs=1e-9)


def test_by_hand_and_out_of_plane():
    # y = 1 and x = 2 meet at (2, 1)
    r = evaluate_json(Line((0, 1, 0), (1, 0, 0)), Line((2, 0, 0), (0, 3, 0)))
    t = r["trace"]["2d lines"]
    assert t["line_a"] == [0, 1, 1] and t["line_b"] == [-1, 0, -2] and t["point"] == [2, 1]
    assert implicit_2d((0, 0, 1), (1, 0, 0)) is None  # not in z = 0
    assert "2d lines" not in evaluate_json(Line((0, 0, 1), (1, 0, 0)),
                                          Line((0, 0, 1), (0, 1, 0)))["trace"]
    # A.1: q = (3, 0) onto y = x + 1 -> (1, 2), 2 sqrt(2) away
    (p, s) = closest_point_2d((3, 0), implicit_2d((0, 1, 0), (1, 1, 0)))
    assert p == pytest.approx((1, 2)) and s == pytest.approx(2 * 2 ** 0.5)
