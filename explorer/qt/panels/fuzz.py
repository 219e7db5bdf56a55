"""The Fuzz panel: ``explorer fuzz`` in the window, with progress and stop, and its gallery.

Start runs the search of :mod:`explorer.fuzz` (hypothesis, shrinking) in a worker thread on the
loaded user methods (File > Load Methods…), or on the library's second methods when none is
loaded, for the chosen query and pair of types (or all). The bar shows the time spent against
the budget; Stop ends the search at the next input. Every disagreement found is written as a
scene and a failing pytest file in :func:`out_dir` and listed in the gallery; one click on a
case opens its scene (the chosen pair is the disagreeing one, the Methods panel shows it).
"""

from __future__ import annotations

import html
from pathlib import Path
from typing import Optional

from PyQt6.QtCore import QThread, Qt, pyqtSignal
from PyQt6.QtWidgets import (
    QComboBox,
    QDoubleSpinBox,
    QFormLayout,
    QHBoxLayout,
    QLabel,
    QLineEdit,
    QListWidget,
    QListWidgetItem,
    QProgressBar,
    QPushButton,
    QVBoxLayout,
    QWidget,
)

from algorithms import registry, usermethods


def out_dir() -> Path:
    """Where the window's fuzz cases go: ``fuzz-cases`` beside the first loaded methods file,
    else in the explorer's state folder."""
    for mf in usermethods.LOADED.values():
        if mf.path is not None:
            return mf.path.parent / "fuzz-cases"
    from explorer.qt.documents import state_dir

    return state_dir() / "fuzz-cases"


class FuzzWorker(QThread):
    """Runs :func:`explorer.fuzz.run` off the GUI thread; reports through signals."""

    progressed = pyqtSignal(object)  # explorer.fuzz.Progress
    found = pyqtSignal(object)  # a written explorer.fuzz.Finding
    failed = pyqtSignal(str)

    def __init__(self, targets, seconds, out: Path, seed: int = 0, parent=None):
        super().__init__(parent)
        self.targets, self.seconds, self.out, self.seed = targets, seconds, out, seed
        self.stop_requested = False
        self.progress = None

    def run(self) -> None:  # noqa: D401 - QThread's entry point
        from explorer import fuzz

        written = 0

        def on_progress(prog):
            nonlocal written
            self.progress = prog
            for f in prog.findings[written:]:
                try:
                    fuzz.write_finding(f, self.out)
                except OSError as exc:
                    self.failed.emit(f"cannot write the case: {exc}")
                self.found.emit(f)
            written = len(prog.findings)
            self.progressed.emit(prog)

        try:
            fuzz.run(self.targets, seconds=self.seconds, seed=self.seed,
                     on_progress=on_progress, should_stop=lambda: self.stop_requested)
        except Exception as exc:  # noqa: BLE001 - shown in the panel, never a crash
            self.failed.emit(f"{type(exc).__name__}: {exc}")


