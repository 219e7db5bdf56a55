"""Distance from a plane to the solids and to another plane, analytically.

For a convex solid ``S`` and the plane ``n . x = d`` with unit normal ``u = n/|n|`` and offset
``o = d/|n|``, the projection of ``S`` on ``u`` is the interval ``[lo, hi]`` of
:func:`algorithms.kernels.support.support_interval` (for a box the Primer's ``minD``/``maxD`` of A.10,
Listing A.2; for a sphere ``u . c -+ r`` as in A.15):

* ``lo > o``: ``S`` is in front; distance ``lo - o``, attained at the support point
  ``s_S(-u)`` and its foot on the plane;
* ``hi < o``: behind; distance ``o - hi`` at ``s_S(u)``;
* otherwise ``S`` touches or straddles the plane: distance 0 and a common point, found on the
  segment from ``s_S(-u)`` to ``s_S(u)`` (which lies in ``S``) where it crosses the plane.
  Gaps within the rounding band ``TOUCH_REL (|o| + |c| + r_eff)`` (``TOUCH_REL = 2**-40``,
  :mod:`algorithms.core.tolerance`) count as touching.

Two planes: parallel (``|n_A x n_B| <= 1e-12 |n_A| |n_B|``, exactly 0 for exact input) planes
are ``|o_A - o_B'|`` apart (``o_B'`` the offset of B along ``u_A``); coincident or crossing
planes are at distance 0, with a common point on the line of intersection nearest the origin
(Dunn & Parberry, A.11 intersects three planes; for two, the standard formula
``x = ((d_A |n_B|^2 - d_B n_A.n_B) n_A + (d_B |n_A|^2 - d_A n_A.n_B) n_B) / |n_A x n_B|^2``).

The trace holds ``signed_distance`` (of the solid's centre, along ``u``),
``effective_radius`` (the half-width of ``[lo, hi]``), ``lo``/``hi`` (``minD``/``maxD``
along the unit normal), ``support_point`` and ``case``.
"""

from __future__ import annotations

import math

import numpy as np

from algorithms.core import tolerance
from algorithms.kernels.support import centre, support, support_interval
from algorithms.registry import register
from algorithms.results import DistanceResult

PARALLEL_SIN = tolerance.PARALLEL_SIN  # 1e-12 (core.tolerance)
METHOD_SOLID = ("plane-solid distance: support points along -n and +n "
                "(Dunn & Parberry, 3D Math Primer, A.10 Listing A.2 minD/maxD; A.15)")
METHOD_PLANE = "plane-plane distance: parallel offsets or the line of intersection (A.11)"


#: gaps below ``TOUCH_REL * (|d|/|n| + |c| + r_eff)`` are rounding: the solid touches
TOUCH_REL = tolerance.TOUCH_REL  # 2**-40 (core.tolerance)


def touch_tolerance(offset: float, c, r_eff: float) -> float:
    """Rounding band (unit-normal units) within which a float solid counts as touching the
    plane; :mod:`side_plane` uses the same band so ``side == 0`` iff ``distance == 0``."""
    if len(c) == 3:  # np.linalg.norm of the floats: sqrt of numpy's dot, summed from the left
        x, y, z = float(c[0]), float(c[1]), float(c[2])
        return TOUCH_REL * (abs(offset) + math.sqrt(x * x + y * y + z * z) + r_eff)
    return TOUCH_REL * (abs(offset) + float(np.linalg.norm(np.asarray(c, dtype=float))) + r_eff)


def _unit_plane(plane):
    """``(n / |n|, d / |n|)``: the unit normal (:func:`algorithms.core.tolerance.unit_np`)
    and the plane's signed offset from the origin along it, ``|n|`` taken on ``n / max|n_i|``
    so that neither under- nor overflows."""
    n = np.asarray(plane.normal, dtype=float)
    m = float(np.abs(n).max())
    length = float(np.linalg.norm(n / m))
    return tolerance.unit_np(n), float(plane.d) / m / length


def _lst(v):
    return tuple(float(c) for c in v)


