"""The time-of-impact fast path (:mod:`algorithms.kernels.toi_fast`, issue 12 part 1): hand
cases whose contact time is derived by hand, the switches that turn it off, its fallbacks, and
a property test against today's careful conservative advancement on the same inputs (the
independent oracle is the careful path's static distance queries) plus the contact properties
every ``"toi"`` answer must have."""

import math

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.fuzz import examples

from algorithms import AABB, OBB, Capsule, Cylinder, Point, Segment, Sphere, Triangle, query
from algorithms.kernels import toi_fast
from algorithms.kernels.filters import careful_only
from tests.algorithms.generic.test_advancement import BOUNDED, check_contact_properties, motion_st

SETTINGS = settings(max_examples=examples(60), deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


CA = "conservative_advancement"


def fast(a, b, m):
    r = query("toi", a, b, m, method=CA)
    assert "path" in r.trace, r.trace  # the fast path answered
    return r


def careful(a, b, m):
    with toi_fast.off():
        r = query("toi", a, b, m, method=CA)
    assert "path" not in r.trace
    return r


def test_capsules_closing_side_by_side():
    # cores x = 0 and x = 3, both along y over [0, 1], radii 0.5 + 0.5: the core gap 3 must
    # shrink to 1 at closing speed 4, so t = 2 / 4 = 0.5; normal +x (A to B), the contact
    # point on the segment between the cores at x = 0.5
    a = Capsule((0, 0, 0), (0, 1, 0), 0.5)
    b = Capsule((3, 0, 0), (3, 1, 0), 0.5)
    r = fast(a, b, (-4, 0, 0))
    assert r.toi == pytest.approx(0.5, abs=1e-15)
    assert r.normal == pytest.approx((1, 0, 0), abs=1e-12)
    assert r.point[0] == pytest.approx(0.5, abs=1e-12) and 0 <= r.point[1] <= 1
    assert r.trace["case"] == "d(t) reached tol" and r.trace["iterations"][0]["distance"] == 2


def test_sphere_against_cylinder_side_and_end_disk():
    cyl = Cylinder((0, 0, 0), (0, 0, 1), 1.0, 2.0)  # radius 1, z in [-1, 1]
    # the side: the centre from x = 5 reaches x = 1 + 1 = 2 after 3 of the 4 units
    r = fast(cyl, Sphere((5, 0, 0), 1.0), (-4, 0, 0))
    assert r.toi == pytest.approx(0.75, abs=1e-15)
    assert r.normal == pytest.approx((1, 0, 0), abs=1e-12)
    assert r.point == pytest.approx((1, 0, 0), abs=1e-12)
    # the end disk: the centre from z = 5 reaches z = 1 + 1 = 2 at t = 3 / 4 (swapped order)
    r = fast(Sphere((0.3, 0, 5), 1.0), cyl, (0, 0, 4))
    assert r.toi == pytest.approx(0.75, abs=1e-15)
    assert r.normal == pytest.approx((0, 0, -1), abs=1e-12)
    # passing beside: closest approach 3 - 1 - 1 = 1 > 0, no contact
    assert query("toi", cyl, Sphere((5, 3, 0), 1.0), (-10, 0, 0)).toi is None


def test_cylinder_against_box_face():
    # the box's face x = 3 meets the cylinder's side x = 1 after moving 2 of 4: t = 0.5
    cyl = Cylinder((0, 0, 0), (0, 0, 1), 1.0, 2.0)
    box = OBB((3.5, 0, 0), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (0.5, 1, 1))
    r = fast(cyl, box, (-4, 0, 0))
    assert r.toi == pytest.approx(0.5, abs=1e-9)
    assert r.toi <= 0.5 + 1e-15  # conservative: never past the contact
    assert r.normal == pytest.approx((1, 0, 0), abs=1e-6)


def test_boxes_and_a_triangle():
    # AABB [0, 1]^3 and a box whose face x = 2 closes at speed 2: gap 1, t = 0.5
    a = AABB((0, 0, 0), (1, 1, 1))
    b = OBB((2.5, 0.5, 0.5), ((1, 0, 0), (0, 1, 0), (0, 0, 1)), (0.5, 0.5, 0.5))
    r = fast(a, b, (-2, 0, 0))
    assert r.toi == pytest.approx(0.5, abs=1e-15)
    assert r.normal == pytest.approx((1, 0, 0), abs=1e-12)
    # a triangle in z = 0 and a segment above it falling: gap 2 at speed 8, t = 0.25
    tri = Triangle(((0, 0, 0), (2, 0, 0), (0, 2, 0)))
    r = fast(tri, Segment((0.5, 0.5, 2), (0.5, 0.5, 3)), (0, 0, -8))
    assert r.toi == pytest.approx(0.25, abs=1e-15)
    assert r.normal == pytest.approx((0, 0, 1), abs=1e-12)


def test_switches_and_fallbacks():
    a = Capsule((0, 0, 0), (0, 1, 0), 0.5)
    b = Capsule((3, 0, 0), (3, 1, 0), 0.5)
    with careful_only():
        assert "path" not in query("toi", a, b, (-4, 0, 0)).trace
    assert careful(a, b, (-4, 0, 0)).toi == pytest.approx(0.5, abs=1e-12)
    # exact (Fraction) inputs go the careful way
    ea, eb = a.as_exact(), b.as_exact()
    assert "path" not in query("toi", ea, eb, (-4, 0, 0)).trace
    # touching at t = 0: the careful path finds the common point
    r = query("toi", a, Capsule((1, 0, 0), (1, 1, 0), 0.5), (1, 0, 0))
    assert r.toi == 0 and "path" not in r.trace
    # an unbounded kind is not the fast path's
    assert toi_fast.fast_advancement(a, b, (-4, 0, 0)) is not None
    with pytest.raises(toi_fast.Unsure):
        toi_fast.shape(type("Prim", (), {"kind": "plane"})())


@SETTINGS
@given(st.data())
def test_agrees_with_the_careful_path(data):
    ka = data.draw(st.sampled_from(sorted(BOUNDED)))
    kb = data.draw(st.sampled_from(sorted(BOUNDED)))
    a, b = data.draw(BOUNDED[ka]), data.draw(BOUNDED[kb])
    m = data.draw(motion_st)
    r = query("toi", a, b, m, method=CA)
    check_contact_properties(a, b, m, r)
    c = careful(a, b, m)
    scale = 1 + math.sqrt(sum(x * x for x in m))
    if (r.toi is None) != (c.toi is None):
        # only a grazing path may differ: its closest approach is within the tolerance
        t = c.toi if c.toi is not None else r.toi
        d = query("distance", a, b.translated(tuple(t * x for x in m))).distance
        assert d <= 1e-7 * scale
        return
    if r.toi is not None:
        assert r.toi == pytest.approx(c.toi, abs=1e-6)


def test_point_core_closed_forms_match_the_careful_path():
    # point and segment cores (Ericson's closed form), a point core against a cylinder
    cases = [(Sphere((0, 0, 0), 0.3), Segment((3, -1, 0.2), (3, 1, 0.2)), (-4, 0.1, 0)),
             (Sphere((0, 0, 0), 0.3), Capsule((3, -1, 0.2), (3, 1, 0.5), 0.2), (-4, 0.2, 0.1)),
             (Cylinder((0, 0, 0), (1, 1, 0), 0.5, 1.0), Point((3, 0.2, 0.1)), (-4, 0, 0)),
             (Point((3, 0.2, -0.1)), Cylinder((0, 0, 0), (1, 1, 1), 0.5, 1.0), (4, 0, 0))]
    for a, b, m in cases:
        r, c = fast(a, b, m), careful(a, b, m)
        assert r.toi == pytest.approx(c.toi, abs=1e-12)
        # the careful point-cylinder goes through GJK (a curved rim: 1e-8 in the direction)
        assert r.normal == pytest.approx(c.normal, abs=1e-7)


def _moving_cases(seed=3, count=5):
    """Random moving pairs of the kinds ``bench kernels`` times (capsule, cylinder, box,
    triangle, sphere): A near the origin, B near (3, 0, 0) moving by about (-4, 0, 0)."""
    import random

    rng = random.Random(seed)

    def rv(s=1.0):
        return tuple(rng.uniform(-s, s) for _ in range(3))

    def unit():
        while True:
            v = rv()
            n = math.sqrt(sum(x * x for x in v))
            if n > 0.1:
                return tuple(x / n for x in v)

    def make(kind, at):
        c = tuple(o + x for o, x in zip(at, rv(0.3)))
        if kind == "capsule":
            u = unit()
            return Capsule(tuple(x - 0.4 * e for x, e in zip(c, u)),
                           tuple(x + 0.4 * e for x, e in zip(c, u)), 0.25)
        if kind == "cylinder":
            return Cylinder(c, unit(), 0.35, 0.9)
        if kind == "obb":
            a = unit()
            b = (a[1], -a[0], 0.0) if abs(a[2]) < 0.9 else (0.0, a[2], -a[1])
            nb = math.sqrt(sum(x * x for x in b))
            b = tuple(x / nb for x in b)
            return OBB(c, (a, b, (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2],
                                  a[0] * b[1] - a[1] * b[0])), (0.5, 0.3, 0.4))
        if kind == "sphere":
            return Sphere(c, 0.4)
        if kind == "aabb":
            return AABB(tuple(x - 0.4 for x in c), tuple(x + 0.5 for x in c))
        return Triangle(tuple(tuple(x + e for x, e in zip(c, rv(0.6))) for _ in range(3)))

    pairs = (("capsule", "capsule"), ("sphere", "capsule"), ("capsule", "obb"),
             ("sphere", "cylinder"), ("capsule", "cylinder"), ("obb", "cylinder"),
             ("cylinder", "cylinder"), ("triangle", "cylinder"), ("obb", "obb"),
             ("aabb", "triangle"))
    for ka, kb in pairs:
        for _ in range(count):
            yield ka, kb, make(ka, (0.0, 0.0, 0.0)), make(kb, (3.0, 0.0, 0.0)), (
                -4 + rng.uniform(-1, 1), rng.uniform(-1.5, 1.5), rng.uniform(-1.5, 1.5))


