"""Which side of a plane an object lies on: ``side`` for the plane against every kind.

The plane is ``n . x = d`` (front: ``n . x > d``); ``f(x) = n . x - d`` is Boreskov's
``plane.f`` (his planes are ``(n, p) + d = 0``, so his ``d`` is our ``-d``). An object is
``1`` wholly in front when ``f > 0`` on all its points, ``-1`` wholly behind when ``f < 0`` on
all of them, ``0`` when it touches or straddles the plane (scene-v1). The Primer's listings
return ``+1`` for a sphere or box that merely touches (``d >= r``, ``minD >= d``); here touching
is ``0``, so their comparisons are strict.

Centre-and-radius form (every bounded kind): with ``|n|`` the normal's length, the trace and the
:class:`~algorithms.results.SideResult` give the signed distance of the centre
``f(c) / |n|`` and the effective radius ``r_eff`` (half the width of the object along the unit
normal): sphere ``r``; aabb and obb ``sum e_i |u . a_i|``; capsule ``|f(p1) - f(p0)| / (2|n|) + r``;
cylinder ``(h/2) |u . w| + r |u x w|``; segment and triangle from the vertex values.

Where the arithmetic allows it the decision is exact for exact (Fraction) input: vertex signs
for points, segments, triangles, boxes, OBBs and the plane pair; squared comparisons
``f(c)^2 > r^2 |n|^2`` for spheres and capsules. Cylinders use floats. For float input a
value of ``f`` within the rounding band of
:func:`~algorithms.queries.plane_solids.touch_tolerance` (``2**-40`` relative, :mod:`algorithms.core.tolerance`) counts as
touching, the same band the plane distance uses, so ``side == 0`` exactly when
``distance == 0``.

Two methods for spheres (Dunn & Parberry A.15, Listing A.3; Boreskov ``classify``) and two
for boxes (A.10, Listing A.2 ``minD``/``maxD``; Boreskov Fig. 3.9, the corner picked by the
signs of the normal) give the same answers by construction and are cross-checked in the tests.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np

from algorithms.core.tolerance import unit_np
from algorithms.core.vec import dot, norm
from algorithms.queries.plane_solids import planes_parallel, touch_tolerance
from algorithms.registry import register
from algorithms.results import SideResult


def _sign(x) -> int:
    return 1 if x > 0 else (-1 if x < 0 else 0)


def _f(plane, x):
    """Boreskov's ``f(p)``: ``n . p - d`` (positive in front)."""
    return dot(plane.normal, x) - plane.d


def _decide(lo, hi, tol) -> int:
    """``1`` if the least ``f`` exceeds ``tol``, ``-1`` if the greatest is below ``-tol``."""
    return 1 if lo > tol else (-1 if hi < -tol else 0)


def _tol(plane, obj, centre, r_eff_unit: float):
    """The touching band in ``f`` units: 0 for exact input, else ``|n|`` times
    :func:`~algorithms.queries.plane_solids.touch_tolerance` (the one the distance uses)."""
    if plane.exact and obj.exact:
        return 0
    n_len = norm(plane.normal)
    return n_len * touch_tolerance(float(plane.d) / n_len, [float(x) for x in centre],
                                   r_eff_unit)


def _vertices_result(plane, obj, vertices, method):
    """Side of a polytope from the signs of ``f`` at its vertices (``signed_distance`` and
    ``effective_radius`` describe the range of ``f``: its midpoint and half-width)."""
    fs = [_f(plane, v) for v in vertices]
    n_len = norm(plane.normal)
    lo, hi = float(min(fs)), float(max(fs))
    centre = [sum(float(v[i]) for v in vertices) / len(vertices) for i in range(3)]
    tol = _tol(plane, obj, centre, (hi - lo) / 2 / n_len)
    side = _decide(min(fs), max(fs), tol)
    trace = {"f": [float(v) for v in fs], "kind": obj.kind, "touch_tolerance": float(tol),
             "signed_distance": (lo + hi) / 2 / n_len, "effective_radius": (hi - lo) / 2 / n_len}
    return SideResult(method=method, trace=trace, side=side,
                      signed_distance=trace["signed_distance"],
                      effective_radius=trace["effective_radius"])


M_VERTS = "plane side by the signs of f(x) = n.x - d at the vertices (Boreskov, 'all eight vertices')"


