"""Handling like a 3-D tool (issue 13, part 4): camera presets, orthographic, drag locks, grip
labels, presentation mode."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from vtkmodules.vtkCommonCore import vtkCommand

from explorer import SCENES_DIR
from explorer.model.drag import grip_label, lock_position

WELCOME = SCENES_DIR / "welcome.json"


def widget_drag(window, handle, path):
    """Drag grip ``handle`` through ``path`` as VTK does (start, one move per point, end)."""
    w = dict(window.viewport._grips)[handle]
    w.InvokeEvent(vtkCommand.StartInteractionEvent)
    for p in path:
        w.SetCenter(*p)
        w.InvokeEvent(vtkCommand.InteractionEvent)
    w.InvokeEvent(vtkCommand.EndInteractionEvent)


# ----------------------------------------------------------------------------- no Qt: the locks

coord = st.floats(-100, 100, allow_nan=False)
vec3 = st.tuples(coord, coord, coord)


@given(vec3, vec3)
def test_axis_lock_moves_one_coordinate_the_one_that_moved_most(start, pos):
    held = lock_position(start, pos, "axis")
    changed = [i for i in range(3) if held[i] != start[i]]
    assert len(changed) <= 1
    d = np.abs(np.subtract(pos, start))
    i = int(np.argmax(d))
    assert held[i] == pos[i]  # the dominant coordinate follows the mouse exactly


@given(vec3, vec3, vec3.filter(lambda n: max(map(abs, n)) > 1e-6))
def test_plane_lock_keeps_the_coordinate_facing_the_camera(start, pos, normal):
    held = lock_position(start, pos, "plane", normal)
    k = int(np.argmax(np.abs(normal)))
    assert held[k] == float(start[k])
    assert all(held[i] == float(pos[i]) for i in range(3) if i != k)


def test_lock_by_hand_and_bad_mode():
    # a drag from the origin to (0.3, -2, 0.1) is mostly along y: only y follows
    assert lock_position((0, 0, 0), (0.3, -2.0, 0.1), "axis") == (0.0, -2.0, 0.0)
    # seen from the front (normal -y), the plane lock keeps y
    assert lock_position((1, 2, 3), (4, 5, 6), "plane", (0, -1, 0)) == (4.0, 2.0, 6.0)
    assert lock_position((1, 2, 3), (4, 5, 6), None) == (4.0, 5.0, 6.0)
    with pytest.raises(ValueError, match="lock"):
        lock_position((0, 0, 0), (1, 1, 1), "diagonal")


def test_grip_labels_name_the_ends():
    assert grip_label("p0") == "p0" and grip_label("center") == "centre"
    assert grip_label("x+") == "max x" and grip_label("end1") == "end 1"


# ----------------------------------------------------------------------------- the window


@pytest.mark.parametrize("name,normal", [("top", (0, 0, 1)), ("front", (0, -1, 0)),
                                         ("side", (1, 0, 0)),
                                         ("iso", tuple(np.ones(3) / np.sqrt(3)))])
def test_camera_presets_look_along_their_axis(gui_window, name, normal):
    w = gui_window(WELCOME)
    w.camera_actions[name].trigger()
    cam = w.viewport.plotter.camera
    # VTK's view plane normal points from the focal point to the camera
    assert np.allclose(cam.GetViewPlaneNormal(), normal, atol=1e-9)
    # the whole scene is framed: every object's actor lies in view
    assert all(w.viewport.in_view(i, margin=0.0) for i in w.scene.ids()
               if w.scene[i].kind not in ("ray", "line", "plane"))


def test_orthographic_toggle(gui_window):
    w = gui_window(WELCOME)
    assert not w.handling.orthographic()
    w.act_ortho.trigger()
    assert w.handling.orthographic() and w.viewport.plotter.camera.GetParallelProjection()
    w.act_ortho.trigger()
    assert not w.handling.orthographic()


def test_grip_labels_follow_the_grips(gui_window):
    w = gui_window(WELCOME)
    w.select("seg")
    view = w.viewport.view

    def grip_labels():
        return {k.split(":", 1)[1]: view.label_state(k) for k in view.label_actors()
                if k.startswith("grip-label:")}

    names = grip_labels()
    assert set(names) == {"p0", "p1", "center"}
    assert names["p0"][0] == "p0" and names["center"][0] == "centre"
    seg = w.scene["seg"].primitive
    assert names["p0"][1] == pytest.approx(seg.p0)
    widget_drag(w, "p0", [(-1.0, -1.0, 0.5)])
    state = view.label_state("grip-label:p0")
    assert state[1] == pytest.approx((-1.0, -1.0, 0.5))
    w.act_grip_labels.trigger()  # off
    assert not grip_labels()
    w.act_grip_labels.trigger()
    w.select("ball")
    texts = {s[0] for s in grip_labels().values()}
    assert texts == {"centre", "radius"}


def test_a_drag_step_moves_the_grip_labels_in_place(gui_window):
    # issue 12: each step removed the grip labels' text actors and made new ones (a font
    # rasterisation and a texture each in the render); now the same actors move
    w = gui_window(WELCOME)
    w.select("seg")
    view = w.viewport.view
    before = {k: a for k, a in view.label_actors().items() if k.startswith("grip-label:")}
    assert set(before) == {"grip-label:p0", "grip-label:p1", "grip-label:center"}
    widget_drag(w, "p0", [(-1.0, -1.0, 0.5), (-1.2, -1.0, 0.5)])
    after = {k: a for k, a in view.label_actors().items() if k.startswith("grip-label:")}
    assert set(after) == set(before) and all(after[k] is before[k] for k in before)
    assert view.label_state("grip-label:p0")[1] == pytest.approx((-1.2, -1.0, 0.5))
    # the centre grip's label followed the segment's new midpoint: ((-1.2 + 1) / 2, ...)
    seg = w.scene["seg"].primitive
    mid = tuple((a + b) / 2 for a, b in zip(seg.p0, seg.p1))
    assert view.label_state("grip-label:center")[1] == pytest.approx(mid)
    w.select("ball")  # other grips: the segment's labels go, the sphere's come
    names = {k for k in view.label_actors() if k.startswith("grip-label:")}
    assert names == {"grip-label:center", "grip-label:radius"}


def test_axis_lock_holds_a_drag_to_the_axis_it_moves_most_along(gui_window):
    w = gui_window(WELCOME)
    w.select("ball")
    c0 = w.scene["ball"].primitive.center
    w.lock_actions["axis"].trigger()
    # the mouse wanders: +0.6 in x, a little in y and z (depth drift); only x may change
    widget_drag(w, "center", [(c0[0] + 0.3, c0[1] + 0.05, c0[2] - 0.04),
                              (c0[0] + 0.6, c0[1] + 0.1, c0[2] + 0.07)])
    c1 = w.scene["ball"].primitive.center
    assert c1 == pytest.approx((c0[0] + 0.6, c0[1], c0[2]))
    # the grip itself sits where the object is
    assert w.viewport.grip_position("center") == pytest.approx(c1)


def test_plane_lock_in_the_top_view_keeps_the_height(gui_window):
    w = gui_window(WELCOME)
    w.camera_actions["top"].trigger()
    w.select("ball")
    c0 = w.scene["ball"].primitive.center
    w.lock_actions["plane"].trigger()
    widget_drag(w, "center", [(c0[0] + 0.5, c0[1] - 0.4, c0[2] + 0.3)])
    assert w.scene["ball"].primitive.center == pytest.approx((c0[0] + 0.5, c0[1] - 0.4, c0[2]))
    w.lock_actions[None].trigger()  # free again: the depth follows the grip
    widget_drag(w, "center", [(c0[0], c0[1], c0[2] + 0.3)])
    assert w.scene["ball"].primitive.center == pytest.approx((c0[0], c0[1], c0[2] + 0.3))


def test_presentation_mode_enlarges_the_fonts(gui_window):
    w = gui_window(WELCOME)
    w.select("seg")
    labels = w.viewport.view.label_actors
    assert labels() and all(a.GetTextProperty().GetFontSize() == 15 for a in labels().values())
    w.act_present.trigger()
    assert "font-size: 16pt" in w.styleSheet()
    assert all(a.GetTextProperty().GetFontSize() == 24 for a in labels().values())
    w.select("ball")  # labels made while presenting are large too
    assert all(a.GetTextProperty().GetFontSize() == 24 for a in labels().values())
    w.act_present.trigger()
    assert "font-size" not in w.styleSheet()
    assert all(a.GetTextProperty().GetFontSize() == 15 for a in labels().values())


def test_camera_keys_do_not_steal_digits_typed_into_a_field(gui_window, qtbot):
    from PyQt6.QtCore import Qt

    w = gui_window(SCENES_DIR / "lessons" / "01_segment_distance.json")
    w.camera_preset("iso")
    before = w.viewport.plotter.camera.GetViewPlaneNormal()
    edit = w.lesson_panel.answer_edit
    w.lesson_dock.raise_()
    edit.setFocus()
    qtbot.waitUntil(edit.hasFocus, timeout=3000)
    qtbot.keyClicks(edit, "1.7")  # 1 and 7 are the front and top views elsewhere
    assert edit.text() == "1.7"
    assert w.viewport.plotter.camera.GetViewPlaneNormal() == pytest.approx(before)
    w.viewport.plotter.interactor.setFocus()
    qtbot.keyClick(w, Qt.Key.Key_7)  # outside a field the key turns the camera
    assert w.viewport.plotter.camera.GetViewPlaneNormal() == pytest.approx((0, 0, 1))


def test_bound_these_adds_an_aabb_and_a_sphere_in_one_undo_step(gui_window, monkeypatch):
    from algorithms.extras.containment import bound_aabb, bound_sphere
    from explorer.qt import bounding

    w = gui_window(WELCOME)
    w.select("ball")
    asked = {}

    def choose(window, ids, checked):
        asked["ids"], asked["checked"] = ids, checked
        return ["ball", "box"]

    monkeypatch.setattr(bounding, "choose_objects", choose)
    n = len(w.scene)
    w.act_bound.trigger()
    assert "ray" not in asked["ids"] and "ball" in asked["checked"]  # rays are unbounded
    assert len(w.scene) == n + 2
    box, ball = w.scene["bounds_box1"].primitive, w.scene["bounds_sphere1"].primitive
    prims = [w.scene["ball"].primitive, w.scene["box"].primitive]
    assert box == bound_aabb(prims) and ball == bound_sphere(prims)
    # both inputs are inside: the library's containment answers agree
    from algorithms.extras.containment import aabb_contains_aabb, sphere_contains_sphere

    assert aabb_contains_aabb(box, w.scene["box"].primitive)
    assert sphere_contains_sphere(ball, w.scene["ball"].primitive)
    w.undo()
    assert len(w.scene) == n


def test_hollow_toggle_changes_the_answer_and_undoes(gui_window):
    from algorithms import AABB, Sphere

    w = gui_window(WELCOME)
    ball = w.scene.add(Sphere((0, 0, 5), 3), id="H")
    w.scene.add(AABB((-1, -1, 4), (1, 1, 6)), id="Bx")
    w.select("H")
    assert w.evaluator.result(w.scene, "H", "Bx").intersects is True
    w.act_hollow.trigger()
    assert w.scene["H"].hollow
    r = w.evaluator.result(w.scene, "H", "Bx")
    assert r.intersects is False and r.contains == "none"  # the box sits inside the shell
    w.undo()
    assert not w.scene["H"].hollow and ball.id == "H"
    w.select("seg")
    assert w.act_hollow.isEnabled() and not __import__("explorer.qt.bounding",
                                                       fromlist=["x"]).toggle_hollow(w)
