"""Point, segment, ray and line against a (solid) axis-aligned box.

* point: A.5's clamp, Dunn & Parberry, 3D Math Primer, App. A.5, Listing A.1;
* ``hits``: Woo's ray-box test, App. A.18, Listing A.6 (default, name ``woo``): classify the
  origin against each slab, take each axis's front-face plane as a candidate (``xt``, ``yt``,
  ``zt``, with normals ``xn``, ``yn``, ``zn``), choose the farthest ("the plane of
  intersection") and check the hit point lies inside the other two slabs; the hit normal is
  the chosen plane's. A segment uses the listing's ``rayDelta`` bound (``xt > rayDelta.x``:
  beyond ``t = 1``); a ray rejects a front plane it points away from; a line (all ``t``, so no
  "origin inside" test) takes the front-face plane of every axis it is not parallel to. The
  listing returns the entry only; the exit is the nearest back-face plane. The slab method
  (Kay-Kajiya: ``t_enter = max`` of the near slab planes, ``t_leave = min`` of the far ones) is
  the second method, ``slabs``;
* ``distance``: 0 at the first touching point; otherwise the least over the component's ends
  (A.5) and the component against the 12 edges (GTCG §10.9 candidates,
  :func:`algorithms.kernels.closest.linear_features_distance`); generic golden-section as
  ``golden_section`` (priority -10).

The interval functions :func:`woo_interval` and :func:`slab_interval` work in any box frame
(the OBB module calls them in its own) and on Fractions.
"""

from __future__ import annotations

import math

from algorithms.core import vec as V
from algorithms.core.once import GUARD, current_memo, remember, shared
from algorithms.kernels.closest import (INF, closest_point_aabb, golden_section_distance,
                                        intersects_from_hits, is_zero_vector,
                                        linear_features_distance, linear_parts, rescue_hit,
                                        robust_distance, robust_settle, solid_hits,
                                        touching_distance)
from algorithms.core.tolerance import SAFE_EXPONENT, SIZES_KEY, pair_scale, pair_sizes, plain
from algorithms.kernels.filters import FALLBACKS, MARGIN, segment_clearly_misses_box
from algorithms.kernels.filters import STATE as filters_state
from algorithms.registry import fuses, lean_kernels, register
from algorithms.results import (HIT_BUILDER, PENDING, Deferred, DistanceResult, Hit,
                                HitResult, IntersectionResult, make_with)

LINEAR = ("segment", "ray", "line")
A18 = "ray-AABB, Woo, Dunn & Parberry, 3D Math Primer App. A.18, Listing A.6"
SLABS = "ray-AABB, slab method (Kay-Kajiya)"
A5 = "closest point in an AABB, Dunn & Parberry, 3D Math Primer App. A.5, Listing A.1"
AXES = "xyz"


def _axis_normal(i, sign):
    n = [0.0, 0.0, 0.0]
    n[i] = float(sign)
    return tuple(n)


def _inside(o, bmin, bmax):
    return all(lo <= x <= hi for x, lo, hi in zip(o, bmin, bmax))


def _back_planes(o, d, bmin, bmax, trace):
    """The exit: the nearest back-face plane (``max`` for ``d_i > 0``, ``min`` for ``d_i < 0``)."""
    best = None
    back = []
    for i in range(3):
        if d[i] == 0:
            continue
        plane, sign = (bmax[i], 1) if d[i] > 0 else (bmin[i], -1)
        t = (plane - o[i]) / d[i]
        back.append({"axis": AXES[i], "plane": f"{'max' if sign > 0 else 'min'} {AXES[i]}",
                     "t": t})
        if best is None or t < best[0]:
            best = (t, i, sign)
    trace["back planes"] = back
    if best is None:
        return INF, None
    return best[0], _axis_normal(best[1], best[2])


