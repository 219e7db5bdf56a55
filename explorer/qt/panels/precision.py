"""The Precision panel (precision lab): float32, float64 and exact side by side.

With **Exact** on, for the chosen pair the panel runs the library's exact (Fraction) path on the
binary values of the inputs (:mod:`algorithms.exact`) and shows

* per key of the answer whether the float answer agrees within rounding, with an alarm when a
  decision (intersects, separated, hit, contact, side) differs;
* for points, segments, rays and lines the st-plane trace ``a b c d e det s_bar t_bar s t Q``
  and the region in float32, float64 and exact, the error of each in ulps of its format, and an
  alarm when a sign or the region differs from the exact one
  (:mod:`explorer.present.precision`);
* when the closest points are not unique within rounding (``Q`` flat along an edge), it says
  so and draws the set of equally good minimisers on both segments;
* a slider that builds a segment at ``1e-1`` down to ``1e-16`` rad from segment A, a plot of
  the distance error against the angle (the library in float64, the textbook algorithm in
  float64 and float32), and a button to put that segment in the scene as B.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
from PyQt6.QtCore import QPointF, Qt
from PyQt6.QtGui import QColor, QFont, QPainter, QPen
from PyQt6.QtWidgets import (
    QCheckBox,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPushButton,
    QSlider,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
    QWidget,
)

from explorer.present import precision as prec
from explorer.qt.panels.base import PairPanel

SERIES = (("error", "library, float64", "#1f77b4"), ("ericson64", "textbook, float64", "#ff7f0e"),
          ("ericson32", "textbook, float32", "#2ca02c"))


def _fmt(v) -> str:
    if v is None:
        return "—"
    if isinstance(v, Fraction):
        f = float(v)
        return f"{f:.17g}" if v.denominator != 1 else str(v.numerator)
    if isinstance(v, float):
        return f"{v:.10g}"
    return str(v)


class SweepPlot(QWidget):
    """log10(error) against log10(angle), one polyline per series, the current angle marked."""

    def __init__(self, parent=None):
        super().__init__(parent)
        self.points: list[dict] = []
        self.current = None
        self.setMinimumHeight(150)

    def set_data(self, points, current) -> None:
        self.points, self.current = points, current
        self.update()

    def paintEvent(self, _event) -> None:  # noqa: N802 - Qt's name
        p = QPainter(self)
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        w, h = self.width(), self.height()
        left, right, top, bottom = 44, 8, 8, 22
        p.fillRect(self.rect(), QColor("white"))
        p.setPen(QColor("#888"))
        p.drawRect(left, top, w - left - right, h - top - bottom)
        if not self.points:
            return
        lo_e, hi_e = -18.0, 0.0

        def xy(angle, err):
            x = left + (-math.log10(angle) - 1) / 15 * (w - left - right)
            e = math.log10(err) if err > 0 else lo_e
            y = top + (hi_e - max(min(e, hi_e), lo_e)) / (hi_e - lo_e) * (h - top - bottom)
            return QPointF(x, y)

        p.setFont(QFont("sans", 7))
        for k in (-16, -12, -8, -4, 0):
            y = top + (hi_e - k) / (hi_e - lo_e) * (h - top - bottom)
            p.drawText(2, int(y) + 3, f"1e{k}")
        for k in (1, 4, 8, 12, 16):
            x = left + (k - 1) / 15 * (w - left - right)
            p.drawText(int(x) - 10, h - 6, f"1e-{k}")
        for i, (key, label, color) in enumerate(SERIES):
            p.setPen(QPen(QColor(color), 2))
            pts = [xy(d["angle"], d[key]) for d in self.points]
            for a, b in zip(pts, pts[1:]):
                p.drawLine(a, b)
            p.drawText(left + 6, top + 12 + 11 * i, label)
        if self.current is not None:
            x = xy(self.current, 1).x()
            p.setPen(QPen(QColor("#d62728"), 1, Qt.PenStyle.DashLine))
            p.drawLine(QPointF(x, top), QPointF(x, h - bottom))


class PrecisionPanel(PairPanel):
    """Float against exact for the chosen pair (module docstring)."""

    overlay_prefix = "precision"

    def __init__(self, scene, workspace, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(scene, workspace, commands, viewport, evaluator, parent)
        self.report: dict = {}
        self.trace: dict = {}
        self.minimisers = None
        self.sweep: list = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.exact = QCheckBox("Exact")
        self.exact.setToolTip("Run the library's exact (Fraction) path on the binary values of "
                              "the inputs and compare (explorer eval --exact)")
        self.exact.setChecked(True)
        self.exact.toggled.connect(lambda _on: self.refresh(force=True))
        top.addWidget(self.exact)
        top.addStretch(1)
        layout.addLayout(top)
        self.alarm = QLabel()
        self.alarm.setWordWrap(True)
        self.alarm.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.alarm)
        self.keys = QLabel()
        self.keys.setWordWrap(True)
        self.keys.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.keys)
        cols = ("value", "float32", "float64", "exact", "ulps f32", "ulps f64", "alarm")
        self.table = QTableWidget(0, len(cols))
        self.table.setHorizontalHeaderLabels(cols)
        self.table.verticalHeader().setVisible(False)
        self.table.horizontalHeader().setSectionResizeMode(
            QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        layout.addWidget(self.table, 1)
        self.flat = QLabel()
        self.flat.setWordWrap(True)
        layout.addWidget(self.flat)
        row = QHBoxLayout()
        row.addWidget(QLabel("Nearly parallel:"))
        self.slider = QSlider(Qt.Orientation.Horizontal)
        self.slider.setRange(1, 16)
        self.slider.setValue(8)
        self.slider.setToolTip("The angle of the nearly parallel segment: 1e-1 (left) to "
                               "1e-16 rad (right)")
        self.slider.valueChanged.connect(self._angle_changed)
        row.addWidget(self.slider, 1)
        self.angle_label = QLabel("1e-8 rad")
        row.addWidget(self.angle_label)
        self.put_button = QPushButton("Put in scene")
        self.put_button.setToolTip("Replace segment B by segment A turned by this angle")
        self.put_button.clicked.connect(self.put_in_scene)
        row.addWidget(self.put_button)
        layout.addLayout(row)
        self.plot = SweepPlot()
        layout.addWidget(self.plot)
        self.start()

    # ------------------------------------------------------------------ PairPanel
    def show_nothing(self) -> None:
        self.report, self.trace, self.minimisers = {}, {}, None
        self.alarm.setText("<i>Choose a pair (the Results panel's A and B).</i>")
        self.keys.setText("")
        self.table.setRowCount(0)
        self.flat.setText("")
        self.plot.set_data([], None)

    def show_pair(self, a, b, result) -> None:
        self.clear_overlays()
        if not self.exact.isChecked():
            self.show_nothing()
            self.alarm.setText("<i>Exact is off.</i>")
            return
        from algorithms.exact import alarms, compare

        pa, pb = a.primitive, b.primitive
        try:
            self.report = compare(result, pa, pb, a.motion, b.motion)
        except Exception as exc:  # noqa: BLE001 - never a crash
            self.report = {}
            self.alarm.setText(f"exact path failed: {exc}")
        parts = []
        for key, row in self.report.items():
            mark = "✓" if row["agrees"] else "<b style='color:#b00'>✗</b>"
            err = "" if row["ulps"] is None else f", {row['ulps']} ulps"
            parts.append(f"{mark} {key}: float {_fmt(row['float'])}, exact "
                         f"{_fmt(row['exact'])}{err}")
        self.keys.setText("<br>".join(parts) or "<i>No exact path for this pair.</i>")
        bad = alarms(self.report)
        self.trace = {}
        self.table.setRowCount(0)
        if prec.applies(pa, pb):
            self.trace = prec.trace_rows(pa, pb)
        elif prec.cast_applies(pa, pb):  # Woo's candidate t's, Badouel's barycentrics
            self.trace = prec.cast_rows(pa, pb)
        if self.trace:
            bad += self.trace["alarms"]
            self._fill(self.trace["rows"])
        self.alarm.setText("<b style='color:#b00'>ALARM: " + "; ".join(bad) + "</b>" if bad
                           else "<span style='color:#1a7f37'>Float and exact agree on every "
                                "sign and decision.</span>")
        self.minimisers = prec.minimiser_set(pa, pb) if prec.applies(pa, pb) else None
        if self.minimisers:
            m = self.minimisers
            self.flat.setText(f"The closest points are not unique within rounding (Q is flat "
                              f"along an edge): every s in [{m['s'][0]:.4g}, {m['s'][1]:.4g}] "
                              f"is as good; drawn in the view.")
            from explorer.render.overlays import lines_mesh

            for i, key in enumerate(("points_a", "points_b")):
                self.add_overlay(f"minimisers{i}", lines_mesh([tuple(m[key])]),
                                 color="#17becf", line_width=9, opacity=0.8)
        else:
            self.flat.setText("")
        self._sweep(pa)

    def _fill(self, rows) -> None:
        self.table.setRowCount(len(rows))
        for i, r in enumerate(rows):
            cells = (r["name"], _fmt(r["f32"]), _fmt(r["f64"]), _fmt(r["exact"]),
                     _fmt(r["ulps32"]), _fmt(r["ulps64"]), r["alarm"])
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if r["alarm"]:
                    item.setBackground(QColor("#f8d7d7"))
                self.table.setItem(i, j, item)

    # ------------------------------------------------------------------ the sweep
    def angle(self) -> float:
        return 10.0 ** -self.slider.value()

    def _angle_changed(self, _v) -> None:
        self.angle_label.setText(f"1e-{self.slider.value()} rad")
        self.plot.set_data(self.sweep, self.angle())

    def _sweep(self, pa) -> None:
        if pa.kind != "segment" or not np.any(np.subtract(pa.p1, pa.p0)):
            self.sweep = []
            self.plot.set_data([], None)
            self.put_button.setEnabled(False)
            return
        self.put_button.setEnabled(True)
        if getattr(self, "_swept", None) != pa:  # the sweep depends on A only
            try:
                self.sweep = prec.angle_sweep(pa)
            except Exception:  # noqa: BLE001
                self.sweep = []
            self._swept = pa
        self.plot.set_data(self.sweep, self.angle())

    def put_in_scene(self) -> bool:
        if self.a is None or self.b is None or self.a.kind != "segment" \
                or self.b.kind != "segment":
            return False
        if self.commands is None:  # a panel without commands does not edit
            return False
        b = prec.nearly_parallel(self.a.primitive, self.angle())
        self.commands.edit(self.b.id, f"Nearly parallel {self.b.id}", primitive=b)  # undoable
        return True
