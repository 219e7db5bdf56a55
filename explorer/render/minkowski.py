"""The Minkowski shape of a moving pair (issue 13, part 3): where the time of impact lives.

With A held still and B moving by ``d = d_B - d_A`` (Dunn & Parberry, 3D Math Primer, App. A.6)
a dynamic test is a ray cast: B's reference point travels ``p + t d`` and the pair first touches
when it enters the Minkowski sum of A and B's shape about that point. Drawn for the pairs in
focus (View > Minkowski Shape), in A's frame at ``t = 0``:

* sphere and AABB (A.14, Lengyel): the box grown by r, the **rounded box** (3 slab boxes, 12
  edge cylinders, 8 corner balls), and the sphere centre's path relative to the box: the time of
  impact is where the segment enters the rounded box;
* two spheres (A.13, Fig. A.12): the ball of radius ``r_A + r_B`` around A's centre and B's
  centre's relative path;
* two AABBs (A.17, Fig. A.15): A grown by B's half-extents, the **Minkowski box**, and B's
  centre's relative path (its per-axis entry and exit times are the time line's
  ``[t_enter, t_leave]`` bars);
* sphere and plane (A.15, Listing A.3): the plane thickened by r on both sides, the **slab**
  ``|n . x - d| <= r`` (unit ``n``), and the centre's path relative to the plane: the time of
  impact is where the centre's signed distance first reaches ``+-r``.

Of two spheres or two boxes the still one (A when both move) is held still, so the shape is
drawn where that object is. When the held object moves too, the whole picture moves with it
on the time line (:meth:`Frame.follow <explorer.render.overlays.Frame.follow>`): at time ``t``
it is drawn in that object's frame, where the object is then, and the moving reference point
lies on the relative path at ``t``.

No Qt; the shapes are :class:`~explorer.render.view.Geom` point sets built with numpy.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np

from algorithms import AABB, Sphere
from explorer.render.view import Geom, frame_of, primitive_geom

COLOR = "#00897b"
ENTRY_COLOR = "#e65100"

_TEMPLATES: dict = {}


def _template(n: int) -> tuple:
    """The rounded box's unit pieces for ``n`` segments a quarter turn: per point the signs
    ``s`` (which corner of the box it is pushed to) and the unit normal ``u``, so a point is
    ``centre + s * half + r * u``; and the quads."""
    hit = _TEMPLATES.get(n)
    if hit is not None:
        return hit
    # latitude rows: the south half (z sign -1) then the north half (+1), the equator twice
    lat = np.concatenate([np.linspace(-math.pi / 2, 0, n + 1), np.linspace(0, math.pi / 2, n + 1)])
    sz = np.concatenate([-np.ones(n + 1), np.ones(n + 1)])
    # longitude columns: four quadrants, each boundary twice (the x or y sign flips there)
    lon, sx, sy = [], [], []
    for q, (ax, ay) in enumerate(((1, 1), (-1, 1), (-1, -1), (1, -1))):
        lon.append(np.linspace(q * math.pi / 2, (q + 1) * math.pi / 2, n + 1))
        sx.append(np.full(n + 1, ax))
        sy.append(np.full(n + 1, ay))
    lon, sx, sy = np.concatenate(lon), np.concatenate(sx), np.concatenate(sy)
    rows, cols = len(lat), len(lon)
    LA, LO = np.meshgrid(lat, lon, indexing="ij")
    u = np.stack([np.cos(LA) * np.cos(LO), np.cos(LA) * np.sin(LO), np.sin(LA)], axis=-1)
    u[np.abs(u) < 1e-15] = 0.0
    s = np.stack([np.broadcast_to(sx, (rows, cols)), np.broadcast_to(sy, (rows, cols)),
                  np.broadcast_to(sz[:, None], (rows, cols))], axis=-1).astype(float)
    idx = np.arange(rows * cols).reshape(rows, cols)
    quads = []
    for i in range(rows - 1):
        for j in range(cols):
            k = (j + 1) % cols
            quads.append((idx[i, j], idx[i, k], idx[i + 1, k], idx[i + 1, j]))
    # the flat caps at the poles: the four corners of the top (bottom) face
    for i in (0, rows - 1):
        corners = [idx[i, q * (n + 1)] for q in range(4)]
        quads.append(tuple(corners if i == rows - 1 else corners[::-1]))
    faces = np.array([[4, *q] for q in quads], dtype=np.int64).ravel()
    hit = _TEMPLATES[n] = (s.reshape(-1, 3), u.reshape(-1, 3), faces)
    return hit


def rounded_box_geom(lo, hi, r: float, n: int = 6) -> Geom:
    """The box ``[lo, hi]`` grown by ``r`` (its Minkowski sum with a ball of radius ``r``):
    every point is at distance ``r`` from the box."""
    lo, hi = np.asarray(lo, dtype=float), np.asarray(hi, dtype=float)
    s, u, faces = _template(n)
    pts = (lo + hi) / 2 + s * ((hi - lo) / 2) + float(r) * u
    return Geom(pts, faces=faces, topo=f"rounded-box{n}")


def slab_geom(plane, r: float, ext) -> Geom:
    """The plane's drawn square (:func:`explorer.render.view.primitive_geom`) thickened by
    ``r`` along the unit normal on both sides: the slab of points within ``r`` of the plane."""
    n = np.asarray(plane.normal, dtype=float)
    n = n / np.linalg.norm(n)
    origin = np.asarray(plane.origin, dtype=float)
    c = ext.center - np.dot(ext.center - origin, n) * n  # as the plane's own square
    R = frame_of(n)
    half = ext.size * 0.6
    pts = np.array([c + su * half * R[0] + sv * half * R[1] + sn * float(r) * n
                    for sn in (-1, 1) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))])
    quads = ((0, 3, 2, 1), (4, 5, 6, 7), (0, 1, 5, 4), (1, 2, 6, 5), (2, 3, 7, 6), (3, 0, 4, 7))
    faces = np.array([[4, *q] for q in quads], dtype=np.int64).ravel()
    return Geom(pts, faces=faces, topo="slab")


def _motion(obj) -> np.ndarray:
    return np.zeros(3) if obj.motion is None else np.asarray(obj.motion, dtype=float)


def minkowski_shape(a, b) -> Optional[dict]:
    """For scene objects ``a``, ``b`` of a moving pair with a drawn Minkowski shape: ``{"kind",
    "shape"`` (a primitive, or ``"rounded_box"`` with ``lo``, ``hi``, ``r``), ``"start"``,
    ``"path"`` (the reference point's relative displacement), ``"who"`` (whose point moves)
    ``}``; ``None`` for other pairs or when nothing moves."""
    if a.motion is None and b.motion is None:
        return None
    kinds = (a.kind, b.kind)
    ma, mb = _motion(a), _motion(b)
    if set(kinds) == {"sphere", "aabb"}:
        sph, box = (a, b) if a.kind == "sphere" else (b, a)
        s, x = sph.primitive, box.primitive
        v = _motion(sph) - _motion(box)
        return {"kind": "rounded_box", "lo": tuple(x.min), "hi": tuple(x.max),
                "r": float(s.radius), "start": tuple(map(float, s.center)), "path": tuple(v),
                "who": sph.id}
    if set(kinds) == {"sphere", "plane"}:
        sph, pl = (a, b) if a.kind == "sphere" else (b, a)
        s, p = sph.primitive, pl.primitive
        return {"kind": "slab", "shape": p, "r": float(s.radius),
                "start": tuple(map(float, s.center)), "path": tuple(_motion(sph) - _motion(pl)),
                "who": sph.id}
    if a.kind == b.kind and b.motion is None:
        # hold the still one still: its frame is the world's (A.6 works either way round)
        a, b, ma, mb = b, a, mb, ma
    if kinds == ("sphere", "sphere"):
        pa, pb = a.primitive, b.primitive
        R = float(pa.radius) + float(pb.radius)
        return {"kind": "sphere", "shape": Sphere(tuple(pa.center), R),
                "start": tuple(map(float, pb.center)), "path": tuple(mb - ma), "who": b.id}
    if kinds == ("aabb", "aabb"):
        pa, pb = a.primitive, b.primitive
        half = (np.asarray(pb.max, float) - np.asarray(pb.min, float)) / 2
        lo, hi = np.asarray(pa.min, float) - half, np.asarray(pa.max, float) + half
        centre = (np.asarray(pb.min, float) + np.asarray(pb.max, float)) / 2
        return {"kind": "aabb", "shape": AABB(tuple(lo), tuple(hi)),
                "start": tuple(map(float, centre)), "path": tuple(mb - ma), "who": b.id}
    return None


def draw_minkowski(r, ctx, frame) -> None:
    """Overlay kind ``"minkowski"``: the Minkowski shape, the relative path of the moving
    reference point and where it enters at the time of impact (module text)."""
    if r.a not in ctx.scene or r.b not in ctx.scene:
        return
    info = minkowski_shape(ctx.scene[r.a], ctx.scene[r.b])
    if info is None:
        return
    base = f"ov:minkowski:{r.a}:{r.b}"
    held = r.b if info["who"] == r.a else r.a
    if ctx.scene[held].motion is not None:
        # both move: the picture is in the held object's frame, so at the view's time t it
        # is drawn where that object is then (shifted by t d_held); the relative path then
        # passes through the moving point's position at t, and reaches the entry at t = toi
        for part in ("shape", "path", "start", "entry"):
            frame.follow(f"{base}:{part}", held)
        frame.follow(base, held)
    if info["kind"] == "rounded_box":
        geom = rounded_box_geom(info["lo"], info["hi"], info["r"])
    elif info["kind"] == "slab":
        geom = slab_geom(info["shape"], info["r"], ctx.ext)
    else:
        geom = primitive_geom(info["shape"], ctx.ext)
    frame.add(base + ":shape", geom, color=COLOR, opacity=0.16, show_edges=False)
    p0 = np.asarray(info["start"], dtype=float)
    v = np.asarray(info["path"], dtype=float)
    frame.add(base + ":path", Geom(np.array([p0, p0 + v]), lines=np.array([2, 0, 1]),
                                   topo="lines1"), color=COLOR, line_width=3)
    frame.add(base + ":start", Geom(np.array([p0]), verts=True, topo="pts1"), color=COLOR,
              point_size=10, render_points_as_spheres=True)
    toi = r.toi
    # short: a crowded view has room for a few words (the menu's tooltip says the rest)
    name = LABELS[info["kind"]]
    if toi is None:
        frame.label(base, p0 + v, f"{name}: not entered", COLOR)
        return
    at = p0 + float(toi) * v
    frame.add(base + ":entry", Geom(np.array([at]), verts=True, topo="pts1"),
              color=ENTRY_COLOR, point_size=14, render_points_as_spheres=True)
    frame.label(base, at + ctx.unit * np.array([0.0, 0.0, 1.5]),
                f"{name}: entered at t = {float(toi):.3g}", COLOR)


#: the view's label of each shape
LABELS = {"rounded_box": "rounded box", "sphere": "ball r_A + r_B", "aabb": "Minkowski box",
          "slab": "slab +-r"}
#: the time line's name of the swept interval (while the reference point is inside the shape)
SWEPT_LABELS = {"rounded_box": "in r⊕box", "sphere": "in rA+rB", "aabb": "in A⊕B",
                "slab": "in slab ±r"}


def inside_interval(info: dict, lo_t: float = -0.25, hi_t: float = 1.25) -> Optional[tuple]:
    """``(t_enter, t_leave)``: while the moving reference point is inside the Minkowski shape
    (the pair overlaps), clipped to ``[lo_t, hi_t]`` (the time line's range); ``None`` when the
    line of motion misses it there. The time line draws it as the swept interval; its lower
    end in ``[0, 1]`` is the time of impact.

    Exact: the quadratic of A.13 for the ball, the slabs of A.17 for the box, A.15's
    ``n . p(t) - d = +-r`` for the slab, and the rounded
    box's ray cast (:func:`algorithms.queries.moving_primer.toi_sphere_aabb`) run forwards from
    ``lo_t`` and backwards from ``hi_t`` for the rounded box.
    """
    p0 = np.asarray(info["start"], dtype=float)
    v = np.asarray(info["path"], dtype=float)
    if not np.any(v):
        return None
    if info["kind"] == "sphere":
        c = np.asarray(info["shape"].center, dtype=float)
        R = float(info["shape"].radius)
        w = p0 - c
        a, b, cc = float(v @ v), float(w @ v), float(w @ w) - R * R
        disc = b * b - a * cc
        if disc < 0:
            return None
        s = math.sqrt(disc)
        lo, hi = (-b - s) / a, (-b + s) / a
    elif info["kind"] == "slab":
        plane = info["shape"]
        n = np.asarray(plane.normal, dtype=float)
        m = float(np.linalg.norm(n))
        f0 = (float(n @ p0) - float(plane.d)) / m  # the centre's signed distance at t = 0
        speed = float(n @ v) / m
        r = info["r"]
        if speed == 0:
            if abs(f0) > r:
                return None
            lo, hi = -math.inf, math.inf
        else:
            t1, t2 = (r - f0) / speed, (-r - f0) / speed
            lo, hi = min(t1, t2), max(t1, t2)
    elif info["kind"] == "aabb":
        box = info["shape"]
        lo, hi = -math.inf, math.inf
        for i in range(3):
            if v[i] == 0:
                if not box.min[i] <= p0[i] <= box.max[i]:
                    return None
                continue
            ta, tb = (box.min[i] - p0[i]) / v[i], (box.max[i] - p0[i]) / v[i]
            lo, hi = max(lo, min(ta, tb)), min(hi, max(ta, tb))
    else:
        from algorithms.queries.moving_primer import toi_sphere_aabb

        box = AABB(info["lo"], info["hi"])
        span = hi_t - lo_t
        # the centre runs p(lo_t) -> p(hi_t); seen from the centre, the box moves by -span v
        fwd = toi_sphere_aabb(Sphere(tuple(p0 + lo_t * v), info["r"]), box, tuple(-span * v))
        if fwd.toi is None:
            return None
        back = toi_sphere_aabb(Sphere(tuple(p0 + hi_t * v), info["r"]), box, tuple(span * v))
        lo = lo_t + float(fwd.toi) * span
        hi = hi_t - float(back.toi) * span if back.toi is not None else hi_t
    lo, hi = max(lo, lo_t), min(hi, hi_t)
    return (float(lo), float(hi)) if lo <= hi else None
