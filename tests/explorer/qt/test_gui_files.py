"""Files and crashes in the window (issue 15 parts 0 and 5, issue 14 part 4): a bad file shows a
dialog and keeps the scene; an exception anywhere shows a message and the window, the scene and
the unsaved work survive; autosave on a full disk says so; saves keep modes and refuse
read-only files; state lives in the platform's folders.
"""

from __future__ import annotations

import errno
import json
import os
import stat

import pytest

pytest.importorskip("pytestqt")

from PyQt6.QtCore import QTimer  # noqa: E402

from explorer import SCENES_DIR  # noqa: E402
from explorer.model import documents  # noqa: E402
from explorer.qt import errors  # noqa: E402

pytestmark = pytest.mark.gui

WELCOME = SCENES_DIR / "welcome.json"
HEAD = '{"format": "intersection-explorer-scene", "version": 1, "objects": ['


def edited(gui_window):
    """The welcome scene with one unsaved edit (the ball's radius 0.3)."""
    w = gui_window(WELCOME)
    w.select("ball")
    w.property_panel.set_field("radius", 0.3)
    assert w.dirty
    return w


def kept(w) -> None:
    assert w.path == WELCOME and w.dirty and w.scene["ball"].primitive.radius == 0.3
    assert "ball" in w.viewport.view.actors


@pytest.mark.parametrize("name,text,words", [
    ("401 digits", HEAD + '{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": '
     + "1" * 401 + "}]}", ["'S'", "radius", "401-digit integer"]),
    ("5001 digits", HEAD + '{"id": "S", "type": "point", "position": [' + "7" * 5001
     + ', 0, 0]}]}', ["'S'", "position[0]", "5001-digit"]),
    ("deep", HEAD + '{"id": "S", "type": "point", "position": [0, 0, 0], "x": '
     + "[" * 1000 + "]" * 1000 + "}]}", ["nested"]),
    ("long id", HEAD + '{"id": "' + "x" * 1_000_000 + '", "type": "torus"}]}',
     ["1000000 characters", "unknown type"]),
])
def test_a_bad_file_shows_the_spec_message_and_keeps_the_scene_and_edits(
        gui_window, tmp_path, name, text, words):
    w = edited(gui_window)
    w.dialogs.unsaved_answer = "discard"  # the user agrees to leave the edit... then the
    bad = tmp_path / "bad.json"           # file is refused: nothing was lost after all
    bad.write_text(text)
    assert not w.open_file(bad, ask=False)
    (title, message), = w.dialogs.errors
    assert title == "Cannot open scene" and str(bad) in message
    for word in words:
        assert word in message
    assert len(message) < 1000  # a dialog with a 20 MB message froze the window before
    kept(w)


def test_a_fifo_opened_in_the_window_is_refused_at_once(gui_window, tmp_path):
    w = edited(gui_window)
    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    assert not w.open_file(fifo, ask=False)
    assert "FIFO" in w.dialogs.errors[-1][1]
    kept(w)


def test_a_tiny_motion_opens_and_draws(gui_window, tmp_path):
    # "motion": [4.9e-324, 0, 0] made an arrow with no points; PyVista refused the empty mesh
    # and the exception in the slot aborted the window (SIGABRT)
    f = tmp_path / "tiny.json"
    f.write_text(HEAD + '{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1, '
                 '"motion": [4.9e-324, 0, 0]}, {"id": "P", "type": "point", '
                 '"position": [3, 0, 0]}]}')
    w = gui_window(WELCOME)
    assert w.open_file(f)
    assert w.dialogs.errors == [] and w.scene.ids() == ["S", "P"]
    assert w.last_results and w.last_results[0].distance == 2.0  # |3 - 1|: drawn


def test_a_scene_that_fails_while_shown_is_undone_and_the_old_one_kept(
        gui_window, tmp_path, monkeypatch):
    w = edited(gui_window)
    other = tmp_path / "other.json"
    other.write_text(HEAD + '{"id": "P", "type": "point", "position": [0, 0, 0]}]}')
    real = w._apply_camera

    def broken():  # showing the new scene fails (a bug in the camera code, say)
        if "P" in w.scene:
            raise RuntimeError("camera exploded")
        return real()

    monkeypatch.setattr(w, "_apply_camera", broken)
    assert not w.open_file(other, ask=False)
    kept(w)
    assert "P" not in w.viewport.view.actors
    (title, text), = w.dialogs.errors
    assert title == "Cannot open scene" and "camera exploded" in text and "kept" in text


