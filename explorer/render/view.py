"""Rendering: primitives and answers as PyVista meshes and actors. No Qt here.

The same code draws the Qt viewport (a ``pyvistaqt.QtInteractor`` is a PyVista plotter) and the
offscreen ``explorer render`` command. Tables, not ``isinstance`` ladders, map each primitive
type to its mesh builder (:data:`MESHERS`) and its default look (:data:`LOOKS`).

Unbounded primitives (rays, lines, planes) are drawn clipped to the scene's extent, which
:func:`scene_extent` computes from the bounded objects.
"""

from __future__ import annotations

import contextlib
import os
import math
from dataclasses import dataclass
from typing import Callable, Optional

import numpy as np
import pyvista as pv
from vtkmodules.util import numpy_support
from vtkmodules.vtkCommonCore import VTK_FONT_FILE, vtkObject
from vtkmodules.vtkCommonDataModel import vtkDataSet, vtkPointSet
from vtkmodules.vtkRenderingCore import vtkActor

from algorithms.core.tolerance import unit as _safe_unit
from algorithms.primitives import GeometryError, Primitive
from explorer.model.drawrange import beyond_note, clamped, drawable, in_range_rows, quiet
from explorer.model.scene import Scene, SceneObject

# A palette with distinct, colour-blind-friendly hues (Okabe-Ito, plus a few).
PALETTE = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#F0E442",
           "#7F3C8D", "#11A579", "#3969AC", "#E73F74", "#80BA5A"]
BACKGROUND = "#f4f5f7"
INTERSECT_COLOR = "#ff2d2d"


@dataclass(frozen=True)
class Extent:
    """A cube that holds the bounded objects: drawn rays, lines and planes stop at its size."""

    center: np.ndarray
    size: float
    #: the corners of the box around the bounded objects (``None``: empty scene)
    lo: Optional[np.ndarray] = None
    hi: Optional[np.ndarray] = None


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
    """The extent of the bounded objects' points within the drawing range
    (:mod:`explorer.model.drawrange`: points beyond it are not drawn and do not count)."""
    pts = []
    with quiet():
        for o in objects:
            prim = o.primitive if isinstance(o, SceneObject) else o
            pts += [np.asarray(q, dtype=float) for q in _points_of(prim)]
            if isinstance(o, SceneObject) and o.motion is not None:
                pts += [np.asarray(q, dtype=float) + np.asarray(o.motion, dtype=float)
                        for q in _points_of(prim)]
        arr = in_range_rows(np.array(pts)) if pts else np.empty((0, 3))
    if not len(arr):
        return Extent(np.zeros(3), minimum)
    lo, hi = arr.min(axis=0), arr.max(axis=0)
    size = max(float(np.max(hi - lo)) * margin, minimum)
    return Extent((lo + hi) / 2, size, lo, hi)


# ----------------------------------------------------------------------------- geometry
#
# Every primitive is drawn from a fixed template (a unit sphere, a unit box, ...) whose points
# are scaled, rotated and moved with numpy. A drag step therefore only rewrites the points of an
# existing mesh (:func:`write_geom`); no VTK source runs and no actor is rebuilt.


@dataclass
class Geom:
    """Points plus cells of a mesh, as numpy arrays (VTK's flat cell layout).

    ``topo`` names the topology: two geoms with the same ``topo`` have the same cells, so one
    can refill the other's mesh by writing points only.
    """

    points: np.ndarray
    faces: Optional[np.ndarray] = None
    lines: Optional[np.ndarray] = None
    verts: bool = False
    normals: Optional[np.ndarray] = None
    topo: str = ""
    #: the geometry was beyond the drawing range: ``points`` are clamped into it, not drawn
    beyond: bool = False


def _unit(v) -> np.ndarray:
    """``v / |v|`` without over- or underflow (``1e-300`` and ``1e300`` vectors), ``e_z`` for
    the zero vector."""
    u = _safe_unit(tuple(float(c) for c in v))
    return np.array(u) if u is not None else np.array([0.0, 0.0, 1.0])


def _perp_basis(n) -> tuple[np.ndarray, np.ndarray]:
    n = _unit(n)
    helper = np.array([1.0, 0, 0]) if abs(n[0]) < 0.9 else np.array([0, 1.0, 0])
    u = _unit(np.cross(n, helper))
    return u, np.cross(n, u)


def frame_of(axis) -> np.ndarray:
    """Rows ``u, v, w`` of a right-handed frame whose ``w`` is the unit ``axis``.

    Plain float arithmetic: this runs for every arrow head of every drag step."""
    x, y, z = (float(c) for c in axis)
    big = max(abs(x), abs(y), abs(z))
    if big == 0 or not math.isfinite(big):
        x, y, z, big = 0.0, 0.0, 1.0, 1.0
    x, y, z = x / big, y / big, z / big  # exact-ish rescaling: 1e200 axes do not overflow
    n = math.sqrt(x * x + y * y + z * z)
    x, y, z = x / n, y / n, z / n
    # u = w x helper, helper = e_x unless w is near e_x (then e_y)
    if abs(x) < 0.9:
        ux, uy, uz = 0.0, z, -y
    else:
        ux, uy, uz = -z, 0.0, x
    m = math.sqrt(ux * ux + uy * uy + uz * uz)
    ux, uy, uz = ux / m, uy / m, uz / m
    # v = w x u: then (u, v, w) is right-handed since u x v = u x (w x u) = w
    vx, vy, vz = y * uz - z * uy, z * ux - x * uz, x * uy - y * ux
    return np.array([[ux, uy, uz], [vx, vy, vz], [x, y, z]])


class _Templates:
    """Unit shapes built once (lazily: importing this module runs no VTK source)."""

    _cache: dict = {}

    @classmethod
    def get(cls, name: str):
        t = cls._cache.get(name)
        if t is None:
            t = cls._cache[name] = getattr(cls, "_" + name)()
        return t

    @staticmethod
    def _sphere():  # phi_resolution 18: no ring on the equator (the capsule stretches it)
        m = pv.Sphere(radius=1.0, theta_resolution=36, phi_resolution=18)
        return np.array(m.points, float), np.array(m.faces), np.array(m.point_data["Normals"])

    @staticmethod
    def _box():
        m = pv.Box(bounds=(-1, 1, -1, 1, -1, 1))
        return np.array(m.points, float), np.array(m.faces)

    @staticmethod
    def _cylinder():
        m = pv.Cylinder(center=(0, 0, 0), direction=(0, 0, 1), radius=1.0, height=1.0,
                        resolution=40, capping=True)
        return np.array(m.points, float), np.array(m.faces), np.array(m.point_data["Normals"])

    @staticmethod
    def _cone():  # tip at z = +0.5, base at z = -0.5, radius 1
        m = pv.Cone(center=(0, 0, 0), direction=(0, 0, 1), height=1.0, radius=1.0,
                    resolution=12)
        return np.array(m.points, float), np.array(m.faces)

    @staticmethod
    def _square():
        return (np.array([[-1, -1, 0], [1, -1, 0], [1, 1, 0], [-1, 1, 0]], float),
                np.array([4, 0, 1, 2, 3]))


