"""Answer overlays merged into one VTK actor per look (issue 12, part 3). No Qt.

A frame of a 100-object scene holds a thousand small named items (closest points, segments,
axes, hit markers, ...), and on software OpenGL every actor costs about a quarter of a
millisecond a frame whatever its size. The frame model keeps its items and names
(:mod:`explorer.render.overlays`); only the drawing changes: the items of one look (the same
``add_mesh`` keywords: colour, opacity, line width, point size, spheres or tubes, and whether
they carry normals) are appended into the mesh of one :class:`Batch` actor.

A batch is rebuilt only when its items change: an unchanged frame writes nothing, a frame
where some items moved (a drag step) writes the points of those items in place (their slice of
the merged point array), and only a change of the items' number or topology rebuilds the cells.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
import pyvista as pv
from vtkmodules.util import numpy_support
from vtkmodules.vtkCommonCore import vtkObject
from vtkmodules.vtkCommonDataModel import vtkDataSet, vtkPointSet

from explorer.render.view import Geom, _offset_cells, geom_to_mesh

#: add_mesh keywords a batch can share (any other keyword: the item keeps its own actor)
MERGEABLE_KEYS = frozenset({"color", "opacity", "line_width", "point_size",
                            "render_points_as_spheres", "render_lines_as_tubes", "style",
                            "show_edges", "edge_color", "specular", "lighting"})


def look_key(item) -> Optional[tuple]:
    """The look an item shares with the others of its batch, ``None`` when it cannot be merged
    (a PyVista mesh, say an object's outline that follows the object's own mesh, or keywords
    beyond :data:`MERGEABLE_KEYS`)."""
    cached = item.__dict__.get("_look", _NO)
    if cached is not _NO:  # the same item as in an earlier frame (an unchanged pair)
        return cached
    key = _look_key(item)
    item.__dict__["_look"] = key
    return key


_NO = object()


def _look_key(item) -> Optional[tuple]:
    g = item.mesh
    if type(g) is not Geom or g.beyond or not len(g.points):
        return None
    kw = item.kwargs
    if not MERGEABLE_KEYS.issuperset(kw):
        return None
    try:
        sig = tuple(sorted((k, tuple(v) if isinstance(v, (list, np.ndarray)) else v)
                           for k, v in kw.items()))
        hash(sig)
    except TypeError:
        return None
    return sig, g.normals is not None


def _shift(cells: Optional[np.ndarray], offset: int) -> Optional[np.ndarray]:
    """VTK's flat cell array ``cells`` with every point index moved by ``offset``."""
    if cells is None or not len(cells):
        return None
    cells = np.asarray(cells)
    if offset == 0:
        return cells
    n = int(cells[0])
    if len(cells) % (n + 1) == 0:  # cells of one size (the usual case): one numpy add
        grid = cells.reshape(-1, n + 1)
        if np.all(grid[:, 0] == n):
            out = grid.copy()
            out[:, 1:] += offset
            return out.ravel()
    return _offset_cells(cells, offset)


