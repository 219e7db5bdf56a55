"""App. A.8 (issue 13, part 1): the lines of two rays are crossing, parallel, coincident or skew.

Oracle: exact Fractions, independent of A.8's cross-product formulas: Gaussian elimination on
the 3 x 2 system ``t1 d1 - t2 d2 = p2 - p1`` (consistent and unique: crossing; consistent, rank
1: coincident; inconsistent, rank 1: parallel; inconsistent, rank 2: skew).
"""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import Line, Ray, Segment
from algorithms.extras.planes import two_rays
from algorithms.report import evaluate_json


def eliminate(rows):
    """Row-reduce (Fractions); returns (rank of the coefficient part, consistent, solution)."""
    m = [[Fraction(x) for x in r] for r in rows]
    rank, col = 0, 0
    piv_cols = []
    while rank < len(m) and col < 2:
        piv = next((i for i in range(rank, len(m)) if m[i][col] != 0), None)
        if piv is None:
            col += 1
            continue
        m[rank], m[piv] = m[piv], m[rank]
        for i in range(len(m)):
            if i != rank and m[i][col] != 0:
                k = m[i][col] / m[rank][col]
                m[i] = [a - k * b for a, b in zip(m[i], m[rank])]
        piv_cols.append(col)
        rank += 1
        col += 1
    consistent = all(m[i][2] == 0 for i in range(rank, len(m)))
    sol = None
    if consistent and rank == 2:
        sol = tuple(m[i][2] / m[i][piv_cols[i]] for i in range(2))
    return rank, consistent, sol


def oracle(p1, d1, p2, d2):
    rows = [[d1[i], -d2[i], p2[i] - p1[i]] for i in range(3)]
    rank, consistent, sol = eliminate(rows)
    if consistent:
        return ("crossing", sol) if rank == 2 else ("coincident", None)
    return ("skew" if rank == 2 else "parallel"), None


small = st.integers(-4, 4)
vec = st.tuples(small, small, small)
dvec = vec.filter(any)


def parallel_to(d):
    return st.integers(-3, 3).filter(bool).map(lambda k: tuple(k * c for c in d))


@st.composite
def cases(draw):
    p1, d1 = draw(vec), draw(dvec)
    kind = draw(st.sampled_from(["any", "parallel", "through"]))
    if kind == "parallel":
        d2 = draw(parallel_to(d1))
        p2 = draw(vec)
    else:
        d2 = draw(dvec)
        p2 = draw(vec)
        if kind == "through":  # make them meet at p1 + k d1
            k = draw(small)
            q = tuple(a + k * b for a, b in zip(p1, d1))
            j = draw(small)
            p2 = tuple(a - j * b for a, b in zip(q, d2))
    return p1, d1, p2, d2


@settings(max_examples=examples(400), deadline=None)
@given(cases())
def test_classification_matches_exact_elimination(case):
    p1, d1, p2, d2 = case
    want, sol = oracle(p1, d1, p2, d2)
    exact = two_rays(*(tuple(Fraction(c) for c in v) for v in case))
    floats = two_rays(*(tuple(float(c) for c in v) for v in case))
    assert exact.case == want and floats.case == want
    if want == "crossing":
        assert (exact.t1, exact.t2) == sol  # A.8's formulas give the crossing parameters
        assert floats.t1 == pytest.approx(float(sol[0])) and floats.gap == 0
    # swapping the lines swaps t1 and t2 and keeps the case
    swapped = two_rays(*(tuple(Fraction(c) for c in v) for v in (p2, d2, p1, d1)))
    assert swapped.case == want and (swapped.t1, swapped.t2) == (exact.t2, exact.t1)


def test_in_results_by_hand():
    x = Ray((-1, 0, 0), (1, 0, 0))
    # crossing at the origin: t1 = 1 on x, t2 = 1 on the ray from (0, -1, 0) along +y
    r = evaluate_json(x, Ray((0, -1, 0), (0, 1, 0)))["trace"]["two rays"]
    assert r["case"] == "crossing" and (r["t1"], r["t2"]) == (1, 1) and r["within"]
    # lifted by 1 in z: skew, closest approach 1 apart at the same parameters
    r = evaluate_json(x, Ray((0, -1, 1), (0, 1, 0)))["trace"]["two rays"]
    assert r["case"] == "skew" and r["gap"] == 1
    # the lines cross behind the second ray's origin: t2 = -1 is outside [0, inf)
    r = evaluate_json(x, Ray((0, 1, 0), (0, 1, 0)))["trace"]["two rays"]
    assert r["case"] == "crossing" and r["t2"] == -1 and r["within"] is False
    assert evaluate_json(x, Line((0, 1, 0), (2, 0, 0)))["trace"]["two rays"]["case"] == "parallel"
    assert evaluate_json(x, Segment((3, 0, 0), (5, 0, 0)))["trace"]["two rays"]["case"] == \
        "coincident"
    # a segment of zero length is a point: not classified
    assert "two rays" not in evaluate_json(x, Segment((3, 1, 0), (3, 1, 0)))["trace"]