def cone_points(tip, direction, height: float, radius: float) -> np.ndarray:
    pts, _ = _Templates.get("cone")
    R = frame_of(direction)
    local = pts * np.array([radius, radius, height])
    return np.asarray(tip, float) - 0.5 * height * R[2] + local @ R


def _g_point(p, ext):
    return Geom(np.array([p.position], float), verts=True, topo="point")


def _g_segment(p, ext):
    return Geom(np.array([p.p0, p.p1], float), lines=np.array([2, 0, 1]), topo="segment")


def _line_span(origin, direction, ext, t0=None) -> tuple[np.ndarray, np.ndarray]:
    o = np.asarray(origin, float)
    dn = _unit(direction)
    # parameter (along the unit direction) of the point nearest the extent's centre
    mid = float(np.dot(ext.center - o, dn))
    half = ext.size
    lo = mid - half if t0 is None else max(0.0, min(mid - half, 0.0))
    hi = max(mid + half, (lo + 1e-9)) if t0 is None else max(mid + half, ext.size * 0.5)
    return o + lo * dn, o + hi * dn


def _g_ray(p, ext):
    a, b = _line_span(p.origin, p.direction, ext, t0=0.0)
    d = _unit(p.direction)
    h = ext.size * 0.05
    cone = cone_points(np.asarray(p.origin, float) + d * (ext.size * 0.035 + h / 2), d, h,
                       ext.size * 0.015)
    _, cf = _Templates.get("cone")
    faces = _offset_cells(cf, 2)
    return Geom(np.vstack([[a, b], cone]), faces=faces, lines=np.array([2, 0, 1]), topo="ray")


def _g_line(p, ext):
    a, b = _line_span(p.origin, p.direction, ext)
    return Geom(np.array([a, b]), lines=np.array([2, 0, 1]), topo="segment")


def _g_plane(p, ext):
    n = _unit(p.normal)
    origin = np.asarray(p.origin, float)
    # centre the drawn square on the projection of the scene centre onto the plane
    c = ext.center - np.dot(ext.center - origin, n) * n
    pts, faces = _Templates.get("square")
    R = frame_of(n)
    return Geom(c + (pts * ext.size * 0.6) @ R, faces=faces, topo="plane")


def _g_triangle(p, ext):
    return Geom(np.asarray(p.vertices, dtype=float), faces=np.array([3, 0, 1, 2]),
                topo="triangle")


def _g_sphere(p, ext):
    pts, faces, normals = _Templates.get("sphere")
    r = max(float(p.radius), 1e-3 * ext.size)
    return Geom(np.asarray(p.center, float) + pts * r, faces=faces, normals=normals,
                topo="sphere")


def _g_aabb(p, ext):
    pts, faces = _Templates.get("box")
    lo, hi = np.asarray(p.min, float), np.asarray(p.max, float)
    return Geom((lo + hi) / 2 + pts * (hi - lo) / 2, faces=faces, topo="box")


def _g_obb(p, ext):
    pts, faces = _Templates.get("box")
    e = np.asarray(p.extents, float)
    # a local point u maps to center + u @ axes (axes are rows)
    return Geom(np.asarray(p.center, float) + (pts * e) @ np.asarray(p.axes, float),
                faces=faces, topo="box")


def _g_cylinder(p, ext):
    pts, faces, normals = _Templates.get("cylinder")
    r = max(float(p.radius), 1e-3 * ext.size)
    h = max(float(p.height), 1e-4 * ext.size)
    R = frame_of(p.axis)
    return Geom(np.asarray(p.center, float) + (pts * np.array([r, r, h])) @ R, faces=faces,
                normals=normals @ R, topo="cylinder")


def _g_capsule(p, ext):
    """A unit sphere cut at its equator, the halves pushed apart along the axis: the two
    hemispheres and the tube between them in one closed mesh."""
    pts, faces, normals = _Templates.get("sphere")
    r = max(float(p.radius), 1e-3 * ext.size)
    p0, p1 = np.asarray(p.p0, float), np.asarray(p.p1, float)
    length = float(np.linalg.norm(p1 - p0))
    R = frame_of(p1 - p0 if length > 0 else (0.0, 0.0, 1.0))
    local = pts * r
    local[:, 2] += np.sign(pts[:, 2]) * length / 2
    return Geom((p0 + p1) / 2 + local @ R, faces=faces, normals=normals @ R, topo="sphere")


def _offset_cells(cells: np.ndarray, offset: int) -> np.ndarray:
    out = np.array(cells, copy=True)
    i = 0
    while i < len(out):
        n = out[i]
        out[i + 1:i + 1 + n] += offset
        i += n + 1
    return out


#: primitive type -> function(primitive, extent) -> :class:`Geom` (points from a template)
GEOMS: dict[str, Callable] = {
    "point": _g_point, "segment": _g_segment, "ray": _g_ray, "line": _g_line,
    "plane": _g_plane, "triangle": _g_triangle, "sphere": _g_sphere, "aabb": _g_aabb,
    "obb": _g_obb, "cylinder": _g_cylinder, "capsule": _g_capsule,
}


def geom_to_mesh(g: Geom) -> pv.PolyData:
    """A new PyVista mesh holding ``g``."""
    kw = {}
    if g.faces is not None:
        kw["faces"] = g.faces
    if g.lines is not None:
        kw["lines"] = g.lines
    mesh = pv.PolyData(np.array(g.points, dtype=float), **kw)
    if g.verts and g.faces is None and g.lines is None:
        pass  # PolyData(points) already makes one vertex cell per point
    if g.normals is not None:
        mesh.point_data["Normals"] = np.array(g.normals, dtype=float)
        mesh.point_data.active_normals_name = "Normals"
    return mesh


def write_geom(mesh, g: Geom, same_topology: bool) -> None:
    """Refill ``mesh`` with ``g``: points (and normals) only when the topology is the same,
    a shallow copy of a new mesh otherwise."""
    if same_topology and _PointWriter(mesh).write(g):
        return
    mesh.copy_from(geom_to_mesh(g), deep=False)


