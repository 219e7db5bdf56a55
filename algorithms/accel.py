"""Optional compiled row loops for :mod:`algorithms.batch` (numba), with numpy as the fallback.

:mod:`algorithms.batch` is numpy first: every function works through its rows in chunks of
array operations, and that code is the reference. When `numba <https://numba.pydata.org>`_ is
installed (``pip install "intersection-explorer[fast]"``), the functions listed in
:data:`KERNELS` run instead the loops below, compiled on first use (and cached on disk). Each
loop computes, per row, the same formulas in the same order as the numpy code of
:mod:`algorithms.batch` (plain IEEE doubles: numba does not contract ``a * b + c`` into a fused
multiply-add without ``fastmath``), so the two paths give the same bits on every row and the same
``careful`` mask (``tests/algorithms/test_batch.py`` runs every batch test on both paths and
compares them row by row). What a loop saves is numpy's temporaries: one pass over the rows in
registers instead of ~40 array passes.

Set ``INTERSECTION_EXPLORER_NUMBA=0`` to use numpy even where numba is installed, or use
:func:`disabled` in code. Nothing here is imported by ``import algorithms``: numba (and its
LLVM) loads on the first batch call that can use it.

Every loop follows its numpy twin's docstring in :mod:`algorithms.batch` (the books' sections
are cited there); the names match that code (``a b c e f det`` of Ericson's §5.1.9, ``t_enter``,
``t_leave`` of Woo's slabs...).
"""

from __future__ import annotations

import math
import os
import sys
from contextlib import contextmanager

import numpy as np

EPS = sys.float_info.epsilon
#: ``algorithms.batch.FILTER_ULPS * EPS``: the filter's relative band (kept equal by a test)
K = float(1 << 20) * EPS
INF = math.inf
NAN = math.nan

#: the batch functions with a loop below (``_`` + name): all ten
KERNELS = ("segment_segment", "linear_aabb", "linear_sphere", "linear_triangle", "obb_obb",
           "sphere_aabb", "point_aabb", "point_triangle", "moving_spheres", "moving_aabbs")

_compiled: dict = {}
_switch = {"off": 0}


def available() -> bool:
    """True when numba can be imported (whether or not it is switched off)."""
    try:
        import numba  # noqa: F401
    except Exception:  # noqa: BLE001 - any failure to import means: use numpy
        return False
    return True


def enabled() -> bool:
    """True when the batch functions run the compiled loops: numba is installed, the
    environment does not say ``INTERSECTION_EXPLORER_NUMBA=0`` and :func:`disabled` is not
    active."""
    if _switch["off"] or os.environ.get("INTERSECTION_EXPLORER_NUMBA", "1") == "0":
        return False
    return available()


@contextmanager
def disabled():
    """Within the block, :mod:`algorithms.batch` uses its numpy code only."""
    _switch["off"] += 1
    try:
        yield
    finally:
        _switch["off"] -= 1


def kernel(name: str):
    """The compiled loop for the batch function ``name``, or ``None`` (numpy then)."""
    if name not in KERNELS or not enabled():
        return None
    fn = _compiled.get(name)
    if fn is None:
        import numba

        g = globals()
        for helper in _HELPERS:  # compiled into the loops (the Python ones are replaced)
            if not isinstance(g[helper], numba.core.registry.CPUDispatcher):
                g[helper] = numba.njit(inline="always", error_model="numpy")(g[helper])
        fn = _compiled[name] = numba.njit(cache=True, nogil=True, error_model="numpy")(
            g["_" + name])
    return fn


# ----------------------------------------------------------------------------- helpers
# numpy's semantics for the few operations where Python's differ: nan propagates through
# minimum/maximum, argmax picks the first nan or the first maximum, sort puts nan last.


def _mn(a, b):
    if a != a or b != b:
        return NAN
    return a if a <= b else b


def _mx(a, b):
    if a != a or b != b:
        return NAN
    return a if a >= b else b


def _clip01(x):
    return _mn(_mx(x, 0.0), 1.0)


