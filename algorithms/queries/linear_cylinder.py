"""Point, segment, ray and line against a (solid, finite) cylinder.

The cylinder has centre ``c``, unit axis ``w``, radius ``r`` and half height ``h``; a point
``x`` is inside when its axial coordinate ``z = w . (x - c)`` has ``|z| <= h`` and its radial
vector ``rho = (x - c) - z w`` has ``|rho| <= r``.

* point: radial clamp + axial clamp (:func:`algorithms.kernels.closest.closest_point_cylinder`);
* ``hits``: exact. Along ``A(t) = o + t d``, ``z(t) = z0 + t dz`` and
  ``rho(t) = q0 + t qd``; the wall gives the quadratic ``a t^2 + 2 b t + c = 0`` with
  ``a = qd . qd``, ``b = q0 . qd``, ``c = q0 . q0 - r^2``, whose discriminant is computed
  without cancellation as ``b^2 - a c = a r^2 - |q0 x qd|^2`` (Lagrange's identity) and whose
  roots are taken in the stable form ``(-b - sign(b) sqrt(disc)) / a`` and ``c / (that * a)``;
  the caps give the slab ``-h <= z(t) <= h``. The solid's interval is the intersection of the
  two (the same clipping as the slab method of App. A.18 / Kay-Kajiya); its ends are the entry
  and exit, on the wall (normal ``rho / r``) or on a cap (normal ``+-w``);
* ``distance``: 0 at the first touching point, else golden-section minimisation of the convex
  squared distance (:func:`algorithms.kernels.closest.golden_section_distance`) on the domain, bracketed
  for rays and lines by the bounding sphere, then refined by evaluating the exact distance at
  the stationary points known in closed form: the closest approach of the line to the axis
  (the wall case), the parameters where ``z = +-h`` (the cap planes) and the domain ends. On
  the rim (a circle, no closed form) the answer is the golden-section one: about 1e-15 relative
  in the distance (second order in the ``t`` error, see the tests).
"""

from __future__ import annotations

import math

from algorithms.core import vec as V
from algorithms.core.once import shared
from algorithms.kernels.closest import (INF, closest_point_cylinder, cylinder_frame,
                                        golden_section_distance, intersects_from_hits,
                                        is_zero_vector, linear_parts, rescaled, rescue_hit,
                                        robust_distance, solid_hits, touching_distance)
from algorithms.kernels.filters import cylinder_clearly_misses
from algorithms.registry import register
from algorithms.results import DistanceResult, IntersectionResult

LINEAR = ("segment", "ray", "line")
CAST = "linear-cylinder: exact wall quadratic and cap slab, clipped (cf. App. A.12, A.18)"
CLAMP = "closest point in a solid cylinder: radial and axial clamp"


def _parts(a, cyl):
    """Frame quantities; ``dz``, ``qd`` (and so every ``t`` found from them) use the direction
    divided by ``m`` (:func:`algorithms.kernels.closest.rescaled`; ``m = 1`` unless ``d . d`` would
    under/overflow), so callers divide those ``t`` by ``m``."""
    o, d, lo, hi = linear_parts(a)
    of, df = V.to_float(o), V.to_float(d)
    ds, m = rescaled(df)
    c, w, h, r = cylinder_frame(cyl)
    v0 = V.sub(of, c)
    z0, dz = V.dot(w, v0), V.dot(w, ds)
    q0 = V.sub(v0, V.scale(z0, w))
    qd = V.sub(ds, V.scale(dz, w))
    return of, df, lo, hi, c, w, h, r, z0, dz, q0, qd, m


