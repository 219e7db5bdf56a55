"""The fast path of conservative advancement for the bounded kinds: plain floats, a warm-started
GJK whose separating planes bound each step, closed forms for the point/segment cores
(issue 12 part 1: "capsule, cylinder and generic time-of-impact pairs 10x faster").

The careful path (:func:`algorithms.generic.advancement.conservative_advancement` on the
registry's static ``"distance"``) solves a full static distance query at every step: a new
translated primitive, the rescaling check, a GJK run from a cold start to a relative gap of
``1e-13`` and the construction of its whole trace. Here the same advancement (Mirtich;
Dunn & Parberry, 3D Math Primer, App. A.6: A still, B moving by ``t m``) runs on:

* **support functions in plain floats** (closures over tuples: the same closed forms as
  :mod:`algorithms.kernels.support`), round shapes as their cores plus a radius (van den
  Bergen §4.3.4);
* **a GJK that keeps its simplex between steps** (van den Bergen §4.3: the support points of
  B just move by ``dt m`` with B, so the old simplex is a simplex of the new ``A - B``);
* **separating planes as step bounds.** Every GJK iteration queries a direction ``u`` and
  gets ``L = min over A - B of u . x`` (the support value), so the plane ``u . x = L``
  separates the origin from ``core(A) - core(B)`` grown by ``R = r_A + r_B`` when ``L > R``.
  While B moves by ``t m`` the contact needs ``u . (t m) >= L - R``: with closing speed
  ``c = u . m > 0`` no contact comes before ``t + (L - R) / c``, for *any* ``u``, converged or
  not (the GJK ray cast's step, van den Bergen 2004). So GJK stops early (1 % of the distance
  far from the contact, ``1e-4 tol`` near it) and the step is still conservative; ``c <= 0``
  for a separating plane proves no contact from there on (a repeated support point ends GJK
  with ``|v|`` the distance up to rounding, which then bounds the step as in the careful
  path, with its ``tol / 2`` margin);
* **closed forms** for the point and segment cores (sphere, capsule, point, segment pairs):
  Ericson's ``ClosestPtSegmentSegment`` (RTCD §5.1.9), and for a point core against a solid
  cylinder (axial and radial parts clamped apart), no GJK at all;
* **Ericson's sub-algorithm** (RTCD §5.1.5-5.1.6: the origin's Voronoi region on a segment,
  triangle, tetrahedron; :func:`algorithms.kernels.gjk.closest_on_simplex_fast`, which hands a
  degenerate face to the careful exhaustive :func:`algorithms.kernels.gjk.closest_on_simplex`).

The GJK iteration itself is the library's one loop, :func:`algorithms.kernels.gjk.iterate`
(which :func:`algorithms.kernels.gjk.run` is built on), in its plain-float mode: :meth:`Pair.at`
gives it the simplex kept from the last time, B's offset, the sub-algorithm and the gap a step
needs (``tests/algorithms/kernels/test_one_gjk.py`` fails on any GJK loop outside the kernel).

The loop, its tolerance (``1e-9`` of the scale), its cases and its trace keys are those of the
careful path (``"closing_speed"`` is along the plane's ``u``; ``"path"`` says this path
answered). The first distance is solved to the careful GJK's ``1e-13``.

*Misses by moving separating axes* (Dunn & Parberry, 3D Math Primer, App. A.17: the per-axis
``t_enter`` and ``t_leave`` of a moving box against a still one; Eberly, "Intersection of
convex objects: the method of separating axes", on any candidate axes: :func:`moving_axes`).
On an axis ``L`` the shapes project to intervals, B's moving by ``t (L . m)``: they are more
than ``h`` apart on ``L`` (so the shapes too) before ``t_enter`` and after ``t_leave``, and
the shapes can come within ``h`` only where every axis's window overlaps. When the first step
of the loop does not end the query (it stays within ``t = 1``, closing), the windows grown by
``h = 2 tol`` on the line of the centres at their nearest (the motion is normal to it: a
static test, which proves most misses alone; the shapes' face normals too with :data:`JUMP`)
are intersected with ``[0, 1]``: empty, the shapes stay more than ``2 tol`` apart, the careful
path's miss too, and the query ends with its one distance at ``t = 0`` (the trace's row and
``tol``; case :data:`AXES_MISS`). A query that ends at its first step keeps its own
(``closing speed <= 0``, ``passes t = 1`` after the distance at 1), so their traces are
unchanged. The latest ``t_enter`` for ``h = tol / 2`` is a conservative step (the gap on
that axis's plane is ``tol / 2`` there, as after an advancement step) that the first step
could jump to; :data:`JUMP` is off: it saves little (2 to 6 % of a polytope pair's time on
``bench kernels``'s cases, as those land in one or two steps from the plane's bound already;
nothing against a cylinder, whose contacts lie off the axes) and it would change the steps
the explorer draws and ``explorer eval`` prints (``tests/golden/eval/advancement.json``).

*Stalls.* Near a flat face touching a cylinder's rim GJK's simplex turns into a sliver whose
progress rounding cannot register, short of the gap it was asked for (the careful GJK meets the
same and then trusts ``|v|``). Here a stall first retries along ``v`` tilted by ``1e-7 |v|``
(as the careful GJK does, taking the first tilt that shrinks ``v`` where the careful GJK
tries all six for the best); then, far from the contact, a plane proving a tenth of the gap still
makes a step; within ``tol`` by the upper bound ``|v| - R`` the advancement ends there (the
careful path's criterion ``d(t) <= tol`` holds at a time a conservative step reached); else GJK
runs again with the exhaustive sub-algorithm, and as the last resort the careful static query
answers that one step.

*Accuracy* (against the careful path on the same inputs; ``bench kernels``'s cases and the
property test in ``tests/algorithms/kernels/test_toi_fast.py``): polytopes, capsules and spheres
to a few ulps; a cylinder within ``tol / closing speed`` (about ``1e-9``, at worst ``1e-8``)
before the careful contact, never after it. Whenever it meets what the careful path handles
with more care (touching within ``tol`` at ``t = 0``, a step that lands in contact, a GJK that
does not settle), :func:`fast_advancement` returns ``None`` and the caller runs the careful
path. :func:`off` and :func:`algorithms.kernels.filters.careful_only` switch it off.
*Thin shapes* (``test_point_and_box_reach_a_thin_box``: a point or a box moving onto boxes
1e-12 to 1e-3 of their length thin, the exact entry time of the float inputs in Fractions):
never after the contact, at most ``1e-12`` of the scale before it. Until the sub-algorithm
took slivers (``sin^2`` under 1e-3) by cross products and a repeated support point on an edge
got the stall retry (:mod:`algorithms.kernels.gjk`), a repeat's ``|v|``, taken as the
distance, could be GJK stopped on an edge of ``A - B`` short of the sliver face holding the
nearest point: steps passed the contact (late by up to 1e-2 of the scale; a point through a
zero-thickness box, the contact missed).

*Cost* (issue 12: 10x the careful path per pair). Python pays per operation and per call, so
the loop keeps the arithmetic and drops the rest: the closed forms are the step's ``f(t)``
themselves (no wrapper), a closed-form pair builds no GJK state, the shapes take the
primitive's coerced floats as they are, the box keeps the corners its support met, the
barycentric points and GJK's simplex picks are written out, the result is made with its
fields stored into its own ``__dict__`` and its trace built when read (the loop keeps its
rows as tuples; :func:`trace_part` makes the dicts). A primitive keeps what the path derives
from it alone (its cores, a cylinder's frame, its plain support: :func:`_shape_of`; not in a
pickle or a deep copy), a point core has its own closed forms (:meth:`Pair._closed_point_a`,
:meth:`Pair._closed_point_b`: the branches of the general one), Ericson's tetrahedron takes
the three edges from its first vertex once, and comparisons are with float literals (``x >
0.0``: the interpreter specialises float-float comparisons only; ``x > 0`` takes the generic
path, as ``x / 2`` does, written ``x * 0.5``: the same correctly rounded value). Where
``x ** 2`` (libm's pow, which can differ from ``x * x`` by an ulp) or a square root only
*decides* a comparison, the products decide it when they do so with ``1e-9`` to spare and
the original expression otherwise (Ericson's longest edge and flatness test in
:mod:`algorithms.kernels.gjk`, the cylinder's "off the axis" test here): the same answers,
bit for bit, as before these changes. The separating axis costs a GJK pair about 2.5 us
per query that passes its first step (the face normals would cost 1.5 us more each, a hit
gaining nothing from them while :data:`JUMP` is off: left out); a miss it proves saves every
distance after the first (in ``bench kernels``'s cases it proves 39 of the 44 misses of its
GJK pairs: two end at their first step, three need the steps; such a miss then costs its
first GJK run only). A hit pays it and gains nothing: its GJK iterations (about 4.5 us each
for polytopes, 6.5 us against a cylinder, in the kernel's one loop; 4 to 8 iterations a
polytope pair, 20 to 80 a cylinder pair) are the cost that remains.
"""

