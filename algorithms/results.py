"""Result records, one family per kind of query, with Geometric Tools' field names.

Every record carries ``method`` (the algorithm's name and its seed section, for example
``"segment-segment distance, st-plane regions (Eberly 10.8.3)"``) and ``trace`` (a dict of the
algorithm's intermediate values under the book's names: ``a b c d e``, ``region``,
``t_enter``, ``t_leave``...). ``trace`` is what the explorer draws and explains.

Each record knows how to :meth:`flipped` itself: the registry answers ``query(b, a)`` by
running the registered ``query(a, b)`` and flipping, so ``closest[0]`` is always on the first
argument and ``closest[1]`` on the second.

The families
------------
:class:`DistanceResult`
    ``distance``, ``sqr_distance``, ``closest = (on A, on B)``, ``parameter = (of A, of B)``
    (``None`` where a shape has no parameter).
:class:`IntersectionResult`
    test-intersection: ``intersects``.
:class:`HitResult`
    find-intersection of a linear component A (segment, ray, line) with B: ``hits`` (a list of
    :class:`Hit` sorted by ``t``: entry and exit for solids), ``first_t`` (least parameter of A
    touching B; ``None`` when it never does). Not symmetric: only A's parameter is meaningful.
:class:`SeparationResult`
    ``intersects``, ``axis`` (unit, or ``None``), ``intervals = ((minA, maxA), (minB, maxB))``
    of the projections on ``axis``, and ``trace["axes"]``: every candidate axis tested.
:class:`SideResult`
    ``side`` in {1, 0, -1} of the non-plane object relative to the plane,
    ``signed_distance`` of its centre and ``effective_radius``.
:class:`ContactResult`
    time of impact: ``toi`` in ``[0, 1]`` or ``None``, ``point`` and ``normal`` at that time
    (the normal points from A towards B).
"""

from __future__ import annotations

import functools
import math
import re
from dataclasses import dataclass, field, replace
from fractions import Fraction
from typing import Any, Optional

import numpy as np

Vec = Any  # a 3-tuple of floats (or Fractions), or a numpy array


_ROLE = re.compile(r"(?<![a-wyzA-Z])([AB])(?=[0-9.])")


def _swap_roles(name):
    """``A`` <-> ``B`` where they name a shape's axis (``A0``, ``B2``, ``A1xB0``)."""
    if not isinstance(name, str):
        return name
    return _ROLE.sub(lambda m: "B" if m.group(1) == "A" else "A", name)


def _swap_trace(trace: dict) -> dict:
    out = dict(trace)
    out["swapped"] = not trace.get("swapped", False)
    return out


def _swap_stored(stored) -> dict:
    return _swap_trace(resolve(stored, "trace"))


def _swapped_trace(result):
    """:func:`_swap_trace` of ``result``'s trace, deferred while that trace is (a flipped
    query stays as cheap as the unflipped one until someone reads the trace)."""
    stored = result.__dict__["trace"]
    if type(stored) is Deferred or is_pending(stored):
        return Deferred(_swap_stored, stored)
    return _swap_trace(stored)


@dataclass(frozen=True)
class Result:
    """Common fields: the algorithm's name (with its section) and its intermediate values."""

    method: str = ""
    trace: dict = field(default_factory=dict)

    def flipped(self) -> "Result":
        """The same answer for the arguments in the other order."""
        return _with(self, trace=_swapped_trace(self))


class Deferred(functools.partial):
    """A trace computed on first access: ``Deferred(func, *args)()`` is ``func(*args)``
    (module-level ``func`` and plain arguments, so a record holding one still pickles).

    The filtered kernels (:mod:`algorithms.kernels.filters`) answer from a plain float path
    and hand the record a ``Deferred`` instead of the trace dict; reading ``result.trace``
    runs it once and keeps the dict, so every view sees the same trace it always did and a
    caller that never looks pays nothing for it. (A :func:`functools.partial`: made and
    called in C, a tenth of a microsecond on the hot path of every query.)
    """

    __slots__ = ()


