"""Vectorised queries over arrays of N pairs (structure of arrays, numpy only).

Each function takes one ``(N, 3)`` array per vector field of the two shapes (and ``(N,)`` for
scalars), works through them in chunks of :data:`CHUNK` rows (so the temporaries of one chunk
stay in the cache) and returns a :class:`Batch` of ``(N,)`` / ``(N, 3)`` arrays with the same
answers as the scalar :func:`algorithms.registry.query` for each row:

=================================  =========================================================
function                           scalar query it answers, per row
=================================  =========================================================
:func:`segment_segment`            ``query("distance", Segment, Segment)``: distance,
                                   ``s``, ``t``, both closest points (Ericson RTCD §5.1.9;
                                   GTCG §10.8.3)
:func:`linear_aabb`                ``query("hits", ray|segment, AABB)``: first hit ``t``,
                                   point and normal (Woo, Primer App. A.18)
:func:`linear_sphere`              ``query("hits", ray|segment, Sphere)`` (Primer App. A.12)
:func:`linear_triangle`            ``query("hits", ray|segment, Triangle)`` (Badouel,
                                   Primer App. A.16)
:func:`obb_obb`                    ``query("separating_axis", OBB, OBB).intersects``
:func:`sphere_aabb`                ``query("intersects", Sphere, AABB)`` (Arvo, GTCG §11.12.8)
:func:`point_aabb`                 ``query("distance", Point, AABB)`` (Primer App. A.5)
:func:`point_triangle`             ``query("distance", Point, Triangle)`` (Ericson §5.1.5)
:func:`moving_spheres`             ``query("toi", Sphere, Sphere, motion)`` (Primer App. A.13)
:func:`moving_aabbs`               ``query("toi", AABB, AABB, motion)`` (Primer App. A.17)
=================================  =========================================================

The filter (CGAL's filtered predicates, per row)
-------------------------------------------------
The vectorised arithmetic is plain double precision. Every function also computes, per row, a
cheap bound on how far from a decision the row is: a nearly parallel pair, a hit within a few
ulps of an edge, a corner or a domain end, a tangent, a touching distance, a degenerate
shape. Those rows (``Batch.careful``, a boolean mask) are answered by the scalar
:func:`~algorithms.registry.query` itself (its rescaling, correctly rounded sums, Fractions),
so no row's answer is decided by rounding noise. On random input they are a few in a
million; on degenerate input most rows.

With numba installed, each function runs instead the compiled loop of
:mod:`algorithms.accel` that computes its numpy code's formulas per row in the same order (the
same bits; ``INTERSECTION_EXPLORER_NUMBA=0`` or ``accel.disabled()`` keeps numpy).

``None`` in the scalar answer is ``nan`` in the arrays (a miss has ``t = nan``; an inside
start has ``normal = nan``).

Example
-------
>>> import numpy as np
>>> from algorithms import batch
>>> p0 = np.array([[0.0, 0, 0], [0, 0, 0]]); p1 = np.array([[1.0, 0, 0], [1, 0, 0]])
>>> q0 = np.array([[0.5, 1, -1], [2.0, 0, 1]]); q1 = np.array([[0.5, 1, 1], [3.0, 0, 1]])
>>> r = batch.segment_segment(p0, p1, q0, q1)
>>> r.distance.tolist()
[1.0, 1.4142135623730951]
>>> r.s.tolist(), r.t.tolist()
([0.5, 1.0], [0.5, 0.0])
"""

from __future__ import annotations

import math
import sys
from dataclasses import dataclass, field

import numpy as np

from algorithms import accel

#: rows per chunk: the ~20 temporaries of a chunk of 8192 rows x 3 doubles stay in L2
CHUNK = 8192
EPS = sys.float_info.epsilon
#: a row whose decision margin is below ``FILTER_ULPS * eps * scale`` goes to the scalar path
FILTER_ULPS = 1 << 20  # about 2.3e-10 relative: far above any rounding of the formulas below


@dataclass
class Batch:
    """Per-row answers: ``fields`` maps a name to an ``(N,)`` or ``(N, 3)`` array;
    ``careful`` marks the rows the filter answered by the scalar path."""

    fields: dict
    careful: np.ndarray = field(default_factory=lambda: np.zeros(0, bool))

    def __getattr__(self, name):
        try:
            return self.__dict__["fields"][name]
        except KeyError:
            raise AttributeError(name) from None

    def __len__(self):
        return len(self.careful)