def side_plane_point(plane, p):
    """Sign of ``f(p)``."""
    return _vertices_result(plane, p, [p.position], M_VERTS)


def side_plane_segment(plane, s):
    """Signs of ``f`` at ``p0`` and ``p1``."""
    return _vertices_result(plane, s, [s.p0, s.p1], M_VERTS)


def side_plane_triangle(plane, t):
    """Signs of ``f`` at the three vertices."""
    return _vertices_result(plane, t, list(t.vertices), M_VERTS)


def _linear(plane, comp, is_ray: bool):
    f0 = _f(plane, comp.origin)
    g = dot(plane.normal, comp.direction)  # df/dt along the component
    n_len = norm(plane.normal)
    tol = _tol(plane, comp, comp.origin, 0.0)
    if g == 0:
        side, why = _decide(f0, f0, tol), "parallel to the plane"
    elif is_ray and f0 > tol and g > 0:
        side, why = 1, "starts in front and moves away"
    elif is_ray and f0 < -tol and g < 0:
        side, why = -1, "starts behind and moves away"
    else:
        side, why = 0, "crosses the plane"
    trace = {"f_origin": float(f0), "n_dot_direction": float(g), "case": why}
    return SideResult(method=M_LINEAR, trace=trace, side=side,
                      signed_distance=float(f0) / n_len,
                      effective_radius=0.0 if g == 0 else math.inf)


M_LINEAR = ("plane side of a ray/line: f(origin) and n.direction "
            "(Dunn & Parberry A.9 ray-plane; a line is off the plane only when parallel)")


def side_plane_ray(plane, r):
    """A ray ``o + t v``, ``t >= 0``: ``f(o + t v) = f(o) + t (n.v)``; wholly in front when
    ``f(o) > 0`` and ``n.v >= 0`` (the ray moves away from or along the plane), behind
    likewise; otherwise it reaches the plane: ``0``."""
    return _linear(plane, r, True)


def side_plane_line(plane, l):
    """A line is ``0`` unless parallel to the plane (``n.v = 0``) and off it."""
    return _linear(plane, l, False)


def _centre_radius(plane, obj, centre, signed_raw, r_eff_unit, method, extra=None, side=None):
    """Side from a centre value ``f(c)`` and an effective radius along the unit normal
    (``side`` given: decided exactly by the caller)."""
    n_len = norm(plane.normal)
    if isinstance(signed_raw, Fraction):
        # on the exact value: f = 2.5e-324 (a normal 8.3e-258 long, a centre 3e-67 out) is
        # 0.0 as a float, and the Fraction path called the centre on the plane (side 0)
        s = float(signed_raw / Fraction(n_len))
    else:
        s = float(signed_raw) / n_len
    tol = _tol(plane, obj, centre, float(r_eff_unit)) / n_len
    if side is None:
        side = _decide(s - r_eff_unit, s + r_eff_unit, tol)
    trace = {"kind": obj.kind, "signed_distance": s, "effective_radius": float(r_eff_unit),
             "touch_tolerance": float(tol)}
    trace.update(extra or {})
    return SideResult(method=method, trace=trace, side=side, signed_distance=s,
                      effective_radius=float(r_eff_unit))


def _outside_ball(f, radius, nn, tol=0) -> int:
    """``1`` if ``f > r |n| + tol``, ``-1`` if ``f < -r |n| - tol``, else ``0``; for exact
    input (``tol == 0``) by the squares ``f^2 > r^2 n.n``, with no square root."""
    if tol == 0:
        return _sign(f) if f * f > radius * radius * nn else 0
    reach = float(radius) * math.sqrt(float(nn))
    return _decide(float(f) - reach, float(f) + reach, tol)


M_A15 = "sphere-plane classification (Dunn & Parberry, 3D Math Primer, A.15, Listing A.3)"
M_BORESKOV_SPHERE = ("bounding sphere classify: IN_FRONT / IN_BACK / IN_BOTH "
                     "(Boreskov, bounding volumes, BoundingSphere::classify)")


