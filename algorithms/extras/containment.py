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

Boundaries count as inside (closed sets), matching "touching counts as intersecting".
"""

from __future__ import annotations

from algorithms.core import vec as V
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
