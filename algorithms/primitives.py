"""The eleven primitives of the scene format, as frozen, validating dataclasses.

Every primitive stores its vectors as tuples of numbers (``float`` by default; the exact
oracles in the tests build them from :class:`fractions.Fraction` with ``exact=True`` so the
same scalar code runs in rational arithmetic, as Geometric Tools does with templates).

The field names and meanings are those of ``scene-v1.md``:

=========  ==========================================  ==========================================
type       fields                                       meaning
=========  ==========================================  ==========================================
point      position                                     a point
segment    p0, p1                                       ``p0 + t (p1 - p0)``, ``t`` in ``[0, 1]``
ray        origin, direction                            ``origin + t direction``, ``t >= 0``
line       origin, direction                            ``origin + t direction``, all real ``t``
plane      normal, d                                    ``normal . x = d``; front is ``> d``
triangle   vertices                                     the filled triangle (may be collinear)
sphere     center, radius                               the solid ball
aabb       min, max                                     the solid axis-aligned box
obb        center, axes, extents                        ``center + sum(u_i axes[i])``, ``|u_i| <= e_i``
cylinder   center, axis, radius, height                 the solid finite cylinder
capsule    p0, p1, radius                               points within ``radius`` of segment p0 p1
=========  ==========================================  ==========================================

Construction validates (finite numbers, radius/height/extents ``>= 0``, ``min <= max``, nonzero
directions, normals and axes, orthonormal OBB axes within 1e-6) and raises
:class:`GeometryError`, whose message names the field and the value. Degenerate but valid shapes
(zero-length segment, zero radius, flat box, collinear triangle) are accepted: every query must
answer them.

Examples
--------
>>> Segment((0, 0, 0), (1, 0, 0)).p1
(1.0, 0.0, 0.0)
>>> Sphere((0, 0, 0), -1)
Traceback (most recent call last):
...
algorithms.primitives.GeometryError: radius: must be >= 0, got -1
"""

from __future__ import annotations

import math
from dataclasses import dataclass, fields
from fractions import Fraction
from functools import cached_property
from numbers import Real
from typing import ClassVar

import numpy as np

from algorithms.core.tolerance import unit_np

ORTHONORMAL_TOLERANCE = 1e-6


class GeometryError(ValueError):
    """A primitive was built from invalid values.

    ``field`` names the offending field (``"radius"``, ``"axes[1]"``, ...), ``value`` holds what
    was given. ``str(error)`` is ``"<field>: <what is wrong>"``.
    """

    def __init__(self, field: str, problem: str, value=None):
        self.field = field
        self.problem = problem
        self.value = value
        super().__init__(f"{field}: {problem}")


class BeyondFloatRange(GeometryError):
    """An answer's points lie beyond the float range in the pair's units: computed at unit
    scale (:func:`algorithms.core.tolerance.call_rescaled`), they overflow when scaled back
    (a ray from the origin with direction ``(1.2e-10, 0, 1)`` crosses the plane
    ``x = 2.8e306`` at ``z = 2.4e316``). A clear refusal of the keys that need those points
    (``closest``, the hits) instead of a bare OverflowError; the keys that do not (whether they
    intersect) are answered. :class:`algorithms.kernels.stplane.BeyondFloatRange` is the
    st-plane's own case (nearly parallel lines)."""

    def __init__(self, field: str, what: str, value=None):
        super().__init__(field, f"{what} beyond the float range (a coordinate of more than "
                                f"1.8e308), so it cannot be given", value)


# ----------------------------------------------------------------------------- coercion helpers


def _scalar(value, field: str, exact: bool):
    if isinstance(value, bool) or not isinstance(value, (Real, np.floating, np.integer)):
        raise GeometryError(field, f"must be a number, got {value!r}", value)
    if exact:
        if isinstance(value, Fraction):
            return value
        if isinstance(value, (int, np.integer)):
            return Fraction(int(value))
        value = float(value)
        if not math.isfinite(value):
            raise GeometryError(field, f"must be finite, got {value!r}", value)
        return Fraction(value)
    if isinstance(value, Fraction):
        value = float(value)
    value = float(value)
    if not math.isfinite(value):
        raise GeometryError(field, f"must be finite, got {value!r}", value)
    return value


def _vector(value, field: str, exact: bool, n: int = 3) -> tuple:
    if isinstance(value, np.ndarray):
        value = value.tolist()
    if not isinstance(value, (list, tuple)) or len(value) != n:
        raise GeometryError(field, f"must be a list of {n} numbers, got {value!r}", value)
    return tuple(_scalar(v, f"{field}[{i}]", exact) for i, v in enumerate(value))


def _nonnegative(value, field: str):
    if value < 0:
        raise GeometryError(field, f"must be >= 0, got {_show(value)}", value)


