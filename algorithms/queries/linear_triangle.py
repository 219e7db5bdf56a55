"""Point, segment, ray and line against a (filled) triangle.

* point: Ericson's Voronoi-region closest point (RTCD §5.1.5; Eberly's regions, GTCG §10.3.2),
  :func:`algorithms.kernels.closest.closest_point_triangle`, with barycentrics as B's parameter;
* ``hits``: Badouel's ray-triangle test as printed in Dunn & Parberry, 3D Math Primer,
  App. A.16, Listing A.4 (plane first, early outs, the single division deferred, comparisons
  written "backwards" so a NaN rejects, barycentrics on the dominant-axis projection) is the
  default; Moller-Trumbore (1997) is registered as the second method ``moller_trumbore``.
  Both take ``front_only=True`` for the listing's front-face-only behaviour (``n . d < 0`` with
  ``n = (p1 - p0) x (p2 - p1)``); by default both faces count. Both share the cases the listing
  rejects: a component lying in the triangle's plane is clipped to the triangle (Cyrus-Beck on
  the three edge half-planes: ``first_t`` is the least touching ``t``), and a collinear triangle
  is treated as the segment it is;
* ``distance``: 0 at the first touching point; otherwise the least over the component's ends
  against the triangle and the component against the three edges (GTCG §10.9.1's candidates,
  see :func:`algorithms.kernels.closest.linear_features_distance`); a generic golden-section method
  (``golden_section``, priority -10) is registered for comparison.

Hit normal: the triangle's unit normal facing the side the component comes from.
"""

from __future__ import annotations

import math
from fractions import Fraction

from algorithms.core import vec as V
from algorithms.core.once import current_memo, remember, shared
from algorithms.core.tolerance import PARALLEL_SIN
from algorithms.kernels.closest import (INF, closest_point_triangle, golden_section_distance,
                                        intersects_from_hits, is_zero_vector,
                                        linear_features_distance, linear_parts,
                                        linear_segment_closest, point_at, rescue_hit,
                                        robust_distance, robust_settle, surface_hits,
                                        touching_distance, unit)
from algorithms.kernels.filters import (FALLBACKS, FLOAT_SCALE_KEY, MARGIN, clearly_misses_at,
                                       float_scale_of, triangle_clearly_misses)
from algorithms.kernels.filters import STATE as filters_state
from algorithms.primitives import Triangle
from algorithms.registry import fuses, lean_kernels, register
from algorithms.results import (HIT_BUILDER, PENDING, Deferred, DistanceResult, HitResult,
                               IntersectionResult, make_with)

LINEAR = ("segment", "ray", "line")
A16 = "ray-triangle, Badouel, Dunn & Parberry, 3D Math Primer App. A.16, Listing A.4"
MT = "ray-triangle, Moller-Trumbore (1997)"
REGIONS = "closest point on a triangle, Ericson RTCD §5.1.5 (GTCG §10.3.2 regions)"
DEGENERATE_TOL = PARALLEL_SIN  # 1e-12 (core.tolerance); relative: a collinear triangle is a segment, touched within this


# ----------------------------------------------------------------------------- shared cases


#: ``|n . d|`` up to this times ``|e1| |e2| |d|`` (``n = e1 x e2``) is the rounding of a
#: component parallel to the plane: the edges, the cross product and the dot product round
#: by about 17 eps of that in all, and 32 eps keeps a margin. Such a component goes to the
#: exact decision of :func:`_parallel_hits` (in the plane or crossing it, and where). Before,
#: only ``n . d == 0`` did: a segment lying in the plane with ``n . d = 2.8e-17`` (rounding)
#: crossed it at a t made of noise, so a segment along an edge, or inside the triangle, had
#: ``first_t = 1`` instead of ``0`` (Badouel), and one ending at a vertex a hit at its other
#: end, off the triangle (Moller-Trumbore); the long fuzz found them
PARALLEL_DOT = 2.0 ** -47


def _near_parallel(dot, e1, e2, d) -> bool:
    """Is the float ``dot = (e1 x e2) . d`` within :data:`PARALLEL_DOT` of rounding noise?
    (The lengths are computed as :func:`_plane_of` and :func:`_ray_form` compute them, so the
    lean kernels decide alike with their kept values.) Exact values: never (exact is exact)."""
    if type(dot) is not float:
        return False
    l1 = math.sqrt(e1[0] * e1[0] + e1[1] * e1[1] + e1[2] * e1[2])
    l2 = math.sqrt(e2[0] * e2[0] + e2[1] * e2[1] + e2[2] * e2[2])
    dl = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
    return abs(dot) <= PARALLEL_DOT * l1 * l2 * dl


def _coplanar_interval(o, d, lo, hi, verts, n):
    """Clip ``o + t d`` (lying in the triangle's plane) to the triangle: Cyrus-Beck against the
    three edge half-planes, in the 2D projection that drops the dominant axis of ``n`` (as
    Listing A.4 does). Edge ``i j`` with opposite vertex ``k`` keeps the side where
    ``s * cross2(v_j - v_i, x - v_i) >= 0``, ``s = sign(cross2(v_j - v_i, v_k - v_i))``; dropping
    an axis is exact, so a point equal to a vertex is exactly on its two edges.
    Returns ``(ta, tb)`` or ``None``."""
    ax = [abs(c) for c in n]
    drop = ax.index(max(ax))
    iu, iv = [i for i in range(3) if i != drop]

    def cross2(a, b):
        return a[iu] * b[iv] - a[iv] * b[iu]

    ta, tb = lo, hi
    for i, j, k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
        e = V.sub(verts[j], verts[i])
        sgn = 1 if cross2(e, V.sub(verts[k], verts[i])) > 0 else -1
        c0 = sgn * cross2(e, V.sub(o, verts[i]))
        c1 = sgn * cross2(e, d)
        if c1 == 0:
            if c0 < 0:
                return None
            continue
        t = -c0 / c1
        if c1 > 0:
            ta = max(ta, t)
        else:
            tb = min(tb, t)
        if ta > tb:
            return None
    if is_zero_vector(d):
        return (lo, lo)
    return (ta, tb)


