"""The one tolerance policy of :mod:`algorithms`, the unit-vector helper, and exact rescaling.

Every pair module decides "touching", "parallel" and "zero" through the names defined here, so
that one pair's ``intersects``, ``distance``, ``separating_axis``, ``side``, ``first_t`` and
``toi`` never contradict each other (scene-v1: touching counts as intersecting).

The policy
----------
1. **Exact where the inputs decide it.** Primitives built with ``exact=True`` (Fractions) use
   tolerance ``0`` everywhere (:func:`touch_tolerance`, :func:`is_touching`, :func:`parallel`).
   On floats, a decision whose arithmetic is exact on the given numbers stays exact: box
   overlap compares coordinates; a margin or distance that comes out exactly ``0`` is
   touching.

2. **Elsewhere, one relative tolerance.** A float gap ``g >= 0`` between two shapes counts as
   touching when ``g <= TOUCH_REL * scale``, ``TOUCH_REL = 2**-40`` (about ``9.1e-13``), where
   ``scale`` is :func:`pair_scale`: the largest absolute coordinate (from the world origin) of
   the pair's defining points and lengths (positions, ends, vertices, centres, box corners,
   radii, heights, extents, a plane's ``|d| / |n|``): the inputs as given. Never the length
   of a ray's or line's direction, which the spec leaves free, and never the closest points,
   which for unbounded kinds can lie arbitrarily far from the inputs (two nearly parallel
   lines come closest, ``0.447`` apart, ``7.8e15`` along them: a band grown with those
   points was ``7e3`` and called them touching); the distances are computed from the
   inputs, so their rounding is relative to the inputs' size. That is some ``2**12``
   times the rounding of the closed forms (a touching configuration typed in decimal, such as
   a point ``(1/3, 1/3, 0)`` in a triangle, is touching) and far below anything placed by
   hand (a unit scene resolves gaps down to ``1e-12``). A separating-axis test uses the same
   band on the numbers it compares: an axis separates when ``|c_B - c_A| - (r_A + r_B)`` exceeds
   ``TOUCH_REL (|c_A| + |c_B| + r_A + r_B)``. :func:`reconcile` applies the band once more to
   the finished answer of a pair, so every key agrees.

   Other thresholds, each named here and imported where it is used:

   ====================  =======  ============================================================
   ``TOUCH_REL``         2**-40   touching band (closed forms, SAT margins, GJK, plane-solid,
                                  cylinder-cylinder margins, :func:`reconcile`)
   ``ITERATIVE_REL``     1e-10    the accuracy of GJK on curved shapes (cylinder-cylinder
                                  stops and calls a pair touching below it)
   ``PARALLEL_SIN``      1e-12    two directions are parallel when ``|u x v| <= sin |u||v|``
                                  (planes, motion along a face, a collinear triangle)
   ``SAT_PARALLEL_SIN``  1e-8     a separating-axis test skips the cross axis of two nearly
                                  parallel edges (:mod:`algorithms.queries.box_box` says why
                                  that is safe)
   ``TIME_SLACK``        2**-40   a contact time computed up to this beyond ``[0, 1]`` is at
                                  the period's end (a contact exactly at ``t = 1`` computes as
                                  ``1 + 2**-52``; a graze at one instant enters an ulp after
                                  it leaves)
   ``VERIFY_REL``        2**-20   :func:`reconcile` checks a separating axis against the
                                  closed-form projections within this of touching
   ``VERIFY_CURVED_REL`` 2**-8    the same for a pair with a cylinder, whose axis can tilt
                                  (:data:`VERIFY_CURVED_REL` says how much)
   ====================  =======  ============================================================

   The kernels keep their own rounding guards below these (``8 eps`` in the st-plane
   minimiser, the stopping rules of GJK and the golden-section searches); they make the float
   answers accurate, while the decisions above make them agree.

   The band decides *whether* two shapes touch, never *how early*: ``first_t`` is where the
   cast's own arithmetic enters the shape. A segment that runs within the band of a face
   before it meets it (a flat box tilted by ``6.7e-203``, which the segment enters exactly at
   ``t = 1``) has ``first_t = 1``, the exact entry, not ``0``. Only when the cast misses and
   the band alone makes the pair touch is ``first_t`` the closest point's parameter
   (:func:`reconcile`, rule 2). A test oracle that samples distances before ``first_t`` must
   compute them without underflow (squaring ``6.7e-203`` gives ``0``).

3. **Every scale.** Coordinates from ``1e-300`` to ``1e300`` are valid JSON and valid
   geometry. :func:`call_rescaled`, which :func:`algorithms.registry.query` uses for every
   query, multiplies all lengths of a pair by one exact power of two, and each direction (a
   ray's or line's direction, a plane's normal with its ``d``, a cylinder's axis) by its own
   power of two, whenever the largest length lies outside ``[2**-24, 2**24]`` (about
   ``[6e-8, 1.7e7]``) or a direction's largest component does; it runs the query at unit scale
   and scales the answer back (distances, points, intervals, ray parameters, the separating
   axis candidates' lengths). Scaling by a power of two is exact, so the answer is the one the
   unit-scale computation gives, and ordinary scenes never take this path. A rescaled query's
   trace is in the scaled units and says so: ``trace["rescaled_by"]`` (multiply its lengths by
   it). Lengths below ``2**-1074`` times the pair's scale round to zero (a sphere of radius
   ``1e-300`` at ``1e300`` is a point, as in any floating-point program), and a plane whose
   ``|d| / |n|`` is beyond the float range is refused by :class:`~algorithms.primitives.Plane`.
   A direction already in the safe range is never rescaled (halving ``(5e-324, 1, 0)`` would
   drop its subnormal component). Two nearly parallel rays or lines whose closest points lie
   beyond the float range at the scale they are computed at are refused with a message
   (:class:`~algorithms.kernels.stplane.BeyondFloatRange`), never answered as parallel. The
   unit scale can put closest points beyond the floats that are floats in the pair's own
   units (lines whose origins are 7.8e-15 apart, scaled by ``2**47``, crossing 1.6e308 out):
   such a refusal (an error with ``scale_dependent`` true) is followed by the query at the
   pair's own scale, whose answer is given when it has one, for a pair of lengths up to
   :data:`OWN_SCALE_MAX` with directions in the safe range (the st-plane kernel then needs
   no scaling of its own, which would round a subnormal direction component away).

Zero vectors
------------
:func:`unit` is the one unit-vector helper: ``v / |v|`` as a tuple of floats, computed on
``v / max |v_i|`` so that neither tiny nor huge components underflow or overflow, and ``None``
for the zero vector (and for a non-finite one). Callers that need a fallback direction say
which one (``unit(v) or (1.0, 0.0, 0.0)``). :func:`unit_np` is the same for numpy arrays (an
array or ``None``), :func:`perpendicular_unit` gives some unit vector perpendicular to ``w``.

Examples
--------
>>> unit((0.0, 3e-300, 4e-300))
(0.0, 0.6, 0.8)
>>> unit((0, 0, 0)) is None
True
>>> touch_tolerance(10.0) == 10.0 * 2 ** -40
True
>>> clamp_time(1 + 2 ** -52)
1.0
"""

