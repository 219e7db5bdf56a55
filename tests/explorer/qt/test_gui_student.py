"""What a student trips over, fixed and kept fixed (pytest-qt under Xvfb).

Each test fails when its fix is undone: the results panel speaks in words and keeps the JSON
one click away, it flags methods that disagree (cross-checked only for the highlighted pair and
never on a drag step), choosing a pair brings its teaching panel to the front, labels do not
overlap or cover their anchor points, and a newly added object is in view.
"""

from __future__ import annotations

import json

import pytest

pytest.importorskip("pytestqt")

from explorer import SCENES_DIR  # noqa: E402
from explorer.qt.widgets import results_panel as rp  # noqa: E402

pytestmark = pytest.mark.gui

SEGMENTS = SCENES_DIR / "gui_segments.json"
RAY_BOX = SCENES_DIR / "gui_ray_box.json"
OBBS = SCENES_DIR / "gui_obb_obb.json"
MOVING = SCENES_DIR / "gui_moving_sphere.json"
WELCOME = SCENES_DIR / "welcome.json"


def _panel(w, qtbot):
    panel = w.results_panel
    qtbot.waitUntil(lambda: panel.detail_result is not None, timeout=3000)
    return panel


# ---------------------------------------------------------------- results panel in words
def test_summary_in_words_and_json_behind_a_button(gui_window, qtbot):
    w = gui_window(RAY_BOX)
    w.set_pair("ray", "box")
    panel = _panel(w, qtbot)
    text = panel.summary.text()
    # gui_ray_box: the ray enters the box's min-x face at t = 2.2 and leaves by max x at 3.8
    assert "They intersect" in text
    assert "t = 2.2" in text and "entry" in text and "exit at t = 3.8" in text
    assert "normal (-1, 0, 0)" in text
    assert "{" not in text  # no raw JSON in the summary
    assert not panel.detail.isVisible()  # the dump is not shown unless asked for
    panel.json_button.setChecked(True)
    assert panel.detail.isVisible() and panel.json_button.text() == "Hide JSON"
    shown = json.loads(panel.detail.toPlainText())
    assert shown["a"] == "ray" and shown["first_t"] == pytest.approx(2.2)
    copied = json.loads(panel.copy_json())
    assert copied == shown
    from PyQt6.QtGui import QGuiApplication

    assert json.loads(QGuiApplication.clipboard().text()) == shown


def test_summary_names_each_method_once():
    # a method contained in an earlier one (the distance's name cites the cast) is said once
    parts = rp.method_names(("linear-AABB distance: ends, edges; ray-AABB, Woo, A.18",
                             "ray-AABB, Woo, A.18"))
    assert parts == ["linear-AABB distance: ends, edges; ray-AABB, Woo, A.18"]


def test_summary_keeps_method_names_that_contain_a_semicolon_whole():
    # issue 10 defect: names such as "AABB overlap per axis x, y, z (Dunn & Parberry App. A.17;
    # Boreskov)" hold "; " and used to be split into two "methods"
    from algorithms import AABB, evaluate_pair

    ans = evaluate_pair(AABB((0, 0, 0), (1, 1, 1)), AABB((3, 0, 0), (4, 1, 1)))
    names = rp.method_names(ans.methods)
    assert names == list(ans.methods) and len(names) == len(set(ans.methods))
    assert any("; " in m for m in names), names  # the case this test is about exists


def test_summary_of_a_moving_pair_gives_the_time_of_impact(gui_window, qtbot):
    w = gui_window(MOVING)
    w.set_pair("ball", "wall")
    text = _panel(w, qtbot).summary.text()
    # gui_moving_sphere: centre x from -2.5 moving +4.5, radius 0.5, wall at x = 0.2:
    # contact when -2.5 + 4.5 t + 0.5 = 0.2, t = 2.2 / 4.5 = 0.48889
    assert "time t = 0.4889" in text
    assert "do not intersect" in text and "Distance <b>2.2</b>" in text