def _arr(x, n=None, width=3):
    """An ``(n, width)`` float array: one row (a ``(width,)`` vector) is broadcast to all."""
    a = np.asarray(x, dtype=float)
    if a.ndim == 1 and n is not None:
        a = np.broadcast_to(a, (n, width))
    return a


def _rows(*vectors) -> int:
    """N: the row count of the vector fields given as ``(N, 3)`` (a single vector is one row,
    broadcast)."""
    return max(len(a) if a.ndim >= 2 else 1 for a in map(np.asarray, vectors))


def _dot(u, v):
    return u[:, 0] * v[:, 0] + u[:, 1] * v[:, 1] + u[:, 2] * v[:, 2]


def _cross(u, v):
    return np.stack((u[:, 1] * v[:, 2] - u[:, 2] * v[:, 1],
                     u[:, 2] * v[:, 0] - u[:, 0] * v[:, 2],
                     u[:, 0] * v[:, 1] - u[:, 1] * v[:, 0]), axis=1)


def _scale(*vectors):
    """Per row the largest absolute coordinate (at least 1e-300)."""
    m = np.zeros(len(vectors[0]))
    for v in vectors:
        np.maximum(m, np.abs(v).max(axis=1) if v.ndim == 2 else np.abs(v), out=m)
    return np.maximum(m, 1e-300)


def _chunked(n, solve, out_fields, inputs):
    """Run ``solve(*chunk_inputs) -> (dict of arrays, careful mask)`` over chunks."""
    out = {name: np.full((n,) + shape, np.nan) for name, shape in out_fields.items()}
    careful = np.zeros(n, dtype=bool)
    for lo in range(0, n, CHUNK):
        hi = min(n, lo + CHUNK)
        with np.errstate(all="ignore"):  # nan/inf rows are expected (misses, parallels)
            res, mask = solve(*(a[lo:hi] for a in inputs))
        for name, val in res.items():
            out[name][lo:hi] = val
        careful[lo:hi] = mask
    return out, careful


def _run(name, n, solve, out_fields, inputs, *extra):
    """``(fields, careful)`` over all rows: the compiled loop ``name`` of
    :mod:`algorithms.accel` when numba is there (the same bits), else :func:`_chunked` numpy
    ``solve``."""
    fn = accel.kernel(name)
    if fn is None:
        return _chunked(n, solve, out_fields, inputs)
    args = [np.ascontiguousarray(a, dtype=float) for a in inputs]
    out = {key: np.empty((n,) + shape) for key, shape in out_fields.items()}
    careful = np.empty(n, dtype=bool)
    fn(*args, *extra, *out.values(), careful)
    return out, careful


def _scalar_rows(out, careful, answer, make):
    """Answer the ``careful`` rows with the scalar query: ``make(i)`` gives the arguments,
    ``answer(result) -> dict`` the fields."""
    from algorithms.registry import query

    for i in np.flatnonzero(careful):
        name, a, b, extra = make(i)
        res = query(name, a, b, *extra)
        for key, val in answer(res).items():
            out[key][i] = np.nan if val is None else val


def _nan3(v):
    return (np.nan, np.nan, np.nan) if v is None else v


# ----------------------------------------------------------------------------- segment-segment


def _segseg_chunk(p0, p1, q0, q1):
    d1, d2 = p1 - p0, q1 - q0
    r = p0 - q0
    a, e, b = _dot(d1, d1), _dot(d2, d2), _dot(d1, d2)
    c, f = _dot(d1, r), _dot(d2, r)
    n = _cross(d1, d2)
    det = _dot(n, n)  # |d1 x d2|^2 = a e - b^2 without the cancellation
    scale = _scale(p0, p1, q0, q1)
    # the filter: degenerate or nearly parallel (s, t ill-conditioned or not unique)
    careful = ~(det > 1e-6 * a * e) | ~(a > 0) | ~(e > 0)
    with np.errstate(all="ignore"):
        s = np.clip((b * f - c * e) / det, 0.0, 1.0)
        t = (b * s + f) / e
        below, above = t < 0, t > 1
        s = np.where(below, np.clip(-c / a, 0, 1), np.where(above, np.clip((b - c) / a, 0, 1), s))
        t = np.clip(t, 0.0, 1.0)
        ca = p0 + d1 * s[:, None]
        cb = q0 + d2 * t[:, None]
        w = ca - cb
        dist = np.sqrt(_dot(w, w))
    # touching within a margin of the scalar tolerance: the scalar path decides (and reports
    # one common point)
    careful |= ~(dist > FILTER_ULPS * EPS * scale)
    # s or t within rounding of a clamp: the region (hence which edge) could differ
    careful |= ~np.isfinite(dist)
    return {"distance": dist, "s": s, "t": t, "closest_a": ca, "closest_b": cb}, careful


