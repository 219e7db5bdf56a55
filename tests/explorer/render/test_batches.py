"""Answer overlays merged into one actor per look (issue 12 part 3, explorer/render/batches.py).

The frame model keeps one named item per visual; the live view draws the items of one look
with one VTK actor. These tests check that the actors are few, that each merged mesh holds
exactly its items' points and cells, and that a changed, removed or time-hidden item reaches
its merged actor.
"""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

os.environ.setdefault("VTK_DEFAULT_OPENGL_WINDOW", "vtkEGLRenderWindow")
pv = pytest.importorskip("pyvista")

from explorer.model.scenefile import load  # noqa: E402
from explorer.render.batches import look_key  # noqa: E402
from explorer.render.overlays import frame_for_view  # noqa: E402
from explorer.render.view import Geom, SceneView  # noqa: E402

SCENES = Path(__file__).resolve().parents[3] / "scenes"


@pytest.fixture
def merged_view():
    plotter = pv.Plotter(off_screen=True, window_size=[320, 240])
    views = []

    def make(name: str, merge: bool = True):
        scene = load(SCENES / name)
        view = SceneView(plotter, merge_overlays=merge)
        view.set_scene(scene)
        views.append(view)
        return scene, view

    yield make
    for v in views:
        v.close()
    plotter.close()


def _points(actor) -> np.ndarray:
    return np.array(actor.GetMapper().GetInput().GetPoints().GetData(), dtype=float)


def _cell_count(g: Geom) -> int:
    def count(cells):
        if cells is None:
            return 0
        cells, i, n = np.asarray(cells), 0, 0
        while i < len(cells):
            i += int(cells[i]) + 1
            n += 1
        return n

    if g.faces is None and g.lines is None:
        return len(g.points)  # a vertex per point
    return count(g.faces) + count(g.lines)


def test_hundred_objects_overlays_use_few_actors(merged_view):
    scene, view = merged_view("gui_hundred.json")
    frame = frame_for_view(scene, scene.answers(), view)
    # (the Minkowski shapes of pairs where both move follow their held object in time: their
    # own actors, shifted at the view's time)
    mergeable = [it for it in frame.items
                 if look_key(it) is not None and it.name not in frame.follows]
    assert frame.follows and all(n.startswith("ov:minkowski:") for n in frame.follows)
    # the frame of every pair of gui_hundred has over a thousand items (1121 when written)
    assert len(frame.items) > 1000 and len(mergeable) > 1000
    view.apply_frame(frame)
    looks = {(it.name.startswith(("ov:closest:", "ov:hits:", "ov:sat:", "ov:side:",
                                  "ov:intersects:")),) + look_key(it) for it in mergeable}
    batches = view.batches()
    assert len(batches) == len(looks) <= 40
    # every item is named as before, and its actor is its batch's
    assert set(view.overlay_names()) >= {it.name for it in frame.items}
    actors = view.overlay_actors()
    per_name = {id(a) for n, a in actors.items() if n in view._overlays}
    merged = {id(b.actor) for b in batches}
    assert len(per_name) + len(merged) <= 40 + len(frame.items) - len(mergeable)
    assert len(per_name | merged) < len(frame.items) / 20


def test_a_merged_mesh_holds_its_items_points_and_cells(merged_view):
    scene, view = merged_view("gui_ten.json")
    frame = frame_for_view(scene, scene.answers(), view)
    view.apply_frame(frame)
    by_name = {it.name: it for it in frame.items}
    for b in view.batches():
        expected = np.vstack([by_name[n].mesh.points for n in b.names])
        np.testing.assert_array_equal(_points(b.actor), expected)
        assert b.actor.GetMapper().GetInput().GetNumberOfCells() == sum(
            _cell_count(by_name[n].mesh) for n in b.names)
        # the look is the items' own: colour of the first item's keywords
        color = by_name[b.names[0]].kwargs["color"]
        assert np.allclose(b.actor.GetProperty().GetColor(), pv.Color(color).float_rgb)
        for n in b.names:  # the per-name mesh of a merged item is that item alone
            np.testing.assert_array_equal(view.overlay_meshes()[n].points,
                                          by_name[n].mesh.points)


def test_a_changed_item_is_written_into_its_merged_actor(merged_view):
    scene, view = merged_view("welcome.json")
    view.apply_frame(frame_for_view(scene, scene.answers(), view))
    closest = next(b for b in view.batches()
                   if any(n.startswith("ov:closest:") and n.endswith(":pts") for n in b.names))
    rebuilds = closest.rebuilds
    before = _points(closest.actor).copy()
    # move the segment of the welcome scene's seg-ball pair: its closest points move
    seg = next(o for o in scene.objects if o.id == "seg")
    scene.update("seg", primitive=seg.primitive.translated((0.0, 0.3, 0.0)))
    frame = frame_for_view(scene, scene.answers(), view)
    view.apply_frame(frame)
    by_name = {it.name: it for it in frame.items}
    after = _points(closest.actor)
    np.testing.assert_array_equal(after, np.vstack([by_name[n].mesh.points
                                                    for n in closest.names]))
    assert not np.array_equal(before, after)
    assert closest.rebuilds == rebuilds  # the same topology: points written in place
    # the same frame again: nothing written
    writes = closest.writes
    view.apply_frame(frame)
    assert closest.writes == writes