from __future__ import annotations

import math

from algorithms.core.tolerance import PARALLEL_SIN, unit
from algorithms.kernels.filters import switched_off
from algorithms.kernels.gjk import closest_on_simplex, closest_on_simplex_fast, iterate

#: the kinds with a plain-float support function here (the bounded kinds)
KINDS = ("point", "segment", "triangle", "sphere", "aabb", "obb", "capsule", "cylinder")
#: GJK iterations per distance before giving up (then the careful path answers)
MAX_GJK = 128
#: distance evaluations per time of impact before giving up
MAX_QUERIES = 200
_EPS = 2.0 ** -52
_sqrt = math.sqrt
#: relative accuracy of the gap at t = 0 (what the trace shows) and at each step
FIRST_REL = 1e-13
STEP_REL = 1e-2
#: the least fraction of the gap a stalled GJK's plane must prove for a step
STALL_FRACTION = 0.1
#: the gap GJK closes near the contact, relative to tol (the polish stops at 1e-3 tol)
FINE = 1e-4


_state = {"enabled": True}


def enabled() -> bool:
    """True unless inside :func:`off` (or :func:`algorithms.kernels.filters.careful_only`,
    which the caller checks)."""
    return _state["enabled"]


def off():
    """Inside the ``with`` block conservative advancement runs its careful path only: today's
    implementation before the fast path, the baseline of ``explorer bench kernels``."""
    return switched_off(_state)


class Unsure(Exception):
    """The fast path cannot vouch for its answer: the careful path takes over."""


class Stalled(Exception):
    """GJK stalled short of its gap (a curved rim near contact), with the state it reached:
    ``(upper, u, pa, pb)`` (``upper`` the core distance, an upper bound, no lower bound)."""


# ----------------------------------------------------------------------------- shapes


def _t3(v):
    return (float(v[0]), float(v[1]), float(v[2]))


# A float primitive's points are tuples of floats already and its lengths floats
# (algorithms.primitives coerces every field on construction, translated copies included): the
# shapes below use them as they are (float(x) of a float is x: no call needed).


def _cylinder_frame(cyl):
    """``(centre, unit axis, radius, half height)`` of a cylinder in plain floats."""
    return cyl.center, unit(cyl.axis), cyl.radius, cyl.height / 2


#: the kinds whose core is a point or a segment (a radius around it)
_ROUND = ("point", "sphere", "segment", "capsule")


def _round_core(prim, k):
    """``(core_kind, core_points, radius, centre, size)`` of a point, sphere, segment or
    capsule (:func:`shape` without the support function)."""
    if k == "point" or k == "sphere":
        p = prim.position if k == "point" else prim.center
        r = 0.0 if k == "point" else prim.radius
        return "point", (p,), r, p, max(abs(p[0]), abs(p[1]), abs(p[2]), r)
    p0, p1 = prim.p0, prim.p1
    r = 0.0 if k == "segment" else prim.radius
    c = ((p0[0] + p1[0]) / 2, (p0[1] + p1[1]) / 2, (p0[2] + p1[2]) / 2)
    return "segment", (p0, p1), r, c, max(abs(p0[0]), abs(p0[1]), abs(p0[2]),
                                          abs(p1[0]), abs(p1[1]), abs(p1[2]), r)


def shape(prim):
    """``(core_kind, core_points, support, radius, centre, size)`` of a bounded primitive in plain
    floats: ``support(d)`` is a farthest point of the core in the direction ``d = (x, y, z)``
    (the closed forms of :mod:`algorithms.kernels.support`; ties resolve as there), ``size``
    the largest absolute coordinate or length."""
    k = prim.kind
    if k in _ROUND:
        kind, pts, r, c, size = _round_core(prim, k)
        if kind == "point":
            p = pts[0]
            return kind, pts, (lambda d: p), r, c, size
        p0, p1 = pts

        def seg(d):
            x, y, z = d
            return p0 if x * p0[0] + y * p0[1] + z * p0[2] >= x * p1[0] + y * p1[1] + z * p1[2] \
                else p1
        return kind, pts, seg, r, c, size
    if k == "triangle":
        a, b, c = prim.vertices
        a0, a1, a2 = a
        b0, b1, b2 = b
        c0, c1, c2 = c

        def tri(d):
            x, y, z = d
            best, hb = a, x * a0 + y * a1 + z * a2
            h = x * b0 + y * b1 + z * b2
            if h > hb:
                best, hb = b, h
            if x * c0 + y * c1 + z * c2 > hb:
                best = c
            return best
        cen = ((a0 + b0 + c0) / 3, (a1 + b1 + c1) / 3, (a2 + b2 + c2) / 3)
        return "triangle", None, tri, 0.0, cen, max(abs(a0), abs(a1), abs(a2), abs(b0), abs(b1),
                                                    abs(b2), abs(c0), abs(c1), abs(c2))
    if k == "aabb":
        lx, ly, lz = prim.min
        hx, hy, hz = prim.max
        mid = mx, my, mz = ((lx + hx) / 2, (ly + hy) / 2, (lz + hz) / 2)

        def box(d):
            x, y, z = d
            return (hx if x > 0.0 else (lx if x < 0.0 else mx),
                    hy if y > 0.0 else (ly if y < 0.0 else my),
                    hz if z > 0.0 else (lz if z < 0.0 else mz))
        return "aabb", None, box, 0.0, mid, max(abs(lx), abs(ly), abs(lz), abs(hx), abs(hy),
                                                abs(hz))
    if k == "obb":
        c = cx, cy, cz = prim.center
        ax, ay, az = prim.axes
        e0, e1, e2 = prim.extents
        a00, a01, a02 = ax
        a10, a11, a12 = ay
        a20, a21, a22 = az
        s00, s01, s02 = a00 * e0, a01 * e0, a02 * e0
        s10, s11, s12 = a10 * e1, a11 * e1, a12 * e1
        s20, s21, s22 = a20 * e2, a21 * e2, a22 * e2

        def corner(k0, k1, k2):
            """The support point for the signs ``k`` of ``h`` along the axes (1: h > 0, 2:
            h < 0, 0: neither), summed as ever: the centre, then the axes in order."""
            px, py, pz = cx, cy, cz
            if k0 == 1:
                px, py, pz = px + s00, py + s01, pz + s02
            elif k0 == 2:
                px, py, pz = px - s00, py - s01, pz - s02
            if k1 == 1:
                px, py, pz = px + s10, py + s11, pz + s12
            elif k1 == 2:
                px, py, pz = px - s10, py - s11, pz - s12
            if k2 == 1:
                px, py, pz = px + s20, py + s21, pz + s22
            elif k2 == 2:
                px, py, pz = px - s20, py - s21, pz - s22
            return (px, py, pz)

        # the corners met so far, by their signs (a query meets a few of the 27 again and
        # again: a table lookup instead of nine additions)
        corners = [None] * 27

        def obb(d):
            x, y, z = d
            h = a00 * x + a01 * y + a02 * z
            k0 = 1 if h > 0.0 else (2 if h < 0.0 else 0)
            h = a10 * x + a11 * y + a12 * z
            k1 = 1 if h > 0.0 else (2 if h < 0.0 else 0)
            h = a20 * x + a21 * y + a22 * z
            i = 9 * k0 + 3 * k1 + (1 if h > 0.0 else (2 if h < 0.0 else 0))
            p = corners[i]
            if p is None:
                p = corners[i] = corner(k0, k1, i % 3)
            return p
        return "obb", None, obb, 0.0, c, max(abs(cx), abs(cy), abs(cz), e0, e1, e2)
    if k == "cylinder":
        c = prim.center
        w = unit(prim.axis)  # the values of prim.unit_axis, without numpy
        rad, hh = prim.radius, prim.height / 2
        top = (c[0] + hh * w[0], c[1] + hh * w[1], c[2] + hh * w[2])
        bot = (c[0] - hh * w[0], c[1] - hh * w[1], c[2] - hh * w[2])

        w0, w1, w2 = w
        sqrt = math.sqrt
        PS2, PS2_LO, PS2_HI = PARALLEL_SIN * PARALLEL_SIN, 1.0 - 1e-9, 1.0 + 1e-9  # noqa: N806

        def cyl(d):  # support._cylinder_rim in plain floats
            x, y, z = d
            dw = x * w0 + y * w1 + z * w2
            p = top if dw > 0.0 else (bot if dw < 0.0 else c)
            px, py, pz = x - dw * w0, y - dw * w1, z - dw * w2
            q = px * w0 + py * w1 + pz * w2
            px, py, pz = px - q * w0, py - q * w1, pz - q * w2
            pp = px * px + py * py + pz * pz
            pn = sqrt(pp)
            # pn > PARALLEL_SIN |d| (d not along the axis), by the squares where they decide
            # it with 1e-9 to spare, else as written (one sqrt less on nearly every call)
            lim = PS2 * (x * x + y * y + z * z)
            if 1e-290 < lim < 1e290 and not PS2_LO * lim <= pp <= PS2_HI * lim:
                off_axis = pp > lim
            else:
                off_axis = pn > PARALLEL_SIN * sqrt(x * x + y * y + z * z)
            if rad > 0.0 and off_axis:
                f = rad / pn
                return (p[0] + f * px, p[1] + f * py, p[2] + f * pz)
            return p
        return "cylinder", None, cyl, 0.0, c, max(abs(c[0]), abs(c[1]), abs(c[2]), rad, 2 * hh)
    raise Unsure(k)


