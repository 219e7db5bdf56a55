"""The documented schema of each method family's ``trace`` (Box2D style: one comment a key).

A result record's ``trace`` is a dict under the book's names; the families the explorer draws
and explains have their keys declared here as :class:`typing.TypedDict`\\ s (``total=False``:
a key is absent where the method did not reach that step; keys with spaces or symbols, as the
books write them, use the functional form). Views read these keys and nothing else (the explain
text through :class:`explorer.present.explain.Fields`, bound to one of these schemas);
``tests/algorithms/test_traces.py`` checks, on every shipped scene, that every key a view reads
is declared and present in the record it reads it from.

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
    sqr_distance: float


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
    #: parallel components: B's ends projected on A's line, in A's parameter
    sigma0: float
    sigma1: float
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
    #: the step dt = (d - tol / 2) / closing_speed (d / bound, aiming at the level tol / 2;
    #: the fast path of :mod:`algorithms.kernels.toi_fast` steps from its separating plane's
    #: bound on d, within 1 % below it, along that plane's normal);
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


class WooPlane(TypedDict, total=False):
    """One candidate (or back) plane of Woo's ray-box test (Primer A.18, Listing A.6)."""

    #: ``"x"``, ``"y"`` or ``"z"`` (the box's own axes for an OBB)
    axis: str
    #: the plane's name, ``"min x"`` / ``"max y"``...
    plane: str
    #: the ray parameter at which the ray reaches the plane
    t: float
    #: the plane's outward normal (OBB only)
    n: Any


#: these traces' keys hold spaces and symbols: the functional form keeps the book's spelling,
#: one comment a key as in the classes
WooTrace = TypedDict("WooTrace", {
    "inside": Optional[bool],        # the origin lies inside the box
    "candidate planes": list,        # per axis, the plane facing the ray (WooPlane rows)
    "back planes": list,             # the planes behind the origin (WooPlane rows)
    "chosen": Optional[dict],        # the candidate farthest along the ray (a WooPlane)
    "rejected": str,                 # why the hit was rejected, in words
}, total=False)
WooTrace.__doc__ = "Ray (segment, line) against an AABB or OBB: Woo's planes (Primer A.18)."

HultquistTrace = TypedDict("HultquistTrace", {
    "e": Any,                        # e = c - p0, origin to centre
    "e^2": float,                    # e . e
    "r^2": float,                    # the squared radius
    "inside": bool,                  # the origin lies inside the ball
    "a": float,                      # a = e . d_hat, the centre's projection on the ray
    "b^2": float,                    # b^2 = e . e - a^2, squared distance centre to line
    "f^2": float,                    # f^2 = r^2 - b^2 (negative: the line misses)
    "f": float,                      # sqrt(f^2)
    "t = a - f": float,              # the entry distance along the unit direction
    "a + f": float,                  # the exit distance
    "t_enter": float,                # entry and exit in the ray's own parameter
    "t_leave": float,
    "rejected": str,                 # why the hit was rejected, in words
}, total=False)
HultquistTrace.__doc__ = "Ray against a sphere: Hultquist's test (Primer A.12)."

BadouelTrace = TypedDict("BadouelTrace", {
    "e1": Any,                       # the edges v1 - v0 and v2 - v0
    "e2": Any,
    "n": Any,                        # the normal e1 x e2 (not unit)
    "dot": float,                    # n . d (0: parallel; the division is deferred)
    "t": float,                      # the ray parameter of the plane crossing
    "t (before division)": float,    # its numerator
    "dominant axis dropped": str,    # the axis of n's largest component, dropped for 2D
    "alpha": float,                  # the barycentric coordinates of the crossing
    "beta": float,
    "gamma": float,
    "rejected": str,                 # why the hit was rejected, in words
}, total=False)
BadouelTrace.__doc__ = "Ray against a triangle: Badouel's test (Primer A.16, Listing A.4)."

