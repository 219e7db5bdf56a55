"""Support functions of the bounded convex primitives.

The support point ``s_C(d)`` of a convex set ``C`` in direction ``d`` is a point of ``C`` that
maximises ``d . x``; the support value is ``h_C(d) = max_x d . x``. They are the only
geometry GJK needs (Gilbert, Johnson & Keerthi 1988; van den Bergen, *Collision Detection in
Interactive 3D Environments*, §4.3) and they give the projection interval of a shape on an axis
that the separating-axis tests use (Eberly & Schneider, GTCG §11.12.9: the projection of a
cylinder on a line is ``[w.C - r_C, w.C + r_C]`` with
``r_C = r |W x w| + (h/2) |W . w|``, written here with ``|W x w| = sqrt(|w|^2 - (W.w)^2)``).

Exact, closed forms for: point, segment, triangle, sphere, aabb, obb, capsule and cylinder
(the farthest point of a cylinder lies on the rim of one end disk, or on the disk's centre
when ``d`` is parallel to the axis). Zero radius, zero height and zero extents are allowed.

``support(prim, d)`` never needs ``d`` to be unit; a zero ``d`` returns the shape's centre
(every point is then a maximiser). Unbounded kinds (ray, line, plane) raise ``ValueError``.

Examples
--------
>>> from algorithms.primitives import Sphere
>>> support(Sphere((1, 0, 0), 2), (0, 0, 5)).tolist()
[1.0, 0.0, 2.0]
>>> support_interval(Sphere((1, 0, 0), 2), (1, 0, 0))
(-1.0, 3.0)
"""

from __future__ import annotations

import math

import numpy as np

from algorithms.core.tolerance import PARALLEL_SIN, unit_np
from algorithms.core.vec import dot3
from algorithms.primitives import Primitive

#: kinds with a support function
BOUNDED_KINDS = ("point", "segment", "triangle", "sphere", "aabb", "obb", "capsule", "cylinder")


def _f(v) -> np.ndarray:
    return np.asarray(v, dtype=float)


def _unit_or_zero(d: np.ndarray) -> np.ndarray:
    """The unit ``d`` (:func:`algorithms.core.tolerance.unit_np`), or ``0`` for a zero ``d``:
    a round shape's support point is then its core's (every point maximises ``0 . x``)."""
    u = unit_np(d)
    return np.zeros(3) if u is None else u


def _farthest(points: np.ndarray, d: np.ndarray) -> np.ndarray:
    """The first of ``points`` (rows) with the largest ``d . p``."""
    return points[int(np.argmax(points @ d))].copy()


def _cylinder_rim(center, w, radius, height, d: np.ndarray, hw=None) -> np.ndarray:
    """Support of the cylinder: end disk picked by ``sign(d . w)``, rim point along the part
    of ``d`` perpendicular to the unit axis ``w`` (GTCG §11.12.9). ``hw``: ``(height / 2) *
    w`` when the caller has it."""
    # the dots summed from the left (core.vec.dot3), as support_fn's twin does: numpy's dot
    # may round the last bit otherwise (its kernels differ by CPU), and a d perpendicular to
    # the axis (d . w = 0 exactly from the left: (0, 3, 3) against (1, 3, -3) / sqrt(19))
    # then picked an end disk here and the centre there (the long fuzz, seed 5)
    dw = float(dot3(d, w))
    if dw > 0:
        p = center + ((height / 2) * w if hw is None else hw)
    elif dw < 0:
        p = center - ((height / 2) * w if hw is None else hw)
    else:
        p = center.copy()
    perp = d - dw * w
    perp = perp - float(dot3(perp, w)) * w  # once more: when d is nearly along w, the first
    pn = math.sqrt(float(dot3(perp, perp)))  # subtraction leaves rounding noise with a w part
    # |perp| tiny relative to |d| means d is (numerically) along the axis: the whole end disk
    # is a maximiser and its centre is the stable choice (it loses at most r |perp|).
    if radius > 0 and pn > PARALLEL_SIN * math.sqrt(float(dot3(d, d))):  # d not along the axis
        s = radius / pn
        # (radius / pn overflows for a huge radius and a d close to the axis, 1e298 / 4e-11:
        # then the unit perp first, which no radius can overflow)
        p = p + (s * perp if s < math.inf else radius * (perp / pn))
    return p


