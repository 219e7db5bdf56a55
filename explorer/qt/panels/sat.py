"""The separating-axis inspector: every candidate axis the algorithm tried, as a table.

Schneider & Eberly, GTCG §11.12.7 (OBB-OBB: the 15 axes ``a_A,u``, ``a_B,v``,
``a_A,u x a_B,v`` with the projection radii ``r_A``, ``r_B``), §11.11 (triangle-box: 13 axes) and
§11.12.9 (cylinders: ``w0``, ``w1``, ``w0 x w1``, directions perpendicular to ``w0`` or ``w1``,
gradient-zero directions; ``found_by`` names the test that found the separating direction).

The rows are ``trace["separating_axis"]["axes"]`` of the pair's result: ``name``, ``axis``,
``r_A``, ``r_B``, ``distance`` (of the projected centres), ``margin`` (``distance - r_A - r_B``;
positive: separated), ``separating``. Sortable by any column, filterable by name or to the
separating rows only. Selecting a row draws that axis through the scene and both projection
intervals on it (viewport overlays ``sat:axis``, ``sat:interval_a``, ``sat:interval_b``); the
intervals are recomputed from the shapes' support functions, ``[-h(-n), h(n)]``.
"""

from __future__ import annotations

from typing import Optional

import numpy as np
from PyQt6.QtCore import Qt, QTimer
from PyQt6.QtGui import QBrush, QColor, QFont
from PyQt6.QtWidgets import (QAbstractItemView, QCheckBox, QHBoxLayout, QHeaderView, QLabel,
                             QLineEdit, QTableWidget, QTableWidgetItem, QVBoxLayout)

from algorithms.answer import PairAnswer
from algorithms.traces import SatAxis, SatTrace
from algorithms.kernels.support import BOUNDED_KINDS, support_interval
from explorer.qt.panels.base import PairPanel, fmt, line_mesh

COLUMNS = ("", "axis name", "r_A", "r_B", "distance", "margin", "direction")
SEPARATING_BG = QColor("#d9f2d9")
COLOR_A = "#0072b2"
COLOR_B = "#e69f00"
AXIS_COLOR = "#444444"


class _Item(QTableWidgetItem):
    """A cell that sorts by a number (``None`` last) but shows short text."""

    def __init__(self, text: str, key=None):
        super().__init__(text)
        self.key = key
        self.setFlags(Qt.ItemFlag.ItemIsSelectable | Qt.ItemFlag.ItemIsEnabled)

    def __lt__(self, other):
        a, b = self.key, getattr(other, "key", None)
        if a is None or b is None:
            return (a is None) < (b is None)
        return a < b


def _sat_trace(result: Optional[PairAnswer]) -> SatTrace:
    sep = result.records.separation if result is not None else None
    return sep.trace if sep is not None else {}


def axes_of(result: Optional[PairAnswer]) -> list[SatAxis]:
    """The candidate axes of an answer (``[]`` when the pair has no separating-axis trace)."""
    return [ax for ax in _sat_trace(result).get("axes") or () if isinstance(ax, dict)]


def found_by(result: Optional[PairAnswer]) -> Optional[str]:
    """Which test found the separating direction: ``found_by`` (cylinders) or ``chosen``."""
    sat = _sat_trace(result)
    return sat.get("found_by") or sat.get("chosen")


def derived_axis(A, B, axis) -> dict:
    """A table row for a separating direction that came from the closest points: both
    projection intervals ``[-h(-n), h(n)]`` from the support functions, their centres'
    distance and the margin ``distance - r_A - r_B``."""
    n = np.asarray(axis, dtype=float)
    n = n / np.linalg.norm(n)
    lo_a, hi_a = support_interval(A, n)
    lo_b, hi_b = support_interval(B, n)
    r_a, r_b = (hi_a - lo_a) / 2, (hi_b - lo_b) / 2
    dist = abs((lo_b + hi_b) / 2 - (lo_a + hi_a) / 2)
    margin = dist - r_a - r_b
    return {"name": "closest-point direction", "axis": tuple(n), "r_A": r_a, "r_B": r_b,
            "distance": dist, "margin": margin, "separating": bool(margin > 0)}


