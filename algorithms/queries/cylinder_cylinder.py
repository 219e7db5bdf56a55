"""Cylinder against cylinder: separating axes, separating planes, and a certified decision.

Eberly & Schneider, *Geometric Tools for Computer Graphics*, §11.12.9 "Cylinders". A cylinder
has centre ``C``, unit axis ``w``, radius ``r`` and height ``h``. Its projection on a unit
direction ``d`` is the interval ``d.C -+ (r sqrt(1 - (d.w)^2) + (h/2)|d.w|)`` ("Projection of a
Cylinder onto a Line"), so with ``Delta = C1 - C0`` the two cylinders are separated on ``d``
iff the book's

    f(d) = r0 |P0 d| + r1 |P1 d| + (h0/2)|d.w0| + (h1/2)|d.w1| - |d.Delta|,   P_i = I - w_i w_i^T

is negative. Our ``margin(d) = -f(d)`` (the gap between the two projection intervals).

The tests, in the book's order (``trace["found_by"]`` names the first that separates):

``"w0"``, ``"w1"``, ``"w0 x w1"``
    the closed forms ``f(w0) = r1 |w0 x w1| + h0/2 + (h1/2)|w0.w1| - |w0.Delta|`` and so on.
``"centre difference"``
    ``d = Delta/|Delta|`` (not in the book's list; cheap and often the answer).
``"perpendicular to w0"``, ``"perpendicular to w1"``
    separation by the plane ``w_i . X = 0`` ("Separation by projection onto planes"): the
    projection of cylinder i is a disk, the other's a disk, a rectangle, or a rectangle with
    hemi-elliptical caps. The best direction on that great circle is the 2D distance between
    the two projections; instead of the book's degree-8 polynomial (or point-ellipse
    quartics) we find it with GJK run on the projected support points, which is exact up to
    its stated tolerance and returns the distance-realising direction.
``"gradient zero"``
    the remaining directions are the interior critical points of ``f`` (``grad f = 0``). The
    oriented gap ``margin(d)`` is the minimum of the four disk-pair gaps ``g_sigma`` of the
    book and is concave on R^3, so its maximum over the unit ball is a convex problem whose
    value is the distance between the cylinders: we solve it by GJK on the Minkowski difference
    ``A - B`` with the exact support point ``C + sign(d.w)(h/2)w + r P d/|P d|``. When GJK
    stalls (its direction ``v`` is poor near curved contacts) a pattern search climbs
    ``margin`` from the best axis: ``"gradient zero (refined)"``.

Every GJK here is the library's one, :func:`algorithms.kernels.gjk.run` (its loop and its
distance sub-algorithm), given the cylinders' support functions (projected into the plane for
the separating-plane tests), an absolute touching length ``TOUCH * scale`` and the relative
gap ``REL_TOL``; :func:`gjk_trace` records its steps for the explorer's step-through.

Parallel axes (``|w0 x w1| <= PARALLEL``) are decided exactly as in the book: the circles of
projection onto ``w0 . X = 0`` and the intervals on ``w0``.

Certificates
------------
Both answers carry a proof, checked in closed form, never taken on trust from the solver:

* **separated**: a unit axis whose margin, recomputed from the formula above, exceeds
  ``SEP_TOL * scale`` (about 100 times the rounding error of the formula), where ``scale =
  |Delta| + r0 + r1 + (h0 + h1)/2``;
* **intersecting**: a witness point whose signed distances to both cylinders (in the trace)
  are at most ``COMMON * scale`` (``certificate = "common point"``, rounding only) or at most
  ``TOUCH * scale`` (``"touching within rounding"``). The witness comes from GJK's simplex
  (the origin inside the tetrahedron) or, when GJK stalls on a shallow overlap, from the
  support sets along the most nearly separating directions (a rim point or a wall line of
  one cylinder that lies inside the other).

When neither proof is found (not observed in the tests) the answer is "intersects" and the
certificate says "undecided". So an answer can only be wrong for pairs whose true distance is
below about ``TOUCH * scale`` (1e-10 relative), which are reported as touching.

Closest points (the ``distance`` query): GJK on smooth rims converges slowly near contact and
its upper bound ``|v|`` stalls around 1e-8 relative, while the support-gap lower bound is
accurate to rounding. So the closest points are also computed from the support sets along the
best axis (a rim point against the other cylinder in closed form, a wall line against it by a
1D convex search, or the 2D problem between the two support sets) and the nearest pair wins;
the trace keeps ``lower_bound`` and ``upper_bound`` (the error is at most their difference).
"""

from __future__ import annotations

import functools
import math
import random

from algorithms.core.minimize import golden_section
from algorithms.core.tolerance import ITERATIVE_REL, TOUCH_REL, perpendicular_unit, unit
from algorithms.core.vec import add3 as _add
from algorithms.core.vec import cross as _cross
from algorithms.core.vec import dot3 as _dot
from algorithms.core.vec import scale3 as _mul
from algorithms.core.vec import sub3 as _sub
from algorithms.kernels import gjk as gjk_kernel
from algorithms.registry import register
from algorithms.results import DistanceResult, IntersectionResult, SeparationResult

SECTION = "Eberly & Schneider, GTCG §11.12.9"
METHOD_SEP = (f"cylinder-cylinder separating axes w0, w1, w0 x w1, planes perpendicular to "
              f"w0/w1, gradient-zero directions by GJK, certified ({SECTION})")
