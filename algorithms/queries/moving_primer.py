"""Exact time of impact for the Primer's dynamic tests (Dunn & Parberry, 3D Math Primer, App. A).

Every function is a registry ``"toi"`` answer ``f(a, b, motion)``: A is held still and B
translates by ``t * motion``, ``t`` in ``[0, 1]`` (the A.6 reduction, ``motion = d_B - d_A``).
Each returns a :class:`~algorithms.results.ContactResult`: ``toi`` the least ``t`` at which they
touch (``0`` when they already intersect, touching included; ``None`` when not within
``[0, 1]``), a contact ``point`` at that time (in A's frame) and the ``normal`` from A towards B
(``None`` when they start interpenetrating).

* sphere-sphere: A.13 (``e``, ``r``, the smaller root, the ``e . e < r^2`` start-inside case);
* plane-sphere: A.15, Listing A.3 (the contact point ``c - r n``);
* plane-aabb: A.10, Listing A.2 (the corner that hits first, then the ray-plane test A.9);
* plane-X for the other kinds: the same argument with X's support point along ``-+n``;
* aabb-aabb: A.17, Listing A.5, Figs. A.15-A.16 (per-axis ``t_enter``/``t_leave``, the swap,
  the zero-velocity axis, the intersection of the intervals);
* sphere-aabb: A.14 sends the dynamic test to Lengyel; done exactly as the ray from the
  sphere's centre against the box inflated by ``r`` (the rounded box: 3 slab boxes, 12 edge
  cylinders, 8 corner spheres; the earliest entry wins).

Each is registered for one order; the registry answers the other by the A.6 mirror (B moving
by ``m`` is A moving by ``-m``) and, at priority 0, wins over the generic method of
:mod:`algorithms.generic.advancement` (priority -10) in either argument order.
"""

from __future__ import annotations

import math

import numpy as np

from algorithms.core.tolerance import T_END, TIME_SLACK, pair_scale, touch_tolerance, unit_np
from algorithms.kernels.motion import a6_trace, extent_along
from algorithms.primitives import TYPES
from algorithms.registry import register
from algorithms.results import ContactResult

AXES = "xyz"


def _f(v) -> np.ndarray:
    return np.asarray(v, dtype=float)


def _t(v):
    return None if v is None else tuple(float(c) for c in v)


#: the unit vector or None (the package's one helper, algorithms.core.tolerance)
_unit = unit_np


# ----------------------------------------------------------------------------- A.13 spheres


