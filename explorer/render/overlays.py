"""The answers drawn over the scene, chosen by a table from result type to visual. No Qt.

:data:`OVERLAYS` maps each kind of answer of an ``explorer eval`` result (scene-v1) to the
function that draws it; :data:`OBJECT_OVERLAYS` does the same for what belongs to one object
(its motion). A draw function gets the result dict and an :class:`Context` and appends to a
:class:`Frame`: named meshes with their ``add_mesh`` keywords, text labels and object tints. The
view (:meth:`explorer.render.view.SceneView.apply_frame`) shows exactly one frame, refilling actors of
the same name in place, so a drag step builds small meshes and no actors.

=================  =========================================================================
kind               visual
=================  =========================================================================
closest            the closest points, the segment between them and a ``d = ...`` label
hits               each hit point, its normal as an arrow, and a ``t = ...`` label
intersects         both objects of an intersecting pair outlined in red
separating_axis    the axis as a line beside the pair, with both projection intervals on it
side               the object tinted by its side of the plane (front / behind / straddling)
toi                the moving object's ghost at the time of impact, the contact point and normal
motion             (per object) its ghost at ``t = 1`` and the swept path of its centre
=================  =========================================================================

Examples
--------
>>> from explorer.model.scene import Scene
>>> from algorithms import Point
>>> scene = Scene(); _ = scene.add(Point((0, 0, 0))); _ = scene.add(Point((1, 0, 0)))
>>> frame = build(scene, scene.answers(), Context.for_scene(scene))
>>> sorted(i.name for i in frame.items)
['ov:closest:point1:point2:line', 'ov:closest:point1:point2:pts']
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Callable, Iterable, Optional

import numpy as np

from algorithms.answer import PairAnswer
from algorithms.evaluate import evaluate_pair
from algorithms.kernels.support import BOUNDED_KINDS, support_interval
from explorer.model.drawrange import drawable, quiet
from explorer.model.scene import Scene, SceneObject
from explorer.render.minkowski import draw_minkowski
from explorer.render.view import (PALETTE, Extent, Geom, _offset_cells, _Templates,
                                  color_of, cone_points, mesh_center, primitive_geom,
                                  primitive_mesh, scene_extent)

RESULT_COLOR = "#d62728"
HIT_COLOR = "#111111"
NORMAL_COLOR = "#e6550d"
AXIS_COLOR = "#444444"
TOI_COLOR = "#9467bd"
SIDE_COLORS = {1: "#1a9850", -1: "#7b3294", 0: "#f59e0b"}
SIDE_WORDS = {1: "in front", -1: "behind", 0: "touches / straddles"}

#: overlay kinds the user can switch on and off, with their menu text and tooltip
KINDS = [
    ("closest", "Closest points", "The closest points of each pair, the segment between them "
                                  "and the distance"),
    ("hits", "Ray hits", "Where a segment, ray or line enters and leaves the other object: "
                         "points, surface normals and parameters t"),
    ("intersects", "Intersections", "Outline both objects of an intersecting pair in red"),
    ("separating_axis", "Separating axis", "An axis on which the two shapes' projections are "
                                           "disjoint, with both projection intervals"),
    ("side", "Plane side", "Tint objects by their side of a plane: green in front, purple "
                           "behind, amber touching or straddling"),
    ("toi", "Time of impact", "The moving object where it first touches the other (ghost), "
                              "the contact point and normal"),
    ("motion", "Motion", "Moving objects: their ghost at t = 1 and the path of their centre"),
    ("minkowski", "Minkowski shape", "Moving pairs (chosen pair): the Minkowski sum the moving "
                                     "centre enters at the time of impact: the rounded box of "
                                     "a sphere and a box, the ball r_A + r_B, the Minkowski "
                                     "box of two boxes, with the relative path"),
]


@dataclass
class Item:
    name: str
    mesh: object
    kwargs: dict


@dataclass
class Label:
    name: str
    position: tuple
    text: str
    color: str = "#202020"


@dataclass
class Frame:
    """Everything drawn over the scene for one state of it."""

    items: list = field(default_factory=list)
    labels: list = field(default_factory=list)
    tints: dict = field(default_factory=dict)
    #: whether the pair being drawn is in focus (wordy labels are kept for those)
    focused: bool = True
    #: names of the visuals left out: beyond the drawing range (:mod:`explorer.model.drawrange`)
    skipped: list = field(default_factory=list)
    #: item or label name -> the id of the object it moves with: at the view's time ``t`` the
    #: view draws it shifted by ``t * motion`` of that object (a Minkowski shape drawn in a
    #: moving object's frame stays on it while the time line plays)
    follows: dict = field(default_factory=dict)

    def follow(self, name: str, obj_id: str) -> None:
        """Draw item or label ``name`` in the frame of object ``obj_id`` (:attr:`follows`)."""
        self.follows[name] = obj_id

    def add(self, name: str, mesh, **kwargs) -> None:
        pts = getattr(mesh, "points", None)
        if pts is not None and not drawable(pts):
            self.skipped.append(name)
            return
        self.items.append(Item(name, mesh, kwargs))

    def label(self, name: str, position, text: str, color: str = "#202020") -> None:
        if not drawable(position):
            self.skipped.append(name)
            return
        self.labels.append(Label(name, tuple(map(float, position)), text, color))


@dataclass
class Context:
    """What a draw function may look at besides the result."""

    scene: Scene
    ext: Extent
    #: object id -> its drawn mesh (shared with the view: outlines reuse it)
    meshes: dict
    #: object id -> colour
    colors: dict

    @classmethod
    def for_scene(cls, scene: Scene, ext: Optional[Extent] = None, meshes=None, colors=None):
        ext = ext or scene_extent(scene.objects)
        if meshes is None:
            meshes = {o.id: primitive_mesh(o.primitive, ext) for o in scene.objects}
        if colors is None:
            colors = {o.id: color_of(o, i) for i, o in enumerate(scene.objects)}
        return cls(scene, ext, meshes, colors)

    @property
    def unit(self) -> float:
        """A length for marks (arrow sizes, offsets): 1/40 of the scene."""
        return self.ext.size / 40


# ----------------------------------------------------------------------------- geometry helpers


def _f(v) -> np.ndarray:
    return np.asarray(v, dtype=float)


def points_mesh(points) -> Geom:
    pts = np.atleast_2d(_f(points))
    return Geom(pts, verts=True, topo=f"pts{len(pts)}")


def lines_mesh(pairs) -> Geom:
    """Disjoint segments ``[(a, b), ...]`` as one mesh."""
    pts = np.array([p for ab in pairs for p in ab], dtype=float).reshape(-1, 3)
    n = len(pts) // 2
    return Geom(pts, lines=_line_cells(n), topo=f"lines{n}")


_LINE_CELLS: dict = {}


def _line_cells(n: int) -> np.ndarray:
    """The cells of ``n`` disjoint segments over points ``0 1, 2 3, ...`` (built once per n)."""
    cells = _LINE_CELLS.get(n)
    if cells is None:
        cells = np.column_stack([np.full(n, 2), np.arange(0, 2 * n, 2),
                                 np.arange(1, 2 * n, 2)]).ravel()
        _LINE_CELLS[n] = cells
    return cells


def arrows_mesh(tails, vectors, size: float) -> Geom:
    """Arrows as a shaft segment plus a small cone head each (numpy only: cheap per step)."""
    pts = []
    for tail, vec in zip(tails, vectors):
        tail, vec = _f(tail), _f(vec)
        n = float(np.linalg.norm(vec))
        if n == 0 or not math.isfinite(n):
            continue
        tip = tail + vec
        pts.append(np.array([tail, tip - vec / n * size * 0.6]))
        pts.append(cone_points(tip, vec / n, size * 0.6, size * 0.22))
    if not pts:
        return Geom(np.zeros((0, 3)), verts=True, topo="empty")
    lines, faces = _arrow_cells(len(pts) // 2)
    return Geom(np.vstack(pts), lines=lines, faces=faces, topo=f"arrows{len(pts) // 2}")


_ARROW_CELLS: dict = {}


def _arrow_cells(n: int) -> tuple:
    """The cells of ``n`` arrows (a shaft of 2 points, then a cone), built once per ``n``."""
    cells = _ARROW_CELLS.get(n)
    if cells is None:
        cone_pts, cone_faces = _Templates.get("cone")
        step = 2 + len(cone_pts)
        lines = np.concatenate([[2, i * step, i * step + 1] for i in range(n)])
        faces = np.concatenate([_offset_cells(cone_faces, i * step + 2) for i in range(n)])
        cells = _ARROW_CELLS[n] = (lines, faces)
    return cells


def _center(ctx: Context, obj_id: str) -> np.ndarray:
    mesh = ctx.meshes.get(obj_id)
    return mesh_center(mesh) if mesh is not None else ctx.ext.center


def _fmt(x: float) -> str:
    return f"{x:.3g}" if abs(x) < 1e4 else f"{x:.3e}"


def _pair(r: PairAnswer) -> str:
    return f"{r.a}:{r.b}"


# ----------------------------------------------------------------------------- per-result visuals


def draw_closest(r: PairAnswer, ctx: Context, frame: Frame) -> None:
    """Closest points, the segment between them and the distance label."""
    closest, dist = r.closest, r.distance
    if closest is None or dist is None:
        return
    ab = np.array(closest, dtype=float)  # rows: the closest point on A, on B
    base = f"ov:closest:{r.a}:{r.b}"
    frame.add(base + ":pts", Geom(ab, verts=True, topo="pts2"), color=RESULT_COLOR,
              point_size=12, render_points_as_spheres=True)
    pa = ab[0]
    if dist > 0:
        frame.add(base + ":line", Geom(ab, lines=_line_cells(1), topo="lines1"),
                  color=RESULT_COLOR, line_width=3)
        frame.label(base, (pa + ab[1]) / 2, f"{r.a}–{r.b}  d = {_fmt(dist)}",
                    RESULT_COLOR)
    elif not _hits(r):
        frame.label(base, pa, f"{r.a}–{r.b}  intersect", RESULT_COLOR)
    if r.plane2d is not None and frame.focused:  # App. A.1 / A.7: the lines' implicit forms
        for key, obj_id in (("line_a", r.a), ("line_b", r.b)):
            line = r.plane2d.get(key)
            if line is not None:
                o = ctx.scene[obj_id].primitive.origin
                frame.label(f"ov:2d:{r.a}:{r.b}:{key}", o, f"{obj_id}: {implicit_text(line)}",
                            "#1b5e20")


def implicit_text(line) -> str:
    """``a x + b y = d`` with three significant digits (App. A.1's unit normal)."""
    a, b, d = (float(c) for c in line)
    sign = "-" if b < 0 else "+"
    return f"{_fmt(a)} x {sign} {_fmt(abs(b))} y = {_fmt(d)}"


def _hits(r: PairAnswer) -> tuple:
    return r.records.hits.hits if r.records.hits is not None else ()


def draw_hits(r: PairAnswer, ctx: Context, frame: Frame) -> None:
    """Hit points with their normals (arrows) and parameters ``t``."""
    hits = _hits(r)
    if not hits:
        return
    base = f"ov:hits:{_pair(r)}"
    pts = [_f(h.point) for h in hits if h.point is not None]
    if pts:
        frame.add(base + ":pts", points_mesh(pts), color=HIT_COLOR, point_size=11,
                  render_points_as_spheres=True)
    tails, vecs = [], []
    for h in hits:
        if h.point is not None and h.normal is not None:
            n = _f(h.normal)
            nn = float(np.linalg.norm(n))
            if nn > 0 and math.isfinite(nn):
                tails.append(_f(h.point))
                vecs.append(n / nn * ctx.unit * 4)
    if tails:
        frame.add(base + ":normals", arrows_mesh(tails, vecs, ctx.unit * 1.2),
                  color=NORMAL_COLOR, line_width=3)
    for i, h in enumerate(hits[:6]):
        if h.point is None or h.t is None or not math.isfinite(float(h.t)):
            continue
        kind = f" {h.kind}" if h.kind else ""
        frame.label(f"{base}:t{i}", _f(h.point) + ctx.unit * 0.5,
                    f"t = {_fmt(float(h.t))}{kind}", HIT_COLOR)


def draw_intersects(r: PairAnswer, ctx: Context, frame: Frame) -> None:
    """Outline both objects of an intersecting pair in red."""
    if not r.intersects:
        return
    for obj_id in r.ids:
        mesh = ctx.meshes.get(obj_id)
        if mesh is None or obj_id not in ctx.scene or ctx.scene[obj_id].hidden:
            continue
        kind = ctx.scene[obj_id].kind
        if kind in ("segment", "ray", "line", "point"):
            continue  # a thin object is its own outline; the contact point marks it
        frame.add(f"ov:intersects:{obj_id}", mesh, color=RESULT_COLOR, style="wireframe",
                  line_width=1.5, opacity=0.55)


def _interval(prim, axis) -> Optional[tuple]:
    if prim.kind not in BOUNDED_KINDS:
        return None
    try:
        lo, hi = support_interval(prim, axis)
    except Exception:  # noqa: BLE001 - a visual aid only
        return None
    return float(lo), float(hi)


def draw_separating_axis(r: PairAnswer, ctx: Context, frame: Frame) -> None:
    """The separating axis as a line beside the pair with both projection intervals on it."""
    axis = r.separating_axis
    if axis is None:
        return
    w = _f(axis)
    n = float(np.linalg.norm(w))
    if n == 0:
        return
    w = w / n
    intervals = r.records.separation.intervals if r.records.separation is not None else None
    a, b = ctx.scene[r.a], ctx.scene[r.b]
    if not intervals or intervals[0] is None:
        ia, ib = _interval(a.primitive, w), _interval(b.primitive, w)
        if ia is None or ib is None:
            return
        intervals = (ia, ib)
    (a0, a1), (b0, b1) = (tuple(map(float, iv)) for iv in intervals)
    # place the axis beside the pair: through the mid of the two centres, pushed away
    # perpendicular to the axis (downwards when possible) so it does not cross the shapes
    mid = (_center(ctx, a.id) + _center(ctx, b.id)) / 2
    # off = (down - (down . w) w) / |...|, down = (0, 0, -1); else the same from (0, -1, 0)
    off = np.array([w[0] * w[2], w[1] * w[2], w[2] * w[2] - 1.0])
    if np.linalg.norm(off) < 1e-6:
        off = np.array([0.0, -1.0, 0.0]) - w[1] * w
    off = off / np.linalg.norm(off)
    unit = ctx.unit
    ra = max(a1 - a0, b1 - b0, unit * 4)
    base = mid + off * (0.6 * ra + unit * 3)
    lo, hi = min(a0, b0), max(a1, b1)
    pad = (hi - lo) * 0.25 + unit * 2
    # the points of the drawn axis whose projections on w are these values, in one go
    s = np.array([lo - pad, hi + pad, a0, a1, b0, b1])
    at = base + (s - float(base @ w))[:, None] * w
    name = f"ov:sat:{_pair(r)}"
    frame.add(name + ":axis", Geom(at[0:2].copy(), lines=_line_cells(1), topo="lines1"),
              color=AXIS_COLOR, line_width=2)
    frame.add(name + ":tip", arrows_mesh([at[1]], [w * unit * 2], unit * 1.5),
              color=AXIS_COLOR)
    (wx, wy, wz), (ox, oy, oz) = w.tolist(), off.tolist()
    lift = np.array([wy * oz - wz * oy, wz * ox - wx * oz, wx * oy - wy * ox])  # w x off
    lift = lift / (np.linalg.norm(lift) or 1.0) * unit * 0.5
    frame.add(name + ":A", Geom(at[2:4] + lift, lines=_line_cells(1), topo="lines1"),
              color=ctx.colors.get(a.id, PALETTE[0]), line_width=9, render_lines_as_tubes=True)
    frame.add(name + ":B", Geom(at[4:6] - lift, lines=_line_cells(1), topo="lines1"),
              color=ctx.colors.get(b.id, PALETTE[1]), line_width=9, render_lines_as_tubes=True)
    # dotted drop lines from each interval end back toward the shapes make the projection visible
    ticks = np.empty((8, 3))
    ticks[0::2] = at[2:6] - off * unit
    ticks[1::2] = at[2:6] + off * unit
    frame.add(name + ":ticks", Geom(ticks, lines=_line_cells(4), topo="lines4"),
              color=AXIS_COLOR, line_width=2)
    gap = (b0 - a1) if b0 >= a1 else (a0 - b1)
    frame.label(name, at[1], f"axis {r.a}–{r.b}, gap {_fmt(gap)}", AXIS_COLOR)


def draw_side(r: PairAnswer, ctx: Context, frame: Frame) -> None:
    """Tint the non-plane object (or B, for two planes) by its side of the plane."""
    side = r.side
    if side is None:
        return
    a, b = ctx.scene[r.a], ctx.scene[r.b]
    target = a if b.kind == "plane" and a.kind != "plane" else b
    color = SIDE_COLORS.get(int(side), SIDE_COLORS[0])
    frame.tints[target.id] = color
    if not frame.focused:
        return
    frame.label(f"ov:side:{_pair(r)}", _center(ctx, target.id) + ctx.unit,
                f"{target.id}: {SIDE_WORDS.get(int(side), side)}", color)
    if {a.kind, b.kind} == {"plane", "aabb"}:
        plane, box = (a, b) if a.kind == "plane" else (b, a)
        draw_plane_box(plane.at_time(0), box.at_time(0), f"ov:corner:{_pair(r)}", frame)


CORNER_COLOR = "#6a1b9a"


def draw_plane_box(plane, box, base: str, frame: Frame) -> None:
    """Boreskov's one-corner test (bounding volumes, Fig. 3.9) beside A.10's minD/maxD: the
    corner picked by the signs of the normal (least ``n . x``: minD) and its opposite (maxD),
    each marked with ``f = n . x - d``, and the effective radius ``r = sum |n_i| e_i / |n|`` as
    a segment along the normal through the box's centre."""
    n = _f(plane.normal)
    lo, hi = _f(box.min), _f(box.max)
    pmin = np.where(n >= 0, lo, hi)  # Boreskov's corner: n . x is least there
    pmax = np.where(n >= 0, hi, lo)
    d = float(plane.d)
    min_d, max_d = float(n @ pmin), float(n @ pmax)
    frame.add(base + ":pts", Geom(np.array([pmin, pmax]), verts=True, topo="pts2"),
              color=CORNER_COLOR, point_size=14, render_points_as_spheres=True)
    frame.label(base + ":min", pmin, f"corner by the signs of n: minD = {_fmt(min_d)}, "
                f"f = {_fmt(min_d - d)}", CORNER_COLOR)
    frame.label(base + ":max", pmax, f"maxD = {_fmt(max_d)}, f = {_fmt(max_d - d)}",
                CORNER_COLOR)
    nn = float(np.linalg.norm(n))
    if nn > 0:
        u = n / nn
        c = (lo + hi) / 2
        r_eff = float(np.abs(n) @ ((hi - lo) / 2)) / nn
        ends = np.array([c - r_eff * u, c + r_eff * u])
        frame.add(base + ":radius", Geom(ends, lines=_line_cells(1), topo="lines1"),
                  color=CORNER_COLOR, line_width=4)
        frame.label(base + ":r", ends[1], f"effective radius {_fmt(r_eff)}", CORNER_COLOR)


def draw_toi(r: PairAnswer, ctx: Context, frame: Frame) -> None:
    """Ghost of each moving object of the pair at the time of impact, the contact and normal."""
    toi = r.toi
    if toi is None:
        return
    base = f"ov:toi:{_pair(r)}"
    for obj_id in r.ids:
        obj = ctx.scene[obj_id]
        if obj.motion is None or obj.hidden:
            continue
        mesh = primitive_geom(obj.at_time(float(toi)), ctx.ext)
        frame.add(f"{base}:ghost:{obj_id}", mesh, color=TOI_COLOR, opacity=0.35,
                  show_edges=False, line_width=4)
    point, normal = r.contact_point, r.contact_normal
    if point is not None:
        frame.add(base + ":pt", points_mesh([point]), color=TOI_COLOR, point_size=13,
                  render_points_as_spheres=True)
        if normal is not None and float(np.linalg.norm(_f(normal))) > 0:
            nv = _f(normal) / float(np.linalg.norm(_f(normal)))
            frame.add(base + ":normal", arrows_mesh([point], [nv * ctx.unit * 4], ctx.unit * 1.2),
                      color=TOI_COLOR, line_width=3)
        where = _f(point)
    else:
        where = _center(ctx, r.b)
    frame.label(base, where + ctx.unit * 0.8, f"{r.a}–{r.b}  toi = {_fmt(float(toi))}",
                TOI_COLOR)


#: result kind -> f(result, context, frame): the visual of that kind of answer
OVERLAYS: dict[str, Callable] = {
    "closest": draw_closest,
    "hits": draw_hits,
    "intersects": draw_intersects,
    "separating_axis": draw_separating_axis,
    "side": draw_side,
    "toi": draw_toi,
    "minkowski": draw_minkowski,  # explorer.render.minkowski (issue 13 part 3)
}


# ----------------------------------------------------------------------------- per-object visuals


def draw_motion(obj: SceneObject, ctx: Context, frame: Frame) -> None:
    """A moving object's ghost at ``t = 1`` and the path of its centre over ``[0, 1]``."""
    if obj.motion is None or obj.hidden:
        return
    m = _f(obj.motion)
    if not np.any(m):
        return
    ghost = primitive_geom(obj.at_time(1.0), ctx.ext)
    frame.add(f"ov:motion:{obj.id}:ghost", ghost, color=ctx.colors.get(obj.id, "#888888"),
              opacity=0.15, style="wireframe", line_width=1)
    start = ghost.points.mean(axis=0) - m
    frame.add(f"ov:motion:{obj.id}:path",
              arrows_mesh([start], [m], min(ctx.unit * 1.5, float(np.linalg.norm(m)) * 0.3)),
              color="#555555", line_width=2)
    # the swept volume's sides: the extreme points of the start shape, moved along the path
    mesh_pts = _f(ghost.points) - m
    if len(mesh_pts) > 1:
        perp = np.cross(m, [0.0, 0.0, 1.0])
        if np.linalg.norm(perp) < 1e-9:
            perp = np.cross(m, [1.0, 0.0, 0.0])
        proj = mesh_pts @ perp
        sides = [mesh_pts[int(np.argmax(proj))], mesh_pts[int(np.argmin(proj))]]
        frame.add(f"ov:motion:{obj.id}:sweep", lines_mesh([(p, p + m) for p in sides]),
                  color="#999999", line_width=1)


#: kind -> f(object, context, frame): visuals that belong to one object
OBJECT_OVERLAYS: dict[str, Callable] = {"motion": draw_motion}


#: kinds drawn only for the pairs in focus (they take room: one axis line per pair)
FOCUS_ONLY = {"separating_axis", "minkowski"}


def build(scene: Scene, results: Iterable[PairAnswer], ctx: Context,
          enabled: Optional[Iterable[str]] = None, focus: Optional[set] = None,
          cache: Optional[dict] = None) -> Frame:
    """The frame for ``results`` with the overlay kinds in ``enabled`` (default: all).

    ``focus``: the pairs ``(a, b)`` (either order) that also get the :data:`FOCUS_ONLY` kinds;
    ``None`` means every pair. ``cache`` (a dict kept by the caller) reuses the visuals of a
    result that did not change since the last call (the evaluator returns the same dict for an
    unchanged pair; the colours and the extent must not have changed either). A result with
    ``"error"`` still draws what it has; a draw function that fails for one result leaves that
    visual out and never stops the others. Visuals beyond the drawing range are left out
    (``Frame.skipped``), computed under :func:`~explorer.model.drawrange.quiet`: an extreme
    scene's overflow never prints a numpy warning.
    """
    with quiet():
        return _build(scene, results, ctx, enabled, focus, cache)


def _build(scene, results, ctx, enabled, focus, cache) -> Frame:
    on = set(OVERLAYS) | set(OBJECT_OVERLAYS) if enabled is None else set(enabled)
    items: list = []
    labels: list = []
    tints: dict = {}
    skipped: list = []
    follows: dict = {}
    on_key = frozenset(on)
    ext_key = id(ctx.ext)
    # the draw functions of the kinds switched on, for pairs in focus and for the others
    draw_focused = [d for k, d in OVERLAYS.items() if k in on]
    draw_other = [d for k, d in OVERLAYS.items() if k in on and k not in FOCUS_ONLY]
    objects = scene.objects
    by_id = {o.id: o for o in objects}
    cached = {}.get if cache is None else cache.get
    fresh: dict = {}
    for r in results:
        a_id, b_id = r.a, r.b
        a, b = by_id.get(a_id), by_id.get(b_id)
        if a is None or b is None or a.hidden or b.hidden:
            continue
        focused = focus is None or (a_id, b_id) in focus or (b_id, a_id) in focus
        key = (id(r), focused, on_key, ext_key)
        hit = cached(key)
        if hit is not None and hit[0] is r:
            part = hit[1]
        else:
            part = Frame(focused=focused)
            for draw in draw_focused if focused else draw_other:
                try:
                    draw(r, ctx, part)
                except Exception:  # noqa: BLE001 - a visual aid must never break the app
                    pass
        fresh[key] = (r, part)
        items += part.items
        labels += part.labels
        skipped += part.skipped
        if part.tints:
            tints.update(part.tints)
        if part.follows:
            follows.update(part.follows)
    for kind, draw in OBJECT_OVERLAYS.items():
        if kind not in on:
            continue
        for obj in objects:
            key = (kind, obj.id, ext_key)
            hit = cached(key)
            if hit is not None and hit[0] is obj:
                part = hit[1]
            else:
                part = Frame()
                try:
                    draw(obj, ctx, part)
                except Exception:  # noqa: BLE001
                    pass
            fresh[key] = (obj, part)
            skipped += part.skipped
            if part.items:
                items += part.items
            if part.labels:
                labels += part.labels
            if part.tints:
                tints.update(part.tints)
    if cache is not None:
        cache.clear()
        cache.update(fresh)
    return Frame(items, labels, tints, skipped=skipped, follows=follows)


def frame_for_view(scene: Scene, results: list[PairAnswer], view) -> Frame:
    """Every answer of ``results`` drawn for a :class:`~explorer.render.view.SceneView`."""
    return build(scene, results, Context(scene, view.ext, view.meshes, view.colors))


class Evaluator:
    """:func:`~algorithms.evaluate_pair` with a cache keyed by both objects' shapes and
    motions: a drag step re-evaluates only the pairs of the dragged object. Returns the typed
    :class:`~algorithms.answer.PairAnswer` (the views read its fields; nothing is converted to
    JSON on the drag path)."""

    def __init__(self, limit: int = 4096):
        self._cache: dict = {}
        self.limit = limit

    @staticmethod
    def _key(scene: Scene, a_id: str, b_id: str) -> tuple:
        a, b = scene[a_id], scene[b_id]
        return (a_id, b_id, a.primitive, a.motion, b.primitive, b.motion, a.hollow, b.hollow)

    def cached(self, scene: Scene, a_id: str, b_id: str) -> bool:
        """Whether the pair's answer for the scene as it is now is in the cache."""
        return a_id in scene and b_id in scene and self._key(scene, a_id, b_id) in self._cache

    def missing(self, scene: Scene, pairs: Iterable[tuple[str, str]]) -> list:
        """The pairs of ``pairs`` whose answers are not cached (the window evaluates many of
        them in steps with progress: ``explorer.qt.busy``)."""
        return [p for p in pairs if not self.cached(scene, *p)]

    def result(self, scene: Scene, a_id: str, b_id: str) -> PairAnswer:
        a, b = scene[a_id], scene[b_id]
        key = (a_id, b_id, a.primitive, a.motion, b.primitive, b.motion, a.hollow, b.hollow)
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        try:
            r = evaluate_pair(a.primitive, b.primitive, a.motion, b.motion, id_a=a_id,
                              id_b=b_id, hollow_a=a.hollow, hollow_b=b.hollow)
        except Exception as exc:  # noqa: BLE001 - shown on the pair, never a crash
            r = PairAnswer(a=a_id, b=b_id, pair=f"{a.kind}-{b.kind}",
                           errors=(f"{type(exc).__name__}: {exc}",))
        if len(self._cache) >= self.limit:
            self._cache.clear()
        self._cache[key] = r
        return r

    def results(self, scene: Scene, pairs: Iterable[tuple[str, str]]) -> list[PairAnswer]:
        return [self.result(scene, a, b) for a, b in pairs]

    def clear(self) -> None:
        self._cache.clear()