# A primitive is frozen: what the fast path derives from one alone is kept on the instance
# (not a field: eq, hash and repr unchanged), as kernels.gjk keeps its cores and
# kernels.support its arrays. Computed on first use, the same values as computed afresh.
_ROUND_KEY = "_toi_fast_round"
_FRAME_KEY = "_toi_fast_frame"
_SHAPE_KEY = "_toi_fast_shape"


class _Kept(tuple):
    """:func:`shape` of a primitive as kept on it: a copy or a pickle of the primitive keeps
    an empty one (its support function is a closure, which does not pickle) and computes
    its own on first use."""

    __slots__ = ()

    def __reduce__(self):
        return (tuple, ())


def _round_of(prim, k):
    """:func:`_round_core` of a point, sphere, segment or capsule, and its core's segment
    for the closed form: ``(p0, p1 - p0, |p1 - p0|^2, p0 + (p1 - p0) 0.0)`` as A's (still)
    and ``(p0, p1)`` as B's (moving), flattened; kept on the primitive."""
    found = prim.__dict__.get(_ROUND_KEY)
    if found is None:
        kind, pts, r, c, size = _round_core(prim, k)
        p1x, p1y, p1z = pts[0]
        q1 = pts[-1]
        d1x, d1y, d1z = q1[0] - p1x, q1[1] - p1y, q1[2] - p1z
        aa = d1x * d1x + d1y * d1y + d1z * d1z
        # with |p1 - p0|^2 = 0 Ericson's s is 0 at every t: A's closest point p0 + d1 * 0.0
        still = (p1x, p1y, p1z, d1x, d1y, d1z, aa, p1x + d1x * 0.0, p1y + d1y * 0.0,
                 p1z + d1z * 0.0)
        moving = (p1x, p1y, p1z, q1[0], q1[1], q1[2])
        found = (kind, pts, r, c, size, still, moving)
        object.__setattr__(prim, _ROUND_KEY, found)
    return found


def _frame_of(cyl):
    """``(_cylinder_frame(cyl), size)`` of a cylinder, kept on it."""
    found = cyl.__dict__.get(_FRAME_KEY)
    if found is None:
        frame = _cylinder_frame(cyl)
        c, _, rad, hh = frame
        found = (frame, max(abs(c[0]), abs(c[1]), abs(c[2]), rad, 2 * hh))
        object.__setattr__(cyl, _FRAME_KEY, found)
    return found


def _kept_on(prim, key, make):
    """``make(prim)`` kept on the primitive under ``key`` (:class:`_Kept`: not in a pickle or
    a deep copy), made once."""
    found = prim.__dict__.get(key)
    if not found:
        found = _Kept(make(prim))
        object.__setattr__(prim, key, found)
    return found


def _shape_of(prim):
    """:func:`shape` of a primitive, kept on it (:class:`_Kept`)."""
    return _kept_on(prim, _SHAPE_KEY, shape)


# ----------------------------------------------------------------------------- GJK


_IN_ORDER = {k: tuple(range(k)) for k in (1, 2, 3, 4)}


def _barycentric_points(pts, lam, ox, oy, oz):
    """The points ``sum lam_i a_i`` on A and ``sum lam_i b_i + (ox, oy, oz)`` on B of the
    simplex ``pts`` of support pairs ``(a_i, b_i)`` (B's taken at t = 0, moved by the offset).
    Summed from ``0.0`` in the simplex's order (written out for one to three points)."""
    n = len(pts)
    if n == 1:
        (p, q), = pts
        l0 = lam[0]
        return ((0.0 + l0 * p[0], 0.0 + l0 * p[1], 0.0 + l0 * p[2]),
                (0.0 + l0 * q[0] + ox, 0.0 + l0 * q[1] + oy, 0.0 + l0 * q[2] + oz))
    if n == 2:
        (p, q), (p1, q1) = pts
        l0, l1 = lam
        return ((0.0 + l0 * p[0] + l1 * p1[0], 0.0 + l0 * p[1] + l1 * p1[1],
                 0.0 + l0 * p[2] + l1 * p1[2]),
                (0.0 + l0 * q[0] + l1 * q1[0] + ox, 0.0 + l0 * q[1] + l1 * q1[1] + oy,
                 0.0 + l0 * q[2] + l1 * q1[2] + oz))
    if n == 3:
        (p, q), (p1, q1), (p2, q2) = pts
        l0, l1, l2 = lam
        return ((0.0 + l0 * p[0] + l1 * p1[0] + l2 * p2[0],
                 0.0 + l0 * p[1] + l1 * p1[1] + l2 * p2[1],
                 0.0 + l0 * p[2] + l1 * p1[2] + l2 * p2[2]),
                (0.0 + l0 * q[0] + l1 * q1[0] + l2 * q2[0] + ox,
                 0.0 + l0 * q[1] + l1 * q1[1] + l2 * q2[1] + oy,
                 0.0 + l0 * q[2] + l1 * q1[2] + l2 * q2[2] + oz))
    ax = ay = az = bx = by = bz = 0.0
    for l_, (p, q) in zip(lam, pts):
        ax += l_ * p[0]
        ay += l_ * p[1]
        az += l_ * p[2]
        bx += l_ * q[0]
        by += l_ * q[1]
        bz += l_ * q[2]
    return (ax, ay, az), (bx + ox, by + oy, bz + oz)