def segment_segment(p0, p1, q0, q1) -> Batch:
    """Distance and closest points of segments ``p0 p1`` and ``q0 q1`` (``(N, 3)`` each).

    Ericson, RTCD §5.1.9 (``ClosestPtSegmentSegment``), vectorised, with ``det`` as
    ``|d1 x d2|^2`` (no ``a e - b^2`` cancellation); the filter sends degenerate, nearly
    parallel (``det <= 1e-6 a e``) and touching rows to the scalar st-plane minimiser
    (GTCG §10.8.3). Fields ``distance``, ``s``, ``t``, ``closest_a``, ``closest_b``.
    """
    from algorithms.primitives import Segment

    n = _rows(p0, p1, q0, q1)
    ins = [_arr(v, n) for v in (p0, p1, q0, q1)]
    out, careful = _run("segment_segment", n, _segseg_chunk,
                        {"distance": (), "s": (), "t": (), "closest_a": (3,), "closest_b": (3,)},
                        ins)

    def make(i):
        return "distance", Segment(ins[0][i], ins[1][i]), Segment(ins[2][i], ins[3][i]), ()

    def answer(r):
        return {"distance": r.distance, "s": r.parameter[0], "t": r.parameter[1],
                "closest_a": r.closest[0], "closest_b": r.closest[1]}

    _scalar_rows(out, careful, answer, make)
    return Batch(out, careful)


# ----------------------------------------------------------------------------- linear casts

_HI = {"ray": math.inf, "segment": 1.0}


def _kind_hi(kind):
    if kind not in _HI:
        raise ValueError(f"kind: 'ray' or 'segment', got {kind!r}")
    return _HI[kind]


def _linear_prim(kind, o, d):
    from algorithms.primitives import Ray, Segment

    if kind == "ray":
        return Ray(o, d)
    return Segment(o, o + d)


def _first_hit_answer(r):
    if not r.intersects or not r.hits:
        return {"intersects": False, "t": None, "point": _nan3(None), "normal": _nan3(None)}
    h = r.hits[0]
    return {"intersects": True, "t": r.first_t, "point": h.point, "normal": _nan3(h.normal)}


_HIT_FIELDS = {"intersects": (), "t": (), "point": (3,), "normal": (3,)}


def _finish_hits(out, careful, kind, ins, shape_of):
    def make(i):
        return "hits", _linear_prim(kind, ins[0][i], ins[1][i]), shape_of(i), ()

    _scalar_rows(out, careful, _first_hit_answer, make)
    out["intersects"] = out["intersects"] == 1
    return Batch(out, careful)