class _PointWriter:
    """Numpy views on a mesh's point and normal arrays, to rewrite them in place.

    Built once per mesh and topology and kept by the view, so a drag step writes an overlay's
    points with one numpy assignment and two ``Modified`` calls: the VTK methods are called
    unbound, which skips PyVista's attribute wrappers (the bulk of the cost for small meshes).
    Invalid once the mesh got new arrays (:meth:`write` after ``copy_from``): the view makes
    a new one whenever the topology changes.
    """

    __slots__ = ("mesh", "n", "vpts", "pts", "vnrm", "nrm", "normals_written")

    def __init__(self, mesh):
        self.mesh = mesh
        vp = vtkPointSet.GetPoints(mesh)
        self.vpts = vp
        self.pts = None if vp is None else numpy_support.vtk_to_numpy(vp.GetData())
        self.n = -1 if self.pts is None else len(self.pts)
        na = vtkDataSet.GetPointData(mesh).GetNormals()
        self.vnrm = na
        self.nrm = None if na is None else numpy_support.vtk_to_numpy(na)
        self.normals_written = None

    def write(self, g: Geom) -> bool:
        """Write ``g``'s points (and normals); ``False`` (nothing written) when the number of
        points differs."""
        if self.n != len(g.points) or self.n <= 0:
            return False
        self.pts[:] = g.points
        self.vpts.Modified()
        if (g.normals is not None and g.normals is not self.normals_written
                and self.nrm is not None and len(self.nrm) == self.n):
            # the very array written last (a template's normals: a moved or scaled sphere)
            # holds the same values: templates are never changed in place
            self.nrm[:] = g.normals
            self.vnrm.Modified()
            self.normals_written = g.normals
        vtkObject.Modified(self.mesh)
        return True


#: id(vtkPoints) -> (the points, their MTime, the centre of their bounds)
_CENTERS: dict = {}


def mesh_center(mesh) -> np.ndarray:
    """The centre of a mesh's bounding box, from its points with numpy.

    Equal to VTK's ``GetCenter`` for the meshes drawn here (every point is used by a cell),
    which for a polygonal mesh walks every cell, in VTK's thread pool: that costs a drag
    step about ten times as much as the numpy bounds of a few hundred points."""
    if isinstance(mesh, vtkPointSet):
        vp = vtkPointSet.GetPoints(mesh)
        if vp is not None and vp.GetNumberOfPoints():
            hit = _CENTERS.get(id(vp))
            mtime = vp.GetMTime()
            if hit is not None and hit[0] is vp and hit[1] == mtime:
                return hit[2].copy()  # the points did not change since
            pts = numpy_support.vtk_to_numpy(vp.GetData())
            center = (pts.min(axis=0) + pts.max(axis=0)) / 2
            if len(_CENTERS) >= 256:
                _CENTERS.clear()
            _CENTERS[id(vp)] = (vp, mtime, center)
            return center.copy()
    if isinstance(mesh, vtkDataSet):
        return np.array(vtkDataSet.GetCenter(mesh), dtype=float)
    return np.asarray(mesh.center, dtype=float)


def primitive_geom(prim: Primitive, ext: Extent) -> Geom:
    """The geometry of ``prim``; beyond the drawing range (:mod:`explorer.model.drawrange`)
    its points are clamped into it and ``beyond`` is set (the view hides such an object)."""
    with quiet():
        g = GEOMS[prim.kind](prim, ext)
        if not drawable(g.points) or (g.normals is not None
                                      and not np.all(np.isfinite(g.normals))):
            g.points = clamped(g.points)
            if g.normals is not None:
                g.normals = np.nan_to_num(g.normals, nan=0.0, posinf=1.0, neginf=-1.0)
            g.beyond = True
    return g


def _mesher(kind: str) -> Callable:
    def mesh(p, ext):
        return geom_to_mesh(primitive_geom(p, ext))

    mesh.__name__ = f"mesh_{kind}"
    return mesh


#: primitive type -> function(primitive, extent) -> PyVista mesh
MESHERS: dict[str, Callable] = {kind: _mesher(kind) for kind in GEOMS}