def test_huge_and_tiny_pairs_classified_at_unit_scale():
    # A (-k, 0, 0) + t1 (1, 0, 0), B (0, -k, k) + t2 (0, 1, 0): A(t1) - B(t2) =
    # (t1 - k, -(t2 - k), -k), least at t1 = t2 = k, where the lines are k apart in z:
    # skew, d1 x d2 = (0, 0, 1), |d1 x d2|^2 = 1 (hand-derived; the exact oracle agrees).
    # At k = 1e200 the float A.8 squared |r1(t1) - r2(t2)| = 1e400 to inf, and the test
    # |w . c| <= 1e-12 |w| |c| 4 read inf on the right: "crossing", gap 0, beside the
    # distance 1e200 of the same result. At k = 1e-200 the square underflowed to 0 and the
    # scale's floor of 1 made 1e-200 "crossing" as well. Now classified at unit scale.
    for k in (1e200, 1e-200):
        a, b = Ray((-k, 0.0, 0.0), (1.0, 0.0, 0.0)), Ray((0.0, -k, k), (0.0, 1.0, 0.0))
        assert oracle(*(tuple(Fraction(c) for c in v) for v in
                        (a.origin, a.direction, b.origin, b.direction)))[0] == "skew"
        out = evaluate_json(a, b)
        r = out["trace"]["two rays"]
        assert r["case"] == "skew" and (r["t1"], r["t2"], r["gap"]) == (k, k, k)
        assert r["|d1 x d2|^2"] == 1.0 and r["within"] is True
        assert out["distance"] == k and out["intersects"] is False


def test_rays_1e200_apart_are_not_coincident():
    # The long fuzz's pair (tests/algorithms/queries/test_nearly_parallel.py, SEED=1
    # FUZZ_SCALE=10): A (2, -1, 1e200) + s (-2, 1e-300, 0), B (2, -2, -2) + t (-2, w, 0),
    # w = fl(1e-300 + 2.2250738585072e-309). |d1 x d2|^2 = (2 (w - 1e-300))^2 ~ 2e-617 is
    # within 1e-12 of |d1|^2 |d2|^2 = 16: parallel at A.8's tolerance; with p2 - p1 =
    # (0, -1, -2 - 1e200), (p2 - p1) x d1 = (1e-300 (1e200 + 2), 2 (1e200 + 2), -2) gives the
    # gap |(p2 - p1) x d1| / |d1| = 1e200 + 2 -> 1e200 (the distance of the same result).
    # Before: that square overflowed, inf <= 1e-12 inf, and the rays were "coincident", gap 0
    a = Ray((2.0, -1.0, 1e200), (-2.0, 1e-300, 0.0))
    b = Ray((2.0, -2.0, -2.0), (-2.0, 1e-300 + 2.2250738585072e-309, 0.0))
    for x, y in ((a, b), (b, a)):
        out = evaluate_json(x, y)
        r = out["trace"]["two rays"]
        assert r["case"] == "parallel" and r["gap"] == 1e200 == out["distance"]


def test_directions_1e8_rad_apart_are_not_parallel():
    # A (0,0,0) + t1 (1,0,0), B (0,1,0) + t2 (1,-1e-8,0): B's y = 1 - 1e-8 t2 is 0 at
    # t2 = 1e8, where x = 1e8 = t1: the lines cross at (1e8, 0, 0). Their sine is 1e-8, far
    # above the policy's PARALLEL_SIN (1e-12); A.8 compared |c|^2 = 1e-16 with 1e-12 |d1|^2
    # |d2|^2 (a sine of 1e-6) and said "parallel", 1 apart, beside the distance 0
    a, b = Line((0.0, 0.0, 0.0), (1.0, 0.0, 0.0)), Line((0.0, 1.0, 0.0), (1.0, -1e-8, 0.0))
    r = two_rays(a.origin, a.direction, b.origin, b.direction)
    assert r.case == "crossing" and r.gap == 0.0
    assert r.t1 == pytest.approx(1e8, rel=1e-15) and r.t2 == pytest.approx(1e8, rel=1e-15)
    out = evaluate_json(a, b)
    assert out["distance"] == 0.0 and out["trace"]["two rays"]["case"] == "crossing"
    # still parallel within the policy's sine: 1e-13
    assert two_rays((0.0, 0.0, 0.0), (1.0, 0.0, 0.0), (0.0, 1.0, 0.0),
                    (1.0, 1e-13, 0.0)).case == "parallel"