def linear_aabb(origin, direction, bmin, bmax, kind: str = "ray") -> Batch:
    """First hit of rays (``kind="ray"``) or segments ``origin + t direction``, ``t`` in
    ``[0, 1]`` (``kind="segment"``) with solid AABBs: ``intersects``, ``t`` (``first_t``: 0
    when the origin is inside), ``point`` and the entry face's ``normal`` (nan when inside).

    The slabs (Kay-Kajiya) give Woo's answer (Primer App. A.18: the farthest front-face plane
    is the one entered last); the filter sends to the scalar Woo every row with its origin
    within rounding of a face plane, a grazing interval (``t_enter`` near ``t_leave``), two
    front planes entered at nearly the same ``t`` (a corner: which normal?), ``t`` near a
    domain end, or a tiny direction component.
    """
    from algorithms.primitives import AABB

    hi_t = _kind_hi(kind)
    n = _rows(origin, direction, bmin, bmax)
    ins = [_arr(v, n) for v in (origin, direction, bmin, bmax)]

    def solve(o, d, lo, hi):
        m = len(o)
        scale = _scale(o, d, lo, hi)
        tol = FILTER_ULPS * EPS * scale
        with np.errstate(all="ignore"):
            t1, t2 = (lo - o) / d, (hi - o) / d
        par = d == 0
        inslab = (lo <= o) & (o <= hi)
        near = np.where(par, np.where(inslab, -np.inf, np.inf), np.minimum(t1, t2))
        far = np.where(par, np.where(inslab, np.inf, -np.inf), np.maximum(t1, t2))
        axis = np.argmax(near, axis=1)
        rows = np.arange(m)
        t_enter = near[rows, axis]
        t_leave = far.min(axis=1)
        inside = inslab.all(axis=1)
        hit = inside | ((t_enter <= t_leave) & (t_enter >= 0) & (t_enter <= hi_t))
        t = np.where(inside, 0.0, t_enter)
        t = np.where(hit, t, np.nan)
        point = np.where(hit[:, None], o + d * np.where(inside, 0.0, t_enter)[:, None], np.nan)
        normal = np.zeros((m, 3))
        normal[rows, axis] = np.where(d[rows, axis] > 0, -1.0, 1.0)
        normal[~hit | inside] = np.nan
        # the filter
        ad = np.where(par, np.inf, np.abs(d))
        dmin = ad.min(axis=1)
        with np.errstate(all="ignore"):
            tol_t = 8 * tol / np.minimum(dmin, np.abs(d).max(axis=1))
            second = np.sort(near, axis=1)[:, 1]
            gap = np.abs(t_enter - second)
        careful = (np.abs(o - lo) <= tol[:, None]).any(axis=1)
        careful |= (np.abs(o - hi) <= tol[:, None]).any(axis=1)
        careful |= (np.abs(d) <= tol[:, None]).any(axis=1) & ~par.any(axis=1)
        careful |= ~(np.abs(d).max(axis=1) > 0)
        careful |= ~inside & (gap <= tol_t)
        with np.errstate(all="ignore"):
            careful |= ~inside & (np.abs(t_enter - t_leave) <= tol_t)
            careful |= ~inside & (np.abs(t_enter) <= tol_t)
        if hi_t != math.inf:
            careful |= ~inside & (np.abs(t_enter - hi_t) <= tol_t)
        careful |= ~np.isfinite(tol_t) & ~inside & hit
        return {"intersects": hit.astype(float), "t": t, "point": point,
                "normal": normal}, careful

    out, careful = _run("linear_aabb", n, solve, _HIT_FIELDS, ins, float(hi_t))
    return _finish_hits(out, careful, kind, ins, lambda i: AABB(ins[2][i], ins[3][i]))


def linear_sphere(origin, direction, center, radius, kind: str = "ray") -> Batch:
    """First hit of rays or segments with solid spheres (Hultquist, Primer App. A.12, in the
    component's own ``t``: ``(e.d -+ sqrt(d.d r^2 - |e x d|^2)) / d.d``, the nearer root by
    Vieta): ``intersects``, ``t`` (0 from inside), ``point``, ``normal`` ``(p - c) / r``.
    The filter: a tangent (small discriminant), an origin within rounding of the surface,
    ``t`` near a domain end, a zero radius or direction."""
    from algorithms.primitives import Sphere

    hi_t = _kind_hi(kind)
    n = _rows(origin, direction, center)
    o_, d_, c_ = (_arr(v, n) for v in (origin, direction, center))
    r_ = np.broadcast_to(np.asarray(radius, dtype=float), (n,))
    ins = [o_, d_, c_, r_]

    def solve(o, d, c, r):
        scale = _scale(o, d, c, r)
        tol = FILTER_ULPS * EPS
        e = c - o
        e2, r2 = _dot(e, e), r * r
        dd = _dot(d, d)
        ed = _dot(e, d)
        exd = _cross(e, d)
        exd2 = _dot(exd, exd)
        disc = dd * r2 - exd2
        inside = e2 < r2
        with np.errstate(all="ignore"):
            sq = np.sqrt(np.maximum(disc, 0.0))
            q = np.where(ed >= 0, ed + sq, ed - sq)
            t_in = np.where(ed >= 0, np.where(q > 0, (e2 - r2) / q, (ed - sq) / dd), q / dd)
            t_out = np.where(ed >= 0, q / dd, (e2 - r2) / q)
            hit = inside | ((disc >= 0) & (t_in >= 0) & (t_in <= hi_t))
            hit &= ~inside | (t_out >= 0)
            t = np.where(inside, 0.0, t_in)
            t = np.where(hit, t, np.nan)
            point = o + d * np.where(hit, t, 0.0)[:, None]
            normal = (point - c) / r[:, None]
        point[~hit] = np.nan
        normal[~hit | inside] = np.nan
        careful = ~(r > tol * scale) | ~(dd > 0)
        careful |= np.abs(disc) <= tol * (dd * r2 + exd2)
        careful |= np.abs(e2 - r2) <= tol * (e2 + r2)
        with np.errstate(all="ignore"):
            tol_t = tol * scale / np.sqrt(dd) * 8
        careful |= ~inside & (np.abs(t_in) <= tol_t)
        if hi_t != math.inf:
            careful |= ~inside & (np.abs(t_in - hi_t) <= tol_t)
        return {"intersects": hit.astype(float), "t": t, "point": point,
                "normal": normal}, careful

    out, careful = _run("linear_sphere", n, solve, _HIT_FIELDS, ins, float(hi_t))
    return _finish_hits(out, careful, kind, ins, lambda i: Sphere(c_[i], float(r_[i])))


