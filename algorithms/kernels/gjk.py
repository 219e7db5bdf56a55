"""Generic convex distance: GJK on the exact support functions of :mod:`algorithms.kernels.support`.

The Gilbert-Johnson-Keerthi algorithm (IEEE J. Robotics & Automation 4(2), 1988) in van den
Bergen's formulation (*Collision Detection in Interactive 3D Environments*, §4.3; Box2D's
``b2Distance`` is the 2D version shown by its "Shape Distance" sample). It finds the point ``v``
of the Minkowski difference ``A - B`` nearest the origin:

1. ``v`` starts at ``centre(A) - centre(B)`` (a point of ``A - B``), the simplex ``W = {v}``;
2. ``w = s_A(-v) - s_B(v)`` is the support point of ``A - B`` in ``-v``;
3. stop when ``v.v - v.w <= tol * v.v`` (then ``|v| - dist <= tol |v|``), when ``w`` is already
   in ``W`` or when ``v`` stops shrinking (rounding); otherwise ``W += {w}``;
4. ``v`` = the point of ``conv(W)`` nearest the origin, ``W`` shrinks to the smallest face
   that holds it (the distance sub-algorithm, below); ``|W| = 4`` means the origin is inside
   ``A - B``: the shapes overlap.

The closest points are ``sum lambda_i a_i`` on A and ``sum lambda_i b_i`` on B, with ``a_i, b_i``
the support points that made ``w_i = a_i - b_i`` and ``lambda`` the barycentric coordinates
of ``v``.

*One GJK.* :func:`iterate` is the library's only GJK iteration, on support functions given
as callables, from any simplex. :func:`run` is its careful mode from a cold start:
:func:`gjk_distance` gives it the support functions of :mod:`algorithms.kernels.support`, the
cylinder-cylinder query (:mod:`algorithms.queries.cylinder_cylinder`) its cylinders' (also
projected into a plane), with an absolute touching length and gap. The time-of-impact fast
path (:mod:`algorithms.kernels.toi_fast`) runs :func:`iterate` in its plain-float mode: warm
started from the simplex of the last time step (B's support points moved with B), stopping
at the gap a conservative step needs, on Ericson's sub-algorithm
(:func:`closest_on_simplex_fast`; its slivers, ``sin^2`` under 1e-3 as in the careful
:func:`_face`, by :func:`_sliver` and the three edges: :func:`_ericson_sliver`). In both modes a
repeated support point on a vertex, an edge or a sliver, and a stall, get the tilted retry
(plain mode: the first tilt that shrinks ``v``; a repeat on a wide triangle ends a plain
run); the tilt is at least ``v``'s rounding floor. :func:`closest_on_simplex` is the careful distance
sub-algorithm (the GJK ray cast of :mod:`algorithms.generic.gjk_raycast` uses it too).
``run(..., record=True)`` keeps one :class:`algorithms.traces.GjkStep` per iteration (what the
explorer's step-through draws); otherwise it builds no records.

*Distance sub-algorithm.* Johnson's: every face of ``W`` (at most 15 for a tetrahedron) is
tried, the origin projected on its affine hull, and among the faces whose barycentric
coordinates are all positive the one with the nearest projection wins. Taking the minimum
over all feasible faces (rather than the first face passing Johnson's sign tests) keeps it
robust on the degenerate simplices that flat boxes, segments and points produce: a face flat
to rounding is skipped, and the vertices are always candidates, so ``v`` is always a point of
``conv(W)``. A triangle is solved by its Gram system, a sliver too thin for that (``sin^2``
of its widest angle under 1e-3, where the Gram solve's error ~eps / sin^2 nears the
touching band) by cross products refined on their residual (:func:`_sliver`).

*Round shapes.* A sphere is its centre plus a radius and a capsule its segment plus a radius
(van den Bergen's "core" shapes): GJK runs on the cores, which are polytopes, so it
terminates exactly, and the radii are subtracted afterwards. For points, segments, triangles
and boxes GJK terminates in a few iterations with the exact answer up to rounding; only the
cylinder (a curved rim) converges geometrically, to ``tol``.

*Touching.* ``|v| <= max(TOUCH * scale, 16 ulp * size)`` (``scale`` the largest ``|w|`` met or
the radii, ``size`` the largest coordinate) counts as touching: distance 0 and a common point
(the rounding of ``|v|`` is of that order).

*Robustness.* Components of ``v`` below the rounding floor of the coordinates are cleared
before the support query (their sign would pick an arbitrary corner of an axis-aligned face);
on a stall (repeated support point, no decrease of ``|v|``) the support is retried along ``v``
tilted by ``1e-7 |v|`` (at least the rounding floor of ``v``) about each axis, and when
no tilt gets past it with the gap still open, among the polytopes' vertices tied to that
floor (:func:`_tie_break`: the support point in ``-v`` is ambiguous to ``v``'s rounding);
a feasible face wins a tie with its own sub-faces; a few level steps are accepted where
``|v|^2`` cannot register a 1e-8 tilt. Stopping: the gap ``|v| (|v| - lower)`` with
``lower = n.w / |n|`` measured along the queried direction ``n``.

*Accuracy* (tests/algorithms/kernels/test_gjk.py, 10 800 random pairs of all 36 kinds, coordinates in
[-4, 4], certified by the closed-form support values): polytopes and round cores within
5e-13 of the optimum (exact oracles: 5e-15), cylinders within 2e-12; 1-4 iterations for
polytopes (max 8), 13-17 on average with a cylinder (max 59). Points on and near thin boxes
(thickness 1e-12 to 1 of the length; on a face, 1e-9 and 1e-9..1e-6 of the length off it;
24 000 random cases) are within 1.1e-15 of the scale: the sliver triangles there take
:func:`_sliver` (until the Gram cutoff was raised from ``sin^2`` 1e-13 to 1e-3, those 1e-7 to
1e-3 thin were solved by the Gram system and a tenth of them were wrong by up to 9e-7 of the
scale). Known limits: a contact tangent to a cylinder's rim (a segment or box edge touching a
disk's circle) may stop up to ~1e-7 short of 0. Near a curved contact the closest points are
known only to ~sqrt(tol |v| R) (1e-8 to 1e-7 for unit shapes: moving them along the rim
changes the distance by the square of the move), the distance to ~tol |v|.

*Range.* When coordinates leave ``[2^-200, 2^200]`` (their squares would underflow or overflow)
the pair is solved scaled by a power of two, which is exact, and the answer scaled back.
"""

from __future__ import annotations

import itertools
import math

import numpy as np

from algorithms.core.tolerance import SLIVER_SIN2, TOUCH_REL
from algorithms.core.vec import dot3 as _dot
from algorithms.core.vec import sub3 as _sub
from algorithms.kernels.support import BOUNDED_KINDS, centre_tuple, core, support_fn
from algorithms.kernels.support import vertices as polytope_vertices
from algorithms.primitives import (AABB, OBB, Capsule, Cylinder, Point, Primitive, Segment, Sphere,
                                   Triangle)
from algorithms.results import DistanceResult

METHOD = "GJK distance (Gilbert-Johnson-Keerthi), exact support functions"
#: relative size of ``|v|`` (to the largest support point) below which shapes touch
TOUCH = TOUCH_REL  # core.tolerance: 2**-40 of the scale
DEFAULT_TOL = 1e-13
MAX_ITERATIONS = 500


# ----------------------------------------------------------------------------- sub-algorithm