from __future__ import annotations

import math
from dataclasses import replace
from typing import Optional

#: touching band of closed-form float computations, relative to :func:`pair_scale`
TOUCH_REL = 2.0 ** -40
#: accuracy of the iterative methods (GJK on curved shapes, golden-section searches)
ITERATIVE_REL = 1e-10
#: relative sine under which two directions are parallel (planes, lines, motions)
PARALLEL_SIN = 1e-12
#: relative sine under which a separating-axis test skips the cross axis of two edges
SAT_PARALLEL_SIN = 1e-8
#: ``sin^2`` (of a triangle's widest angle, or ``|ab x ac|^2 / L^4``) under which a float
#: triangle is a sliver to the closest-point solvers (GJK's ``_face``, Ericson's triangle of
#: the fast path, :func:`algorithms.kernels.closest.closest_point_triangle`): their 2x2
#: systems of dot products err by ~eps / sin^2 of the triangle's size, 2e-13 at this cutoff
#: (inside the touching band, 2^-40 = 9e-13), so thinner ones are solved by cross products
SLIVER_SIN2 = 1e-3
#: reconcile verifies a separating axis against the closed-form projections when the shapes
#: are within this of touching (relative to pair_scale): farther apart, the direction between
#: closest points that are accurate to ITERATIVE_REL cannot fail to separate them
VERIFY_REL = 2.0 ** -20
#: VERIFY_REL for a pair with a cylinder: GJK stops on a cylinder's curved wall or rim with the
#: distance accurate to ITERATIVE_REL, but its closest points can sit ``sqrt(ITERATIVE_REL)``
#: (about 1e-5 of the scale) off along the surface, so the direction between them, and a
#: separating axis taken from it, tilts by 1e-5 / distance; a flat face or a long edge of the
#: other shape then overlaps along the tilted axis. A search over 100 000 near-touching
#: cylinder pairs (a cylinder against each bounded kind, both orders, 2**-20 to 2**-7 of the
#: scale apart) found axes that did not separate up to a distance of 1.2e-4 (2**-13) of the
#: scale; 2**-8 keeps a margin
VERIFY_CURVED_REL = 2.0 ** -8
#: machine epsilon of float64
EPS = 2.0 ** -52
#: queries run rescaled when a length or direction lies outside [2**-SAFE, 2**SAFE]
SAFE_EXPONENT = 24


# ----------------------------------------------------------------------------- decisions


def touch_tolerance(scale: float, exact: bool = False, rel: float = TOUCH_REL) -> float:
    """The touching band ``rel * scale`` for a float computation, ``0`` for exact input."""
    if exact:
        return 0
    return rel * float(scale)


def is_touching(gap, scale: float, exact: bool = False, rel: float = TOUCH_REL) -> bool:
    """``gap <= rel * scale`` (``gap <= 0`` on exact input): the shapes touch or overlap."""
    return gap <= touch_tolerance(scale, exact, rel)


def parallel(u, v, exact: bool = False, sin: float = PARALLEL_SIN) -> bool:
    """``u x v == 0`` on exact input, ``|u x v| <= sin |u| |v|`` on floats (computed on the
    directions rescaled to unit size, so neither tiny nor huge vectors misjudge)."""
    if exact:
        return all(c == 0 for c in _cross(u, v))
    uu, vv = unit(u), unit(v)
    if uu is None or vv is None:
        return True
    c = _cross(uu, vv)
    return c[0] * c[0] + c[1] * c[1] + c[2] * c[2] <= sin * sin


def max_abs(*vectors) -> float:
    """The largest ``|x|`` over the components of ``vectors`` (scalars allowed), as a float."""
    m = 0.0
    for v in vectors:
        if v is None:
            continue
        if isinstance(v, (tuple, list)):
            for x in v:
                a = abs(float(x))
                if a > m or a != a:
                    m = a if a == a else math.inf  # NaN counts as out of range
            continue
        if hasattr(v, "__len__"):  # numpy arrays
            for x in v:
                a = abs(float(x))
                if a > m or a != a:
                    m = a if a == a else math.inf
            continue
        a = abs(float(v))
        if a > m or a != a:
            m = a if a == a else math.inf
    return m


# ----------------------------------------------------------------------------- unit vectors


def _cross(u, v):
    return (u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0])


_INF = math.inf
_sqrt = math.sqrt


def midpoint(p, q) -> tuple:
    """``(p + q) / 2`` per coordinate, as floats: the touching answer's one closest point.
    Halved first where the sum overflows (two closest points 1.1e308 out, as rays 2e-309 rad
    apart have), else the correctly rounded midpoint."""
    mid = tuple((float(x) + float(y)) / 2 for x, y in zip(p, q))
    if all(math.isfinite(c) for c in mid):
        return mid
    return tuple(float(x) / 2 + float(y) / 2 for x, y in zip(p, q))