def core(prim: Primitive) -> tuple[str, np.ndarray, float]:
    """The shape as a core plus a radius: ``("point", P, r)`` for a sphere,
    ``("segment", [P0, P1], r)`` for a capsule, ``(kind, None, 0.0)`` otherwise.

    GJK runs on the core and subtracts the radius, which is exact for the round shapes
    (van den Bergen §4.3.4: "core" objects).
    """
    if prim.kind == "sphere":
        return "point", _f(prim.center), float(prim.radius)
    if prim.kind == "capsule":
        return "segment", _f([prim.p0, prim.p1]), float(prim.radius)
    return prim.kind, None, 0.0


def support(prim: Primitive, direction) -> np.ndarray:
    """The farthest point of ``prim`` in ``direction``: a maximiser of ``direction . x``.

    Parameters
    ----------
    prim : Primitive
        A bounded kind: point, segment, triangle, sphere, aabb, obb, capsule, cylinder.
    direction : array_like, shape (3,)
        Any nonzero vector (need not be unit). For a zero vector the centre is returned.

    Returns
    -------
    numpy.ndarray, shape (3,)
        The support point (floats). Ties (a whole edge or face is farthest) resolve to a
        vertex for polytopes, except that an AABB/OBB axis with ``d_i == 0`` takes the
        centre's coordinate.
    """
    d = _f(direction)
    kind = prim.kind
    arr = prim.__dict__.get(_ARRAYS_KEY)
    if arr is None:
        arr = _arrays(prim)
    if kind == "point":
        return arr[0].copy()
    if kind == "segment" or kind == "triangle":
        return _farthest(arr[0], d)
    if kind == "sphere":
        return arr[0] + arr[1] * _unit_or_zero(d)
    if kind == "capsule":
        return _farthest(arr[0], d) + arr[1] * _unit_or_zero(d)
    if kind == "aabb":
        lo, hi, mid = arr
        return np.where(d > 0, hi, np.where(d < 0, lo, mid))
    if kind == "obb":
        axes, e, c = arr
        s = np.sign(axes @ d)
        return c + (s * e) @ axes
    if kind == "cylinder":
        c, w, r, h, hw = arr
        return _cylinder_rim(c, w, r, h, d, hw)
    raise ValueError(f"support: {kind!r} is unbounded or unknown (bounded: {BOUNDED_KINDS})")


#: where :func:`support` keeps a primitive's arrays on the (frozen) primitive: not a field,
#: so equality and hashing are unchanged
_ARRAYS_KEY = "_support_arrays"


def _ro(a: np.ndarray) -> np.ndarray:
    a.setflags(write=False)
    return a


def _arrays(prim: Primitive) -> tuple:
    """What :func:`support` reads of ``prim``, as the arrays (read-only) and floats it
    computed on every call before; built once per primitive (a scene's object meets every
    other one, GJK asks a support point some ten times per pair)."""
    kind = prim.kind
    if kind == "point":
        arr = (_ro(_f(prim.position)),)
    elif kind == "segment":
        arr = (_ro(_f([prim.p0, prim.p1])),)
    elif kind == "triangle":
        arr = (_ro(_f(prim.vertices)),)
    elif kind == "sphere":
        arr = (_ro(_f(prim.center)), float(prim.radius))
    elif kind == "capsule":
        arr = (_ro(_f([prim.p0, prim.p1])), float(prim.radius))
    elif kind == "aabb":
        lo, hi = _f(prim.min), _f(prim.max)
        arr = (_ro(lo), _ro(hi), _ro((lo + hi) / 2))
    elif kind == "obb":
        arr = (_ro(_f(prim.axes)), _ro(_f(prim.extents)), _ro(_f(prim.center)))
    elif kind == "cylinder":
        w = _ro(prim.unit_axis)
        h = float(prim.height)
        arr = (_ro(_f(prim.center)), w, float(prim.radius), h, _ro((h / 2) * w))
    else:
        raise ValueError(f"support: {kind!r} is unbounded or unknown (bounded: {BOUNDED_KINDS})")
    object.__setattr__(prim, _ARRAYS_KEY, arr)
    return arr


