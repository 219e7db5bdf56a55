"""The Minkowski shapes of moving pairs (issue 13 part 3): the shape, the relative path and the
entry point at the time of impact, with hand-derived times."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from tests.fuzz import examples
from hypothesis import strategies as st

from algorithms import AABB, OBB, Plane, Sphere
from explorer.model.scene import Scene
from explorer.model.workspace import DEFAULT_OVERLAYS
from explorer.render.minkowski import minkowski_shape, rounded_box_geom
from explorer.render.overlays import FOCUS_ONLY, Context, build


def scene_of(*items):
    scene = Scene()
    for obj_id, prim, motion in items:
        scene.add(prim, id=obj_id, motion=motion)
    return scene


def frame_of(scene, kinds=("minkowski",)):
    return build(scene, scene.answers(), Context.for_scene(scene), kinds)


def item(frame, suffix):
    return next(i for i in frame.items if i.name.endswith(suffix))


def dist_to_box(p, lo, hi):
    p = np.asarray(p, float)
    return float(np.linalg.norm(p - np.clip(p, lo, hi)))


@settings(max_examples=examples(30), deadline=None)
@given(st.tuples(*[st.floats(-3, 3)] * 3), st.tuples(*[st.floats(0.1, 2)] * 3),
       st.floats(0.05, 2))
def test_the_rounded_box_is_everywhere_r_from_the_box(lo, size, r):
    lo = np.asarray(lo)
    hi = lo + np.asarray(size)
    g = rounded_box_geom(lo, hi, r)
    d = [dist_to_box(p, lo, hi) for p in g.points]
    assert min(d) == pytest.approx(r, rel=1e-9) and max(d) == pytest.approx(r, rel=1e-9)
    # it reaches r beyond every face: the extreme points are the grown box's
    assert g.points.min(axis=0) == pytest.approx(lo - r)
    assert g.points.max(axis=0) == pytest.approx(hi + r)


def test_sphere_against_box_the_centre_enters_the_rounded_box_at_x_minus_2():
    # a sphere r = 1 at x = -5 moving +10 in x against the box [-1, 1]^3: the box grown by
    # r = 1 has its -x face at x = -2; the centre travels from -5 to -2, 3 of its 10: t = 0.3
    scene = scene_of(("s", Sphere((-5, 0, 0), 1.0), (10, 0, 0)),
                     ("b", AABB((-1, -1, -1), (1, 1, 1)), None))
    ans = scene.answer("s", "b")
    assert ans.toi == pytest.approx(0.3, abs=1e-15)
    info = minkowski_shape(scene["s"], scene["b"])
    assert info["kind"] == "rounded_box" and info["r"] == 1.0
    assert info["start"] == (-5, 0, 0) and info["path"] == (10, 0, 0)
    frame = frame_of(scene)
    entry = item(frame, ":entry").mesh.points[0]
    assert entry == pytest.approx((-2, 0, 0), abs=1e-14)
    assert dist_to_box(entry, (-1, -1, -1), (1, 1, 1)) == pytest.approx(1.0)
    path = item(frame, ":path").mesh.points
    assert path == pytest.approx(np.array([(-5, 0, 0), (5, 0, 0)]))
    assert any(lb.text == "rounded box: entered at t = 0.3" for lb in frame.labels)
    # the box moving -10 instead: the same relative path (A.6), the same entry in its frame
    scene = scene_of(("b", AABB((-1, -1, -1), (1, 1, 1)), (-10, 0, 0)),
                     ("s", Sphere((-5, 0, 0), 1.0), None))
    info = minkowski_shape(scene["b"], scene["s"])
    assert info["start"] == (-5, 0, 0) and info["path"] == (10, 0, 0)
    assert item(frame_of(scene), ":entry").mesh.points[0] == pytest.approx((-2, 0, 0))


def test_two_spheres_the_ball_of_both_radii_around_the_still_one():
    # A: r 1 at the origin, still; B: r 0.5 at x = 5 moving -10: the ball of radius 1.5 around
    # A's centre is entered by B's centre at x = 1.5: t = (5 - 1.5) / 10 = 0.35 (A.13)
    for order in ((0, 1), (1, 0)):
        items = [("A", Sphere((0, 0, 0), 1.0), None), ("B", Sphere((5, 0, 0), 0.5), (-10, 0, 0))]
        scene = scene_of(*(items[i] for i in order))
        ids = [items[i][0] for i in order]
        ans = scene.answer(*ids)
        assert ans.toi == pytest.approx(0.35)
        info = minkowski_shape(scene[ids[0]], scene[ids[1]])
        assert info["shape"] == Sphere((0, 0, 0), 1.5)  # around the still one, either order
        assert info["start"] == (5, 0, 0) and info["path"] == (-10, 0, 0)
        assert item(frame_of(scene), ":entry").mesh.points[0] == pytest.approx((1.5, 0, 0))


def test_two_boxes_the_minkowski_box_and_the_per_axis_times():
    # A = [0, 1]^3 still; B = [3, 4] x [0, 1] x [0, 1] moving (-3, 0, 0). B's half-extents are
    # 0.5: the Minkowski box is [-0.5, 1.5]^3; B's centre (3.5, 0.5, 0.5) reaches x = 1.5 at
    # t = 2 / 3, A.17's t_enter on x (B's min 3 - 3t meets A's max 1)
    scene = scene_of(("A", AABB((0, 0, 0), (1, 1, 1)), None),
                     ("B", AABB((3, 0, 0), (4, 1, 1)), (-3, 0, 0)))
    ans = scene.answer("A", "B")
    assert ans.toi == pytest.approx(2 / 3)
    info = minkowski_shape(scene["A"], scene["B"])
    assert info["shape"] == AABB((-0.5, -0.5, -0.5), (1.5, 1.5, 1.5))
    assert info["start"] == (3.5, 0.5, 0.5)
    assert item(frame_of(scene), ":entry").mesh.points[0] == pytest.approx((1.5, 0.5, 0.5))


def test_no_shape_for_still_or_other_pairs_and_the_toggle():
    still = scene_of(("s", Sphere((-5, 0, 0), 1.0), None), ("b", AABB((-1,) * 3, (1,) * 3), None))
    assert not frame_of(still).items
    obb = scene_of(("s", Sphere((-5, 0, 0), 1.0), (10, 0, 0)),
                   ("o", OBB((0, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (1, 1, 1)), None))
    assert minkowski_shape(obb["s"], obb["o"]) is None and not frame_of(obb).items
    moving = scene_of(("s", Sphere((-5, 0, 0), 1.0), (10, 0, 0)),
                      ("b", AABB((-1,) * 3, (1,) * 3), None))
    assert frame_of(moving).items
    names = [i.name for i in frame_of(moving, ("closest", "toi")).items]
    assert not any("minkowski" in n for n in names)  # switched off: not drawn
    # on at start, for the pair in focus only (a crowded moving scene draws one)
    assert "minkowski" in DEFAULT_OVERLAYS and "minkowski" in FOCUS_ONLY
    ctx = Context.for_scene(moving)
    unfocused = build(moving, moving.answers(), ctx, ("minkowski",), focus=set())
    assert not unfocused.items


def test_the_swept_interval_is_while_the_centre_is_inside():
    from explorer.render.minkowski import inside_interval

    # the rounded box of the x = -2 case: inside for x in [-2, 2], t in [0.3, 0.7]
    scene = scene_of(("s", Sphere((-5, 0, 0), 1.0), (10, 0, 0)),
                     ("b", AABB((-1, -1, -1), (1, 1, 1)), None))
    assert inside_interval(minkowski_shape(scene["s"], scene["b"])) == \
        pytest.approx((0.3, 0.7), abs=1e-12)
    # off-centre through the rounded edge: y = 1.6, z = 0: the edge cylinder around
    # (x = -1, y = 1) has (x + 1)^2 + 0.36 = 1: x = -1.8, t = (5 - 1.8) / 10 = 0.32; and out
    # again at x = 1.8: t = 0.68
    scene = scene_of(("s", Sphere((-5, 1.6, 0), 1.0), (10, 0, 0)),
                     ("b", AABB((-1, -1, -1), (1, 1, 1)), None))
    assert inside_interval(minkowski_shape(scene["s"], scene["b"])) == \
        pytest.approx((0.32, 0.68), abs=1e-12)
    assert scene.answer("s", "b").toi == pytest.approx(0.32, abs=1e-12)
    # a path that misses the grown box: none
    scene = scene_of(("s", Sphere((-5, 2.5, 0), 1.0), (10, 0, 0)),
                     ("b", AABB((-1, -1, -1), (1, 1, 1)), None))
    assert inside_interval(minkowski_shape(scene["s"], scene["b"])) is None


def test_sphere_against_plane_the_slab_of_half_thickness_r():
    from explorer.render.minkowski import inside_interval

    # the plane z = 0 (normal (0, 0, 2), d = 0: not unit), a sphere r = 0.5 at z = 2 moving
    # (0, 0, -3): the centre's height 2 - 3t reaches r = 0.5 at t = 0.5 (A.15) and -r at
    # t = 2.5 / 3, so the slab |z| <= 0.5 holds the centre for t in [0.5, 5/6]
    scene = scene_of(("s", Sphere((0, 0, 2), 0.5), (0, 0, -3)),
                     ("p", Plane((0, 0, 2), 0.0), None))
    assert scene.answer("s", "p").toi == pytest.approx(0.5)
    info = minkowski_shape(scene["s"], scene["p"])
    assert info["kind"] == "slab" and info["r"] == 0.5 and info["path"] == (0, 0, -3)
    assert inside_interval(info) == pytest.approx((0.5, 5 / 6), abs=1e-12)
    frame = frame_of(scene)
    slab = item(frame, ":shape").mesh.points
    # two faces of the slab, at z = -0.5 and z = +0.5
    assert sorted(set(np.round(slab[:, 2], 12))) == [-0.5, 0.5]
    assert item(frame, ":entry").mesh.points[0] == pytest.approx((0, 0, 0.5))
    assert any(lb.text == "slab +-r: entered at t = 0.5" for lb in frame.labels)
    # the plane moving up by 3 instead, the sphere still: the same relative path (A.6)
    scene = scene_of(("p", Plane((0, 0, 2), 0.0), (0, 0, 3)),
                     ("s", Sphere((0, 0, 2), 0.5), None))
    info = minkowski_shape(scene["p"], scene["s"])
    assert info["path"] == (0, 0, -3)
    assert inside_interval(info) == pytest.approx((0.5, 5 / 6), abs=1e-12)
    # moving parallel to the plane, 2 above it: never inside
    scene = scene_of(("s", Sphere((0, 0, 2), 0.5), (3, 0, 0)), ("p", Plane((0, 0, 1), 0.0), None))
    assert inside_interval(minkowski_shape(scene["s"], scene["p"])) is None


def test_when_both_move_the_picture_moves_with_the_held_sphere():
    # A: r 1 at the origin moving (+2, 0, 0); B: r 0.5 at x = 5 moving (-8, 0, 0). Relative
    # motion -10 as in the test above, so the ball of radius 1.5 around A is entered at
    # t = 0.35. At the view's time t the picture is drawn where A is then: shifted by
    # t * (2, 0, 0); at t = toi = 0.35 the entry point is (1.5 + 0.7, 0, 0) = (2.2, 0, 0), and
    # B's centre is there too: 5 - 8 * 0.35 = 2.2 (the path passes through B at every t)
    import pyvista as pv

    from explorer.render.view import SceneView

    scene = scene_of(("A", Sphere((0, 0, 0), 1.0), (2, 0, 0)),
                     ("B", Sphere((5, 0, 0), 0.5), (-8, 0, 0)))
    assert scene.answer("A", "B").toi == pytest.approx(0.35)
    frame = frame_of(scene)
    base = "ov:minkowski:A:B"
    assert frame.follows == {f"{base}:{p}": "A" for p in ("shape", "path", "start", "entry")} | {
        base: "A"}
    plotter = pv.Plotter(off_screen=True)
    try:
        view = SceneView(plotter)
        view.set_scene(scene)
        view.apply_frame(frame)
        entry = view.overlay_actors()[f"{base}:entry"]
        assert entry.GetPosition() == (0.0, 0.0, 0.0)
        view.set_time(0.35)
        assert entry.GetPosition() == pytest.approx((0.7, 0.0, 0.0))
        at = np.asarray(item(frame, ":entry").mesh.points[0]) + entry.GetPosition()
        b_centre = np.asarray(scene["B"].at_time(0.35).center)
        assert at == pytest.approx((2.2, 0, 0)) and at == pytest.approx(b_centre)
        label = view.label_actors()[base].GetPositionCoordinate().GetValue()
        assert label[0] == pytest.approx(frame_label(frame, base)[0] + 0.7)
        view.set_time(0.0)
        assert entry.GetPosition() == (0.0, 0.0, 0.0)
    finally:
        plotter.close()
    # only B moving: nothing follows (the picture is A's, and A stays put)
    still = scene_of(("A", Sphere((0, 0, 0), 1.0), None), ("B", Sphere((5, 0, 0), 0.5), (-10, 0, 0)))
    assert frame_of(still).follows == {}


def frame_label(frame, name):
    return next(lab.position for lab in frame.labels if lab.name == name)
