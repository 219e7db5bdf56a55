"""The user's methods in the window: File > Load Methods…, the Methods panel, reload on change.

:func:`install` adds to a :class:`~explorer.qt.window.MainWindow`

* **File > Load Methods…**: pick a Python file that registers functions with
  ``algorithms.register`` (``algorithms.usermethods``); a file that fails to load is refused
  with one message naming the file and the line (the traceback in the panel), and nothing the
  user had is lost;
* the **Methods** dock: for the chosen pair, one row per user method that answers it (query,
  method, its answer, the reference's, the absolute and relative difference, the ulps, the
  verdict), red when it disagrees or fails; the selected row's explanation or traceback below;
* a watcher that reloads a loaded file when it changes on disk (polled once a second: editors
  that save by renaming a new file over the old one are seen too). A file whose new version
  fails keeps its previous methods, and the panel says why.

User code runs in the window's thread with a time limit (:data:`LIVE_TIME_LIMIT`); a method
that runs past it is suspended until its file is reloaded, so a hang costs one pause, not one
per drag step.
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Optional

from PyQt6.QtCore import Qt, QTimer
from PyQt6.QtGui import QAction, QColor, QFont
from PyQt6.QtWidgets import (
    QAbstractItemView,
    QCheckBox,
    QFileDialog,
    QHBoxLayout,
    QHeaderView,
    QLabel,
    QPlainTextEdit,
    QPushButton,
    QSplitter,
    QTableWidget,
    QTableWidgetItem,
    QVBoxLayout,
)

from algorithms import usermethods
from explorer.present.explain import fmt
from explorer.model.methods import rows_for_pair
from explorer.qt.panels.base import PairPanel

#: seconds one call of a user method may take in the window
LIVE_TIME_LIMIT = 1.0
#: how often loaded files are checked for changes (ms)
POLL_MS = 1000

COLUMNS = ("query", "method", "answer", "reference", "|diff|", "rel", "ulps", "verdict")
BAD = QColor("#f8d7d7")
GOOD = QColor("#dcefdc")


def _fmt(v) -> str:
    return fmt(v, 10, none="—", vector_digits=4)


class MethodsPanel(PairPanel):
    """The chosen pair's user methods beside the reference (module docstring)."""

    overlay_prefix = "methods"

    def __init__(self, scene, workspace, commands, viewport, evaluator, controller):
        super().__init__(scene, workspace, commands, viewport, evaluator)
        self.controller = controller
        self.rows: list[dict] = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        top = QHBoxLayout()
        self.load_button = QPushButton("Load…")
        self.load_button.setToolTip("Load a Python file of methods (File > Load Methods…)")
        self.load_button.clicked.connect(controller.load_dialog)
        self.reload_button = QPushButton("Reload")
        self.reload_button.setToolTip("Run the loaded files again (they also reload by "
                                      "themselves when they change on disk)")
        self.reload_button.clicked.connect(lambda: controller.reload_all(force=True))
        self.library_box = QCheckBox("Library's other methods too")
        self.library_box.setToolTip("Also list and draw the library's second methods of the "
                                    "pair (GJK, slabs, Moller-Trumbore, conservative "
                                    "advancement) against its default")
        self.library_box.toggled.connect(controller.set_include_library)
        top.addWidget(self.load_button)
        top.addWidget(self.reload_button)
        top.addWidget(self.library_box)
        top.addStretch(1)
        layout.addLayout(top)
        self.files_label = QLabel()
        self.files_label.setWordWrap(True)
        self.files_label.setTextFormat(Qt.TextFormat.RichText)
        layout.addWidget(self.files_label)
        split = QSplitter(Qt.Orientation.Vertical)
        self.table = QTableWidget(0, len(COLUMNS))
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.verticalHeader().setVisible(False)
        self.table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.horizontalHeader().setSectionResizeMode(QHeaderView.ResizeMode.ResizeToContents)
        self.table.horizontalHeader().setStretchLastSection(True)
        self.table.itemSelectionChanged.connect(self._show_row)
        self.table.setToolTip("Each user method answering the chosen pair, against the "
                              "library's default method (the reference)")
        split.addWidget(self.table)
        self.details = QPlainTextEdit()
        self.details.setReadOnly(True)
        self.details.setFont(QFont("monospace", 9))
        self.details.setPlaceholderText("Select a row: why it disagrees, or its traceback.")
        split.addWidget(self.details)
        split.setSizes([220, 160])
        layout.addWidget(split, 1)
        self.show_files()
        self.start()

    # ------------------------------------------------------------------ PairPanel
    def show_pair(self, a, b, result) -> None:
        try:
            self.rows = self.controller.rows_for(a, b)
        except Exception as exc:  # noqa: BLE001 - never a crash of the window
            self.rows = []
            self.details.setPlainText(f"{type(exc).__name__}: {exc}")
        self._fill()

    def show_nothing(self) -> None:
        self.rows = []
        self._fill()

    # ------------------------------------------------------------------ drawing
    def show_files(self) -> None:
        files = list(usermethods.LOADED.values())
        if not files:
            self.files_label.setText("<i>No methods loaded. File &gt; Load Methods… runs a "
                                     "Python file whose functions use "
                                     "<tt>@algorithms.register</tt>.</i>")
            return
        parts = []
        for mf in files:
            names = ", ".join(sorted({e.name for e in mf.entries})) or "no methods"
            line = f"<b>{html.escape(mf.name)}</b>: {html.escape(names)}"
            if mf.error is not None:
                line += (f"<br><span style='color:#b00'>reload failed, still using the "
                         f"previous version: {html.escape(str(mf.error))}</span>")
            parts.append(line)
        self.files_label.setText("<br>".join(parts))

    def _fill(self) -> None:
        self.table.setRowCount(len(self.rows))
        for i, r in enumerate(self.rows):
            if r["error"]:
                verdict = f"{r['error_kind']}: {r['error']}"
            elif r["agree"] is None:
                verdict = "no reference"
            else:
                verdict = "agrees" if r["agree"] else f"DISAGREES: {r['why']}"
            cells = (r["query"], r["method"], _fmt(r["value"]) if not r["error"] else "error",
                     _fmt(r["reference"]), _fmt(r["abs"]), _fmt(r["rel"]), _fmt(r["ulps"]),
                     verdict)
            for j, text in enumerate(cells):
                item = QTableWidgetItem(text)
                item.setToolTip(text)
                if r["agree"] is False:
                    item.setBackground(BAD)
                elif r["agree"]:
                    item.setBackground(GOOD)
                self.table.setItem(i, j, item)
        if not self.rows and self.a is not None:
            self.details.setPlainText("No user method answers this pair." if
                                      usermethods.LOADED else "")
        self._show_row()

    def _show_row(self) -> None:
        sel = self.table.selectedItems()
        if not sel:
            bad = [r for r in self.rows if r["agree"] is False]
            if bad:
                self.details.setPlainText(self.row_text(bad[0]))
            return
        self.details.setPlainText(self.row_text(self.rows[sel[0].row()]))

    @staticmethod
    def row_text(r: dict) -> str:
        lines = [f"{r['method']} ({r['query']}), from {r['source']}",
                 f"reference: {r['reference_method']} = {_fmt(r['reference'])}"]
        if r["error"]:
            lines += ["", r["traceback"] or r["error"]]
        else:
            lines.append(f"answer: {_fmt(r['value'])}")
            if r["abs"] is not None:
                lines.append(f"difference: {r['abs']:.6g} absolute, "
                             f"{_fmt(r['rel'])} relative, {r['ulps']} ulps")
            lines.append("verdict: " + ("agrees" if r["agree"] else f"disagrees: {r['why']}"))
        return "\n".join(lines)


