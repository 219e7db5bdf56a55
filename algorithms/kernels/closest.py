"""Closest points: from a point to a plane, triangle, sphere, AABB, OBB and cylinder.

Every function takes the query point ``q`` (a 3-tuple) and a primitive and returns the point of
the primitive nearest ``q`` (solids are filled: a point inside a solid is its own closest point).
The functions of the book's sections keep its names:

* :func:`closest_point_line2d` -- Dunn & Parberry, 3D Math Primer, App. A.1 (2D implicit line);
* :func:`closest_point_plane` -- App. A.3;
* :func:`closest_point_sphere`, :func:`closest_point_on_sphere_surface` -- App. A.4 (the centre
  case is decided below);
* :func:`closest_point_aabb` -- App. A.5, Listing A.1 ("push q into B along each axis");
* :func:`closest_point_obb` -- A.5 in the box frame (Eberly & Schneider, GTCG §10.4.2);
* :func:`closest_point_triangle` -- Ericson, Real-Time Collision Detection §5.1.5 (Voronoi
  regions of the vertices, edges and face; the same partition as Eberly's regions 0-6 of
  GTCG §10.3.2), with a fallback for collinear triangles;
* :func:`closest_point_cylinder` -- solid cylinder: radial clamp to the disk, axial clamp to the
  height (the two constraints act on orthogonal components, so clamping each is exact).

The plane, AABB, triangle and segment functions use only ``+ - * /`` through
:mod:`algorithms.core.vec`, so they run unchanged on :class:`fractions.Fraction` coordinates (the
tests use this as an exact oracle). The sphere, OBB-with-float-axes and cylinder functions take a
square root or rotate and return floats.

Also here, because several pair modules share them: :func:`closest_point_segment` (App. A.2,
clamped), the linear-component helpers :func:`linear_parts` and :func:`point_at`, and
:func:`linear_segment_closest` (a linear component against a segment by the candidates of the
convex quadratic, used for the edge terms of linear-vs-triangle/box distances), and the result
builders of the ``linear_<shape>`` pair modules: :func:`solid_hits`, :func:`surface_hits`,
:func:`touching_distance`, :func:`golden_section_distance`, :func:`linear_features_distance`,
:func:`rescue_hit` (a cast's rounded rejection of a contact the exact distance candidates find)
and :func:`robust_distance` (no distance reads 0 by underflow).
"""

from __future__ import annotations

import math

from algorithms.core import vec as V
from algorithms.core.minimize import golden_section
from algorithms.core.tolerance import SLIVER_SIN2
from algorithms.core.tolerance import unit as tolerance_unit
from algorithms.primitives import AABB, OBB, Cylinder, Line, Plane, Ray, Segment, Sphere, Triangle
from algorithms.results import Hit, HitResult, make, make_with

INF = math.inf

# ----------------------------------------------------------------------------- A.1, A.3


def closest_point_line2d(q, n, d):
    """Closest point on the 2D implicit line ``p . n = d`` (Dunn & Parberry, App. A.1).

    ``q' = q + (d - q . n) n / (n . n)`` (the book's ``n`` is unit; dividing by ``n . n``
    allows any nonzero ``n``). Returns ``(q', signed)`` with ``signed = (q . n - d) / |n|``,
    the signed distance of ``q`` (positive on the side ``n`` points to).

    >>> closest_point_line2d((3.0, 5.0), (0.0, 2.0), 2.0)
    ((3.0, 1.0), 4.0)
    """
    nn = n[0] * n[0] + n[1] * n[1]
    if nn == 0:
        raise ValueError("n: the normal of a 2D implicit line must be nonzero")
    k = (d - (q[0] * n[0] + q[1] * n[1])) / nn
    qp = (q[0] + k * n[0], q[1] + k * n[1])
    signed = -k * math.sqrt(float(nn))
    return qp, signed


def plane_nd(plane: Plane):
    """``(n, d)`` of the plane, divided by ``max |n_i|`` when ``n . n`` would underflow or
    overflow (same plane, see :func:`rescaled`)."""
    n, m = rescaled(plane.normal)
    return n, (plane.d if m == 1 else plane.d / m)


def closest_point_plane(q, plane: Plane):
    """Closest point on the plane ``n . x = d`` (Dunn & Parberry, App. A.3).

    ``q' = q + (d - q . n) n / (n . n)``: the A.1 formula in 3D. Exact on Fractions.
    """
    n, d = plane_nd(plane)
    k = (d - V.dot(q, n)) / V.dot(n, n)
    return V.add(q, V.scale(k, n))


def signed_distance_plane(q, plane: Plane) -> float:
    """``(n . q - d) / |n|``: positive in front (Primer §9.5.4, as used by A.3)."""
    n, d = plane_nd(plane)
    return float(V.dot(n, q) - d) / V.norm(n)


# ----------------------------------------------------------------------------- A.4


def closest_point_sphere(q, sphere: Sphere):
    """Closest point of the solid ball to ``q`` (Dunn & Parberry, App. A.4).

    Outside: ``q' = q + (|d| - r) / |d| * d`` with ``d = c - q`` (the book's formula). Inside or
    on the sphere (``|d| <= r``) the ball is solid, so ``q`` is its own closest point: this is
    how we decide the book's open question ("should q' = q, or project to the surface?") for
    the ``sphere`` primitive, which the scene format defines as the filled ball. The surface
    projection is :func:`closest_point_on_sphere_surface`.
    """
    qf = V.to_float(q)
    c = V.to_float(sphere.center)
    d = V.sub(c, qf)
    dd = V.sqr_norm(d)
    r = float(sphere.radius)
    if dd <= r * r:
        return qf
    ld = math.sqrt(dd)
    # q + (|d| - r)/|d| d == c - r d/|d|: the second form is exactly at distance r from c
    return V.sub(c, V.scale(r / ld, d))


