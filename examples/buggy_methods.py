"""A lesson in bugs: five classic mistakes in intersection code, as methods you can fuzz.

Load them beside the library's reference methods and let the fuzzer find each one::

    explorer fuzz --methods examples/buggy_methods.py
    explorer open scenes/gui_segments.json --methods examples/buggy_methods.py

Every function here is short, plausible, and passes the obvious hand-made test; each fails on
inputs of one kind, explained in its docstring: where the mistake is, why it is one, what the
fix is, and what kind of input shows it (the fuzzer's generators are biased to exactly these).

1. :func:`clamp_separately`: segment distance clamping ``s`` and ``t`` separately.
2. :func:`cramer_lines`: line distance by Cramer's rule on nearly parallel lines.
3. :func:`woo_no_inside`: Woo's ray-box test without the origin-inside test.
4. :func:`larger_root`: moving spheres taking the larger root of the quadratic.
5. :func:`strict_overlap`: a strict ``<`` in a separating-axis test of two boxes.

Each is registered with ``algorithms.register`` exactly as the library registers its own; as a
file loaded with ``--methods`` its functions become *user* methods: listed beside the
reference, never the default answer.
"""

import math

from algorithms import register


def _sub(u, v):
    return [x - y for x, y in zip(u, v)]


def _dot(u, v):
    return sum(x * y for x, y in zip(u, v))


def _at(p, d, t):
    return [x + t * y for x, y in zip(p, d)]


def _clamp(x, lo=0.0, hi=1.0):
    return min(max(x, lo), hi)


# 1 ------------------------------------------------------------------------------------------


@register("distance", "segment", "segment", name="clamp_separately")
def clamp_separately(a, b):
    """Distance between two segments, minimising over the lines and clamping each parameter.

    The bug: the unconstrained minimiser ``(s, t)`` of ``Q(s, t) = |P(s) - Q(t)|^2`` is clamped
    to ``[0, 1]`` in ``s`` and in ``t`` independently. When it lies outside the unit square,
    the best ``t`` for the clamped ``s`` is not the clamped ``t``: the minimum over the square
    is on its boundary, found by minimising over one edge (GTCG 10.8.3's regions 1-8; Ericson's
    ClosestPtSegmentSegment, Real-Time Collision Detection 5.1.9, clamps ``s``, recomputes
    ``t = (b s + f) / e`` for it, clamps ``t`` and recomputes ``s``).

    Shows on: segments whose infinite lines pass close to each other outside the segments
    (an L or T shape with a gap), and parallel segments (``den == 0`` takes ``s = 0`` and
    never looks at the other end).
    """
    d1, d2 = _sub(a.p1, a.p0), _sub(b.p1, b.p0)
    r = _sub(a.p0, b.p0)
    aa, e, bb = _dot(d1, d1), _dot(d2, d2), _dot(d1, d2)
    c, f = _dot(d1, r), _dot(d2, r)
    den = aa * e - bb * bb
    s = (bb * f - c * e) / den if den != 0 else 0.0
    t = (aa * f - bb * c) / den if den != 0 else (f / e if e != 0 else 0.0)
    s, t = _clamp(s), _clamp(t)  # BUG: clamped separately; t must be recomputed for s
    pa, pb = _at(a.p0, d1, s), _at(b.p0, d2, t)
    return math.dist(pa, pb), pa, pb  # the distance and the closest points (drawn)


# 2 ------------------------------------------------------------------------------------------


@register("distance", "line", "line", name="cramer_lines")
def cramer_lines(a, b):
    """Distance between two lines by Cramer's rule on the 2x2 normal equations.

    The bug: the parallel case is caught with ``det == 0`` only. For nearly parallel lines
    (or lines parallel in real arithmetic whose directions are not exact multiples in binary,
    such as ``d`` and ``3 d``) ``det = a c - b^2`` is a tiny difference of two large, nearly
    equal products: its value is rounding noise, so ``s`` and ``t`` are noise divided by
    noise, possibly huge, and the points ``P(s)``, ``Q(t)`` slide far along the nearly common
    direction. Their difference then loses every significant digit. The fix (GTCG 10.8.3,
    Geometric Tools' DistLine3Line3 and the st-plane code of this library) is to treat
    ``det <= eps * a * c`` as parallel and measure from one line's origin to the other line,
    or to compute the distance from the cross product ``|r . (d1 x d2)| / |d1 x d2|`` only
    when ``|d1 x d2|`` is well away from rounding.

    Shows on: directions parallel within rounding (``d`` and ``0.1 d``, ``3 d``) or turned by
    1e-9 rad and less.
    """
    d1, d2 = list(a.direction), list(b.direction)
    r = _sub(a.origin, b.origin)
    aa, bb, cc = _dot(d1, d1), _dot(d1, d2), _dot(d2, d2)
    d, e = _dot(d1, r), _dot(d2, r)
    det = aa * cc - bb * bb
    if det == 0:  # BUG: exact zero is not the only parallel case in floating point
        t = e / cc  # parallel: closest point of line B to A's origin
        return math.dist(a.origin, _at(b.origin, d2, t))
    s = (bb * e - cc * d) / det
    t = (aa * e - bb * d) / det
    return math.dist(_at(a.origin, d1, s), _at(b.origin, d2, t))