def _degenerate_hits(o, d, lo, hi, verts, method, trace):
    """A collinear triangle is the segment between its two farthest vertices (or a point):
    the component touches it where their distance is 0 (within ``DEGENERATE_TOL`` times the
    scale: the largest coordinate of the component's origin (and a segment's other end) and
    the triangle, never a direction; exactly 0 on Fractions); a component along it overlaps it
    over an interval.

    The scale had a floor of 1, which made the band absolute below unit size: a ray
    ``1e-13`` beside the collinear triangle ``(0, -1e-7, 0) (0, 1e-7, 0) (0, 0, 0)`` touched it
    (the band at that scale is ``9e-20``), and the Fraction path, run on the same floats with
    that band, called a ray ``5.2e-76`` beside a triangle of size ``3.8e-65`` a hit."""
    pairs = ((0, 1), (0, 2), (1, 2))
    i, j = max(pairs, key=lambda ij: V.sqr_dist(verts[ij[0]], verts[ij[1]]))
    s0, s1 = verts[i], verts[j]
    trace = {**trace, "degenerate": "collinear triangle: treated as the segment "
             f"v{i} v{j}"}
    if any(isinstance(c, Fraction) for p in (o, d, s0, s1) for c in p):
        of, df, s0f, s1f = (tuple(Fraction(c) for c in p) for p in (o, d, s0, s1))
        scale, tol2 = 1, 0
    else:
        of, df, s0f, s1f = map(V.to_float, (o, d, s0, s1))
        ends = (of, s0f, s1f) + ((point_at(of, df, hi),) if hi not in (-INF, INF) else ())
        scale = max([abs(c) for p in ends for c in p]) or 5e-324
        tol2 = (DEGENERATE_TOL * scale) ** 2
    sq, t, s, pa, pb = linear_segment_closest(of, df, lo, hi, s0f, s1f)
    if sq > tol2:
        return surface_hits(of, df, lo, hi, None, None, method, trace)
    e = V.sub(s1f, s0f)
    cr = V.cross(df, e)
    dd = V.dot(df, df)
    if dd > 0 and V.sqr_norm(cr) <= tol2 * dd * max(V.dot(e, e), 1e-300) / scale ** 2:
        # along the segment: the interval of t between the projections of its ends
        ta = V.dot(df, V.sub(s0f, of)) / dd
        tb = V.dot(df, V.sub(s1f, of)) / dd
        ta, tb = max(min(ta, tb), lo), min(max(ta, tb), hi)
        if ta <= tb:
            return surface_hits(of, df, lo, hi, (ta, tb), None, method, trace)
    return surface_hits(of, df, lo, hi, t, None, method, trace)


def _parallel_hits(o, d, lo, hi, tri, n, num, method, trace):
    """The component is parallel to the plane in floating point (``n . d == 0``).

    Whether it lies in the plane is decided in exact rational arithmetic (the float plane
    constant ``n . p0`` differs from ``n . p1`` by rounding, which would drop a point-segment
    sitting on a vertex): with exact ``n``, ``n . d`` and ``n . (p0 - o)``, a component in the
    plane is clipped to the triangle exactly (:func:`_coplanar_interval` on Fractions); one
    that is not exactly parallel crosses the plane at the exact ``t``, accepted when that
    point's exact closest point in the triangle is itself.
    """
    trace["parallel"] = True
    F = Fraction
    oe, de = tuple(map(F, o)), tuple(map(F, d))
    ve = tuple(tuple(map(F, v)) for v in tri.vertices)
    ne = V.cross(V.sub(ve[1], ve[0]), V.sub(ve[2], ve[1]))
    if ne == (0, 0, 0):
        # collinear exactly, its float normal rounding noise (v2 = -2 v1 about v0 = 0): a
        # segment, as when the float normal is 0; the plane clip would have no plane to use
        trace["exact"] = {"normal": "0: collinear"}
        return _degenerate_hits(o, d, lo, hi, tri.vertices, method, trace)
    dot_e, num_e = V.dot(ne, de), V.dot(ne, V.sub(ve[0], oe))
    trace["exact"] = {"dot": dot_e, "n.p0 - n.o": num_e}
    if dot_e == 0:
        if num_e != 0:
            trace["rejected"] = "parallel to the plane, off it"
            return surface_hits(o, d, lo, hi, None, None, method, trace)
        iv = _coplanar_interval(oe, de, lo, hi, ve, ne)
        if iv is not None:
            iv = tuple(_float(t) for t in iv)
        trace["coplanar_interval"] = iv
        return surface_hits(o, d, lo, hi, iv, None, method, trace)
    t = num_e / dot_e
    if not (lo <= t <= hi):
        trace["rejected"] = "t outside the domain (exact)"
        return surface_hits(o, d, lo, hi, None, None, method, trace)
    p = point_at(oe, de, t)
    if closest_point_triangle(p, Triangle(ve, exact=True))[0] != p:
        trace["rejected"] = "outside the triangle (exact)"
        return surface_hits(o, d, lo, hi, None, None, method, trace)
    nh = unit(n)
    normal = nh if dot_e < 0 else tuple(0.0 - c for c in nh)
    return surface_hits(o, d, lo, hi, _float(t), normal, method, trace)


