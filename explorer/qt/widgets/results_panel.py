"""The results panel: the selected object against every other one, or one chosen pair, with
every key of the ``explorer eval`` result (scene-v1) in a table, and under it a summary in plain
words of the highlighted pair: what the answer means, which method gave it, and whether the
other methods registered for that pair agree (:func:`algorithms.crosscheck.cross_check_pair`).
The full result (trace included) stays available as JSON ("Show JSON", "Copy JSON").

The cross-check runs only for the highlighted pair, once the scene has been still for
:data:`CROSS_CHECK_DELAY_MS` (never on a drag step), and is cached by the pair's geometry.
A pair whose query failed shows its error in red; nothing else is affected."""

from __future__ import annotations

import html
import json
from typing import Optional

from PyQt6.QtCore import Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QBrush, QColor, QFont, QGuiApplication
from PyQt6.QtWidgets import (QComboBox, QHBoxLayout, QLabel, QPlainTextEdit, QPushButton,
                             QScrollArea, QSplitter, QTreeWidget, QTreeWidgetItem, QVBoxLayout,
                             QWidget)

from algorithms.answer import PairAnswer
from algorithms.report import result_json
from explorer.model import workspace as policies
from explorer.present.summary import method_names, summary_html  # noqa: F401 - re-used by tests

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


#: the scene must be still this long before the highlighted pair is cross-checked
CROSS_CHECK_DELAY_MS = 250
#: what each cross-checked query compares, in words
CHECK_WORDS = {"distance": "distance", "hits": "first hit t", "toi": "time of impact",
               "intersects": "intersects", "separating_axis": "separated"}


def fmt(value) -> str:
    if value is None:
        return "—"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.6g}"
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(fmt(v) for v in value) + ")"
    return str(value)


