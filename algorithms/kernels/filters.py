"""Filters in front of the careful kernels (CGAL's filtered predicates; Shewchuk's adaptive
predicates): a plain floating-point test with a cheap, generous error bound that decides the
easy cases, and the careful path (rescaling, correctly rounded sums, exact edge candidates,
Fractions) only when the bound says the plain answer could be wrong.

Every filter here is a separate function that the careful code calls *first*; when it cannot
decide, it returns ``None`` (or ``False``) and the careful code runs exactly as before. So a
filter never changes an answer: it only skips work whose result it has proved.

* :func:`segment_clearly_misses_box` - a segment, ray or line that misses the AABB expanded by
  :data:`MARGIN` (a relative 2^-20 of the coordinates) cannot have distance 0 to it, so the
  12-edge distance that :func:`algorithms.kernels.closest.rescue_hit` runs after Woo rejects
  (to catch a grazing contact rounded away) is skipped.
* :func:`triangle_miss_bound` - after Badouel rejects, a lower bound on the component's
  distance to the triangle (from the plane heights, or from the negative barycentric and the
  angle to the plane); above the margin the rescue's edge distances are skipped.
* :func:`algorithms.kernels.stplane.st_fast` - the st-plane minimum in plain floats with
  bounds on the region decisions, the ranking of the candidates and the touching tolerance.

:func:`careful_only` switches every filter off (``bench kernels`` measures before/after with
it; the tests compare both paths with it).
"""

from __future__ import annotations

import math
from contextlib import contextmanager

from algorithms.core.once import guarded

#: the margin of the miss filters, relative to the largest coordinate: 2^-20 (about 1e-6)
#: is a million ulps, far above the rounding of the distances the careful path computes
MARGIN = 2.0 ** -20

_state = {"enabled": True}
#: the switch itself, for the lean paths' one dict probe per call (read-only outside here)
STATE = _state

#: how often each lean filter declined and left the answer to the careful path, by name, a
#: count per process for the benchmarks and the tests (:func:`fallbacks` reads it):
#: ``"st_lean"`` (:func:`algorithms.kernels.stplane.st_lean` declined: a point or line,
#: nearly parallel, a region or ranking decision within its error bound, near touching),
#: ``"woo_lean"`` (a Woo rejection whose distance bound is below the margin: the slab
#: filter, then the 12-edge check runs), ``"badouel_lean"`` (a collinear triangle or a
#: component parallel to its plane: the full Listing A.4 path), ``"badouel_miss"`` (a
#: Badouel rejection :func:`triangle_clearly_misses` cannot certify: the edge check runs)
FALLBACKS: dict = {}


def fallbacks(name: str) -> int:
    """How many times the filter ``name`` has declined so far (see :data:`FALLBACKS`)."""
    return FALLBACKS.get(name, 0)


def enabled() -> bool:
    """True unless inside :func:`careful_only`."""
    return _state["enabled"]


@contextmanager
def switched_off(state: dict):
    """``state["enabled"]`` is False inside the ``with`` block, and as before after it (the
    on/off switch of the filters here and of :mod:`algorithms.kernels.toi_fast`)."""
    old = state["enabled"]
    with guarded():  # (the lean kernels read the switch only while once.GUARD is not empty)
        state["enabled"] = False
        try:
            yield
        finally:
            state["enabled"] = old


def careful_only():
    """Run the careful kernels only (every filter off) inside the ``with`` block."""
    return switched_off(_state)


def _floats(*vectors) -> bool:
    for v in vectors:
        if len(v) == 3:  # (unrolled: every miss of a cast asks)
            if type(v[0]) is not float or type(v[1]) is not float or type(v[2]) is not float:
                return False
        elif not all(type(x) is float for x in v):
            return False
    return True


#: a Badouel rejection's failed barycentric -> (its name, the edge (i, j) opposite it)
_FAILED = {"alpha < 0": ("alpha", (2, 0)), "beta < 0": ("beta", (0, 1)),
           "gamma < 0": ("gamma", (1, 2))}


