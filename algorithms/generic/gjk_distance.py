"""The generic convex distance, registered for every pair of bounded kinds.

:func:`algorithms.kernels.gjk.gjk_distance` answers ``"distance"`` for each unordered pair of
{point, segment, triangle, sphere, aabb, obb, capsule, cylinder} (36 pairs, same-type pairs
included) with ``priority=-10``, so any specialised function registered for a pair is the
default and GJK stays available as the method ``"gjk"`` (the explorer's cross-check).
"""

from __future__ import annotations

from itertools import combinations_with_replacement

from algorithms.kernels.gjk import gjk_distance
from algorithms.kernels.support import BOUNDED_KINDS
from algorithms.registry import register


def distance_gjk(a, b):
    """GJK distance (Gilbert-Johnson-Keerthi) on exact support functions; see
    :mod:`algorithms.kernels.gjk`."""
    return gjk_distance(a, b)


for _ka, _kb in combinations_with_replacement(BOUNDED_KINDS, 2):
    register("distance", _ka, _kb, name="gjk", priority=-10)(distance_gjk)
