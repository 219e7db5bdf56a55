"""The pair-dispatch table: which function answers which query for which pair of types.

Queries
-------
``"distance"``        -> :class:`~algorithms.results.DistanceResult`
``"intersects"``      -> :class:`~algorithms.results.IntersectionResult`
``"hits"``            -> :class:`~algorithms.results.HitResult` (A must be segment, ray or line)
``"separating_axis"`` -> :class:`~algorithms.results.SeparationResult`
``"side"``            -> :class:`~algorithms.results.SideResult` (one argument is a plane)
``"toi"``             -> :class:`~algorithms.results.ContactResult`; called as
                         ``f(a, b, motion)`` where ``motion`` is B's displacement relative to A
                         over ``t`` in ``[0, 1]`` (the Primer's A.6 reduction)

A function is registered for one ordered pair of types with :func:`register`. Like Box2D's
pair table, the registry answers the swapped pair itself: ``query("distance", sphere, seg)``
runs the function registered for ``("segment", "sphere")`` and returns its result
:meth:`~algorithms.results.Result.flipped`. ``"hits"`` is not flipped (only A's parameter
means anything): register it for each ordered pair you answer.

Several functions may answer one query for one pair (Badouel and Moller-Trumbore for
ray-triangle, Woo and slabs for ray-aabb). The one with the highest ``priority`` is the default;
:func:`methods` lists them all and ``query(..., method=name)`` picks one. A registration for the
wildcard type ``"*"`` (the generic GJK distance, conservative advancement) answers any pair no
specific function does.

The modules under :mod:`algorithms.queries` register themselves on import; :func:`load_all`
imports them all and records any that fails to import in :data:`LOAD_ERRORS`, so one broken
module cannot take the others down (a test asserts the list is empty).

Examples
--------
>>> from algorithms import Segment, Sphere, query
>>> r = query("distance", Sphere((0, 2, 0), 0.5), Segment((0, 0, 0), (1, 0, 0)))
>>> r.closest[1]  # on the segment, the second argument
(0.0, 0.0, 0.0)
"""

from __future__ import annotations

import importlib
import pkgutil
import traceback
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Callable, Optional

from algorithms.core.once import call as once_call
from algorithms.core.once import GUARD, current_memo
from algorithms.core.tolerance import PLAIN_KEY, call_rescaled, plain, toi_direct
from algorithms.primitives import Primitive

# query() reads plain()'s flag as the attribute of this name
if PLAIN_KEY != "_tolerance_plain":
    raise ImportError("algorithms.registry.query reads tolerance.PLAIN_KEY by name")

QUERIES = ("distance", "intersects", "hits", "separating_axis", "side", "toi")
#: queries whose result is mirrored by flipping when the arguments are swapped
FLIPPABLE = {"distance", "intersects", "separating_axis", "side", "toi"}
WILDCARD = "*"


@dataclass(frozen=True)
class Entry:
    query: str
    kind_a: str
    kind_b: str
    func: Callable
    name: str  # short method name, unique for (query, kind_a, kind_b)
    priority: int
    #: a method from the user's code (algorithms.usermethods): listed, never the default
    user: bool = False
    #: where a user method came from (its file, or "entry point NAME")
    source: Optional[str] = None


#: the priority of every user method: below every library method
USER_PRIORITY = -1000

#: (query, kind_a, kind_b, method) -> (entry, flip): :func:`_lookup`'s answers, cleared by
#: :func:`register` (a lookup is a dict probe on the hot path of every query); an entry no
#: longer in ``_TABLE`` is looked up again. Under the table itself (a :class:`_Table` hashes
#: by identity): ``{query name: {type(a): {type(b): (direct, run, lean, careful)}}}``,
#: :func:`query`'s class-keyed probe, valid while that table is the one in place and
#: unchanged (a change of its keys or of one of its entry lists, :class:`_Entries`, drops
#: ``_CACHE``; a table put in its place is another key, or no key at all: a plain dict does
#: not hash).
_CACHE: dict = {}