def segment_clearly_misses_box(o, d, lo, hi, bmin, bmax) -> bool:
    """True when ``o + t d``, ``t`` in ``[lo, hi]``, misses the box ``[bmin, bmax]`` grown by
    ``MARGIN * scale`` on every side (the slab test, Kay-Kajiya), with a relative slack on
    the ``t`` comparison: then its true distance to the box exceeds the margin, far above any
    rounding, and no grazing contact can hide behind a rounded comparison. False when unsure
    (or for exact inputs): the caller runs its careful check."""
    if not _state["enabled"]:
        return False
    scale = 0.0
    for v in (o, d, bmin, bmax):
        for x in v:
            if type(x) is not float:
                return False
            if x > scale:
                scale = x
            elif -x > scale:
                scale = -x
    if not (0 < scale < 1e300):
        return False
    grow = MARGIN * scale
    t0, t1 = lo, hi
    for i in range(3):
        a, b = bmin[i] - grow, bmax[i] + grow
        oi, di = o[i], d[i]
        if di == 0:
            if oi < a or oi > b:
                return True
            continue
        ta, tb = (a - oi) / di, (b - oi) / di
        if ta > tb:
            ta, tb = tb, ta
        if ta > t0:
            t0 = ta
        if tb < t1:
            t1 = tb
    if t0 == -math.inf or t1 == math.inf:
        return False
    return t0 - t1 > 2.0 ** -30 * (abs(t0) + abs(t1))


def triangle_miss_bound(o, d, lo, hi, verts, trace) -> float:
    """A lower bound on the distance from ``o + t d`` (``t`` in ``[lo, hi]``) to the triangle,
    after Badouel's test rejected it with ``trace`` (App. A.16: ``n``, ``dot``,
    ``t (before division)``, and the barycentric that failed), or 0 when there is none to be
    had cheaply.

    * the plane not reached (``t`` outside the domain): the nearest end's height
      ``|n . (x - p0)| / |n|``;
    * the crossing point ``p`` outside the triangle with barycentric ``lambda_k < 0``: ``p``
      lies ``-lambda_k |n| / |e_k|`` beyond the edge ``e_k`` opposite vertex ``k`` (its
      altitude times ``-lambda_k``), and a line meeting the plane at angle ``theta`` stays
      at least ``m sin(theta) / sqrt(2)`` from a set ``m`` away from ``p`` in the plane
      (a point at signed distance ``s`` along the line is ``|s| sin(theta)`` above the plane
      and ``m - |s| cos(theta)`` from the set in it).
    """
    if not _state["enabled"] or not _floats(o, d, *verts):
        return 0.0
    return _miss_bound(o, d, lo, hi, verts, trace)


def _miss_bound(o, d, lo, hi, verts, trace) -> float:
    """:func:`triangle_miss_bound` on float input with the filters on."""
    n = trace.get("n")
    dot = trace.get("dot")
    tnum = trace.get("t (before division)")
    why = trace.get("rejected", "")
    if n is None or dot is None or tnum is None or not why:
        return 0.0
    nl = math.sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2])
    if not (nl > 0) or not math.isfinite(nl):
        return 0.0
    if why.startswith("origin behind") or why.startswith("plane beyond"):
        # tnum = n.(p0 - o): the origin's height times |n|; the end o + d: tnum - dot
        if lo == 0 and hi == 1:
            return min(abs(tnum), abs(tnum - dot)) / nl
        if lo == 0:
            return abs(tnum) / nl
        return 0.0
    lam = None
    failed = _FAILED.get(why)
    if failed is not None:
        key, (i, j) = failed
        lam = trace.get(key)
        vi, vj = verts[i], verts[j]
        edge = (vj[0] - vi[0], vj[1] - vi[1], vj[2] - vi[2])
    if lam is None or not (lam < 0):
        return 0.0
    el = math.sqrt(edge[0] * edge[0] + edge[1] * edge[1] + edge[2] * edge[2])
    dl = math.sqrt(d[0] * d[0] + d[1] * d[1] + d[2] * d[2])
    if not (el > 0 and dl > 0):
        return 0.0
    sin_theta = abs(dot) / (nl * dl)
    return -lam * nl / el * sin_theta / math.sqrt(2.0)


