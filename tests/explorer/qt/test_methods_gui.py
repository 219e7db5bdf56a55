"""The user's methods in the window: File > Load Methods…, the Methods panel, reload on change,
failures on their row, Copy as pytest (pytest-qt under Xvfb)."""

from __future__ import annotations

import json
import os
import textwrap

import pytest

pytest.importorskip("pytestqt")

from algorithms import usermethods  # noqa: E402
from explorer import SCENES_DIR  # noqa: E402

pytestmark = pytest.mark.gui

METHODS = """
from algorithms import register

@register("distance", "segment", "segment", name="mine")
def mine(a, b):
    return {body}
"""

SCENE = {
    "format": "intersection-explorer-scene", "version": 1, "name": "bug",
    "objects": [{"id": "A", "type": "segment", "p0": [0, 0, 1], "p1": [0, 0, 0]},
                {"id": "B", "type": "segment", "p0": [0, 0, 0], "p1": [0, 0, 0]}],
    "queries": [{"a": "A", "b": "B"}],
}


@pytest.fixture(autouse=True)
def _clean():
    yield
    usermethods.unload_all()


def _rows(w, qtbot, n=1):
    ctl = w.methods_ui
    ctl.dock.show()
    ctl.dock.raise_()
    qtbot.waitUntil(lambda: len(ctl.panel.rows) >= n, timeout=4000)
    return ctl.panel.rows


def _bump(path, text):
    st = path.stat()
    path.write_text(textwrap.dedent(text))
    os.utime(path, ns=(st.st_atime_ns, st.st_mtime_ns + 50_000_000))


def test_load_disagree_reload_and_crash_without_losing_the_scene(gui_window, qtbot, tmp_path):
    scene_path = tmp_path / "bug.json"
    scene_path.write_text(json.dumps(SCENE))
    methods = tmp_path / "mine.py"
    # the classic: distance from A's first end only (1.0); A's other end touches B (0.0)
    methods.write_text(METHODS.format(body="__import__('math').dist(a.p0, b.p0)"))
    w = gui_window(scene_path)
    assert w.methods_ui.load(methods)
    w.set_pair("A", "B")
    (row,) = _rows(w, qtbot)
    assert row["method"] == "mine" and row["value"] == 1.0 and row["reference"] == 0.0
    assert row["agree"] is False and "differs from the reference" in row["why"]
    table = w.methods_ui.panel.table
    assert table.item(0, 7).text().startswith("DISAGREES")
    # the fix, saved to disk: the watcher reloads it by itself
    _bump(methods, METHODS.format(body="0.0"))
    qtbot.waitUntil(lambda: w.methods_ui.panel.rows and w.methods_ui.panel.rows[0]["agree"],
                    timeout=5000)
    # a crash: on its row with the traceback, the window and the scene untouched
    _bump(methods, METHODS.format(body="1 / 0"))
    qtbot.waitUntil(lambda: w.methods_ui.panel.rows
                    and w.methods_ui.panel.rows[0]["error_kind"] == "exception", timeout=5000)
    details = w.methods_ui.panel.details.toPlainText()
    assert "ZeroDivisionError" in details and str(methods) in details
    assert w.scene.ids() == ["A", "B"] and w.last_results
    # a syntax error on reload keeps the previous methods and says why
    _bump(methods, "def (:\n")
    qtbot.waitUntil(lambda: "reload failed" in w.methods_ui.panel.files_label.text(),
                    timeout=5000)
    assert registry_has("mine")


def registry_has(name):
    from algorithms import registry

    return name in registry.methods("distance", "segment", "segment")