def unit(v) -> Optional[tuple]:
    """``v / |v|`` as floats, ``None`` for a zero or non-finite ``v`` (the one zero-vector
    behaviour of the package). Computed on ``v / max |v_i|``: exact scaling by the largest
    component keeps ``1e-300`` and ``1e300`` vectors from underflowing or overflowing."""
    if len(v) == 3:  # the common case, unrolled (drag updates and lean kernels call it)
        x, y, z = v
        if type(x) is not float or type(y) is not float or type(z) is not float:
            x, y, z = float(x), float(y), float(z)
        # m = max(abs(x), abs(y), abs(z)), the comparisons inlined: the same value (max keeps
        # the first of equals; a NaN never replaces nor is replaced, and a NaN first refuses)
        m = x if x >= 0 else -x
        a = y if y >= 0 else -y
        if a > m:
            m = a
        a = z if z >= 0 else -z
        if a > m:
            m = a
        if m == 0 or not m < _INF:  # zero, infinite or NaN
            return None
        x, y, z = x / m, y / m, z / m
        n = _sqrt(x * x + y * y + z * z)
        return (x / n + 0.0, y / n + 0.0, z / n + 0.0)
    m = max_abs(v)
    if m == 0 or not math.isfinite(m):
        return None
    w = [float(c) / m for c in v]
    n = math.sqrt(sum(c * c for c in w))
    return tuple(c / n + 0.0 for c in w)


def unit_np(v):
    """:func:`unit` for a numpy array: an array, or ``None`` for the zero vector."""
    import numpy as np

    u = unit(v)
    return None if u is None else np.array(u)


def perpendicular_unit(w) -> tuple:
    """Some unit vector perpendicular to the nonzero ``w`` (the cross product with the
    coordinate axis least aligned with ``w``)."""
    w = unit(w)
    a = (1.0, 0.0, 0.0) if abs(w[0]) < 0.6 else (0.0, 1.0, 0.0)
    return unit(_cross(w, a))


# ----------------------------------------------------------------------------- the scale


def pair_scale(*prims, points=()) -> float:
    """The scale of :data:`TOUCH_REL`: the largest absolute coordinate of the primitives'
    defining points and lengths (positions, ends, vertices, centres, box corners, radii,
    heights, extents, a plane's ``|d| / |n|``), and of further input ``points``; never a
    direction's length and never computed closest points (module notes, point 2).
    At least the smallest positive float, so a band is never exactly 0 on float input."""
    m = 0.0
    for p in prims:
        s = p.__dict__.get("_tolerance_sizes")  # (_sizes' cache, probed inline: every query)
        s = (s if s is not None else _sizes(p))[1]
        if s > m:  # (max(m, s): the sizes are never NaN)
            m = s
    for q in points:
        m = max(m, max_abs(q))
    return m if m > 0 else 5e-324


#: where :func:`pair_sizes` keeps its answer on a primitive (probed inline by the lean kernels)
SIZES_KEY = "_tolerance_sizes"


def pair_sizes(p) -> tuple:
    """``(exact, largest length value, direction in the safe range)`` of ``p``: what
    :func:`pair_scale` reads (element 1), kept under :data:`SIZES_KEY` on the instance."""
    return _sizes(p)


def _sizes(p) -> tuple:
    """``(exact, largest length value, direction in the safe range)`` of a primitive, computed
    once and kept on the (frozen, immutable) instance: every query of every pair asks."""
    cached = p.__dict__.get("_tolerance_sizes")
    if cached is None:
        exact = p.exact
        m = max_abs(*_length_values(p)) if not exact else 0.0
        name = "normal" if p.kind == "plane" else _DIRECTION.get(p.kind)
        direction_ok = exact or name is None or _safe(max_abs(getattr(p, name)))
        cached = (exact, m, direction_ok)
        object.__setattr__(p, "_tolerance_sizes", cached)  # not a field: eq/hash unchanged
    return cached


def _length_values(p):
    k = p.kind
    if k == "point":
        return (p.position,)
    if k in ("segment",):
        return (p.p0, p.p1)
    if k in ("ray", "line"):
        return (p.origin,)
    if k == "plane":
        nmax = max_abs(p.normal)
        # |d| / |n| within a factor sqrt(3), without squaring
        return (abs(float(p.d)) / nmax if nmax > 0 and math.isfinite(nmax) else 0.0,)
    if k == "triangle":
        return tuple(p.vertices)
    if k == "sphere":
        return (p.center, p.radius)
    if k == "aabb":
        return (p.min, p.max)
    if k == "obb":
        return (p.center, p.extents)
    if k == "cylinder":
        return (p.center, p.radius, p.height)
    if k == "capsule":
        return (p.p0, p.p1, p.radius)
    return ()


# ----------------------------------------------------------------------------- rescaling

_DIRECTION = {"ray": "direction", "line": "direction", "cylinder": "axis"}


def _exponent(m: float) -> int:
    """``e`` with ``m / 2**e`` in ``[0.5, 1)``, at most ``1023``: ``2**1024`` is no double, so
    an ``m`` of ``2**1023`` or more (a plane ``9e307`` from the origin, whose ``|d| / |n|`` is
    in the float range) is put in ``[1, 2)``, still at unit scale, and ``trace["rescaled_by"]``
    stays finite (``math.ldexp(1.0, 1024)`` raised OverflowError and every query of the pair
    failed)."""
    return min(math.frexp(m)[1], 1023)


def _safe(m: float) -> bool:
    return m == 0 or (2.0 ** -SAFE_EXPONENT <= m <= 2.0 ** SAFE_EXPONENT)


