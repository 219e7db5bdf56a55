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

import functools
import math
from dataclasses import replace
from typing import Optional, Sequence

from algorithms import registry
from algorithms.answer import PairAnswer, Records
from algorithms.core import once
from algorithms.core.tolerance import (AXIS_FROM_SAT, PLAIN_KEY, clearly_apart, midpoint, plain,
                                       reconcile, unit)
from algorithms.extras.containment import contains
from algorithms.extras.planes import classify_linear_pair, plane2d_of
from algorithms.kernels.motion import relative_motion, toi_world
from algorithms.primitives import LINEAR_KINDS, SEPARABLE_KINDS, GeometryError, Primitive
from algorithms.queries.sphere_solids import ARVO_HOLLOW, hollow_sphere_aabb
from algorithms.results import Deferred, IntersectionResult, make_with

#: why a ray's or line's parameter ``t = |point - origin| / |direction|`` can overflow while
#: the point itself is a float: a short direction, or a point far out along it (two rays
#: 2e-309 rad apart cross 2.2e308 direction lengths out)
_T_BEYOND = "the point is more than 1.8e308 direction lengths from the origin"


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
    memo: Optional[dict] = None,
) -> PairAnswer:
    """The typed answer for the pair ``(a, b)`` (see :class:`~algorithms.answer.PairAnswer`).

    ``motion_a`` and ``motion_b`` are the objects' displacements over ``t`` in ``[0, 1]``.
    ``hollow_a`` / ``hollow_b``: the sphere or box is its surface only (GTCG §11.12.8's hollow
    variants; answered for sphere-aabb pairs, the other pairs report that they treat it as
    solid in ``errors``).
    ``memo``: a dict to analyse in, shared by calls on the same primitive objects (the
    pair asked in both orders, ``explorer eval``): each default query function, each
    ``once.shared`` pass, runs once per argument tuple across them
    (:func:`algorithms.core.once.call`), so the answers are the ones computed alone, bit
    for bit; ``None``: the memo of an open :func:`algorithms.core.once.carry`, else a
    fresh one for this pair.
    """
    # the extras no other key needs are computed when read (results.DeferredField)
    token = once.begin(memo)
    try:
        ans = _evaluate(a, b, motion_a, motion_b, id_a, id_b, hollow_a, hollow_b)
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


class Plan:
    """What :func:`evaluate_pair` asks for one ordered pair of kinds, derived from the
    registry once and kept in its cache (:func:`algorithms.registry.derived`: any registration
    rebuilds it, and so does an entry leaving the table).

    Each query slot holds the lean dispatch :func:`algorithms.registry.runner` of the
    default method, or ``None`` when the query is not asked for the pair; ``missing`` maps
    an asked query that nothing answers to its error message. ``fused`` is the pair's fused
    analysis (:func:`algorithms.registry.fuses`) when the three queries it answers are asked
    and their default entries are its functions."""

    __slots__ = ("distance", "intersects", "separation", "hits", "side", "missing", "fused",
                 "separable", "asks_side", "lines", "plane2d", "pair", "checks")

    def __init__(self, ka: str, kb: str, through=None):
        self.pair = f"{ka}-{kb}"
        self.separable = ka in SEPARABLE_KINDS and kb in SEPARABLE_KINDS
        self.lines = ka in LINEAR_KINDS and kb in LINEAR_KINDS
        self.plane2d = "line" in (ka, kb)
        self.asks_side = "plane" in (ka, kb)
        self.missing = {}
        asked = {"distance": True,
                 "intersects": registry.has_query("intersects", ka, kb, specific=True),
                 "separating_axis": self.separable and registry.has_query(
                     "separating_axis", ka, kb, specific=True),
                 "hits": ka in LINEAR_KINDS,
                 "side": "plane" in (ka, kb)}
        runs = {}
        for name, ask in asked.items():
            run = registry.runner(name, ka, kb) if ask else None
            if run is not None and through is not None:
                run = functools.partial(_through, through, name)
            if ask and run is None:
                self.missing[name] = f"no {name} query for {ka}-{kb}"
            runs[name] = run
        self.distance, self.intersects = runs["distance"], runs["intersects"]
        self.separation, self.hits, self.side = (runs["separating_axis"], runs["hits"],
                                                 runs["side"])
        self.fused = None
        if self.distance and self.intersects and self.hits and not self.separation \
                and through is None:
            # (a separating-axis test would run between intersects and hits: not fused)
            self.fused = registry.fused_for(ka, kb)
        self.checks = tuple(registry.current(name, ka, kb) for name, ask in asked.items()
                            if ask)


