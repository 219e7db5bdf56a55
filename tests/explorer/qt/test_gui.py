"""The explorer window (issue 6) driven as a user would, under Xvfb with pytest-qt.

Drags go through the grip widgets' own VTK events (``StartInteractionEvent``,
``InteractionEvent``, ``EndInteractionEvent`` on the ``vtkSphereWidget``), i.e. the very callback
a mouse drag runs.
"""

from __future__ import annotations

import json

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from PyQt6.QtCore import Qt  # noqa: E402
from vtkmodules.vtkCommonCore import vtkCommand  # noqa: E402

from algorithms import Sphere  # noqa: E402
from algorithms.primitives import TYPES  # noqa: E402
from explorer import SCENES_DIR  # noqa: E402
from explorer.model.scene import Scene  # noqa: E402

pytestmark = pytest.mark.gui

WELCOME = SCENES_DIR / "welcome.json"


def widget_drag(window, handle: str, path) -> None:
    """Drag grip ``handle`` of the selected object through the points of ``path`` exactly as
    VTK does when the mouse drags it: start, one InteractionEvent per move, end."""
    w = dict(window.viewport._grips)[handle]
    w.InvokeEvent(vtkCommand.StartInteractionEvent)
    for p in path:
        w.SetCenter(*p)
        w.InvokeEvent(vtkCommand.InteractionEvent)
    w.InvokeEvent(vtkCommand.EndInteractionEvent)


def mesh_points(window, obj_id):
    return np.array(window.viewport.view.meshes[obj_id].points, dtype=float)


def overlay_points(window, prefix):
    """{name: points} of the overlays whose name starts with ``prefix``."""
    out = {}
    for name, mesh in window.viewport.view.overlay_meshes().items():
        if name.startswith(prefix):
            out[name] = np.array(mesh.points, dtype=float)
    return out


def test_window_has_an_actor_per_object(gui_window):
    w = gui_window(WELCOME)
    ids = w.scene.ids()
    assert sorted(w.viewport.view.actors) == sorted(ids)
    # each object keeps its own actor (colour, visibility, picking); the renderer draws the
    # objects with one actor per look, which hold every shown object (issue 12 part 3)
    batches = w.viewport.view.object_batches
    batches.sync()
    names = set(w.viewport.plotter.renderer.actors)
    drawn = [i for a in batches.actors() for i in batches.ids_of(a)]
    assert sorted(drawn) == sorted(ids)
    assert len(batches.actors()) < len(ids)
    assert all(n.startswith("objm:") or not n.startswith("obj:") for n in names)
    # the answers of the welcome scene's three queries are drawn
    assert any(n.startswith("ov:closest:seg:ball") for n in w.viewport.view.overlay_names())
    assert any(n.startswith("ov:hits:ray:box") for n in w.viewport.view.overlay_names())


def test_every_shipped_scene_opens(gui_window):
    w = gui_window()
    scenes = sorted(SCENES_DIR.glob("*.json"))
    assert len(scenes) >= 5
    for p in scenes:
        assert w.open_file(p), (p, w.dialogs.errors)
        assert sorted(w.viewport.view.actors) == sorted(w.scene.ids()), p
        assert len(w.last_results) == len(w.overlay_pairs())
    assert w.dialogs.errors == []


def test_viewport_screenshot_is_not_blank(gui_window, tmp_path):
    w = gui_window(SCENES_DIR / "gui_ray_box.json")
    img = w.viewport.screenshot()
    assert img.ndim == 3 and img.shape[0] > 100
    assert float(img.std()) > 10.0  # a blank (one-colour) image has std 0
    # the box's colour (Okabe-Ito blue #0072B2 blended) differs from the background somewhere
    bg = np.array([0xf4, 0xf5, 0xf7])
    assert (np.abs(img[..., :3].astype(int) - bg).sum(axis=-1) > 60).mean() > 0.01
    out = tmp_path / "view.png"
    assert w.export_png(out) and out.stat().st_size > 1000


def test_add_each_type_drag_and_undo(gui_window):
    """Add from the toolbar action, drag every grip, check model, fields, actors; undo."""
    w = gui_window()
    for kind in TYPES:
        w.set_document(Scene("one type"))
        check_add_drag_undo(w, kind)