def _scale4(i, p, q, r, s):
    """Per row the largest absolute coordinate of four (N, 3) arrays (at least 1e-300)."""
    m = 0.0
    for v in (p, q, r, s):
        for k in range(3):
            m = _mx(m, abs(v[i, k]))
    return _mx(m, 1e-300)


def _lt_nanlast(a, b):
    return a < b or (b != b and a == a)


def _slab(lo, hi, d, inside):
    """One axis of a slab test: the interval of ``t`` with ``lo <= t d <= hi`` (``lo``, ``hi``
    relative to the start), everything or nothing when ``d == 0`` (``inside``: the start is
    in the slab). Woo's slabs (App. A.18) and the moving boxes' per-axis times (App. A.17)."""
    if d == 0:
        return (-INF, INF) if inside else (INF, -INF)
    t1 = lo / d
    t2 = hi / d
    return _mn(t1, t2), _mx(t1, t2)


def _argmax3(v):
    """np.argmax of a 3-vector: the first nan, else the first maximum."""
    ax = 0
    for k in (1, 2):
        if v[ax] != v[ax]:
            break
        if v[k] != v[k] or v[k] > v[ax]:
            ax = k
    return ax


_HELPERS = ("_mn", "_mx", "_clip01", "_scale4", "_lt_nanlast", "_slab", "_argmax3")


# ----------------------------------------------------------------------------- the loops


def _segment_segment(p0, p1, q0, q1, dist, S, T, ca, cb, careful):
    """batch._segseg_chunk per row (Ericson RTCD §5.1.9)."""
    for i in range(p0.shape[0]):
        d10 = p1[i, 0] - p0[i, 0]
        d11 = p1[i, 1] - p0[i, 1]
        d12 = p1[i, 2] - p0[i, 2]
        d20 = q1[i, 0] - q0[i, 0]
        d21 = q1[i, 1] - q0[i, 1]
        d22 = q1[i, 2] - q0[i, 2]
        r0 = p0[i, 0] - q0[i, 0]
        r1 = p0[i, 1] - q0[i, 1]
        r2 = p0[i, 2] - q0[i, 2]
        a = d10 * d10 + d11 * d11 + d12 * d12
        e = d20 * d20 + d21 * d21 + d22 * d22
        b = d10 * d20 + d11 * d21 + d12 * d22
        c = d10 * r0 + d11 * r1 + d12 * r2
        f = d20 * r0 + d21 * r1 + d22 * r2
        n0 = d11 * d22 - d12 * d21
        n1 = d12 * d20 - d10 * d22
        n2 = d10 * d21 - d11 * d20
        det = n0 * n0 + n1 * n1 + n2 * n2
        sc = _scale4(i, p0, p1, q0, q1)
        bad = not (det > 1e-6 * a * e) or not (a > 0) or not (e > 0)
        s = _clip01((b * f - c * e) / det)
        t = (b * s + f) / e
        if t < 0:
            s = _clip01(-c / a)
        elif t > 1:
            s = _clip01((b - c) / a)
        t = _clip01(t)
        a0 = p0[i, 0] + d10 * s
        a1 = p0[i, 1] + d11 * s
        a2 = p0[i, 2] + d12 * s
        b0 = q0[i, 0] + d20 * t
        b1 = q0[i, 1] + d21 * t
        b2 = q0[i, 2] + d22 * t
        w0, w1, w2 = a0 - b0, a1 - b1, a2 - b2
        d = math.sqrt(w0 * w0 + w1 * w1 + w2 * w2)
        bad = bad or not (d > K * sc) or not math.isfinite(d)
        dist[i], S[i], T[i], careful[i] = d, s, t, bad
        ca[i, 0], ca[i, 1], ca[i, 2] = a0, a1, a2
        cb[i, 0], cb[i, 1], cb[i, 2] = b0, b1, b2