def _float(x):
    """``float(x)`` that overflows to +-inf instead of raising (Fractions from subnormal
    directions)."""
    try:
        return float(x)
    except OverflowError:
        return INF if x > 0 else -INF


# ----------------------------------------------------------------------------- Badouel


def hits_badouel(a, tri, front_only=False):
    """Badouel's ray-triangle test, App. A.16, Listing A.4, for a segment, ray or line.

    The listing's names: ``e1 = p1 - p0``, ``e2 = p2 - p1`` (clockwise edges), ``n = e1 x e2``,
    ``dot = n . rayDelta``, plane constant ``d = n . p0``, ``t = d - n . rayOrg`` then
    ``t /= dot`` (deferred); the dominant axis of ``n`` is dropped and the hit is expressed as
    ``u0 = alpha u1 + beta u2``, ``v0 = alpha v1 + beta v2``; ``gamma = 1 - alpha - beta``.
    Barycentrics (of ``p0, p1, p2``) are ``(gamma, alpha, beta)``. Early outs keep the
    listing's NaN-safe form (``if not (dot < 0)``, ``if not (t <= 0)``, ``if not (alpha >= 0)``);
    for a back face (two-sided mode) the signs of ``dot`` and ``t`` are flipped first, and the
    listing's ``t >= dot * minT`` bound is applied with ``minT = 1`` for segments only.

    Float inputs run :func:`badouel_lean` first (the same arithmetic without the trace,
    which is deferred: computed by this function's full path when read).
    """
    o, d, lo, hi = linear_parts(a)
    if not front_only and filters_state["enabled"] and not a.exact and not tri.exact:
        lean = badouel_lean(o, d, lo, hi, tri.vertices)
        if lean is not None:
            if lean[0] is None:
                return make_with(HitResult, {
                    "method": A16, "trace": Deferred(_badouel_trace, o, d, lo, hi, tri, lean[1]),
                    "intersects": False, "first_t": None, "hits": ()})
            trace = Deferred(_badouel_trace, o, d, lo, hi, tri, {"barycentric": lean[2]})
            return surface_hits(o, d, lo, hi, lean[0], lean[1], A16, trace)
    return _badouel(o, d, lo, hi, tri, front_only)


def badouel_lean(o, d, lo, hi, verts):
    """Badouel (Listing A.4, both faces) on floats without the trace:
    ``(t, normal, barycentric)`` for a crossing, ``(None, info)`` for a rejection (``info``:
    the trace entries that :func:`algorithms.kernels.filters.triangle_miss_bound` reads:
    ``n``, ``dot``,
    ``t (before division)``, ``rejected`` and the failed barycentric), or ``None`` for the
    cases the full path answers (a collinear triangle, a component parallel to the plane).
    The operations are those of :func:`hits_badouel`, in the same order: the same bits.
    Badouel has no careful path of its own; the grazing-contact check after a rejection
    (:func:`algorithms.kernels.filters.triangle_clearly_misses`, then
    :func:`algorithms.kernels.closest.rescue_hit`) stays with the caller."""
    p0, p1, p2 = verts
    e10, e11, e12 = p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]
    e20, e21, e22 = p2[0] - p1[0], p2[1] - p1[1], p2[2] - p1[2]
    n = (e11 * e22 - e12 * e21, e12 * e20 - e10 * e22, e10 * e21 - e11 * e20)
    n0, n1, n2 = n
    if n0 == 0 and n1 == 0 and n2 == 0:
        FALLBACKS["badouel_lean"] = FALLBACKS.get("badouel_lean", 0) + 1
        return None
    dot = n0 * d[0] + n1 * d[1] + n2 * d[2]
    if not (dot != 0) or _near_parallel(dot, (e10, e11, e12), (e20, e21, e22), d):
        FALLBACKS["badouel_lean"] = FALLBACKS.get("badouel_lean", 0) + 1
        return None
    tnum = (n0 * p0[0] + n1 * p0[1] + n2 * p0[2]) - (n0 * o[0] + n1 * o[1] + n2 * o[2])
    sdot, stnum = (dot, tnum) if dot < 0 else (-dot, -tnum)
    if lo == 0 and not (stnum <= 0):
        return None, {"n": n, "dot": dot, "t (before division)": tnum,
                      "rejected": "origin behind the plane (t < 0)"}
    if hi != INF and not (stnum >= sdot * hi):
        return None, {"n": n, "dot": dot, "t (before division)": tnum,
                      "rejected": "plane beyond the end of the segment (t > 1)"}
    t = tnum / dot
    p = (o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2])
    ax0, ax1, ax2 = abs(n0), abs(n1), abs(n2)
    if ax0 > ax1:
        iu, iv = (1, 2) if ax0 > ax2 else (0, 1)
    else:
        iu, iv = (0, 2) if ax1 > ax2 else (0, 1)
    u0, u1, u2 = p[iu] - p0[iu], p1[iu] - p0[iu], p2[iu] - p0[iu]
    v0, v1, v2 = p[iv] - p0[iv], p1[iv] - p0[iv], p2[iv] - p0[iv]
    temp = u1 * v2 - v1 * u2
    if not (temp != 0):
        return None, {"n": n, "dot": dot, "t (before division)": tnum,
                      "rejected": "zero projected area"}
    temp = 1 / temp
    alpha = (u0 * v2 - v0 * u2) * temp
    if not (alpha >= 0):
        return None, {"n": n, "dot": dot, "t (before division)": tnum,
                      "rejected": "alpha < 0", "alpha": alpha}
    beta = (u1 * v0 - v1 * u0) * temp
    if not (beta >= 0):
        return None, {"n": n, "dot": dot, "t (before division)": tnum,
                      "rejected": "beta < 0", "beta": beta}
    gamma = 1 - alpha - beta
    if not (gamma >= 0):
        return None, {"n": n, "dot": dot, "t (before division)": tnum,
                      "rejected": "gamma < 0", "gamma": gamma}
    nh = unit(n)
    return t, (nh if dot < 0 else (0.0 - nh[0], 0.0 - nh[1], 0.0 - nh[2])), (gamma, alpha, beta)


