"""The view's render settings (issue 12, part 3): while a grip is dragged (or the camera moves)
every frame renders with neither FXAA nor multisampling (explorer.render.quality.moving(): each
is a pass over every pixel, a third or a half of a drag frame on software OpenGL) and without
the light kit's two back lights; once the motion ended, quality.IDLE_MS later, the view renders
once more with multisampling and every light (quality.idle()), and keeps those settings until
something moves again."""

from __future__ import annotations

import pytest

pytest.importorskip("pyvistaqt")

from vtkmodules.vtkCommonCore import vtkCommand  # noqa: E402

from explorer import SCENES_DIR  # noqa: E402
from explorer.render import quality  # noqa: E402

TEN = SCENES_DIR / "gui_ten.json"


def frames(window) -> list:
    """Record ``(multisamples, fxaa)`` of every frame the view renders from now on."""
    seen = []
    ren = window.viewport.plotter.renderer
    window.viewport.plotter.render_window.AddObserver(
        vtkCommand.EndEvent, lambda *_a: seen.append(quality.current(ren)))
    return seen


def test_a_drag_renders_without_multisampling_then_one_multisampled_frame_at_rest(
        gui_window, qtbot):
    assert quality.ANTI_ALIASING == "adaptive"  # the window's own setting
    w = gui_window(TEN)
    w.auto_render = True
    vp = w.viewport
    ren = vp.plotter.renderer
    qtbot.waitUntil(lambda: vp.render_settings == quality.idle(), timeout=10_000)
    qtbot.wait(50)  # the paint that renders the frame at rest
    samples_at_rest = quality.current(ren)[0]
    # multisampled, no FXAA, every light on
    assert samples_at_rest > 1 and quality.current(ren)[1:] == (False, True)
    assert len(quality.back_lights(ren)) == 2  # the light kit's two back lights
    w.select("s1")
    seen = frames(w)
    grip = dict(vp._grips)["center"]
    grip.InvokeEvent(vtkCommand.StartInteractionEvent)
    x, y, z = vp.grip_position("center")
    for i in range(1, 6):
        grip.SetCenter(x + 0.1 * i, y, z)
        grip.InvokeEvent(vtkCommand.InteractionEvent)
        vp.plotter.render()  # what VTK's widget does after each move of the mouse
        # the frame of each step: neither multisampling nor FXAA, the back lights off
        assert quality.current(ren) == (0, False, False) and vp.render_settings == quality.moving()
    grip.InvokeEvent(vtkCommand.EndInteractionEvent)
    assert len(seen) >= 5 and set(seen) == {(0, False, False)}
    qtbot.waitUntil(lambda: seen[-1] != (0, False, False), timeout=10_000)
    # at rest: one more frame, multisampled as before the drag, FXAA off
    assert seen[-1] == (samples_at_rest, False, True)
    assert seen.count((samples_at_rest, False, True)) == 1
    qtbot.wait(3 * quality.IDLE_MS)
    assert seen.count((samples_at_rest, False, True)) == 1  # not again while nothing moves
    # a press of the mouse (the camera turns) goes back to the moving settings
    vp.plotter.iren.interactor.InvokeEvent("LeftButtonPressEvent")
    vp.plotter.render()
    assert seen[-1] == (0, False, False)
    vp.plotter.iren.interactor.InvokeEvent("LeftButtonReleaseEvent")
    qtbot.waitUntil(lambda: seen[-1] == (samples_at_rest, False, True), timeout=10_000)


@pytest.mark.parametrize("mode, moving, idle", [("fxaa", (0, True, True), (0, True, True)),
                                                ("msaa", (8, False, True), (8, False, True)),
                                                ("none", (0, False, True), (0, False, True)),
                                                ("adaptive", (0, False, False),
                                                 (8, False, True))])
def test_the_settings_of_each_mode(monkeypatch, mode, moving, idle):
    monkeypatch.setattr(quality, "ANTI_ALIASING", mode)
    assert quality.moving() == moving and quality.idle() == idle
    assert quality.adaptive() == (mode == "adaptive")
    assert quality.multi_samples() == moving[0]


def test_the_feature_overlay_switched_off_does_not_render_on_each_change(gui_window, qtbot):
    # it ran on every object change (each drag step) and rendered a whole frame although it
    # drew nothing: one render in three of a drag step (VTK's, the widget's repaint, this one)
    w = gui_window(TEN)
    ov = w.feature_overlay
    assert ov.enabled is False
    seen = frames(w)
    assert ov.update() == [] and seen == []
    ov.set_enabled(True)
    w.set_pair("s1", "b1")
    shown = ov.update()
    assert shown  # the sphere's and the box's closest-point features
    count = len(seen)
    ov.set_enabled(False)  # the features it drew go: that takes a render
    assert ov.shown == [] and len(seen) == count + 1
