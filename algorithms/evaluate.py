"""Compose the registry's queries into one ``explorer eval`` result (scene-v1.md).

:func:`evaluate_pair` returns the spec's dict for one pair: ``a``, ``b``, ``pair`` and the nine
keys ``intersects distance closest first_t separating_axis side toi method trace``, ``None``
where a key does not apply, and ``"error"`` when a query the pair needs is not available or
raised. It never raises for valid primitives.

Where a pair has no dedicated test, the answers are derived from the others, as the spec's
meanings allow:

* ``intersects`` from the distance (``distance == 0``) when no ``intersects`` or
  ``separating_axis`` function is registered;
* ``separating_axis`` from the closest points when no separating-axis test is registered: for
  two convex sets at positive distance, the direction from one closest point to the other
  separates them (the supporting hyperplane theorem);
* ``distance`` is forced to ``0`` when a dedicated test says the shapes intersect.

``trace`` holds the distance query's trace at its top level (for segment pairs: ``s``, ``t``,
the unconstrained minimiser, the st-plane ``region``) and the other queries' traces under their
names (``trace["hits"]``, ``trace["separating_axis"]``, ``trace["side"]``, ``trace["toi"]``).
"""

from __future__ import annotations

import math
from typing import Optional, Sequence

import numpy as np

from algorithms import registry
from algorithms.primitives import LINEAR_KINDS, SEPARABLE_KINDS, Primitive
from algorithms.results import to_jsonable

KEYS = ("intersects", "distance", "closest", "first_t", "separating_axis", "side", "toi",
        "method", "trace")


def _vec(v) -> list:
    return [float(c) for c in v]


class LazyTrace(dict):
    """A ``trace`` dict whose top-level values go through :func:`to_jsonable` when first read.

    What :func:`evaluate_pair` returns with ``lazy_trace=True``: every key is present from the
    start (``len``, ``in`` and ``keys`` are exact), and every way of reading a value (``[]``,
    ``get``, ``items``, ``values``, iteration, ``copy``, ``==``, ``json.dumps``, ``{**t}``,
    pickling) sees the converted value, equal to the eager ``to_jsonable(trace)``. A live view
    that draws a few keys per drag step then pays only for those (a GJK run's ``steps`` or a
    SAT test's 15 axes are converted only when a panel shows them).
    """

    __slots__ = ("_raw",)

    def __init__(self, raw: dict):
        super().__init__(raw)
        #: keys whose stored value is not converted yet
        self._raw = set(raw)

    def __getitem__(self, key):
        value = dict.__getitem__(self, key)
        if key in self._raw:
            value = to_jsonable(value)
            dict.__setitem__(self, key, value)
            self._raw.discard(key)
        return value

    def get(self, key, default=None):
        return self[key] if key in self else default

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, value)
        self._raw.discard(key)

    def _convert_all(self) -> None:
        for key in list(self._raw):
            self[key]

    def __eq__(self, other):
        self._convert_all()
        if isinstance(other, LazyTrace):
            other._convert_all()
        return dict.__eq__(self, other)

    def __ne__(self, other):
        result = self.__eq__(other)
        return result if result is NotImplemented else not result

    __hash__ = None

    def __reduce__(self):  # copy, deepcopy and pickle make a plain (converted) dict
        return dict, (dict(self.items()),)


def _converting(name: str):
    method = getattr(dict, name)

    def converted_first(self, *args, **kwargs):
        self._convert_all()
        return method(self, *args, **kwargs)

    converted_first.__name__ = name
    return converted_first


# every other way of reading values (or of changing several keys) converts them all first
for _name in ("__iter__", "__repr__", "__or__", "__ror__", "__ior__", "__delitem__", "items",
              "values", "copy", "pop", "popitem", "setdefault", "update", "clear"):
    setattr(LazyTrace, _name, _converting(_name))
del _name