def _face(Y: list, idx: tuple):
    """Barycentric coordinates of the origin's projection on the affine hull of ``Y[idx]``,
    or ``None`` when the face is degenerate or the projection falls outside it."""
    k = len(idx)
    if k == 1:
        return (1.0,)
    if k == 2:
        p0, p1 = Y[idx[0]], Y[idx[1]]
        e = (p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2])
        ee = e[0] * e[0] + e[1] * e[1] + e[2] * e[2]
        if ee <= 0.0:
            return None
        t = -(p0[0] * e[0] + p0[1] * e[1] + p0[2] * e[2]) / ee
        if not 0.0 < t < 1.0:
            return None
        return (1.0 - t, t)
    if k == 3:
        # Base the edges at the vertex opposite the longest edge (the largest angle): for a
        # sliver (two support points of one rim, one far corner) this keeps the 2x2 Gram
        # system well conditioned; based at the sharp vertex it loses the direction of v.
        i0, i1, i2 = idx
        y0, y1, y2 = Y[i0], Y[i1], Y[i2]
        # (the differences and dot products of vec.sub3 and vec.dot3 written out: the same
        # operations in the same order)
        x0, x1, x2 = y0
        z0, z1, z2 = y1
        u0, u1, u2 = y2
        d0, d1, d2 = z0 - u0, z1 - u1, z2 - u2
        l0 = d0 * d0 + d1 * d1 + d2 * d2
        d0, d1, d2 = x0 - u0, x1 - u1, x2 - u2
        l1 = d0 * d0 + d1 * d1 + d2 * d2
        d0, d1, d2 = x0 - z0, x1 - z1, x2 - z2
        l2 = d0 * d0 + d1 * d1 + d2 * d2
        order = (0, 1, 2) if l0 >= l1 and l0 >= l2 else ((1, 0, 2) if l1 >= l2 else (2, 0, 1))
        ys = (y0, y1, y2)
        p0, q1, q2 = ys[order[0]], ys[order[1]], ys[order[2]]
        p00, p01, p02 = p0
        a0, a1, a2 = q1[0] - p00, q1[1] - p01, q1[2] - p02
        b0, b1, b2 = q2[0] - p00, q2[1] - p01, q2[2] - p02
        e11 = a0 * a0 + a1 * a1 + a2 * a2
        e12 = a0 * b0 + a1 * b1 + a2 * b2
        e22 = b0 * b0 + b1 * b1 + b2 * b2
        det = e11 * e22 - e12 * e12
        # The Gram solve errs by ~eps / sin^2 (the condition number of the 2x2 system, sin
        # the angle at p0): for sin^2 over 1e-3 under ~2e-13 of the scale, inside the
        # touching band (2^-40 = 9e-13). Thinner triangles go to the cross products refined
        # on their residual, exact to rounding (_sliver); solved here, those of boxes 1e-7 to
        # 1e-3 thin with a point on or by a face were up to 9e-7 of the scale wrong
        if det > SLIVER_SIN2 * e11 * e22:
            r1 = -(p00 * a0 + p01 * a1 + p02 * a2)
            r2 = -(p00 * b0 + p01 * b1 + p02 * b2)
            m1 = (r1 * e22 - r2 * e12) / det
            m2 = (e11 * r2 - e12 * r1) / det
        else:
            m = _sliver(p00, p01, p02, a0, a1, a2, b0, b1, b2, e11 * e22)
            if m is None:
                return None
            m1, m2 = m
        lam = (1.0 - m1 - m2, m1, m2)
        if not min(lam) > 0.0:
            return None
        if order == (0, 1, 2):
            return lam
        out = [0.0, 0.0, 0.0]
        for j, l in zip(order, lam):
            out[j] = l
        return tuple(out)
    p0 = Y[idx[0]]
    E = [_sub(Y[i], p0) for i in idx[1:]]
    # k == 4: solve p0 + E^T mu = 0 by Cramer's rule
    a, b, c = E
    bxc = (b[1] * c[2] - b[2] * c[1], b[2] * c[0] - b[0] * c[2], b[0] * c[1] - b[1] * c[0])
    det = _dot(a, bxc)
    size = math.sqrt(_dot(a, a) * _dot(b, b) * _dot(c, c))
    if not abs(det) > 1e-13 * size:
        return None
    r = (-p0[0], -p0[1], -p0[2])
    rxc = (r[1] * c[2] - r[2] * c[1], r[2] * c[0] - r[0] * c[2], r[0] * c[1] - r[1] * c[0])
    axb = (a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0])
    m1 = _dot(r, bxc) / det  # det[r, b, c] / det[a, b, c]
    m2 = _dot(a, rxc) / det  # det[a, r, c] / det
    m3 = _dot(axb, r) / det  # det[a, b, r] / det
    lam = (1.0 - m1 - m2 - m3, m1, m2, m3)
    return lam if min(lam) >= 0.0 else None


def _sliver(p00, p01, p02, a0, a1, a2, b0, b1, b2, e11e22):
    """:func:`_face` of a sliver ``p0, p0 + a, p0 + b`` (``sin^2`` of the angle between ``a``
    and ``b`` under 1e-3, where the Gram solve's error ~eps / sin^2 would pass the touching
    band): the coordinates ``(m1, m2)`` of the origin's projection ``p0 + m1 a + m2 b``, or
    ``None`` when the triangle is flat to rounding.

    The Gram determinant ``e11 e22 - e12^2 = |a x b|^2`` cancels, rounded by ~2 eps e11 e22
    (a box 1e-8 thin: its 4.0e-16 computed as 4.4e-16), so no Gram solve is possible there;
    rejecting the face left GJK on an edge, 2.8e-9 short of a point lying on a box 1e-8 thin.
    Above that and up to ``sin^2`` 1e-3 the Gram solve runs but errs by ~eps / sin^2 (a point
    on a box 1e-6 thin: up to 5e-7 of the scale).
    The normal ``n = a x b`` formed directly has components rounded by ~eps |a||b| each:
    relative error ~eps / sin, a plane while ``|n|^2 > 1e-26 e11 e22`` (sin > 1e-13;
    rounding alone leaves |n|^2 ~ 1e-32 e11 e22). Cramer's rule on ``-p0 = m1 a + m2 b +
    s n`` gives ``m1 = -p0 . (b x n) / n.n``, ``m2 = -p0 . (n x a) / n.n`` (``a . (b x n) =
    b . (n x a) = n.n``), with an error ~eps / sin times ``|p0|`` (the origin seen from a
    far vertex); so the residual, the point ``x = p0 + m1 a + m2 b`` itself, is solved again
    (iterative refinement: each step shrinks the error by ~eps / sin, under 1e-3; three
    steps). Montanari, Petrinic & Barbieri (ACM TOG 36(3), 2017, the "signed volumes"
    distance sub-algorithm) take cross-product areas instead of Gram determinants for the
    same reason. Whatever the rounding, positive barycentrics summing to 1 make ``v`` a point
    of ``conv(W)``, and :func:`closest_on_simplex` keeps the nearest candidate."""
    n0 = a1 * b2 - a2 * b1
    n1 = a2 * b0 - a0 * b2
    n2 = a0 * b1 - a1 * b0
    nn = n0 * n0 + n1 * n1 + n2 * n2
    if not nn > 1e-26 * e11e22:
        return None
    c0, c1, c2 = b1 * n2 - b2 * n1, b2 * n0 - b0 * n2, b0 * n1 - b1 * n0  # b x n
    d0, d1, d2 = n1 * a2 - n2 * a1, n2 * a0 - n0 * a2, n0 * a1 - n1 * a0  # n x a
    m1 = -(p00 * c0 + p01 * c1 + p02 * c2) / nn
    m2 = -(p00 * d0 + p01 * d1 + p02 * d2) / nn
    for _ in range(3):
        x0 = p00 + m1 * a0 + m2 * b0
        x1 = p01 + m1 * a1 + m2 * b1
        x2 = p02 + m1 * a2 + m2 * b2
        m1 -= (x0 * c0 + x1 * c1 + x2 * c2) / nn
        m2 -= (x0 * d0 + x1 * d1 + x2 * d2) / nn
    return m1, m2


_SUBSETS = {
    k: [tuple(i for i in range(k) if mask >> i & 1)
        for mask in sorted(range(1, 1 << k), key=lambda m: (bin(m).count("1"), m))]
    for k in (1, 2, 3, 4)
}


def _point_of(Y, idx, lam):
    x = y = z = 0.0  # (summed in the order of idx: the same bits as ever)
    for l, i in zip(lam, idx):
        q = Y[i]
        x += l * q[0]
        y += l * q[1]
        z += l * q[2]
    return (x, y, z)


def closest_on_simplex(Y: list, base=None):
    """The point of ``conv(Y)`` (1 to 4 points) nearest the origin.

    Returns ``(idx, lam, v)``: the indices of the smallest face holding it, its barycentric
    coordinates there, and the point. Johnson's sub-algorithm by exhaustion (module notes).

    ``base = (lam, vv)``: GJK's own knowledge that ``Y[:-1]`` whole is the face this function
    chose for an earlier simplex, with those coordinates and squared distance. Then only the
    faces holding the new point ``Y[-1]`` are tried (about half of them) and the answer is the
    one the full search gives, bit for bit: the faces of ``Y[:-1]`` were all tried before and
    ``Y[:-1]`` beat them, and the tie rule below is applied to it in its place in the order.
    """
    best = None
    n = len(Y)
    top = n - 1
    for idx in (_SUBSETS[n] if base is None else _WITH_LAST[n]):
        lam = _face(Y, idx)
        if lam is None:
            continue
        v = _point_of(Y, idx, lam)
        vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        # "<=": a feasible face projects the origin at least as near as any of its sub-faces,
        # so in a floating-point tie (|v|^2 ~ 1 cannot see a 1e-8 tilt) the larger face
        # carries the accurate direction
        if best is None or vv <= best[3]:
            best = (idx, lam, v, vv)
    if base is not None:
        lam0, vv0 = base
        # Y[:-1] sits in the order (by size, then mask) after every smaller face and before
        # every face of its own size or more that holds Y[-1]: it wins a tie with the former
        if best is None or vv0 < best[3] or (vv0 == best[3] and len(best[0]) < top):
            idx = tuple(range(top))
            return idx, tuple(lam0), _point_of(Y, idx, lam0)
    return best[0], best[1], best[2]


