"""Boreskov's one-corner plane test drawn beside A.10's minD/maxD (issue 13, part 1)."""

from __future__ import annotations

import numpy as np
import pytest

from algorithms import AABB, Plane
from explorer.model.scene import Scene
from explorer.render.overlays import Context, build


def test_corner_markers_and_effective_radius():
    scene = Scene()
    scene.add(Plane((1, 1, 1), 4), id="P")
    scene.add(AABB((0, 0, 0), (1, 1, 1)), id="B")
    frame = build(scene, scene.answers(), Context.for_scene(scene))
    labels = {lb.name: lb for lb in frame.labels}
    # n = (1, 1, 1) >= 0 picks the min corner (0, 0, 0): minD = 0, f = 0 - 4
    lo = labels["ov:corner:P:B:min"]
    assert lo.position == (0, 0, 0) and "minD = 0, f = -4" in lo.text
    # the opposite corner (1, 1, 1): maxD = 3, f = -1
    hi = labels["ov:corner:P:B:max"]
    assert hi.position == (1, 1, 1) and "maxD = 3, f = -1" in hi.text
    items = {it.name: it for it in frame.items}
    ends = np.asarray(items["ov:corner:P:B:radius"].mesh.points)
    # r = (1 + 1 + 1) * 0.5 / sqrt(3) = sqrt(3) / 2 along the unit normal from (0.5, 0.5, 0.5)
    assert np.linalg.norm(ends[1] - ends[0]) == pytest.approx(np.sqrt(3))
    assert ends.mean(axis=0) == pytest.approx((0.5, 0.5, 0.5))
    assert "effective radius 0.866" in labels["ov:corner:P:B:r"].text


def test_the_corner_follows_the_signs_of_the_normal():
    scene = Scene()
    scene.add(AABB((0, 0, 0), (1, 2, 3)), id="B")
    scene.add(Plane((-1, 2, -3), 0), id="P")  # box first: the order of the pair does not matter
    frame = build(scene, scene.answers(), Context.for_scene(scene))
    labels = {lb.name: lb for lb in frame.labels}
    # n_x < 0 -> max x, n_y > 0 -> min y, n_z < 0 -> max z: (1, 0, 3), n . x = -1 - 9 = -10
    lo = labels["ov:corner:B:P:min"]
    assert lo.position == (1, 0, 3) and "minD = -10" in lo.text
    assert labels["ov:corner:B:P:max"].position == (0, 2, 0)