class Batch:
    """One actor drawing every item of one look.

    ``names`` are the items' names in the order drawn, ``offsets[i]`` the first point of item
    ``i`` in the merged mesh. :meth:`update` takes the items of this look in the new frame."""

    def __init__(self, plotter, label: str, kwargs: dict, static: bool):
        self.plotter = plotter
        self.label = label
        self.kwargs = dict(kwargs)
        #: the batch holds answers about t = 0 (hidden while another time is shown)
        self.static = static
        self.actor = None
        self.mesh: Optional[pv.PolyData] = None
        self.items: list = []
        self.names: list = []
        self.offsets: list = []
        self._topo: tuple = ()
        self._pts = None
        self._nrm = None
        #: how often the cells were rebuilt and the points written (the tests read them)
        self.rebuilds = 0
        self.writes = 0
        #: counts every change of the items drawn (the view's label marks follow it)
        self.version = 0

    def _build(self, items: list) -> pv.PolyData:
        pts, faces, lines, verts, normals = [], [], [], [], []
        offsets, off = [], 0
        for it in items:
            g = it.mesh
            n = len(g.points)
            offsets.append(off)
            pts.append(np.asarray(g.points, float))
            if g.normals is not None:
                normals.append(np.asarray(g.normals, float))
            f, ln = _shift(g.faces, off), _shift(g.lines, off)
            if f is not None:
                faces.append(f)
            if ln is not None:
                lines.append(ln)
            if f is None and ln is None:  # a point cloud: one vertex cell per point
                verts.append(np.column_stack([np.ones(n, int), np.arange(off, off + n)]).ravel())
            off += n
        self.offsets = offsets
        kw = {}
        if faces:
            kw["faces"] = np.concatenate(faces)
        if lines:
            kw["lines"] = np.concatenate(lines)
        if verts:
            kw["verts"] = np.concatenate(verts)
        mesh = pv.PolyData(np.vstack(pts), **kw)
        if normals and len(normals) == len(items):
            mesh.point_data["Normals"] = np.vstack(normals)
            mesh.point_data.active_normals_name = "Normals"
        return mesh

    def update(self, items: list, visible: bool = True) -> None:
        """Draw ``items`` (``[]``: the actor is hidden and kept for the look's return)."""
        old = self.items
        if len(old) == len(items) and all(a is b for a, b in zip(old, items)):
            self.show(visible and bool(items))
            return  # the very same items as drawn: nothing to write
        self.items = list(items)
        self.names = [it.name for it in items]
        self.version += 1
        if not items:
            self.show(False)
            return
        topo = tuple((it.mesh.topo or id(it.mesh), len(it.mesh.points)) for it in items)
        if (self.actor is not None and topo == self._topo and self._pts is not None
                and all(t[0] for t in topo)):
            self._write(old, items)
        else:
            self._topo = topo
            mesh = self._build(items)
            if self.actor is None:
                self.actor = self.plotter.add_mesh(mesh, name=f"ovm:{self.label}",
                                                   pickable=False, reset_camera=False,
                                                   render=False, **self.kwargs)
                self.mesh = self.actor.mapper.dataset
            else:
                self.mesh.copy_from(mesh, deep=False)
            vp = vtkPointSet.GetPoints(self.mesh)
            self._pts = (vp, numpy_support.vtk_to_numpy(vp.GetData()))
            na = vtkDataSet.GetPointData(self.mesh).GetNormals()
            self._nrm = None if na is None else (na, numpy_support.vtk_to_numpy(na))
            self.rebuilds += 1
        self.show(visible)

    def _write(self, old: list, items: list) -> None:
        """Write the points (and normals) of the items that changed, in their slices."""
        vp, pts = self._pts
        nrm = self._nrm
        wrote = normals = False
        for it, was, o in zip(items, old, self.offsets):
            if it is was or it.mesh is was.mesh:
                continue
            g = it.mesh
            pts[o:o + len(g.points)] = g.points
            wrote = True
            if nrm is not None and g.normals is not None and g.normals is not was.mesh.normals:
                nrm[1][o:o + len(g.points)] = g.normals
                normals = True
        if wrote:
            vp.Modified()
            if normals:
                nrm[0].Modified()
            vtkObject.Modified(self.mesh)
            self.writes += 1

    def show(self, visible: bool) -> None:
        """Show or hide the batch's actor (its items stay)."""
        if self.actor is not None and bool(self.actor.GetVisibility()) != bool(visible):
            self.actor.SetVisibility(bool(visible))

    def item_mesh(self, name: str) -> pv.PolyData:
        """The mesh of the item ``name`` alone (a new one: for tests and inspection)."""
        return geom_to_mesh(self.items[self.names.index(name)].mesh)

    def remove(self) -> None:
        if self.actor is not None:
            self.plotter.remove_actor(self.actor, reset_camera=False, render=False)
        self.actor = None
        self.mesh = None
        self.items, self.names, self.offsets, self._topo = [], [], [], ()
        self._pts = self._nrm = None