def _direction_exponent(v) -> int:
    """The power of two a direction is divided by: ``0`` when its largest component is in the
    safe range already (halving ``(5e-324, 1, 0)`` would round its subnormal component to 0
    and make two crossing lines parallel), else the one putting it in ``[0.5, 1)``."""
    m = max_abs(v)
    return 0 if _safe(m) else _exponent(m)


def _scale_vec(v, e: int) -> tuple:
    return tuple(math.ldexp(float(c), -e) for c in v)


def _rescale_prim(p, e: int):
    """``p`` with every length divided by ``2**e`` and each direction by its own power of two;
    returns ``(p', direction exponent or None)``. The copy is kept on ``p`` (for the same
    ``e``), so the queries of one pair get the same rescaled objects and share their analysis
    (:mod:`algorithms.core.once` compares arguments by identity)."""
    cached = p.__dict__.get("_tolerance_rescaled")
    if cached is not None and cached[0] == e:
        return cached[1], cached[2]
    q, de = _rescaled_copy(p, e)
    object.__setattr__(p, "_tolerance_rescaled", (e, q, de))
    return q, de


def _rescaled_copy(p, e: int):
    k = p.kind
    ls = lambda x: math.ldexp(float(x), -e)  # noqa: E731
    de = None
    if k == "point":
        q = p._replace(position=_scale_vec(p.position, e))
    elif k == "segment":
        q = p._replace(p0=_scale_vec(p.p0, e), p1=_scale_vec(p.p1, e))
    elif k in ("ray", "line"):
        de = _direction_exponent(p.direction)
        q = p._replace(origin=_scale_vec(p.origin, e), direction=_scale_vec(p.direction, de))
    elif k == "plane":
        de = _direction_exponent(p.normal)
        q = p._replace(normal=_scale_vec(p.normal, de), d=math.ldexp(float(p.d), -de - e))
    elif k == "triangle":
        q = p._replace(vertices=tuple(_scale_vec(v, e) for v in p.vertices))
    elif k == "sphere":
        q = p._replace(center=_scale_vec(p.center, e), radius=ls(p.radius))
    elif k == "aabb":
        q = p._replace(min=_scale_vec(p.min, e), max=_scale_vec(p.max, e))
    elif k == "obb":
        q = p._replace(center=_scale_vec(p.center, e), extents=_scale_vec(p.extents, e))
    elif k == "cylinder":
        q = p._replace(center=_scale_vec(p.center, e), axis=_scale_vec(p.axis, _direction_exponent(
            p.axis)), radius=ls(p.radius), height=ls(p.height))
    elif k == "capsule":
        q = p._replace(p0=_scale_vec(p.p0, e), p1=_scale_vec(p.p1, e), radius=ls(p.radius))
    else:
        return p, None
    return q, de


#: the attribute :func:`plain` keeps its answer under on a primitive (not a field)
PLAIN_KEY = "_tolerance_plain"
_SAFE_LO = 2.0 ** -SAFE_EXPONENT
_SAFE_HI = 2.0 ** SAFE_EXPONENT


def plain(p) -> bool:
    """True when ``p`` alone can never make a pair need rescaling: exact input, or every
    length and direction of ``p`` in the safe range (a length of ``0`` counts as safe). When
    both primitives of a pair are plain, :func:`call_rescaled` calls the query directly (the
    largest length of the two is then ``0`` or safe), so the lean dispatch of
    :func:`algorithms.registry.runner` calls the function itself and leaves every other pair
    to :func:`call_rescaled`. Computed once and kept on the (frozen) instance."""
    ok = p.__dict__.get(PLAIN_KEY)
    if ok is None:
        exact, m, direction_ok = _sizes(p)
        ok = bool(exact or (direction_ok and (m == 0 or _SAFE_LO <= m <= _SAFE_HI)))
        object.__setattr__(p, PLAIN_KEY, ok)  # not a field: eq/hash unchanged
    return ok


def toi_direct(func, a, b, motion):
    """``call_rescaled(func, "toi", a, b, (motion,))`` where that calls ``func`` as it is (both
    primitives :func:`plain` and the motion's largest coordinate 0 or in the safe range, so
    :func:`needs_rescaling` is false), without its checks; ``None`` for any other pair (the
    caller then takes :func:`call_rescaled`). The lean dispatch of a moving pair."""
    if not (plain(a) and plain(b)):
        return None
    if type(motion) is tuple and len(motion) == 3:
        x, y, z = motion  # max_abs(motion), written out for three floats
        if type(x) is float and type(y) is float and type(z) is float:
            x, y, z = abs(x), abs(y), abs(z)
            if not (x <= _SAFE_HI and y <= _SAFE_HI and z <= _SAFE_HI):
                return None  # too large, or NaN (max_abs: inf)
            if (x >= _SAFE_LO or y >= _SAFE_LO or z >= _SAFE_LO) or x == y == z == 0:
                r = func(a, b, motion)
                t = r.toi
                if t is None or (type(t) is float and 0.0 <= t <= 1.0):
                    return r  # (_settle leaves a time in [0, 1] as it is)
                return _settle("toi", r)
            return None
    if _safe(max_abs(motion)):
        return _settle("toi", func(a, b, motion))
    return None


def needs_rescaling(a, b, motion=None) -> bool:
    """True when a length or a direction of the pair lies outside the safe range."""
    ea, ma, da = _sizes(a)
    eb, mb, db = _sizes(b)
    if ea or eb:
        return False
    m = max(ma, mb, 0.0 if motion is None else max_abs(motion))
    return not (_safe(m) and da and db)


def rescaled_pair(a, b):
    """``(a, b)`` scaled by the exact powers of two of :func:`call_rescaled` when
    :func:`needs_rescaling` says so (else the objects themselves): for scale-free predicates
    (containment, a classification) that answer the same for the scaled pair."""
    return rescaled_pair_exponents(a, b)[:2]