_WITH_LAST = {k: [idx for idx in _SUBSETS[k] if k - 1 in idx] for k in (1, 2, 3, 4)}


# --------------------------------------------------- the fast sub-algorithm (Ericson's regions)


class _Degenerate(Exception):
    """A face too thin for Ericson's region tests: :func:`closest_on_simplex` decides."""


def _ericson_segment(A, B):
    """Origin's nearest point on segment AB: (indices kept, barycentrics, point)."""
    ax, ay, az = A
    ex, ey, ez = B[0] - ax, B[1] - ay, B[2] - az
    ee = ex * ex + ey * ey + ez * ez
    t = -(ax * ex + ay * ey + az * ez)
    if t <= 0.0 or ee <= 0.0:
        return (0,), (1.0,), A
    if t >= ee:
        return (1,), (1.0,), B
    t /= ee
    return (0, 1), (1.0 - t, t), (ax + t * ex, ay + t * ey, az + t * ez)


def _ericson_triangle(a, b, c):
    """Ericson RTCD §5.1.5 ``ClosestPtPointTriangle`` for the origin: the Voronoi region of the
    origin, its barycentrics. Raises :class:`_Degenerate` on a degenerate triangle.

    Based at the vertex opposite the longest edge (as :func:`_face`):
    on a sliver (two support points of one rim, one far corner) the edges from the sharp
    vertex are nearly parallel and the projection loses the slow progress GJK makes there.
    (The triangle is renamed so that ``a`` is that vertex, and the faces found named back by
    a table: one function, no call per triangle.)"""
    ax, ay, az = a
    bx, by, bz = b
    cx, cy, cz = c
    # the edges b - a, c - a, c - b (each the edge from the base vertex for one choice
    # below; their squares are those of a - b, a - c, b - c: x - y = -(y - x) exactly)
    abx, aby, abz = bx - ax, by - ay, bz - az
    acx, acy, acz = cx - ax, cy - ay, cz - az
    bcx, bcy, bcz = cx - bx, cy - by, cz - bz
    # The longest edge, filtered: the squared lengths by products decide where no two are
    # within 1e-9 of each other (``x ** 2``, libm's pow, may differ from ``x * x`` by an ulp
    # of the length, never by 1e-9), the lengths by ``** 2`` (the choice as ever) otherwise.
    m_a = bcx * bcx + bcy * bcy + bcz * bcz
    m_b = acx * acx + acy * acy + acz * acz
    m_c = abx * abx + aby * aby + abz * abz
    base = 0
    if 1e-200 < m_a < 1e200 and 1e-200 < m_b < 1e200 and 1e-200 < m_c < 1e200:
        if m_a > _SEP * m_b and m_a > _SEP * m_c:
            base = 1
        elif m_b > _SEP * m_a or m_c > _SEP * m_a:  # a's edge is not the longest
            base = 2 if m_b > _SEP * m_c else (3 if m_c > _SEP * m_b else 0)
    if base == 0:
        l_a = (bx - cx) ** 2 + (by - cy) ** 2 + (bz - cz) ** 2
        l_b = (ax - cx) ** 2 + (ay - cy) ** 2 + (az - cz) ** 2
        l_c = (ax - bx) ** 2 + (ay - by) ** 2 + (az - bz) ** 2
        base = 1 if l_a >= l_b and l_a >= l_c else (2 if l_b >= l_c else 3)
    # ab, ac: the edges from the base vertex (b - a, c - a once renamed), and their squared
    # lengths (the same products as m_*)
    if base == 1:
        ren = _FACES_A
        nab, nac = m_c, m_b
    elif base == 2:  # based at b: (b, a, c)
        ren = _FACES_B
        a, b = b, a
        ax, ay, az, bx, by, bz = bx, by, bz, ax, ay, az
        abx, aby, abz = bx - ax, by - ay, bz - az
        acx, acy, acz = bcx, bcy, bcz
        nab, nac = m_c, m_a
    else:  # based at c: (c, a, b)
        ren = _FACES_C
        a, b, c = c, a, b
        ax, ay, az, bx, by, bz, cx, cy, cz = cx, cy, cz, ax, ay, az, bx, by, bz
        abx, aby, abz = bx - ax, by - ay, bz - az
        acx, acy, acz = cx - ax, cy - ay, cz - az
        nab, nac = m_b, m_a
    # ap = -a
    d1 = -(abx * ax + aby * ay + abz * az)
    d2 = -(acx * ax + acy * ay + acz * az)
    if d1 <= 0.0 and d2 <= 0.0:
        return ren[0], (1.0,), a
    d3 = -(abx * bx + aby * by + abz * bz)
    d4 = -(acx * bx + acy * by + acz * bz)
    if d3 >= 0.0 and d4 <= d3:
        return ren[1], (1.0,), b
    # A sliver (sin^2 of the angle at a under 1e-3): the region tests below and the
    # barycentrics are 2x2 determinants of dot products (va, vb, vc and their sum, the Gram
    # determinant), rounded by ~eps |ab|^2 |ac|^2 while their values are ~sin^2 times that:
    # the edge-or-face decision and the point err by ~eps / sin^2. Solved as the careful
    # sub-algorithm's _face solves it (_sliver, exact to rounding): _ericson_sliver
    e12 = abx * acx + aby * acy + abz * acz
    if not nab * nac - e12 * e12 > SLIVER_SIN2 * nab * nac:
        return _ericson_sliver(a, b, c, abx, aby, abz, acx, acy, acz, nab * nac, ren)
    vc = d1 * d4 - d3 * d2
    if vc <= 0.0 and d1 >= 0.0 and d3 <= 0.0:
        den = d1 - d3
        if not den > 0.0:
            raise _Degenerate("degenerate edge")
        v = d1 / den
        return ren[2], (1.0 - v, v), (ax + v * abx, ay + v * aby, az + v * abz)
    d5 = -(abx * cx + aby * cy + abz * cz)
    d6 = -(acx * cx + acy * cy + acz * cz)
    if d6 >= 0.0 and d5 <= d6:
        return ren[3], (1.0,), c
    vb = d5 * d2 - d1 * d6
    if vb <= 0.0 and d2 >= 0.0 and d6 <= 0.0:
        den = d2 - d6
        if not den > 0.0:
            raise _Degenerate("degenerate edge")
        w = d2 / den
        return ren[4], (1.0 - w, w), (ax + w * acx, ay + w * acy, az + w * acz)
    va = d3 * d6 - d5 * d4
    if va <= 0.0 and (d4 - d3) >= 0.0 and (d5 - d6) >= 0.0:
        den = (d4 - d3) + (d5 - d6)
        if not den > 0.0:
            raise _Degenerate("degenerate edge")
        w = (d4 - d3) / den
        return ren[5], (1.0 - w, w), (bx + w * (cx - bx), by + w * (cy - by),
                                           bz + w * (cz - bz))
    den = va + vb + vc
    # a sliver whose Gram determinant is lost in rounding: the careful sub-algorithm decides
    if not den > 1e-10 * nab * nac:
        raise _Degenerate("degenerate triangle")
    v = vb / den
    w = vc / den
    return ren[6], (1.0 - v - w, v, w), (ax + abx * v + acx * w,
                                          ay + aby * v + acy * w,
                                          az + abz * v + acz * w)


