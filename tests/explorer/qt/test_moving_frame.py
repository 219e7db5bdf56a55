"""The fixed cost of a moving frame (issue 12, part 3): what the view leaves out or leaves alone
while something moves, and that the frame at rest has it all back.

* The moving frames blend translucent surfaces without VTK's order-independent translucency
  pass (``quality.ordered_translucency``); the frame at rest uses it again.
* The line widths and point sizes a reduced frame divides stay divided from one moving frame
  to the next (no property is modified by the render itself, so VTK rebuilds no shader), and
  are the ones set once the motion ends, in a full-size frame and in a screenshot.
* No frustum culler asks every prop for its bounds (a prop outside the view draws nothing
  anyway)."""

from __future__ import annotations

import pytest

pytest.importorskip("pyvistaqt")

from vtkmodules.vtkCommonCore import vtkCommand  # noqa: E402

from explorer import SCENES_DIR  # noqa: E402
from explorer.render import quality  # noqa: E402

TEN = SCENES_DIR / "gui_ten.json"


def widths(renderer) -> dict:
    """``{id(property): (property, line width, point size)}`` of the renderer's actors."""
    out = {}
    actors = renderer.GetActors()
    for j in range(actors.GetNumberOfItems()):
        prop = actors.GetItemAsObject(j).GetProperty()
        out[id(prop)] = (prop, prop.GetLineWidth(), prop.GetPointSize())
    return out


def test_translucency_pass_only_at_rest(gui_window):
    assert quality.ANTI_ALIASING == "adaptive"
    assert quality.ordered_translucency(quality.moving()) is False
    assert quality.ordered_translucency(quality.idle()) is True
    w = gui_window(TEN)
    vp = w.viewport
    ren = vp.plotter.renderer
    seen = []
    vp.plotter.render_window.AddObserver(vtkCommand.StartEvent,
                                         lambda *_a: seen.append(bool(ren.GetUseOIT())))
    vp.begin_motion()
    vp.render()
    vp.render()
    assert seen[-2:] == [False, False]
    vp.end_motion()
    vp.render_at_rest(now=True)
    assert seen[-1] is True and ren.GetUseOIT()


@pytest.mark.parametrize("mode", ["msaa", "fxaa", "none"])
def test_other_modes_keep_the_translucency_pass(monkeypatch, mode):
    monkeypatch.setattr(quality, "ANTI_ALIASING", mode)
    assert quality.ordered_translucency(quality.moving())
    assert quality.ordered_translucency(quality.idle())


def test_widths_stay_divided_while_moving_and_come_back(gui_window):
    w = gui_window(TEN)
    vp = w.viewport
    pl = vp.plotter
    ren = pl.renderer
    vp.end_motion()  # the view at rest (the first frame may still be a moving one)
    vp.render_at_rest(now=True)
    assert pl.reduction == 1
    before = widths(ren)
    wide = [(p, lw, ps) for p, lw, ps in before.values() if lw > 1 or ps > 1]
    assert wide  # gui_ten draws tubes (5), answer lines (3) and point spheres (11-16)
    in_frame = []
    pl.renderer.AddObserver(vtkCommand.StartEvent, lambda *_a: in_frame.append(
        {k: (lw, ps) for k, (_p, lw, ps) in widths(ren).items()}))
    vp.begin_motion()
    assert pl.reduction == 2
    vp.render()
    for p, lw, ps in wide:  # half, inside the reduced frame: the same size on screen
        assert in_frame[-1][id(p)] == (lw / 2, ps / 2)
    mtimes = {id(p): p.GetMTime() for p, _lw, _ps in wide}
    vp.render()
    vp.render()
    for p, lw, ps in wide:  # the second and third frame modified no property
        assert in_frame[-1][id(p)] == (lw / 2, ps / 2)
        assert p.GetMTime() == mtimes[id(p)]
    # a width set anew while moving (an overlay's new look) is the one the next frame halves
    p0, lw0, ps0 = wide[0]
    p0.SetLineWidth(6.0)
    vp.render()
    assert in_frame[-1][id(p0)] == (3.0, ps0 / 2)  # its point size halved once, not twice
    # a screenshot mid-motion is full size, with the widths as set
    in_frame.clear()
    vp.screenshot()
    assert in_frame and in_frame[-1][id(p0)] == (6.0, ps0)
    assert all(in_frame[-1][id(p)] == (lw, ps) for p, lw, ps in wide[1:])
    vp.render()
    assert in_frame[-1][id(p0)][0] == 3.0  # the next moving frame divides them again
    vp.end_motion()
    # the motion ended: every width as set, before the frame at rest too
    assert (p0.GetLineWidth(), p0.GetPointSize()) == (6.0, ps0)
    assert all((p.GetLineWidth(), p.GetPointSize()) == (lw, ps) for p, lw, ps in wide[1:])
    p0.SetLineWidth(lw0)
    vp.render_at_rest(now=True)
    assert in_frame[-1] == {k: (lw, ps) for k, (_p, lw, ps) in before.items()}


def test_no_frustum_culler(gui_window):
    w = gui_window(TEN)
    rens = w.viewport.plotter.render_window.GetRenderers()
    assert rens.GetNumberOfItems() >= 2
    for i in range(rens.GetNumberOfItems()):
        assert rens.GetItemAsObject(i).GetCullers().GetNumberOfItems() == 0