def linear_triangle(origin, direction, v0, v1, v2, kind: str = "ray") -> Batch:
    """First hit of rays or segments with filled triangles, both faces (Badouel, Primer
    App. A.16: the plane ``n . x = n . p0`` with ``n = (p1 - p0) x (p2 - p1)``, then the
    barycentrics): ``intersects``, ``t``, ``point`` and the unit ``normal`` facing the side
    the component comes from. The filter: a nearly parallel component, a degenerate
    triangle, a barycentric within rounding of 0 (an edge or a vertex), ``t`` near a domain
    end."""
    from algorithms.primitives import Triangle

    hi_t = _kind_hi(kind)
    n = _rows(origin, direction, v0, v1, v2)
    ins = [_arr(v, n) for v in (origin, direction, v0, v1, v2)]

    def solve(o, d, p0, p1, p2):
        scale = _scale(o, d, p0, p1, p2)
        tol = FILTER_ULPS * EPS
        e1, e2 = p1 - p0, p2 - p1
        nrm = _cross(e1, e2)
        nn = _dot(nrm, nrm)
        dot = _dot(nrm, d)
        dd = _dot(d, d)
        with np.errstate(all="ignore"):
            t = (_dot(nrm, p0) - _dot(nrm, o)) / dot
            p = o + d * t[:, None]
            # barycentrics by signed sub-areas along n (Ericson §3.4)
            b0 = _dot(nrm, _cross(p1 - p, p2 - p)) / nn
            b1 = _dot(nrm, _cross(p2 - p, p0 - p)) / nn
            b2 = 1.0 - b0 - b1
            nlen = np.sqrt(nn)
            normal = nrm / np.where(dot < 0, nlen, -nlen)[:, None]
        bmin = np.minimum(np.minimum(b0, b1), b2)
        hit = (t >= 0) & (t <= hi_t) & (bmin >= 0) & (dot != 0)
        careful = ~(nn > 1e-12 * _dot(e1, e1) * _dot(e2, e2))
        careful |= ~(np.abs(dot) > 1e-6 * np.sqrt(nn * dd))
        careful |= np.abs(bmin) <= tol * 64
        with np.errstate(all="ignore"):
            tol_t = tol * scale / np.sqrt(dd) * 64
        careful |= np.abs(t) <= tol_t
        if hi_t != math.inf:
            careful |= np.abs(t - hi_t) <= tol_t
        careful |= ~np.isfinite(t)
        t = np.where(hit, t, np.nan)
        p[~hit] = np.nan
        normal[~hit] = np.nan
        return {"intersects": hit.astype(float), "t": t, "point": p, "normal": normal}, careful

    out, careful = _run("linear_triangle", n, solve, _HIT_FIELDS, ins, float(hi_t))
    return _finish_hits(out, careful, kind, ins,
                        lambda i: Triangle((ins[2][i], ins[3][i], ins[4][i])))


# ----------------------------------------------------------------------------- intersection


