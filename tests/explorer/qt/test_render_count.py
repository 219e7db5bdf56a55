"""One render per frame (issue 12, part 3): pyvistaqt's paint rendered again after every VTK
render, so each step of a drag (or of the camera) rendered twice. The viewport's
FreshInteractor paints the frame already rendered when nothing in VTK changed since, and
renders when anything did (never a stale frame)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyvistaqt")

from vtkmodules.vtkCommonCore import vtkCommand  # noqa: E402

from explorer import SCENES_DIR  # noqa: E402

TEN = SCENES_DIR / "gui_ten.json"


@pytest.fixture(autouse=True)
def no_frame_at_rest(monkeypatch):
    """The multisampled frame at rest (quality.IDLE_MS after a motion, and after the first
    frame) is a render of its own: on a loaded machine a step can take longer than that and
    the count would catch it. These tests count the frames of the motion alone."""
    from explorer.render import quality

    monkeypatch.setattr(quality, "IDLE_MS", 3_600_000)


def counter(window) -> list:
    """Every frame VTK renders from now on (one entry per finished render)."""
    seen: list = []
    window.viewport.plotter.render_window.AddObserver(vtkCommand.EndEvent,
                                                      lambda *_a: seen.append(1))
    return seen


def settle(qtbot, window) -> None:
    """Let every pending paint and timer of the window run."""
    for _ in range(3):
        qtbot.wait(20)


def test_each_grip_drag_step_renders_once(gui_window, qtbot):
    w = gui_window(TEN)
    w.auto_render = True
    vp = w.viewport
    w.select("s1")
    settle(qtbot, w)
    grip = dict(vp._grips)["center"]
    grip.InvokeEvent(vtkCommand.StartInteractionEvent)
    settle(qtbot, w)
    seen = counter(w)
    x, y, z = vp.grip_position("center")
    before = w.scene["s1"].primitive
    for i in range(1, 6):
        grip.SetCenter(x + 0.1 * i, y, z)
        grip.InvokeEvent(vtkCommand.InteractionEvent)
        vp.plotter.iren.interactor.Render()  # what VTK's sphere widget does after each move
        settle(qtbot, w)  # the repaint that widget render asked for: a blit, no render
        assert len(seen) == i, f"step {i}: {len(seen)} renders"
    grip.InvokeEvent(vtkCommand.EndInteractionEvent)
    assert w.scene["s1"].primitive != before  # the drag did move the sphere


def test_a_window_drag_step_and_a_camera_step_render_once(gui_window, qtbot):
    w = gui_window(TEN)
    w.auto_render = True
    settle(qtbot, w)
    seen = counter(w)
    obj = w.scene["s1"]
    w.drag_start("s1", "center")
    for i in range(1, 4):
        w.drag_handle("s1", "center", tuple(c + 0.1 * i for c in obj.primitive.center))
        settle(qtbot, w)
        assert len(seen) == i
    w.drag_end("s1", "center")
    settle(qtbot, w)
    seen.clear()
    cam = w.viewport.plotter.camera
    for i in range(1, 4):
        cam.Azimuth(5.0)
        w.viewport.plotter.iren.interactor.Render()  # what the camera's style does
        settle(qtbot, w)
        assert len(seen) == i


def test_a_change_without_a_render_is_painted_fresh(gui_window, qtbot):
    # the paint only skips its render when nothing in VTK changed: a camera moved without a
    # render (pyvista does that) is drawn by the next paint, not shown stale
    w = gui_window(TEN)
    settle(qtbot, w)
    plotter = w.viewport.plotter
    seen = counter(w)
    plotter.update()  # a repaint of an unchanged view: the frame is blitted
    settle(qtbot, w)
    assert seen == []
    assert plotter.frame_is_fresh() is True  # nothing changed since (reading it is free)
    plotter.camera.Azimuth(10.0)
    assert plotter.frame_is_fresh() is False
    plotter.update()
    settle(qtbot, w)
    assert len(seen) == 1
    plotter.renderer.SetBackground(0.2, 0.3, 0.4)  # any VTK change, not only the camera
    plotter.update()
    settle(qtbot, w)
    assert len(seen) == 2


def test_a_drag_step_of_the_hundred_object_scene_renders_once(gui_window, qtbot, monkeypatch):
    # each step of this scene starts an evaluation job whose progress bar, 1 px taller than
    # the status bar, resized the view twice (two more renders a step): the bar keeps its
    # height now, and the view its size
    from explorer.bench import _pick_object
    from explorer.model import drag
    from explorer.qt import busy

    jobs = []

    class Job(busy.EvaluationJob):
        def __init__(self, *args, **kwargs):
            jobs.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(busy, "EvaluationJob", Job)

    w = gui_window(SCENES_DIR / "gui_hundred.json")
    w.auto_render = True
    obj = _pick_object(w.scene)
    w.select(obj.id)
    settle(qtbot, w)
    handle, start = next((n, p) for n, p in drag.handles(obj.primitive, w.viewport.view.ext.size)
                         if n == "center")
    size = w.viewport.plotter.render_window.GetSize()
    seen = counter(w)
    w.drag_start(obj.id, handle)
    for i in range(1, 4):
        w.drag_handle(obj.id, handle, tuple(c + 0.05 * i for c in start))
        settle(qtbot, w)
        assert len(seen) == i, f"step {i}: {len(seen)} renders"
        assert w.viewport.plotter.render_window.GetSize() == size
    w.drag_end(obj.id, handle)
    assert len(jobs) >= 3  # the progress bar did show at each step: the case this test is about
