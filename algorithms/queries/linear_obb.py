"""Point, segment, ray and line against a (solid) oriented box.

Everything happens in the box frame (Eberly & Schneider, GTCG §10.9.4 and §10.4.2: "transform
into the box's coordinate system"), where the OBB is the AABB ``[-e, e]``:
``o' = (a_i . (o - c))``, ``d' = (a_i . d)``; ``t`` is unchanged by the rigid change of frame.

* point: A.5's clamp in the box frame (:func:`algorithms.kernels.closest.closest_point_obb`);
* ``hits``: Woo (Dunn & Parberry, App. A.18, Listing A.6) in the box frame (default ``woo``),
  the slab method as ``slabs``; hit points are ``o + t d`` in world space and normals are
  mapped back by the axes (``n = sum(n'_i a_i)``);
* ``distance``: 0 at the first touching point, else the AABB features minimum (ends and 12
  edges) in the box frame, mapped back; golden-section as ``golden_section`` (priority -10).

With float axes orthonormal only within 1e-6 (scene-v1) the answers move by about that much
times the extents.
"""

from __future__ import annotations

import math

from algorithms.core import vec as V
from algorithms.core.once import shared
from algorithms.kernels.closest import (closest_point_obb, golden_section_distance,
                                        intersects_from_hits, linear_parts, obb_to_local,
                                        obb_to_world, obb_vector_to_local, obb_vector_to_world,
                                        point_at, rescue_hit, robust_distance, solid_hits,
                                        touching_distance)
from algorithms.kernels.filters import segment_clearly_misses_box
from algorithms.queries.linear_aabb import (box_features_distance, slab_crossing, slab_interval,
                                            woo_interval)
from algorithms.registry import register
from algorithms.results import DistanceResult, IntersectionResult

LINEAR = ("segment", "ray", "line")
WOO = "ray-OBB: Woo (Dunn & Parberry, 3D Math Primer App. A.18, Listing A.6) in the box frame"
SLABS = "ray-OBB: slab method in the box frame"
CLAMP = "closest point in an OBB: App. A.5 clamp in the box frame (GTCG §10.4.2)"


def _local(a, obb):
    o, d, lo, hi = linear_parts(a)
    return o, d, lo, hi, obb_to_local(o, obb), obb_vector_to_local(d, obb)


def _bounds(obb):
    e = obb.extents
    return tuple(-x for x in e), tuple(e)


def _world_normal(n, obb):
    if n is None:
        return None
    w = obb_vector_to_world(n, obb)
    return tuple(float(c) + 0.0 for c in w)


def _hits(a, obb, interval, method):
    o, d, lo, hi, ol, dl = _local(a, obb)
    bmin, bmax = _bounds(obb)
    t_in, t_out, n_in, n_out, trace = interval(ol, dl, lo, hi, bmin, bmax)
    trace = {**trace, "origin (box frame)": ol, "direction (box frame)": dl}
    return solid_hits(o, d, lo, hi, t_in, t_out, _world_normal(n_in, obb),
                      _world_normal(n_out, obb), method, trace)


def hits_woo_obb(a, obb):
    """Woo's ray-box test in the box frame."""
    return _hits(a, obb, woo_interval, WOO)


def hits_slabs_obb(a, obb):
    """The slab method in the box frame."""
    return _hits(a, obb, slab_interval, SLABS)


def _fp(p):
    return tuple(float(c) for c in p)


@shared
def _cast(a, obb):
    return hits_woo_obb(a, obb)


@shared
def _hits_and_features(a, obb):
    hr = _cast(a, obb)
    if hr.intersects:
        return hr, None
    o, d, lo, hi, ol, dl = _local(a, obb)
    bmin, bmax = _bounds(obb)
    if not (a.exact or obb.exact):
        # (Woo's hit point rounded an ulp outside a face: the slabs' crossing, as an AABB's)
        crossing = slab_crossing(hr, o, d, lo, hi, ol, dl, bmin, bmax,
                                 lambda n: _world_normal(n, obb))
        if crossing is not None:
            return crossing, None
    feats = box_features_distance(ol, dl, lo, hi, bmin, bmax)
    hr = rescue_hit(hr, o, d, feats[0], feats[1],
                    f"Woo rejected a contact the edge distance finds exactly ({feats[4]})",
                    feats[2:4])
    return hr, feats