def distance_plane_solid(plane, solid) -> DistanceResult:
    """Distance from ``plane`` (A) to a bounded convex solid (B); module notes."""
    u, off = _unit_plane(plane)
    c = centre(solid)
    signed = float(u @ c) - off
    lo, hi = support_interval(solid, u)
    tol = touch_tolerance(off, c, (hi - lo) / 2)
    trace = {"signed_distance": signed, "effective_radius": (hi - lo) / 2,
             "lo": lo - off, "hi": hi - off, "unit_normal": _lst(u), "touch_tolerance": tol}
    if lo - off > tol:
        q = support(solid, -u)
        dist = lo - off
        p = q - (float(u @ q) - off) * u
        trace.update(case="front", support_point=_lst(q))
    elif off - hi > tol:
        q = support(solid, u)
        dist = off - hi
        p = q - (float(u @ q) - off) * u
        trace.update(case="behind", support_point=_lst(q))
    else:
        q_lo, q_hi = support(solid, -u), support(solid, u)
        h_lo, h_hi = float(u @ q_lo), float(u @ q_hi)
        if h_hi > h_lo:
            t = min(max((off - h_lo) / (h_hi - h_lo), 0.0), 1.0)
        else:
            t = 0.0
        q = q_lo + t * (q_hi - q_lo)
        p = q
        dist = 0.0
        trace.update(case="touching" if lo >= off - tol or hi <= off + tol else "straddling",
                     support_point=_lst(q_lo), support_point_front=_lst(q_hi), t=t)
    return DistanceResult(method=METHOD_SOLID, trace=trace, distance=float(dist),
                          sqr_distance=float(dist) ** 2, closest=(_lst(p), _lst(q)),
                          parameter=(None, None))


def planes_parallel(a, b) -> bool:
    """True when the normals are parallel: exactly for exact input, else within
    ``|n_A x n_B| <= 1e-12 |n_A| |n_B|``."""
    na, nb = a.normal, b.normal
    cr = (na[1] * nb[2] - na[2] * nb[1], na[2] * nb[0] - na[0] * nb[2],
          na[0] * nb[1] - na[1] * nb[0])
    cc = sum(x * x for x in cr)
    if a.exact and b.exact:
        return cc == 0
    aa = float(sum(x * x for x in na))
    bb = float(sum(x * x for x in nb))
    return float(cc) <= PARALLEL_SIN ** 2 * aa * bb


def distance_plane_plane(a, b) -> DistanceResult:
    """Distance between two planes: parallel and apart, coincident, or crossing (0)."""
    ua, oa = _unit_plane(a)
    ub, ob = _unit_plane(b)
    if planes_parallel(a, b):
        ob_a = ob if float(ua @ ub) > 0 else -ob  # B's offset along u_A
        gap = ob_a - oa
        pa = oa * ua
        # the foot of pa on B (B's own normal: "parallel" allows a sine up to PARALLEL_SIN,
        # and pa + gap u_A would leave B by |pa| times that sine)
        pb = pa - (float(ub @ pa) - ob) * ub
        dist = abs(gap)
        if dist <= TOUCH_REL * (abs(oa) + abs(ob)):
            dist = 0.0
        case = "coincident" if dist == 0 else "parallel"
        if dist == 0:
            pb = pa
        trace = {"case": case, "offset_a": oa, "offset_b_along_a": ob_a, "signed_gap": gap}
        return DistanceResult(method=METHOD_PLANE, trace=trace, distance=dist,
                              sqr_distance=dist * dist, closest=(_lst(pa), _lst(pb)),
                              parameter=(None, None))
    # on the unit normals (so neither tiny nor huge normals under- or overflow), the point of
    # the line nearest the origin is the meeting point with the plane c . x = 0 through the
    # origin, c = u_A x u_B (three planes, Cramer by triple products, A.11):
    # x = (o_A (u_B x c) + o_B (c x u_A)) / (c . c). The cross products keep their accuracy
    # for nearly parallel planes, where aa bb - ab^2 cancels to 0. On the unit c / |c| and
    # |c| = sin (hypot): c . c underflowed to 0 for exact planes whose normals differ by
    # 1e-162 (not parallel at tolerance 0), and x was 0 / 0
    c = np.cross(ua, ub)
    sin = math.hypot(*(float(x) for x in c))
    cu = c / sin
    with np.errstate(over="ignore"):
        x = (oa * np.cross(ub, cu) + ob * np.cross(cu, ua)) / sin
    if not np.all(np.isfinite(x)):
        from algorithms.primitives import BeyondFloatRange

        raise BeyondFloatRange("closest", "the line where the planes cross lies", sin)
    trace = {"case": "crossing", "line_point": _lst(x),
             "line_direction": _lst(cu), "sin_angle": sin}
    return DistanceResult(method=METHOD_PLANE, trace=trace, distance=0.0, sqr_distance=0.0,
                          closest=(_lst(x), _lst(x)), parameter=(None, None))


for _kind in ("triangle", "sphere", "aabb", "obb", "capsule", "cylinder"):
    register("distance", "plane", _kind, name="plane_support")(distance_plane_solid)
register("distance", "plane", "plane", name="plane_plane")(distance_plane_plane)