def woo_interval(o, d, lo, hi, bmin, bmax):
    """Woo (App. A.18, Listing A.6) on ``o + t d``, ``t`` in ``[lo, hi]``, against the box.

    Returns ``(t_in, t_out, n_in, n_out, trace)`` with ``t_in = None`` on a miss and
    ``t_in = -inf`` when the origin is inside (the listing's ``inside`` case: ``first_t = 0``).
    ``trace["candidate planes"]``: per axis the front-face plane and its ``t`` (``-1`` for
    the listing's "not a candidate"), ``trace["chosen"]`` the plane of intersection.
    """
    trace = {"inside": None, "candidate planes": [], "chosen": None}
    if is_zero_vector(d):
        inside = _inside(o, bmin, bmax)
        trace["inside"] = inside
        trace["degenerate"] = "zero-length segment: point in box test"
        return (-INF if inside else None), INF, None, None, trace
    line = lo == -INF
    inside = True
    cands = []
    for i in range(3):
        ax = AXES[i]
        if line:
            # A line has no origin side: its front-face plane on each non-parallel axis.
            if d[i] == 0:
                if not (bmin[i] <= o[i] <= bmax[i]):
                    trace["rejected"] = f"parallel to the {ax} slab and outside it"
                    return None, None, None, None, trace
                cands.append({"axis": ax, "plane": None, "t": None})
                continue
            plane, sign = (bmin[i], -1) if d[i] > 0 else (bmax[i], 1)
            t = (plane - o[i]) / d[i]
            cands.append({"axis": ax, "plane": f"{'min' if sign < 0 else 'max'} {ax}", "t": t,
                          "n": sign})
            inside = False
            continue
        if o[i] < bmin[i]:
            t = bmin[i] - o[i]
            if (hi != INF and t > d[i]) or not (d[i] > 0):
                trace["rejected"] = f"{ax}t: the {ax}-min plane is not reached"
                trace["candidate planes"] = cands
                return None, None, None, None, trace
            cands.append({"axis": ax, "plane": f"min {ax}", "t": t / d[i], "n": -1})
            inside = False
        elif o[i] > bmax[i]:
            t = bmax[i] - o[i]
            if (hi != INF and t < d[i]) or not (d[i] < 0):
                trace["rejected"] = f"{ax}t: the {ax}-max plane is not reached"
                trace["candidate planes"] = cands
                return None, None, None, None, trace
            cands.append({"axis": ax, "plane": f"max {ax}", "t": t / d[i], "n": 1})
            inside = False
        else:
            cands.append({"axis": ax, "plane": None, "t": -1})
    trace["candidate planes"] = cands
    trace["inside"] = inside
    t_out, n_out = _back_planes(o, d, bmin, bmax, trace)
    if inside:
        return -INF, t_out, None, n_out, trace
    which = None
    for i, c in enumerate(cands):
        if c["plane"] is not None and (which is None or c["t"] > cands[which]["t"]):
            which = i
    t = cands[which]["t"]
    trace["chosen"] = {"axis": AXES[which], "plane": cands[which]["plane"], "t": t}
    for j in range(3):
        if j == which:
            continue
        x = o[j] + d[j] * t
        if x < bmin[j] or x > bmax[j]:
            trace["rejected"] = f"hit point {AXES[j]} = {float(x)} outside the box"
            return None, None, None, None, trace
    return t, max(t_out, t), _axis_normal(which, cands[which]["n"]), n_out, trace


def slab_interval(o, d, lo, hi, bmin, bmax):
    """The slab method: per axis the parameters of the two slab planes, ``t_enter = max`` of the
    near ones, ``t_leave = min`` of the far ones; a direction parallel to a slab requires the
    origin inside it. Returns ``(t_in, t_out, n_in, n_out, trace)`` for the whole line."""
    t_enter, t_leave = -INF, INF
    n_in = n_out = None
    slabs = []
    trace = {"slabs": slabs}
    for i in range(3):
        ax = AXES[i]
        if d[i] == 0:
            ok = bmin[i] <= o[i] <= bmax[i]
            slabs.append({"axis": ax, "parallel": True, "origin inside": ok})
            if not ok:
                trace.update({"t_enter": t_enter, "t_leave": t_leave,
                              "rejected": f"parallel to the {ax} slab and outside it"})
                return None, None, None, None, trace
            continue
        if d[i] > 0:  # near plane min (normal -x_i), far plane max
            t1, t2, s1, s2 = (bmin[i] - o[i]) / d[i], (bmax[i] - o[i]) / d[i], -1, 1
        else:
            t1, t2, s1, s2 = (bmax[i] - o[i]) / d[i], (bmin[i] - o[i]) / d[i], 1, -1
        slabs.append({"axis": ax, "t_near": t1, "t_far": t2})
        if t1 > t_enter:
            t_enter, n_in = t1, _axis_normal(i, s1)
        if t2 < t_leave:
            t_leave, n_out = t2, _axis_normal(i, s2)
    trace.update({"t_enter": t_enter, "t_leave": t_leave})
    if t_enter > t_leave:
        trace["rejected"] = "t_enter > t_leave"
        return None, None, None, None, trace
    return t_enter, t_leave, n_in, n_out, trace


#: the outward normals of the six faces, by (axis, sign): shared tuples
_NORMALS = {(i, sign): _axis_normal(i, sign) for i in range(3) for sign in (-1, 1)}
#: the same tuples by name (woo_lean's exit planes: no tuple key hashed per axis)
_N0P, _N0M, _N1P, _N1M, _N2P, _N2M = (_NORMALS[(0, 1)], _NORMALS[(0, -1)], _NORMALS[(1, 1)],
                                      _NORMALS[(1, -1)], _NORMALS[(2, 1)], _NORMALS[(2, -1)])
#: what :func:`woo_lean` returns for a miss (Woo rejected)
MISS = "miss"


