"""Drag handles of the primitives: where they sit and what moving one does. No Qt, no VTK.

Two tables, one entry per primitive type (napari's "table, not isinstance ladder"):

* :data:`HANDLES` ``kind -> f(primitive, size) -> [(handle, position), ...]``: the grips drawn on
  the selected object (``size`` is the scene's size; it sets the length of direction grips);
* :data:`APPLY` ``kind -> f(primitive, handle, position, size) -> primitive``: the primitive after
  the grip ``handle`` was dragged to ``position``. It may raise
  :class:`~algorithms.primitives.GeometryError` (the caller keeps the old primitive).

The viewport's widget callbacks and the tests call the same :func:`drag_to`.

Grips: sphere (``center``, ``radius``), aabb (``center`` and the six faces ``x-`` ... ``z+``),
obb (``center`` and ``axis0..2`` at the face centres: dragging one rotates that axis and sets its
extent), cylinder (``end0``, ``end1``, ``radius``), capsule (``p0``, ``p1``, ``radius``,
``center``), segment (``p0``, ``p1``, ``center``), ray and line (``origin``, ``direction``), plane
(``point`` and ``normal``), triangle (``v0 v1 v2`` and ``center``), point (``position``).

Examples
--------
>>> from algorithms import Sphere
>>> s = drag_to(Sphere((0, 0, 0), 1), "radius", (0, 2, 0), size=4)
>>> s.radius
2.0
"""

from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np

from algorithms.core.tolerance import unit
from algorithms.primitives import (AABB, OBB, Capsule, Cylinder, GeometryError, Line, Plane, Point,
                                   Primitive, Ray, Segment, Sphere, Triangle)
from explorer.model.drawrange import drawable, quiet


def _f(v) -> np.ndarray:
    return np.asarray(v, dtype=float)


def _t(v) -> tuple:
    return tuple(float(c) for c in v)


def _unit(v) -> np.ndarray:
    u = unit(tuple(float(c) for c in v))  # no over- or underflow for 1e300 / 1e-300 vectors
    return np.array(u) if u is not None else np.array([0.0, 0.0, 1.0])


def _perp(v) -> np.ndarray:
    """A unit vector perpendicular to ``v`` (a stable choice)."""
    n = _unit(v)
    helper = np.array([0.0, 0.0, 1.0]) if abs(n[2]) < 0.9 else np.array([1.0, 0.0, 0.0])
    p = np.cross(n, helper)
    return p / np.linalg.norm(p)


def snap(position, step: Optional[float]) -> tuple:
    """``position`` rounded to the grid of spacing ``step`` (``None`` or 0: unchanged)."""
    if not step:
        return _t(position)
    return tuple(float(round(c / step) * step) + 0.0 for c in position)


def grip(size: float) -> float:
    """The length of a direction grip (ray, line, plane normal) for a scene of ``size``."""
    return 0.2 * size


# ----------------------------------------------------------------------------- handles


def _h_point(p, size):
    return [("position", p.position)]


def _h_segment(p, size):
    return [("p0", p.p0), ("p1", p.p1), ("center", (_f(p.p0) + _f(p.p1)) / 2)]


def _h_linear(p, size):
    return [("origin", p.origin), ("direction", _f(p.origin) + _unit(p.direction) * grip(size))]


def plane_anchor(p: Plane, near=(0.0, 0.0, 0.0)) -> np.ndarray:
    """The point of plane ``p`` nearest ``near`` (where its grips sit)."""
    # on the unit normal u = n / |n| and d / |n| (scaled by the largest component first), so
    # a 1e-300 or 1e200 normal neither underflows nor overflows
    m = max(abs(float(c)) for c in p.normal)
    scaled = _f(p.normal) / m
    norm = float(np.linalg.norm(scaled))
    u = scaled / norm
    q = _f(near)
    return q - (float(u @ q) - float(p.d) / m / norm) * u


def _h_plane(p, size, near=(0.0, 0.0, 0.0)):
    a = plane_anchor(p, near)
    return [("point", a), ("normal", a + _unit(p.normal) * grip(size))]


def _h_triangle(p, size):
    v = _f(p.vertices)
    return [("v0", v[0]), ("v1", v[1]), ("v2", v[2]), ("center", v.mean(axis=0))]