def _ericson_sliver(a, b, c, abx, aby, abz, acx, acy, acz, nn, ren):
    """:func:`_ericson_triangle` of a sliver ``a, b, c`` (edges ``ab``, ``ac`` from ``a``, the
    widest angle, ``sin^2`` under 1e-3; ``nn = |ab|^2 |ac|^2``) past its vertex tests at ``a``
    and ``b``: the origin's projection on the plane by :func:`_sliver` (cross products
    refined on their residual) when its barycentrics are positive, else the nearest of the
    three edges (each clamped to its ends): Johnson's answer (:func:`closest_on_simplex`),
    the triangle's nearest point, without Ericson's Gram-style region tests."""
    ax, ay, az = a
    m = _sliver(ax, ay, az, abx, aby, abz, acx, acy, acz, nn)
    if m is not None:
        v, w = m
        u = 1.0 - v - w
        if u > 0.0 and v > 0.0 and w > 0.0:
            return ren[6], (u, v, w), (ax + abx * v + acx * w, ay + aby * v + acy * w,
                                        az + abz * v + acz * w)
    best = None
    for p, q, face in ((a, b, 2), (a, c, 4), (b, c, 5)):
        px, py, pz = p
        ex, ey, ez = q[0] - px, q[1] - py, q[2] - pz
        ee = ex * ex + ey * ey + ez * ez
        t = -(px * ex + py * ey + pz * ez)
        if t <= 0.0 or not ee > 0.0:
            found = ren[face][:1], (1.0,), p
        elif t >= ee:
            found = ren[face][1:], (1.0,), q
        else:
            t /= ee
            found = ren[face], (1.0 - t, t), (px + t * ex, py + t * ey, pz + t * ez)
        x = found[2]
        vv = x[0] * x[0] + x[1] * x[1] + x[2] * x[2]
        if best is None or vv < best[0]:
            best = (vv, found)
    return best[1]


def _renamed(order):
    """Every face ``idx`` (in any order) of a triangle based at ``order[0]`` (indices into
    ``order``) mapped to the indices of the caller's triangle: a table lookup, no per-call
    tuple built."""
    return {idx: tuple(order[i] for i in idx)
            for k in (1, 2, 3) for idx in itertools.permutations((0, 1, 2), k)}


_ORDER_A = _renamed((0, 1, 2))
#: the separation at which products order squared lengths as ``** 2`` does (module notes)
_SEP = 1.0 + 1e-9
_SEP_LO = 1.0 - 1e-9
_ORDER_B = _renamed((1, 0, 2))
_ORDER_C = _renamed((2, 0, 1))
#: the faces :func:`_ericson_triangle` returns, renamed, by position (a tuple indexed by a
#: constant: no tuple key hashed per call): the vertices 0, 1, the edge 01, the vertex 2,
#: the edges 02, 12, the whole triangle
_RETURNED = ((0,), (1,), (0, 1), (2,), (0, 2), (1, 2), (0, 1, 2))
_FACES_A = tuple(_ORDER_A[f] for f in _RETURNED)
_FACES_B = tuple(_ORDER_B[f] for f in _RETURNED)
_FACES_C = tuple(_ORDER_C[f] for f in _RETURNED)


_TETRA_FACES = ((0, 1, 2, 3), (0, 2, 3, 1), (0, 3, 1, 2), (1, 3, 2, 0))
#: per face ``(i, j, k)``, a face of it (indices into the triangle) as indices of the simplex
_TETRA_RENAME = {f[:3]: _renamed(f[:3]) for f in _TETRA_FACES}


def _ericson_tetrahedron(Y):
    """Ericson RTCD §5.1.6 ``ClosestPtPointTetrahedron`` for the origin: the nearest of the
    faces whose plane separates the origin from the opposite vertex; ``(0, 1, 2, 3)`` with the
    barycentrics when the origin is inside. A flat tetrahedron: the nearest of all four faces
    (their union is the hull).

    The faces in the order ``(0, 1, 2), (0, 2, 3), (0, 3, 1), (1, 3, 2)`` (the opposite
    vertex last), each with its normal ``n = e1 x e2``, the sign of the origin ``-a . n`` and
    of the opposite vertex ``d . n`` (``e1, e2, d`` the edges from its first vertex ``a``),
    written out: the three faces at vertex 0 take the same three edges from it (each edge
    once as ``e1``, ``e2`` and ``d``: taken once), and ``|d|^2`` of the last face, whose
    ``d`` is ``-(vertex 1 - vertex 0)``, is that edge's (the same squares)."""
    A, B, C, D = Y
    ax, ay, az = A
    bx, by, bz = B
    cx, cy, cz = C
    dx, dy, dz = D
    abx, aby, abz = bx - ax, by - ay, bz - az
    acx, acy, acz = cx - ax, cy - ay, cz - az
    adx, ady, adz = dx - ax, dy - ay, dz - az
    bdx, bdy, bdz = dx - bx, dy - by, dz - bz
    bcx, bcy, bcz = cx - bx, cy - by, cz - bz
    bax, bay, baz = ax - bx, ay - by, az - bz
    n_ab = abx * abx + aby * aby + abz * abz
    n_ac = acx * acx + acy * acy + acz * acz
    n_ad = adx * adx + ady * ady + adz * adz
    best = None
    best_vv = 0.0
    outside_any = False
    # face (0, 1, 2), opposite 3: e1 = ab, e2 = ac, d = ad
    nx = aby * acz - abz * acy
    ny = abz * acx - abx * acz
    nz = abx * acy - aby * acx
    so = -(ax * nx + ay * ny + az * nz)
    sd = adx * nx + ady * ny + adz * nz
    s2, k16 = sd * sd, 1e-16 * (nx * nx + ny * ny + nz * nz)
    lim = k16 * n_ad
    if 1e-290 < lim < 1e290 and not _SEP_LO * lim <= s2 <= _SEP * lim:
        flat = s2 < lim
    else:
        flat = not s2 > k16 * (adx ** 2 + ady ** 2 + adz ** 2)
    if flat or so * sd < 0.0:  # flat, or the origin outside
        outside_any = True
        idx, lam, v = _ericson_triangle(A, B, C)
        vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        if best is None or vv < best_vv:
            best = (_TR_012[idx], lam, v)
            best_vv = vv
    # face (0, 2, 3), opposite 1: e1 = ac, e2 = ad, d = ab
    nx = acy * adz - acz * ady
    ny = acz * adx - acx * adz
    nz = acx * ady - acy * adx
    so = -(ax * nx + ay * ny + az * nz)
    sd = abx * nx + aby * ny + abz * nz
    s2, k16 = sd * sd, 1e-16 * (nx * nx + ny * ny + nz * nz)
    lim = k16 * n_ab
    if 1e-290 < lim < 1e290 and not _SEP_LO * lim <= s2 <= _SEP * lim:
        flat = s2 < lim
    else:
        flat = not s2 > k16 * (abx ** 2 + aby ** 2 + abz ** 2)
    if flat or so * sd < 0.0:  # flat, or the origin outside
        outside_any = True
        idx, lam, v = _ericson_triangle(A, C, D)
        vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        if best is None or vv < best_vv:
            best = (_TR_023[idx], lam, v)
            best_vv = vv
    # face (0, 3, 1), opposite 2: e1 = ad, e2 = ab, d = ac
    nx = ady * abz - adz * aby
    ny = adz * abx - adx * abz
    nz = adx * aby - ady * abx
    so = -(ax * nx + ay * ny + az * nz)
    sd = acx * nx + acy * ny + acz * nz
    s2, k16 = sd * sd, 1e-16 * (nx * nx + ny * ny + nz * nz)
    lim = k16 * n_ac
    if 1e-290 < lim < 1e290 and not _SEP_LO * lim <= s2 <= _SEP * lim:
        flat = s2 < lim
    else:
        flat = not s2 > k16 * (acx ** 2 + acy ** 2 + acz ** 2)
    if flat or so * sd < 0.0:  # flat, or the origin outside
        outside_any = True
        idx, lam, v = _ericson_triangle(A, D, B)
        vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        if best is None or vv < best_vv:
            best = (_TR_031[idx], lam, v)
            best_vv = vv
    # face (1, 3, 2), opposite 0: e1 = bd, e2 = bc, d = ba
    nx = bdy * bcz - bdz * bcy
    ny = bdz * bcx - bdx * bcz
    nz = bdx * bcy - bdy * bcx
    so = -(bx * nx + by * ny + bz * nz)
    sd = bax * nx + bay * ny + baz * nz
    s2, k16 = sd * sd, 1e-16 * (nx * nx + ny * ny + nz * nz)
    lim = k16 * n_ab
    if 1e-290 < lim < 1e290 and not _SEP_LO * lim <= s2 <= _SEP * lim:
        flat = s2 < lim
    else:
        flat = not s2 > k16 * (bax ** 2 + bay ** 2 + baz ** 2)
    if flat or so * sd < 0.0:  # flat, or the origin outside
        outside_any = True
        idx, lam, v = _ericson_triangle(B, D, C)
        vv = v[0] * v[0] + v[1] * v[1] + v[2] * v[2]
        if best is None or vv < best_vv:
            best = (_TR_132[idx], lam, v)
            best_vv = vv
    if not outside_any:
        # inside: the barycentrics by Cramer's rule (kernels.gjk._face for k = 4)
        idx, lam, v = closest_on_simplex(Y)
        return idx, lam, v
    return best


