"""Points, segments, rays and lines against a capsule: distance, intersects, hits.

A capsule is every point within ``radius`` of its axis segment ``p0 p1``, so its distance to a
point or linear component is the st-plane distance to the axis (Eberly & Schneider, GTCG §10.8.3,
:mod:`algorithms.kernels.stplane`) minus ``radius``, clamped at 0; the closest point on the capsule is
the axis point moved ``radius`` towards the other shape. When they intersect (axis distance
within ``radius`` plus the touching tolerance of :mod:`.dist_linear_linear`), both closest points
are the point of A nearest the axis, which lies in the capsule.

The ray cast (GTCG §10.8 for the contact test; the wall/hemisphere split as in Geometric Tools'
``IntrLine3Capsule3``) intersects A's line with the three convex pieces whose union is the
capsule: the finite cylinder (wall quadratic within the two end planes) and the two end balls.
The union of their parameter intervals is one interval ``[t_enter, t_leave]`` because the
capsule is convex. Entry and exit get the outward normal ``(X - axis point nearest X) / radius``.
A segment or ray starting inside gets ``first_t = 0`` and a hit of kind ``"inside"``; a line's
``first_t`` is ``t_enter``. The quadratics are solved around the parameter of A's point nearest
the capsule centre, so a far-away origin loses no precision. A grazing contact that the distance
test calls touching but whose discriminant rounds negative is reported as one hit of kind
``"hit"`` at the st-plane contact, so ``hits`` and ``intersects`` always agree.
"""

from __future__ import annotations

import math
from dataclasses import replace

from algorithms.core import vec as V
from algorithms.core.once import shared
from algorithms.kernels.closest import solid_hits
from algorithms.kernels.stplane import (DOMAINS, _ldexp, _pow2_scale, linear_form, minimize,
                                        point_at)
from algorithms.primitives import Capsule
from algorithms.queries.linear_linear import linear_hits, touch_tolerance
from algorithms.registry import register
from algorithms.results import DistanceResult, Hit, HitResult, IntersectionResult

INF = math.inf
METHOD = ("capsule as axis segment plus radius: st-plane distance to the axis "
          "(Eberly & Schneider, GTCG §10.8.3)")
HITS_METHOD = "ray-capsule cast: cylinder wall and two hemispheres (t_enter, t_leave)"


def _fp(p):
    return tuple(float(x) for x in p)


@shared
def _axis_solution(prim, cap: Capsule):
    return minimize(prim, cap.segment)


@shared
def capsule_distance(prim, cap: Capsule) -> DistanceResult:
    """Distance from a point, segment, ray or line to a capsule (axis distance minus radius).

    ``parameter = (s, None)``; ``trace`` is the axis st-plane trace plus ``radius``,
    ``axis_distance`` and ``touch_tolerance``.
    """
    sol = _axis_solution(prim, cap)
    trace = dict(sol.trace)
    r = float(cap.radius)
    d_axis = sol.distance
    P, Q = _fp(sol.closest[0]), _fp(sol.closest[1])
    tol = touch_tolerance(prim, cap.segment, (r, 0.0, 0.0))
    trace.update({"radius": r, "axis_distance": d_axis, "axis_t": sol.t,
                  "touch_tolerance": tol})
    s = None if prim.kind == "point" else float(sol.s)
    if d_axis <= r + tol:
        trace["distance_raw"] = d_axis - r
        return DistanceResult(method=METHOD, trace=trace, distance=0.0, sqr_distance=0.0,
                              closest=(P, P), parameter=(s, None))
    dist = d_axis - r
    k = r / d_axis
    on_cap = tuple(q + k * (p - q) for p, q in zip(P, Q))
    return DistanceResult(method=METHOD, trace=trace, distance=dist,
                          sqr_distance=max(dist * dist, math.ulp(0.0)),
                          closest=(P, on_cap), parameter=(s, None))


def capsule_intersects(prim, cap: Capsule) -> IntersectionResult:
    """Axis distance ``<= radius`` (plus the touching tolerance)."""
    r = capsule_distance(prim, cap)
    return IntersectionResult(method=METHOD, trace={"axis_distance": r.trace["axis_distance"],
                                                     "radius": r.trace["radius"]},
                              intersects=r.distance == 0)


def _roots(A, B, C):
    """Real roots ``t1 <= t2`` of ``A t^2 + 2 B t + C`` (``A > 0``), or ``None``."""
    disc = B * B - A * C
    if disc < 0:
        return None
    q = -(B + math.copysign(math.sqrt(disc), B))
    if q == 0:
        return 0.0, 0.0
    r1, r2 = q / A, C / q
    return (r1, r2) if r1 <= r2 else (r2, r1)


