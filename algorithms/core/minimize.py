"""One-dimensional minimisation shared by the generic methods.

Several queries minimise a convex function of one parameter: the distance from a point moving
along a linear component to a convex set (``closest.linear_convex_distance``, the cylinder
closest-point refinement), and the distance between two convex sets under translation as a
function of time (``toi_generic``). They all shrink a bracket by golden-section search, here.
"""

from __future__ import annotations

import math
from typing import Callable, Union

GOLDEN = (math.sqrt(5.0) - 1.0) / 2.0


def golden_section(f: Callable, a: float, b: float,
                   tol: Union[float, Callable[[float, float], bool]] = 0.0,
                   max_steps: int = 200):
    """Shrink ``[a, b]`` around a minimiser of the unimodal (e.g. convex) ``f``.

    ``f`` may return any comparable value (a float, or a tuple compared lexicographically).
    Stops after ``max_steps`` steps, or when ``b - a <= tol`` (``tol`` a number), or when
    ``tol(a, b)`` is true (``tol`` a function). Returns ``(a, b, x1, x2, steps)``: the final
    bracket and its two interior points (``a < x1 < x2 < b``), at which ``f`` was evaluated.

    Examples
    --------
    >>> a, b, x1, x2, steps = golden_section(lambda t: (t - 0.3) ** 2, 0.0, 1.0, tol=1e-9)
    >>> round((a + b) / 2, 6), steps
    (0.3, 44)
    """
    done = tol if callable(tol) else (lambda lo, hi: hi - lo <= tol)
    x1, x2 = b - GOLDEN * (b - a), a + GOLDEN * (b - a)
    f1, f2 = f(x1), f(x2)
    steps = 0
    while steps < max_steps and not done(a, b):
        steps += 1
        if f1 <= f2:
            b, x2, f2 = x2, x1, f1
            x1 = b - GOLDEN * (b - a)
            f1 = f(x1)
        else:
            a, x1, f1 = x1, x2, f2
            x2 = a + GOLDEN * (b - a)
            f2 = f(x2)
    return a, b, x1, x2, steps
