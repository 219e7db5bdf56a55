"""The Step through panel (issue 13, part 2): the chosen pair's algorithm one step at a time,
the matching line of a short pseudocode listing highlighted, the step's values in words and its
geometry drawn in the viewport (Woo's candidate planes, the chosen plane, the face rectangle
and the crossing point; Arvo's per-axis clamp; Hultquist's e, a and f^2; Badouel's
barycentrics; the st-plane's candidates). The steps come from
:mod:`explorer.present.steps` (no Qt).
"""

from __future__ import annotations

import html

import numpy as np
from PyQt6.QtCore import Qt
from PyQt6.QtWidgets import QHBoxLayout, QLabel, QPushButton, QSlider, QTextBrowser, QVBoxLayout

from explorer.present.steps import walkthrough
from explorer.qt.panels.base import PairPanel, line_mesh, point_mesh
from explorer.render.view import Geom


def quad_mesh(corners) -> Geom:
    pts = np.asarray(corners, dtype=float)
    return Geom(pts, faces=np.array([4, 0, 1, 2, 3]), topo="quad1")


class StepsPanel(PairPanel):
    overlay_prefix = "steps"

    def __init__(self, scene, workspace, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(scene, workspace, commands, viewport, evaluator, parent)
        self.walk = None
        self.index = 0
        self.title = QLabel("")
        f = self.title.font()
        f.setBold(True)
        self.title.setFont(f)
        self.title.setWordWrap(True)
        self.listing = QTextBrowser()
        self.listing.setToolTip("The algorithm's pseudocode; the current step's line is marked")
        self.listing.setMinimumHeight(150)
        self.listing.setLineWrapMode(QTextBrowser.LineWrapMode.NoWrap)
        self.text = QLabel("")
        self.text.setWordWrap(True)
        self.text.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setToolTip("Go to a step")
        self.slider.valueChanged.connect(self.go)
        self.prev_button = QPushButton("◀ Previous")
        self.prev_button.setToolTip("The previous step")
        self.prev_button.clicked.connect(lambda: self.go(self.index - 1))
        self.next_button = QPushButton("Next ▶")
        self.next_button.setToolTip("The next step")
        self.next_button.clicked.connect(lambda: self.go(self.index + 1))
        self.counter = QLabel("")
        lay = QVBoxLayout(self)
        lay.addWidget(self.title)
        lay.addWidget(self.listing, 1)
        lay.addWidget(self.text)
        row = QHBoxLayout()
        row.addWidget(self.prev_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.next_button)
        row.addWidget(self.counter)
        lay.addLayout(row)
        self.start()

    # ------------------------------------------------------------------ PairPanel
    def show_pair(self, a, b, result) -> None:
        walk = walkthrough(result, a.at_time(0), b.at_time(0), motions=(a.motion, b.motion))
        keep = self.walk is not None and walk is not None and self.walk.title == walk.title
        self.walk = walk
        if walk is None:
            self.show_nothing(f"No step-through for {a.kind}-{b.kind} yet: choose a ray, segment "
                              "or line against a box (Woo), a sphere (Hultquist), a triangle "
                              "(Badouel) or another linear component (st-plane), or a sphere "
                              "against a box (Arvo).")
            return
        n = len(walk.steps)
        self.index = min(self.index, n - 1) if keep else 0
        self.slider.blockSignals(True)
        self.slider.setRange(0, n - 1)
        self.slider.setValue(self.index)
        self.slider.blockSignals(False)
        self.title.setText(f"{walk.title}  ({walk.source})")
        self._show()

    def show_nothing(self, why: str = "") -> None:
        self.walk = None
        self.clear_overlays()
        self.title.setText("Step through")
        self.listing.setHtml("")
        self.text.setText(why or "Choose a pair (A and B in the Results panel) to step through "
                                 "its algorithm.")
        self.counter.setText("")
        for w in (self.prev_button, self.next_button, self.slider):
            w.setEnabled(False)
        self.render_viewport()

    # ------------------------------------------------------------------ steps
    def go(self, index: int) -> None:
        if self.walk is None:
            return
        self.index = max(0, min(int(index), len(self.walk.steps) - 1))
        self.slider.blockSignals(True)
        self.slider.setValue(self.index)
        self.slider.blockSignals(False)
        self._show()

    def _show(self) -> None:
        walk, step = self.walk, self.walk.steps[self.index]
        rows = []
        for k, line in enumerate(walk.listing):
            code = html.escape(line).replace(" ", "&nbsp;")
            if k == step.line:
                rows.append(f"<div style='background:#fff59d'><b>▶&nbsp;{code}</b></div>")
            else:
                rows.append(f"<div>&nbsp;&nbsp;{code}</div>")
        self.listing.setHtml("<div style='font-family:monospace'>" + "".join(rows) + "</div>")
        self.text.setText(step.text)
        n = len(walk.steps)
        self.counter.setText(f"{self.index + 1} / {n}")
        self.prev_button.setEnabled(self.index > 0)
        self.next_button.setEnabled(self.index < n - 1)
        self.slider.setEnabled(n > 1)
        self.draw(step)

    def draw(self, step) -> None:
        self.clear_overlays()
        r = 0.6 * self.marker_radius()
        for k, m in enumerate(step.marks):
            name = f"{self.index}:{k}"
            if m.kind == "point":
                self.add_overlay(name, point_mesh(m.points[0]), color=m.color, point_size=16,
                                 render_points_as_spheres=True)
            elif m.kind == "segment":
                self.add_overlay(name, line_mesh(*m.points), color=m.color, line_width=4)
            elif m.kind == "shape" and m.shape is not None:
                self.draw_shape(name, m)
            elif m.kind == "quad":
                self.add_overlay(name, quad_mesh(m.points), color=m.color, opacity=0.35)
                self.add_overlay(name + ":edge", Geom(np.asarray((*m.points, m.points[0])),
                                                      lines=np.array([5, 0, 1, 2, 3, 4]),
                                                      topo="lines4"),
                                 color=m.color, line_width=3)
            if m.text and m.points and self.viewport is not None and \
                    hasattr(self.viewport, "view"):
                at = np.mean(np.asarray(m.points, dtype=float), axis=0) + r
                self.viewport.view.set_label(f"{self.overlay_prefix}:{name}:label", at, m.text,
                                             m.color)
                self._overlays.add(f"{self.overlay_prefix}:{name}:label")
        self.render_viewport()

    def draw_shape(self, name: str, m) -> None:
        """An object placed at a step's time (conservative advancement's ``t_i``): a
        see-through ghost with its wireframe, in the mark's colour."""
        from explorer.render.view import Extent, primitive_geom

        view = getattr(self.viewport, "view", None)
        ext = getattr(view, "ext", None) or Extent(np.zeros(3), 10.0)
        geom = primitive_geom(m.shape, ext)
        self.add_overlay(name, geom, color=m.color, opacity=0.18)
        self.add_overlay(name + ":wire", geom, color=m.color, style="wireframe", line_width=1,
                         opacity=0.6)