def _badouel_trace(o, d, lo, hi, tri, _info) -> dict:
    """The trace of a cast :func:`badouel_lean` answered: the full path's."""
    return _badouel(o, d, lo, hi, tri, False).trace


def miss_view(hr) -> dict:
    """What :func:`algorithms.kernels.filters.triangle_miss_bound` reads of a rejected cast
    (and the distance of a hit reads: ``barycentric``): the lean path's small record when
    the trace is still deferred, else the trace."""
    tr = hr.__dict__.get("trace")
    if type(tr) is Deferred and tr.func is _badouel_trace and tr.args[-1] is not None:
        return tr.args[-1]
    return hr.trace  # (the lean kernel's miss keeps none: the trace has the same entries)


def _badouel(o, d, lo, hi, tri, front_only):
    """The full Listing A.4 path of :func:`hits_badouel`, with the trace."""
    p0, p1, p2 = tri.vertices
    e1, e2 = V.sub(p1, p0), V.sub(p2, p1)
    n = V.cross(e1, e2)
    dot = V.dot(n, d)
    trace = {"e1": e1, "e2": e2, "n": n, "dot": dot, "front_only": front_only}
    if is_zero_vector(n):
        return _degenerate_hits(o, d, lo, hi, tri.vertices, A16, trace)
    dplane = V.dot(n, p0)
    tnum = dplane - V.dot(n, o)
    trace.update({"d": dplane, "t (before division)": tnum})
    if front_only and not (dot < 0):
        trace["rejected"] = "not approaching the front face (dot >= 0)"
        return surface_hits(o, d, lo, hi, None, None, A16, trace)
    if not (dot != 0) or _near_parallel(dot, e1, e2, d):
        return _parallel_hits(o, d, lo, hi, tri, n, tnum, A16, trace)
    sdot, stnum = (dot, tnum) if dot < 0 else (-dot, -tnum)  # back face: mirror the signs
    if lo == 0 and not (stnum <= 0):
        trace["rejected"] = "origin behind the plane (t < 0)"
        return surface_hits(o, d, lo, hi, None, None, A16, trace)
    if hi != INF and not (stnum >= sdot * hi):
        trace["rejected"] = "plane beyond the end of the segment (t > 1)"
        return surface_hits(o, d, lo, hi, None, None, A16, trace)
    t = tnum / dot
    p = point_at(o, d, t)
    ax = [abs(c) for c in n]
    if ax[0] > ax[1]:
        iu, iv = (1, 2) if ax[0] > ax[2] else (0, 1)
    else:
        iu, iv = (0, 2) if ax[1] > ax[2] else (0, 1)
    dropped = "xyz"[3 - iu - iv]
    u0, u1, u2 = p[iu] - p0[iu], p1[iu] - p0[iu], p2[iu] - p0[iu]
    v0, v1, v2 = p[iv] - p0[iv], p1[iv] - p0[iv], p2[iv] - p0[iv]
    trace.update({"t": t, "dominant axis dropped": dropped, "u0": u0, "u1": u1, "u2": u2,
                  "v0": v0, "v1": v1, "v2": v2})
    temp = u1 * v2 - v1 * u2
    trace["temp"] = temp
    if not (temp != 0):
        trace["rejected"] = "zero projected area"
        return surface_hits(o, d, lo, hi, None, None, A16, trace)
    temp = 1 / temp
    alpha = (u0 * v2 - v0 * u2) * temp
    trace["alpha"] = alpha
    if not (alpha >= 0):
        trace["rejected"] = "alpha < 0"
        return surface_hits(o, d, lo, hi, None, None, A16, trace)
    beta = (u1 * v0 - v1 * u0) * temp
    trace["beta"] = beta
    if not (beta >= 0):
        trace["rejected"] = "beta < 0"
        return surface_hits(o, d, lo, hi, None, None, A16, trace)
    gamma = 1 - alpha - beta
    trace["gamma"] = gamma
    if not (gamma >= 0):
        trace["rejected"] = "gamma < 0"
        return surface_hits(o, d, lo, hi, None, None, A16, trace)
    trace["barycentric"] = (gamma, alpha, beta)
    nh = unit(n)
    normal = nh if dot < 0 else tuple(0.0 - c for c in nh)
    return surface_hits(o, d, lo, hi, t, normal, A16, trace)


# ----------------------------------------------------------------------------- Moller-Trumbore