def _through(query, name, a, b):
    return query(name, a, b)


#: :func:`algorithms.registry.query` as imported: a plan asks through whatever replaced it
_REGISTRY_QUERY = registry.query


def plan(ka: str, kb: str) -> Plan:
    """The :class:`Plan` of the kind pair ``(ka, kb)`` (cached, see there). While
    ``registry.query`` is replaced (a test injecting a failure, an instrument counting
    calls), the plan asks every query through the replacement and fuses nothing."""
    if registry.query is not _REGISTRY_QUERY:
        return Plan(ka, kb, through=registry.query)
    return registry.derived(("plan", ka, kb), lambda: Plan(ka, kb))


def _ask(name, fn, a, b, methods, errors, *args):
    """``fn(a, b, *args)``, the lean dispatch of query ``name``: its record, with its method
    added to ``methods``; or ``None`` with what failed in ``errors`` (never a crash)."""
    try:
        result = fn(a, b, *args)
    except registry.QueryNotAvailable as exc:
        errors.append(str(exc))
        return None
    except GeometryError as exc:  # a refusal that says why (BeyondFloatRange): no type name,
        why = f" failed for {a.kind}-{b.kind}: {exc}"  # and said once for every query it stops
        for i, said in enumerate(errors):
            if said.endswith(why):
                errors[i] = f"{said[:-len(why)]}, {name}{why}"
                break
        else:
            errors.append(name + why)
        return None
    except Exception as exc:  # noqa: BLE001 - reported on the pair, never a crash
        errors.append(f"{name} failed for {a.kind}-{b.kind}: {type(exc).__name__}: {exc}")
        return None
    m = result.method
    if m and m not in methods:
        methods.append(m)
    return result


def _query(p: Plan, name: str, fn, a, b, methods, errors):
    """:func:`_ask` for a query of the plan, or ``None`` (with the plan's error when the query
    is asked and nothing answers it)."""
    if fn is None:
        if name in p.missing:
            errors.append(p.missing[name])
        return None
    return _ask(name, fn, a, b, methods, errors)