METHOD_DIST = f"cylinder-cylinder distance, certified GJK on exact cylinder supports ({SECTION})"

#: a separating margin must exceed this times ``scale`` (rounding of the margin is ~1e-15)
SEP_TOL = TOUCH_REL  # core.tolerance: 2**-40, the band every separating-axis test uses
#: a witness within this times ``scale`` of both cylinders counts as touching (GJK also stops
#: when its distance upper bound ``|v|`` drops below it)
TOUCH = ITERATIVE_REL  # core.tolerance: 1e-10, the accuracy of GJK on curved shapes
#: a witness within this times ``scale`` of both cylinders is a common point (rounding)
COMMON = 1e-15
#: GJK stops when (upper - lower) <= REL_TOL * upper
REL_TOL = 1e-12
#: ``|w0 x w1|`` at or below this: the axes are treated as parallel (exact 2D + 1D test)
PARALLEL = 1e-13
MAX_ITERATIONS = 300


# ----------------------------------------------------------------------------- small vectors


def _norm(u):
    return math.sqrt(_dot(u, u))


#: the unit vector or None, and a unit perpendicular (algorithms.core.tolerance)
_unit = unit
_perp_unit = perpendicular_unit


class _Cyl:
    """Float view of a :class:`~algorithms.primitives.Cylinder`: ``C``, unit ``w``, ``r``,
    ``h``, all relative to an ``origin`` (the first cylinder's centre) to keep rounding
    proportional to the pair's own size."""

    __slots__ = ("C", "w", "u", "v", "r", "h", "origin")

    def __init__(self, cyl, origin=(0.0, 0.0, 0.0)):
        c = tuple(float(x) for x in cyl.center)
        self.origin = origin
        self.C = _sub(c, origin)
        a = tuple(float(x) for x in cyl.axis)
        self.w = _mul(1.0 / _norm(a), a)
        # the book's right-handed {u, v, w}: |P d| = hypot(d.u, d.v) stays accurate when d
        # is nearly along w, where sqrt(1 - (d.w)^2) and d - (d.w) w lose all their digits
        self.u = _perp_unit(self.w)
        self.v = _cross(self.w, self.u)
        self.r = float(cyl.radius)
        self.h = float(cyl.height)

    def radius_on(self, d):
        """Half-length of the projection on unit ``d``: ``r |P d| + (h/2)|d.w|`` (GTCG
        §11.12.9, "Projection of a Cylinder onto a Line")."""
        return (self.r * math.hypot(_dot(d, self.u), _dot(d, self.v))
                + 0.5 * self.h * abs(_dot(d, self.w)))

    def support(self, d):
        """A point of the cylinder maximising ``d . x``: ``C + sign(d.w)(h/2) w + r Pd/|Pd|``
        (the rim of the end disk facing ``d``; the disk centre when ``d`` is along ``w``, the
        mid-height of the wall when ``d`` is perpendicular to ``w``)."""
        # (the vec calls written out: the same operations in the same order)
        d0, d1, d2 = d
        w0, w1, w2 = self.w
        u0, u1, u2 = self.u
        v0, v1, v2 = self.v
        p = self.C
        dw = d0 * w0 + d1 * w1 + d2 * w2
        if dw > 0.0:
            k = 0.5 * self.h
            p = (p[0] + k * w0, p[1] + k * w1, p[2] + k * w2)
        elif dw < 0.0:
            k = 0.5 * self.h
            p = (p[0] - k * w0, p[1] - k * w1, p[2] - k * w2)
        du = d0 * u0 + d1 * u1 + d2 * u2
        dv = d0 * v0 + d1 * v1 + d2 * v2
        pn = math.hypot(du, dv)
        r = self.r
        if r > 0.0 and pn > 0.0:
            s = r / pn
            a, b = s * du, s * dv
            p = (p[0] + (a * u0 + b * v0), p[1] + (a * u1 + b * v1), p[2] + (a * u2 + b * v2))
        return p

    def closest(self, p):
        """The point of the solid cylinder nearest ``p``: clamp the axial coordinate to
        ``[-h/2, h/2]`` and the radial vector to length ``r`` (the cylinder is a disk times an
        interval in the frame ``{u, v, w}``)."""
        # (the vec calls written out: the same operations in the same order)
        c0, c1, c2 = self.C
        w0, w1, w2 = self.w
        u0, u1, u2 = self.u
        v0, v1, v2 = self.v
        q0, q1, q2 = p[0] - c0, p[1] - c1, p[2] - c2
        z = min(max(q0 * w0 + q1 * w1 + q2 * w2, -0.5 * self.h), 0.5 * self.h)
        x, y = q0 * u0 + q1 * u1 + q2 * u2, q0 * v0 + q1 * v1 + q2 * v2
        rho = math.hypot(x, y)
        r = self.r
        if rho > r:
            x, y = x * r / rho, y * r / rho
        return (c0 + (z * w0 + (x * u0 + y * v0)), c1 + (z * w1 + (x * u1 + y * v1)),
                c2 + (z * w2 + (x * u2 + y * v2)))

    def signed_distance(self, p):
        """Signed distance of ``p`` (negative inside): axial ``|z| - h/2``, radial ``rho - r``."""
        q = _sub(p, self.C)
        z = _dot(q, self.w)
        rho = math.hypot(_dot(q, self.u), _dot(q, self.v))
        dz = abs(z) - 0.5 * self.h
        dr = rho - self.r
        if dz <= 0.0 and dr <= 0.0:
            return max(dz, dr)
        return math.hypot(max(dz, 0.0), max(dr, 0.0))