def rescaled_pair_exponents(a, b):
    """``(a', b', e, pe_a, pe_b)``: the pair as :func:`call_rescaled` runs it (:func:`_rescaled`;
    the objects themselves and ``e = 0`` when :func:`needs_rescaling` says no): for
    classifications that report lengths and parameters (:func:`up_length`, :func:`up_param`)."""
    if not needs_rescaling(a, b):
        return a, b, 0, None, None
    return _rescaled(a, b)


def _rescaled(a, b, motion=None):
    """``(a', b', e, pe_a, pe_b)``: lengths divided by ``2**e`` (``e`` from the pair's and the
    motion's largest size), each direction by its own power of two ``2**de``, and the
    exponents bringing a ray's or line's parameter back: a point ``o + t d`` is
    ``(o' + t' d') 2**e`` with ``d' = d / 2**de``, so ``t = t' 2**pe``, ``pe = e - de``
    (``None`` for a shape without a direction, and a plane's normal)."""
    m = max(_sizes(a)[1], _sizes(b)[1], 0.0 if motion is None else max_abs(motion))
    e = _exponent(m) if m > 0 else 0
    (a2, de_a), (b2, de_b) = _rescale_prim(a, e), _rescale_prim(b, e)
    pe_a = None if de_a is None or a.kind == "plane" else e - de_a
    pe_b = None if de_b is None or b.kind == "plane" else e - de_b
    return a2, b2, e, pe_a, pe_b


def up_length(x, e: int):
    """A length (or a number scaling as ``2**e``) of the scaled pair in the pair's units:
    ``x 2**e``, ``+-inf`` beyond the float range, ``None`` kept."""
    return None if x is None else _ldexp(float(x), e)


def call_rescaled(func, name: str, a, b, args=(), kwargs=None):
    """``func(a, b, *args, **kwargs)`` for query ``name``, run on the pair rescaled by exact
    powers of two when :func:`needs_rescaling` says so, with the answer scaled back (module
    notes, point 3). Otherwise exactly ``func(a, b, *args, **kwargs)``."""
    if not args and not kwargs:  # the common case, unrolled (every query of a drag step)
        ea, ma, da = _sizes(a)
        eb, mb, db = _sizes(b)
        if ea or eb or (da and db and _safe(ma if ma > mb else mb)):
            r = func(a, b)
            return r if name != "toi" else _settle(name, r)
    kwargs = kwargs or {}
    motion = args[0] if (name == "toi" and args) else kwargs.get("motion")
    if not needs_rescaling(a, b, motion):
        return _settle(name, func(a, b, *args, **kwargs))
    a2, b2, e, pe_a, pe_b = _rescaled(a, b, motion)
    if motion is not None:
        scaled_motion = _scale_vec(motion, e)
        if name == "toi" and args:
            args = (scaled_motion,) + tuple(args[1:])
        else:
            kwargs = {**kwargs, "motion": scaled_motion}
    try:
        result = _settle(name, func(a2, b2, *args, **kwargs))
    except Exception as refusal:
        if not getattr(refusal, "scale_dependent", False) or not _own_scale_safe(a, b, motion):
            raise
        # beyond the floats at unit scale: in the pair's own units the answer may be floats
        # (module notes, point 3); else the unit scale's refusal stands
        try:
            return _settle(name, func(a, b, *args, **kwargs))
        except Exception:  # noqa: BLE001 - the first refusal is the clear message
            raise refusal from None
    return scale_result(result, e, pe_a, pe_b)


#: the largest length up to which a pair is asked again at its own scale after a
#: ``scale_dependent`` refusal at unit scale: below it, with its directions in the safe range,
#: the st-plane kernel computes it without a scaling of its own (``stplane.minimize`` scales a
#: whole scene beyond ``2**400``, directions too: a subnormal direction component would round
#: to 0 there, and nearly parallel lines 1e200 apart read as parallel)
OWN_SCALE_MAX = 2.0 ** 400


def _own_scale_safe(a, b, motion) -> bool:
    _, ma, da = _sizes(a)
    _, mb, db = _sizes(b)
    return motion is None and da and db and max(ma, mb) <= OWN_SCALE_MAX


def _settle(name, result):
    """A contact time within :data:`TIME_SLACK` of the period is clamped into ``[0, 1]``."""
    if name == "toi" and result.toi is not None:
        t = clamp_time(result.toi)
        if t != result.toi:
            return replace(result, toi=t, trace={**result.trace, "toi_computed": result.toi})
    return result


def _ldexp(x: float, e: int) -> float:
    try:
        return math.ldexp(x, e)
    except OverflowError:
        return math.copysign(math.inf, x)


def _up(x, e):
    if x is None:
        return None
    if isinstance(x, (int, float)):
        return math.ldexp(float(x), e)
    return tuple(math.ldexp(float(c), e) for c in x)


#: the length-valued keys of a separating-axis candidate (trace["axes"] entries)
_AXIS_LENGTHS = ("r_A", "r_B", "distance", "margin", "centre_A", "centre_B")


def _up_lengths(entry, e):
    if not isinstance(entry, dict):
        return entry
    out = dict(entry)
    for k in _AXIS_LENGTHS:
        if isinstance(out.get(k), (int, float)) and not isinstance(out.get(k), bool):
            out[k] = _ldexp(float(out[k]), e)
    return out


def up_param(t, pe):
    """A ray's or line's parameter of the scaled pair in the pair's units (``pe`` from
    :func:`rescaled_pair_exponents`; ``None`` leaves ``t`` as it is)."""
    if pe is None or t is None or not isinstance(t, (int, float)):
        return t
    return _ldexp(float(t), pe)  # a parameter beyond the float range is +-inf, no crash