def side_plane_sphere(plane, s):
    """Primer A.15: ``d = n.c - planeD`` (unit normal); ``d > r`` front, ``d < -r`` back,
    else straddling (Listing A.3 has ``>=``: touching counts as straddling here)."""
    f = _f(plane, s.center)
    tol = _tol(plane, s, s.center, float(s.radius))
    side = _outside_ball(f, s.radius, dot(plane.normal, plane.normal), tol)
    return _centre_radius(plane, s, s.center, f, float(s.radius), M_A15,
                          {"d": float(f) / norm(plane.normal), "r": float(s.radius)}, side)


def side_plane_sphere_boreskov(plane, s):
    """Boreskov: ``v = plane.f(center)``; ``v > r`` or ``v < -r``: the side of the centre
    (``plane.classify(center)``), else ``IN_BOTH``."""
    f = _f(plane, s.center)
    tol = _tol(plane, s, s.center, float(s.radius))
    side = _outside_ball(f, s.radius, dot(plane.normal, plane.normal), tol)
    label = {1: "IN_FRONT", -1: "IN_BACK", 0: "IN_BOTH"}[side]
    return _centre_radius(plane, s, s.center, f, float(s.radius), M_BORESKOV_SPHERE,
                          {"v": float(f) / norm(plane.normal), "classify": label}, side)


M_A10 = "AABB-plane classification by minD/maxD (Dunn & Parberry, 3D Math Primer, A.10, Listing A.2)"
M_BORESKOV_AABB = ("AABB-plane classification at the one corner picked by the signs of the "
                   "normal (Boreskov, bounding volumes, Fig. 3.9)")


def _aabb_radius(plane, box):
    e = [(hi - lo) / 2 for lo, hi in zip(box.min, box.max)]
    c = [(lo + hi) / 2 for lo, hi in zip(box.min, box.max)]
    return c, sum(abs(n) * ei for n, ei in zip(plane.normal, e))


def side_plane_aabb(plane, box):
    """Listing A.2: per axis, ``n_i > 0`` puts ``min_i`` in ``minD`` and ``max_i`` in
    ``maxD`` (the reverse otherwise); ``minD > d`` front, ``maxD < d`` back, else
    straddling (the listing's ``>=``/``<=`` made strict: touching is ``0``)."""
    n = plane.normal
    minD = maxD = 0 * n[0]
    for i in range(3):
        if n[i] > 0:
            minD += n[i] * box.min[i]
            maxD += n[i] * box.max[i]
        else:
            minD += n[i] * box.max[i]
            maxD += n[i] * box.min[i]
    c, r_raw = _aabb_radius(plane, box)
    n_len = norm(n)
    tol = _tol(plane, box, c, float(r_raw) / n_len)
    side = 1 if minD - plane.d > tol else (-1 if maxD - plane.d < -tol else 0)
    return _centre_radius(plane, box, c, _f(plane, c), float(r_raw) / n_len, M_A10,
                          {"minD": float(minD), "maxD": float(maxD), "d": float(plane.d)}, side)


def side_plane_aabb_boreskov(plane, box):
    """Boreskov Fig. 3.9: instead of ``f`` at all eight vertices, the corner with the least
    ``f`` is indexed by the signs of the normal (bit ``i`` set: ``max`` on axis ``i``, taken
    where ``n_i < 0``). ``f > 0`` there: the whole box is in front. Otherwise the opposite
    corner (index ``7 - i``, the greatest ``f``) decides ``IN_BACK`` (``f < 0``) or
    ``IN_BOTH``."""
    n = plane.normal
    index = sum(1 << i for i in range(3) if n[i] < 0)
    corner = tuple(box.max[i] if index >> i & 1 else box.min[i] for i in range(3))
    opposite = tuple(box.min[i] if index >> i & 1 else box.max[i] for i in range(3))
    f_near, f_far = _f(plane, corner), _f(plane, opposite)
    c, r_raw = _aabb_radius(plane, box)
    n_len = norm(n)
    tol = _tol(plane, box, c, float(r_raw) / n_len)
    if f_near > tol:
        side, label = 1, "IN_FRONT"
    elif f_far < -tol:
        side, label = -1, "IN_BACK"
    else:
        side, label = 0, "IN_BOTH"
    extra = {"corner_index": index, "corner": [float(x) for x in corner],
             "f_corner": float(f_near), "opposite_index": 7 - index,
             "opposite_corner": [float(x) for x in opposite], "f_opposite": float(f_far),
             "classify": label}
    return _centre_radius(plane, box, c, _f(plane, c), float(r_raw) / n_len, M_BORESKOV_AABB,
                          extra, side)