def _margin(c0, c1, d):
    """``-f(d)`` for the oriented unit ``d``: ``d.Delta - r_A - r_B`` (positive: separated)."""
    return _dot(d, _sub(c1.C, c0.C)) - c0.radius_on(d) - c1.radius_on(d)


def _axis_record(name, c0, c1, d):
    """One entry of ``trace["axes"]`` for the unit direction ``d`` (oriented A -> B)."""
    delta = _sub(c1.C, c0.C)
    if _dot(d, delta) < 0.0:
        d = _mul(-1.0, d)
    rA, rB = c0.radius_on(d), c1.radius_on(d)
    dist = _dot(d, delta)
    return {"name": name, "axis": d, "r_A": rA, "r_B": rB, "distance": dist,
            "margin": dist - (rA + rB), "separating": False}


# ----------------------------------------------------------------------------- GJK


def _supports(c0, c1, project=None):
    """The support functions of the two cylinders for :func:`algorithms.kernels.gjk.run`,
    optionally projected into a plane."""
    if project is None:
        return c0.support, c1.support
    return (lambda d: project(c0.support(d))), (lambda d: project(c1.support(d)))


def _combine(P, lam):
    x = y = z = 0.0
    for l, p in zip(lam, P):
        x += l * float(p[0])
        y += l * float(p[1])
        z += l * float(p[2])
    return (x, y, z)


def _gjk(c0, c1, scale, project=None, record=False):
    """The library's one GJK (:func:`algorithms.kernels.gjk.run`) on ``A - B`` with the
    cylinders' exact supports, both bounds kept.

    Returns a dict: ``upper = |v|`` (a distance upper bound: ``v`` is a convex combination
    of points of ``A - B``), ``lower`` the best support gap seen (a lower bound, attained on
    ``direction``, the unit axis from A to B), closest points ``pa``, ``pb``,
    ``termination``, ``iterations`` and the kernel's ``run``. ``project`` (a function) maps
    support points into a plane, for the separating-plane tests.
    """
    P = project or (lambda x: x)
    sa, sb = _supports(c0, c1, project)
    r = gjk_kernel.run(sa, sb, P(c0.C), P(c1.C), size=scale, tol=REL_TOL, touch=TOUCH * scale,
                       gap_abs=1e-15 * scale, max_iterations=MAX_ITERATIONS, record=record)
    lam = r["lam"]
    pa = _combine(r["A"], lam)
    pb = _combine(r["B"], lam)
    termination = r["termination"]
    upper = 0.0 if termination.startswith("overlap (origin") else _norm(_sub(pb, pa))
    u = r["lower_direction"]
    direction = None if u is None else tuple(-float(x) for x in u)
    return {"upper": upper, "lower": r["lower"], "direction": direction, "pa": pa, "pb": pb,
            "termination": termination, "iterations": r["iterations"], "run": r}


# ----------------------------------------------------------------------------- closest points


#: |d.w| (or |P d|) at or below this: the support set is the wall line (or the end disk)
FEATURE_TOL = 1e-12


def _feature(cyl, d):
    """The support set of ``cyl`` in the unit direction ``d``, all of it in the plane
    ``d.x = h(d)``: ``("point", p)`` (a rim point), ``("segment", p, q)`` (the wall line when
    ``d`` is perpendicular to ``w``) or ``("disk", centre, r)`` (the end disk when ``d`` is
    along ``w``)."""
    dw = _dot(d, cyl.w)
    du, dv = _dot(d, cyl.u), _dot(d, cyl.v)
    pn = math.hypot(du, dv)
    half = _mul(0.5 * cyl.h, cyl.w)
    if pn <= FEATURE_TOL and cyl.r > 0.0:
        centre = _add(cyl.C, half) if dw > 0 else _sub(cyl.C, half)
        return ("disk", centre, cyl.r)
    radial = (0.0, 0.0, 0.0)
    if cyl.r > 0.0 and pn > 0.0:
        radial = _add(_mul(cyl.r * du / pn, cyl.u), _mul(cyl.r * dv / pn, cyl.v))
    base = _add(cyl.C, radial)
    if abs(dw) <= FEATURE_TOL and cyl.h > 0.0:
        return ("segment", _sub(base, half), _add(base, half))
    return ("point", cyl.support(d))


def _closest_on_segment2(p, a, b):
    ab = (b[0] - a[0], b[1] - a[1])
    ll = ab[0] * ab[0] + ab[1] * ab[1]
    t = 0.0 if ll == 0.0 else min(max(((p[0] - a[0]) * ab[0] + (p[1] - a[1]) * ab[1]) / ll,
                                       0.0), 1.0)
    return (a[0] + t * ab[0], a[1] + t * ab[1])


def _d2(p, q):
    return (p[0] - q[0]) ** 2 + (p[1] - q[1]) ** 2


def _segments_cross2(a, b, c, d):
    """A common point of the 2D segments ab and cd when they properly cross, else None."""
    r = (b[0] - a[0], b[1] - a[1])
    s = (d[0] - c[0], d[1] - c[1])
    den = r[0] * s[1] - r[1] * s[0]
    if not abs(den) > 1e-12 * math.hypot(*r) * math.hypot(*s):
        return None  # (nearly) parallel: the endpoint candidates settle it
    qp = (c[0] - a[0], c[1] - a[1])
    t = (qp[0] * s[1] - qp[1] * s[0]) / den
    u = (qp[0] * r[1] - qp[1] * r[0]) / den
    if 0.0 <= t <= 1.0 and 0.0 <= u <= 1.0:
        return (a[0] + t * r[0], a[1] + t * r[1])
    return None


