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


# GJK (van den Bergen §4.3; algorithms.kernels.gjk.run with ``record=True``). ``lambda`` is a
# Python keyword, so the step schema uses TypedDict's functional form.
GjkStep = TypedDict("GjkStep", {
    #: the point of the simplex nearest the origin when the iteration starts (a point of the
    #: Minkowski difference A - B); the search direction is -v
    "v": list,
    #: the support points s_A(-v) of A and s_B(v) of B (world coordinates)
    "support_a": list,
    "support_b": list,
    #: w = support_a - support_b: the support point of A - B in the direction -v
    "w": list,
    #: |v| (|v| - lower_bound), van den Bergen's v.v - v.w: GJK stops when it is small
    "gap": float,
    #: v . w / |v|: no point of A - B is nearer the origin along v (a distance lower bound)
    "lower_bound": float,
    #: the simplex after the sub-algorithm: the smallest face of W + {w} holding the point
    #: nearest the origin (points of A - B); absent when GJK stopped at this step's gap test
    "simplex": list,
    #: the barycentric coordinates of the new v in ``simplex`` (v = sum lambda_i simplex_i)
    "lambda": list,
    #: the support query stalled and was retried along v tilted by 1e-7 |v|
    "retried": bool,
}, total=False)


#: GJK's final simplex: ``v = sum lambda_i w_i``, the closest points ``sum lambda_i a_i`` on A
#: and ``sum lambda_i b_i`` on B
GjkSimplex = TypedDict("GjkSimplex", {
    #: points of A - B
    "w": list,
    #: the support points of A and of B that made each w_i = a_i - b_i
    "a": list,
    "b": list,
    #: the barycentric coordinates of v
    "lambda": list,
}, total=False)


class GjkTrace(TypedDict, total=False):
    """GJK distance (algorithms.kernels.gjk): ``gjk_distance``'s trace, and the recorded run of
    the cylinder-cylinder query (``cylinder_cylinder.gjk_trace``)."""

    #: ``"GJK"``
    algorithm: str
    #: support queries made (one per step)
    iterations: int
    #: why it stopped: ``"converged (gap)"``, ``"overlap (origin inside the simplex)"``,
    #: ``"overlap (v = 0)"``, ``"converged (repeated support point)"``, ...
    termination: str
    #: one GjkStep per iteration
    steps: list
    #: the final simplex (GjkSimplex)
    simplex: dict
    #: |closest point on core A - closest point on core B| (before the radii)
    core_distance: float
    #: the radii subtracted: a sphere runs as its centre, a capsule as its segment (cores)
    radius_a: float
    radius_b: float
    #: the relative termination gap
    tol: float
    #: the power of two the pair was scaled by to keep squares in range (absent when 1)
    scaled_by: float
    #: where the run came from, when it is not the distance record itself (the cylinder
    #: query's "gradient zero" test)
    source: str


#: family -> (schema, keys always present in a record of that family)
FAMILIES: dict[str, tuple[type, tuple[str, ...]]] = {
    "st_plane": (StPlaneTrace, ("a", "b", "c", "d", "e", "region", "s", "t")),
    "separating_axis": (SatTrace, ()),
    "sat_axis": (SatAxis, ("name", "axis", "r_A", "r_B", "distance", "margin", "separating")),
    "moving_aabbs": (MovingAabbsTrace, ("axes", "t_enter", "t_leave")),
    "moving_aabbs_axis": (MovingAabbsAxis, ("axis", "t_enter", "t_leave")),
    "gjk": (GjkTrace, ("algorithm", "iterations", "termination", "steps", "simplex")),
    "gjk_step": (GjkStep, ("v", "support_a", "support_b", "w", "gap", "lower_bound")),
}
