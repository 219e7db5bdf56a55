"""The st-plane walkthrough (explorer.present.steps.stplane) draws every candidate from its
(s, t), and the answer's closest points where a parameter is beyond the floats."""

from __future__ import annotations

import math
import warnings

from algorithms import Ray, Segment
from tests.explorer.walkthroughs import walk


def test_crossing_beyond_the_float_parameters_draws_the_answers_points():
    # rays 2.2e-309 rad apart crossing at t = 0.5 / 2.2e-309 = 2.25e308 (beyond the floats) at
    # the float point (2 - 0.5 t, -0.5, -2 - 0.5 t) = (-1.12e308, -0.5, -1.12e308): the
    # interior candidate's s, t are inf, and inf * 0 (the direction's y) made NaN marks with
    # numpy's warning; now it is drawn at the answer's closest points
    a = Ray((2.0, -0.5, -2.0), (-0.5, 0.0, -0.5))
    b = Ray((2.0, -1.0, -2.0), (-0.5, 2.2250738585072e-309, -0.5))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        w, ans = walk(a, b)
    assert ans.distance == 0.0
    final = w.steps[-1]
    assert final.text.startswith("The least is on interior: s = inf")
    (mark,) = final.marks
    assert mark.points == ans.records.distance.closest
    assert all(math.isfinite(c) for p in mark.points for c in p)
    assert -1.13e308 < mark.points[0][0] < -1.12e308


def test_an_ordinary_pair_is_drawn_from_its_parameters():
    # A (0,0,0)-(2,0,0), B (1,1,0)-(1,3,0): the minimum is at s = 1/2 (x = 1), t = 0 (B's p0):
    # the closest points (1,0,0) and (1,1,0), drawn as o + s d
    w, ans = walk(Segment((0, 0, 0), (2, 0, 0)), Segment((1, 1, 0), (1, 3, 0)))
    (mark,) = w.steps[-1].marks
    assert [tuple(map(float, p)) for p in mark.points] == [(1.0, 0.0, 0.0), (1.0, 1.0, 0.0)]
    assert ans.distance == 1.0
