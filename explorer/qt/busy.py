"""Long work in the window without freezing it (issue 15 part 3): progress and cancel.

Two jobs of a large scene took the GUI thread for seconds (400 spheres: about 2 s, 600 more):

* **Opening** a scene of :data:`LARGE_SCENE` objects or more draws its objects in steps
  (:attr:`explorer.render.view.SceneView.pending_rebuild`, ``REBUILD_CHUNK`` objects a step)
  from a timer in an event loop of its own, behind a window-modal :class:`QProgressDialog`
  ("Drawing 600 objects...", Cancel). Events keep being processed between the steps (timers
  fire, the dialog repaints, Cancel is heard). **Cancel restores the scene that was on screen**
  with its file name and unsaved edits (the same rollback as a scene that fails to show):
  a half-drawn scene is never left behind and no work is lost. :func:`show_large` raises
  :class:`Cancelled` and ``explorer.qt.documents`` rolls back.
* **Evaluating** the results panel's pairs (up to ``MAX_LISTED_PAIRS``, 500) runs in chunks
  of about :data:`SLICE_S` from a zero-delay timer (:class:`EvaluationJob`) when more than
  :data:`PUMP_MIN` of them are not yet in the evaluator's cache, with a progress bar and a
  Cancel button in the status bar (Esc cancels too). Cancel lists the pairs evaluated so far
  and says so; the window stays usable throughout, and a new request (another selection, an
  edit) replaces the running job. The drawn answers (at most ``MAX_DRAWN_PAIRS``, 60, pairs)
  stay on the direct path: a drag step needs them at once.

The work itself stays pure: :class:`~explorer.render.overlays.Evaluator` (numpy and
:mod:`algorithms`, no Qt) evaluates one pair at a time into its cache; this module only decides
when, and shows progress. A chunked timer pump rather than a thread: the evaluation is Python
holding the GIL (a thread would not make the window more responsive), and the scene may change
under it at any moment (the pump runs between events, so it always sees a consistent scene).
"""

from __future__ import annotations

import time
from typing import Callable, Optional

from PyQt6.QtCore import QEventLoop, Qt, QTimer
from PyQt6.QtGui import QKeySequence, QShortcut
from PyQt6.QtWidgets import QProgressBar, QProgressDialog, QPushButton

#: a scene of this many objects or more is drawn in steps behind a progress dialog
LARGE_SCENE = 200
#: more missing pairs than this are evaluated by an :class:`EvaluationJob`
PUMP_MIN = 40
#: the time one step of a job may take (seconds) before events are processed again
SLICE_S = 0.04


class Cancelled(Exception):
    """The user cancelled opening a scene (the caller restores the previous one)."""


# ----------------------------------------------------------------------------- opening


def show_large(window, scene, path) -> None:
    """Show the large ``scene`` in ``window``: the document is set at once with the drawing of
    its objects deferred, which then runs in steps behind a progress dialog. Raises
    :class:`Cancelled` when the user cancels (the caller puts the previous scene back) and
    re-raises an error of a step."""
    from PyQt6.QtWidgets import QApplication

    view = window.viewport.view
    n = len(scene)
    dialog = QProgressDialog(f"Drawing {n} objects of {getattr(path, 'name', path)}...",
                             "Cancel", 0, n, window)
    dialog.setWindowTitle("Opening scene")
    dialog.setWindowModality(Qt.WindowModality.WindowModal)
    dialog.setMinimumDuration(0)
    dialog.setAutoClose(False)
    dialog.setAutoReset(False)
    window.loading_dialog = dialog
    loop = QEventLoop()
    outcome: dict = {}
    timer = QTimer(dialog)
    timer.setSingleShot(True)
    steps = None

    def step():
        if dialog.wasCanceled():
            outcome["cancelled"] = True
            loop.quit()
            return
        start = time.perf_counter()
        try:
            while True:  # at least one step a slice
                done = next(steps)
                dialog.setValue(min(done, n))
                if done >= n:
                    raise StopIteration
                if time.perf_counter() - start >= SLICE_S:
                    break
        except StopIteration:
            outcome["done"] = True
            loop.quit()
            return
        except Exception as exc:  # noqa: BLE001 - reported by the caller, the scene rolled back
            outcome["error"] = exc
            loop.quit()
            return
        timer.start(0)

    def cancel():
        outcome["cancelled"] = True
        timer.stop()
        loop.quit()

    timer.timeout.connect(step)
    dialog.canceled.connect(cancel)
    # no renders of the half-drawn scene (one render of 600 actors takes a second here)
    canvas = getattr(window.viewport.plotter, "interactor", None)
    if canvas is not None:
        canvas.setUpdatesEnabled(False)
    try:
        dialog.show()
        dialog.setValue(0)
        QApplication.processEvents()  # the dialog is on screen before the document is set
        stop_evaluation(window)
        view.defer_rebuild = True
        window.viewport.plotter.suppress_rendering = True  # nothing to show yet
        try:
            window.set_document(scene, path)
        finally:
            view.defer_rebuild = False
            window.viewport.plotter.suppress_rendering = False
        window._results_timer.stop()  # the results follow once the objects are drawn
        steps = view.pending_rebuild
        if steps is not None and not dialog.wasCanceled():
            timer.start(0)
            loop.exec()
        elif steps is not None:
            outcome["cancelled"] = True
        else:
            outcome["done"] = True
    finally:
        timer.stop()
        if canvas is not None:
            canvas.setUpdatesEnabled(True)
        dialog.canceled.disconnect(cancel)
        dialog.close()
        dialog.deleteLater()
        window.loading_dialog = None
    if "error" in outcome:
        view.pending_rebuild = None
        raise outcome["error"]
    if "done" not in outcome:
        view.pending_rebuild = None
        raise Cancelled()
    # the camera and the answers need the drawn meshes: once more now that they exist, with
    # no render of their own (each of the four they ask for costs ~1 s at 600 actors): the
    # canvas, whose updates are on again, repaints once when the dialog has gone
    plotter = window.viewport.plotter
    plotter.suppress_rendering = True
    try:
        window._apply_camera()
        window.refresh()
    finally:
        plotter.suppress_rendering = False
    canvas = getattr(plotter, "interactor", None)
    if canvas is not None:
        canvas.update()


