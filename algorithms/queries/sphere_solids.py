"""Sphere against sphere, AABB, OBB and triangle: distance, intersection, separating axis.

* sphere-sphere: Dunn & Parberry, App. A.13 (``d^2 <= (r1 + r2)^2``, no square root) and
  Boreskov's ``BoundingSphere::intersects``;
* sphere-AABB: Arvo's test, Eberly & Schneider, GTCG §11.12.8 (``AABBIntersectSphere``) and
  App. A.14 with the closest point of A.5: per axis ``dist^2 += (c - min)^2`` or
  ``(c - max)^2``; Arvo's *hollow* variants (sphere surface and/or box surface) are the
  keywords ``hollow_sphere`` and ``hollow_box`` of the ``intersects`` query;
* sphere-OBB: the same in the box frame (``u_i = a_i . (C - center)``, box ``[-h_i, h_i]``);
* sphere-triangle: the closest point of the triangle (Ericson's Voronoi regions,
  :func:`algorithms.kernels.closest.closest_point_triangle`).

The separating axis of a sphere and a convex set is the direction from the centre ``C`` to the
closest point ``Q`` of the set: when ``|C - Q| > r`` the set lies in ``(x - Q) . u <= 0`` and
the sphere in ``x . u >= Q . u + |C - Q| - r``. The decision always compares squared
distances, so it is exact on Fractions; touching counts as intersecting.
"""

from __future__ import annotations

import math

import numpy as np

from algorithms.core import vec as V
from algorithms.kernels import closest as CL
from algorithms.primitives import AABB, OBB, Sphere, Triangle
from algorithms.queries.box_box import round_separation, safe_unit
from algorithms.registry import register
from algorithms.results import DistanceResult, IntersectionResult, SeparationResult

# ----------------------------------------------------------------------------- helpers


#: the unit vector or None (algorithms.core.tolerance.unit)
_unit = safe_unit


def _round_distance(C, r, Q, sq, method, trace, params=(None, None)):
    """DistanceResult of a sphere (centre C, radius r) and a set whose closest point to C is Q
    at squared distance ``sq``: 0 and Q twice when ``sq <= r^2``."""
    if sq <= r * r:
        res = DistanceResult(distance=0.0, sqr_distance=0 * sq, closest=(tuple(Q), tuple(Q)),
                             parameter=params, method=method, trace={**trace, "intersects": True})
    else:
        dc = math.sqrt(float(sq))
        dist = dc - float(r)
        u = _unit(V.sub(Q, C))
        if u is None:  # Q == C after rounding (a box frame's round trip): the centre touches
            return DistanceResult(distance=0.0, sqr_distance=0.0, closest=(tuple(Q), tuple(Q)),
                                  parameter=params, method=method,
                                  trace={**trace, "intersects": True, "distance_raw": dist})
        on_sphere = tuple(float(c) + float(r) * ui for c, ui in zip(C, u))
        res = DistanceResult(distance=dist, sqr_distance=dist * dist,
                             closest=(on_sphere, tuple(Q)), parameter=params, method=method,
                             trace={**trace, "intersects": False})
    return res


def _closest_axis_separation(C, r, Q, sq, project_other, method, trace):
    """Separating axis of a sphere (A) and a convex set (B) from the closest point Q of B:
    the direction ``Q - C`` (``"closest-point direction"``) separates iff ``sq > r^2``."""
    return round_separation(C, Q, bool(sq <= r * r), _point_projector(C, r), project_other,
                            "closest-point direction", method, trace)


def _point_projector(c, r):
    def project(u):
        return sum(float(x) * y for x, y in zip(c, u)), float(r)
    return project


def _box_projector(center, axes, extents):
    def project(u):
        c = sum(float(a) * b for a, b in zip(center, u))
        r = sum(float(h) * abs(sum(float(x) * y for x, y in zip(a, u)))
                for h, a in zip(extents, axes))
        return c, r
    return project


def _tri_projector(tri):
    def project(u):
        p = [sum(float(a) * b for a, b in zip(v, u)) for v in tri.vertices]
        return (min(p) + max(p)) / 2, (max(p) - min(p)) / 2
    return project