def check_add_drag_undo(w, kind):
    ref = w.scene.add(Sphere((0.0, 3.0, 0.5), 0.5), id="ref")
    w.add_actions[kind].trigger()
    obj_id = w.selected_id
    assert obj_id is not None and w.scene[obj_id].kind == kind
    assert obj_id in w.viewport.view.actors
    grips = w.viewport.grip_names()
    assert grips, kind
    for handle in grips:
        before = w.scene[obj_id].primitive
        undo_depth = len(w.undo_stack._undo)
        pts_before = mesh_points(w, obj_id)
        start = np.array(w.viewport.grip_position(handle))
        # a three-step drag that ends 0.3 along a direction off every axis
        step = np.array([0.11, 0.07, 0.13])
        widget_drag(w, handle, [start + step, start + 2 * step, start + 3 * step])
        after = w.scene[obj_id].primitive
        assert after != before, (kind, handle)
        assert len(w.undo_stack._undo) == undo_depth + 1, "one undo step per drag"
        assert not np.allclose(mesh_points(w, obj_id), pts_before), (kind, handle)
        # the pair's closest-point overlay shows the new answer (the scene's pairs are in file
        # order: ref first)
        ov = overlay_points(w, f"ov:closest:{ref.id}:{obj_id}:pts")
        expected = w.scene.evaluate_pair(ref.id, obj_id)["closest"]
        assert np.allclose(ov[f"ov:closest:{ref.id}:{obj_id}:pts"], expected), (kind, handle)
        # the fields follow (after the event loop turns)
        w._refresh_properties()
        fields = after.to_fields()
        for (name, row, col), spin in w.property_panel.spins.items():
            if name == "motion":
                continue
            v = fields[name] if col is None else (fields[name][col] if row is None
                                                  else fields[name][row][col])
            assert abs(spin.value() - v) <= 10 ** -spin.decimals(), (kind, name)
        actor = w.viewport.view.actors[obj_id]
        w.undo()
        assert w.scene[obj_id].primitive == before, (kind, handle)
        assert np.allclose(mesh_points(w, obj_id), pts_before), (kind, handle)
        assert w.viewport.view.actors[obj_id] is actor  # undo of a drag refills, no rebuild
        w.select(obj_id)


def test_drag_of_sphere_center_follows_the_grip_exactly(gui_window):
    w = gui_window(WELCOME)
    w.select("ball")
    widget_drag(w, "center", [(1.5, 0.0, 1.2), (1.0, 0.5, 1.4)])
    assert w.scene["ball"].primitive.center == (1.0, 0.5, 1.4)
    assert w.scene["ball"].primitive.radius == 0.8
    # radius grip: distance from the centre (0.5, 0, 0) -> radius 0.5; then snapping
    widget_drag(w, "radius", [(1.5, 0.5, 1.4)])
    assert w.scene["ball"].primitive.radius == pytest.approx(0.5)
    w.act_snap.setChecked(True)
    w.grid_step.setValue(0.25)
    widget_drag(w, "center", [(0.9, 0.62, 1.13)])
    assert w.scene["ball"].primitive.center == (1.0, 0.5, 1.25)
    # the result rows follow: seg-ball distance recomputed from the new centre
    r = w.evaluator.result(w.scene, "seg", "ball")
    assert r.distance == pytest.approx(w.scene.answer("seg", "ball").distance)


def test_property_fields_update_at_once_and_refuse_bad_values(gui_window):
    w = gui_window(WELCOME)
    w.select("ball")
    panel = w.property_panel
    pts0 = mesh_points(w, "ball")
    panel.set_field("radius", -1.0)
    assert w.scene["ball"].primitive.radius == 0.8  # refused, scene kept
    assert "radius" in panel.error_text() and ">= 0" in panel.error_text()
    panel.set_field("radius", 1.6)
    assert w.scene["ball"].primitive.radius == 1.6
    assert panel.error_text() == ""
    # the mesh doubled around the centre at once (no event loop turn needed)
    c = np.array(w.scene["ball"].primitive.center)
    r0 = np.linalg.norm(pts0 - c, axis=1).max()
    r1 = np.linalg.norm(mesh_points(w, "ball") - c, axis=1).max()
    assert r1 == pytest.approx(2 * r0, rel=1e-6)
    # an AABB with min > max is refused with the field named
    w.select("box")
    w.property_panel.set_field("min", [5.0, 2.0, 0.0])
    assert w.scene["box"].primitive.min == (-1.0, 2.0, 0.0)
    assert "min[0]" in w.property_panel.error_text()
    # typing into one component keeps every other number exactly (no rounding to 4 decimals)
    w.select("tilted")
    w.property_panel.set_field("center", [2.5, 2.5, 0.8])
    assert w.scene["tilted"].primitive.axes == ((0.8, 0.6, 0.0), (-0.6, 0.8, 0.0), (0.0, 0.0, 1.0))
    assert w.scene["tilted"].primitive.center == (2.5, 2.5, 0.8)


