"""The results panel: the selected object against every other one, or one chosen pair, with
every key of the ``explorer eval`` result (scene-v1) and the full result (trace included) of the
highlighted row. A pair whose query failed shows its error in red; nothing else is affected."""

from __future__ import annotations

import json
from typing import Optional

from PyQt6.QtCore import Qt, pyqtSignal
from PyQt6.QtGui import QBrush, QColor, QFont
from PyQt6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QPlainTextEdit, QSplitter,
                             QTreeWidget, QTreeWidgetItem, QVBoxLayout, QWidget)

COLUMNS = ["pair", "intersects", "distance", "first_t", "separating_axis", "side", "toi", "method"]
TIPS = {
    "pair": "The two objects (A–B) and their types",
    "intersects": "Do the two point sets share a point at t = 0?",
    "distance": "Euclidean distance between the two sets (0 when they intersect)",
    "first_t": "Least parameter t of A (segment, ray, line) at which it touches B",
    "separating_axis": "A unit axis on which the projections are disjoint (none: they intersect)",
    "side": "Side of the plane: 1 in front, -1 behind, 0 touching or straddling",
    "toi": "Least t in [0, 1] at which the moving objects touch",
    "method": "The algorithm(s) that answered, with the seed section; or the error",
}
MODES = [("selected", "Selected object vs every other"), ("pair", "Chosen pair"),
         ("queries", "The scene's query pairs")]


def fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, list):
        return "(" + ", ".join(fmt(v) for v in value) + ")"
    return str(value)


class ResultsPanel(QWidget):
    """Signals: ``pair_chosen(str, str)`` when the user picks a row or the A/B boxes."""

    pair_chosen = pyqtSignal(str, str)

    def __init__(self, window):
        super().__init__(window)
        self.window = window
        self._updating = False
        self.results: list[dict] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.mode = QComboBox()
        for key, text in MODES:
            self.mode.addItem(text, key)
        self.mode.setToolTip("Which pairs to list (and to draw, when the View menu's 'Answers "
                             "for' follows this panel)")
        self.mode.currentIndexChanged.connect(lambda _i: self.window.refresh())
        top.addWidget(self.mode)
        self.a_box, self.b_box = QComboBox(), QComboBox()
        self.a_box.setToolTip("Object A of the chosen pair")
        self.b_box.setToolTip("Object B of the chosen pair")
        self.a_box.currentIndexChanged.connect(self._boxes_changed)
        self.b_box.currentIndexChanged.connect(self._boxes_changed)
        top.addWidget(QLabel("A"))
        top.addWidget(self.a_box, 1)
        top.addWidget(QLabel("B"))
        top.addWidget(self.b_box, 1)
        layout.addLayout(top)
        split = QSplitter(Qt.Orientation.Vertical)
        self.tree = QTreeWidget()
        self.tree.setHeaderLabels(COLUMNS)
        for i, c in enumerate(COLUMNS):
            self.tree.headerItem().setToolTip(i, TIPS[c])
        self.tree.setRootIsDecorated(False)
        self.tree.setAlternatingRowColors(True)
        self.tree.setToolTip("One row per pair; click a row to choose that pair")
        self.tree.itemSelectionChanged.connect(self._row_selected)
        self.tree.setColumnWidth(0, 170)
        split.addWidget(self.tree)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setFont(QFont("monospace", 9))
        self.detail.setToolTip("The highlighted pair's full result, trace included (scene-v1)")
        split.addWidget(self.detail)
        split.setSizes([220, 160])
        layout.addWidget(split)

    @property
    def mode_key(self) -> str:
        return self.mode.currentData()

    def set_mode(self, key: str) -> None:
        self.mode.setCurrentIndex([k for k, _ in MODES].index(key))

    def set_objects(self, ids: list[str]) -> None:
        """Refill the A/B boxes (keeping their choice when it still exists)."""
        self._updating = True
        for box in (self.a_box, self.b_box):
            cur = box.currentData()
            box.clear()
            box.addItem("—", "")
            for i in ids:
                box.addItem(i, i)
            idx = box.findData(cur)
            box.setCurrentIndex(max(idx, 0))
        self._updating = False

    def set_pair(self, a: Optional[str], b: Optional[str]) -> None:
        self._updating = True
        self.a_box.setCurrentIndex(max(self.a_box.findData(a or ""), 0))
        self.b_box.setCurrentIndex(max(self.b_box.findData(b or ""), 0))
        self._updating = False

    def _boxes_changed(self, _i) -> None:
        if self._updating:
            return
        a, b = self.a_box.currentData() or "", self.b_box.currentData() or ""
        if a and b and a != b:
            self._updating = True
            self.set_mode("pair")
            self._updating = False
        self.pair_chosen.emit(a, b)

    def show_results(self, results: list[dict]) -> None:
        self.results = results
        self._updating = True
        chosen = self.window.current_pair()
        self.tree.clear()
        red = QBrush(QColor("#c62828"))
        for r in results:
            item = QTreeWidgetItem()
            item.setText(0, f"{r['a']}–{r['b']}  ({r.get('pair', '')})")
            for i, key in enumerate(COLUMNS[1:], start=1):
                item.setText(i, fmt(r.get(key)))
            if r.get("error"):
                item.setText(7, f"error: {r['error']}")
                item.setForeground(7, red)
                item.setToolTip(7, r["error"])
            else:
                item.setToolTip(7, r.get("method") or "")
            if r.get("intersects"):
                item.setForeground(1, red)
            item.setData(0, Qt.ItemDataRole.UserRole, (r["a"], r["b"]))
            self.tree.addTopLevelItem(item)
            if (r["a"], r["b"]) == chosen or (r["b"], r["a"]) == chosen:
                item.setSelected(True)
        self._updating = False
        self._show_detail()

    def _show_detail(self) -> None:
        items = self.tree.selectedItems()
        r = None
        if items:
            key = items[0].data(0, Qt.ItemDataRole.UserRole)
            r = next((x for x in self.results if (x["a"], x["b"]) == tuple(key)), None)
        elif len(self.results) == 1:
            r = self.results[0]
        self.detail.setPlainText("" if r is None else json.dumps(r, indent=1))

    def _row_selected(self) -> None:
        if self._updating:
            return
        self._show_detail()
        items = self.tree.selectedItems()
        if items:
            a, b = items[0].data(0, Qt.ItemDataRole.UserRole)
            self.pair_chosen.emit(a, b)