def assert_as_careful(ka, kb, r, c) -> bool:
    """The fast answer ``r`` of a ``ka``-``kb`` pair is the careful ``c`` within the documented
    tolerance: the same hit or miss, never after its contact, before it by at most ``tol /
    closing speed`` (a few ulps for polytopes and round cores, at worst 1e-8 with a
    cylinder). Returns whether it is a hit."""
    assert (r.toi is None) == (c.toi is None), (ka, kb)
    if r.toi is None:
        return False
    curved = "cylinder" in (ka, kb)
    assert r.toi <= c.toi + (1e-12 if curved else 1e-14), (ka, kb, r.toi, c.toi)
    assert c.toi - r.toi <= (1e-8 if curved else 1e-14), (ka, kb, r.toi, c.toi)
    return True


def test_fast_toi_is_the_careful_toi_within_the_documented_tolerance():
    """The fast path (the one GJK loop in plain-float mode, warm-started) answers these moving
    pairs itself, with the careful path's hit or miss, never after its contact, and before it
    by at most the documented ``tol / closing speed`` (polytopes and round cores: a few ulps;
    a cylinder: about 1e-9, at worst 1e-8)."""
    fast_answers = 0
    for ka, kb, a, b, m in _moving_cases():
        r = query("toi", a, b, m, method=CA)
        c = careful(a, b, m)
        fast_answers += "path" in r.trace
        if not assert_as_careful(ka, kb, r, c):
            continue
        curved = "cylinder" in (ka, kb)
        # the normal: the direction of the closest points at the contact, which rounding
        # tilts where it is nearly undefined (an edge on an edge); against a cylinder's rim
        # both GJKs stop short of the tangent contact (kernels.gjk: up to ~1e-7 in the
        # distance), which tilts the direction by more
        assert r.normal == pytest.approx(c.normal, abs=1e-4 if curved else 1e-6), (ka, kb)
    assert fast_answers == 50  # every case: none handed to the careful path