def _nonzero(vec, field: str):
    if all(c == 0 for c in vec):
        raise GeometryError(field, f"must be a nonzero vector, got {list(map(_show, vec))}", vec)


def _show(x):
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, float) and x.is_integer():
        return int(x)
    return x


# ----------------------------------------------------------------------------- base class


@dataclass(frozen=True)
class Primitive:
    """Base of all primitives. ``kind`` is the scene-format type name."""

    kind: ClassVar[str] = ""
    #: names of the fields that are points (they move under translation)
    _point_fields: ClassVar[tuple[str, ...]] = ()
    #: names of the fields that are 3-vectors but not points (directions, normals)
    _vector_fields: ClassVar[tuple[str, ...]] = ()
    #: names of scalar fields
    _scalar_fields: ClassVar[tuple[str, ...]] = ()

    # subclasses call this from __post_init__
    def _coerce(self, exact: bool):
        for name in self._point_fields + self._vector_fields:
            value = getattr(self, name)
            if name == "vertices":
                if isinstance(value, np.ndarray):
                    value = value.tolist()
                if not isinstance(value, (list, tuple)) or len(value) != 3:
                    raise GeometryError(name, f"must be a list of 3 points, got {value!r}", value)
                coerced = tuple(_vector(v, f"{name}[{i}]", exact) for i, v in enumerate(value))
            elif name == "axes":
                if isinstance(value, np.ndarray):
                    value = value.tolist()
                if not isinstance(value, (list, tuple)) or len(value) != 3:
                    raise GeometryError(name, f"must be a list of 3 vectors, got {value!r}", value)
                coerced = tuple(_vector(v, f"{name}[{i}]", exact) for i, v in enumerate(value))
            else:
                coerced = _vector(value, name, exact)
            object.__setattr__(self, name, coerced)
        for name in self._scalar_fields:
            object.__setattr__(self, name, _scalar(getattr(self, name), name, exact))

    @classmethod
    def of_valid(cls, **values) -> "Primitive":
        """The primitive with these fields, taken as they are: for values that already are
        another primitive's coerced, validated fields (a capsule's core segment is its own
        ``p0``, ``p1``), so the library's inner calls skip the coercion. Never for user input:
        it checks nothing."""
        obj = object.__new__(cls)
        for name, value in values.items():
            object.__setattr__(obj, name, value)
        return obj

    @cached_property
    def exact(self) -> bool:
        """True when the coordinates are :class:`~fractions.Fraction` (built with ``exact=True``).
        Cached: a primitive is frozen, and every query asks."""
        for f in fields(self):
            v = getattr(self, f.name)
            while isinstance(v, tuple):
                v = v[0]
            return isinstance(v, Fraction)
        return False

    def translated(self, offset) -> "Primitive":
        """The same primitive moved by ``offset`` (points move; directions, normals do not).

        A plane ``n . x = d`` moves to ``n . x = d + n . offset``.
        """
        off = tuple(offset)
        changes = {}
        for name in self._point_fields:
            value = getattr(self, name)
            if name == "vertices":
                changes[name] = tuple(tuple(a + b for a, b in zip(v, off)) for v in value)
            else:
                changes[name] = tuple(a + b for a, b in zip(value, off))
        return self._replace(**changes)

    def _replace(self, **changes):
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        values.update(changes)
        return type(self)(**values, exact=self.exact)

    def to_fields(self) -> dict:
        """The scene-format fields as JSON-ready lists and floats."""
        out = {}
        for f in fields(self):
            out[f.name] = _plain(getattr(self, f.name))
        return out

    def as_exact(self) -> "Primitive":
        """The same primitive with every coordinate converted exactly to a Fraction."""
        values = {f.name: getattr(self, f.name) for f in fields(self)}
        return type(self)(**values, exact=True)


def _plain(v):
    if isinstance(v, tuple):
        return [_plain(x) for x in v]
    return float(v)


def _init_exact(cls):
    """Give a dataclass an ``exact`` keyword (not a field) and run validation after init."""
    original_init = cls.__init__

    def __init__(self, *args, exact: bool = False, **kwargs):
        original_init(self, *args, **kwargs)
        self._coerce(exact)
        self._validate()

    __init__.__doc__ = original_init.__doc__
    cls.__init__ = __init__
    return cls


@_init_exact
@dataclass(frozen=True, init=True)
class Point(Primitive):
    """A point."""

    position: tuple
    kind: ClassVar[str] = "point"
    _point_fields: ClassVar[tuple[str, ...]] = ("position",)

    def _validate(self):
        pass