# ----------------------------------------------------------------------------- sphere-sphere

SS_METHOD = "sphere-sphere: centre distance vs r1 + r2 (Dunn & Parberry App. A.13; Boreskov)"


@register("distance", "sphere", "sphere")
def distance_sphere_sphere(a: Sphere, b: Sphere) -> DistanceResult:
    """``d = |c2 - c1|``; separated iff ``d^2 > (r1 + r2)^2`` (App. A.13).

    Closest points ``c1 + r1 u`` and ``c2 - r2 u`` on the centre line ``u``; when they
    intersect, the middle of the common part of the two diameters along ``u`` (``u = x``
    for concentric spheres) is a common point.
    """
    e = V.sub(b.center, a.center)
    sq = V.sqr_norm(e)
    rs = a.radius + b.radius
    d = math.sqrt(float(sq))
    u = _unit(e) or (1.0, 0.0, 0.0)
    trace = {"d_squared": sq, "r_sum": rs, "e": e}
    if sq <= rs * rs:
        lo = max(-float(a.radius), d - float(b.radius))
        hi = min(float(a.radius), d + float(b.radius))
        s = (lo + hi) / 2
        p = tuple(float(c) + s * ui for c, ui in zip(a.center, u))
        if sq == 0:
            p = tuple(a.center)
        return DistanceResult(distance=0.0, sqr_distance=0 * sq, closest=(p, p), method=SS_METHOD,
                              trace={**trace, "intersects": True})
    dist = d - float(rs)
    pa = tuple(float(c) + float(a.radius) * ui for c, ui in zip(a.center, u))
    pb = tuple(float(c) - float(b.radius) * ui for c, ui in zip(b.center, u))
    return DistanceResult(distance=dist, sqr_distance=dist * dist, closest=(pa, pb),
                          method=SS_METHOD, trace={**trace, "intersects": False})


@register("intersects", "sphere", "sphere")
def intersects_sphere_sphere(a: Sphere, b: Sphere) -> IntersectionResult:
    """``|c2 - c1|^2 <= (r1 + r2)^2`` (App. A.13; Boreskov ``intersects``), touching included."""
    sq = V.sqr_dist(a.center, b.center)
    rs = a.radius + b.radius
    return IntersectionResult(intersects=bool(sq <= rs * rs), method=SS_METHOD,
                              trace={"d_squared": sq, "r_sum_squared": rs * rs})


@register("separating_axis", "sphere", "sphere")
def separating_axis_sphere_sphere(a: Sphere, b: Sphere) -> SeparationResult:
    """The centre line ``c2 - c1`` separates iff ``|c2 - c1| > r1 + r2`` (App. A.13)."""
    return _sphere_sphere_sep(a, b)


def _sphere_sphere_sep(a: Sphere, b: Sphere) -> SeparationResult:
    sq = V.sqr_dist(a.center, b.center)
    rs = a.radius + b.radius
    return round_separation(a.center, b.center, bool(sq <= rs * rs),
                            _point_projector(a.center, a.radius),
                            _point_projector(b.center, b.radius), "centre line", SS_METHOD,
                            {"d_squared": sq})


# ----------------------------------------------------------------------------- sphere-box (Arvo)


def arvo_terms(c, mins, maxs):
    """Arvo's per-axis loop (GTCG §11.12.8): the closest coordinate ``q`` and its term.

    Returns ``(q, dmin, dmax, face, per_axis)`` for the centre ``c`` and the box
    ``[mins, maxs]`` in the same frame: ``dmin`` the squared distance to the solid box,
    ``dmax`` to its farthest corner, ``face`` the per-axis ``min((c - min)^2, (c - max)^2)``
    (distance to the nearest face plane, used by the hollow-box variants).
    """
    q, per_axis = [], []
    zero = 0 * (c[0] - mins[0])
    dmin = dmax = zero
    for i, (ci, lo, hi) in enumerate(zip(c, mins, maxs)):
        a2, b2 = (ci - lo) ** 2, (ci - hi) ** 2
        if ci < lo:
            qi, term, where = lo, a2, "below min"
        elif ci > hi:
            qi, term, where = hi, b2, "above max"
        else:
            qi, term, where = ci, zero, "inside"
        q.append(qi)
        dmin += term
        dmax += max(a2, b2)
        per_axis.append({"axis": i, "c": ci, "min": lo, "max": hi, "q": qi, "term": term,
                         "where": where, "face_sq": min(a2, b2)})
    return tuple(q), dmin, dmax, per_axis