def _closest2(fa, fb):
    """Closest points of two 2D features (point ``("p", x)``, segment ``("s", a, b)``, disk
    ``("d", c, r)``): a disk is its centre plus a radius, so everything reduces to
    point/segment pairs."""
    ra = fa[2] if fa[0] == "d" else 0.0
    rb = fb[2] if fb[0] == "d" else 0.0
    ka = ("p", fa[1]) if fa[0] == "d" else fa
    kb = ("p", fb[1]) if fb[0] == "d" else fb
    if ka[0] == "p" and kb[0] == "p":
        x, y = ka[1], kb[1]
    elif ka[0] == "p":
        x = ka[1]
        y = _closest_on_segment2(x, kb[1], kb[2])
    elif kb[0] == "p":
        y = kb[1]
        x = _closest_on_segment2(y, ka[1], ka[2])
    else:
        cross = _segments_cross2(ka[1], ka[2], kb[1], kb[2])
        if cross is not None:
            x = y = cross
        else:
            cands = []
            for p in (ka[1], ka[2]):
                q = _closest_on_segment2(p, kb[1], kb[2])
                cands.append((_d2(p, q), p, q))
            for q in (kb[1], kb[2]):
                p = _closest_on_segment2(q, ka[1], ka[2])
                cands.append((_d2(p, q), p, q))
            _, x, y = min(cands, key=lambda c: c[0])
    # grow the cores by their radii along the line between them
    dist = math.sqrt(_d2(x, y))
    if dist > ra + rb:
        e = ((y[0] - x[0]) / dist, (y[1] - x[1]) / dist)
        return (x[0] + ra * e[0], x[1] + ra * e[1]), (y[0] - rb * e[0], y[1] - rb * e[1])
    if dist == 0.0:
        return x, x
    e = ((y[0] - x[0]) / dist, (y[1] - x[1]) / dist)
    t = 0.5 * (max(0.0, dist - rb) + min(ra, dist))  # a point within ra of x and rb of y
    m = (x[0] + t * e[0], x[1] + t * e[1])
    return m, m


def _segment_to_cylinder(a, b, cyl):
    """Closest points of the segment ``ab`` and the cylinder: golden-section search on the
    segment parameter of the convex function ``t -> dist(a + t (b - a), cyl)``."""
    a0, a1, a2 = a
    e0, e1, e2 = b[0] - a0, b[1] - a1, b[2] - a2
    closest = cyl.closest
    sqrt = math.sqrt

    def point(t):
        return (a0 + t * e0, a1 + t * e1, a2 + t * e2)

    def f(t):  # (point, _sub and _norm written out: the same bits)
        x0, x1, x2 = a0 + t * e0, a1 + t * e1, a2 + t * e2
        q = closest((x0, x1, x2))
        g0, g1, g2 = q[0] - x0, q[1] - x1, q[2] - x2
        return sqrt(g0 * g0 + g1 * g1 + g2 * g2)

    _, _, x1, x2, _ = golden_section(f, 0.0, 1.0, max_steps=90)
    best = min((0.0, 1.0, x1, x2), key=f)
    x = point(best)
    return x, cyl.closest(x)


def _wall_line(cyl, d):
    """The wall line of ``cyl`` facing the unit ``d`` (through ``C + r Pd/|Pd|``)."""
    du, dv = _dot(d, cyl.u), _dot(d, cyl.v)
    pn = math.hypot(du, dv)
    radial = (0.0, 0.0, 0.0)
    if cyl.r > 0.0 and pn > 0.0:
        radial = _add(_mul(cyl.r * du / pn, cyl.u), _mul(cyl.r * dv / pn, cyl.v))
    base = _add(cyl.C, radial)
    half = _mul(0.5 * cyl.h, cyl.w)
    return _sub(base, half), _add(base, half)


#: |d.w| below this: the wall line is also tried as a support set (near-kink directions)
NEAR_WALL = 1e-6


def _refine_pairs(c0, c1, d):
    """Candidate closest pairs (on A, on B) from the support sets along the unit ``d``:
    the support point of one against the other cylinder (closed form), the wall line when
    ``d`` is (nearly) perpendicular to an axis against the other cylinder (convex 1D search),
    and the 2D support-set problem of :func:`_polish`. Every candidate is a pair of points
    of the two cylinders, so each is an upper bound of the distance."""
    nd = _mul(-1.0, d)
    fa, fb = _feature(c0, d), _feature(c1, nd)
    out = [_polish(c0, c1, d)[:2]]
    pa, pb = c0.support(d), c1.support(nd)
    out.append((pa, c1.closest(pa)))
    out.append((c0.closest(pb), pb))
    if abs(_dot(d, c0.w)) <= NEAR_WALL and c0.h > 0.0:
        out.append(_segment_to_cylinder(*_wall_line(c0, d), c1))
    if abs(_dot(d, c1.w)) <= NEAR_WALL and c1.h > 0.0:
        y, x = _segment_to_cylinder(*_wall_line(c1, nd), c0)
        out.append((x, y))
    return out, (fa[0], fb[0])