def _linear_aabb(o, d, lo, hi, hi_t, hit_out, t_out, point, normal, careful):
    """batch.linear_aabb's ``solve`` per row (Woo's slabs, Primer App. A.18)."""
    near = np.empty(3)
    far = np.empty(3)
    for i in range(o.shape[0]):
        tol = K * _scale4(i, o, d, lo, hi)
        inside = True
        any_par = False
        for k in range(3):
            inslab = lo[i, k] <= o[i, k] and o[i, k] <= hi[i, k]
            inside = inside and inslab
            any_par = any_par or d[i, k] == 0
            near[k], far[k] = _slab(lo[i, k] - o[i, k], hi[i, k] - o[i, k], d[i, k], inslab)
        ax = _argmax3(near)
        t_enter = near[ax]
        t_leave = _mn(_mn(far[0], far[1]), far[2])
        hit = inside or (t_enter <= t_leave and t_enter >= 0 and t_enter <= hi_t)
        tt = 0.0 if inside else t_enter
        hit_out[i] = 1.0 if hit else 0.0
        t_out[i] = tt if hit else NAN
        for k in range(3):
            point[i, k] = o[i, k] + d[i, k] * tt if hit else NAN
            normal[i, k] = 0.0
        normal[i, ax] = -1.0 if d[i, ax] > 0 else 1.0
        if not hit or inside:
            for k in range(3):
                normal[i, k] = NAN
        # the filter
        dmin = INF
        dmax = 0.0
        small = False
        edge = False
        for k in range(3):
            adk = abs(d[i, k])
            dmin = _mn(dmin, INF if d[i, k] == 0 else adk)
            dmax = _mx(dmax, adk) if k else adk
            small = small or adk <= tol
            edge = edge or abs(o[i, k] - lo[i, k]) <= tol or abs(o[i, k] - hi[i, k]) <= tol
        tol_t = 8 * tol / _mn(dmin, dmax)
        x, y, z = near[0], near[1], near[2]  # the middle of three, nan last (np.sort)
        if _lt_nanlast(y, x):
            x, y = y, x
        if _lt_nanlast(z, y):
            y, z = z, y
            if _lt_nanlast(y, x):
                x, y = y, x
        gap = abs(t_enter - y)
        bad = edge or (small and not any_par) or not (dmax > 0)
        bad = bad or (not inside and gap <= tol_t)
        bad = bad or (not inside and abs(t_enter - t_leave) <= tol_t)
        bad = bad or (not inside and abs(t_enter) <= tol_t)
        if hi_t != INF:
            bad = bad or (not inside and abs(t_enter - hi_t) <= tol_t)
        bad = bad or (not math.isfinite(tol_t) and not inside and hit)
        careful[i] = bad


def _linear_sphere(o, d, c, r, hi_t, hit_out, t_out, point, normal, careful):
    """batch.linear_sphere's ``solve`` per row (Hultquist, Primer App. A.12)."""
    tol = K
    for i in range(o.shape[0]):
        ri = r[i]
        scale = 0.0
        for v in (o, d, c):
            for k in range(3):
                scale = _mx(scale, abs(v[i, k]))
        scale = _mx(_mx(scale, abs(ri)), 1e-300)
        e0, e1, e2_ = c[i, 0] - o[i, 0], c[i, 1] - o[i, 1], c[i, 2] - o[i, 2]
        dx, dy, dz = d[i, 0], d[i, 1], d[i, 2]
        e2 = e0 * e0 + e1 * e1 + e2_ * e2_
        r2 = ri * ri
        dd = dx * dx + dy * dy + dz * dz
        ed = e0 * dx + e1 * dy + e2_ * dz
        x0 = e1 * dz - e2_ * dy
        x1 = e2_ * dx - e0 * dz
        x2 = e0 * dy - e1 * dx
        exd2 = x0 * x0 + x1 * x1 + x2 * x2
        disc = dd * r2 - exd2
        inside = e2 < r2
        sq = math.sqrt(_mx(disc, 0.0))
        if ed >= 0:
            q = ed + sq
            t_in = (e2 - r2) / q if q > 0 else (ed - sq) / dd
            t_o = q / dd
        else:
            q = ed - sq
            t_in = q / dd
            t_o = (e2 - r2) / q
        hit = inside or (disc >= 0 and t_in >= 0 and t_in <= hi_t)
        hit = hit and (not inside or t_o >= 0)
        tt = 0.0 if inside else t_in
        hit_out[i] = 1.0 if hit else 0.0
        t_out[i] = tt if hit else NAN
        tp = tt if hit else 0.0
        for k in range(3):
            pk = o[i, k] + d[i, k] * tp
            nk = (pk - c[i, k]) / ri
            point[i, k] = pk if hit else NAN
            normal[i, k] = nk if hit and not inside else NAN
        bad = not (ri > tol * scale) or not (dd > 0)
        bad = bad or abs(disc) <= tol * (dd * r2 + exd2)
        bad = bad or abs(e2 - r2) <= tol * (e2 + r2)
        tol_t = tol * scale / math.sqrt(dd) * 8
        bad = bad or (not inside and abs(t_in) <= tol_t)
        if hi_t != INF:
            bad = bad or (not inside and abs(t_in - hi_t) <= tol_t)
        careful[i] = bad


