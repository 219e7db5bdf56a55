"""The time line: play a moving pair over ``t`` in ``[0, 1]`` and see when it first touches.

Dunn & Parberry, 3D Math Primer, App. A.6 (dynamic tests: both objects translate by ``t`` times
their displacement, ``t`` in ``[0, 1]``) and App. A.17, Listing A.5, Figs. A.15-A.16 (moving
AABBs: on each axis the boxes overlap for ``t`` in ``[t_enter, t_leave]``; they touch while all
three intervals overlap, so the time of impact is the largest ``t_enter`` when it is at most the
smallest ``t_leave`` and lies in ``[0, 1]``).

A slider and a play button move the objects in the viewport through ``viewport.set_time(t)``;
playing stops at the time of impact (``result["toi"]``). The chart under the slider marks the
time of impact and, for AABB pairs, draws each axis's ``[t_enter, t_leave]`` and their
intersection in the style of Fig. A.16, from ``trace["toi"]["axes"]``.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
from PyQt6.QtCore import QPointF, QRectF, QSize, Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QColor, QFont, QPainter, QPen, QPolygonF
from PyQt6.QtWidgets import (QCheckBox, QHBoxLayout, QLabel, QPushButton, QSizePolicy, QSlider,
                             QVBoxLayout, QWidget)

from algorithms.answer import PairAnswer
from algorithms.traces import MovingAabbsTrace
from explorer.qt.panels.base import PairPanel, fmt, point_mesh

STEPS = 1000
AXIS_COLORS = {"x": QColor("#d62728"), "y": QColor("#2ca02c"), "z": QColor("#1f77b4")}
TOI_COLOR = QColor("#e66100")
NOW_COLOR = QColor("#0072b2")
STEP_COLOR = QColor("#1565c0")
SWEPT_COLOR = QColor("#00897b")  # the Minkowski overlay's teal (explorer.render.minkowski)
T_MIN, T_MAX = -0.25, 1.25
CURVE_H = 46.0
#: the distance band's height when conservative advancement's steps are drawn on it
STEPS_H = 76.0
#: samples of the distance curve d(t) on [0, 1]
CURVE_SAMPLES = 41


def axis_intervals(result: Optional[PairAnswer]) -> list[dict]:
    """Per-axis rows ``{axis, t_enter, t_leave}`` of an AABB pair (Primer A.17), ``[]`` if none.

    A zero-velocity axis (``d = 0``) overlaps for every ``t`` or for none: its interval is
    ``(-inf, inf)`` or empty (``t_enter = inf``, ``t_leave = -inf``).
    """
    contact = result.records.contact if result is not None else None
    toi: MovingAabbsTrace = contact.trace if contact is not None else {}
    rows = []
    for row in toi.get("axes") or []:
        if not isinstance(row, dict) or "t_enter" not in row:
            continue
        te, tl = row.get("t_enter"), row.get("t_leave")
        if te is None or tl is None:
            overlap = bool(row.get("overlap"))
            te, tl = (-math.inf, math.inf) if overlap else (math.inf, -math.inf)
        rows.append({"axis": str(row.get("axis")), "t_enter": float(te), "t_leave": float(tl),
                     "zero_velocity": bool(row.get("zero_velocity"))})
    return rows


def advancement_words(steps) -> str:
    """The info line for conservative advancement's ticks: each ``t_i`` with its distance."""
    adv = [r for r in steps if r["phase"] == "advance"]
    parts = [f"t{i} = {fmt(r['t'], 4)} (d = {fmt(r['distance'], 3)})" for i, r in enumerate(adv)]
    last = steps[-1]
    end = (f"toi = {fmt(last['t'], 5)}" if last["phase"] == "toi" else
           "no contact in [0, 1]")
    return (f"Conservative advancement (ticks): {', '.join(parts)}; each step dt = d / v with "
            f"v = -n . d, the bound on the closing speed; {end}.")


