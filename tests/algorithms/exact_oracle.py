"""Exact rational brute force for point/segment/ray/line distances (and a capsule helper).

Independent of :mod:`algorithms.kernels.stplane`: it builds the quadratic ``Q(s, t) = a s^2 + 2 b s t
+ c t^2 + 2 d s + 2 e t + f`` of GTCG §10.8.3 in :class:`fractions.Fraction` arithmetic straight
from the book's dot-product definitions and minimises it over the domain by exhaustion: the
interior critical point (Cramer's rule, when ``ac - b^2 != 0`` and it lies in the domain), the
1-D minimum along every finite edge, every corner, and the lines ``s = 0`` and ``t = 0`` (which
every domain contains; they catch the parallel line-line valley). Since ``Q`` is convex and
bounded below, its minimum over the (closed, possibly unbounded) box is attained at one of these.

Usable by other test modules: :func:`exact_sqr_distance` takes any two of point, segment, ray,
line (float or exact primitives) and returns the exact squared distance as a Fraction.
"""

from __future__ import annotations

import math
from fractions import Fraction

_DOM = {"point": (0, 0), "segment": (0, 1), "ray": (0, None), "line": (None, None)}


def _F(v):
    return tuple(Fraction(x) for x in v)


def exact_parts(prim):
    """``(kind, B, m)`` in Fractions: ``B + u m`` over the kind's domain."""
    k = prim.kind
    if k == "point":
        return k, _F(prim.position), (Fraction(0),) * 3
    if k == "segment":
        p0, p1 = _F(prim.p0), _F(prim.p1)
        return k, p0, tuple(y - x for x, y in zip(p0, p1))
    if k in ("ray", "line"):
        return k, _F(prim.origin), _F(prim.direction)
    raise TypeError(k)


def _dot(u, v):
    return sum((x * y for x, y in zip(u, v)), Fraction(0))


def _min_1d(alpha, beta, lo, hi):
    """Argmin of ``alpha x^2 + 2 beta x`` over ``[lo, hi]`` (``None`` = unbounded)."""
    if alpha > 0:
        x = -beta / alpha
    else:
        assert beta == 0, "unbounded quadratic"
        x = Fraction(0)
    if lo is not None and x < lo:
        x = Fraction(lo)
    if hi is not None and x > hi:
        x = Fraction(hi)
    return x


def brute_force(kind0, B0, m0, kind1, B1, m1):
    """Exact ``(sqr_distance, s, t)`` minimising ``Q`` over the domain by exhaustion."""
    D = tuple(x - y for x, y in zip(B0, B1))
    a, b, c = _dot(m0, m0), -_dot(m0, m1), _dot(m1, m1)
    d, e, f = _dot(m0, D), -_dot(m1, D), _dot(D, D)

    def Q(s, t):
        return a * s * s + 2 * b * s * t + c * t * t + 2 * d * s + 2 * e * t + f

    lo0, hi0 = _DOM[kind0]
    lo1, hi1 = _DOM[kind1]

    def inside(x, lo, hi):
        return (lo is None or x >= lo) and (hi is None or x <= hi)

    cands = []
    det = a * c - b * b
    if det != 0:
        s = (b * e - c * d) / det
        t = (b * d - a * e) / det
        if inside(s, lo0, hi0) and inside(t, lo1, hi1):
            cands.append((s, t))
    s_fixed = {x for x in (lo0, hi0, 0) if x is not None}
    t_fixed = {x for x in (lo1, hi1, 0) if x is not None}
    for s in s_fixed:  # Q(s, t) = c t^2 + 2 (b s + e) t + ...
        cands.append((Fraction(s), _min_1d(c, b * s + e, lo1, hi1)))
    for t in t_fixed:  # Q(s, t) = a s^2 + 2 (b t + d) s + ...
        cands.append((_min_1d(a, b * t + d, lo0, hi0), Fraction(t)))
    for s in s_fixed:
        for t in t_fixed:
            cands.append((Fraction(s), Fraction(t)))
    best = min(cands, key=lambda st: Q(*st))
    return Q(*best), best[0], best[1]


def exact_sqr_distance(prim0, prim1) -> Fraction:
    """Exact squared distance between two of point, segment, ray, line."""
    return brute_force(*exact_parts(prim0), *exact_parts(prim1))[0]


def fraction_sqrt(q: Fraction) -> float:
    """``sqrt(q)`` as a float within an ulp, without under/overflow of ``float(q)`` (q can be
    1e-500 for points 1e-250 apart): scale by ``4^k`` into ``[1, 4)`` first."""
    if q == 0:
        return 0.0
    k = (q.denominator.bit_length() - q.numerator.bit_length()) // 2
    scaled = q * Fraction(4) ** k if k >= 0 else q / Fraction(4) ** (-k)
    return math.ldexp(math.sqrt(float(scaled)), -k)


def exact_distance(prim0, prim1) -> float:
    """The exact distance, correctly rounded to a float up to one square-root rounding."""
    return fraction_sqrt(exact_sqr_distance(prim0, prim1))


def exact_point_segment_sqr(q, p0, p1) -> Fraction:
    """Exact squared distance from point ``q`` to segment ``p0 p1`` (all converted exactly)."""
    q, p0, p1 = _F(q), _F(p0), _F(p1)
    m = tuple(y - x for x, y in zip(p0, p1))
    return brute_force("point", q, (Fraction(0),) * 3, "segment", p0, m)[0]
