"""The three-planes query (issue 13, part 1): ``{"a": P, "b": Q, "c": R}`` -> ``pair``
``"plane-plane-plane"``, ``point`` (null when there is no single point), ``determinant``.

Oracle: exact Fractions, independent of Goldman's formula: the determinant by the Leibniz
formula and the point by Gauss-Jordan elimination on the 3 x 3 system ``N p = d``.
"""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Plane
from algorithms.extras.planes import ILL_CONDITIONED, three_planes_result


def det3(m):
    (a, b, c), (d, e, f), (g, h, i) = m
    return a * (e * i - f * h) - b * (d * i - f * g) + c * (d * h - e * g)


def solve(m, rhs):
    """Gauss-Jordan on Fractions; None when singular."""
    rows = [[F(x) for x in r] + [F(v)] for r, v in zip(m, rhs)]
    for col in range(3):
        piv = next((r for r in range(col, 3) if rows[r][col] != 0), None)
        if piv is None:
            return None
        rows[col], rows[piv] = rows[piv], rows[col]
        for r in range(3):
            if r != col and rows[r][col] != 0:
                k = rows[r][col] / rows[col][col]
                rows[r] = [x - k * y for x, y in zip(rows[r], rows[col])]
    return tuple(rows[i][3] / rows[i][i] for i in range(3))


small = st.integers(-6, 6)
normal = st.tuples(small, small, small).filter(lambda n: any(n))


@settings(max_examples=examples(300), deadline=None)
@given(normal, normal, normal, small, small, small)
def test_point_and_determinant_against_exact_elimination(n1, n2, n3, d1, d2, d3):
    r = three_planes_result(Plane(n1, d1), Plane(n2, d2), Plane(n3, d3), ids=("P", "Q", "R"))
    assert r["pair"] == "plane-plane-plane" and (r["a"], r["b"], r["c"]) == ("P", "Q", "R")
    exact_det = det3([n1, n2, n3])
    assert r["determinant"] == exact_det  # small integers: the float triple product is exact
    p = solve([n1, n2, n3], [d1, d2, d3])
    if exact_det == 0:
        assert p is None and r["point"] is None
        assert r["case"] in ("line", "plane", "none")
        assert r["intersects"] == (r["case"] != "none")
    else:
        assert r["case"] == "point" and r["intersects"] is True
        # the error bound of Goldman's formula: a few ulps of |d| |n|^2 / |det|
        scale = 8e-15 * max(1, abs(d1), abs(d2), abs(d3)) * 108 / abs(exact_det)
        assert r["point"] == pytest.approx([float(c) for c in p], abs=scale)
        # every plane holds the point
        for n, d in ((n1, d1), (n2, d2), (n3, d3)):
            assert sum(a * b for a, b in zip(n, p)) == d


def test_by_hand_and_the_conditioning_meter():
    # x = 1, y = 2, z = 3: the identity system, perfectly conditioned
    r = three_planes_result(Plane((1, 0, 0), 1), Plane((0, 1, 0), 2), Plane((0, 0, 1), 3))
    assert r["point"] == (1, 2, 3) and r["determinant"] == 1 and r["conditioning"] == 1
    assert not r["ill_conditioned"]
    # P: x = 1, Q: y = 0.5, S: x + 0.001 y + 0.0005 z = 1.2: z = (1.2 - 1 - 0.0005) / 0.0005
    r = three_planes_result(Plane((1, 0, 0), 1), Plane((0, 1, 0), 0.5),
                            Plane((1, 0.001, 0.0005), 1.2))
    assert r["point"] == pytest.approx((1, 0.5, 399), rel=1e-9)
    # the unit-normal triple product: 0.0005 / |(1, 0.001, 0.0005)|
    assert r["conditioning"] == pytest.approx(0.0005 / (1 + 0.001 ** 2 + 0.0005 ** 2) ** 0.5)
    assert abs(r["conditioning"]) < ILL_CONDITIONED and r["ill_conditioned"]
    # two parallel distinct planes: no point at all
    r = three_planes_result(Plane((0, 0, 1), 0), Plane((0, 0, 2), 2), Plane((1, 0, 0), 0))
    assert r["point"] is None and r["case"] == "none" and r["intersects"] is False
    # three planes through the z axis: a line, no single point
    r = three_planes_result(Plane((1, 0, 0), 0), Plane((0, 1, 0), 0), Plane((1, 1, 0), 0))
    assert r["point"] is None and r["case"] == "line" and r["direction"] is not None
