"""Time of impact for every pair of kinds, from the static distance query.

The Primer reduces two motions to one (Dunn & Parberry, 3D Math Primer, App. A.6): A is still
and B translates by ``t * motion``. For convex A and B the distance

    ``f(t) = dist(A, B + t motion) = dist(0, (B - A) + t motion)``

is a **convex** function of ``t`` (the distance to a convex set, the Minkowski difference
``B - A``, is convex, and ``t -> t motion`` is affine). This holds for the unbounded kinds too
(ray, line, plane are convex), so everything here works for every pair whose static distance
query answers. Where ``f(t) > 0`` it is differentiable with ``f'(t) = n . motion``, ``n`` the
unit vector from A's closest point to B's (unique for convex sets at positive distance).

Two methods, both registered for all 121 ordered pairs:

``conservative_advancement`` (priority -10, the default where no exact test exists)
    Conservative advancement (Mirtich) with the closing speed along the closest-point direction,
    ``-n . motion``: advance ``t`` by ``distance / closing speed``. Because ``f`` is convex,
    ``f(t + s) >= f(t) - s (-f'(t))``, so the step never passes the first contact: it is Newton's
    method on a convex decreasing function, converging monotonically from below. Each step
    aims at the level ``tol / 2`` (a margin against rounding in the distance query); a closing
    speed ``<= 0`` proves ``f`` non-decreasing from there on (no contact); a step past ``t = 1``
    proves no contact in ``[0, 1]``. After at most ``max_iter`` steps (a grazing contact converges
    only linearly) it falls back to the convex search below on the remaining interval; a final
    Newton step to level ``0`` polishes the time.
``convex_search`` (priority -20, a cross-check)
    Golden-section search for the minimum of the convex ``f`` on ``[0, 1]``, then bisection of
    ``[0, t_min]`` for the first ``t`` with ``f(t) <= tol`` (the sublevel set of a convex
    function is an interval).

*Fast path.* For two bounded float shapes :func:`conservative_advancement` (with the default
distance and tolerance) first runs :func:`algorithms.kernels.toi_fast.fast_advancement`: the
same loop, tolerance, cases and trace keys (plus ``"path"``) on plain floats, a warm-started
GJK whose separating planes bound the steps, closed forms for point/segment cores; where it
cannot vouch for an answer (touching at ``t = 0``, a step into contact, a GJK stall it cannot
settle) the careful path below answers. :func:`algorithms.kernels.toi_fast.off` and
:func:`algorithms.kernels.filters.careful_only` run the careful path alone (issue 12 asks
10x; ``explorer bench kernels --rounds 15``'s moving pairs measured 10.0-27.9x in three runs
on 2026-12-02, CPU time on a loaded 2-core machine: sphere-capsule 10.0-12.3x,
aabb-triangle 10.8-12.2x, the others 11.2x and up).

A moving point against X is a segment ray cast (A.6: "a ray can be seen as a moving point"):
``moving_point_ray_cast`` (priority -5) asks the ``"hits"`` query of the segment ``p -+ motion``
when one is registered for the pair, and the conservative advancement otherwise.

``toi`` is the least ``t`` in ``[0, 1]`` with ``f(t) <= tol`` (``0`` when already within
``tol``), refined to ``f = 0``; ``None`` when the objects do not touch within ``[0, 1]``. The
default tolerance is ``1e-9`` times the largest of ``|motion|``, ``f(0)`` and the coordinates of
the initial closest points (the scale of the rounding in the distance query).

Accuracy (measured by ``tests/algorithms/generic/test_toi_accuracy.py`` with ``TOI_ACCURACY_N=2000``,
against the exact tests, on the registry's static distances): over 2000 random cases per pair
(52-70 % colliding), the largest ``|toi - toi_exact|`` of this method is 4.4e-15
(sphere-sphere, A.13), 2.3e-14 (plane-sphere, A.15), 3.3e-16 (aabb-aabb, A.17) and 6.7e-15
(sphere-aabb, rounded box), with no hit/miss disagreement and a median of 2-3 static queries
per case (``convex_search``: below 8e-14, about 61 queries). On 400 grazing paths per pair
(closest approach ``|gap|`` log-uniform in ``[1e-12, 1e-2]``) the error stays below 5e-7
(1e-6 for ``convex_search``) and hit/miss differs only for ``|gap| < 1e-8`` (the tolerance).
Across 1500 random pairs of the 8 bounded kinds the three general methods (this one,
``convex_search`` and ``gjk_ray_cast``) never disagree on hit/miss and agree to 1e-8 (1.9e-8
with a cylinder, whose GJK distance converges only to a tolerance).
"""

