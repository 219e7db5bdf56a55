"""Separating-axis tests: OBB-OBB, OBB-AABB, AABB-AABB, triangle-AABB/OBB, triangle-triangle.

Oracles
-------
* exact: boxes built from rational rotations (integer quaternions, ``R = ... / n``) have
  Fraction axes, so the SAT runs exactly; the oracle decides "boxes intersect" exactly and
  independently: two convex polytopes meet iff an edge of one meets the other (a vertex of
  ``A n B`` lies on a face of A and a face of B whose dimensions add to <= 3), and an edge
  meets a box iff its slab-clipped parameter interval (in the box frame, exact) is nonempty;
* every separating flag in the trace is re-checked exactly from the 8 (or 3) vertex
  projections on the exact candidate axis, rebuilt from its name;
* floats: the GJK distance (algorithms.kernels.gjk) and the support intervals (algorithms.kernels.support):
  separated <=> distance > 0, and the returned axis separates the support intervals.
"""

from __future__ import annotations

import itertools
import math
import os
import zlib
from fractions import Fraction as F

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, OBB, Triangle, registry
from algorithms.core import vec as V
from algorithms.kernels.gjk import gjk_distance
from algorithms.kernels.support import support_interval

I3 = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
#: SAT_LONG=1 multiplies the random case counts by 10 (run by hand; default run < 20 s)
SCALE = 10 if os.environ.get("SAT_LONG") else 1


def sep(a, b, **kw):
    return registry.query("separating_axis", a, b, **kw)


def by_name(result, name):
    return next(e for e in result.trace["axes"] if e["name"] == name)


# ----------------------------------------------------------------------------- rational boxes


def quat_rotation(w, x, y, z):
    """Rows of the rotation of the integer quaternion (w, x, y, z), exact Fractions."""
    n = w * w + x * x + y * y + z * z
    R = ((w * w + x * x - y * y - z * z, 2 * (x * y - w * z), 2 * (x * z + w * y)),
         (2 * (x * y + w * z), w * w - x * x + y * y - z * z, 2 * (y * z - w * x)),
         (2 * (x * z - w * y), 2 * (y * z + w * x), w * w - x * x - y * y + z * z))
    return tuple(tuple(F(c, n) for c in row) for row in R)


def box_vertices(center, axes, extents):
    out = []
    for signs in itertools.product((-1, 1), repeat=3):
        p = tuple(center)
        for s, a, h in zip(signs, axes, extents):
            p = V.add(p, V.scale(s * h, a))
        out.append(p)
    return out


def box_edges(center, axes, extents):
    verts = {}
    for signs in itertools.product((-1, 1), repeat=3):
        p = tuple(center)
        for s, a, h in zip(signs, axes, extents):
            p = V.add(p, V.scale(s * h, a))
        verts[signs] = p
    edges = []
    for signs, p in verts.items():
        for k in range(3):
            if signs[k] == -1:
                other = list(signs)
                other[k] = 1
                edges.append((p, verts[tuple(other)]))
    return edges


def segment_meets_box(p0, p1, center, axes, extents) -> bool:
    """Exact slab clipping of p0 + t (p1 - p0), t in [0, 1], in the box frame."""
    lo, hi = F(0), F(1)
    d = V.sub(p1, p0)
    for a, h in zip(axes, extents):
        u0 = V.dot(a, V.sub(p0, center))
        du = V.dot(a, d)
        if du == 0:
            if abs(u0) > h:
                return False
            continue
        t1, t2 = (-h - u0) / du, (h - u0) / du
        if t1 > t2:
            t1, t2 = t2, t1
        lo, hi = max(lo, t1), min(hi, t2)
        if lo > hi:
            return False
    return True


def boxes_meet_exact(A, B) -> bool:
    """Exact intersection oracle for two boxes given as (center, axes, extents)."""
    return (any(segment_meets_box(p, q, *B) for p, q in box_edges(*A))
            or any(segment_meets_box(p, q, *A) for p, q in box_edges(*B)))


def exact_axis(name, A_axes, B_axes):
    """Rebuild the unnormalised candidate axis from its trace name (A0, B2, A1xB0)."""
    if "x" in name:
        a, b = name.split("x")
        return V.cross(A_axes[int(a[1])], B_axes[int(b[1])])
    return (A_axes if name[0] == "A" else B_axes)[int(name[1])]


def projections_disjoint(verts_a, verts_b, L) -> bool:
    pa = [V.dot(p, L) for p in verts_a]
    pb = [V.dot(p, L) for p in verts_b]
    return max(pa) < min(pb) or max(pb) < min(pa)


quats = st.tuples(*[st.integers(-4, 4)] * 4).filter(lambda q: any(q))
rationals = st.fractions(min_value=-3, max_value=3, max_denominator=4)
extents = st.fractions(min_value=0, max_value=2, max_denominator=4)


@st.composite
def rational_obb(draw):
    axes = quat_rotation(*draw(quats))
    c = tuple(draw(rationals) for _ in range(3))
    e = tuple(draw(extents) for _ in range(3))
    return OBB(c, axes, e, exact=True)