def closest_point_on_sphere_surface(q, sphere: Sphere):
    """Projection of ``q`` onto the sphere's surface (App. A.4, hollow sphere).

    For ``q`` inside, the point is pushed outward along ``q - c``. The book leaves the centre
    case ``q == c`` open ("an arbitrary decision"): every surface point is then nearest; we
    return ``c + r (1, 0, 0)``, deterministic and documented.
    """
    qf = V.to_float(q)
    c = V.to_float(sphere.center)
    v = V.sub(qf, c)
    lv = V.norm(v)
    r = float(sphere.radius)
    if lv == 0:
        return (c[0] + r, c[1], c[2])
    return V.add(c, V.scale(r / lv, v))


# ----------------------------------------------------------------------------- A.5, OBB


def closest_point_aabb(q, box: AABB):
    """Closest point of the solid AABB to ``q``: clamp each coordinate (App. A.5, Listing A.1).

    A point inside the box is returned unchanged. Exact on Fractions.
    """
    out = []
    for x, lo, hi in zip(q, box.min, box.max):
        if x < lo:
            x = lo
        elif x > hi:
            x = hi
        out.append(x)
    return tuple(out)


def obb_to_local(p, obb: OBB):
    """Box-frame coordinates ``u_i = axes[i] . (p - center)``."""
    v = V.sub(p, obb.center)
    return tuple(V.dot(a, v) for a in obb.axes)


def obb_to_world(u, obb: OBB):
    """World point ``center + sum(u_i axes[i])``."""
    out = obb.center
    for ui, a in zip(u, obb.axes):
        out = V.add(out, V.scale(ui, a))
    return out


def obb_vector_to_local(v, obb: OBB):
    return tuple(V.dot(a, v) for a in obb.axes)


def obb_vector_to_world(u, obb: OBB):
    out = V.scale(0 * u[0], obb.axes[0])
    for ui, a in zip(u, obb.axes):
        out = V.add(out, V.scale(ui, a))
    return out


def closest_point_obb(q, obb: OBB):
    """Closest point of the solid OBB: A.5's clamp in the box frame (GTCG §10.4.2).

    ``u_i = a_i . (q - c)`` clamped to ``[-e_i, e_i]``, then ``c + sum(u_i a_i)``. A point
    inside maps back to itself up to rounding (and exactly on Fractions with rational axes);
    when no coordinate needed clamping, ``q`` itself is returned.
    """
    u = obb_to_local(q, obb)
    clamped = []
    moved = False
    for ui, e in zip(u, obb.extents):
        if ui < -e:
            ui, moved = -e, True
        elif ui > e:
            ui, moved = e, True
        clamped.append(ui)
    if not moved:
        return tuple(q)
    return obb_to_world(tuple(clamped), obb)


# ----------------------------------------------------------------------------- segment (A.2)


def closest_point_segment(q, p0, p1):
    """Closest point of segment ``p0 p1`` to ``q`` and its parameter (App. A.2, clamped).

    ``t = (q - p0) . (p1 - p0) / |p1 - p0|^2`` clamped to ``[0, 1]``; the division is deferred
    until ``t`` is known to be inside (GTCG style). A zero-length segment gives ``t = 0``.
    Returns ``(point, t)``. Exact on Fractions.
    """
    if len(p0) == 3 and len(p1) == 3 and len(q) == 3:
        # (the vec calls below written out: the same operations in the same order)
        a0, a1, a2 = p0
        b0, b1, b2 = p1
        e0, e1, e2 = b0 - a0, b1 - a1, b2 - a2
        num = (q[0] - a0) * e0 + (q[1] - a1) * e1 + (q[2] - a2) * e2
        den = e0 * e0 + e1 * e1 + e2 * e2
        if num <= 0 or den == 0:
            return tuple(p0), 0 * num
        if num >= den:
            return tuple(p1), 1 + 0 * num
        t = num / den
        return (a0 + t * (b0 - a0), a1 + t * (b1 - a1), a2 + t * (b2 - a2)), t
    e = V.sub(p1, p0)
    num = V.dot(V.sub(q, p0), e)
    den = V.dot(e, e)
    if num <= 0 or den == 0:
        return tuple(p0), 0 * num
    if num >= den:
        return tuple(p1), 1 + 0 * num
    t = num / den
    return V.lerp(p0, p1, t), t


# ----------------------------------------------------------------------------- triangle


