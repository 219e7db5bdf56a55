"""Drag grips (explorer.model.drag, no Qt): what dragging each grip of each type does.

Expected values are worked by hand in the comments; the GUI test drives the same functions
through the grip widgets' VTK events.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from algorithms import AABB, OBB, Capsule, Cylinder, Line, Plane, Ray, Segment, Sphere, Triangle
from algorithms.primitives import TYPES, GeometryError
from explorer.model.drag import APPLY, HANDLES, drag_to, handles, new_primitive, snap


def test_tables_cover_every_type():
    assert set(HANDLES) == set(TYPES) == set(APPLY)


@pytest.mark.parametrize("kind", list(TYPES))
def test_dragging_a_grip_onto_itself_changes_nothing(kind):
    prim = new_primitive(kind, center=(0.3, -0.2, 0.5), size=1.7)
    for name, pos in handles(prim, size=6.0):
        again = drag_to(prim, name, pos, size=6.0)
        for a, b in zip(_flat(prim.to_fields()), _flat(again.to_fields())):
            assert a == pytest.approx(b, abs=1e-12), (kind, name)


def _flat(fields):
    out = []
    for v in fields.values():
        out += list(np.ravel(np.asarray(v, dtype=float)))
    return out


def test_sphere_grips():
    s = Sphere((1, 0, 0), 0.5)
    # the radius grip at distance 2 from the centre: radius 2
    assert drag_to(s, "radius", (1, 2, 0)).radius == pytest.approx(2.0)
    assert drag_to(s, "center", (4, 5, 6)) == Sphere((4, 5, 6), 0.5)


def test_aabb_faces_move_one_coordinate_and_never_cross():
    b = AABB((0, 0, 0), (1, 2, 3))
    # x+ face dragged to (3, 9, 9): only max.x follows
    assert drag_to(b, "x+", (3, 9, 9)) == AABB((0, 0, 0), (3, 2, 3))
    # z- face dragged above max.z: clamped to a flat box at z = 3
    assert drag_to(b, "z-", (0, 0, 7)) == AABB((0, 0, 3), (1, 2, 3))
    # the centre grip (0.5, 1, 1.5) dragged to (1.5, 1, 1.5) moves the box by +1 in x
    assert drag_to(b, "center", (1.5, 1, 1.5)) == AABB((1, 0, 0), (2, 2, 3))


def test_obb_axis_grip_rotates_and_resizes_keeping_orthonormal_right_handed_axes():
    o = OBB((0, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (1, 0.5, 0.25))
    # axis0 grip dragged to (0, 2, 0): axis 0 turns to +y, its half-length becomes 2;
    # Gram-Schmidt keeps axis 1 = old y minus its +y part = 0 -> rebuilt from axis 2:
    # axis1 = axis2 x axis0 = z x y = -x, axis2 = axis0 x axis1 = y x -x = z.
    r = drag_to(o, "axis0", (0, 2, 0))
    a = np.array(r.axes)
    assert a[0] == pytest.approx([0, 1, 0])
    assert r.extents == pytest.approx((2, 0.5, 0.25))
    assert a @ a.T == pytest.approx(np.eye(3), abs=1e-12)
    assert np.linalg.det(a) == pytest.approx(1.0)
    # a 45 degree turn in the xy plane: axis0 = (1, 1, 0)/sqrt 2, extent sqrt 2
    r = drag_to(o, "axis0", (1, 1, 0))
    assert np.array(r.axes[0]) == pytest.approx([math.sqrt(0.5), math.sqrt(0.5), 0])
    assert np.array(r.axes[1]) == pytest.approx([-math.sqrt(0.5), math.sqrt(0.5), 0])
    assert r.extents[0] == pytest.approx(math.sqrt(2))


def test_cylinder_ends_and_radius():
    c = Cylinder((0, 0, 0), (0, 0, 2), 0.5, 2)  # ends at z = -1 and z = +1
    # end1 dragged to (0, 0, 3): ends -1..3, centre z = 1, height 4, axis keeps length 2
    r = drag_to(c, "end1", (0, 0, 3))
    assert r.center == pytest.approx((0, 0, 1)) and r.height == pytest.approx(4)
    assert r.axis == pytest.approx((0, 0, 2))
    # end1 to (2, 0, -1): axis along +x from (0,0,-1): height 2, centre (1, 0, -1)
    r = drag_to(c, "end1", (2, 0, -1))
    assert r.center == pytest.approx((1, 0, -1)) and r.height == pytest.approx(2)
    assert np.array(r.axis) / np.linalg.norm(r.axis) == pytest.approx([1, 0, 0])
    # radius: distance from the grip to the axis line (the z part does not count)
    assert drag_to(c, "radius", (0, 1.5, 7)).radius == pytest.approx(1.5)


def test_capsule_radius_is_the_distance_to_the_core_segment():
    k = Capsule((0, 0, 0), (2, 0, 0), 0.3)
    assert drag_to(k, "radius", (1, 0, 0.8)).radius == pytest.approx(0.8)
    # beyond the p1 end the nearest core point is p1: |(3, 0, 0) - (2, 0, 0)| = 1
    assert drag_to(k, "radius", (3, 0, 0)).radius == pytest.approx(1.0)
    assert drag_to(k, "p1", (2, 2, 0)) == Capsule((0, 0, 0), (2, 2, 0), 0.3)


def test_ray_and_line_direction_grips_keep_the_length_of_the_direction():
    r = Ray((1, 0, 0), (0, 0, 3))
    # grip dragged to origin + (4, 0, 0): the direction turns to +x, keeps length 3
    assert drag_to(r, "direction", (5, 0, 0)).direction == pytest.approx((3, 0, 0))
    assert drag_to(r, "origin", (0, 1, 0)) == Ray((0, 1, 0), (0, 0, 3))
    with pytest.raises(GeometryError):
        drag_to(r, "direction", (1, 0, 0))  # onto the origin: no direction
    ln = Line((0, 0, 0), (1, 0, 0))
    assert drag_to(ln, "direction", (0, -2, 0)).direction == pytest.approx((0, -1, 0))


def test_plane_point_and_normal_grips():
    p = Plane((0, 0, 2), 4)  # z = 2
    # the point grip moved to height 5: the plane z = 5, i.e. 2 z = 10
    assert drag_to(p, "point", (7, 7, 5)) == Plane((0, 0, 2), 10)
    # the normal grip sits at the anchor (0, 0, 2) (nearest the origin) + normal; dragged to
    # anchor + (1, 0, 0): normal (2, 0, 0) (length kept), still through (0, 0, 2): d = 0
    q = drag_to(p, "normal", (1, 0, 2))
    assert q.normal == pytest.approx((2, 0, 0)) and q.d == pytest.approx(0)


def test_triangle_and_segment_grips():
    t = Triangle(((0, 0, 0), (3, 0, 0), (0, 3, 0)))
    assert drag_to(t, "v1", (3, 0, 1)).vertices[1] == (3, 0, 1)
    # centre (1, 1, 0) to (1, 1, 2): every vertex up by 2
    assert drag_to(t, "center", (1, 1, 2)).vertices == ((0, 0, 2), (3, 0, 2), (0, 3, 2))
    s = Segment((0, 0, 0), (2, 0, 0))
    assert drag_to(s, "center", (1, 1, 0)) == Segment((0, 1, 0), (2, 1, 0))


def test_snap_rounds_to_the_grid():
    # 0.12 / 0.25 = 0.48 -> 0; 0.38 / 0.25 = 1.52 -> 2 (0.5); -0.13 / 0.25 = -0.52 -> -1
    assert snap((0.12, 0.38, -0.13), 0.25) == (0.0, 0.5, -0.25)
    assert snap((0.12, 0.38, -0.13), None) == (0.12, 0.38, -0.13)
    assert drag_to(Sphere((0, 0, 0), 1), "center", (0.9, 1.1, 0.2), snap_step=0.5).center == \
        (1.0, 1.0, 0.0)


def test_non_finite_positions_are_refused():
    with pytest.raises(GeometryError):
        drag_to(Sphere((0, 0, 0), 1), "center", (float("nan"), 0, 0))