def obb_obb(c0, axes0, ext0, c1, axes1, ext1) -> Batch:
    """Do the solid OBBs intersect (``axes`` ``(N, 3, 3)``, rows the unit axes; ``ext``
    ``(N, 3)``): the 15 candidate axes of Gottschalk's separating-axis test (GTCG §11.12.7;
    RTCD §4.4.1) with unnormalised axes (the sign of ``|T.L| - (r_A + r_B)`` does not depend
    on ``|L|``). The filter: the best margin within rounding of 0, or no face axis separating
    while an edge-edge axis is nearly degenerate (nearly parallel edges)."""
    from algorithms.primitives import OBB

    n = _rows(c0, c1)
    C0, C1 = _arr(c0, n), _arr(c1, n)
    A0 = np.broadcast_to(np.asarray(axes0, dtype=float), (n, 3, 3))
    A1 = np.broadcast_to(np.asarray(axes1, dtype=float), (n, 3, 3))
    E0, E1 = _arr(ext0, n), _arr(ext1, n)
    ins = [C0, A0, E0, C1, A1, E1]

    def solve(c0, a0, e0, c1, a1, e1):
        T = c1 - c0
        scale = _scale(c0, c1, e0, e1)
        tol = FILTER_ULPS * EPS * scale
        face = np.concatenate((a0, a1), axis=1)  # (m, 6, 3)
        cross = np.cross(a0[:, :, None, :], a1[:, None, :, :]).reshape(-1, 9, 3)
        axes = np.concatenate((face, cross), axis=1)  # (m, 15, 3)
        proj0 = np.abs(np.einsum("mkj,mij->mki", axes, a0))  # |L . A_i|
        proj1 = np.abs(np.einsum("mkj,mij->mki", axes, a1))
        rA = np.einsum("mki,mi->mk", proj0, e0)
        rB = np.einsum("mki,mi->mk", proj1, e1)
        dist = np.abs(np.einsum("mkj,mj->mk", axes, T))
        length = np.sqrt(np.einsum("mkj,mkj->mk", axes, axes))
        margin = dist - rA - rB
        sep_face = (margin[:, :6] > tol[:, None] * 4).any(axis=1)
        degenerate = length[:, 6:] <= 1e-4
        good = np.concatenate((np.ones((len(c0), 6), bool), ~degenerate), axis=1)
        best = np.where(good, margin / np.where(length > 0, length, 1.0), -np.inf).max(axis=1)
        intersects = ~(best > 0)
        careful = np.abs(best) <= tol * 4
        careful |= ~sep_face & degenerate.any(axis=1)
        return {"intersects": intersects.astype(float)}, careful

    out, careful = _run("obb_obb", n, solve, {"intersects": ()}, ins)

    def make(i):
        return ("separating_axis", OBB(C0[i], A0[i], E0[i]), OBB(C1[i], A1[i], E1[i]), ())

    _scalar_rows(out, careful, lambda r: {"intersects": r.intersects}, make)
    out["intersects"] = out["intersects"] == 1
    return Batch(out, careful)


def sphere_aabb(center, radius, bmin, bmax) -> Batch:
    """Does the solid sphere meet the solid AABB: Arvo's ``dmin <= r^2`` (GTCG §11.12.8);
    also ``distance`` (``sqrt(dmin) - r``, at least 0). The filter: ``sqrt(dmin)`` within
    rounding of ``r``."""
    from algorithms.primitives import AABB, Sphere

    n = _rows(center, bmin, bmax)
    c_ = _arr(center, n)
    r_ = np.broadcast_to(np.asarray(radius, dtype=float), (n,))
    ins = [c_, r_, _arr(bmin, n), _arr(bmax, n)]

    def solve(c, r, lo, hi):
        q = np.clip(c, lo, hi)
        w = c - q
        dmin = _dot(w, w)
        gap = np.sqrt(dmin)
        tol = FILTER_ULPS * EPS * _scale(c, r, lo, hi)
        careful = np.abs(gap - r) <= tol
        return {"intersects": (dmin <= r * r).astype(float),
                "distance": np.maximum(gap - r, 0.0)}, careful

    out, careful = _run("sphere_aabb", n, solve, {"intersects": (), "distance": ()}, ins)

    def make(i):
        return "intersects", Sphere(c_[i], float(r_[i])), AABB(ins[2][i], ins[3][i]), ()

    def answer(r):
        return {"intersects": r.intersects}

    _scalar_rows(out, careful, answer, make)
    for i in np.flatnonzero(careful):
        from algorithms.registry import query

        out["distance"][i] = query("distance", Sphere(c_[i], float(r_[i])),
                                   AABB(ins[2][i], ins[3][i])).distance
    out["intersects"] = out["intersects"] == 1
    return Batch(out, careful)


# ----------------------------------------------------------------------------- closest points


