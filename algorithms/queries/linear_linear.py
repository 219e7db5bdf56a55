"""Points, segments, rays and lines against each other: distance, intersects, hits.

Eberly & Schneider, GTCG §10.8 (ray-segment Fig. 10.35; segment-segment regions 0-8, Fig. 10.36;
level curves Fig. 10.37; the parallel case), solved for every pair of domains by the robust
st-plane minimiser :func:`algorithms.kernels.stplane.st_minimize`; Dunn & Parberry, 3D Math Primer,
App. A.2 (closest point on a ray) and A.8 (two rays/lines in 3D: crossing, parallel, coincident,
skew).

Touching tolerance
------------------
In float arithmetic two segments that cross cleanly (say at ``(0.5, 0.5, 0)``) leave a rounding
residue of a few ulps. :func:`touch_tolerance` is ``TOUCH_ULPS * eps * scale`` with ``scale``
the largest absolute coordinate of the inputs' points (a segment's ends, a ray's or line's
origin), never of the closest points and never a direction's length, which the spec leaves
free; a computed distance at or below it is reported as ``0`` with one common point (the
midpoint of the two closest points) as both closest points, and ``intersects`` is true. Exact
(``Fraction``) inputs use tolerance 0. The raw distance stays in ``trace["distance_raw"]``.

The closest points are not part of the scale because they can lie arbitrarily far from the
inputs: two nearly parallel lines ``(0,0,0) + s (0.1,0.2,0.3)`` and ``(0,1,0) + t (0.3,0.6,0.9)``
(not parallel in binary: ``0.3 != 3 * 0.1``) come closest, ``sqrt(1/5) = 0.447`` apart, some
``7.8e15`` along the lines, and a band grown with those points (``13.8``) called them touching.
The st-plane minimiser computes the distance of such a pair from the inputs (the region-0
candidate is ranked by ``|D.n| / |n|``, with correctly rounded cross and dot products), so its
error is a few ulps of the inputs' size wherever the closest points are.

API (plain functions)
---------------------
:func:`segment_segment_st`, :func:`closest_point_on_ray` (A.2), :func:`closest_approach` (A.8),
:func:`linear_distance`, :func:`linear_hits`, :func:`touch_tolerance`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Optional

from algorithms.core import tolerance
from algorithms.core import vec as V
from algorithms.core.once import shared
from algorithms.kernels.stplane import (DOMAINS, METHOD, clamp, lean_distance, lean_segments,
                                        linear_form, minimize, point_at)
from algorithms.primitives import Line
from algorithms.registry import fuses, lean_kernels, register
from algorithms.results import (Deferred, DistanceResult, Hit, HitResult, IntersectionResult,
                                make)

EPS = tolerance.EPS  # 2**-52
#: touching tolerance in units of ``eps * scale`` (see the module docstring)
TOUCH_ULPS = 8

KINDS = ("point", "segment", "ray", "line")
LINEAR = ("segment", "ray", "line")

HITS_METHOD = ("linear-linear contact from the st-plane minimum; collinear overlap by "
               "projection (Eberly & Schneider, GTCG §10.8.3, parallel case)")


def _is_exact(*prims) -> bool:
    return all(p.exact for p in prims)


def _fp(p):
    return tuple(float(x) for x in p)


def _max_abs(*vectors) -> float:
    m = 0.0
    for v in vectors:
        for x in v:
            a = abs(x)
            if a > m:
                m = a
    return float(m)


def touch_tolerance(prim0, prim1, *lengths) -> float:
    """``TOUCH_ULPS * eps * scale`` (0 for exact inputs); ``scale`` = largest absolute
    coordinate among the components' defining points (a segment's ends, a ray's or line's
    origin) and the further input ``lengths`` (vectors or tuples, e.g. a capsule's radius).
    Never the direction (the spec allows a ray's direction to have any length) and never the
    closest points, which may lie ``1e16`` away from the inputs (module docstring): the
    distance is computed from the inputs, so its rounding is relative to their size."""
    if _is_exact(prim0, prim1):
        return 0.0
    vecs = []
    for p in (prim0, prim1):
        kind, B, m = linear_form(p)
        vecs.append(B)
        if kind == "segment":
            vecs.append(p.p1)
    return TOUCH_ULPS * EPS * _max_abs(*vecs, *lengths)


def segment_segment_st(seg0, seg1):
    """Exact-capable st-plane answer for two segments: ``(s, t, sqr_distance, trace)``.

    With ``Segment(..., exact=True)`` inputs all three numbers are :class:`Fraction` (the exact
    minimiser of GTCG §10.8.3's ``Q``); with float inputs, floats from the very same code. Works
    for any two of point, segment, ray, line as well.
    """
    sol = minimize(seg0, seg1)
    return sol.s, sol.t, sol.sqr_distance, sol.trace


@shared
def linear_distance(prim0, prim1) -> DistanceResult:
    """Distance between two of point, segment, ray, line (GTCG §10.8.3, robust st-plane).

    ``parameter = (s, t)`` (``None`` for a point); ``trace`` carries the book's ``a b c d e f``,
    ``det``, ``s_bar t_bar`` (or ``parallel``), ``region``, the evaluated edge ``candidates`` and
    the final ``s``, ``t``. Touching within :func:`touch_tolerance` gives distance 0.
    A clear, non-parallel float pair is answered by the lean filter
    (:func:`algorithms.kernels.stplane.lean_distance`, the trace computed when read).
    """
    lean = lean_distance(prim0, prim1, touch_tolerance, METHOD)
    if lean is not None:
        return lean
    return _careful_distance(prim0, prim1)


def _careful_distance(prim0, prim1) -> DistanceResult:
    """:func:`linear_distance` once the lean filter declined: the st-plane minimiser."""
    sol = minimize(prim0, prim1)
    trace = dict(sol.trace)
    dist = sol.distance
    closest = sol.closest
    sqr = sol.sqr_distance
    tol = touch_tolerance(prim0, prim1)
    trace["touch_tolerance"] = tol
    if dist <= tol and (dist > 0 or closest[0] != closest[1]):
        trace["distance_raw"] = dist
        mid = tolerance.midpoint(*closest)
        closest = (mid, mid)
        dist, sqr = 0.0, 0.0
    exact = _is_exact(prim0, prim1)
    if not exact:
        closest = (_fp(closest[0]), _fp(closest[1]))
        sqr = float(sqr) if sqr != 0 else 0.0
        if dist > 0 and sqr == 0:
            sqr = math.ulp(0.0)  # 1e-200 apart: the square underflows but is not 0
    param = (None if prim0.kind == "point" else sol.s, None if prim1.kind == "point" else sol.t)
    if not exact:
        param = tuple(None if p is None else float(p) for p in param)
    return DistanceResult(method=METHOD, trace=trace, distance=dist, sqr_distance=sqr,
                          closest=closest, parameter=param)


def linear_intersects(prim0, prim1) -> IntersectionResult:
    """Touching test: distance within :func:`touch_tolerance` (exactly 0 for exact inputs)."""
    return _intersects_of(linear_distance(prim0, prim1))


def _intersects_of(r) -> IntersectionResult:
    """The touching test read from the distance record ``r``."""
    return make(IntersectionResult, method=METHOD, trace=Deferred(_intersects_trace, r),
                intersects=r.distance == 0)


def _intersects_trace(r) -> dict:
    return {"distance": r.distance, "touch_tolerance": r.trace["touch_tolerance"],
            "distance_raw": r.trace.get("distance_raw", r.distance)}


def _hits_trace(r) -> dict:
    return {"distance": r.distance, "s": r.parameter[0], "t": r.parameter[1],
            "region": r.trace.get("region"), "edge": r.trace.get("edge")}


def _collinear_interval(prim0, prim1):
    """The parameter interval ``[u, v]`` of A (``None`` ends unbounded) covered by B when both
    lie on one line: B's domain mapped by ``sigma(t) = (B1 + t m1 - B0).m0 / a`` (the book's
    ``sigma0 = sigma(0)``, ``sigma1 = sigma(1)``) and intersected with A's domain.
    Returns ``None`` when empty."""
    k0, B0, m0 = linear_form(prim0)
    k1, B1, m1 = linear_form(prim1)
    lo0, hi0 = DOMAINS[k0]
    lo1, hi1 = DOMAINS[k1]
    a = V.dot(m0, m0)

    def sigma(t):
        return V.dot(V.sub(V.add(B1, V.scale(t, m1)), B0), m0) / a

    increasing = V.dot(m0, m1) > 0
    ends = [None if lo1 is None else sigma(lo1), None if hi1 is None else sigma(hi1)]
    if not increasing:
        ends.reverse()
    u, v = ends
    if lo0 is not None and (u is None or u < lo0):
        u = lo0 + 0 * a
    if hi0 is not None and (v is None or v > hi0):
        v = hi0 + 0 * a
    if u is not None and v is not None and u > v:
        return None
    return u, v


def _nearly_parallel(m0, m1, exact: bool) -> bool:
    n = V.cross(m0, m1)
    if exact:
        return V.dot(n, n) == 0
    return float(V.dot(n, n)) <= (TOUCH_ULPS * EPS) ** 2 * float(V.dot(m0, m0)) * float(
        V.dot(m1, m1))


def linear_hits(prim0, prim1) -> HitResult:
    """Where linear component A (segment, ray, line) touches B (point, segment, ray, line).

    A single touching point gives one hit of kind ``"hit"`` at A's parameter ``s`` of the
    st-plane minimum. When B is a segment/ray/line on A's line (parallel within
    ``TOUCH_ULPS * eps`` and touching), the contact is the overlap of the two parameter
    intervals (GTCG §10.8.3, parallel case): its finite ends are hits of kind ``"overlap"``
    and ``first_t`` its least end, ``None`` when unbounded below (a line lying on line B).
    Normals are ``None`` (no surface).
    """
    return _hits_of(prim0, prim1, linear_distance(prim0, prim1))


def _hits_of(prim0, prim1, r) -> HitResult:
    """:func:`linear_hits` read from the distance record ``r`` of the pair."""
    if r.distance != 0:  # (the trace is read from the distance's when asked for)
        return make(HitResult, method=HITS_METHOD, trace=Deferred(_hits_trace, r),
                    intersects=False, first_t=None, hits=())
    trace = _hits_trace(r)
    k0, B0, m0 = linear_form(prim0)
    k1, B1, m1 = linear_form(prim1)
    exact = _is_exact(prim0, prim1)
    end0 = prim0.p1 if k0 == "segment" else None

    def at(u):
        p = point_at(k0, B0, m0, u, end0)
        return p if exact else _fp(p)

    def num(u):
        return u if exact else float(u)

    a = V.dot(m0, m0)
    if a == 0:  # zero-length segment A: every parameter is the same point; the least is 0
        trace["degenerate"] = "A has zero length"
        return HitResult(method=HITS_METHOD, trace=trace, intersects=True, first_t=num(0 * a),
                         hits=(Hit(num(0 * a), at(0 * a), None, "hit"),))
    c = V.dot(m1, m1)
    if k1 != "point" and c != 0 and _nearly_parallel(m0, m1, exact):
        interval = _collinear_interval(prim0, prim1)
        tol = r.trace["touch_tolerance"]
        ok = interval is not None
        if ok and not exact:
            # the finite overlap ends must really lie on B (nearly parallel is not collinear)
            for u in interval:
                if u is not None:
                    p = at(u)
                    _, q = _point_on(prim1, p)
                    ok = ok and V.norm(V.sub(p, q)) <= tol
        if ok:
            u, v = interval
            trace["overlap"] = (u, v)
            if u is not None and v is not None and u == v:
                hits = (Hit(num(u), at(u), None, "hit"),)
            else:
                hits = tuple(Hit(num(w), at(w), None, "overlap") for w in (u, v)
                             if w is not None)
            return HitResult(method=HITS_METHOD, trace=trace, intersects=True,
                             first_t=None if u is None else num(u), hits=hits)
    s = r.parameter[0]
    return HitResult(method=HITS_METHOD, trace=trace, intersects=True, first_t=s,
                     hits=(Hit(s, r.closest[0], None, "hit"),))


def _point_on(prim, q):
    """``(u, point)``: the point of ``prim`` nearest ``q`` (Primer App. A.2, clamped)."""
    k, B, m = linear_form(prim)
    lo, hi = DOMAINS[k]
    mm = V.dot(m, m)
    u = 0 * mm if mm == 0 else clamp(V.dot(V.sub(q, B), m) / mm, lo, hi)
    return u, point_at(k, B, m, u, prim.p1 if k == "segment" else None)


def closest_point_on_ray(ray, q):
    """Closest point of a ray (or segment, line) to ``q``: Dunn & Parberry, App. A.2.

    ``t = d.(q - p_org) / (d.d)`` (the book divides by ``|d|`` for a unit ``d``; for a general
    direction the projection parameter needs ``d.d``), clamped to the domain: ``t < 0`` gives
    the origin. Returns ``(t, point)``; exact for exact inputs.
    """
    return _point_on(ray, tuple(q))


@dataclass(frozen=True)
class ClosestApproach:
    """Two rays/lines in 3D (Primer App. A.8).

    ``classification`` is ``"crossing"`` (one common point), ``"parallel"`` (never meet),
    ``"coincident"`` (same line) or ``"skew"``; ``t1``, ``t2`` the parameters of the closest
    approach on the infinite lines (``None`` when parallel/coincident: any pair will do, and
    ``point1``/``point2`` then use ``t1 = 0``); ``distance`` between the lines.
    ``within_domains`` tells whether ``t1``, ``t2`` lie in the rays' own domains (the Primer's
    "appropriate bounds tests"); ``restricted`` is the st-plane distance of the components
    themselves (for rays, GTCG §10.8).
    """

    classification: str
    t1: Optional[object]
    t2: Optional[object]
    point1: tuple
    point2: tuple
    distance: float
    within_domains: Optional[bool]
    restricted: DistanceResult


def closest_approach(r1, r2) -> ClosestApproach:
    """Primer App. A.8: intersect two rays or lines ``p1 + t1 d1``, ``p2 + t2 d2``.

    ``t1 = ((p2 - p1) x d2).(d1 x d2) / |d1 x d2|^2`` and
    ``t2 = ((p2 - p1) x d1).(d1 x d2) / |d1 x d2|^2``; a zero cross product means parallel or
    coincident (told apart by the distance of ``p2`` from line 1). The Primer's tolerance for
    "crossing" versus "skew" is :func:`touch_tolerance`.
    """
    exact = _is_exact(r1, r2)
    _, p1, d1 = linear_form(r1)
    _, p2, d2 = linear_form(r2)
    L1 = Line(p1, d1, exact=exact)
    L2 = Line(p2, d2, exact=exact)
    restricted = linear_distance(r1, r2)
    n = V.cross(d1, d2)
    nn = V.dot(n, n)
    w = V.sub(p2, p1)
    if nn == 0 or (not exact and _nearly_parallel(d1, d2, False)):
        line_d = linear_distance(L1, L2)
        cls = "coincident" if line_d.distance == 0 else "parallel"
        q1 = p1
        _, q2 = _point_on(L2, p1)
        return ClosestApproach(cls, None, None, q1, q2, line_d.distance, None, restricted)
    t1 = V.dot(V.cross(w, d2), n) / nn
    t2 = V.dot(V.cross(w, d1), n) / nn
    q1 = V.add(p1, V.scale(t1, d1))
    q2 = V.add(p2, V.scale(t2, d2))
    dist = V.norm(V.sub(q1, q2))
    tol = touch_tolerance(L1, L2)
    cls = "crossing" if dist <= tol else "skew"
    lo1, hi1 = DOMAINS[r1.kind]
    lo2, hi2 = DOMAINS[r2.kind]
    within = clamp(t1, lo1, hi1) == t1 and clamp(t2, lo2, hi2) == t2
    return ClosestApproach(cls, t1, t2, q1, q2, dist, within, restricted)


@fuses(distance=linear_distance, intersects=linear_intersects, hits=linear_hits)
def answer_linear_linear(prim0, prim1):
    """``(distance, intersection, hits)`` of two linear components from one st-plane
    minimisation, the records the three queries return (:func:`algorithms.registry.fuses`)."""
    r = linear_distance.__wrapped__(prim0, prim1)  # (no other query of the pair reads it)
    return r, _intersects_of(r), _hits_of(prim0, prim1, r)


# ----------------------------------------------------------------------------- registration

# every ordered pair, so the trace's domain ("ray-segment", Fig. 10.35) follows the query order
for _ka in KINDS:
    for _kb in KINDS:
        register("distance", _ka, _kb, name="st_plane")(linear_distance)
        register("intersects", _ka, _kb, name="st_plane")(linear_intersects)
for _ka in LINEAR:
    for _kb in KINDS:
        register("hits", _ka, _kb, name="st_plane")(linear_hits)


# the one-frame kernel of two float segments (registry.lean_kernels): lean_distance's record
lean_kernels(linear_distance, {("segment", "segment"): (lean_segments(touch_tolerance, METHOD),
                                                         _careful_distance)})