def test_a_hang_is_stopped_and_suspended(gui_window, qtbot, tmp_path):
    methods = tmp_path / "slow.py"
    methods.write_text(METHODS.format(body="[None for _ in iter(int, 1)]"))  # never returns
    w = gui_window(SCENES_DIR / "gui_segments.json")
    old = usermethods.POLICY.time_limit
    usermethods.POLICY.time_limit = 0.3
    try:
        assert w.methods_ui.load(methods)
        w.set_pair("A", "B")
        (row,) = _rows(w, qtbot)
    finally:
        usermethods.POLICY.time_limit = old
    assert row["error_kind"] == "timeout" and "time limit" in row["error"]
    # the next drag step does not wait again: the method is suspended until reloaded
    w.drag_handle("B", "p0", (0.0, 0.0, 0.5))
    w.methods_ui.panel.refresh(force=True)
    assert w.methods_ui.panel.rows[0]["error_kind"] == "suspended"


def test_a_bad_file_is_refused_with_one_message(gui_window, tmp_path):
    bad = tmp_path / "bad.py"
    bad.write_text("import definitely_not_a_module\n")
    w = gui_window(SCENES_DIR / "gui_segments.json")
    assert not w.methods_ui.load(bad)
    (title, text), = w.dialogs.errors
    assert str(bad) in text and "ModuleNotFoundError" in text and "\n" not in text
    assert not usermethods.LOADED and w.scene.ids() == ["A", "B"]


def test_file_menu_has_load_methods(gui_window):
    w = gui_window(SCENES_DIR / "gui_segments.json")
    file_menu = w.menuBar().actions()[0].menu()
    assert "Load &Methods…" in [a.text() for a in file_menu.actions()]


def test_copy_as_pytest(gui_window, qtbot, tmp_path):
    from PyQt6.QtGui import QGuiApplication

    w = gui_window(SCENES_DIR / "gui_ray_box.json")
    w.set_pair("ray", "box")
    panel = w.results_panel
    qtbot.waitUntil(lambda: panel.detail_result is not None, timeout=3000)
    text = panel.copy_pytest()
    assert QGuiApplication.clipboard().text() == text
    ns = {"__name__": "copied"}
    exec(compile(text, "copied.py", "exec"), ns)
    assert ns["A"] == w.scene["ray"].primitive
    next(v for k, v in ns.items() if k.startswith("test_"))()


def test_the_disagreement_is_drawn_in_the_viewport_and_follows_a_drag(gui_window, qtbot):
    from explorer import SCENES_DIR as _S  # noqa: F401

    root = SCENES_DIR.parent
    w = gui_window(root / "examples" / "clamp_bug.json")
    assert w.methods_ui.load(root / "examples" / "buggy_methods.py")
    w.set_pair("A", "B")
    w.refresh()
    names = set(w.viewport.view.overlay_meshes())
    assert {"ov:userbad:A", "ov:userbad:B"} <= names
    assert "ov:user:A:B:clamp_separately:distance:line" in names
    # drag B's first end onto A: both methods now say 0, the mark goes away
    w.drag_handle("B", "p0", (0.0, 0.05, 0.3))
    w.refresh()
    names = set(w.viewport.view.overlay_meshes())
    assert not {"ov:userbad:A", "ov:userbad:B"} & names


