"""The st-plane diagram: Eberly's own picture of a segment/ray/line distance query.

Schneider & Eberly, GTCG §10.8.2-10.8.3, Figs. 10.35 (ray-segment domain), 10.36 (the nine
regions), 10.37 (level curves and the first-contact point). The diagram draws the domain (unit
square, half-strip for a ray, whole plane for a line), the regions 0-8, level curves of
``Q(s, t)`` (ellipses; parallel lines for parallel components), the unconstrained minimiser
``(s_bar, t_bar)`` and its region, the constrained minimiser and the first-contact level curve
``Q = V0``. Dragging in the diagram moves a probe ``(s, t)``: two markers follow on the 3D
components (viewport overlays ``stplane:probe_a``/``probe_b``/``probe_link``) and ``Q`` is shown.
"""

from __future__ import annotations

import math
from typing import Optional

import numpy as np
from PyQt6.QtCore import QLineF, QPointF, QRectF, QSize, Qt, pyqtSignal
from PyQt6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QPixmap, QPolygonF
from PyQt6.QtWidgets import (QFileDialog, QHBoxLayout, QLabel, QPushButton, QSizePolicy,
                             QVBoxLayout, QWidget)

from algorithms.traces import StPlaneTrace
from algorithms.primitives import LINEAR_KINDS
from explorer.present.stplane import (SIDES_OF, TRANSPOSED_REGION, STPlane, ellipse_points,
                                      level_segments, stplane, well_conditioned)
from explorer.qt.panels.base import PairPanel, fmt, line_mesh, point_mesh

DOMAIN_FILL = QColor("#dbe9f6")
REGION_FILL = QColor("#fff3b0")
GRID_PEN = QColor("#7a7a7a")
LEVEL_PEN = QColor("#9aa4ad")
CONTACT_PEN = QColor("#e66100")
MIN_COLOR = QColor("#d62728")
BAR_COLOR = QColor("#5e3c99")
PROBE_COLOR = QColor("#0072b2")
PROBE_COLOR_A = "#0072b2"
PROBE_COLOR_B = "#009e73"


def clip_polyline(xy, left: float, top: float, right: float, bottom: float) -> list:
    """The parts of the polyline ``xy`` (``(n, 2)`` pixels) inside the rectangle, as lists
    of points (Liang-Barsky on each segment). Used for SVG export, where a painter's clip
    rectangle is not kept by every reader."""
    runs, cur = [], []
    for (ax, ay), (bx, by) in zip(xy[:-1], xy[1:]):
        dx, dy = bx - ax, by - ay
        t0, t1 = 0.0, 1.0
        ok = True
        for pk, qk in ((-dx, ax - left), (dx, right - ax), (-dy, ay - top), (dy, bottom - ay)):
            if pk == 0:
                if qk < 0:
                    ok = False
                    break
                continue
            r = qk / pk
            if pk < 0:
                t0 = max(t0, r)
            else:
                t1 = min(t1, r)
            if t0 > t1:
                ok = False
                break
        if not ok:
            if len(cur) > 1:
                runs.append(cur)
            cur = []
            continue
        start = (ax + t0 * dx, ay + t0 * dy)
        end = (ax + t1 * dx, ay + t1 * dy)
        if not cur or t0 > 0:
            if len(cur) > 1:
                runs.append(cur)
            cur = [start]
        cur.append(end)
        if t1 < 1:
            runs.append(cur)
            cur = []
    if len(cur) > 1:
        runs.append(cur)
    return runs