def _linear_triangle(o, d, p0, p1, p2, hi_t, hit_out, t_out, point, normal, careful):
    """batch.linear_triangle's ``solve`` per row (Badouel, Primer App. A.16)."""
    tol = K
    pp = np.empty(3)
    for i in range(o.shape[0]):
        scale = _scale4(i, o, d, p0, p1)
        for k in range(3):
            scale = _mx(scale, abs(p2[i, k]))
        e10, e11, e12 = p1[i, 0] - p0[i, 0], p1[i, 1] - p0[i, 1], p1[i, 2] - p0[i, 2]
        e20, e21, e22 = p2[i, 0] - p1[i, 0], p2[i, 1] - p1[i, 1], p2[i, 2] - p1[i, 2]
        n0 = e11 * e22 - e12 * e21
        n1 = e12 * e20 - e10 * e22
        n2 = e10 * e21 - e11 * e20
        nn = n0 * n0 + n1 * n1 + n2 * n2
        dot = n0 * d[i, 0] + n1 * d[i, 1] + n2 * d[i, 2]
        dd = d[i, 0] * d[i, 0] + d[i, 1] * d[i, 1] + d[i, 2] * d[i, 2]
        np0 = n0 * p0[i, 0] + n1 * p0[i, 1] + n2 * p0[i, 2]
        no = n0 * o[i, 0] + n1 * o[i, 1] + n2 * o[i, 2]
        t = (np0 - no) / dot
        for k in range(3):
            pp[k] = o[i, k] + d[i, k] * t
        # barycentrics by signed sub-areas along n (Ericson §3.4)
        u0, u1, u2 = p1[i, 0] - pp[0], p1[i, 1] - pp[1], p1[i, 2] - pp[2]
        v0, v1, v2 = p2[i, 0] - pp[0], p2[i, 1] - pp[1], p2[i, 2] - pp[2]
        w0, w1, w2 = p0[i, 0] - pp[0], p0[i, 1] - pp[1], p0[i, 2] - pp[2]
        c0 = n0 * (u1 * v2 - u2 * v1) + n1 * (u2 * v0 - u0 * v2) + n2 * (u0 * v1 - u1 * v0)
        c1 = n0 * (v1 * w2 - v2 * w1) + n1 * (v2 * w0 - v0 * w2) + n2 * (v0 * w1 - v1 * w0)
        b0 = c0 / nn
        b1 = c1 / nn
        b2 = 1.0 - b0 - b1
        nlen = math.sqrt(nn)
        div = nlen if dot < 0 else -nlen
        bmin = _mn(_mn(b0, b1), b2)
        hit = t >= 0 and t <= hi_t and bmin >= 0 and dot != 0
        ee1 = e10 * e10 + e11 * e11 + e12 * e12
        ee2 = e20 * e20 + e21 * e21 + e22 * e22
        bad = not (nn > 1e-12 * ee1 * ee2)
        bad = bad or not (abs(dot) > 1e-6 * math.sqrt(nn * dd))
        bad = bad or abs(bmin) <= tol * 64
        tol_t = tol * scale / math.sqrt(dd) * 64
        bad = bad or abs(t) <= tol_t
        if hi_t != INF:
            bad = bad or abs(t - hi_t) <= tol_t
        bad = bad or not math.isfinite(t)
        careful[i] = bad
        hit_out[i] = 1.0 if hit else 0.0
        t_out[i] = t if hit else NAN
        point[i, 0] = pp[0] if hit else NAN
        point[i, 1] = pp[1] if hit else NAN
        point[i, 2] = pp[2] if hit else NAN
        normal[i, 0] = n0 / div if hit else NAN
        normal[i, 1] = n1 / div if hit else NAN
        normal[i, 2] = n2 / div if hit else NAN