def test_summary_names_the_separating_axis(gui_window, qtbot):
    w = gui_window(OBBS)
    w.set_pair("P", "Q")
    text = _panel(w, qtbot).summary.text()
    # the inspector's separating axis A2 x B1 (A2 = z, B1 in the y-z plane) is the x axis
    assert "Separating axis (1, 0, 0) (A2xB1)" in text


def test_explain_names_a_repeated_method_once():
    from algorithms import PairAnswer
    from explorer.qt.panels.explain import to_html

    r = PairAnswer("A", "B", "ray-aabb", methods=("ray distance", "Woo, A.18", "Woo, A.18"))
    assert to_html(r).count("Woo, A.18") == 1


# ---------------------------------------------------------------- cross-check
def test_cross_check_shows_the_methods_compared(gui_window, qtbot):
    w = gui_window(SEGMENTS)
    w.set_pair("A", "B")
    panel = _panel(w, qtbot)
    qtbot.waitUntil(lambda: panel.check_report is not None, timeout=5000)
    text = panel.check_label.text()
    # segment-segment distance has two registered methods: the st-plane and GJK
    assert "agree" in text and "DISAGREE" not in text
    assert "st_plane" in text and "gjk" in text


def test_cross_check_flags_a_disagreement(gui_window, qtbot, monkeypatch):
    import algorithms.crosscheck as cc

    fake = {"distance": {"query": "distance", "agree": False, "spread": 0.5, "methods": [
        {"name": "fast", "method": "m1", "value": 1.0},
        {"name": "slow", "method": "m2", "value": 1.5}]}}
    monkeypatch.setattr(cc, "cross_check_pair", lambda *a, **k: fake)
    w = gui_window(SEGMENTS)
    w.set_pair("A", "B")
    panel = _panel(w, qtbot)
    qtbot.waitUntil(lambda: panel.check_report is not None, timeout=5000)
    text = panel.check_label.text()
    assert "DISAGREE" in text and "fast = 1" in text and "slow = 1.5" in text


def test_cross_check_only_once_the_drag_pauses(gui_window, qtbot, monkeypatch):
    import algorithms.crosscheck as cc

    calls = []
    real = cc.cross_check_pair
    monkeypatch.setattr(cc, "cross_check_pair",
                        lambda *a, **k: calls.append(a) or real(*a, **k))
    w = gui_window(WELCOME)  # three query pairs; the chosen one is checked
    w.set_pair("seg", "ball")
    panel = _panel(w, qtbot)
    qtbot.waitUntil(lambda: panel.check_report is not None, timeout=5000)
    assert len(calls) == 1  # one pair only, not every pair of the scene
    calls.clear()
    w.select("ball")
    for i in range(6):  # six drag steps, each followed by the results panel's update
        w.drag_handle("ball", "center", (1.5 + 0.05 * i, 0.0, 1.0))
        qtbot.wait(20)
    assert calls == []  # nothing while the sphere moves
    qtbot.waitUntil(lambda: len(calls) == 1, timeout=3000)
    qtbot.wait(rp.CROSS_CHECK_DELAY_MS + 100)
    assert len(calls) == 1
    assert calls[0][1].center == pytest.approx((1.75, 0.0, 1.0))  # the last position


# ---------------------------------------------------------------- the right panel in front
@pytest.mark.parametrize("path, pair, front", [
    (SEGMENTS, ("A", "B"), ["st-plane"]),
    (OBBS, ("P", "Q"), ["Results", "Separating axes"]),
    (MOVING, ("ball", "wall"), ["Results", "Time line"]),
])
def test_choosing_a_pair_raises_its_panel(gui_window, qtbot, path, pair, front):
    w = gui_window(path, with_panels=True)
    w.set_pair(None, None)
    docks = {d.windowTitle(): d for d in [w.results_dock, *w.panel_docks]}
    for title in docks:  # every other panel in front first: the choice must bring ours back
        if title not in front:
            docks[title].raise_()
    qtbot.wait(10)
    w.set_pair(*pair)
    for title in front:  # in front of its tab group: some of it is really on screen
        qtbot.waitUntil(lambda d=docks[title]: not d.visibleRegion().isEmpty(), timeout=3000)
    behind = [t for t in docks if t not in front and t != "Explain"]
    assert any(docks[t].visibleRegion().isEmpty() for t in behind)