from __future__ import annotations

import math
from typing import Callable, Optional

import numpy as np

from algorithms import registry
from algorithms.core.minimize import golden_section
from algorithms.kernels import filters, toi_fast
from algorithms.kernels.motion import a6_trace
from algorithms.primitives import TYPES, Segment
from algorithms.registry import register
from algorithms.results import ContactResult, Deferred

TOL_REL = 1e-9

METHOD_CA = ("conservative advancement on the static distance, Newton steps on the convex "
             "d(t) (Mirtich; Dunn & Parberry, 3D Math Primer, App. A.6 relative motion)")
METHOD_SEARCH = ("convex 1-D search on the static distance d(t): golden section, then "
                 "bisection (Dunn & Parberry, 3D Math Primer, App. A.6 relative motion)")
METHOD_POINT = ("moving point as a segment ray cast, first_t of the hits query (Dunn & "
                "Parberry, 3D Math Primer, App. A.6: a ray is a moving point)")


def _registry_distance(a, b):
    return registry.query("distance", a, b)


class _Distance:
    """``f(t)`` with its closest points, counting the static queries."""

    def __init__(self, a, b, motion, distance: Optional[Callable]):
        self.a, self.b = a, b
        self.m = np.asarray(motion, dtype=float)
        self.query = distance or _registry_distance
        self.calls = 0

    def __call__(self, t: float):
        self.calls += 1
        b = self.b if t == 0 else self.b.translated(tuple(float(c) for c in t * self.m))
        r = self.query(self.a, b)
        pa = np.asarray(r.closest[0], dtype=float)
        pb = np.asarray(r.closest[1], dtype=float)
        return float(r.distance), pa, pb

    def direction(self, pa, pb):
        """Unit ``n`` from A's closest point to B's, or None when they coincide."""
        v = pb - pa
        nv = float(np.linalg.norm(v))
        return v / nv if nv > 0 and math.isfinite(nv) else None


def _tolerance(m, f0, tol, pa=None, pb=None):
    """``1e-9`` times the problem's scale: the motion, the initial gap and the coordinates'
    magnitude (the distance query's rounding grows with it)."""
    if tol is not None:
        return float(tol)
    scale = max(float(np.linalg.norm(m)), f0 if math.isfinite(f0) else 0.0)
    for p in (pa, pb):
        if p is not None and np.all(np.isfinite(p)):
            scale = max(scale, float(np.max(np.abs(p))))
    return TOL_REL * scale if scale > 0 else 1e-300


def _result(method, trace, toi, pa=None, pb=None, normal=None):
    point = None
    if toi is not None and pa is not None:
        point = tuple(float(c) for c in (pa + pb) / 2)
    nrm = None if normal is None else tuple(float(c) for c in normal)
    return ContactResult(method=method, trace=trace, toi=toi, point=point, normal=nrm)


def _first_sublevel(F, lo, hi, tol, iters=60):
    """Bisection: ``f(lo) > tol >= f(hi)``; the least ``t`` in ``(lo, hi]`` with ``f <= tol``
    (to within ``(hi - lo) 2^-iters``), returned as the upper end."""
    for _ in range(iters):
        mid = (lo + hi) / 2
        if mid <= lo or mid >= hi:
            break
        if F(mid)[0] <= tol:
            hi = mid
        else:
            lo = mid
    return hi


