"""Time of impact by a GJK ray cast against the Minkowski difference (bounded kinds).

A still, B moving by ``t d`` (Dunn & Parberry, 3D Math Primer, App. A.6): they touch at ``t``
iff some ``a - b = t d``, i.e. iff the point ``t d`` of the ray ``x(t) = t d`` from the origin
lies in the Minkowski difference ``C = A - B``. The first ``t`` is a ray cast against ``C``,
done with GJK on the support function ``s_C(v) = s_A(v) - s_B(-v)`` (van den Bergen, "Ray
casting against general convex objects with application to continuous collision detection",
2004, Algorithm "GJK ray cast"; :func:`algorithms.kernels.support.support`,
:func:`algorithms.kernels.gjk.closest_on_simplex`):

* ``v`` = the point of ``conv(x - p_i)`` nearest the origin (``x - v`` is the nearest point of
  the simplex to the ray point ``x``); ``p = s_C(v)``, ``w = x - p``;
* ``v . w > 0``: the plane through ``p`` with normal ``v`` separates ``x`` from ``C``; if the ray
  heads away from it (``v . d >= 0``) there is no hit, else ``x`` jumps to the plane:
  ``t <- t - (v . w) / (v . d)`` (past ``1``: no hit in the period) and ``n <- v``;
* stop when ``|v|`` is below ``eps = 1e-12`` times the simplex's size (``x`` is on ``C``);
  for the curved cylinder, where GJK converges only linearly, also after 20 steps without a
  separating plane once ``|v| <= 1e-8`` times the size.

``t`` only grows and every jump stops at a supporting plane of ``C``, so it never passes the
first contact. The normal is the last separating ``v`` (outward from ``C = A - B``, that is from
A towards B); the contact point on A is ``sum lambda_i a_i``. Registered for the 64 ordered
bounded pairs as method ``gjk_ray_cast`` (priority -15: a cross-check for the default
conservative advancement).
"""

from __future__ import annotations

import math

import numpy as np

from algorithms.core.tolerance import T_END
from algorithms.kernels.gjk import closest_on_simplex
from algorithms.kernels.motion import a6_trace
from algorithms.kernels.support import BOUNDED_KINDS, centre, core, support
from algorithms.primitives import Point, Segment
from algorithms.registry import register
from algorithms.results import ContactResult

METHOD = ("GJK ray cast against the Minkowski difference A - B on support functions "
          "(van den Bergen 2004; Dunn & Parberry, 3D Math Primer, App. A.6 relative motion)")
EPS_REL = 1e-12
MAX_ITER = 200
STALL = 20  # iterations without a separating plane before accepting |v| <= STALL_EPS
STALL_EPS = 1e-8


def _core(prim):
    """(core primitive, radius): a sphere is its centre, a capsule its segment, plus a radius
    (van den Bergen §4.3.4 "core" objects, as :mod:`algorithms.kernels.gjk` does)."""
    kind, pts, radius = core(prim)
    if pts is None:
        return prim, 0.0
    if kind == "point":
        return Point(tuple(float(c) for c in pts)), radius
    if kind == "segment":
        return Segment(tuple(float(c) for c in pts[0]), tuple(float(c) for c in pts[1])), radius
    return prim, 0.0