_TR_012 = _TETRA_RENAME[0, 1, 2]
_TR_023 = _TETRA_RENAME[0, 2, 3]
_TR_031 = _TETRA_RENAME[0, 3, 1]
_TR_132 = _TETRA_RENAME[1, 3, 2]


def closest_on_simplex_fast(Y, base=None):
    """The point of ``conv(Y)`` nearest the origin, ``(idx, lam, v)`` as
    :func:`closest_on_simplex`, by Ericson's region tests in plain floats (RTCD §5.1.5 for a
    segment and a triangle, §5.1.6 for a tetrahedron by its faces), and the careful exhaustive
    :func:`closest_on_simplex` where a face degenerates. The sub-algorithm of the
    time-of-impact fast path (:mod:`algorithms.kernels.toi_fast`). ``base`` is
    :func:`closest_on_simplex`'s (unused here: the region tests are cheap already)."""
    n = len(Y)
    try:
        if n == 1:
            return (0,), (1.0,), Y[0]
        if n == 2:
            return _ericson_segment(Y[0], Y[1])
        if n == 3:
            return _ericson_triangle(Y[0], Y[1], Y[2])
        return _ericson_tetrahedron(Y)
    except _Degenerate:
        return closest_on_simplex(Y)  # a degenerate face: the careful sub-algorithm


# ----------------------------------------------------------------------------- GJK


def core_primitive(prim: Primitive):
    """The primitive GJK runs on and the radius it subtracts: a sphere's centre point, a
    capsule's segment (van den Bergen §4.3.4, "core" objects), any other shape itself and 0."""
    found = prim.__dict__.get(_CORE_KEY)
    if found is None:  # (once per primitive: a scene's sphere meets every other object)
        kind, pts, radius = core(prim)
        if pts is None:
            found = prim, 0.0
        elif kind == "point":
            found = Point(tuple(pts)), radius
        elif kind == "segment":
            found = Segment(tuple(pts[0]), tuple(pts[1])), radius
        else:
            found = prim, 0.0
        if found[0] is not prim:  # (a shape is not kept inside itself)
            object.__setattr__(prim, _CORE_KEY, found)
    return found


#: where :func:`core_primitive` and :func:`_magnitude` keep their answers on the (frozen)
#: primitive: not fields, so equality and hashing are unchanged
_CORE_KEY = "_gjk_core"
_MAGNITUDE_KEY = "_gjk_magnitude"


def _lst(v):
    t = type(v)
    if t is tuple and len(v) == 3 and type(v[0]) is float and type(v[1]) is float \
            and type(v[2]) is float:
        return list(v)  # (floats already: float(c) is c)
    if t is np.ndarray and v.dtype == np.float64:
        return v.tolist()  # (the same floats, one call)
    return [float(c) for c in v]


def gjk_distance(a: Primitive, b: Primitive, tol: float = DEFAULT_TOL,
                 max_iterations: int = MAX_ITERATIONS) -> DistanceResult:
    """Distance between two bounded convex primitives by GJK (module notes).

    Parameters
    ----------
    a, b : Primitive
        point, segment, triangle, sphere, aabb, obb, capsule or cylinder.
    tol : float
        Relative termination gap: stop when ``v.v - v.w <= tol v.v``; the distance returned
        then exceeds the true one by at most ``tol`` times itself (plus rounding).
    max_iterations : int
        Safety bound (never reached in the tests; the trace says if it was).

    Returns
    -------
    DistanceResult
        ``closest[0]`` on ``a``, ``closest[1]`` on ``b``; distance 0 and one common point
        for both when they overlap or touch. ``trace``: ``iterations``, ``termination``,
        ``steps`` (per iteration ``v``, the support points ``support_a``, ``support_b``,
        ``w``, ``gap = v.v - v.w`` and the simplex after the sub-algorithm), the final
        ``simplex`` (points ``w_i``, ``a_i``, ``b_i`` and ``lambda``), ``core_distance``,
        ``radius_a``, ``radius_b``.
    """
    for p in (a, b):
        if p.kind not in BOUNDED_KINDS:
            raise ValueError(f"gjk_distance: {p.kind!r} is not a bounded kind {BOUNDED_KINDS}")
    size = max(_magnitude(a), _magnitude(b))
    if size > 0 and not SAFE_RANGE[0] <= size <= SAFE_RANGE[1]:
        # squares of coordinates would overflow or underflow: solve the problem scaled by a
        # power of two (exact) and scale the answer back
        factor = 2.0 ** max(-1000, min(1000, -math.frexp(size)[1]))
        r = _gjk(_scaled(a, factor), _scaled(b, factor), tol, max_iterations,
                 size * factor)
        back = 1.0 / factor
        d = r.distance * back
        trace = dict(r.trace, scaled_by=factor)
        # keep sqr_distance == 0 exactly when distance == 0 even where d * d underflows
        sqr = d * d if d * d > 0 or d == 0 else 5e-324
        return DistanceResult(method=METHOD, trace=trace, distance=d, sqr_distance=sqr,
                              closest=tuple(tuple(c * back for c in p) for p in r.closest),
                              parameter=(None, None))
    return _gjk(a, b, tol, max_iterations, size)


#: coordinate magnitudes whose squares are safe in double precision
SAFE_RANGE = (2.0 ** -200, 2.0 ** 200)


def _magnitude(p: Primitive) -> float:
    """The largest absolute coordinate or length of a primitive (directions excluded; kept on
    the primitive)."""
    found = p.__dict__.get(_MAGNITUDE_KEY)
    if found is None:
        found = _magnitude_of(p)
        object.__setattr__(p, _MAGNITUDE_KEY, found)
    return found


def _magnitude_of(p: Primitive) -> float:
    vals = []
    for name in p._point_fields + p._scalar_fields:
        v = getattr(p, name)
        vals.append(v)
    if p.kind == "obb":
        vals.append(p.extents)
    flat = np.abs(np.asarray(_flatten(vals), dtype=float))
    return float(flat.max()) if flat.size else 0.0


def _flatten(v):
    if isinstance(v, (tuple, list)):
        return [x for item in v for x in _flatten(item)]
    return [v]


def _scaled(p: Primitive, f: float) -> Primitive:
    """``p`` with its points and lengths multiplied by ``f`` (a power of two: exact)."""
    s = lambda v: tuple(float(x) * f for x in v)  # noqa: E731
    k = p.kind
    if k == "point":
        return Point(s(p.position))
    if k == "segment":
        return Segment(s(p.p0), s(p.p1))
    if k == "triangle":
        return Triangle(tuple(s(v) for v in p.vertices))
    if k == "sphere":
        return Sphere(s(p.center), float(p.radius) * f)
    if k == "aabb":
        return AABB(s(p.min), s(p.max))
    if k == "obb":
        return OBB(s(p.center), p.axes, s(p.extents))
    if k == "capsule":
        return Capsule(s(p.p0), s(p.p1), float(p.radius) * f)
    return Cylinder(s(p.center), p.axis, float(p.radius) * f, float(p.height) * f)