def _cells(mesh, name: str) -> Optional[np.ndarray]:
    cells = getattr(mesh, name)
    return np.asarray(cells) if cells is not None and len(cells) else None


class ObjectBatches:
    """The scene's objects drawn with one actor per look (issue 12, part 3).

    The view keeps one actor and mesh per object (``view.actors``, ``view.meshes``): they
    stay the truth for colours, tints, visibility, bounds and picking, but are not in the
    renderer. Before each render :meth:`sync` compares every object's visibility, colour and
    mesh with what its look's batch drew last: a moved object's points (and normals) are
    written into its slice of the merged mesh, a new colour into its slice of the colours;
    a change of which objects are shown or of their number of points rebuilds that batch.
    Colours are per-point RGB scalars; every other keyword is the look's (:data:`LOOKS`)."""

    def __init__(self, view):
        self.view = view
        self.plotter = view.plotter
        #: look key -> [actor, mesh, ids drawn, offsets, state per id, (pts, colours, nrm)]
        self.groups: dict = {}
        #: how often a batch was rebuilt / written (the tests read them)
        self.rebuilds = 0
        self.writes = 0
        #: object id -> ((actor MTime, mesh MTime), mesh, look key or None (not shown), state)
        self._seen: dict = {}
        self._order: list = []

    def key_of(self, obj_id: str) -> tuple:
        """The look of an object: its kind's add_mesh keywords, and whether it has normals."""
        from explorer.render.view import LOOKS, _signature

        scene = self.view.scene
        kind = scene[obj_id].kind if scene is not None and obj_id in scene else "?"
        mesh = self.view.meshes[obj_id]
        has_normals = vtkDataSet.GetPointData(mesh).GetNormals() is not None
        return _signature(LOOKS.get(kind, {})), has_normals

    def sync(self) -> None:
        """Bring every batch up to date with the objects' actors (run before each render).

        Cheap when nothing changed: two modification times per object (an actor's covers its
        visibility and its property's colour; a mesh's its points)."""
        view = self.view
        seen = self._seen
        changed = False
        order = []
        for obj_id, actor in view.actors.items():
            mesh = view.meshes.get(obj_id)
            if mesh is None:
                continue
            stamp = (actor.GetMTime(), mesh.GetMTime())
            rec = seen.get(obj_id)
            if rec is None or rec[0] != stamp or rec[1] is not mesh:
                shown = bool(actor.GetVisibility()) and mesh.GetNumberOfPoints() > 0
                seen[obj_id] = (stamp, mesh, self.key_of(obj_id) if shown else None,
                                self._state(obj_id))
                changed = True
            order.append(obj_id)
        if not changed and order == self._order:
            return  # nothing moved, changed colour, came or went since the last render
        self._order = order
        for gone in set(seen) - set(order):
            del seen[gone]
        wanted: dict = {}
        for obj_id in order:
            rec = seen[obj_id]
            if rec[2] is not None:
                ids, states = wanted.setdefault(rec[2], ([], []))
                ids.append(obj_id)
                states.append(rec[3])
        for key, (ids, states) in wanted.items():
            self._sync_group(key, ids, states)
        for key, g in self.groups.items():
            if key not in wanted and g[0] is not None and g[2]:
                g[0].SetVisibility(False)
                g[2] = []

    def _state(self, obj_id: str) -> tuple:
        view = self.view
        actor, mesh = view.actors[obj_id], view.meshes[obj_id]
        color = tuple(actor.GetProperty().GetColor())
        return mesh, mesh.GetMTime(), mesh.GetNumberOfPoints(), color, mesh.GetNumberOfCells()

    def _sync_group(self, key: tuple, ids: list, states: list) -> None:
        g = self.groups.get(key)
        if g is not None and g[0] is not None and g[2] == ids and all(
                a[0] is b[0] and a[2] == b[2] and a[4] == b[4] for a, b in zip(g[4], states)):
            if not g[0].GetVisibility():
                g[0].SetVisibility(True)
            pts, cols, nrm = g[5]
            wrote = False
            for o, old, new in zip(g[3], g[4], states):
                mesh, mtime, n, color, _cells_n = new
                if old[1] != mtime:
                    pts[1][o:o + n] = numpy_support.vtk_to_numpy(mesh.GetPoints().GetData())
                    if nrm is not None:
                        na = vtkDataSet.GetPointData(mesh).GetNormals()
                        if na is not None:
                            nrm[1][o:o + n] = numpy_support.vtk_to_numpy(na)
                    wrote = True
                if old[3] != color:
                    cols[1][o:o + n] = np.round(np.array(color) * 255)
                    wrote = True
            if wrote:
                pts[0].Modified()
                cols[0].Modified()
                if nrm is not None:
                    nrm[0].Modified()
                vtkObject.Modified(g[1])
                g[4] = states
                self.writes += 1
            return
        self._rebuild(key, ids, states)

    def _rebuild(self, key: tuple, ids: list, states: list) -> None:
        pts, faces, lines, verts, normals, colors, offsets, off = [], [], [], [], [], [], [], 0
        for mesh, _mtime, n, color, _cells_n in states:
            offsets.append(off)
            pts.append(numpy_support.vtk_to_numpy(mesh.GetPoints().GetData()).astype(float))
            na = vtkDataSet.GetPointData(mesh).GetNormals()
            if na is not None:
                normals.append(numpy_support.vtk_to_numpy(na))
            colors.append(np.tile(np.round(np.array(color) * 255), (n, 1)))
            wrapped = pv.wrap(mesh)
            for name, out in (("faces", faces), ("lines", lines), ("verts", verts)):
                c = _cells(wrapped, name)
                if c is not None:
                    out.append(_shift(c, off))
            off += n
        kw = {}
        for name, out in (("faces", faces), ("lines", lines), ("verts", verts)):
            if out:
                kw[name] = np.concatenate(out)
        merged = pv.PolyData(np.vstack(pts), **kw)
        merged.point_data["rgb"] = np.vstack(colors).astype(np.uint8)
        if key[1] and len(normals) == len(states):
            merged.point_data["Normals"] = np.vstack(normals).astype(float)
            merged.point_data.active_normals_name = "Normals"
        g = self.groups.get(key)
        if g is None or g[0] is None:
            look = dict(key[0])
            actor = self.plotter.add_mesh(merged, scalars="rgb", rgb=True,
                                          name=f"objm:{len(self.groups)}", pickable=False,
                                          reset_camera=False, render=False, **look)
            g = self.groups[key] = [actor, actor.mapper.dataset, [], [], [], None]
        else:
            g[1].copy_from(merged, deep=False)
            g[0].SetVisibility(True)
        mesh = g[1]
        vp = vtkPointSet.GetPoints(mesh)
        pd = vtkDataSet.GetPointData(mesh)
        ca = pd.GetArray("rgb")
        na = pd.GetNormals()
        g[2], g[3], g[4] = list(ids), offsets, states
        g[5] = ((vp, numpy_support.vtk_to_numpy(vp.GetData())),
                (ca, numpy_support.vtk_to_numpy(ca)),
                None if na is None else (na, numpy_support.vtk_to_numpy(na)))
        self.rebuilds += 1

    def actors(self) -> list:
        """The batch actors that draw something."""
        return [g[0] for g in self.groups.values() if g[0] is not None and g[2]]

    def ids_of(self, actor) -> list:
        return next((list(g[2]) for g in self.groups.values() if g[0] is actor), [])

    def clear(self) -> None:
        for g in self.groups.values():
            if g[0] is not None:
                self.plotter.remove_actor(g[0], reset_camera=False, render=False)
        self.groups.clear()
        self._seen.clear()
        self._order = []