def tilted_pair(g):
    """A: unit-half-extent cube turned about y (cos 3/5, sin 4/5); B: turned about x.

    A's top is an edge along y at z = 4/5 + 3/5 = 7/5 (r_A on z = |a0.z| + |a2.z|); B's bottom is
    an edge along x at depth 7/5 below its centre. With B's centre at z = 14/5 + g the z axis
    = A1 x B0 = y x x (up to sign) has margin exactly g.
    """
    c, s = F(3, 5), F(4, 5)
    A = OBB((0, 0, 0), ((c, 0, -s), (0, 1, 0), (s, 0, c)), (1, 1, 1), exact=True)
    B = OBB((0, 0, F(14, 5) + g), ((1, 0, 0), (0, c, s), (0, -s, c)), (1, 1, 1), exact=True)
    return A, B


# ----------------------------------------------------------------------------- hand cases


def test_face_axis_A0_separates_cubes_three_apart():
    # unit half-extent cubes with centres 3 apart on x: on A0 = x, r_A = r_B = 1, distance 3,
    # margin 3 - 2 = 1; the projections are [-1, 1] and [2, 4].
    a = OBB((0, 0, 0), I3, (1, 1, 1))
    b = OBB((3, 0, 0), I3, (1, 1, 1))
    r = sep(a, b)
    assert not r.intersects and r.trace["chosen"] == "A0"
    assert r.axis == (1.0, 0.0, 0.0) and r.intervals == ((-1.0, 1.0), (2.0, 4.0))
    e = by_name(r, "A0")
    assert (e["r_A"], e["r_B"], e["distance"], e["margin"]) == (1.0, 1.0, 3.0, 1.0)
    # same orientation: A0xB0, A1xB1, A2xB2 are zero crosses and are skipped, 12 remain
    assert len(r.trace["axes"]) == 12
    assert {s["name"] for s in r.trace["skipped_axes"]} == {"A0xB0", "A1xB1", "A2xB2"}


@pytest.mark.parametrize("g,separated", [(F(1, 10), True), (F(0), False), (F(-1, 10), False)])
def test_only_edge_edge_axis_separates(g, separated):
    A, B = tilted_pair(g)
    r = sep(A, B)
    assert r.intersects is (not separated)
    seps = [e["name"] for e in r.trace["axes"] if e["separating"]]
    e = by_name(r, "A1xB0")
    assert e["margin"] == pytest.approx(float(g), abs=1e-15)
    # A's z-radius 7/5 and B's 7/5 (docstring of tilted_pair)
    assert e["r_A"] == pytest.approx(1.4) and e["r_B"] == pytest.approx(1.4)
    if separated:
        assert seps == ["A1xB0"] and r.trace["chosen"] == "A1xB0"
        assert r.axis == (0.0, 0.0, 1.0)  # oriented from A to B
        assert r.intervals[0][1] == pytest.approx(1.4) and r.intervals[1][0] == pytest.approx(1.5)
    else:
        assert seps == [] and r.axis is None
    assert boxes_meet_exact((A.center, A.axes, A.extents), (B.center, B.axes, B.extents)) is (
        not separated)


def test_obb_aabb_uses_identity_axes_for_b():
    # AABB [2,4]x[-1,1]^2 against the unit cube turned by (3/5, 4/5) about z: on B0 = x the cube
    # reaches 3/5 + 4/5 = 7/5 < 2, margin 3 - 7/5 - 1 = 3/5.
    c, s = F(3, 5), F(4, 5)
    a = OBB((0, 0, 0), ((c, s, 0), (-s, c, 0), (0, 0, 1)), (1, 1, 1), exact=True)
    b = AABB((2, -1, -1), (4, 1, 1), exact=True)
    r = sep(a, b)
    assert not r.intersects
    assert by_name(r, "B0")["margin"] == pytest.approx(0.6)
    assert by_name(r, "B0")["separating"] and r.trace["chosen"] == "B0"
    # swapped through the registry: the names follow the arguments (the AABB is now A), and
    # r_A / r_B are exchanged: on the AABB's x axis r_A = 1 (AABB), r_B = 7/5 (OBB)
    s = sep(b, a)
    assert s.trace["chosen"] == "A0" and s.trace["swapped"]
    assert (by_name(s, "A0")["r_A"], by_name(s, "A0")["r_B"]) == pytest.approx((1.0, 1.4))
    assert "B0xA1" in {e["name"] for e in s.trace["axes"]}  # the OBB's axis 0 x AABB's y