def run(support_a, support_b, start_a, start_b, *, size: float, tol: float = DEFAULT_TOL,
        touch: float = 0.0, gap_abs: float = 0.0, max_iterations: int = MAX_ITERATIONS,
        record: bool = False, tuples: bool = False, vertices=None) -> dict:
    """The careful GJK of the library, on support functions (module notes, steps 1-4): a cold
    start, the relative gap ``tol``, the exhaustive sub-algorithm; :func:`iterate` (the one
    loop) does the iterations.

    :func:`gjk_distance` runs it on the support functions of :mod:`algorithms.kernels.support`
    (of the shapes' cores), the cylinder-cylinder query of
    :mod:`algorithms.queries.cylinder_cylinder` on its cylinders' supports, also projected
    into a plane for its separating-plane tests.

    Parameters
    ----------
    support_a, support_b : callable
        ``d -> s(d)``: a point of A (of B) maximising ``d . x``, for a 3-vector ``d`` (a
        tuple of floats; not unit, never zero); returns a 3-vector.
    start_a, start_b : array_like
        A point of A and one of B: ``v`` starts at ``start_a - start_b``.
    size : float
        The magnitude of the coordinates (the rounding floor of ``v``'s components).
    tol : float
        Relative termination gap: stop when ``|v| (|v| - lower) <= tol |v|^2``.
    touch : float
        Stop as touching when ``|v| <= touch`` (an absolute length; besides the relative
        ``TOUCH`` of the support points, which always applies).
    gap_abs : float
        Also stop when ``|v| - lower <= gap_abs`` (an absolute length).
    max_iterations : int
        Safety bound.
    record : bool
        Keep one :class:`algorithms.traces.GjkStep` per iteration in ``steps`` (otherwise
        ``steps`` is empty: the normal path builds no records).
    tuples : bool
        ``start_a`` and ``start_b`` are tuples of floats, kept as they are (the first support
        pair of ``A`` and ``B`` is then theirs, not arrays; :func:`gjk_distance`).
    vertices : callable or None
        ``vertices()`` gives ``(VA, VB)``, the vertices of A and of B as the support
        functions return them (:func:`algorithms.kernels.support.vertices`; ``None`` for a
        curved shape), called only on a stall (most runs never need them), for the
        tie-break of a stall the tilted retry does not get past (:func:`_tie_break`);
        ``None``: no tie-break.

    Returns
    -------
    dict
        ``W``, ``A``, ``B`` (the final simplex: points of A - B and the support points of A and
        B that made them), ``lam`` (the barycentric coordinates of ``v`` there), ``v``,
        ``iterations``, ``termination``, ``steps``, ``max_w2`` (the largest ``|w|^2`` met),
        ``lower`` (the best lower bound of the distance met, ``-inf`` before the first
        support point) and ``lower_direction`` (the unit ``u`` where it was met: ``u . x >=
        lower`` for every ``x`` of A - B; ``None`` before).
    """
    if tuples:
        a0, b0 = start_a, start_b
        y0 = (a0[0] - b0[0], a0[1] - b0[1], a0[2] - b0[2])
    else:
        a0 = np.asarray(start_a, dtype=float)
        b0 = np.asarray(start_b, dtype=float)
        y0 = tuple(float(c) for c in a0 - b0)
    s = iterate(support_a, support_b, [(a0, b0)], [y0], (1.0,), y0, size=size, tol=tol,
                touch=touch, gap_abs=gap_abs, max_iterations=max_iterations,
                record=record, vertices=vertices)
    pts = s["simplex"]
    return {"W": s["W"], "A": [p for p, _ in pts], "B": [q for _, q in pts], "lam": s["lam"],
            "v": s["v"], "iterations": s["iterations"], "termination": s["termination"],
            "steps": s["steps"], "max_w2": s["max_w2"], "lower": s["lower"],
            "lower_direction": s["lower_direction"]}


