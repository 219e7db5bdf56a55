"""Where a closest point lives: the vertex, edge or face (Voronoi) region of the shape that holds
it (issue 13, part 3). No Qt, no VTK.

:func:`feature_of(prim, point)` names the feature of ``prim`` that the point lies on and gives
its geometry to draw: a vertex (one point), an edge (two), a face (a polygon's corners), a
curved part (a cap, a wall, a hemisphere: its centre), or the inside. A box point is classified
by how many of its coordinates sit on a bound (3: vertex, 2: edge, 1: face); a triangle point by
its barycentric coordinates (Ericson RTCD §5.1.5's regions); a segment or capsule by the axis
parameter; a cylinder by its axial and radial coordinates.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

AXES = "xyz"
COLORS = {"vertex": "#d32f2f", "edge": "#ef6c00", "face": "#1565c0", "curved": "#6a1b9a",
          "inside": "#555555"}


@dataclass(frozen=True)
class Feature:
    kind: str  # "vertex", "edge", "face", "curved", "inside"
    name: str
    points: tuple  # the feature's geometry (1 point, 2 for an edge, the corners of a face)

    @property
    def color(self) -> str:
        return COLORS[self.kind]


def _tol(scale: float) -> float:
    return 1e-9 * max(1.0, scale)


def _box(lo, hi, p, to_world=None) -> Feature:
    lo, hi, p = (np.asarray(v, dtype=float) for v in (lo, hi, p))
    tol = _tol(float(np.max(np.abs(np.concatenate([lo, hi])))))
    at = []
    for i in range(3):
        if abs(p[i] - lo[i]) <= tol:
            at.append((i, "min", lo[i]))
        elif abs(p[i] - hi[i]) <= tol:
            at.append((i, "max", hi[i]))
    world = to_world or (lambda q: tuple(float(c) for c in q))
    if len(at) == 3:
        return Feature("vertex", "corner (" + ", ".join(f"{s} {AXES[i]}" for i, s, _v in at)
                       + ")", (world(p),))
    if len(at) == 2:
        free = next(i for i in range(3) if i not in [a[0] for a in at])
        a0, a1 = p.copy(), p.copy()
        a0[free], a1[free] = lo[free], hi[free]
        return Feature("edge", f"edge along {AXES[free]} at "
                       + ", ".join(f"{s} {AXES[i]}" for i, s, _v in at), (world(a0), world(a1)))
    if len(at) == 1:
        i, side, v = at[0]
        j, k = [a for a in range(3) if a != i]
        corners = []
        for cj, ck in ((lo[j], lo[k]), (hi[j], lo[k]), (hi[j], hi[k]), (lo[j], hi[k])):
            q = np.zeros(3)
            q[i], q[j], q[k] = v, cj, ck
            corners.append(world(q))
        return Feature("face", f"face {side} {AXES[i]}", tuple(corners))
    return Feature("inside", "inside the box", (world(p),))


def feature_of(prim, point) -> Feature:
    """The feature of ``prim`` holding ``point`` (a point of ``prim``, e.g. a closest point)."""
    p = np.asarray(point, dtype=float)
    k = prim.kind
    if k == "aabb":
        return _box(prim.min, prim.max, p)
    if k == "obb":
        c, axes, e = (np.asarray(v, dtype=float) for v in (prim.center, prim.axes, prim.extents))
        local = axes @ (p - c)
        f = _box(-e, e, local, lambda q: tuple(float(x) for x in c + q @ axes))
        return Feature(f.kind, f.name.replace(" x", " u0").replace(" y", " u1")
                       .replace(" z", " u2"), f.points)
    if k == "triangle":
        v = np.asarray(prim.vertices, dtype=float)
        m = np.column_stack([v[1] - v[0], v[2] - v[0]])
        st, *_ = np.linalg.lstsq(m, p - v[0], rcond=None)
        bary = np.array([1 - st.sum(), st[0], st[1]])
        tol = 1e-9
        zero = [i for i in range(3) if abs(bary[i]) <= tol]
        if len(zero) >= 2:
            i = next(j for j in range(3) if j not in zero)
            return Feature("vertex", f"vertex v{i}", (tuple(v[i]),))
        if len(zero) == 1:
            i, j = [a for a in range(3) if a != zero[0]]
            return Feature("edge", f"edge v{i} v{j}", (tuple(v[i]), tuple(v[j])))
        return Feature("face", "the face (inside all three edges)", tuple(map(tuple, v)))
    if k in ("segment", "capsule"):
        p0, p1 = np.asarray(prim.p0, float), np.asarray(prim.p1, float)
        d = p1 - p0
        dd = float(d @ d)
        t = 0.0 if dd == 0 else float(np.clip((p - p0) @ d / dd, 0, 1))
        tol = 1e-9
        if k == "segment":
            if t <= tol:
                return Feature("vertex", "end p0", (tuple(p0),))
            if t >= 1 - tol:
                return Feature("vertex", "end p1", (tuple(p1),))
            return Feature("edge", f"inside the segment, t = {t:.4g}", (tuple(p0), tuple(p1)))
        if t <= tol:
            return Feature("curved", "hemisphere at p0", (tuple(p0),))
        if t >= 1 - tol:
            return Feature("curved", "hemisphere at p1", (tuple(p1),))
        return Feature("curved", "the side wall", (tuple(p0), tuple(p1)))
    if k == "cylinder":
        c = np.asarray(prim.center, float)
        w = prim.unit_axis
        h = float(prim.height) / 2
        r = float(prim.radius)
        q = p - c
        ax = float(q @ w)
        rad = float(np.linalg.norm(q - ax * w))
        tol = _tol(max(h, r))
        on_cap = abs(abs(ax) - h) <= tol
        on_wall = abs(rad - r) <= tol
        end = tuple(c + np.sign(ax or 1.0) * h * w)
        which = "end1" if ax > 0 else "end0"
        if on_cap and on_wall:
            return Feature("edge", f"the rim of {which}", (end,))
        if on_cap:
            return Feature("face", f"the cap disk at {which}", (end,))
        if on_wall:
            return Feature("curved", "the side wall", (tuple(c - h * w), tuple(c + h * w)))
        return Feature("inside", "inside the cylinder", (tuple(p),))
    if k == "sphere":
        d = float(np.linalg.norm(p - np.asarray(prim.center, float)))
        if abs(d - float(prim.radius)) <= _tol(float(prim.radius)):
            return Feature("curved", "the surface", (tuple(p),))
        return Feature("inside", "inside the ball", (tuple(p),))
    if k in ("ray", "line"):
        o = np.asarray(prim.origin, float)
        if k == "ray" and float(np.linalg.norm(p - o)) <= _tol(float(np.max(np.abs(o)))):
            return Feature("vertex", "the origin", (tuple(o),))
        return Feature("edge", f"the {k}'s inside", (tuple(p),))
    if k == "point":
        return Feature("vertex", "the point", (tuple(p),))
    return Feature("face", f"the {k}", (tuple(p),))