def scale_result(result, e: int, pe_a=None, pe_b=None):
    """A result of the pair scaled by ``2**-e`` brought back to the pair's units: lengths
    times ``2**e``, A's ray/line parameters times ``2**pe_a`` (B's by ``pe_b``)."""
    from algorithms.results import (
        ContactResult,
        DistanceResult,
        HitResult,
        SeparationResult,
        SideResult,
    )

    trace = {**result.trace, "rescaled_by": math.ldexp(1.0, e)}
    if isinstance(result, DistanceResult):
        d = _up(result.distance, e)
        sq = result.sqr_distance
        sq2 = _ldexp(float(sq), 2 * e) if sq else sq
        if d > 0 and not sq2 > 0:
            sq2 = 5e-324  # a positive distance whose square underflows is still positive
        try:
            closest = tuple(_up(p, e) for p in result.closest)
        except OverflowError:
            if "s_bar" not in result.trace:
                from algorithms.primitives import BeyondFloatRange as Beyond

                raise Beyond("closest", "the closest points lie", d) from None
            # two nearly parallel rays or lines of a pair of size 1e200 meeting 1e110 sizes
            # out: closest points within the floats at unit scale, beyond them in the pair's
            # units (math.ldexp raised a bare OverflowError): the st-plane's refusal
            from algorithms.kernels.stplane import BeyondFloatRange

            s, t = result.parameter
            raise BeyondFloatRange(up_param(s, pe_a) if s is not None else 0.0,
                                   up_param(t, pe_b) if t is not None else 0.0,
                                   d) from None
        param = (up_param(result.parameter[0], pe_a), up_param(result.parameter[1], pe_b))
        return replace(result, distance=d, sqr_distance=sq2, closest=closest, parameter=param,
                       trace=trace)
    if isinstance(result, HitResult):
        try:
            hits = tuple(replace(h, t=up_param(h.t, pe_a), point=_up(h.point, e))
                         for h in result.hits)
        except OverflowError:
            from algorithms.primitives import BeyondFloatRange as Beyond

            raise Beyond("hits", "the hit point lies", result.first_t) from None
        return replace(result, hits=hits, first_t=up_param(result.first_t, pe_a), trace=trace)
    if isinstance(result, SeparationResult):
        iv = result.intervals
        if iv is not None:
            iv = tuple(tuple(_up(x, e) for x in pair) for pair in iv)
        for key in ("axes", "skipped_axes"):  # the candidates' lengths, as the SAT panel shows
            if isinstance(trace.get(key), list):
                trace[key] = [_up_lengths(ax, e) for ax in trace[key]]
        return replace(result, intervals=iv, trace=trace)
    if isinstance(result, SideResult):
        return replace(result, signed_distance=_up(result.signed_distance, e),
                       effective_radius=_up(result.effective_radius, e), trace=trace)
    if isinstance(result, ContactResult):
        return replace(result, point=_up(result.point, e), trace=trace)
    return replace(result, trace=trace)


# ----------------------------------------------------------------------------- times

#: a contact time computed up to this much beyond ``[0, 1]`` is at the period's end: the
#: touching band in time (a contact exactly at ``t = 1`` computes as ``1 + 2**-52`` or more)
TIME_SLACK = TOUCH_REL
#: the latest time a kernel accepts as a contact (then clamped to ``1``)
T_END = 1.0 + TIME_SLACK


def clamp_time(t) -> Optional[float]:
    """``t`` in ``[0, 1]`` as a float; a time that rounding put within :data:`TIME_SLACK`
    outside (``1 + 2**-52`` for a contact exactly at ``t = 1``) is clamped to the end;
    ``None`` for a time really outside the period (or ``None``/NaN)."""
    if t is None:
        return None
    t = float(t)
    if not (-TIME_SLACK <= t <= 1.0 + TIME_SLACK):
        return None
    return min(1.0, max(0.0, t))


# ----------------------------------------------------------------------------- reconcile

_BOUNDED = ("point", "segment", "triangle", "sphere", "aabb", "obb", "capsule", "cylinder")
_LINEAR = ("segment", "ray", "line")


def separates(a, b, axis, scale: Optional[float] = None) -> bool:
    """True when the projections of the bounded ``a`` and ``b`` on the unit ``axis`` are apart
    by more than the touching band (closed-form support intervals; always True for an
    unbounded kind, which has no interval)."""
    if a.kind not in _BOUNDED or b.kind not in _BOUNDED:
        return True
    from algorithms.kernels.support import support_interval

    u = unit(axis)
    if u is None:
        return False
    la, ha = support_interval(a, u)
    lb, hb = support_interval(b, u)
    gap = max(lb - ha, la - hb)
    band = touch_tolerance(pair_scale(a, b) if scale is None else scale,
                           a.exact and b.exact)
    return gap > band


def _diff(p, q):
    """``q - p`` as a tuple of floats."""
    return tuple(float(y) - float(x) for x, y in zip(p, q))


def _linear_axes(a, b):
    """The separating-axis candidates of two segments (or a segment and a point), as unit
    vectors: ``m0 x m1`` and each segment's normal in their common plane, ``m x (m0 x m1)``
    (a segment and a point: the segment's normal towards the point). Disjoint, one of them
    separates. The closest points' direction separates too, in exact arithmetic, but not
    always in floats: for the segments ``(0,0,0) (1, 2.9e-11, 0)`` and
    ``(1, 3.4e10, 0) (2, 0, 0)``, 1 apart, B's closest point rounds by ``3e-11`` across B,
    which tilts the direction enough for B's far end (``3.4e10`` along it) to project across
    A's interval."""
    if a.exact or b.exact or a.kind not in ("segment", "point") or \
            b.kind not in ("segment", "point"):
        return
    ms = [unit(_diff(p.p0, p.p1)) if p.kind == "segment"
          else None for p in (a, b)]
    m0, m1 = ms
    if m0 is not None and m1 is not None:
        c = unit(_cross(m0, m1))
        if c is not None:
            yield c
            for m in (m0, m1):
                n = unit(_cross(m, c))
                if n is not None:
                    yield n
            return
        # parallel: the common direction's normal towards B (from each of A's ends to each
        # of B's), and the direction itself (collinear, apart along it)
        ends_a, ends_b = (a.p0, a.p1), (b.p0, b.p1)
    else:
        m, seg, pt = (m0, a, b) if m0 is not None else (m1, b, a)
        if m is None:
            return
        ends_a, ends_b = (seg.p0, seg.p1), (pt.position,)
    m = m0 if m0 is not None else m1
    for p in ends_a:
        for q in ends_b:
            w = unit(_diff(p, q))
            c = unit(_cross(m, w)) if w is not None else None
            n = unit(_cross(m, c)) if c is not None else None
            if n is not None:
                yield n
    yield m


