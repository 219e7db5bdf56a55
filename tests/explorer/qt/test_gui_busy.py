"""Long work in the window (issue 15 part 3, explorer.qt.busy): a large scene is drawn in
steps behind a progress dialog (Cancel keeps the scene that was on screen, with its unsaved
edit), and many pairs are evaluated in steps with a progress bar and Cancel (Esc) in the status
bar, while the event loop keeps processing events (a timer keeps firing)."""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pytestqt")

from PyQt6.QtCore import Qt, QTimer  # noqa: E402
from PyQt6.QtWidgets import QProgressBar  # noqa: E402

from explorer import SCENES_DIR  # noqa: E402
from explorer.qt import busy  # noqa: E402

pytestmark = pytest.mark.gui

WELCOME = SCENES_DIR / "welcome.json"


def many(n: int) -> str:
    return json.dumps({"format": "intersection-explorer-scene", "version": 1, "objects": [
        {"id": f"O{i}", "type": "sphere", "center": [2 * (i % 25), 2 * (i // 25), 0],
         "radius": 0.5} for i in range(n)]})


class Ticks:
    """A repeating zero-interval timer: how often the event loop got round to it (once per
    turn of the loop). The tests set busy.SLICE_S = 0, so every step of the work (4 objects
    drawn, one pair evaluated) is followed by a turn of the event loop, on any machine."""

    def __init__(self):
        self.count = 0
        self.timer = QTimer()
        self.timer.timeout.connect(self._tick)
        self.timer.start(0)

    def _tick(self):
        self.count += 1


def watch_dialog(w, seen: list, cancel_after: int = 0):
    """Poll the loading dialog at every turn of the event loop: record (visible, value); cancel it once its value
    passes ``cancel_after`` when that is > 0."""
    timer = QTimer()

    def poll():
        d = getattr(w, "loading_dialog", None)
        if d is not None:
            seen.append((d.isVisible(), d.value(), d.maximum()))
            if cancel_after and d.value() >= cancel_after:
                d.cancel()

    timer.timeout.connect(poll)
    timer.start(0)
    return timer


@pytest.fixture(autouse=True)
def one_step_per_slice(monkeypatch):
    monkeypatch.setattr(busy, "SLICE_S", 0.0)


def test_a_600_object_scene_opens_with_progress_and_a_running_event_loop(gui_window, tmp_path):
    f = tmp_path / "six_hundred.json"
    f.write_text(many(600))
    w = gui_window(WELCOME)
    seen: list = []
    ticks = Ticks()
    poll = watch_dialog(w, seen)
    assert w.open_file(f, ask=False)
    poll.stop()
    ticks.timer.stop()
    assert w.scene.ids() == [f"O{i}" for i in range(600)] and len(w.viewport.view.actors) == 600
    assert w.viewport.view.pending_rebuild is None and w.loading_dialog is None
    # the dialog was on screen, its maximum the number of objects, and it moved
    assert seen and all(vis and m == 600 for vis, _v, m in seen)
    assert any(0 < v < 600 for _vis, v, _m in seen)
    assert len({v for _vis, v, _m in seen}) >= 3
    # the event loop ran timers between the 150 steps of 4 objects
    assert ticks.count >= 100
    assert not w.dirty and w.dialogs.errors == []
    assert w.viewport.plotter.interactor.updatesEnabled()


def test_cancel_while_loading_keeps_the_old_scene_and_its_edit(gui_window, tmp_path):
    f = tmp_path / "six_hundred.json"
    f.write_text(many(600))
    w = gui_window(WELCOME)
    old_ids = w.scene.ids()
    w.select("ball")
    w.property_panel.set_field("radius", 0.3)  # an unsaved edit
    seen: list = []
    poll = watch_dialog(w, seen, cancel_after=40)
    assert not w.open_file(f, ask=False)
    poll.stop()
    assert any(v >= 40 for _vis, v, _m in seen)
    # the scene that was on screen, its file name and its unsaved edit: all kept
    assert w.scene.ids() == old_ids and w.path == WELCOME and w.dirty
    assert w.scene["ball"].primitive.radius == 0.3
    assert sorted(w.viewport.view.actors) == sorted(old_ids)
    assert "cancelled" in w.statusBar().currentMessage()
    assert w.dialogs.errors == [] and w.loading_dialog is None
    # and the window is usable: select, edit, the answers follow
    w.select("ball")
    w.property_panel.set_field("radius", 0.4)
    assert w.scene["ball"].primitive.radius == 0.4
    w.refresh()
    assert w.last_results


def _job_widgets(w):
    return [b for b in w.statusBar().findChildren(QProgressBar) if b.isVisible()]


def test_many_pairs_are_evaluated_in_steps_and_listed(gui_window, tmp_path, qtbot):
    f = tmp_path / "forty.json"
    f.write_text(many(40))  # 780 pairs: the results list 500
    w = gui_window(WELCOME)
    ticks = Ticks()
    assert w.open_file(f, ask=False)
    qtbot.waitUntil(lambda: w.evaluation_job is not None, timeout=5000)
    job = w.evaluation_job
    assert len(job.pairs) > busy.PUMP_MIN
    qtbot.waitUntil(lambda: bool(_job_widgets(w)), timeout=5000)
    bar = _job_widgets(w)[0]
    assert bar.maximum() == len(job.pairs)
    qtbot.waitUntil(lambda: w.evaluation_job is None, timeout=60000)
    assert job.finished and not job.cancelled and job.index == len(job.pairs)
    assert job.slices == len(job.pairs)  # one pair a slice (SLICE_S = 0) ...
    assert ticks.count >= len(job.pairs) // 2  # ... and the event loop turned between them
    assert w.results_panel.tree.topLevelItemCount() == 500
    assert not _job_widgets(w)  # the progress bar and Cancel are gone


def test_escape_cancels_the_evaluation_and_lists_what_is_done(gui_window, tmp_path, qtbot):
    f = tmp_path / "forty.json"
    f.write_text(many(40))
    w = gui_window(WELCOME)
    assert w.open_file(f, ask=False)
    qtbot.waitUntil(lambda: w.evaluation_job is not None and w.evaluation_job.index > 0,
                    timeout=10000)
    job = w.evaluation_job
    qtbot.keyClick(w, Qt.Key.Key_Escape)
    assert job.finished and job.cancelled and w.evaluation_job is None
    done = job.index
    assert 0 < done < len(job.pairs)
    listed = w.results_panel.tree.topLevelItemCount()
    assert 0 < listed < 500
    assert "Evaluation cancelled" in w.statusBar().currentMessage()
    assert not _job_widgets(w)
    # usable: choosing an object lists its pairs (its 39 and the chosen pair O0-O1)
    w.select("O3")
    pairs = w.panel_pairs()
    assert len(pairs) == 40 and all("O3" in p for p in pairs[:39])
    qtbot.waitUntil(lambda: w.evaluation_job is None
                    and w.results_panel.tree.topLevelItemCount() == 40, timeout=30000)