def woo_lean(o, d, hi, bmin, bmax):
    """Woo (App. A.18, Listing A.6) for a float segment (``hi = 1``) or ray (``hi = inf``)
    without the trace: ``(t_in, t_out, n_in, n_out)`` exactly as :func:`woo_interval`
    computes them (the same operations in the same order, so the same bits),
    ``(MISS, gap)`` when it rejects, or ``None`` for the cases it leaves to
    :func:`woo_interval` (a zero direction).

    ``gap`` is a lower bound on the distance from the component to the box (up to a few
    ulps): rejected on axis ``i`` because the component never reaches the slab, the slab's
    distance from the origin (a ray moving away) or from the end point (a segment stopping
    short); rejected because the hit point ``x(t*)`` on the chosen plane ``w`` lies ``g``
    outside slab ``j``, ``g |d_w| / (|d_w| + |d_j|)`` less the rounding of ``x(t*)``
    (before ``t*`` the point is ``|d_w| (t* - t)`` outside slab ``w`` and at most
    ``|d_j| (t* - t)`` closer to slab ``j``; after ``t*`` it moves away from slab ``j``, or
    it would have entered it before ``t*``). Woo itself has no careful path: its comparisons are of the inputs and of
    one rounded quotient per axis; what the careful side adds is the grazing-contact check
    after a miss (:func:`algorithms.kernels.filters.segment_clearly_misses_box`,
    :func:`algorithms.kernels.closest.rescue_hit`), which the callers keep."""
    o0, o1, o2 = o
    d0, d1, d2 = d
    if d0 == 0 and d1 == 0 and d2 == 0:
        return None
    bounded = hi != INF
    which = -1
    t = -1.0
    sign = 0
    # (the three axes unrolled, in order: the operations of the loop over i = 0, 1, 2)
    lo_, hi_ = bmin[0], bmax[0]
    if o0 < lo_:
        x = lo_ - o0
        if not (d0 > 0):
            return MISS, x  # every point has x_i <= o_i: that far below the slab
        if bounded and x > d0:
            return MISS, x - d0  # the end o_i + d_i is still below it
        x = x / d0
        if which < 0 or x > t:
            which, t, sign = 0, x, -1
    elif o0 > hi_:
        x = hi_ - o0
        if not (d0 < 0):
            return MISS, -x
        if bounded and x < d0:
            return MISS, d0 - x
        x = x / d0
        if which < 0 or x > t:
            which, t, sign = 0, x, 1
    lo_, hi_ = bmin[1], bmax[1]
    if o1 < lo_:
        x = lo_ - o1
        if not (d1 > 0):
            return MISS, x  # every point has x_i <= o_i: that far below the slab
        if bounded and x > d1:
            return MISS, x - d1  # the end o_i + d_i is still below it
        x = x / d1
        if which < 0 or x > t:
            which, t, sign = 1, x, -1
    elif o1 > hi_:
        x = hi_ - o1
        if not (d1 < 0):
            return MISS, -x
        if bounded and x < d1:
            return MISS, d1 - x
        x = x / d1
        if which < 0 or x > t:
            which, t, sign = 1, x, 1
    lo_, hi_ = bmin[2], bmax[2]
    if o2 < lo_:
        x = lo_ - o2
        if not (d2 > 0):
            return MISS, x  # every point has x_i <= o_i: that far below the slab
        if bounded and x > d2:
            return MISS, x - d2  # the end o_i + d_i is still below it
        x = x / d2
        if which < 0 or x > t:
            which, t, sign = 2, x, -1
    elif o2 > hi_:
        x = hi_ - o2
        if not (d2 < 0):
            return MISS, -x
        if bounded and x < d2:
            return MISS, d2 - x
        x = x / d2
        if which < 0 or x > t:
            which, t, sign = 2, x, 1
    # the exit: the nearest back-face plane
    t_out = INF
    n_out = None
    if d0 > 0:
        x = (bmax[0] - o0) / d0
        if n_out is None or x < t_out:
            t_out, n_out = x, _N0P
    elif d0 != 0:
        x = (bmin[0] - o0) / d0
        if n_out is None or x < t_out:
            t_out, n_out = x, _N0M
    if d1 > 0:
        x = (bmax[1] - o1) / d1
        if n_out is None or x < t_out:
            t_out, n_out = x, _N1P
    elif d1 != 0:
        x = (bmin[1] - o1) / d1
        if n_out is None or x < t_out:
            t_out, n_out = x, _N1M
    if d2 > 0:
        x = (bmax[2] - o2) / d2
        if n_out is None or x < t_out:
            t_out, n_out = x, _N2P
    elif d2 != 0:
        x = (bmin[2] - o2) / d2
        if n_out is None or x < t_out:
            t_out, n_out = x, _N2M
    if which < 0:
        return -INF, t_out, None, n_out
    if which != 0:
        x = o0 + d0 * t
        if x < bmin[0] or x > bmax[0]:
            # outside slab j by g at t*; before t* outside slab w by |d_w| (t* - t),
            # after it moving away from slab j: at least g |d_w| / (|d_w| + |d_j|) off
            g = bmin[0] - x if x < bmin[0] else x - bmax[0]
            g -= 2.0 ** -48 * (abs(o0) + abs(d0 * t))  # the rounding of x and t*
            dw = abs(d[which])
            return MISS, (g * dw / (dw + abs(d0)) if g > 0 else 0.0)
    if which != 1:
        x = o1 + d1 * t
        if x < bmin[1] or x > bmax[1]:
            # outside slab j by g at t*; before t* outside slab w by |d_w| (t* - t),
            # after it moving away from slab j: at least g |d_w| / (|d_w| + |d_j|) off
            g = bmin[1] - x if x < bmin[1] else x - bmax[1]
            g -= 2.0 ** -48 * (abs(o1) + abs(d1 * t))  # the rounding of x and t*
            dw = abs(d[which])
            return MISS, (g * dw / (dw + abs(d1)) if g > 0 else 0.0)
    if which != 2:
        x = o2 + d2 * t
        if x < bmin[2] or x > bmax[2]:
            # outside slab j by g at t*; before t* outside slab w by |d_w| (t* - t),
            # after it moving away from slab j: at least g |d_w| / (|d_w| + |d_j|) off
            g = bmin[2] - x if x < bmin[2] else x - bmax[2]
            g -= 2.0 ** -48 * (abs(o2) + abs(d2 * t))  # the rounding of x and t*
            dw = abs(d[which])
            return MISS, (g * dw / (dw + abs(d2)) if g > 0 else 0.0)
    return t, max(t_out, t), _NORMALS[(which, sign)], n_out