class _PendingMark:
    """The type of :data:`PENDING` (one instance; it pickles, copies and deep-copies as
    itself)."""

    __slots__ = ()

    def __reduce__(self):
        return "PENDING"

    def __repr__(self):
        return "PENDING"


#: the first item of a *shared pending value* (:func:`pending`)
PENDING = _PendingMark()


def pending(func, *args) -> tuple:
    """A shared pending value: the tuple ``(PENDING, func, *args)``, which every
    :class:`DeferredField` of a record may hold at once; reading field ``name`` computes
    ``func(name, *args)`` then (once per field, then kept). One lean cast's record holds
    one for both its trace and its hit list (``linear_aabb._lean_cast``): a tuple costs
    less to make than a :class:`Deferred` (a partial: an object, its argument tuple and its
    keyword dict), and one serves both fields. ``func`` is module-level and ``args`` plain
    values, so a record holding one still pickles (and copies: the tuple is immutable). No
    field holds such a tuple as its value (a trace is a dict, a hit list a tuple of
    :class:`Hit`: never one that starts with :data:`PENDING`). The hot path writes the
    tuple itself, ``(PENDING, func, a, b)``."""
    return (PENDING, func, *args)


def is_pending(value) -> bool:
    """True when ``value`` is a shared pending value (:func:`pending`)."""
    return type(value) is tuple and len(value) > 1 and value[0] is PENDING


def resolve(stored, name: str):
    """What field ``name`` gives for the value ``stored`` in it: a :class:`Deferred` called,
    a :func:`pending` value computed for ``name``, anything else as it is (what
    :class:`DeferredField` returns, without keeping it)."""
    if type(stored) is Deferred:
        return stored()
    if is_pending(stored):
        return stored[1](name, *stored[2:])
    return stored


class DeferredField:
    """A record field that may hold a :class:`Deferred` or a shared :func:`pending` value: a
    data descriptor in front of the dataclass field that turns it into its value on first
    access (and keeps it). Anything else is stored and returned as given. ``Result.trace``
    (the trace dict), ``HitResult.hits`` (the hit list a lean cast leaves to be built when
    read) and :class:`~algorithms.answer.PairAnswer`'s extras (``contains``, ``lines``,
    ``plane2d``). Read on the class it gives ``on_class`` (the descriptor itself unless
    told)."""

    _SELF = object()

    def __init__(self, name: str, on_class=_SELF):
        self.name = name
        self.on_class = on_class

    def __get__(self, obj, owner=None):
        if obj is None:
            return self if self.on_class is DeferredField._SELF else self.on_class
        d = obj.__dict__
        value = d[self.name]
        t = type(value)
        if t is Deferred:
            value = d[self.name] = value()
        elif t is tuple and len(value) > 1 and value[0] is PENDING:  # (pending)
            value = d[self.name] = value[1](self.name, *value[2:])
        return value

    def __set__(self, obj, value):
        obj.__dict__[self.name] = value


Result.trace = DeferredField("trace")


def make(cls, **fields):
    """``cls(**fields)`` for a result record without the frozen dataclass's per-field
    ``object.__setattr__`` (about 3x cheaper; the hottest kernels, the ray/segment-AABB
    casts, the ray-triangle miss and the segment pair, use :func:`builder`, cheaper still).
    Every field must be given; the record is the same frozen instance ``cls`` builds."""
    obj = object.__new__(cls)
    obj.__dict__.update(fields)
    return obj


def _with(record, **changes):
    """``dataclasses.replace(record, **changes)`` without the frozen ``__init__`` (what
    :meth:`Result.flipped` does on the hot path of every swapped query): a copy of the
    record's fields with ``changes`` applied. ``changes`` must name fields only (a
    :class:`Deferred` trace is copied as stored, unread)."""
    obj = object.__new__(type(record))
    try:
        d = obj.__dict__
    except AttributeError:  # a record class with __slots__ (a user's): the dataclass way
        return replace(record, **changes)
    d.update(record.__dict__)
    d.update(changes)
    return obj