#: the filters of :func:`support_fn`: a plain 3-term dot product is within ``3.4e-16 S`` of
#: the exact one (``S`` the sum of the absolute products), and so is numpy's matrix-vector
#: product (OpenBLAS contracts it into fused multiply-adds: other bits); a margin of
#: ``4e-15 m |d|_1`` (``m`` the largest absolute entry of the points or axes) therefore
#: decides the same comparisons and signs; anything closer, and any overflow, underflow or
#: NaN, takes numpy's own computation
_MARGIN = 4e-15


def support_fn(prim: Primitive):
    """``d -> tuple(support(prim, d).tolist())`` without numpy for the 3-vector ``d`` (a tuple
    of floats): the same point (GJK asks some ten per pair). The element-wise steps and the
    1-D dot products are numpy's own operations in its order where numpy's ``u @ v`` of two
    3-vectors and ``v @ M`` sum ``u0 v0 + u1 v1 + u2 v2`` from the left, unfused (as on the
    AVX2 machine this was measured on: there the point is numpy's bit for bit); its
    matrix-vector products (a segment's or triangle's farthest vertex, an obb's signs) are
    fused, so their comparisons are filtered (:data:`_MARGIN`): a decision too close to call
    is numpy's own. A vertex is therefore always numpy's; an obb's or a cylinder's computed
    point may differ from numpy's in the last bits on a CPU whose numpy kernels round
    otherwise (tests/algorithms/kernels/test_support.py)."""
    kind = prim.kind
    arr = prim.__dict__.get(_ARRAYS_KEY)
    if arr is None:
        arr = _arrays(prim)

    def careful(d):
        return tuple(support(prim, d).tolist())

    if kind == "point":
        p = tuple(arr[0].tolist())
        return lambda d: p
    if kind == "segment" or kind == "triangle":
        pts = [tuple(r) for r in arr[0].tolist()]
        m = max(abs(c) for q in pts for c in q)
        if kind == "segment":
            (a0, a1, a2), (b0, b1, b2) = pts
            pa, pb = pts

            def seg(d):
                x, y, z = d
                ha = a0 * x + a1 * y + a2 * z
                hb = b0 * x + b1 * y + b2 * z
                bound = _MARGIN * m * ((x if x >= 0 else -x) + (y if y >= 0 else -y)
                                       + (z if z >= 0 else -z))
                if 1e-290 < bound < 1e290:
                    if ha - hb > bound:
                        return pa
                    if hb - ha > bound:
                        return pb
                return careful(d)
            return seg
        (a0, a1, a2), (b0, b1, b2), (c0, c1, c2) = pts
        pa, pb, pc = pts

        def tri(d):
            x, y, z = d
            ha = a0 * x + a1 * y + a2 * z
            hb = b0 * x + b1 * y + b2 * z
            hc = c0 * x + c1 * y + c2 * z
            bound = _MARGIN * m * ((x if x >= 0 else -x) + (y if y >= 0 else -y)
                                   + (z if z >= 0 else -z))
            if 1e-290 < bound < 1e290:
                if ha - hb > bound and ha - hc > bound:
                    return pa
                if hb - ha > bound and hb - hc > bound:
                    return pb
                if hc - ha > bound and hc - hb > bound:
                    return pc
            return careful(d)
        return tri
    if kind == "aabb":
        (lx, ly, lz), (hx, hy, hz), (mx, my, mz) = (tuple(a.tolist()) for a in arr)

        def box(d):
            x, y, z = d
            return (hx if x > 0 else (lx if x < 0 else mx),
                    hy if y > 0 else (ly if y < 0 else my),
                    hz if z > 0 else (lz if z < 0 else mz))
        return box
    if kind == "obb":
        axes, e, c = arr
        (u00, u01, u02), (u10, u11, u12), (u20, u21, u22) = axes.tolist()
        e0, e1, e2 = e.tolist()
        cx, cy, cz = c.tolist()
        m = max(abs(v) for v in axes.ravel().tolist())

        def obb(d):
            x, y, z = d
            bound = _MARGIN * m * ((x if x >= 0 else -x) + (y if y >= 0 else -y)
                                   + (z if z >= 0 else -z))
            h0 = u00 * x + u01 * y + u02 * z
            h1 = u10 * x + u11 * y + u12 * z
            h2 = u20 * x + u21 * y + u22 * z
            if not (1e-290 < bound < 1e290 and (h0 if h0 >= 0 else -h0) > bound
                    and (h1 if h1 >= 0 else -h1) > bound and (h2 if h2 >= 0 else -h2) > bound):
                return careful(d)
            # c + (s * e) @ axes, s the signs: numpy's vector-matrix sum from the left
            f0 = e0 if h0 > 0 else -e0
            f1 = e1 if h1 > 0 else -e1
            f2 = e2 if h2 > 0 else -e2
            return (cx + (f0 * u00 + f1 * u10 + f2 * u20), cy + (f0 * u01 + f1 * u11 + f2 * u21),
                    cz + (f0 * u02 + f1 * u12 + f2 * u22))
        return obb
    if kind == "cylinder":
        c, w, r, h, hw = arr
        cx, cy, cz = c.tolist()
        w0, w1, w2 = w.tolist()
        t0, t1, t2 = hw.tolist()
        top = (cx + t0, cy + t1, cz + t2)
        bot = (cx - t0, cy - t1, cz - t2)
        cen = (cx, cy, cz)
        sqrt = math.sqrt
        inf = math.inf

        def cyl(d):  # _cylinder_rim, operation for operation
            x, y, z = d
            dw = x * w0 + y * w1 + z * w2
            p = top if dw > 0 else (bot if dw < 0 else cen)
            px, py, pz = x - dw * w0, y - dw * w1, z - dw * w2
            q = px * w0 + py * w1 + pz * w2
            px, py, pz = px - q * w0, py - q * w1, pz - q * w2
            pn = sqrt(px * px + py * py + pz * pz)
            if r > 0 and pn > PARALLEL_SIN * sqrt(x * x + y * y + z * z):
                f = r / pn
                if f < inf:
                    return (p[0] + f * px, p[1] + f * py, p[2] + f * pz)
                # (r / pn overflowed: the unit perp first, as _cylinder_rim)
                return (p[0] + r * (px / pn), p[1] + r * (py / pn), p[2] + r * (pz / pn))
            return p
        return cyl
    return careful  # sphere, capsule: numpy's own (GJK runs on their cores)


