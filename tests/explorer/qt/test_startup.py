"""The start-up path (issue 12, part 4): the view's first frame comes before the algorithm
panels, renders without anti-aliasing passes (the frame at rest follows), and a scene shown
in place of the empty one keeps the floor's actor (no actor removed before the first frame:
pyvistaqt would create a throwaway GL context for it)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyvistaqt")

from explorer import SCENES_DIR  # noqa: E402
from explorer.render import quality  # noqa: E402

WELCOME = SCENES_DIR / "welcome.json"


def test_panels_are_built_after_the_first_frame(qtbot, state_dir):
    from explorer.model.scenefile import load
    from explorer.qt.panels import PANELS
    from explorer.qt.window import PANELS_AFTER_FIRST_FRAME, MainWindow

    w = MainWindow(load(WELCOME), WELCOME, with_panels=PANELS_AFTER_FIRST_FRAME,
                   autosave_ms=0)
    try:
        loaded = []
        w.panels_loaded.connect(lambda: loaded.append(len(w.panel_docks)))
        assert w.panel_docks == [] and not w.viewport.first_frame_done  # not yet: no frame
        w.resize(1200, 760)
        w.show()
        qtbot.waitUntil(lambda: w.viewport.first_frame_done, timeout=10_000)
        qtbot.waitUntil(lambda: bool(loaded), timeout=10_000)
        assert loaded == [len(PANELS)]  # once, every panel
        assert [d.windowTitle() for d in w.panel_docks] == [t for t, _f in PANELS]
        assert w.panel_errors == []
        # the chosen pair's panels come to the front once they exist, as at a normal start
        front = w.panels_for(w.current_pair())
        qtbot.waitUntil(lambda: any(not d.visibleRegion().isEmpty() for d in w.panel_docks
                                    if d.windowTitle() in front), timeout=5_000)
    finally:
        w.dirty = False
        w.close()
        w.shutdown()
        w.deleteLater()


def _results_tabs(w) -> list[str]:
    """The titles of the docks tabbed with Results, in tab order."""
    from PyQt6.QtWidgets import QTabBar

    for bar in w.findChildren(QTabBar):
        titles = [bar.tabText(i) for i in range(bar.count())]
        if "Results" in titles:
            return titles
    return []


def test_the_panels_are_built_at_once_by_default(gui_window):
    w = gui_window(WELCOME, with_panels=True)
    assert len(w.panel_docks) == 6  # in the constructor, before any frame
    # st-plane right after Results, then the Methods, Fuzz and Precision docks
    assert _results_tabs(w) == ["Results", "st-plane", "Methods", "Fuzz", "Precision"]


def test_panels_built_after_the_first_frame_keep_the_tab_order(qtbot, state_dir):
    from explorer.model.scenefile import load
    from explorer.qt.window import PANELS_AFTER_FIRST_FRAME, MainWindow

    w = MainWindow(load(WELCOME), WELCOME, with_panels=PANELS_AFTER_FIRST_FRAME,
                   autosave_ms=0)
    try:
        w.resize(1200, 760)
        w.show()
        qtbot.waitUntil(lambda: len(w.panel_docks) == 6, timeout=10_000)
        # the same tabs as a window built at once (the later docks were beside Results first)
        qtbot.waitUntil(lambda: _results_tabs(w) == ["Results", "st-plane", "Methods", "Fuzz",
                                                     "Precision"], timeout=5_000)
    finally:
        w.dirty = False
        w.close()
        w.shutdown()
        w.deleteLater()


def test_the_first_frame_has_no_anti_aliasing_pass_then_the_frame_at_rest(monkeypatch):
    assert quality.ANTI_ALIASING == "adaptive"
    assert quality.first() == (0, False, False)  # neither FXAA nor multisampling
    for mode in ("adaptive", "fxaa", "msaa", "none"):  # the first frame is a moving one
        monkeypatch.setattr(quality, "ANTI_ALIASING", mode)
        assert quality.first() == quality.moving()


def test_a_new_scene_refills_the_floor_in_place(gui_window):
    from explorer.model.scenefile import load

    w = gui_window(WELCOME)
    plotter = w.viewport.plotter
    floor = plotter.actors["floor"]
    before = floor.GetMapper().GetInput().GetBounds()
    w.set_document(load(SCENES_DIR / "gui_hundred.json"))
    assert plotter.actors["floor"] is floor  # the same actor, its mesh rewritten
    assert floor.GetMapper().GetInput().GetBounds() != before  # under the new scene