class MethodsController:
    """What :func:`install` adds to the window (module docstring)."""

    def __init__(self, window):
        self.window = window
        self.panel: Optional[MethodsPanel] = None
        self.dock = None
        self.fuzz_panel = None
        self.fuzz_dock = None
        self.precision_panel = None
        self.precision_dock = None
        #: (A object, B object, load generation) -> rows: user code runs once per change
        self._rows_key: tuple = ()
        self._rows: list[dict] = []
        self.generation = 0
        #: also compare the library's second methods (the panel's check box)
        self.include_library = False
        usermethods.POLICY.time_limit = LIVE_TIME_LIMIT
        usermethods.POLICY.suspend_after_timeout = True
        self.action = QAction("Load &Methods…", window)
        self.action.setStatusTip("Load a Python file of your own methods "
                                 "(@algorithms.register) and compare them with the library's")
        self.action.triggered.connect(self.load_dialog)
        self.timer = QTimer(window)
        self.timer.timeout.connect(self.reload_all)
        self.timer.start(POLL_MS)

    # ------------------------------------------------------------------ loading
    def load_dialog(self) -> bool:
        folder = str(self.window.path.parent) if getattr(self.window, "path", None) else ""
        path, _ = QFileDialog.getOpenFileName(self.window, "Load methods", folder,
                                              "Python files (*.py)")
        return self.load(path) if path else False

    def load(self, path) -> bool:
        """Load a methods file; an error dialog (and the traceback in the panel) on failure."""
        try:
            mf = usermethods.load_methods(path)
        except usermethods.MethodsLoadError as exc:
            self.window.dialogs.error("Cannot load methods", str(exc))
            if self.panel is not None:
                self.panel.details.setPlainText(exc.traceback)
            return False
        self._after_load(f"Loaded {mf.name}: {len(mf.entries)} method(s)")
        self.show_panel()
        return True

    def watch(self, paths) -> None:
        """Files already loaded (``explorer open --methods``): show them."""
        self._after_load(f"Methods: {', '.join(Path(p).name for p in paths)}")
        self.show_panel()

    def reload_all(self, force: bool = False) -> list:
        """Reload changed files (every file with ``force``); returns ``[(file, error)]``."""
        if getattr(self.window, "_shut", False):
            return []
        if force:
            out = []
            for mf in list(usermethods.LOADED.values()):
                if mf.path is None:
                    continue
                try:
                    out.append((usermethods.reload(mf), None))
                except usermethods.MethodsLoadError as exc:
                    out.append((mf, exc))
        else:
            out = usermethods.reload_changed()
        if out:
            errors = [e for _, e in out if e is not None]
            if errors:
                msg = f"Reload failed, previous methods kept: {errors[0]}"
                if self.panel is not None:
                    self.panel.details.setPlainText(errors[0].traceback)
            else:
                msg = "Reloaded " + ", ".join(mf.name for mf, _ in out)
            self._after_load(msg)
        return out

    def _after_load(self, message: str) -> None:
        self.generation += 1
        self.window.statusBar().showMessage(message, 6000)
        rp = getattr(self.window, "results_panel", None)
        if rp is not None and hasattr(rp, "_checks"):
            rp._checks.clear()  # the cross-check now includes other methods
            rp._schedule_cross_check() if getattr(rp, "detail_result", None) else None
        if self.panel is not None:
            self.panel.show_files()
            self.panel.refresh(force=True)
        refresh = getattr(self.window, "refresh", None)
        if refresh is not None:
            refresh()  # the viewport draws the new methods' answers

    def show_panel(self) -> None:
        if self.dock is not None:
            self.dock.show()
            self.dock.raise_()

    def rows_for(self, a, b) -> list[dict]:
        """The rows of the pair's user methods (cached while neither object changes)."""
        key = (a, b, self.generation)
        if len(self._rows_key) == 3 and self._rows_key[0] is a and self._rows_key[1] is b \
                and self._rows_key[2] == self.generation:
            return self._rows
        self._rows = rows_for_pair(a.primitive, b.primitive, a.motion, b.motion,
                                   include_library=self.include_library)
        self._rows_key = key
        return self._rows

    def set_include_library(self, on: bool) -> None:
        self.include_library = bool(on)
        self.generation += 1
        if self.panel is not None:
            self.panel.refresh(force=True)
        refresh = getattr(self.window, "refresh", None)
        if refresh is not None:
            refresh()

    def decorate(self, frame, ctx) -> None:
        """Draw the chosen pair's user methods into ``frame`` (the window's update path, so
        it follows a drag); nothing when no method is loaded."""
        if not usermethods.LOADED and not self.include_library:
            return
        try:
            a_id, b_id = self.window.current_pair()
            scene = self.window.scene
            if not a_id or not b_id or a_id not in scene or b_id not in scene:
                return
            rows = self.rows_for(scene[a_id], scene[b_id])
            if rows:
                from explorer.render.methods_overlay import draw_rows

                draw_rows(rows, (a_id, b_id), ctx, frame)
        except Exception:  # noqa: BLE001 - a visual aid never breaks the window
            pass