def test_point_core_forms_are_the_general_closed_form():
    """A point core's closed forms (A's core a point: Ericson's ``s = 0`` at every ``t`` and
    A's closest point kept; B's a point: ``d2 = (p + t m) - (p + t m) = +0.0``) take the
    branches the general form (:meth:`Pair._closed`, RTCD 5.1.9) takes for such cores: the
    same values bit for bit (repr tells -0.0 from 0.0), the general form the oracle."""
    import random

    rng = random.Random(4)

    def rv(s=2.0):
        return tuple(rng.uniform(-s, s) for _ in range(3))

    compared = 0
    for _ in range(150):
        cases = ((Sphere(rv(), 0.3), Capsule(rv(), rv(), 0.2), "_closed_point_a"),
                 (Point(rv()), Segment(rv(), rv()), "_closed_point_a"),
                 (Sphere(rv(), 0.3), Sphere(rv(), 0.2), "_closed_point_a"),
                 (Capsule(rv(), rv(), 0.2), Sphere(rv(), 0.3), "_closed_point_b"),
                 (Segment(rv(), rv()), Point(rv()), "_closed_point_b"),
                 (Capsule(rv(), rv(), 0.2), Capsule(rv(), rv(), 0.1), "_closed"))
        for a, b, form in cases:
            m = rv(4.0)
            pair = toi_fast.Pair(a, b, m)
            assert pair.gap.__name__ == form
            for t in (0.0, 1.0, 0.5, rng.random(), rng.random()):
                assert repr(pair.gap(t)) == repr(pair._closed(t)), (a, b, m, t)
                compared += 1
    assert compared == 150 * 6 * 5