def _entry_exit(o, d, t_in, t_out, n_in, n_out) -> tuple:
    """The hits of :func:`~algorithms.kernels.closest.solid_hits`' entry-and-exit case
    (``0 <= t_in < t_out <= hi``), with its very arithmetic (``point_at`` on floats),
    unrolled: the hit list of the common hit of :func:`hits_woo`."""
    o0, o1, o2 = o
    d0, d1, d2 = d
    return (make_with(Hit, {"t": t_in, "point": (o0 + t_in * d0, o1 + t_in * d1,
                                                o2 + t_in * d2),
                            "normal": n_in, "kind": "entry"}),
            make_with(Hit, {"t": t_out, "point": (o0 + t_out * d0, o1 + t_out * d1,
                                                 o2 + t_out * d2),
                            "normal": n_out, "kind": "exit"}))


def _woo_trace(o, d, lo, hi, bmin, bmax, _gap=None) -> dict:
    """The trace of a cast :func:`woo_lean` answered: :func:`woo_interval`'s."""
    return woo_interval(o, d, lo, hi, bmin, bmax)[4]


def _clear_miss(hr, a, box, o, d, lo, hi) -> bool:
    """True when the cast ``hr`` missed by far more than rounding: from :func:`woo_lean`'s
    gap when it answered (``gap > 2 MARGIN scale``, the margin of
    :func:`~algorithms.kernels.filters.segment_clearly_misses_box` with ``scale`` the
    pair's largest coordinate or direction component), else from that slab filter."""
    tr = hr.__dict__.get("trace")
    if type(tr) is Deferred and tr.func is _woo_trace and tr.args[6] is not None:
        scale = max(pair_scale(a, box), abs(d[0]), abs(d[1]), abs(d[2]))
        if tr.args[6] > 2.0 * MARGIN * scale and scale < 1e300:
            return True
        FALLBACKS["woo_lean"] = FALLBACKS.get("woo_lean", 0) + 1
    return segment_clearly_misses_box(o, d, lo, hi, box.min, box.max)


def hits_woo(a, box):
    """Segment, ray or line against the AABB by Woo's method (App. A.18, Listing A.6).

    A float segment or ray runs :func:`woo_lean` (the trace deferred: computed from
    :func:`woo_interval` when read)."""
    o, d, lo, hi = linear_parts(a)
    if lo == 0 and filters_state["enabled"] and not a.exact and not box.exact:
        lean = woo_lean(o, d, hi, box.min, box.max)
        if lean is not None:
            if lean[0] is MISS:
                return make_with(HitResult, {
                    "method": A18,
                    "trace": Deferred(_woo_trace, o, d, lo, hi, box.min, box.max, lean[1]),
                    "intersects": False, "first_t": None, "hits": ()})
            trace = Deferred(_woo_trace, o, d, lo, hi, box.min, box.max, None)
            t_in, t_out, n_in, n_out = lean
            if t_in < 0 or not (t_in < t_out <= hi):
                return solid_hits(o, d, lo, hi, t_in, t_out, n_in, n_out, A18, trace)
            # solid_hits' entry-and-exit case (0 <= t_in < t_out <= hi); the two hits are
            # built when read (results.Deferred, as the trace)
            return make_with(HitResult, {
                "method": A18, "trace": trace, "intersects": True, "first_t": t_in,
                "hits": Deferred(_entry_exit, o, d, t_in, t_out, n_in, n_out)})
    t_in, t_out, n_in, n_out, trace = woo_interval(o, d, lo, hi, box.min, box.max)
    return solid_hits(o, d, lo, hi, t_in, t_out, n_in, n_out, A18, trace)


def hits_slabs(a, box):
    """Segment, ray or line against the AABB by the slab method."""
    o, d, lo, hi = linear_parts(a)
    t_in, t_out, n_in, n_out, trace = slab_interval(o, d, lo, hi, box.min, box.max)
    return solid_hits(o, d, lo, hi, t_in, t_out, n_in, n_out, SLABS, trace)


def box_edges(bmin, bmax):
    """The 12 edges ``(name, s0, s1)`` of the box ``[bmin, bmax]``."""
    edges = []
    for i in range(3):
        j, k = (i + 1) % 3, (i + 2) % 3
        for cj, nj in ((bmin[j], "min"), (bmax[j], "max")):
            for ck, nk in ((bmin[k], "min"), (bmax[k], "max")):
                p, q = [None] * 3, [None] * 3
                p[i], q[i] = bmin[i], bmax[i]
                p[j] = q[j] = cj
                p[k] = q[k] = ck
                edges.append((f"{AXES[i]} at {AXES[j]}={nj} {AXES[k]}={nk}", tuple(p),
                              tuple(q)))
    return edges