class _Entries(list):
    """One key's entry list in the table: a list that drops :data:`_CACHE` whenever it is
    changed in place (a test may edit it directly, ``_TABLE[key].remove(entry)``), so that
    :func:`query`'s class-keyed probe needs no check that its entry is still listed. A plain
    list put in the table (``_TABLE[key] = [...]``) is not one: :func:`query` does not keep a
    pair answered from it in its class-keyed probe (the runner's checks still apply)."""

    __slots__ = ()

    def __setitem__(self, index, value):
        _CACHE.clear()
        super().__setitem__(index, value)

    def __delitem__(self, index):
        _CACHE.clear()
        super().__delitem__(index)

    def __iadd__(self, other):
        _CACHE.clear()
        return super().__iadd__(other)

    def __imul__(self, n):
        _CACHE.clear()
        return super().__imul__(n)

    def append(self, value):
        _CACHE.clear()
        super().append(value)

    def extend(self, values):
        _CACHE.clear()
        super().extend(values)

    def insert(self, index, value):
        _CACHE.clear()
        super().insert(index, value)

    def pop(self, *args):
        _CACHE.clear()
        return super().pop(*args)

    def remove(self, value):
        _CACHE.clear()
        super().remove(value)

    def clear(self):
        _CACHE.clear()
        super().clear()

    def sort(self, *args, **kwargs):
        _CACHE.clear()
        super().sort(*args, **kwargs)

    def reverse(self):
        _CACHE.clear()
        super().reverse()


def _entries(value):
    """``value`` as the table keeps an entry list: an :class:`_Entries` (a plain list is
    copied into one; anything else is kept as given)."""
    return _Entries(value) if type(value) is list else value


class _Table(dict):
    """The dispatch table: a dict that drops :data:`_CACHE` whenever one of its keys is set
    or removed (a test may edit the table directly, ``_TABLE[key] = [...]``), and keeps each
    entry list as an :class:`_Entries` (a plain list set in it is copied into one), which
    drops :data:`_CACHE` when changed in place: so :func:`query`'s probe of a cached entry
    checks nothing but that this is still the table. A table put in its place (a test's
    ``monkeypatch.setattr(registry, "_TABLE", {})``) is not one: its entries are checked the
    long way (:func:`runner`). Hashed by identity: the key of :func:`query`'s class-keyed
    probe in :data:`_CACHE` (a plain dict in its place is unhashable: no probe)."""

    __hash__ = object.__hash__

    def __setitem__(self, key, value):
        _CACHE.clear()
        super().__setitem__(key, _entries(value))

    def __delitem__(self, key):
        _CACHE.clear()
        super().__delitem__(key)

    def __ior__(self, other):
        self.update(other)
        return self

    def pop(self, *args):
        _CACHE.clear()
        return super().pop(*args)

    def popitem(self):
        _CACHE.clear()
        return super().popitem()

    def setdefault(self, key, default=None):
        _CACHE.clear()
        return super().setdefault(key, _entries(default))

    def update(self, *args, **kwargs):
        _CACHE.clear()
        for key, value in dict(*args, **kwargs).items():
            super().__setitem__(key, _entries(value))

    def clear(self):
        _CACHE.clear()
        super().clear()


_TABLE: dict[tuple[str, str, str], list[Entry]] = _Table()
LOAD_ERRORS: dict[str, str] = {}
_loaded = False


class QueryNotAvailable(LookupError):
    """No function answers this query for this pair of types."""


def register(query: str, kind_a: str, kind_b: str, *, name: str | None = None, priority: int = 0):
    """Decorator: register ``func(a, b)`` as the answer to ``query`` for ``(kind_a, kind_b)``.

    ``name`` defaults to the function's name; ``priority`` picks the default among several.
    While a user's file runs (:func:`algorithms.usermethods.load_methods`), the functions it
    registers become user methods: guarded, listed, never the default.
    """
    if query not in QUERIES:
        raise ValueError(f"unknown query {query!r}; known: {QUERIES}")

    def decorator(func):
        if _USER_CONTEXT:
            _USER_CONTEXT[-1].make_entry(query, kind_a, kind_b, func, name or func.__name__,
                                         priority)
            return func
        add_entry(Entry(query, kind_a, kind_b, func, name or func.__name__, priority))
        return func

    return decorator


#: the collectors of the user files being loaded (innermost last)
_USER_CONTEXT: list = []


@contextmanager
def user_context(collector):
    """While active, :func:`register` hands each registration to ``collector.make_entry``
    (algorithms.usermethods) instead of the table."""
    _USER_CONTEXT.append(collector)
    try:
        yield collector
    finally:
        _USER_CONTEXT.remove(collector)


