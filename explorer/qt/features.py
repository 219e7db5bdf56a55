"""The feature overlay (issue 13, part 3): for the chosen pair, the vertex, edge or face (Voronoi)
region holding each closest point, named and tinted (vertex red, edge orange, face blue, curved
parts purple). *View > Closest-Point Features* switches it (off at start: its labels
crowd a busy view). The classification is
:func:`explorer.present.features.feature_of` (no Qt).
"""

from __future__ import annotations

import numpy as np
from PyQt6.QtCore import QTimer

from explorer.present.features import feature_of
from explorer.render.view import Geom

PREFIX = "features:"


class FeatureOverlay:
    def __init__(self, window):
        self.window = window
        self.enabled = False  # off by default: View > Closest-Point Features (labels crowd)
        self.shown: list = []  # [(object id, Feature)] last drawn
        self._timer = QTimer(window)
        self._timer.setSingleShot(True)
        self._timer.timeout.connect(self.update)
        window.pair_changed.connect(lambda *_a: self.schedule())
        window.scene.object_changed.connect(lambda *_a: self.schedule())
        window.scene.reset.connect(lambda *_a: self.schedule())

    def schedule(self) -> None:
        if not getattr(self.window, "_shut", False):
            self._timer.start(0)

    def set_enabled(self, on: bool) -> None:
        self.enabled = on
        self.update()

    def update(self) -> list:
        """Redraw the features of the chosen pair; returns ``[(object id, Feature)]``."""
        w = self.window
        if getattr(w, "_shut", False):
            return []
        view = w.viewport.view
        had = bool(self.shown)
        view.remove_overlay(PREFIX)
        self.shown = []
        a_id, b_id = w.current_pair()
        if not (self.enabled and a_id and b_id and a_id in w.scene and b_id in w.scene):
            if had:  # else nothing changed: no render (this ran, and rendered, each drag step)
                w.viewport.render()
            return []
        ans = w.evaluator.result(w.scene, a_id, b_id)
        if ans.closest is None:
            return []
        size = view.ext.size
        for obj_id, point in ((a_id, ans.closest[0]), (b_id, ans.closest[1])):
            f = feature_of(w.scene[obj_id].primitive, point)
            self.shown.append((obj_id, f))
            pts = np.asarray(f.points, dtype=float)
            name = f"{PREFIX}{obj_id}"
            if f.kind == "face" and len(pts) >= 3:
                view.add_overlay(name + ":face", Geom(pts, faces=np.array([len(pts),
                                                                            *range(len(pts))]),
                                                      topo=f"face{len(pts)}"),
                                 color=f.color, opacity=0.45)
            elif f.kind == "edge" and len(pts) == 2:
                view.add_overlay(name + ":edge", Geom(pts, lines=np.array([2, 0, 1]),
                                                      topo="lines1"),
                                 color=f.color, line_width=8)
            else:
                view.add_overlay(name + ":pt", Geom(pts[:1], verts=True, topo="pts1"),
                                 color=f.color, point_size=20, render_points_as_spheres=True)
            text = f.name if f.kind in f.name else f"{f.kind}: {f.name}"
            view.set_label(name + ":label", np.asarray(point) + 0.03 * size,
                           f"{obj_id}: {text}", f.color)
        w.viewport.render()
        return self.shown


def install(window) -> FeatureOverlay:
    ov = FeatureOverlay(window)
    window.feature_overlay = ov
    window.act_features = window._action(
        "Closest-Point &Features", ov.set_enabled, None,
        "Name and tint the vertex, edge or face region holding each closest point of the "
        "chosen pair", checkable=True)
    window.act_features.setChecked(False)
    window.view_menu.addAction(window.act_features)
    ov.schedule()
    return ov