def point_aabb(q, bmin, bmax) -> Batch:
    """Closest point of the solid AABB to ``q`` (Primer App. A.5: clamp each coordinate):
    ``closest`` and ``distance``. Clamping is exact, so no row needs the careful path."""
    n = _rows(q, bmin, bmax)
    ins = [_arr(v, n) for v in (q, bmin, bmax)]

    def solve(q, lo, hi):
        p = np.minimum(np.maximum(q, lo), hi)
        w = p - q
        return {"closest": p, "distance": np.sqrt(_dot(w, w))}, np.zeros(len(q), bool)

    out, careful = _run("point_aabb", n, solve, {"closest": (3,), "distance": ()}, ins)
    return Batch(out, careful)


def point_triangle(q, v0, v1, v2) -> Batch:
    """Closest point of the filled triangle to ``q``: Ericson, RTCD §5.1.5
    (``ClosestPtPointTriangle``, Voronoi regions of the vertices, edges and face), vectorised
    with ``np.select``: ``closest``, ``distance``. The filter: a degenerate (nearly collinear)
    triangle, or a distance within rounding of 0 (the scalar reports ``q`` itself)."""
    from algorithms.primitives import Point, Triangle

    n = _rows(q, v0, v1, v2)
    ins = [_arr(v, n) for v in (q, v0, v1, v2)]

    def solve(p, a, b, c):
        ab, ac, ap = b - a, c - a, p - a
        d1, d2 = _dot(ab, ap), _dot(ac, ap)
        bp = p - b
        d3, d4 = _dot(ab, bp), _dot(ac, bp)
        cp = p - c
        d5, d6 = _dot(ab, cp), _dot(ac, cp)
        vc = d1 * d4 - d3 * d2
        vb = d5 * d2 - d1 * d6
        va = d3 * d6 - d5 * d4
        with np.errstate(all="ignore"):
            v_ab = d1 / (d1 - d3)
            w_ac = d2 / (d2 - d6)
            w_bc = (d4 - d3) / ((d4 - d3) + (d5 - d6))
            denom = 1.0 / (va + vb + vc)
            v, w = vb * denom, vc * denom
        conds = [(d1 <= 0) & (d2 <= 0), (d3 >= 0) & (d4 <= d3), (vc <= 0) & (d1 >= 0) & (d3 <= 0),
                 (d6 >= 0) & (d5 <= d6), (vb <= 0) & (d2 >= 0) & (d6 <= 0),
                 (va <= 0) & ((d4 - d3) >= 0) & ((d5 - d6) >= 0)]
        choices = [a, b, a + ab * v_ab[:, None], c, a + ac * w_ac[:, None],
                   b + (c - b) * w_bc[:, None]]
        conds3 = [np.repeat(k[:, None], 3, axis=1) for k in conds]
        closest = np.select(conds3, choices, a + ab * v[:, None] + ac * w[:, None])
        diff = closest - p
        dist = np.sqrt(_dot(diff, diff))
        nrm = _cross(ab, ac)
        careful = ~(_dot(nrm, nrm) > 1e-12 * _dot(ab, ab) * _dot(ac, ac))
        careful |= dist <= FILTER_ULPS * EPS * _scale(p, a, b, c)
        return {"closest": closest, "distance": dist}, careful

    out, careful = _run("point_triangle", n, solve, {"closest": (3,), "distance": ()}, ins)

    def make(i):
        return "distance", Point(ins[0][i]), Triangle((ins[1][i], ins[2][i], ins[3][i])), ()

    _scalar_rows(out, careful, lambda r: {"closest": r.closest[1], "distance": r.distance}, make)
    return Batch(out, careful)


# ----------------------------------------------------------------------------- time of impact