class StPlaneDiagram(QWidget):
    """Paints an :class:`STPlane`; ``probe_moved(s, t)`` while the user drags in it."""

    probe_moved = pyqtSignal(float, float)

    def __init__(self, parent=None):
        super().__init__(parent)
        self.model: Optional[STPlane] = None
        self.probe: Optional[tuple[float, float]] = None
        self.algorithm_region: Optional[int] = None
        self.setMinimumSize(260, 260)
        self.setSizePolicy(QSizePolicy.Policy.Expanding, QSizePolicy.Policy.Expanding)
        self.setMouseTracking(False)
        self._view = (-0.6, 1.6, -0.6, 1.6)
        self._static_key: tuple = ()
        self._static: Optional[QPixmap] = None

    def sizeHint(self) -> QSize:
        return QSize(380, 380)

    def set_model(self, model: Optional[STPlane]) -> None:
        """Show ``model``; the view stays put while it still frames the picture well (no zoom
        jitter while the user drags in 3D)."""
        old, self.model = self.model, model
        if model is not None:
            want = self._choose_view(model)
            if old is None or old.domain != model.domain or not self._view_still_good(model, want):
                self._view = want
        self.update()

    def _view_still_good(self, q: STPlane, want) -> bool:
        s0, s1, t0, t1 = self._view
        if (s1 - s0) > 1.6 * (want[1] - want[0]) or (s1 - s0) < 0.75 * (want[1] - want[0]):
            return False
        keys = [(q.s, q.t)] + [(v, q.t) for v in (q.s_lo, q.s_hi) if math.isfinite(v)] \
            + [(q.s, v) for v in (q.t_lo, q.t_hi) if math.isfinite(v)]
        if q.s_bar is not None and want[0] <= q.s_bar <= want[1] and want[2] <= q.t_bar <= want[3]:
            keys.append((q.s_bar, q.t_bar))
        margin = 0.05 * (s1 - s0)
        return all(s0 + margin <= s <= s1 - margin and t0 + margin <= t <= t1 - margin
                   for s, t in keys)

    # ------------------------------------------------------------------ geometry
    @staticmethod
    def _axis_view(lo: float, hi: float, m: float, bar: Optional[float]) -> tuple[float, float]:
        v_lo = lo if math.isfinite(lo) else min(0.0, m) - 1.0
        v_hi = hi if math.isfinite(hi) else max(1.0, m) + 1.0
        if not math.isfinite(lo) and not math.isfinite(hi):
            v_lo, v_hi = m - 1.5, m + 1.5
        pad = 0.3 * max(v_hi - v_lo, 1.0)
        v_lo, v_hi = v_lo - pad, v_hi + pad
        if bar is not None and v_lo - 3 < bar < v_hi + 3:
            v_lo, v_hi = min(v_lo, bar - 0.6), max(v_hi, bar + 0.6)
        return v_lo, v_hi

    def _choose_view(self, q: STPlane) -> tuple[float, float, float, float]:
        s0, s1 = self._axis_view(q.s_lo, q.s_hi, q.s, q.s_bar)
        t0, t1 = self._axis_view(q.t_lo, q.t_hi, q.t, q.t_bar)
        # uniform scale: widen the narrower range about its centre
        ws, wt = s1 - s0, t1 - t0
        if ws < wt:
            s0, s1 = s0 - (wt - ws) / 2, s1 + (wt - ws) / 2
        else:
            t0, t1 = t0 - (ws - wt) / 2, t1 + (ws - wt) / 2
        return s0, s1, t0, t1

    def _frame(self, width: float, height: float) -> QRectF:
        m = 34.0
        side = max(min(width - 2 * m, height - 2 * m - 18), 10.0)
        return QRectF((width - side) / 2, m + 18, side, side)

    def to_px(self, s: float, t: float, frame: Optional[QRectF] = None) -> QPointF:
        frame = frame or self._frame(self.width(), self.height())
        s0, s1, t0, t1 = self._view
        x = frame.left() + (s - s0) / (s1 - s0) * frame.width()
        y = frame.bottom() - (t - t0) / (t1 - t0) * frame.height()
        return QPointF(x, y)

    def to_px_array(self, st: np.ndarray, frame: QRectF) -> np.ndarray:
        """:meth:`to_px` for an ``(n, 2)`` array of ``(s, t)`` rows."""
        s0, s1, t0, t1 = self._view
        out = np.empty_like(st, dtype=float)
        out[:, 0] = frame.left() + (st[:, 0] - s0) / (s1 - s0) * frame.width()
        out[:, 1] = frame.bottom() - (st[:, 1] - t0) / (t1 - t0) * frame.height()
        return out

    def to_st(self, x: float, y: float) -> tuple[float, float]:
        frame = self._frame(self.width(), self.height())
        s0, s1, t0, t1 = self._view
        s = s0 + (x - frame.left()) / frame.width() * (s1 - s0)
        t = t0 + (frame.bottom() - y) / frame.height() * (t1 - t0)
        return s, t

    # ------------------------------------------------------------------ mouse
    def _probe_at(self, pos) -> None:
        if self.model is None:
            return
        s, t = self.model.clamp(*self.to_st(pos.x(), pos.y()))
        self.probe = (s, t)
        self.update()
        self.probe_moved.emit(s, t)

    def mousePressEvent(self, event):
        if event.button() == Qt.MouseButton.LeftButton:
            self._probe_at(event.position())

    def mouseMoveEvent(self, event):
        if event.buttons() & Qt.MouseButton.LeftButton:
            self._probe_at(event.position())

    # ------------------------------------------------------------------ painting
    def paintEvent(self, _event):
        painter = QPainter(self)
        try:
            self.paint(painter, self.width(), self.height(), cache=True)
        finally:
            painter.end()

    def paint(self, p: QPainter, width: float, height: float, cache: bool = False) -> None:
        """Draw the whole diagram on any paint device (screen, PNG image, SVG generator).

        With ``cache`` the parts that do not move during a drag (domain, region grid and
        numbers, ticks) come from a pixmap kept while the view and the region stay the same.
        """
        p.setRenderHint(QPainter.RenderHint.Antialiasing)
        q = self.model
        if q is None:
            p.fillRect(QRectF(0, 0, width, height), QColor("white"))
            p.setPen(QColor("#555"))
            p.drawText(QRectF(0, 0, width, height), Qt.AlignmentFlag.AlignCenter,
                       "Select a pair of segments, rays or lines\nto see its st-plane "
                       "(Eberly §10.8)")
            return
        frame = self._frame(width, height)
        px = lambda s, t: self.to_px(s, t, frame)  # noqa: E731
        if cache:
            key = (int(width), int(height), self._view, q.region, q.domain,
                   self.devicePixelRatioF())
            if self._static_key != key:
                ratio = self.devicePixelRatioF()
                pixmap = QPixmap(int(width * ratio), int(height * ratio))
                pixmap.setDevicePixelRatio(ratio)
                painter = QPainter(pixmap)
                try:
                    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
                    self._paint_static(painter, q, frame, px, width, height)
                finally:
                    painter.end()
                self._static_key, self._static = key, pixmap
            p.drawPixmap(0, 0, self._static)
        else:
            self._paint_static(p, q, frame, px, width, height)
        self._paint_dynamic(p, q, frame, px, width, clip_by_hand=not cache)

    def _paint_static(self, p: QPainter, q: STPlane, frame: QRectF, px, width, height) -> None:
        p.fillRect(QRectF(0, 0, width, height), QColor("white"))
        s0, s1, t0, t1 = self._view
        p.save()
        p.setClipRect(frame)
        # the region of (s_bar, t_bar), then the domain
        if q.region is not None:
            p.fillRect(self._cell_rect(q, q.region, px), REGION_FILL)
        p.fillRect(self._cell_rect(q, 0, px), DOMAIN_FILL)
        # region boundaries: the finite domain bounds, extended across the plane
        pen = QPen(GRID_PEN, 1.0, Qt.PenStyle.DashLine)
        p.setPen(pen)
        for v in (q.s_lo, q.s_hi):
            if math.isfinite(v):
                p.drawLine(px(v, t0), px(v, t1))
        for v in (q.t_lo, q.t_hi):
            if math.isfinite(v):
                p.drawLine(px(s0, v), px(s1, v))
        p.setPen(QPen(QColor("#2b5d8a"), 2.0))
        p.drawRect(self._cell_rect(q, 0, px))
        # region numbers (Fig. 10.36)
        font = QFont(p.font())
        font.setPointSizeF(13)
        font.setBold(True)
        p.setFont(font)
        for region in range(9):
            if region == q.region and region != 0:
                continue  # drawn with (s_bar, t_bar), clear of its marker
            self._region_number(p, q, region, px)
        p.restore()
        small = QFont(p.font())
        small.setPointSizeF(8)
        self._ticks(p, q, frame, px, small)

    def _polyline(self, p: QPainter, xy, frame: QRectF, clip_by_hand: bool) -> None:
        if clip_by_hand:
            for run in clip_polyline(xy.tolist(), frame.left(), frame.top(), frame.right(),
                                     frame.bottom()):
                p.drawPolyline(QPolygonF([QPointF(x, y) for x, y in run]))
        else:
            p.drawPolyline(QPolygonF([QPointF(x, y) for x, y in xy.tolist()]))

    def _paint_dynamic(self, p: QPainter, q: STPlane, frame: QRectF, px, width,
                       clip_by_hand: bool = False) -> None:
        p.save()
        p.setClipRect(frame)
        # level curves (Fig. 10.37)
        small = QFont(p.font())
        small.setPointSizeF(8)
        small.setBold(False)
        p.setFont(small)
        smooth = well_conditioned(q)
        for level, kind in self.levels(q):
            if kind == "contact":
                p.setPen(QPen(CONTACT_PEN, 2.4))
            elif kind == "probe":
                p.setPen(QPen(PROBE_COLOR, 1.2, Qt.PenStyle.DotLine))
            else:
                p.setPen(QPen(LEVEL_PEN, 1.0))
            if not smooth:  # nearly parallel: contour Q itself (marching squares)
                segs = level_segments(q, level, self._view)
                if len(segs):
                    xy = self.to_px_array(segs.reshape(-1, 2), frame).reshape(-1, 4)
                    p.drawLines([QLineF(*row) for row in xy.tolist()])
                continue
            for poly in ellipse_points(q, level, n=56, view=self._view):
                self._polyline(p, self.to_px_array(poly, frame), frame, clip_by_hand)
        # parallel: the line of unconstrained minimisers
        line = q.free_minimiser_line()
        if line is not None:
            p0, direction = line
            direction = direction / np.linalg.norm(direction)
            p.setPen(QPen(BAR_COLOR, 1.6, Qt.PenStyle.DashDotLine))
            a, b = p0 - 1e3 * direction, p0 + 1e3 * direction
            ends = np.array([[px(*a).x(), px(*a).y()], [px(*b).x(), px(*b).y()]])
            self._polyline(p, ends, frame, clip_by_hand)
        # the probe
        if self.probe is not None:
            self._dot(p, px(*self.probe), PROBE_COLOR, 5, hollow=True)
        # the constrained minimiser
        self._dot(p, px(q.s, q.t), MIN_COLOR, 5)
        p.restore()
        # (s_bar, t_bar): inside the frame a cross, outside an arrow on the frame's edge
        p.setFont(small)
        if q.s_bar is not None:
            self._draw_bar(p, q, frame, px)
        self._labels(p, q, frame, px, width, small)
        # the legend's value changes with every drag step and every pair: it is drawn with the
        # moving parts, never from the cached picture (issue 10: it used to stay stale)
        legend = QFont(small)
        legend.setPointSizeF(10)
        legend.setItalic(True)
        p.setFont(legend)
        p.setPen(CONTACT_PEN)
        p.drawText(QRectF(frame.left() - 30, frame.bottom() + 16, frame.width() - 60, 14),
                   Qt.AlignmentFlag.AlignLeft, self.legend_text())

    def legend_text(self) -> str:
        """The first-contact legend of the current model (``""`` with none)."""
        q = self.model
        return "" if q is None else f"— first contact Q = V0 = {fmt(q.q_min, 4)}"

    def levels(self, q: STPlane) -> list[tuple[float, str]]:
        """The drawn level values: a few below and above the first contact ``V0``."""
        out = []
        gap = q.q_min - q.q_free
        if gap > 1e-12 * max(1.0, q.q_min):
            out += [(q.q_free + k * gap, "level") for k in (0.2, 0.55, 1.8, 3.0)]
        else:  # minimum inside the domain: spread the levels over the domain's corners
            ss = [v for v in (q.s_lo, q.s_hi, q.s - 1, q.s + 1) if math.isfinite(v)]
            ts = [v for v in (q.t_lo, q.t_hi, q.t - 1, q.t + 1) if math.isfinite(v)]
            corners = [q.Q(*q.clamp(s, t)) for s in ss for t in ts]
            span = max(max(corners) - q.q_free, 1e-9)
            out += [(q.q_free + k * span, "level") for k in (0.04, 0.15, 0.35, 0.65)]
        out.append((q.q_min, "contact"))
        if self.probe is not None:
            value = float(q.Q(*self.probe))
            if abs(value - q.q_min) > 1e-9 * (1.0 + q.q_min):
                out.append((value, "probe"))
        return out

    def _cell_rect(self, q: STPlane, region: int, px) -> QRectF:
        s0, s1, t0, t1 = self._view
        ss, ts = SIDES_OF[region]
        s_edges = {-1: (s0, q.s_lo), 0: (q.s_lo, q.s_hi), 1: (q.s_hi, s1)}[ss]
        t_edges = {-1: (t0, q.t_lo), 0: (q.t_lo, q.t_hi), 1: (q.t_hi, t1)}[ts]
        sa, sb = (max(min(v, s1), s0) for v in s_edges)
        ta, tb = (max(min(v, t1), t0) for v in t_edges)
        if sb <= sa or tb <= ta:
            return QRectF()
        return QRectF(px(sa, tb), px(sb, ta))

    @staticmethod
    def _dot(p: QPainter, at: QPointF, color: QColor, r: float, hollow: bool = False) -> None:
        p.setPen(QPen(color.darker(130), 1.5))
        p.setBrush(QBrush(QColor("white") if hollow else color))
        p.drawEllipse(at, r, r)
        p.setBrush(Qt.BrushStyle.NoBrush)

    def _region_number(self, p: QPainter, q: STPlane, region: int, px, avoid=None) -> None:
        """The book's number of ``region`` in its cell (Fig. 10.36), moved a line towards the
        domain when the point ``avoid`` (the (s_bar, t_bar) marker) sits on it."""
        rect = self._cell_rect(q, region, px)
        if rect.width() < 8 or rect.height() < 8:
            return
        font = QFont(p.font())
        font.setPointSizeF(13)
        font.setBold(True)
        p.setFont(font)
        p.setPen(QColor("#b8860b") if region == q.region else QColor("#8c9aa8"))
        if region == 0:
            p.drawText(rect.adjusted(4, 2, -4, -2),
                       Qt.AlignmentFlag.AlignLeft | Qt.AlignmentFlag.AlignTop, "0")
            return
        at = rect.center()
        if avoid is not None and abs(avoid.x() - at.x()) < 22 and abs(avoid.y() - at.y()) < 22:
            domain = self._cell_rect(q, 0, px).center()
            step = domain - at
            norm = math.hypot(step.x(), step.y()) or 1.0
            at = avoid + step * (26.0 / norm)
        p.drawText(QRectF(at.x() - 15, at.y() - 12, 30, 24), Qt.AlignmentFlag.AlignCenter,
                   str(region))

    def _draw_bar(self, p: QPainter, q: STPlane, frame: QRectF, px) -> None:
        at = px(q.s_bar, q.t_bar)
        if q.region:
            p.save()
            self._region_number(p, q, q.region, px, avoid=at)
            p.restore()
        p.setPen(QPen(BAR_COLOR, 2.0))
        if frame.contains(at):
            r = 5
            p.drawLine(at + QPointF(-r, -r), at + QPointF(r, r))
            p.drawLine(at + QPointF(-r, r), at + QPointF(r, -r))
            p.drawText(at + QPointF(7, -6), "(s̄, t̄)")
            return
        c = frame.center()
        d = at - c
        k = min(frame.width() / 2 / max(abs(d.x()), 1e-9), frame.height() / 2 / max(abs(d.y()), 1e-9))
        tip = c + d * (k * 0.97)
        unit = d / math.hypot(d.x(), d.y())
        back = tip - unit * 14
        normal = QPointF(-unit.y(), unit.x())
        p.setBrush(QBrush(BAR_COLOR))
        p.drawPolygon(QPolygonF([tip, back + normal * 5, back - normal * 5]))
        p.setBrush(Qt.BrushStyle.NoBrush)
        p.drawText(back - unit * 4 + QPointF(-30, 4 if unit.y() < 0 else -4), "(s̄, t̄) →")

    def _ticks(self, p: QPainter, q: STPlane, frame: QRectF, px, font) -> None:
        s0, s1, t0, t1 = self._view
        p.setFont(font)
        p.setPen(QColor("#333"))
        # ticks on the domain bounds
        for v in (q.s_lo, q.s_hi):
            if math.isfinite(v) and s0 <= v <= s1:
                x = px(v, t0).x()
                p.drawText(QRectF(x - 20, frame.bottom() + 2, 40, 14),
                           Qt.AlignmentFlag.AlignCenter, fmt(v, 3))
        for v in (q.t_lo, q.t_hi):
            if math.isfinite(v) and t0 <= v <= t1:
                y = px(s0, v).y()
                p.drawText(QRectF(frame.left() - 30, y - 7, 26, 14),
                           Qt.AlignmentFlag.AlignRight | Qt.AlignmentFlag.AlignVCenter, fmt(v, 3))
        bold = QFont(font)
        bold.setPointSizeF(10)
        bold.setItalic(True)
        p.setFont(bold)
        # one line below the tick values: "s (segment)" never runs over the tick "1"
        p.drawText(QRectF(frame.right() - 120, frame.bottom() + 16, 120, 16),
                   Qt.AlignmentFlag.AlignRight, f"s ({q.kind_a}) →")
        p.drawText(QRectF(frame.left() - 32, frame.top() - 18, 120, 16),
                   Qt.AlignmentFlag.AlignLeft, f"t ({q.kind_b})")

    def _labels(self, p: QPainter, q: STPlane, frame: QRectF, px, width: float, font) -> None:
        p.setPen(QColor("#333"))
        title = QFont(font)
        title.setPointSizeF(9.5)
        p.setFont(title)
        where = "parallel: no single (s̄, t̄)" if q.region is None else (
            f"region {q.region}: (s̄, t̄) = ({fmt(q.s_bar, 3)}, {fmt(q.t_bar, 3)})")
        p.drawText(QRectF(6, 4, width - 12, 16), Qt.AlignmentFlag.AlignLeft,
                   f"{q.domain}   {where}")
        p.setPen(MIN_COLOR)
        text = f"minimum at (s, t) = ({fmt(q.s, 3)}, {fmt(q.t, 3)}),  Q = {fmt(q.q_min, 4)}"
        p.drawText(QRectF(6, 20, width - 12, 16), Qt.AlignmentFlag.AlignLeft, text)

    # ------------------------------------------------------------------ export
    def export_png(self, path: str, scale: float = 2.0) -> None:
        w, h = max(self.width(), 380), max(self.height(), 380)
        image = QImage(int(w * scale), int(h * scale), QImage.Format.Format_ARGB32)
        image.fill(QColor("white"))
        painter = QPainter(image)
        painter.scale(scale, scale)
        old = self.size()
        self.resize(w, h)
        try:
            self.paint(painter, w, h)
        finally:
            painter.end()
            self.resize(old)
        if not image.save(path, "PNG"):
            raise OSError(f"could not write {path}")

    def export_svg(self, path: str) -> None:
        from PyQt6.QtSvg import QSvgGenerator

        w, h = max(self.width(), 380), max(self.height(), 380)
        gen = QSvgGenerator()
        gen.setFileName(path)
        gen.setSize(QSize(w, h))
        gen.setViewBox(QRectF(0, 0, w, h))
        gen.setTitle("st-plane (Eberly GTCG §10.8)")
        old = self.size()
        self.resize(w, h)
        painter = QPainter(gen)
        try:
            self.paint(painter, w, h)
        finally:
            painter.end()
            self.resize(old)