def _obb_obb(c0, a0, e0, c1, a1, e1, inter, careful):
    """batch.obb_obb's ``solve`` per row (Gottschalk's 15 axes, GTCG §11.12.7)."""
    axes = np.empty((15, 3))
    for i in range(c0.shape[0]):
        tol = K * _scale4(i, c0, c1, e0, e1)
        T = (c1[i, 0] - c0[i, 0], c1[i, 1] - c0[i, 1], c1[i, 2] - c0[i, 2])
        for k in range(3):
            for j in range(3):
                axes[k, j] = a0[i, k, j]
                axes[3 + k, j] = a1[i, k, j]
        for p in range(3):
            for q in range(3):
                k = 6 + 3 * p + q
                axes[k, 0] = a0[i, p, 1] * a1[i, q, 2] - a0[i, p, 2] * a1[i, q, 1]
                axes[k, 1] = a0[i, p, 2] * a1[i, q, 0] - a0[i, p, 0] * a1[i, q, 2]
                axes[k, 2] = a0[i, p, 0] * a1[i, q, 1] - a0[i, p, 1] * a1[i, q, 0]
        sep_face = False
        any_degenerate = False
        best = -INF
        for k in range(15):
            L = axes[k]  # a row view
            rA = 0.0
            rB = 0.0
            for m in range(3):
                pa = abs(L[0] * a0[i, m, 0] + L[1] * a0[i, m, 1] + L[2] * a0[i, m, 2])
                pb = abs(L[0] * a1[i, m, 0] + L[1] * a1[i, m, 1] + L[2] * a1[i, m, 2])
                rA = pa * e0[i, m] if m == 0 else rA + pa * e0[i, m]
                rB = pb * e1[i, m] if m == 0 else rB + pb * e1[i, m]
            dist = abs(L[0] * T[0] + L[1] * T[1] + L[2] * T[2])
            length = math.sqrt(L[0] * L[0] + L[1] * L[1] + L[2] * L[2])
            margin = dist - rA - rB
            if k < 6:
                sep_face = sep_face or margin > tol * 4
                good = True
            else:
                good = not (length <= 1e-4)
                any_degenerate = any_degenerate or not good
            val = margin / (length if length > 0 else 1.0) if good else -INF
            best = _mx(best, val)
        inter[i] = 0.0 if best > 0 else 1.0
        careful[i] = abs(best) <= tol * 4 or (not sep_face and any_degenerate)


def _sphere_aabb(c, r, lo, hi, inter, distance, careful):
    """batch.sphere_aabb's ``solve`` per row (Arvo, GTCG §11.12.8)."""
    for i in range(c.shape[0]):
        ri = r[i]
        dmin = 0.0
        scale = 0.0
        for k in range(3):
            q = _mn(_mx(c[i, k], lo[i, k]), hi[i, k])
            w = c[i, k] - q
            dmin = w * w if k == 0 else dmin + w * w
            scale = _mx(_mx(_mx(scale, abs(c[i, k])), abs(lo[i, k])), abs(hi[i, k]))
        scale = _mx(_mx(scale, abs(ri)), 1e-300)
        gap = math.sqrt(dmin)
        careful[i] = abs(gap - ri) <= K * scale
        inter[i] = 1.0 if dmin <= ri * ri else 0.0
        distance[i] = _mx(gap - ri, 0.0)