def moving_spheres(c0, r0, c1, r1, motion) -> Batch:
    """Time of impact of sphere B (``c1``, ``r1``) moving by ``t * motion``, ``t`` in
    ``[0, 1]``, against the still sphere A (Primer App. A.13: the smaller root
    ``(e.e - r^2) / (e.d_hat + sqrt(...))``): ``toi`` (nan: no contact; 0: they intersect),
    ``point`` and ``normal`` (from A towards B) at the contact. The filter: touching at
    ``t = 0``, a grazing path (small radicand), a contact near ``t = 1``, no motion."""
    from algorithms.primitives import Sphere

    n = _rows(c0, c1, motion)
    C0, C1, D = (_arr(v, n) for v in (c0, c1, motion))
    R0 = np.broadcast_to(np.asarray(r0, dtype=float), (n,))
    R1 = np.broadcast_to(np.asarray(r1, dtype=float), (n,))
    ins = [C0, R0, C1, R1, D]

    def solve(cs, rs, cm, rm, d):
        e = cs - cm
        r = rm + rs
        ee = _dot(e, e)
        ell = np.sqrt(_dot(d, d))
        tol = FILTER_ULPS * EPS
        with np.errstate(all="ignore"):
            dh = d / ell[:, None]
            ed = _dot(e, dh)
            disc = ed * ed + r * r - ee
            s = np.sqrt(np.maximum(disc, 0))
            t = (ee - r * r) / (ed + s)
            ok = (ee > r * r) & (ell > 0) & (disc >= 0) & (ed > 0) & (t <= ell)
            toi = np.where(ee <= r * r, 0.0, np.where(ok, np.minimum(1.0, t / ell), np.nan))
            ct = cm + np.nan_to_num(toi)[:, None] * d
            u = ct - cs
            normal = u / np.sqrt(_dot(u, u))[:, None]
            point = cs + rs[:, None] * normal
        point[~ok] = np.nan
        normal[~ok] = np.nan
        inside = ee <= r * r  # on the centre line, inside both balls; no normal
        with np.errstate(all="ignore"):
            w = np.where(r > 0, rs / r, 0.0)
        point[inside] = (cs - w[:, None] * e)[inside]
        scale = _scale(cs, cm, d, r)
        careful = np.abs(np.sqrt(ee) - r) <= tol * scale
        careful |= np.abs(disc) <= tol * (ee + r * r)
        careful |= ok & (np.abs(t - ell) <= tol * scale)
        careful |= ~(ell > tol * scale) & ~(ee <= r * r)
        careful |= ok & ~(r > 0)
        return {"toi": toi, "point": point, "normal": normal}, careful

    out, careful = _run("moving_spheres", n, solve, {"toi": (), "point": (3,), "normal": (3,)},
                        ins)

    def make(i):
        return ("toi", Sphere(C0[i], float(R0[i])), Sphere(C1[i], float(R1[i])), (tuple(D[i]),))

    _scalar_rows(out, careful, lambda r: {"toi": r.toi, "point": _nan3(r.point),
                                          "normal": _nan3(r.normal)}, make)
    return Batch(out, careful)


def moving_aabbs(min0, max0, min1, max1, motion) -> Batch:
    """Time of impact of AABB B moving by ``t * motion`` against the still AABB A (Primer
    App. A.17, Listing A.5: per axis ``[t_enter, t_leave]``, intersected with ``[0, 1]``):
    ``toi``, ``point`` (centre of the contact region) and ``normal`` (the axis entered last;
    nan when they overlap at ``t = 0``). The same arithmetic as the scalar function, so no
    row needs the careful path."""
    n = _rows(min0, max0, min1, max1, motion)
    ins = [_arr(v, n) for v in (min0, max0, min1, max1, motion)]

    def solve(smin, smax, mmin, mmax, d):
        m = len(d)
        par = d == 0
        with np.errstate(all="ignore"):
            a, b = (smin - mmax) / d, (smax - mmin) / d
        overlap = (mmin <= smax) & (mmax >= smin)
        te = np.where(par, np.where(overlap, -np.inf, np.inf), np.minimum(a, b))
        tl = np.where(par, np.where(overlap, np.inf, -np.inf), np.maximum(a, b))
        axis = np.argmax(te, axis=1)
        rows = np.arange(m)
        temax = te[rows, axis]
        t_enter = np.maximum(temax, 0.0)
        t_leave = np.minimum(tl.min(axis=1), 1.0)
        ok = t_enter <= t_leave
        toi = np.where(ok, t_enter, np.nan)
        tt = np.nan_to_num(toi)[:, None]
        point = (np.maximum(smin, mmin + tt * d) + np.minimum(smax, mmax + tt * d)) / 2
        normal = np.zeros((m, 3))
        normal[rows, axis] = np.where(d[rows, axis] > 0, -1.0, 1.0)
        normal[~(temax > 0) | ~ok] = np.nan
        point[~ok] = np.nan
        return {"toi": toi, "point": point, "normal": normal}, np.zeros(m, bool)

    out, careful = _run("moving_aabbs", n, solve, {"toi": (), "point": (3,), "normal": (3,)},
                        ins)
    return Batch(out, careful)