class Pair:
    """core(A) and core(B) + ``t m`` with a simplex kept between times (warm start)."""

    # (one made per query: slots, no instance dict to fill)
    __slots__ = ("m", "queries", "gjk_iterations", "ra", "rb", "R", "curved",
                 "cores", "size", "floor", "gap", "sa", "sb", "start", "simplex", "closest",
                 "stalls", "cyl_flat", "still", "moving", "c1", "careful_queries")

    def __init__(self, a, b, motion):
        m = self.m = (float(motion[0]), float(motion[1]), float(motion[2]))  # (_t3)
        size_m = max(abs(m[0]), abs(m[1]), abs(m[2]))
        ka, kb = a.kind, b.kind
        self.queries = 0  # the static queries asked (the trace's "static_queries")
        self.gjk_iterations = 0
        ra_ = ka in _ROUND
        rb_ = kb in _ROUND
        if ra_ and rb_:
            self._closed_pair(a, b, ka, kb, size_m)
            return
        if (ra_ and kb == "cylinder" and (ka == "point" or ka == "sphere")) or \
                (rb_ and ka == "cylinder" and (kb == "point" or kb == "sphere")):
            self._point_cylinder_pair(a, b, ka, size_m)
            return
        # GJK on the support functions (a segment core against a cylinder too)
        ka, pa_, self.sa, self.ra, ca, sza = _shape_of(a)
        kb, pb_, self.sb, self.rb, cb, szb = _shape_of(b)
        self.R = self.ra + self.rb
        self.cores = (pa_, pb_)
        self.size = max(sza, szb, size_m)
        self.floor = 8.0 * _EPS * self.size  # (touching: |core distance| at rounding level)
        #: a curved core (the cylinder's rim): a GJK stall there may leave |v| well above
        #: the distance, so only the planes' bounds count
        self.curved = "cylinder" in (ka, kb)
        # the simplex: (a_i on A, b_i on B at t = 0)
        self.start = (ca, cb)
        self.simplex = [self.start]
        self.closest = closest_on_simplex_fast
        self.stalls = 0
        #: ``gap(t, eps_abs, rel)``: the step's f(t) of :func:`_advance` (the shapes' gap,
        #: counted): the closed forms answer it themselves, GJK through :meth:`at` (None)
        self.gap = None

    def _point_cylinder_pair(self, a, b, ka, size_m):
        """:meth:`__init__` for a point core (point, sphere) against a solid cylinder: the
        closed form :meth:`_point_cylinder`, no GJK state (only what that closed form and
        the loop read)."""
        cyl_is_a = ka == "cylinder"
        if cyl_is_a:
            frame, sza = _frame_of(a)
            _, pb_, rb, cb, szb = _round_of(b, b.kind)[:5]
            self.ra, self.rb = 0.0, rb
            self.cores = (None, pb_)
            p = pb_[0]
        else:
            _, pa_, ra, ca, sza = _round_of(a, ka)[:5]
            frame, szb = _frame_of(b)
            self.ra, self.rb = ra, 0.0
            self.cores = (pa_, None)
            p = pa_[0]
        self.R = self.ra + self.rb
        self.curved, self.sa, self.sb = True, None, None
        self.size = size = max(sza, szb, size_m)
        self.floor = floor = 8.0 * _EPS * size  # (touching: |core distance| at rounding level)
        (cx, cy, cz), (w0, w1, w2), rad, hh = frame
        self.cyl_flat = (cyl_is_a, p[0], p[1], p[2], cx, cy, cz, w0, w1, w2, rad, hh, floor)
        self.gap = self._point_cylinder

    def _closed_pair(self, a, b, ka, kb, size_m):
        """:meth:`__init__` for point/segment cores (the closed form, no GJK)."""
        _, pa_, ra, ca, sza, still, _ = _round_of(a, ka)
        _, pb_, rb, cb, szb, _, moving = _round_of(b, kb)
        self.ra, self.rb, self.R = ra, rb, ra + rb
        self.curved = False
        self.cores = (pa_, pb_)  # (no GJK state: no support functions, simplex, start)
        self.size = size = max(sza, szb, size_m)
        self.still = still
        self.moving = moving
        if still[6] == 0.0:  # A's core a point (|p1 - p0|^2 = 0: s = 0 at every t)
            self.gap = self._closed_point_a
            self.c1 = still[7:]
        elif pb_[0] is pb_[-1] and -math.inf < moving[0] < math.inf \
                and -math.inf < moving[1] < math.inf and -math.inf < moving[2] < math.inf:
            self.gap = self._closed_point_b  # B's core a point: d2 = 0 at every t
        else:
            self.gap = self._closed
        self.floor = 8.0 * _EPS * size  # (touching: |core distance| at rounding level)

    def at(self, t, eps_abs, rel):
        """The core pair at time ``t``: ``(upper - R, lower - R, u, pa, pb)`` (the gaps of
        the shapes, as :attr:`gap` gives them) with ``upper >= |v|`` the core distance found,
        ``lower`` the support value along the unit ``u`` (from B's core towards A's, ``u . x
        >= lower`` over ``core(A) - core(B)``), ``pa, pb`` the core points. Stops when
        ``upper - lower <= max(eps_abs, rel (lower - R))``: the gap between the shapes known
        to ``rel`` of itself, or to ``eps_abs``. A stall raises :class:`Stalled` with
        ``upper`` itself."""
        m0, m1, m2 = self.m
        ox, oy, oz = t * m0, t * m1, t * m2
        pts = self.simplex
        Y = []
        for (px, py, pz), (qx, qy, qz) in pts:  # (B's support points moved with B: van
            Y.append((px - qx - ox, py - qy - oy, pz - qz - oz))  # den Bergen §4.3)
        if len(Y) > 1:
            idx, lam, v = self.closest(Y)
            if idx != _IN_ORDER[len(Y)]:  # (the face picked without a comprehension)
                if len(idx) == 1:
                    i = idx[0]
                    pts, Y = [pts[i]], [Y[i]]
                elif len(idx) == 2:
                    i, j = idx
                    pts, Y = [pts[i], pts[j]], [Y[i], Y[j]]
                else:
                    pts = [pts[i] for i in idx]
                    Y = [Y[i] for i in idx]
        else:
            lam, v = (1.0,), Y[0]
        R = self.R
        floor = self.floor
        # the one GJK loop (kernels.gjk.iterate), warm-started, in plain floats, stopping at
        # the gap this step needs
        s = iterate(self.sa, self.sb, pts, Y, lam, v, size=self.size, offset=(ox, oy, oz),
                    closest=self.closest, plain=True, touch=floor, stop=(eps_abs, rel, R),
                    max_iterations=MAX_GJK)
        termination = s["termination"]
        self.gjk_iterations += s["iterations"]
        pts, lam = s["simplex"], s["lam"]
        if termination == "converged (gap)":
            settled = False
        elif termination == "converged (repeated support point)":
            settled = "repeat"
        elif termination == "converged (no progress)":
            settled = "stall"
        elif termination == "max iterations":
            raise Unsure("GJK did not settle")
        else:  # overlap
            if termination == "overlap (v = 0)":
                self.gjk_iterations += 1  # (the iteration that found it, as counted before)
            return self._touch(pts, lam, ox, oy, oz)
        best_lower, best_u = s["lower"], s["lower_direction"]
        self.simplex = pts
        pa, pb = _barycentric_points(pts, lam, ox, oy, oz)
        (ax, ay, az), (bx, by, bz) = pa, pb
        dx, dy, dz = ax - bx, ay - by, az - bz
        upper = _sqrt(dx * dx + dy * dy + dz * dz)
        # a repeated support point: |v| is the distance up to rounding, as the careful GJK ends
        # (a step may use it with the tol / 2 margin, as the careful path does); else (also on
        # a stall, where a curved rim can leave |v| well above the distance) the plane's bound
        if settled == "stall" and not self.curved:
            settled = "repeat"  # polytopes: rounding, |v| is the distance (the careful GJK's
            # "converged (no progress)")
        if settled == "stall":
            vx, vy, vz = s["v"]
            vn = _sqrt(vx * vx + vy * vy + vz * vz)  # (only a stall needs |v|)
        if settled == "stall" and not (vn - best_lower <= eps_abs
                                       or vn - best_lower <= rel * (best_lower - R)):
            # far from the contact a plane that proves a tenth of the gap still makes a
            # conservative step; near it (rel == 0) or with a poorer bound: the careful query
            if rel < STEP_REL or not best_lower - R >= STALL_FRACTION * (vn - R) > 0.0:
                u = (dx / upper, dy / upper, dz / upper) if upper > 0.0 else best_u
                raise Stalled(upper, u, pa, pb)
        if settled == "repeat" and upper > 0.0:
            g = upper - R
            return g, g, (dx / upper, dy / upper, dz / upper), pa, pb
        return upper - R, best_lower - R, best_u, pa, pb

    def _touch(self, pts, lam, ox, oy, oz):
        """The cores touch or overlap (``v = 0`` up to rounding): ``(-R, -R, None, pa, pb)``
        (:meth:`at`'s gaps at a core distance 0) with the barycentric points of the simplex
        (a common point up to rounding)."""
        pa, pb = _barycentric_points(pts, lam, ox, oy, oz)
        g = 0.0 - self.R
        return g, g, None, pa, pb

    def _point_cylinder(self, t, eps_abs=0.0, rel=0.0):
        """A point core against a solid cylinder: the axial coordinate clamped to the height and
        the radial part to the radius (the cylinder is a disk times an interval in orthogonal
        coordinates, so the nearest point splits the same way; GTCG §10.9); :attr:`gap` for
        that pair: :meth:`at`'s values less ``R`` (the answer is exact: no gap), counted.
        (The point, the frame and the touching floor are unpacked from ``self.cyl_flat``.)"""
        self.queries += 1
        if self.queries > MAX_QUERIES:
            raise Unsure("too many steps")
        m0, m1, m2 = self.m
        ox, oy, oz = t * m0, t * m1, t * m2
        cyl_is_a, px, py, pz, cx, cy, cz, w0, w1, w2, rad, hh, floor = self.cyl_flat
        if cyl_is_a:  # the point moves with B; the cylinder stays
            px, py, pz = px + ox, py + oy, pz + oz
        else:  # the cylinder moves with B
            cx, cy, cz = cx + ox, cy + oy, cz + oz
        dx, dy, dz = px - cx, py - cy, pz - cz
        h = dx * w0 + dy * w1 + dz * w2
        rx, ry, rz = dx - h * w0, dy - h * w1, dz - h * w2
        rho = _sqrt(rx * rx + ry * ry + rz * rz)
        f = rad / rho if rho > rad else 1.0
        hc = hh if h > hh else (-hh if h < -hh else h)
        qx, qy, qz = cx + hc * w0 + f * rx, cy + hc * w1 + f * ry, cz + hc * w2 + f * rz
        ex, ey, ez = px - qx, py - qy, pz - qz
        dist = _sqrt(ex * ex + ey * ey + ez * ez)
        if cyl_is_a:
            pa, pb = (qx, qy, qz), (px, py, pz)
        else:
            pa, pb = (px, py, pz), (qx, qy, qz)
        if not dist > floor:
            g = 0.0 - self.R
            return g, g, None, pa, pb  # the point is in the cylinder
        g = dist - self.R
        if cyl_is_a:
            return g, g, ((qx - px) / dist, (qy - py) / dist, (qz - pz) / dist), pa, pb
        return g, g, (ex / dist, ey / dist, ez / dist), pa, pb

    def _closed(self, t, eps_abs=0.0, rel=0.0):
        """Point/segment cores: Ericson RTCD §5.1.9 in plain floats (exact zero tests);
        :attr:`gap` for those pairs: :meth:`at`'s values less ``R`` (the answer is exact: no
        gap), counted."""
        self.queries += 1
        if self.queries > MAX_QUERIES:
            raise Unsure("too many steps")
        m0, m1, m2 = self.m
        ox, oy, oz = t * m0, t * m1, t * m2
        p1x, p1y, p1z, d1x, d1y, d1z, a, _, _, _ = self.still  # A's segment: the same at every t
        b0x, b0y, b0z, q2x, q2y, q2z = self.moving  # B's core at t = 0 (first, last point)
        p2x, p2y, p2z = b0x + ox, b0y + oy, b0z + oz
        d2x, d2y, d2z = q2x + ox - p2x, q2y + oy - p2y, q2z + oz - p2z
        rx, ry, rz = p1x - p2x, p1y - p2y, p1z - p2z
        e = d2x * d2x + d2y * d2y + d2z * d2z
        f = d2x * rx + d2y * ry + d2z * rz
        # clamp(x) = min(max(x, 0), 1), written out (the same values, NaN and -0.0 included)
        if a <= 0.0 and e <= 0.0:
            s = t = 0.0
        elif a <= 0.0:
            s = 0.0
            t = f / e
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        else:
            c = d1x * rx + d1y * ry + d1z * rz
            if e <= 0.0:
                t = 0.0
                s = -c / a
                s = 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)
            else:
                b = d1x * d2x + d1y * d2y + d1z * d2z
                denom = a * e - b * b
                if denom > 0.0:
                    s = (b * f - c * e) / denom
                    s = 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)
                else:
                    s = 0.0
                t = (b * s + f) / e
                if t < 0.0:
                    t = 0.0
                    s = -c / a
                    s = 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)
                elif t > 1.0:
                    t = 1.0
                    s = (b - c) / a
                    s = 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)
        c1x, c1y, c1z = p1x + d1x * s, p1y + d1y * s, p1z + d1z * s
        c2x, c2y, c2z = p2x + d2x * t, p2y + d2y * t, p2z + d2z * t
        dx, dy, dz = c1x - c2x, c1y - c2y, c1z - c2z
        dist = _sqrt(dx * dx + dy * dy + dz * dz)
        if not dist > self.floor:
            g = 0.0 - self.R
            return g, g, None, (c1x, c1y, c1z), (c2x, c2y, c2z)  # the cores touch
        g = dist - self.R
        return g, g, (dx / dist, dy / dist, dz / dist), (c1x, c1y, c1z), (c2x, c2y, c2z)


    def _closed_point_a(self, t, eps_abs=0.0, rel=0.0):
        """:meth:`_closed` where A's core is a point (``|p1 - p0|^2 = 0``): Ericson's ``s``
        is ``0`` at every ``t`` and A's closest point the same (kept); the branch of
        :meth:`_closed` that ``a = 0`` takes, the same operations."""
        self.queries += 1
        if self.queries > MAX_QUERIES:
            raise Unsure("too many steps")
        m0, m1, m2 = self.m
        ox, oy, oz = t * m0, t * m1, t * m2
        p1x, p1y, p1z, _, _, _, _, c1x, c1y, c1z = self.still
        b0x, b0y, b0z, q2x, q2y, q2z = self.moving
        p2x, p2y, p2z = b0x + ox, b0y + oy, b0z + oz
        d2x, d2y, d2z = q2x + ox - p2x, q2y + oy - p2y, q2z + oz - p2z
        e = d2x * d2x + d2y * d2y + d2z * d2z
        if e <= 0.0:
            t = 0.0
        else:
            t = (d2x * (p1x - p2x) + d2y * (p1y - p2y) + d2z * (p1z - p2z)) / e
            t = 0.0 if t < 0.0 else (1.0 if t > 1.0 else t)
        c2x, c2y, c2z = p2x + d2x * t, p2y + d2y * t, p2z + d2z * t
        dx, dy, dz = c1x - c2x, c1y - c2y, c1z - c2z
        dist = _sqrt(dx * dx + dy * dy + dz * dz)
        if not dist > self.floor:
            g = 0.0 - self.R
            return g, g, None, self.c1, (c2x, c2y, c2z)  # the cores touch
        g = dist - self.R
        return g, g, (dx / dist, dy / dist, dz / dist), self.c1, (c2x, c2y, c2z)

    def _closed_point_b(self, t, eps_abs=0.0, rel=0.0):
        """:meth:`_closed` where B's core is a point with finite coordinates: ``d2 = (p0 +
        t m) - (p0 + t m)`` is ``+0.0`` at every ``t`` (so ``e = 0``, Ericson's ``t = 0``
        and B's closest point ``p2 + 0.0``); the branches of :meth:`_closed` that ``e = 0``
        takes, the same operations."""
        self.queries += 1
        if self.queries > MAX_QUERIES:
            raise Unsure("too many steps")
        m0, m1, m2 = self.m
        ox, oy, oz = t * m0, t * m1, t * m2
        p1x, p1y, p1z, d1x, d1y, d1z, a, _, _, _ = self.still
        b0x, b0y, b0z = self.moving[:3]
        p2x, p2y, p2z = b0x + ox, b0y + oy, b0z + oz
        if a <= 0.0:
            s = 0.0
        else:
            s = -(d1x * (p1x - p2x) + d1y * (p1y - p2y) + d1z * (p1z - p2z)) / a
            s = 0.0 if s < 0.0 else (1.0 if s > 1.0 else s)
        c1x, c1y, c1z = p1x + d1x * s, p1y + d1y * s, p1z + d1z * s
        c2x, c2y, c2z = p2x + 0.0, p2y + 0.0, p2z + 0.0
        dx, dy, dz = c1x - c2x, c1y - c2y, c1z - c2z
        dist = _sqrt(dx * dx + dy * dy + dz * dz)
        if not dist > self.floor:
            g = 0.0 - self.R
            return g, g, None, (c1x, c1y, c1z), (c2x, c2y, c2z)  # the cores touch
        g = dist - self.R
        return g, g, (dx / dist, dy / dist, dz / dist), (c1x, c1y, c1z), (c2x, c2y, c2z)