def test_aabb_aabb_axes_xyz_and_touching():
    # [0,1]^3 and [1,2]x[0,1]x[0,1] touch on x = 1 (margin 0): touching counts as intersecting,
    # unlike Listing A.5's ">=" which would report no overlap.
    a = AABB((0, 0, 0), (1, 1, 1))
    r = sep(a, AABB((1, 0, 0), (2, 1, 1)))
    assert r.intersects and [e["name"] for e in r.trace["axes"]] == ["x", "y", "z"]
    assert by_name(r, "x")["margin"] == 0.0
    # moved 0.5 further: margin 0.5 on x; y, z overlap (margin -1)
    r = sep(a, AABB((1.5, 0, 0), (2.5, 1, 1)))
    assert not r.intersects and r.axis == (1.0, 0.0, 0.0)
    assert [e["margin"] for e in r.trace["axes"]] == [0.5, -1.0, -1.0]
    assert r.intervals == ((0.0, 1.0), (1.5, 2.5))
    assert registry.query("intersects", a, AABB((1, 0, 0), (2, 1, 1))).intersects
    assert not registry.query("intersects", a, AABB((1.5, 0, 0), (2.5, 1, 1))).intersects


def test_aabb_aabb_distance_per_axis_gap():
    # gaps 1 on x and 2 on z (3-4-5 style: sqrt(1 + 4)); y overlaps on [0.5, 1] -> middle 0.75
    r = registry.query("distance", AABB((0, 0, 0), (1, 1, 1)), AABB((2, 0.5, 3), (3, 2, 4)))
    assert r.distance == pytest.approx(math.sqrt(5))
    assert r.closest == ((1.0, 0.75, 1.0), (2.0, 0.75, 3.0))
    assert r.trace["gaps"] == [1.0, 0.0, 2.0]
    # exact: [0,1]^3 vs [3,4]x[4,5]x[0,1]: gaps 2, 3 -> sqr 13 exactly
    r = registry.query("distance", AABB((0, 0, 0), (1, 1, 1), exact=True),
                       AABB((3, 4, 0), (4, 5, 1), exact=True))
    assert r.sqr_distance == 13 and isinstance(r.sqr_distance, F)
    # overlapping: distance 0, common point
    r = registry.query("distance", AABB((0, 0, 0), (2, 2, 2)), AABB((1, 1, 1), (3, 3, 3)))
    assert r.distance == 0 and r.closest[0] == r.closest[1] == (1.5, 1.5, 1.5)


def test_triangle_aabb_triangle_normal_separates():
    # triangle in the plane x + y + z = 3 (normal (1,1,1)) vs the unit cube [0,1]^3: the cube
    # reaches x+y+z = 3 only at its corner (1,1,1) -> touching; lift the triangle to
    # x+y+z = 3.3: on the normal margin = (3.3 - 3) / sqrt(3).
    tri = Triangle(((3.3, 0, 0), (0, 3.3, 0), (0, 0, 3.3)))
    r = sep(tri, AABB((0, 0, 0), (1, 1, 1)))
    assert not r.intersects and r.trace["chosen"] == "triangle normal"
    assert by_name(r, "triangle normal")["margin"] == pytest.approx(0.3 / math.sqrt(3))
    tri = Triangle(((3, 0, 0), (0, 3, 0), (0, 0, 3)), exact=True)
    assert sep(tri, AABB((0, 0, 0), (1, 1, 1), exact=True)).intersects  # touching corner
    names = [e["name"] for e in sep(tri, AABB((0, 0, 0), (1, 1, 1))).trace["axes"]]
    assert names[:4] == ["B0", "B1", "B2", "triangle normal"]
    assert "edge0 x B1" in names and len(names) == 13


def test_triangle_obb_edge_cross_separates():
    # Segment-like sliver: triangle along the line y = 0, z = 2 + x ... simpler: the triangle
    # (-5,0,1.2), (5,0,1.2), (0,0.001,1.2) lies just above the cube [-1,1]^3 turned 45 deg about
    # x; the cube's top is an edge along x at z = sqrt(2) ~ 1.414 > 1.2, so they intersect.
    # Raised to z = 1.5 the normal z separates with margin 1.5 - sqrt(2).
    h = math.sqrt(0.5)
    box = OBB((0, 0, 0), ((1, 0, 0), (0, h, h), (0, -h, h)), (1, 1, 1))
    tri = Triangle(((-5, 0, 1.2), (5, 0, 1.2), (0, 0.001, 1.2)))
    assert sep(tri, box).intersects
    tri = Triangle(((-5, 0, 1.5), (5, 0, 1.5), (0, 0.001, 1.5)))
    r = sep(tri, box)
    assert not r.intersects
    assert r.intervals[1][0] - r.intervals[0][1] == pytest.approx(1.5 - math.sqrt(2)) or \
        r.intervals[0][0] - r.intervals[1][1] == pytest.approx(1.5 - math.sqrt(2))


