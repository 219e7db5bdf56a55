"""Bounding-volume containment tests (Boreskov, bounding volumes chapter; Dunn & Parberry).

Plain API functions (no registry), exact on Fractions:

* :func:`aabb_from_points` -- Boreskov (3.7): ``p_min = min_i v_i``, ``p_max = max_i v_i``
  per coordinate;
* :func:`point_in_aabb` -- Boreskov (3.8): ``p_min <= p <= p_max`` per coordinate;
* :func:`aabb_contains_aabb` -- Boreskov: "likewise, component-wise inequalities check that
  one AABB lies inside another";
* :func:`sphere_contains_sphere` -- Boreskov's ``BoundingSphere::contains``:
  ``|s.center - center| + s.radius <= radius``, evaluated without the square root as
  ``r >= r_s`` and ``|c_s - c|^2 <= (r - r_s)^2``;
* :func:`sphere_classify_plane` -- Boreskov's ``BoundingSphere::classify``: with
  ``v = plane.f(center)`` (signed distance for a unit normal), ``IN_FRONT``/``IN_BACK`` when
  ``|v| > r``, else ``IN_BOTH``. The scene format's plane is ``n . x = d``, so
  ``f(x) = (n . x - d) / |n|``.

* :func:`bound_aabb`, :func:`bound_sphere` -- "bound these": an AABB (per-axis support values,
  Boreskov 3.7 on the shapes' extreme points) and an enclosing sphere of bounded primitives.

Boundaries count as inside (closed sets), matching "touching counts as intersecting".
"""

from __future__ import annotations

import math

import numpy as np

from algorithms.core.tolerance import rescaled_pair
from algorithms.core import vec as V
from algorithms.kernels.support import BOUNDED_KINDS, support_value
from algorithms.primitives import AABB, Plane, Sphere

IN_FRONT, IN_BACK, IN_BOTH = 1, -1, 0


def aabb_from_points(points, exact: bool = False) -> AABB:
    """The smallest AABB holding ``points`` (Boreskov 3.7). ValueError for no points."""
    pts = [tuple(p) for p in points]
    if not pts:
        raise ValueError("points: need at least one point")
    lo = tuple(min(p[i] for p in pts) for i in range(3))
    hi = tuple(max(p[i] for p in pts) for i in range(3))
    return AABB(lo, hi, exact=exact)


def point_in_aabb(p, box: AABB) -> bool:
    """``box.min <= p <= box.max`` on every coordinate (Boreskov 3.8); the boundary counts."""
    return all(lo <= c <= hi for c, lo, hi in zip(p, box.min, box.max))


def aabb_contains_aabb(outer: AABB, inner: AABB) -> bool:
    """``outer.min <= inner.min`` and ``inner.max <= outer.max`` per coordinate (Boreskov)."""
    return all(o_lo <= i_lo and i_hi <= o_hi
               for o_lo, o_hi, i_lo, i_hi in zip(outer.min, outer.max, inner.min, inner.max))


def aabb_overlaps_aabb(a: AABB, b: AABB) -> bool:
    """Per-axis overlap (Boreskov; Primer App. A.17), touching included."""
    return all(a_lo <= b_hi and b_lo <= a_hi
               for a_lo, a_hi, b_lo, b_hi in zip(a.min, a.max, b.min, b.max))


def sphere_contains_sphere(outer: Sphere, inner: Sphere) -> bool:
    """Boreskov's ``contains``: ``|c_s - c| + r_s <= r``, without a square root."""
    gap = outer.radius - inner.radius
    if gap < 0:
        return False
    return V.sqr_dist(outer.center, inner.center) <= gap * gap


def sphere_intersects_sphere(a: Sphere, b: Sphere) -> bool:
    """Boreskov's ``intersects``: ``|c - s.c|^2 <= (r + s.r)^2``."""
    rs = a.radius + b.radius
    return V.sqr_dist(a.center, b.center) <= rs * rs


def sphere_classify_plane(s: Sphere, plane: Plane) -> int:
    """Boreskov's ``classify``: ``IN_FRONT`` (1), ``IN_BACK`` (-1) or ``IN_BOTH`` (0).

    Compares ``v = n . c - d`` with ``r |n|`` (squared, so exact on Fractions): front when
    ``v > r |n|``, back when ``v < -r |n|``, both otherwise (touching is ``IN_BOTH``).
    """
    v = V.dot(plane.normal, s.center) - plane.d
    rn2 = s.radius * s.radius * V.sqr_norm(plane.normal)
    if v * v > rn2:
        return IN_FRONT if v > 0 else IN_BACK
    return IN_BOTH


# ----------------------------------------------------------------------------- bound these