class _Builder:
    """The base of :func:`builder`'s classes: a plain class (an instance dict, weak
    references; no ``__setattr__``, no descriptors)."""


def builder(cls) -> type:
    """A plain class laid out as the record class ``cls`` (an instance dict and weak
    references, like every dataclass here), without its frozen ``__setattr__`` and its
    :class:`DeferredField` descriptors: the cheapest way to build a ``cls`` on a hot path,
    ::

        obj = build()            # build = builder(HitResult)
        obj.method = ...         # every field, in the dataclass's order
        ...
        obj.__class__ = HitResult

    which is the record :func:`make` builds from those fields (the same type, the same
    ``__dict__`` in the same order: equal, and it pickles, copies and ``replace``-s alike;
    ``tests/algorithms/test_results_builder.py``). Why it costs less: instantiating a plain
    class is the type's C call (``object.__new__(cls)`` goes through ``tp_new_wrapper``), and
    an attribute store on a plain instance is CPython's specialised store into the
    instance's own values (where a dict store on ``obj.__dict__`` materialises that dict
    first); the ``__class__`` assignment then materialises it once (about 50 ns less per
    record than :func:`make_with`'s inlined form on CPython 3.11). Every field must be
    stored; nothing else may be (the builder's instances are never seen outside the few
    lines that make them)."""
    build = type(f"{cls.__name__}Builder", (_Builder,), {"__module__": __name__})
    probe = build()
    probe.__class__ = cls  # TypeError here if the layouts differed (a record with __slots__)
    return build


def make_with(cls, fields: dict):
    """:func:`make` with the fields already in a dict, which becomes the record's own
    ``__dict__`` (the caller gives it up): no keyword call, no copy. Every field must be
    given."""
    obj = object.__new__(cls)
    object.__setattr__(obj, "__dict__", fields)
    return obj


@dataclass(frozen=True)
class DistanceResult(Result):
    """Distance query: ``closest[0]`` on A, ``closest[1]`` on B, ``distance`` between them."""

    distance: float = 0.0
    sqr_distance: float = 0.0
    closest: tuple = (None, None)
    parameter: tuple = (None, None)

    def flipped(self) -> "DistanceResult":
        return _with(
            self,
            closest=(self.closest[1], self.closest[0]),
            parameter=(self.parameter[1], self.parameter[0]),
            trace=_swapped_trace(self),
        )

    @property
    def intersects(self) -> bool:
        return self.sqr_distance == 0


#: :func:`builder` of :class:`DistanceResult` (the lean segment-pair records)
DISTANCE_BUILDER = builder(DistanceResult)


@dataclass(frozen=True)
class IntersectionResult(Result):
    """Test-intersection query: do the two point sets share a point (touching counts)."""

    intersects: bool = False


@dataclass(frozen=True)
class Hit:
    """One point where linear component A meets B: A's parameter ``t``, the ``point``, and B's
    outward surface ``normal`` there (``None`` where B has no surface normal: a point, a
    segment, or A running inside B).
    """

    t: float
    point: Vec
    normal: Optional[Vec] = None
    kind: str = "hit"  # "entry", "exit", "hit", "inside" (A starts inside B), "overlap"


@dataclass(frozen=True)
class HitResult(Result):
    """Find-intersection of a linear component A with B.

    ``hits`` sorted by ``t``; ``first_t`` the least parameter of A at which A touches B
    (``0`` for a segment or ray starting inside a solid; ``None`` when it never touches, and
    for a line also when it is unbounded below).
    """

    intersects: bool = False
    first_t: Optional[float] = None
    hits: tuple = ()

    def flipped(self) -> "HitResult":
        # Only A's parameter is meaningful, so a flipped hit result keeps its points and
        # drops the parameter: the registry asks the ordered pair for ``first_t`` instead.
        return _with(self, first_t=None, trace=_swapped_trace(self))


HitResult.hits = DeferredField("hits")
#: :func:`builder` of :class:`HitResult` (the lean casts' records)
HIT_BUILDER = builder(HitResult)