# ---------------------------------------------------------------- labels
def _overlap(r, q) -> bool:
    return min(r[2], q[2]) > max(r[0], q[0]) and min(r[3], q[3]) > max(r[1], q[1])


@pytest.mark.parametrize("path", [WELCOME, RAY_BOX, MOVING])
def test_labels_do_not_overlap_nor_cover_anchors(gui_window, qtbot, path):
    w = gui_window(path)
    w.refresh()
    w.viewport.render()
    rects = w.viewport.label_rects
    assert len(rects) >= 2
    ren = w.viewport.plotter.renderer
    anchors = []
    for name in w.viewport.view.label_actors():
        ren.SetWorldPoint(*w.viewport.view.label_state(name)[1], 1.0)
        ren.WorldToDisplay()
        anchors.append(ren.GetDisplayPoint()[:2])
    boxes = list(rects.values())
    for i, r in enumerate(boxes):
        for q in boxes[i + 1:]:
            assert not _overlap(r, q), (r, q)
        for x, y in anchors:
            assert not (r[0] < x < r[2] and r[1] < y < r[3]), "a label hides a marker"
    # the drawn text really moved to its placed rectangle
    width, height = ren.GetSize()
    for name, r in rects.items():
        assert r[0] >= 0 and r[1] >= 0 and r[2] <= width and r[3] <= height, "cut off"
        actor = w.viewport.view.label_actors()[name]
        x, y = actor.GetPositionCoordinate().GetComputedDisplayValue(ren)
        assert (x, y) == pytest.approx((r[0], r[1]), abs=1.5)


def test_labels_leave_the_hit_normals_visible(gui_window):
    # gui_ray_box: each hit has a normal arrow starting at the hit point; a label put at its
    # first place (up and right of the point) would lie over the entry normal in this view
    w = gui_window(RAY_BOX)
    w.refresh()
    w.viewport.render()
    marks = w.viewport._overlay_marks(*w.viewport.plotter.renderer.GetSize())
    assert len(marks) > 10
    for r in w.viewport.label_rects.values():
        inside = ((marks[:, 0] > r[0]) & (marks[:, 0] < r[2]) & (marks[:, 1] > r[1])
                  & (marks[:, 1] < r[3]))
        assert inside.sum() <= 2, r


def test_declutter_off_leaves_labels_on_their_anchors(gui_window):
    # the control case: without the pass, the ray-box hit labels sit on the hit points
    w = gui_window(RAY_BOX)
    w.viewport.declutter_labels = False
    w.refresh()
    for name, actor in w.viewport.view.label_actors().items():
        actor.GetPositionCoordinate().SetValue(*w.viewport.view.label_state(name)[1])
    w.viewport.render()
    assert w.viewport.label_rects == {}


# ---------------------------------------------------------------- adding objects
def test_each_added_object_is_in_view(gui_window):
    from algorithms.primitives import TYPES

    w = gui_window(SEGMENTS)
    w.viewport.plotter.camera.zoom(4.0)  # a student zoomed in on the segments
    w.viewport.render()
    for kind in TYPES:
        obj = w.add_object(kind)
        assert w.viewport.in_view(obj.id), kind


def test_the_chosen_pair_is_listed_beside_the_selected_objects_pairs(gui_window, qtbot):
    # welcome: the sphere selected lists its four pairs; the chosen ray-box pair is added,
    # highlighted, and described
    w = gui_window(WELCOME)
    w.select("ball")
    w.set_pair("ray", "box")
    panel = _panel(w, qtbot)
    qtbot.waitUntil(lambda: len(panel.results) == 5, timeout=3000)
    assert ("ray", "box") in [r.ids for r in panel.results]
    qtbot.waitUntil(lambda: panel.detail_result and panel.detail_result.a == "ray",
                    timeout=3000)
    assert "t = 2" in panel.summary.text()