def hits_moller_trumbore(a, tri, front_only=False):
    """Moller-Trumbore: ``pvec = d x edge2``, ``det = edge1 . pvec``, ``u = tvec . pvec / det``,
    ``qvec = tvec x edge1``, ``v = d . qvec / det``, ``t = edge2 . qvec / det`` with
    ``edge1 = v1 - v0``, ``edge2 = v2 - v0``, ``tvec = o - v0``. Barycentrics ``(1-u-v, u, v)``.
    ``det > 0`` is the front face of Listing A.4's winding. Parallel and degenerate cases as
    Badouel's."""
    o, d, lo, hi = linear_parts(a)
    v0, v1, v2 = tri.vertices
    edge1, edge2 = V.sub(v1, v0), V.sub(v2, v0)
    n = V.cross(edge1, edge2)
    trace = {"edge1": edge1, "edge2": edge2, "front_only": front_only}
    if is_zero_vector(n):
        return _degenerate_hits(o, d, lo, hi, tri.vertices, MT, trace)
    pvec = V.cross(d, edge2)
    det = V.dot(edge1, pvec)
    trace.update({"pvec": pvec, "det": det})
    if front_only and not (det > 0):
        trace["rejected"] = "not approaching the front face (det <= 0)"
        return surface_hits(o, d, lo, hi, None, None, MT, trace)
    if det == 0 or _near_parallel(det, edge1, edge2, d):
        return _parallel_hits(o, d, lo, hi, tri, n, V.dot(n, V.sub(v0, o)), MT, trace)
    inv = 1 / det
    tvec = V.sub(o, v0)
    u = V.dot(tvec, pvec) * inv
    trace["u"] = u
    if not (0 <= u <= 1):
        trace["rejected"] = "u outside [0, 1]"
        return surface_hits(o, d, lo, hi, None, None, MT, trace)
    qvec = V.cross(tvec, edge1)
    v = V.dot(d, qvec) * inv
    trace["v"] = v
    if not (v >= 0 and u + v <= 1):
        trace["rejected"] = "v < 0 or u + v > 1"
        return surface_hits(o, d, lo, hi, None, None, MT, trace)
    t = V.dot(edge2, qvec) * inv
    trace["t"] = t
    if not (lo <= t <= hi):
        trace["rejected"] = "t outside the domain"
        return surface_hits(o, d, lo, hi, None, None, MT, trace)
    trace["barycentric"] = (1 - u - v, u, v)
    nh = unit(n)
    normal = nh if det > 0 else tuple(0.0 - c for c in nh)
    return surface_hits(o, d, lo, hi, t, normal, MT, trace)


# ----------------------------------------------------------------------------- distance


def _bary(tri):
    return lambda p: closest_point_triangle(p, tri)[1]


def _fp(p):
    return tuple(float(c) for c in p)


def _features(a, tri):
    o, d, lo, hi = linear_parts(a)
    of, df = V.to_float(o), V.to_float(d)
    vs = tri.vertices
    edges = [("01", vs[0], vs[1]), ("02", vs[0], vs[2]), ("12", vs[1], vs[2])]
    return linear_features_distance(of, df, lo, hi,
                                    lambda p: closest_point_triangle(p, tri)[0], edges)


#: Badouel's cast of the pair, once per :func:`~algorithms.core.once.one_analysis` scope
#: (called with ``front_only`` positional, so every caller shares one memo key)
_cast = shared(hits_badouel)


@shared
def _hits_and_features(a, tri, front_only=False):
    hr = _cast(a, tri, front_only)
    if hr.intersects or front_only:
        return hr, None
    o, d, lo, hi = linear_parts(a)
    feats = _features(a, tri)
    hr = rescue_hit(hr, V.to_float(o), V.to_float(d), feats[0], feats[1],
                    f"Badouel rejected a contact the edge distance finds exactly ({feats[4]})",
                    feats[2:4])
    return hr, feats


def hits_linear_triangle(a, tri, front_only=False):
    """The default cast: Badouel (:func:`hits_badouel`); when it rejects a contact that the
    exact edge candidates of the distance find at distance exactly 0 (a component through an
    edge or a vertex, rounded to the wrong side), that contact is reported
    (:func:`algorithms.kernels.closest.rescue_hit`), so ``hits``, ``intersects`` and ``distance`` agree.
    A clear miss (:func:`algorithms.kernels.filters.triangle_clearly_misses`) skips that
    check."""
    # the shared cast (outside a one_analysis scope: the cast itself, one frame less)
    hr = (hits_badouel(a, tri, front_only) if current_memo() is None
          else _cast(a, tri, front_only))
    return _checked(a, tri, hr, front_only)


def _checked(a, tri, hr, front_only=False):
    """:func:`hits_linear_triangle` once the cast ``hr`` is made: a hit stands; a miss stands
    when the filter certifies it, else the exact edge check looks for a grazing contact."""
    if hr.intersects or front_only:
        return hr  # (what _hits_and_features returns then, without a second cast)
    o, d, lo, hi = linear_parts(a)
    if triangle_clearly_misses(o, d, lo, hi, tri.vertices, miss_view(hr)):
        return hr  # the filter: no grazing contact for rescue_hit to find
    FALLBACKS["badouel_miss"] = FALLBACKS.get("badouel_miss", 0) + 1
    return _hits_and_features(a, tri, front_only)[0]


#: where :func:`_plane_of` keeps a triangle's Badouel data on the (frozen) instance
PLANE_KEY = "_badouel_plane"