@register("toi", "sphere", "sphere", name="primer_a13_moving_spheres")
def toi_sphere_sphere(a, b, motion) -> ContactResult:
    """Two moving spheres (Dunn & Parberry, 3D Math Primer, App. A.13, Figs. A.10-A.12).

    A is the still sphere (``c_s``, ``r_s``), B the moving one (``c_m``, ``r_m``) with
    displacement ``d = l d_hat``. With ``e = c_s - c_m`` and ``r = r_m + r_s`` the centre
    distance equals ``r`` at ``t = e.d_hat -+ sqrt((e.d_hat)^2 + r^2 - e.e)`` (in length
    units); the smaller root is the first contact, computed in the cancellation-free form
    ``(e.e - r^2) / (e.d_hat + sqrt(...))``. ``e.e <= r^2``: they intersect at ``t = 0``; a
    negative radicand, ``t < 0`` or ``t > l``: no contact within the period. ``toi = t / l``.
    """
    c_s, r_s = _f(a.center), float(a.radius)
    c_m, r_m = _f(b.center), float(b.radius)
    d = _f(motion)
    e = c_s - c_m
    r = r_m + r_s
    ee = float(e @ e)
    l = float(np.linalg.norm(d))
    trace = {"A.6": a6_trace(motion), "e": e, "r": r, "e_dot_e": ee, "r2": r * r, "l": l}
    method = "moving spheres, smaller root (Dunn & Parberry, 3D Math Primer, App. A.13)"

    if ee <= r * r:
        trace["case"] = "e.e <= r^2: the spheres intersect at t = 0"
        w = r_s / r if r > 0 else 0.0
        point = c_s - w * e  # on the centre line, inside both balls
        normal = _unit(-e) if ee == r * r else None
        return ContactResult(method=method, trace=trace, toi=0.0, point=_t(point),
                             normal=_t(normal))
    if l == 0:
        trace["case"] = "d = 0: the spheres do not move relative to each other"
        return ContactResult(method=method, trace=trace, toi=None)
    d_hat = d / l
    ed = float(e @ d_hat)
    disc = ed * ed + r * r - ee
    trace.update({"d_hat": d_hat, "e_dot_d": ed, "discriminant": disc})
    # a graze: the centre line passes at h = sqrt(ee - ed^2) from c_s; within the touching
    # band (h <= r + tol) the radicand is 0 up to rounding: disc >= -(2 r tol + tol^2)
    tol = touch_tolerance(pair_scale(a, b))
    if -(2 * r * tol + tol * tol) <= disc < 0:
        trace["graze"] = disc
        disc = 0.0
    if disc < 0:
        trace["case"] = "negative radicand: the line of motion misses"
        return ContactResult(method=method, trace=trace, toi=None)
    s = math.sqrt(disc)
    trace["roots"] = (ed - s, ed + s)
    if ed <= 0:
        trace["case"] = "e.d_hat <= 0: moving apart, both roots < 0"
        return ContactResult(method=method, trace=trace, toi=None)
    t = (ee - r * r) / (ed + s)  # = ed - s, the smaller root, without cancellation
    trace["t"] = t
    if t > l * T_END:
        trace["case"] = "t > l: contact after the period"
        return ContactResult(method=method, trace=trace, toi=None)
    toi = min(1.0, t / l)
    trace.update({"case": "smaller root in [0, l]", "toi": toi})
    c_t = c_m + toi * d
    normal = _unit(c_t - c_s)
    if normal is None:  # two points meeting: B comes from -d
        normal = -d_hat
    point = c_s + r_s * normal
    return ContactResult(method=method, trace=trace, toi=toi, point=_t(point),
                         normal=_t(normal))


# ----------------------------------------------------------------------------- planes


def _common_point(plane, n, dval, lo, p_lo, hi, p_hi, x):
    """A point of X on the plane ``n . p = d`` when X straddles it (``lo <= d <= hi``)."""
    if p_lo is not None and p_hi is not None:
        # X is convex: the segment between its two support points lies in X and crosses
        s = 0.0 if hi == lo else (dval - lo) / (hi - lo)
        return _f(p_lo) + min(1.0, max(0.0, s)) * (_f(p_hi) - _f(p_lo))
    if x is not None and x.kind in ("ray", "line"):
        o, v = _f(x.origin), _f(x.direction)
        return o + (dval - float(n @ o)) / float(n @ v) * v
    if x is not None and x.kind == "plane":
        m, e = _f(x.normal), float(x.d)
        u = np.cross(n, m)
        uu = float(u @ u)
        nm = float(n @ m)
        return ((dval * float(m @ m) - e * nm) * n + (e * float(n @ n) - dval * nm) * m) / uu
    return _f(plane.origin)


def _plane_interval_toi(plane, lo, p_lo, hi, p_hi, motion, trace, x=None):
    """Shared A.10 / A.15 argument: X's ``n . x`` interval ``[lo, hi]`` slides by
    ``t (n . d)``; the end nearest the plane hits first (the ray-plane test A.9)."""
    n = _f(plane.normal)
    nn = float(np.linalg.norm(n))
    n_hat = n / nn
    dval = float(plane.d)
    d = _f(motion)
    nd = float(n @ d)
    trace.update({"minD": lo, "maxD": hi, "d": dval, "n_dot_d": nd})
    if lo <= dval <= hi:
        trace["case"] = "straddles or touches the plane at t = 0"
        point = _common_point(plane, n, dval, lo, p_lo, hi, p_hi, x)
        normal = None
        if lo == dval and hi > dval:
            normal = n_hat
        elif hi == dval and lo < dval:
            normal = -n_hat
        return 0.0, point, normal
    if lo > dval:
        trace["side"] = "front: the point with minD hits first"
        corner, gap, sign = p_lo, dval - lo, 1.0
    else:
        trace["side"] = "back: the point with maxD hits first"
        corner, gap, sign = p_hi, dval - hi, -1.0
    trace["first_point"] = _t(corner)
    if nd == 0:
        trace["case"] = "motion parallel to the plane (n . d = 0)"
        return None, None, None
    t = gap / nd  # A.9 ray-plane: (d - p0 . n) / (d . n)
    trace["t"] = t
    if t < 0 or t > T_END:
        trace["case"] = "moving away (t < 0)" if t < 0 else "contact after the period (t > 1)"
        return None, None, None
    trace["case"] = "ray-plane from the first point (A.9)"
    return t, _f(corner) + t * d, sign * n_hat