def install(window) -> MethodsController:
    """Add File > Load Methods…, the Methods dock and the reload watcher to ``window``."""
    ctl = MethodsController(window)
    file_menu = window.menuBar().actions()[0].menu()
    anchor = getattr(window, "act_save", None)
    if anchor is not None and anchor in file_menu.actions():
        file_menu.insertAction(anchor, ctl.action)
        file_menu.insertSeparator(anchor)
    else:
        file_menu.addAction(ctl.action)
    try:
        ctl.panel = MethodsPanel(window.scene, window.workspace, window.commands,
                                 window.viewport, window.evaluator, ctl)
    except Exception as exc:  # noqa: BLE001 - a broken panel never breaks the window
        window.panel_errors.append(f"Methods: {type(exc).__name__}: {exc}")
        return ctl
    ctl.dock = window._dock("Methods", ctl.panel, Qt.DockWidgetArea.RightDockWidgetArea,
                            "Your own methods beside the library's, for the chosen pair")
    if getattr(window, "results_dock", None) is not None:
        window.tabifyDockWidget(window.results_dock, ctl.dock)
    try:
        from explorer.qt.panels.fuzz import FuzzPanel

        ctl.fuzz_panel = FuzzPanel(window.scene, window.workspace, window.commands,
                                   window.viewport, window.evaluator)

        def open_case(path, window=window, ctl=ctl):  # a case: its pair A-B, Methods in front
            if window.open_file(path):
                window.set_pair("A", "B")
                ctl.show_panel()

        ctl.fuzz_panel.case_chosen.connect(open_case)
        ctl.fuzz_dock = window._dock("Fuzz", ctl.fuzz_panel,
                                     Qt.DockWidgetArea.RightDockWidgetArea,
                                     "Search for inputs where a method disagrees "
                                     "(explorer fuzz)")
        window.tabifyDockWidget(ctl.dock, ctl.fuzz_dock)
    except Exception as exc:  # noqa: BLE001
        window.panel_errors.append(f"Fuzz: {type(exc).__name__}: {exc}")
    try:
        from explorer.qt.panels.precision import PrecisionPanel

        ctl.precision_panel = PrecisionPanel(window.scene, window.workspace, window.commands,
                                             window.viewport, window.evaluator)
        ctl.precision_dock = window._dock("Precision", ctl.precision_panel,
                                          Qt.DockWidgetArea.RightDockWidgetArea,
                                          "Float32, float64 and exact side by side")
        window.tabifyDockWidget(ctl.dock, ctl.precision_dock)
        ctl.exact_action = exact_toggle(window, ctl.precision_panel, ctl.precision_dock)
    except Exception as exc:  # noqa: BLE001
        window.panel_errors.append(f"Precision: {type(exc).__name__}: {exc}")
    if getattr(window, "results_dock", None) is not None:
        window.results_dock.raise_()
    return ctl


def exact_toggle(window, panel, dock) -> QAction:
    """View > Compare with Exact (Ctrl+Shift+E): the window-wide switch of the precision lab,
    the same state as the Precision panel's Exact box; switching it on shows the panel."""
    action = QAction("Compare with E&xact", window)
    action.setCheckable(True)
    action.setChecked(panel.exact.isChecked())
    action.setShortcut("Ctrl+Shift+E")
    action.setToolTip("Run the library's exact (Fraction) path beside the float one for the "
                      "chosen pair and flag every sign or decision that differs")

    def toggled(on: bool) -> None:
        panel.exact.setChecked(on)
        if on:
            dock.show()
            dock.raise_()

    action.toggled.connect(toggled)
    panel.exact.toggled.connect(action.setChecked)
    menu = getattr(window, "view_menu", None)
    if menu is not None:
        menu.addSeparator()
        menu.addAction(action)
    return action
