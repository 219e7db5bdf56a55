"""One typed answer per pair: :class:`PairAnswer`, what :func:`~algorithms.evaluate_pair` returns.

Like Box2D's output structs, every field is documented here once; views (overlays, panels,
explain text) read these fields and the records behind them, never string paths into JSON.
:mod:`algorithms.report` writes the scene-v1 result object (``explorer eval``) from it.

The reconciled keys (``intersects`` ... ``toi``) follow the spec's meanings and never contradict
each other: a dedicated test that says "touching" forces ``distance = 0`` (the distance query's
own value is kept in ``distance_rounding``) and a separating axis is derived from the closest
points of two convex shapes at positive distance when the pair has no separating-axis test
(``axis_from_closest``). The library records each key came from are in ``records``.

Examples
--------
>>> from algorithms import Segment, Sphere, evaluate_pair
>>> ans = evaluate_pair(Segment((0, 0, 0), (1, 0, 0)), Sphere((0.5, 2, 0), 0.5),
...                     motion_b=(0, -3, 0))
>>> ans.pair, ans.distance, ans.toi, ans.intersects
('segment-sphere', 1.5, 0.5, False)
>>> ans.closest[1]
(0.5, 1.5, 0.0)
>>> ans.records.distance.parameter[0]  # the segment's parameter of its closest point
0.5
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from algorithms.results import (ContactResult, DeferredField, DistanceResult, HitResult,
                                IntersectionResult, SeparationResult, SideResult)

Vec3 = tuple  # (x, y, z) of floats


@dataclass(frozen=True)
class Records:
    """The library's result records behind a :class:`PairAnswer`, one per query family that ran
    (``None`` where the query does not apply or failed). Each has ``method`` and ``trace``."""

    #: ``distance`` query: closest points, parameters, the method's trace
    distance: Optional[DistanceResult] = None
    #: dedicated test-intersection query (``None`` when ``intersects`` came from elsewhere)
    intersection: Optional[IntersectionResult] = None
    #: ray cast of a linear A against B: every hit with its point, normal and kind
    hits: Optional[HitResult] = None
    #: separating-axis test: every candidate axis with ``r_A``, ``r_B`` and the margin
    separation: Optional[SeparationResult] = None
    #: plane side: ``signed_distance`` and ``effective_radius``
    side: Optional[SideResult] = None
    #: time of impact, its contact point in world coordinates (A moved by toi * motion_a)
    contact: Optional[ContactResult] = None


@dataclass(frozen=True)
class PairAnswer:
    """Everything the library says about the pair ``(A, B)``, computed once."""

    #: id of A (the query's first object)
    a: str
    #: id of B
    b: str
    #: the two types in query order, ``"segment-sphere"``
    pair: str
    #: the point sets share a point at t = 0 (touching counts); ``None`` if unanswered
    intersects: Optional[bool] = None
    #: Euclidean distance at t = 0; exactly ``0.0`` when ``intersects``
    distance: Optional[float] = None
    #: ``(point of A, point of B)``, ``distance`` apart
    closest: Optional[tuple[Vec3, Vec3]] = None
    #: least parameter of a linear A touching B (``None``: never, or unbounded below)
    first_t: Optional[float] = None
    #: unit vector on which the projections are disjoint; ``None`` when they intersect
    separating_axis: Optional[Vec3] = None
    #: 1 in front of the plane, -1 behind, 0 touching or straddling
    side: Optional[int] = None
    #: least t in [0, 1] at which the moving objects touch; ``None``: not within [0, 1]
    toi: Optional[float] = None
    #: a contact point at ``toi`` in world coordinates (A moved by ``toi * motion_a``)
    contact_point: Optional[Vec3] = None
    #: the contact normal at ``toi``, from A towards B
    contact_normal: Optional[Vec3] = None
    #: B's motion relative to A (Primer A.6), ``None`` when nothing moves
    relative_motion: Optional[Vec3] = None
    #: the distance query's own value when a dedicated test decided "touching"
    distance_rounding: Optional[float] = None
    #: ``separating_axis`` was derived from the closest points (no separating-axis test)
    axis_from_closest: bool = False
    #: Boreskov's containment: ``"a"`` (A holds all of B), ``"b"``, ``"none"``; ``None`` for
    #: pairs it does not answer (:data:`algorithms.extras.containment.CONTAINS_PAIRS`)
    contains: Optional[str] = None
    #: two linear components: App. A.8's classification of their lines
    #: (:class:`algorithms.extras.planes.TwoRaysResult`: crossing, parallel, coincident, skew)
    lines: Optional[object] = None
    #: a pair in the z = 0 plane seen in 2D: lines as ``a x + b y = d`` (App. A.1, A.7;
    #: :func:`algorithms.extras.planes.plane2d_of`)
    plane2d: Optional[dict] = None
    #: what :func:`algorithms.core.tolerance.reconcile` changed so that no key contradicts
    #: another (touching within the band, an axis that did not separate, a clamped toi)
    reconciled: tuple = ()
    #: the methods that produced the answer, in the order they ran (each with its section)
    methods: tuple = ()
    #: what failed or is not available for this pair (empty when all answered)
    errors: tuple = ()
    #: the library records behind the keys
    records: Records = Records()

    @property
    def method(self) -> Optional[str]:
        """The methods as ``explorer eval`` writes them: joined by ``"; "``."""
        return "; ".join(self.methods) if self.methods else None

    @property
    def error(self) -> Optional[str]:
        return "; ".join(self.errors) if self.errors else None

    @property
    def ids(self) -> tuple[str, str]:
        return (self.a, self.b)

    @property
    def kinds(self) -> tuple[str, str]:
        ka, _, kb = self.pair.partition("-")
        return (ka, kb)


for _name in ("contains", "lines", "plane2d"):
    # computed on first access and kept: the extras evaluate_pair does not need for the
    # other keys; read on the class, the field's default (None)
    setattr(PairAnswer, _name, DeferredField(_name, on_class=None))