# ----------------------------------------------------------------------------- moving axes


def projector(prim):
    """``(proj, axes)`` of a bounded primitive in plain floats: ``proj(x, y, z)`` is the
    interval ``(lo, hi)`` of the whole shape (its radius included) projected on the unit axis
    ``(x, y, z)``, its support values along ``-L`` and ``L``
    (:func:`algorithms.kernels.support.support_interval` in plain floats; a cylinder's
    ``c . L +- (h/2 |w . L| + r |w x L|)``, GTCG §11.12.9); ``axes`` its face normals (a box's
    three axes, a triangle's normal, a cylinder's axis; none for a round shape), candidate
    separating axes of the method of separating axes (Eberly, "Intersection of convex
    objects: the method of separating axes": face normals and edge crosses; the crosses are
    left out here, where any set of axes is conservative)."""
    k = prim.kind
    if k == "point" or k == "sphere":
        cx, cy, cz = prim.position if k == "point" else prim.center
        r = 0.0 if k == "point" else prim.radius

        def ball(x, y, z):
            s = cx * x + cy * y + cz * z
            return s - r, s + r
        return ball, ()
    if k == "segment" or k == "capsule":
        (px, py, pz), (qx, qy, qz) = prim.p0, prim.p1
        r = 0.0 if k == "segment" else prim.radius

        def stick(x, y, z):
            s = px * x + py * y + pz * z
            s2 = qx * x + qy * y + qz * z
            return (s - r, s2 + r) if s <= s2 else (s2 - r, s + r)
        return stick, ()
    if k == "triangle":
        (ax, ay, az), (bx, by, bz), (cx, cy, cz) = prim.vertices

        def tri(x, y, z):
            s = ax * x + ay * y + az * z
            s2 = bx * x + by * y + bz * z
            s3 = cx * x + cy * y + cz * z
            lo = s if s <= s2 else s2
            hi = s2 if s <= s2 else s
            return (s3 if s3 < lo else lo), (s3 if s3 > hi else hi)
        ux, uy, uz = bx - ax, by - ay, bz - az
        vx, vy, vz = cx - ax, cy - ay, cz - az
        n = (uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx)
        nn = _sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
        return tri, (((n[0] / nn, n[1] / nn, n[2] / nn),) if 0.0 < nn < math.inf else ())
    if k == "aabb":
        (lx, ly, lz), (hx, hy, hz) = prim.min, prim.max
        cx, cy, cz = (lx + hx) * 0.5, (ly + hy) * 0.5, (lz + hz) * 0.5
        ex, ey, ez = (hx - lx) * 0.5, (hy - ly) * 0.5, (hz - lz) * 0.5

        def box(x, y, z):
            s = cx * x + cy * y + cz * z
            e = ex * (x if x > 0.0 else -x) + ey * (y if y > 0.0 else -y) \
                + ez * (z if z > 0.0 else -z)
            return s - e, s + e
        return box, ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0))
    if k == "obb":
        cx, cy, cz = prim.center
        (a00, a01, a02), (a10, a11, a12), (a20, a21, a22) = prim.axes
        e0, e1, e2 = prim.extents

        def obb(x, y, z):
            s = cx * x + cy * y + cz * z
            h0 = a00 * x + a01 * y + a02 * z
            h1 = a10 * x + a11 * y + a12 * z
            h2 = a20 * x + a21 * y + a22 * z
            e = e0 * (h0 if h0 > 0.0 else -h0) + e1 * (h1 if h1 > 0.0 else -h1) \
                + e2 * (h2 if h2 > 0.0 else -h2)
            return s - e, s + e
        return obb, tuple(unit(a) for a in prim.axes)
    if k == "cylinder":
        (cx, cy, cz), (w0, w1, w2), rad, hh = _frame_of(prim)[0]

        def cyl(x, y, z):
            s = cx * x + cy * y + cz * z
            h = w0 * x + w1 * y + w2 * z
            # |w x L| as support.support_value takes it: L less its part along w, twice
            # (no cancellation of 1 - (w . L)^2 for L nearly along the axis)
            px, py, pz = x - h * w0, y - h * w1, z - h * w2
            q = px * w0 + py * w1 + pz * w2
            px, py, pz = px - q * w0, py - q * w1, pz - q * w2
            e = hh * (h if h > 0.0 else -h) + rad * _sqrt(px * px + py * py + pz * pz)
            return s - e, s + e
        return cyl, ((w0, w1, w2),)
    raise Unsure(k)