class TimeChart(QWidget):
    """The Fig. A.16 chart: one bar per axis, their intersection, ``toi`` and ``now`` marks."""

    time_clicked = pyqtSignal(float)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.rows: list[dict] = []
        self.toi: Optional[float] = None
        self.now = 0.0
        self.moving = False
        self.curve: list[tuple[float, float]] = []  # (t, distance) samples
        #: conservative advancement's steps: (phase, t_i, d(t_i), t_next or None)
        self.steps: list[tuple] = []
        #: the swept interval of a Minkowski shape: (label, t_enter, t_leave) or None
        self.swept: Optional[tuple] = None
        self.setMinimumHeight(70)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Preferred)

    def sizeHint(self) -> QSize:
        return QSize(380, 60 + 22 * (len(self.rows) + 1))

    def set_data(self, rows, toi, moving) -> bool:
        """Show new data; returns whether anything changed."""
        if (rows, toi, moving) == (self.rows, self.toi, self.moving):
            return False
        changed = len(rows) != len(self.rows)
        self.rows, self.toi, self.moving = rows, toi, moving
        if changed:
            self._fit()
        self.update()
        return True

    def set_curve(self, curve) -> None:
        grew = bool(curve) != bool(self.curve)
        self.curve = list(curve)
        if grew:
            self._fit()
        self.update()

    def set_steps(self, steps) -> bool:
        """Conservative advancement's steps (:func:`explorer.present.advancement.
        advancement_steps` rows) as ``(phase, t, distance, t_next)``; returns whether they
        changed."""
        rows = [(str(r["phase"]), float(r["t"]), float(r["distance"]),
                 None if r.get("t_next") is None else float(r["t_next"])) for r in steps or ()]
        if rows == self.steps:
            return False
        grew = bool(rows) != bool(self.steps)
        self.steps = rows
        if grew:
            self._fit()
        self.update()
        return True

    def set_swept(self, swept) -> bool:
        """The interval of ``t`` while the moving centre is inside the pair's Minkowski shape
        (``(label, t_enter, t_leave)``, or ``None``); returns whether it changed."""
        if swept == self.swept:
            return False
        grew = (swept is None) != (self.swept is None)
        self.swept = swept
        if grew:
            self._fit()
        self.update()
        return True

    def _fit(self) -> None:
        rows = (len(self.rows) + 1 if self.rows else 1) + (1 if self.swept else 0)
        band = STEPS_H if self.steps else CURVE_H if self.curve else 0
        self.setMinimumHeight(int(48 + 22 * rows + band))
        self.updateGeometry()

    def _x(self, t: float, width: float) -> float:
        left, right = 58.0, width - 12.0
        t = max(min(t, T_MAX), T_MIN)
        return left + (t - T_MIN) / (T_MAX - T_MIN) * (right - left)

    def mousePressEvent(self, event):
        left, right = 58.0, self.width() - 12.0
        t = T_MIN + (event.position().x() - left) / (right - left) * (T_MAX - T_MIN)
        self.time_clicked.emit(min(max(t, 0.0), 1.0))

    def paintEvent(self, _event):
        p = QPainter(self)
        try:
            self.paint(p, self.width(), self.height())
        finally:
            p.end()

    def paint(self, p: QPainter, width: float, height: float) -> None:
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        p.fillRect(QRectF(0, 0, width, height), QColor("white"))
        font = QFont(p.font())
        font.setPointSizeF(8.5)
        p.setFont(font)
        x = lambda t: self._x(t, width)  # noqa: E731
        top, row_h = 8.0, 22.0
        # the period [0, 1]
        p.fillRect(QRectF(QPointF(x(0), top), QPointF(x(1), height - 20)), QColor("#eef3f8"))
        rows = list(self.rows)
        y = top + 4
        if rows:
            lo = max(r["t_enter"] for r in rows)
            hi = min(r["t_leave"] for r in rows)
            all_rows = rows + [{"axis": "∩", "t_enter": lo, "t_leave": hi}]
            for r in all_rows:
                name = r["axis"]
                color = AXIS_COLORS.get(name, QColor("#444"))
                p.setPen(QColor("#333"))
                label = f"{name} axis" if name != "∩" else "all ∩"
                p.drawText(QRectF(2, y, 54, row_h - 6), Qt.AlignmentFlag.AlignVCenter, label)
                te, tl = r["t_enter"], r["t_leave"]
                if te <= tl:
                    x0, x1 = x(te), x(tl)
                    bar = QRectF(x0, y + 3, max(x1 - x0, 2.0), row_h - 12)
                    p.fillRect(bar, color.lighter(150) if name != "∩" else TOI_COLOR.lighter(140))
                    p.setPen(QPen(color if name != "∩" else TOI_COLOR, 1.5))
                    p.drawRect(bar)
                    p.setPen(QColor("#333"))
                    for v, left in ((te, True), (tl, False)):
                        if math.isfinite(v) and T_MIN <= v <= T_MAX:
                            w = 44
                            rect = QRectF(x(v) - w - 2 if left else x(v) + 2, y, w, row_h - 6)
                            align = (Qt.AlignmentFlag.AlignRight if left
                                     else Qt.AlignmentFlag.AlignLeft)
                            p.drawText(rect, align | Qt.AlignmentFlag.AlignVCenter, fmt(v, 3))
                else:
                    p.drawText(QRectF(x(0), y, 200, row_h - 6), Qt.AlignmentFlag.AlignVCenter,
                               "empty: never overlaps" if name != "∩" else
                               "empty: the boxes never touch")
                y += row_h
        else:
            p.setPen(QColor("#555"))
            text = ("the objects do not move" if not self.moving else
                    "time of impact " + ("— no contact in [0, 1]" if self.toi is None
                                         else f"t = {fmt(self.toi, 4)}"))
            if self.moving and self.toi is not None:
                # beside the impact line, on its roomier side: never across the t lines
                text = f"impact at t = {fmt(self.toi, 4)}"
                if self.toi <= 0.5:
                    rect = QRectF(x(self.toi) + 5, y, width - x(self.toi) - 5, row_h)
                    align = Qt.AlignmentFlag.AlignLeft
                else:
                    rect = QRectF(0, y, x(self.toi) - 5, row_h)
                    align = Qt.AlignmentFlag.AlignRight
            else:
                rect = QRectF(x(0) + 5, y, width, row_h)
                align = Qt.AlignmentFlag.AlignLeft
            p.drawText(rect, align | Qt.AlignmentFlag.AlignVCenter, text)
            y += row_h
        if self.swept is not None and self.moving:
            y = self.paint_swept(p, x, y, row_h)
        if (self.curve or self.steps) and self.moving:
            # the distance d(t) between the moving objects, sampled on [0, 1]
            band_h = STEPS_H if self.steps else CURVE_H
            band = band_h - 6
            d_max = max([d for _, d in self.curve] + [d for _, t, d, _n in self.steps
                                                      if 0 <= t <= 1]) or 1.0
            p.setPen(QColor("#333"))
            p.drawText(QRectF(2, y, 54, band), Qt.AlignmentFlag.AlignVCenter, "distance")
            p.setPen(QPen(QColor("#bbb"), 1.0, Qt.PenStyle.DotLine))
            p.drawLine(QPointF(x(0), y + band), QPointF(x(1), y + band))
            p.setPen(QPen(QColor("#5e3c99"), 1.6))
            if self.curve:
                p.drawPolyline(QPolygonF([QPointF(x(t), y + band - d / d_max * band)
                                          for t, d in self.curve]))
            if self.steps:
                self.paint_steps(p, x, y, band, d_max, height - 20)
            p.setPen(QColor("#555"))
            p.drawText(QRectF(x(1) + 3, y - 2, 60, 14), Qt.AlignmentFlag.AlignLeft,
                       fmt(d_max, 3))
            p.drawText(QRectF(x(1) + 3, y + band - 10, 60, 14), Qt.AlignmentFlag.AlignLeft, "0")
            y += band_h
        # the t axis
        base = height - 20
        p.setPen(QPen(QColor("#333"), 1))
        p.drawLine(QPointF(x(T_MIN), base), QPointF(x(T_MAX), base))
        for v in (0, 0.25, 0.5, 0.75, 1):
            p.drawLine(QPointF(x(v), base), QPointF(x(v), base + 4))
            p.drawText(QRectF(x(v) - 20, base + 4, 40, 14), Qt.AlignmentFlag.AlignCenter, fmt(v))
        p.drawText(QRectF(x(T_MAX) - 10, base - 16, 12, 14), Qt.AlignmentFlag.AlignRight, "t")
        if self.toi is not None:
            p.setPen(QPen(TOI_COLOR, 2.0))
            p.drawLine(QPointF(x(self.toi), top), QPointF(x(self.toi), base))
            p.drawText(QRectF(x(self.toi) + 3, base - 15, 80, 14), Qt.AlignmentFlag.AlignLeft,
                       "impact")
        p.setPen(QPen(NOW_COLOR, 1.5, Qt.PenStyle.DashLine))
        p.drawLine(QPointF(x(self.now), top), QPointF(x(self.now), base))


    def paint_swept(self, p: QPainter, x, y: float, row_h: float) -> float:
        """One bar: ``t`` while the moving centre is inside the Minkowski shape (the rounded
        box, the ball r_A + r_B); it enters at the time of impact."""
        label, te, tl = self.swept
        p.setPen(QColor("#333"))
        p.drawText(QRectF(2, y, 54, row_h - 6), Qt.AlignmentFlag.AlignVCenter, label)
        x0, x1 = x(te), x(tl)
        bar = QRectF(x0, y + 3, max(x1 - x0, 2.0), row_h - 12)
        p.fillRect(bar, SWEPT_COLOR.lighter(160))
        p.setPen(QPen(SWEPT_COLOR, 1.5))
        p.drawRect(bar)
        p.setPen(QColor("#333"))
        for v, left in ((te, True), (tl, False)):
            if T_MIN < v < T_MAX:
                rect = QRectF(x(v) - 46 if left else x(v) + 2, y, 44, row_h - 6)
                align = Qt.AlignmentFlag.AlignRight if left else Qt.AlignmentFlag.AlignLeft
                p.drawText(rect, align | Qt.AlignmentFlag.AlignVCenter, fmt(v, 3))
        return y + row_h

    def paint_steps(self, p: QPainter, x, y: float, band: float, d_max: float,
                    base: float) -> None:
        """Conservative advancement on the distance band: a tick down to the t axis at each
        ``t_i`` with a dot at ``d(t_i)`` and its index, and the step's bound as a dashed line
        from ``(t_i, d_i)`` falling at the closing speed to 0 at ``t_{i+1} = t_i + d_i / v``
        (Newton on the convex ``d``: the line stays under the curve, so the step never
        passes the contact). The last tick, at the time of impact, is orange."""
        pos = [(ph, t, d, tn, QPointF(x(t), y + band - min(d / d_max, 1.0) * band))
               for ph, t, d, tn in self.steps]
        drawn: list[float] = []
        order = sorted(range(len(pos)), key=lambda i: pos[i][0] != "toi")  # the toi first
        for i in order:
            ph, t, d, tn, at = pos[i]
            color = TOI_COLOR if ph == "toi" else STEP_COLOR
            p.setPen(QPen(color, 1.0, Qt.PenStyle.SolidLine))
            p.drawLine(QPointF(at.x(), y + band), QPointF(at.x(), base))
            if tn is not None:
                p.setPen(QPen(STEP_COLOR, 1.2, Qt.PenStyle.DashLine))
                p.drawLine(at, QPointF(x(tn), y + band))
            p.setPen(Qt.PenStyle.NoPen)
            p.setBrush(color)
            p.drawEllipse(at, 3.2, 3.2)
            p.setBrush(Qt.BrushStyle.NoBrush)
            if ph == "toi":  # the impact line and its label name it
                drawn.append(at.x() + 1e6)
            elif all(abs(at.x() - o) >= 22 for o in drawn):
                # left of the dot, below it: the impact's label is on the right of its line
                p.setPen(color)
                p.drawText(QRectF(at.x() - 34, at.y() + 1, 30, 12), Qt.AlignmentFlag.AlignRight,
                           f"t{i}")
                drawn.append(at.x())