def toi_plane_sphere(plane, sph, motion) -> ContactResult:
    """Sphere moving against a plane (Dunn & Parberry, 3D Math Primer, App. A.15, Listing A.3,
    Figs. A.13-A.14).

    The contact point on the sphere is always ``p0 = c - r n_hat`` (front side; ``c + r n_hat``
    from behind) and ``t = (d - c . n_hat + r) / (d_hat . n_hat)`` is the ray-plane test A.9
    from it. Listing A.3's ``d = n_hat . c - planeD`` classifies the start: ``|d| <= r``
    straddles (``toi = 0``). Here the displacement is not normalised, so ``t`` is in ``[0, 1]``.
    """
    n = _f(plane.normal)
    nn = float(np.linalg.norm(n))
    n_hat = n / nn
    c, r = _f(sph.center), float(sph.radius)
    plane_d = float(plane.d) / nn
    dist = float(n_hat @ c) - plane_d
    trace = {"A.6": a6_trace(motion), "n_hat": n_hat, "planeD": plane_d,
             "listing_a3_d": dist, "r": r}
    method = "moving sphere vs plane, contact point c - r n (Dunn & Parberry, 3D Math Primer, " \
             "App. A.15)"
    if abs(dist) <= r:
        trace["classify"] = 0
        trace["case"] = "sphere straddles the plane at t = 0"
        point = c - dist * n_hat
        normal = None if abs(dist) < r else (n_hat if dist > 0 else -n_hat)
        return ContactResult(method=method, trace=trace, toi=0.0, point=_t(point),
                             normal=_t(normal))
    front = dist > 0
    trace["classify"] = 1 if front else -1
    p0 = c - r * n_hat if front else c + r * n_hat
    trace["p0"] = p0
    d = _f(motion)
    dn = float(d @ n_hat)
    trace["d_dot_n"] = dn
    if dn == 0:
        trace["case"] = "motion parallel to the plane"
        return ContactResult(method=method, trace=trace, toi=None)
    num = plane_d - float(c @ n_hat) + (r if front else -r)
    t = num / dn
    trace["t"] = t
    trace["t_book"] = t * float(np.linalg.norm(d))  # along the unit direction, 0..l
    if t < 0 or t > T_END:
        trace["case"] = "moving away (t < 0)" if t < 0 else "contact after the period (t > 1)"
        return ContactResult(method=method, trace=trace, toi=None)
    trace["case"] = "ray-plane from p0 (A.9)"
    return ContactResult(method=method, trace=trace, toi=t, point=_t(p0 + t * d),
                         normal=_t(n_hat if front else -n_hat))


def toi_plane_aabb(plane, box, motion) -> ContactResult:
    """AABB moving against a plane (Dunn & Parberry, 3D Math Primer, App. A.10, Listing A.2).

    ``minD``/``maxD``: the least and greatest ``n . corner`` over the eight corners, picked
    per axis by the sign of ``n``. ``minD > d``: the box is in front and the corner with
    ``minD`` hits first; ``maxD < d``: behind, the corner with ``maxD``; otherwise it straddles
    (``toi = 0``). The hitting corner's ray-plane test (A.9) gives ``t = (d - minD) / (n . d)``.
    """
    n = _f(plane.normal)
    lo_c = np.where(n > 0, box.min, box.max).astype(float)
    hi_c = np.where(n > 0, box.max, box.min).astype(float)
    minD, maxD = float(n @ lo_c), float(n @ hi_c)
    trace = {"A.6": a6_trace(motion), "n": n, "min_corner": lo_c, "max_corner": hi_c}
    t, point, normal = _plane_interval_toi(plane, minD, lo_c, maxD, hi_c, motion, trace)
    return ContactResult(method="moving AABB vs plane, the corner that hits first (Dunn & "
                         "Parberry, 3D Math Primer, App. A.10, Listing A.2)",
                         trace=trace, toi=t, point=_t(point), normal=_t(normal))