def test_kept_shapes_answer_as_fresh_ones_and_stay_out_of_copies():
    """What the fast path keeps on a primitive (its cores, a cylinder's frame, its plain
    support with the box corners met) answers as computed afresh, whichever side of a pair
    the primitive is on; a pickle or a deep copy of the primitive keeps none of it (a support
    function is a closure, which does not pickle) and computes its own."""
    import copy
    import pickle

    def shapes():  # a box and a sphere near the origin, a cylinder and a capsule near x = 3
        return (OBB((0.1, 0, 0), ((0.6, 0.8, 0), (-0.8, 0.6, 0), (0, 0, 1)), (0.5, 0.3, 0.4)),
                Sphere((0.0, 0.1, 0.0), 0.4),
                Cylinder((3, 0.2, 0.1), (0, 0.6, 0.8), 0.35, 0.9),
                Capsule((3, -0.3, 0), (3.2, 0.4, 0.1), 0.25))

    def answer(r):
        return repr((r.toi, r.point, r.normal, r.trace))

    m, back = (-4.0, 0.1, 0.2), (4.0, -0.1, -0.2)
    box, sph, cyl, cap = shapes()
    # each primitive on both sides; the sphere's point core against the cylinder's frame,
    # the rest through GJK on the kept supports
    pairs = ((box, cyl, m), (cyl, box, back), (box, cap, m), (cap, box, back),
             (sph, cyl, m), (cyl, sph, back), (sph, cap, m), (cap, sph, back))
    first = [answer(query("toi", a, b, mm)) for a, b, mm in pairs]  # fills what is kept
    assert all("path" in query("toi", a, b, mm).trace for a, b, mm in pairs)
    assert sum(query("toi", a, b, mm).toi is not None for a, b, mm in pairs) >= 6
    again = [answer(query("toi", a, b, mm)) for a, b, mm in pairs]
    fresh = dict(zip(map(id, (box, sph, cyl, cap)), shapes()))
    anew = [answer(query("toi", fresh[id(a)], fresh[id(b)], mm)) for a, b, mm in pairs]
    assert again == first and anew == first
    for p in (box, sph, cyl, cap):
        assert any(k.startswith("_toi_fast") for k in p.__dict__)
        for q in (pickle.loads(pickle.dumps(p)), copy.deepcopy(p)):
            assert q == p and not q.__dict__.get("_toi_fast_shape")
        # a shallow copy shares the instance's dict entries: the same shape, rightly
        assert copy.copy(p) == p
    q = pickle.loads(pickle.dumps(box))
    assert answer(query("toi", q, cyl, m)) == first[0]