@dataclass(frozen=True)
class SeparationResult(Result):
    """Separating-axis test.

    ``axis`` is a unit vector on which the projections of A and B are disjoint (``None`` when
    they intersect); ``intervals`` the projections ``((minA, maxA), (minB, maxB))`` on it.
    ``trace["axes"]`` lists every candidate: ``{"name", "axis", "r_A", "r_B", "distance",
    "margin", "separating"}`` where ``margin = distance - (r_A + r_B)`` (positive: separating).
    """

    intersects: bool = False
    axis: Optional[Vec] = None
    intervals: Optional[tuple] = None

    def flipped(self) -> "SeparationResult":
        """Swap the roles: intervals, ``r_A``/``r_B``, and the shape letters in the axis names
        (``A0`` <-> ``B0``, ``A1xB2`` -> ``B1xA2``, ``edge0 x B1`` -> ``edge0 x A1``), so that
        ``A`` is again the first argument."""
        intervals = None if self.intervals is None else (self.intervals[1], self.intervals[0])
        trace = _swap_trace(self.trace)
        for key in ("axes", "skipped_axes"):
            if key in trace:
                trace[key] = [{**ax, "name": _swap_roles(ax.get("name")), "r_A": ax.get("r_B"),
                               "r_B": ax.get("r_A")} for ax in trace[key]]
        for key in ("chosen", "least_overlap"):
            if key in trace:
                trace[key] = _swap_roles(trace[key])
        return _with(self, intervals=intervals, trace=trace)


@dataclass(frozen=True)
class SideResult(Result):
    """Which side of the plane the other object lies on: ``1`` wholly in front
    (``n . x > d``), ``-1`` wholly behind, ``0`` touching or straddling.

    ``signed_distance`` is the (unit-normal) signed distance of the object's centre and
    ``effective_radius`` its extent along the normal, so ``side`` follows from comparing them.
    """

    side: int = 0
    signed_distance: Optional[float] = None
    effective_radius: Optional[float] = None


@dataclass(frozen=True)
class ContactResult(Result):
    """Time of impact of two objects translating by ``t * motion`` over ``t`` in ``[0, 1]``.

    ``toi`` the least ``t`` at which they touch (``0`` when they already intersect, ``None``
    when they do not touch within ``[0, 1]``); ``point`` a contact point at that time and
    ``normal`` the contact normal pointing from A towards B (``None`` where undefined).
    """

    toi: Optional[float] = None
    point: Optional[Vec] = None
    normal: Optional[Vec] = None

    def flipped(self) -> "ContactResult":
        normal = None if self.normal is None else tuple(-float(c) for c in self.normal)
        return _with(self, normal=normal, trace=_swapped_trace(self))


# ----------------------------------------------------------------------------- JSON helpers


def to_jsonable(value):
    """Convert numbers, numpy arrays, tuples, Fractions and records to JSON-ready values.

    Fractions become floats (the exact value stays available in Python); non-finite floats
    become ``None`` so the output is strict JSON. The common types are dispatched on their exact
    type first: this runs on every result of every drag step.
    """
    t = type(value)
    if t is float:
        return value if math.isfinite(value) else None
    if t is int or t is str or t is bool or value is None:
        return value
    if t is list or t is tuple:
        return [to_jsonable(v) for v in value]
    if t is dict:
        return {k if type(k) is str else str(k): to_jsonable(v) for k, v in value.items()}
    if t is np.ndarray:
        if value.dtype.kind == "f" and np.isfinite(value).all():
            return value.tolist()
        return to_jsonable(value.tolist())
    if isinstance(value, (np.bool_,)):
        return bool(value)
    if isinstance(value, (int, np.integer)):
        return int(value)
    if isinstance(value, (float, np.floating, Fraction)):
        f = float(value)
        return f if math.isfinite(f) else None
    if isinstance(value, dict):
        return {str(k): to_jsonable(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [to_jsonable(v) for v in value]
    if hasattr(value, "__dataclass_fields__"):
        return {k: to_jsonable(getattr(value, k)) for k in value.__dataclass_fields__}
    return str(value)