def _h_sphere(p, size):
    r = float(p.radius)
    return [("center", p.center), ("radius", _f(p.center) + np.array([r, 0.0, 0.0]))]


_FACES = ("x-", "x+", "y-", "y+", "z-", "z+")


def _h_aabb(p, size):
    lo, hi = _f(p.min), _f(p.max)
    c = (lo + hi) / 2
    out = [("center", c)]
    for name in _FACES:
        i = "xyz".index(name[0])
        q = c.copy()
        q[i] = hi[i] if name[1] == "+" else lo[i]
        out.append((name, q))
    return out


def _h_obb(p, size):
    c, axes, e = _f(p.center), _f(p.axes), _f(p.extents)
    out = [("center", c)]
    for i in range(3):
        out.append((f"axis{i}", c + axes[i] * max(e[i], 1e-3 * size)))
    return out


def _h_cylinder(p, size):
    e0, e1 = p.end_points
    return [("end0", e0), ("end1", e1), ("center", _f(p.center)),
            ("radius", _f(p.center) + _perp(p.axis) * float(p.radius))]


def _h_capsule(p, size):
    p0, p1 = _f(p.p0), _f(p.p1)
    mid = (p0 + p1) / 2
    axis = p1 - p0 if np.any(p1 != p0) else np.array([0.0, 0.0, 1.0])
    return [("p0", p0), ("p1", p1), ("center", mid), ("radius", mid + _perp(axis) * float(p.radius))]


#: primitive type -> f(primitive, size) -> [(handle name, position)]
HANDLES: dict[str, Callable] = {
    "point": _h_point, "segment": _h_segment, "ray": _h_linear, "line": _h_linear,
    "plane": _h_plane, "triangle": _h_triangle, "sphere": _h_sphere, "aabb": _h_aabb,
    "obb": _h_obb, "cylinder": _h_cylinder, "capsule": _h_capsule,
}


def handles(prim: Primitive, size: float = 4.0, near=(0.0, 0.0, 0.0)) -> list[tuple[str, tuple]]:
    """The grips of ``prim`` as ``[(name, (x, y, z)), ...]``."""
    with quiet():  # an extreme object's grips overflow: not offered (drawrange)
        if prim.kind == "plane":
            items = _h_plane(prim, size, near)
        else:
            items = HANDLES[prim.kind](prim, size)
        return [(name, _t(pos)) for name, pos in items if drawable(pos)]


# ----------------------------------------------------------------------------- applying a drag


def _moved(p, handle_pos, new_pos):
    return p.translated(_t(_f(new_pos) - _f(handle_pos)))


def _a_point(p, h, q, size):
    return Point(_t(q))


def _a_segment(p, h, q, size):
    if h == "p0":
        return Segment(_t(q), p.p1)
    if h == "p1":
        return Segment(p.p0, _t(q))
    return _moved(p, (_f(p.p0) + _f(p.p1)) / 2, q)


def _a_linear(p, h, q, size):
    cls = type(p)
    if h == "origin":
        return cls(_t(q), p.direction)
    v = _f(q) - _f(p.origin)
    n = float(np.linalg.norm(v))
    if n == 0:
        raise GeometryError("direction", "must be a nonzero vector, got [0, 0, 0]", (0, 0, 0))
    # keep the length of the direction (it scales the parameter t); turn it toward the grip
    return cls(p.origin, _t(v / n * float(np.linalg.norm(_f(p.direction)))))


def _a_plane(p, h, q, size, near=(0.0, 0.0, 0.0)):
    n = _f(p.normal)
    if h == "point":
        return Plane(p.normal, float(n @ _f(q)))
    anchor = plane_anchor(p, near)
    v = _f(q) - anchor
    m = float(np.linalg.norm(v))
    if m == 0:
        raise GeometryError("normal", "must be a nonzero vector, got [0, 0, 0]", (0, 0, 0))
    n2 = v / m * float(np.linalg.norm(n))
    return Plane(_t(n2), float(n2 @ anchor))


def _a_triangle(p, h, q, size):
    if h == "center":
        return _moved(p, _f(p.vertices).mean(axis=0), q)
    i = int(h[1])
    v = list(p.vertices)
    v[i] = _t(q)
    return Triangle(tuple(v))


def _a_sphere(p, h, q, size):
    if h == "center":
        return Sphere(_t(q), p.radius)
    return Sphere(p.center, float(np.linalg.norm(_f(q) - _f(p.center))))