def test_trace_part_makes_the_trace_the_loop_used_to_fill():
    """:func:`toi_fast.trace_part` of the loop's raw values is the trace dict key for key and
    in its order (a hit: tol, iterations, polish, case, toi, distance_at_toi,
    static_queries; a miss: tol, iterations, case, static_queries); with the step recorder
    the trace is filled as the loop goes, its steps after the iterations."""
    from algorithms.generic.advancement import conservative_advancement

    a = Capsule((0, 0, 0), (0, 1, 0), 0.5)
    hit = [("tol", "iterations", "polish", "case", "toi", "distance_at_toi", "static_queries"),
           (Capsule((3, 0, 0), (3, 1, 0), 0.5), (-4, 0, 0))]
    miss = [("tol", "iterations", "case", "static_queries"),
            (Capsule((3, 5, 0), (3, 6, 0), 0.5), (-4, 0, 0))]
    for keys, (b, m) in (hit, miss):
        raw = toi_fast.fast_advancement(a, b, m, raw=True)
        full = toi_fast.fast_advancement(a, b, m)
        assert type(full[3]) is dict and tuple(full[3]) == keys
        assert repr(toi_fast.trace_part(raw[3])) == repr(full[3])
        assert all(set(row) == {"t", "distance", "closing_speed"}
                   for row in full[3]["iterations"])
        r = query("toi", a, b, m)
        assert tuple(r.trace) == ("A.6",) + keys + ("path",)
        assert repr({k: r.trace[k] for k in keys}) == repr(full[3])
        rec = conservative_advancement(a, b, m, record=True)
        assert tuple(rec.trace) == ("A.6", "tol", "iterations", "steps") + keys[2:] + ("path",)
        assert repr({k: rec.trace[k] for k in keys}) == repr(full[3])
    # the hit by hand (test_capsules_closing_side_by_side): gap 2 at speed 4, t = 0.5
    assert toi_fast.fast_advancement(a, hit[1][0], (-4, 0, 0))[3]["toi"] == 0.5


# ----------------------------------------------------------------------------- thin shapes


def _exact_point_box_toi(box, p, m):
    """The first ``t`` in ``[0, 1]`` with ``p + t m`` in the box ``{c + sum s_i a_i : |s_i|
    <= e_i}`` of the float data (centre, axes, extents) as given, in Fractions (Cramer's rule
    for the local coordinates, each linear in ``t``); ``None`` when it never enters."""
    from fractions import Fraction

    def det(u, v, w):
        return (u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0])
                + u[2] * (v[0] * w[1] - v[1] * w[0]))

    cols = [[Fraction(x) for x in ax] for ax in box.axes]
    d = det(*cols)

    def local(x):
        return [det(*[x if j == i else cols[j] for j in range(3)]) / d for i in range(3)]

    x0 = local([Fraction(p[i]) - Fraction(box.center[i]) for i in range(3)])
    dx = local([Fraction(x) for x in m])
    lo, hi = Fraction(0), Fraction(1)
    for i in range(3):
        e = Fraction(box.extents[i])
        if dx[i] == 0:
            if abs(x0[i]) > e:
                return None
            continue
        t1, t2 = sorted(((-e - x0[i]) / dx[i], (e - x0[i]) / dx[i]))
        lo, hi = max(lo, t1), min(hi, t2)
    return float(lo) if lo <= hi else None


#: the frames of tests/algorithms/kernels/test_gjk.py's thin-box tests
def _frames():
    from tests.algorithms.kernels.test_gjk import FUZZ_AXES, TILTED_AXES
    return FUZZ_AXES, TILTED_AXES


