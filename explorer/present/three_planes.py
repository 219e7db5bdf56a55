"""The three-planes query in words and as a conditioning meter (App. A.11, Goldman). No Qt.

The meter reads ``|conditioning|``, the triple product of the *unit* normals: 1 for mutually
perpendicular planes, 0 for dependent ones. A perturbation ``dd`` of the ``d_i`` moves the point
by up to ``sqrt(3) |dd| / |conditioning|``, so the meter is drawn on a log scale from
``1e-6`` (empty) to ``1`` (full), red below :data:`~algorithms.extras.planes.ILL_CONDITIONED`.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from algorithms.extras.planes import ILL_CONDITIONED

METER_FLOOR = 1e-6
GOOD = 0.1


@dataclass(frozen=True)
class Meter:
    fill: float  # 0..1 along the bar
    level: str  # "good", "fair", "poor" (nearly dependent) or "singular"
    words: str


def meter(conditioning: float) -> Meter:
    """The conditioning meter for ``conditioning`` (the unit-normal triple product).

    >>> meter(1.0).fill, meter(1.0).level
    (1.0, 'good')
    >>> meter(1e-4).level
    'poor'
    """
    c = abs(float(conditioning))
    if c == 0:
        return Meter(0.0, "singular", "the normals are dependent: no single point")
    fill = min(1.0, max(0.0, (math.log10(c) - math.log10(METER_FLOOR)) / -math.log10(METER_FLOOR)))
    amplify = math.sqrt(3) / c
    if c < ILL_CONDITIONED:
        return Meter(fill, "poor", "nearly dependent: a change of d by 1e-6 can move the point "
                                   f"by {amplify * 1e-6:.3g}")
    if c < GOOD:
        return Meter(fill, "fair",
                     f"a change of d moves the point up to {amplify:.3g} times as far")
    return Meter(fill, "good", f"well conditioned (a change of d moves the point at most "
                               f"{amplify:.3g} times as far)")


def _v(v, digits=6) -> str:
    return "(" + ", ".join(f"{float(c):.{digits}g}" for c in v) + ")"


def explain(result: dict, names=("P", "Q", "R")) -> list[str]:
    """The steps of A.11 with this query's numbers (one sentence each)."""
    t = result.get("trace") or {}
    lines = [
        f"Planes {names[0]}, {names[1]}, {names[2]}: p . n_i = d_i. Goldman (A.11): "
        "p = (d1 (n2 x n3) + d2 (n3 x n1) + d3 (n1 x n2)) / ((n1 x n2) . n3).",
        f"n1 x n2 = {_v(t.get('n1 x n2', ()))}, n2 x n3 = {_v(t.get('n2 x n3', ()))}, "
        f"n3 x n1 = {_v(t.get('n3 x n1', ()))}.",
        f"Determinant (n1 x n2) . n3 = {result['determinant']:.9g}; with unit normals "
        f"{result['conditioning']:.6g}.",
    ]
    case = result.get("case")
    if case == "point":
        lines.append(f"One common point {_v(result['point'], 9)}.")
    elif case == "line":
        lines.append(f"No single point: {t.get('reason') or 'they share a line'} "
                     f"(direction {_v(result.get('direction') or ())}).")
    elif case == "plane":
        lines.append("No single point: all three planes coincide.")
    else:
        lines.append(f"No common point: {t.get('reason') or 'the planes do not meet'}.")
    return lines