def add_entry(entry: Entry) -> None:
    """Put ``entry`` in the table (replacing one of the same name for the same key)."""
    entries = _TABLE.setdefault((entry.query, entry.kind_a, entry.kind_b), _Entries())
    entries[:] = [e for e in entries if e.name != entry.name] + [entry]
    entries.sort(key=lambda e: -e.priority)
    _CACHE.clear()


def unregister_source(source: str) -> None:
    """Remove every user method registered from ``source``."""
    for key, entries in list(_TABLE.items()):
        entries[:] = [e for e in entries if not (e.user and e.source == source)]
        if not entries:
            del _TABLE[key]
    _CACHE.clear()


def entries_for(query: str, ka: str, kb: str) -> list[Entry]:
    """The entries registered for exactly ``(query, ka, kb)`` (library and user)."""
    load_all()
    return list(_TABLE.get((query, ka, kb), ()))


def find(query: str, ka: str, kb: str, name: str) -> Optional[Entry]:
    """The entry ``name`` answering ``query`` for the pair (either order), or ``None``."""
    entry, _ = _lookup(query, ka, kb, name)
    return entry


def is_user(query: str, ka: str, kb: str, name: str) -> bool:
    """True when the method ``name`` of the pair is a user method."""
    entry = find(query, ka, kb, name)
    return bool(entry is not None and entry.user)


def default_method(query: str, ka: str, kb: str) -> Optional[str]:
    """The name of the method :func:`query` runs when none is asked for (never a user's)."""
    entry, _ = _lookup(query, ka, kb, None)
    return None if entry is None else entry.name


