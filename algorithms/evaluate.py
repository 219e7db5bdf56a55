"""Compose the registry's queries into one typed answer per pair (:class:`PairAnswer`).

:func:`evaluate_pair` asks every query that applies to the pair, all inside one
:func:`~algorithms.core.once.one_analysis` scope (opened with ``once.begin``), so each pair
is analysed once: a linear
component against a shape is cast (and, on a miss, minimised over the shape's features) in one
pass that ``hits``, ``distance`` and ``intersects`` all read; two linear components share one
st-plane minimisation; round shapes' separating axis reads the same closest points as their
distance. It never raises for valid primitives: what fails is reported in ``errors``.

Where a pair has no dedicated test, the answers are derived from the others, as the spec's
meanings allow:

* ``intersects`` from the separating-axis test, else from the distance (``distance == 0``);
* ``separating_axis`` from the closest points when no separating-axis test is registered: for
  two convex sets at positive distance, the direction from one closest point to the other
  separates them (the supporting hyperplane theorem);
* ``distance`` is forced to ``0`` (and the closest points to their midpoint) when a dedicated
  test says the shapes intersect; the distance query's own value is kept.

:func:`algorithms.report.result_json` writes the ``explorer eval`` object from the answer.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Optional, Sequence

import numpy as np

from algorithms import registry
from algorithms.answer import PairAnswer, Records
from algorithms.core import once
from algorithms.core.tolerance import reconcile, unit
from algorithms.extras.containment import contains
from algorithms.extras.planes import classify_linear_pair, plane2d_of
from algorithms.kernels.motion import relative_motion, toi_world
from algorithms.primitives import LINEAR_KINDS, SEPARABLE_KINDS, Primitive
from algorithms.queries.sphere_solids import ARVO_HOLLOW, hollow_sphere_aabb
from algorithms.results import Deferred, IntersectionResult, make


def _vec(v) -> tuple:
    if len(v) == 3:
        return (float(v[0]), float(v[1]), float(v[2]))
    return tuple(float(c) for c in v)


def evaluate_pair(
    a: Primitive,
    b: Primitive,
    motion_a: Optional[Sequence[float]] = None,
    motion_b: Optional[Sequence[float]] = None,
    id_a: str = "A",
    id_b: str = "B",
    hollow_a: bool = False,
    hollow_b: bool = False,
) -> PairAnswer:
    """The typed answer for the pair ``(a, b)`` (see :class:`~algorithms.answer.PairAnswer`).

    ``motion_a`` and ``motion_b`` are the objects' displacements over ``t`` in ``[0, 1]``.
    ``hollow_a`` / ``hollow_b``: the sphere or box is its surface only (GTCG §11.12.8's hollow
    variants; answered for sphere-aabb pairs, the other pairs report that they treat it as
    solid in ``errors``).
    """
    # the extras no other key needs are computed when read (answer._LazyField)
    extras = {
        "contains": Deferred(contains, a, b, hollow_a, hollow_b),
        "lines": (Deferred(classify_linear_pair, a, b)
                  if a.kind in LINEAR_KINDS and b.kind in LINEAR_KINDS else None),
        "plane2d": Deferred(plane2d_of, a, b) if "line" in (a.kind, b.kind) else None,
    }
    token = once.begin()
    try:
        ans = _evaluate(a, b, motion_a, motion_b, id_a, id_b, extras)
    finally:
        once.end(token)
    if hollow_a or hollow_b:
        ans = _hollow(ans, a, b, hollow_a, hollow_b)
    return ans


def _hollow(ans: PairAnswer, a, b, hollow_a: bool, hollow_b: bool) -> PairAnswer:
    """The answer with hollow objects (their surface only) for a sphere-aabb pair."""
    kinds = (a.kind, b.kind)
    if set(kinds) != {"sphere", "aabb"}:
        names = " and ".join(n for n, h in ((f"A ({a.kind})", hollow_a),
                                            (f"B ({b.kind})", hollow_b)) if h)
        return replace(ans, errors=ans.errors + (
            f"hollow: only sphere-aabb pairs answer the hollow variants (GTCG §11.12.8); "
            f"{names} treated as solid here",))
    flip = kinds[0] == "aabb"
    s, box = (b, a) if flip else (a, b)
    hs, hb = (hollow_b, hollow_a) if flip else (hollow_a, hollow_b)
    ok, distance, (ps, pb), trace = hollow_sphere_aabb(s, box, hs, hb)
    closest = (pb, ps) if flip else (ps, pb)
    axis = ans.separating_axis
    if ok or distance == 0 or not (ans.distance and ans.distance > 0):
        axis = None  # meeting, or one inside the other: no axis separates the projections
    errors = ans.errors
    if ans.toi is not None or ans.records.contact is not None:
        errors = errors + ("hollow: the time of impact treats the objects as solid",)
    rec = IntersectionResult(intersects=ok, method=ARVO_HOLLOW, trace=trace)
    return replace(ans, intersects=ok, distance=distance, closest=closest, separating_axis=axis,
                   axis_from_closest=False, distance_rounding=None,
                   methods=(ARVO_HOLLOW, *ans.methods), errors=errors,
                   records=replace(ans.records, intersection=rec))


def _evaluate(a, b, motion_a, motion_b, id_a, id_b, extras) -> PairAnswer:
    methods: list[str] = []
    errors: list[str] = []
    def run(name, *args, call=None):
        try:
            result = call() if call is not None else registry.query(name, a, b, *args)
        except registry.QueryNotAvailable as exc:
            errors.append(str(exc))
            return None
        except Exception as exc:  # noqa: BLE001 - reported on the pair, never a crash
            errors.append(f"{name} failed for {a.kind}-{b.kind}: {type(exc).__name__}: {exc}")
            return None
        if result.method and result.method not in methods:
            methods.append(result.method)
        return result

    dist = run("distance")
    distance = closest = None
    if dist is not None:
        distance = float(dist.distance)
        closest = (_vec(dist.closest[0]), _vec(dist.closest[1]))

    intersects = None
    inter = None
    if registry.has_query("intersects", a.kind, b.kind, specific=True):
        inter = run("intersects")
        if inter is not None:
            intersects = bool(inter.intersects)

    separating_axis = None
    sep = None
    both_separable = a.kind in SEPARABLE_KINDS and b.kind in SEPARABLE_KINDS
    if both_separable and registry.has_query("separating_axis", a.kind, b.kind, specific=True):
        sep = run("separating_axis")
        if sep is not None:
            if intersects is None:
                intersects = bool(sep.intersects)
            if sep.axis is not None:
                separating_axis = _vec(sep.axis)

    if intersects is None and dist is not None:
        intersects = bool(dist.sqr_distance == 0)

    distance_rounding = None
    if intersects and dist is not None and distance != 0.0:
        # A dedicated test decided "touching"; the distance is then 0 by definition.
        distance_rounding = distance
        distance = 0.0
        mid = _vec((np.asarray(closest[0]) + np.asarray(closest[1])) / 2)
        closest = (mid, mid)

    axis_from_closest = False
    if both_separable and separating_axis is None and intersects is False:
        if dist is not None and distance > 0:
            c0, c1 = closest  # (float tuples: the same differences numpy would take)
            u = unit((c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2]))
            if u is not None:  # (tolerance.unit: |d|^2 cannot overflow at 1e200)
                separating_axis = u
                axis_from_closest = True

    hits = first_t = None
    if a.kind in LINEAR_KINDS:
        hits = run("hits")
        if hits is not None:
            first_t = None if hits.first_t is None else float(hits.first_t)

    side_rec = side = None
    if "plane" in (a.kind, b.kind):
        side_rec = run("side")
        if side_rec is not None:
            side = int(side_rec.side)

    contact = toi = rel = point = normal = None
    if motion_a is not None or motion_b is not None:
        rel = relative_motion(motion_a, motion_b)
        contact = run("toi", call=lambda: toi_world(a, b, motion_a, motion_b))
        if contact is not None:
            toi = None if contact.toi is None else float(contact.toi)
            if contact.point is not None and contact.toi is not None:
                point = _vec(contact.point)
            if contact.normal is not None:
                normal = _vec(contact.normal)

    # one consistent answer from the separately computed keys (algorithms.core.tolerance)
    settled = reconcile(a, b, intersects=intersects, distance=distance, closest=closest,
                        separating_axis=separating_axis, first_t=first_t, side=side, toi=toi,
                        parameter=dist.parameter if dist is not None else (None, None),
                        moving=rel is not None)
    reconciled = tuple(settled["notes"])
    if reconciled:
        intersects, distance = settled["intersects"], settled["distance"]
        separating_axis, first_t = settled["separating_axis"], settled["first_t"]
        side, toi = settled["side"], settled["toi"]
        if settled["closest"] is not None:
            closest = (_vec(settled["closest"][0]), _vec(settled["closest"][1]))
        if separating_axis is None:
            axis_from_closest = False
        else:
            separating_axis = _vec(separating_axis)

    # every field given, in the dataclass's order: the same frozen record, built in one go
    return make(
        PairAnswer,
        a=id_a, b=id_b, pair=f"{a.kind}-{b.kind}", intersects=intersects, distance=distance,
        closest=closest, first_t=first_t, separating_axis=separating_axis, side=side, toi=toi,
        contact_point=point, contact_normal=normal, relative_motion=rel,
        distance_rounding=distance_rounding, axis_from_closest=axis_from_closest,
        contains=extras["contains"], lines=extras["lines"], plane2d=extras["plane2d"],
        reconciled=reconciled,
        methods=tuple(methods), errors=tuple(errors),
        records=make(Records, distance=dist, intersection=inter, hits=hits, separation=sep,
                     side=side_rec, contact=contact))