def arvo_intersects(c, r, mins, maxs, hollow_sphere=False, hollow_box=False):
    """Arvo's four cases (Graphics Gems 1990, cited in GTCG §11.12.8 and App. A.14).

    * solid sphere, solid box: ``dmin <= r^2``;
    * hollow sphere (its surface), solid box: ``dmin <= r^2 <= dmax``;
    * solid sphere, hollow box (its surface): ``dmin <= r^2`` and the sphere reaches a face
      (the centre is outside on some axis, or within ``r`` of a face plane);
    * both hollow: the surface distances ``[dmin_surface, dmax]`` contain ``r``.

    Returns ``(intersects, trace)``.
    """
    q, dmin, dmax, per_axis = arvo_terms(c, mins, maxs)
    r2 = r * r
    outside = any(p["where"] != "inside" for p in per_axis)
    face = outside or any(p["face_sq"] <= r2 for p in per_axis)
    if not hollow_sphere and not hollow_box:
        ok = dmin <= r2
    elif hollow_sphere and not hollow_box:
        ok = dmin <= r2 <= dmax
    elif hollow_box and not hollow_sphere:
        ok = face and dmin <= r2
    else:
        ok = face and dmin <= r2 <= dmax
    return bool(ok), {"closest": q, "dmin": dmin, "dmax": dmax, "r_squared": r2,
                      "face": face, "per_axis": per_axis,
                      "hollow_sphere": hollow_sphere, "hollow_box": hollow_box}


ARVO = "sphere-box: Arvo's closest point, squared distance vs r^2 (GTCG §11.12.8; App. A.14)"
ARVO_HOLLOW = ("sphere-box, hollow variants: Arvo's dmin/dmax (GTCG §11.12.8), distance by the "
               "radial intervals")


def _crossing(path, c, r: float) -> np.ndarray:
    """The first point of the polyline ``path`` at distance ``r`` from ``c`` (bisection on the
    first segment whose ends straddle ``r``; the path starts within ``r`` and ends beyond)."""
    for p, q in zip(path, path[1:]):
        dp, dq = float(np.linalg.norm(p - c)), float(np.linalg.norm(q - c))
        if dp <= r <= dq:
            lo_t, hi_t = 0.0, 1.0
            for _ in range(60):
                mid = (lo_t + hi_t) / 2
                if float(np.linalg.norm(p + mid * (q - p) - c)) < r:
                    lo_t = mid
                else:
                    hi_t = mid
            return p + hi_t * (q - p)
    return np.asarray(path[-1], dtype=float)


