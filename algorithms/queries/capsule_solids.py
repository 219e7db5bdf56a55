"""Capsule against capsule and sphere: segment distance against the radius sum.

Eberly & Schneider, GTCG §11.12.9: "Two capsules intersect if and only if the distance between
capsule line segments is smaller or equal to the sum of the capsule radii, a much cheaper test
to perform" (than cylinders). A sphere is a capsule with a zero-length segment, so
capsule-sphere is the point-segment distance (App. A.2, clamped) against ``r_c + r_s``.

The segment-segment distance is asked of the registry at run time
(``query("distance", Segment, Segment)``, GTCG §10.8); if no module answers it, the private
candidate minimiser :func:`algorithms.kernels.closest.linear_segment_closest` is used and ``method``
says so. The closest points ``P`` (on A's segment) and ``Q`` (on B's) give everything:

* distance ``max(0, |PQ| - r_A - r_B)``; closest points ``P + r_A u`` and ``Q - r_B u`` with
  ``u = (Q - P)/|Q - P|``; when intersecting, the middle of the common part of the two radii
  along ``u`` (``P`` itself when the segments meet) is a common point;
* the separating axis ``u`` (the closest-point direction) when ``|PQ| > r_A + r_B``: every
  point of A projects to at most ``P.u + r_A`` and every point of B to at least ``Q.u - r_B``.

Decisions compare squared distances (exact on Fractions when the segment distance is).
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

from algorithms import registry
from algorithms.core import vec as V
from algorithms.core.once import shared
from algorithms.kernels import closest as CL
from algorithms.primitives import Capsule, Segment, Sphere
from algorithms.queries.box_box import round_separation, safe_unit
from algorithms.core.tolerance import PLAIN_KEY, plain
from algorithms.registry import lean_kernels, lean_pair, register
from algorithms.results import DistanceResult, IntersectionResult, SeparationResult, make_with

METHOD = "capsules: segment distance vs radius sum (Eberly GTCG §11.12.9)"


#: where :func:`core_segment` keeps a capsule's segment on the (frozen) instance: not a field
_CORE_KEY = "_capsule_core"


def core_segment(c: Capsule) -> Segment:
    """The capsule's segment ``p0 p1``, built once per capsule from its own (coerced,
    validated) end points, so its cached properties (direction, scale flags) last across
    queries."""
    seg = c.__dict__.get(_CORE_KEY)
    if seg is None:
        seg = Segment.of_valid(p0=c.p0, p1=c.p1)
        object.__setattr__(c, _CORE_KEY, seg)
    return seg


@shared
def segment_closest(sa: Segment, sb: Segment):
    """``(sqr_distance, s, t, P, Q, how)`` of the segments ``sa`` and ``sb``."""
    try:
        r = registry.query("distance", sa, sb)
        P, Q = tuple(r.closest[0]), tuple(r.closest[1])
        sq = V.sqr_dist(P, Q) if _exact(P) and _exact(Q) else r.sqr_distance
        return sq, r.parameter[0], r.parameter[1], P, Q, r.method
    except registry.QueryNotAvailable:
        sq, s, t, P, Q = CL.linear_segment_closest(sa.p0, V.sub(sa.p1, sa.p0), 0, 1, sb.p0,
                                                   sb.p1)
        return sq, s, t, P, Q, "candidate minimiser (closest.linear_segment_closest)"


def _exact(p) -> bool:
    if type(p[0]) is float:  # (the common case: a float point is not exact)
        return False
    return all(isinstance(c, Fraction) for c in p)


#: the unit vector or None (algorithms.core.tolerance.unit)
_unit = safe_unit


def _round_round(P, Q, ra, rb, sq, params, method, trace) -> DistanceResult:
    """Distance of ``P`` + ball(ra) and ``Q`` + ball(rb) given ``|PQ|^2 = sq``; ``trace`` (a
    dict the caller gives up) becomes the record's, with the three entries added."""
    rs = ra + rb
    d = math.sqrt(sq)
    u = _unit(V.sub3(Q, P))
    trace["segment_distance"] = d
    trace["r_sum"] = rs
    if sq <= rs * rs:
        if u is None:
            p = tuple(P)
        else:
            lo, hi = max(-float(ra), d - float(rb)), min(float(ra), d + float(rb))
            s = (lo + hi) / 2
            p = (float(P[0]) + s * u[0], float(P[1]) + s * u[1], float(P[2]) + s * u[2])
        trace["intersects"] = True
        # (make_with: the record DistanceResult(...) builds, without its frozen __init__)
        return make_with(DistanceResult, {"method": method, "trace": trace, "distance": 0.0,
                                          "sqr_distance": 0.0, "closest": (p, p),
                                          "parameter": params})
    trace["intersects"] = False
    dist = d - float(rs)
    fa, fb = float(ra), float(rb)
    if type(P[0]) is float and type(Q[0]) is float:  # (the float points: no conversions)
        pa = (P[0] + fa * u[0], P[1] + fa * u[1], P[2] + fa * u[2])
        pb = (Q[0] - fb * u[0], Q[1] - fb * u[1], Q[2] - fb * u[2])
    else:
        pa = (float(P[0]) + fa * u[0], float(P[1]) + fa * u[1], float(P[2]) + fa * u[2])
        pb = (float(Q[0]) - fb * u[0], float(Q[1]) - fb * u[1], float(Q[2]) - fb * u[2])
    return make_with(DistanceResult, {"method": method, "trace": trace, "distance": dist,
                                      "sqr_distance": dist * dist, "closest": (pa, pb),
                                      "parameter": params})


def _round_sep(P, Q, ra, rb, sq, proj_a, proj_b, method, trace) -> SeparationResult:
    rs = ra + rb
    return round_separation(P, Q, bool(sq <= rs * rs), proj_a, proj_b,
                            "closest-point direction", method, trace)


