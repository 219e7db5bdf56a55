"""One analysis per pair: share a pair's expensive pass between the queries that need it.

A linear component against a box is answered by one pass that casts the ray (Woo) and, when it
misses, minimises over the box's edges; ``hits``, ``distance`` and ``intersects`` all read that
pass. Two linear components are answered by one st-plane minimisation (GTCG §10.8) that the
distance, the touching test and the hits read. :func:`evaluate_pair` asks all of a pair's
queries inside :func:`one_analysis`, and the functions that do such a pass are marked
:func:`shared`: inside the scope each runs once per pair of arguments, outside it every call
computes afresh (so a direct ``query(...)`` is unchanged).

Examples
--------
>>> calls = []
>>> @shared
... def slow(a, b):
...     calls.append((a, b))
...     return a + b
>>> with one_analysis():
...     slow(1, 2), slow(1, 2)
(3, 3)
>>> calls
[(1, 2)]
>>> slow(1, 2); len(calls)
3
2
"""

from __future__ import annotations

import functools
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Callable, Optional

_SCOPE: ContextVar[Optional[dict]] = ContextVar("one_analysis", default=None)
#: ``current_memo()``: the open scope's memo, ``None`` outside every scope (a bound method of
#: the context variable: the lean dispatch asks on every query)
current_memo = _SCOPE.get


@contextmanager
def one_analysis():
    """A scope in which every :func:`shared` function runs once per argument tuple."""
    token = _SCOPE.set({})
    try:
        yield
    finally:
        _SCOPE.reset(token)


def begin():
    """Open a :func:`one_analysis` scope without the context manager (the hot path of
    :func:`algorithms.evaluate_pair`); returns the token for :func:`end`."""
    return _SCOPE.set({})


def end(token) -> None:
    """Close the scope :func:`begin` opened."""
    _SCOPE.reset(token)


def remember(pass_: Callable, args: tuple, value) -> None:
    """Inside a scope, record ``value`` as what the :func:`shared` pass ``pass_`` returns for
    ``args`` (positional, no keywords), as if it had run: for a fused analysis that ran the
    pass's function itself and hands the result on to the shared passes after it. Outside a
    scope nothing is kept."""
    memo = _SCOPE.get()
    if memo is not None:
        memo[(pass_.unshared, tuple(map(id, args)), ())] = (value, args)


def shared(func: Callable) -> Callable:
    """Mark ``func(a, b, ...)`` as a pair's shared pass (see the module text). The arguments are
    compared by identity (primitives are immutable; the scope keeps them alive), keywords by
    value."""

    @functools.wraps(func)
    def wrapper(*args, **kwargs):
        memo = _SCOPE.get()
        if memo is None:
            return func(*args, **kwargs)
        key = (func, tuple(map(id, args)), tuple(sorted(kwargs.items())) if kwargs else ())
        hit = memo.get(key)
        if hit is None:
            hit = memo[key] = (func(*args, **kwargs), args)
        return hit[0]

    wrapper.unshared = func  # (algorithms.registry.runner calls it outside a scope)
    return wrapper