def _farthest_distance(prim, c) -> float:
    """``max over x in prim of |x - c|``: attained at an extreme point of the convex shape (a
    vertex, a sphere's far point, a cylinder's rim)."""
    c = np.asarray(c, dtype=float)
    kind = prim.kind

    def far(points):
        p = np.asarray(points, dtype=float).reshape(-1, 3)
        return float(np.max(np.linalg.norm(p - c, axis=1)))

    if kind == "point":
        return far([prim.position])
    if kind == "segment":
        return far([prim.p0, prim.p1])
    if kind == "triangle":
        return far(prim.vertices)
    if kind == "sphere":
        return far([prim.center]) + float(prim.radius)
    if kind == "capsule":
        return far([prim.p0, prim.p1]) + float(prim.radius)
    if kind == "aabb":
        return far([(x, y, z) for x in (prim.min[0], prim.max[0])
                     for y in (prim.min[1], prim.max[1]) for z in (prim.min[2], prim.max[2])])
    if kind == "obb":
        ctr, axes, e = (np.asarray(v, dtype=float) for v in (prim.center, prim.axes,
                                                             prim.extents))
        return far([ctr + (np.array(s) * e) @ axes for s in
                    [(i, j, k) for i in (-1, 1) for j in (-1, 1) for k in (-1, 1)]])
    if kind == "cylinder":
        w = prim.unit_axis
        best = 0.0
        for end in prim.end_points:
            q = c - np.asarray(end, dtype=float)
            a = float(q @ w)
            perp = q - a * w
            best = max(best, math.hypot(a, float(np.linalg.norm(perp)) + float(prim.radius)))
        return best
    raise ValueError(f"{kind!r} is unbounded: only bounded objects have bounding volumes")


def bound_aabb(prims) -> AABB:
    """The smallest AABB holding every primitive of ``prims``: per axis the support values in
    ``-e_i`` and ``+e_i`` (Boreskov 3.7 on the shapes' extreme points). ValueError for none or
    an unbounded one (ray, line, plane)."""
    prims = list(prims)
    if not prims:
        raise ValueError("bound: need at least one bounded object")
    for p in prims:
        if p.kind not in BOUNDED_KINDS:
            raise ValueError(f"bound: a {p.kind} is unbounded "
                             f"(bounded: {', '.join(BOUNDED_KINDS)})")
    axes = ((1, 0, 0), (0, 1, 0), (0, 0, 1))
    lo = tuple(min(-support_value(p, tuple(-c for c in e)) for p in prims) for e in axes)
    hi = tuple(max(support_value(p, e) for p in prims) for e in axes)
    return AABB(lo, hi)


def bound_sphere(prims) -> Sphere:
    """A sphere holding every primitive of ``prims``: centred at :func:`bound_aabb`'s centre,
    with the radius of the farthest point of any shape (an enclosing sphere, not always the
    smallest; exact for one sphere or one box)."""
    box = bound_aabb(prims)
    c = tuple((a + b) / 2 for a, b in zip(box.min, box.max))
    r = max(_farthest_distance(p, c) for p in prims)
    return Sphere(c, r)


# ----------------------------------------------------------------------------- the contains key

#: the unordered pairs the ``contains`` key answers (Boreskov: sphere in sphere, box in box,
#: point in box, mixed sphere/box; and a point in a sphere)
CONTAINS_PAIRS = {frozenset(("sphere",)), frozenset(("aabb",)), frozenset(("point", "aabb")),
                  frozenset(("sphere", "aabb")), frozenset(("point", "sphere"))}


def _holds(outer, inner) -> bool:
    """Whether the solid ``outer`` holds all of ``inner`` (boundaries count)."""
    ko, ki = outer.kind, inner.kind
    if ko == "aabb" and ki == "aabb":
        return aabb_contains_aabb(outer, inner)
    if ko == "aabb" and ki == "point":
        return point_in_aabb(inner.position, outer)
    if ko == "aabb" and ki == "sphere":  # the sphere's own AABB inside the box
        r = inner.radius
        return all(lo <= c - r and c + r <= hi
                   for c, lo, hi in zip(inner.center, outer.min, outer.max))
    if ko == "sphere" and ki == "sphere":
        return sphere_contains_sphere(outer, inner)
    if ko == "sphere" and ki == "point":
        return V.sqr_dist(outer.center, inner.position) <= outer.radius * outer.radius
    if ko == "sphere" and ki == "aabb":  # the farthest corner within r (squared, exact)
        far = sum(max((c - lo) ** 2, (c - hi) ** 2)
                  for c, lo, hi in zip(outer.center, inner.min, inner.max))
        return far <= outer.radius * outer.radius
    return False


def contains(a, b, hollow_a: bool = False, hollow_b: bool = False):
    """The ``contains`` key: ``"a"`` when A holds all of B, ``"b"`` when B holds all of A
    (``"a"`` when each holds the other: equal sets), ``"none"``, or ``None`` for pairs it does
    not answer (:data:`CONTAINS_PAIRS`). A hollow object (its surface only) holds nothing but
    points of its surface: it never contains a solid, and the answer is then ``"none"``.

    >>> from algorithms import Sphere, AABB
    >>> contains(Sphere((0, 0, 0), 2), AABB((-1, -1, -1), (1, 1, 1)))
    'a'
    >>> contains(Sphere((0, 0, 0), 2), AABB((-1, -1, -1), (1, 1, 1)), hollow_a=True)
    'none'
    """
    if frozenset((a.kind, b.kind)) not in CONTAINS_PAIRS:
        return None
    a, b = rescaled_pair(a, b)  # exact powers of two: no overflow of the squares at 1e200
    if _holds(a, b) and not hollow_a:
        return "a"
    if _holds(b, a) and not hollow_b:
        return "b"
    return "none"