def _core(p):
    """The points or segment a SAT candidate of :func:`_triangle_axes` is built on: a point's
    position, a sphere's centre (``("point", c)``), a segment's or capsule's axis
    (``("segment", p0, p1)``), a triangle's vertices (``("triangle", v0, v1, v2)``); ``None``
    for the other kinds."""
    k = p.kind
    if k == "point":
        return ("point", p.position)
    if k == "sphere":
        return ("point", p.center)
    if k in ("segment", "capsule"):
        return ("segment", p.p0, p.p1)
    if k == "triangle":
        return ("triangle",) + tuple(p.vertices)
    return None


def _triangle_frame(vertices):
    """``(units of the edges v0v1, v1v2, v2v0, face normals)`` of a float triangle: each edge
    made unit before the crosses (no overflow at ``1e200``), and the three crosses of
    consecutive edges, which are one direction in exact arithmetic (``e0 + e1 + e2 = 0``) and
    differ by rounding on a sliver, so all three are tried (``None`` where parallel)."""
    v = vertices
    es = [unit(_diff(v[i], v[(i + 1) % 3])) for i in range(3)]
    ns = []
    for i in range(3):
        e, f = es[i], es[(i + 1) % 3]
        n = unit(_cross(e, f)) if e is not None and f is not None else None
        if n is not None:
            ns.append(n)
    return [e for e in es if e is not None], ns


def _triangle_axes(a, b):
    """The separating-axis candidates of a triangle and a point, sphere, segment, capsule or
    triangle, as unit vectors (Ericson, RTCD §5.2.1, the separating-axis test: face normals
    and the cross products of edge directions, and in-plane normals ``n x e`` for coplanar
    pairs). Against a point ``c`` (or a sphere's centre): the face normal ``n``, the in-plane
    edge normals ``n x e_i`` (a point in the triangle's plane but outside it lies beyond one
    edge's line), each edge's normal towards ``c`` (:func:`_linear_axes` of the edge and
    ``c``) and the direction from each vertex to ``c`` (a sphere's edge and vertex regions,
    RTCD §5.1.5). Against a segment or capsule with direction ``m``: ``n``, ``e_i x m``,
    ``n x e_i`` and ``n x m``. Against a triangle (edges ``f_j``, normal ``n'``): both normals,
    the nine ``e_i x f_j`` and the in-plane normals ``n x`` and ``n' x`` each of the six edges.
    For a point, a segment or a triangle, two disjoint shapes are separated by one of them in
    exact arithmetic; a sphere's or capsule's are candidates only. Nothing for exact
    primitives (as :func:`_linear_axes`). A collinear triangle has no ``n``: against a point
    its edges' normals towards the point remain, against a segment its longest edge (the
    whole triangle) gives :func:`_linear_axes`' candidates."""
    if a.exact or b.exact:
        return
    if a.kind != "triangle":  # (an axis separates both ways: the order does not matter)
        a, b = b, a
    if a.kind != "triangle":
        return
    core = _core(b)
    if core is None:
        return
    from algorithms.primitives import Point, Segment

    v = a.vertices
    es, ns = _triangle_frame(v)
    yield from ns
    if core[0] == "point":
        c = core[1]
        for n in ns[:1]:
            for e in es:
                u = unit(_cross(n, e))
                if u is not None:
                    yield u
        for i in range(3):
            yield from _linear_axes(Segment(v[i], v[(i + 1) % 3]), Point(c))
        for p in v:
            u = unit(_diff(p, c))
            if u is not None:
                yield u
        return
    if core[0] == "segment":
        m = unit(_diff(core[1], core[2]))
        if m is None:  # a point-like segment or capsule: its end is the point
            yield from _triangle_axes(a, Point(core[1]))
            return
        if not ns:  # a collinear triangle is its longest edge: two segments' candidates
            i = max(range(3), key=lambda i: max_abs(_diff(v[i], v[(i + 1) % 3])))
            yield from _linear_axes(Segment(v[i], v[(i + 1) % 3]), Segment(core[1], core[2]))
            return
        fs, ms = [m], ns[:1]
    else:
        fs, ms = _triangle_frame(core[1:])
        yield from ms
        ms = ns[:1] + ms[:1]
    for e in es:
        for f in fs:
            u = unit(_cross(e, f))
            if u is not None:
                yield u
    for n in ms:
        for e in es + fs:
            u = unit(_cross(n, e))
            if u is not None:
                yield u


def _sat_axes(a, b):
    """:func:`reconcile`'s SAT candidates: :func:`_linear_axes` (segments and points) and
    :func:`_triangle_axes` (a triangle against a point, sphere, segment, capsule or
    triangle)."""
    yield from _linear_axes(a, b)
    yield from _triangle_axes(a, b)


#: how :func:`reconcile`'s note ends when it replaced the separating axis by one of
#: :func:`_sat_axes`' candidates (not the closest points' direction: evaluate_pair then
#: does not call the axis one "from the closest points")
AXIS_FROM_SAT = "replaced by a segment's or triangle's normal (SAT candidate)"


def verify_rel(a, b) -> float:
    """How near touching (relative to the scale) :func:`reconcile` checks a separating axis:
    :data:`VERIFY_CURVED_REL` for a pair with a cylinder, :data:`VERIFY_REL` otherwise."""
    return VERIFY_CURVED_REL if a.kind == "cylinder" or b.kind == "cylinder" else VERIFY_REL