def _point_triangle(p, a, b, c, near_pt, distance, careful):
    """batch.point_triangle's ``solve`` per row (Ericson RTCD §5.1.5, the first Voronoi region
    that holds ``p`` in np.select's order)."""
    ab = np.empty(3)
    ac = np.empty(3)
    out = np.empty(3)
    for i in range(p.shape[0]):
        for k in range(3):
            ab[k] = b[i, k] - a[i, k]
            ac[k] = c[i, k] - a[i, k]
        ap = (p[i, 0] - a[i, 0], p[i, 1] - a[i, 1], p[i, 2] - a[i, 2])
        bp = (p[i, 0] - b[i, 0], p[i, 1] - b[i, 1], p[i, 2] - b[i, 2])
        cp = (p[i, 0] - c[i, 0], p[i, 1] - c[i, 1], p[i, 2] - c[i, 2])
        d1 = ab[0] * ap[0] + ab[1] * ap[1] + ab[2] * ap[2]
        d2 = ac[0] * ap[0] + ac[1] * ap[1] + ac[2] * ap[2]
        d3 = ab[0] * bp[0] + ab[1] * bp[1] + ab[2] * bp[2]
        d4 = ac[0] * bp[0] + ac[1] * bp[1] + ac[2] * bp[2]
        d5 = ab[0] * cp[0] + ab[1] * cp[1] + ab[2] * cp[2]
        d6 = ac[0] * cp[0] + ac[1] * cp[1] + ac[2] * cp[2]
        vc = d1 * d4 - d3 * d2
        vb = d5 * d2 - d1 * d6
        va = d3 * d6 - d5 * d4
        if d1 <= 0 and d2 <= 0:
            for k in range(3):
                out[k] = a[i, k]
        elif d3 >= 0 and d4 <= d3:
            for k in range(3):
                out[k] = b[i, k]
        elif vc <= 0 and d1 >= 0 and d3 <= 0:
            v_ab = d1 / (d1 - d3)
            for k in range(3):
                out[k] = a[i, k] + ab[k] * v_ab
        elif d6 >= 0 and d5 <= d6:
            for k in range(3):
                out[k] = c[i, k]
        elif vb <= 0 and d2 >= 0 and d6 <= 0:
            w_ac = d2 / (d2 - d6)
            for k in range(3):
                out[k] = a[i, k] + ac[k] * w_ac
        elif va <= 0 and (d4 - d3) >= 0 and (d5 - d6) >= 0:
            w_bc = (d4 - d3) / ((d4 - d3) + (d5 - d6))
            for k in range(3):
                out[k] = b[i, k] + (c[i, k] - b[i, k]) * w_bc
        else:
            denom = 1.0 / (va + vb + vc)
            v = vb * denom
            w = vc * denom
            for k in range(3):
                out[k] = a[i, k] + ab[k] * v + ac[k] * w
        x0, x1, x2 = out[0] - p[i, 0], out[1] - p[i, 1], out[2] - p[i, 2]
        dist = math.sqrt(x0 * x0 + x1 * x1 + x2 * x2)
        n0 = ab[1] * ac[2] - ab[2] * ac[1]
        n1 = ab[2] * ac[0] - ab[0] * ac[2]
        n2 = ab[0] * ac[1] - ab[1] * ac[0]
        nn = n0 * n0 + n1 * n1 + n2 * n2
        abab = ab[0] * ab[0] + ab[1] * ab[1] + ab[2] * ab[2]
        acac = ac[0] * ac[0] + ac[1] * ac[1] + ac[2] * ac[2]
        bad = not (nn > 1e-12 * abab * acac)
        careful[i] = bad or dist <= K * _scale4(i, p, a, b, c)
        distance[i] = dist
        for k in range(3):
            near_pt[i, k] = out[k]