def _ascend(c0, c1, d, scale, rounds=400):
    """Local maximisation of ``margin(d)`` on the unit sphere by a random pattern search
    (deterministic seed): from ``d``, try 12 random tangent steps of the current size, move to
    the best improvement, halve the step after a failure, stop below 1e-16. ``margin`` is
    concave on R^3 (GTCG §11.12.9's ``-f`` for one orientation is a minimum of the disk-pair
    gaps ``g_sigma``), so near its maximum this climbs to it even across the kinks of the
    ``|d.w_i|`` terms, where GJK's direction ``v`` stalls. Returns ``(d, margin)``."""
    rnd = random.Random(12345)
    best = _margin(c0, c1, d)
    step = 1e-3
    for _ in range(rounds):
        if step < 1e-16:
            break
        t1 = _perp_unit(d)
        t2 = _cross(d, t1)
        moved = False
        for _k in range(12):
            ang = rnd.uniform(0.0, 2.0 * math.pi)
            trial = _unit(_add(d, _mul(step, _add(_mul(math.cos(ang), t1),
                                                    _mul(math.sin(ang), t2)))))
            m = _margin(c0, c1, trial)
            if m > best:
                best, d, moved = m, trial, True
        if not moved:
            step *= 0.5
        else:
            step *= 1.5
    return d, best


def _polish(c0, c1, d):
    """Closest points from the support sets along the (near-optimal) separating unit ``d``.

    At the optimum the closest points lie in ``F_A(d)`` and ``F_B(-d)`` (a rim point, a wall
    line or an end disk each), which lie in the two supporting planes perpendicular to ``d``:
    the problem becomes a 2D one between a point, a segment or a disk in each plane. The points
    returned are on the cylinders whatever ``d`` is, so ``|pb - pa|`` is always an upper bound
    of the distance; it meets the lower bound ``margin(d)`` when ``d`` is optimal.
    """
    u = _perp_unit(d)
    v = _cross(d, u)

    def to2(p):
        return (_dot(p, u), _dot(p, v))

    def feat2(f):
        if f[0] == "point":
            return ("p", to2(f[1]))
        if f[0] == "segment":
            return ("s", to2(f[1]), to2(f[2]))
        return ("d", to2(f[1]), f[2])

    fa, fb = _feature(c0, d), _feature(c1, _mul(-1.0, d))
    hA = _dot(d, c0.support(d))
    hB = _dot(d, c1.support(_mul(-1.0, d)))
    x2, y2 = _closest2(feat2(fa), feat2(fb))
    pa = _add(_add(_mul(x2[0], u), _mul(x2[1], v)), _mul(hA, d))
    pb = _add(_add(_mul(y2[0], u), _mul(y2[1], v)), _mul(hB, d))
    return pa, pb, (fa[0], fb[0])


# ----------------------------------------------------------------------------- the decision


def _plane_projector(n):
    """``X -> (I - n n^T) X`` for the unit normal ``n``."""
    def project(x):
        return _sub(x, _mul(_dot(x, n), n))
    return project


def _parallel(c0, c1, axes, scale):
    """Parallel axes (GTCG §11.12.9, "If w0 and w1 are parallel"): separated iff
    ``(h0 + h1)/2 < |w0.Delta|`` or ``|Delta|^2 - (w0.Delta)^2 > (r0 + r1)^2``; both
    distances are exact, so the cylinders' distance is ``hypot`` of the two positive gaps."""
    w = c0.w
    delta = _sub(c1.C, c0.C)
    z1 = _dot(w, delta)
    radial = _sub(delta, _mul(z1, w))
    rho = _norm(radial)
    e = _mul(1.0 / rho, radial) if rho > 0.0 else _perp_unit(w)
    axial_gap = abs(z1) - 0.5 * (c0.h + c1.h)
    radial_gap = rho - (c0.r + c1.r)
    axes.append(_axis_record("w0", c0, c1, w))
    axes.append(_axis_record("perpendicular to w0", c0, c1, e))
    # closest points: radial coordinate t along e, axial coordinate z along w (from C0)
    if radial_gap > 0.0:
        ta, tb = c0.r, rho - c1.r
    else:
        lo, hi = max(-c0.r, rho - c1.r), min(c0.r, rho + c1.r)
        ta = tb = 0.5 * (lo + hi)
    lo0, hi0 = -0.5 * c0.h, 0.5 * c0.h
    lo1, hi1 = z1 - 0.5 * c1.h, z1 + 0.5 * c1.h
    if axial_gap > 0.0:
        za, zb = (hi0, lo1) if z1 > 0 else (lo0, hi1)
    else:
        za = zb = 0.5 * (max(lo0, lo1) + min(hi0, hi1))
    pa = _add(c0.C, _add(_mul(ta, e), _mul(za, w)))
    pb = _add(c0.C, _add(_mul(tb, e), _mul(zb, w)))
    dist = math.hypot(max(axial_gap, 0.0), max(radial_gap, 0.0))
    best = None
    if dist > 0.0:
        best = _unit(_sub(pb, pa))
    return {"upper": dist, "lower": dist if dist > 0 else max(axial_gap, radial_gap),
            "direction": best, "pa": pa, "pb": pb, "termination": "parallel axes (exact)",
            "iterations": 0}