# 3 ------------------------------------------------------------------------------------------


@register("hits", "ray", "aabb", name="woo_no_inside")
def woo_no_inside(ray, box):
    """First hit of a ray on a box by Woo's method (Graphics Gems I, 1990; the 3D Math Primer,
    App. A.18): on each axis keep the box plane facing the ray's origin, the largest of those
    plane parameters is the only candidate, accept it when the point lies on the box.

    The bug: Woo's listing starts by noting whether the origin lies inside the box on every
    axis and then answers ``t = 0`` at once. Without that test an origin inside the box has
    no facing plane on any axis, no candidate, and the ray is reported as missing a box it
    starts in (a solid box: touching counts, and so does starting inside).

    Shows on: rays starting inside the box, or on its surface.
    """
    o, d = list(ray.origin), list(ray.direction)
    lo, hi = list(box.min), list(box.max)
    best_t, best_axis = -math.inf, None
    for i in range(3):
        if o[i] < lo[i] and d[i] > 0:
            t = (lo[i] - o[i]) / d[i]
        elif o[i] > hi[i] and d[i] < 0:
            t = (hi[i] - o[i]) / d[i]
        elif lo[i] <= o[i] <= hi[i]:
            continue  # inside the slab: this axis has no facing plane
        else:
            return None  # outside the slab and moving away
        if t > best_t:
            best_t, best_axis = t, i
    if best_axis is None:
        return None  # BUG: the origin is inside the box: the answer is t = 0
    p = _at(o, d, best_t)
    for i in range(3):
        if i != best_axis and not lo[i] <= p[i] <= hi[i]:
            return None
    return best_t


# 4 ------------------------------------------------------------------------------------------


@register("toi", "sphere", "sphere", name="larger_root")
def larger_root(a, b, motion):
    """Time of impact of two moving spheres (the 3D Math Primer, App. A.13): B's centre
    relative to A is ``e + t m``; they touch when ``|e + t m| = r_A + r_B``, a quadratic
    ``A t^2 + B t + C = 0`` with ``A = m . m``, ``B = 2 e . m``, ``C = e . e - (r_A + r_B)^2``.

    The bug: of the two roots, the one with ``+ sqrt(disc)`` is taken. The quadratic's roots
    are when the spheres start and stop touching; the time of impact is the smaller one,
    ``(-B - sqrt(disc)) / (2 A)``. The larger is the moment B leaves A on the far side.

    Shows on: any pair of spheres that meet within the motion (the larger root is past 1 when
    they are still overlapping at ``t = 1``: the bug then answers "no contact").
    """
    e = _sub(b.center, a.center)
    m = list(motion)
    r = a.radius + b.radius
    qa, qb, qc = _dot(m, m), 2 * _dot(e, m), _dot(e, e) - r * r
    if qc <= 0:
        return 0.0  # already touching
    if qa == 0:
        return None  # not moving relative to each other
    disc = qb * qb - 4 * qa * qc
    if disc < 0:
        return None
    t = (-qb + math.sqrt(disc)) / (2 * qa)  # BUG: the larger root; use -sqrt(disc)
    return t if 0 <= t <= 1 else None


# 5 ------------------------------------------------------------------------------------------


@register("separating_axis", "aabb", "aabb", name="strict_overlap")
def strict_overlap(a, b):
    """Separating axis of two boxes: a coordinate axis on which their intervals do not overlap
    (the separating-axis theorem; for boxes the three coordinate axes suffice).

    The bug: the overlap test ``a.min < b.max and b.min < a.max`` is strict, so two boxes that
    share a face (``a.max[i] == b.min[i]``), an edge or a corner are called apart. Touching
    counts as intersecting (solids are closed sets): the test must be ``<=``. The mistake is
    invisible on random input, where exact equality never happens, and shows on every
    stacked or tiled scene.

    Shows on: boxes touching exactly on a face, an edge or a corner (coordinates on a grid).
    """
    for i in range(3):
        if not (a.min[i] < b.max[i] and b.min[i] < a.max[i]):  # BUG: must be <=
            axis = [0.0, 0.0, 0.0]
            axis[i] = 1.0
            return axis
    return None