def iterate(support_a, support_b, pts, Y, lam, v, *, size: float, offset=(0.0, 0.0, 0.0),
            closest=None, plain: bool = False, tol: float = DEFAULT_TOL, touch: float = 0.0,
            gap_abs: float = 0.0, stop=None, max_iterations: int = MAX_ITERATIONS,
            record: bool = False, vertices=None) -> dict:
    """The one GJK iteration of the library (module notes, steps 2-4), from any simplex.

    Every GJK in :mod:`algorithms` runs here: :func:`run` (a cold start, the careful mode) and
    the time-of-impact fast path (:meth:`algorithms.kernels.toi_fast.Pair.at`: a simplex kept
    between times, plain floats, a stop at the gap a step needs).

    Parameters
    ----------
    support_a, support_b : callable
        ``d -> s(d)`` for a tuple ``d`` (module notes); B's points are taken as given and
        moved by ``-offset`` in ``A - B``.
    pts, Y, lam, v : list, list, tuple, tuple
        The starting simplex: support pairs ``(a_i, b_i)``, the points ``w_i = a_i - b_i -
        offset``, the barycentric coordinates of ``v`` on them (a face the sub-algorithm chose:
        the shortcut of :func:`closest_on_simplex` with ``base`` relies on it), ``v`` itself.
    size : float
        The magnitude of the coordinates (the rounding floor of ``v``'s components).
    offset : tuple
        B's translation (van den Bergen §4.3: the support points of a translated B are the old
        ones moved, so the old simplex warm-starts the new ``A - B``).
    closest : callable or None
        The sub-algorithm: ``closest(Y, base) -> (idx, lam, v)``; ``None`` is the exhaustive
        :func:`closest_on_simplex`.
    plain : bool
        The plain-float mode of the fast path: a fixed rounding floor ``8 ulp * size``, the
        touching test ``|v| <= touch`` only, the plane bound in plain floats, ``stop`` as
        the termination, a repeated support point of a triangle that is no sliver ends the
        run (on a vertex, an edge or a sliver it takes the tilted retry, as a stall does: GJK
        stopped there on an edge of ``A - B`` by a box 1e-12..1e-8 thin, ``|v|`` up to ~0.3
        of the thickness above the distance, and the time-of-impact fast path trusted it as
        the distance: steps past the contact), no records.
        Otherwise the careful mode of :func:`run` (module notes: relative ``TOUCH``, a floor
        growing with the support points, ``tol`` and ``gap_abs``).
    tol, touch, gap_abs :
        The careful mode's relative gap, absolute touching length and absolute gap
        (:func:`run`); ``touch`` also serves the plain mode.
    stop : tuple ``(eps_abs, rel, R)``
        The plain mode's termination: ``|v| - lower <= eps_abs`` or ``|v| - lower <= rel
        (lower - R)``, ``lower`` the best support value met (the gap between shapes grown by
        ``R`` known to ``rel`` of itself).
    max_iterations, record, vertices :
        As in :func:`run`.

    Returns
    -------
    dict
        ``simplex`` (the support pairs), ``W``, ``lam``, ``v``, ``iterations``,
        ``termination`` (``"overlap (v = 0)"``, ``"overlap (origin inside the simplex)"``,
        ``"converged (gap)"``, ``"converged (repeated support point)"``, ``"converged (no
        progress)"`` or ``"max iterations"``), ``steps``, ``max_w2`` (careful mode),
        ``lower``, ``lower_direction``.
    """
    if closest is None:
        closest = closest_on_simplex
    ox, oy, oz = offset
    max_w2 = _dot(v, v)
    best_lower, best_dir = -math.inf, None
    steps = []
    termination = "max iterations"
    iterations = 0
    flat_steps = 0
    touch_rel2 = TOUCH * TOUCH
    touch2 = touch * touch
    floor = 8 * 2.0 ** -52 * size
    if plain:
        eps_abs, rel, R = stop
    sqrt = math.sqrt
    # |v|^2 of the v the sub-algorithm gave, computed there already (at the start: max_w2,
    # the same sum of the same squares)
    vv_next = max_w2
    regions = closest is closest_on_simplex_fast
    while iterations < max_iterations:
        vx, vy, vz = v
        vv = vx * vx + vy * vy + vz * vz if vv_next is None else vv_next
        vv_next = None
        vn = sqrt(vv)
        if (vn <= touch) if plain else (vv <= touch_rel2 * max_w2 or vv <= touch2):
            termination = "overlap (v = 0)"
            break
        iterations += 1
        # Components of v below the rounding floor of the coordinates are noise: their sign
        # would pick an arbitrary corner of a face normal to an axis (flat boxes, collinear
        # triangles). Any direction gives a valid point of A - B, so cleaning the query
        # direction never breaks correctness.
        if not plain:
            floor = 8 * 2.0 ** -52 * max(size, math.sqrt(max_w2))
        nfloor = -floor  # (|x| <= floor as -floor <= x <= floor: no call; NaN: False as ever)
        qx = 0.0 if nfloor <= vx <= floor else vx
        qy = 0.0 if nfloor <= vy <= floor else vy
        qz = 0.0 if nfloor <= vz <= floor else vz
        if qx == 0.0 and qy == 0.0 and qz == 0.0:
            qx, qy, qz = vx, vy, vz
        p = support_a((-qx, -qy, -qz))
        q = support_b((qx, qy, qz))
        # w minimises q . x over A - B, so every point of A - B is at least
        # lower = q . w / |q| from the origin along q; |v| is an upper bound. The gap
        # |v| (|v| - lower) is van den Bergen's v.v - v.w when q = v, and measured along the
        # direction actually queried it is not fooled by the noise cleaned out of v.
        if plain:
            a0, a1, a2 = p
            b0, b1, b2 = q
            wx, wy, wz = a0 - b0 - ox, a1 - b1 - oy, a2 - b2 - oz
            w = (wx, wy, wz)
            # |q| is |v| when nothing was cleaned (the same sum of the same squares)
            qn = vn if qx is vx and qy is vy and qz is vz else sqrt(qx * qx + qy * qy + qz * qz)
            ux, uy, uz = qx / qn, qy / qn, qz / qn
            lower = ux * wx + uy * wy + uz * wz
            if lower > best_lower:
                best_lower, best_dir = lower, (ux, uy, uz)
            gap = vn - best_lower
            if gap <= eps_abs or gap <= rel * (best_lower - R):
                termination = "converged (gap)"
                break
            if w in Y and len(Y) == 3 and not _thin(Y):
                termination = "converged (repeated support point)"
                break  # no new support point: v is the distance up to rounding
            # (a repeat on a vertex, an edge or a sliver triangle: the stall retry below, as
            # the careful mode's, with its tilt at least the rounding floor)
            step = None
        else:
            w = (float(p[0] - q[0]), float(p[1] - q[1]), float(p[2] - q[2]))
            max_w2 = max(max_w2, _dot(w, w))
            # |q| and q . w as numpy's 3-vector dot sums them (from the left, unfused): the
            # bits np.linalg.norm and ndarray.dot gave here before
            nn = sqrt(qx * qx + qy * qy + qz * qz)
            lower = (qx * w[0] + qy * w[1] + qz * w[2]) / nn
            if lower > best_lower:
                best_lower, best_dir = lower, (qx / nn, qy / nn, qz / nn)
            gap = vn * (vn - lower)
            step = None
            if record:
                step = {"v": _lst(v), "support_a": _lst(p), "support_b": _lst(q), "w": _lst(w),
                        "gap": gap, "lower_bound": lower}
                steps.append(step)
            if gap <= tol * vv or gap <= 4e-16 * math.sqrt(vv * max_w2) or gap <= gap_abs * vn:
                termination = "converged (gap)"
                break
        # the new simplex: Y2 (w appended) reduced to the face idx that holds the new v
        if w in Y:
            idx = None
        else:
            Y2 = Y + [w]
            if regions:  # closest_on_simplex_fast, its dispatch written out (the hot path)
                try:
                    if len(Y2) == 2:
                        idx, lam2, v2 = _ericson_segment(Y2[0], w)
                    elif len(Y2) == 3:
                        idx, lam2, v2 = _ericson_triangle(Y2[0], Y2[1], w)
                    else:
                        idx, lam2, v2 = _ericson_tetrahedron(Y2)
                except _Degenerate:
                    idx, lam2, v2 = closest_on_simplex(Y2)
            else:
                idx, lam2, v2 = closest(Y2, (lam, vv))
            if len(idx) != 4:
                vv2 = v2[0] * v2[0] + v2[1] * v2[1] + v2[2] * v2[2]
                if vv2 < vv:
                    vv_next = vv2
                elif vv2 <= vv * (1 + 4 * 2.0 ** -52) and flat_steps < 8 and v2 != v:
                    # |v|^2 cannot register the progress (near a curved contact a tilt of
                    # 1e-8 changes |v|^2 by 1e-16 relative): accept a level step, a few
                    # times, so the direction of v, and the closest points, keep converging
                    flat_steps += 1
                    vv_next = vv2
                else:
                    idx = None
        if idx is None:
            # Stalled (a repeated support point, or no decrease) short of the gap test: the
            # farthest set of A - B in -v is a whole face and rounding picked the wrong
            # point of it. Retry with v tilted by 1e-7 |v| (at least the floor)
            # along each axis (and, careful, the raw v: every answer is a point of A - B)
            # and keep the one that shrinks v most (the first that encloses the origin at
            # once; plain: the first that shrinks it).
            found = _retry(support_a, support_b, Y, lam, v, vv, ox, oy, oz, closest, plain,
                           floor)
            tied = False
            if found is None and vertices is not None:
                # no tilt got past it, and the gap is open: the support point is ambiguous
                # to v's rounding; take the near-tied vertex pair that shrinks v most
                found = _tie_break(vertices(), (qx, qy, qz), p, q, Y, lam, vv, ox, oy, oz,
                                   closest, plain, floor)
                tied = found is not None
            if found is None:
                termination = ("converged (repeated support point)" if w in Y
                               else "converged (no progress)")
                break
            p, q, w, idx, lam2, v2 = found[:6]
            Y2 = Y + [w]
            if step is not None:
                step["tie_break" if tied else "retried"] = True
                step.update(support_a=_lst(p), support_b=_lst(q), w=_lst(w))
            if not plain:
                max_w2 = max(max_w2, _dot(w, w))
        lam, v = lam2, v2
        pts2 = pts + [(p, q)]
        if idx == _IN_ORDER[len(Y2)]:  # the whole simplex, in its order
            pts, Y = pts2, Y2
        elif len(idx) == 1:  # (the faces picked without a comprehension: the hot path)
            i = idx[0]
            pts, Y = [pts2[i]], [Y2[i]]
        elif len(idx) == 2:
            i, j = idx
            pts, Y = [pts2[i], pts2[j]], [Y2[i], Y2[j]]
        elif len(idx) == 3:
            i, j, k = idx
            pts, Y = [pts2[i], pts2[j], pts2[k]], [Y2[i], Y2[j], Y2[k]]
        else:
            pts = [pts2[i] for i in idx]
            Y = [Y2[i] for i in idx]
        if step is not None:
            step["simplex"] = [_lst(y) for y in Y]
            step["lambda"] = list(lam)
        if len(idx) == 4:
            termination = "overlap (origin inside the simplex)"
            v = (0.0, 0.0, 0.0)
            break
    return {"simplex": pts, "W": Y, "lam": lam, "v": v, "iterations": iterations,
            "termination": termination, "steps": steps, "max_w2": max_w2,
            "lower": best_lower, "lower_direction": best_dir}


_IN_ORDER = {k: tuple(range(k)) for k in (1, 2, 3, 4)}


def _thin(Y) -> bool:
    """Is the triangle ``Y`` a sliver, ``sin^2`` of its widest angle under ``SLIVER_SIN2``
    (the cutoff of :func:`_face` and :func:`_ericson_triangle`)?"""
    a, b, c = Y
    e = [(b[0] - a[0], b[1] - a[1], b[2] - a[2]), (c[0] - a[0], c[1] - a[1], c[2] - a[2]),
         (c[0] - b[0], c[1] - b[1], c[2] - b[2])]
    e.sort(key=lambda x: x[0] * x[0] + x[1] * x[1] + x[2] * x[2])
    (x0, x1, x2), (y0, y1, y2) = e[0], e[1]  # the two shorter edges: the widest angle's
    n0, n1, n2 = x1 * y2 - x2 * y1, x2 * y0 - x0 * y2, x0 * y1 - x1 * y0
    return not (n0 * n0 + n1 * n1 + n2 * n2 > SLIVER_SIN2 * (x0 * x0 + x1 * x1 + x2 * x2)
                * (y0 * y0 + y1 * y1 + y2 * y2))


def _retry(support_a, support_b, Y, lam, v, vv, ox, oy, oz, closest, plain, floor=0.0):
    """:func:`iterate`'s stall retry: ``(p, q, w, idx, lam, v, vv)`` of the support along
    ``v`` tilted by ``1e-7 |v|`` about each axis (by at least ``floor``, the rounding floor of
    ``v``'s components; careful mode: along the raw ``v`` first) that shrinks ``v``
    most, the first whose simplex holds the origin at once; ``None``
    when none shrinks it. In the plain mode (the time-of-impact fast path) the first tilt
    that shrinks ``v`` at all: any progress gets GJK past the stall, and the tilts left untried
    cost a support pair and a sub-algorithm each (``bench kernels``'s moving OBB-cylinder
    pairs: 15 % of their time; their answers stay within the fast path's documented
    tolerance of the careful path's)."""
    tilt = 1e-7 * math.sqrt(vv)
    if tilt < floor:
        # at least v's rounding floor (its components below it are noise,
        # iterate clears them), or no tilt can change the corner picked: the point
        # c + 0.5 t u1 + 0.3 L u2 on a box t = 1e-8 thin, L = 3 long at c = (0.5, -1.25, 2)
        # stalled on an edge of A - B 2e-9 from it (test_point_on_and_off_a_thin_rectangle)
        tilt = floor
    vx, vy, vz = v
    dirs = ((vx + tilt, vy, vz), (vx - tilt, vy, vz), (vx, vy + tilt, vz),
            (vx, vy - tilt, vz), (vx, vy, vz + tilt), (vx, vy, vz - tilt))
    if not plain:
        dirs = ((vx, vy, vz),) + dirs
    pairs = ((support_a((-d[0], -d[1], -d[2])), support_b(d)) for d in dirs)
    # (the fast path takes the first that shrinks v)
    return _best_pair(pairs, Y, lam, vv, ox, oy, oz, closest, plain, first=plain)