def _plane_of(tri):
    """What Badouel (:func:`badouel_lean`) and the miss bound
    (:func:`algorithms.kernels.filters.triangle_miss_bound`) compute from the triangle alone,
    with their very operations (so the same bits), computed once and kept on the (frozen)
    instance: ``(n0, n1, n2, n . p0, iu, iv, p0[iu], p0[iv], u1, u2, v1, v2, 1 / temp, |n|,
    the lengths of the edges of the failed barycentrics alpha, beta, gamma, the unit normal
    and its opposite, the largest |coordinate| (float_scale_of))``; ``False`` for a triangle the lean kernel leaves to
    :func:`badouel_lean` (not all floats, collinear, a zero projected area, or a normal
    length the bound cannot use)."""
    found = tri.__dict__.get(PLANE_KEY)
    if found is not None:
        return found
    out = False
    verts = tri.vertices
    p0, p1, p2 = verts
    x0, y0, z0 = p0
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    if (type(x0) is float and type(y0) is float and type(z0) is float and type(x1) is float
            and type(y1) is float and type(z1) is float and type(x2) is float
            and type(y2) is float and type(z2) is float):  # (floats: not exact)
        e10, e11, e12 = x1 - x0, y1 - y0, z1 - z0
        e20, e21, e22 = x2 - x1, y2 - y1, z2 - z1
        n0, n1, n2 = (e11 * e22 - e12 * e21, e12 * e20 - e10 * e22, e10 * e21 - e11 * e20)
        if not (n0 == 0 and n1 == 0 and n2 == 0):
            ax0, ax1, ax2 = abs(n0), abs(n1), abs(n2)
            if ax0 > ax1:
                iu, iv = (1, 2) if ax0 > ax2 else (0, 1)
            else:
                iu, iv = (0, 2) if ax1 > ax2 else (0, 1)
            u1, u2 = p1[iu] - p0[iu], p2[iu] - p0[iu]
            v1, v2 = p1[iv] - p0[iv], p2[iv] - p0[iv]
            temp = u1 * v2 - v1 * u2
            nl = math.sqrt(n0 * n0 + n1 * n1 + n2 * n2)  # (_miss_bound's |n|)
            if temp != 0 and nl > 0 and math.isfinite(nl):
                # the edge of each failed barycentric (filters._FAILED: alpha (2, 0), beta
                # (0, 1), gamma (1, 2), edge = v_j - v_i), its length as _miss_bound's
                a0, a1, a2 = x0 - x2, y0 - y2, z0 - z2
                b0, b1, b2 = x1 - x0, y1 - y0, z1 - z0
                g0, g1, g2 = x2 - x1, y2 - y1, z2 - z1
                nh = unit((n0, n1, n2))
                out = (n0, n1, n2, n0 * x0 + n1 * y0 + n2 * z0, iu, iv, p0[iu], p0[iv], u1, u2,
                       v1, v2, 1 / temp, nl, math.sqrt(a0 * a0 + a1 * a1 + a2 * a2),
                       math.sqrt(b0 * b0 + b1 * b1 + b2 * b2),
                       math.sqrt(g0 * g0 + g1 * g1 + g2 * g2), nh,
                       (0.0 - nh[0], 0.0 - nh[1], 0.0 - nh[2]), float_scale_of(tri, verts))
    object.__setattr__(tri, PLANE_KEY, out)  # not a field: eq/hash unchanged
    return out


def _cast_field(_name, a, tri) -> dict:
    """The pending trace (:func:`~algorithms.results.pending`) of a miss the lean kernel
    answered, read as any field (the record's hit list is ``()``): :func:`_cast_trace`."""
    return _cast_trace(a, tri)


def _cast_trace(a, tri) -> dict:
    """The trace of a miss of the float segment or ray ``a`` that the lean kernel answered:
    the full path's (as :func:`_badouel_trace`'s)."""
    if a.kind == "segment":
        return _badouel(a.p0, a.direction, 0, 1, tri, False).trace
    return _badouel(a.origin, a.direction, 0, INF, tri, False).trace


#: where :func:`_ray_form` keeps its answer on a segment or ray (not a field)
RAY_FORM_KEY = "_badouel_ray_form"


def _ray_form(a):
    """What the lean kernel reads of a float segment or ray: ``(o, d, float scale of (o, d)
    (float_scale_of), |d|)`` (``|d|`` as the miss bound computes it), or ``False`` for an
    exact one; kept on the (frozen) instance."""
    form = False
    if not a.exact:
        o = a.p0 if a.kind == "segment" else a.origin
        d = a.direction
        form = (o, d, float_scale_of(a, (o, d)),
                math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2]))
    object.__setattr__(a, RAY_FORM_KEY, form)  # not a field: eq/hash unchanged
    return form