class TimelinePanel(PairPanel):
    """Dock panel: slider, play button, the chart, the numbers."""

    overlay_prefix = "timeline"

    def __init__(self, scene, workspace, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(scene, workspace, commands, viewport, evaluator, parent)
        self.t = 0.0
        self.toi: Optional[float] = None
        self.stop_at_impact = True
        self.slider = QSlider(Qt.Orientation.Horizontal, self)
        self.slider.setRange(0, STEPS)
        self.slider.setToolTip("Time t in [0, 1]: every moving object sits at its start + t motion")
        self.slider.valueChanged.connect(lambda v: self.set_time(v / STEPS, from_slider=True))
        self.play_button = QPushButton("▶ Play", self)
        self.play_button.setToolTip("Play t from here to 1; stops at the time of impact")
        self.play_button.clicked.connect(self.toggle_play)
        self.impact_button = QPushButton("⇥ Impact", self)
        self.impact_button.setToolTip("Jump to the time of impact")
        self.impact_button.clicked.connect(self.jump_to_impact)
        self.stop_box = QCheckBox("stop at impact", self)
        self.stop_box.setChecked(True)
        self.stop_box.setToolTip("Playing pauses when t reaches the time of impact")
        self.stop_box.toggled.connect(lambda on: setattr(self, "stop_at_impact", on))
        self.time_label = QLabel("t = 0", self)
        self.time_label.setMinimumWidth(70)
        self.chart = TimeChart(self)
        self.chart.time_clicked.connect(self.set_time)
        self.info = QLabel(self)
        self.info.setWordWrap(True)
        self._curve_timer = QTimer(self)
        self._curve_timer.setSingleShot(True)
        self._curve_timer.setInterval(150)
        self._curve_timer.timeout.connect(lambda: self._guarded(self.compute_curve))
        self.timer = QTimer(self)
        self.timer.setInterval(30)
        self.timer.timeout.connect(self._tick)
        self.play_step = 0.01
        row = QHBoxLayout()
        row.addWidget(self.play_button)
        row.addWidget(self.impact_button)
        row.addWidget(self.slider, 1)
        row.addWidget(self.time_label)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addLayout(row)
        layout.addWidget(self.stop_box)
        layout.addWidget(self.chart)
        layout.addWidget(self.info)
        layout.addStretch(1)
        self.start()

    # ------------------------------------------------------------------ updates
    def show_pair(self, a, b, result) -> None:
        moving = a.motion is not None or b.motion is not None
        self.toi = result.toi if moving else None
        rows = axis_intervals(result) if moving else []
        if self.chart.set_data(rows, self.toi, moving):
            self.mark_dirty("chart")
        point, normal = result.contact_point, result.contact_normal
        if not moving:
            text = f"{a.name} and {b.name} do not move: give one a motion to see a time line."
        elif self.toi is None:
            text = "They do not touch for t in [0, 1]."
        else:
            text = f"First contact at t = {fmt(self.toi, 5)}"
            if point is not None:
                text += f", point {fmt(point, 3)}"
            if normal is not None:
                text += f", normal {fmt(normal, 3)} (from {a.name} towards {b.name})"
            text += "."
        if rows:
            text += (" Per axis the boxes overlap while t is in [t_enter, t_leave]; they touch "
                     "while all three intervals overlap (Primer A.17, Fig. A.16).")
        swept = self._swept(a, b) if moving and not rows else None
        if self.chart.set_swept(swept):
            self.mark_dirty("chart")
        if swept is not None:
            text += (f" The '{swept[0]}' bar: t in [{fmt(swept[1], 3)}, {fmt(swept[2], 3)}] "
                     "while the moving centre is inside the Minkowski shape (View > Minkowski "
                     "shape); it enters at the time of impact.")
        steps = self._advancement(a, b, result) if moving else None
        if self.chart.set_steps(steps or []):
            self.mark_dirty("chart")
        if steps:
            text += " " + advancement_words(steps)
        if text != self.info.text():
            self.info.setText(text)
            self.mark_dirty("info")
        self.impact_button.setEnabled(self.toi is not None)
        self._draw_contact()
        if moving:
            # d(t) costs one distance query per sample: computed once the drag rests
            self._curve_timer.start()
        elif self.chart.curve:
            self.chart.set_curve([])

    def _swept(self, a, b):
        from explorer.render.minkowski import SWEPT_LABELS, inside_interval, minkowski_shape

        info = minkowski_shape(a, b)
        if info is None:
            return None
        span = inside_interval(info, T_MIN, T_MAX)
        if span is None:
            return None
        return (SWEPT_LABELS[info["kind"]], span[0], span[1])

    def _advancement(self, a, b, result):
        from explorer.present.advancement import advancement_steps

        return advancement_steps(result, a.at_time(0), b.at_time(0), a.motion, b.motion)

    def compute_curve(self) -> list[tuple[float, float]]:
        """Sample the distance between the pair over ``t`` in ``[0, 1]`` (registry
        ``distance`` on both objects moved to ``t``) and show it under the time line."""
        from algorithms import registry

        self._curve_timer.stop()
        curve = []
        if self.a is not None and (self.a.motion is not None or self.b.motion is not None):
            for t in np.linspace(0.0, 1.0, CURVE_SAMPLES):
                try:
                    d = registry.query("distance", self.a.at_time(t), self.b.at_time(t))
                except Exception:  # noqa: BLE001 - a missing query: no curve
                    curve = []
                    break
                curve.append((float(t), float(d.distance)))
        self.chart.set_curve(curve)
        return curve

    def show_nothing(self) -> None:
        self.toi = None
        self.chart.set_data([], None, False)
        self.chart.set_steps([])
        self.chart.set_swept(None)
        self.chart.set_curve([])
        self.info.setText("Select a pair; give an object a motion to play it.")
        self.impact_button.setEnabled(False)

    # ------------------------------------------------------------------ time
    def set_time(self, t: float, from_slider: bool = False) -> None:
        """Move every object to time ``t`` (clamped to ``[0, 1]``) in the viewport."""
        t = min(max(float(t), 0.0), 1.0)
        self.t = t
        if not from_slider:
            self.slider.blockSignals(True)
            self.slider.setValue(int(round(t * STEPS)))
            self.slider.blockSignals(False)
        self.time_label.setText(f"t = {t:.3f}")
        self.chart.now = t
        self.chart.update()
        self.mark_dirty("chart", "time_label")
        self._draw_contact()
        if self.viewport is not None and hasattr(self.viewport, "set_time"):
            self.viewport.set_time(t)  # the real viewport renders here
        else:
            self.render_viewport()

    def jump_to_impact(self) -> None:
        if self.toi is not None:
            self.stop()
            self.set_time(self.toi)

    def at_impact(self) -> bool:
        return self.toi is not None and abs(self.t - self.toi) <= 1e-12

    def toggle_play(self) -> None:
        if self.timer.isActive():
            self.stop()
        else:
            self.play()

    def play(self) -> None:
        if self.t >= 1.0 or (self.stop_at_impact and self.at_impact()):
            self.set_time(0.0 if self.t >= 1.0 else self.t + 1e-9)
        self.timer.start()
        self.play_button.setText("⏸ Pause")

    def stop(self) -> None:
        self.timer.stop()
        self.play_button.setText("▶ Play")

    def step(self) -> None:
        """One frame of playing: advance ``play_step``, stopping at impact and at 1."""
        t = self.t + self.play_step
        if (self.stop_at_impact and self.toi is not None and self.t < self.toi <= t):
            self.set_time(self.toi)
            self.t = self.toi  # exactly, not the slider's rounding
            self.stop()
            return
        if t >= 1.0:
            self.set_time(1.0)
            self.stop()
            return
        self.set_time(t)

    def _tick(self) -> None:
        self._guarded(self.step)

    def _draw_contact(self) -> None:
        """At the time of impact: the contact point and its normal in the viewport."""
        point = self.result.contact_point if self.result is not None else None
        normal = self.result.contact_normal if self.result is not None else None
        if not self.at_impact() or point is None:
            self.remove_overlay("contact")
            self.remove_overlay("normal")
            return
        import pyvista as pv

        r = self.marker_radius()
        point = np.asarray(point, dtype=float)
        self.add_overlay("contact", point_mesh(point), color="#e66100", point_size=18,
                         render_points_as_spheres=True)
        if normal is not None and np.linalg.norm(normal) > 0:
            # as thin as the hit normals: it must not hide the two shapes that touch
            self.add_overlay("normal", pv.Arrow(start=point, direction=np.asarray(normal, float),
                                                scale=7 * r, shaft_radius=0.02, tip_radius=0.07,
                                                tip_length=0.25), color="#e66100")