# ----------------------------------------------------------------------------- evaluating


class EvaluationJob:
    """Evaluate ``pairs`` of ``window.scene`` into ``window.evaluator``'s cache a slice at a
    time, with a progress bar and a Cancel button in the status bar; then ``done(cancelled)``.
    """

    def __init__(self, window, pairs: list, done: Callable[[bool], None]):
        self.window = window
        self.pairs = list(pairs)
        self.index = 0
        self.done = done
        self.cancelled = False
        self.finished = False
        #: how many slices ran (the event loop turned between them)
        self.slices = 0
        bar = window.statusBar()
        self.progress = QProgressBar()
        self.progress.setRange(0, len(self.pairs))
        self.progress.setFormat("Evaluating %v of %m pairs")
        self.progress.setMaximumWidth(260)
        self.button = QPushButton("Cancel")
        self.button.setToolTip("Stop evaluating (Esc): the results list the pairs done so far")
        self.button.clicked.connect(self.cancel)
        # no taller than the status bar: a status bar that grows resizes (and re-renders)
        # the viewport, a second's work with 600 actors
        height = max(bar.fontMetrics().height() + 4, 16)
        for widget in (self.progress, self.button):
            widget.setMaximumHeight(height)
        self.button.setFlat(True)
        # and the bar keeps its height meanwhile (1 px more resized the view twice per job:
        # two more renders of every drag step of a 100-object scene, issue 12)
        self._bar_max = bar.maximumHeight()
        if bar.isVisible() and bar.height() > 0:
            bar.setMaximumHeight(bar.height())
        bar.addPermanentWidget(self.progress)
        bar.addPermanentWidget(self.button)
        self.shortcut = QShortcut(QKeySequence(Qt.Key.Key_Escape), window)
        self.shortcut.activated.connect(self.cancel)
        self.timer = QTimer(window)
        self.timer.setSingleShot(True)
        self.timer.timeout.connect(self._step)
        self.timer.start(0)

    def _step(self) -> None:
        if self.finished:
            return
        w = self.window
        start = time.perf_counter()
        ids = set(w.scene.ids())
        self.slices += 1
        while self.index < len(self.pairs):  # at least one pair a slice
            a, b = self.pairs[self.index]
            if a in ids and b in ids:
                w.evaluator.result(w.scene, a, b)
            self.index += 1
            if time.perf_counter() - start >= SLICE_S:
                break
        self.progress.setValue(self.index)
        if self.index >= len(self.pairs):
            self._finish(False)
        else:
            self.timer.start(0)

    def cancel(self) -> None:
        if not self.finished:
            self._finish(True)

    def stop(self) -> None:
        """Drop the job without calling ``done`` (a newer request replaces it)."""
        self._finish(None)

    def _finish(self, cancelled: Optional[bool]) -> None:
        self.finished = True
        self.cancelled = bool(cancelled)
        self.timer.stop()
        bar = self.window.statusBar()
        for widget in (self.progress, self.button):
            bar.removeWidget(widget)
            widget.deleteLater()
        bar.setMaximumHeight(self._bar_max)
        self.shortcut.setEnabled(False)
        self.shortcut.deleteLater()
        if cancelled is not None:
            self.done(self.cancelled)


def stop_evaluation(window) -> None:
    """Drop the window's running :class:`EvaluationJob`, if any (without listing results)."""
    job = getattr(window, "evaluation_job", None)
    if job is not None and not job.finished:
        job.stop()
    window.evaluation_job = None


def update_results(window) -> None:
    """Fill the results panel: at once when its pairs are (nearly all) evaluated, else by an
    :class:`EvaluationJob` (a running one is replaced)."""
    stop_evaluation(window)
    pairs = window.panel_pairs()
    missing = window.evaluator.missing(window.scene, pairs)
    if len(missing) <= PUMP_MIN:
        window.results_panel.show_results(window.evaluator.results(window.scene, pairs))
        return

    def done(cancelled: bool) -> None:
        window.evaluation_job = None
        if getattr(window, "_shut", False):
            return
        ids = set(window.scene.ids())
        shown = [p for p in pairs if p[0] in ids and p[1] in ids]
        if cancelled:
            shown = [p for p in shown if window.evaluator.cached(window.scene, *p)]
            window.statusBar().showMessage(
                f"Evaluation cancelled: the results list the {len(shown)} of {len(pairs)} "
                "pairs evaluated so far (select an object to see its pairs)", 10000)
        window.results_panel.show_results(window.evaluator.results(window.scene, shown))

    window.evaluation_job = EvaluationJob(window, missing, done)