def _make_plane_x(kind):
    def toi_plane_x(plane, x, motion) -> ContactResult:
        """X moving against a plane: the Primer's A.10 argument with X's support point.

        X's projection ``n . x`` over its points is an interval ``[minD, maxD]`` (possibly
        unbounded) attained at support points of X along ``-n`` and ``+n``; translating X
        slides it by ``t (n . d)``. It straddles at ``t = 0`` or its nearer end meets ``d``
        at the ray-plane time (A.9). Exact for every kind.
        """
        lo, p_lo, hi, p_hi = extent_along(x, plane.normal)
        trace = {"A.6": a6_trace(motion)}
        t, point, normal = _plane_interval_toi(plane, lo, p_lo, hi, p_hi, motion, trace, x)
        return ContactResult(method=f"moving {kind} vs plane, support point along the normal "
                             "(Dunn & Parberry, 3D Math Primer, App. A.10 generalised)",
                             trace=trace, toi=t, point=_t(point), normal=_t(normal))

    toi_plane_x.__name__ = f"toi_plane_{kind}"
    return toi_plane_x


for _kind in TYPES:
    if _kind not in ("sphere", "aabb"):
        register("toi", "plane", _kind, name="primer_a10_support_point_plane")(_make_plane_x(_kind))


# ----------------------------------------------------------------------------- A.17 aabb-aabb


@register("toi", "aabb", "aabb", name="primer_a17_moving_aabbs")
def toi_aabb_aabb(a, b, motion) -> ContactResult:
    """Two moving AABBs (Dunn & Parberry, 3D Math Primer, App. A.17, Listing A.5,
    Figs. A.15-A.16).

    A is the still box (``s_min``, ``s_max``), B moves (``m_min``, ``m_max``) by ``d``. Per
    axis, ``t_enter = (s_min - m_max(0)) / d`` and ``t_leave = (s_max - m_min(0)) / d``, swapped
    when B moves left (``t_enter > t_leave``); a zero-velocity axis overlaps always or never.
    The boxes overlap during the intersection of the three intervals with ``[0, 1]``; its lower
    end is the ``toi`` (empty: no contact). ``trace["axes"]`` keeps every axis's interval (the
    explorer draws them as Fig. A.16).
    """
    s_min, s_max = _f(a.min), _f(a.max)
    m_min, m_max = _f(b.min), _f(b.max)
    d = _f(motion)
    axes = []
    t_enter, t_leave = 0.0, 1.0
    enter_axis = None
    for i in range(3):
        row = {"axis": AXES[i], "d": float(d[i]), "s_min": float(s_min[i]),
               "s_max": float(s_max[i]), "m_min": float(m_min[i]), "m_max": float(m_max[i]),
               "swapped": False, "zero_velocity": bool(d[i] == 0)}
        if d[i] == 0:
            overlap = bool(m_min[i] <= s_max[i] and m_max[i] >= s_min[i])
            row["overlap"] = overlap
            te, tl = (-math.inf, math.inf) if overlap else (math.inf, -math.inf)
        else:
            te = float((s_min[i] - m_max[i]) / d[i])
            tl = float((s_max[i] - m_min[i]) / d[i])
            if te > tl:
                te, tl = tl, te
                row["swapped"] = True
        row["t_enter"], row["t_leave"] = te, tl
        axes.append(row)
        if te > t_enter:
            t_enter, enter_axis = te, i
        t_leave = min(t_leave, tl)
    trace = {"A.6": a6_trace(motion), "axes": axes, "t_enter": t_enter, "t_leave": t_leave,
             "interval": (t_enter, t_leave)}
    method = ("moving AABBs, intersection of per-axis [t_enter, t_leave] (Dunn & Parberry, "
              "3D Math Primer, App. A.17, Listing A.5)")
    # a contact exactly at t = 1, or a graze at one instant (t_enter == t_leave on two axes),
    # may compute t_enter an ulp or two above t_leave: within TIME_SLACK it is a contact
    if t_enter > t_leave + TIME_SLACK:
        trace["case"] = "empty intersection of the intervals: no contact in [0, 1]"
        return ContactResult(method=method, trace=trace, toi=None)
    toi = min(t_enter, 1.0)
    lo = np.maximum(s_min, m_min + toi * d)
    hi = np.minimum(s_max, m_max + toi * d)
    point = (lo + hi) / 2
    normal = None
    if enter_axis is not None:
        normal = np.zeros(3)
        normal[enter_axis] = -1.0 if d[enter_axis] > 0 else 1.0
        trace["case"] = f"contact on axis {AXES[enter_axis]}"
    else:
        trace["case"] = "the boxes overlap or touch at t = 0"
    return ContactResult(method=method, trace=trace, toi=toi, point=_t(point),
                         normal=_t(normal))


