"""View labels draw what they say: VTK's text renderer drops an ASCII ``|`` (``"|v|"`` was drawn
as ``"v"``), so :func:`explorer.render.view.drawable_text` draws it as U+01C0 in DejaVu Sans."""

from __future__ import annotations

import numpy as np
import pyvista as pv
import pytest
from vtkmodules.vtkCommonCore import VTK_FONT_FILE
from vtkmodules.vtkRenderingCore import vtkTextActor

from explorer.model.scene import Scene
from explorer.render.view import BAR, SceneView, drawable_text


def _ink_columns(text: str, use_view: bool) -> int:
    """How many pixel columns of a 400x80 render hold dark ink, for ``text`` in a 2-D text
    actor (``use_view``: through :func:`drawable_text`, else as given)."""
    plotter = pv.Plotter(off_screen=True, window_size=(400, 80))
    try:
        plotter.set_background("white")
        actor = vtkTextActor()
        tp = actor.GetTextProperty()
        tp.SetFontSize(40)
        tp.SetColor(0, 0, 0)
        actor.SetInput(drawable_text(text, tp) if use_view else text)
        actor.SetPosition(10, 15)
        plotter.renderer.AddActor(actor)
        img = np.asarray(plotter.screenshot(return_img=True), dtype=float).mean(axis=2)
        return int(((img < 128).sum(axis=0) > 0).sum())
    finally:
        plotter.close()


def test_a_bar_is_drawn():
    # "||||" through drawable_text leaves four vertical strokes: ink in some columns. As the
    # raw ASCII bar VTK draws nothing at all (0 columns): the defect this works around
    assert _ink_columns("||||", use_view=False) == 0
    assert _ink_columns("||||", use_view=True) >= 4


def test_text_with_a_bar_switches_font_and_back():
    tp = vtkTextActor().GetTextProperty()
    assert drawable_text("|AB| = 2", tp) == f"{BAR}AB{BAR} = 2"
    assert tp.GetFontFamily() == VTK_FONT_FILE and tp.GetFontFile().endswith("DejaVuSans.ttf")
    assert drawable_text("A-B d = 1", tp) == "A-B d = 1"
    assert tp.GetFontFamily() != VTK_FONT_FILE  # the view's usual font again


@pytest.fixture
def view():
    plotter = pv.Plotter(off_screen=True)
    v = SceneView(plotter)
    v.set_scene(Scene())
    yield v
    plotter.close()


def test_set_label_draws_a_users_bars(view):
    # an object's label from a scene file, "|AB|", reaches the text actor with its bars
    view.set_label("ov:user", (0.0, 0.0, 0.0), "|AB|")
    assert view.label_actors()["ov:user"].GetInput() == f"{BAR}AB{BAR}"


def test_exports_write_the_bar_itself():
    from explorer.render.export import ascii_text

    # the PDF's ASCII labels and the SVG's text say "|", not the view's stand-in
    assert ascii_text(f"{BAR}AB{BAR} = 2") == "|AB| = 2"