class StPlanePanel(PairPanel):
    """Dock panel: the diagram, the probe's ``Q``, export buttons."""

    overlay_prefix = "stplane"

    def __init__(self, scene, workspace, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(scene, workspace, commands, viewport, evaluator, parent)
        self.model: Optional[STPlane] = None
        #: the library's error when it refused the pair (no distance record), else None
        self.refusal: Optional[str] = None
        self.diagram = StPlaneDiagram(self)
        self.diagram.probe_moved.connect(self.set_probe)
        self.info = QLabel(self)
        self.info.setWordWrap(True)
        self.info.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        png, svg = QPushButton("PNG…", self), QPushButton("SVG…", self)
        png.setToolTip("Export the diagram as a PNG image")
        svg.setToolTip("Export the diagram as an SVG drawing")
        png.clicked.connect(lambda: self._export("png"))
        svg.clicked.connect(lambda: self._export("svg"))
        reset = QPushButton("Probe to minimum", self)
        reset.setToolTip("Put the probe (s, t) on the constrained minimiser")
        reset.clicked.connect(self.probe_to_minimum)
        row = QHBoxLayout()
        row.addWidget(reset)
        row.addStretch(1)
        row.addWidget(png)
        row.addWidget(svg)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.diagram, 1)
        layout.addWidget(self.info)
        layout.addLayout(row)
        self.setToolTip("Drag in the diagram to move the probe (s, t); its two points follow on "
                        "the 3D components")
        self.start()

    # ------------------------------------------------------------------ updates
    def show_pair(self, a, b, result) -> None:
        if a.kind not in LINEAR_KINDS or b.kind not in LINEAR_KINDS:
            self.show_nothing()
            return
        old = self.model
        self.model = stplane(a.primitive, b.primitive)
        dist = result.records.distance
        # the library refused the pair (two lines crossing beyond the float range): the
        # diagram's own floats see them as parallel, so say that its minimum is not an answer
        self.refusal = result.error if dist is None else None
        trace: StPlaneTrace = dist.trace if dist is not None else {}
        region = trace.get("region")
        if isinstance(region, int) and trace.get("swapped"):
            region = TRANSPOSED_REGION.get(region, region)
        self.diagram.algorithm_region = region if isinstance(region, int) else None
        if old is None or self.diagram.probe is None:
            self.diagram.probe = (self.model.s, self.model.t)
        else:
            self.diagram.probe = self.model.clamp(*self.diagram.probe)
        self.diagram.set_model(self.model)
        self._show_probe(render=False)
        self.mark_dirty("diagram", "info")

    def show_nothing(self) -> None:
        self.model = None
        self.diagram.probe = None
        self.diagram.set_model(None)
        self.info.setText("")
        self.clear_overlays()

    def algorithm_region(self) -> Optional[int]:
        """The region the algorithm's trace reports, in this pair's (s, t) order."""
        return self.diagram.algorithm_region

    # ------------------------------------------------------------------ the probe
    def set_probe(self, s: float, t: float) -> None:
        """Move the probe to ``(s, t)`` (clamped to the domain) and its markers in 3D."""
        if self.model is None:
            return
        self.diagram.probe = self.model.clamp(s, t)
        self.diagram.update()
        self._show_probe(render=True)
        self.mark_dirty("diagram", "info")

    def probe_to_minimum(self) -> None:
        if self.model is not None:
            self.set_probe(self.model.s, self.model.t)

    def _show_probe(self, render: bool) -> None:
        q = self.model
        s, t = self.diagram.probe
        pa, pb = q.points(s, t)
        value = float(q.Q(s, t))
        self.add_overlay("probe_a", point_mesh(pa), color=PROBE_COLOR_A, point_size=16,
                         render_points_as_spheres=True)
        self.add_overlay("probe_b", point_mesh(pb), color=PROBE_COLOR_B, point_size=16,
                         render_points_as_spheres=True)
        self.add_overlay("probe_link", line_mesh(pa, pb), color="#555555", line_width=2)
        alg = self.diagram.algorithm_region
        check = "" if alg is None else (
            f" The algorithm reports region {alg}" + ("." if alg == q.region else
                                                        " (differs from the diagram's).")
        )
        text = (f"Probe (s, t) = ({fmt(s, 3)}, {fmt(t, 3)}): Q = {fmt(value, 4)}, "
                f"distance {fmt(math.sqrt(max(value, 0.0)), 4)}. Minimum Q = {fmt(q.q_min, 4)} "
                f"at ({fmt(q.s, 3)}, {fmt(q.t, 3)}).{check}")
        if self.refusal:
            text += (" The library gives no answer for this pair, so the diagram's minimum "
                     f"(plain floats) is not one: {self.refusal}")
        self.info.setText(text)
        if render:
            self.render_viewport()

    def probe_points(self) -> tuple[np.ndarray, np.ndarray]:
        return self.model.points(*self.diagram.probe)

    # ------------------------------------------------------------------ export
    def export_png(self, path: str) -> None:
        self.diagram.export_png(path)

    def export_svg(self, path: str) -> None:
        self.diagram.export_svg(path)

    def _export(self, kind: str) -> None:
        path, _ = QFileDialog.getSaveFileName(self, f"Export st-plane as {kind.upper()}",
                                              f"stplane.{kind}", f"{kind.upper()} (*.{kind})")
        if path:
            (self.export_png if kind == "png" else self.export_svg)(path)