def closest_point_triangle(q, tri: Triangle):
    """Closest point of the filled triangle to ``q`` by its Voronoi regions.

    Ericson, RTCD §5.1.5 ``ClosestPtPointTriangle`` (the vertex, edge and face regions; the
    same partition of the triangle's plane as Eberly & Schneider's regions 0-6, GTCG §10.3.2).
    Returns ``(point, (b0, b1, b2), region)`` with ``point = b0 v0 + b1 v1 + b2 v2`` and
    ``region`` one of ``"vertex 0"``, ``"edge 01"``, ``"face"``... A collinear (degenerate)
    triangle, whose face region is empty (``va + vb + vc == 0``), falls back to the nearest
    of its three edges. Exact on Fractions.
    """
    a, b, c = tri.vertices
    ab, ac, ap = V.sub(b, a), V.sub(c, a), V.sub(q, a)
    zero = 0 * ab[0]
    one = zero + 1
    if type(zero) is float:
        cr = V.cross(ab, ac)
        bc = V.sub(c, b)
        longest = max(V.dot(ab, ab), V.dot(ac, ac), V.dot(bc, bc))
        if V.dot(cr, cr) < SLIVER_SIN2 * longest * longest:
            return _closest_sliver(q, tri, zero, one)
    d1, d2 = V.dot(ab, ap), V.dot(ac, ap)
    if d1 <= 0 and d2 <= 0:
        return tuple(a), (one, zero, zero), "vertex 0"
    bp = V.sub(q, b)
    d3, d4 = V.dot(ab, bp), V.dot(ac, bp)
    if d3 >= 0 and d4 <= d3:
        return tuple(b), (zero, one, zero), "vertex 1"
    vc = d1 * d4 - d3 * d2
    if vc <= 0 and d1 >= 0 and d3 <= 0 and d1 - d3 > 0:
        v = d1 / (d1 - d3)
        return V.add(a, V.scale(v, ab)), (one - v, v, zero), "edge 01"
    cp = V.sub(q, c)
    d5, d6 = V.dot(ab, cp), V.dot(ac, cp)
    if d6 >= 0 and d5 <= d6:
        return tuple(c), (zero, zero, one), "vertex 2"
    vb = d5 * d2 - d1 * d6
    if vb <= 0 and d2 >= 0 and d6 <= 0 and d2 - d6 > 0:
        w = d2 / (d2 - d6)
        return V.add(a, V.scale(w, ac)), (one - w, zero, w), "edge 02"
    va = d3 * d6 - d5 * d4
    if va <= 0 and (d4 - d3) >= 0 and (d5 - d6) >= 0 and (d4 - d3) + (d5 - d6) > 0:
        w = (d4 - d3) / ((d4 - d3) + (d5 - d6))
        return V.add(b, V.scale(w, V.sub(c, b))), (zero, one - w, w), "edge 12"
    denom = va + vb + vc
    if denom > 0:
        v, w = vb / denom, vc / denom
        return V.add(a, V.add(V.scale(v, ab), V.scale(w, ac))), (one - v - w, v, w), "face"
    # collinear triangle (or rounding on a sliver): the nearest of the three edges
    _, p, bary, name = _nearest_edge(q, tri, zero, one)
    return p, bary, name


def _closest_sliver(q, tri: Triangle, zero, one):
    """:func:`closest_point_triangle` of a float sliver (``|ab x ac|^2`` under
    :data:`~algorithms.core.tolerance.SLIVER_SIN2` times the longest edge's length to the
    fourth: about the sine of its smallest angle, squared; Ericson's region tests err by
    ~eps / sin^2 there, and a point 7.8e-11 from a sliver 1e-7 thin got an edge's point
    3.2e-10 away): the nearest of the three edges (clamped projections, well conditioned at any shape) and of ``q``'s
    projection on the plane when it lies in the triangle, by their distances. The plane's
    normal is the correctly rounded ``ab x ac`` (its tiny components keep their direction)
    and the inside test its three sub-triangle areas: they misjudge only a projection within
    about ``eps`` times the triangle's size of an edge, where that edge's point is as near.
    An exactly collinear triangle has no face: :func:`_nearest_edge`'s answer."""
    verts = tri.vertices
    a, b, c = verts
    ab, ac = V.sub(b, a), V.sub(c, a)
    n = (V.acc_dot((ab[1], -ab[2]), (ac[2], ac[1])), V.acc_dot((ab[2], -ab[0]), (ac[0], ac[2])),
         V.acc_dot((ab[0], -ab[1]), (ac[1], ac[0])))
    nn = V.dot(n, n)
    if not nn > 0:
        _, p, bary, name = _nearest_edge(q, tri, zero, one)
        return p, bary, name
    best = _nearest_edge(q, tri, zero, one, degenerate=False)
    h = V.acc_dot(n, V.sub(q, a)) / nn
    p = V.sub(q, V.scale(h, n))  # q's projection on the plane
    # barycentrics by the sub-triangle areas (b - p) x (c - p) . n / |n|^2, and so on
    areas = []
    for u, w in ((b, c), (c, a), (a, b)):
        up, wp = V.sub(u, p), V.sub(w, p)
        areas.append(V.dot(V.cross(up, wp), n) / nn)
    # (a total of 0: the areas underflowed, for a triangle 1e-60 the size of its distance to
    # q; the edges decide)
    total = areas[0] + areas[1] + areas[2]
    if min(areas) >= 0 and total > 0:
        dd = V.sqr_dist(p, q)
        if dd < best[0]:
            # (the areas sum to 1 in exact arithmetic, here to about eps / sin: normalised)
            return p, (areas[0] / total, areas[1] / total, areas[2] / total), "face"
    return best[1], best[2], best[3]


def _nearest_edge(q, tri: Triangle, zero, one, degenerate: bool = True):
    """``(squared distance, point, barycentrics, region)`` of the nearest of the three edges:
    ``"edge 01 (degenerate triangle)"``... for a collinear triangle, else the region of a
    proper one (``"vertex 1"`` at an edge's end, ``"edge 01"`` between)."""
    best = None
    for i, j in ((0, 1), (0, 2), (1, 2)):
        p, t = closest_point_segment(q, tri.vertices[i], tri.vertices[j])
        dd = V.sqr_dist(p, q)
        if best is None or dd < best[0]:
            bary = [zero, zero, zero]
            bary[i], bary[j] = one - t, t
            if degenerate:
                name = f"edge {i}{j} (degenerate triangle)"
            else:
                name = f"vertex {i}" if t == 0 else (f"vertex {j}" if t == 1 else f"edge {i}{j}")
            best = (dd, p, tuple(bary), name)
    return best


# ----------------------------------------------------------------------------- cylinder


#: where :func:`cylinder_frame` keeps its answer on the (frozen) instance: not a field, so
#: equality and hashing are unchanged
_FRAME_KEY = "_cylinder_frame"


def cylinder_frame(cyl: Cylinder):
    """``(c, w, h, r)``: centre, unit axis, half height and radius, as floats. Computed once
    per cylinder (a scene's cylinder meets every other object: ``explorer eval`` asked it
    17,748 times for 120 objects)."""
    frame = cyl.__dict__.get(_FRAME_KEY)
    if frame is None:
        c = V.to_float(cyl.center)
        a, _ = rescaled(V.to_float(cyl.axis))  # an axis like (0, 0, 1e-188) squares to 0
        la = V.norm(a)
        w = V.scale(1.0 / la, a)
        frame = (c, w, float(cyl.height) / 2, float(cyl.radius))
        object.__setattr__(cyl, _FRAME_KEY, frame)
    return frame