def hollow_sphere_aabb(s: Sphere, box: AABB, hollow_sphere: bool = False,
                       hollow_box: bool = False):
    """Sphere against box where either is its surface only (GTCG §11.12.8's hollow variants).

    The sphere is the union of the spheres about ``c`` with radii in ``I = [0, r]`` (solid) or
    ``[r, r]`` (hollow); the distances ``|x - c|`` over the box fill ``[m, M]`` with
    ``M = sqrt(dmax)`` (the farthest corner) and ``m = sqrt(dmin)`` (Arvo's closest point) for
    the solid box, or the distance to the nearest face when the hollow box has ``c`` inside. By
    the sphere's symmetry the distance of the two sets is the gap between ``[m, M]`` and ``I``.
    ``intersects`` is Arvo's test (:func:`arvo_intersects`).

    Returns ``(intersects, distance, (point of the sphere, point of the box), trace)``.
    """
    c = np.asarray(s.center, dtype=float)
    lo, hi = np.asarray(box.min, dtype=float), np.asarray(box.max, dtype=float)
    r = float(s.radius)
    ok, trace = arvo_intersects(tuple(c), r, tuple(lo), tuple(hi), hollow_sphere, hollow_box)
    q = np.asarray(trace["closest"], dtype=float)
    inside = bool(np.all(c >= lo) and np.all(c <= hi))
    near = q
    m = math.sqrt(float(trace["dmin"]))
    if hollow_box and inside:  # the nearest face point
        gaps = np.minimum(c - lo, hi - c)
        i = int(np.argmin(gaps))
        near = c.copy()
        near[i] = lo[i] if c[i] - lo[i] <= hi[i] - c[i] else hi[i]
        m = float(gaps[i])
    far = np.where(np.abs(c - lo) >= np.abs(c - hi), lo, hi)
    big = math.sqrt(float(trace["dmax"]))
    i_lo = r if hollow_sphere else 0.0
    if m > r:
        distance, b, rho = m - r, near, r
    elif big < i_lo:
        distance, b, rho = i_lo - big, far, i_lo
    else:
        distance, b, rho = 0.0, None, None
    if b is None:  # the sets meet: a common point
        if not hollow_sphere:
            point = near  # within r of c, and on the (hollow) box
        else:  # on the path near -> corner -> far (on the box surface), |x - c| reaches r
            i = int(np.argmax(np.minimum(np.abs(near - lo), np.abs(near - hi)) == 0)) \
                if hollow_box else None
            path = [near, far] if i is None else [near, np.where(np.arange(3) == i, near, far),
                                                   far]
            point = _crossing(path, c, r)
        closest = (tuple(float(x) for x in point), tuple(float(x) for x in point))
    else:
        d = b - c
        n = float(np.linalg.norm(d))
        u = d / n if n > 0 else np.array([1.0, 0.0, 0.0])
        closest = (tuple(float(x) for x in c + rho * u), tuple(float(x) for x in b))
    trace = {**trace, "radial_interval_sphere": [i_lo, r], "radial_interval_box": [m, big]}
    return ok, float(distance), closest, trace


def _obb_local(sph: Sphere, box: OBB):
    d = V.sub(sph.center, box.center)
    c = tuple(V.dot(a, d) for a in box.axes)
    mins = tuple(-h for h in box.extents)
    return c, mins, tuple(box.extents)


def _obb_world(box: OBB, u):
    return tuple(c + sum((ui * a[k] for ui, a in zip(u, box.axes)), 0 * c)
                 for k, c in enumerate(box.center))


@register("distance", "sphere", "aabb")
def distance_sphere_aabb(s: Sphere, box: AABB) -> DistanceResult:
    """Arvo's closest point Q of the box to the centre C; distance ``|C - Q| - r`` or 0.

    The trace lists the per-axis terms (``c``, ``min``, ``max``, ``q``, ``term``).
    """
    q, dmin, _, per_axis = arvo_terms(s.center, box.min, box.max)
    return _round_distance(s.center, s.radius, q, dmin, ARVO,
                           {"dist_squared": dmin, "per_axis": per_axis})


@register("distance", "sphere", "obb")
def distance_sphere_obb(s: Sphere, box: OBB) -> DistanceResult:
    """Arvo's test in the box frame (``u_i = a_i . (C - center)``, box ``[-h_i, h_i]``)."""
    c, mins, maxs = _obb_local(s, box)
    q, dmin, _, per_axis = arvo_terms(c, mins, maxs)
    Q = _obb_world(box, q)
    return _round_distance(s.center, s.radius, Q, dmin, ARVO + ", in the OBB frame",
                           {"dist_squared": dmin, "per_axis": per_axis, "local_center": c})


@register("intersects", "sphere", "aabb")
def intersects_sphere_aabb(s: Sphere, box: AABB, hollow_sphere: bool = False,
                           hollow_box: bool = False) -> IntersectionResult:
    """Arvo's ``AABBIntersectSphere`` (GTCG §11.12.8), with his hollow variants as options."""
    ok, trace = arvo_intersects(s.center, s.radius, box.min, box.max, hollow_sphere, hollow_box)
    return IntersectionResult(intersects=ok, method=ARVO, trace=trace)