def _fp(p):
    return tuple(float(c) for c in p)


def box_features_distance(o, d, lo, hi, bmin, bmax):
    """Least distance from a component missing the box to it (ends by A.5, 12 edges)."""
    return linear_features_distance(o, d, lo, hi,
                                    lambda p: closest_point_aabb(p, _Box(bmin, bmax)),
                                    box_edges(bmin, bmax))


class _Box:
    def __init__(self, bmin, bmax):
        self.min, self.max = bmin, bmax


#: Woo's cast of the pair, once per :func:`~algorithms.core.once.one_analysis` scope
_cast = shared(hits_woo)


@shared
def _hits_and_features(a, box):
    hr = _cast(a, box)
    if hr.intersects:
        return hr, None
    o, d, lo, hi = linear_parts(a)
    if not (a.exact or box.exact):
        crossing = slab_crossing(hr, o, d, lo, hi, o, d, box.min, box.max)
        if crossing is not None:
            return crossing, None
    feats = box_features_distance(o, d, lo, hi, box.min, box.max)
    hr = rescue_hit(hr, o, d, feats[0], feats[1],
                    f"Woo rejected a contact the edge distance finds exactly ({feats[4]})",
                    feats[2:4])
    return hr, feats


def slab_crossing(hr, o, d, lo, hi, ol, dl, bmin, bmax, to_world=None):
    """Woo's rejected float cast ``hr`` as the crossing the slab method finds, or ``None``
    (``ol``, ``dl``: the component in the box's frame, ``[bmin, bmax]`` the box there, and
    ``to_world`` its normals back to world space: an OBB's; an AABB's frame is the world's).

    Woo tests the candidate plane's hit point after rounding it: a component that enters
    (or leaves) through an edge can have that point an ulp outside the face, and Woo rejects a
    crossing of the box's inside. The ray ``(2, 0, 3) + t (-49/16, -49/16, -2)`` against
    ``[-1, 0] x [-3, -2] x [0, 2]`` enters through the edge ``x = 0, y = -2`` at ``t = 32/49``
    and leaves through ``x = -1, y = -3`` at ``48/49``; Woo's point on ``x = 0`` had ``y`` an
    ulp above ``-2``, and the edges' distance found only the exit at distance 0: first_t was
    0.98. The slabs compare parameters, not points (Kay & Kajiya, as :func:`hits_slabs`): when
    their interval is a crossing of positive length (``t_in < t_out``), its entry and exit are
    the answer, with Woo's method and trace and ``trace["rescued"]`` saying why. A graze
    (``t_in == t_out``) is left to the edges' exact distance (:func:`_hits_and_features`)."""
    t_in, t_out, n_in, n_out, trace = slab_interval(ol, dl, lo, hi, bmin, bmax)
    if t_in is None or not t_in < t_out:
        return None
    if to_world is not None:
        n_in, n_out = to_world(n_in), to_world(n_out)
    sl = solid_hits(o, d, lo, hi, t_in, t_out, n_in, n_out, hr.method,
                    {**hr.trace, "rescued": "Woo rejected a crossing the slabs' parameter "
                                            f"interval [{float(t_in)!r}, {float(t_out)!r}] "
                                            "finds (a hit point rounded an ulp outside a "
                                            "face)", "slabs": trace})
    return sl if sl.intersects else None


def hits_linear_aabb(a, box):
    """The default cast: Woo (:func:`hits_woo`); a grazing contact along an edge or at a corner
    that Woo's rounded comparisons reject but the exact edge candidates find at distance 0 is
    reported (:func:`algorithms.kernels.closest.rescue_hit`), so hits, intersects and distance agree.
    A clear miss (:func:`algorithms.kernels.filters.segment_clearly_misses_box`) skips that
    check."""
    # the shared cast (outside a one_analysis scope: the cast itself, one frame less)
    hr = hits_woo(a, box) if current_memo() is None else _cast(a, box)
    if hr.intersects:
        return hr  # (what _hits_and_features returns for a hit, without a second cast)
    o, d, lo, hi = linear_parts(a)
    if _clear_miss(hr, a, box, o, d, lo, hi):
        return hr  # the filter: no grazing contact for rescue_hit to find
    return _hits_and_features(a, box)[0]


DISTANCE_METHOD = "linear-AABB distance: GTCG §10.9 candidates (ends, 12 edges); " + A18


def _touching(a, hr):
    """The distance record of a cast ``hr`` that hit: 0 at its first touching point."""
    o, d, lo, hi = linear_parts(a)
    return touching_distance(V.to_float(o), V.to_float(d), hr, DISTANCE_METHOD,
                             {"first_t": hr.first_t})


def distance_linear_aabb(a, box):
    """0 at Woo's first touching point, else the features minimum (exact up to rounding)."""
    method = DISTANCE_METHOD
    hr, feats = _hits_and_features(a, box)
    if hr.intersects:
        return _touching(a, hr)
    o, d, lo, hi = linear_parts(a)
    sq, t, pa, pb, feature, cands = feats
    sq = float(sq)
    trace = {"feature": feature, "candidates": cands, "t": float(t)}
    return DistanceResult(method=method, trace=trace, distance=math.sqrt(sq), sqr_distance=sq,
                          closest=(_fp(pa), _fp(pb)), parameter=(float(t), None))


