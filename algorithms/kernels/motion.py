"""Shared helpers for moving objects: the A.6 relative-motion reduction, extents along a
direction, the path of a moving point.

Dunn & Parberry, 3D Math Primer, App. A.6: a dynamic test checks two primitives that each
translate by a displacement over ``t`` in ``[0, 1]``; combining the two displacements into one
relative displacement ``d = d2 - d1`` lets us hold the first primitive still while the second
does all the moving. Every ``"toi"`` function of the registry works in that frame:
``f(a, b, motion)`` with ``motion`` B's displacement relative to A.
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from algorithms.core.tolerance import PARALLEL_SIN, parallel, unit_np
from algorithms.primitives import Primitive, Segment

#: relative tolerance under which two plane normals count as parallel (|n1 x n2| <= eps |n1||n2|)
PARALLEL_EPS = PARALLEL_SIN  # core.tolerance: 1e-12


def relative_motion(motion_a: Optional[Sequence[float]],
                    motion_b: Optional[Sequence[float]]) -> tuple:
    """B's displacement seen from A: ``d = d_B - d_A`` (Primer A.6, A.13 Fig. A.11).

    ``None`` stands for no motion.
    """
    if (motion_a is None or len(motion_a) == 3) and (motion_b is None or len(motion_b) == 3):
        # numpy's element-wise difference of the float conversions, in floats (the same
        # values; no motion is 0.0)
        ax, ay, az = (0.0, 0.0, 0.0) if motion_a is None else (
            float(motion_a[0]), float(motion_a[1]), float(motion_a[2]))
        bx, by, bz = (0.0, 0.0, 0.0) if motion_b is None else (
            float(motion_b[0]), float(motion_b[1]), float(motion_b[2]))
        return (bx - ax, by - ay, bz - az)
    ma = np.zeros(3) if motion_a is None else np.asarray(motion_a, dtype=float)
    mb = np.zeros(3) if motion_b is None else np.asarray(motion_b, dtype=float)
    return tuple(float(c) for c in (mb - ma))


def a6_trace(motion) -> dict:
    """The trace entry that records the A.6 reduction (A still, B moves by ``motion``)."""
    d = (float(motion[0]), float(motion[1]), float(motion[2])) if len(motion) == 3 else \
        tuple(float(c) for c in motion)
    a = np.array(d)
    # |d| as numpy's norm computes it (sqrt of the BLAS dot), without its dispatch
    return {
        "reduction": "A.6 relative motion: A held still, B moves by d = d_B - d_A",
        "d": d,
        "l": math.sqrt(float(a.dot(a))),
    }


def toi_world(a: Primitive, b: Primitive, motion_a=None, motion_b=None, method=None):
    """Time of impact of A moving by ``motion_a`` and B by ``motion_b`` (world space).

    Does the A.6 reduction, asks the registry's ``"toi"`` for ``(a, b, d_B - d_A)`` and moves
    the contact point back with A (``point + toi * d_A``), as :func:`algorithms.evaluate.
    evaluate_pair` does. Returns the :class:`~algorithms.results.ContactResult` with the world
    point.
    """
    from dataclasses import replace

    from algorithms import registry

    rel = relative_motion(motion_a, motion_b)
    res = registry.query("toi", a, b, rel, method=method)
    if res.point is not None and res.toi is not None and motion_a is not None:
        point = np.asarray(res.point, dtype=float) + float(res.toi) * np.asarray(motion_a, float)
        res = replace(res, point=tuple(float(c) for c in point))
    return res


def moving_point_path(p, motion) -> Segment:
    """The segment ``p + t motion``, ``t`` in ``[0, 1]``: a moving point is a ray (Primer A.6,
    "many tests involving rays are really dynamic tests, a ray being a moving point")."""
    p = tuple(float(c) for c in p)
    return Segment(p, tuple(a + float(m) for a, m in zip(p, motion)))




def extent_along(prim: Primitive, n) -> tuple:
    """The interval ``[lo, hi]`` of ``n . x`` over the points ``x`` of ``prim``, with a point
    attaining each end: ``(lo, p_lo, hi, p_hi)``.

    ``n`` need not be unit. An unbounded end is ``-inf`` / ``+inf`` with point ``None``. This is
    the Primer's AABB trick (A.10, Listing A.2: the corner picked by the signs of ``n``)
    generalised to every kind; the support point of ``prim`` in direction ``+-n``.
    """
    n = np.asarray(n, dtype=float)
    k = prim.kind
    inf = math.inf

    def pts(points):
        P = np.asarray(points, dtype=float).reshape(-1, 3)
        v = P @ n
        i, j = int(np.argmin(v)), int(np.argmax(v))
        return float(v[i]), tuple(P[i]), float(v[j]), tuple(P[j])

    if k == "point":
        return pts([prim.position])
    if k == "segment":
        return pts([prim.p0, prim.p1])
    if k == "triangle":
        return pts(prim.vertices)
    if k == "aabb":
        lo_c = np.where(n > 0, prim.min, prim.max).astype(float)
        hi_c = np.where(n > 0, prim.max, prim.min).astype(float)
        return float(lo_c @ n), tuple(lo_c), float(hi_c @ n), tuple(hi_c)
    if k == "obb":
        c = np.asarray(prim.center, float)
        A = np.asarray(prim.axes, float)
        e = np.asarray(prim.extents, float)
        s = np.where(A @ n >= 0, 1.0, -1.0)
        off = (s * e) @ A
        return float((c - off) @ n), tuple(c - off), float((c + off) @ n), tuple(c + off)
    if k in ("sphere", "capsule"):
        r = float(prim.radius)
        u = unit_np(n)  # n is nonzero: an extent needs a direction
        lo, plo, hi, phi = pts([prim.center] if k == "sphere" else [prim.p0, prim.p1])
        nn = float(np.linalg.norm(n))
        plo = tuple(np.asarray(plo) - r * u)
        phi = tuple(np.asarray(phi) + r * u)
        return lo - r * nn, plo, hi + r * nn, phi
    if k == "cylinder":
        c = np.asarray(prim.center, float)
        w = prim.unit_axis
        h = float(prim.height) / 2
        r = float(prim.radius)
        wn = float(w @ n)
        sw = 1.0 if wn >= 0 else -1.0
        # the rim point is along the part of n perpendicular to the axis; for an axis parallel
        # to n that part is rounding noise of any direction (its "unit" vector would swing the
        # interval by r): then the end disk's centre is the support point (GTCG 11.12.9)
        off = sw * h * w
        if not parallel(w, n):
            perp = n - wn * w
            off = off + r * (perp / float(np.linalg.norm(perp)))
        # the extent from the closed form h |w.n| + r |w x n| (accurate also near parallel)
        reach = h * abs(wn) + r * float(np.linalg.norm(np.cross(w, n)))
        cn = float(c @ n)
        return cn - reach, tuple(c - off), cn + reach, tuple(c + off)
    if k in ("ray", "line"):
        o = np.asarray(prim.origin, float)
        v = float(np.asarray(prim.direction, float) @ n)
        on = float(o @ n)
        if v == 0:
            return on, tuple(o), on, tuple(o)
        if k == "line":
            return -inf, None, inf, None
        return (on, tuple(o), inf, None) if v > 0 else (-inf, None, on, tuple(o))
    if k == "plane":
        m = np.asarray(prim.normal, float)
        cr = np.linalg.norm(np.cross(m, n))
        if cr <= PARALLEL_EPS * np.linalg.norm(m) * np.linalg.norm(n):
            # n = lam m: n . x = lam d for every x of the plane. lam = (n . m) / (m . m) on
            # power-of-two scaled copies (exact scaling, no over/underflow); for n = +-2^k m,
            # the same plane, lam is exact and so is the extent (not origin . n, which rounds:
            # a plane vs itself at rest then "misses" by 1 ulp)
            o = np.asarray(prim.origin, float)
            km = math.frexp(float(np.max(np.abs(m))))[1]
            kn = math.frexp(float(np.max(np.abs(n))))[1]
            mu, nu = np.ldexp(m, -km), np.ldexp(n, -kn)
            on = math.ldexp(float(prim.d) * (float(nu @ mu) / float(mu @ mu)), kn - km)
            return on, tuple(o), on, tuple(o)
        return -inf, None, inf, None
    raise ValueError(f"extent_along: unknown kind {k!r}")