_PROJ_KEY = "_toi_fast_proj"


def _projector_of(prim):
    """:func:`projector` of a primitive, kept on it (:class:`_Kept`: not in a pickle)."""
    return _kept_on(prim, _PROJ_KEY, projector)


#: the relative size of the rounding allowance of :func:`moving_axes` (of the coordinates'
#: magnitude: far below tol = 1e-9 of it)
_AXIS_ROUND = 64.0 * _EPS


#: the first step may jump to the moving separating axes' ``t_enter`` when it is later than
#: the plane's bound (conservative, as a step on that axis's plane): off, as the steps the
#: explorer draws and ``explorer eval`` prints stay those of conservative advancement (module
#: notes); the miss the axes prove is always taken
JUMP = False

#: the case of a miss the moving separating axes prove
AXES_MISS = ("moving separating axes (Dunn & Parberry, App. A.17; Eberly): the shapes stay "
             "more than 2 tol apart on [0, 1], no contact")

def _axes(a, b, motion, centres, faces=False):
    """The candidate axes of :func:`moving_axes` for a pair: the line of the centres where
    they pass nearest (``c_B + t* m - c_A`` at the ``t*`` in ``[0, 1]`` nearest; normal to the
    motion when ``t*`` is inside, so that the intervals do not move on it: a static test,
    which proves most misses alone), then with ``faces`` the shapes' face normals
    (:func:`projector`: the fast path takes them for :data:`JUMP` only, as they cost a hit
    1.5 us each and prove few more misses)."""
    (ax, ay, az), (bx, by, bz) = centres
    m0, m1, m2 = motion
    dx, dy, dz = bx - ax, by - ay, bz - az
    mm = m0 * m0 + m1 * m1 + m2 * m2
    ts = -(dx * m0 + dy * m1 + dz * m2) / mm if mm > 0.0 else 0.0
    ts = 0.0 if ts < 0.0 else (1.0 if ts > 1.0 else ts)
    dx, dy, dz = dx + ts * m0, dy + ts * m1, dz + ts * m2
    n = _sqrt(dx * dx + dy * dy + dz * dz)
    axes = [(dx / n, dy / n, dz / n)] if 0.0 < n < math.inf else []
    if faces:
        axes.extend(_projector_of(a)[1])
        axes.extend(_projector_of(b)[1])
    return axes