def _lean_cast(hi):
    """The lean kernel (:func:`algorithms.registry.lean_kernels`) of a float ray
    (``hi = inf``) or segment (``hi = 1``) against a float triangle: :func:`hits_linear_triangle`
    in one frame: :func:`badouel_lean` with what depends on the triangle alone taken from
    :func:`_plane_of` (the normal, the plane constant, the dropped axis, the projected edges
    and ``1 / temp``: the same operations on the same inputs, so the same bits), the miss
    bound of :func:`~algorithms.kernels.filters.clearly_misses_at` written out (its very
    expressions, the triangle's ``|n|`` and edge lengths and the component's ``|d|`` kept on
    the instances), and the record of a certified miss built here, :func:`hits_badouel`'s
    very record: the same answers and the same counts of
    :data:`~algorithms.kernels.filters.FALLBACKS`. A triangle :func:`_plane_of` leaves out,
    and a component parallel to the plane, take :func:`_lean_general` (the step before)."""
    state = filters_state
    segment = hi == 1
    build = HIT_BUILDER
    plane_key = PLANE_KEY
    form_key = RAY_FORM_KEY
    general = _lean_general(hi)
    sqrt2 = math.sqrt(2.0)
    margin2 = 2 * MARGIN

    def lean(a, tri):
        if not state["enabled"]:
            return None
        f = a.__dict__.get(form_key)
        if f is None:
            f = _ray_form(a)
        if f is False:
            return None  # an exact component: hits_linear_triangle's business
        pl = tri.__dict__.get(plane_key)
        if pl is None:
            pl = _plane_of(tri)
        if pl is False:
            return general(a, tri)  # (an exact triangle among them: declined there)
        o, d, sa, dl = f
        (n0, n1, n2, dplane, iu, iv, pu, pv, u1, u2, v1, v2, itemp, nl, len_a, len_b, len_g,
         nh, nh_neg, st) = pl
        dot = n0 * d[0] + n1 * d[1] + n2 * d[2]
        if not (dot != 0.0) or abs(dot) <= PARALLEL_DOT * len_b * len_g * dl:
            return general(a, tri)  # (declined and counted there; _near_parallel's bound)
        tnum = dplane - (n0 * o[0] + n1 * o[1] + n2 * o[2])
        sdot, stnum = (dot, tnum) if dot < 0.0 else (-dot, -tnum)
        lam = None
        if not (stnum <= 0.0) or (segment and not (stnum >= sdot * hi)):
            # origin behind the plane, or the plane beyond the segment's end: the nearer
            # end's height (_miss_bound)
            if segment:
                x = abs(tnum)
                y = abs(tnum - dot)
                bound = (y if y < x else x) / nl  # min(x, y), as min() decides
            else:
                bound = abs(tnum) / nl
        else:
            t = tnum / dot
            u0 = (o[iu] + t * d[iu]) - pu
            v0 = (o[iv] + t * d[iv]) - pv
            alpha = (u0 * v2 - v0 * u2) * itemp
            if not (alpha >= 0.0):
                lam, el = alpha, len_a
            else:
                beta = (u1 * v0 - v1 * u0) * itemp
                if not (beta >= 0.0):
                    lam, el = beta, len_b
                else:
                    gamma = 1.0 - alpha - beta
                    if not (gamma >= 0.0):
                        lam, el = gamma, len_g
                    else:
                        hr = surface_hits(o, d, 0, hi, t, nh if dot < 0.0 else nh_neg, A16,
                                          Deferred(_badouel_trace, o, d, 0, hi, tri,
                                                   {"barycentric": (gamma, alpha, beta)}))
                        return hr if hr.intersects else _checked(a, tri, hr)
            # _miss_bound of the failed barycentric
            if not (lam < 0.0):
                bound = 0.0
            else:
                if not (el > 0.0 and dl > 0.0):
                    bound = 0.0
                else:
                    sin_theta = abs(dot) / (nl * dl)
                    bound = -lam * nl / el * sin_theta / sqrt2
        # clearly_misses_at, with the scale of (o, d, *verts) from the two primitives' kept
        # scales (the same maximum)
        if bound > 0.0:
            if sa is not None:  # (st: the triangle's, a float)
                scale = sa if sa > st else st
                if bound > margin2 * scale and scale < 1e300:
                    # the record made by its builder (results.builder: the fields in
                    # the dataclass's order, then the class); the trace a shared pending
                    # value (results.pending: a tuple costs less to make than a Deferred)
                    hr = build()
                    hr.method = A16
                    hr.trace = (PENDING, _cast_field, a, tri)
                    hr.intersects = False
                    hr.first_t = None
                    hr.hits = ()
                    hr.__class__ = HitResult
                    return hr
        FALLBACKS["badouel_miss"] = FALLBACKS.get("badouel_miss", 0) + 1
        return _hits_and_features(a, tri, False)[0]

    return lean


def _lean_general(hi):
    """The lean kernel's general step (every triangle, every component): one frame around
    :func:`badouel_lean` (the record of a certified miss built here, :func:`hits_badouel`'s
    very record)."""
    state = filters_state
    segment = hi == 1
    new = object.__new__
    setattr_ = object.__setattr__
    scale_key = FLOAT_SCALE_KEY

    def lean(a, tri):
        if not state["enabled"] or a.exact or tri.exact:
            return None
        o = a.p0 if segment else a.origin
        d = a.direction
        verts = tri.vertices
        r = badouel_lean(o, d, 0, hi, verts)
        if r is None:  # (declined and counted there): hits_badouel's full path, then the checks
            return _checked(a, tri, _badouel(o, d, 0, hi, tri, False))
        t = r[0]
        if t is None:
            info = r[1]
            hr = new(HitResult)  # make_with, inlined
            setattr_(hr, "__dict__", {
                "method": A16, "trace": Deferred(_badouel_trace, o, d, 0, hi, tri, info),
                "intersects": False, "first_t": None, "hits": ()})
            # triangle_clearly_misses, with the scale of (o, d, *verts) from the two
            # primitives' kept scales (the same maximum)
            sa = a.__dict__.get(scale_key)
            if sa is None:
                sa = float_scale_of(a, (o, d))
            st = tri.__dict__.get(scale_key)
            if st is None:
                st = float_scale_of(tri, verts)
            if sa is not False and st is not False and sa is not None and st is not None:
                if clearly_misses_at(o, d, 0, hi, verts, info, sa if sa > st else st):
                    return hr
            FALLBACKS["badouel_miss"] = FALLBACKS.get("badouel_miss", 0) + 1
            return _hits_and_features(a, tri, False)[0]
        hr = surface_hits(o, d, 0, hi, t, r[1], A16,
                          Deferred(_badouel_trace, o, d, 0, hi, tri, {"barycentric": r[2]}))
        return hr if hr.intersects else _checked(a, tri, hr)

    return lean