def _evaluate(a, b, motion_a, motion_b, id_a, id_b, hollow_a, hollow_b) -> PairAnswer:
    p = plan(a.kind, b.kind)
    methods: list[str] = []
    errors: list[str] = []

    fused = None
    if p.fused is not None:
        pa = a.__dict__.get(PLAIN_KEY)
        pb = b.__dict__.get(PLAIN_KEY)
        if (pa if pa is not None else plain(a)) and (pb if pb is not None else plain(b)):
            try:
                fused = p.fused(a, b)
            except Exception:  # noqa: BLE001 - the queries one by one report what fails
                fused = None
    if fused is not None:
        dist, inter, hits = fused
        for r in fused:
            m = r.method
            if m and m not in methods:
                methods.append(m)
        distance = float(dist.distance)
        c0, c1 = dist.closest
        closest = (_vec(c0), _vec(c1))
        intersects = bool(inter.intersects)
    else:
        dist = _query(p, "distance", p.distance, a, b, methods, errors)
        inter = _query(p, "intersects", p.intersects, a, b, methods, errors)
        distance = closest = None
        if dist is not None:
            distance = float(dist.distance)
            c0, c1 = dist.closest
            closest = (_vec(c0), _vec(c1))
        intersects = None
        if inter is not None:
            intersects = bool(inter.intersects)

    separating_axis = None
    sep = None
    if p.separation is not None:  # (asked only where one is registered: never missing)
        sep = _ask("separating_axis", p.separation, a, b, methods, errors)
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
        mid = midpoint(closest[0], closest[1])
        closest = (mid, mid)

    axis_from_closest = False
    if p.separable and separating_axis is None and intersects is False:
        if dist is not None and distance > 0:
            c0, c1 = closest  # (float tuples: the same differences numpy would take)
            u = unit((c1[0] - c0[0], c1[1] - c0[1], c1[2] - c0[2]))
            if u is not None:  # (tolerance.unit: |d|^2 cannot overflow at 1e200)
                separating_axis = u
                axis_from_closest = True

    first_t = None
    t_beyond = False  # the hits said first_t's t is beyond the floats (said once)
    if fused is None:
        hits = (_query(p, "hits", p.hits, a, b, methods, errors) if a.kind in LINEAR_KINDS
                else None)
    if hits is not None:
        first_t = None if hits.first_t is None else float(hits.first_t)
        if first_t is not None and not math.isfinite(first_t):
            # the hit exists, but its t (|hit - origin| / |direction|) is beyond the doubles:
            # say so rather than a null that reads as "no hit"
            errors.append(f"hits: the first hit's parameter t on {id_a} ({a.kind}) is beyond "
                          f"the float range ({_T_BEYOND}); first_t is null")
            first_t = None
            t_beyond = True

    side_rec = side = None
    if p.asks_side:
        side_rec = _query(p, "side", p.side, a, b, methods, errors)
        if side_rec is not None:
            side = int(side_rec.side)

    contact = toi = rel = point = normal = None
    if motion_a is not None or motion_b is not None:
        rel = relative_motion(motion_a, motion_b)
        contact = _ask("toi", lambda _a, _b: toi_world(a, b, motion_a, motion_b), a, b,
                       methods, errors)
        if contact is not None:
            toi = None if contact.toi is None else float(contact.toi)
            if contact.point is not None and contact.toi is not None:
                point = _vec(contact.point)
            if contact.normal is not None:
                normal = _vec(contact.normal)

    # one consistent answer from the separately computed keys (algorithms.core.tolerance);
    # clearly apart, reconcile has nothing to change (its own first test)
    reconciled = ()
    if not clearly_apart(a, b, intersects, distance, closest, first_t, side, toi):
        settled = reconcile(a, b, intersects=intersects, distance=distance, closest=closest,
                            separating_axis=separating_axis, first_t=first_t, side=side,
                            toi=toi,
                            parameter=dist.parameter if dist is not None else (None, None),
                            moving=rel is not None)
        reconciled = tuple(settled["notes"])
        if reconciled:
            intersects, distance = settled["intersects"], settled["distance"]
            separating_axis, first_t = settled["separating_axis"], settled["first_t"]
            side, toi = settled["side"], settled["toi"]
            if settled["closest"] is not None:
                closest = (_vec(settled["closest"][0]), _vec(settled["closest"][1]))
            if separating_axis is None or any(n.endswith(AXIS_FROM_SAT) for n in reconciled):
                axis_from_closest = False
            else:
                separating_axis = _vec(separating_axis)
            if first_t is not None and not math.isfinite(first_t):
                # "first_t from the closest point" of a ray whose direction is 1.7e-282 long:
                # the point is 3e26 out, its t beyond the doubles (inf, written as a bare null);
                # said once (the hits' own message may have said it already)
                if not t_beyond:
                    errors.append(f"first_t: the parameter t of {id_a}'s ({a.kind}) closest "
                                  f"point is beyond the float range ({_T_BEYOND}); first_t is "
                                  f"null")
                first_t = None

    # every field given, in the dataclass's order: the same frozen record, built in one go
    # (results.make_with: the dict becomes the record's own)
    return make_with(PairAnswer, {
        "a": id_a, "b": id_b, "pair": p.pair, "intersects": intersects, "distance": distance,
        "closest": closest, "first_t": first_t, "separating_axis": separating_axis,
        "side": side, "toi": toi, "contact_point": point, "contact_normal": normal,
        "relative_motion": rel, "distance_rounding": distance_rounding,
        "axis_from_closest": axis_from_closest,
        "contains": Deferred(contains, a, b, hollow_a, hollow_b),
        "lines": Deferred(classify_linear_pair, a, b) if p.lines else None,
        "plane2d": Deferred(plane2d_of, a, b) if p.plane2d else None,
        "reconciled": reconciled, "methods": tuple(methods), "errors": tuple(errors),
        "records": make_with(Records, {"distance": dist, "intersection": inter, "hits": hits,
                                       "separation": sep, "side": side_rec,
                                       "contact": contact})})