def _projection_shape(cyl, n):
    """The book's three shapes of the projection of ``cyl`` onto the plane ``n . X = 0``
    (GTCG §11.12.9, "Projection of a Cylinder onto a Plane"): a disk of radius ``r`` when
    ``w`` is parallel to ``n``, a rectangle with half-extents ``r`` and ``(h/2)|P w|`` when
    perpendicular, otherwise a rectangle with hemi-elliptical caps whose ellipses (centred at
    ``P(C -+ (h/2) w)``) have half-axes ``r`` and ``r |P v| = r |w . n|``."""
    wn = abs(_dot(cyl.w, n))
    pw = math.sqrt(max(0.0, 1.0 - wn * wn))
    centre = _sub(cyl.C, _mul(_dot(cyl.C, n), n))
    if pw <= FEATURE_TOL:
        return {"shape": "disk", "radius": cyl.r, "centre": centre}
    if wn <= FEATURE_TOL:
        return {"shape": "rectangle", "half_extents": (cyl.r, 0.5 * cyl.h * pw),
                "centre": centre}
    return {"shape": "rectangle with hemi-elliptical caps", "half_extents":
            (cyl.r, 0.5 * cyl.h * pw), "ellipse_half_axes": (cyl.r, cyl.r * wn),
            "centre": centre}