# ----------------------------------------------------------------------------- sphere-aabb


def _slab_entry(o, v, lo, hi):
    """First ``t`` in ``[0, 1]`` with ``o + t v`` in the box ``[lo, hi]`` (slabs) and the axis
    whose slab is entered last, or None."""
    t0, t1 = 0.0, T_END
    axis = None
    for i in range(3):
        # (Python floats: a speed of 1e-320 puts the slab at t = +-inf, as IEEE division
        # does, without numpy's overflow warning)
        oi, vi, li, hi_ = float(o[i]), float(v[i]), float(lo[i]), float(hi[i])
        if vi == 0.0:
            if oi < li or oi > hi_:
                return None
            continue
        ta, tb = (li - oi) / vi, (hi_ - oi) / vi
        if ta > tb:
            ta, tb = tb, ta
        if ta > t0:
            t0, axis = ta, i
        t1 = min(t1, tb)
        if t0 > t1:
            return None
    return float(t0), axis


def _smaller_root(a, b, c, cross_sqr, r):
    """Smaller root of ``a t^2 + 2 b t + c`` with ``a > 0`` and ``c > 0`` (start outside),
    cancellation-free; None when no real root or when both are negative.

    The quadratic is ``|w + t v|^2 = r^2`` (``a = v.v``, ``b = w.v``, ``c = w.w - r^2``) and
    its discriminant ``b^2 - a c`` is computed as ``a r^2 - |v x w|^2`` (Lagrange's identity;
    Haines et al., Ray Tracing Gems ch. 7, "Precision improvements for ray/sphere
    intersection"), from ``cross_sqr = |v x w|^2``: ``b^2`` and ``a c`` are nearly equal for a
    path aimed at the axis or centre, and their difference is rounding noise of ``eps b^2``
    whose square root moved the root ``sqrt(eps)`` early (a point-sized sphere hitting a
    point-sized box came 2.6e-8 of its time too early)."""
    if a <= 0:
        return None
    disc = a * (r * r) - cross_sqr
    if disc < 0 or b >= 0:
        return None
    return float(c / (-b + math.sqrt(disc)))