def test_removed_and_time_hidden_items_leave_their_merged_actor(merged_view):
    scene, view = merged_view("welcome.json")
    view.apply_frame(frame_for_view(scene, scene.answers(), view))
    names = [n for b in view.batches() for n in b.names if n.startswith("ov:closest:")]
    assert names
    view.set_time(0.5)  # answers about t = 0 are hidden at another time
    for b in view.batches():
        if b.static:
            assert not b.actor.GetVisibility()
    view.set_time(0.0)
    assert all(b.actor.GetVisibility() for b in view.batches())
    view.remove_overlay("ov:closest:")
    assert not any(n.startswith("ov:closest:") for n in view.overlay_names())
    for b in view.batches():
        assert not any(n.startswith("ov:closest:") for n in b.names)
        assert len(_points(b.actor)) == sum(len(it.mesh.points) for it in b.items)


def test_exports_keep_one_actor_per_item(merged_view):
    # the offscreen view the exports draw (merge off): one named actor per item, the .vtm's
    # one block per answer
    scene, view = merged_view("welcome.json", merge=False)
    frame = frame_for_view(scene, scene.answers(), view)
    view.apply_frame(frame)
    assert view.batches() == []
    assert set(view.overlay_actors()) == {it.name for it in frame.items}


# ----------------------------------------------------------------------------- objects


def _object_rows(view, batch_actor):
    """``{object id: (points, rgb rows)}`` of the objects a batch actor draws, by slice."""
    ob = view.object_batches
    g = next(g for g in ob.groups.values() if g[0] is batch_actor)
    data = g[1]  # the mesh the batch's mapper draws
    pts = np.array(data.GetPoints().GetData(), dtype=float)
    rgb = np.array(data.GetPointData().GetArray("rgb"))
    out = {}
    for obj_id, o in zip(g[2], g[3]):
        n = view.meshes[obj_id].GetNumberOfPoints()
        out[obj_id] = (pts[o:o + n], rgb[o:o + n])
    return out


def test_hundred_objects_are_drawn_by_one_actor_per_look(merged_view):
    scene, view = merged_view("gui_hundred.json")
    ob = view.object_batches
    ob.sync()
    actors = ob.actors()
    # gui_hundred has 11 kinds; their looks (LOOKS, with or without normals) are at most 8
    assert 1 <= len(actors) <= 8
    props = view.plotter.renderer.GetViewProps()
    in_renderer = {id(props.GetItemAsObject(i)) for i in range(props.GetNumberOfItems())}
    assert not any(id(a) in in_renderer for a in view.actors.values())
    assert all(id(a) in in_renderer for a in actors)
    drawn = {}
    for a in actors:
        drawn.update(_object_rows(view, a))
    shown = [o.id for o in scene.objects if view.actors[o.id].GetVisibility()]
    assert sorted(drawn) == sorted(shown)
    for obj_id, (pts, rgb) in drawn.items():
        np.testing.assert_array_equal(pts, np.array(view.meshes[obj_id].points))
        color = np.round(np.array(view.actors[obj_id].GetProperty().GetColor()) * 255)
        assert (rgb == color).all()


def test_a_moved_recoloured_or_hidden_object_reaches_its_batch(merged_view):
    scene, view = merged_view("gui_ten.json")
    ob = view.object_batches
    ob.sync()
    obj = next(o for o in scene.objects if o.kind == "sphere")
    rebuilds = ob.rebuilds
    scene.update(obj.id, primitive=obj.primitive.translated((0.5, 0.0, 0.0)))
    ob.sync()
    assert ob.rebuilds == rebuilds  # points written in place
    actor = next(a for a in ob.actors() if obj.id in ob.ids_of(a))
    pts, _rgb = _object_rows(view, actor)[obj.id]
    np.testing.assert_array_equal(pts, np.array(view.meshes[obj.id].points))
    # the sphere's drawn centre (middle of its points' bounds) moved by the 0.5 asked
    assert np.isclose((pts[:, 0].min() + pts[:, 0].max()) / 2, obj.primitive.center[0] + 0.5)
    scene.update(obj.id, color="#ff0000")
    ob.sync()
    assert (_object_rows(view, actor)[obj.id][1] == [255, 0, 0]).all()
    assert ob.rebuilds == rebuilds
    scene.update(obj.id, hidden=True)
    ob.sync()
    assert all(obj.id not in ob.ids_of(a) for a in ob.actors())
    scene.update(obj.id, hidden=False)
    ob.sync()
    assert any(obj.id in ob.ids_of(a) for a in ob.actors())