def closest_point_cylinder(q, cyl: Cylinder):
    """Closest point of the solid finite cylinder to ``q``.

    Split ``q - c`` into the axial coordinate ``z = w . (q - c)`` and the radial vector
    ``rho = (q - c) - z w``; clamp ``z`` to ``[-h, h]`` and shorten ``rho`` to length ``r`` when
    it is longer. The set is the product of a disk and an interval in orthogonal coordinates,
    so ``|q - x|^2 = |rho - rho'|^2 + (z - z')^2`` splits and each clamp is the exact minimiser.
    A point inside is returned unchanged. Returns floats.
    """
    frame = cyl.__dict__.get(_FRAME_KEY)
    c, w, h, r = frame if frame is not None else cylinder_frame(cyl)
    if len(q) == 3:  # the vec calls below written out: the same operations, the same bits
        qx, qy, qz = float(q[0]), float(q[1]), float(q[2])
        cx, cy, cz = c
        wx, wy, wz = w
        vx, vy, vz = qx - cx, qy - cy, qz - cz
        z = wx * vx + wy * vy + wz * vz
        rx, ry, rz = vx - z * wx, vy - z * wy, vz - z * wz
        lr = math.sqrt(rx * rx + ry * ry + rz * rz)
        inside = True
        if z > h:
            z, inside = h, False
        elif z < -h:
            z, inside = -h, False
        if lr > r:
            k = r / lr
            rx, ry, rz, inside = k * rx, k * ry, k * rz, False
        if inside:
            return (qx, qy, qz)
        return (cx + (z * wx + rx), cy + (z * wy + ry), cz + (z * wz + rz))
    qf = V.to_float(q)
    v = V.sub(qf, c)
    z = V.dot(w, v)
    rho = V.sub(v, V.scale(z, w))
    lr = V.norm(rho)
    inside = True
    if z > h:
        z, inside = h, False
    elif z < -h:
        z, inside = -h, False
    if lr > r:
        rho, inside = V.scale(r / lr, rho), False
    if inside:
        return qf
    return V.add(c, V.add(V.scale(z, w), rho))


def closest_point(q, shape):
    """Dispatch on ``shape.kind``: plane, triangle, sphere, aabb, obb or cylinder."""
    kind = shape.kind
    if kind == "plane":
        return closest_point_plane(q, shape)
    if kind == "triangle":
        return closest_point_triangle(q, shape)[0]
    if kind == "sphere":
        return closest_point_sphere(q, shape)
    if kind == "aabb":
        return closest_point_aabb(q, shape)
    if kind == "obb":
        return closest_point_obb(q, shape)
    if kind == "cylinder":
        return closest_point_cylinder(q, shape)
    raise ValueError(f"closest_point: unsupported shape kind {kind!r}")


# ----------------------------------------------------------------------------- linear helpers


def linear_parts(a):
    """``(origin, direction, lo, hi)`` of a segment, ray or line: ``A(t) = origin + t direction``
    for ``t`` in ``[lo, hi]`` (segment ``[0, 1]`` with ``direction = p1 - p0``, ray
    ``[0, inf)``, line ``(-inf, inf)``)."""
    if isinstance(a, Segment):
        return a.p0, a.direction, 0, 1
    if isinstance(a, Ray):
        return a.origin, a.direction, 0, INF
    if isinstance(a, Line):
        return a.origin, a.direction, -INF, INF
    raise TypeError(f"not a linear component: {a.kind}")


def point_at(o, d, t):
    """``o + t d``."""
    if len(o) == 3:
        return (o[0] + t * d[0], o[1] + t * d[1], o[2] + t * d[2])
    return tuple(oi + t * di for oi, di in zip(o, d))


def clamp_t(t, lo, hi):
    if t < lo:
        return lo
    if t > hi:
        return hi
    return t


def rescaled(v):
    """``(v / m, m)`` with ``m = max |v_i|`` when ``v . v`` would underflow or overflow in
    floating point (a direction like ``(1e-199, 0, 0)`` is valid but squares to 0), else
    ``(v, 1)``. Callers work with ``v / m`` and divide the parameters they find by ``m``."""
    if len(v) == 3:  # the common case first: floats whose squares are safe
        x, y, z = v
        if isinstance(x, float) or isinstance(y, float) or isinstance(z, float):
            vv = x * x + y * y + z * z
            if 1e-150 < vv < 1e150:
                return (v if type(v) is tuple else tuple(v)), 1
    if any(isinstance(c, float) for c in v):
        vv = V.dot(v, v)
        if vv != 0 and not (1e-150 < vv < 1e150) or vv == 0 and not is_zero_vector(v):
            m = max(abs(c) for c in v)
            return tuple(c / m for c in v), m
    return tuple(v), 1


def closest_t_to_point(o, d, lo, hi, q):
    """Parameter of the point of ``o + t d``, ``t`` in ``[lo, hi]``, nearest ``q`` (App. A.2:
    ``t = d . (q - o) / (d . d)``, clamped). A zero direction gives ``lo`` clamped to 0."""
    d, m = rescaled(d)
    if len(d) == 3 and len(q) == 3 and len(o) == 3:  # (the vec calls written out)
        d0, d1, d2 = d
        dd = d0 * d0 + d1 * d1 + d2 * d2
        if dd == 0:
            return clamp_t(0 * dd, lo, hi)
        t = (d0 * (q[0] - o[0]) + d1 * (q[1] - o[1]) + d2 * (q[2] - o[2])) / dd / m
        if t in (INF, -INF):
            t = math.copysign(1.7976931348623157e308, t)
        return clamp_t(t, lo, hi)
    dd = V.dot(d, d)
    if dd == 0:
        return clamp_t(0 * dd, lo, hi)
    t = V.dot(d, V.sub(q, o)) / dd / m
    if t in (INF, -INF):  # the parameter overflows (a subnormal direction): keep it finite
        t = math.copysign(1.7976931348623157e308, t)
    return clamp_t(t, lo, hi)


