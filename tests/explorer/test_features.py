"""Where the closest points live (issue 13, part 3): the feature (Voronoi region) of each
closest point, named and drawn for the chosen pair."""

from __future__ import annotations

import math

import numpy as np
from hypothesis import given, settings
from tests.fuzz import examples
from hypothesis import strategies as st

from algorithms import AABB, OBB, Capsule, Cylinder, Segment, Sphere, Triangle, evaluate_pair
from explorer.present.features import feature_of

BOX = AABB((0, 0, 0), (1, 2, 3))


def test_box_features_by_hand():
    assert feature_of(BOX, (1, 2, 3)).name == "corner (max x, max y, max z)"
    f = feature_of(BOX, (0.5, 0, 3))
    assert f.kind == "edge" and f.name == "edge along x at min y, max z"
    assert f.points == ((0, 0, 3), (1, 0, 3))
    f = feature_of(BOX, (1, 1, 1))
    assert f.kind == "face" and f.name == "face max x" and len(f.points) == 4
    assert feature_of(BOX, (0.5, 1, 1)).kind == "inside"


def test_other_shapes_by_hand():
    tri = Triangle([(0, 0, 0), (2, 0, 0), (0, 2, 0)])
    assert feature_of(tri, (0, 0, 0)).name == "vertex v0"
    assert feature_of(tri, (1, 1, 0)).name == "edge v1 v2"      # on the hypotenuse
    assert feature_of(tri, (0.5, 0.5, 0)).kind == "face"
    seg = Segment((0, 0, 0), (2, 0, 0))
    assert feature_of(seg, (2, 0, 0)).name == "end p1"
    assert feature_of(seg, (1, 0, 0)).kind == "edge"
    cap = Capsule((0, 0, 0), (0, 0, 2), 0.5)
    assert feature_of(cap, (0, 0, 2.5)).name == "hemisphere at p1"
    assert feature_of(cap, (0.5, 0, 1)).name == "the side wall"
    cyl = Cylinder((0, 0, 0), (0, 0, 1), 1, 2)
    assert feature_of(cyl, (1, 0, 1)).name == "the rim of end1"
    assert feature_of(cyl, (0.2, 0, -1)).name == "the cap disk at end0"
    assert feature_of(cyl, (0, 1, 0.3)).kind == "curved"
    r = math.sqrt(0.5)
    obb = OBB((0, 0, 0), [(r, r, 0), (-r, r, 0), (0, 0, 1)], (1, 1, 1))
    corner = tuple(np.asarray((r, r, 0)) + np.asarray((-r, r, 0)) + np.asarray((0, 0, 1)))
    assert feature_of(obb, corner).kind == "vertex"


coord = st.floats(-4, 4, allow_nan=False)


@settings(max_examples=examples(200), deadline=None)
@given(st.tuples(coord, coord, coord), st.floats(0.1, 1.5))
def test_the_feature_holds_the_closest_point(center, radius):
    """Sphere against the box: the named feature's geometry contains Arvo's closest point."""
    ans = evaluate_pair(Sphere(center, radius), BOX)
    if ans.intersects:
        return
    q = np.asarray(ans.closest[1])
    f = feature_of(BOX, q)
    pts = np.asarray(f.points)
    outside = sum(1 for c, lo, hi in zip(center, BOX.min, BOX.max)
                  if c <= lo + 1e-9 or c >= hi - 1e-9)  # feature_of's tolerance
    # the Voronoi region: on or beyond a bound on 3 axes -> a vertex, 2 -> an edge, 1 -> a face
    assert f.kind == {3: "vertex", 2: "edge", 1: "face"}[outside]
    if f.kind == "vertex":
        assert np.allclose(pts[0], q)
    elif f.kind == "edge":
        d = pts[1] - pts[0]
        t = float(np.clip((q - pts[0]) @ d / (d @ d), 0, 1))
        assert np.linalg.norm(pts[0] + t * d - q) <= 1e-9
    else:
        lo, hi = pts.min(axis=0), pts.max(axis=0)
        assert np.all(q >= lo - 1e-9) and np.all(q <= hi + 1e-9)


def test_window_draws_and_names_the_features(gui_window, qtbot):
    from explorer import LESSONS_DIR

    w = gui_window(LESSONS_DIR / "05_sphere_box_arvo.json")
    assert not w.act_features.isChecked()  # off at start
    w.act_features.trigger()
    w.set_pair("S", "box")
    qtbot.waitUntil(lambda: any(n.startswith("features:") for n in
                                w.viewport.view.overlay_names()), timeout=3000)
    shown = dict(w.feature_overlay.shown)
    # c = (2, 2, 0) is outside the box on x and y: the closest point (1, 1, 0) is on an edge
    assert shown["box"].name == "edge along z at max x, max y"
    assert shown["S"].kind == "curved"
    state = w.viewport.view.label_state("features:box:label")
    assert state[0] == "box: edge along z at max x, max y"
    w.act_features.trigger()  # off
    assert not any(n.startswith("features:") for n in w.viewport.view.overlay_names())