def test_triangle_triangle_cases():
    t = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)), exact=True)
    # crossing: B pierces A's interior vertically (through (0.25, 0.25, 0))
    b = Triangle(((F(1, 4), F(1, 4), -1), (F(1, 4), F(1, 4), 1), (3, 3, 0)), exact=True)
    assert sep(t, b).intersects
    # coplanar, side by side: B's corner (1, 1) lies on x + y = 2, A's hypotenuse on x + y = 1;
    # only in-plane normals separate: A.n x A.edge1 (along (1, 1)) has margin (2 - 1) / sqrt(2)
    b = Triangle(((1, 1, 0), (2, 1, 0), (1, 2, 0)), exact=True)
    r = sep(t, b)
    assert not r.intersects
    assert r.trace["chosen"] == "A.n x A.edge1"
    assert r.trace["axes"][[e["name"] for e in r.trace["axes"]].index("A.n x A.edge1")][
        "margin"] == pytest.approx(1 / math.sqrt(2))
    # coplanar overlapping
    assert sep(t, Triangle(((F(1, 2), F(1, 2), 0), (2, 0, 0), (0, 2, 0)), exact=True)).intersects
    # parallel planes 1 apart: the normal separates with margin 1
    r = sep(t, t.translated((0, 0, 1)))
    assert not r.intersects and r.trace["chosen"] in ("A.normal", "B.normal")
    assert by_name(r, "A.normal")["margin"] == pytest.approx(1.0)


def test_nearly_coplanar_side_by_side_triangles_are_separated():
    # B tilted by 1e-14: every edge cross is then almost the normal and its margin is rounding,
    # but the in-plane edge normals still see the gap between x + y = 1 (A's hypotenuse) and
    # x + y = 2 (B's corner (1, 1)): 1 / sqrt(2).
    t = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)))
    b = Triangle(((1, 1, 0), (2, 1, 1e-14), (1, 2, -1e-14)))
    r = sep(t, b)
    assert not r.intersects
    assert max(e["margin"] for e in r.trace["axes"]) == pytest.approx(1 / math.sqrt(2))


def test_degenerate_triangles():
    t = Triangle(((0, 0, 0), (1, 0, 0), (0, 1, 0)), exact=True)
    # collinear triangle (a segment from (2,2,0) to (4,4,0)) in t's plane: rank-2 extras; the
    # in-plane normal of t's hypotenuse separates (margin (4 - 1)/sqrt(8) ... at least > 0)
    seg = Triangle(((2, 2, 0), (3, 3, 0), (4, 4, 0)), exact=True)
    r = sep(t, seg)
    assert not r.intersects
    # the same segment crossing the triangle: from (-1, 0.5, 0) to (2, 0.5, 0)
    cross = Triangle(((-1, F(1, 2), 0), (2, F(1, 2), 0), (F(1, 2), F(1, 2), 0)), exact=True)
    assert sep(t, cross).intersects
    # two parallel collinear "triangles" on lines y = 0 and y = 1 (rank 1): perpendicular axis
    s1 = Triangle(((0, 0, 0), (1, 0, 0), (2, 0, 0)), exact=True)
    s2 = Triangle(((0, 1, 0), (1, 1, 0), (2, 1, 0)), exact=True)
    r = sep(s1, s2)
    assert not r.intersects and r.trace["edge_span_rank"] == 1
    assert r.axis == (0.0, 1.0, 0.0) and r.intervals == ((0.0, 0.0), (1.0, 1.0))
    # collinear and overlapping, and collinear apart on the common line
    assert sep(s1, s1.translated((1, 0, 0))).intersects
    r = sep(s1, s1.translated((3, 0, 0)))
    assert not r.intersects and r.axis == (1.0, 0.0, 0.0)
    # point "triangles": rank 0, the centre line
    p = Triangle(((1, 1, 1),) * 3, exact=True)
    q = Triangle(((2, 3, 1),) * 3, exact=True)
    r = sep(p, q)
    assert not r.intersects and r.trace["edge_span_rank"] == 0
    assert sep(p, p).intersects
    # point triangle inside / outside a box
    assert sep(p, AABB((0, 0, 0), (1, 1, 1), exact=True)).intersects
    assert not sep(q, AABB((0, 0, 0), (1, 1, 1), exact=True)).intersects


def test_flat_boxes():
    # two unit squares (zero z extent) in z = 0 and z = 0: overlapping / apart on x
    a = OBB((0, 0, 0), I3, (1, 1, 0))
    assert sep(a, OBB((1.5, 0, 0), I3, (1, 1, 0))).intersects
    r = sep(a, OBB((2.5, 0, 0), I3, (1, 1, 0)))
    assert not r.intersects and r.trace["chosen"] == "A0"
    # stacked squares in z = 0 and z = 1e-9: separated by the z axis with margin 1e-9
    r = sep(a, OBB((0, 0, 1e-9), I3, (1, 1, 0)))
    assert not r.intersects and by_name(r, "A2")["margin"] == pytest.approx(1e-9)
    # a point box (all extents 0) inside and outside
    assert sep(OBB((0.5, 0.5, 0), I3, (0, 0, 0)), a).intersects
    assert not sep(OBB((0.5, 0.5, 0.1), I3, (0, 0, 0)), a).intersects


def test_near_parallel_cross_axes_are_skipped_not_noisy():
    # B equals A turned by 1e-12 about z and moved 3 on x: the crosses A0xB0, A1xB1 have
    # |a x b| ~ 1e-12 < 1e-8 and are skipped (A2xB2 is exactly zero); the face axis A0
    # separates with margin ~1.
    t = 1e-12
    b_axes = ((math.cos(t), math.sin(t), 0), (-math.sin(t), math.cos(t), 0), (0, 0, 1))
    a = OBB((0, 0, 0), I3, (1, 1, 1))
    r = sep(a, OBB((3, 0, 0), b_axes, (1, 1, 1)))
    assert not r.intersects and r.trace["chosen"] in ("A0", "B0")
    assert {s["name"] for s in r.trace["skipped_axes"]} == {"A0xB0", "A1xB1", "A2xB2"}
    assert sep(a, OBB((2, 0, 0), b_axes, (1, 1, 1))).intersects  # touching