def vertices(prim: Primitive):
    """The vertices of a polytope, as tuples of floats: the points :func:`support_fn` returns
    for a direction with no tie (a point's position, a segment's ends, a triangle's vertices,
    a box's or an obb's 8 corners, asked of :func:`support_fn` itself); ``None`` for a round or
    curved kind (sphere, capsule, cylinder: GJK runs on the cores of the first two). GJK's
    tie-break reads them (:func:`algorithms.kernels.gjk._tie_break`)."""
    kind = prim.kind
    arr = prim.__dict__.get(_ARRAYS_KEY)
    if arr is None:
        arr = _arrays(prim)
    if kind == "point":
        return (tuple(arr[0].tolist()),)
    if kind == "segment" or kind == "triangle":
        return tuple(tuple(r) for r in arr[0].tolist())
    if kind == "aabb" or kind == "obb":
        # support_fn's own corners, along s0 u0 + s1 u1 + s2 u2 for the 8 signs s (the axes
        # u: the world's for a box; axes @ d is then s to rounding, far from a tie)
        u = ((1.0, 0.0, 0.0), (0.0, 1.0, 0.0), (0.0, 0.0, 1.0)) if kind == "aabb" \
            else arr[0].tolist()
        fn = support_fn(prim)
        return tuple(fn(tuple(s0 * u[0][k] + s1 * u[1][k] + s2 * u[2][k] for k in range(3)))
                     for s0 in (1.0, -1.0) for s1 in (1.0, -1.0) for s2 in (1.0, -1.0))
    return None