def decide(a, b) -> dict:
    """The full §11.12.9 test for two :class:`~algorithms.primitives.Cylinder` s.

    Returns a dict with ``intersects``, ``axis`` (unit, A -> B, or ``None``), ``intervals``,
    ``found_by``, ``axes`` (every candidate: name, axis, r_A, r_B, distance, margin,
    separating), ``certificate``, ``witness`` (intersecting pairs), ``distance``, ``closest``
    and the solver's bounds. Points are in world coordinates.
    """
    origin = tuple(float(x) for x in a.center)
    c0, c1 = _Cyl(a, origin), _Cyl(b, origin)
    delta = _sub(c1.C, c0.C)
    scale = _norm(delta) + c0.r + c1.r + 0.5 * (c0.h + c1.h)
    sep_tol = SEP_TOL * scale
    axes: list = []
    gjk_runs: dict = {}

    w0xw1 = _cross(c0.w, c1.w)
    sin01 = _norm(w0xw1)
    if _dot(delta, delta) == 0.0:
        solved = {"upper": 0.0, "lower": -math.inf, "direction": None, "pa": c0.C,
                  "pb": c1.C, "termination": "same centre", "iterations": 0}
        axes.append(_axis_record("w0", c0, c1, c0.w))
        axes.append(_axis_record("w1", c0, c1, c1.w))
    elif sin01 <= PARALLEL:
        solved = _parallel(c0, c1, axes, scale)
    else:
        axes.append(_axis_record("w0", c0, c1, c0.w))
        axes.append(_axis_record("w1", c0, c1, c1.w))
        axes.append(_axis_record("w0 x w1", c0, c1, _mul(1.0 / sin01, w0xw1)))
        axes.append(_axis_record("centre difference", c0, c1, _unit(delta)))
        for name, cyl in (("perpendicular to w0", c0), ("perpendicular to w1", c1)):
            proj = _plane_projector(cyl.w)
            run = _gjk(c0, c1, scale, project=proj)
            gjk_runs[name] = {k: run[k] for k in ("upper", "lower", "termination",
                                                  "iterations")}
            d = run["direction"]
            if d is not None:
                d = _unit(proj(d))
            if d is not None:
                rec = _axis_record(name, c0, c1, d)
            else:
                rec = {"name": name, "axis": None, "r_A": None, "r_B": None,
                       "distance": None, "margin": -run["upper"] if run["upper"] else 0.0,
                       "separating": False, "note": "projections overlap"}
            rec["projection"] = {"normal": cyl.w, "A": _projection_shape(c0, cyl.w),
                                 "B": _projection_shape(c1, cyl.w),
                                 "distance_2d": run["upper"]}
            axes.append(rec)
        solved = _gjk(c0, c1, scale)
        gjk_runs["gradient zero"] = {k: solved[k] for k in ("upper", "lower", "termination",
                                                            "iterations")}
        if solved["direction"] is not None:
            axes.append(_axis_record("gradient zero", c0, c1, solved["direction"]))

    if solved.get("direction") is not None and not any(
            ax["name"] == "gradient zero" for ax in axes) and solved["upper"] > 0.0:
        axes.append(_axis_record("closest points", c0, c1, solved["direction"]))

    def best_axis():
        return max((ax for ax in axes if ax["axis"] is not None), key=lambda ax: ax["margin"],
                   default=None)

    tried: list = []  # every pair of points of the two cylinders met: (distance, on A, on B)

    def nearest_pair(directions):
        """The nearest candidate pair of points from the support sets along ``directions``."""
        best = (math.inf, solved["pa"], solved["pb"])
        for d in directions:
            for qa, qb in _refine_pairs(c0, c1, d)[0]:
                if max(c0.signed_distance(qa), c1.signed_distance(qb)) > 1e-13 * scale:
                    continue  # not on the cylinders (cannot happen; never trust a candidate)
                dd = _dot(_sub(qb, qa), _sub(qb, qa))
                tried.append((math.sqrt(dd), qa, qb))
                if best is None or dd < best[0]:
                    best = (dd, qa, qb)
        return best[1], best[2]

    def witness_search(mid, sd):
        """A better witness among the midpoints of the candidate pairs along the most nearly
        separating directions (a rim point or wall line of one inside the other)."""
        ranked = sorted((ax for ax in axes if ax["axis"] is not None),
                        key=lambda ax: -ax["margin"])[:3]
        for ax in ranked:
            for qa, qb in _refine_pairs(c0, c1, ax["axis"])[0]:
                m = _mul(0.5, _add(qa, qb))
                sm = max(c0.signed_distance(m), c1.signed_distance(m))
                if sm < sd:
                    mid, sd = m, sm
        return mid, sd

    def ascended():
        """Climb from the best axis (module notes of :func:`_ascend`); recorded as a
        "gradient zero" candidate (refined)."""
        ax0 = best_axis()
        d, _ = _ascend(c0, c1, ax0["axis"] if ax0 else _unit(delta) or c0.w, scale)
        rec = _axis_record("gradient zero (refined)", c0, c1, d)
        rec["separating"] = rec["margin"] > sep_tol
        axes.append(rec)
        return rec

    for ax in axes:
        ax["separating"] = ax["axis"] is not None and ax["margin"] > sep_tol
    found = next((ax for ax in axes if ax["separating"]), None)

    witness = None
    if found is None:
        mid = _mul(0.5, _add(solved["pa"], solved["pb"]))
        sd = max(c0.signed_distance(mid), c1.signed_distance(mid))
        if sd > COMMON * scale and solved["termination"] != "same centre":
            # GJK stalled short of the origin (a shallow overlap or a near touch)
            mid, sd = witness_search(mid, sd)
            if sd > TOUCH * scale:
                rec = ascended()
                if rec["separating"]:
                    found = rec
                else:
                    mid2, sd2 = witness_search(mid, sd)
                    mid, sd = (mid2, sd2) if sd2 < sd else (mid, sd)
        witness = (mid, sd)

    out = {"scale": scale, "sep_tol": sep_tol, "touch_tol": TOUCH * scale,
           "termination": solved["termination"], "iterations": solved["iterations"],
           "gjk": gjk_runs}
    if found is not None:
        d = found["axis"]
        dA, dB = _dot(d, c0.C) + _dot(d, origin), _dot(d, c1.C) + _dot(d, origin)
        out.update(intersects=False, axis=d, found_by=found["name"],
                   intervals=((dA - found["r_A"], dA + found["r_A"]),
                              (dB - found["r_B"], dB + found["r_B"])),
                   certificate=f"separating axis ({found['name']}), margin "
                               f"{found['margin']:.6g} > {sep_tol:.3g}",
                   witness=None)
        # any separating margin bounds the distance below (the best: ``lower_bound``); pairs
        # of points of the two cylinders bound it above: GJK's, or the support sets' along
        # the best axis; when they are apart, climb to a better axis and try again
        def top_axes():
            return [ax["axis"] for ax in sorted((ax for ax in axes if ax["axis"] is not None),
                                                key=lambda ax: -ax["margin"])[:3]]

        best_ax = best_axis()
        pa, pb = solved["pa"], solved["pb"]
        dist = _norm(_sub(pb, pa)) if solved["upper"] > 0.0 else math.inf
        if dist < math.inf:
            tried.append((dist, pa, pb))
        qa, qb = nearest_pair(top_axes())
        if _norm(_sub(qb, qa)) < dist:  # ties keep the solver's (exact for parallel axes)
            pa, pb, dist = qa, qb, _norm(_sub(qb, qa))
        if dist - best_ax["margin"] > 1e-12 * scale:
            if not any(ax["name"] == "gradient zero (refined)" for ax in axes):
                ascended()
            best_ax = best_axis()
            qa, qb = nearest_pair(top_axes())
            if _norm(_sub(qb, qa)) < dist:
                pa, pb, dist = qa, qb, _norm(_sub(qb, qa))
        # Rounding can put the nearest pair a few ulps of the coordinates nearer than the
        # proven lower bound (the margin), which no pair of points of the cylinders is: then
        # take a pair within those ulps that respects the bound, when one was met.
        bound = best_ax["margin"] * (1.0 - 1e-12)
        if dist < bound:
            ok = [t for t in tried if bound <= t[0] <= dist + 8 * 2.0 ** -52 * scale]
            if ok:
                dist, pa, pb = min(ok, key=lambda t: t[0])
        if dist < best_ax["margin"]:
            # still nearer than the bound: the candidates are on the cylinders only within
            # 1e-13 scale; put both points on their cylinder exactly (closest point: a clamp)
            qa, qb = c0.closest(pa), c1.closest(pb)
            dq = _norm(_sub(qb, qa))
            if dist < dq <= best_ax["margin"] + 8 * 2.0 ** -52 * scale:
                pa, pb, dist = qa, qb, dq
        out["polish"] = {"axis": best_ax["name"], "gjk_distance": solved["upper"],
                         "features": _refine_pairs(c0, c1, best_ax["axis"])[1]}
        out.update(distance=dist, closest=(_add(pa, origin), _add(pb, origin)),
                   lower_bound=best_ax["margin"])
    else:
        mid, sd = witness
        if solved["termination"] == "same centre" or sd <= COMMON * scale:
            cert = "common point"
        elif sd <= TOUCH * scale:
            cert = "touching within rounding"
        else:
            best_m = max((ax["margin"] for ax in axes if ax["axis"] is not None), default=0.0)
            cert = ("undecided: reported as touching (witness within "
                    f"{sd:.3g}, best margin {best_m:.3g})")
        wp = _add(mid, origin)
        out.update(intersects=True, axis=None, found_by=None, intervals=None,
                   certificate=cert, witness=wp,
                   witness_signed_distance=(c0.signed_distance(mid), c1.signed_distance(mid)),
                   distance=0.0, closest=(wp, wp), lower_bound=None)
    out["axes"] = axes
    # a distance upper bound: |pb - pa| of the reported closest points (separated), GJK's
    # |v| otherwise
    out["upper_bound"] = out["distance"] if not out["intersects"] else solved["upper"]
    return out