def _polished(o, d, lo, hi, s0, s1, s):
    """Two more candidates ``(t, s)`` of :func:`linear_segment_closest` from the critical
    point's ``s`` (clamped to ``[0, 1]``): ``t`` the projection of the segment's point at ``s``
    on the component, then ``s`` the projection of the component's point at that ``t`` on the
    segment. Each is a clamped 1D projection (App. A.2), accurate however parallel the two
    are; the rounding of ``det`` is then left only along the valley of ``Q``, where ``Q`` is
    flat. Exact on Fractions (and then no better than the critical point: the least keeps
    the first of equals)."""
    if not s >= 0:  # (also NaN; s - s: a zero of s's type, never -0.0)
        s = s - s if s == s else 0.0
    elif s > 1:
        s = 1 + 0 * s
    t = closest_t_to_point(o, d, lo, hi, V.lerp(s0, s1, s))
    _, s2 = closest_point_segment(point_at(o, d, t), s0, s1)
    return (t, s), (t, s2)


def linear_segment_closest(o, d, lo, hi, s0, s1):
    """Closest points of the linear component ``o + t d`` (``t`` in ``[lo, hi]``) and the segment
    ``s0 + s (s1 - s0)`` (``s`` in ``[0, 1]``).

    ``Q(t, s) = |o + t d - s0 - s e|^2`` is a convex quadratic over a (possibly unbounded)
    rectangle, so its minimum is the interior critical point when that lies in the domain, or
    else the minimum over the rectangle's edges, each a clamped 1D projection (App. A.2). We
    evaluate every candidate (critical point when ``det = ac - b^2 > 0``; ``s = 0``, ``s = 1``;
    ``t = lo``, ``t = hi`` when finite) by its own squared distance and keep the least. A
    nearly singular ``det`` (nearly parallel directions) rounds the critical point badly
    across the valley of ``Q``, where ``Q`` is steep, and the ends of the rectangle can be far
    from the minimum (a sliver triangle's edge 1.41e-6 from a segment gave 2e-6): so the
    critical point is also polished by the two well-conditioned 1D projections
    (:func:`_polished`), which can only add candidates. (The
    robust st-plane version of GTCG §10.8 belongs to the linear-linear module; this one is a
    private helper for the edge terms.) Returns ``(sqr_distance, t, s, point_on_linear,
    point_on_segment)``.
    """
    if len(o) == 3 and len(d) == 3 and len(s0) == 3:
        return _linear_segment_closest3(o, d, lo, hi, s0, s1)
    e = V.sub(s1, s0)
    r = V.sub(o, s0)
    a, b, c = V.dot(d, d), V.dot(d, e), V.dot(e, e)
    dd, ee = V.dot(d, r), V.dot(e, r)
    cands = []
    det = a * c - b * b
    if det > 0:
        # grad: a t - b s + dd = 0 ; b t - c s + ee = 0
        t = (b * ee - c * dd) / det
        s = (a * ee - b * dd) / det
        if lo <= t <= hi and 0 <= s <= 1:
            cands.append((t, s))
        cands.extend(_polished(o, d, lo, hi, s0, s1, s))
    for s_fixed, q in ((0 * a, s0), (1 + 0 * a, s1)):
        cands.append((closest_t_to_point(o, d, lo, hi, q), s_fixed))
    for t_fixed in (lo, hi):
        if t_fixed not in (INF, -INF):
            p = point_at(o, d, t_fixed)
            _, s = closest_point_segment(p, s0, s1)
            cands.append((t_fixed, s))
    best = None
    for t, s in cands:
        pa = point_at(o, d, t)
        pb = V.lerp(s0, s1, s)
        q = V.sqr_dist(pa, pb)
        if best is None or q < best[0]:
            best = (q, t, s, pa, pb)
    return best


