"""Point, segment, ray and line against a plane.

* point: closest point on the plane, Dunn & Parberry, 3D Math Primer, App. A.3;
* segment/ray/line ``hits``: App. A.9 (ray-plane), ``t = (d - p0 . n) / (d . n)``, with the
  book's optional front-face-only test (``d . n < 0``) as the keyword ``front_only``;
* segment/ray/line ``distance``: 0 at the crossing; otherwise the signed distance
  ``(n . A(t) - d) / |n|`` is affine in ``t`` and keeps its sign, so its least magnitude is at a
  domain end (the segment's nearer endpoint, the ray's origin, a parallel line's origin).

A plane is not a solid: its "outward" hit normal is the unit normal facing the side the
component arrives from (``n/|n|`` when ``d . n < 0``, else ``-n/|n|``). A component lying in
the plane (``d . n == 0`` and ``p0 . n == d``, exactly) overlaps it over its whole domain:
``first_t`` is 0 for a segment or ray and ``None`` for a line (unbounded below, scene-v1).
"""

from __future__ import annotations

from algorithms.core import vec as V
from algorithms.core.once import shared
from algorithms.kernels.closest import (INF, closest_point_plane, intersects_from_hits,
                                        is_zero_vector, linear_parts, plane_nd, point_at,
                                        robust_distance, surface_hits, touching_distance, unit)
from algorithms.registry import register
from algorithms.results import DistanceResult, HitResult, IntersectionResult

LINEAR = ("segment", "ray", "line")
A9 = "ray-plane, Dunn & Parberry, 3D Math Primer App. A.9"
A3 = "closest point on a plane, Dunn & Parberry, 3D Math Primer App. A.3"


@shared
def hits_linear_plane(a, plane, front_only=False):
    """Ray-plane intersection, App. A.9, for a segment, ray or line.

    ``t = (d - p0 . n) / (d . n)`` (the book's names: ``p0`` the origin, ``d`` the direction, the
    plane ``p . n = d``), both dot products correctly rounded (:func:`~algorithms.core.vec.acc_dot`);
    parallel when ``d . n == 0``. With ``front_only`` a component must
    approach the front side (``d . n < 0``), as the book suggests. Trace: ``d.n``,
    ``d - p0.n``, ``t`` (the unrestricted line parameter), ``parallel``, ``in_plane``.
    """
    o, d, lo, hi = linear_parts(a)
    n, pd = plane_nd(plane)
    # correctly rounded (floats): a direction exactly parallel to the plane gives d.n == 0,
    # not a rounding residue that would put a hit 1e16 away
    den = V.acc_dot(d, n)
    num = V.acc_dot(o, tuple(-c for c in n), pd)
    trace = {"d.n": den, "d - p0.n": num, "front_only": front_only}
    nhat = unit(n)
    if den == 0:
        trace["parallel"] = True
        in_plane = num == 0
        trace["in_plane"] = in_plane
        if not in_plane:
            return surface_hits(o, d, lo, hi, None, None, A9, trace)
        ts = (lo, lo) if is_zero_vector(d) else (lo, hi)
        return surface_hits(o, d, lo, hi, ts, None, A9, trace)
    trace["parallel"] = False
    if front_only and not (den < 0):
        trace["rejected"] = "back face (d.n >= 0)"
        return surface_hits(o, d, lo, hi, None, None, A9, trace)
    t = num / den
    trace["t"] = t
    if (t == INF and hi == INF) or (t == -INF and lo == -INF):
        # a ray or line that is not parallel crosses the plane (t > 0 for a ray): here beyond
        # the doubles (d.n subnormal, 1.6e-319). Before, surface_hits read the overflowed t as
        # no hit, the distance was the origin's, and the side (straddling) contradicted it.
        # The crossing is a hit whose t and point cannot be given: first_t inf, which
        # evaluate_pair reports as beyond the float range, and no hit point
        trace["beyond_float_range"] = True
        return HitResult(method=A9, trace=trace, intersects=True, first_t=t, hits=())
    if not (lo <= t <= hi):
        trace["rejected"] = "t outside the domain"
        return surface_hits(o, d, lo, hi, None, None, A9, trace)
    normal = nhat if den < 0 else tuple(0.0 - c for c in nhat)
    return surface_hits(o, d, lo, hi, t, normal, A9, trace)


def distance_linear_plane(a, plane):
    """Distance from a segment, ray or line to a plane (App. A.9 then A.3).

    Touching (A.9 finds a crossing or the component lies in the plane): distance 0 at the
    least touching ``t``. Otherwise the least ``|n . A(t) - d| / |n|`` over the domain ends.
    """
    hr = hits_linear_plane(a, plane)
    o, d, lo, hi = linear_parts(a)
    method = "linear-plane distance: " + A9 + " then " + A3
    if hr.intersects:
        if hr.first_t in (INF, -INF):
            from algorithms.primitives import BeyondFloatRange

            raise BeyondFloatRange("closest", "the crossing point lies", hr.first_t)
        return touching_distance(o, d, hr, method, {"first_t": hr.first_t})
    n, pd = plane_nd(plane)
    ln = V.norm(n)
    ends = [t for t in (lo, hi) if t not in (-INF, INF)] or [0.0]
    best = None
    for t in ends:
        p = point_at(o, d, t)
        s = float(V.dot(n, p) - pd) / ln
        if best is None or abs(s) < abs(best[1]):
            best = (t, s, p)
    t, s, p = best
    q = closest_point_plane(p, plane)
    trace = {"signed_distance": s, "t": float(t), "ends": [float(e) for e in ends],
             **{k: v for k, v in hr.trace.items() if k in ("d.n", "parallel")}}
    return DistanceResult(method=method, trace=trace, distance=abs(s), sqr_distance=s * s,
                          closest=(_fp(p), _fp(q)), parameter=(float(t), None))


def distance_point_plane(pt, plane):
    """Closest point on the plane (App. A.3): ``q' = q + (d - q . n) n / (n . n)``; the
    distance is the signed distance ``(q . n - d) / |n|`` in magnitude (``0`` exactly when
    ``q . n == d``, with ``q`` itself as the common point)."""
    q = pt.position
    n, pd = plane_nd(plane)
    num = V.dot(q, n) - pd
    s = float(num) / V.norm(n)
    qp = tuple(q) if num == 0 else closest_point_plane(q, plane)
    trace = {"q.n - d": num, "signed_distance": s}
    return DistanceResult(method=A3, trace=trace, distance=abs(s), sqr_distance=s * s,
                          closest=(_fp(q), _fp(qp)), parameter=(None, None))


def intersects_point_plane(pt, plane):
    """``q . n == d`` (exact comparison)."""
    n, pd = plane_nd(plane)
    v = V.dot(pt.position, n) - pd
    return IntersectionResult(method=A3, trace={"q.n - d": v}, intersects=bool(v == 0))


#: A.9: the component crosses or lies in the plane
intersects_linear_plane = intersects_from_hits(hits_linear_plane, A9)


def _fp(p):
    return tuple(float(c) for c in p)


register("distance", "point", "plane")(robust_distance(distance_point_plane))
register("intersects", "point", "plane")(intersects_point_plane)
for _k in LINEAR:
    register("hits", _k, "plane")(hits_linear_plane)
    register("distance", _k, "plane")(robust_distance(distance_linear_plane))
    register("intersects", _k, "plane")(intersects_linear_plane)
