"""Fixtures for the GUI tests (pytest-qt under Xvfb: pytest-xvfb starts the server).

Nothing here imports Qt at module level: the scene-model tests in this folder must keep running
(and proving they import no Qt) without it. ``gui_window`` builds a real
:class:`~explorer.qt.window.MainWindow` with scripted dialogs and an isolated state folder, and
closes the window and its plotter after the test; it fails the test when a plotter outlives it.
"""

from __future__ import annotations

import gc

import pytest


class FakeDialogs:
    """Scripted answers for the window's modal questions; records what was asked."""

    def __init__(self):
        self.errors: list[tuple[str, str]] = []
        self.unsaved_answer = "discard"
        self.recover_answer = True
        self.asked: list[str] = []
        self.next_path = None
        self.next_color = "#ff00ff"

    def error(self, title, text):
        self.errors.append((title, text))

    def ask_unsaved(self, name):
        self.asked.append("unsaved")
        return self.unsaved_answer

    def ask_recover(self, when):
        self.asked.append("recover")
        return self.recover_answer

    def open_path(self, folder):
        return self.next_path

    def save_path(self, suggestion):
        return self.next_path

    def png_path(self, suggestion):
        return self.next_path

    def color(self, initial):
        return self.next_color


@pytest.fixture
def state_dir(tmp_path, monkeypatch):
    d = tmp_path / "state"
    monkeypatch.setenv("EXPLORER_STATE_DIR", str(d))
    return d


@pytest.fixture
def gui_window(qtbot, state_dir):
    """``make(path=None, with_panels=False) -> MainWindow``, shown and exposed."""
    import pyvista as pv

    from explorer.model.scenefile import load
    from explorer.qt.window import MainWindow

    pv.global_theme.multi_samples = 0
    made = []

    def make(path=None, with_panels=False):
        w = MainWindow(load(path) if path else None, path, with_panels=with_panels,
                       autosave_ms=0)
        w.dialogs = FakeDialogs()
        w.auto_render = False  # tests look at the model and the actors; screenshots render
        w.resize(1200, 760)
        w.show()
        qtbot.waitExposed(w)
        w.activateWindow()  # window shortcuts (Delete, Ctrl+Z, F) need the active window
        qtbot.waitUntil(w.isActiveWindow, timeout=3000)
        made.append(w)
        return w

    yield make
    plotters = []
    for w in made:
        plotters.append(w.viewport.plotter)
        w.dirty = False
        w.close()
        w.shutdown()
        w.deleteLater()
    qtbot.wait(1)
    gc.collect()
    for p in plotters:
        assert p._closed, "a plotter outlived its test"