def _polish(F, t, f, pa, pb, m, trace, steps=40):
    """Newton steps from ``f(t) <= tol`` to level 0: each is a convex-underestimate bound, so
    none passes the contact. One step lands on it for a transversal contact; a grazing one
    (``f ~ k (t - t0)^2``) halves its error per step, so steps go on while ``f`` is above
    ``1e-3 tol`` (below it the closest-point direction is rounding noise)."""
    n = F.direction(pa, pb)
    t0 = t
    done = 0
    floor = 1e-3 * trace["tol"]
    while done < steps and n is not None and f > 0:
        closing = -float(n @ m)
        if closing <= 0:
            break
        t2 = min(1.0, t + f / closing)
        if t2 <= t:
            break
        f2, pa2, pb2 = F(t2)
        done += 1
        t, f, pa, pb = t2, f2, pa2, pb2
        if f <= floor or t2 >= 1.0:
            break
        n = F.direction(pa, pb)
    trace["polish"] = {"from_t": t0, "t": t, "distance": f, "steps": done}
    return t, f, pa, pb, n


def _search(F, lo, hi, tol, trace, f_lo=None):
    """Convex search on ``[lo, hi]`` (``f(lo) > tol``); returns ``(t, f, pa, pb)`` or None."""
    best = [(F(hi), hi)]

    def f(t):  # golden section on the distance; remember the least point seen
        r = F(t)
        if r[0] < best[0][0][0]:
            best[0] = (r, t)
        return r[0]

    golden_section(f, lo, hi, max_steps=80,
                   tol=lambda a, b: best[0][0][0] <= tol or b - a <= 1e-12 * max(1.0, abs(b)))
    (fmin, pa, pb), tmin = best[0]
    trace["search_min"] = {"t": tmin, "distance": fmin}
    if fmin > tol:
        return None
    t = _first_sublevel(F, lo, tmin, tol)
    f, pa, pb = F(t)
    return t, f, pa, pb


class _StepRecorder:
    """``trace["steps"]`` of :func:`conservative_advancement` when it is asked to record
    (:class:`algorithms.traces.AdvancementStep`): copies of the loop's values, never an input
    to it."""

    def __init__(self, trace):
        self.rows = trace["steps"] = []

    def row(self, phase, t, f, pa, pb, **more):
        self.rows.append({"phase": phase, "t": float(t), "distance": float(f),
                          "closest": (tuple(float(c) for c in pa), tuple(float(c) for c in pb)),
                          **more})

    def advance(self, t, f, closing, pa, pb, n, tol):
        # the loop's own step: dt = (d - tol / 2) / closing (aiming at the level tol / 2)
        dt = (f - tol / 2) / closing if closing > 0 else None
        self.row("advance", t, f, pa, pb, closing_speed=float(closing),
                 normal=tuple(float(c) for c in n), dt=dt,
                 t_next=None if dt is None else t + dt)