RayPlaneTrace = TypedDict("RayPlaneTrace", {
    "d.n": float,                    # d . n (0: the ray runs parallel to the plane)
    "d - p0.n": float,               # the numerator of t
    "t": float,                      # t = (d - p0 . n) / (d . n)
    "parallel": bool,                # d . n = 0
    "in_plane": bool,                # parallel and in the plane
    "front_only": bool,              # only the front face counts
    "rejected": str,                 # why the hit was rejected, in words
}, total=False)
RayPlaneTrace.__doc__ = "Ray against a plane (Primer A.9)."


class ArvoAxis(TypedDict, total=False):
    """One axis of Arvo's sphere-box test (GTCG §11.12.8)."""

    #: ``"x"``, ``"y"`` or ``"z"``
    axis: str
    #: the centre's coordinate and the box's interval on this axis
    c: float
    min: float
    max: float
    #: ``"below"``, ``"inside"`` or ``"above"`` the interval
    where: str
    #: the closest box coordinate (the clamp of ``c``)
    q: float
    #: (c - q)^2, this axis' share of the squared distance
    term: float
    #: the squared distance to the nearer face (hollow boxes)
    face_sq: float


class ArvoTrace(TypedDict, total=False):
    """Sphere against an AABB: Arvo's closest point (GTCG §11.12.8, Primer A.14). The distance
    record holds ``per_axis`` and ``dist_squared``; the intersection record ``r_squared``."""

    #: the per-axis clamps (rows: :class:`ArvoAxis`)
    per_axis: list
    #: the squared distance from the centre to the box
    dist_squared: float
    #: the squared radius it is compared with
    r_squared: float


class PlaneSideTrace(TypedDict, total=False):
    """A side record's trace (Primer A.10 minD/maxD; Boreskov's corner and classify)."""

    #: A.10: the box's projection interval on the normal, and the plane's d
    minD: float
    maxD: float
    d: float
    #: Boreskov (AABB): the corner the normal's signs pick, its index 0-7 and f there
    corner: Any
    corner_index: int
    f_corner: float
    #: Boreskov (AABB): the opposite corner and f there
    opposite_corner: Any
    f_opposite: float
    #: Boreskov: ``"IN_FRONT"``, ``"IN_BACK"`` or ``"IN_BOTH"``
    classify: str
    #: Boreskov (sphere): the centre's signed distance and the radius compared with it
    v: float
    effective_radius: float


class MovingTrace(TypedDict, total=False):
    """Moving spheres (Primer A.13) and a moving sphere against a plane (A.15)."""

    #: A.13: e = c2 - c1, r = r1 + r2, e . e and r^2
    e: Any
    r: float
    e_dot_e: float
    r2: float
    #: A.13: the length of the relative motion, e . d_hat, the discriminant
    l: float  # noqa: E741 - the book's name
    e_dot_d: float
    discriminant: float
    #: A.15: the side the sphere starts on, its nearest point to the plane, d . n
    classify: int
    p0: Any
    d_dot_n: float
    #: A.15: the ray parameter at which p0 meets the plane
    t: float
    #: how the time of impact was decided, in words
    case: str


class Plane2dTrace(TypedDict, total=False):
    """A pair in the z = 0 plane seen in 2D (Primer A.1, A.7): ``PairAnswer.plane2d``."""

    #: ``"A.1"`` (point and line) or ``"A.7"`` (two lines)
    section: str
    #: the lines as ``(a, b, d)`` of ``a x + b y = d`` with a unit normal
    line_a: Any
    line_b: Any
    #: A.7: a1 b2 - a2 b1, the case, and the point (``None`` unless one point)
    denominator: float
    case: str
    point: Any
    #: A.1: d - q . n, the point's signed distance to the line
    signed_distance: float


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
    #: no tilt got past the stall: w is the pair of vertices, tied to v's rounding floor in
    #: the direction queried, that shrinks v most (kernels.gjk._tie_break)
    "tie_break": bool,
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
    "advancement": (AdvancementTrace, ("tol", "iterations", "case")),
    "advancement_step": (AdvancementStep, ("phase", "t", "distance", "closest")),
    "gjk": (GjkTrace, ("algorithm", "iterations", "termination", "steps", "simplex")),
    "gjk_step": (GjkStep, ("v", "support_a", "support_b", "w", "gap", "lower_bound")),
}