def gjk_ray_cast(a, b, motion, *, eps_rel: float = EPS_REL, max_iter: int = MAX_ITER):
    """First ``t`` in ``[0, 1]`` with ``t d`` in ``A - B`` (module docstring).

    Round shapes run on their cores: the ray cast is against ``C = core(A) - core(B)`` grown by
    ``R = r_A + r_B``, so a separating plane is offset by ``R |v|`` and the cast stops when the
    ray point is within ``R`` of ``C`` (van den Bergen 2004, §4 "rounded objects").
    """
    d = np.asarray(motion, dtype=float)
    ca, ra = _core(a)
    cb, rb = _core(b)
    R = ra + rb
    lam = 0.0
    x = np.zeros(3)
    normal = None
    v = centre(b) - centre(a)  # x - (a point of C): the origin minus (cA - cB)
    if not float(v @ v) > 0:
        v = -d if float(d @ d) > 0 else np.array([1.0, 0.0, 0.0])
    pts: list = []  # (p, a_i, b_i)
    trace = {"A.6": a6_trace(motion), "R": R, "iterations": []}
    scale = max(R, float(np.linalg.norm(d)), float(np.linalg.norm(v)), 1e-300)
    it = 0
    lam_bary = None
    hit = False
    stall = 0
    while it < max_iter:
        it += 1
        vn = math.sqrt(float(v @ v))
        if vn <= R + eps_rel * scale:
            hit = True
            break
        if stall >= STALL and vn <= R + STALL_EPS * scale:
            # a curved C (cylinder rim) converges only linearly: x is within 1e-8 of it
            trace["stalled"] = {"v": vn - R, "iterations": stall}
            hit = True
            break
        sa = support(ca, v)
        sb = support(cb, -v)
        p = sa - sb
        scale = max(scale, float(np.linalg.norm(p)), float(np.linalg.norm(x)))
        w = x - p
        vw = float(v @ w) - R * vn  # the plane of the grown C, offset by R along v
        stall += 1
        if vw > 0:
            stall = 0
            vd = float(v @ d)
            if vd >= 0:
                trace["case"] = "the ray heads away from a separating plane: no contact"
                trace["iterations"].append({"t": lam, "v": v, "v_dot_w": vw})
                return _done(trace, None, it)
            lam = lam - vw / vd
            trace["iterations"].append({"t": lam, "v": v, "v_dot_w": vw})
            if lam > T_END:
                trace["case"] = "the ray reaches the separating plane after t = 1"
                return _done(trace, None, it)
            x = lam * d
            normal = v
        elif any(np.array_equal(p, q[0]) for q in pts):
            # no new support point, no separating plane: v is the distance to C up to rounding
            hit = vn <= R + 1e-6 * scale
            break
        pts.append((p, sa, sb))
        Y = [tuple(x - q[0]) for q in pts]
        idx, lam_bary, vt = closest_on_simplex(Y)
        pts = [pts[i] for i in idx]
        v = np.asarray(vt, dtype=float)
        if len(pts) == 4:  # x inside the tetrahedron: in C
            v = np.zeros(3)
    if not hit and it >= max_iter and math.sqrt(float(v @ v)) <= R + 1e-7 * scale:
        trace["stalled"] = {"v": math.sqrt(float(v @ v)) - R, "iterations": stall}
        hit = True
    if not hit:
        trace["case"] = "no convergence: the ray point stays apart from A - B"
        return _done(trace, None, it)
    trace["case"] = "t d reached A - B"
    nrm = None
    vn = float(np.linalg.norm(v))
    if R > 0 and vn > R / 2:
        normal = v  # round shapes: x is about R from the core, v is the contact normal
    if normal is not None:
        ln = float(np.linalg.norm(normal))
        nrm = normal / ln if ln > 0 else None
    point = None
    if pts and lam_bary is not None and len(lam_bary) == len(pts):
        point = sum(l * q[1] for l, q in zip(lam_bary, pts))
    elif pts:
        point = pts[-1][1]
    if point is not None and R > 0:
        # core points pa (on A's core) and pb (on B's core, moved): pb - pa = v, |v| <= R;
        # pa + (r_A / R) v is within r_A of pa and r_B of pb: a common point (on the surfaces
        # when |v| = R, the contact)
        point = point + (ra / R) * v
    return _done(trace, lam, it, point, None if nrm is None or lam == 0 else tuple(nrm))


def _done(trace, toi, it, point=None, normal=None):
    trace["gjk_iterations"] = it
    trace["toi"] = toi
    pt = None if point is None or toi is None else tuple(float(c) for c in point)
    return ContactResult(method=METHOD, trace=trace, toi=toi, point=pt, normal=normal)


for _ka in BOUNDED_KINDS:
    for _kb in BOUNDED_KINDS:
        register("toi", _ka, _kb, name="gjk_ray_cast", priority=-15)(gjk_ray_cast)