def distance_linear_aabb_golden(a, box):
    """Generic: golden-section on the convex distance (cross-check of the features method)."""
    method = "linear-AABB distance, golden-section on the convex distance (generic)"
    hr = hits_woo(a, box)
    o, d, lo, hi = linear_parts(a)
    if hr.intersects:
        return touching_distance(V.to_float(o), V.to_float(d), hr, method, {})
    c = V.to_float(box.center)
    r = V.norm(V.to_float(box.extents))
    sq, t, pa, pb, steps = golden_section_distance(o, d, lo, hi,
                                                   lambda p: closest_point_aabb(p, box), c, r)
    return DistanceResult(method=method, trace={"t": t, "steps": steps},
                          distance=math.sqrt(sq), sqr_distance=sq, closest=(pa, pb),
                          parameter=(t, None))


def distance_point_aabb(pt, box):
    """App. A.5: clamp each coordinate ("push q into B along each axis")."""
    q = pt.position
    p = closest_point_aabb(q, box)
    sq = float(V.sqr_dist(p, q))
    return DistanceResult(method=A5, trace={"clamped": [bool(a != b) for a, b in zip(p, q)]},
                          distance=math.sqrt(sq), sqr_distance=sq, closest=(_fp(q), _fp(p)),
                          parameter=(None, None))


def intersects_point_aabb(pt, box):
    return IntersectionResult(method=A5, trace={},
                              intersects=_inside(pt.position, box.min, box.max))


intersects_linear_aabb = intersects_from_hits(hits_linear_aabb, A18)
#: the registered default distance of a linear component and a box
distance_features = robust_distance(distance_linear_aabb)


@fuses(distance=distance_features, intersects=intersects_linear_aabb, hits=hits_linear_aabb)
def answer_linear_aabb(a, box):
    """``(distance, intersection, hits)`` of a linear component and a box from one cast, the
    records the three queries return (:func:`algorithms.registry.fuses`): on a hit, Woo's
    cast is the hits and the intersection, and the distance is 0 at its first touching
    point; on a miss the three share the cast and the features minimum as before."""
    hr = hits_woo(a, box)
    if not hr.intersects:
        remember(_cast, (a, box), hr)  # the shared passes below read this cast
        return distance_features(a, box), intersects_linear_aabb(a, box), hits_linear_aabb(a, box)
    return (robust_settle(_touching(a, hr)),
            make_with(IntersectionResult, {"method": A18, "trace": hr.__dict__["trace"],
                                           "intersects": True}),
            hr)



register("distance", "point", "aabb")(robust_distance(distance_point_aabb))
register("intersects", "point", "aabb")(intersects_point_aabb)
for _k in LINEAR:
    register("hits", _k, "aabb", name="woo", priority=10)(hits_linear_aabb)
    register("hits", _k, "aabb", name="slabs", priority=0)(hits_slabs)
    register("distance", _k, "aabb", name="features", priority=10)(distance_features)
    register("distance", _k, "aabb", name="golden_section", priority=-10)(
        robust_distance(distance_linear_aabb_golden))
    register("intersects", _k, "aabb")(intersects_linear_aabb)


#: where :func:`_woo_form` and :func:`_box_form` keep their answers on a segment or ray and
#: on a box (not fields)
WOO_FORM_KEY = "_woo_form"
BOX_FORM_KEY = "_woo_box_form"
if (WOO_FORM_KEY, BOX_FORM_KEY) != ("_woo_form", "_woo_box_form"):
    raise AssertionError("_lean_cast reads the forms as a._woo_form and box._woo_box_form")


def _woo_form(a):
    """What the lean kernel reads of a float segment or ray: ``(o_0, o_1, o_2, d_0, d_1,
    d_2, margin, |o|, |d|)`` with ``o`` its origin (a segment's ``p0``), ``d`` its direction,
    ``|o|`` and ``|d|`` the tuples of their components' absolute values (a miss's gap reads
    them: ``abs(d_j t) = |d_j| t`` for the entry's ``t >= 0``, the same rounding) and
    ``margin = 2 MARGIN scale`` with ``scale = max(largest |coordinate| of a's sizes
    (pair_sizes), |d_0|, |d_1|, |d_2|)``, its part of the margin of :func:`_clear_miss` (the
    pair's scale is the larger of this and the box's sizes; positive, the direction being
    nonzero). ``False`` for an exact one, a zero direction or one that is not
    :func:`~algorithms.core.tolerance.plain` (the kernel then leaves the pair to the
    registry's runner, which rescales). Computed once and kept on the (frozen) instance.

    (``2 MARGIN`` is a power of two and a plain primitive's scale lies in the safe range,
    ``2^-24 .. 2^24`` (or is 0 for a box), so ``2 MARGIN scale`` is exact: the larger of two
    such margins is ``2 MARGIN`` times the larger scale, bit for bit, and the careful path's
    ``scale < 1e300`` always holds.)"""
    form = False
    if not a.exact and plain(a):
        o = a.p0 if a.kind == "segment" else a.origin
        d = a.direction
        if not (d[0] == 0 and d[1] == 0 and d[2] == 0):
            scale = (a.__dict__.get(SIZES_KEY) or pair_sizes(a))[1]
            for x in d:
                x = x if x >= 0 else -x
                if x > scale:
                    scale = x
            if not (scale <= 2.0 ** SAFE_EXPONENT):  # (never, for a plain one: see above)
                raise AssertionError(f"a plain component's scale {scale!r}")
            form = (*o, *d, 2.0 * MARGIN * scale, (abs(o[0]), abs(o[1]), abs(o[2])),
                    (abs(d[0]), abs(d[1]), abs(d[2])))
    object.__setattr__(a, WOO_FORM_KEY, form)  # not a field: eq/hash unchanged
    return form