def clearly_apart(a, b, intersects, distance, closest, first_t, side, toi) -> bool:
    """True when :func:`reconcile` has nothing to change (no notes): no query found a
    common point, the distance is farther than :func:`verify_rel` of the inputs' scale from
    touching and ``toi`` lies in ``[0, 1]`` (the common case, which a caller may skip
    :func:`reconcile` on; ``reconcile`` itself takes this test first)."""
    if (intersects is not True and first_t is None and side != 0 and distance
            and closest is not None and (toi is None or 0 <= toi <= 1)):
        size_a = _sizes(a)[1]
        size_b = _sizes(b)[1]
        return distance > verify_rel(a, b) * (size_a if size_a > size_b else size_b)
    return False


#: the kinds a line can touch along a half-line of its own, so that no least ``t`` exists
#: (scene-v1: ``first_t`` null "when it is unbounded below": a line in a plane, on a line or
#: along a ray)
_UNBOUNDED = ("plane", "line", "ray")


def reconcile(a, b, *, intersects, distance, closest, separating_axis=None, first_t=None,
              parameter=(None, None), side=None, toi=None, moving=False) -> dict:
    """One consistent answer from the separately computed keys of the pair ``(a, b)``.

    The rules (scene-v1: touching counts as intersecting; no key contradicts another):

    1. The pair intersects when any query found a common point: a dedicated test said so,
       ``distance`` is within the touching band (:func:`is_touching` with :func:`pair_scale`),
       a linear component's hits found a ``first_t``, or a plane's ``side`` is ``0``.
    2. Intersecting: ``distance`` is ``0``, ``closest`` one common point (the midpoint of the
       two closest points, which lie within the band of both shapes), no
       ``separating_axis``, ``side`` ``0``, ``toi`` ``0`` when the objects move, and a segment
       or ray without hits touches at its closest point (``first_t`` = its parameter), and so
       does a line against a bounded shape (against a plane, line or ray its contact may be
       unbounded below, and ``first_t`` stays what the hits found).
    3. Apart: a ``separating_axis`` must separate the closed-form projections by more than
       the band (:func:`separates`); one that does not is replaced by the direction between
       the closest points when that one separates, else by the first of the SAT candidates
       (:func:`_sat_axes`: segments', points' and triangles' normals and edge crosses) that
       separates, else dropped (``None``). The check runs
       when the shapes are within :func:`verify_rel` (``2**-20``, ``2**-8`` for a pair with a
       cylinder) of :func:`pair_scale` of touching; farther apart no method's rounding can
       tilt an axis enough to fail.
    4. ``toi`` is clamped into ``[0, 1]`` by :func:`clamp_time`.

    Returns the dict of the (possibly changed) values under the same names, plus
    ``"notes"``: a list of what was changed and why (for the trace).
    """
    notes = []
    exact_a, size_a, _ = _sizes(a)
    exact_b, size_b, _ = _sizes(b)
    exact = exact_a and exact_b
    if clearly_apart(a, b, intersects, distance, closest, first_t, side, toi):
        # the common case, clearly apart: nothing to reconcile (a drag step asks per pair)
        return {"intersects": False if intersects is not None or distance is not None
                else None, "distance": distance, "closest": closest,
                "separating_axis": separating_axis, "first_t": first_t, "side": side,
                "toi": toi, "notes": notes}
    hit = intersects is True
    if distance is not None and not hit:
        scale = pair_scale(a, b)
        if distance == 0 or (not exact and is_touching(distance, scale)):
            if distance != 0:
                notes.append(f"distance {distance!r} within the touching band")
            hit = True
    if first_t is not None and not hit:
        notes.append("a hit was found")
        hit = True
    if side == 0 and not hit:
        notes.append("side 0 (touching or straddling the plane)")
        hit = True
    if hit:
        if intersects is False:
            notes.append("touching: intersects")
        if distance is not None and distance != 0:
            notes.append(f"distance {distance!r} -> 0")
        if closest is not None and closest[0] is not None and closest[1] is not None and \
                tuple(closest[0]) != tuple(closest[1]):
            mid = midpoint(closest[0], closest[1])
            closest = (mid, mid)
        if distance is not None:
            distance = 0.0
        if separating_axis is not None:
            notes.append("separating axis dropped: the shapes touch")
            separating_axis = None
        if side not in (None, 0):
            notes.append(f"side {side} -> 0")
            side = 0
        if moving and toi != 0:
            notes.append(f"toi {toi!r} -> 0: they intersect at t = 0")
            toi = 0.0
        if first_t is None and parameter[0] is not None and (
                a.kind in ("segment", "ray") or (a.kind == "line" and b.kind not in _UNBOUNDED)):
            first_t = float(parameter[0])
            notes.append("first_t from the closest point")
    else:
        near = distance is None or exact or distance <= verify_rel(a, b) * pair_scale(a, b)
        if separating_axis is not None and near and not separates(a, b, separating_axis):
            replacement, how = None, "dropped"
            if closest is not None and None not in closest:
                d = unit(tuple(float(q) - float(p) for p, q in zip(closest[0], closest[1])))
                if d is not None and separates(a, b, d):
                    replacement, how = d, "replaced by the closest points' direction"
            if replacement is None:
                for d in _sat_axes(a, b):
                    if separates(a, b, d):
                        replacement, how = d, AXIS_FROM_SAT
                        break
            notes.append("separating axis did not separate the projections: " + how)
            separating_axis = replacement
    if toi is not None:
        t = clamp_time(toi)
        if t != toi:
            notes.append(f"toi {toi!r} -> {t!r}")
        toi = t
    return {"intersects": hit if intersects is not None or distance is not None else None,
            "distance": distance, "closest": closest, "separating_axis": separating_axis,
            "first_t": first_t, "side": side, "toi": toi, "notes": notes}
