"""The documented schema of each method family's ``trace`` (Box2D style: one comment a key).

A result record's ``trace`` is a dict under the book's names; the families the explorer draws
and explains have their keys declared here as :class:`typing.TypedDict`\\ s (``total=False``:
a key is absent where the method did not reach that step). Views read these keys and nothing
else; ``tests/algorithms/test_traces.py`` checks, on every shipped scene, that every key a view
reads is present in the record it reads it from.

:data:`FAMILIES` maps a family to its schema and to the keys that are always present.
"""

from __future__ import annotations

from typing import Any, Optional, TypedDict


class StPlaneCandidate(TypedDict, total=False):
    #: which edge of the domain (``"s=0"``, ``"t=1"``...) or ``"interior"``
    edge: str
    #: the candidate's parameters and squared distance Q(s, t)
    s: float
    t: float
    Q: float


class StPlaneTrace(TypedDict, total=False):
    """Linear component against linear component (Eberly & Schneider, GTCG §10.8)."""

    #: Q(s, t) = a s^2 + 2b st + c t^2 + 2d s + 2e t + f: the book's coefficients
    a: float
    b: float
    c: float
    d: float
    e: float
    f: float
    #: a c - b^2 (0: parallel)
    det: float
    #: the unconstrained minimiser (absent when parallel)
    s_bar: float
    t_bar: float
    #: the directions are parallel (det = 0 within rounding)
    parallel: bool
    #: the st-plane region 0-8 of (s_bar, t_bar) (Fig. 10.36; Fig. 10.35 for a half-strip)
    region: int
    #: every conditional minimum the solver evaluated (it never trusts the region alone)
    candidates: list
    #: the chosen edge (``"interior"`` in region 0)
    edge: str
    #: the chosen minimiser and its squared distance
    s: float
    t: float
    sqr_distance: float
    #: the domain of (s, t): ``[[s_lo, s_hi], [t_lo, t_hi]]`` (``None`` ends unbounded)
    domain: Any
    #: distances within this count as touching (scene-v1: touching intersects)
    touch_tolerance: float
    #: computed for the arguments in the other order (s and t exchanged)
    swapped: bool


class SatAxis(TypedDict, total=False):
    """One candidate axis of a separating-axis test (GTCG §11.12.7-11.12.9)."""

    #: the book's name: ``A0``, ``B2``, ``A1xB0``, ``edge0 x B1``, ``w0 x w1``...
    name: str
    #: the axis (not necessarily unit)
    axis: Any
    #: the half-lengths of A's and B's projections on the axis
    r_A: float
    r_B: float
    #: the distance between the projections' centres
    distance: float
    #: distance - (r_A + r_B): positive separates
    margin: float
    #: this axis separates
    separating: bool


class SatTrace(TypedDict, total=False):
    """A separating-axis test's trace (boxes, triangles, cylinders, round shapes)."""

    #: every candidate axis tested, in the book's order
    axes: list
    #: the name of the separating axis reported (``None`` when they intersect)
    chosen: Optional[str]
    #: the axis of least overlap when they intersect
    least_overlap: str
    #: cylinders: which of the book's tests found the direction
    found_by: str
    #: cylinders: a point of both when they intersect, and how sure the decision is
    witness: Any
    certificate: str
    #: axes skipped as degenerate (parallel edges: a zero cross product)
    skipped_axes: list


class MovingAabbsAxis(TypedDict, total=False):
    """One axis of the moving-AABB test (Primer A.17, Listing A.5, Fig. A.16)."""

    #: ``"x"``, ``"y"`` or ``"z"``
    axis: str
    #: the relative velocity on that axis
    d: float
    #: the interval of t over which the boxes overlap on that axis
    t_enter: float
    t_leave: float
    #: d = 0: overlapping for every t or for none
    zero_velocity: bool
    #: with d = 0: whether the boxes overlap on that axis (then for every t)
    overlap: bool
    #: t_enter and t_leave were swapped because d < 0
    swapped: bool


class MovingAabbsTrace(TypedDict, total=False):
    """Time of impact of two moving AABBs (Primer A.17) and other time-of-impact traces."""

    #: the per-axis intervals (A.17 only)
    axes: list
    #: the intersection of the per-axis intervals
    t_enter: float
    t_leave: float
    #: how the time of impact was decided, in words
    case: str


class AdvancementStep(TypedDict, total=False):
    """One row of ``trace["steps"]`` of conservative advancement, kept only when the method is
    asked to record (``conservative_advancement(..., record=True)``; Mirtich; Dunn & Parberry,
    3D Math Primer, App. A.6). A is still, B has moved by ``t * motion`` (A's frame)."""

    #: ``"advance"`` (an iteration), ``"end"`` (the distance at t = 1 when the bound passes
    #: it), ``"search"`` (where the grazing fallback starts) or ``"toi"`` (the last row: the
    #: time of impact after the final Newton polish)
    phase: str
    #: the time t_i of this row
    t: float
    #: the distance d(t_i) from the static distance query
    distance: float
    #: the closest points at t_i: ``(p_A, p_B)`` (on A, on B moved by t_i motion)
    closest: Any
    #: the unit n = (p_B - p_A) / |p_B - p_A| (``"advance"`` rows)
    normal: Any
    #: the bound on the closing speed, -n . motion: d(t) falls no faster than this (convexity)
    closing_speed: float
    #: the step dt = (d - tol / 2) / closing_speed (d / bound, aiming at the level tol / 2);
    #: ``None`` when the closing speed is <= 0 (no contact: d grows from here)
    dt: Optional[float]
    #: t_i + dt, the next time (past 1: no contact in [0, 1])
    t_next: Optional[float]


class AdvancementTrace(TypedDict, total=False):
    """The trace of conservative advancement (:mod:`algorithms.generic.advancement`)."""

    #: the A.6 reduction: ``{"reduction", "d", "l"}``, d the relative motion B - A
    #: (a string key: ``trace["A.6"]``)
    #: distances within this count as contact (1e-9 times the problem's scale)
    tol: float
    #: every iteration: ``{"t", "distance", "closing_speed"}`` (always kept)
    iterations: list
    #: the recorded steps (:class:`AdvancementStep`), only with ``record=True``
    steps: list
    #: how the time of impact was decided, in words
    case: str
    #: the time of impact and d(toi) (a contact only)
    toi: float
    distance_at_toi: float
    #: the final Newton steps to level 0: ``{"from_t", "t", "distance", "steps"}``
    polish: dict
    #: the grazing fallback to the convex search, and the least d it found
    fallback: str
    search_min: dict
    #: a step that passed the contact (rounding only) and was backed off by bisection
    overshoot: dict
    #: how many static distance queries the run made
    static_queries: int


#: family -> (schema, keys always present in a record of that family)
FAMILIES: dict[str, tuple[type, tuple[str, ...]]] = {
    "st_plane": (StPlaneTrace, ("a", "b", "c", "d", "e", "region", "s", "t")),
    "separating_axis": (SatTrace, ()),
    "sat_axis": (SatAxis, ("name", "axis", "r_A", "r_B", "distance", "margin", "separating")),
    "moving_aabbs": (MovingAabbsTrace, ("axes", "t_enter", "t_leave")),
    "moving_aabbs_axis": (MovingAabbsAxis, ("axis", "t_enter", "t_leave")),
    "advancement": (AdvancementTrace, ("tol", "iterations", "case")),
    "advancement_step": (AdvancementStep, ("phase", "t", "distance", "closest")),
}