def test_contact_normal_at_impact_is_slim(gui_window, qtbot):
    # gui_moving_sphere at its time of impact: the contact normal arrow is drawn, and it is
    # thinner than the sphere it touches (radius 0.5): it must not hide the contact
    w = gui_window(MOVING, with_panels=True)
    w.set_pair("ball", "wall")
    dock = next(d for d in w.panel_docks if d.windowTitle() == "Time line")
    dock.raise_()
    tl = dock.widget()
    qtbot.waitUntil(lambda: tl.toi is not None, timeout=3000)
    tl.jump_to_impact()
    pts = w.viewport.view.overlay_meshes()["timeline:normal"].points
    # the arrow points along +x (from the ball towards the wall): its width is across y and z
    width = max(pts[:, 1].max() - pts[:, 1].min(), pts[:, 2].max() - pts[:, 2].min())
    # scene extent ~5.6, marker r = 2 % of it: the arrow tip is 2 * 0.07 * 7 r ~ 0.11 wide
    assert 0 < width < 0.2


def test_typed_obb_axis_is_kept_by_reorthonormalize(gui_window):
    import numpy as np
    from PyQt6.QtWidgets import QPushButton

    w = gui_window(OBBS)
    w.select("P")
    panel = w.property_panel
    before = w.scene["P"].primitive.axes
    for c, v in enumerate((0.0, 1.0, 1.0)):  # the student types axes[1] = (0, 1, 1)
        panel.spins[("axes", 1, c)].setValue(v)
    assert w.scene["P"].primitive.axes == before  # refused: not orthonormal
    assert "Re-orthonormalize" in panel.error_text()
    button = next(b for b in panel.findChildren(QPushButton)
                  if b.text() == "Re-orthonormalize axes")
    button.click()
    axes = np.array(w.scene["P"].primitive.axes)
    # the typed row keeps its direction, (0, 1, 1) / sqrt(2); the set is a rotation
    assert axes[1] == pytest.approx([0.0, 2 ** -0.5, 2 ** -0.5])
    assert axes @ axes.T == pytest.approx(np.eye(3), abs=1e-12)
    assert np.linalg.det(axes) == pytest.approx(1.0)


# ---------------------------------------------------------------- the time line and answers
def test_answers_about_t0_are_hidden_while_another_time_is_shown(gui_window, qtbot):
    # The closest points and their label describe the objects where the file puts them; when
    # the time line moves the sphere they would point at where it was, so they hide until the
    # time is back at 0. The motion ghosts stay.
    w = gui_window(MOVING)
    view = w.viewport.view
    qtbot.waitUntil(lambda: any(n.startswith("ov:closest:") for n in view.overlay_meshes()),
                    timeout=3000)

    def shown(prefix):
        actors = [a for n, a in view.overlay_actors().items() if n.startswith(prefix)]
        actors += [a for n, a in view.label_actors().items() if n.startswith(prefix)]
        return [bool(a.GetVisibility()) for a in actors]

    assert shown("ov:closest:") and all(shown("ov:closest:"))
    w.viewport.set_time(0.5)
    assert not any(shown("ov:closest:"))
    assert any(shown("ov:motion:"))
    w.viewport.set_time(0.0)
    assert all(shown("ov:closest:"))


def test_the_first_pairs_panel_is_in_front_when_the_window_opens(gui_window, qtbot):
    # `explorer open gui_obb_obb.json` used to show the Explain tab: raising a dock before the
    # window was on screen did nothing. Now the first show raises the pair's panels.
    w = gui_window(OBBS, with_panels=True)
    docks = {d.windowTitle(): d for d in [w.results_dock, *w.panel_docks]}
    qtbot.waitUntil(lambda: not docks["Separating axes"].visibleRegion().isEmpty(), timeout=3000)
    assert docks["Explain"].visibleRegion().isEmpty()
