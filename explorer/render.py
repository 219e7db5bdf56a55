"""Rendering: primitives and answers as PyVista meshes and actors. No Qt here.

The same code draws the Qt viewport (a ``pyvistaqt.QtInteractor`` is a PyVista plotter) and the
offscreen ``explorer render`` command. Tables, not ``isinstance`` ladders, map each primitive
type to its mesh builder (:data:`MESHERS`) and its default look (:data:`LOOKS`).

Unbounded primitives (rays, lines, planes) are drawn clipped to the scene's extent, which
:func:`scene_extent` computes from the bounded objects.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
import pyvista as pv

from algorithms.primitives import Primitive

from .scene import Scene, SceneObject

# A palette with distinct, colour-blind-friendly hues (Okabe-Ito, plus a few).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#7F3C8D", "#11A579", "#3969AC", "#E73F74", "#80BA5A"]
BACKGROUND = "#f4f5f7"
RESULT_COLOR = "#d62728"
INTERSECT_COLOR = "#ff2d2d"


@dataclass(frozen=True)
class Extent:
    """A cube that holds the bounded objects: drawn rays, lines and planes stop at its size."""

    center: np.ndarray
    size: float


def _points_of(p: Primitive) -> list:
    """Representative points of a primitive (for the scene extent)."""
    k = p.kind
    if k == "point":
        return [p.position]
    if k in ("segment", "capsule"):
        r = float(getattr(p, "radius", 0.0))
        return [np.add(p.p0, r), np.subtract(p.p0, r), np.add(p.p1, r), np.subtract(p.p1, r)]
    if k in ("ray", "line"):
        return [p.origin]
    if k == "plane":
        return [p.origin]
    if k == "triangle":
        return list(p.vertices)
    if k == "sphere":
        return [np.add(p.center, p.radius), np.subtract(p.center, p.radius)]
    if k == "aabb":
        return [p.min, p.max]
    if k == "obb":
        r = float(np.linalg.norm(p.extents))
        return [np.add(p.center, r), np.subtract(p.center, r)]
    if k == "cylinder":
        r = float(np.hypot(p.radius, p.height / 2))
        return [np.add(p.center, r), np.subtract(p.center, r)]
    return []


def scene_extent(objects, margin: float = 1.5, minimum: float = 4.0) -> Extent:
    pts = []
    for o in objects:
        prim = o.primitive if isinstance(o, SceneObject) else o
        pts += [np.asarray(q, dtype=float) for q in _points_of(prim)]
        if isinstance(o, SceneObject) and o.motion is not None:
            pts += [np.asarray(q, dtype=float) + np.asarray(o.motion) for q in _points_of(prim)]
    if not pts:
        return Extent(np.zeros(3), minimum)
    arr = np.array(pts)
    lo, hi = arr.min(axis=0), arr.max(axis=0)
    size = max(float(np.max(hi - lo)) * margin, minimum)
    return Extent((lo + hi) / 2, size)


# ----------------------------------------------------------------------------- meshers


def _unit(v) -> np.ndarray:
    v = np.asarray(v, dtype=float)
    n = np.linalg.norm(v)
    return v / n if n > 0 else np.array([0.0, 0.0, 1.0])


def _perp_basis(n) -> tuple[np.ndarray, np.ndarray]:
    n = _unit(n)
    helper = np.array([1.0, 0, 0]) if abs(n[0]) < 0.9 else np.array([0, 1.0, 0])
    u = _unit(np.cross(n, helper))
    return u, np.cross(n, u)


def _mesh_point(p, ext):
    return pv.PolyData(np.array([p.position], dtype=float))


def _mesh_segment(p, ext):
    return pv.Line(np.asarray(p.p0, float), np.asarray(p.p1, float))


def _line_span(origin, direction, ext, t0=None) -> tuple[np.ndarray, np.ndarray]:
    o, d = np.asarray(origin, float), np.asarray(direction, float)
    dn = d / np.linalg.norm(d)
    # parameter (along the unit direction) of the point nearest the extent's centre
    mid = float(np.dot(ext.center - o, dn))
    half = ext.size
    lo = mid - half if t0 is None else max(0.0, min(mid - half, 0.0))
    hi = max(mid + half, (lo + 1e-9)) if t0 is None else max(mid + half, ext.size * 0.5)
    return o + lo * dn, o + hi * dn


def _mesh_ray(p, ext):
    a, b = _line_span(p.origin, p.direction, ext, t0=0.0)
    return pv.Line(a, b)


def _mesh_line(p, ext):
    a, b = _line_span(p.origin, p.direction, ext)
    return pv.Line(a, b)


def _mesh_plane(p, ext):
    n = _unit(p.normal)
    origin = np.asarray(p.origin, float)
    # centre the drawn square on the projection of the scene centre onto the plane
    c = ext.center - np.dot(ext.center - origin, n) * n
    return pv.Plane(center=c, direction=n, i_size=ext.size * 1.2, j_size=ext.size * 1.2,
                    i_resolution=1, j_resolution=1)


def _mesh_triangle(p, ext):
    pts = np.asarray(p.vertices, dtype=float)
    return pv.PolyData(pts, faces=[3, 0, 1, 2])


def _mesh_sphere(p, ext):
    r = max(float(p.radius), 1e-3 * ext.size)
    return pv.Sphere(radius=r, center=np.asarray(p.center, float), theta_resolution=40,
                     phi_resolution=24)


def _mesh_aabb(p, ext):
    lo, hi = np.asarray(p.min, float), np.asarray(p.max, float)
    return pv.Box(bounds=(lo[0], hi[0], lo[1], hi[1], lo[2], hi[2]))


def _mesh_obb(p, ext):
    e = np.asarray(p.extents, float)
    box = pv.Box(bounds=(-e[0], e[0], -e[1], e[1], -e[2], e[2]))
    axes = np.asarray(p.axes, float)
    # a local point u maps to center + u @ axes (axes are rows)
    box.points = np.asarray(p.center, float) + box.points @ axes
    return box


def _mesh_cylinder(p, ext):
    r = max(float(p.radius), 1e-3 * ext.size)
    h = max(float(p.height), 1e-4 * ext.size)
    return pv.Cylinder(center=np.asarray(p.center, float), direction=_unit(p.axis), radius=r,
                       height=h, resolution=48, capping=True)


def _mesh_capsule(p, ext):
    r = max(float(p.radius), 1e-3 * ext.size)
    p0, p1 = np.asarray(p.p0, float), np.asarray(p.p1, float)
    parts = [pv.Sphere(radius=r, center=p0, theta_resolution=32, phi_resolution=16),
             pv.Sphere(radius=r, center=p1, theta_resolution=32, phi_resolution=16)]
    length = float(np.linalg.norm(p1 - p0))
    if length > 0:
        parts.append(pv.Cylinder(center=(p0 + p1) / 2, direction=p1 - p0, radius=r,
                                 height=length, resolution=32, capping=False))
    return pv.merge(parts)


#: primitive type -> function(primitive, extent) -> PyVista mesh
MESHERS: dict[str, Callable] = {
    "point": _mesh_point, "segment": _mesh_segment, "ray": _mesh_ray, "line": _mesh_line,
    "plane": _mesh_plane, "triangle": _mesh_triangle, "sphere": _mesh_sphere,
    "aabb": _mesh_aabb, "obb": _mesh_obb, "cylinder": _mesh_cylinder, "capsule": _mesh_capsule,
}

_SOLID = dict(opacity=0.45, smooth_shading=True, specular=0.3, show_edges=False)
_LINEAR = dict(line_width=5, render_lines_as_tubes=True)
#: primitive type -> add_mesh keyword arguments (the colour comes from the object)
LOOKS: dict[str, dict] = {
    "point": dict(point_size=16, render_points_as_spheres=True),
    "segment": _LINEAR, "ray": _LINEAR, "line": dict(_LINEAR, line_width=3),
    "plane": dict(opacity=0.25, show_edges=True, edge_color="#555555"),
    "triangle": dict(opacity=0.6, show_edges=True, line_width=2),
    "sphere": _SOLID, "aabb": dict(_SOLID, show_edges=True, line_width=1),
    "obb": dict(_SOLID, show_edges=True, line_width=1), "cylinder": _SOLID, "capsule": _SOLID,
}


def color_of(obj: SceneObject, index: int):
    """The object's colour (as given in the file), or the palette colour for its position."""
    if obj.color is None:
        return PALETTE[index % len(PALETTE)]
    if isinstance(obj.color, (list, tuple)):
        c = [float(v) for v in obj.color[:3]]
        return [v / 255.0 for v in c] if max(c) > 1 else c
    return obj.color