class FuzzPanel(QWidget):
    """Settings, Start/Stop, the progress bar and the gallery of cases (module docstring).

    A click on a case emits ``case_chosen(path)``; whoever installs the panel opens it (the
    panel never calls back into the window)."""

    #: the path of a fuzz case (a scene file whose pair is A-B) the user wants to open
    case_chosen = pyqtSignal(str)

    def __init__(self, scene, workspace=None, commands=None, viewport=None, evaluator=None,
                 parent=None):
        super().__init__(parent)
        self.scene, self.workspace, self.commands = scene, workspace, commands
        self.worker: Optional[FuzzWorker] = None
        self.findings: list = []
        layout = QVBoxLayout(self)
        layout.setContentsMargins(4, 4, 4, 4)
        form = QFormLayout()
        self.query = QComboBox()
        self.query.addItem("every query", "")
        for q in registry.QUERIES:
            self.query.addItem(q, q)
        self.query.setToolTip("Fuzz only this query, or every query")
        form.addRow("Query", self.query)
        self.pair = QLineEdit()
        self.pair.setPlaceholderText("every pair, or e.g. segment-segment")
        self.pair.setToolTip("Fuzz only this pair of types (either order), e.g. "
                             "segment-segment; empty: every pair")
        form.addRow("Pair", self.pair)
        self.seconds = QDoubleSpinBox()
        self.seconds.setRange(1, 3600)
        self.seconds.setValue(60)
        self.seconds.setSuffix(" s")
        self.seconds.setToolTip("Stop searching after this long (it stops earlier when "
                                "every target has a case)")
        form.addRow("At most", self.seconds)
        layout.addLayout(form)
        row = QHBoxLayout()
        self.start_button = QPushButton("Start")
        self.start_button.setToolTip("Search for inputs where a method disagrees with the "
                                     "pair's reference (your loaded methods, else the "
                                     "library's second methods)")
        self.start_button.clicked.connect(self.start)
        self.stop_button = QPushButton("Stop")
        self.stop_button.setEnabled(False)
        self.stop_button.setToolTip("End the search at the next input (the cases found so far "
                                    "are kept)")
        self.stop_button.clicked.connect(self.stop)
        row.addWidget(self.start_button)
        row.addWidget(self.stop_button)
        layout.addLayout(row)
        self.bar = QProgressBar()
        self.bar.setRange(0, 1000)
        layout.addWidget(self.bar)
        self.status = QLabel("Load your methods (File > Load Methods…), then Start.")
        self.status.setWordWrap(True)
        layout.addWidget(self.status)
        layout.addWidget(QLabel("Cases found (click to open):"))
        self.gallery = QListWidget()
        self.gallery.setToolTip("Each disagreement, shrunk to a small case: a scene and a "
                                "failing pytest file beside it. Click to open the scene.")
        self.gallery.itemClicked.connect(self._open_item)
        layout.addWidget(self.gallery, 1)

    # ------------------------------------------------------------------ running
    def targets(self):
        from explorer import fuzz

        return fuzz.find_targets(self.query.currentData() or None,
                                 self.pair.text().strip() or None)

    def start(self) -> bool:
        if self.worker is not None and self.worker.isRunning():
            return False
        pair = self.pair.text().strip()
        if pair and (len(pair.split("-")) != 2
                     or any(k not in registry.WILDCARD and k not in _types()
                            for k in pair.split("-"))):
            self.status.setText(f"<span style='color:#b00'>Pair: two types joined by '-', "
                                f"e.g. segment-segment (got {html.escape(pair)})</span>")
            return False
        targets = self.targets()
        if not targets:
            self.status.setText("Nothing to fuzz for this query and pair.")
            return False
        usermethods.POLICY.suspend_after_timeout = False  # a hang is a case to report
        self.worker = FuzzWorker(targets, float(self.seconds.value()), out_dir(), parent=self)
        self.worker.progressed.connect(self._progress)
        self.worker.found.connect(self._found)
        self.worker.failed.connect(lambda msg: self.status.setText(
            f"<span style='color:#b00'>{html.escape(msg)}</span>"))
        self.worker.finished.connect(self._finished)
        self.start_button.setEnabled(False)
        self.stop_button.setEnabled(True)
        self.bar.setValue(0)
        self.status.setText(f"Searching {len(targets)} target(s)…")
        self.worker.start()
        return True

    def stop(self) -> None:
        if self.worker is not None:
            self.worker.stop_requested = True
            self.status.setText("Stopping at the next input…")

    def _progress(self, prog) -> None:
        if prog.seconds:
            frac = min(prog.elapsed / prog.seconds, 1.0)
        else:
            frac = prog.done_targets / max(prog.targets, 1)
        if prog.done_targets == prog.targets:
            frac = 1.0
        self.bar.setValue(int(frac * 1000))
        self.status.setText(f"{prog.cases} cases, {len(prog.findings)} found, "
                            f"{prog.done_targets}/{prog.targets} targets done. "
                            f"{html.escape(prog.current)}")

    def _found(self, f) -> None:
        self.findings.append(f)
        t = f.target
        item = QListWidgetItem(f"{t.pair}  {t.query}: {t.method} vs {t.reference}")
        item.setToolTip(f"{f.verdict.get('why')}\nscene: {f.scene}\ntest: {f.test}")
        item.setData(Qt.ItemDataRole.UserRole, f.scene)
        self.gallery.addItem(item)

    def _finished(self) -> None:
        from algorithms import usermethods as um

        um.POLICY.suspend_after_timeout = True
        self.start_button.setEnabled(True)
        self.stop_button.setEnabled(False)
        prog = self.worker.progress if self.worker else None
        if prog is not None:
            self._progress(prog)
            stopped = " (stopped)" if self.worker.stop_requested else ""
            self.status.setText(f"Done{stopped}: {prog.cases} cases, {len(prog.findings)} "
                                f"disagreement(s); cases in {html.escape(str(out_dir()))}")

    def wait(self, ms: int = 60000) -> bool:
        """Block until the search ends (tests)."""
        return self.worker.wait(ms) if self.worker is not None else True

    # ------------------------------------------------------------------ gallery
    def _open_item(self, item) -> None:
        path = item.data(Qt.ItemDataRole.UserRole)
        if path:
            self.case_chosen.emit(str(path))


def _types():
    from algorithms.primitives import TYPES

    return TYPES