def conservative_advancement(a, b, motion, *, distance: Optional[Callable] = None,
                             tol: Optional[float] = None, max_iter: int = 64,
                             record: bool = False) -> ContactResult:
    """Time of impact by conservative advancement on the distance (module docstring).

    ``distance(a, b) -> DistanceResult`` defaults to the registry's ``"distance"`` query (the
    tests pass closed-form oracles). ``trace["iterations"]`` lists ``t``, ``distance`` and the
    ``closing_speed`` of every step. ``record=True`` also keeps ``trace["steps"]``: every
    iteration with its closest points, the step ``dt`` and the next ``t``, and a last row at the
    ``toi`` (:class:`algorithms.traces.AdvancementStep`; the explorer's time line and
    step-through draw them). Recording reads the loop's values and changes none of them; off,
    it costs one test per iteration.
    """
    if distance is None and tol is None:
        fast = _fast_advancement(a, b, motion, max_iter, record)
        if fast is not None:
            return fast
    F = _Distance(a, b, motion, distance)
    m = F.m
    f, pa, pb = F(0.0)
    tol = _tolerance(m, f, tol, pa, pb)
    trace = {"A.6": a6_trace(motion), "tol": tol}
    iterations = []
    trace["iterations"] = iterations
    steps = _StepRecorder(trace) if record else None
    if f <= tol:
        trace["case"] = "within tol at t = 0: already touching or intersecting"
        trace["static_queries"] = F.calls
        if steps is not None:
            steps.row("toi", 0.0, f, pa, pb)
        return _result(METHOD_CA, trace, 0.0, pa, pb, F.direction(pa, pb) if f > 0 else None)
    t = 0.0
    n = None
    converged = False
    for _ in range(max_iter):
        n = F.direction(pa, pb)
        if n is None:
            break
        closing = -float(n @ m)
        iterations.append({"t": t, "distance": f, "closing_speed": closing})
        if steps is not None:
            steps.advance(t, f, closing, pa, pb, n, tol)
        if closing <= 0:
            trace["case"] = "closing speed <= 0: d(t) is non-decreasing from here (convex)"
            trace["static_queries"] = F.calls
            return _result(METHOD_CA, trace, None)
        t_new = t + (f - tol / 2) / closing
        if t_new > 1:
            f1 = F(1.0)
            if f1[0] > tol:
                if steps is not None:
                    steps.row("end", 1.0, *f1)
                trace["case"] = "the advancement bound passes t = 1: no contact in [0, 1]"
                trace["static_queries"] = F.calls
                return _result(METHOD_CA, trace, None)
            t_new = 1.0
        f_new, pa_new, pb_new = F(t_new)
        if f_new <= 0 and t_new > t:
            # interpenetration: a step past the contact (only from rounding in the distance
            # query); back off by bisection between the last safe time and this one
            trace["overshoot"] = {"t": t_new}
            t_new = _first_sublevel(F, t, t_new, tol)
            f_new, pa_new, pb_new = F(t_new)
        t, f, pa, pb = t_new, f_new, pa_new, pb_new
        if f <= tol:
            converged = True
            break
    if not converged:
        iterations.append({"t": t, "distance": f, "closing_speed": None})
        if steps is not None:
            steps.row("search", t, f, pa, pb)
        trace["fallback"] = "convex search (slow advancement: grazing contact)"
        found = _search(F, t, 1.0, tol, trace)
        if found is None:
            trace["case"] = "the minimum of d(t) on [t, 1] stays above tol: no contact"
            trace["static_queries"] = F.calls
            return _result(METHOD_CA, trace, None)
        t, f, pa, pb = found
    n_last = n
    t, f, pa, pb, n = _polish(F, t, f, pa, pb, m, trace)
    trace.update({"case": "d(t) reached tol", "toi": t, "distance_at_toi": f,
                  "static_queries": F.calls})
    if steps is not None:
        steps.row("toi", t, f, pa, pb)
    return _result(METHOD_CA, trace, t, pa, pb, n if n is not None else n_last)


_new = object.__new__
_FILTERS_ON = filters._state
_TOI_FAST_ON = toi_fast._state
_FAST_KINDS = frozenset(toi_fast.KINDS)

FAST_PATH = ("fast path: plain floats, GJK warm-started between steps, its separating planes "
             "as step bounds (algorithms.kernels.toi_fast)")


def _fast_advancement(a, b, motion, max_iter, record=False) -> Optional[ContactResult]:
    """:func:`algorithms.kernels.toi_fast.fast_advancement` for two bounded float primitives
    (issue 12: 10x faster), or ``None``: then the careful path below answers (always inside
    :func:`algorithms.kernels.filters.careful_only`)."""
    # (the switches' flags and the kinds probed directly: filters.enabled(), toi_fast.enabled()
    # and toi_fast.KINDS without the calls and the tuple scan)
    if not (_FILTERS_ON["enabled"] and _TOI_FAST_ON["enabled"]) \
            or a.kind not in _FAST_KINDS or b.kind not in _FAST_KINDS or a.exact or b.exact:
        return None
    F = []  # the careful path's f(t), made on first use (GJK stalls near a curved rim)

    def careful(t):
        if not F:
            F.append(_Distance(a, b, motion, None))
        f, pa, pb = F[0](t)
        return f, tuple(float(c) for c in pa), tuple(float(c) for c in pb)

    out = toi_fast.fast_advancement(a, b, motion, careful=careful, tol_rel=TOL_REL,
                                    max_iter=max_iter,
                                    recorder=_StepRecorder if record else None, raw=True)
    if out is None:
        return None
    toi, point, normal, part = out
    # the record as the filtered kernels make theirs (results.make_with, the trace built when
    # read: the same dict, key for key); the motion as the floats a6_trace takes of it, now
    d = (float(motion[0]), float(motion[1]), float(motion[2])) if len(motion) == 3 else \
        tuple(float(c) for c in motion)
    # (the fields stored into the new record's own __dict__: results.make_with without its
    # object.__setattr__ of __dict__, the dearest step of a record made per query)
    r = _new(ContactResult)
    fields = r.__dict__
    fields["method"] = METHOD_CA
    fields["trace"] = Deferred(_fast_trace, d, part)
    fields["toi"] = toi
    fields["point"] = point
    fields["normal"] = normal if toi is not None else None
    return r