def cylinder_interval(a, cyl):
    """``(t_in, t_out, n_in, n_out, trace)``: where the whole line of ``a`` is inside."""
    of, df, lo, hi, c, w, h, r, z0, dz, q0, qd, m = _parts(a, cyl)
    trace = {"z0": z0, "dz": dz, "h": h, "r": r}
    if is_zero_vector(df):
        inside = V.dot(q0, q0) <= r * r and abs(z0) <= h
        trace["degenerate"] = "zero-length segment: point in cylinder test"
        return (-INF if inside else None), INF, None, None, trace
    # wall: a t^2 + 2 b t + c = 0
    qa, qb, qc = V.dot(qd, qd), V.dot(q0, qd), V.dot(q0, q0) - r * r
    trace.update({"a": qa, "b": qb, "c": qc})
    # qd = ds - dz w leaves rounding of the unit axis w (a few ulps of |ds|) for a direction
    # along the axis: a = 4.9e-32 for the axis (0.037889, 0, 0) and d = (1, 0, 0). Below that
    # noise floor the direction is along the axis (the angle is below float resolution)
    if qa == 0 or (isinstance(qa, float) and qa <= (8 * 2.0 ** -52) ** 2 * (dz * dz + qa)):
        trace["parallel to the axis"] = True
        if qc > 0:
            trace["rejected"] = "parallel to the axis, outside the wall"
            return None, None, None, None, trace
        tw0, tw1 = -INF, INF
    else:
        disc = qa * r * r - V.sqr_norm(V.cross(q0, qd))
        trace["disc = b^2 - ac"] = disc
        if disc < 0:
            trace["rejected"] = "disc < 0: the line misses the infinite cylinder"
            return None, None, None, None, trace
        s = math.sqrt(disc)
        qq = -(qb + s) if qb >= 0 else (-qb + s)
        if qq == 0:
            tw0 = tw1 = -qb / qa
        else:
            tw0, tw1 = sorted((qq / qa, qc / qq))
    trace["t_wall"] = (tw0, tw1)
    # caps: -h <= z0 + t dz <= h
    if dz == 0:
        if abs(z0) > h:
            trace["rejected"] = "parallel to the caps, outside the slab"
            return None, None, None, None, trace
        tc0, tc1, nc0, nc1 = -INF, INF, None, None
    else:
        ta, tb = (-h - z0) / dz, (h - z0) / dz
        if dz > 0:
            tc0, tc1, nc0, nc1 = ta, tb, V.scale(-1.0, w), w
        else:
            tc0, tc1, nc0, nc1 = tb, ta, w, V.scale(-1.0, w)
    trace["t_caps"] = (tc0, tc1)

    def wall_normal(t):  # t in the scaled parameter
        if r == 0:
            return None
        rho = V.add(q0, V.scale(t, qd))
        lr = V.norm(rho)
        return None if lr == 0 else V.scale(1.0 / lr, rho)

    if tw0 > tc0:
        t_in, n_in, via_in = tw0, wall_normal(tw0), "wall"
    else:
        t_in, n_in, via_in = tc0, nc0, "cap"
    if tw1 < tc1:
        t_out, n_out, via_out = tw1, wall_normal(tw1), "wall"
    else:
        t_out, n_out, via_out = tc1, nc1, "cap"
    trace.update({"t_enter": t_in, "t_leave": t_out, "enters through": via_in,
                  "leaves through": via_out})
    if t_in > t_out:
        trace["rejected"] = "t_enter > t_leave"
        return None, None, None, None, trace
    if m != 1:
        t_in, t_out = t_in / m, t_out / m
        trace["direction scaled by"] = m
    n_in = None if n_in is None else tuple(x + 0.0 for x in n_in)
    n_out = None if n_out is None else tuple(x + 0.0 for x in n_out)
    return t_in, t_out, n_in, n_out, trace


def hits_cast(a, cyl):
    """The cast alone: segment, ray or line against the solid cylinder (wall quadratic and
    cap slab)."""
    o, d, lo, hi = linear_parts(a)
    t_in, t_out, n_in, n_out, trace = cylinder_interval(a, cyl)
    return solid_hits(V.to_float(o), V.to_float(d), lo, hi, t_in, t_out, n_in, n_out, CAST,
                      trace)


def _min_distance(a, cyl):
    """Golden-section minimisation + closed-form candidates (no cast)."""
    of, df, lo, hi, c, w, h, r, z0, dz, q0, qd, m = _parts(a, cyl)
    extra = []
    qa = V.dot(qd, qd)
    if qa > 0:
        extra.append(-V.dot(q0, qd) / qa / m)  # closest approach to the axis (wall stationary)
    if dz != 0:
        extra += [(-h - z0) / dz / m, (h - z0) / dz / m]  # the cap planes
    for t in (lo, hi):
        if t not in (-INF, INF):
            extra.append(float(t))
    sq, t, pa, pb, steps = golden_section_distance(
        of, df, lo, hi, lambda p: closest_point_cylinder(p, cyl), c, math.hypot(r, h), extra,
        cylinder=cyl)
    return sq, t, pa, pb, steps, extra


