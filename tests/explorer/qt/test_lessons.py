"""The Lessons menu, the lesson panel and read-only shipped files (issue 13, part 5)."""

from __future__ import annotations

import json

from algorithms.primitives import Segment
from explorer import LESSONS_DIR, SCENES_DIR

SEGMENTS = LESSONS_DIR / "01_segment_distance.json"
WOO = LESSONS_DIR / "02_ray_box_woo.json"


def test_lessons_menu_lists_every_shipped_lesson_and_opens_one(gui_window, qtbot):
    w = gui_window()
    titles = [a.text() for a in w.lessons_menu.actions() if a.text() and not a.isSeparator()]
    lessons = sorted(LESSONS_DIR.glob("*.json"))
    assert len([t for t in titles if t[1].isdigit()]) == len(lessons) >= 8
    first = next(a for a in w.lessons_menu.actions() if a.text().startswith("&1 "))
    first.trigger()
    panel = w.lesson_panel
    assert panel.lesson is not None and panel.lesson.title == "Segment distance and its regions"
    assert panel.counter.text().startswith("Step 1 of 5")
    # step 1's look is applied once the window has set up the document: the pair A-B
    qtbot.waitUntil(lambda: w.scope_actions["pair"].isChecked(), timeout=3000)
    assert w.current_pair() == ("A", "B")
    assert w.workspace.scope == "pair"  # only the step's pair is drawn


def test_next_and_previous_apply_each_steps_look(gui_window, qtbot):
    w = gui_window(SEGMENTS, with_panels=True)
    panel = w.lesson_panel
    panel.next()
    panel.next()  # step 3: A against C, the top view
    assert panel.counter.text().startswith("Step 3 of 5: Region 1")
    assert w.current_pair() == ("A", "C")
    cam = w.viewport.plotter.camera
    assert abs(cam.GetViewPlaneNormal()[2]) > 0.999  # looking down the z axis
    assert panel.prev_button.isEnabled()
    stplane = next(d for d in w.panel_docks if d.windowTitle() == "st-plane")
    qtbot.waitUntil(lambda: not stplane.widget().visibleRegion().isEmpty(), timeout=3000)
    panel.previous()
    assert w.current_pair() == ("A", "B")
    for _ in range(10):
        panel.next()
    assert panel.index == 4 and not panel.next_button.isEnabled()


def test_answers_are_checked_against_the_library_now(gui_window, qtbot):
    w = gui_window(SEGMENTS)
    panel = w.lesson_panel
    panel.answer_edit.setText("1")  # A-B: the midpoints (0,0,0), (0,0,1) are 1 apart
    assert panel.check().correct
    assert "Right" in panel.feedback.text()
    panel.answer_edit.setText("1.5")
    assert not panel.check().correct
    panel.answer_edit.setText("one")
    assert panel.check() is None and "not a number" in panel.feedback.text()
    # the student lifts B to z = 2: the library now answers 2, and grades against that
    w.scene.update("B", primitive=Segment((0, -1, 2), (0, 1, 2)))
    panel.answer_edit.setText("2")
    assert panel.check().correct
    panel.answer_edit.setText("1")
    assert not panel.check().correct


def test_a_choice_question(gui_window):
    w = gui_window(WOO)
    panel = w.lesson_panel
    panel.go(1)  # "Which plane does Woo choose?"
    assert [b.text() for b in panel.choice_buttons] == ["min x", "min y", "max z"]
    assert panel.check() is None and "choose an answer" in panel.feedback.text().lower()
    panel.choose("min y")
    assert not panel.check().correct
    panel.choose("min x")
    grade = panel.check()
    assert grade.correct and "2.2" in grade.message


def test_a_plain_scene_shows_how_to_open_a_lesson(gui_window):
    w = gui_window(SCENES_DIR / "welcome.json")
    assert w.lesson_panel.lesson is None
    assert "Lessons" in w.lesson_panel.text.toPlainText()
    assert not w.lesson_panel.next_button.isEnabled()


def test_save_on_a_shipped_lesson_asks_for_a_new_path(gui_window, tmp_path):
    w = gui_window(WOO)
    before = WOO.read_text(encoding="utf-8")
    assert "read-only" in w.windowTitle()
    w.scene.update("box", label="my box")
    w.dirty = True
    w.dialogs.next_path = None  # the user cancels the Save As dialog
    assert w.save() is False
    assert WOO.read_text(encoding="utf-8") == before
    w.dialogs.next_path = str(WOO)  # choosing the shipped file itself is refused
    assert w.save() is False and w.dialogs.errors and "read-only" in w.dialogs.errors[-1][1]
    assert WOO.read_text(encoding="utf-8") == before
    mine = tmp_path / "my_lesson.json"
    w.dialogs.next_path = str(mine)
    assert w.save() is True and w.path == mine
    doc = json.loads(mine.read_text(encoding="utf-8"))
    assert doc["lesson"]["title"] == "Ray-box: Woo's candidate planes"
    assert [o["label"] for o in doc["objects"] if o["id"] == "box"] == ["my box"]
    assert "read-only" not in w.windowTitle()
    w.dialogs.next_path = None
    assert w.save() is True  # now a file of the user's own: saved in place, no dialog


def test_every_look_names_a_panel_of_the_window():
    from explorer.model.lesson import lesson_of
    from explorer.model.scenefile import load
    from explorer.qt.panels import PANELS

    titles = {t for t, _ in PANELS} | {"Results", "Scene", "Properties"}
    for path in sorted(LESSONS_DIR.glob("*.json")):
        for step in lesson_of(load(path)).steps:
            assert step.look.panel in (None, *titles), (path.name, step.title)