def _box_form(box):
    """What the lean kernel reads of a float box: ``(min_0, min_1, min_2, max_0, max_1,
    max_2, margin)`` with ``margin = 2 MARGIN (largest |coordinate|)`` (pair_sizes; exact, as
    :func:`_woo_form`'s), or ``False`` for an exact box or one that is not
    :func:`~algorithms.core.tolerance.plain`; kept on the (frozen) instance."""
    form = False
    if not box.exact and plain(box):
        scale = (box.__dict__.get(SIZES_KEY) or pair_sizes(box))[1]
        if not (scale <= 2.0 ** SAFE_EXPONENT):  # (never, for a plain one)
            raise AssertionError(f"a plain box's scale {scale!r}")
        form = (*box.min, *box.max, 2.0 * MARGIN * scale)
    object.__setattr__(box, BOX_FORM_KEY, form)  # not a field: eq/hash unchanged
    return form


def _cast_field(name, a, box):
    """Field ``name`` of the record of a cast of the float segment or ray ``a`` that the lean
    kernel answered, which holds one shared pending value (:func:`~algorithms.results.pending`)
    for its trace and (a hit) its hit list: ``"hits"``, :func:`_cast_hits`; ``"trace"``,
    :func:`_cast_trace` (a copy of the trace in another record, such as an intersection
    record made from this one, is read as ``"trace"`` too)."""
    if name == "hits":
        return _cast_hits(a, box)
    return _cast_trace(a, box)


def _cast_trace(a, box) -> dict:
    """The trace of a cast of the float segment or ray ``a`` that the lean kernel answered:
    :func:`woo_interval`'s (as :func:`_woo_trace`'s)."""
    if a.kind == "segment":
        return woo_interval(a.p0, a.direction, 0, 1, box.min, box.max)[4]
    return woo_interval(a.origin, a.direction, 0, INF, box.min, box.max)[4]


def _cast_hits(a, box) -> tuple:
    """The hit list of a cast of the float segment or ray ``a`` that the lean kernel answered
    as a hit (Woo's entry plane accepted): :func:`hits_woo`'s, from :func:`woo_lean`'s
    interval computed again when read (the same operations on the same inputs, so the same
    bits) and the same choice: :func:`_entry_exit` through the entry and exit
    (``0 <= t_in < t_out <= hi``), else :func:`~algorithms.kernels.closest.solid_hits`'
    (a touching hit, a segment ending inside)."""
    o, d, lo, hi = linear_parts(a)
    t_in, t_out, n_in, n_out = woo_lean(o, d, hi, box.min, box.max)
    if t_in < 0 or not (t_in < t_out <= hi):
        return solid_hits(o, d, lo, hi, t_in, t_out, n_in, n_out, A18, None).hits
    return _entry_exit(o, d, t_in, t_out, n_in, n_out)