@_init_exact
@dataclass(frozen=True)
class Segment(Primitive):
    """The segment ``p0 + t (p1 - p0)``, ``t`` in ``[0, 1]``; ``p0 == p1`` is a point."""

    p0: tuple
    p1: tuple
    kind: ClassVar[str] = "segment"
    _point_fields: ClassVar[tuple[str, ...]] = ("p0", "p1")

    def _validate(self):
        pass

    @cached_property
    def direction(self) -> tuple:
        """``p1 - p0`` (not unit; cached, a primitive is frozen)."""
        return tuple(b - a for a, b in zip(self.p0, self.p1))

    @property
    def origin(self) -> tuple:
        return self.p0


@dataclass(frozen=True)
class _OriginDirection(Primitive):
    """Shared fields of rays and lines: ``origin + t direction``, direction nonzero."""

    origin: tuple
    direction: tuple
    _point_fields: ClassVar[tuple[str, ...]] = ("origin",)
    _vector_fields: ClassVar[tuple[str, ...]] = ("direction",)

    def _validate(self):
        _nonzero(self.direction, "direction")


@_init_exact
@dataclass(frozen=True)
class Ray(_OriginDirection):
    """The ray ``origin + t direction``, ``t >= 0``; direction nonzero, not necessarily unit."""

    kind: ClassVar[str] = "ray"


@_init_exact
@dataclass(frozen=True)
class Line(_OriginDirection):
    """The line ``origin + t direction`` for all real ``t``; direction nonzero."""

    kind: ClassVar[str] = "line"


@_init_exact
@dataclass(frozen=True)
class Plane(Primitive):
    """All ``x`` with ``normal . x = d``; the front side is ``normal . x > d``.

    The normal is nonzero but not necessarily unit.
    """

    normal: tuple
    d: float
    kind: ClassVar[str] = "plane"
    _vector_fields: ClassVar[tuple[str, ...]] = ("normal",)
    _scalar_fields: ClassVar[tuple[str, ...]] = ("d",)

    def _validate(self):
        _nonzero(self.normal, "normal")
        if not self.exact:
            # the plane's distance from the origin, |d| / |normal|, must be a float: a tiny
            # normal with a large d puts the plane beyond 1.8e308
            m = max(abs(n) for n in self.normal)
            try:
                far = not math.isfinite(abs(self.d) / m)
            except OverflowError:
                far = True
            if far:
                raise GeometryError("d", f"d / |normal| is beyond the float range "
                                    f"(d = {_show(self.d)}, largest normal component "
                                    f"{_show(m)})", self.d)

    def translated(self, offset) -> "Plane":
        shift = sum(n * o for n, o in zip(self.normal, offset))
        return self._replace(d=self.d + shift)

    @property
    def origin(self) -> tuple:
        """The point of the plane nearest the world origin: ``d n / (n . n)``.

        On floats computed on ``n / max |n_i|`` (so a ``1e-300`` or ``1e200`` normal neither
        underflows nor overflows): ``(d / m) u / (u . u)`` with ``u = n / m``."""
        if self.exact:
            nn = sum(n * n for n in self.normal)
            return tuple(self.d * n / nn for n in self.normal)
        m = max(abs(float(n)) for n in self.normal)
        u = [float(n) / m for n in self.normal]
        uu = sum(c * c for c in u)
        k = (float(self.d) / m) / uu
        return tuple(k * c for c in u)


@_init_exact
@dataclass(frozen=True)
class Triangle(Primitive):
    """The filled triangle with ``vertices`` (3 points); collinear vertices are allowed."""

    vertices: tuple
    kind: ClassVar[str] = "triangle"
    _point_fields: ClassVar[tuple[str, ...]] = ("vertices",)

    def _validate(self):
        pass


@_init_exact
@dataclass(frozen=True)
class Sphere(Primitive):
    """The solid ball of ``radius >= 0`` around ``center``."""

    center: tuple
    radius: float
    kind: ClassVar[str] = "sphere"
    _point_fields: ClassVar[tuple[str, ...]] = ("center",)
    _scalar_fields: ClassVar[tuple[str, ...]] = ("radius",)

    def _validate(self):
        _nonnegative(self.radius, "radius")


@_init_exact
@dataclass(frozen=True)
class AABB(Primitive):
    """The solid axis-aligned box ``min <= x <= max`` (flat boxes allowed)."""

    min: tuple
    max: tuple
    kind: ClassVar[str] = "aabb"
    _point_fields: ClassVar[tuple[str, ...]] = ("min", "max")

    def _validate(self):
        for i, (lo, hi) in enumerate(zip(self.min, self.max)):
            if lo > hi:
                raise GeometryError(
                    f"min[{i}]", f"must be <= max[{i}], got {_show(lo)} > {_show(hi)}", lo
                )

    @property
    def center(self) -> tuple:
        return tuple((a + b) / 2 for a, b in zip(self.min, self.max))

    @property
    def extents(self) -> tuple:
        return tuple((b - a) / 2 for a, b in zip(self.min, self.max))


