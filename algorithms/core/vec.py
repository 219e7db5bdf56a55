"""Tiny vector helpers on tuples that work for floats and :class:`fractions.Fraction` alike.

The scalar algorithms (segment distance, separating axes with rational rotations) use these
instead of numpy so that the very same code runs in exact rational arithmetic, the way
Geometric Tools instantiates its templates with ``BSRational``. Only :func:`norm` takes a
square root (it returns a float).
"""

from __future__ import annotations

import math
from fractions import Fraction


def add(u, v):
    if len(u) == 3:  # the common case, unrolled: these run millions of times per drag
        return (u[0] + v[0], u[1] + v[1], u[2] + v[2])
    return tuple(a + b for a, b in zip(u, v))


def sub(u, v):
    if len(u) == 3:
        return (u[0] - v[0], u[1] - v[1], u[2] - v[2])
    return tuple(a - b for a, b in zip(u, v))


def scale(s, u):
    if len(u) == 3:
        return (s * u[0], s * u[1], s * u[2])
    return tuple(s * a for a in u)


def dot(u, v):
    if len(u) == 3:
        return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]
    return sum((a * b for a, b in zip(u, v)), 0 * u[0])


def dot3(u, v):
    """``u . v`` for 3-vectors, unrolled (the hot loops of GJK and the cylinder tests)."""
    return u[0] * v[0] + u[1] * v[1] + u[2] * v[2]


def sub3(u, v):
    return (u[0] - v[0], u[1] - v[1], u[2] - v[2])


def add3(u, v):
    return (u[0] + v[0], u[1] + v[1], u[2] + v[2])


def scale3(s, u):
    return (s * u[0], s * u[1], s * u[2])


def cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


def lerp(p, q, t):
    """``p + t (q - p)``."""
    return tuple(a + t * (b - a) for a, b in zip(p, q))


def sqr_norm(u):
    return dot(u, u)


def norm(u) -> float:
    """Euclidean length as a float (the only square root).

    When the squared length is no normal double (components below ``1e-154`` or above
    ``1e154``: its float underflows or overflows), the root is taken without that: ``hypot``
    on floats, the Fraction scaled by a power of four into ``[1, 4)`` on exact input (before,
    two points ``1.1e-162`` apart had a Fraction distance of ``0.0``, and the exact path
    called them touching)."""
    q = sqr_norm(u)
    try:
        f = float(q)
    except OverflowError:  # a Fraction beyond the float range
        f = math.inf
    if f >= 2.2250738585072014e-308 and f != math.inf:
        return math.sqrt(f)
    if all(c == 0 for c in u):
        return 0.0
    if isinstance(q, float):
        return math.hypot(*(float(c) for c in u))
    q = Fraction(q)
    k = (q.denominator.bit_length() - q.numerator.bit_length()) // 2  # q 4**k is about 1
    scaled = q * Fraction(4) ** k if k >= 0 else q / Fraction(4) ** (-k)
    return math.ldexp(math.sqrt(float(scaled)), -k)


def sqr_dist(p, q):
    return sqr_norm(sub(p, q))


def to_float(u) -> tuple:
    if len(u) == 3:
        return (float(u[0]), float(u[1]), float(u[2]))
    return tuple(float(a) for a in u)


_SPLIT = 134217729.0  # 2^27 + 1 (Veltkamp/Dekker)


def two_prod(a: float, b: float):
    """``(p, e)`` with ``p + e == a * b`` exactly (Dekker's TwoProduct without FMA); beyond
    about 1e300 no error term (the split would overflow)."""
    p = a * b
    c = _SPLIT * a
    d = _SPLIT * b
    if not (math.isfinite(c) and math.isfinite(d) and math.isfinite(p)):
        return p, 0.0
    a_hi = c - (c - a)
    a_lo = a - a_hi
    b_hi = d - (d - b)
    b_lo = b - b_hi
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def acc_dot(u, v, plus: float = 0.0) -> float:
    """``plus + u . v`` correctly rounded on floats (exact products, one ``math.fsum``): a sum
    that is 0 in exact arithmetic is 0 here (``(x, x, x) . (-1, 3, -2)``, where the plain sum
    rounds to 2.2e-16). On Fractions it is the exact value."""
    if isinstance(plus, float) and all(isinstance(c, float) for c in (*u, *v)):
        parts = [plus]
        for x, y in zip(u, v):
            parts.extend(two_prod(x, y))
        return math.fsum(parts)
    if isinstance(plus, float) and plus == 0:
        # the default 0.0 added to a Fraction made it a float: the "exact" ray-plane test
        # divided by a rounded d.n (8.8e-193), its t overflowed to inf and read as a miss
        return dot(u, v)
    return plus + dot(u, v)