def gjk_trace(a, b):
    """The GJK run of :func:`decide`'s "gradient zero" test, recorded step by step: a
    :class:`algorithms.traces.GjkTrace` (points of ``A - B``, support points in world
    coordinates), for the explorer's step-through. Run again on demand (the query itself
    records nothing); ``None`` when :func:`decide` runs no 3D GJK (parallel axes or equal
    centres, decided in closed form)."""
    origin = tuple(float(x) for x in a.center)
    c0, c1 = _Cyl(a, origin), _Cyl(b, origin)
    delta = _sub(c1.C, c0.C)
    if _dot(delta, delta) == 0.0 or _norm(_cross(c0.w, c1.w)) <= PARALLEL:
        return None
    scale = _norm(delta) + c0.r + c1.r + 0.5 * (c0.h + c1.h)
    solved = _gjk(c0, c1, scale, record=True)
    r = solved["run"]

    def world(p):
        return [float(p[0]) + origin[0], float(p[1]) + origin[1], float(p[2]) + origin[2]]

    steps = []
    for st in r["steps"]:  # A - B does not move with the origin; the support points do
        st = dict(st)
        st["support_a"], st["support_b"] = world(st["support_a"]), world(st["support_b"])
        steps.append(st)
    return {"algorithm": "GJK", "iterations": r["iterations"], "termination": r["termination"],
            "steps": steps,
            "simplex": {"w": [[float(c) for c in y] for y in r["W"]],
                        "a": [world(p) for p in r["A"]], "b": [world(p) for p in r["B"]],
                        "lambda": [float(x) for x in r["lam"]]},
            "core_distance": solved["upper"], "radius_a": 0.0, "radius_b": 0.0,
            "tol": REL_TOL, "source": "cylinder-cylinder, the gradient-zero test (GJK on A - B)"}


# ----------------------------------------------------------------------------- registry


@functools.lru_cache(maxsize=16)
def _decide_cached(a, b) -> dict:
    # evaluate_pair asks distance, intersects and separating_axis of the same pair
    return decide(a, b)


def _trace(res: dict) -> dict:
    keys = ("found_by", "certificate", "witness", "witness_signed_distance", "scale",
            "sep_tol", "touch_tol", "termination", "iterations", "gjk", "lower_bound",
            "upper_bound", "polish")
    out = {k: res[k] for k in keys if k in res}
    out["axes"] = [dict(ax) for ax in res["axes"]]
    return out


@register("separating_axis", "cylinder", "cylinder", name="cylinder_sat")
def separating_axis_cylinder_cylinder(a, b) -> SeparationResult:
    """Separating axis of two cylinders (Eberly & Schneider, GTCG §11.12.9).

    Parameters
    ----------
    a, b : Cylinder

    Returns
    -------
    SeparationResult
        ``axis`` a unit vector (oriented from A to B) on which the projection ``intervals``
        are disjoint, from the first test of the book's order that separates
        (``trace["found_by"]``: ``"w0"``, ``"w1"``, ``"w0 x w1"``, ``"centre difference"``,
        ``"perpendicular to w0"``, ``"perpendicular to w1"``, ``"gradient zero"``, or
        ``"gradient zero (refined)"`` when GJK's direction had to be climbed); ``None``
        when they intersect or touch, with ``trace["witness"]`` a point of both and
        ``trace["certificate"]`` saying how sure (module notes).
    """
    res = _decide_cached(a, b)
    return SeparationResult(method=METHOD_SEP, trace=_trace(res), intersects=res["intersects"],
                            axis=res["axis"], intervals=res["intervals"])


@register("intersects", "cylinder", "cylinder", name="cylinder_sat")
def intersects_cylinder_cylinder(a, b) -> IntersectionResult:
    """Test-intersection of two cylinders (GTCG §11.12.9); touching counts. See
    :func:`separating_axis_cylinder_cylinder`."""
    res = _decide_cached(a, b)
    return IntersectionResult(method=METHOD_SEP, trace=_trace(res), intersects=res["intersects"])


@register("distance", "cylinder", "cylinder", name="cylinder_gjk_certified", priority=0)
def distance_cylinder_cylinder(a, b) -> DistanceResult:
    """Distance between two cylinders: GJK on the exact cylinder supports with the lower bound
    of the support gap (GTCG §11.12.9's ``-f(d)``) kept, so the error is at most
    ``upper - lower`` (in the trace); exact closed form for parallel axes. Distance 0 and a
    common point when they intersect (the same decision as :func:`intersects_cylinder_cylinder`).
    """
    res = _decide_cached(a, b)
    dist = float(res["distance"])
    tr = _trace(res)
    tr["intersects"] = res["intersects"]
    return DistanceResult(method=METHOD_DIST, trace=tr, distance=dist, sqr_distance=dist * dist,
                          closest=tuple(tuple(p) for p in res["closest"]),
                          parameter=(None, None))