def _line_capsule_interval(o, d, p0, p1, r):
    """``[t_enter, t_leave]`` of the whole line ``o + t d`` inside the capsule, or ``None``.

    ``o`` should be near the capsule (the caller shifts it) for accuracy.
    """
    pieces = []
    dd = V.dot(d, d)
    for centre in (p0, p1):  # the two end balls: |o + t d - centre|^2 = r^2
        w = V.sub(o, centre)
        pieces.append(_roots(dd, V.dot(w, d), V.dot(w, w) - r * r))
    axis = V.sub(p1, p0)
    L2 = V.dot(axis, axis)
    if L2 > 0:
        w = V.sub(o, p0)
        w_perp = V.sub(w, V.scale(V.dot(w, axis) / L2, axis))
        d_perp = V.sub(d, V.scale(V.dot(d, axis) / L2, axis))
        A = V.dot(d_perp, d_perp)
        C = V.dot(w_perp, w_perp) - r * r
        if A == 0:
            wall = (-INF, INF) if C <= 0 else None
        else:
            wall = _roots(A, V.dot(w_perp, d_perp), C)
        hv, hd = V.dot(w, axis), V.dot(d, axis)  # 0 <= hv + t hd <= L2 between the end planes
        if hd == 0:
            slab = (-INF, INF) if 0 <= hv <= L2 else None
        else:
            ta, tb = -hv / hd, (L2 - hv) / hd
            slab = (min(ta, tb), max(ta, tb))
        if wall is not None and slab is not None:
            lo, hi = max(wall[0], slab[0]), min(wall[1], slab[1])
            pieces.append((lo, hi) if lo <= hi else None)
    pieces = [p for p in pieces if p is not None]
    if not pieces:
        return None
    return min(p[0] for p in pieces), max(p[1] for p in pieces)


def _outward_normal(x, p0, p1):
    axis = V.sub(p1, p0)
    L2 = V.dot(axis, axis)
    u = 0.0 if L2 == 0 else min(max(V.dot(V.sub(x, p0), axis) / L2, 0.0), 1.0)
    y = V.add(p0, V.scale(u, axis))
    v = V.sub(x, y)
    n = V.norm(v)
    if n == 0 or not math.isfinite(n):
        return None
    return tuple(c / n for c in v)


def capsule_hits(lin, cap: Capsule) -> HitResult:
    """Cast a segment, ray or line against a capsule: entry/exit hits with outward normals.

    See the module docstring; ``trace`` holds ``t_enter``, ``t_leave`` (on A's infinite line),
    ``axis_distance`` and ``radius``. A zero radius is the segment case of
    :func:`.dist_linear_linear.linear_hits`.
    """
    r = float(cap.radius)
    dist = capsule_distance(lin, cap)
    trace = {"radius": r, "axis_distance": dist.trace["axis_distance"],
             "touch_tolerance": dist.trace["touch_tolerance"]}
    if dist.distance > 0:
        return HitResult(method=HITS_METHOD, trace=trace, intersects=False, first_t=None, hits=())
    if r == 0:
        h = linear_hits(lin, cap.segment)
        return HitResult(method=HITS_METHOD, trace={**trace, "segment": h.trace},
                         intersects=h.intersects, first_t=h.first_t, hits=h.hits)
    kind, B, m = linear_form(lin)
    B, m = _fp(B), _fp(m)
    g = _pow2_scale(kind, m)
    if g:  # extreme ray/line direction: cast with 2^g m, then scale the parameters back
        res = _cast(kind, B, tuple(math.ldexp(x, g) for x in m), _fp(cap.p0), _fp(cap.p1), r,
                    dist, {**trace, "direction_exponent": g}, g)
        return replace(res, first_t=None if res.first_t is None else _ldexp(res.first_t, g),
                       hits=tuple(replace(h, t=_ldexp(h.t, g)) for h in res.hits))
    return _cast(kind, B, m, _fp(cap.p0), _fp(cap.p1), r, dist, trace)


def _cast(kind, B, m, p0, p1, r, dist, trace, g=0):
    """The cast of ``B + t m`` (``m`` already scaled by ``2^g``; the grazing fallback's
    parameter from ``dist`` is scaled by ``2^-g`` so the caller can scale every ``t`` back)."""
    if V.dot(m, m) == 0:  # zero-length segment: a point, inside (touching) the capsule
        trace["degenerate"] = "A has zero length"
        return HitResult(method=HITS_METHOD, trace=trace, intersects=True, first_t=0.0,
                         hits=(Hit(0.0, B, None, "inside"),))
    lo, hi = DOMAINS[kind]
    lo = -INF if lo is None else float(lo)
    hi = INF if hi is None else float(hi)
    centre = tuple((x + y) / 2 for x, y in zip(p0, p1))
    t0 = V.dot(V.sub(centre, B), m) / V.dot(m, m)
    o = V.add(B, V.scale(t0, m))
    interval = _line_capsule_interval(o, m, p0, p1, r)
    if interval is not None:
        t_in, t_out = t0 + interval[0], t0 + interval[1]
        trace.update({"t_enter": t_in, "t_leave": t_out})
        if not (t_in > t_out or t_out < lo or t_in > hi):
            n_in = _outward_normal(point_at(kind, B, m, t_in), p0, p1)
            n_out = _outward_normal(point_at(kind, B, m, t_out), p0, p1)
            return solid_hits(B, m, lo, hi, t_in, t_out, n_in, n_out, HITS_METHOD, trace)
    # grazing: touching by the distance test, missed by the rounded quadratics
    s = _ldexp(dist.parameter[0], -g)
    x = dist.closest[0]
    trace["grazing"] = True
    return HitResult(method=HITS_METHOD, trace=trace, intersects=True, first_t=s,
                     hits=(Hit(s, x, _outward_normal(x, p0, p1), "hit"),))


for _k in ("point", "segment", "ray", "line"):
    register("distance", _k, "capsule", name="axis_st_plane")(capsule_distance)
    register("intersects", _k, "capsule", name="axis_st_plane")(capsule_intersects)
for _k in ("segment", "ray", "line"):
    register("hits", _k, "capsule", name="capsule_cast")(capsule_hits)
