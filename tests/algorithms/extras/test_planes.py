"""Three planes (App. A.11, Goldman) and two 2D implicit lines (App. A.7).

Oracles: hand cases for every branch; exact Fractions (the returned point satisfies every
equation exactly); numpy.linalg.solve / lstsq-rank on random systems.
"""

from __future__ import annotations

from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Plane
from algorithms.extras.planes import three_planes, two_lines_2d

# ----------------------------------------------------------------------------- three planes


def test_coordinate_planes_point_and_conditioning():
    # x = 1, y = 2, z = 3: p = (1, 2, 3); unit normals mutually perpendicular -> triple 1
    r = three_planes(((1, 0, 0), 1), ((0, 1, 0), 2), ((0, 0, 1), 3))
    assert r.case == "point" and r.point == (1, 2, 3)
    assert r.denominator == 1 and r.conditioning == 1.0


def test_goldman_exact_non_unit_normals():
    # n1 = (1,1,0), n2 = (0,1,1), n3 = (1,0,1), d = (3, 5, 4): solving by hand x + y = 3,
    # y + z = 5, x + z = 4 gives x = 1, y = 2, z = 3; (n1 x n2) . n3 = (1,-1,1).(1,0,1) = 2;
    # conditioning 2 / (sqrt 2)^3 = 1/sqrt(2)
    r = three_planes(Plane((1, 1, 0), 3, exact=True), Plane((0, 1, 1), 5, exact=True),
                     Plane((1, 0, 1), 4, exact=True))
    assert r.case == "point" and r.point == (1, 2, 3) and r.denominator == 2
    assert r.conditioning == pytest.approx(2 ** -0.5)
    assert all(isinstance(c, F) for c in r.point)


def test_parallel_cases():
    # two parallel distinct planes (z = 0, z = 1) and x = 0: none, pair (0, 1)
    r = three_planes(((0, 0, 1), 0), ((0, 0, 2), 2), ((1, 0, 0), 0))
    assert r.case == "none" and r.parallel_pairs == ((0, 1),) and r.denominator == 0
    assert "1 and 2" in r.reason
    # z = 0 twice (one with normal (0,0,-2), d = 0) and x = 0: the common line is the y axis
    r = three_planes(((0, 0, 1), 0), ((0, 0, -2), 0), ((1, 0, 0), 0))
    assert r.case == "line" and r.parallel_pairs == ((0, 1),)
    assert r.point == (0, 0, 0) and np.allclose(np.cross(r.direction, (0, 1, 0)), 0)
    # all three parallel: coincident -> plane; not -> none
    r = three_planes(((0, 0, 1), 1), ((0, 0, 2), 2), ((0, 0, -1), -1))
    assert r.case == "plane" and r.point == (0, 0, 1)
    r = three_planes(((0, 0, 1), 1), ((0, 0, 2), 2), ((0, 0, 1), 5))
    assert r.case == "none" and len(r.parallel_pairs) == 3


def test_pencil_and_prism():
    # three planes through the z axis (x = 0, y = 0, x = y): the line x = y = 0
    e = lambda *v: tuple(F(c) for c in v)  # noqa: E731
    r = three_planes((e(1, 0, 0), F(0)), (e(0, 1, 0), F(0)), (e(1, -1, 0), F(0)))
    assert r.case == "line" and r.parallel_pairs == ()
    assert r.point == (0, 0, 0) and r.direction[0] == r.direction[1] == 0
    # the same normals with x - y = 1: pairwise lines parallel to z, no common point (prism)
    r = three_planes((e(1, 0, 0), F(0)), (e(0, 1, 0), F(0)), (e(1, -1, 0), F(1)))
    assert r.case == "none" and "prism" in r.reason


def test_nearly_singular_conditioning_reported():
    # n3 tilted 1e-9 out of the plane of n1, n2: still a point, conditioning ~ 1e-9
    r = three_planes(((1, 0, 0), 0), ((0, 1, 0), 0), ((1, 1, 1e-9), 1e-9))
    assert r.case == "point" and abs(r.conditioning) == pytest.approx(1e-9 / np.sqrt(2), rel=1e-6)
    assert r.point == pytest.approx((0, 0, 1))


ints = st.integers(-5, 5)


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.tuples(ints, ints, ints, ints), min_size=3, max_size=3))
def test_exact_random_systems_against_rank(rows):
    normals = [tuple(F(c) for c in r[:3]) for r in rows]
    if any(all(c == 0 for c in n) for n in normals):
        return
    ds = [F(r[3]) for r in rows]
    r = three_planes(*zip(normals, ds))
    A = np.array([[float(c) for c in n] for n in normals])
    Ab = np.column_stack([A, [float(d) for d in ds]])
    rank_a, rank_ab = np.linalg.matrix_rank(A), np.linalg.matrix_rank(Ab)
    if rank_a == 3:
        assert r.case == "point"
        assert all(sum(a * b for a, b in zip(n, r.point)) == d for n, d in zip(normals, ds))
    elif rank_ab > rank_a:
        assert r.case == "none"
    elif rank_a == 2:
        assert r.case == "line"
        p, u = r.point, r.direction
        for n, d in zip(normals, ds):  # the line lies in every plane, exactly
            assert sum(a * b for a, b in zip(n, p)) == d
            assert sum(a * b for a, b in zip(n, u)) == 0
    else:
        assert r.case == "plane"