@shared
def _cast(a, cyl):
    return hits_cast(a, cyl)


@shared
def _hits_and_distance(a, cyl):
    hr = _cast(a, cyl)
    if hr.intersects:
        return hr, None
    md = _min_distance(a, cyl)
    o, d, _, _ = linear_parts(a)
    hr = rescue_hit(hr, V.to_float(o), V.to_float(d), md[0], md[1],
                    "the cast rejected a contact the distance minimisation finds exactly")
    return hr, md


def hits_linear_cylinder(a, cyl):
    """Segment, ray or line against the solid cylinder: the exact cast
    (:func:`cylinder_interval`); a grazing contact (the rim) that its rounded comparisons
    reject but the distance minimisation finds at distance exactly 0 is reported
    (:func:`algorithms.kernels.closest.rescue_hit`); a clear miss
    (:func:`algorithms.kernels.filters.cylinder_clearly_misses`) skips that minimisation."""
    hr = _cast(a, cyl)
    if not hr.intersects and cylinder_clearly_misses(a, cyl):
        return hr  # the filter: no rim contact for rescue_hit to find
    return _hits_and_distance(a, cyl)[0]


def distance_linear_cylinder(a, cyl):
    """0 at the first touching point, else golden-section + closed-form candidates."""
    method = "linear-cylinder distance: golden-section on the convex distance + exact " \
        "candidates (axis closest approach, cap planes, ends); " + CAST
    hr, md = _hits_and_distance(a, cyl)
    o, d, lo, hi = linear_parts(a)
    if hr.intersects:
        return touching_distance(V.to_float(o), V.to_float(d), hr, method,
                                 {"first_t": hr.first_t})
    sq, t, pa, pb, steps, extra = md
    trace = {"t": t, "steps": steps, "candidates": extra}
    return DistanceResult(method=method, trace=trace, distance=math.sqrt(sq), sqr_distance=sq,
                          closest=(pa, pb), parameter=(t, None))


def _inside(q, cyl):
    c, w, h, r = cylinder_frame(cyl)
    v = V.sub(V.to_float(q), c)
    z = V.dot(w, v)
    rho = V.sub(v, V.scale(z, w))
    return abs(z) <= h and V.dot(rho, rho) <= r * r, z, rho


def distance_point_cylinder(pt, cyl):
    """Radial clamp + axial clamp (exact for the solid cylinder)."""
    q = V.to_float(pt.position)
    p = closest_point_cylinder(q, cyl)
    inside, z, rho = _inside(q, cyl)
    _, _, h, r = cylinder_frame(cyl)
    # from the frame coordinates, not from the two points (which may round onto each other)
    dist = 0.0 if inside else math.hypot(max(abs(z) - h, 0.0), max(V.norm(rho) - r, 0.0))
    return DistanceResult(method=CLAMP, trace={"z": z, "|rho|": V.norm(rho)},
                          distance=dist, sqr_distance=dist * dist, closest=(q, q if inside else p),
                          parameter=(None, None))


def intersects_point_cylinder(pt, cyl):
    inside, z, rho = _inside(pt.position, cyl)
    return IntersectionResult(method=CLAMP, trace={"z": z, "|rho|": V.norm(rho)},
                              intersects=bool(inside))


intersects_linear_cylinder = intersects_from_hits(hits_linear_cylinder, CAST)


register("distance", "point", "cylinder")(robust_distance(distance_point_cylinder))
register("intersects", "point", "cylinder")(intersects_point_cylinder)
for _k in LINEAR:
    register("hits", _k, "cylinder")(hits_linear_cylinder)
    register("distance", _k, "cylinder")(robust_distance(distance_linear_cylinder))
    register("intersects", _k, "cylinder")(intersects_linear_cylinder)