def _capsule_projector(c: Capsule):
    def project(u):
        a = sum(float(x) * y for x, y in zip(c.p0, u))
        b = sum(float(x) * y for x, y in zip(c.p1, u))
        return (a + b) / 2, abs(b - a) / 2 + float(c.radius)
    return project


def _sphere_projector(s: Sphere):
    def project(u):
        return sum(float(x) * y for x, y in zip(s.center, u)), float(s.radius)
    return project


# ----------------------------------------------------------------------------- capsule-capsule


@register("distance", "capsule", "capsule")
def distance_capsule_capsule(a: Capsule, b: Capsule) -> DistanceResult:
    """Segment distance minus ``r_A + r_B`` (GTCG §11.12.9); 0 and a common point if <= 0."""
    sq, s, t, P, Q, how = segment_closest(core_segment(a), core_segment(b))
    return _round_round(P, Q, a.radius, b.radius, sq, (s, t), METHOD,
                        {"segment_method": how, "s": s, "t": t, "P": P, "Q": Q})


def _lean_distance(a: Capsule, b: Capsule) -> Optional[DistanceResult]:
    """The lean kernel of two float capsules (:func:`algorithms.registry.lean_kernels`):
    :func:`distance_capsule_capsule` in one frame, taking the segment pair's own lean kernel
    (and its careful path where that declines) straight from the registry's dispatch
    (:func:`algorithms.registry.lean_pair`) instead of through ``query`` and
    :func:`segment_closest`. The same record: the segment record's points and parameters
    and the same :func:`_round_round`. ``None`` (the registered function answers) when the
    segment-segment default has no lean kernel, its dispatch is not cached yet, or a core
    segment is not plain."""
    seg = lean_pair("distance", Segment, Segment)
    if seg is None:
        return None
    sa = a.__dict__.get(_CORE_KEY) or core_segment(a)
    sb = b.__dict__.get(_CORE_KEY) or core_segment(b)
    pa = sa.__dict__.get(PLAIN_KEY)
    pb = sb.__dict__.get(PLAIN_KEY)
    if not ((pa if pa is not None else plain(sa)) and (pb if pb is not None else plain(sb))):
        return None
    r = seg[0](sa, sb)
    if r is None:
        r = seg[1](sa, sb)
    P, Q = r.closest
    if not (type(P[0]) is float and type(Q[0]) is float):
        return None  # (an exact record: segment_closest's exact squared distance)
    s, t = r.parameter
    return _round_round(P, Q, a.radius, b.radius, r.sqr_distance, (s, t), METHOD,
                        {"segment_method": r.method, "s": s, "t": t, "P": P, "Q": Q})


lean_kernels(distance_capsule_capsule, {("capsule", "capsule"): (_lean_distance,
                                                                 distance_capsule_capsule)})


@register("intersects", "capsule", "capsule")
def intersects_capsule_capsule(a: Capsule, b: Capsule) -> IntersectionResult:
    """``dist(segments)^2 <= (r_A + r_B)^2`` (GTCG §11.12.9)."""
    sq, s, t, P, Q, how = segment_closest(core_segment(a), core_segment(b))
    rs = a.radius + b.radius
    return IntersectionResult(intersects=bool(sq <= rs * rs), method=METHOD,
                              trace={"segment_sqr_distance": sq, "r_sum": rs,
                                     "segment_method": how})


@register("separating_axis", "capsule", "capsule")
def separating_axis_capsule_capsule(a: Capsule, b: Capsule) -> SeparationResult:
    """The closest-point direction ``Q - P`` separates iff ``|PQ| > r_A + r_B``."""
    sq, s, t, P, Q, how = segment_closest(core_segment(a), core_segment(b))
    return _round_sep(P, Q, a.radius, b.radius, sq, _capsule_projector(a),
                      _capsule_projector(b), METHOD,
                      {"segment_sqr_distance": sq, "s": s, "t": t, "segment_method": how})


# ----------------------------------------------------------------------------- capsule-sphere

CS_METHOD = ("capsule-sphere: point-segment distance (App. A.2, clamped) vs radius sum "
             "(GTCG §11.12.9)")


def _point_segment(c: Capsule, q):
    P, s = CL.closest_point_segment(q, c.p0, c.p1)
    return P, s, V.sqr_dist(P, q)


@register("distance", "capsule", "sphere")
def distance_capsule_sphere(a: Capsule, b: Sphere) -> DistanceResult:
    """Distance of the sphere's centre to the capsule's segment, minus ``r_c + r_s``."""
    P, s, sq = _point_segment(a, b.center)
    return _round_round(P, b.center, a.radius, b.radius, sq, (s, None), CS_METHOD,
                        {"s": s, "P": P})


@register("intersects", "capsule", "sphere")
def intersects_capsule_sphere(a: Capsule, b: Sphere) -> IntersectionResult:
    """``dist(segment, centre)^2 <= (r_c + r_s)^2``."""
    P, s, sq = _point_segment(a, b.center)
    rs = a.radius + b.radius
    return IntersectionResult(intersects=bool(sq <= rs * rs), method=CS_METHOD,
                              trace={"s": s, "sqr_distance": sq, "r_sum": rs})


@register("separating_axis", "capsule", "sphere")
def separating_axis_capsule_sphere(a: Capsule, b: Sphere) -> SeparationResult:
    """The direction from the segment's closest point to the centre separates iff > r sum."""
    P, s, sq = _point_segment(a, b.center)
    return _round_sep(P, b.center, a.radius, b.radius, sq, _capsule_projector(a),
                      _sphere_projector(b), CS_METHOD, {"s": s, "sqr_distance": sq})