def moving_axes(a, b, motion, axes, h_miss, h_jump, size):
    """The moving separating-axis test (Dunn & Parberry, 3D Math Primer, App. A.17: the per-axis
    ``t_enter`` and ``t_leave`` of two boxes, one moving; Eberly's method of separating axes for
    moving objects, on any set of axes): A still, B moving by ``t motion``, on the unit
    ``axes``. On an axis ``L`` A projects to ``[a0, a1]`` and B at ``t`` to ``[b0 + t s, b1 +
    t s]`` (``s = L . motion``); the intervals come within ``h`` of each other from ``t_enter``
    to ``t_leave``, and before ``t_enter`` (or after ``t_leave``) the plane normal to ``L``
    separates the shapes by more than ``h``, so their distance is more than ``h``.

    Returns ``None`` when the shapes stay more than ``h_miss`` apart on ``[0, 1]`` (the
    intersection of the per-axis intervals grown by ``h_miss`` misses ``[0, 1]``); else
    ``(t_enter, L)``: the latest ``t_enter`` over the axes for ``h_jump`` (the distance is more
    than ``h_jump`` before it and at least ``h_jump`` at it, as after a step of conservative
    advancement on the plane normal to ``L``), or ``(0.0, None)`` when the intervals grown by
    ``h_jump`` leave no such time (the latest ``t_enter`` after the earliest ``t_leave``: no
    conservative jump there, see the module notes), and always when ``h_jump`` is ``None`` (only
    the miss is tested). ``size`` bounds the coordinates: both ``h`` are grown by ``64 ulp *
    size`` (the rounding of the projections: a miss needs more than ``h_miss``, the jump
    leaves at least ``h_jump``)."""
    proj_a = _projector_of(a)[0]
    proj_b = _projector_of(b)[0]
    m0, m1, m2 = motion
    slack = _AXIS_ROUND * size
    hm = h_miss + slack  # (more h: a later t_leave, an earlier t_enter, fewer misses)
    hj = None if h_jump is None else h_jump + slack
    first, last = 0.0, 1.0  # the contact window for h_miss, within [0, 1]
    jump, jump_leave, jump_axis = -math.inf, math.inf, None
    for L in axes:
        x, y, z = L
        a0, a1 = proj_a(x, y, z)
        b0, b1 = proj_b(x, y, z)
        s = x * m0 + y * m1 + z * m2
        if s > 0.0:  # B's interval moves up: it meets A's from below
            enter, leave = (a0 - hm - b1) / s, (a1 + hm - b0) / s
        elif s < 0.0:
            enter, leave = (a1 + hm - b0) / s, (a0 - hm - b1) / s
        elif b1 >= a0 - hm and b0 <= a1 + hm:
            continue  # no relative motion along L and within h_miss: no bound from it
        else:
            return None  # separated along L at every time
        if enter > first:
            first = enter
        if leave < last:
            last = leave
        if first > last:
            return None
        if hj is not None:
            if s > 0.0:
                je, jl = (a0 - hj - b1) / s, (a1 + hj - b0) / s
            else:
                je, jl = (a1 + hj - b0) / s, (a0 - hj - b1) / s
            if je > jump:
                jump, jump_axis = je, L
            if jl < jump_leave:
                jump_leave = jl
    if jump_axis is None or jump > jump_leave or not jump > 0.0:
        return 0.0, None
    return jump, jump_axis


# ----------------------------------------------------------------------------- advancement


def _tolerance(m, f0, pa, pb, rel):
    """:func:`algorithms.generic.advancement._tolerance` on plain floats.

    Written without calls: ``max(a, b)`` keeps ``a`` unless ``b > a`` (as the builtin
    does, NaN included); ``|x|`` as ``x if x > 0 else -x``, which differs from ``abs`` only
    in the sign of a zero, and a zero never passes ``c > scale`` (``scale >= 0``)."""
    m0, m1, m2 = m
    scale = _sqrt(m0 * m0 + m1 * m1 + m2 * m2)
    if -math.inf < f0 < math.inf and f0 > scale:
        scale = f0
    for x, y, z in (pa, pb):
        c = x if x > 0.0 else -x
        y = y if y > 0.0 else -y
        if y > c:
            c = y
        z = z if z > 0.0 else -z
        if z > c:
            c = z
        if c < math.inf and c > scale:  # finite (and not NaN)
            scale = c
    return rel * scale if scale > 0.0 else 1e-300


def fast_advancement(a, b, motion, *, careful=None, tol_rel=1e-9, max_iter=64,
                     polish_steps=40, recorder=None, raw=False):
    """Conservative advancement for two bounded primitives (module notes), or ``None`` when
    the careful path must answer. Returns ``(toi, point, normal, trace_part)`` with
    ``trace_part`` the keys the careful path's trace has besides ``"A.6"``; with ``raw`` it
    may be the loop's values as they are, which :func:`trace_part` makes that dict of (the
    record of a query builds its trace when read: no dicts made for a trace never read).

    ``careful(t) -> (distance, pa, pb)`` (the careful path's static query, surface points)
    answers where GJK stalls short of its gap; without it the careful path takes over.
    ``recorder(trace)``: an object whose ``row(phase, t, distance, pa, pb, **more)`` keeps
    ``trace["steps"]`` (:class:`algorithms.traces.AdvancementStep`, the careful path's
    ``_StepRecorder``): the rows of this loop, its own step ``dt`` included."""
    try:
        out = _advance(a, b, motion, tol_rel, max_iter, polish_steps, careful, recorder)
    except (Unsure, ZeroDivisionError, OverflowError, ValueError):
        return None
    if raw:
        return out
    toi, point, normal, part = out
    return toi, point, normal, trace_part(part)


def trace_part(part) -> dict:
    """The trace keys of :func:`fast_advancement` from what :func:`_advance` returns: a dict
    as it is, or ``(tol, iterations, polish, case, toi, distance_at_toi, static_queries)``
    (``iterations`` rows ``(t, distance, closing_speed)``, ``polish`` ``(from_t, t,
    distance, steps)`` or ``None`` for a miss, with ``toi`` and ``distance_at_toi`` unused)
    made into the dict, key for key in the order the loop used to fill it."""
    if type(part) is dict:
        return part
    tol, rows, polish, case, toi, dist, queries = part
    out = {"tol": tol, "iterations": [{"t": t, "distance": f, "closing_speed": c}
                                      for t, f, c in rows]}
    if polish is None:
        out["case"] = case
        out["static_queries"] = queries
        return out
    t0, t1, f1, done = polish
    out["polish"] = {"from_t": t0, "t": t1, "distance": f1, "steps": done}
    out.update({"case": case, "toi": toi, "distance_at_toi": dist, "static_queries": queries})
    return out