@_init_exact
@dataclass(frozen=True)
class OBB(Primitive):
    """The solid box ``center + sum(u_i axes[i])`` with ``|u_i| <= extents[i]``.

    ``axes`` are three orthonormal rows (checked within 1e-6); ``extents`` are half-lengths.
    """

    center: tuple
    axes: tuple
    extents: tuple
    kind: ClassVar[str] = "obb"
    _point_fields: ClassVar[tuple[str, ...]] = ("center",)
    _vector_fields: ClassVar[tuple[str, ...]] = ("axes", "extents")

    def _validate(self):
        for i, e in enumerate(self.extents):
            _nonnegative(e, f"extents[{i}]")
        for i in range(3):
            for j in range(i, 3):
                dot = float(sum(a * b for a, b in zip(self.axes[i], self.axes[j])))
                want = 1.0 if i == j else 0.0
                if not abs(dot - want) <= ORTHONORMAL_TOLERANCE:
                    if i == j:
                        problem = f"must be a unit vector (length^2 {dot:.9g})"
                        field = f"axes[{i}]"
                    else:
                        problem = f"must be orthogonal to axes[{j}] (dot {dot:.9g})"
                        field = f"axes[{i}]"
                    raise GeometryError(field, f"{problem}; axes must be orthonormal within 1e-6",
                                        self.axes)


@_init_exact
@dataclass(frozen=True)
class Cylinder(Primitive):
    """The solid finite cylinder: end disks at ``center +- (height/2) axis/|axis|``."""

    center: tuple
    axis: tuple
    radius: float
    height: float
    kind: ClassVar[str] = "cylinder"
    _point_fields: ClassVar[tuple[str, ...]] = ("center",)
    _vector_fields: ClassVar[tuple[str, ...]] = ("axis",)
    _scalar_fields: ClassVar[tuple[str, ...]] = ("radius", "height")

    def _validate(self):
        _nonzero(self.axis, "axis")
        _nonnegative(self.radius, "radius")
        _nonnegative(self.height, "height")

    @property
    def unit_axis(self) -> np.ndarray:
        return unit_np(self.axis)

    @property
    def end_points(self) -> tuple[np.ndarray, np.ndarray]:
        """The centres of the two end disks (``center -+ height/2 * unit axis``), as floats."""
        c = np.asarray(self.center, dtype=float)
        w = self.unit_axis * (float(self.height) / 2)
        return c - w, c + w


@_init_exact
@dataclass(frozen=True)
class Capsule(Primitive):
    """All points within ``radius`` of the segment ``p0 p1``."""

    p0: tuple
    p1: tuple
    radius: float
    kind: ClassVar[str] = "capsule"
    _point_fields: ClassVar[tuple[str, ...]] = ("p0", "p1")
    _scalar_fields: ClassVar[tuple[str, ...]] = ("radius",)

    def _validate(self):
        _nonnegative(self.radius, "radius")

    @cached_property
    def segment(self) -> Segment:
        """The axis segment ``p0 p1`` (cached, a primitive is frozen: every pair of a scene's
        capsule asks, and the segment keeps its own caches between them)."""
        return Segment(self.p0, self.p1, exact=self.exact)


#: scene-format type name -> class
TYPES: dict[str, type[Primitive]] = {
    cls.kind: cls
    for cls in (Point, Segment, Ray, Line, Plane, Triangle, Sphere, AABB, OBB, Cylinder, Capsule)
}

#: the linear components (they have a parameter ``t`` and a ``first_t``)
LINEAR_KINDS = ("segment", "ray", "line")
#: the kinds for which ``separating_axis`` applies (scene-v1)
SEPARABLE_KINDS = ("aabb", "obb", "cylinder", "sphere", "capsule", "triangle", "segment")


def field_names(kind: str) -> list[str]:
    """The scene-format field names of a type, in order."""
    return [f.name for f in fields(TYPES[kind])]


def from_fields(kind: str, values: dict, exact: bool = False) -> Primitive:
    """Build a primitive of type ``kind`` from a dict of its scene fields.

    Raises :class:`GeometryError` for a missing field (``field`` is its name) or a bad value.
    """
    if kind not in TYPES:
        raise GeometryError("type", f"unknown type {kind!r} (known: {', '.join(TYPES)})", kind)
    cls = TYPES[kind]
    args = {}
    for name in field_names(kind):
        if name not in values:
            raise GeometryError(name, "missing", None)
        args[name] = values[name]
    return cls(**args, exact=exact)


def as_array(v) -> np.ndarray:
    """A float numpy array of a vector or tuple of vectors."""
    return np.asarray(v, dtype=float)
