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
#: the context variable)
current_memo = _SCOPE.get

#: ``GUARD``: one item for each scope open now (:func:`one_analysis`, :func:`begin` to
#: :func:`end`; in every thread and context) and each :func:`guarded` block (the filters switched off) open now. While it is empty no scope
#: is open anywhere and every filter is on, so the lean kernels' hot path tests this list
#: (``if guard:``) instead of asking :func:`current_memo` and the filters' switch on every
#: query (about 25 ns of a 0.9 us ray-box query); while it is not, they ask both, as before.
#: (``list.append`` and ``list.pop`` are each one step under the interpreter lock: no other
#: thread comes between, where ``n += 1`` is a read and a write.)
GUARD: list = []


@contextmanager
def guarded():
    """:data:`GUARD` holds an item while this block runs (how the filters' off switch,
    :func:`algorithms.kernels.filters.switched_off`, tells the lean kernels to look closer)."""
    GUARD.append(None)
    try:
        yield
    finally:
        GUARD.pop()


@contextmanager
def one_analysis():
    """A scope in which every :func:`shared` function runs once per argument tuple."""
    GUARD.append(None)  # (as guarded() does, without a second context manager per scope)
    token = _SCOPE.set({})
    try:
        yield
    finally:
        _SCOPE.reset(token)
        GUARD.pop()


_CARRIED: ContextVar[Optional[dict]] = ContextVar("carried_analysis", default=None)
#: ``carried()``: the memo :func:`carry` opened, ``None`` outside it
carried = _CARRIED.get


@contextmanager
def carry():
    """Within it, every scope :func:`begin` opens without a memo of its own shares one memo
    (:func:`algorithms.evaluate_pair` on the same primitives: ``explorer eval`` asks a pair
    in both orders inside one): each :func:`shared` pass and each :func:`call` runs once per
    argument tuple across them. Only for calls on primitives that do not change meanwhile
    (they are frozen: the memo compares them by identity and keeps them alive)."""
    token = _CARRIED.set({})
    try:
        yield
    finally:
        _CARRIED.reset(token)


def begin(memo: Optional[dict] = None):
    """Open a :func:`one_analysis` scope without the context manager (the hot path of
    :func:`algorithms.evaluate_pair`); returns the token for :func:`end`. ``memo``: the
    scope's memo, a dict kept by the caller to share one analysis between scopes on the same
    primitives (:func:`algorithms.evaluate_pair`'s ``memo``: a pair asked in both orders);
    ``None``: the memo of an open :func:`carry`, else a fresh one."""
    if memo is None:
        memo = _CARRIED.get()
    GUARD.append(None)  # (a scope is open: GUARD, as one_analysis; end() takes it out)
    return _SCOPE.set({} if memo is None else memo)


def end(token) -> None:
    """Close the scope :func:`begin` opened (the caller's ``finally``: every ``begin`` has
    its ``end``)."""
    _SCOPE.reset(token)
    GUARD.pop()


def remember(pass_: Callable, args: tuple, value) -> None:
    """Inside a scope, record ``value`` as what the :func:`shared` pass ``pass_`` returns for
    ``args`` (positional, no keywords), as if it had run: for a fused analysis that ran the
    pass's function itself and hands the result on to the shared passes after it. Outside a
    scope nothing is kept."""
    memo = _SCOPE.get()
    if memo is not None:
        memo[(pass_.unshared, tuple(map(id, args)), ())] = (value, args)


def call(func: Callable, a, b):
    """``func(a, b)``, run once per ``(func, a, b)`` (by identity) inside a scope (the
    registry's default queries: :func:`algorithms.registry.runner`); outside every scope,
    every call computes. Kept with the arguments, so an id is never reused while its entry
    lives."""
    memo = _SCOPE.get()
    if memo is None:
        return func(a, b)
    key = (call, func, id(a), id(b))
    hit = memo.get(key)
    if hit is None:
        hit = memo[key] = (func(a, b), (a, b))
    return hit[0]


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