def test_a_scene_whose_answers_fail_to_draw_opens_with_a_message(
        gui_window, tmp_path, monkeypatch):
    w = gui_window(WELCOME)
    other = tmp_path / "other.json"
    other.write_text(HEAD + '{"id": "P", "type": "point", "position": [0, 0, 0]}, '
                     '{"id": "Q", "type": "point", "position": [1, 0, 0]}]}')
    real = w.update_answers

    def broken():
        if "P" in w.scene:
            raise RuntimeError("overlay exploded")
        return real()

    monkeypatch.setattr(w, "update_answers", broken)
    assert w.open_file(other, ask=False)  # the objects are shown; the answers could not be
    assert w.scene.ids() == ["P", "Q"] and "P" in w.viewport.view.actors
    (title, text), = w.dialogs.errors
    assert "Cannot update the answers" in text and "overlay exploded" in text


def test_an_error_in_the_update_shows_one_message_and_keeps_everything(gui_window, monkeypatch):
    w = edited(gui_window)
    from explorer.render import overlays

    def broken(*args, **kwargs):
        raise ZeroDivisionError("float division by zero")

    monkeypatch.setattr(overlays, "build", broken)
    w.property_panel.set_field("radius", 0.4)  # refresh fails: message, the edit stays
    w.property_panel.set_field("radius", 0.5)  # again: the same error is not asked twice
    assert w.scene["ball"].primitive.radius == 0.5 and w.dirty
    assert [t for t, _ in w.dialogs.errors] == ["Something went wrong"]
    assert "ZeroDivisionError" in w.dialogs.errors[0][1]
    assert "Cannot update the answers" in w.statusBar().currentMessage()
    monkeypatch.undo()
    w.refresh()  # works again: the next failure may show a dialog again
    assert w.last_results and w._last_error is None


@pytest.mark.qt_no_exception_capture
def test_the_exception_hook_keeps_the_window_and_autosaves(gui_window, qtbot, state_dir):
    w = edited(gui_window)
    errors.install()
    try:
        def slot():  # an exception leaving a Qt slot: PyQt6 aborts without a hook
            raise ValueError("Empty meshes cannot be plotted")

        QTimer.singleShot(0, slot)
        qtbot.waitUntil(lambda: bool(w.dialogs.errors), timeout=5000)
    finally:
        errors.uninstall()
    (title, text), = w.dialogs.errors
    assert title == "Something went wrong" and "ValueError: Empty meshes" in text
    assert "unsaved edits are kept" in text
    kept(w)
    rec = w.documents.slot.path
    assert rec.exists()  # the hook autosaved the live work into this window's file
    assert json.loads(rec.read_text())["objects"][1]["radius"] == 0.3
    assert "ValueError: Empty meshes" in (state_dir / "crash.log").read_text()


def test_autosave_on_a_full_disk_says_so_once_and_recovers(gui_window, monkeypatch):
    w = edited(gui_window)

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(documents, "_write", full)
    assert not w.autosave()
    assert "Autosave failed" in w.statusBar().currentMessage()
    assert "disk is full" in w.statusBar().currentMessage()
    w.property_panel.set_field("radius", 0.35)
    assert not w.autosave()  # still failing: the status bar says it, no second dialog
    assert [t for t, _ in w.dialogs.errors] == ["Autosave failed"]
    assert "not protected" in w.dialogs.errors[0][1]
    monkeypatch.undo()
    assert w.autosave()
    assert "works again" in w.statusBar().currentMessage()
    assert w.documents.slot.path.exists()