def triangle_clearly_misses(o, d, lo, hi, verts, trace) -> bool:
    """True when :func:`triangle_miss_bound` exceeds ``MARGIN * scale`` (twice over, for the
    rounding of the bound itself)."""
    if not _state["enabled"]:
        return False
    scale = _float_scale((o, d, *verts))  # (the float test and the scale in one pass)
    if scale is None:
        return False  # not all floats: triangle_miss_bound is 0
    bound = _miss_bound(o, d, lo, hi, verts, trace)
    if not (bound > 0):
        return False
    return bound > 2 * MARGIN * scale and scale < 1e300


def clearly_misses_at(o, d, lo, hi, verts, trace, scale) -> bool:
    """:func:`triangle_clearly_misses` given its ``scale`` (``None``: not all floats), for a
    caller that has it already (:func:`float_scale_of`); the filters on."""
    if scale is None:
        return False
    bound = _miss_bound(o, d, lo, hi, verts, trace)
    if not (bound > 0):
        return False
    return bound > 2 * MARGIN * scale and scale < 1e300


#: where :func:`float_scale_of` keeps its answer on a primitive (not a field)
FLOAT_SCALE_KEY = "_filters_float_scale"


def float_scale_of(prim, vectors):
    """:func:`_float_scale` of ``vectors``, the primitive ``prim``'s own (a ray's origin and
    direction, a triangle's vertices), computed once and kept on the (frozen) instance
    (``False`` kept for "not all floats", returned as ``None``). The scale of several
    primitives' vectors together is the largest of theirs (``None`` if one is ``None``):
    :func:`_float_scale` is a maximum."""
    d = prim.__dict__
    m = d.get(FLOAT_SCALE_KEY)
    if m is None:
        m = _float_scale(vectors)
        object.__setattr__(prim, FLOAT_SCALE_KEY, False if m is None else m)
        return m
    return None if m is False else m


def _float_scale(vectors):
    """``max(abs(x) for v in vectors for x in v)`` (the same value by the same comparisons:
    a later element replaces the running maximum when greater) when every component is a
    float (the test of :func:`_floats`), else ``None``."""
    m = None
    for v in vectors:
        if len(v) == 3 and m is not None:  # (unrolled)
            x, y, z = v
            if type(x) is not float or type(y) is not float or type(z) is not float:
                return None
            a = abs(x)
            if a > m:
                m = a
            a = abs(y)
            if a > m:
                m = a
            a = abs(z)
            if a > m:
                m = a
            continue
        for x in v:
            if type(x) is not float:
                return None
            a = abs(x)
            if m is None or a > m:
                m = a
    if m is None:
        raise ValueError("max() arg is an empty sequence")
    return m


def cylinder_clearly_misses(a, cyl) -> bool:
    """True when the segment, ray or line ``a`` stays farther than ``r`` plus the margin from
    the cylinder's axis segment: the solid cylinder lies inside the capsule of that segment
    with radius ``r``, so the golden-section rescue of the cast (a rim contact rounded away)
    cannot find distance 0. The axis distance is the st-plane minimum (GTCG §10.8.3, accurate
    to a few ulps: a distance between two points of the two sets, never more than rounding
    below the true one)."""
    if not _state["enabled"] or a.exact or cyl.exact:
        return False
    from algorithms.kernels.stplane import minimize
    from algorithms.primitives import Segment

    p, q = cyl.end_points
    axis = Segment(tuple(float(x) for x in p), tuple(float(x) for x in q))
    r = float(cyl.radius)
    dist = minimize(a, axis).distance
    scale = max(abs(x) for v in (p, q) for x in v)
    for v in _vectors_of(a):
        scale = max(scale, max(abs(x) for x in v))
    if not (scale < 1e300):
        return False
    return dist - r > 2 * MARGIN * max(scale, r)


def _vectors_of(a):
    if a.kind == "segment":
        return (a.p0, a.p1)
    return (a.origin, a.direction)