def _advance(a, b, motion, tol_rel, max_iter, polish_steps, careful=None, recorder=None):
    P = Pair(a, b, motion)
    R = P.R
    m = P.m
    m0, m1, m2 = m
    inf = math.inf
    if not (-inf < m0 < inf and -inf < m1 < inf and -inf < m2 < inf) \
            or not 0 < P.size < 1e150:
        raise Unsure("range")
    tol_now = -math.inf  # tol, once known
    F = P.gap  # noqa: N806 - the closed forms: no GJK, no stall, counted themselves

    if F is None:  # (the closed forms need no wrapper: none made for them)
        at = P.at

        def gjk_f(t, eps, rel):  # the f(t) of the careful path, by GJK (F of GJK pairs)
            P.queries += 1
            if P.queries > MAX_QUERIES:
                raise Unsure("too many steps")
            try:
                return at(t, eps, rel)
            except Stalled as e:
                up, u, pa, pb = e.args
                if up - R <= tol_now:
                    # within tol by an upper bound: the careful path's criterion holds at t
                    # (which a conservative step reached); no bound for a further step
                    P.stalls += 1
                    return up - R, -math.inf, u, pa, pb
                # GJK again with the careful exhaustive sub-algorithm (every face, the
                # smallest feasible projection): slower, and it gets past most slivers
                P.closest = closest_on_simplex
                try:
                    return P.at(t, eps, rel)
                except Stalled as e2:
                    up, u, pa, pb = e2.args
                    if up - R <= tol_now:
                        return up - R, -math.inf, u, pa, pb
                finally:
                    P.closest = closest_on_simplex_fast
                if careful is None:
                    raise Unsure("GJK stalled") from None
                return _careful(careful, t, P)

        F = gjk_f  # noqa: N806

    # the first distance to FIRST_REL of itself (it is the trace's distance at t = 0 and sets
    # tol); then a step needs the gap to STEP_REL of itself, or to 1e-4 tol near the contact
    f, low, u, pa, pb = F(0.0, 1e-4 * tol_rel * P.size, FIRST_REL)
    pa_s, pb_s = _surface(pa, pb, P)
    tol = _tolerance(m, f, pa_s, pb_s, tol_rel)
    if f <= tol:
        raise Unsure("within tol at t = 0")  # the careful path finds the common point
    tol_now = tol
    fine = FINE * tol

    iterations = []  # rows (t, distance, closing_speed): trace_part makes the dicts
    if recorder is None:
        trace = steps = None
    else:  # the dict filled as the loop goes (the recorder keeps its "steps" in it)
        trace = {"tol": tol, "iterations": iterations}
        steps = recorder(trace)

    if steps is not None:
        def record(phase, t, f, pa, pb, **more):
            sa, sb = _surface(pa, pb, P)
            steps.row(phase, t, f, sa, sb, **more)

    t = 0.0
    converged = False
    axes_pending = F is not P.gap  # GJK pairs (the closed forms need no help)
    axes_miss = False
    for _ in range(max_iter):
        if low <= tol * 0.5:
            # the gap is known only to STEP_REL: pin it down before deciding
            f, low, u, pa, pb = F(t, fine, 0.0)
            if f <= tol:
                converged = True
                break
            if not low > tol * 0.5:
                raise Unsure("GJK stopped short of the gap")
        closing = u[0] * m0 + u[1] * m1 + u[2] * m2
        iterations.append((t, f, closing))
        t_new = t + (low - tol * 0.5) / closing if closing > 0.0 else None
        jumped = None
        if axes_pending and t_new is not None and t_new <= 1.0:
            # the first step that does not end the query: the moving separating axes may
            # prove a miss, or bound the contact later than the plane does (module notes)
            axes_pending = False
            jumped = moving_axes(a, b, m, _axes(a, b, m, P.start, JUMP), 2.0 * tol,
                                 tol * 0.5 if JUMP else None, P.size)
            axes_miss = jumped is None
            if JUMP and jumped is not None and jumped[0] > t_new:
                t_new = jumped[0]
        if steps is not None:  # the step this loop takes: from the plane's bound low (or
            # to the axes' t_enter, JUMP)
            dt = None if t_new is None else (low - tol * 0.5) / closing
            if dt is not None and t_new != t + dt:
                dt = t_new - t
            record("advance", t, f, pa, pb, closing_speed=closing,
                   normal=(0.0 - u[0], 0.0 - u[1], 0.0 - u[2]), dt=dt, t_next=t_new)
        if closing <= 0.0:
            # u separates (low > 0): the shapes only part along it from here on
            return _miss(tol, iterations, trace,
                         "closing speed <= 0: d(t) is non-decreasing from here (convex)",
                         P.queries)
        if axes_miss:
            return _miss(tol, iterations, trace, AXES_MISS, P.queries)
        if t_new > 1.0:
            f1 = F(1.0, fine, STEP_REL)
            if f1[0] > tol:
                if steps is not None:
                    record("end", 1.0, f1[0], f1[3], f1[4])
                return _miss(tol, iterations, trace,
                             "the advancement bound passes t = 1: no contact in [0, 1]",
                             P.queries)
            t_new = 1.0
        if not t_new > t:
            raise Unsure("no progress")
        f, low, u, pa, pb = F(t_new, fine, STEP_REL)
        if f <= 0.0:
            raise Unsure("overshoot")
        t = t_new
        if f <= tol:
            converged = True
            break
    if not converged or u is None:
        raise Unsure("slow advancement: the careful path's convex search")
    # polish: Newton steps to level 0, each on a bound of the gap along u (the separating
    # plane's, or the settled distance as the careful path takes it): none passes the contact
    t0 = t
    done = 0
    floor = 1e-3 * tol
    while done < polish_steps and f > 0.0:
        closing = u[0] * m0 + u[1] * m1 + u[2] * m2
        if closing <= 0.0 or low <= 0.0:
            break
        t2 = min(1.0, t + low / closing)
        if t2 <= t:
            break
        f2, low2, u2, pa2, pb2 = F(t2, fine, 0.0)
        done += 1
        if f2 <= 0.0 or u2 is None:
            # landed on the contact (transversal: one Newton step does it), touching or
            # overlapping by rounding, as the careful path's static query calls distance 0
            t, f, pa, pb = t2, 0.0, pa2, pb2
            break
        t, f, low, u, pa, pb = t2, f2, low2, u2, pa2, pb2
        if f <= floor or t2 >= 1.0:
            break
    polish = (t0, t, f, done)
    # the contact point between the surface points, and the normal: at distance 0 the careful
    # path keeps the last direction of the closest points, else theirs (_surface and
    # _normal written out: the one unit pb - pa they both take)
    dx, dy, dz = pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]
    n = _sqrt(dx * dx + dy * dy + dz * dz)
    unit_ok = 0 < n < math.inf
    if unit_ok:
        nx, ny, nz = dx / n, dy / n, dz / n
    if R == 0:
        pa_s, pb_s = pa, pb
    else:
        if not unit_ok:
            nx = ny = nz = 0.0
        ra, rb = P.ra, P.rb
        pa_s = (pa[0] + ra * nx, pa[1] + ra * ny, pa[2] + ra * nz)
        pb_s = (pb[0] - rb * nx, pb[1] - rb * ny, pb[2] - rb * nz)
    point = ((pa_s[0] + pb_s[0]) * 0.5, (pa_s[1] + pb_s[1]) * 0.5, (pa_s[2] + pb_s[2]) * 0.5)
    if f == 0 or not unit_ok:
        normal = (0.0 - u[0], 0.0 - u[1], 0.0 - u[2])  # 0.0 - x: no signed zeros
    else:
        normal = (nx, ny, nz)
    part = (tol, iterations, polish, "d(t) reached tol", t, f, P.queries)
    if steps is not None:
        _fill(trace, part)
        record("toi", t, f, pa, pb)
        return t, point, normal, trace
    return t, point, normal, part


def _careful(careful, t, P):
    """One static query of the careful path at ``t``, in :meth:`Pair.at`'s terms: its
    distance as the step's bound (as the careful path steps), its closest points moved to the
    cores (``pa - r_A n``, ``pb + r_B n``)."""
    P.careful_queries = getattr(P, "careful_queries", 0) + 1
    d, pa, pb = careful(t)
    if d <= 0.0:
        return 0.0, 0.0, None, pa, pa  # contact: a common point (the polish lands on it)
    dx, dy, dz = pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]
    n = math.sqrt(dx * dx + dy * dy + dz * dz)
    if not (n > 0.0 and math.isfinite(n)):
        raise Unsure("the careful query's closest points")
    nx, ny, nz = dx / n, dy / n, dz / n
    ra, rb = P.ra, P.rb
    ca = (pa[0] - ra * nx, pa[1] - ra * ny, pa[2] - ra * nz)
    cb = (pb[0] + rb * nx, pb[1] + rb * ny, pb[2] + rb * nz)
    return d, d, (-nx, -ny, -nz), ca, cb


def _miss(tol, iterations, trace, case, calls):
    part = (tol, iterations, None, case, None, None, calls)
    if trace is None:
        return None, None, None, part
    _fill(trace, part)
    return None, None, None, trace


def _fill(trace, part):
    """The recorder's trace dict (``"tol"``, ``"iterations"``, ``"steps"`` so far) given the
    rest of :func:`trace_part`'s keys, in its order (its rows made dicts in place)."""
    full = trace_part(part)
    trace["iterations"][:] = full["iterations"]
    for k, v in full.items():
        if k not in ("tol", "iterations"):
            trace[k] = v


def _surface(pa, pb, P):
    """The closest points on the shapes from those on the cores: ``pa + r_A n``,
    ``pb - r_B n`` (van den Bergen §4.3.4)."""
    if P.R == 0:
        return pa, pb
    # n: the unit from A's core point to B's (0 where they coincide)
    dx, dy, dz = pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2]
    n = _sqrt(dx * dx + dy * dy + dz * dz)
    if 0 < n < math.inf:
        nx, ny, nz = dx / n, dy / n, dz / n
    else:
        nx = ny = nz = 0.0
    ra, rb = P.ra, P.rb
    return ((pa[0] + ra * nx, pa[1] + ra * ny, pa[2] + ra * nz),
            (pb[0] - rb * nx, pb[1] - rb * ny, pb[2] - rb * nz))