@pytest.mark.parametrize("angle", [1e-9, 1e-11, 1e-13, 1e-15])
def test_near_parallel_generic_axis(angle):
    # B = A turned by a tiny angle about the generic axis (1, 2, 3)/|.|: all three crosses
    # a_i x b_i are rounding noise in direction. Offsets 1.9 / 2.1 on x (half-extents 1):
    # overlapping by 0.1, then apart by 0.1 (the turn moves corners by < 1e-8).
    k = np.array([1.0, 2.0, 3.0]) / math.sqrt(14)
    K = np.array([[0, -k[2], k[1]], [k[2], 0, -k[0]], [-k[1], k[0], 0]])
    R = np.eye(3) + math.sin(angle) * K + (1 - math.cos(angle)) * K @ K
    a = OBB((0, 0, 0), I3, (1, 1, 1))
    assert sep(a, OBB((1.9, 0.3, -0.2), R, (1, 1, 1))).intersects
    r = sep(a, OBB((2.1, 0.3, -0.2), R, (1, 1, 1)))
    assert not r.intersects and r.trace["chosen"] in ("A0", "B0")
    assert r.intervals[1][0] - r.intervals[0][1] == pytest.approx(0.1, abs=1e-7)


# ----------------------------------------------------------------------------- exact properties


@settings(max_examples=examples(40) * SCALE, deadline=None)
@given(rational_obb(), rational_obb())
def test_exact_obb_obb_against_edge_clipping_oracle(a, b):
    r = sep(a, b)
    A = (a.center, a.axes, a.extents)
    B = (b.center, b.axes, b.extents)
    assert r.intersects is boxes_meet_exact(A, B)
    va, vb = box_vertices(*A), box_vertices(*B)
    for e in r.trace["axes"]:
        L = exact_axis(e["name"], a.axes, b.axes)
        assert e["separating"] is projections_disjoint(va, vb, L), e["name"]


@settings(max_examples=examples(20) * SCALE, deadline=None)
@given(rational_obb(), st.tuples(rationals, rationals, rationals),
       st.tuples(extents, extents, extents))
def test_exact_obb_aabb_against_edge_clipping_oracle(a, c, e):
    box = AABB(tuple(ci - ei for ci, ei in zip(c, e)), tuple(ci + ei for ci, ei in zip(c, e)),
               exact=True)
    r = sep(a, box)
    ident = tuple(tuple(F(int(i == j)) for j in range(3)) for i in range(3))
    assert r.intersects is (boxes_meet_exact((a.center, a.axes, a.extents),
                                                 (box.center, ident, box.extents)))
    # and swapped through the registry: same answer, intervals swapped
    s = sep(box, a)
    assert s.intersects is r.intersects and s.trace["swapped"]
    if not r.intersects:
        assert s.intervals == (r.intervals[1], r.intervals[0])


def test_exact_touching_rational_boxes():
    # the tilted pair at g = 0 touches exactly along a point of A's top edge: exact SAT says
    # intersecting (margin exactly 0); at g = 1/10^30 it separates (a float test could not
    # tell these apart: 14/5 + 1e-30 rounds to 14/5)
    A, B = tilted_pair(F(0))
    assert sep(A, B).intersects
    A, B = tilted_pair(F(1, 10 ** 30))
    r = sep(A, B)
    assert not r.intersects and r.trace["chosen"] == "A1xB0"


# ----------------------------------------------------------------------------- float properties

coord = st.floats(-3, 3, allow_nan=False)
ext = st.floats(0, 2, allow_nan=False)