def test_bad_file_shows_the_message_and_keeps_the_scene(gui_window, tmp_path):
    w = gui_window(WELCOME)
    ids = w.scene.ids()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "intersection-explorer-scene", "version": 1,
                               "objects": [{"id": "S", "type": "sphere", "center": [0, 0, 0],
                                            "radius": -2}]}))
    assert not w.open_file(bad)
    assert w.scene.ids() == ids and w.path == WELCOME
    (title, text), = w.dialogs.errors
    assert "'S'" in text and "radius" in text
    assert sorted(w.viewport.view.actors) == sorted(ids)
    (tmp_path / "junk.json").write_text("{not json")
    assert not w.open_file(tmp_path / "junk.json")
    assert "not valid JSON" in w.dialogs.errors[-1][1]
    assert w.scene.ids() == ids


def test_a_failing_query_shows_its_error_on_the_pair(gui_window, monkeypatch):
    import algorithms.registry as registry

    real = registry.query

    def broken(name, a, b, *args, **kw):
        if {a.kind, b.kind} == {"segment", "sphere"}:
            raise RuntimeError("boom")
        return real(name, a, b, *args, **kw)

    monkeypatch.setattr(registry, "query", broken)
    w = gui_window(WELCOME)
    w.select("ball")
    w._update_results_panel()
    rows = {w.results_panel.tree.topLevelItem(i).text(0).split()[0]:
            w.results_panel.tree.topLevelItem(i) for i in range(w.results_panel.tree.topLevelItemCount())}
    assert "boom" in rows["seg–ball"].text(7) and rows["seg–ball"].text(7).startswith("error")
    assert "error" not in rows["ball–box"].text(7)
    # the window keeps working: a drag of the sphere still updates the other pairs
    widget_drag(w, "center", [(1.5, 0.2, 1.0)])
    assert w.scene["ball"].primitive.center == (1.5, 0.2, 1.0)


def test_scene_panel_edits_are_undoable(gui_window, qtbot):
    w = gui_window(WELCOME)
    n = len(w.scene)
    w.select("ball")
    dup = w.duplicate_selected()
    assert len(w.scene) == n + 1 and dup.primitive.radius == 0.8
    assert w.scene.index(dup.id) == w.scene.index("ball") + 1
    w.select("ball")
    w.toggle_hidden()
    assert w.scene["ball"].hidden and not w.viewport.view.actors["ball"].GetVisibility()
    w.recolor_selected()
    assert w.scene["ball"].color == "#ff00ff"
    assert w.viewport.view.colors["ball"] == pytest.approx((1.0, 0.0, 1.0))
    w.edit("ball", "Rename", label="big ball")
    assert w.scene_panel._item_for("ball").text(0) == "big ball"
    # Delete key and Ctrl+Z / Ctrl+Shift+Z
    w.select("box")
    w.scene_panel.tree.setFocus()
    qtbot.keyClick(w.scene_panel.tree, Qt.Key.Key_Delete)
    assert "box" not in w.scene and "box" not in w.viewport.view.actors
    qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)
    assert "box" in w.scene and "box" in w.viewport.view.actors
    qtbot.keyClick(w, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier
                   | Qt.KeyboardModifier.ShiftModifier)
    assert "box" not in w.scene
    for _ in range(5):
        w.undo()
    assert w.scene["ball"].label == "sphere" and not w.scene["ball"].hidden
    assert w.scene["ball"].color is None and len(w.scene) == n


def test_frame_selection_moves_the_camera(gui_window, qtbot):
    w = gui_window(WELCOME)
    w.select("ball")
    before = [tuple(v) for v in w.viewport.plotter.camera_position]
    w.viewport.plotter.interactor.setFocus()
    qtbot.keyClick(w, Qt.Key.Key_F)
    after = [tuple(v) for v in w.viewport.plotter.camera_position]
    assert not np.allclose(np.array(before), np.array(after))
    # the focal point is the sphere's centre
    assert np.allclose(after[1], (1.5, 0.0, 1.0), atol=1e-6)


