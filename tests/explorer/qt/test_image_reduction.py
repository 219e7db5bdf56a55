"""Image reduction while moving (issue 12, part 3; explorer.render.quality.reduction): a frame
rendered while something moves draws into the lower-left 1/REDUCTION of the window (every
renderer's viewport scaled, the axes widget's too) and the paint blits that rectangle onto the
whole widget; the frame at rest renders the full window. Between frames the viewports are the
full ones, so picking and the grips see the window as it is."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("pyvistaqt")

from vtkmodules.vtkCommonCore import vtkCommand  # noqa: E402

from explorer import SCENES_DIR  # noqa: E402
from explorer.render import quality  # noqa: E402

TEN = SCENES_DIR / "gui_ten.json"
WELCOME = SCENES_DIR / "welcome.json"


def record_viewports(plotter) -> list:
    """``[(main renderer's pixel size, [viewport of every renderer]), ...]`` seen at the start
    of each renderer pass of the main renderer (inside the render, after the reduction)."""
    seen = []
    rw = plotter.render_window

    def look(*_a):
        rens = rw.GetRenderers()
        seen.append((tuple(plotter.renderer.GetSize()),
                     [tuple(rens.GetItemAsObject(i).GetViewport())
                      for i in range(rens.GetNumberOfItems())]))

    plotter.renderer.AddObserver(vtkCommand.StartEvent, look)
    return seen


def pixels(img) -> np.ndarray:
    """A QImage's RGB pixels as a float array (rows top to bottom)."""
    img = img.convertToFormat(img.Format.Format_RGB888)
    h, wd = img.height(), img.width()
    return np.frombuffer(img.constBits().asstring(h * img.bytesPerLine()),
                         np.uint8).reshape(h, img.bytesPerLine())[:, :wd * 3] \
        .reshape(h, wd, 3).astype(float)


def moving_and_rest(vp) -> tuple:
    """The widget's own framebuffer (the paint's blit) of a moving frame, then of the frame
    at rest."""
    pl = vp.plotter
    vp.begin_motion()
    pl.render()
    moving = pl.grabFramebuffer()
    vp.end_motion()
    vp.render_at_rest(now=True)
    return moving, pl.grabFramebuffer()


def test_the_moving_frame_renders_a_quarter_and_the_frame_at_rest_the_whole_window(gui_window):
    assert quality.ANTI_ALIASING == "adaptive" and quality.REDUCTION == 2
    w = gui_window(TEN)
    vp = w.viewport
    pl = vp.plotter
    full = tuple(pl.render_window.GetSize())
    rens = pl.render_window.GetRenderers()
    assert rens.GetNumberOfItems() >= 2  # the scene's renderer and the axes widget's
    before = [tuple(rens.GetItemAsObject(i).GetViewport()) for i in range(rens.GetNumberOfItems())]
    seen = record_viewports(pl)
    vp.begin_motion()
    assert pl.reduction == quality.reduction(quality.moving()) == 2
    pl.render()
    size, viewports = seen[-1]
    # 489 x 699 (say) halves to round(489 / 2) x round(699 / 2): VTK rounds the viewport's corners
    assert abs(size[0] - full[0] / 2) <= 1 and abs(size[1] - full[1] / 2) <= 1
    assert viewports == [tuple(v / 2 for v in b) for b in before]  # each one scaled: aspect kept
    assert pl.frame_reduction == 2 and pl.reduced_viewport == size
    # after the frame, everything is the full window again (picking, grips, pixel queries)
    assert [tuple(rens.GetItemAsObject(i).GetViewport())
            for i in range(rens.GetNumberOfItems())] == before
    assert tuple(pl.renderer.GetSize()) == full
    vp.end_motion()
    vp.render_at_rest(now=True)
    size, viewports = seen[-1]
    assert size == full and viewports == before
    assert pl.reduction == 1 and pl.frame_reduction == 1


def test_the_scaled_up_moving_frame_shows_the_same_picture(gui_window):
    # the widget's own framebuffer (the paint's blit) while moving against the frame at rest:
    # the same picture, only softer; a blit of the unscaled rectangle (a quarter of the
    # picture in one corner, the rest stale) or of the whole buffer differs by far more
    w = gui_window(TEN)
    vp = w.viewport
    moving, rest = moving_and_rest(vp)

    a, b = pixels(moving), pixels(rest)
    assert a.shape == b.shape

    def diff(x, y):  # mean over the pixels of |R| + |G| + |B| differences (0..765)
        return np.abs(x - y).sum(axis=2).mean()

    # the thin grid lines dominate any difference, so the yardstick is the frame at rest
    # against itself moved by 6 pixels (gui_ten at 420 x 659: 28 for the moving frame, 39
    # and 43 for the shifts, 59 for the rectangle blitted unscaled into its corner); the
    # seam a linear blit reads beyond the rectangle showed as a dark top row (184) before
    assert diff(a, b) < min(diff(np.roll(b, 6, axis=1), b), diff(np.roll(b, 6, axis=0), b))
    edges = np.abs(a - b).sum(axis=2)
    assert edges[0].mean() < 40 and edges[:, -1].mean() < 40
    assert a.std() > 10  # not blank: the scene's colours are in it


def test_a_click_while_the_view_renders_reduced_still_picks(gui_window):
    # vtkPropPicker's selection render reads the window's pixels: it renders full size
    w = gui_window(WELCOME)
    vp = w.viewport
    ren = vp.plotter.renderer
    vp.begin_motion()
    vp.render()
    assert vp.plotter.reduction == 2
    ren.SetWorldPoint(-0.25, 2.5, 0.6, 1.0)  # the box's centre
    ren.WorldToDisplay()
    x, y = (int(round(c)) for c in ren.GetDisplayPoint()[:2])
    assert vp.pick_at(x, y) == "box"
    assert vp.plotter.reduction == 2  # still reducing the moving frames afterwards
    img = vp.screenshot()  # a screenshot in the middle of a motion is full size
    assert img.shape[:2] == tuple(reversed(vp.plotter.render_window.GetSize()))
    vp.end_motion()


def test_the_axes_letters_keep_their_size_in_the_moving_frame(gui_window):
    # the axes widget's X, Y, Z are scaled texts that VTK keeps at least 10 pixels tall: at
    # half the viewport they stopped shrinking and came out twice their size once the frame
    # was scaled up. The letters are the only near-black pixels low in the axes widget's
    # corner (its lines are red, green, blue; the view's background is light; a label's text
    # sits higher): gui_ten at 420 x 659, 52 such pixels at rest, 10 in the moving frame (the
    # scaled-up letters are softer), 158 with the 10-pixel floor
    w = gui_window(TEN)
    vp = w.viewport
    pl = vp.plotter
    text = pl.renderer.axes_actor.GetXAxisCaptionActor2D().GetTextActor()
    floor = text.GetMinimumSize()
    moving, rest = moving_and_rest(vp)
    # put back after the frame: the next full-size frame has VTK's own floor
    assert text.GetMinimumSize() == floor == (10, 10)

    def dark_in_corner(img):
        a = pixels(img)
        h, wd = a.shape[:2]
        corner = a[h - int(0.16 * h):, :int(0.2 * wd)]  # the axes widget's lower part
        return int((corner.max(axis=2) < 90).sum())

    n_moving, n_rest = dark_in_corner(moving), dark_in_corner(rest)
    assert n_rest > 10  # the letters are there
    assert n_moving < 1.5 * n_rest, (n_moving, n_rest)