def _linear_segment_closest3(o, d, lo, hi, s0, s1):
    """:func:`linear_segment_closest` for 3-vectors, its :mod:`~algorithms.core.vec` calls
    written out: the same operations in the same order (the same bits, floats or Fractions),
    and the rescaled direction of :func:`closest_t_to_point` taken once for both ends (the
    edge terms of a box run it 12 times per pair)."""
    ox, oy, oz = o
    dx, dy, dz = d
    ax, ay, az = s0
    bx, by, bz = s1
    ex, ey, ez = bx - ax, by - ay, bz - az
    rx, ry, rz = ox - ax, oy - ay, oz - az
    a = dx * dx + dy * dy + dz * dz
    b = dx * ex + dy * ey + dz * ez
    c = ex * ex + ey * ey + ez * ez
    dd = dx * rx + dy * ry + dz * rz
    ee = ex * rx + ey * ry + ez * rz
    cands = []
    det = a * c - b * b
    # (closest_t_to_point's rescaled direction, taken once for _polished and both ends)
    (ux, uy, uz), m = rescaled(d)
    uu = ux * ux + uy * uy + uz * uz
    if det > 0:
        # grad: a t - b s + dd = 0 ; b t - c s + ee = 0
        t = (b * ee - c * dd) / det
        s = (a * ee - b * dd) / det
        if lo <= t <= hi and 0 <= s <= 1:
            cands.append((t, s))
        # _polished(o, d, lo, hi, s0, s1, s) written out: the same operations
        if not s >= 0:  # (also NaN; s - s: a zero of s's type, never -0.0)
            s = s - s if s == s else 0.0
        elif s > 1:
            s = 1 + 0 * s
        qx, qy, qz = ax + s * ex, ay + s * ey, az + s * ez  # V.lerp(s0, s1, s)
        if uu == 0:
            t = clamp_t(0 * uu, lo, hi)
        else:
            t = (ux * (qx - ox) + uy * (qy - oy) + uz * (qz - oz)) / uu / m
            if t in (INF, -INF):
                t = math.copysign(1.7976931348623157e308, t)
            t = lo if t < lo else hi if t > hi else t
        # closest_point_segment(point_at(o, d, t), s0, s1)'s parameter
        num = (ox + t * dx - ax) * ex + (oy + t * dy - ay) * ey + (oz + t * dz - az) * ez
        if num <= 0 or c == 0:
            s2 = 0 * num
        elif num >= c:
            s2 = 1 + 0 * num
        else:
            s2 = num / c
        cands.append((t, s))
        cands.append((t, s2))
    # closest_t_to_point(o, d, lo, hi, q) for q = s0, s1
    for s_fixed, (qx, qy, qz) in ((0 * a, s0), (1 + 0 * a, s1)):
        if uu == 0:
            t = clamp_t(0 * uu, lo, hi)
        else:
            t = (ux * (qx - ox) + uy * (qy - oy) + uz * (qz - oz)) / uu / m
            if t in (INF, -INF):
                t = math.copysign(1.7976931348623157e308, t)
            t = lo if t < lo else hi if t > hi else t
        cands.append((t, s_fixed))
    for t_fixed in (lo, hi):
        if t_fixed not in (INF, -INF):
            p = (ox + t_fixed * dx, oy + t_fixed * dy, oz + t_fixed * dz)
            _, s = closest_point_segment(p, s0, s1)
            cands.append((t_fixed, s))
    best = None
    for t, s in cands:
        px, py, pz = ox + t * dx, oy + t * dy, oz + t * dz
        qx, qy, qz = ax + s * ex, ay + s * ey, az + s * ez
        wx, wy, wz = px - qx, py - qy, pz - qz
        q = wx * wx + wy * wy + wz * wz
        if best is None or q < best[0]:
            best = (q, t, s, (px, py, pz), (qx, qy, qz))
    return best


# ----------------------------------------------------------------------------- result builders
# Shared by the pair modules linear_<shape>.py: the hit list of a solid from its parameter
# interval, the hit list of a surface, the "touching" distance, and the generic convex
# minimisation of the distance along a linear component.


def is_zero_vector(v) -> bool:
    return all(c == 0 for c in v)


#: ``v / |v|`` as floats, or ``None`` for the zero vector: the package's one unit-vector helper
unit = tolerance_unit


def solid_hits(o, d, lo, hi, t_in, t_out, n_in, n_out, method, trace):
    """The :class:`HitResult` of a linear component against a solid.

    ``[t_in, t_out]`` is the parameter interval where the whole line ``o + t d`` lies in the
    solid (``t_in = None``: it never does); ``n_in``/``n_out`` the outward normals at the
    entry and exit. The interval is clipped to the domain ``[lo, hi]``: a component starting
    inside gets a hit of kind ``"inside"`` at ``lo`` and ``first_t = lo`` (0 for a segment or
    ray); a segment ending inside has no exit; ``t_in == t_out`` (tangent, grazing an edge,
    crossing a flat box) is one hit of kind ``"hit"``. ``first_t`` is the least touching
    parameter, ``None`` when the component misses (or, for a line, when it is unbounded below).
    ``trace`` may be a :class:`~algorithms.results.Deferred` (computed when read).
    """
    if (t_in is None or t_in > t_out or t_out < lo or t_in > hi or t_in == INF
            or t_out == -INF):
        return make(HitResult, method=method, trace=trace, intersects=False, first_t=None,
                    hits=())
    hits = []
    ta, tb = max(t_in, lo), min(t_out, hi)
    if ta == tb:  # one touching point (possibly after clipping to the domain)
        normal = n_in if t_in >= lo else (n_out if t_out <= hi else None)
        hits.append(make(Hit, t=float(ta) + 0.0, point=_fp(point_at(o, d, ta)), normal=normal,
                         kind="hit"))
        first = ta
    else:
        if t_in >= lo:
            hits.append(make(Hit, t=float(t_in), point=_fp(point_at(o, d, t_in)), normal=n_in,
                             kind="entry"))
            first = t_in
        else:
            first = lo
            if lo != -INF:
                hits.append(make(Hit, t=float(lo), point=_fp(point_at(o, d, lo)), normal=None,
                                 kind="inside"))
        if t_out <= hi:
            hits.append(make(Hit, t=float(t_out), point=_fp(point_at(o, d, t_out)),
                             normal=n_out, kind="exit"))
    first_t = None if first == -INF else float(first)
    return make(HitResult, method=method, trace=trace, intersects=True, first_t=first_t,
                hits=tuple(hits))


def surface_hits(o, d, lo, hi, ts, normal, method, trace):
    """The :class:`HitResult` of a linear component against a surface (plane, triangle).

    ``ts`` is ``None`` (miss), a single parameter ``t`` (a crossing, kind ``"hit"``, with the
    surface ``normal`` facing the side the component comes from) or a pair ``(ta, tb)``: the
    component lies in the surface over ``[ta, tb]`` (already inside ``[lo, hi]``; kind
    ``"overlap"``, no normal). ``first_t`` is ``ta``, or ``None`` when ``ta = -inf`` (a line
    lying in the plane: unbounded below, scene-v1). ``trace`` may be a
    :class:`~algorithms.results.Deferred`.
    """
    if ts is None:
        return make(HitResult, method=method, trace=trace, intersects=False, first_t=None,
                    hits=())
    if isinstance(ts, tuple):
        ta, tb = ts
        hits = [Hit(float(t), _fp(point_at(o, d, t)), None, "overlap")
                for t in ((ta,) if ta == tb else (ta, tb)) if t not in (-INF, INF)]
        first_t = None if ta == -INF else float(ta)
        return HitResult(method=method, trace=trace, intersects=True, first_t=first_t,
                         hits=tuple(hits))
    if ts in (INF, -INF) or ts != ts:  # an overflowed parameter is no hit
        return make(HitResult, method=method, trace=trace, intersects=False, first_t=None,
                    hits=())
    hit = make(Hit, t=float(ts), point=_fp(point_at(o, d, ts)), normal=normal, kind="hit")
    return make(HitResult, method=method, trace=trace, intersects=True, first_t=float(ts),
                hits=(hit,))


