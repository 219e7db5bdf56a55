"""view._take_out_undrawn: the renderer no longer holds nor consumes the actor (what
RemoveViewProp does), without releasing graphics resources it never had."""

import pyvista as pv

from explorer.render.view import _take_out_undrawn


def test_take_out_undrawn_removes_the_prop_and_the_consumer():
    ren = pv.Renderer(pv.Plotter(off_screen=True))
    actor = pv.Actor(mapper=pv.DataSetMapper(pv.Sphere()))
    other = pv.Actor(mapper=pv.DataSetMapper(pv.Cube()))
    ren.AddViewProp(actor)
    ren.AddViewProp(other)
    assert ren.HasViewProp(actor) and actor.IsConsumer(ren)
    before = ren.GetMTime()
    n = ren.GetViewProps().GetNumberOfItems()
    _take_out_undrawn(ren, actor)
    assert not ren.HasViewProp(actor)
    assert not actor.IsConsumer(ren)
    assert ren.HasViewProp(other) and other.IsConsumer(ren)  # the others stay
    assert ren.GetViewProps().GetNumberOfItems() == n - 1  # that one only
    assert ren.GetMTime() > before  # modified, as RemoveViewProp leaves it