def hits_linear_obb(a, obb):
    """The default cast: Woo in the box frame, with the edge-contact rescue of the AABB module
    (:func:`algorithms.kernels.closest.rescue_hit`), skipped for a clear miss
    (:func:`algorithms.kernels.filters.segment_clearly_misses_box` in the box frame)."""
    hr = _cast(a, obb)
    if not hr.intersects:
        _o, _d, lo, hi, ol, dl = _local(a, obb)
        if segment_clearly_misses_box(ol, dl, lo, hi, *_bounds(obb)):
            return hr  # the filter: no grazing contact for rescue_hit to find
    return _hits_and_features(a, obb)[0]


def distance_linear_obb(a, obb):
    """0 at Woo's first touching point, else the box-frame features minimum."""
    method = "linear-OBB distance: GTCG §10.9.4 in the box frame, candidates (ends, 12 edges); " \
        + WOO
    hr, feats = _hits_and_features(a, obb)
    o, d, lo, hi, ol, dl = _local(a, obb)
    if hr.intersects:
        return touching_distance(V.to_float(o), V.to_float(d), hr, method,
                                 {"first_t": hr.first_t})
    sq, t, _, pbl, feature, cands = feats
    pa = _fp(point_at(o, d, t))
    pb = _fp(obb_to_world(pbl, obb))
    sq = float(sq)  # from the box frame: the world points may round onto each other
    trace = {"feature": feature, "candidates": cands, "t": float(t), "closest (box frame)": pbl}
    return DistanceResult(method=method, trace=trace, distance=math.sqrt(sq), sqr_distance=sq,
                          closest=(pa, pb), parameter=(float(t), None))


def distance_linear_obb_golden(a, obb):
    """Generic: golden-section on the convex distance (cross-check)."""
    method = "linear-OBB distance, golden-section on the convex distance (generic)"
    hr = hits_woo_obb(a, obb)
    o, d, lo, hi = linear_parts(a)
    if hr.intersects:
        return touching_distance(V.to_float(o), V.to_float(d), hr, method, {})
    r = V.norm(V.to_float(obb.extents))
    sq, t, pa, pb, steps = golden_section_distance(
        o, d, lo, hi, lambda p: closest_point_obb(p, obb), V.to_float(obb.center), r)
    return DistanceResult(method=method, trace={"t": t, "steps": steps},
                          distance=math.sqrt(sq), sqr_distance=sq, closest=(pa, pb),
                          parameter=(t, None))


def distance_point_obb(pt, obb):
    """Clamp in the box frame (A.5), mapped back."""
    q = pt.position
    p = closest_point_obb(q, obb)
    sq = float(V.sqr_dist(p, q))
    return DistanceResult(method=CLAMP, trace={"q (box frame)": obb_to_local(q, obb)},
                          distance=math.sqrt(sq), sqr_distance=sq, closest=(_fp(q), _fp(p)),
                          parameter=(None, None))


def intersects_point_obb(pt, obb):
    u = obb_to_local(pt.position, obb)
    inside = all(-e <= x <= e for x, e in zip(u, obb.extents))
    return IntersectionResult(method=CLAMP, trace={"q (box frame)": u}, intersects=inside)


intersects_linear_obb = intersects_from_hits(hits_linear_obb, WOO)


register("distance", "point", "obb")(robust_distance(distance_point_obb))
register("intersects", "point", "obb")(intersects_point_obb)
for _k in LINEAR:
    register("hits", _k, "obb", name="woo", priority=10)(hits_linear_obb)
    register("hits", _k, "obb", name="slabs", priority=0)(hits_slabs_obb)
    register("distance", _k, "obb", name="features", priority=10)(
        robust_distance(distance_linear_obb))
    register("distance", _k, "obb", name="golden_section", priority=-10)(
        robust_distance(distance_linear_obb_golden))
    register("intersects", _k, "obb")(intersects_linear_obb)