M_RADIUS = "plane side by signed centre distance against the effective radius (A.10, A.15 generalised)"


def side_plane_obb(plane, box):
    """``r_eff = sum e_i |n . a_i|`` (the box's half-width along ``n``, Eberly's projection
    radius); compared with ``f(c)`` in the raw normal's units, exactly for exact input."""
    n = plane.normal
    r_raw = sum(abs(dot(n, a)) * e for a, e in zip(box.axes, box.extents))
    f = _f(plane, box.center)
    tol = _tol(plane, box, box.center, float(r_raw) / norm(n))
    side = _decide(f - r_raw, f + r_raw, tol)
    return _centre_radius(plane, box, box.center, f, float(r_raw) / norm(n), M_RADIUS,
                          {"r_eff_raw": float(r_raw)}, side)


def side_plane_capsule(plane, cap):
    """The segment's end values ``f(p0), f(p1)`` against ``r |n|`` (squared, exact): in front
    when both ends are more than ``r`` in front."""
    f0, f1 = _f(plane, cap.p0), _f(plane, cap.p1)
    nn = dot(plane.normal, plane.normal)
    n_len = norm(plane.normal)
    r_eff = abs(float(f1 - f0)) / 2 / n_len + float(cap.radius)
    mid = [(float(a) + float(b)) / 2 for a, b in zip(cap.p0, cap.p1)]
    tol = _tol(plane, cap, mid, r_eff)
    s0, s1 = _outside_ball(f0, cap.radius, nn, tol), _outside_ball(f1, cap.radius, nn, tol)
    side = s0 if s0 == s1 else 0
    return _centre_radius(plane, cap, mid, (f0 + f1) / 2, r_eff, M_RADIUS,
                          {"f_p0": float(f0), "f_p1": float(f1)}, side)


def side_plane_cylinder(plane, cyl):
    """``r_eff = (h/2) |u . w| + r |u x w|`` (unit normal ``u``, unit axis ``w``; GTCG
    §11.12.9, projection of a cylinder on a line), against ``f(c)/|n|``."""
    u = unit_np(plane.normal)
    w = cyl.unit_axis
    uw = float(u @ w)
    r_eff = float(cyl.height) / 2 * abs(uw) + float(cyl.radius) * float(np.linalg.norm(np.cross(u, w)))
    f = _f(plane, cyl.center)
    return _centre_radius(plane, cyl, cyl.center, f, r_eff, M_RADIUS, {"u_dot_w": uw})


M_PLANES = "plane-plane side: B relative to A, 0 unless parallel and apart"


def side_plane_plane(a, b):
    """B relative to A: parallel (see :func:`planes_parallel`) planes take the sign of
    ``f_A`` at B's point nearest the origin, ``d_B n_B / |n_B|^2``; crossing planes ``0``."""
    n_len = norm(a.normal)
    if planes_parallel(a, b):
        f = _f(a, b.origin)
        tol = _tol(a, b, b.origin, 0.0)
        side = _decide(f, f, tol)
        return SideResult(method=M_PLANES, trace={"case": "parallel" if side else "coincident",
                                                  "f_A(origin_B)": float(f)},
                          side=side, signed_distance=float(f) / n_len, effective_radius=0.0)
    return SideResult(method=M_PLANES, trace={"case": "crossing"}, side=0,
                      signed_distance=None, effective_radius=math.inf)


register("side", "plane", "point")(side_plane_point)
register("side", "plane", "segment")(side_plane_segment)
register("side", "plane", "ray")(side_plane_ray)
register("side", "plane", "line")(side_plane_line)
register("side", "plane", "triangle")(side_plane_triangle)
register("side", "plane", "sphere", name="primer_a15", priority=1)(side_plane_sphere)
register("side", "plane", "sphere", name="boreskov_classify")(side_plane_sphere_boreskov)
register("side", "plane", "aabb", name="primer_a10", priority=1)(side_plane_aabb)
register("side", "plane", "aabb", name="boreskov_corner")(side_plane_aabb_boreskov)
register("side", "plane", "obb")(side_plane_obb)
register("side", "plane", "capsule")(side_plane_capsule)
register("side", "plane", "cylinder")(side_plane_cylinder)
register("side", "plane", "plane")(side_plane_plane)