def primitive_mesh(prim: Primitive, ext: Extent):
    return MESHERS[prim.kind](prim, ext)


def add_object(plotter, obj: SceneObject, index: int, ext: Extent, highlight: bool = False):
    """Add (or replace, by name) the actor of one object; returns it."""
    mesh = primitive_mesh(obj.primitive, ext)
    look = dict(LOOKS[obj.kind])
    color = color_of(obj, index)
    try:
        actor = plotter.add_mesh(mesh, color=color, name=f"obj:{obj.id}", pickable=True, **look)
    except ValueError:  # an unknown colour name in the file: fall back to the palette
        actor = plotter.add_mesh(mesh, color=PALETTE[index % len(PALETTE)],
                                 name=f"obj:{obj.id}", pickable=True, **look)
    if obj.kind == "ray":
        d = _unit(obj.primitive.direction)
        head = pv.Cone(center=np.asarray(obj.primitive.origin, float) + d * ext.size * 0.04,
                       direction=d, height=ext.size * 0.05, radius=ext.size * 0.015)
        plotter.add_mesh(head, color=color, name=f"obj:{obj.id}:head")
    actor.SetVisibility(not obj.hidden)
    return actor


def add_floor(plotter, ext: Extent):
    """A floor grid under the scene and the axes widget."""
    z = float(ext.center[2] - ext.size / 2)
    floor = pv.Plane(center=(ext.center[0], ext.center[1], z), direction=(0, 0, 1),
                     i_size=ext.size * 1.5, j_size=ext.size * 1.5, i_resolution=12,
                     j_resolution=12)
    plotter.add_mesh(floor, style="wireframe", color="#c9ccd3", line_width=1, name="floor",
                     pickable=False)