@register("intersects", "sphere", "obb")
def intersects_sphere_obb(s: Sphere, box: OBB, hollow_sphere: bool = False,
                          hollow_box: bool = False) -> IntersectionResult:
    """Arvo's test in the OBB frame, with the hollow variants as options."""
    c, mins, maxs = _obb_local(s, box)
    ok, trace = arvo_intersects(c, s.radius, mins, maxs, hollow_sphere, hollow_box)
    return IntersectionResult(intersects=ok, method=ARVO + ", in the OBB frame", trace=trace)


@register("separating_axis", "sphere", "aabb")
def separating_axis_sphere_aabb(s: Sphere, box: AABB) -> SeparationResult:
    """The direction from C to Arvo's closest point separates iff ``dist^2 > r^2``."""
    q, dmin, _, _ = arvo_terms(s.center, box.min, box.max)
    one = 0 * box.min[0] + 1
    axes = ((one, 0 * one, 0 * one), (0 * one, one, 0 * one), (0 * one, 0 * one, one))
    return _closest_axis_separation(s.center, s.radius, q, dmin,
                                    _box_projector(box.center, axes, box.extents), ARVO,
                                    {"dist_squared": dmin})


@register("separating_axis", "sphere", "obb")
def separating_axis_sphere_obb(s: Sphere, box: OBB) -> SeparationResult:
    """As sphere-AABB, in the OBB frame."""
    c, mins, maxs = _obb_local(s, box)
    q, dmin, _, _ = arvo_terms(c, mins, maxs)
    return _closest_axis_separation(s.center, s.radius, _obb_world(box, q), dmin,
                                    _box_projector(box.center, box.axes, box.extents),
                                    ARVO + ", in the OBB frame", {"dist_squared": dmin})


# ----------------------------------------------------------------------------- sphere-triangle

ST_METHOD = ("sphere-triangle: closest point of the triangle (Ericson RTCD §5.1.5 regions) vs r "
             "(as Arvo's test, GTCG §11.12.8)")


@register("distance", "sphere", "triangle")
def distance_sphere_triangle(s: Sphere, tri: Triangle) -> DistanceResult:
    """Closest point Q of the filled triangle to C; distance ``|C - Q| - r`` or 0."""
    Q, bary, region = CL.closest_point_triangle(s.center, tri)
    sq = V.sqr_dist(Q, s.center)
    return _round_distance(s.center, s.radius, Q, sq, ST_METHOD,
                           {"region": region, "barycentric": bary, "dist_squared": sq},
                           params=(None, bary))


@register("separating_axis", "sphere", "triangle")
def separating_axis_sphere_triangle(s: Sphere, tri: Triangle) -> SeparationResult:
    """The direction from C to the closest point of the triangle separates iff it is > r."""
    Q, _, region = CL.closest_point_triangle(s.center, tri)
    sq = V.sqr_dist(Q, s.center)
    return _closest_axis_separation(s.center, s.radius, Q, sq, _tri_projector(tri), ST_METHOD,
                                    {"region": region, "dist_squared": sq})


SC_METHOD = ("sphere-cylinder: closest point of the solid cylinder to the centre, radial and "
             "axial clamp, vs r (Arvo's idea, GTCG §11.12.8, on a cylinder)")


@register("distance", "sphere", "cylinder")
def distance_sphere_cylinder(s: Sphere, cyl) -> DistanceResult:
    """Closest point Q of the solid cylinder to the centre C; distance ``|C - Q| - r`` or 0.

    The ball is the point C grown by ``r``, so its distance to any convex set is the point's
    distance minus ``r`` (0 when that is negative), with Q as the common point then.
    """
    Q = CL.closest_point_cylinder(s.center, cyl)
    sq = V.sqr_dist(Q, V.to_float(s.center))
    return _round_distance(V.to_float(s.center), float(s.radius), Q, sq, SC_METHOD,
                           {"dist_squared": sq, "closest_on_cylinder": Q})