def _fast_trace(d, part):
    """The fast path's trace: the A.6 entry, the loop's keys, ``"path"``."""
    return {"A.6": a6_trace(d), **toi_fast.trace_part(part), "path": FAST_PATH}


def convex_search(a, b, motion, *, distance: Optional[Callable] = None,
                  tol: Optional[float] = None) -> ContactResult:
    """Time of impact by a convex 1-D search on the distance (module docstring)."""
    F = _Distance(a, b, motion, distance)
    m = F.m
    f, pa, pb = F(0.0)
    tol = _tolerance(m, f, tol, pa, pb)
    trace = {"A.6": a6_trace(motion), "tol": tol}
    if f <= tol:
        trace["case"] = "within tol at t = 0: already touching or intersecting"
        trace["static_queries"] = F.calls
        return _result(METHOD_SEARCH, trace, 0.0, pa, pb, F.direction(pa, pb) if f > 0 else None)
    found = _search(F, 0.0, 1.0, tol, trace)
    if found is None:
        trace["case"] = "the minimum of d(t) on [0, 1] stays above tol: no contact"
        trace["static_queries"] = F.calls
        return _result(METHOD_SEARCH, trace, None)
    t, f, pa, pb = found
    # the direction just before the contact, for the normal
    tb = max(0.0, t - 1e-6)
    _, qa, qb = F(tb)
    n_before = F.direction(qa, qb)
    t, f, pa, pb, n = _polish(F, t, f, pa, pb, m, trace)
    trace.update({"case": "d(t) reached tol", "toi": t, "distance_at_toi": f,
                  "static_queries": F.calls})
    return _result(METHOD_SEARCH, trace, t, pa, pb, n if n is not None else n_before)


def point_ray_cast(pt, x, motion) -> ContactResult:
    """A still point A against X moving by ``motion``: X still, the point moves by
    ``-motion`` along the segment ``p -> p - motion``; its first hit parameter is the ``toi``
    (A.6). Falls back to :func:`conservative_advancement` when no ``"hits"`` query answers
    ``segment``-X."""
    if not registry.has_query("hits", "segment", x.kind, specific=True):
        return conservative_advancement(pt, x, motion)
    p = np.asarray(pt.position, dtype=float)
    m = np.asarray(motion, dtype=float)
    seg = Segment(tuple(p), tuple(p - m))
    hits = registry.query("hits", seg, x)
    trace = {"A.6": a6_trace(motion), "segment": (seg.p0, seg.p1), "first_t": hits.first_t,
             "hits_method": hits.method}
    if hits.first_t is None:
        trace["case"] = "the point's path misses X"
        return ContactResult(method=METHOD_POINT, trace=trace, toi=None)
    toi = float(hits.first_t)
    normal = None
    for h in hits.hits:
        if h.normal is not None and abs(float(h.t) - toi) <= 1e-12:
            nv = -np.asarray(h.normal, dtype=float)
            ln = float(np.linalg.norm(nv))
            normal = tuple(float(c) for c in nv / ln) if ln > 0 else None
            break
    if toi == 0:
        normal = None
    trace["case"] = "first hit of the point's path"
    return ContactResult(method=METHOD_POINT, trace=trace, toi=toi,
                         point=tuple(float(c) for c in p), normal=normal)


def _register_all():
    kinds = list(TYPES)
    for ka in kinds:
        for kb in kinds:
            register("toi", ka, kb, name="conservative_advancement",
                     priority=-10)(conservative_advancement)
            register("toi", ka, kb, name="convex_search", priority=-20)(convex_search)
    for kx in kinds:
        if kx == "plane":
            continue
        register("toi", "point", kx, name="moving_point_ray_cast", priority=-5)(point_ray_cast)


_register_all()