class SatInspectorPanel(PairPanel):
    """Dock panel: the candidate-axis table and a summary line."""

    overlay_prefix = "sat"

    def __init__(self, scene, workspace, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(scene, workspace, commands, viewport, evaluator, parent)
        self.axes: list[dict] = []
        self._table_stale = False
        self.selected_name: Optional[str] = None
        self.summary = QLabel(self)
        self.summary.setWordWrap(True)
        self.filter_edit = QLineEdit(self)
        self.filter_edit.setPlaceholderText("filter by axis name (e.g. x, a_A, w0)")
        self.filter_edit.setToolTip("Show only the axes whose name contains this text")
        self.only_separating = QCheckBox("separating only", self)
        self.only_separating.setToolTip("Show only the axes on which the projections are disjoint")
        self.filter_edit.textChanged.connect(self.apply_filter)
        self.only_separating.toggled.connect(self.apply_filter)
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        self.table.verticalHeader().setDefaultSectionSize(22)
        self.table.setWordWrap(False)
        self.table.setSortingEnabled(True)
        self.table.sortByColumn(0, Qt.SortOrder.AscendingOrder)  # the separating axes first
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        header.setStretchLastSection(True)
        self.table.setToolTip("Every candidate axis: projection radii r_A, r_B, projected centre "
                              "distance and margin = distance - r_A - r_B (> 0: separating). "
                              "Select a row to draw the axis in the viewport.")
        self.table.itemSelectionChanged.connect(self._on_selection)
        top = QHBoxLayout()
        top.addWidget(self.filter_edit, 1)
        top.addWidget(self.only_separating)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        layout.addWidget(self.summary)
        layout.addLayout(top)
        layout.addWidget(self.table, 1)
        self._filling = False
        self._timer = QTimer(self)
        self._timer.setSingleShot(True)
        self._timer.setInterval(self.THROTTLE_MS)
        self._timer.timeout.connect(lambda: self._guarded(self.flush))
        self.start()

    # ------------------------------------------------------------------ updates
    def show_pair(self, a, b, result) -> None:
        self.axes = axes_of(result)
        sep = result.separating_axis
        who = found_by(result)
        derived = not self.axes and sep is not None and a.kind in BOUNDED_KINDS \
            and b.kind in BOUNDED_KINDS
        if derived:
            self.axes = [derived_axis(a.primitive, b.primitive, sep)]
            who = self.axes[0]["name"]
            self.summary.setText(
                f"{a.name} ({a.kind}) – {b.name} ({b.kind}): no candidate-axis test for this "
                "pair; the separating direction is the one between the closest points (the "
                "supporting hyperplane theorem). Its projections, from the support functions:")
        elif not self.axes:
            why = ("no separating-axis test is registered for this pair"
                   if a.kind in BOUNDED_KINDS and b.kind in BOUNDED_KINDS
                   else "separating axes apply to bounded shapes only")
            self.summary.setText(f"{a.name} ({a.kind}) – {b.name} ({b.kind}): {why}.")
        else:
            n_sep = sum(1 for ax in self.axes if ax.get("separating"))
            verdict = (f"separated; axis used: <b>{who}</b>" if sep is not None
                       else "<b>no separating axis</b>: the shapes intersect")
            if sep is not None and who and a.kind == b.kind == "cylinder":
                verdict = (f"separated; the direction was found by the test <b>{who}</b> "
                           "(the first of GTCG §11.12.9's tests, in the book's order, "
                           "that separates)")
            self.summary.setText(f"{a.name} ({a.kind}) – {b.name} ({b.kind}): "
                                 f"{len(self.axes)} candidate axes, {n_sep} separating; {verdict}.")
        if not self.on_screen():  # (hidden panels never get here; a covered one may)
            self._table_stale = True
        elif self.live:  # a drag step: the numbers follow at most every THROTTLE_MS
            self._table_stale = True
            if not self._timer.isActive():
                self._timer.start()
        else:
            self._fill()
        self._draw_selected()

    THROTTLE_MS = 50

    def flush(self) -> None:
        """Fill the table now if it is behind."""
        self._timer.stop()
        if self._table_stale:
            self._fill()

    def showEvent(self, event):
        super().showEvent(event)
        if self._table_stale:
            self._fill()

    def show_nothing(self) -> None:
        self.axes = []
        self.summary.setText("Select a pair of boxes, triangles, cylinders, spheres or capsules.")
        self._fill()

    def _fill(self) -> None:
        self._table_stale = False
        self.mark_dirty("table", "summary")
        self._filling = True
        table = self.table
        table.setSortingEnabled(False)
        table.setRowCount(len(self.axes))
        bold = QFont(table.font())
        bold.setBold(True)
        chosen = found_by(self.result) if self.axes else None
        for row, ax in enumerate(self.axes):
            axis = ax.get("axis")
            sep = bool(ax.get("separating"))
            mark = "✔" if sep else ""
            if sep and ax.get("name") == chosen:
                mark = "★"
            cells = [
                _Item(mark, (0 if ax.get("name") == chosen and sep else 1 if sep else 2)),
                _Item(str(ax.get("name")), str(ax.get("name"))),
                _Item(fmt(ax.get("r_A")), ax.get("r_A")),
                _Item(fmt(ax.get("r_B")), ax.get("r_B")),
                _Item(fmt(ax.get("distance")), ax.get("distance")),
                _Item(fmt(ax.get("margin")), ax.get("margin")),
                _Item(fmt(axis, 3) if axis is not None else "—", None),
            ]
            for col, item in enumerate(cells):
                item.setData(Qt.ItemDataRole.UserRole, row)
                if sep:
                    item.setBackground(QBrush(SEPARATING_BG))
                if ax.get("name") == chosen and sep:
                    item.setFont(bold)
                table.setItem(row, col, item)
        table.setSortingEnabled(True)
        self.apply_filter()
        # keep the selection on the same axis name across live updates
        if self.selected_name is not None:
            for row in range(table.rowCount()):
                if table.item(row, 1).text() == self.selected_name:
                    table.selectRow(row)
                    break
            else:
                table.clearSelection()
        self._filling = False

    def apply_filter(self, *_args) -> None:
        text = self.filter_edit.text().strip().lower()
        only = self.only_separating.isChecked()
        for row in range(self.table.rowCount()):
            name = self.table.item(row, 1).text().lower()
            sep = self.table.item(row, 0).text() != ""
            self.table.setRowHidden(row, bool((text and text not in name) or (only and not sep)))

    # ------------------------------------------------------------------ selection
    def select_axis(self, name: str) -> None:
        """Select the row of the axis called ``name`` (as a click would)."""
        for row in range(self.table.rowCount()):
            if self.table.item(row, 1).text() == name:
                self.table.selectRow(row)
                return
        raise KeyError(name)

    def selected_axis(self) -> Optional[dict]:
        if self.selected_name is None:
            return None
        return next((ax for ax in self.axes if str(ax.get("name")) == self.selected_name), None)

    def _on_selection(self) -> None:
        if self._filling:
            return
        rows = self.table.selectionModel().selectedRows()
        self.selected_name = self.table.item(rows[0].row(), 1).text() if rows else None
        self._draw_selected()
        self.render_viewport()

    def _draw_selected(self) -> None:
        ax = self.selected_axis()
        if ax is None or ax.get("axis") is None or self.a is None:
            for name in ("axis", "interval_a", "interval_b"):
                self.remove_overlay(name)
            return
        self.draw_axis(np.asarray(ax["axis"], dtype=float))

    def draw_axis(self, n: np.ndarray) -> None:
        """Draw the line along unit ``n`` beside the shapes and both projection intervals."""
        n = n / np.linalg.norm(n)
        A, B = self.a.primitive, self.b.primitive
        lo_a, hi_a = support_interval(A, n)
        lo_b, hi_b = support_interval(B, n)
        # a perpendicular direction: the line runs just beside both shapes
        e = np.eye(3)[int(np.argmin(np.abs(n)))]
        perp = np.cross(n, e)
        perp /= np.linalg.norm(perp)
        side = max(support_interval(A, perp)[1], support_interval(B, perp)[1])
        size = max(hi_a, hi_b) - min(lo_a, lo_b)
        gap = 0.12 * max(size, 1e-6)
        base = perp * (side + gap)  # base . n == 0, so base + u n projects to u
        ends = min(lo_a, lo_b) - gap, max(hi_a, hi_b) + gap
        self.add_overlay("axis", line_mesh(base + ends[0] * n, base + ends[1] * n),
                         color=AXIS_COLOR, line_width=2)
        off = perp * 0.04 * max(size, 1e-6)
        self.add_overlay("interval_a", line_mesh(base + off + lo_a * n, base + off + hi_a * n),
                         color=COLOR_A, line_width=7)
        self.add_overlay("interval_b", line_mesh(base - off + lo_b * n, base - off + hi_b * n),
                         color=COLOR_B, line_width=7)
        self.intervals = ((lo_a, hi_a), (lo_b, hi_b))