@pytest.mark.parametrize("frame", [0, 1], ids=["fuzz-axes", "tilted"])
@pytest.mark.parametrize("ratio", [1e-3, 3e-4, 1e-5, 1e-7, 1e-9, 1e-10, 1e-12])
def test_point_and_box_reach_a_thin_box(frame, ratio):
    """A point or a small box moving along a face normal onto a box ``ratio`` thin
    (thickness / length): a strip of extents ``(0, t, L)`` (its face ``s0 = 0``), a slab
    ``(t, L, L)`` (its big face ``s0 = t`` and its thin side ``s1 = L``), ``t = ratio L``.

    The point starts at ``foot + gap n`` over a foot inside the face and moves by ``-speed
    n`` (``n`` the face's axis): it enters at ``gap / speed``; the expected value is the exact
    first time it enters the box of the float inputs (:func:`_exact_point_box_toi`,
    Fractions). The box mover (the same axes, its face ``n``-facing, 0.004 L across) reaches
    the face when its face does: ``gap / speed`` too (its face overlaps the target face in
    projection from the start; the rounding of the construction, ~1e-16 of the scale, is far
    inside the bound). The fast path must answer (``"path"``), never after the contact, and
    before it by at most ``1e-12`` of the scale over the speed (its polish stops at ``1e-3
    tol``).

    Before the fix the fast path took a repeated support point's ``|v|`` as the distance
    where GJK had stopped on an edge of ``A - B`` short of the sliver face holding the
    nearest point (its plain mode had no stall retry on a repeat), and Ericson's region
    tests solved slivers of ``sin^2`` 1e-10..1e-3 by Gram-style determinants (error ~eps /
    sin^2): steps passed the contact (answers late by up to 1e-2 of the scale, the point
    through a zero-thickness strip, a contact missed)."""
    u0, u1, u2 = _frames()[frame]
    axes = (u0, u1, u2)
    failures = []
    for c, length in (((0.0, 0.0, 0.0), 1.0), ((0.5, -1.25, 2.0), 3.0),
                      ((500.0, -1250.0, 2000.0), 1000.0)):
        t = ratio * length
        for shape, face in (("strip", 0), ("slab", 0), ("slab", 1)):
            ext = (0.0, t, length) if shape == "strip" else (t, length, length)
            box = OBB(c, axes, ext)
            n = axes[face]
            for f1, f2, g, toi in ((0.5, 0.3, 0.37, 0.41), (-0.9, -0.99, 0.62, 0.73),
                                   (0.999, 0.001, 0.05, 0.2), (-0.28, 0.96, 0.8, 0.55)):
                # the foot: on the face s_face = ext[face], the other two coordinates the
                # fractions f1, f2 of their extents
                s = [0.0, 0.0, 0.0]
                s[face] = ext[face]
                others = [i for i in range(3) if i != face]
                s[others[0]], s[others[1]] = f1 * ext[others[0]], f2 * ext[others[1]]
                foot = tuple(c[k] + sum(s[i] * axes[i][k] for i in range(3)) for k in range(3))
                gap, speed = g * length, g * length / toi
                m = tuple(-speed * x for x in n)
                scale = max(max(map(abs, c)), length)
                point = Point(tuple(foot[k] + gap * n[k] for k in range(3)))
                exact = _exact_point_box_toi(box, point.position, m)
                assert exact == pytest.approx(toi, rel=1e-12)  # the construction
                movers = [(point, exact)]
                if ext[others[0]] > 0.004 * length and ext[others[1]] > 0.004 * length:
                    e = [0.002 * length] * 3
                    e[face] = 0.01 * length
                    centre = tuple(foot[k] + (gap + e[face]) * n[k] for k in range(3))
                    movers.append((OBB(centre, axes, tuple(e)), gap / speed))
                for mover, expected in movers:
                    for a, b, mm in ((box, mover, m), (mover, box, tuple(-x for x in m))):
                        r = query("toi", a, b, mm, method=CA)
                        late = None if r.toi is None else (r.toi - expected) * speed / scale
                        if "path" not in r.trace or late is None or late > 1e-15 \
                                or late < -1e-12:
                            failures.append((shape, face, c, f1, f2, mover.kind, a.kind,
                                             r.toi, expected, late))
    assert not failures, failures
