"""The answers drawn over the scene (explorer.render.overlays, no Qt): the table from result kind to
visual, and the geometry of each visual against hand-worked answers."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms import AABB, OBB, Plane, Ray, Segment, Sphere
from algorithms.answer import PairAnswer
from algorithms.kernels.support import support_interval
from explorer.model.scene import Scene
from explorer.render.overlays import (FOCUS_ONLY, KINDS, OBJECT_OVERLAYS, OVERLAYS, SIDE_COLORS,
                                      Context, Evaluator, build)

I3 = ((1.0, 0, 0), (0, 1.0, 0), (0, 0, 1.0))


def frame_for(scene, **kw):
    ctx = Context.for_scene(scene)
    return build(scene, scene.answers(), ctx, **kw), ctx


def items(frame, prefix):
    return {i.name: i for i in frame.items if i.name.startswith(prefix)}


def labels(frame, prefix):
    return {lab.name: lab.text for lab in frame.labels if lab.name.startswith(prefix)}


def test_the_table_covers_every_kind_the_user_can_toggle():
    assert set(OVERLAYS) | set(OBJECT_OVERLAYS) == {k for k, _t, _tip in KINDS}
    assert FOCUS_ONLY <= set(OVERLAYS)


def test_segment_segment_closest_points_segment_and_label():
    # A on the x axis from 0 to 2, B vertical through (1, 1, *): the closest points are
    # (1, 0, 0) on A and (1, 1, 0) on B, distance 1 (B's x and A's z coordinates agree).
    scene = Scene()
    scene.add(Segment((0, 0, 0), (2, 0, 0)), id="A")
    scene.add(Segment((1, 1, -1), (1, 1, 1)), id="B")
    frame, _ = frame_for(scene)
    got = items(frame, "ov:closest:A:B")
    assert np.allclose(got["ov:closest:A:B:pts"].mesh.points, [[1, 0, 0], [1, 1, 0]])
    assert np.allclose(got["ov:closest:A:B:line"].mesh.points, [[1, 0, 0], [1, 1, 0]])
    assert "d = 1" in labels(frame, "ov:closest:A:B")["ov:closest:A:B"]


def test_ray_box_hits_with_normal_arrows_and_t_labels():
    # ray from (-2, .5, .5) along +x into the unit cube: enters x = 0 at t = 2 (outward
    # normal -x), leaves x = 1 at t = 3 (+x)
    scene = Scene()
    scene.add(Ray((-2, 0.5, 0.5), (1, 0, 0)), id="r")
    scene.add(AABB((0, 0, 0), (1, 1, 1)), id="b")
    frame, ctx = frame_for(scene)
    r = scene.evaluate_pair("r", "b")
    hits = r["trace"]["hits"]["hits"]
    assert hits[0]["t"] == pytest.approx(2.0)
    got = items(frame, "ov:hits:r:b")
    pts = got["ov:hits:r:b:pts"].mesh.points
    assert np.allclose(pts[0], [0, 0.5, 0.5])
    arrows = got["ov:hits:r:b:normals"].mesh
    # the first shaft starts at the entry point and points along -x
    shaft = arrows.points[1] - arrows.points[0]
    assert np.allclose(arrows.points[0], [0, 0.5, 0.5])
    assert np.allclose(shaft / np.linalg.norm(shaft), [-1, 0, 0])
    texts = labels(frame, "ov:hits:r:b").values()
    assert any(t.startswith("t = 2") for t in texts)
    assert any(t.startswith("t = 3") for t in texts) or len(hits) == 1
    # intersecting: the box is outlined (the ray, thin, is not)
    assert set(items(frame, "ov:intersects")) == {"ov:intersects:b"}


def test_separating_axis_of_two_boxes_with_both_projection_intervals():
    # unit-half-size boxes at x = 0 and x = 3: the gap on the x axis is 3 - 1 - 1 = 1
    scene = Scene()
    scene.add(OBB((0, 0, 0), I3, (1, 1, 1)), id="P")
    scene.add(OBB((3, 0, 0), I3, (1, 1, 1)), id="Q")
    frame, _ = frame_for(scene)
    r = scene.evaluate_pair("P", "Q")
    w = np.array(r["separating_axis"])
    assert abs(w @ [1, 0, 0]) == pytest.approx(1.0)
    got = items(frame, "ov:sat:P:Q")
    for key, prim in (("A", scene["P"].primitive), ("B", scene["Q"].primitive)):
        seg = got[f"ov:sat:P:Q:{key}"].mesh.points
        drawn = sorted(seg @ w)
        assert drawn == pytest.approx(sorted(support_interval(prim, w)), abs=1e-9)
    # the drawn axis line is parallel to the axis
    axis = got["ov:sat:P:Q:axis"].mesh.points
    d = axis[1] - axis[0]
    assert abs(d @ w) == pytest.approx(np.linalg.norm(d))
    assert "gap 1" in labels(frame, "ov:sat:P:Q")["ov:sat:P:Q"]
    # out of focus, the roomy axis is left out but the closest points stay
    frame2, _ = frame_for(scene, focus=set())
    assert not items(frame2, "ov:sat") and items(frame2, "ov:closest:P:Q")


def test_moving_sphere_ghost_at_toi_ghost_at_one_and_path():
    # ball radius 1 at x = -3 moving +4 in x hits the box face x = 0 when -3 + 4 t + 1 = 0,
    # t = 1/2; the ghost's centre is then (-1, 0, 0)
    scene = Scene()
    scene.add(Sphere((-3, 0, 0), 1), id="m", motion=(4.0, 0.0, 0.0))
    scene.add(AABB((0, -1, -1), (1, 1, 1)), id="w")
    frame, _ = frame_for(scene)
    r = scene.evaluate_pair("m", "w")
    assert r["toi"] == pytest.approx(0.5)
    ghost = items(frame, "ov:toi:m:w:ghost:m")["ov:toi:m:w:ghost:m"].mesh
    assert np.allclose(ghost.points.mean(axis=0), [-1, 0, 0], atol=1e-9)
    assert "toi = 0.5" in labels(frame, "ov:toi:m:w")["ov:toi:m:w"]
    motion = items(frame, "ov:motion:m")
    assert np.allclose(motion["ov:motion:m:ghost"].mesh.points.mean(axis=0), [1, 0, 0])
    path = motion["ov:motion:m:path"].mesh.points
    assert np.allclose(path[0], [-3, 0, 0])  # the centre's path starts at the centre


def test_objects_are_tinted_by_their_side_of_the_plane():
    scene = Scene()
    scene.add(Plane((0, 0, 1), 0), id="floor")
    scene.add(Sphere((0, 0, 2), 1), id="up")      # 2 - 1 > 0: wholly in front
    scene.add(Sphere((3, 0, -2), 1), id="down")   # -2 + 1 < 0: wholly behind
    scene.add(Sphere((6, 0, 0.5), 1), id="cut")   # |0.5| < 1: straddles
    frame, _ = frame_for(scene)
    assert frame.tints["up"] == SIDE_COLORS[1]
    assert frame.tints["down"] == SIDE_COLORS[-1]
    assert frame.tints["cut"] == SIDE_COLORS[0]
    assert "floor" not in frame.tints
    off = build(scene, scene.answers(), Context.for_scene(scene), enabled={"closest"})
    assert off.tints == {} and all(i.name.startswith("ov:closest") for i in off.items)


def test_a_result_with_an_error_or_a_failing_visual_never_breaks_the_frame(monkeypatch):
    scene = Scene()
    scene.add(Sphere((0, 0, 0), 1), id="a")
    scene.add(Sphere((5, 0, 0), 1), id="b")
    broken = PairAnswer(a="a", b="b", pair="sphere-sphere", errors=("not implemented",))
    frame = build(scene, [broken], Context.for_scene(scene))
    assert frame.items == [] and frame.labels == []

    def explode(r, ctx, frame):
        raise RuntimeError("bad visual")

    monkeypatch.setitem(OVERLAYS, "hits", explode)
    frame = build(scene, scene.answers(), Context.for_scene(scene))
    assert items(frame, "ov:closest:a:b")  # the other visuals are still drawn


def test_unchanged_results_reuse_their_geometry_and_the_evaluator_caches():
    scene = Scene()
    scene.add(Sphere((0, 0, 0), 1), id="a")
    scene.add(Sphere((5, 0, 0), 1), id="b")
    scene.add(Sphere((0, 5, 0), 1), id="c")
    ev = Evaluator()
    ctx = Context.for_scene(scene)
    cache: dict = {}
    first = build(scene, ev.results(scene, scene.pairs()), ctx, cache=cache)
    scene.update("c", primitive=Sphere((0, 6, 0), 1))
    second = build(scene, ev.results(scene, scene.pairs()), ctx, cache=cache)
    by1 = {i.name: i.mesh for i in first.items}
    by2 = {i.name: i.mesh for i in second.items}
    assert by2["ov:closest:a:b:pts"] is by1["ov:closest:a:b:pts"]  # a-b did not change
    assert by2["ov:closest:a:c:pts"] is not by1["ov:closest:a:c:pts"]
    # a-c: centres 6 apart, radii 1: closest points (0, 1, 0) and (0, 5, 0)
    assert np.allclose(by2["ov:closest:a:c:pts"].points, [[0, 1, 0], [0, 5, 0]])


def test_the_evaluators_answers_are_what_explorer_eval_prints():
    """The window's cached evaluator gives the same typed answers as the scene (and so the
    same ``explorer eval`` objects), for every pair of every shipped scene."""
    from algorithms.report import result_json
    from explorer import SCENES_DIR
    from explorer.model.scenefile import load

    ev = Evaluator()
    for path in sorted(SCENES_DIR.glob("*.json")):
        scene = load(path)
        for a, b in scene.pairs():
            r = ev.result(scene, a, b)
            assert isinstance(r, PairAnswer)
            assert ev.result(scene, a, b) is r  # cached
            assert result_json(r) == scene.evaluate_pair(a, b), (path.name, a, b)

def test_mesh_center_is_vtks_center_and_follows_rewritten_points():
    """``mesh_center`` (numpy bounds of the points, cached by the points' MTime) must equal
    VTK's ``GetCenter`` for every drawn primitive type, and follow an in-place rewrite."""
    from vtkmodules.vtkCommonDataModel import vtkDataSet

    from algorithms import Capsule, Cylinder, Line, Point, Triangle
    from explorer.render.view import (GEOMS, _PointWriter, geom_to_mesh, mesh_center,
                                      primitive_geom, scene_extent)

    prims = [Point((1, 2, 3)), Segment((0, 0, 0), (1, 2, 3)), Ray((0, 0, 0), (1, 1, 0)),
             Line((1, 0, 0), (0, 1, 1)), Plane((0, 0, 1), 2), Triangle(((0, 0, 0), (1, 0, 0),
                                                                         (0, 2, 1))),
             Sphere((1, -1, 2), 0.5), AABB((0, 0, 0), (1, 2, 3)), OBB((1, 1, 1), I3, (1, 2, 3)),
             Cylinder((0, 0, 1), (0, 1, 1), 0.5, 2.0), Capsule((0, 0, 0), (2, 1, 0), 0.3)]
    assert {p.kind for p in prims} == set(GEOMS)
    ext = scene_extent(prims)
    for prim in prims:
        mesh = geom_to_mesh(primitive_geom(prim, ext))
        assert np.array_equal(mesh_center(mesh), vtkDataSet.GetCenter(mesh)), prim.kind
        moved = primitive_geom(prim.translated((0.5, -2.0, 1.0)), ext)
        assert _PointWriter(mesh).write(moved)
        assert np.array_equal(mesh_center(mesh), vtkDataSet.GetCenter(mesh)), prim.kind