def _a_aabb(p, h, q, size):
    if h == "center":
        return _moved(p, p.center, q)
    i = "xyz".index(h[0])
    lo, hi = list(p.min), list(p.max)
    if h[1] == "+":
        hi[i] = max(float(q[i]), lo[i])  # a face never passes its opposite face
    else:
        lo[i] = min(float(q[i]), hi[i])
    return AABB(tuple(lo), tuple(hi))


def _orthonormal(axes: np.ndarray, i: int, old: np.ndarray) -> np.ndarray:
    """Gram-Schmidt keeping row ``i`` fixed and the handedness of ``old``."""
    j, k = (i + 1) % 3, (i + 2) % 3
    a = axes.copy()
    a[i] = _unit(a[i])
    aj = a[j] - float(a[j] @ a[i]) * a[i]
    if np.linalg.norm(aj) < 1e-9:  # the new axis i fell onto axis j: use k to build j
        aj = np.cross(a[k], a[i])
    a[j] = _unit(aj)
    a[k] = np.cross(a[i], a[j])
    if float(a[k] @ old[k]) < 0 and float(np.linalg.det(old)) < 0:
        a[k] = -a[k]
    return a


def _a_obb(p, h, q, size):
    c = _f(p.center)
    if h == "center":
        return OBB(_t(q), p.axes, p.extents)
    i = int(h[-1])
    v = _f(q) - c
    n = float(np.linalg.norm(v))
    if n == 0:
        raise GeometryError(f"axes[{i}]", "must be a unit vector (length 0)", (0, 0, 0))
    old = _f(p.axes)
    axes = old.copy()
    axes[i] = v / n
    axes = _orthonormal(axes, i, old)
    ext = list(p.extents)
    ext[i] = n
    return OBB(p.center, tuple(_t(r) for r in axes), tuple(ext))


def _a_cylinder(p, h, q, size):
    e0, e1 = p.end_points
    if h == "center":
        return Cylinder(_t(q), p.axis, p.radius, p.height)
    if h == "radius":
        w = p.unit_axis
        v = _f(q) - _f(p.center)
        r = float(np.linalg.norm(v - float(v @ w) * w))
        return Cylinder(p.center, p.axis, r, p.height)
    if h == "end0":
        e0 = _f(q)
    else:
        e1 = _f(q)
    d = e1 - e0
    hgt = float(np.linalg.norm(d))
    axis = d / hgt * float(np.linalg.norm(_f(p.axis))) if hgt > 0 else _f(p.axis)
    return Cylinder(_t((e0 + e1) / 2), _t(axis), p.radius, hgt)


def _a_capsule(p, h, q, size):
    p0, p1 = _f(p.p0), _f(p.p1)
    if h == "p0":
        return Capsule(_t(q), p.p1, p.radius)
    if h == "p1":
        return Capsule(p.p0, _t(q), p.radius)
    if h == "center":
        return _moved(p, (p0 + p1) / 2, q)
    # radius: the distance from the grip to the core segment
    d = p1 - p0
    dd = float(d @ d)
    s = 0.0 if dd == 0 else min(1.0, max(0.0, float((_f(q) - p0) @ d) / dd))
    return Capsule(p.p0, p.p1, float(np.linalg.norm(_f(q) - (p0 + s * d))))


#: primitive type -> f(primitive, handle, new position, size) -> new primitive
APPLY: dict[str, Callable] = {
    "point": _a_point, "segment": _a_segment, "ray": _a_linear, "line": _a_linear,
    "plane": _a_plane, "triangle": _a_triangle, "sphere": _a_sphere, "aabb": _a_aabb,
    "obb": _a_obb, "cylinder": _a_cylinder, "capsule": _a_capsule,
}


def drag_to(prim: Primitive, handle: str, position, size: float = 4.0,
            snap_step: Optional[float] = None, near=(0.0, 0.0, 0.0)) -> Primitive:
    """The primitive after grip ``handle`` was dragged to ``position`` (snapped to the grid of
    ``snap_step`` when given). Raises :class:`GeometryError` for a shape that would be invalid."""
    q = snap(position, snap_step)
    if not all(math.isfinite(c) for c in q):
        raise GeometryError(handle, f"must be finite, got {list(q)}", q)
    if prim.kind == "plane":
        return _a_plane(prim, handle, q, size, near)
    return APPLY[prim.kind](prim, handle, q, size)