class ResultsPanel(QWidget):
    """Signals: ``pair_chosen(str, str)`` when the user picks a row or the A/B boxes."""

    pair_chosen = pyqtSignal(str, str)

    def __init__(self, scene, workspace, commands, parent=None):
        super().__init__(parent)
        self.scene = scene
        self.workspace = workspace
        self.commands = commands
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
        self.mode.currentIndexChanged.connect(
            lambda _i: self.workspace.set_results_mode(self.mode_key))
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
        lower = QWidget()
        low = QVBoxLayout(lower)
        low.setContentsMargins(0, 0, 0, 0)
        self.check_label = QLabel("")
        self.check_label.setWordWrap(True)
        self.check_label.setTextFormat(Qt.TextFormat.RichText)
        self.check_label.setToolTip("Every method registered for this pair answered the same "
                                    "question; they must give the same number")
        low.addWidget(self.check_label)
        self.summary = QLabel("")
        self.summary.setWordWrap(True)
        self.summary.setTextFormat(Qt.TextFormat.RichText)
        self.summary.setAlignment(Qt.AlignmentFlag.AlignTop | Qt.AlignmentFlag.AlignLeft)
        self.summary.setTextInteractionFlags(Qt.TextInteractionFlag.TextSelectableByMouse)
        self.summary.setToolTip("The highlighted pair's answer in words")
        scroll = QScrollArea()
        scroll.setWidgetResizable(True)
        scroll.setWidget(self.summary)
        low.addWidget(scroll, 2)
        buttons = QHBoxLayout()
        self.json_button = QPushButton("Show JSON")
        self.json_button.setCheckable(True)
        self.json_button.setToolTip("Show the highlighted pair's full result, trace included "
                                    "(the explorer eval format, scene-v1)")
        self.json_button.toggled.connect(self._toggle_json)
        self.copy_button = QPushButton("Copy JSON")
        self.copy_button.setToolTip("Copy the highlighted pair's full result (trace included) "
                                    "to the clipboard")
        self.copy_button.clicked.connect(self.copy_json)
        self.pytest_button = QPushButton("Copy as pytest")
        self.pytest_button.setToolTip("Copy a self-contained pytest file that rebuilds the "
                                      "highlighted pair from its exact doubles and asserts "
                                      "this answer (explorer export-test)")
        self.pytest_button.clicked.connect(self.copy_pytest)
        buttons.addStretch(1)
        buttons.addWidget(self.json_button)
        buttons.addWidget(self.copy_button)
        buttons.addWidget(self.pytest_button)
        low.addLayout(buttons)
        self.detail = QPlainTextEdit()
        self.detail.setReadOnly(True)
        self.detail.setFont(QFont("monospace", 9))
        self.detail.setToolTip("The highlighted pair's full result, trace included (scene-v1)")
        self.detail.setVisible(False)
        low.addWidget(self.detail, 3)
        split.addWidget(lower)
        split.setSizes([110, 310])  # the summary gets the room: a pair is usually chosen
        layout.addWidget(split)
        self.detail_result: Optional[dict] = None
        #: (pair key) -> cross_check_pair report; only the highlighted pair is ever checked
        self._checks: dict = {}
        self.check_report: Optional[dict] = None
        self._check_timer = QTimer(self)
        self._check_timer.setSingleShot(True)
        self._check_timer.timeout.connect(self._run_cross_check)

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

    def show_results(self, results: list[PairAnswer]) -> None:
        self.results = results
        self._updating = True
        chosen = policies.current_pair(self.scene, self.workspace)
        self.tree.clear()
        red = QBrush(QColor("#c62828"))
        for r in results:
            item = QTreeWidgetItem()
            item.setText(0, f"{r.a}–{r.b}  ({r.pair})")
            for i, key in enumerate(COLUMNS[1:], start=1):
                item.setText(i, fmt(getattr(r, key)))
            if r.errors:
                item.setText(7, f"error: {r.error}")
                item.setForeground(7, red)
                item.setToolTip(7, r.error)
            else:
                item.setToolTip(7, "\n".join(r.methods))
            if r.intersects:
                item.setForeground(1, red)
            item.setData(0, Qt.ItemDataRole.UserRole, (r.a, r.b))
            self.tree.addTopLevelItem(item)
            if (r.a, r.b) == chosen or (r.b, r.a) == chosen:
                item.setSelected(True)
        self._updating = False
        self._show_detail()

    def highlighted(self) -> Optional[PairAnswer]:
        """The result the summary is about: the selected row, else the only row."""
        items = self.tree.selectedItems()
        if items:
            key = items[0].data(0, Qt.ItemDataRole.UserRole)
            return next((x for x in self.results if x.ids == tuple(key)), None)
        return self.results[0] if len(self.results) == 1 else None

    def _show_detail(self) -> None:
        r = self.highlighted()
        self.detail_result = r
        self.summary.setText(summary_html(r, self.scene) if r else
                             "<i>Click a row to see its answer in words.</i>")
        if self.detail.isVisible():
            self.detail.setPlainText(self.json_text())
        self._schedule_cross_check()

    def json_text(self) -> str:
        r = self.detail_result
        return "" if r is None else json.dumps(result_json(r), indent=1)

    def _toggle_json(self, on: bool) -> None:
        self.detail.setVisible(on)
        self.json_button.setText("Hide JSON" if on else "Show JSON")
        if on:
            self.detail.setPlainText(self.json_text())

    def copy_json(self) -> str:
        text = self.json_text()
        QGuiApplication.clipboard().setText(text)
        if text:
            self.commands.say("Copied the pair's result (JSON)", 3000)
        return text

    def copy_pytest(self) -> str:
        """Copy the highlighted pair as a pytest file (explorer.model.exporttest)."""
        from explorer.model.exporttest import pair_test_source

        r = self.detail_result
        scene = self.scene
        ida, idb = (None, None) if r is None else (r.a, r.b) if hasattr(r, "a") else (
            r["a"], r["b"])
        if ida not in scene or idb not in scene:
            self.commands.say("Choose a pair first", 3000)
            return ""
        text = pair_test_source(scene, ida, idb, scene_name=scene.name or "")
        QGuiApplication.clipboard().setText(text)
        self.commands.say(f"Copied a pytest file for {ida}-{idb} (paste it into test_*.py)",
                          4000)
        return text

    # ------------------------------------------------------------------ cross-check
    def _check_key(self, r: PairAnswer):
        scene = self.scene
        a, b = r.a, r.b
        if a not in scene or b not in scene:
            return None
        oa, ob = scene[a], scene[b]
        return (a, b, oa.primitive, ob.primitive, oa.motion, ob.motion)

    def _schedule_cross_check(self) -> None:
        r = self.detail_result
        key = self._check_key(r) if r else None
        if key is None:
            self.check_report = None
            self.check_label.setText("")
            return
        if key in self._checks:
            self._show_check(self._checks[key])
            return
        self.check_report = None
        self.check_label.setText("<span style='color:#666'>Cross-check of the methods: "
                                 "waiting for the scene to be still…</span>")
        self._check_timer.start(CROSS_CHECK_DELAY_MS)

    def _run_cross_check(self) -> None:
        """Run every registered method on the highlighted pair (never more than one pair)."""
        from algorithms.crosscheck import cross_check_pair

        r = self.detail_result
        key = self._check_key(r) if r else None
        if key is None:
            return
        if key not in self._checks:
            _a, _b, pa, pb, ma, mb = key
            try:
                report = cross_check_pair(pa, pb, ma, mb, answer=r)
            except Exception as exc:  # noqa: BLE001 - shown, never a crash
                report = {"error": f"{type(exc).__name__}: {exc}"}
            if len(self._checks) > 64:
                self._checks.clear()
            self._checks[key] = report
        self._show_check(self._checks[key])

    def _show_check(self, report: dict) -> None:
        self.check_report = report
        self.check_label.setText(check_html(report))

    def _row_selected(self) -> None:
        if self._updating:
            return
        self._show_detail()
        items = self.tree.selectedItems()
        if items:
            a, b = items[0].data(0, Qt.ItemDataRole.UserRole)
            self.pair_chosen.emit(a, b)


def _val(v) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "yes" if v else "no"
    return f"{v:.6g}"


def check_html(report: dict) -> str:
    """One line per cross-checked query: agree / DISAGREE, and the methods compared."""
    if report.get("error"):
        return (f"<span style='color:#c62828'>Cross-check failed: "
                f"{html.escape(report['error'])}</span>")
    if not report:
        return ("<span style='color:#666'>Cross-check: only one method is registered for "
                "this pair, nothing to compare.</span>")
    rows = []
    for query, rep in report.items():
        what = CHECK_WORDS.get(query, query)
        names = ", ".join(
            f"{html.escape(m['name'])} = " + ("<i>error</i>" if "error" in m else
                                              _val(m.get("value")))
            for m in rep.get("methods", []))
        if rep.get("agree"):
            spread = rep.get("spread")
            extra = f" (spread {spread:.1e})" if spread else ""
            rows.append(f"<span style='color:#2e7d32'>✔ {what}: the methods agree{extra}</span>"
                        f" — {names}")
        else:
            rows.append(f"<span style='color:#c62828; font-weight:bold'>⚠ {what}: the methods "
                        f"DISAGREE</span> — {names}")
    return "<b>Cross-check</b> (every registered method):<br>" + "<br>".join(rows)