def support_value(prim: Primitive, direction) -> float:
    """``h(d) = max over prim of d . x``, in closed form (no support point rounding)."""
    d = _f(direction)
    kind = prim.kind
    nd = math.sqrt(float(d @ d))
    if kind == "point":
        return float(d @ _f(prim.position))
    if kind in ("segment", "capsule"):
        base = max(float(d @ _f(prim.p0)), float(d @ _f(prim.p1)))
        return base + (float(prim.radius) * nd if kind == "capsule" else 0.0)
    if kind == "triangle":
        return float(np.max(_f(prim.vertices) @ d))
    if kind == "sphere":
        return float(d @ _f(prim.center)) + float(prim.radius) * nd
    if kind == "aabb":
        c = (_f(prim.min) + _f(prim.max)) / 2
        e = (_f(prim.max) - _f(prim.min)) / 2
        return float(d @ c) + float(np.abs(d) @ e)
    if kind == "obb":
        return float(d @ _f(prim.center)) + float(np.abs(_f(prim.axes) @ d) @ _f(prim.extents))
    if kind == "cylinder":
        w = prim.unit_axis
        dw = float(d @ w)
        perp = d - dw * w
        perp = perp - float(perp @ w) * w  # |W x d| without the cancellation of |d|^2 - dw^2
        return (float(d @ _f(prim.center)) + float(prim.height) / 2 * abs(dw)
                + float(prim.radius) * math.sqrt(float(perp @ perp)))
    raise ValueError(f"support: {kind!r} is unbounded or unknown (bounded: {BOUNDED_KINDS})")


def support_interval(prim: Primitive, unit_direction) -> tuple[float, float]:
    """The projection interval ``(min, max)`` of ``prim`` on ``unit_direction``.

    ``max = h(d)`` and ``min = -h(-d)`` (GTCG §11.12.9, projection of a cylinder onto a line).
    The direction is used as given: pass a unit vector to get distances along it.
    """
    d = _f(unit_direction)
    return (-support_value(prim, -d), support_value(prim, d))


def centre_tuple(prim: Primitive) -> tuple:
    """``tuple(centre(prim).tolist())`` without numpy: the same floats (a triangle's
    ``mean(axis=0)`` is numpy's ``((v0 + v1) + v2) / 3`` per coordinate)."""
    kind = prim.kind
    if kind == "point":
        p = prim.position
    elif kind in ("segment", "capsule"):
        a, b = prim.p0, prim.p1
        if len(a) == 3 and len(b) == 3:
            return ((float(a[0]) + float(b[0])) / 2, (float(a[1]) + float(b[1])) / 2,
                    (float(a[2]) + float(b[2])) / 2)
        return tuple(centre(prim).tolist())
    elif kind == "triangle":
        v0, v1, v2 = prim.vertices
        if len(v0) == 3 and len(v1) == 3 and len(v2) == 3:
            return tuple(((float(v0[i]) + float(v1[i])) + float(v2[i])) / 3 for i in range(3))
        return tuple(centre(prim).tolist())
    elif kind in ("sphere", "obb", "cylinder"):
        p = prim.center
    elif kind == "aabb":
        a, b = prim.min, prim.max
        if len(a) == 3 and len(b) == 3:
            return ((float(a[0]) + float(b[0])) / 2, (float(a[1]) + float(b[1])) / 2,
                    (float(a[2]) + float(b[2])) / 2)
        return tuple(centre(prim).tolist())
    else:
        return tuple(centre(prim).tolist())  # (raises for the unbounded kinds)
    if len(p) == 3:
        return (float(p[0]), float(p[1]), float(p[2]))
    return tuple(centre(prim).tolist())


def centre(prim: Primitive) -> np.ndarray:
    """A point inside the shape (its centre / centroid), used to seed GJK."""
    kind = prim.kind
    if kind == "point":
        return _f(prim.position)
    if kind in ("segment", "capsule"):
        return (_f(prim.p0) + _f(prim.p1)) / 2
    if kind == "triangle":
        return _f(prim.vertices).mean(axis=0)
    if kind in ("sphere", "obb", "cylinder"):
        return _f(prim.center)
    if kind == "aabb":
        return (_f(prim.min) + _f(prim.max)) / 2
    raise ValueError(f"centre: {kind!r} is unbounded or unknown")