def load_all() -> None:
    """Import every module of :mod:`algorithms.queries` and :mod:`algorithms.generic` (each
    registers its functions)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    from algorithms import generic, queries

    for package in (queries, generic):
        for info in sorted(pkgutil.iter_modules(package.__path__), key=lambda i: i.name):
            full = f"{package.__name__}.{info.name}"
            try:
                importlib.import_module(full)
            except Exception:  # noqa: BLE001 - recorded and asserted empty by the tests
                LOAD_ERRORS[full] = traceback.format_exc()


def _lookup(query: str, ka: str, kb: str, method: str | None):
    """(entry, flip) for the best function, or (None, False) (cached, see :data:`_CACHE`)."""
    key = (query, ka, kb, method)
    found = _CACHE.get(key)
    if found is not None:
        entry = found[0]
        # still registered (a test may edit _TABLE directly): the cached answer stands
        if entry is None:
            return found
        for e in _TABLE.get((entry.query, entry.kind_a, entry.kind_b), ()):
            if e is entry:
                return found
    load_all()
    found = _CACHE[key] = _lookup_uncached(query, ka, kb, method)
    return found


def _lookup_uncached(query: str, ka: str, kb: str, method: str | None):
    """(entry, flip) for the best function, or (None, False).

    The pair's own registrations in either order compete on ``priority`` (a specialised
    function registered as ``(b, a)`` beats a generic one registered as ``(a, b)``); on a tie
    the unflipped order wins. Wildcard registrations answer only when the pair has none.
    """
    load_all()
    orders = [((query, ka, kb), False)]
    if query in FLIPPABLE and ka != kb:
        orders.append(((query, kb, ka), True))
    best = None
    for key, flip in orders:
        for entry in _TABLE.get(key, ()):
            if (method is None and not entry.user) or entry.name == method:
                if best is None or entry.priority > best[0].priority:
                    best = (entry, flip)
                break  # entries are sorted by priority: the first match is this order's best
    if best is not None:
        return best
    wild = [((query, ka, WILDCARD), False), ((query, WILDCARD, kb), False)]
    if query in FLIPPABLE:
        wild += [((query, kb, WILDCARD), True), ((query, WILDCARD, ka), True)]
    wild.append(((query, WILDCARD, WILDCARD), False))
    for key, flip in wild:
        for entry in _TABLE.get(key, ()):
            if (method is None and not entry.user) or entry.name == method:
                return entry, flip
    return None, False


def has_query(query: str, ka: str, kb: str, *, specific: bool = False) -> bool:
    """True when some function answers ``query`` for the pair (``specific``: not a wildcard)."""
    entry, _ = _lookup(query, ka, kb, None)
    if entry is None:
        return False
    return not specific or WILDCARD not in (entry.kind_a, entry.kind_b)


def methods(query: str, ka: str, kb: str) -> list[str]:
    """Names of every function answering ``query`` for ``(ka, kb)``, default first, user
    methods last."""
    load_all()
    keys = [(query, ka, kb)]
    if query in FLIPPABLE and ka != kb:
        keys.append((query, kb, ka))
    entries = sorted((e for key in keys for e in _TABLE.get(key, ())),
                     key=lambda e: -e.priority)  # stable: the unflipped order wins ties
    out = [e.name for e in entries if not e.user]
    if not out:
        entry, _ = _lookup(query, ka, kb, None)
        if entry is not None:
            out.append(entry.name)
    out += [e.name for e in entries if e.user]
    return list(dict.fromkeys(out))


#: the fused pair analyses (:func:`fuses`), in registration order
FUSED: list = []
#: the queries a fused analysis answers, in the order of its returned records
FUSED_QUERIES = ("distance", "intersects", "hits")


def fuses(*, distance: Callable, intersects: Callable, hits: Callable):
    """Decorator: ``answer(a, b)`` returns ``(distance, intersection, hits)`` records for a
    pair, the very records the three registered functions named here return (called in
    that order inside one :func:`~algorithms.core.once.one_analysis` scope), from one
    analysis of the pair (one st-plane minimisation, one cast).

    Not a second dispatch table: :func:`algorithms.evaluate_pair` uses ``answer`` for a
    kind pair only while the registry's default entries of all three queries for that pair
    are exactly these functions, unflipped (checked when the pair's plan is built from
    :func:`_lookup`; the plan lives in :data:`_CACHE`, so a new registration rebuilds it),
    and only on plain primitives (:func:`~algorithms.core.tolerance.plain`, the pairs that
    :func:`call_rescaled` would not rescale)."""

    def decorator(answer):
        answer.parts = {"distance": distance, "intersects": intersects, "hits": hits}
        FUSED.append(answer)
        _CACHE.clear()
        return answer

    return decorator


def fused_for(ka: str, kb: str) -> Optional[Callable]:
    """The fused analysis (:func:`fuses`) whose three functions are the default, unflipped
    entries of ``(ka, kb)``, or ``None``."""
    entries = [_lookup(q, ka, kb, None) for q in FUSED_QUERIES]
    for answer in FUSED:
        if all(e is not None and not flip and e.func is answer.parts[q]
               for q, (e, flip) in zip(FUSED_QUERIES, entries)):
            return answer
    return None


def current(name: str, ka: str, kb: str) -> tuple:
    """``(table key, entry list, entry)`` of the default entry of ``name`` for the pair
    (``entry`` ``None`` when nothing answers): what :func:`still_current` checks."""
    entry, _ = _lookup(name, ka, kb, None)
    if entry is None:
        return (None, None, None)
    tkey = (entry.query, entry.kind_a, entry.kind_b)
    return (tkey, _TABLE.get(tkey), entry)


def still_current(checks) -> bool:
    """True while every :func:`current` triple in ``checks`` still names a registered entry
    (:func:`register` and :func:`unregister_source` clear :data:`_CACHE` besides; this
    catches a test that edits :data:`_TABLE` directly, as :func:`_lookup` does)."""
    for tkey, entries, entry in checks:
        if entry is not None and not (_TABLE.get(tkey) is entries and entry in entries):
            return False
    return True


def derived(key, build: Callable):
    """A value derived from the table, kept in :data:`_CACHE` under ``key`` (so a registration
    drops it) and built again by ``build()`` when missing or when its ``checks`` (triples of
    :func:`current`) are no longer :func:`still_current`: :func:`algorithms.evaluate.plan`'s
    per-pair plans."""
    found = _CACHE.get(key)
    if found is None or not still_current(found.checks):
        found = _CACHE[key] = build()
    return found


def runner(name: str, ka: str, kb: str):
    """The lean dispatch of the default method of ``name`` for ``(ka, kb)``: a function
    ``run(a, b)`` that returns exactly what ``query(name, a, b)`` returns, or ``None`` when
    nothing answers (and for ``"toi"``, which takes a motion).

    ``run`` is built once per pair of kinds from :func:`_lookup`'s entry and kept in
    :data:`_CACHE` (so :func:`register` and :func:`unregister_source` drop it with the
    lookups); it holds the entry's function, its flip, and the scale check of
    :func:`~algorithms.core.tolerance.call_rescaled` reduced to one flag per primitive
    (:func:`~algorithms.core.tolerance.plain`): a pair of plain primitives is answered by
    the function itself, any other pair by :func:`call_rescaled` as before. A cached runner
    whose entry is no longer in :data:`_TABLE` (a test may edit it directly) is rebuilt.
    """
    key = ("run", name, ka, kb)
    found = _CACHE.get(key)
    if found is not None:
        run, tkey, entries, entry = found[:4]
        if entry is None or (_TABLE.get(tkey) is entries and entry in entries):
            return run
    entry, flip = _lookup(name, ka, kb, None)
    if entry is None or name == "toi":
        _CACHE[key] = (None, None, None, None, None, None, None)
        return None
    tkey = (entry.query, entry.kind_a, entry.kind_b)
    # the table's own key object: query()'s probe of it then compares by identity
    tkey = next((k for k in _TABLE if k == tkey), tkey)
    func = entry.func
    lean, careful = (None, None) if flip else \
        (getattr(func, "lean", None) or {}).get((ka, kb), (None, None))
    run = _make_runner(name, func, flip, lean, careful)
    # (the lean kernel and what answers when it declines, for query()'s inlined call; the
    # kernel again when it is a direct one, lean_kernels)
    direct = lean if getattr(lean, "direct", False) is True else None
    _CACHE[key] = (run, tkey, _TABLE.get(tkey), entry, lean, careful, direct)
    return run


def lean_kernels(func: Callable, kernels: dict) -> Callable:
    """Attach ``kernels`` (``(kind_a, kind_b) -> (lean, careful)``) to the registered
    ``func``: for a pair of those kinds, :func:`runner` calls ``lean(a, b)`` first when both
    primitives are :func:`~algorithms.core.tolerance.plain` and no
    :func:`~algorithms.core.once.one_analysis` scope is open. ``lean`` must return exactly
    the record ``func(a, b)`` returns, or ``None`` when its filter cannot vouch for the plain
    float answer; then ``careful(a, b)`` answers: what ``func`` does after its own filter
    declined (so a declined pair is neither filtered nor counted twice). One frame for the
    common case instead of ``func``'s chain of calls; the kernels belong to ``func``, so a
    new default method drops them with it.

    A *direct* kernel (``lean.direct = True``) makes its checks itself: :func:`query` calls
    it for the pair without reading the plain flags or the scope, and it returns exactly
    what ``query(name, a, b)`` returns (its careful continuation's record when its filter
    declines: it calls ``careful`` itself), or ``None`` for a pair it leaves to the runner
    (a primitive not plain, an open scope; for the runner's own call, only a pair
    ``careful`` answers: the runner calls it then)."""
    func.lean = dict(kernels)
    _CACHE.clear()
    return func


def lean_pair(name: str, cls_a: type, cls_b: type) -> Optional[tuple]:
    """``(lean, careful)`` of the default method of ``name`` for two primitive classes, as
    :func:`query` would take them (:func:`lean_kernels`), or ``None`` when that method has no
    lean kernel or :func:`query` has not cached the pair's dispatch yet (or it is stale).

    For a kernel built on another pair's query (capsule-capsule on segment-segment, GTCG
    §11.12.9): it takes the inner pair's lean kernel exactly when ``query`` would, so a new
    default method of the inner pair (a user's module) is still asked, through ``query``."""
    try:  # (query()'s class-keyed probe: the table, the name, the classes of A and B)
        found = _CACHE[_TABLE][name][cls_a][cls_b]
    except (KeyError, TypeError):
        return None
    if found[2] is None:
        return None
    return found[2], found[3]


def _make_runner(name: str, func: Callable, flip: bool, lean: Optional[Callable] = None,
                 careful: Optional[Callable] = None) -> Callable:
    """``run(a, b)`` for :func:`runner`: ``func`` on the pair (swapped and the result
    :meth:`~algorithms.results.Result.flipped` when ``flip``), through :func:`call_rescaled`
    unless both primitives are :func:`~algorithms.core.tolerance.plain`; first the pair's
    ``lean`` kernel (:func:`lean_kernels`) when it has one (never flipped), ``careful`` when
    that declines.

    Inside a :func:`~algorithms.core.once.one_analysis` scope ``func`` runs once per pair of
    arguments (:func:`algorithms.core.once.call`; a ``once.shared`` pass keeps its own memo):
    a flipped query ``(a, b)`` and the query ``(b, a)`` are then one call of ``func(b, a)``,
    and a time of impact's static distance at ``t = 0`` is the pair's distance query."""
    raw = getattr(func, "unshared", None)  # a once.shared pass: the function itself
    if lean is not None:
        inner = careful
        in_scope = current_memo

        def run(a, b):
            pa = a.__dict__.get(PLAIN_KEY)
            pb = b.__dict__.get(PLAIN_KEY)
            if (pa if pa is not None else plain(a)) and (pb if pb is not None else plain(b)):
                if in_scope() is None:
                    r = lean(a, b)
                    return r if r is not None else inner(a, b)
                return once_call(func, a, b)
            return call_rescaled(func, name, a, b, (), None)
    elif not flip and raw is not None:
        def run(a, b):
            pa = a.__dict__.get(PLAIN_KEY)
            pb = b.__dict__.get(PLAIN_KEY)
            if (pa if pa is not None else plain(a)) and (pb if pb is not None else plain(b)):
                # outside a one_analysis scope the shared wrapper calls it as it is
                return raw(a, b) if current_memo() is None else func(a, b)
            return call_rescaled(func, name, a, b, (), None)
    elif not flip:
        def run(a, b):
            pa = a.__dict__.get(PLAIN_KEY)
            pb = b.__dict__.get(PLAIN_KEY)
            if (pa if pa is not None else plain(a)) and (pb if pb is not None else plain(b)):
                return once_call(func, a, b)
            return call_rescaled(func, name, a, b, (), None)
    else:
        def run(a, b):
            pa = a.__dict__.get(PLAIN_KEY)
            pb = b.__dict__.get(PLAIN_KEY)
            if (pa if pa is not None else plain(a)) and (pb if pb is not None else plain(b)):
                return once_call(func, b, a).flipped()
            return call_rescaled(func, name, b, a, (), None).flipped()
    run.__qualname__ = (f"runner.<{name}: {getattr(func, '__name__', func)}"
                        f"{' flipped' if flip else ''}{' lean' if lean is not None else ''}>")
    return run


def query(name: str, a: Primitive, b: Primitive, *args, **kwargs):
    """Answer query ``name`` for ``(a, b)``, flipping a swapped registration's result.

    ``method=name`` (a keyword) picks one of :func:`methods` instead of the default. Extra
    arguments go to the function (``"toi"`` takes B's ``motion`` relative to A; a flipped
    ``"toi"`` call negates it). Raises :class:`QueryNotAvailable` when nothing answers.
    The default method without extra arguments takes the lean dispatch of :func:`runner`.

    (``method`` is read from ``kwargs``, not a keyword-only parameter, and everything but the
    cached default dispatch is :func:`_query`'s: this frame is every query's, and CPython
    3.11 parses a keyword-only parameter and makes the closure cell of the code below on
    every call, about 10% of a ray-box query.)
    """
    if not kwargs and not args:
        # runner()'s cache probe, inlined (the hot path of every default query), keyed by
        # the table in place (a change of it drops _CACHE: _Table, _Entries; a table put in
        # its place is another key, or unhashable), then by the primitives' classes (a kind
        # is a class attribute: two lookups through the instance cost more than the rest of
        # the probe), and the runner's call of the pair's lean kernel (lean_kernels) inlined
        # as well. Every instruction here is paid by every query (a few ns each).
        try:
            found = _CACHE[_TABLE][name][type(a)][type(b)]
        except (KeyError, TypeError):
            pass
        else:
            lean = found[0]
            if lean is not None:  # a direct kernel: its own checks (lean_kernels)
                r = lean(a, b)
                return r if r is not None else found[1](a, b)
            lean = found[2]
            if lean is not None:
                try:  # plain()'s flag, kept on the instance (PLAIN_KEY), as an attribute
                    ok = a._tolerance_plain and b._tolerance_plain
                except AttributeError:  # not computed yet: the runner computes it
                    ok = False
                if ok and (not GUARD or current_memo() is None):  # (once.GUARD)
                    r = lean(a, b)
                    return r if r is not None else found[3](a, b)
            return found[1](a, b)
        run = runner(name, a.kind, b.kind)
        if run is not None:
            # the same entry under the table and the classes' keys (dropped with the rest of
            # the cache), when the table is a _Table and the entry's list an _Entries (a plain
            # list a test put there is checked by runner() on every query)
            run, _tkey, entries, entry, lean, careful, direct = \
                _CACHE[("run", name, a.kind, b.kind)]
            if type(_TABLE) is _Table and type(entries) is _Entries:
                by_name = _CACHE.get(_TABLE)
                if type(by_name) is not dict:
                    by_name = _CACHE[_TABLE] = {}
                by_name.setdefault(name, {}).setdefault(type(a), {})[type(b)] = (
                    direct, run, lean, careful)
            return run(a, b)
        return _query(name, a, b, args, None, kwargs)  # (nothing answers: raises)
    method = kwargs.pop("method", None)
    if method is None and not kwargs:
        if not args:
            return query(name, a, b)  # (method=None given: the default's dispatch, above)
        if name == "toi" and len(args) == 1:
            # a moving pair's default: _query's lean dispatch (toi_direct) without its lookup,
            # the function kept under the table and the classes as above (_TOI: by _query)
            try:
                func = _CACHE[_TABLE][_TOI][type(a)][type(b)]
            except (KeyError, TypeError):
                pass
            else:
                r = toi_direct(func, a, b, args[0])
                if r is not None:
                    return r
    return _query(name, a, b, args, method, kwargs)


#: the key of :func:`query`'s cached moving-pair functions in ``_CACHE[_TABLE]`` (beside the
#: query names: no name is a tuple)
_TOI = ("toi", "motion")


def _query(name: str, a: Primitive, b: Primitive, args: tuple, method: str | None,
           kwargs: dict):
    """:func:`query` for a method asked by name, extra arguments, or a pair nothing is
    cached for yet (apart: ``query``'s own frame stays small, without the cell the
    closure below needs)."""
    entry, flip = _lookup(name, a.kind, b.kind, method)
    if entry is not None and not flip and name == "toi" and len(args) == 1 and not kwargs:
        if method is None and type(_TABLE) is _Table and \
                type(_TABLE.get((name, entry.kind_a, entry.kind_b))) is _Entries:
            # kept for query()'s probe (dropped with the rest of _CACHE when the table changes)
            by_name = _CACHE.get(_TABLE)
            if type(by_name) is not dict:
                by_name = _CACHE[_TABLE] = {}
            by_name.setdefault(_TOI, {}).setdefault(type(a), {})[type(b)] = entry.func
        result = toi_direct(entry.func, a, b, args[0])  # (None: rescaled, below)
        if result is not None:
            return result
    if entry is None:
        what = f" with method {method!r}" if method else ""
        raise QueryNotAvailable(f"no {name} query for {a.kind}-{b.kind}{what}")
    if not flip:
        return call_rescaled(entry.func, name, a, b, args, kwargs)
    if name != "toi":
        return call_rescaled(entry.func, name, b, a, args, kwargs).flipped()
    # B moving by m against a still A is A moving by -m against a still B (Primer A.6). The
    # answer comes in B's frame; B has moved by toi * m by the contact, so the contact point
    # moves by that much into A's frame (the normal is reversed by flipped()).
    motion = tuple(float(m) for m in (args[0] if args else kwargs.pop("motion")))
    result = call_rescaled(entry.func, name, b, a, (tuple(-m for m in motion), *args[1:]),
                           kwargs).flipped()
    if result.point is not None and result.toi is not None:
        result = replace(result, point=tuple(float(p) + float(result.toi) * m
                                             for p, m in zip(result.point, motion)))
    return result


def table(include_user: bool = False) -> list[Entry]:
    """Every registered entry (for the README's query list and the explorer's menus); user
    methods only with ``include_user``."""
    load_all()
    return [e for entries in _TABLE.values() for e in entries if include_user or not e.user]
