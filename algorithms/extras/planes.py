"""Plane and 2D-line systems: three planes (Goldman) and two implicit 2D lines.

Plain API functions (no registry): the explorer will show them later.

* :func:`three_planes`: Dunn & Parberry, App. A.11 (Goldman): the planes ``p . n_i = d_i`` meet
  in ``p = (d1 (n2 x n3) + d2 (n3 x n1) + d3 (n1 x n2)) / ((n1 x n2) . n3)``; when the triple
  product vanishes there is no single point: a common line, a common plane, or nothing
  (two parallel distinct planes, or three planes meeting pairwise in three parallel lines).
* :func:`two_rays`: App. A.8, the lines of two rays in 3-D: crossing, parallel, coincident or
  skew, with ``t1``, ``t2`` of the crossing or of the closest approach;
* :func:`two_lines_2d`: App. A.7: ``a1 x + b1 y = d1``, ``a2 x + b2 y = d2``,
  ``x = (b2 d1 - b1 d2) / (a1 b2 - a2 b1)``, ``y = (a1 d2 - a2 d1) / (a1 b2 - a2 b1)``, with
  the three cases: one point (denominator nonzero), parallel (denominator zero), coincident
  (numerators and denominator all zero).

Both run exactly on Fractions (:mod:`algorithms.core.vec`); with floats the "is zero" tests use a
relative tolerance ``tol`` (default ``1e-12`` on unit-normal quantities; ``0`` on Fractions).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Optional

from algorithms.core.tolerance import PARALLEL_SIN, rescaled_pair_exponents, up_length, up_param
from algorithms.core import vec as V
from algorithms.primitives import Plane

DEFAULT_TOL = PARALLEL_SIN  # 1e-12, algorithms.core.tolerance


@dataclass(frozen=True)
class PlanesResult:
    """Intersection of three planes.

    ``case`` is ``"point"``, ``"line"``, ``"plane"`` (all three coincide) or ``"none"``;
    ``point`` the common point (``"point"``) or a point of the common line/plane; ``direction``
    the common line's direction (``"line"``); ``denominator`` Goldman's ``(n1 x n2) . n3``;
    ``conditioning`` the same triple product of the *unit* normals, in ``[-1, 1]``: ``+-1`` for
    mutually perpendicular planes, ``0`` for a singular system, and its size says how much
    the point moves when the ``d_i`` are perturbed (``|dp| <= |dd| sqrt(3) / |conditioning|``
    for unit normals); ``reason`` explains ``"none"``/``"line"``; ``parallel_pairs`` lists
    the index pairs with parallel normals.
    """

    case: str
    point: Optional[tuple] = None
    direction: Optional[tuple] = None
    denominator: object = 0
    conditioning: float = 0.0
    reason: str = ""
    parallel_pairs: tuple = ()
    method: str = "three planes (Dunn & Parberry App. A.11, Goldman)"
    trace: dict = field(default_factory=dict)


def _exact(*vs) -> bool:
    return all(isinstance(c, Fraction) for v in vs for c in (v if isinstance(v, tuple) else (v,)))


def _is_zero(x, scale, tol) -> bool:
    """``|x| <= tol * scale`` (``scale`` >= 0, e.g. the product of the vector lengths)."""
    if tol == 0:
        return x == 0
    return abs(float(x)) <= tol * float(scale)


def _as_plane(p):
    if isinstance(p, Plane):
        return tuple(p.normal), p.d
    n, d = p
    return tuple(n), d


def _two_plane_line(n1, d1, n2, d2):
    """A point and the direction of the line ``n1.p = d1``, ``n2.p = d2`` (nonparallel)."""
    u = V.cross(n1, n2)
    uu = V.dot(u, u)
    # p = (d1 (n2 x u) + d2 (u x n1)) / |u|^2 satisfies both (Goldman with n3 = u, d3 = 0)
    p = V.scale(1 / uu if not isinstance(uu, Fraction) else Fraction(1) / uu,
                V.add(V.scale(d1, V.cross(n2, u)), V.scale(d2, V.cross(u, n1))))
    return p, u


def three_planes(p1, p2, p3, tol: Optional[float] = None) -> PlanesResult:
    """Where three planes meet (App. A.11, Goldman).

    Parameters
    ----------
    p1, p2, p3 : Plane or (normal, d)
        The planes ``p . n_i = d_i``; normals need not be unit.
    tol : float, optional
        Relative zero tolerance (``None``: 0 on Fractions, ``1e-12`` on floats).

    Returns
    -------
    PlanesResult
    """
    (n1, d1), (n2, d2), (n3, d3) = _as_plane(p1), _as_plane(p2), _as_plane(p3)
    exact = _exact(n1, n2, n3, d1, d2, d3)
    if tol is None:
        tol = 0 if exact else DEFAULT_TOL
    ns, ds = (n1, n2, n3), (d1, d2, d3)
    lens = [V.norm(n) for n in ns]
    c12, c23, c31 = V.cross(n1, n2), V.cross(n2, n3), V.cross(n3, n1)
    den = V.dot(c12, n3)
    cond = float(den) / (lens[0] * lens[1] * lens[2])
    trace = {"n1 x n2": c12, "n2 x n3": c23, "n3 x n1": c31, "denominator": den}
    if not _is_zero(den, lens[0] * lens[1] * lens[2], tol):
        num = V.add(V.add(V.scale(d1, c23), V.scale(d2, c31)), V.scale(d3, c12))
        p = tuple(c / den for c in num)
        return PlanesResult("point", point=p, denominator=den, conditioning=cond, trace=trace)
    pairs = []
    for (i, j), c in (((0, 1), c12), ((1, 2), c23), ((2, 0), c31)):
        if _is_zero(V.norm(c) if not exact else V.sqr_norm(c),
                    lens[i] * lens[j] if not exact else 1, tol):
            pairs.append((min(i, j), max(i, j)))
    pairs = tuple(sorted(pairs))

    def on_plane(p, k):
        return _is_zero(V.dot(ns[k], p) - ds[k], lens[k] * max(1.0, V.norm(p)), tol)

    def same_plane(i, j):
        # parallel normals: coincident iff d_i / |n_i| = d_j / |n_j| with matching sign,
        # i.e. the point d_i n_i / |n_i|^2 of plane i lies on plane j
        nn = V.dot(ns[i], ns[i])
        p = tuple(ds[i] * c / nn for c in ns[i])
        return on_plane(p, j)

    if len(pairs) == 3:  # all parallel
        coincide = [same_plane(0, 1), same_plane(0, 2)]
        nn = V.dot(n1, n1)
        p = tuple(d1 * c / nn for c in n1)
        if all(coincide):
            return PlanesResult("plane", point=p, denominator=den, conditioning=cond,
                                reason="all three planes coincide", parallel_pairs=pairs,
                                trace=trace)
        return PlanesResult("none", denominator=den, conditioning=cond,
                            reason="all three normals parallel and the planes not all "
                                   "coincident", parallel_pairs=pairs, trace=trace)
    # rank 2: some nonparallel pair (i, j) gives a line; the third plane contains it or not
    for i, j in ((0, 1), (1, 2), (0, 2)):
        if (i, j) not in pairs:
            break
    k = 3 - i - j
    for a, b in pairs:
        if not same_plane(a, b):
            return PlanesResult("none", denominator=den, conditioning=cond,
                                reason=f"planes {a + 1} and {b + 1} are parallel and distinct",
                                parallel_pairs=pairs, trace=trace)
    p, u = _two_plane_line(ns[i], ds[i], ns[j], ds[j])
    if on_plane(p, k):
        return PlanesResult("line", point=p, direction=u, denominator=den, conditioning=cond,
                            reason=f"the three planes share the line of planes {i + 1} and {j + 1}",
                            parallel_pairs=pairs, trace=trace)
    return PlanesResult("none", denominator=den, conditioning=cond,
                        reason="the planes meet pairwise in three parallel lines (a prism)"
                        if not pairs else "no common point",
                        parallel_pairs=pairs, trace=trace)


@dataclass(frozen=True)
class Lines2DResult:
    """Two implicit 2D lines (App. A.7): ``case`` in ``"point"``, ``"parallel"``,
    ``"coincident"``; ``point = (x, y)`` for ``"point"``; ``denominator = a1 b2 - a2 b1`` and
    the numerators ``b2 d1 - b1 d2``, ``a1 d2 - a2 d1``."""

    case: str
    point: Optional[tuple] = None
    denominator: object = 0
    numerators: tuple = (0, 0)
    method: str = "two implicit 2D lines (Dunn & Parberry App. A.7)"


def two_lines_2d(line1, line2, tol: Optional[float] = None) -> Lines2DResult:
    """Intersect ``a1 x + b1 y = d1`` and ``a2 x + b2 y = d2`` (App. A.7, Eq. A.3).

    Parameters
    ----------
    line1, line2 : (a, b, d)
        Coefficients; ``(a, b)`` must not be ``(0, 0)`` (ValueError).
    tol : float, optional
        Relative zero tolerance on the determinant of the unit normals (``None``: exact zero
        on Fractions, ``1e-12`` on floats).
    """
    (a1, b1, d1), (a2, b2, d2) = line1, line2
    for name, (a, b) in (("line1", (a1, b1)), ("line2", (a2, b2))):
        if a == 0 and b == 0:
            raise ValueError(f"{name}: (a, b) must not be (0, 0)")
    exact = _exact(a1, b1, d1, a2, b2, d2)
    if tol is None:
        tol = 0 if exact else DEFAULT_TOL
    den = a1 * b2 - a2 * b1
    nx, ny = b2 * d1 - b1 * d2, a1 * d2 - a2 * d1
    l1, l2 = V.norm((a1, b1)), V.norm((a2, b2))
    if not _is_zero(den, l1 * l2, tol):
        return Lines2DResult("point", point=(nx / den, ny / den), denominator=den,
                             numerators=(nx, ny))
    # parallel normals: coincident iff line1's point d1 (a1, b1) / |n1|^2 lies on line2
    nn = a1 * a1 + b1 * b1
    px, py = d1 * a1 / nn, d1 * b1 / nn
    scale = l2 * max(1.0, V.norm((px, py)))
    if _is_zero(a2 * px + b2 * py - d2, scale, tol):
        return Lines2DResult("coincident", denominator=den, numerators=(nx, ny))
    return Lines2DResult("parallel", denominator=den, numerators=(nx, ny))


#: below this size of the unit-normal triple product the three planes count as nearly dependent:
#: the point moves by up to ``sqrt(3) / |conditioning|`` per unit change of the ``d_i``
ILL_CONDITIONED = 1e-3


def three_planes_result(p1, p2, p3, ids=("A", "B", "C")) -> dict:
    """The ``explorer eval`` result of a three-planes query ``{"a": P, "b": Q, "c": R}``
    (docs/scene-v1.md, project extensions): ``pair`` ``"plane-plane-plane"``, ``point`` (the
    single common point, ``None`` when there is none or infinitely many), ``determinant``
    (Goldman's ``(n1 x n2) . n3``), ``conditioning`` (the same of the unit normals),
    ``ill_conditioned``, ``case`` and the scene-v1 keys (``intersects``: the three share a
    point; the pair keys ``distance`` ... ``toi`` are ``None``)."""
    r = three_planes(p1, p2, p3)
    cond = float(r.conditioning)
    return {
        "a": ids[0], "b": ids[1], "c": ids[2], "pair": "plane-plane-plane",
        "intersects": r.case != "none",
        "distance": None, "closest": None, "first_t": None, "separating_axis": None,
        "side": None, "toi": None,
        "point": None if r.case != "point" else tuple(float(c) for c in r.point),
        "determinant": float(r.denominator),
        "conditioning": cond,
        "ill_conditioned": r.case == "point" and abs(cond) < ILL_CONDITIONED,
        "case": r.case,
        "direction": None if r.direction is None else tuple(float(c) for c in r.direction),
        "method": r.method,
        "trace": {"n1 x n2": [float(c) for c in r.trace["n1 x n2"]],
                  "n2 x n3": [float(c) for c in r.trace["n2 x n3"]],
                  "n3 x n1": [float(c) for c in r.trace["n3 x n1"]],
                  "denominator": float(r.denominator),
                  "conditioning": cond,
                  "reason": r.reason,
                  "parallel_pairs": [list(p) for p in r.parallel_pairs]},
    }


# ----------------------------------------------------------------------------- two rays (A.8)


@dataclass(frozen=True)
class TwoRaysResult:
    """App. A.8: the lines carrying two linear components. ``case`` is ``"crossing"`` (one
    common point), ``"parallel"`` (distinct, parallel), ``"coincident"`` (the same line) or
    ``"skew"`` (no common plane); ``t1``, ``t2`` the parameters of the closest approach (of the
    crossing point for ``"crossing"``), ``None`` when parallel; ``gap`` the distance between the
    lines; ``within`` whether ``t1``, ``t2`` lie in the components' own parameter ranges."""

    case: str
    t1: object = None
    t2: object = None
    gap: float = 0.0
    cross_sqr: object = 0
    within: Optional[bool] = None
    method: str = "two rays in 3D (Dunn & Parberry App. A.8)"


def _range_of(kind: str):
    return {"segment": (0, 1), "ray": (0, None), "line": (None, None)}[kind]


def _in_range(t, kind: str) -> bool:
    lo, hi = _range_of(kind)
    return (lo is None or t >= lo) and (hi is None or t <= hi)


def two_rays(p1, d1, p2, d2, kind1: str = "line", kind2: str = "line",
             tol: Optional[float] = None) -> TwoRaysResult:
    """Classify ``p1 + t1 d1`` against ``p2 + t2 d2`` (App. A.8): with ``c = d1 x d2``,
    ``t1 = ((p2 - p1) x d2) . c / |c|^2`` and ``t2 = ((p2 - p1) x d1) . c / |c|^2``; ``c = 0``
    means parallel or coincident; otherwise the two points ``r1(t1)``, ``r2(t2)`` are the
    closest approach and coincide when the lines cross. Exact on Fractions; floats use the
    relative tolerance ``tol`` (default ``1e-12``, PARALLEL_SIN) on the sine
    ``|c| / (|d1| |d2|)`` (compared squared: ``|c|^2 <= tol^2 |d1|^2 |d2|^2``) and on the gap.
    """
    p1, d1, p2, d2 = (tuple(v) for v in (p1, d1, p2, d2))
    if V.dot(d1, d1) == 0 or V.dot(d2, d2) == 0:
        raise ValueError("two_rays: a direction is zero (a point is not a line)")
    exact = _exact(p1, d1, p2, d2)
    if tol is None:
        tol = 0 if exact else DEFAULT_TOL
    c = V.cross(d1, d2)
    cc = V.dot(c, c)
    l1, l2 = V.dot(d1, d1), V.dot(d2, d2)
    w = V.sub(p2, p1)
    if _is_zero(cc, l1 * l2, tol * tol):  # |c|^2 <= sin^2 |d1|^2 |d2|^2 (PARALLEL_SIN)
        off = V.cross(w, d1)  # |w x d1| / |d1| is the distance between parallel lines
        gap = math.sqrt(float(V.dot(off, off)) / float(l1))
        scale = max(1.0, math.sqrt(float(V.dot(w, w))))
        same = (V.dot(off, off) == 0) if tol == 0 else gap <= tol * scale
        return TwoRaysResult("coincident" if same else "parallel", gap=0.0 if same else gap,
                             cross_sqr=cc)
    t1 = V.dot(V.cross(w, d2), c) / cc
    t2 = V.dot(V.cross(w, d1), c) / cc
    q1, q2 = V.add(p1, V.scale(t1, d1)), V.add(p2, V.scale(t2, d2))
    diff = V.sub(q1, q2)
    gap2 = V.dot(diff, diff)
    gap = math.sqrt(float(gap2))
    # the gap is (w . c) / |c|: crossing when the lines share a plane
    scale = max(1.0, math.sqrt(float(V.dot(w, w))))
    meet = (V.dot(w, c) == 0) if tol == 0 else abs(float(V.dot(w, c))) <= \
        tol * scale * math.sqrt(float(cc)) * 4
    within = _in_range(t1, kind1) and _in_range(t2, kind2)
    return TwoRaysResult("crossing" if meet else "skew", t1=t1, t2=t2,
                         gap=0.0 if meet else gap, cross_sqr=cc, within=within)


def linear_parts(prim):
    """``(origin, direction, kind)`` of a segment, ray or line (a segment's ``p1 - p0``)."""
    if prim.kind == "segment":
        return tuple(prim.p0), V.sub(tuple(prim.p1), tuple(prim.p0)), "segment"
    return tuple(prim.origin), tuple(prim.direction), prim.kind


def classify_linear_pair(a, b) -> Optional[TwoRaysResult]:
    """A.8's classification of two linear primitives (``None`` when one is a point-like
    segment).

    A float pair of huge or tiny size is classified at unit scale, multiplied by the exact
    powers of two every query of the pair runs at (:func:`algorithms.core.tolerance.
    rescaled_pair_exponents`, the module's point 3: "1e300 scenes get the unit-scale
    answer"); A.8's formulas are homogeneous, so the case is the unit-scale one and ``t1``,
    ``t2``, ``gap`` and ``|d1 x d2|^2`` are brought back to the pair's units. Computed in the
    pair's units, ``(p2 - p1) x d1`` of two rays 1e200 apart squares to ``inf``, and
    ``inf <= tol * inf`` called them coincident (gap 0) beside a distance of 1e200."""
    a, b, e, pe_a, pe_b = rescaled_pair_exponents(a, b)
    (p1, d1, k1), (p2, d2, k2) = linear_parts(a), linear_parts(b)
    if V.dot(d1, d1) == 0 or V.dot(d2, d2) == 0:
        return None
    r = two_rays(p1, d1, p2, d2, k1, k2)
    if e == 0 and pe_a is None and pe_b is None:
        return r
    # a point o + t d of a ray or line is (o' + t' d') 2**e with d' = d / 2**de: t = t' 2**pe,
    # pe = e - de; a segment's t is scale-free and its d = p1 - p0 scales as a length (de = e)
    de_a = e if pe_a is None else e - pe_a
    de_b = e if pe_b is None else e - pe_b
    return replace(r, t1=up_param(r.t1, pe_a), t2=up_param(r.t2, pe_b),
                   gap=up_length(r.gap, e), cross_sqr=up_length(r.cross_sqr, 2 * (de_a + de_b)))


# ----------------------------------------------------------------------------- 2D lines (A.1, A.7)


def implicit_2d(origin, direction) -> Optional[tuple]:
    """``(a, b, d)`` of the 2D implicit line ``a x + b y = d`` carrying a line of the z = 0
    plane (``origin`` and ``direction`` with z = 0), with the unit normal ``(a, b)`` =
    ``(-dy, dx) / |(dx, dy)|`` (App. A.1's convention: ``d`` is the signed distance of the
    origin); ``None`` when the line is not in the z = 0 plane."""
    (ox, oy, oz), (dx, dy, dz) = tuple(map(float, origin)), tuple(map(float, direction))
    if oz != 0 or dz != 0 or (dx == 0 and dy == 0):
        return None
    n = math.hypot(dx, dy)
    a, b = -dy / n + 0.0, dx / n + 0.0
    return (a, b, a * ox + b * oy + 0.0)


def closest_point_2d(q, line) -> tuple:
    """App. A.1: the point of ``a x + b y = d`` (unit ``(a, b)``) nearest ``q = (x, y)``:
    ``q' = q + (d - q . n) n``; returns ``(q', d - q . n)``."""
    a, b, d = line
    s = d - (a * q[0] + b * q[1])
    return (q[0] + s * a, q[1] + s * b), s


def plane2d_of(a, b) -> Optional[dict]:
    """The 2D view of a pair lying in the z = 0 plane: two lines (App. A.7, :func:`two_lines_2d`)
    or a point and a line (App. A.1, :func:`closest_point_2d`); ``None`` otherwise."""
    def line_of(p):
        if p.kind in ("line", "ray"):
            return implicit_2d(p.origin, p.direction)
        if p.kind == "segment":
            return implicit_2d(p.p0, tuple(x - y for x, y in zip(p.p1, p.p0)))
        return None

    la, lb = line_of(a), line_of(b)
    if a.kind == "line" and b.kind == "line" and la and lb:
        r = two_lines_2d(la, lb)
        return {"section": "A.7", "line_a": la, "line_b": lb, "case": r.case,
                "point": r.point, "denominator": r.denominator, "numerators": r.numerators}
    for line, other, which in ((la, b, "a"), (lb, a, "b")):
        if line and other.kind == "point" and float(other.position[2]) == 0 and \
                (a if which == "a" else b).kind == "line":
            q = tuple(map(float, other.position[:2]))
            p, s = closest_point_2d(q, line)
            return {"section": "A.1", f"line_{which}": line, "point": p,
                    "signed_distance": s}
    return None
