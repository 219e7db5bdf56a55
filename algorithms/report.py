"""The scene-v1 result object (``explorer eval``, ``scene-v1.md``), written from a
:class:`~algorithms.answer.PairAnswer` in this one place.

``result_json(answer)`` gives ``a``, ``b``, ``pair``, the nine keys ``intersects distance
closest first_t separating_axis side toi method trace`` (``None`` where a key does not apply),
the project's ``contains`` (docs/scene-v1.md, project extensions)
and ``"error"`` when a query failed. The ``trace`` holds the distance query's trace at its top
level (for segment pairs ``s``, ``t``, the unconstrained minimiser, the st-plane ``region``) and
``parameter``; the other records' traces under their query names: ``trace["intersects"]``,
``trace["separating_axis"]`` (plus ``intervals``), ``trace["hits"]`` (plus the ``hits``),
``trace["side"]`` (plus ``signed_distance`` and ``effective_radius``), ``trace["toi"]`` (plus
``relative_motion`` and the world ``point`` and ``normal``).

Examples
--------
>>> from algorithms import Point
>>> r = evaluate_json(Point((0, 0, 0)), Point((3, 4, 0)), id_a="P", id_b="Q")
>>> r["pair"], r["distance"], r["intersects"], r["closest"]
('point-point', 5.0, False, [[0.0, 0.0, 0.0], [3.0, 4.0, 0.0]])
"""

from __future__ import annotations

import json
import math
from fractions import Fraction

import numpy as np

from algorithms.answer import PairAnswer
from algorithms.results import to_jsonable

KEYS = ("intersects", "distance", "closest", "first_t", "separating_axis", "side", "toi",
        "method", "trace")


def trace_of(answer: PairAnswer) -> dict:
    """The result's ``trace`` (unconverted: numpy values, Fractions, records)."""
    rec = answer.records
    trace: dict = {}
    if rec.distance is not None:
        trace.update(rec.distance.trace)
        trace["parameter"] = list(rec.distance.parameter)
    if rec.intersection is not None:
        trace["intersects"] = rec.intersection.trace
    if rec.separation is not None:
        trace["separating_axis"] = {**rec.separation.trace, "intervals": rec.separation.intervals}
    if answer.distance_rounding is not None:
        trace["distance_rounding"] = answer.distance_rounding
    if answer.axis_from_closest:
        trace.setdefault("separating_axis", {"from": "closest points"})
    if answer.reconciled:
        trace["reconciled"] = list(answer.reconciled)
    if rec.hits is not None:
        trace["hits"] = {**rec.hits.trace, "hits": rec.hits.hits}
    if rec.side is not None:
        trace["side"] = {**rec.side.trace, "signed_distance": rec.side.signed_distance,
                         "effective_radius": rec.side.effective_radius}
    if answer.lines is not None:  # App. A.8 on the two lines
        ln = answer.lines
        trace["two rays"] = {"case": ln.case, "t1": ln.t1, "t2": ln.t2, "gap": ln.gap,
                                "|d1 x d2|^2": ln.cross_sqr, "within": ln.within,
                                "method": ln.method}
    if answer.plane2d is not None:  # App. A.1 / A.7 in the z = 0 plane
        trace["2d lines"] = dict(answer.plane2d)
    if rec.contact is not None:
        trace["toi"] = {**rec.contact.trace, "relative_motion": answer.relative_motion,
                        "point": answer.contact_point, "normal": rec.contact.normal}
    return trace


def result_fields(answer: PairAnswer) -> dict:
    """The result object before :func:`to_jsonable` (numpy values, tuples, Fractions)."""
    return {"a": answer.a, "b": answer.b, "pair": answer.pair,
           "intersects": answer.intersects, "distance": answer.distance,
           "closest": None if answer.closest is None else [list(answer.closest[0]),
                                                           list(answer.closest[1])],
           "first_t": answer.first_t,
           "separating_axis": None if answer.separating_axis is None
           else list(answer.separating_axis),
           "side": answer.side, "toi": answer.toi, "contains": answer.contains,
           "method": answer.method}


def result_json(answer: PairAnswer) -> dict:
    """The scene-v1 result object for ``answer`` (JSON-ready: lists, floats, ``None``)."""
    out = {k: to_jsonable(v) for k, v in result_fields(answer).items()}
    out["trace"] = to_jsonable(trace_of(answer))
    if answer.errors:
        out["error"] = answer.error
    return out


