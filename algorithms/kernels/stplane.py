"""The st-plane minimiser of GTCG §10.8: distance between two linear components (or points).

Schneider & Eberly, *Geometric Tools for Computer Graphics*, §10.8.3 ("Segment to Segment,
Alternative Approach", Figs. 10.36-10.37) and the ray-segment domain of Fig. 10.35: the squared
distance between ``L0(s) = B0 + s m0`` and ``L1(t) = B1 + t m1`` is the quadratic

    Q(s, t) = a s^2 + 2 b s t + c t^2 + 2 d s + 2 e t + f

with the book's signs ``a = m0.m0``, ``b = -m0.m1``, ``c = m1.m1``, ``d = m0.(B0 - B1)``,
``e = -m1.(B0 - B1)``, ``f = |B0 - B1|^2`` and ``det = a c - b^2 = |m0 x m1|^2``. Each parameter
ranges over its component's *domain*: ``{0}`` for a point, ``[0, 1]`` for a segment, ``[0, inf)``
for a ray, all reals for a line.

Regions
-------
The unconstrained minimiser ``(s_bar, t_bar) = ((b e - c d)/det, (b d - a e)/det)`` is classified
with the book's numbering of Fig. 10.36, applied to the box ``S x T`` of the two domains::

        4 | 3 | 2        t above T
        --+---+--
        5 | 0 | 1        t in T
        --+---+--
        6 | 7 | 8        t below T
     s below | s in S | s above

For segment-segment this is exactly Fig. 10.36. For ray-segment (s on the ray) the domain is the
half-strip of Fig. 10.35, ``s`` is never "above", so only regions 0, 3, 4, 5, 6, 7 occur; for a
line parameter only the middle column (or row) occurs; line-line is always region 0.

Robustness beyond the book
--------------------------
The book visits only the edge(s) its region implies, after testing ``det < epsilon``; for nearly
parallel components the computed ``det`` and region are rounding noise and the answer can be far
off (the long-standing report against the published code). Here:

* ``det`` is ``|m0 x m1|^2`` and the numerators of ``s_bar, t_bar`` are the Lagrange-identity
  forms ``(m1 x D).(m0 x m1) = b e - c d`` and ``(m0 x D).(m0 x m1) = b d - a e``
  (``D = B0 - B1``), i.e. the closest approach of the Primer, App. A.8: no ``a c - b^2``
  cancellation;
* the coefficients use only ``D = B0 - B1`` and the directions (the frame centred at ``B1``),
  so coordinates of 1e6 around unit segments lose nothing;
* by convexity the minimum over the domain is the interior critical point (region 0) or lies on
  the boundary; we therefore evaluate the conditional minimum on *every* finite edge of the
  domain (a clamped 1-D projection, Primer App. A.2: never a division by ``det``) and keep the
  candidate with the least distance ``|D + s m0 - t m1|``. A misclassified region can then
  only cost a candidate, never the answer. When the critical point is in the domain,
  ``(s_bar, t(s_bar))`` and ``(s(t_bar), t_bar)`` (one parameter from the formula, the
  other by projection) are both candidates, which makes the error along the flat valley of a
  nearly parallel pair second order;
* in float arithmetic the cross products ``m0 x m1``, ``m1 x D``, ``m0 x D`` and the dots
  forming the numerators are correctly rounded (Dekker's TwoProduct and ``math.fsum``), so a
  nearly parallel pair keeps the true direction of its tiny ``m0 x m1``; a cross product that
  is tiny or huge (an angle of 1e-180) is scaled by an exact power of two first;
* each edge candidate's ``L0(s) - L1(t)`` is formed from the input points with exact products
  and ``fsum`` (one rounding per component), so candidates are ranked by their true distance
  at their parameters; the region-0 candidate is ranked by the lines' distance
  ``|D.n| / |n|`` (``n = m0 x m1``, Primer A.8), which stays accurate where ``s_bar, t_bar``
  are too large for ``L0(s) - L1(t)`` to be evaluated (rays crossing 1e170 away). Distances are
  ``hypot``-based (no overflow);
* the parallel case (``m0 x m1 == 0``) needs no special code: the edge candidates find it, and the
  trace records the book's ``sigma0 = -d/a``, ``sigma1 = -(b + d)/a`` and the valley line
  ``a s + b t + d = 0`` along which ``Q`` is least, for the level-line drawing.

With ``Fraction`` inputs (``Segment(..., exact=True)``) the same code runs with plain
``+ - * /`` and comparisons (the float-only refinements above are skipped) and returns the exact
``s``, ``t`` and squared distance; the only square root is taken at the very end.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from algorithms.core import vec as V
from algorithms.kernels.filters import FALLBACKS
from algorithms.kernels.filters import STATE as _filters_state
from algorithms.primitives import GeometryError, Line, Point, Ray, Segment
from algorithms.results import DISTANCE_BUILDER, PENDING, DistanceResult, make_with

#: parameter domain of each kind: (lo, hi), ``None`` meaning unbounded
DOMAINS = {"point": (0, 0), "segment": (0, 1), "ray": (0, None), "line": (None, None)}

# (s class, t class) -> region of Fig. 10.36; class -1 below the domain, 0 in it, 1 above it
_REGION = {(0, 0): 0, (1, 0): 1, (1, 1): 2, (0, 1): 3, (-1, 1): 4, (-1, 0): 5, (-1, -1): 6,
           (0, -1): 7, (1, -1): 8}

METHOD = "st-plane minimisation, regions 0-8 (Eberly & Schneider, GTCG §10.8.3, Figs. 10.35-10.37)"


def linear_form(prim):
    """``(kind, B, m)`` with the component ``B + u m`` over ``DOMAINS[kind]``.

    A point is ``B = position``, ``m = 0``; a segment ``B = p0``, ``m = p1 - p0``; a ray or line
    its origin and direction.
    """
    if isinstance(prim, Point):
        p = prim.position
        return "point", p, tuple(0 * x for x in p)
    if isinstance(prim, Segment):
        return "segment", prim.p0, prim.direction
    if isinstance(prim, (Ray, Line)):
        return prim.kind, prim.origin, prim.direction
    raise TypeError(f"not a point or linear component: {prim.kind}")


def clamp(x, lo, hi):
    """``x`` clamped to ``[lo, hi]`` (``None`` = unbounded)."""
    if lo is not None and x < lo:
        return lo
    if hi is not None and x > hi:
        return hi
    return x


def classify(x, lo, hi) -> int:
    """-1 below ``[lo, hi]``, 0 inside, 1 above."""
    if lo is not None and x < lo:
        return -1
    if hi is not None and x > hi:
        return 1
    return 0


def point_at(kind, B, m, u, end=None):
    """``B + u m``; for a segment ``u == 1`` returns the stored end point ``end`` exactly."""
    if kind == "point" or u == 0:
        return B
    if end is not None and u == 1:
        return end
    return tuple(bi + u * mi for bi, mi in zip(B, m))


_SPLIT = 134217729.0  # 2^27 + 1 (Veltkamp/Dekker)


def _two_prod(a: float, b: float):
    """``(p, e)`` with ``p + e == a * b`` exactly (Dekker's TwoProduct without FMA)."""
    p = a * b
    c = _SPLIT * a
    d = _SPLIT * b
    if not (math.isfinite(c) and math.isfinite(d) and math.isfinite(p)):
        return p, 0.0  # beyond 1e300: no error term (never reached at sane scales)
    a_hi = c - (c - a)
    a_lo = a - a_hi
    b_hi = d - (d - b)
    b_lo = b - b_hi
    return p, ((a_hi * b_hi - p) + a_hi * b_lo + a_lo * b_hi) + a_lo * b_lo


def _terms(kind, B, m, end, u):
    """The point at parameter ``u`` as a sum of ``coefficient * vector`` terms whose products
    are formed exactly: ``p0 - u p0 + u p1`` for a segment, ``B + u m`` otherwise."""
    if kind == "point":
        return ((1.0, B),)
    if end is not None:
        return ((1.0, B), (-u, B), (u, end))
    return ((1.0, B), (u, m))


def _accurate_sum(terms, minus=()):
    """``sum(c v) - sum(c' v')`` per component, correctly rounded: every product split into
    ``p + e`` exactly (Dekker's TwoProduct, :func:`_two_prod` inlined), then ``math.fsum``."""
    parts = [[], [], []]
    for sign, group in ((1.0, terms), (-1.0, minus)):
        for c, v in group:
            c = sign * c
            if c == 1.0 or c == -1.0 or c == 0.0 or not abs(c) < 1e290:
                for i in range(3):
                    parts[i].append(c * v[i])
                continue
            cs = _SPLIT * c
            c_hi = cs - (cs - c)
            c_lo = c - c_hi
            for i in range(3):
                x = v[i]
                p = c * x
                if abs(x) < 1e290 and abs(p) < 1e300:
                    xs = _SPLIT * x
                    x_hi = xs - (xs - x)
                    x_lo = x - x_hi
                    parts[i].extend((p, ((c_hi * x_hi - p) + c_hi * x_lo + c_lo * x_hi)
                                     + c_lo * x_lo))
                else:
                    parts[i].append(p)
    return tuple(math.fsum(q) for q in parts)


def _acc_dot(u, v) -> float:
    """``u . v`` correctly rounded (exact products, ``fsum``)."""
    parts = []
    for x, y in zip(u, v):
        parts.extend(_two_prod(x, y))
    return math.fsum(parts)


def _acc_cross(u, v) -> tuple:
    """``u x v`` with each component correctly rounded: a nearly parallel pair keeps the
    direction of its tiny cross product (no ``u1 v2 - u2 v1`` cancellation)."""
    out = []
    for i, j in ((1, 2), (2, 0), (0, 1)):
        p, e = _two_prod(u[i], v[j])
        q, f = _two_prod(-u[j], v[i])
        out.append(math.fsum((p, e, q, f)))
    return tuple(out)


def _points_finite(kind0, B0, m0, end0, s, kind1, B1, m1, end1, t) -> bool:
    """Whether ``L0(s)`` and ``L1(t)`` (float parameters) have finite coordinates, each
    formed as :func:`_accurate_sum` forms the closest points (one product per component for a
    ray or line, so an overflow is ``+-inf``, never ``inf - inf``)."""
    for kind, B, m, end, u in ((kind0, B0, m0, end0, s), (kind1, B1, m1, end1, t)):
        u = float(u)
        # at most three terms, each below max(1, |u|) times the largest coordinate: below
        # 2^960 (Dekker's split of a coordinate stays finite too) the sum is finite, known
        # without forming it (the common case, every careful region-0 solve)
        big = max(max(abs(x) for x in B), max(abs(x) for x in m),
                  max(abs(x) for x in end) if end is not None else 0.0)
        if max(1.0, abs(u)) * big < 2.0 ** 960:
            continue
        if not all(math.isfinite(x) for x in _accurate_sum(_terms(kind, B, m, end, u))):
            return False
    return True


def _finite(x) -> bool:
    return not isinstance(x, float) or math.isfinite(x)


#: below this the correctly rounded ``m0 x m1`` may be subnormal, with fewer than 53 bits:
#: :func:`st_minimize` then takes the exact critical point (:func:`_exact_bar`)
_SUBNORMAL_CROSS = 2.0 ** -960


def _exact_cross(u, v) -> tuple:
    """``u x v`` in exact rational arithmetic (the floats' binary values)."""
    from fractions import Fraction

    return V.cross([Fraction(x) for x in u], [Fraction(x) for x in v])


def _to_float(q) -> float:
    """A Fraction (or float) rounded to a float, ``+-inf`` beyond the float range."""
    try:
        return float(q)
    except OverflowError:
        return math.inf if q > 0 else -math.inf


def _exact_bar(B0, m0, B1, m1, n=None):
    """``(s_bar, t_bar, nk)`` of two non-parallel float directions whose rounded critical
    point failed (``m0 x m1`` underflowed, or ``s_bar`` overflowed): computed in exact
    rational arithmetic (the Primer's A.8 formulas) and rounded once (``+-inf`` beyond the
    float range). ``n`` is the exact ``m0 x m1`` when the caller has it; ``nk`` is ``n``
    scaled by a power of two to floats of order one (its direction is all the lines'
    distance ``|D.n| / |n|`` needs). The slow path of a rare case."""
    from fractions import Fraction

    # the formulas of st_minimize's own exact (Fraction) path, on the floats' binary values
    if n is None:
        n = _exact_cross(m0, m1)
    D = [Fraction(p) - Fraction(q) for p, q in zip(B0, B1)]
    nn = V.dot(n, n)

    def bar(m):
        return V.dot(V.cross([Fraction(x) for x in m], D), n) / nn

    big = max(abs(x) for x in n)
    k = big.denominator.bit_length() - big.numerator.bit_length()  # 2^k big is of order 1
    nk = tuple(float(x * Fraction(2) ** k) for x in n)
    return bar(m1), bar(m0), nk


def _exact_points(B0, m0, s, B1, m1, t):
    """``(B0 + s m0, B1 + t m1)`` in exact rational arithmetic (``s``, ``t`` the Fractions of
    :func:`_exact_bar`), or ``None`` when a coordinate rounds beyond the float range."""
    from fractions import Fraction

    points = tuple(tuple(Fraction(o) + u * Fraction(x) for o, x in zip(B, m))
                   for B, m, u in ((B0, m0, s), (B1, m1, t)))
    if all(math.isfinite(_to_float(x)) for p in points for x in p):
        return points
    return None


class BeyondFloatRange(GeometryError):
    """Two nearly parallel linear components come closest beyond the float range: their
    critical point ``(s_bar, t_bar)`` lies in the domain, but it and the closest points are
    too far out to be represented (``|coordinate| > 1.8e308`` at the scale the pair is
    computed at: :func:`algorithms.core.tolerance.call_rescaled` puts a pair of size 1e-300 at
    unit size, so there a crossing 2e23 out is 1e323 sizes out). A clear refusal instead of the
    nearest-looking wrong number (treating them as parallel gave 1.22e-12 for lines 7.07e-13
    apart). Field ``closest``; ``value`` is ``(s_bar, t_bar)`` rounded (``+-inf``), in the
    query's own units (the registry may have rescaled the pair); ``crossing``: whether they
    meet there. ``scale_dependent``: the rescaled query may retry at the pair's own scale
    (:func:`algorithms.core.tolerance.call_rescaled`), where the points may be floats."""

    scale_dependent = True

    def __init__(self, s_bar, t_bar, distance):
        self.crossing = distance == 0
        where = "cross" if self.crossing else "come closest"
        super().__init__("closest", f"nearly parallel: they {where} beyond the float range "
                                    f"(more than 1.8e308 out at the scale the pair is computed "
                                    f"at), so neither the closest points nor the distance can "
                                    f"be given",
                         (_to_float(s_bar), _to_float(t_bar)))


@dataclass
class STSolution:
    """The minimiser of ``Q`` over the domain: parameters, squared distance, closest points.

    ``s``/``t`` and ``sqr_distance`` are Fractions when the inputs were; ``closest`` are the
    points ``L0(s)``, ``L1(t)``; ``diff = L0(s) - L1(t)`` computed in the centred frame.
    """

    s: object
    t: object
    sqr_distance: object
    closest: tuple
    diff: tuple
    trace: dict = field(default_factory=dict)
    dist: object = None  # float mode: the distance as ranked (|diff| or the lines' distance)

    @property
    def distance(self) -> float:
        """The distance as a float: the only square root (``hypot``, so no overflow)."""
        if self.dist is not None:
            return self.dist
        if all(isinstance(x, float) for x in self.diff):
            return math.hypot(*self.diff)
        return V.norm(self.diff)


def st_minimize(kind0, B0, m0, kind1, B1, m1, end0=None, end1=None) -> STSolution:
    """Minimise ``Q(s, t) = |B0 + s m0 - B1 - t m1|^2`` over ``DOMAINS[kind0] x DOMAINS[kind1]``.

    Eberly & Schneider, GTCG §10.8.3 (regions 0-8, Fig. 10.36) generalised to every pair of
    domains (Fig. 10.35 for rays), with the robust candidate evaluation described in the module
    docstring. ``end0``/``end1`` are a segment's ``p1`` (returned exactly at ``s = 1``).

    Returns
    -------
    STSolution
        with ``trace`` holding ``domain a b c d e f det parallel s_bar t_bar region candidates
        edge s t sqr_distance`` (and ``sigma0 sigma1 valley`` when parallel).
    """
    lo0, hi0 = DOMAINS[kind0]
    lo1, hi1 = DOMAINS[kind1]
    D = V.sub(B0, B1)
    a = V.dot(m0, m0)
    b = -V.dot(m0, m1)
    c = V.dot(m1, m1)
    d = V.dot(m0, D)
    e = -V.dot(m1, D)
    f = V.dot(D, D)
    floats = isinstance(f, float)
    cross, dot = (_acc_cross, _acc_dot) if floats else (V.cross, V.dot)
    n = cross(m0, m1)
    det = V.dot(n, n)
    zero = 0 * f

    def diff(s, t):
        if floats:
            # L0(s) - L1(t) from the input points with exact products and one rounding per
            # component, so every candidate's Q is its true value at (s, t) to ~1 ulp
            return _accurate_sum(_terms(kind0, B0, m0, end0, float(s)),
                                 _terms(kind1, B1, m1, end1, float(t)))
        return tuple(Di + s * ui - t * vi for Di, ui, vi in zip(D, m0, m1))

    def t_of_s(s):
        # Q_t = 0: t = (D + s m0).m1 / c  (projection of L0(s) on L1, Primer A.2)
        if c == 0:
            return zero
        return V.dot(tuple(Di + s * ui for Di, ui in zip(D, m0)), m1) / c

    def s_of_t(t):
        # Q_s = 0: s = -(D - t m1).m0 / a
        if a == 0:
            return zero
        return -V.dot(tuple(Di - t * vi for Di, vi in zip(D, m1)), m0) / a

    candidates = []

    def add(label, s, t, dist=None):
        v = diff(s, t)
        # float mode ranks by distance (hypot: no overflow when parameters are ~1e180)
        if floats:
            key = math.hypot(*v) if dist is None else dist
            q = key * key
        else:
            key = q = V.dot(v, v)
        candidates.append({"edge": label, "s": s, "t": t, "sqr_distance": q, "_v": v,
                           "_key": key})

    trace = {"domain": f"{kind0}-{kind1}", "a": a, "b": b, "c": c, "d": d, "e": e, "f": f,
             "det": det}
    degenerate = []
    if kind0 == "segment" and a == 0:
        degenerate.append("A has zero length")
    if kind1 == "segment" and c == 0:
        degenerate.append("B has zero length")
    if degenerate:
        trace["degenerate"] = degenerate

    s_bar = t_bar = None
    region = None
    parallel = all(x == 0 for x in n)
    beyond = None  # the float path's exact critical point, when the rounded one failed
    if floats and a != 0 and c != 0 and max(abs(x) for x in n) < _SUBNORMAL_CROSS:
        # m0 x m1 underflowed to 0 or to subnormals, whose few bits make s_bar noise
        # (directions 1e-320 rad apart: a subnormal component); unless the directions are
        # parallel exactly, decide with the exact critical point
        exact_n = _exact_cross(m0, m1)
        if any(exact_n):
            beyond = _exact_bar(B0, m0, B1, m1, exact_n)
            parallel = False
    if not parallel and beyond is None:
        # s_bar = (m1 x D).n / n.n is of degree -1 in n: a tiny or huge float n (an angle of
        # 1e-180) is first scaled by an exact power of two 2^k, then s_bar = 2^k (...)/(...)
        k = 0
        if floats:
            big = max(abs(x) for x in n)
            if not 2.0 ** -400 <= big <= 2.0 ** 400:
                k = -math.frexp(big)[1]
        nk = tuple(math.ldexp(x, k) for x in n) if k else n
        detk = V.dot(nk, nk)
        s_bar = dot(cross(m1, D), nk) / detk  # (b e - c d) / det
        t_bar = dot(cross(m0, D), nk) / detk  # (b d - a e) / det
        if k:
            s_bar, t_bar = _ldexp(s_bar, k), _ldexp(t_bar, k)
        if not (_finite(s_bar) and _finite(t_bar)):
            beyond = _exact_bar(B0, m0, B1, m1)  # det underflowed or s_bar overflowed
    if beyond is not None:
        exact_s, exact_t, nk = beyond
        s_bar, t_bar = _to_float(exact_s), _to_float(exact_t)
    if not parallel:
        region = _REGION[(classify(s_bar, lo0, hi0), classify(t_bar, lo1, hi1))]
        if region == 0 and not (math.isfinite(s_bar) and math.isfinite(t_bar)):
            dist = abs(dot(D, nk)) / math.hypot(*nk)
            points = _exact_points(B0, m0, exact_s, B1, m1, exact_t)
            if points is None:
                raise BeyondFloatRange(exact_s, exact_t, dist)
            # a parameter beyond the floats, but the points within them: rays 2.2e-309 rad
            # apart with directions of length 0.7 cross at t = 2.25e308, at the point
            # (-1.12e308, -0.5, -1.12e308). The answer is the exact critical point (region 0
            # is the minimum over the domain, Q being convex), its points rounded once; s and
            # t are +-inf (rounded), which evaluate_pair reports as a first_t beyond the floats
            trace.update({"parallel": False, "s_bar": s_bar, "t_bar": t_bar, "region": 0,
                          "candidates": [{"edge": "interior", "s": s_bar, "t": t_bar,
                                          "sqr_distance": dist * dist}],
                          "edge": "interior", "s": s_bar, "t": t_bar,
                          "sqr_distance": dist * dist})
            diff = tuple(_to_float(x) for x in V.sub(*points))
            closest = tuple(tuple(_to_float(x) for x in p) for p in points)
            return STSolution(s_bar, t_bar, dist * dist, closest, diff, trace, dist)
        if region == 0 and floats and not _points_finite(kind0, B0, m0, end0, s_bar,
                                                         kind1, B1, m1, end1, t_bar):
            # s_bar, t_bar are floats but B + s_bar m is not: the closest points lie beyond
            # the float range (rays 1e-309 rad apart, s_bar = 1.1e308 along a direction of
            # length 2). Before, their products overflowed to -inf and +inf in
            # L0(s) - L1(t) and math.fsum raised a bare ValueError
            if beyond is None:
                exact_s, exact_t = s_bar, t_bar
            raise BeyondFloatRange(exact_s, exact_t, abs(dot(D, nk)) / math.hypot(*nk))
        if region == 0:
            # in floats the critical point's Q is the lines' distance |D.n|/|n| (Primer A.8),
            # accurate even where (s_bar, t_bar) are too large to evaluate L0 - L1 at
            perp = abs(dot(D, nk)) / math.hypot(*nk) if floats else None
            # each parameter projected from the other (the accurate one of the pair), or the
            # critical point's own where the projection's dot overflowed: (D + s m0).m1 with
            # s = 1.1e308 sums two terms of 1.1e308 (rays 2e-309 rad apart, the long fuzz)
            t_s, s_t = t_of_s(s_bar), s_of_t(t_bar)
            if floats and not math.isfinite(t_s):
                t_s = t_bar
            if floats and not math.isfinite(s_t):
                s_t = s_bar
            add("interior", s_bar, clamp(t_s, lo1, hi1), perp)
            add("interior", clamp(s_t, lo0, hi0), t_bar, perp)
    trace.update({"parallel": bool(parallel and a != 0 and c != 0), "s_bar": s_bar,
                  "t_bar": t_bar, "region": region})
    if parallel and a != 0:
        # GTCG §10.8.3 "Parallel Line Segments": B1 and B1 + m1 project to sigma0, sigma1 on L0
        trace["sigma0"] = -d / a
        trace["sigma1"] = -(b + d) / a
    if parallel:
        # the valley where grad Q = 0 (Q is least along it): a s + b t + d = 0, or c t + e = 0
        if a != 0:
            trace["valley"] = {"point": (-d / a, zero), "direction": (-b / a, 1 + zero)}
        elif c != 0:
            trace["valley"] = {"point": (zero, -e / c), "direction": (1 + zero, zero)}

    # the edges of the domain: s fixed at a finite bound, t its clamped conditional minimum
    for bound, name in ((lo0, "s=lo"), (hi0, "s=hi")):
        if bound is not None and not (name == "s=hi" and hi0 == lo0):
            add(f"s={bound}", bound + zero, clamp(t_of_s(bound), lo1, hi1))
    for bound, name in ((lo1, "t=lo"), (hi1, "t=hi")):
        if bound is not None and not (name == "t=hi" and hi1 == lo1):
            add(f"t={bound}", clamp(s_of_t(bound), lo0, hi0), bound + zero)
    if not candidates:
        # line-line parallel (the only domain with no edge and no critical point): the valley
        add("valley", zero, t_of_s(zero))

    best = min(candidates, key=lambda cand: cand["_key"])
    s, t, q, v = best["s"], best["t"], best["sqr_distance"], best["_v"]
    dist = best["_key"] if floats else None
    trace["candidates"] = [{k: w for k, w in cand.items() if k[0] != "_"}
                           for cand in candidates]
    trace.update({"edge": best["edge"], "s": s, "t": t, "sqr_distance": q})
    if floats:
        closest = (_accurate_sum(_terms(kind0, B0, m0, end0, float(s))),
                   _accurate_sum(_terms(kind1, B1, m1, end1, float(t))))
    else:
        closest = (point_at(kind0, B0, m0, s, end0), point_at(kind1, B1, m1, t, end1))
    return STSolution(s, t, q, closest, v, trace, dist)


#: the fast path's bail-out angle: below ``sin^2 = 2^-14`` (about 0.45 degrees) between the
#: directions, the plain cross product loses too much to the cancellation and the careful path
#: (correctly rounded crosses and dots) runs
_FAST_MIN_SIN2 = 2.0 ** -14
_EPS = 2.0 ** -52


def st_fast(kind0, B0, m0, kind1, B1, m1, end0=None, end1=None):
    """The filter in front of :func:`st_minimize` (see :mod:`algorithms.kernels.filters`):
    the same minimisation, candidates and trace in plain floating point, or ``None`` when an
    error bound says a decision could come out otherwise than in the careful path.

    Decided here only when all inputs are floats of sane magnitude (``[2^-400, 2^400]``, so
    no rescaling), both components have nonzero direction, the directions are at least
    ``asin(2^-7)`` (0.45 degrees) apart (the plain ``m0 x m1`` then has a relative error below
    ``2^-42``), ``s_bar``/``t_bar`` are farther from every domain bound than their error bound
    (so the region of Fig. 10.36 is the careful path's), the best candidate beats every
    different one by more than the rounding of the distances (so the same edge wins), and the
    distance is far above the touching tolerance. The answer then differs from the careful
    path's by rounding only (a few ulps of the coordinates); anything else returns ``None``.
    """
    if not _filters_on():
        return None
    for v in (B0, m0, B1, m1):
        if type(v[0]) is not float or type(v[1]) is not float or type(v[2]) is not float:
            return None
    lo0, hi0 = DOMAINS[kind0]
    lo1, hi1 = DOMAINS[kind1]
    if lo0 == hi0 or lo1 == hi1:
        return None  # a point: the careful path
    D = (B0[0] - B1[0], B0[1] - B1[1], B0[2] - B1[2])
    M0 = max(abs(m0[0]), abs(m0[1]), abs(m0[2]))
    M1 = max(abs(m1[0]), abs(m1[1]), abs(m1[2]))
    big = max(M0, M1, abs(B0[0]), abs(B0[1]), abs(B0[2]), abs(B1[0]), abs(B1[1]), abs(B1[2]))
    if not (2.0 ** -400 <= M0 and 2.0 ** -400 <= M1 and big <= 2.0 ** 400):
        return None
    for v in (end0, end1):
        if v is not None and not all(type(x) is float and abs(x) <= 2.0 ** 400 for x in v):
            return None
    a = m0[0] * m0[0] + m0[1] * m0[1] + m0[2] * m0[2]
    b = -(m0[0] * m1[0] + m0[1] * m1[1] + m0[2] * m1[2])
    c = m1[0] * m1[0] + m1[1] * m1[1] + m1[2] * m1[2]
    d = m0[0] * D[0] + m0[1] * D[1] + m0[2] * D[2]
    e = -(m1[0] * D[0] + m1[1] * D[1] + m1[2] * D[2])
    f = D[0] * D[0] + D[1] * D[1] + D[2] * D[2]
    n = (m0[1] * m1[2] - m0[2] * m1[1], m0[2] * m1[0] - m0[0] * m1[2],
         m0[0] * m1[1] - m0[1] * m1[0])
    det = n[0] * n[0] + n[1] * n[1] + n[2] * n[2]
    if not (det > _FAST_MIN_SIN2 * a * c) or not math.isfinite(det):
        return None
    w1 = (m1[1] * D[2] - m1[2] * D[1], m1[2] * D[0] - m1[0] * D[2], m1[0] * D[1] - m1[1] * D[0])
    w0 = (m0[1] * D[2] - m0[2] * D[1], m0[2] * D[0] - m0[0] * D[2], m0[0] * D[1] - m0[1] * D[0])
    s_bar = (w1[0] * n[0] + w1[1] * n[1] + w1[2] * n[2]) / det
    t_bar = (w0[0] * n[0] + w0[1] * n[1] + w0[2] * n[2]) / det
    # error bounds of s_bar, t_bar in parameter units: |D|, |m| over the direction's length,
    # amplified by 1 / sin(angle) <= 2^7; 2^-30 is ~2^15 times the worst rounding
    Dm = max(abs(D[0]), abs(D[1]), abs(D[2]))
    inv_sin = math.sqrt(a * c / det)
    tol_s = 2.0 ** -30 * (1.0 + abs(s_bar) + (Dm + M1 * (1.0 + abs(t_bar))) / M0 * inv_sin)
    tol_t = 2.0 ** -30 * (1.0 + abs(t_bar) + (Dm + M0 * (1.0 + abs(s_bar))) / M1 * inv_sin)
    for x, lo, hi, tol in ((s_bar, lo0, hi0, tol_s), (t_bar, lo1, hi1, tol_t)):
        if not math.isfinite(x) or (lo is not None and abs(x - lo) <= tol) or (
                hi is not None and abs(x - hi) <= tol):
            return None
    region = _REGION[(classify(s_bar, lo0, hi0), classify(t_bar, lo1, hi1))]
    zero = 0.0

    def t_of_s(s):
        p = (D[0] + s * m0[0], D[1] + s * m0[1], D[2] + s * m0[2])
        return (p[0] * m1[0] + p[1] * m1[1] + p[2] * m1[2]) / c

    def s_of_t(t):
        p = (D[0] - t * m1[0], D[1] - t * m1[1], D[2] - t * m1[2])
        return -(p[0] * m0[0] + p[1] * m0[1] + p[2] * m0[2]) / a

    cands = []  # [label, s, t, key, v]

    def add(label, s, t, dist=None):
        v = (D[0] + s * m0[0] - t * m1[0], D[1] + s * m0[1] - t * m1[1],
             D[2] + s * m0[2] - t * m1[2])
        cands.append([label, s, t, math.hypot(*v) if dist is None else dist, v])

    if region == 0:
        perp = abs(D[0] * n[0] + D[1] * n[1] + D[2] * n[2]) / math.sqrt(det)
        add("interior", s_bar, clamp(t_of_s(s_bar), lo1, hi1), perp)
        add("interior", clamp(s_of_t(t_bar), lo0, hi0), t_bar, perp)
    if lo0 is not None:
        add(f"s={lo0}", lo0 + zero, clamp(t_of_s(lo0), lo1, hi1))
    if hi0 is not None:
        add(f"s={hi0}", hi0 + zero, clamp(t_of_s(hi0), lo1, hi1))
    if lo1 is not None:
        add(f"t={lo1}", clamp(s_of_t(lo1), lo0, hi0), lo1 + zero)
    if hi1 is not None:
        add(f"t={hi1}", clamp(s_of_t(hi1), lo0, hi0), hi1 + zero)
    best = min(cands, key=lambda x: x[3])
    label, s, t, key, v = best
    # the ranking: every candidate at another (s, t) must lose by more than the rounding of
    # the distances (a few ulps of the largest coordinate met); equal (s, t) tie identically
    # in both paths, and so do the two region-0 candidates (both ranked by the same perp)
    reach = big * (2.0 + abs(s) + abs(t))
    for other in cands:
        if other is best or (other[1] == s and other[2] == t) or (
                other[0] == "interior" and label == "interior"):
            continue
        if not (other[3] - key > 2.0 ** -40 * reach):
            return None
    if not (key > 2.0 ** -40 * reach):
        return None  # (nearly) touching: the careful path and the touching tolerance decide
    pa = B0 if s == 0 else (end0 if (end0 is not None and s == 1) else
                            (B0[0] + s * m0[0], B0[1] + s * m0[1], B0[2] + s * m0[2]))
    pb = B1 if t == 0 else (end1 if (end1 is not None and t == 1) else
                            (B1[0] + t * m1[0], B1[1] + t * m1[1], B1[2] + t * m1[2]))
    trace = {"domain": f"{kind0}-{kind1}", "a": a, "b": b, "c": c, "d": d, "e": e, "f": f,
             "det": det, "parallel": False, "s_bar": s_bar, "t_bar": t_bar, "region": region,
             "candidates": [{"edge": x[0], "s": x[1], "t": x[2], "sqr_distance": x[3] * x[3]}
                            for x in cands],
             "edge": label, "s": s, "t": t, "sqr_distance": key * key}
    return STSolution(s, t, key * key, (pa, pb), v, trace, key)


def _filters_on() -> bool:
    from algorithms.kernels import filters

    return filters._state["enabled"]


def _pow2_scale(kind, m) -> int:
    """An exponent ``k`` such that ``2^k m`` has its largest component in ``[0.5, 1)``, for a
    float ray/line direction outside ``[2^-400, 2^400]`` (0 otherwise): a direction of 1e-308
    or 1e300 would underflow/overflow ``m.m``. Scaling by a power of two is exact (``ldexp``),
    and the parameter scales back exactly (to ``inf`` when it is not representable)."""
    if kind not in ("ray", "line") or not all(isinstance(x, float) for x in m):
        return 0
    big = max(abs(x) for x in m)
    if 2.0 ** -400 <= big <= 2.0 ** 400:
        return 0
    return -math.frexp(big)[1]


def _ldexp(x, k):
    try:
        return math.ldexp(x, k)
    except OverflowError:
        return math.copysign(math.inf, x)


def minimize(prim0, prim1) -> STSolution:
    """:func:`st_minimize` for two primitives among point, segment, ray, line.

    Float inputs whose largest coordinate is outside ``[2^-400, 2^400]`` are first scaled as a
    whole by a power of two ``2^G`` (``s``, ``t`` unchanged; the closest points and distance are
    scaled back; ``a``..``f`` in the trace are the scaled ones, ``trace["coordinate_scale"]``).
    Float ray/line directions with components outside ``[2^-400, 2^400]`` are then scaled by
    a power of two (exactly, :func:`_pow2_scale`); ``s``, ``t`` and their trace entries are
    scaled back, the coefficients ``a``..``f`` in the trace are those of the scaled directions
    (``trace["direction_scale"]`` is the factor applied).
    """
    k0, B0, m0 = linear_form(prim0)
    k1, B1, m1 = linear_form(prim1)
    end0 = prim0.p1 if k0 == "segment" else None
    end1 = prim1.p1 if k1 == "segment" else None
    sol = st_fast(k0, B0, m0, k1, B1, m1, end0, end1)  # the filter: plain floats when safe
    if sol is not None:
        return sol
    # Whole-scene scale: coordinates below 2^-400 (or above 2^400) would underflow (overflow)
    # the products; scaling every point and direction by 2^G leaves s, t unchanged.
    G = 0
    vectors = [v for v in (B0, m0, B1, m1, end0, end1) if v is not None]
    if all(isinstance(x, float) for v in vectors for x in v):
        big = max(abs(x) for v in vectors for x in v)
        if big != 0 and not 2.0 ** -400 <= big <= 2.0 ** 400:
            G = -math.frexp(big)[1]
            B0, m0, B1, m1 = (tuple(math.ldexp(x, G) for x in v) for v in (B0, m0, B1, m1))
            end0, end1 = (None if v is None else tuple(math.ldexp(x, G) for x in v)
                          for v in (end0, end1))
    g0, g1 = _pow2_scale(k0, m0), _pow2_scale(k1, m1)
    if g0:
        m0 = tuple(math.ldexp(x, g0) for x in m0)
    if g1:
        m1 = tuple(math.ldexp(x, g1) for x in m1)
    sol = st_minimize(k0, B0, m0, k1, B1, m1, end0=end0, end1=end1)
    if G:
        sol.trace["coordinate_scale"] = math.ldexp(1.0, G) if abs(G) < 1000 else None
        sol.closest = tuple(tuple(_ldexp(x, -G) for x in p) for p in sol.closest)
        sol.diff = tuple(_ldexp(x, -G) for x in sol.diff)
        if sol.dist is not None:
            sol.dist = _ldexp(sol.dist, -G)
        sol.sqr_distance = _ldexp(sol.sqr_distance, -2 * G)
        sol.trace["sqr_distance"] = sol.sqr_distance
    if g0 or g1:
        tr = sol.trace
        tr["direction_scale"] = (2.0 ** -g0 if abs(g0) < 1000 else None,
                                 2.0 ** -g1 if abs(g1) < 1000 else None)
        for item in [tr] + tr["candidates"]:
            item["s"] = _ldexp(item["s"], g0)
            item["t"] = _ldexp(item["t"], g1)
        for key, g in (("s_bar", g0), ("t_bar", g1)):
            if tr.get(key) is not None:
                tr[key] = _ldexp(tr[key], g)
        sol.s = _ldexp(sol.s, g0)
        sol.t = _ldexp(sol.t, g1)
    if G and not all(math.isfinite(x) for p in sol.closest for x in p):
        raise BeyondFloatRange(sol.s, sol.t, sol.distance)
    return sol


# ----------------------------------------------------------------------------- the lean filter

#: the lean path's ranking and touching margin, relative to the reach of the candidates
#: (4x :func:`st_fast`'s 2^-40, so that whenever the lean path decides, :func:`st_fast`
#: decides the same way and the deferred trace is that of the very same answer)
_LEAN_MARGIN = 2.0 ** -38


def st_lean(kind0, B0, m0, kind1, B1, m1, end0=None, end1=None):
    """The cheapest filter in front of :func:`st_fast` and :func:`st_minimize`: the minimiser
    ``(s, t, distance, diff, closest)`` of ``Q`` in plain floating point with no trace, or
    ``None`` when an error bound says the careful path could choose otherwise.

    Callers guarantee float inputs (non-exact primitives). It computes exactly the
    floating-point operations :func:`st_fast` computes for the winning candidate (so the
    answer is bit-for-bit :func:`st_fast`'s), but skips the candidates it does not need:

    * the preconditions of :func:`st_fast` (segments and rays, directions at least
      ``asin(2^-7)`` apart, ``s_bar``/``t_bar`` farther than their error bounds ``tol_s``,
      ``tol_t`` from every domain bound, magnitudes in ``[2^-400, 2^398]``);
    * **region 0** (the critical point inside the domain): ``Q`` is strictly convex, so the
      critical point is the minimum; the careful path could only pick an edge if an edge
      candidate came within rounding of it. Minimising ``Q`` over ``t`` at fixed ``s``
      leaves ``Q_min + (det / c) (s - s_bar)^2`` (the Schur complement of ``c``; clamping
      ``t`` only adds), and likewise ``Q_min + (det / a) (t - t_bar)^2`` at fixed ``t``. With
      ``ds``, ``dt`` the distances of ``s_bar``, ``t_bar`` to the nearest finite bound, less
      their error bounds, every edge candidate is at least
      ``g = dQ / (sqrt(Q_min + dQ) + sqrt(Q_min))`` farther, ``dQ = min(det ds^2 / c,
      det dt^2 / a)``. Decided when ``g > 2^-38 reach`` (``reach = big (2 + |s| + |t|)``,
      ``big`` the largest input magnitude: the plain candidates' distances are accurate to
      a few ulps of it), so no edge is evaluated at all;
    * **other regions**: the minimum lies on the boundary; every edge candidate is evaluated
      (clamped 1-D projections, as :func:`st_fast`) and ranked by ``|diff|^2``; decided when
      every candidate at another ``(s, t)`` is farther than the best by ``2^-38 reach``;
    * in both, the distance must exceed ``2^-38 reach`` (far from touching: the touching
      tolerance of the callers is ``8 eps`` of the coordinates, below this).

    Each ``None`` is counted in :data:`algorithms.kernels.filters.FALLBACKS` ``["st_lean"]``.
    """
    if not _filters_state["enabled"]:
        return None
    lo0, hi0 = DOMAINS[kind0]
    lo1, hi1 = DOMAINS[kind1]
    if lo0 == hi0 or lo1 == hi1:
        # a point, or a line ((None, None), as in st_fast): the careful path answers, with
        # its correctly rounded closest points (the golden answers of lines are those)
        return _declined("st_lean")
    m00, m01, m02 = m0
    m10, m11, m12 = m1
    D0, D1, D2 = B0[0] - B1[0], B0[1] - B1[1], B0[2] - B1[2]
    M0 = max(abs(m00), abs(m01), abs(m02))
    M1 = max(abs(m10), abs(m11), abs(m12))
    big = max(M0, M1, abs(B0[0]), abs(B0[1]), abs(B0[2]), abs(B1[0]), abs(B1[1]), abs(B1[2]))
    if not (M0 >= 2.0 ** -400 and M1 >= 2.0 ** -400 and big <= 2.0 ** 398):
        return _declined("st_lean")
    a = m00 * m00 + m01 * m01 + m02 * m02
    c = m10 * m10 + m11 * m11 + m12 * m12
    n0 = m01 * m12 - m02 * m11
    n1 = m02 * m10 - m00 * m12
    n2 = m00 * m11 - m01 * m10
    det = n0 * n0 + n1 * n1 + n2 * n2
    if not (det > _FAST_MIN_SIN2 * a * c and a > 0 and c > 0 and det < math.inf):
        return _declined("st_lean")
    s_bar = ((m11 * D2 - m12 * D1) * n0 + (m12 * D0 - m10 * D2) * n1
             + (m10 * D1 - m11 * D0) * n2) / det
    t_bar = ((m01 * D2 - m02 * D1) * n0 + (m02 * D0 - m00 * D2) * n1
             + (m00 * D1 - m01 * D0) * n2) / det
    Dm = max(abs(D0), abs(D1), abs(D2))
    inv_sin = math.sqrt(a * c / det)
    tol_s = 2.0 ** -30 * (1.0 + abs(s_bar) + (Dm + M1 * (1.0 + abs(t_bar))) / M0 * inv_sin)
    tol_t = 2.0 ** -30 * (1.0 + abs(t_bar) + (Dm + M0 * (1.0 + abs(s_bar))) / M1 * inv_sin)
    # the class of s_bar (t_bar) against its domain [0, 1] or [0, inf) (lines and points
    # are declined above) and its distance to the nearest bound, which must exceed the
    # error bound (then the region is the careful path's)
    if s_bar < 0:
        cs, ads = -1, -s_bar
    elif hi0 is not None and s_bar > 1:
        cs, ads = 1, s_bar - 1
    else:
        cs, ads = 0, (s_bar if hi0 is None or s_bar < 0.5 else 1 - s_bar)
    if t_bar < 0:
        ct, adt = -1, -t_bar
    elif hi1 is not None and t_bar > 1:
        ct, adt = 1, t_bar - 1
    else:
        ct, adt = 0, (t_bar if hi1 is None or t_bar < 0.5 else 1 - t_bar)
    if not (ads > tol_s and adt > tol_t):
        return _declined("st_lean")
    if cs == 0 and ct == 0:
        # region 0: the critical point, ranked by the lines' distance (as st_fast)
        s = s_bar
        if c == 0:
            t = 0.0
        else:
            t = ((D0 + s * m00) * m10 + (D1 + s * m01) * m11 + (D2 + s * m02) * m12) / c
            t = clamp(t, lo1, hi1)
        key = abs(D0 * n0 + D1 * n1 + D2 * n2) / math.sqrt(det)
        reach = big * (2.0 + abs(s) + abs(t))
        # inside, ads/adt are the distances to the nearest bound: the Schur-complement gap
        x = ads - tol_s
        y = adt - tol_t
        dq = det * x * x / c
        y = det * y * y / a
        if y < dq:
            dq = y
        margin = _LEAN_MARGIN * reach
        if not (dq / (math.sqrt(key * key + dq) + key) > margin * 2.0):
            return _declined("st_lean")
        if not key > margin:
            return _declined("st_lean")
        v = (D0 + s * m00 - t * m10, D1 + s * m01 - t * m11, D2 + s * m02 - t * m12)
    else:
        # every finite edge's clamped conditional minimum (clamp inlined), as st_fast
        cands = []  # (q, s, t)
        for bound in (lo0, hi0):
            if bound is not None:
                s = bound + 0.0
                t = ((D0 + s * m00) * m10 + (D1 + s * m01) * m11 + (D2 + s * m02) * m12) / c
                if lo1 is not None and t < lo1:
                    t = lo1
                elif hi1 is not None and t > hi1:
                    t = hi1
                v0, v1, v2 = D0 + s * m00 - t * m10, D1 + s * m01 - t * m11, D2 + s * m02 - t * m12
                cands.append((v0 * v0 + v1 * v1 + v2 * v2, s, t))
        for bound in (lo1, hi1):
            if bound is not None:
                t = bound + 0.0
                s = -((D0 - t * m10) * m00 + (D1 - t * m11) * m01 + (D2 - t * m12) * m02) / a
                if lo0 is not None and s < lo0:
                    s = lo0
                elif hi0 is not None and s > hi0:
                    s = hi0
                v0, v1, v2 = D0 + s * m00 - t * m10, D1 + s * m01 - t * m11, D2 + s * m02 - t * m12
                cands.append((v0 * v0 + v1 * v1 + v2 * v2, s, t))
        best = cands[0]
        for cand in cands:
            if cand[0] < best[0]:
                best = cand
        q, s, t = best
        reach = big * (2.0 + abs(s) + abs(t))
        margin = _LEAN_MARGIN * reach
        key = math.sqrt(q)
        if not key > margin:
            return _declined("st_lean")
        beat = key + 2.0 * margin
        beat = beat * beat
        for cand in cands:
            if cand is not best and not (cand[1] == s and cand[2] == t) and not cand[0] > beat:
                return _declined("st_lean")
        v = (D0 + s * m00 - t * m10, D1 + s * m01 - t * m11, D2 + s * m02 - t * m12)
        key = math.hypot(*v)
    pa = B0 if s == 0 else (end0 if (end0 is not None and s == 1) else
                            (B0[0] + s * m00, B0[1] + s * m01, B0[2] + s * m02))
    pb = B1 if t == 0 else (end1 if (end1 is not None and t == 1) else
                            (B1[0] + t * m10, B1[1] + t * m11, B1[2] + t * m12))
    return s, t, key, v, pa, pb


def _declined(name):
    FALLBACKS[name] = FALLBACKS.get(name, 0) + 1
    return None


def _lean_field(_name, prim0, prim1, tol_fn, closest):
    """The pending trace (:func:`~algorithms.results.pending`) of a lean record, read as any
    field (only the trace is pending): :func:`_lean_trace`."""
    return _lean_trace(prim0, prim1, tol_fn, closest)


def _lean_trace(prim0, prim1, tol_fn, closest):
    """The trace of a distance the lean path answered: :func:`minimize`'s (in practice
    :func:`st_fast`'s, which decides whenever :func:`st_lean` does) plus the caller's
    ``touch_tolerance``, exactly as :func:`algorithms.queries.linear_linear.linear_distance`
    writes it."""
    trace = dict(minimize(prim0, prim1).trace)
    trace["touch_tolerance"] = tol_fn(prim0, prim1, closest[0], closest[1])
    return trace


def lean_distance(prim0, prim1, tol_fn, method):
    """The :class:`~algorithms.results.DistanceResult` of two float segments, rays or lines
    from :func:`st_lean` with its trace deferred (a :func:`~algorithms.results.pending` value:
    computed when read), or ``None`` (then the caller runs :func:`minimize`). ``tol_fn`` is
    the caller's touching tolerance (never reached: the lean path declines near touching)."""
    if prim0.exact or prim1.exact:
        return None
    # linear_form, with a segment's end (unrolled for segments: the common pair)
    k0 = prim0.kind
    if k0 == "segment":
        B0, m0, e0 = prim0.p0, prim0.direction, prim0.p1
    else:
        k0, B0, m0 = linear_form(prim0)
        e0 = None
    k1 = prim1.kind
    if k1 == "segment":
        B1, m1, e1 = prim1.p0, prim1.direction, prim1.p1
    else:
        k1, B1, m1 = linear_form(prim1)
        e1 = None
    sol = st_lean(k0, B0, m0, k1, B1, m1, e0, e1)
    if sol is None:
        return None
    s, t, key, v, pa, pb = sol
    sqr = key * key
    if sqr == 0.0:
        sqr = math.ulp(0.0)  # 1e-200 apart: the square underflows but is not 0
    closest = (pa, pb)
    return make_with(DistanceResult, {
        "method": method, "trace": (PENDING, _lean_field, prim0, prim1, tol_fn, closest),
        "distance": key, "sqr_distance": sqr, "closest": closest,
        "parameter": (float(s), float(t))})


#: where :func:`segment_form` keeps its answer on a segment (not a field)
SEGMENT_FORM_KEY = "_stplane_segment_form"


def segment_form(seg):
    """What :func:`lean_segments`' kernel computes from one float segment alone, with its
    very operations: ``(B0, B1, B2, m0, m1, m2, max |m_i|, max |B_i|, |m|^2, p0, p1)``
    (``B = p0``, ``m = p1 - p0``; each maximum by the kernel's comparisons, the first of
    equals kept), computed once and kept on the (frozen) instance; ``False`` for an exact
    segment (the kernel's business is floats)."""
    if seg.exact:
        object.__setattr__(seg, SEGMENT_FORM_KEY, False)
        return False
    b0, b1, b2 = seg.p0
    m0, m1, m2 = seg.direction
    M = m0 if m0 >= 0.0 else -m0
    x = m1 if m1 >= 0.0 else -m1
    if x > M:
        M = x
    x = m2 if m2 >= 0.0 else -m2
    if x > M:
        M = x
    X = b0 if b0 >= 0.0 else -b0
    x = b1 if b1 >= 0.0 else -b1
    if x > X:
        X = x
    x = b2 if b2 >= 0.0 else -b2
    if x > X:
        X = x
    form = (b0, b1, b2, m0, m1, m2, M, X, m0 * m0 + m1 * m1 + m2 * m2, seg.p0, seg.p1)
    object.__setattr__(seg, SEGMENT_FORM_KEY, form)  # not a field: eq/hash unchanged
    return form


def lean_segments(tol_fn, method):
    """The lean kernel of two float segments (:func:`algorithms.registry.lean_kernels`):
    ``lean(seg0, seg1)`` returns exactly :func:`lean_distance`'s record for the pair, or
    ``None`` wherever :func:`st_lean` declines (counted alike). :func:`st_lean` with both
    domains ``[0, 1]`` folded in, its four edge candidates unrolled and the record built in
    the same frame: the very operations in the same order, so the same bits (a property test
    compares the two on random and degenerate pairs), with none of the generic version's
    domain probes, candidate lists and calls. ``tol_fn`` and ``method`` as for
    :func:`lean_distance`."""
    sqrt = math.sqrt
    hypot = math.hypot
    state = _filters_state
    tiny, huge = 2.0 ** -400, 2.0 ** 398
    min_sin2 = _FAST_MIN_SIN2
    margin_rel = _LEAN_MARGIN
    inf = math.inf
    build = DISTANCE_BUILDER
    form_key = SEGMENT_FORM_KEY

    def lean(prim0, prim1):
        if not state["enabled"]:
            return None
        # what depends on one segment alone (segment_form: its end, direction, the largest
        # |m_i| and |B_i|, |m|^2), kept on the instances; False for an exact one
        f0 = prim0.__dict__.get(form_key)
        if f0 is None:
            f0 = segment_form(prim0)
        f1 = prim1.__dict__.get(form_key)
        if f1 is None:
            f1 = segment_form(prim1)
        if f0 is False or f1 is False:
            return None
        b00, b01, b02, m00, m01, m02, M0, X0, a, B0, e0 = f0
        b10, b11, b12, m10, m11, m12, M1, X1, c, B1, e1 = f1
        D0, D1, D2 = b00 - b10, b01 - b11, b02 - b12
        # M0, M1, big, Dm: st_lean's max of abs values (the same values: max keeps the first
        # of equals, and the coordinates are finite; of zeros of either sign, which one
        # "big" is changes no comparison below: it scales the margins only)
        big = M1 if M1 > M0 else M0
        if X0 > big:
            big = X0
        if X1 > big:
            big = X1
        if not (M0 >= tiny and M1 >= tiny and big <= huge):
            return _declined("st_lean")
        n0 = m01 * m12 - m02 * m11
        n1 = m02 * m10 - m00 * m12
        n2 = m00 * m11 - m01 * m10
        det = n0 * n0 + n1 * n1 + n2 * n2
        if not (det > min_sin2 * a * c and a > 0.0 and c > 0.0 and det < inf):
            return _declined("st_lean")
        s_bar = ((m11 * D2 - m12 * D1) * n0 + (m12 * D0 - m10 * D2) * n1
                 + (m10 * D1 - m11 * D0) * n2) / det
        t_bar = ((m01 * D2 - m02 * D1) * n0 + (m02 * D0 - m00 * D2) * n1
                 + (m00 * D1 - m01 * D0) * n2) / det
        Dm = D0 if D0 >= 0.0 else -D0
        x = D1 if D1 >= 0.0 else -D1
        if x > Dm:
            Dm = x
        x = D2 if D2 >= 0.0 else -D2
        if x > Dm:
            Dm = x
        inv_sin = sqrt(a * c / det)
        abs_s = s_bar if s_bar >= 0.0 else -s_bar
        abs_t = t_bar if t_bar >= 0.0 else -t_bar
        tol_s = 2.0 ** -30 * (1.0 + abs_s + (Dm + M1 * (1.0 + abs_t)) / M0 * inv_sin)
        tol_t = 2.0 ** -30 * (1.0 + abs_t + (Dm + M0 * (1.0 + abs_s)) / M1 * inv_sin)
        if s_bar < 0.0:
            inside, ads = False, -s_bar
        elif s_bar > 1.0:
            inside, ads = False, s_bar - 1.0
        else:
            inside, ads = True, (s_bar if s_bar < 0.5 else 1.0 - s_bar)
        if t_bar < 0.0:
            inside, adt = False, -t_bar
        elif t_bar > 1.0:
            inside, adt = False, t_bar - 1.0
        else:
            adt = t_bar if t_bar < 0.5 else 1.0 - t_bar
        if not (ads > tol_s and adt > tol_t):
            return _declined("st_lean")
        if inside:
            # region 0 (st_lean's comments)
            s = s_bar
            t = ((D0 + s * m00) * m10 + (D1 + s * m01) * m11 + (D2 + s * m02) * m12) / c
            # (the clamps give 0.0 and 1.0 where st_lean's give 0 and 1: every product and
            # comparison below, and float() of the parameter, come out the same)
            if t < 0.0:
                t = 0.0
            elif t > 1.0:
                t = 1.0
            key = abs(D0 * n0 + D1 * n1 + D2 * n2) / sqrt(det)
            reach = big * (2.0 + s + t)  # (abs(s), abs(t): both in [0, 1])
            x = ads - tol_s
            y = adt - tol_t
            dq = det * x * x / c
            y = det * y * y / a
            if y < dq:
                dq = y
            margin = margin_rel * reach
            if not (dq / (sqrt(key * key + dq) + key) > margin * 2.0):
                return _declined("st_lean")
            if not key > margin:
                return _declined("st_lean")
        else:
            # the four edges' clamped conditional minima, in st_lean's order (s = 0, s = 1,
            # t = 0, t = 1), the first least one winning a tie as there
            # (each sum and product below is one of st_lean's, on the same operands: taken
            # once where it appears twice; 1.0 * x is x, bit for bit)
            s = 0.0
            u0, u1, u2 = D0 + s * m00, D1 + s * m01, D2 + s * m02
            t = (u0 * m10 + u1 * m11 + u2 * m12) / c
            if t < 0.0:
                t = 0.0
            elif t > 1.0:
                t = 1.0
            a0, a1, a2 = u0 - t * m10, u1 - t * m11, u2 - t * m12
            qa, sa, ta = a0 * a0 + a1 * a1 + a2 * a2, s, t
            s = 1.0
            u0, u1, u2 = D0 + m00, D1 + m01, D2 + m02
            t = (u0 * m10 + u1 * m11 + u2 * m12) / c
            if t < 0.0:
                t = 0.0
            elif t > 1.0:
                t = 1.0
            b0_, b1_, b2_ = u0 - t * m10, u1 - t * m11, u2 - t * m12
            qb, sb, tb = b0_ * b0_ + b1_ * b1_ + b2_ * b2_, s, t
            t = 0.0
            u0, u1, u2 = t * m10, t * m11, t * m12
            s = -((D0 - u0) * m00 + (D1 - u1) * m01 + (D2 - u2) * m02) / a
            if s < 0.0:
                s = 0.0
            elif s > 1.0:
                s = 1.0
            c0, c1, c2 = D0 + s * m00 - u0, D1 + s * m01 - u1, D2 + s * m02 - u2
            qc, sc, tc = c0 * c0 + c1 * c1 + c2 * c2, s, t
            t = 1.0
            s = -((D0 - m10) * m00 + (D1 - m11) * m01 + (D2 - m12) * m02) / a
            if s < 0.0:
                s = 0.0
            elif s > 1.0:
                s = 1.0
            d0_, d1_, d2_ = D0 + s * m00 - m10, D1 + s * m01 - m11, D2 + s * m02 - m12
            qd, sd, td = d0_ * d0_ + d1_ * d1_ + d2_ * d2_, s, t
            q, s, t, w = qa, sa, ta, 0
            if qb < q:
                q, s, t, w = qb, sb, tb, 1
            if qc < q:
                q, s, t, w = qc, sc, tc, 2
            if qd < q:
                q, s, t, w = qd, sd, td, 3
            reach = big * (2.0 + s + t)  # (abs(s), abs(t): both in [0, 1])
            margin = margin_rel * reach
            key = sqrt(q)
            if not key > margin:
                return _declined("st_lean")
            beat = key + 2.0 * margin
            beat = beat * beat
            # every other candidate at another (s, t) must be farther by the margin
            if (w != 0 and not (sa == s and ta == t) and not qa > beat) or \
                    (w != 1 and not (sb == s and tb == t) and not qb > beat) or \
                    (w != 2 and not (sc == s and tc == t) and not qc > beat) or \
                    (w != 3 and not (sd == s and td == t) and not qd > beat):
                return _declined("st_lean")
            # st_lean's v = D + s m0 - t m1 at the winner: the winner's own diff (the same
            # expressions of the same s, t)
            if w == 0:
                key = hypot(a0, a1, a2)
            elif w == 1:
                key = hypot(b0_, b1_, b2_)
            elif w == 2:
                key = hypot(c0, c1, c2)
            else:
                key = hypot(d0_, d1_, d2_)
        pa = B0 if s == 0.0 else (e0 if s == 1.0 else (b00 + s * m00, b01 + s * m01, b02 + s * m02))
        pb = B1 if t == 0.0 else (e1 if t == 1.0 else (b10 + t * m10, b11 + t * m11, b12 + t * m12))
        sqr = key * key
        if sqr == 0.0:
            sqr = 5e-324  # math.ulp(0.0): 1e-200 apart, the square underflows but is not 0
        closest = (pa, pb)
        # the record made by its builder (results.builder: the fields stored in the
        # dataclass's order, then the class set), the trace a shared pending value
        # (results.pending: a tuple costs less than a Deferred)
        r = build()
        r.method = method
        r.trace = (PENDING, _lean_field, prim0, prim1, tol_fn, closest)
        r.distance = key
        r.sqr_distance = sqr
        r.closest = closest
        r.parameter = (s, t)  # (floats already: the clamps above)
        r.__class__ = DistanceResult
        return r

    return lean