def evaluate_pair(
    a: Primitive,
    b: Primitive,
    motion_a: Optional[Sequence[float]] = None,
    motion_b: Optional[Sequence[float]] = None,
    id_a: str = "A",
    id_b: str = "B",
    lazy_trace: bool = False,
) -> dict:
    """The spec's result object for the pair ``(a, b)`` (JSON-ready).

    ``lazy_trace=True`` returns the ``trace`` as a :class:`LazyTrace`: the same values, each
    converted when first read (for a live view that reads a few of them per frame).
    """
    out: dict = {"a": id_a, "b": id_b, "pair": f"{a.kind}-{b.kind}"}
    out.update({k: None for k in KEYS})
    methods: list[str] = []
    trace: dict = {}
    errors: list[str] = []

    def run(name, *args):
        try:
            result = registry.query(name, a, b, *args)
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
    if dist is not None:
        out["distance"] = float(dist.distance)
        out["closest"] = [_vec(dist.closest[0]), _vec(dist.closest[1])]
        trace.update(dist.trace)
        trace["parameter"] = list(dist.parameter)

    intersects = None
    if registry.has_query("intersects", a.kind, b.kind, specific=True):
        r = run("intersects")
        if r is not None:
            intersects = bool(r.intersects)
            trace["intersects"] = r.trace

    both_separable = a.kind in SEPARABLE_KINDS and b.kind in SEPARABLE_KINDS
    if both_separable and registry.has_query("separating_axis", a.kind, b.kind, specific=True):
        sep = run("separating_axis")
        if sep is not None:
            trace["separating_axis"] = {**sep.trace, "intervals": sep.intervals}
            if intersects is None:
                intersects = bool(sep.intersects)
            if sep.axis is not None:
                out["separating_axis"] = _vec(sep.axis)

    if intersects is None and dist is not None:
        intersects = bool(dist.sqr_distance == 0)
    out["intersects"] = intersects

    if intersects and dist is not None and out["distance"] != 0.0:
        # A dedicated test decided "touching"; the distance is then 0 by definition.
        trace["distance_rounding"] = out["distance"]
        out["distance"] = 0.0
        mid = _vec((np.asarray(dist.closest[0], float) + np.asarray(dist.closest[1], float)) / 2)
        out["closest"] = [mid, mid]

    if both_separable and out["separating_axis"] is None and intersects is False:
        if dist is not None and out["distance"] > 0:
            d = np.asarray(out["closest"][1]) - np.asarray(out["closest"][0])
            n = float(np.linalg.norm(d))
            if n > 0 and math.isfinite(n):
                out["separating_axis"] = _vec(d / n)
                trace.setdefault("separating_axis", {"from": "closest points"})

    if a.kind in LINEAR_KINDS:
        hits = run("hits")
        if hits is not None:
            out["first_t"] = None if hits.first_t is None else float(hits.first_t)
            trace["hits"] = {**hits.trace, "hits": hits.hits}

    if "plane" in (a.kind, b.kind):
        side = run("side")
        if side is not None:
            out["side"] = int(side.side)
            trace["side"] = {**side.trace, "signed_distance": side.signed_distance,
                             "effective_radius": side.effective_radius}

    if motion_a is not None or motion_b is not None:
        ma = np.zeros(3) if motion_a is None else np.asarray(motion_a, dtype=float)
        mb = np.zeros(3) if motion_b is None else np.asarray(motion_b, dtype=float)
        rel = mb - ma
        contact = run("toi", tuple(float(c) for c in rel))
        if contact is not None:
            out["toi"] = None if contact.toi is None else float(contact.toi)
            point = contact.point
            if point is not None and contact.toi is not None:
                # the contact was found with A held still; move it with A to world space
                point = np.asarray(point, dtype=float) + float(contact.toi) * ma
            trace["toi"] = {**contact.trace, "relative_motion": rel, "point": point,
                            "normal": contact.normal}

    out["method"] = "; ".join(methods) if methods else None
    if errors:
        out["error"] = "; ".join(errors)
    out = {k: (v if k == "trace" else to_jsonable(v)) for k, v in out.items()}
    out["trace"] = LazyTrace(trace) if lazy_trace else to_jsonable(trace)
    return out