def test_save_open_recent_and_unsaved_prompt(gui_window, tmp_path):
    w = gui_window(WELCOME)
    w.select("ball")
    w.property_panel.set_field("radius", 0.3)
    assert w.dirty and w.windowTitle().startswith("*")
    # New with unsaved changes: Cancel keeps everything
    w.dialogs.unsaved_answer = "cancel"
    assert not w.new_scene()
    assert w.scene["ball"].primitive.radius == 0.3
    out = tmp_path / "mine.json"
    w.dialogs.next_path = str(out)
    assert w.save_as()
    assert not w.dirty and json.loads(out.read_text())["objects"][1]["radius"] == 0.3
    assert str(out.resolve()) == w.recent_files()[0]
    w.dialogs.unsaved_answer = "discard"
    assert w.new_scene() and len(w.scene) == 0
    assert w.open_file(w.recent_files()[0])
    assert w.scene["ball"].primitive.radius == 0.3
    # the camera was saved with the scene and comes back
    assert "camera" in w.scene.view


def test_autosave_and_recovery_after_a_crash(gui_window, state_dir):
    w = gui_window(WELCOME)
    w.select("ball")
    w.property_panel.set_field("radius", 0.25)
    assert w.autosave()
    rec = w.documents.slot.path
    assert rec.exists() and rec.parent == state_dir
    assert not w.autosave()  # nothing new since
    # a second window while the first one lives: the first one's work is not offered
    w2 = gui_window()
    assert not w2.offer_recovery() and w2.dialogs.asked == [] and rec.exists()
    # "crash": the first window's process dies (its lock goes, its files stay)
    w.documents.slot.release()
    w3 = gui_window()
    assert w3.offer_recovery()
    assert w3.dialogs.asked == ["recover"]
    assert w3.scene["ball"].primitive.radius == 0.25 and w3.dirty
    assert w3.path == WELCOME
    assert not rec.exists()  # adopted: w3 protects it with its own recovery file
    # a clean save removes that one too
    w3.dialogs.next_path = str(state_dir / "saved.json")
    w3.save_as()
    assert not w3.documents.slot.path.exists()


def test_pair_hooks_and_broken_panels(gui_window, monkeypatch):
    import explorer.qt.panels as panels

    def broken(scene, workspace, commands, viewport, evaluator):
        raise RuntimeError("panel exploded")

    made = []

    def good(scene, workspace, commands, viewport, evaluator):
        from PyQt6.QtWidgets import QLabel

        made.append((scene, workspace, commands, viewport, evaluator))
        return QLabel("ok")

    monkeypatch.setattr(panels, "PANELS", [("Broken", broken), ("Good", good)], raising=False)
    w = gui_window(WELCOME, with_panels=True)
    assert any("panel exploded" in e for e in w.panel_errors)
    # a panel gets the model and the viewport, never the window
    assert made and made[0] == (w.scene, w.workspace, w.commands, w.viewport, w.evaluator)
    assert not any(arg is w for arg in made[0])
    assert w.current_pair() == ("seg", "ball")  # the scene's first query
    seen = []
    w.pair_changed.connect(lambda a, b: seen.append((a, b)))
    w.set_pair("box", "tilted")
    assert seen == [("box", "tilted")] and w.current_pair() == ("box", "tilted")
    w.set_pair(None, None)
    w.select("ray")
    assert seen[-1] == ("ray", "") and w.current_pair() == ("ray", None)
    # viewport hooks
    import pyvista as pv

    vp = w.viewport
    vp.add_overlay("panel:test:a", pv.Sphere(radius=0.1), color="red")
    vp.add_overlay("panel:test:b", pv.Sphere(radius=0.2), color="red")
    assert {"panel:test:a", "panel:test:b"} <= set(vp.view.overlay_names())
    vp.remove_overlay("panel:test")
    assert not any(n.startswith("panel:test") for n in vp.view.overlay_names())