def add_results(plotter, scene: Scene, results: list[dict], ext: Extent):
    """Draw the answers: the closest-point segment and its distance label for each pair."""
    labels_pts, labels = [], []
    for i, r in enumerate(results):
        name = f"result:{r['a']}:{r['b']}"
        closest = r.get("closest")
        if closest is None:
            continue
        pa, pb = (np.asarray(c, float) for c in closest)
        pts = pv.PolyData(np.array([pa, pb]))
        plotter.add_mesh(pts, color=RESULT_COLOR, point_size=11, render_points_as_spheres=True,
                         name=name + ":pts", pickable=False)
        if r.get("distance") and r["distance"] > 0:
            plotter.add_mesh(pv.Line(pa, pb), color=RESULT_COLOR, line_width=3,
                             name=name + ":line", pickable=False)
            labels_pts.append((pa + pb) / 2)
            labels.append(f"{r['a']}-{r['b']}: d = {r['distance']:.4g}")
        elif r.get("intersects"):
            labels_pts.append(pa)
            labels.append(f"{r['a']}-{r['b']}: intersect")
    if labels:
        plotter.add_point_labels(np.array(labels_pts), labels, font_size=14, point_size=1,
                                 shape_opacity=0.6, name="result:labels", always_visible=True)


def populate(plotter, scene: Scene, results: Optional[list[dict]] = None) -> dict:
    """Draw a whole scene (objects, floor, axes, optional answers) into ``plotter``.

    Returns ``{object id: actor}``.
    """
    ext = scene_extent(scene.objects)
    plotter.set_background(BACKGROUND)
    actors = {o.id: add_object(plotter, o, i, ext) for i, o in enumerate(scene.objects)}
    add_floor(plotter, ext)
    if results:
        add_results(plotter, scene, results, ext)
    return actors


def render_to_png(scene: Scene, path, size=(1024, 768), with_results: bool = True) -> None:
    """Render ``scene`` offscreen to a PNG (no Qt, no display: EGL/OSMesa)."""
    os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
    plotter = pv.Plotter(off_screen=True, window_size=list(size))
    try:
        results = scene.evaluate() if with_results else None
        populate(plotter, scene, results)
        plotter.add_axes()
        plotter.add_text(scene.name, font_size=12, color="#222222")
        plotter.camera_position = "iso"
        plotter.reset_camera()
        plotter.camera.zoom(1.6)
        plotter.screenshot(str(path))
    finally:
        plotter.close()
