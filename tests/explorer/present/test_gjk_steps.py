"""GJK's step-through (issue 13, part 2): the simplex in the Minkowski difference A - B, the
search direction, the support point and the point nearest the origin, one step at a time, read
from the library's own run (no Qt)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from algorithms import AABB, OBB, Cylinder
from explorer.present.steps import GJK_LISTING
from tests.explorer.walkthroughs import walk


def _last_v(w):
    """The length of v drawn on the final step (the segment from the drawn origin)."""
    final = w.steps[-1]
    origin = next(m for m in final.marks if m.kind == "point" and m.text == "origin 0")
    v = next(m for m in final.marks if m.kind == "segment" and m.text.startswith("v, length"))
    assert v.points[0] == pytest.approx(origin.points[0])
    return float(np.linalg.norm(np.subtract(v.points[1], v.points[0])))


def test_two_cylinders_at_distance_one():
    # A: unit radius, height 2, axis z at the origin; B the same with axis y at (3, 0, 0).
    # A's wall reaches x = 1 and B's x = 2, so the distance is 1 (by hand). GJK starts at
    # v = c_A - c_B = (-3, 0, 0); the support of A in -v = +x is (1, 0, 0) (d.w = 0: the
    # mid-height rim point), of B in v = -x is (2, 0, 0), so w = (-1, 0, 0), |w| = 1.
    a = Cylinder((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0)
    b = Cylinder((3.0, 0.0, 0.0), (0.0, 1.0, 0.0), 1.0, 2.0)
    w, ans = walk(a, b)
    assert ans.distance == pytest.approx(1.0, abs=1e-12)
    assert "GJK" in w.title and w.listing == GJK_LISTING
    assert w.steps[0].line == 0 and "v = c_A - c_B = (-3, 0, 0)" in w.steps[0].text
    first = w.steps[1]
    assert first.line == 1
    assert "s_A(-v) = (1, 0, 0)" in first.text and "s_B(v) = (2, 0, 0)" in first.text
    assert "w = (-1, 0, 0)" in first.text
    # the support points are drawn on the shapes themselves (world coordinates)
    drawn = {m.text: m.points[0] for m in first.marks if m.kind == "point"}
    assert drawn["s_A(-v)"] == pytest.approx((1, 0, 0)) and drawn["s_B(v)"] == pytest.approx(
        (2, 0, 0))
    # the gap test after the first support point: |v|^2 - v.w = 9 - 3 = 6, lower bound 1
    assert w.steps[2].line == 2 and "= 6 >" in w.steps[2].text
    assert "between v.w/|v| = 1 and |v| = 3" in w.steps[2].text
    # the sub-algorithm keeps the vertex w: v = (-1, 0, 0)
    assert w.steps[3].line == 4 and "v = (-1, 0, 0), |v| = 1, on a vertex" in w.steps[3].text
    # the last step: the listing's final line, and |v| is the distance
    assert w.steps[-1].line == len(GJK_LISTING) - 1
    assert _last_v(w) == pytest.approx(1.0, abs=1e-12)
    assert "the pair's distance is 1" in w.steps[-1].text
    # every drawing holds the Minkowski difference and the origin; A - B lies in x <= -1
    # (A's x <= 1, B's x >= 2) and touches x = -1 (the wall contact), drawn shifted by O
    for st in w.steps:
        kinds = [m.kind for m in st.marks]
        assert "hull" in kinds and any(m.text == "origin 0" for m in st.marks)
    hull = next(m for m in w.steps[0].marks if m.kind == "hull")
    origin = np.asarray(next(m for m in w.steps[0].marks if m.text == "origin 0").points[0])
    xs = np.asarray(hull.points)[:, 0] - origin[0]
    assert xs.max() == pytest.approx(-1.0, abs=1e-9) and xs.min() == pytest.approx(-5.0)


def test_overlapping_cylinders_end_on_the_overlap_line():
    # B at (1, 0, 0): its wall passes through A's axis, so they overlap. v = (-1, 0, 0),
    # w = s_A(+x) - s_B(-x) = (1, 0, 0) - (0, 0, 0); the segment from v to w holds 0 at
    # its middle (lambda = 0.5, 0.5).
    a = Cylinder((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0)
    b = Cylinder((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), 1.0, 2.0)
    w, ans = walk(a, b)
    assert ans.intersects and ans.distance == 0.0
    lines = [s.line for s in w.steps]
    assert lines == [0, 1, 2, 4, 5, 6]
    assert "lambda = (0.5, 0.5)" in w.steps[3].text
    assert "overlap" in w.steps[4].text and _last_v(w) == 0.0


def test_a_generic_gjk_pair_box_against_box():
    # AABB [0, 1]^3 against an OBB of half-size 0.5 centred at (3, 0.5, 0.5): faces x = 1
    # and x = 2.5 face each other, distance 1.5 (by hand); the distance method is GJK.
    a = AABB((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))
    b = OBB((3.0, 0.5, 0.5), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (0.5, 0.5, 0.5))
    w, ans = walk(a, b)
    assert "GJK" in ans.records.distance.method
    assert ans.distance == pytest.approx(1.5)
    assert _last_v(w) == pytest.approx(1.5)
    # the Minkowski difference of two boxes is a box: A's x in [0, 1] less B's in [2.5, 3.5]
    # is [-3.5, -1.5]; y and z: [0, 1] less [0, 1] is [-1, 1]
    hull = np.asarray(next(m for m in w.steps[0].marks if m.kind == "hull").points)
    origin = np.asarray(next(m for m in w.steps[0].marks if m.text == "origin 0").points[0])
    rel = hull - origin
    assert rel.min(axis=0) == pytest.approx((-3.5, -1.0, -1.0))
    assert rel.max(axis=0) == pytest.approx((-1.5, 1.0, 1.0))


def test_round_shapes_say_gjk_runs_on_their_cores():
    from algorithms import Capsule

    # a capsule of radius 0.5 along z at the origin, a cylinder of radius 1 axis z at
    # (4, 0, 0): core segment to the cylinder's wall is 3, minus 0.5: distance 2.5
    a = Capsule((0.0, 0.0, -1.0), (0.0, 0.0, 1.0), 0.5)
    b = Cylinder((4.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0)
    w, ans = walk(a, b)
    assert ans.distance == pytest.approx(2.5)
    assert "cores" in w.steps[0].text and "r_A + r_B = 0.5" in w.steps[0].text
    assert math.isclose(_last_v(w), 3.0, rel_tol=1e-9)  # |v| is the cores' distance


def test_no_gjk_walk_for_parallel_cylinders():
    # parallel axes are decided in closed form (no GJK runs): no GJK step-through
    a = Cylinder((0.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0)
    b = Cylinder((3.0, 0.0, 0.0), (0.0, 0.0, 1.0), 1.0, 2.0)
    w, ans = walk(a, b)
    assert ans.distance == pytest.approx(1.0) and w is None