_SOLID = dict(opacity=0.45, specular=0.3, show_edges=False)
_LINEAR = dict(line_width=5, render_lines_as_tubes=True)
#: primitive type -> add_mesh keyword arguments (the colour comes from the object)
LOOKS: dict[str, dict] = {
    "point": dict(point_size=16, render_points_as_spheres=True),
    "segment": _LINEAR, "ray": _LINEAR, "line": dict(_LINEAR, line_width=3),
    "plane": dict(opacity=0.18, show_edges=True, edge_color="#555555"),
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
    actor.SetVisibility(not obj.hidden)
    return actor


#: what a label draws for "|": VTK's text renderer drops the ASCII bar (``"|v|"`` showed as
#: ``"v"``) and its built-in fonts have no look-alike; U+01C0 in DejaVu Sans looks the same
BAR = "\u01c0"


def _font_file() -> Optional[str]:
    """DejaVu Sans, which matplotlib (a dependency of pyvista) always ships; ``None`` if not."""
    global _FONT
    if _FONT is None:
        try:
            import matplotlib

            path = os.path.join(matplotlib.get_data_path(), "fonts", "ttf", "DejaVuSans.ttf")
            _FONT = path if os.path.exists(path) else ""
        except Exception:  # noqa: BLE001 - no font file: the bar is drawn as "I"
            _FONT = ""
    return _FONT or None


_FONT: Optional[str] = None


def drawable_text(text: str, prop) -> str:
    """``text`` as a VTK text actor with text property ``prop`` can draw it: a ``"|"`` (a
    user's label ``"|AB|"``, a norm) becomes :data:`BAR` in DejaVu Sans, and the property goes
    back to the view's usual font for text without one."""
    if "|" not in text:
        if prop.GetFontFamily() == VTK_FONT_FILE:
            prop.SetFontFamilyToArial()
        return text
    font = _font_file()
    if font is None:
        return text.replace("|", "I")
    prop.SetFontFamily(VTK_FONT_FILE)
    prop.SetFontFile(font)
    return text.replace("|", BAR)


def nice_step(span: float, cells: int = 12) -> float:
    """A round grid spacing (1, 2 or 5 times a power of ten) giving about ``cells`` cells."""
    raw = max(span, 1e-9) / cells
    mag = 10 ** math.floor(math.log10(raw))
    return next(m * mag for m in (1, 2, 5, 10) if m * mag >= raw)


def add_floor(plotter, ext: Extent):
    """A floor grid just under the objects, its lines on round coordinates."""
    lo = ext.lo if ext.lo is not None else ext.center - ext.size / 2
    hi = ext.hi if ext.hi is not None else ext.center + ext.size / 2
    with quiet():
        span = max(float(max(hi[0] - lo[0], hi[1] - lo[1])) * 1.6, ext.size * 0.6)
    if not (math.isfinite(span) and math.isfinite(float(np.max(np.abs(ext.center))))
            and span < 1e150):  # objects 1e300 apart: no grid (its step would overflow)
        plotter.remove_actor("floor", reset_camera=False, render=False)
        return
    step = nice_step(span)
    x0 = math.floor((ext.center[0] - span / 2) / step) * step
    y0 = math.floor((ext.center[1] - span / 2) / step) * step
    n = int(math.ceil(span / step)) + 1
    z = min(float(lo[2]), 0.0) - 0.002 * ext.size
    floor = pv.Plane(center=(x0 + n * step / 2, y0 + n * step / 2, z), direction=(0, 0, 1),
                     i_size=n * step, j_size=n * step, i_resolution=n, j_resolution=n)
    shown = plotter.actors.get("floor")
    mapper = shown.GetMapper() if shown is not None else None
    if mapper is not None and isinstance(mapper.GetInput(), pv.PolyData):
        # the floor of the last scene: its mesh is refilled in place (no new actor; removing
        # one before the window's first frame made pyvistaqt create a throwaway GL context,
        # 0.1 s of every start)
        mapper.GetInput().copy_from(floor)
        return
    plotter.add_mesh(floor, style="wireframe", color="#c9ccd3", line_width=1, name="floor",
                     pickable=False)


def populate(plotter, scene: Scene) -> dict:
    """Draw a whole scene (objects and floor) into ``plotter``.

    Returns ``{object id: actor}``.
    """
    ext = scene_extent(scene.objects)
    plotter.set_background(BACKGROUND)
    actors = {o.id: add_object(plotter, o, i, ext) for i, o in enumerate(scene.objects)}
    add_floor(plotter, ext)
    return actors


def frame_bounds(view: "SceneView", obj_id: Optional[str] = None) -> list:
    """Camera bounds that hold ``obj_id`` (or every object and its motion) with a margin;
    rays and lines count by their origin, planes not at all."""
    with quiet():
        return _frame_bounds(view, obj_id)


def _frame_bounds(view: "SceneView", obj_id: Optional[str]) -> list:
    scene = view.scene
    ids = [obj_id] if obj_id is not None else (scene.ids() if scene is not None else [])
    boxes = []
    for i in ids:
        if i not in view.meshes or scene is None or i not in scene or i in view.beyond:
            continue
        if scene[i].kind in ("ray", "line", "plane"):
            if scene[i].kind != "plane":
                o = np.asarray(scene[i].primitive.origin, dtype=float)
                if drawable(o):
                    boxes.append(np.array([o[0], o[0], o[1], o[1], o[2], o[2]]))
            continue
        b = np.array(view.meshes[i].bounds, dtype=float)
        boxes.append(b)
        motion = scene[i].motion
        if motion is not None and obj_id is None:  # the whole path stays in view
            m = np.asarray(motion, dtype=float) * (1.0 - view.time)
            if drawable(b + np.repeat(m, 2)):
                boxes.append(b + np.repeat(m, 2))
    if boxes:
        arr = np.array(boxes)
        b = np.empty(6)
        b[0::2] = arr[:, 0::2].min(axis=0)
        b[1::2] = arr[:, 1::2].max(axis=0)
    else:
        c, s = view.ext.center, view.ext.size / 4
        b = np.array([c[0] - s, c[0] + s, c[1] - s, c[1] + s, c[2] - s, c[2] + s])
    pad = max(float(np.max(b[1::2] - b[0::2])) * 0.08, 0.1)
    b[0::2] -= pad
    b[1::2] += pad
    return b.tolist()


# ----------------------------------------------------------------------------- live view


_RGB_CACHE: dict = {}

#: overlays (and labels) that describe the objects at t = 0: hidden at other times
STATIC_ANSWERS = ("ov:closest:", "ov:hits:", "ov:sat:", "ov:side:", "ov:intersects:")

#: parked overlays kept at most (then all are dropped at once)
_MAX_PARKED = 256


def _signature(kwargs: dict) -> tuple:
    """The look of an overlay (its ``add_mesh`` keywords) as a comparable value."""
    return tuple(sorted(kwargs.items()))


def _same(a, b) -> bool:
    """``a == b`` for two :func:`_signature` values, also when they hold numpy arrays."""
    try:
        return bool(a == b)
    except (ValueError, TypeError):
        return repr(a) == repr(b)


def _rgb(color) -> tuple:
    """Any colour PyVista understands as an ``(r, g, b)`` float tuple."""
    key = color if isinstance(color, str) else tuple(color)
    hit = _RGB_CACHE.get(key)
    if hit is None:
        hit = _RGB_CACHE[key] = tuple(pv.Color(color).float_rgb)
    return hit


def _take_out_undrawn(renderer, actor) -> None:
    """``renderer.RemoveViewProp(actor)`` for an actor that was never rendered, without its
    ``ReleaseGraphicsResources``: it has none to release, and that call makes the render
    window's context current; before the window's first frame pyvistaqt then builds a
    throwaway OpenGL context for it (about 75 ms of the start-up here, ``explorer bench
    startup``). The same steps otherwise: the renderer stops consuming the actor, drops it
    from its props and is modified."""
    actor.RemoveConsumer(renderer)
    renderer.GetViewProps().RemoveItem(actor)
    renderer.Modified()


class SceneView:
    """A live drawing of a :class:`Scene` in any PyVista plotter (Qt or offscreen). No Qt.

    It subscribes to the scene's events and updates the actors *in place* (the mesh of an
    object is refilled with ``copy_from``; an overlay of the same name and look is refilled the
    same way), so a drag step never rebuilds actors. Names follow PyVista's convention:
    ``obj:<id>`` for objects, anything else for overlays (:meth:`add_overlay` replaces by name).

    Examples
    --------
    >>> import pyvista as pv
    >>> from explorer.model.scene import Scene
    >>> from algorithms import Sphere
    >>> plotter = pv.Plotter(off_screen=True)
    >>> scene = Scene(); _ = scene.add(Sphere((0, 0, 0), 1))
    >>> view = SceneView(plotter); view.set_scene(scene)
    >>> sorted(view.actors)
    ['sphere1']
    >>> plotter.close()
    """

    def __init__(self, plotter, merge_overlays: bool = False):
        self.plotter = plotter
        #: draw the frame's items with one actor per look (:mod:`explorer.render.batches`):
        #: the live window does; the exports keep one actor per named item (a block each)
        self.merge_overlays = merge_overlays
        #: look key -> :class:`~explorer.render.batches.Batch` (merged mode)
        self._batches: dict = {}
        #: item name -> (the item, its batch) of the frame shown (merged mode)
        self._merged: dict = {}
        self._marks: Optional[tuple] = None
        #: merged mode: the objects drawn with one actor per look, synced before each render
        #: (their own actors stay in :attr:`actors`, out of the renderer)
        self.object_batches = None
        if merge_overlays:
            from explorer.render.batches import ObjectBatches

            self.object_batches = ObjectBatches(self)
            plotter.renderer.AddObserver("StartEvent", self._sync_objects)
        self.scene: Optional[Scene] = None
        self.ext = Extent(np.zeros(3), 4.0)
        self.time = 0.0
        #: pixel size of the answer labels (the presentation mode makes them larger)
        self.label_font_size = 15
        self.meshes: dict = {}
        self.actors: dict = {}
        self.colors: dict = {}
        self._overlays: dict = {}  # name -> [actor, mesh, signature]
        self._labels: dict = {}  # name -> vtkTextActor
        #: the frame's :attr:`~explorer.render.overlays.Frame.follows` (item name -> object id)
        self._follows: dict = {}
        self._label_states: dict = {}  # name -> (text, anchor, colour) as last set
        self._label_parts: dict = {}  # name -> (vtkTextActor, its text property, its anchor)
        self._frame_names: set = set()
        self._frame_labels: set = set()
        self._drawn_labels: dict = {}
        self._drawn_items: dict = {}
        self._tints: dict = {}
        #: object id -> the colour its actor shows (a tint or its own): set only when it changes
        self._shown_colors: dict = {}
        self._topo: dict = {}
        #: object id -> :class:`_PointWriter` of its mesh (valid while its topology stays)
        self._writers: dict = {}
        #: overlays of the frame that left the last frame: hidden, kept by name to be shown
        #: again (an answer that comes and goes while dragging costs no new actor)
        self._parked: dict = {}
        #: called with no arguments after objects were added, removed or reset
        self.on_rebuild: list[Callable] = []
        #: ids of the objects beyond the drawing range (hidden; :meth:`range_note` names them)
        self.beyond: set = set()

    def _sync_objects(self, *_args) -> None:
        self.sync_objects()

    def sync_objects(self) -> None:
        """Merged mode: bring the object batches up to date (the renderer does it before each
        render; the view after a rebuild, so the first camera frames the objects)."""
        if self.object_batches is not None:
            self.object_batches.sync()

    @contextlib.contextmanager
    def objects_in_renderer(self):
        """Merged mode: the objects' own actors in the renderer (their batches hidden) for the
        span of the block: what a pick renders."""
        batches = self.object_batches.actors() if self.object_batches is not None else []
        if not batches:
            yield
            return
        ren = self.plotter.renderer
        for actor in self.actors.values():
            ren.AddViewProp(actor)
        for b in batches:
            b.SetVisibility(False)
        try:
            yield
        finally:
            for actor in self.actors.values():
                ren.RemoveViewProp(actor)
            for b in batches:
                b.SetVisibility(True)

    # ------------------------------------------------------------------ scene binding
    def set_scene(self, scene: Scene) -> None:
        if self.scene is not None:
            self._unbind(self.scene)
        self.scene = scene
        scene.object_added.connect(self._on_added)
        scene.object_removed.connect(self._on_removed)
        scene.object_changed.connect(self._on_changed)
        scene.reset.connect(self.rebuild)
        self.rebuild()

    def _unbind(self, scene: Scene) -> None:
        scene.object_added.disconnect(self._on_added)
        scene.object_removed.disconnect(self._on_removed)
        scene.object_changed.disconnect(self._on_changed)
        scene.reset.disconnect(self.rebuild)

    def close(self) -> None:
        if self.scene is not None:
            self._unbind(self.scene)
        self.scene = None

    #: when True, :meth:`rebuild` clears the view and leaves the drawing of the objects to
    #: :attr:`pending_rebuild` (a generator the window's loader runs in steps with progress)
    defer_rebuild = False
    #: the steps of a deferred rebuild (``None``: nothing pending)
    pending_rebuild = None

    def rebuild(self) -> None:
        """Drop every actor and draw the scene again (opened a file, New, undo).

        With :attr:`defer_rebuild` set the old actors are dropped at once and the new ones
        are drawn by the generator left in :attr:`pending_rebuild`; each ``next`` draws up to
        ``REBUILD_CHUNK`` objects and yields how many are drawn (the last step also draws the
        floor and calls :attr:`on_rebuild`)."""
        self.pending_rebuild = None
        for obj_id in list(self.actors):
            self._remove_object_actor(obj_id)
        self.clear_frame()
        self.ext = scene_extent(self.scene.objects if self.scene else [])
        self.plotter.set_background(BACKGROUND)
        steps = self._rebuild_steps(list(self.scene.objects) if self.scene is not None else [])
        if self.defer_rebuild:
            self.pending_rebuild = steps
            return
        for _ in steps:
            pass

    #: objects drawn per step of a deferred rebuild
    REBUILD_CHUNK = 4

    def _rebuild_steps(self, objects: list):
        for i, obj in enumerate(objects):
            self._add_object_actor(obj, i)
            if (i + 1) % self.REBUILD_CHUNK == 0 and i + 1 < len(objects):
                yield i + 1
        add_floor(self.plotter, self.ext)
        self.sync_objects()
        self.pending_rebuild = None
        for cb in self.on_rebuild:
            cb()
        yield len(objects)

    def refresh_extent(self) -> bool:
        """Recompute the extent; when it changed, redraw every object (rays, lines and planes
        span it) and the floor. Returns whether it changed."""
        ext = scene_extent(self.scene.objects if self.scene else [])
        if (ext.size == self.ext.size and np.array_equal(ext.center, self.ext.center)
                and np.array_equal(ext.lo, self.ext.lo) and np.array_equal(ext.hi, self.ext.hi)):
            return False
        self.ext = ext
        for obj in self.scene.objects:
            self._refill(obj)
        add_floor(self.plotter, self.ext)
        return True

    # ------------------------------------------------------------------ objects
    def prim_of(self, obj: SceneObject) -> Primitive:
        """The primitive as drawn: at the view's time ``t``."""
        return obj.at_time(self.time) if self.time else obj.primitive

    def _geom_of(self, obj: SceneObject) -> Geom:
        """The object's geometry at the view's time; an object that cannot be placed there
        (a plane with a 1e300 normal moved by 1e300: its ``d`` overflows) is beyond the
        drawing range, drawn where it is at t = 0 and hidden."""
        try:
            return primitive_geom(self.prim_of(obj), self.ext)
        except (GeometryError, OverflowError):
            g = primitive_geom(obj.primitive, self.ext)
            g.beyond = True
            return g

    def _add_object_actor(self, obj: SceneObject, index: int) -> None:
        g = self._geom_of(obj)
        color = color_of(obj, index)
        try:
            _rgb(color)
        except ValueError:
            color = PALETTE[index % len(PALETTE)]
        if obj.id in self.actors:
            self._remove_object_actor(obj.id)
        # the view keeps its own table of actors (and removes an object's actor itself), so
        # PyVista need not look for one of the same name: that scan of every actor made opening
        # an n-object scene quadratic (400 spheres: 4.5 s)
        actor = self.plotter.add_mesh(geom_to_mesh(g), color=color, name=f"obj:{obj.id}",
                                      pickable=True, reset_camera=False, render=False,
                                      remove_existing_actor=False, **LOOKS[obj.kind])
        self._set_beyond(obj.id, g.beyond)
        actor.SetVisibility(not obj.hidden and not g.beyond)
        if self.object_batches is not None:  # drawn by its look's batch (merged mode)
            _take_out_undrawn(self.plotter.renderer, actor)
        # keep the dataset the mapper really draws (add_mesh may have wrapped a copy)
        self.meshes[obj.id] = actor.mapper.dataset
        self.actors[obj.id], self.colors[obj.id] = actor, _rgb(color)
        self._topo[obj.id] = g.topo

    def _set_beyond(self, obj_id: str, beyond: bool) -> None:
        if beyond:
            self.beyond.add(obj_id)
        else:
            self.beyond.discard(obj_id)

    def range_note(self) -> str:
        """What the status bar says about objects beyond the drawing range (``""``: none)."""
        ids = self.scene.ids() if self.scene is not None else []
        return beyond_note([i for i in ids if i in self.beyond])

    def _remove_object_actor(self, obj_id: str) -> None:
        self.beyond.discard(obj_id)
        actor = self.actors.pop(obj_id, None)
        self.meshes.pop(obj_id, None)
        self.colors.pop(obj_id, None)
        self._tints.pop(obj_id, None)
        self._shown_colors.pop(obj_id, None)
        self._writers.pop(obj_id, None)
        if actor is not None:
            self.plotter.remove_actor(actor, reset_camera=False, render=False)

    def _refill(self, obj: SceneObject) -> None:
        mesh = self.meshes.get(obj.id)
        if mesh is None:
            return
        g = self._geom_of(obj)
        if g.beyond != (obj.id in self.beyond):
            self._set_beyond(obj.id, g.beyond)
            self.actors[obj.id].SetVisibility(not obj.hidden and not g.beyond)
        writer = self._writers.get(obj.id) if self._topo.get(obj.id) == g.topo else None
        if writer is None or writer.mesh is not mesh or not writer.write(g):
            write_geom(mesh, g, self._topo.get(obj.id) == g.topo)
            self._writers[obj.id] = _PointWriter(mesh)
        self._topo[obj.id] = g.topo

    def _on_added(self, obj: SceneObject) -> None:
        self._add_object_actor(obj, self.scene.index(obj.id))
        self.sync_objects()
        self.refresh_extent()
        for cb in self.on_rebuild:
            cb()

    def _on_removed(self, obj: SceneObject) -> None:
        self._remove_object_actor(obj.id)
        self.refresh_extent()
        for cb in self.on_rebuild:
            cb()

    def _on_changed(self, obj: SceneObject, fields: set) -> None:
        if obj.id not in self.actors:
            return
        if "primitive" in fields or "motion" in fields:
            self._refill(obj)
        if "color" in fields:
            index = self.scene.index(obj.id)
            color = color_of(obj, index)
            try:
                self.colors[obj.id] = _rgb(color)
            except ValueError:
                self.colors[obj.id] = _rgb(PALETTE[index % len(PALETTE)])
            self._apply_color(obj.id)
        if "hidden" in fields:
            self.actors[obj.id].SetVisibility(not obj.hidden and obj.id not in self.beyond)

    def _follow_offset(self, name: str):
        """How far item ``name`` is shifted at the view's time (``None``: not at all)."""
        obj_id = self._follows.get(name)
        if obj_id is None or not self.time or self.scene is None or obj_id not in self.scene:
            return None
        motion = self.scene[obj_id].motion
        if motion is None:
            return None
        return self.time * np.asarray(motion, dtype=float)

    def _followed(self, name: str, position):
        off = self._follow_offset(name)
        return position if off is None else tuple(np.asarray(position, dtype=float) + off)

    def _place_followers(self) -> None:
        """Shift the items and labels that follow a moving object to the view's time."""
        for name in self._follows:
            cur = self._overlays.get(name)
            if cur is not None:
                off = self._follow_offset(name)
                cur[0].SetPosition(*(off if off is not None else (0.0, 0.0, 0.0)))
            lab = self._drawn_labels.get(name)
            if lab is not None:
                self.set_label(name, self._followed(name, lab.position), lab.text, lab.color)

    def set_time(self, t: float) -> None:
        """Draw moving objects at ``t * motion`` (``0``: as in the file).

        The answers about the objects where the file puts them (closest points, hits,
        separating axes, sides, intersections: :data:`STATIC_ANSWERS`) are hidden while another
        time is shown, so nothing is drawn against objects that have moved away from it.
        """
        self.time = float(t)
        if self.scene is None:
            return
        for obj in self.scene.objects:
            if obj.motion is not None:
                self._refill(obj)
        self._sync_static_answers()
        if self._follows:
            self._place_followers()

    #: what the view says while a time other than 0 is shown (issue 10: say why answers vanish)
    TIME_NOTE = ("t = {t:.3g}: the answers about t = 0 (closest points, hits, separating axes, "
                 "sides) are hidden; set t = 0 to see them")

    def time_note(self) -> str:
        """The text shown in the view's corner while ``t != 0`` (``""`` at ``t = 0``)."""
        return "" if self.time == 0.0 else self.TIME_NOTE.format(t=self.time)

    def _sync_time_note(self) -> None:
        text = self.time_note()
        note = getattr(self, "_time_note_actor", None)
        if note is None:
            if not text:
                return
            from vtkmodules.vtkRenderingCore import vtkTextActor

            note = self._time_note_actor = vtkTextActor()
            tp = note.GetTextProperty()
            tp.SetFontSize(15)
            tp.SetColor(0.45, 0.2, 0.6)
            tp.SetBackgroundColor(1.0, 1.0, 1.0)
            tp.SetBackgroundOpacity(0.8)
            note.SetPosition(10, 10)
            self.plotter.renderer.AddActor(note)
        note.SetInput(text)
        note.SetVisibility(bool(text))

    def _sync_static_answers(self) -> None:
        show = self.time == 0.0
        self._sync_time_note()
        for name, cur in self._overlays.items():
            if name.startswith(STATIC_ANSWERS) and cur[6]:
                cur[0].SetVisibility(show)
        for batch in self._batches.values():
            if batch.static:
                batch.show(show and bool(batch.items))
        for name, actor in self._labels.items():
            if name.startswith(STATIC_ANSWERS):
                actor.SetVisibility(show)

    # ------------------------------------------------------------------ overlays
    def add_overlay(self, name: str, mesh, **kwargs):
        """Add or refill the overlay ``name`` (same name and look: refilled in place).

        ``mesh`` is a PyVista mesh or a :class:`Geom`; returns the actor."""
        asked = dict(kwargs)  # the keywords as given (apply_frame compares them)
        kwargs.setdefault("pickable", False)
        kwargs.setdefault("reset_camera", False)
        kwargs.setdefault("render", False)
        sig = _signature(kwargs)
        cur = self._overlays.get(name)
        if cur is None:
            cur = self._parked.pop(name, None)
            if cur is not None:
                self._overlays[name] = cur
        geom = mesh if isinstance(mesh, Geom) else None
        if cur is not None and _same(cur[2], sig):
            cur[7] = asked
            if geom is not None and cur[3] is not None:
                if cur[4] is not geom:  # the very same geometry as drawn: nothing to write
                    writer = cur[5] if cur[3] == geom.topo and geom.topo else None
                    if writer is None or not writer.write(geom):
                        write_geom(cur[1], geom, cur[3] == geom.topo and bool(geom.topo))
                        cur[5] = _PointWriter(cur[1])
                    cur[3], cur[4] = geom.topo, geom
                if not cur[6]:
                    cur[0].SetVisibility(True)
                    cur[6] = True
                return cur[0]
            if geom is None and cur[3] is None and type(cur[1]) is type(mesh):
                if cur[1] is not mesh:
                    cur[1].copy_from(mesh, deep=False)
                cur[0].SetVisibility(True)
                cur[6] = True
                return cur[0]
        if cur is not None:
            del self._overlays[name]
            self.plotter.remove_actor(cur[0], reset_camera=False, render=False)
        data = geom_to_mesh(geom) if geom is not None else mesh
        if data.n_points == 0:  # nothing to draw (an arrow of length 5e-324): no actor
            return None
        actor = self.plotter.add_mesh(data, name=name, **kwargs)
        held = actor.mapper.dataset if geom is not None else mesh
        writer = _PointWriter(held) if geom is not None else None
        # [actor, mesh drawn, look, topology, geometry written last, point writer, visible,
        #  the add_mesh keywords as given]
        self._overlays[name] = [actor, held, sig, None if geom is None else geom.topo, geom,
                                writer, True, asked]
        return actor

    def _park(self, name: str) -> None:
        """Hide the overlay ``name`` and keep its actor for when the name comes back."""
        cur = self._overlays.pop(name, None)
        if cur is None:
            return
        if len(self._parked) >= _MAX_PARKED:
            self._unpark_all()
        cur[0].SetVisibility(False)
        cur[6] = False
        cur[4] = None
        self._parked[name] = cur

    def _unpark_all(self) -> None:
        """Remove the parked (hidden) overlay actors."""
        for cur in self._parked.values():
            self.plotter.remove_actor(cur[0], reset_camera=False, render=False)
        self._parked.clear()

    def remove_overlay(self, name: str) -> None:
        """Remove the overlays whose name is ``name`` or starts with it (a prefix)."""
        gone = [k for k in self._merged if k.startswith(name)]
        if gone:
            touched = {id(self._merged[k][1]): self._merged[k][1] for k in gone}
            for k in gone:
                del self._merged[k]
            for batch in touched.values():
                batch.update([it for it in batch.items if not it.name.startswith(name)],
                             visible=self.time == 0.0 or not batch.static)
        for key in [k for k in self._overlays if k.startswith(name)]:
            self._drawn_items.pop(key, None)
            actor = self._overlays.pop(key)[0]
            self.plotter.remove_actor(actor, reset_camera=False, render=False)
            self._frame_names.discard(key)
        for key in [k for k in self._parked if k.startswith(name)]:
            self.plotter.remove_actor(self._parked.pop(key)[0], reset_camera=False,
                                      render=False)
        for key in [k for k in self._labels if k.startswith(name)]:
            self.plotter.renderer.RemoveActor(self._labels.pop(key))
            self._label_states.pop(key, None)
            self._label_parts.pop(key, None)
            self._drawn_labels.pop(key, None)
            self._frame_labels.discard(key)

    def remove_label(self, name: str) -> None:
        """Remove the label called exactly ``name`` (no prefix match), if there is one."""
        actor = self._labels.pop(name, None)
        if actor is None:
            return
        self.plotter.renderer.RemoveActor(actor)
        self._label_states.pop(name, None)
        self._label_parts.pop(name, None)
        self._drawn_labels.pop(name, None)
        self._frame_labels.discard(name)

    def overlay_names(self) -> list[str]:
        return sorted(set(self._overlays) | set(self._merged)) + sorted(self._labels)

    def label_actors(self) -> dict:
        """``{name: vtkTextActor}`` of every label shown (a copy: the view owns them)."""
        return dict(self._labels)

    def label_state(self, name: str):
        """``(text, anchor, colour)`` of label ``name`` as last set, ``None`` if it has none."""
        return self._label_states.get(name)

    def overlay_meshes(self) -> dict:
        """``{name: mesh}`` of every overlay shown (parked ones excluded); a merged item's
        mesh is a new one holding that item alone."""
        out = {name: cur[1] for name, cur in self._overlays.items()}
        for name, (item, _batch) in self._merged.items():
            out[name] = geom_to_mesh(item.mesh)
        return out

    def overlay_actors(self) -> dict:
        """``{name: actor}`` of every overlay shown (parked ones excluded); a merged item's
        actor is its batch's, shared with the other items of its look."""
        out = {name: cur[0] for name, cur in self._overlays.items()}
        for name, (_item, batch) in self._merged.items():
            out[name] = batch.actor
        return out

    def set_label(self, name: str, position, text: str, color="#202020") -> None:
        """A 2-D text label anchored at a 3-D point, drawn over everything (refilled in place)."""
        from vtkmodules.vtkRenderingCore import vtkTextActor

        actor = self._labels.get(name)
        parts = self._label_parts.get(name)
        if parts is None or parts[0] is not actor:
            if actor is None:
                actor = vtkTextActor()
                actor.GetPositionCoordinate().SetCoordinateSystemToWorld()
                tp = actor.GetTextProperty()
                tp.SetFontSize(self.label_font_size)
                tp.SetBackgroundColor(1.0, 1.0, 1.0)
                tp.SetBackgroundOpacity(0.75)
                tp.SetFrame(False)
                tp.SetJustificationToLeft()
                tp.SetVerticalJustificationToBottom()
                self.plotter.renderer.AddActor(actor)
                self._labels[name] = actor
            # the text property and the anchor, kept: fetching them costs more than setting
            parts = self._label_parts[name] = (actor, actor.GetTextProperty(),
                                               actor.GetPositionCoordinate())
        state = (text, tuple(float(c) for c in position), color)
        old = self._label_states.get(name)
        if old == state:
            return  # unchanged since the last frame
        self._label_states[name] = state
        if old is None or old[0] != text:
            actor.SetInput(drawable_text(text, parts[1]))
        if old is None or old[2] != color:
            parts[1].SetColor(*_rgb(color))
        parts[2].SetValue(*state[1])
        actor.SetVisibility(True)

    def apply_frame(self, frame) -> None:
        """Show exactly the overlays, labels and tints of ``frame`` (an ``overlays.Frame``);
        overlays added by others with :meth:`add_overlay` are left alone."""
        names = set()
        last = self._drawn_items
        drawn = self._overlays
        items = frame.items
        follows = getattr(frame, "follows", None) or {}
        for gone in set(self._follows) - set(follows):  # follows no more: back in place
            cur = self._overlays.get(gone) or self._parked.get(gone)
            if cur is not None:
                cur[0].SetPosition(0.0, 0.0, 0.0)
        self._follows = follows
        if self.merge_overlays:
            if self._follows:  # shifted on their own at the view's time: their own actors
                items = ([i for i in items if i.name in self._follows]
                         + self._apply_merged([i for i in items if i.name not in self._follows]))
            else:
                items = self._apply_merged(items)
        for item in items:
            name = item.name
            names.add(name)
            cur = drawn.get(name)
            if cur is None:
                self.add_overlay(name, item.mesh, **item.kwargs)
            elif last.get(name) is item:
                continue  # the very same item as in the last frame (an unchanged pair)
            else:
                geom = item.mesh
                # the common case, inline: same look, same topology, new points
                if (cur[6] and type(geom) is Geom and cur[3] == geom.topo and geom.topo
                        and cur[5] is not None and _same(cur[7], item.kwargs)
                        and cur[5].write(geom)):
                    cur[4] = geom
                else:
                    self.add_overlay(name, geom, **item.kwargs)
            last[name] = item
        for stale in set(last) - names:
            del last[stale]
        for stale in self._frame_names - names:
            self._park(stale)
        self._frame_names = names
        labels = set()
        drawn = self._drawn_labels
        for lab in frame.labels:
            if drawn.get(lab.name) is not lab:  # the same Label object: already shown
                self.set_label(lab.name, self._followed(lab.name, lab.position), lab.text,
                               lab.color)
                drawn[lab.name] = lab
            labels.add(lab.name)
        for stale in self._frame_labels - labels:
            drawn.pop(stale, None)
            self._label_parts.pop(stale, None)
            self._label_states.pop(stale, None)
            actor = self._labels.pop(stale, None)
            if actor is not None:
                self.plotter.renderer.RemoveActor(actor)
        self._frame_labels = labels
        if self.time != 0.0:
            self._sync_static_answers()
        if self._follows:
            self._place_followers()
        old = self._tints
        self._tints = {k: _rgb(v) for k, v in frame.tints.items() if k in self.actors}
        for obj_id in old.keys() | self._tints.keys():
            self._apply_color(obj_id)

    def _apply_merged(self, items: list) -> list:
        """Draw the mergeable items of a frame in their batches (one actor per look); returns
        the others, which keep one actor each."""
        from explorer.render.batches import Batch, look_key

        rest, groups, merged = [], {}, {}
        for item in items:
            look = look_key(item)
            if look is None:
                rest.append(item)
                continue
            key = (item.name.startswith(STATIC_ANSWERS),) + look
            groups.setdefault(key, []).append(item)
        show_static = self.time == 0.0
        for key, group in groups.items():
            batch = self._batches.get(key)
            if batch is None:
                batch = self._batches[key] = Batch(self.plotter, str(len(self._batches)),
                                                   group[0].kwargs, key[0])
            batch.update(group, visible=show_static or not batch.static)
            for item in group:
                merged[item.name] = (item, batch)
                if item.name in self._overlays:  # it had an actor of its own: put away
                    self._park(item.name)
                    self._drawn_items.pop(item.name, None)
                    self._frame_names.discard(item.name)
        for key, batch in self._batches.items():
            if key not in groups:
                batch.update([])
        self._merged = merged
        return rest

    def batches(self) -> list:
        """The batches of merged overlays that draw something (merged mode; else ``[]``)."""
        return [b for b in self._batches.values() if b.items]

    def answer_mark_points(self, per_mesh: int = 32) -> np.ndarray:
        """Up to ``per_mesh`` points of each visible small answer overlay (at most 5000
        points), as an ``(n, 3)`` array: the places a label should not cover. Cached while no
        overlay changed."""
        recs = [(cur[0], cur[1]) for cur in self._overlays.values()]
        sources = [(a, m) for a, m in recs]
        key = tuple((id(m), m.GetMTime(), a.GetVisibility()) for a, m in recs)
        key += tuple((id(b), b.version, b.actor is not None and b.actor.GetVisibility())
                     for b in self._batches.values())
        cached = self._marks
        if cached is not None and cached[0] == key:
            return cached[1]
        pts = []
        for actor, mesh in sources:
            n = mesh.GetNumberOfPoints()
            if not n or n > 5000 or not actor.GetVisibility():
                continue
            pts.append(numpy_support.vtk_to_numpy(mesh.GetPoints().GetData())
                       [:: max(1, n // per_mesh)])
        for b in self._batches.values():
            if b.actor is None or not b.actor.GetVisibility():
                continue
            for item in b.items:
                p = item.mesh.points
                n = len(p)
                if n and n <= 5000:
                    pts.append(np.asarray(p, float)[:: max(1, n // per_mesh)])
        out = np.vstack(pts) if pts else np.zeros((0, 3))
        # the meshes are kept with the key: their ids cannot be reused while cached
        self._marks = (key, out, sources)
        return out

    def clear_frame(self) -> None:
        from types import SimpleNamespace

        self.apply_frame(SimpleNamespace(items=[], labels=[], tints={}, follows={}))
        self._unpark_all()

    def _apply_color(self, obj_id: str) -> None:
        actor = self.actors.get(obj_id)
        if actor is not None:
            color = self._tints.get(obj_id, self.colors[obj_id])
            if self._shown_colors.get(obj_id) != color:  # unchanged: no VTK call
                self._shown_colors[obj_id] = color
                vtkActor.GetProperty(actor).SetColor(*color)

    def tint_of(self, obj_id: str):
        return self._tints.get(obj_id)

    def render(self) -> None:
        self.plotter.render()