DISTANCE_METHOD = "linear-triangle distance: GTCG §10.9.1 candidates (ends, edges); " + A16


def _touching(a, tri, hr):
    """The distance record of a cast ``hr`` that hit: 0 at its first touching point, B's
    parameter the crossing's barycentrics."""
    o, d, lo, hi = linear_parts(a)
    bary = miss_view(hr).get("barycentric")
    pb = (lambda p: _fp(bary)) if bary is not None else _bary(tri)
    return touching_distance(V.to_float(o), V.to_float(d), hr, DISTANCE_METHOD,
                             {"first_t": hr.first_t}, pb)


def distance_linear_triangle(a, tri):
    """Distance from a segment, ray or line to the triangle: 0 at the first touching point
    (Badouel), else the least over the component's ends (Ericson's regions) and the three edges
    (:func:`algorithms.kernels.closest.linear_features_distance`); exact up to rounding."""
    method = DISTANCE_METHOD
    hr, feats = _hits_and_features(a, tri)
    if hr.intersects:
        return _touching(a, tri, hr)
    sq, t, pa, pb, feature, cands = feats
    bary = closest_point_triangle(pb, tri)[1]
    dist = math.sqrt(float(sq))
    trace = {"feature": feature, "candidates": cands, "t": float(t)}
    return DistanceResult(method=method, trace=trace, distance=dist, sqr_distance=float(sq),
                          closest=(_fp(pa), _fp(pb)), parameter=(float(t), _fp(bary)))


def bounding_sphere_triangle(tri):
    vs = [V.to_float(v) for v in tri.vertices]
    c = tuple(sum(v[i] for v in vs) / 3 for i in range(3))
    return c, max(V.norm(V.sub(v, c)) for v in vs)


def distance_linear_triangle_golden(a, tri):
    """Generic: 0 when Badouel hits, else golden-section minimisation of the convex
    ``|A(t) - closest(A(t))|^2`` (:func:`algorithms.kernels.closest.golden_section_distance`)."""
    method = "linear-triangle distance, golden-section on the convex distance (generic)"
    hr = hits_badouel(a, tri)
    o, d, lo, hi = linear_parts(a)
    of, df = V.to_float(o), V.to_float(d)
    if hr.intersects:
        return touching_distance(of, df, hr, method, {}, _bary(tri))
    c, r = bounding_sphere_triangle(tri)
    sq, t, pa, pb, steps = golden_section_distance(
        of, df, lo, hi, lambda p: closest_point_triangle(p, tri)[0], c, r)
    dist = math.sqrt(sq)
    return DistanceResult(method=method, trace={"t": t, "steps": steps}, distance=dist,
                          sqr_distance=sq, closest=(pa, pb),
                          parameter=(t, _fp(closest_point_triangle(pb, tri)[1])))


def distance_point_triangle(pt, tri):
    """Closest point of the filled triangle (Ericson's regions); B's parameter the
    barycentrics ``(b0, b1, b2)``."""
    q = pt.position
    p, bary, region = closest_point_triangle(q, tri)
    sq = float(V.sqr_dist(p, q))
    return DistanceResult(method=REGIONS, trace={"region": region, "barycentric": bary},
                          distance=math.sqrt(sq), sqr_distance=sq,
                          closest=(_fp(q), _fp(q) if sq == 0 else _fp(p)),
                          parameter=(None, _fp(bary)))


def intersects_point_triangle(pt, tri):
    r = distance_point_triangle(pt, tri)
    return IntersectionResult(method=REGIONS, trace=r.trace, intersects=r.sqr_distance == 0)


intersects_linear_triangle = intersects_from_hits(hits_linear_triangle, A16)
#: the registered default distance of a linear component and a triangle
distance_features = robust_distance(distance_linear_triangle)


@fuses(distance=distance_features, intersects=intersects_linear_triangle,
       hits=hits_linear_triangle)
def answer_linear_triangle(a, tri):
    """``(distance, intersection, hits)`` of a linear component and a triangle from one cast,
    the records the three queries return (:func:`algorithms.registry.fuses`): on a hit,
    Badouel's cast is the hits and the intersection, and the distance is 0 at the crossing;
    on a miss the three share the cast and the features minimum as before."""
    hr = hits_badouel(a, tri, False)
    if not hr.intersects:
        remember(_cast, (a, tri, False), hr)  # the shared passes below read this cast
        return (distance_features(a, tri), intersects_linear_triangle(a, tri),
                hits_linear_triangle(a, tri))
    return (robust_settle(_touching(a, tri, hr)),
            make_with(IntersectionResult, {"method": A16, "trace": hr.__dict__["trace"],
                                           "intersects": True}),
            hr)



register("distance", "point", "triangle")(robust_distance(distance_point_triangle))
register("intersects", "point", "triangle")(intersects_point_triangle)
for _k in LINEAR:
    register("hits", _k, "triangle", name="badouel", priority=10)(hits_linear_triangle)
    register("hits", _k, "triangle", name="moller_trumbore", priority=0)(hits_moller_trumbore)
    register("distance", _k, "triangle", name="features", priority=10)(distance_features)
    register("distance", _k, "triangle", name="golden_section", priority=-10)(
        robust_distance(distance_linear_triangle_golden))
    register("intersects", _k, "triangle")(intersects_linear_triangle)


lean_kernels(hits_linear_triangle, {
    ("ray", "triangle"): (_lean_cast(INF), hits_linear_triangle),
    ("segment", "triangle"): (_lean_cast(1), hits_linear_triangle)})