def test_save_keeps_the_mode_and_refuses_a_read_only_file(gui_window, tmp_path):
    w = edited(gui_window)
    out = tmp_path / "mine.json"
    out.write_text("{}")
    os.chmod(out, 0o664)
    w.dialogs.next_path = str(out)
    assert w.save_as()
    assert stat.S_IMODE(out.stat().st_mode) == 0o664  # was reset to 0600 before
    os.chmod(out, 0o444)
    w.property_panel.set_field("radius", 0.45)
    before = out.read_text()
    assert not w.save()
    (title, text), = w.dialogs.errors
    assert title == "File is read-only" and "Save As" in text
    assert out.read_text() == before and w.dirty  # not overwritten, the edit kept


def test_save_through_a_symlink_keeps_the_link(gui_window, tmp_path):
    w = edited(gui_window)
    real = tmp_path / "real.json"
    real.write_text("{}")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    w.dialogs.next_path = str(link)
    assert w.save_as()
    assert link.is_symlink() and json.loads(real.read_text())["objects"][1]["radius"] == 0.3


def test_state_lives_in_the_platforms_state_folder(gui_window, tmp_path, monkeypatch):
    from explorer.qt.documents import state_dir

    monkeypatch.delenv("EXPLORER_STATE_DIR")
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "xdg-state"))
    # QStandardPaths.GenericStateLocation is $XDG_STATE_HOME on Linux
    assert state_dir() == tmp_path / "xdg-state" / "intersection-explorer"
    w = gui_window()
    assert w.documents.slot.path.parent == state_dir()
    assert w.documents.recent.file == state_dir() / "recent.json"


def test_valid_files_with_extreme_numbers_open_in_the_window(gui_window, tmp_path):
    """Valid files of the scene-file fuzzer (coordinates from 5e-324 to 1.8e308, motions,
    unknown keys) open, draw and select without a message. Before, about one in six ended in
    an OverflowError building the floor grid, which aborted the window."""
    from hypothesis import HealthCheck, given, settings
    from tests.fuzz import examples

    from tests.explorer.model.fuzz_scenefile import valid_document

    w = gui_window(WELCOME)
    f = tmp_path / "fuzz.json"
    tried = []

    @settings(max_examples=examples(40), derandomize=True, database=None, deadline=None,
              suppress_health_check=list(HealthCheck))
    @given(valid_document(max_objects=4))
    def one(doc):
        f.write_text(json.dumps(doc))
        assert w.open_file(f, ask=False), w.dialogs.errors[-1:]
        assert w.scene.ids() == [o["id"] for o in doc["objects"]]
        if doc["objects"]:
            w.select(doc["objects"][0]["id"])
        assert w.dialogs.errors == []
        tried.append(1)

    one()
    assert len(tried) >= 40


def many(n: int) -> str:
    return json.dumps({"format": "intersection-explorer-scene", "version": 1, "objects": [
        {"id": f"O{i}", "type": "sphere", "center": [2 * i, 0, 0], "radius": 0.5}
        for i in range(n)]})


def test_a_scene_too_large_for_the_window_is_refused_with_a_message(gui_window, tmp_path,
                                                                     capsys):
    from explorer.cli import main
    from explorer.model.documents import MAX_WINDOW_OBJECTS

    f = tmp_path / "many.json"
    f.write_text(many(MAX_WINDOW_OBJECTS + 1))
    w = edited(gui_window)
    assert not w.open_file(f, ask=False)
    assert f"has {MAX_WINDOW_OBJECTS + 1} objects" in w.dialogs.errors[-1][1]
    kept(w)
    assert main(["open", str(f)]) == 2  # from the command line: one line, no window
    (line,) = capsys.readouterr().err.splitlines()
    assert f"at most {MAX_WINDOW_OBJECTS}" in line


def test_the_results_panel_lists_a_bounded_number_of_pairs(gui_window, tmp_path, monkeypatch):
    # 400 objects without queries: 79,800 pairs were evaluated and listed on the GUI thread
    # (15 s); the panel lists the first MAX_LISTED_PAIRS and says so
    from explorer.qt import window as window_module

    monkeypatch.setattr(window_module, "MAX_LISTED_PAIRS", 10)
    f = tmp_path / "six.json"
    f.write_text(many(6))  # 15 pairs
    w = gui_window(f)
    assert len(w.results_for_panel()) == 10
    assert "first 10 of 15 pairs" in w.statusBar().currentMessage()
