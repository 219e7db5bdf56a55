"""User methods drawn beside the reference (issue 11): their closest points, hits and axes in
a style of their own, and the objects of a pair they disagree on marked. No Qt.

:func:`draw_rows` takes the rows of :func:`explorer.model.methods.rows_for_pair` (each holds the
user method's result record) and appends to a :class:`~explorer.render.overlays.Frame`:

=================  ========================================================================
answer             visual (colour :data:`USER_COLOR`)
=================  ========================================================================
distance           the user's closest points (when returned) joined by a thin line, and a
                   ``name: d = ...`` label beside the reference's
hits               the user's hit point, labelled ``name: t = ...``
separating_axis    the user's axis as a line through the pair
disagreement       both objects outlined thick in :data:`DISAGREE_COLOR`, and a label
                   ``name disagrees: ...`` between them
=================  ========================================================================
"""

from __future__ import annotations

import math

import numpy as np

from explorer.present.explain import fmt
from explorer.render.overlays import Context, Frame, lines_mesh, points_mesh
from explorer.render.view import mesh_center

USER_COLOR = "#d633b2"
DISAGREE_COLOR = "#ff1493"
THIN = ("segment", "ray", "line", "point")


def _center(ctx: Context, obj_id: str) -> np.ndarray:
    mesh = ctx.meshes.get(obj_id)
    if mesh is not None:
        return np.asarray(mesh_center(mesh), float)
    return np.zeros(3)


def _fmt(v) -> str:
    return fmt(v, 6, none="none", vector_digits=3)


def draw_rows(rows: list, pair: tuple, ctx: Context, frame: Frame) -> None:
    """Append the user methods' answers for ``pair`` (two ids) to ``frame``."""
    a_id, b_id = pair
    ca, cb = _center(ctx, a_id), _center(ctx, b_id)
    mid = (ca + cb) / 2
    up = np.array([0.0, 0.0, 1.0]) * ctx.unit * 1.6
    for i, r in enumerate(rows):
        res, name, q = r.get("result"), r["method"], r["query"]
        base = f"ov:user:{a_id}:{b_id}:{name}:{q}"
        anchor = mid - up * (i + 2)
        if r.get("error"):
            frame.label(base, anchor, f"{name}: {r['error_kind']}", DISAGREE_COLOR)
            continue
        if res is None:
            continue
        if q == "distance":
            pa, pb = res.closest
            if pa is not None and pb is not None:
                ab = np.array([pa, pb], float)
                frame.add(base + ":pts", points_mesh(ab), color=USER_COLOR, point_size=10,
                          render_points_as_spheres=True)
                if float(np.linalg.norm(ab[1] - ab[0])) > 0:
                    frame.add(base + ":line", lines_mesh([(ab[0], ab[1])]), color=USER_COLOR,
                              line_width=2)
                anchor = (ab[0] + ab[1]) / 2 - up
            frame.label(base, anchor, f"{name}: d = {_fmt(r['value'])}", USER_COLOR)
        elif q == "hits":
            pts = [np.asarray(h.point, float) for h in getattr(res, "hits", ())
                   if h.point is not None]
            if pts:
                frame.add(base + ":pts", points_mesh(pts), color=USER_COLOR, point_size=13,
                          render_points_as_spheres=True)
                anchor = pts[0] - up
            frame.label(base, anchor, f"{name}: t = {_fmt(r['value'])}", USER_COLOR)
        elif q == "separating_axis" and r["value"] is not None:
            axis = np.asarray(r["value"], float)
            half = ctx.ext.size / 3
            frame.add(base + ":axis", lines_mesh([(mid - half * axis, mid + half * axis)]),
                      color=USER_COLOR, line_width=3)
            frame.label(base, mid + half * axis, f"{name}: axis {_fmt(r['value'])}",
                        USER_COLOR)
        else:
            frame.label(base, anchor, f"{name}: {q} = {_fmt(r['value'])}", USER_COLOR)
    bad = [r for r in rows if r["agree"] is False]
    if not bad:
        return
    for obj_id in pair:
        mesh = ctx.meshes.get(obj_id)
        if mesh is None or obj_id not in ctx.scene or ctx.scene[obj_id].hidden:
            continue
        thin = ctx.scene[obj_id].kind in THIN
        frame.add(f"ov:userbad:{obj_id}", mesh, color=DISAGREE_COLOR,
                  style="surface" if thin else "wireframe",
                  line_width=7 if thin else 3, opacity=0.7 if thin else 0.9)
    r = bad[0]
    if r.get("error"):
        what = r["error_kind"]
    else:
        what = f"{r['query']} {_fmt(r['value'])}, reference {_fmt(r['reference'])}"
    more = f" (+{len(bad) - 1} more)" if len(bad) > 1 else ""
    frame.label(f"ov:userbad:{a_id}:{b_id}", mid + up * 2,
                f"✗ {r['method']} disagrees: {what}{more}", DISAGREE_COLOR)


def finite(v) -> bool:
    return v is not None and all(math.isfinite(c) for c in np.ravel(v))