def _best_pair(pairs, Y, lam, vv, ox, oy, oz, closest, plain, first):
    """Of the candidate support pairs ``(p, q)`` (read lazily), ``(p, q, w, idx, lam, v,
    vv)`` for the one whose ``w = p - q`` (less the plain mode's offset) shrinks ``v`` most,
    the first whose simplex holds the origin at once, or the first that shrinks it at all
    with ``first``; ``None`` when none does (a ``w`` already in ``Y`` is skipped).
    :func:`_retry`'s and :func:`_tie_break`'s choice."""
    found = None
    for p, q in pairs:
        if plain:
            w = (p[0] - q[0] - ox, p[1] - q[1] - oy, p[2] - q[2] - oz)
        else:
            w = (float(p[0] - q[0]), float(p[1] - q[1]), float(p[2] - q[2]))
        if w in Y:
            continue
        idx, lam2, v2 = closest(Y + [w], (lam, vv))
        if len(idx) == 4:
            return (p, q, w, idx, lam2, v2, 0.0)
        vv2 = v2[0] * v2[0] + v2[1] * v2[1] + v2[2] * v2[2]
        if vv2 < vv and (found is None or vv2 < found[6]):
            found = (p, q, w, idx, lam2, v2, vv2)
            if first:
                break
    return found


def _tie_break(vertices, d, p, q, Y, lam, vv, ox, oy, oz, closest, plain, floor):
    """:func:`iterate`'s last resort on a stall the tilted retry (:func:`_retry`) did not get
    past, the gap still open: ``(p, q, w, idx, lam, v, vv)`` like :func:`_retry`, for the
    pair of near-tied vertices whose ``w`` shrinks ``v`` most (the first whose simplex holds
    the origin at once), or ``None`` when none does.

    ``vertices = (VA, VB)``: the vertices of A and of B (``None`` for a curved shape: only
    its support point then). ``d`` is the direction queried (``v`` cleaned), ``p`` its
    support point of A in ``-d`` and ``q`` that of B in ``d``. In exact arithmetic a repeated
    support point ends GJK converged (van den Bergen §4.3: ``w`` in ``W`` means ``v.v - v.w
    <= 0``), and any extreme vertex serves as the support point (Ericson RTCD §9.5). In
    floats ``v`` is known only to its rounding floor (``floor`` per component: :func:`iterate`
    clears what is below it), so the support point of A - B in ``-v`` is any vertex pair
    extreme for some direction within that noise: a vertex ``x`` of A ties with ``p`` when
    ``d.(x - p) <= floor |x - p|_1``, ``y`` of B with ``q`` when ``d.(q - y) <= floor |q -
    y|_1``; every ``w = x - y`` is a point of A - B, so the upper bound ``|v|`` stays valid.
    Where the faces of A - B by the origin are nearly normal to ``v`` the retry's tilt (at
    least the floor) jumps off the face while the support among the tied vertices is a coin
    toss: two triangles sharing a vertex, their other vertices up to 3.3e-10 off the plane
    ``y = 0`` and 2 to 4 from it (faces tilted ~1e-10), ``v = (0, 5e-11, 0)`` with a floor of
    5e-15 (its direction known to 1e-4; test_mixed_scale.py's
    ``test_gjk_stops_on_a_support_tie``). Trying every tied pair (at most 8 x 8, only on
    this stall) finds the one that makes progress, there the shared vertex itself: ``w =
    0``."""
    dx, dy, dz = d
    va, vb = vertices

    def tied(pts, s, sign):
        if pts is None:
            return (s,)
        s0, s1, s2 = s
        out = []
        for x in pts:
            e0, e1, e2 = x[0] - s0, x[1] - s1, x[2] - s2
            # how far x falls short of the support value along d: A's d.(x - p) (A's
            # support point minimises d.x), B's d.(q - y)
            short = -sign * (dx * e0 + dy * e1 + dz * e2)
            if short <= floor * ((e0 if e0 >= 0 else -e0) + (e1 if e1 >= 0 else -e1)
                                 + (e2 if e2 >= 0 else -e2)):
                out.append(x)
        return out

    # A's support minimises d . x, B's maximises it
    pairs = ((x, y) for x in tied(va, p, -1.0) for y in tied(vb, q, 1.0))
    return _best_pair(pairs, Y, lam, vv, ox, oy, oz, closest, plain, first=False)


def _gjk(a: Primitive, b: Primitive, tol: float, max_iterations: int,
         size: float) -> DistanceResult:
    ca, ra = core_primitive(a)
    cb, rb = core_primitive(b)
    # :func:`run` on the support functions of the cores, in tuples of floats: the support
    # points of :func:`support` bit for bit (:func:`support_fn`), and below numpy's
    # element-wise sums and products of them, operation for operation
    r = run(support_fn(ca), support_fn(cb), centre_tuple(ca), centre_tuple(cb), size=size,
            tol=tol, max_iterations=max_iterations, record=True, tuples=True,
            vertices=lambda: (polytope_vertices(ca), polytope_vertices(cb)))
    Y, PA, PB, lam = r["W"], r["A"], r["B"], r["lam"]
    steps, termination, iterations, max_w2 = (r["steps"], r["termination"], r["iterations"],
                                              r["max_w2"])

    pa = _combination(lam, PA)
    pb = _combination(lam, PB)
    diff = (pb[0] - pa[0], pb[1] - pa[1], pb[2] - pa[2])
    core_distance = math.sqrt(diff[0] * diff[0] + diff[1] * diff[1] + diff[2] * diff[2])
    # rounding of |v|: relative to the support points, and to the coordinates themselves
    # (shapes far from the origin carry absolute errors of a few ulps of their coordinates)
    touch = max(TOUCH * max(math.sqrt(max_w2), ra + rb), 16 * 2.0 ** -52 * size)
    overlap = termination.startswith("overlap") or core_distance <= touch
    if overlap:
        mid = ((pa[0] + pb[0]) / 2, (pa[1] + pb[1]) / 2, (pa[2] + pb[2]) / 2)
        point_a = point_b = mid
        distance = 0.0
        core_distance = 0.0 if termination.startswith("overlap") else core_distance
    else:
        n = (diff[0] / core_distance, diff[1] / core_distance, diff[2] / core_distance)
        distance = core_distance - ra - rb
        if distance <= touch:
            # the round shells overlap or touch: a common point on the segment between the
            # core points, within ra of pa and within rb of pb
            lo, hi = max(0.0, core_distance - rb), min(ra, core_distance)
            t = (lo + hi) / 2 if lo <= hi else (ra / (ra + rb)) * core_distance
            point_a = point_b = (pa[0] + t * n[0], pa[1] + t * n[1], pa[2] + t * n[2])
            distance = 0.0
        else:
            point_a = (pa[0] + ra * n[0], pa[1] + ra * n[1], pa[2] + ra * n[2])
            point_b = (pb[0] - rb * n[0], pb[1] - rb * n[1], pb[2] - rb * n[2])
    trace = {
        "algorithm": "GJK",
        "iterations": iterations,
        "termination": termination,
        "steps": steps,
        "simplex": {"w": [_lst(y) for y in Y], "a": [_lst(p) for p in PA],
                    "b": [_lst(p) for p in PB], "lambda": [float(l) for l in lam]},
        "core_distance": core_distance,
        "radius_a": ra,
        "radius_b": rb,
        "tol": tol,
    }
    return DistanceResult(
        method=METHOD,
        trace=trace,
        distance=float(distance),
        sqr_distance=float(distance) ** 2,
        closest=(point_a, point_b),
        parameter=(None, None),
    )


def _combination(lam, pts) -> tuple:
    """``sum(l * p for l, p in zip(lam, pts))`` of 3-vectors as numpy sums it (from ``0``,
    element-wise, in order), in floats."""
    x = y = z = 0
    for l, p in zip(lam, pts):
        x = x + l * p[0]
        y = y + l * p[1]
        z = z + l * p[2]
    return (float(x), float(y), float(z))