def toi_sphere_aabb(sph, box, motion) -> ContactResult:
    """Sphere and AABB moving (App. A.14 points to Lengyel): the ray from the sphere's centre
    against the box inflated by ``r``.

    In the box's frame the centre moves along ``c - t d``. The sphere touches the box when the
    centre enters the rounded box ``box + ball(r)``, the union of 3 slab boxes (the box grown by
    ``r`` along one axis: face contacts), 12 edge cylinders (radius ``r`` around an edge, within
    its length) and 8 corner spheres. Each piece is convex and inside the rounded box, so the
    first entry is the least of the pieces' first entries (a cylinder entered through its end
    disk is entered no earlier through that corner's sphere). ``e.e <= r^2`` at the start (the
    Arvo test, A.14): ``toi = 0``.
    """
    c, r = _f(sph.center), float(sph.radius)
    lo, hi = _f(box.min), _f(box.max)
    d = _f(motion)
    v = -d  # the centre's motion relative to the box
    q0 = np.clip(c, lo, hi)
    sq0 = float((c - q0) @ (c - q0))
    trace = {"A.6": a6_trace(motion), "r": r, "ray_origin": c, "ray_direction": v,
             "closest_at_0": q0, "sqr_distance_at_0": sq0}
    method = ("moving sphere vs AABB, ray against the rounded box: 3 slabs, 12 edge cylinders, "
              "8 corner spheres (Dunn & Parberry, 3D Math Primer, App. A.14 -> Lengyel)")
    if sq0 <= r * r:
        trace["case"] = "the sphere intersects the box at t = 0 (A.14 static test)"
        normal = _unit(q0 - c) if sq0 == r * r else None
        return ContactResult(method=method, trace=trace, toi=0.0, point=_t(q0),
                             normal=_t(normal))

    candidates = []
    for i in range(3):  # slab boxes
        g = np.zeros(3)
        g[i] = r
        hit = _slab_entry(c, v, lo - g, hi + g)
        if hit is not None:
            t, k = hit
            # a face contact proper when the slab entered last is the grown one (k == i)
            candidates.append((t, 0 if k == i else 1, f"face {AXES[i]}",
                               {"axis": i, "entering_axis": k}))
    corners = (lo, hi)
    for i in range(3):  # edge cylinders along axis i
        j, k = (i + 1) % 3, (i + 2) % 3
        for sj in (0, 1):
            for sk in (0, 1):
                ej, ek = corners[sj][j], corners[sk][k]
                wj, wk = c[j] - ej, c[k] - ek
                a_ = v[j] * v[j] + v[k] * v[k]
                b_ = wj * v[j] + wk * v[k]
                c_ = wj * wj + wk * wk - r * r
                if c_ <= 0:
                    continue  # entered (if at all) through an end disk: a corner sphere
                cross = v[j] * wk - v[k] * wj  # (v x w) in the plane across the edge
                t = _smaller_root(a_, b_, c_, cross * cross, r)
                if t is None or t > T_END:
                    continue
                along = c[i] + t * v[i]
                if lo[i] <= along <= hi[i]:
                    candidates.append((t, 2, f"edge {AXES[i]}",
                                       {"axis": i, "edge": (j, float(ej), k, float(ek))}))
    for sx in (0, 1):  # corner spheres
        for sy in (0, 1):
            for sz in (0, 1):
                C = np.array([corners[sx][0], corners[sy][1], corners[sz][2]])
                w = c - C
                x = np.cross(v, w)
                t = _smaller_root(float(v @ v), float(w @ v), float(w @ w) - r * r,
                                  float(x @ x), r)
                if t is not None and t <= T_END:
                    candidates.append((t, 3, "corner", {"corner": C}))
    trace["candidates"] = [{"t": t, "feature": name, **info} for t, _, name, info in candidates]
    if not candidates:
        trace["case"] = "the centre's path misses the rounded box in [0, 1]"
        return ContactResult(method=method, trace=trace, toi=None)
    t, _, name, info = min(candidates, key=lambda x: (x[0], x[1]))
    trace.update({"case": f"first entry through a {name.split()[0]}", "feature": name,
                  "t": t})
    p = c + t * v  # centre in the box's frame at the contact
    q = np.clip(p, lo, hi)  # the touched point of the box (box frame)
    normal = _unit(q - p)
    if normal is None:  # r = 0: the centre is on the box; use the feature's direction
        if name.startswith("face") and info.get("entering_axis") is not None:
            i = info["entering_axis"]
            normal = np.zeros(3)
            normal[i] = 1.0 if v[i] > 0 else -1.0
        else:
            normal = _unit(v) if _unit(v) is not None else None
    point = q + t * d  # back to A's frame: the box has moved by t d
    return ContactResult(method=method, trace=trace, toi=t, point=_t(point), normal=_t(normal))


register("toi", "plane", "sphere", name="primer_a15_moving_sphere_plane")(toi_plane_sphere)
register("toi", "plane", "aabb", name="primer_a10_moving_aabb_plane")(toi_plane_aabb)
register("toi", "sphere", "aabb", name="rounded_box_ray_cast")(toi_sphere_aabb)