def _lean_cast(hi):
    """The lean kernel (:func:`algorithms.registry.lean_kernels`) of a float ray
    (``hi = inf``) or segment (``hi = 1``) against a float box, a *direct* one (the
    registry's :func:`~algorithms.registry.query` calls it without its own checks): exactly
    the record ``query("hits", a, box)`` returns, or ``None`` for a pair it leaves to the
    registry's runner (a primitive that is exact, has a zero direction or is not
    :func:`~algorithms.core.tolerance.plain`, which the forms :func:`_woo_form` and
    :func:`_box_form` say; or an open :func:`~algorithms.core.once.one_analysis` scope).
    For a hit through the entry and exit and for a miss that :func:`woo_lean`'s gap
    certifies (:func:`_clear_miss`) the record is built here, in one frame around
    :func:`woo_lean`; everything else (filters off, a cast that starts inside or ends
    inside, a miss within the margin) is :func:`hits_linear_aabb`'s answer, as before (which
    counts, once, when its filter declines). Called by the runner (both primitives plain, no
    scope open), ``None`` comes only for an exact primitive or a zero direction, which the
    runner hands :func:`hits_linear_aabb` as well."""
    state = filters_state
    bounded = hi == 1  # a segment
    build = HIT_BUILDER
    in_scope = current_memo
    guard = GUARD
    careful = hits_linear_aabb

    def lean(a, box):
        # what depends on one primitive alone, kept on the instances (_woo_form, _box_form):
        # False for an exact one, a zero direction or one not plain (the cases left to the
        # runner) (read as attributes: an instance-dict attribute read costs less than a
        # __dict__.get call; AttributeError the first time, before _woo_form stores it)
        try:
            f = a._woo_form
        except AttributeError:
            f = _woo_form(a)
        try:
            g = box._woo_box_form
        except AttributeError:
            g = _box_form(box)
        try:  # (a form that is False, left to the runner, does not unpack: no test of it)
            o0, o1, o2, d0, d1, d2, margin, ao, ad = f
            l0, l1, l2, h0, h1, h2, box_margin = g
        except TypeError:
            return None
        if guard:  # a scope open somewhere, or the filters off (once.GUARD): ask which
            if in_scope() is not None:
                return None
            if not state["enabled"]:
                return careful(a, box)
        # (every constant a float is compared with is a float, 0.0 not 0: CPython 3.11
        # specialises a comparison only for two floats; an int constant takes the generic path)
        # (t = -1 below every candidate: a candidate plane's t is a quotient of two nonzero
        # numbers of one sign, >= 0, so "x > t" takes the first one as Woo's max does;
        # plain inputs are finite)
        which = -1
        t = -1.0
        # woo_lean written out (the same operations in the same order: the same bits), one
        # pass that breaks out with the gap of a miss
        while True:
            if o0 < l0:
                x = l0 - o0
                if not (d0 > 0.0):
                    gap = x
                    break
                if bounded and x > d0:
                    gap = x - d0
                    break
                x = x / d0
                which, t = 0, x
            elif o0 > h0:
                x = h0 - o0
                if not (d0 < 0.0):
                    gap = -x
                    break
                if bounded and x < d0:
                    gap = d0 - x
                    break
                x = x / d0
                which, t = 0, x
            if o1 < l1:
                x = l1 - o1
                if not (d1 > 0.0):
                    gap = x
                    break
                if bounded and x > d1:
                    gap = x - d1
                    break
                x = x / d1
                if x > t:
                    which, t = 1, x
            elif o1 > h1:
                x = h1 - o1
                if not (d1 < 0.0):
                    gap = -x
                    break
                if bounded and x < d1:
                    gap = d1 - x
                    break
                x = x / d1
                if x > t:
                    which, t = 1, x
            if o2 < l2:
                x = l2 - o2
                if not (d2 > 0.0):
                    gap = x
                    break
                if bounded and x > d2:
                    gap = x - d2
                    break
                x = x / d2
                if x > t:
                    which, t = 2, x
            elif o2 > h2:
                x = h2 - o2
                if not (d2 < 0.0):
                    gap = -x
                    break
                if bounded and x < d2:
                    gap = d2 - x
                    break
                x = x / d2
                if x > t:
                    which, t = 2, x
            if which < 0:
                return careful(a, box)  # starts inside: t_in = -inf, careful path
            if which != 0:
                x = o0 + d0 * t
                if x < l0 or x > h0:
                    g = l0 - x if x < l0 else x - h0
                    g -= 2.0 ** -48 * (ao[0] + ad[0] * t)
                    dw = ad[which]
                    gap = g * dw / (dw + ad[0]) if g > 0.0 else 0.0
                    break
            if which != 1:
                x = o1 + d1 * t
                if x < l1 or x > h1:
                    g = l1 - x if x < l1 else x - h1
                    g -= 2.0 ** -48 * (ao[1] + ad[1] * t)
                    dw = ad[which]
                    gap = g * dw / (dw + ad[1]) if g > 0.0 else 0.0
                    break
            if which != 2:
                x = o2 + d2 * t
                if x < l2 or x > h2:
                    g = l2 - x if x < l2 else x - h2
                    g -= 2.0 ** -48 * (ao[2] + ad[2] * t)
                    dw = ad[which]
                    gap = g * dw / (dw + ad[2]) if g > 0.0 else 0.0
                    break
            # a hit at t = t_in >= 0 (Woo's entry plane; t >= 0: a quotient of two positive
            # or two negative numbers). The careful path's record of any such hit
            # (hits_woo: solid_hits, or its entry-and-exit case) has these method,
            # intersects and first_t (= t) and the same deferred trace, whatever the exit
            # t_out: only its hit list depends on t_out (entry and exit; one touching hit
            # when t_out <= t; the entry alone when a segment ends inside), and _cast_hits
            # makes that choice when the list is read. So no exit here.
            # the record made by its builder (results.builder: the fields stored in the
            # dataclass's order, then the class set: about 50 ns less than filling a new
            # HitResult's own dict); the trace and the hit list one shared pending value
            # (results.pending)
            obj = build()
            obj.method = A18
            obj.trace = x = (PENDING, _cast_field, a, box)
            obj.intersects = True
            obj.first_t = t
            obj.hits = x
            obj.__class__ = HitResult
            return obj
        # a miss with its gap: _clear_miss's margin, 2 MARGIN max(pair_scale(a, box), |d_i|),
        # from the component's part of it and the box's (_woo_form, _box_form: exact)
        if box_margin > margin:
            margin = box_margin
        if gap > margin:
            obj = build()  # (as above)
            obj.method = A18
            obj.trace = (PENDING, _cast_field, a, box)
            obj.intersects = False
            obj.first_t = None
            obj.hits = ()
            obj.__class__ = HitResult
            return obj
        return careful(a, box)

    lean.direct = True  # (registry.lean_kernels: query() calls it as it is)
    return lean


lean_kernels(hits_linear_aabb, {("ray", "aabb"): (_lean_cast(INF), hits_linear_aabb),
                                ("segment", "aabb"): (_lean_cast(1), hits_linear_aabb)})