def test_fuzz_panel_runs_stops_and_opens_a_case(gui_window, qtbot, tmp_path):
    methods = tmp_path / "mine.py"
    methods.write_text(textwrap.dedent('''
        import math
        from algorithms import register

        @register("distance", "sphere", "sphere", name="forgot_radius_b")
        def forgot_radius_b(a, b):
            return max(0.0, math.dist(a.center, b.center) - a.radius)
    '''))
    w = gui_window(SCENES_DIR / "gui_segments.json")
    assert w.methods_ui.load(methods)
    panel = w.methods_ui.fuzz_panel
    panel.seconds.setValue(30)
    assert panel.start()
    qtbot.waitUntil(lambda: panel.gallery.count() == 1, timeout=60000)
    panel.wait()
    qtbot.waitUntil(lambda: panel.start_button.isEnabled(), timeout=5000)
    assert (tmp_path / "fuzz-cases" / "sphere-sphere-1.json").is_file()
    assert (tmp_path / "fuzz-cases" / "test_sphere_sphere_1.py").is_file()
    assert panel.bar.value() == 1000 and "1 disagreement" in panel.status.text()
    # one click opens the case, its pair chosen, the Methods panel shows the disagreement
    item = panel.gallery.item(0)
    panel.gallery.itemClicked.emit(item)
    assert w.path.name == "sphere-sphere-1.json" and w.current_pair() == ("A", "B")
    (row,) = _rows(w, qtbot)
    assert row["method"] == "forgot_radius_b" and row["agree"] is False
    # Stop ends a long search early
    panel.seconds.setValue(600)
    panel.pair.setText("sphere-sphere")
    w.methods_ui.load(tmp_path / "mine.py")
    usermethods.unload_all()
    assert panel.start()  # the library's own second methods (GJK...) against the defaults
    panel.stop()
    panel.wait()
    qtbot.waitUntil(lambda: panel.start_button.isEnabled(), timeout=10000)
    assert "stopped" in panel.status.text()


def test_precision_panel_on_a_nearly_parallel_pair(gui_window, qtbot):
    w = gui_window(SCENES_DIR / "gui_segments.json")
    w.set_pair("A", "B")
    ui = w.methods_ui
    ui.precision_dock.show()
    ui.precision_dock.raise_()
    panel = ui.precision_panel
    panel.slider.setValue(9)
    qtbot.waitUntil(lambda: panel.a is not None, timeout=4000)
    assert panel.put_in_scene()  # B becomes A turned by 1e-9 rad
    qtbot.waitUntil(lambda: "ALARM" in panel.alarm.text(), timeout=4000)
    assert "det" in panel.alarm.text() and "float32" in panel.alarm.text()
    assert panel.table.rowCount() == len(panel.trace["rows"]) == 12
    assert len(panel.sweep) == 16
    panel.exact.setChecked(False)
    assert panel.table.rowCount() == 0 and "off" in panel.alarm.text()


def test_precision_panel_shows_woos_candidate_ts_beside_the_exact_run(gui_window, qtbot):
    w = gui_window(SCENES_DIR / "gui_ray_box.json")
    w.set_pair("ray", "box")
    ui = w.methods_ui
    ui.precision_dock.show()
    ui.precision_dock.raise_()
    panel = ui.precision_panel
    qtbot.waitUntil(lambda: panel.table.rowCount() > 0, timeout=4000)
    names = [panel.table.item(i, 0).text() for i in range(panel.table.rowCount())]
    assert any(n.startswith("t (") for n in names) and names[-2:] == ["chosen plane", "hit"]


def test_library_methods_side_by_side(gui_window, qtbot):
    w = gui_window(SCENES_DIR / "gui_ray_box.json")
    w.set_pair("ray", "box")
    w.methods_ui.panel.library_box.setChecked(True)
    rows = _rows(w, qtbot)
    # ray-aabb: Woo is the default of hits, slabs the second; the distance's second is the
    # golden-section search
    assert ("hits", "slabs") in [(r["query"], r["method"]) for r in rows]
    assert all(r["agree"] for r in rows), [r["why"] for r in rows]
    w.refresh()
    assert any(n.startswith("ov:user:ray:box:slabs:hits") for n in w.viewport.view.overlay_meshes())


def test_the_window_wide_exact_toggle_is_the_panels_exact_box(gui_window, qtbot):
    w = gui_window(SCENES_DIR / "gui_segments.json")
    ui = w.methods_ui
    assert ui.exact_action in w.view_menu.actions() and ui.exact_action.isChecked()
    ui.exact_action.trigger()  # off, from the View menu
    assert not ui.precision_panel.exact.isChecked()
    ui.precision_panel.exact.setChecked(True)  # and back from the panel
    assert ui.exact_action.isChecked()