def test_set_time_draws_moving_objects_at_t(gui_window):
    w = gui_window(SCENES_DIR / "gui_moving_sphere.json")
    c0 = mesh_points(w, "ball").mean(axis=0)
    w.viewport.set_time(0.5)
    c1 = mesh_points(w, "ball").mean(axis=0)
    assert np.allclose(c1 - c0, 0.5 * np.array([4.5, -0.4, 0.0]))
    # the toi ghost sits at centre + toi * motion (toi: the ball of radius 0.5 starting at
    # x = -2.5 touches the wall's face x = 0.2 when -2.5 + 4.5 t + 0.5 = 0.2, t = 2.2 / 4.5)
    r = w.evaluator.result(w.scene, "ball", "wall")
    assert r.toi == pytest.approx(2.2 / 4.5)
    ghost = overlay_points(w, "ov:toi:ball:wall:ghost:ball")["ov:toi:ball:wall:ghost:ball"]
    assert np.allclose(ghost.mean(axis=0), c0 + r.toi * np.array([4.5, -0.4, 0.0]),
                       atol=1e-9)
    w.viewport.set_time(0.0)
    assert np.allclose(mesh_points(w, "ball").mean(axis=0), c0)


def test_overlay_toggles(gui_window):
    w = gui_window(WELCOME)
    assert any(n.startswith("ov:closest") for n in w.viewport.view.overlay_names())
    w.overlay_actions["closest"].trigger()  # switch off
    assert not any(n.startswith("ov:closest") for n in w.viewport.view.overlay_names())
    assert any(n.startswith("ov:hits") for n in w.viewport.view.overlay_names())
    w.overlay_actions["closest"].trigger()
    assert any(n.startswith("ov:closest") for n in w.viewport.view.overlay_names())


def test_every_control_has_a_tooltip(gui_window):
    from PyQt6.QtWidgets import QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit

    w = gui_window(WELCOME)
    w.select("tilted")
    missing = []
    for cls in (QAbstractButton, QAbstractSpinBox, QComboBox, QLineEdit):
        for widget in w.findChildren(cls):
            if not widget.isVisibleTo(w):
                continue
            tip = widget.toolTip() or (widget.defaultAction().toolTip()
                                       if hasattr(widget, "defaultAction")
                                       and widget.defaultAction() else "")
            if not tip and widget.objectName().startswith("qt_") and widget.parent() is not None:
                tip = widget.parent().toolTip()  # Qt's parts: a spin box's line edit, dock buttons
            if not tip and cls is QAbstractButton and widget.parent() is not None:
                tip = widget.parent().toolTip()  # dock title bar buttons
            if not tip:
                missing.append(f"{type(widget).__name__} {widget.objectName()} {widget.text() if hasattr(widget, 'text') else ''}")
    assert missing == []


def test_mouse_drags_a_grip_and_clicks_select(gui_window):
    """Real interactor events: press on the sphere's centre grip, move, release; then a click on
    the box selects it. One undo step for the whole drag."""
    w = gui_window(WELCOME)
    w.select("ball")
    w.viewport.render()
    ren = w.viewport.plotter.renderer
    iren = w.viewport.plotter.iren.interactor

    def to_display(pt):
        ren.SetWorldPoint(*pt, 1.0)
        ren.WorldToDisplay()
        return [int(round(v)) for v in ren.GetDisplayPoint()[:2]]

    def event(name, x, y):
        iren.SetEventInformation(x, y, 0, 0)
        iren.InvokeEvent(name)

    x, y = to_display(w.viewport.grip_position("center"))
    event("MouseMoveEvent", x, y)
    event("LeftButtonPressEvent", x, y)
    for k in range(1, 6):
        event("MouseMoveEvent", x + 8 * k, y + 3 * k)
    event("LeftButtonReleaseEvent", x + 40, y + 15)
    moved = w.scene["ball"].primitive.center
    assert moved != (1.5, 0.0, 1.0)
    assert w.scene["ball"].primitive.radius == 0.8
    assert w.undo_stack.undo_label() == "Drag ball center" and len(w.undo_stack._undo) == 1
    # the grip is drawn where the centre went
    assert np.allclose(w.viewport.grip_position("center"), moved)
    bx, by = to_display((-0.25, 2.5, 0.6))  # the box's centre
    event("LeftButtonPressEvent", bx, by)
    event("LeftButtonReleaseEvent", bx, by)
    assert w.selected_id == "box"
    assert set(w.viewport.grip_names()) == {"center", "x-", "x+", "y-", "y+", "z-", "z+"}
    w.undo()
    assert w.scene["ball"].primitive.center == (1.5, 0.0, 1.0)