def rand_rotation(rng):
    q = rng.normal(size=4)
    w, x, y, z = q / np.linalg.norm(q)
    return ((1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
            (2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
            (2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)))


def rand_shape(kind, rng, flat_prob=0.15):
    """Random box or triangle; ``flat_prob`` also drives collinear/coplanar triangles."""
    c = rng.uniform(-1.6, 1.6, 3)
    if kind == "obb":
        e = rng.uniform(0, 1.5, 3)
        e[rng.random(3) < flat_prob] = 0
        return OBB(c, rand_rotation(rng), e)
    if kind == "aabb":
        e = rng.uniform(0, 1.5, 3)
        e[rng.random(3) < flat_prob] = 0
        return AABB(c - e, c + e)
    if kind == "triangle":
        v = c + rng.uniform(-1.5, 1.5, (3, 3))
        u = rng.random() * (flat_prob > 0)  # 0 -> never degenerate
        if u == 0:
            pass
        elif u < 0.1:  # collinear
            v[2] = v[0] + rng.uniform(-1, 2) * (v[1] - v[0])
        elif u < 0.2:  # coplanar with z = const
            v[:, 2] = c[2]
        return Triangle(v)
    raise ValueError(kind)


PAIRS = [("obb", "obb"), ("obb", "aabb"), ("aabb", "aabb"), ("triangle", "aabb"),
         ("triangle", "obb"), ("triangle", "triangle")]


def check_against_gjk(a, b):
    r = sep(a, b)
    d = gjk_distance(a, b).distance
    if r.intersects:
        assert d <= 1e-9, (a, b, d)
    else:
        assert d > 0
        u = np.asarray(r.axis)
        ia, ib = support_interval(a, u), support_interval(b, u)
        assert r.intervals[0] == pytest.approx(ia, abs=1e-9)
        assert r.intervals[1] == pytest.approx(ib, abs=1e-9)
        gap = ib[0] - ia[1]
        assert gap > -1e-12
        # a separating gap never exceeds the distance
        assert gap <= d + 1e-9
        chosen = by_name(r, r.trace["chosen"])
        assert chosen["margin"] == pytest.approx(gap, abs=1e-9)
    # every traced axis: margin from its own r_A, r_B, distance, and the support intervals
    for e in r.trace["axes"]:
        assert e["margin"] == pytest.approx(e["distance"] - e["r_A"] - e["r_B"], abs=1e-12)
        u = np.asarray(e["axis"])
        ia, ib = support_interval(a, u), support_interval(b, u)
        assert e["r_A"] == pytest.approx((ia[1] - ia[0]) / 2, abs=1e-9)
        assert e["r_B"] == pytest.approx((ib[1] - ib[0]) / 2, abs=1e-9)
    return r, d


@pytest.mark.parametrize("ka,kb", PAIRS)
def test_random_pairs_against_gjk_and_support(ka, kb):
    rng = np.random.default_rng(zlib.crc32(f"{ka}-{kb}".encode()))
    n_sep = n_int = 0
    for _ in range(70 * SCALE):
        a, b = rand_shape(ka, rng), rand_shape(kb, rng)
        r, d = check_against_gjk(a, b)
        if d > 1e-6:
            assert not r.intersects
        n_sep += not r.intersects
        n_int += r.intersects
        # swap symmetry through the registry: a flipped registration (different kinds)
        # gives the same axis with the intervals swapped; a same-kind pair runs with the
        # roles exchanged, so the best margin must agree
        s = sep(b, a)
        assert s.intersects is r.intersects
        if not r.intersects and ka != kb:
            assert s.axis == r.axis and s.trace["swapped"]
            assert s.intervals == (r.intervals[1], r.intervals[0])
        if not r.intersects and ka == kb:
            best = max(e["margin"] for e in r.trace["axes"])
            assert max(e["margin"] for e in s.trace["axes"]) == pytest.approx(best, abs=1e-12)
            check_against_gjk(b, a)
    assert n_sep >= 5 and n_int >= 5, (n_sep, n_int)  # both outcomes exercised


@pytest.mark.parametrize("ka,kb", PAIRS)
def test_near_touching_pairs(ka, kb):
    # push B towards A along the GJK direction until it is 1e-7 apart: SAT must separate, with
    # a best margin in (0, 1e-7] (a SAT margin is a lower bound of the distance: it equals it
    # only when the closest direction is one of the candidates); then 1e-7 further than touching: usually inside (not always: at a sharp
    # vertex of A - B the push can graze past), so there SAT must agree with GJK on the moved
    # pair, and intersect whenever GJK reports 0.
    rng = np.random.default_rng(7 + len(ka + kb))
    checked = inside_count = 0
    for _ in range(50 * SCALE):
        a, b = rand_shape(ka, rng, 0), rand_shape(kb, rng, 0)
        g = gjk_distance(a, b)
        if g.distance < 1e-3:
            continue
        pa, pb = np.asarray(g.closest[0]), np.asarray(g.closest[1])
        u = (pb - pa) / g.distance
        apart = b.translated(tuple(-(g.distance - 1e-7) * u))
        r = sep(a, apart)
        assert not r.intersects
        assert 0 < max(e["margin"] for e in r.trace["axes"]) <= 1e-7 + 1e-12
        inside = b.translated(tuple(-(g.distance + 1e-7) * u))
        d2 = gjk_distance(a, inside).distance
        r = sep(a, inside)
        if d2 == 0:
            assert r.intersects
            inside_count += 1
        else:
            assert not r.intersects
            assert 0 < max(e["margin"] for e in r.trace["axes"]) <= d2 + 1e-12
        checked += 1
    assert checked > 10 * SCALE and inside_count > 0.5 * checked


def test_all_entries_jsonable():
    import json

    from algorithms.results import to_jsonable
    A, B = tilted_pair(F(1, 10))
    json.dumps(to_jsonable(sep(A, B).trace))


# ----------------------------------------------------------------------------- exact triangle oracles
# Sutherland-Hodgman clipping of triangle A against the closed half-spaces whose intersection
# is B (a box: 6; a non-degenerate triangle: its plane as two half-spaces and the 3 edge
# prisms), in exact Fractions. A convex polygon meets a half-space iff one of its vertices
# does, so the clipped list is nonempty iff A and B intersect.


def clip(poly, n, d):
    """The part of the (convex) point list ``poly`` with ``n . x <= d``, exactly."""
    out = []
    k = len(poly)
    for i in range(k):
        P, R = poly[i], poly[(i + 1) % k]
        fp, fr = V.dot(n, P) - d, V.dot(n, R) - d
        if fp <= 0:
            out.append(P)
        if (fp < 0 < fr) or (fr < 0 < fp):
            out.append(V.lerp(P, R, fp / (fp - fr)))
    return out


def box_halfspaces(center, axes, extents):
    out = []
    for a, h in zip(axes, extents):
        out.append((a, V.dot(a, center) + h))
        out.append((V.scale(-1, a), -V.dot(a, center) + h))
    return out


def triangle_halfspaces(tri):
    v = tri.vertices
    n = V.cross(V.sub(v[1], v[0]), V.sub(v[2], v[0]))
    out = [(n, V.dot(n, v[0])), (V.scale(-1, n), -V.dot(n, v[0]))]
    for i, j, k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
        m = V.cross(n, V.sub(v[j], v[i]))
        if V.dot(m, V.sub(v[k], v[i])) > 0:
            m = V.scale(-1, m)
        out.append((m, V.dot(m, v[i])))
    return out


def meets_exact(tri, halfspaces) -> bool:
    poly = list(tri.vertices)
    for n, d in halfspaces:
        poly = clip(poly, n, d)
        if not poly:
            return False
    return True


small = st.integers(-3, 3)
small_pt = st.tuples(small, small, small)


@st.composite
def int_triangle(draw):
    return Triangle(draw(st.tuples(small_pt, small_pt, small_pt)), exact=True)


@settings(max_examples=examples(80) * SCALE, deadline=None)
@given(int_triangle(), small_pt, st.tuples(*[st.integers(0, 2)] * 3))
def test_exact_triangle_aabb_against_clipping(tri, c, e):
    # integer coordinates: touching faces, edges and corners, coplanar and collinear
    # triangles are frequent, and all decided exactly
    box = AABB(tuple(F(ci - ei, 2) for ci, ei in zip(c, e)),
               tuple(F(ci + ei, 2) for ci, ei in zip(c, e)), exact=True)
    ident = tuple(tuple(F(int(i == j)) for j in range(3)) for i in range(3))
    want = meets_exact(tri, box_halfspaces(box.center, ident, box.extents))
    assert sep(tri, box).intersects is want


@settings(max_examples=examples(40) * SCALE, deadline=None)
@given(int_triangle(), rational_obb())
def test_exact_triangle_obb_against_clipping(tri, box):
    want = meets_exact(tri, box_halfspaces(box.center, box.axes, box.extents))
    assert sep(tri, box).intersects is want


@settings(max_examples=examples(80) * SCALE, deadline=None)
@given(int_triangle(), int_triangle())
def test_exact_triangle_triangle_against_clipping(a, b):
    v = b.vertices
    if all(c == 0 for c in V.cross(V.sub(v[1], v[0]), V.sub(v[2], v[0]))):
        # B degenerate: the oracle needs B's half-spaces; use A's if A is a proper triangle
        w = a.vertices
        if all(c == 0 for c in V.cross(V.sub(w[1], w[0]), V.sub(w[2], w[0]))):
            return
        a, b = b, a
    want = meets_exact(a, triangle_halfspaces(b))
    r = sep(a, b)
    assert r.intersects is want
    assert sep(b, a).intersects is want


@pytest.mark.parametrize("scale", [2.0 ** -600, 2.0 ** -300, 1.0, 2.0 ** 300, 2.0 ** 600])
def test_extreme_scales(scale):
    # the unit right triangle and copies scaled by 2^+-600 (powers of two keep the touching
    # case exact): edge crosses would under/overflow (2^-1200, 2^1200) without the
    # max-component rescaling; the answers must not depend on the scale. Lifted by scale/10: the normal separates; shifted to (0.5, 0.5): the copy's corner
    # touches the hypotenuse; to (0.6, 0.6): an in-plane normal separates.
    t = Triangle(((0, 0, 0), (scale, 0, 0), (0, scale, 0)))
    assert sep(t, t.translated((0, 0, scale / 10))).trace["chosen"] == "A.normal"
    assert sep(t, t.translated((0.5 * scale, 0.5 * scale, 0))).intersects
    assert sep(t, t.translated((0.6 * scale, 0.6 * scale, 0))).trace["chosen"].startswith("A.n x")
    # box [0.2, 1] x [0.2, 1] x [-1, 1] holds the triangle's point (0.2, 0.2, 0). Moved by 0.9
    # on x: on B0 = x the gap is 1.1 - 1 = 0.1; across the hypotenuse (edge1 = (-1, 1, 0),
    # edge1 x z = (1, 1, 0)) the corner (1.1, 0.2) gives (1.3 - 1) / sqrt(2) ~ 0.212: chosen
    box = AABB((0.2 * scale, 0.2 * scale, -scale), (scale, scale, scale))
    assert sep(t, box).intersects
    r = sep(t, box.translated((0.9 * scale, 0, 0)))
    assert not r.intersects and r.trace["chosen"] == "edge1 x B2"
    assert by_name(r, "B0")["margin"] == pytest.approx(0.1 * scale)
    assert by_name(r, "edge1 x B2")["margin"] == pytest.approx(0.3 / math.sqrt(2) * scale)


# ----------------------------------------------------------------------------- through evaluate


def _rand_any(kind, rng):
    c = rng.uniform(-1.5, 1.5, 3)
    if kind == "sphere":
        from algorithms import Sphere
        return Sphere(c, rng.uniform(0, 1))
    if kind == "capsule":
        from algorithms import Capsule
        h = rng.uniform(-1, 1, 3)
        return Capsule(c - h, c + h, rng.uniform(0, 0.7))
    return rand_shape(kind, rng)


MY_PAIRS = PAIRS + [("sphere", "aabb"), ("sphere", "obb"), ("sphere", "sphere"),
                    ("sphere", "triangle"), ("capsule", "capsule"), ("capsule", "sphere")]


@pytest.mark.parametrize("ka,kb", MY_PAIRS)
def test_evaluate_pair_is_consistent(ka, kb):
    # the explorer's answer: no error, intersects <=> distance == 0, a separating axis exactly
    # when apart, and it separates the support intervals by at most the distance
    from algorithms.report import evaluate_json as evaluate_pair
    rng = np.random.default_rng(zlib.crc32(f"eval {ka}-{kb}".encode()))
    for i in range(30):
        a, b = _rand_any(ka, rng), _rand_any(kb, rng)
        if i % 2:
            a, b = b, a
        out = evaluate_pair(a, b)
        assert "error" not in out
        assert out["intersects"] is (out["distance"] == 0)
        assert (out["separating_axis"] is None) is out["intersects"]
        if not out["intersects"]:
            u = np.asarray(out["separating_axis"])
            ia, ib = support_interval(a, u), support_interval(b, u)
            gap = max(ib[0] - ia[1], ia[0] - ib[1])
            assert 0 < gap <= out["distance"] + 1e-9


def test_box_trace_has_eberly_table():
    # A axis-aligned, B turned (3/5, 4/5) about z: R = A^T B rows; D_A = centre offset in A
    c, s = F(3, 5), F(4, 5)
    a = OBB((0, 0, 0), I3, (1, 1, 1), exact=True)
    b = OBB((1, 2, 3), ((c, s, 0), (-s, c, 0), (0, 0, 1)), (1, 2, 3), exact=True)
    r = sep(a, b)
    assert r.trace["R"] == [[0.6, -0.8, 0.0], [0.8, 0.6, 0.0], [0.0, 0.0, 1.0]]
    assert r.trace["D_A"] == [1.0, 2.0, 3.0]
    # GTCG's r_B on a_A,0 x a_B,1 is h_B,0 |R_02| + h_B,2 |R_00| = 1*0 + 3*0.6 = 1.8, and
    # r_A = h_A,1 |R_21| + h_A,2 |R_11| = 0 + 0.6: with |L| = |x x b1| = |(0, 0, 0.6)| = 0.6
    # the normalised radii are 3 and 1
    e = by_name(r, "A0xB1")
    assert e["r_B"] == pytest.approx(1.8 / 0.6) and e["r_A"] == pytest.approx(0.6 / 0.6)


@st.composite
def int_aabb(draw):
    lo = draw(small_pt)
    size = draw(st.tuples(*[st.integers(0, 3)] * 3))
    return AABB(lo, tuple(a + b for a, b in zip(lo, size)), exact=True)


@settings(max_examples=examples(60) * SCALE, deadline=None)
@given(int_aabb(), int_aabb())
def test_exact_aabb_aabb_against_edge_oracle_and_certificate(a, b):
    ident = tuple(tuple(F(int(i == j)) for j in range(3)) for i in range(3))
    A, B = (a.center, ident, a.extents), (b.center, ident, b.extents)
    want = boxes_meet_exact(A, B)
    assert sep(a, b).intersects is want
    assert registry.query("intersects", a, b).intersects is want
    # distance: (pa, pb) is optimal iff (pb - pa) . (X - pa) <= 0 for A's corners X and
    # (pa - pb) . (Y - pb) <= 0 for B's corners Y; pa in A, pb in B; exact
    d = registry.query("distance", a, b)
    pa, pb = d.closest
    assert all(lo <= x <= hi for x, lo, hi in zip(pa, a.min, a.max))
    assert all(lo <= x <= hi for x, lo, hi in zip(pb, b.min, b.max))
    g = V.sub(pb, pa)
    assert all(V.dot(g, V.sub(X, pa)) <= 0 for X in box_vertices(*A))
    assert all(V.dot(g, V.sub(pb, Y)) <= 0 for Y in box_vertices(*B))
    assert d.sqr_distance == V.sqr_norm(g)
    assert (d.sqr_distance == 0) is want