def _fp(p):
    if len(p) == 3:
        return (float(p[0]), float(p[1]), float(p[2]))
    return tuple(float(c) for c in p)


def touching_distance(o, d, hr, method, trace, param_b=None):
    """Distance 0 at the first touching point of a linear component (``hr.first_t``; for a
    line lying in a plane, its origin ``t = 0``): both closest points are that point."""
    from algorithms.results import DistanceResult

    if hr.first_t is not None:
        t = hr.first_t
    elif hr.hits:
        t = hr.hits[0].t
    else:
        t = 0.0
    p = _fp(point_at(o, d, t))
    pb = param_b(p) if param_b is not None else None
    tr = {**trace, "touching": True, "t": float(t), "hits_method": hr.method}
    return make_with(DistanceResult, {"method": method, "trace": tr, "distance": 0.0,
                                      "sqr_distance": 0.0, "closest": (p, p),
                                      "parameter": (float(t), pb)})




def golden_section_distance(o, d, lo, hi, closest_fn, center, radius, extra_ts=(),
                            cylinder=None):
    """Minimise ``f(t) = |A(t) - closest_B(A(t))|^2`` over ``t`` in ``[lo, hi]``.

    The distance to a convex set is convex, and so is its square; composed with the affine
    ``A(t) = o + t d`` it is convex in ``t``, so golden-section search converges to the global
    minimum. Rays and lines get a finite bracket from B's bounding sphere ``(center, radius)``:
    with ``t0`` the parameter nearest the centre and ``h = |A(t0) - c|``, any minimiser has
    ``|A(t) - c| - R <= f(t*) <= h + R``, so ``|d| |t - t0| <= 2 sqrt(R (h + R))``. The search
    runs until the bracket is ~1e-15 relative (at most 200 steps, ~80 in practice); then the
    exact ``f`` is evaluated at ``extra_ts`` (shape-specific stationary points in closed form,
    clamped: the "exact refine"), the bracket ends and the final point, and the least is kept
    (a golden-section point must beat the closed-form ones by more than rounding). Since ``f``
    is smooth at a positive minimum the distance error is second order in the ``t`` error:
    below 1e-14 of the coordinate scale in the tests.
    Returns ``(sqr_distance, t, point_on_A, point_on_B, steps)``. ``cylinder``: the
    cylinder whose :func:`closest_point_cylinder` ``closest_fn`` is; the search's ``f`` then
    runs it in its own frame (the same operations, the same bits: no call per step).
    """
    o, d = _fp(o), _fp(d)
    L, H = float(lo), float(hi)
    if L == -INF or H == INF:
        ds, m = rescaled(d)
        dd = V.dot(ds, ds)
        t0 = V.dot(ds, V.sub(V.to_float(center), o)) / dd / m
        h = V.norm(V.sub(point_at(o, d, t0), V.to_float(center)))
        R = float(radius)
        w = 2.0 * math.sqrt(R * (h + R)) / math.sqrt(dd) / m
        w += 1e-9 * (abs(t0) + w) + 1e-300
        L, H = max(L, t0 - w), min(H, t0 + w)
        if L > H:  # every minimiser lies outside the domain: by convexity the minimum over
            L = H = clamp_t(t0, lo, hi)  # the domain is at the domain end nearest them

    if len(o) == 3 and cylinder is not None:
        ox, oy, oz = o
        dx, dy, dz = d
        (cx, cy, cz), (wx, wy, wz), ch, cr = cylinder_frame(cylinder)
        sqrt = math.sqrt

        def f(t):  # (the f below with closest_point_cylinder written out: the same bits)
            px, py, pz = ox + t * dx, oy + t * dy, oz + t * dz
            vx, vy, vz = px - cx, py - cy, pz - cz
            z = wx * vx + wy * vy + wz * vz
            rx, ry, rz = vx - z * wx, vy - z * wy, vz - z * wz
            lr = sqrt(rx * rx + ry * ry + rz * rz)
            inside = True
            if z > ch:
                z, inside = ch, False
            elif z < -ch:
                z, inside = -ch, False
            if lr > cr:
                k = cr / lr
                rx, ry, rz, inside = k * rx, k * ry, k * rz, False
            if inside:
                ex, ey, ez = px - px, py - py, pz - pz
            else:
                ex = px - (cx + (z * wx + rx))
                ey = py - (cy + (z * wy + ry))
                ez = pz - (cz + (z * wz + rz))
            return ex * ex + ey * ey + ez * ez
    elif len(o) == 3:
        ox, oy, oz = o
        dx, dy, dz = d

        def f(t):  # (point_at, _fp and sqr_dist written out: the same bits)
            px, py, pz = ox + t * dx, oy + t * dy, oz + t * dz
            q = closest_fn((px, py, pz))
            ex, ey, ez = px - float(q[0]), py - float(q[1]), pz - float(q[2])
            return ex * ex + ey * ey + ez * ez
    else:
        def f(t):
            p = point_at(o, d, t)
            return V.sqr_dist(p, _fp(closest_fn(p)))

    a, b, steps = L, H, 0
    if b > a:
        tol = 1e-15 * (abs(a) + abs(b)) + 1e-16 * (b - a) + 1e-300
        a, b, _, _, steps = golden_section(f, a, b, tol=tol, max_steps=200)
    # the closed-form candidates first: a golden-section point replaces them only when it is
    # smaller by more than rounding (so an exact stationary point wins a tie)
    cands = [clamp_t(float(t), L, H) for t in extra_ts] + [L, H, (a + b) / 2, a, b]
    best = None
    for t in cands:
        p = point_at(o, d, t)
        q = _fp(closest_fn(p))
        s = V.sqr_dist(p, q)
        if best is None or s < best[0] * (1 - 1e-14):
            best = (s, t, p, q)
    return best + (steps,)