# ----------------------------------------------------------------------------- new objects


def new_primitive(kind: str, center=(0.0, 0.0, 0.0), size: float = 1.0) -> Primitive:
    """A sensible new object of ``kind`` near ``center``, about ``size`` across (Add menu)."""
    c = _f(center)
    s = float(size)
    h = s / 2

    def at(*v):
        return _t(c + s * np.array(v, dtype=float))

    table = {
        "point": lambda: Point(at(0, 0, 0)),
        "segment": lambda: Segment(at(-0.5, 0, 0), at(0.5, 0.3, 0.2)),
        "ray": lambda: Ray(at(-1, 0, 0), (1.0, 0.0, 0.0)),
        "line": lambda: Line(at(0, 0, 0), (1.0, 0.5, 0.0)),
        "plane": lambda: Plane((0.0, 0.0, 1.0), float(c[2])),
        "triangle": lambda: Triangle((at(-0.5, -0.4, 0), at(0.5, -0.4, 0), at(0, 0.5, 0.2))),
        "sphere": lambda: Sphere(at(0, 0, 0), h),
        "aabb": lambda: AABB(at(-0.5, -0.5, -0.5), at(0.5, 0.5, 0.5)),
        "obb": lambda: OBB(at(0, 0, 0), ((0.8, 0.6, 0.0), (-0.6, 0.8, 0.0), (0.0, 0.0, 1.0)),
                           (h, h * 0.6, h * 0.4)),
        "cylinder": lambda: Cylinder(at(0, 0, 0), (0.0, 0.0, 1.0), h * 0.6, s),
        "capsule": lambda: Capsule(at(-0.5, 0, 0), at(0.5, 0, 0), h * 0.5),
    }
    return table[kind]()


# ----------------------------------------------------------------------------- handling

#: what a grip is called on screen (issue 13: "grips do not say which end is p0")
GRIP_LABELS = {
    "center": "centre", "position": "position", "origin": "origin", "direction": "direction",
    "normal": "normal", "point": "point", "radius": "radius", "p0": "p0", "p1": "p1",
    "v0": "v0", "v1": "v1", "v2": "v2", "end0": "end 0", "end1": "end 1",
    "x-": "min x", "x+": "max x", "y-": "min y", "y+": "max y", "z-": "min z", "z+": "max z",
    "axis0": "axis 0", "axis1": "axis 1", "axis2": "axis 2",
}


def grip_label(handle: str) -> str:
    """The on-screen name of grip ``handle`` (``"center"`` -> ``"centre"``, ``"x+"`` ->
    ``"max x"``); unknown grips show their own name."""
    return GRIP_LABELS.get(handle, handle)


LOCKS = ("axis", "plane")


def lock_position(start, position, mode: Optional[str], view_normal=(0.0, 0.0, 1.0)) -> tuple:
    """A dragged grip's ``position`` held to a lock from where the drag ``start``-ed.

    * ``"axis"``: only the world axis along which the drag has moved most changes (a drag
      along x stays on the line through ``start`` parallel to x);
    * ``"plane"``: the grip stays in the world plane through ``start`` that faces the camera
      most (the top view keeps z, the front view keeps y): no drift in depth;
    * ``None``: unchanged.

    >>> lock_position((0, 0, 0), (2.0, 0.5, -0.1), "axis")
    (2.0, 0.0, 0.0)
    >>> lock_position((0, 0, 1), (2.0, 0.5, 1.3), "plane", view_normal=(0.1, 0.2, -0.97))
    (2.0, 0.5, 1.0)
    """
    q = [float(c) for c in position]
    s = [float(c) for c in start]
    if mode is None:
        return tuple(q)
    if mode == "axis":
        d = [a - b for a, b in zip(q, s)]
        i = max(range(3), key=lambda k: abs(d[k]))
        out = list(s)
        out[i] = q[i]
        return tuple(out)
    if mode == "plane":
        n = [abs(float(c)) for c in view_normal]
        i = max(range(3), key=lambda k: n[k])
        q[i] = s[i]
        return tuple(q)
    raise ValueError(f"lock: must be one of {', '.join(LOCKS)} or None, got {mode!r}")