def test_bench_drag_prints_the_four_figures_last(qtbot, state_dir, capsys):
    """`explorer bench drag --steps 3` in-process: its last line is the JSON object with
    exactly the four keys, all positive numbers."""
    from types import SimpleNamespace

    from explorer import bench

    assert bench.main(SimpleNamespace(scene=None, steps=3, panels=False)) == 0
    last = capsys.readouterr().out.strip().splitlines()[-1]
    figures = json.loads(last)
    assert set(figures) == {"update_median_ms", "update_p95_ms", "render_median_ms",
                            "render_p95_ms"}
    assert all(v > 0 for v in figures.values())
    assert figures["update_p95_ms"] >= figures["update_median_ms"]


def test_opening_another_scene_resets_the_time_and_says_why_answers_hide(gui_window):
    # issue 10 defect: t from the time line survived Open/New, so every t = 0 answer overlay of
    # the new scene stayed hidden with no word of why
    w = gui_window(SCENES_DIR / "gui_moving_sphere.json")
    w.viewport.set_time(0.5)
    assert w.viewport.view.time_note().startswith("t = 0.5: the answers about t = 0")
    w.open_file(WELCOME, ask=False)
    assert w.viewport.view.time == 0.0 and w.workspace.time == 0.0
    assert w.viewport.view.time_note() == ""
    w.refresh()
    shown = [n for n in w.viewport.view.overlay_names() if n.startswith("ov:closest")]
    assert shown  # the welcome scene's closest points are drawn again
    w.new_scene()
    assert w.viewport.view.time == 0.0


def test_the_window_reads_its_state_from_the_workspace(gui_window):
    w = gui_window(WELCOME)
    w.overlay_actions["closest"].trigger()  # switch off through the menu
    assert "closest" not in w.workspace.overlays
    w.scope_actions["pair"].trigger()
    assert w.workspace.scope == "pair"
    w.set_pair("ray", "box")
    assert w.workspace.pair == ("ray", "box") and w.current_pair() == ("ray", "box")
    assert w.overlay_pairs() == [("ray", "box")]


def test_editing_one_component_keeps_the_others_exact_and_shows_enough_digits(gui_window):
    # issue 10 defect: editing one component wrote the whole vector back rounded to 4 decimals,
    # and 2.000001 showed as 2.0000
    w = gui_window(WELCOME)
    c = (0.123456789012, -3.000000004, 1.0 / 3.0)
    w.scene.update("ball", primitive=Sphere(c, 0.75))
    w.select("ball")
    panel = w.property_panel
    spin_x = panel.spins[("center", None, 0)]
    spin_x.setValue(2.000001)
    assert w.scene["ball"].primitive.center == (2.000001, c[1], c[2])  # y and z untouched
    assert spin_x.text() == "2.000001"
    assert panel.spins[("center", None, 2)].text() == "0.333333333333"
    panel.spins[("radius", None, None)].setValue(0.7500001)
    assert w.scene["ball"].primitive.radius == 0.7500001
    assert w.scene["ball"].primitive.center == (2.000001, c[1], c[2])


def test_a_click_picks_the_object_drawn_there_though_objects_are_drawn_merged(gui_window):
    # the renderer draws the objects with one actor per look (issue 12 part 3); a pick puts
    # the objects' own actors back for the pick, so a click still names one object
    w = gui_window(WELCOME)
    vp = w.viewport
    vp.render()
    ren = vp.plotter.renderer
    ball = w.scene["ball"].primitive
    ren.SetWorldPoint(*map(float, ball.center), 1.0)
    ren.WorldToDisplay()
    x, y, _z = ren.GetDisplayPoint()
    assert vp.pick_at(int(round(x)), int(round(y))) == "ball"
    assert vp.pick_at(2, 2) is None  # the view's corner: the background
    # afterwards the batches draw again, the objects' own actors are out of the renderer
    props = ren.GetViewProps()
    shown = {id(props.GetItemAsObject(i)) for i in range(props.GetNumberOfItems())}
    assert not any(id(a) in shown for a in vp.view.actors.values())
    assert all(a.GetVisibility() for a in vp.view.object_batches.actors())
