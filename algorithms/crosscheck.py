"""Run every method registered for a pair and report where they disagree.

Several functions can answer one query for one pair (a specialised distance and the generic
GJK; Badouel and Moller-Trumbore; Woo and slabs; the Primer's exact time of impact and
conservative advancement). :func:`cross_check` runs them all on the same input and compares the
number each one is about (``distance``, ``first_t``, ``toi``), so the explorer can flag a
disagreement on the pair and a test can demand agreement.

Examples
--------
>>> from algorithms import Sphere
>>> report = cross_check("distance", Sphere((0, 0, 0), 1), Sphere((3, 0, 0), 1))
>>> report["agree"], [m["value"] for m in report["methods"]]
(True, [1.0, 1.0])
"""

from __future__ import annotations

import math

from algorithms import registry
from algorithms.primitives import Primitive

#: query -> the number of its result that the methods must agree on
VALUE_OF = {
    "distance": lambda r: r.distance,
    "hits": lambda r: r.first_t,
    "toi": lambda r: r.toi,
    "intersects": lambda r: r.intersects,
    "separating_axis": lambda r: r.intersects,
    "side": lambda r: r.side,
}


def cross_check(query: str, a: Primitive, b: Primitive, *args, rel_tol: float = 1e-9,
                abs_tol: float = 1e-9, known=None) -> dict:
    """Every method's answer to ``query`` for ``(a, b)`` and whether they agree.

    Returns ``{"query", "methods": [{"name", "method", "value"} or {"name", "error"}],
    "spread", "agree"}``; ``spread`` is the largest difference between two numeric answers
    (``None`` when fewer than two). Numbers agree within ``abs_tol + rel_tol * |value|``;
    ``None`` (no hit, no contact) agrees only with ``None``; booleans must be equal.

    ``known``: the default method's result, already computed (the pair's
    :class:`~algorithms.answer.PairAnswer` record): it is not run again.
    """
    value_of = VALUE_OF[query]
    rows = []
    names = registry.methods(query, a.kind, b.kind)
    for name in names:
        try:
            if known is not None and name == names[0]:
                result = known
            else:
                result = registry.query(query, a, b, *args, method=name)
        except Exception as exc:  # noqa: BLE001 - a failing method is part of the report
            row = {"name": name, "error": f"{type(exc).__name__}: {exc}"}
            if registry.is_user(query, a.kind, b.kind, name):  # algorithms.usermethods
                row.update(user=True, error=str(exc), error_kind=getattr(exc, "kind", None),
                           traceback=getattr(exc, "traceback", None))
            rows.append(row)
            continue
        value = value_of(result)
        if isinstance(value, bool) or value is None:
            shown = value
        else:
            shown = float(value)
        row = {"name": name, "method": result.method, "value": shown}
        if registry.is_user(query, a.kind, b.kind, name):
            row["user"] = True
        rows.append(row)
    values = [r["value"] for r in rows if "error" not in r]
    numbers = [v for v in values if isinstance(v, float)]
    spread = max(numbers) - min(numbers) if len(numbers) >= 2 else None
    if any(isinstance(v, bool) for v in values):
        agree = len(set(values)) <= 1
    else:
        agree = (all(v is None for v in values) or not any(v is None for v in values)) and (
            spread is None
            or spread <= abs_tol + rel_tol * max(abs(v) for v in numbers if math.isfinite(v)))
    agree = agree and not any("error" in r for r in rows)
    return {"query": query, "methods": rows, "spread": spread, "agree": agree}


def cross_check_pair(a: Primitive, b: Primitive, motion_a=None, motion_b=None,
                     answer=None) -> dict:
    """:func:`cross_check` of every query of the pair that has two methods or more.

    Returns ``{query: report}`` for ``distance``, ``hits`` (when A is linear) and ``toi`` (when
    something moves); ``{}`` when every query has a single method. ``answer``: the pair's
    :class:`~algorithms.answer.PairAnswer`, whose records stand for the default methods (they
    are not run twice). A user method's rows carry ``"user": true`` (and, when it
    failed, ``error_kind`` and ``traceback``); ``intersects``, ``separating_axis`` and
    ``side`` are checked too when a user method answers them.
    """
    records = answer.records if answer is not None else None
    known = {} if records is None else {"distance": records.distance, "hits": records.hits,
                                        "toi": records.contact}
    from algorithms.kernels.motion import relative_motion
    from algorithms.primitives import LINEAR_KINDS

    wanted = [("distance", ())]
    if a.kind in LINEAR_KINDS:
        wanted.append(("hits", ()))
    if motion_a is not None or motion_b is not None:
        wanted.append(("toi", (relative_motion(motion_a, motion_b),)))  # Primer A.6
    # a user's method (algorithms.usermethods) of another query gets its report too
    from algorithms.primitives import SEPARABLE_KINDS

    for q, applies in (("intersects", True),
                       ("separating_axis",
                        a.kind in SEPARABLE_KINDS and b.kind in SEPARABLE_KINDS),
                       ("side", "plane" in (a.kind, b.kind))):
        if applies and any(registry.is_user(q, a.kind, b.kind, n)
                           for n in registry.methods(q, a.kind, b.kind)):
            wanted.append((q, ()))
    out = {}
    for name, args in wanted:
        if len(registry.methods(name, a.kind, b.kind)) >= 2:
            # the time-of-impact methods converge to a tolerance of about 1e-9 x scale
            tol = 1e-6 if name == "toi" else 1e-7
            out[name] = cross_check(name, a, b, *args, rel_tol=tol, abs_tol=tol,
                                    known=known.get(name))
    return out