def _default(value):
    """``json``'s hook for what it cannot write itself: the :func:`to_jsonable` of the value,
    for the types where the two agree (anything else raises and the caller falls back)."""
    if isinstance(value, np.ndarray):
        return to_jsonable(value)
    if isinstance(value, (np.bool_, np.integer, np.floating, Fraction)):
        return to_jsonable(value)
    if hasattr(value, "__dataclass_fields__"):
        return {k: getattr(value, k) for k in value.__dataclass_fields__}
    raise TypeError(type(value).__name__)


def _c_encoder():
    """``json``'s C encoder made once with the settings of ``JSONEncoder(allow_nan=False,
    default=_default, check_circular=False)`` (what ``JSONEncoder.encode`` makes again on
    every call of a dict), or ``None`` where ``json`` has no C accelerator."""
    try:
        from json.encoder import c_make_encoder, encode_basestring_ascii
    except ImportError:  # pragma: no cover - CPython has both
        return None
    if c_make_encoder is None:  # pragma: no cover
        return None
    return c_make_encoder(None, _default, encode_basestring_ascii, None, ": ", ", ", False,
                          False, False)


_C_ENCODE = _c_encoder()
#: ``JSONEncoder(allow_nan=False, default=_default, check_circular=False).encode``: the
#: careful spelling of :func:`encode`
encode_careful = json.JSONEncoder(allow_nan=False, default=_default, check_circular=False).encode


def encode(obj: dict) -> str:
    """The JSON text of the result dict ``obj`` (``json.dumps``' settings, no NaN: a
    non-finite float raises ``ValueError``): the bytes of :func:`encode_careful`, by the C
    encoder made once (a dict never takes ``JSONEncoder.encode``'s own path for a ``str``);
    :func:`result_text` writes with it, ``bench eval`` times it apart."""
    if _C_ENCODE is None:  # pragma: no cover
        return encode_careful(obj)
    return "".join(_C_ENCODE(obj, 0))


def result_text(answer: PairAnswer) -> str:
    """``json.dumps(result_json(answer), allow_nan=False)``, the same bytes, written by the C
    encoder straight from the answer (no converted copy of the trace): what ``explorer eval``
    writes per result. A value ``json`` would write differently (a non-finite float, which
    :func:`to_jsonable` makes ``null``; a type ``json`` does not know) takes the slow path.
    (``json`` would also write a ``True`` or ``None`` dict key and a ``str`` subclass value
    unlike :func:`to_jsonable`: answers have neither; ``tests/explorer/test_result_text.py``
    compares the two on every shipped scene.)"""
    out = result_fields(answer)
    out["trace"] = trace_of(answer)
    if answer.errors:
        out["error"] = answer.error
    try:
        return encode(out)
    except ValueError:  # a non-finite float (a line's unbounded end): null, as to_jsonable
        try:
            return encode(_finite(out))
        except (ValueError, TypeError):
            pass
    except TypeError:
        pass
    return json.dumps(to_jsonable(out), allow_nan=False)  # (to_jsonable(out): result_json)


def _finite(value):
    """``value`` with every non-finite float made ``None`` (where :func:`to_jsonable` writes
    ``null``) and nothing else converted: dicts, lists and tuples copied (a tuple as a list:
    ``json`` writes both as an array), a record as the dict of its fields (what
    :func:`_default` gives ``json``); the rest (numpy arrays, Fractions: :func:`_default`'s
    to_jsonable; strings, ints, bools, ``None``) as it is."""
    t = type(value)
    if t is float:
        return value if math.isfinite(value) else None
    if t is dict:
        return {k: _finite(v) for k, v in value.items()}
    if t is list or t is tuple:
        return [_finite(v) for v in value]
    if t is str or t is int or t is bool or value is None:
        return value
    if isinstance(value, float):  # (np.float64)
        return value if math.isfinite(value) else None
    if isinstance(value, (dict, list, tuple)):  # (subclasses: the C encoder's own dispatch)
        return value
    if hasattr(value, "__dataclass_fields__"):
        return {k: _finite(getattr(value, k)) for k in value.__dataclass_fields__}
    return value


def evaluate_json(a, b, motion_a=None, motion_b=None, id_a: str = "A", id_b: str = "B") -> dict:
    """:func:`~algorithms.evaluate.evaluate_pair` written as its scene-v1 result object."""
    from algorithms.evaluate import evaluate_pair

    return result_json(evaluate_pair(a, b, motion_a, motion_b, id_a=id_a, id_b=id_b))