def test_float_random_points_against_numpy():
    rng = np.random.default_rng(3)
    for _ in range(200):
        N = rng.normal(size=(3, 3))
        d = rng.normal(size=3)
        r = three_planes(*[(tuple(N[i]), d[i]) for i in range(3)])
        assert r.case == "point"
        assert np.allclose(r.point, np.linalg.solve(N, d), atol=1e-8 / max(abs(r.conditioning), 1e-3))
        want = np.linalg.det(N) / np.prod(np.linalg.norm(N, axis=1))
        assert r.conditioning == pytest.approx(want, abs=1e-12)


# ----------------------------------------------------------------------------- 2D lines


def test_two_lines_three_cases():
    # x + y = 3 and x - y = 1: x = (b2 d1 - b1 d2)/(a1 b2 - a2 b1) = (-3 - 1)/(-2) = 2, y = 1
    r = two_lines_2d((1, 1, 3), (1, -1, 1))
    assert r.case == "point" and r.point == (2, 1) and r.denominator == -2
    assert r.numerators == (-4, -2)
    # parallel: x + y = 3 and 2x + 2y = 4 -> denominator 0, numerators not both 0
    r = two_lines_2d((1, 1, 3), (2, 2, 4))
    assert r.case == "parallel" and r.denominator == 0 and r.numerators != (0, 0)
    # coincident: x + y = 3 and -2x - 2y = -6 -> all numerators and the denominator are 0
    r = two_lines_2d((1, 1, 3), (-2, -2, -6))
    assert r.case == "coincident" and r.numerators == (0, 0)
    # exact fractions
    r = two_lines_2d((F(1, 3), 1, F(1, 2)), (1, F(-1, 7), 2))
    x, y = r.point
    assert F(1, 3) * x + y == F(1, 2) and x - F(1, 7) * y == 2
    with pytest.raises(ValueError, match="line2"):
        two_lines_2d((1, 1, 3), (0, 0, 1))


def test_two_lines_float_tolerance():
    # nearly parallel lines (angle 1e-15) are reported parallel, not a far-away point
    r = two_lines_2d((1.0, 1.0, 3.0), (1.0, 1.0 + 1e-15, 4.0))
    assert r.case == "parallel"
    r = two_lines_2d((1.0, 1.0, 3.0), (1.0, 1.0 + 1e-15, 3.0))
    assert r.case == "coincident"
    rng = np.random.default_rng(1)
    for _ in range(100):
        a = rng.normal(size=(2, 2))
        d = rng.normal(size=2)
        r = two_lines_2d((a[0, 0], a[0, 1], d[0]), (a[1, 0], a[1, 1], d[1]))
        assert np.allclose(r.point, np.linalg.solve(a, d))


@settings(max_examples=examples(150), deadline=None)
@given(st.lists(st.tuples(ints, ints, ints, ints), min_size=2, max_size=2), ints, ints,
       st.integers(-1, 1), st.booleans())
def test_exact_singular_systems(rows, a, b, offset, same_normal):
    # n3 = a n1 + b n2 (or n3 = a n1, all parallel when n2 = b n1 too); d3 = a d1 + b d2 +
    # offset: consistent (line or plane) when offset == 0, else none
    n1 = tuple(F(c) for c in rows[0][:3])
    n2 = tuple(F(c) for c in rows[1][:3])
    if same_normal:
        n2 = tuple(b * c for c in n1)
    n3 = tuple(a * x + b * y for x, y in zip(n1, n2))
    if any(all(c == 0 for c in n) for n in (n1, n2, n3)):
        return
    d1, d2 = F(rows[0][3]), F(rows[1][3])
    if same_normal:
        d2 = b * d1
    d3 = a * d1 + b * d2 + offset
    r = three_planes((n1, d1), (n2, d2), (n3, d3))
    A = np.array([[float(c) for c in n] for n in (n1, n2, n3)])
    Ab = np.column_stack([A, [float(d1), float(d2), float(d3)]])
    rank_a, rank_ab = np.linalg.matrix_rank(A), np.linalg.matrix_rank(Ab)
    assert r.denominator == 0
    want = "none" if rank_ab > rank_a else {2: "line", 1: "plane"}[rank_a]
    assert r.case == want