def linear_features_distance(o, d, lo, hi, point_closest, edges):
    """Least distance from a linear component that does NOT meet a convex polytope (a
    triangle, a box) to it: over the component's finite ends against the polytope
    (``point_closest(p) -> point``) and the component against every edge ``(name, s0, s1)``
    (:func:`linear_segment_closest`).

    Why this is exact (the case analysis of GTCG §10.9 reduced to its candidates): at a
    closest pair ``(x, y)`` with ``y`` inside a face, ``x - y`` is normal to the face, so either
    ``x`` is an end of the component or the component is parallel to the face; then sliding
    both points along the component keeps the distance until ``x`` reaches an end or ``y``
    reaches an edge of the face. So some closest pair has ``x`` at an end or ``y`` on an edge.
    Returns ``(sqr_distance, t, point_on_A, point_on_B, feature, candidates)``; among
    features at distance exactly 0 (a contact, which :func:`rescue_hit` reports), the one of
    least ``t``: the first touching point.
    """
    best = None
    cands = []
    for t in (lo, hi):
        if t in (-INF, INF):
            continue
        p = point_at(o, d, t)
        q = point_closest(p)
        s = V.sqr_dist(p, q)
        cands.append({"feature": f"end t={_show(t)}", "sqr_distance": s})
        if best is None or s < best[0] or (s == 0 == best[0] and t < best[1]):
            best = (s, t, p, q, f"end t={_show(t)}", None)
    for name, s0, s1 in edges:
        s, t, s_, pa, pb = linear_segment_closest(o, d, lo, hi, s0, s1)
        cands.append({"feature": f"edge {name}", "sqr_distance": s})
        # of features touching exactly (s == 0), the first along the component: the contact
        # :func:`rescue_hit` reports (a ray through a box's interior from edge to edge that
        # Woo rejects by an ulp touches two edges; the first-listed was its exit)
        if best is None or s < best[0] or (s == 0 == best[0] and t < best[1]):
            best = (s, t, pa, pb, f"edge {name}", s_)
    return best[:5] + (cands,)


def _show(t):
    return float(t)


def rescue_hit(hr, o, d, sqr, t, why, points=None):
    """Reconcile a cast that missed with a distance minimisation that found an exact contact.

    A cast decides a grazing contact (through an edge, a corner, the rim) by comparisons of
    rounded values and may reject it, while the exact candidates of the distance (the edges'
    closest points) give squared distance exactly ``0``. Reporting "no hit" with distance 0
    would contradict itself, so the contact is returned as one hit of kind ``"hit"`` at that
    ``t`` (no normal), with ``trace["rescued"]`` saying why. ``points``: the distance's
    closest pair, when it has one; a pair of different points whose squared distance is 0
    underflowed (points 1.1e-162 apart, on the unscaled Fraction path whose candidates are
    floats), which is no contact: the cast's answer stands.
    """
    from algorithms.results import Hit, HitResult

    if hr.intersects or sqr != 0:
        return hr
    if points is not None and tuple(points[0]) != tuple(points[1]):
        return hr
    trace = {**hr.trace, "rescued": why}
    hit = Hit(float(t), _fp(point_at(o, d, t)), None, "hit")
    return HitResult(method=hr.method, trace=trace, intersects=True, first_t=float(t),
                     hits=(hit,))


def robust_distance(func):
    """Wrap a ``"distance"`` function so a positive distance never reads as 0.

    With coordinates near the bottom of the float range (``1e-200``) the squared distance
    underflows to 0 although the closest points differ: the distance is then recomputed as
    ``hypot`` of their difference and ``sqr_distance`` kept positive (at least the smallest
    subnormal), so ``distance == 0`` exactly when the shapes touch.
    """
    import functools

    @functools.wraps(func)
    def wrapper(a, b, *args, **kwargs):
        r = func(a, b, *args, **kwargs)
        if r.distance != 0 and r.sqr_distance != 0:
            return r  # the common case: nothing underflowed
        return robust_settle(r)

    return wrapper


def robust_settle(r):
    """What :func:`robust_distance` makes of a distance record ``r`` (the same record when
    nothing underflowed)."""
    from dataclasses import replace

    if r.distance != 0 and r.sqr_distance != 0:
        return r
    pa, pb = r.closest
    diff = [float(x) - float(y) for x, y in zip(pa, pb)]
    if any(diff) and (r.distance == 0 or r.sqr_distance == 0):
        dist = math.hypot(*diff)
        return replace(r, distance=dist, sqr_distance=max(dist * dist, 5e-324))
    return r


def intersects_from_hits(hits_fn, method: str):
    """The test-intersection query of a linear component against a shape, from its ray cast
    ``hits_fn(a, b) -> HitResult``: they intersect when the cast finds any contact."""
    from algorithms.results import IntersectionResult

    def intersects(a, b):
        hr = hits_fn(a, b)
        # the cast's trace as stored: a deferred one stays deferred (computed when read)
        return make(IntersectionResult, method=method, trace=hr.__dict__["trace"],
                    intersects=hr.intersects)

    intersects.__name__ = "intersects_" + hits_fn.__name__.removeprefix("hits_")
    intersects.__doc__ = f"Test-intersection from :func:`{hits_fn.__name__}`."
    return intersects