def _moving_spheres(cs, rs, cm, rm, d, toi, point, normal, careful):
    """batch.moving_spheres's ``solve`` per row (Primer App. A.13)."""
    tol = K
    for i in range(cs.shape[0]):
        e0, e1, e2 = cs[i, 0] - cm[i, 0], cs[i, 1] - cm[i, 1], cs[i, 2] - cm[i, 2]
        r = rm[i] + rs[i]
        ee = e0 * e0 + e1 * e1 + e2 * e2
        ell = math.sqrt(d[i, 0] * d[i, 0] + d[i, 1] * d[i, 1] + d[i, 2] * d[i, 2])
        ed = e0 * (d[i, 0] / ell) + e1 * (d[i, 1] / ell) + e2 * (d[i, 2] / ell)
        disc = ed * ed + r * r - ee
        s = math.sqrt(_mx(disc, 0.0))
        t = (ee - r * r) / (ed + s)
        inside = ee <= r * r
        ok = (ee > r * r) and (ell > 0) and (disc >= 0) and (ed > 0) and (t <= ell)
        if inside:
            ti = 0.0
        elif ok:
            ti = _mn(1.0, t / ell)
        else:
            ti = NAN
        toi[i] = ti
        tt = 0.0 if ti != ti else ti
        u0 = cm[i, 0] + tt * d[i, 0] - cs[i, 0]
        u1 = cm[i, 1] + tt * d[i, 1] - cs[i, 1]
        u2 = cm[i, 2] + tt * d[i, 2] - cs[i, 2]
        ul = math.sqrt(u0 * u0 + u1 * u1 + u2 * u2)
        nrm = (u0 / ul, u1 / ul, u2 / ul)
        w = rs[i] / r if r > 0 else 0.0
        ev = (e0, e1, e2)
        for k in range(3):
            normal[i, k] = nrm[k] if ok else NAN
            pk = cs[i, k] + rs[i] * nrm[k] if ok else NAN
            point[i, k] = cs[i, k] - w * ev[k] if inside else pk
        scale = 0.0
        for v in (cs, cm, d):
            for k in range(3):
                scale = _mx(scale, abs(v[i, k]))
        scale = _mx(_mx(scale, abs(r)), 1e-300)
        bad = abs(math.sqrt(ee) - r) <= tol * scale
        bad = bad or abs(disc) <= tol * (ee + r * r)
        bad = bad or (ok and abs(t - ell) <= tol * scale)
        bad = bad or (not (ell > tol * scale) and not inside)
        bad = bad or (ok and not (r > 0))
        careful[i] = bad


def _moving_aabbs(smin, smax, mmin, mmax, d, toi, point, normal, careful):
    """batch.moving_aabbs's ``solve`` per row (Primer App. A.17, Listing A.5)."""
    te = np.empty(3)
    tl = np.empty(3)
    for i in range(d.shape[0]):
        for k in range(3):
            overlap = mmin[i, k] <= smax[i, k] and mmax[i, k] >= smin[i, k]
            te[k], tl[k] = _slab(smin[i, k] - mmax[i, k], smax[i, k] - mmin[i, k], d[i, k],
                                 overlap)
        ax = _argmax3(te)
        temax = te[ax]
        t_enter = _mx(temax, 0.0)
        t_leave = _mn(_mn(_mn(tl[0], tl[1]), tl[2]), 1.0)
        ok = t_enter <= t_leave
        ti = t_enter if ok else NAN
        toi[i] = ti
        tt = 0.0 if ti != ti else ti
        for k in range(3):
            pk = (_mx(smin[i, k], mmin[i, k] + tt * d[i, k])
                  + _mn(smax[i, k], mmax[i, k] + tt * d[i, k])) / 2
            point[i, k] = pk if ok else NAN
            normal[i, k] = 0.0
        normal[i, ax] = -1.0 if d[i, ax] > 0 else 1.0
        if not (temax > 0) or not ok:
            for k in range(3):
                normal[i, k] = NAN
        careful[i] = False


def _point_aabb(q, lo, hi, near_pt, distance, careful):
    """batch.point_aabb's ``solve`` per row (Primer App. A.5: clamp each coordinate)."""
    for i in range(q.shape[0]):
        dd = 0.0
        for k in range(3):
            pk = _mn(_mx(q[i, k], lo[i, k]), hi[i, k])
            w = pk - q[i, k]
            dd = w * w if k == 0 else dd + w * w
            near_pt[i, k] = pk
        distance[i] = math.sqrt(dd)
        careful[i] = False
