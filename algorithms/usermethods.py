"""Methods from the user's own code, registered beside the library's and never trusted.

A user's Python file (or an installed package, through the entry point group
``intersection_explorer.methods``) registers functions with the decorator the library uses::

    from algorithms import register

    @register("distance", "segment", "segment", name="my_segment_distance")
    def my_distance(a, b):          # a, b: the library's primitives (a.p0, a.p1, b.p0, b.p1)
        ...
        return 0.25                 # a plain float: the explorer wraps it

:func:`load_methods` runs the file and marks every function it registers as a *user* method
(:attr:`registry.Entry.user`): the registry lists it with the pair's other methods
(``methods()``, ``query(..., method=name)``) but never picks it as the default, so no answer of
``explorer eval`` changes because a file was loaded.

The contract for what a user function returns (:func:`wrap_value`): either the library's result
record for the query, or a plain value that is wrapped into one:

=================== ================================= ==============================
query               plain value                       wrapped as
=================== ================================= ==============================
``distance``        a float ``>= 0`` (or ``(d, pa,    :class:`DistanceResult`
                    pb)`` with the closest points)
``intersects``      a bool                            :class:`IntersectionResult`
``hits``            A's first parameter, or ``None``  :class:`HitResult` (one hit)
``separating_axis`` a nonzero 3-vector, or ``None``   :class:`SeparationResult`
                    (``None``: they intersect)        (unit axis, both intervals)
``side``            ``-1``, ``0`` or ``1``            :class:`SideResult`
``toi``             a float in any range, or ``None`` :class:`ContactResult`
=================== ================================= ==============================

``toi`` functions are called as ``f(a, b, motion)`` with ``motion`` B's displacement relative to
A over ``t`` in ``[0, 1]``; all others as ``f(a, b)``.

Nothing a user function does reaches the caller as anything but :class:`UserMethodError`: an
exception (its traceback is kept), a wrong return type, a NaN, or running past the time limit
(a watchdog thread raises an exception inside the call: a Python loop stops at the limit, a
single long C call such as ``time.sleep`` when it returns). The error names the method, the
file and the line, so a view can show it on that method's row.

This module imports only the standard library, numpy and :mod:`algorithms`.
"""

from __future__ import annotations

import ctypes
import hashlib
import importlib.util
import inspect
import math
import os
import sys
import threading
import time
import traceback
from dataclasses import dataclass, field
from numbers import Real
from pathlib import Path
from typing import Callable, Optional

import numpy as np

from algorithms import registry
from algorithms.primitives import TYPES
from algorithms.results import (ContactResult, DistanceResult, Hit, HitResult, IntersectionResult,
                      SeparationResult, SideResult)

#: the entry point group an installed package uses to ship methods
ENTRY_POINT_GROUP = "intersection_explorer.methods"
#: seconds one call of a user method may run before it is stopped
DEFAULT_TIME_LIMIT = 2.0

RECORD_OF = {
    "distance": DistanceResult,
    "intersects": IntersectionResult,
    "hits": HitResult,
    "separating_axis": SeparationResult,
    "side": SideResult,
    "toi": ContactResult,
}
PLAIN_OF = {
    "distance": "a float >= 0",
    "intersects": "a bool",
    "hits": "A's first parameter t (a float) or None",
    "separating_axis": "a nonzero 3-vector or None",
    "side": "-1, 0 or 1",
    "toi": "a float or None",
}


class UserMethodError(Exception):
    """A user method failed: ``kind`` is ``"exception"``, ``"type"``, ``"nan"``,
    ``"timeout"`` or ``"suspended"``; ``traceback`` the formatted traceback (user frames first
    for an exception), ``method`` the method's name and ``where`` its ``file:line``."""

    def __init__(self, kind: str, message: str, *, method: str = "", where: str = "",
                 tb: str = ""):
        self.kind = kind
        self.method = method
        self.where = where
        self.traceback = tb or message
        super().__init__(message)


class MethodsLoadError(Exception):
    """A methods file could not be loaded (syntax error, import error, a bad ``register``):
    ``str()`` is one line naming the file and line, ``traceback`` the whole story."""

    def __init__(self, message: str, tb: str = ""):
        self.traceback = tb or message
        super().__init__(message)


# ----------------------------------------------------------------------------- time limit


class _TimeLimit(BaseException):
    """Raised inside a user call by the watchdog (a BaseException: ``except Exception`` in the
    user's code does not swallow it)."""


def _set_async_exc(thread_id: int, exc) -> None:
    """CPython's ``PyThreadState_SetAsyncExc``: raise ``exc`` in the thread at its next
    bytecode (``None``: cancel a pending one; ctypes passes ``None`` as NULL)."""
    ctypes.pythonapi.PyThreadState_SetAsyncExc(
        ctypes.c_ulong(thread_id), None if exc is None else ctypes.py_object(exc))


class _Watchdog:
    """One daemon thread that raises :class:`_TimeLimit` in a thread whose call overran."""

    def __init__(self):
        self._cond = threading.Condition()
        self._jobs: dict[int, tuple[int, float]] = {}  # token -> (thread id, deadline)
        self._next = 0
        self._thread: Optional[threading.Thread] = None

    def arm(self, seconds: float) -> int:
        with self._cond:
            self._next += 1
            token = self._next
            self._jobs[token] = (threading.get_ident(), time.monotonic() + seconds)
            if self._thread is None or not self._thread.is_alive():
                self._thread = threading.Thread(target=self._run, name="user-method-watchdog",
                                                daemon=True)
                self._thread.start()
            self._cond.notify()
            return token

    def disarm(self, token: int) -> bool:
        """Stop watching ``token``; True when it had fired (its pending exception, if not yet
        raised, is cancelled)."""
        with self._cond:
            if self._jobs.pop(token, None) is not None:
                return False
            _set_async_exc(threading.get_ident(), None)  # cancel a pending, unraised one
            return True

    def _run(self) -> None:
        with self._cond:
            while True:
                now = time.monotonic()
                for token, (tid, deadline) in list(self._jobs.items()):
                    if deadline <= now:
                        del self._jobs[token]
                        _set_async_exc(tid, _TimeLimit)
                wait = min((d for _, d in self._jobs.values()), default=now + 60) - now
                self._cond.wait(max(wait, 0.001))


_WATCHDOG = _Watchdog()


def call_with_time_limit(func: Callable, args: tuple, seconds: Optional[float]):
    """``func(*args)``, stopped by :class:`_TimeLimit` after ``seconds`` (``None``: no limit)."""
    if seconds is None:
        return func(*args)
    token = _WATCHDOG.arm(seconds)
    try:
        value = func(*args)
    finally:
        fired = _WATCHDOG.disarm(token)
    if fired:
        raise _TimeLimit()
    return value


# ----------------------------------------------------------------------------- wrapping values


def _is_number(v) -> bool:
    return isinstance(v, (Real, np.floating, np.integer)) and not isinstance(v, (bool, np.bool_))


def _vector3(v):
    if isinstance(v, np.ndarray):
        v = v.tolist()
    if not isinstance(v, (list, tuple)) or len(v) != 3 or not all(_is_number(c) for c in v):
        return None
    return tuple(float(c) for c in v)


def _point_at(a, t: float):
    """The point of linear component ``a`` at parameter ``t``."""
    if a.kind == "segment":
        return tuple(p + t * (q - p) for p, q in zip(map(float, a.p0), map(float, a.p1)))
    return tuple(float(o) + t * float(d) for o, d in zip(a.origin, a.direction))


class _WrongValue(Exception):  # noqa: N818 - private, never escapes
    def __init__(self, kind, message):
        self.kind = kind
        super().__init__(message)


def _finite(x: float, what: str) -> float:
    x = float(x)
    if math.isnan(x):
        raise _WrongValue("nan", f"returned NaN for {what}")
    return x


def _check_record(query: str, value):
    """A library record returned as is: the right family, no NaN in the key it answers."""
    key = {"distance": "distance", "intersects": "intersects", "hits": "first_t",
           "separating_axis": "axis", "side": "side", "toi": "toi"}[query]
    v = getattr(value, key)
    if v is None:
        return value
    if isinstance(v, (tuple, list, np.ndarray)):
        if any(math.isnan(float(c)) for c in v):
            raise _WrongValue("nan", f"returned a {type(value).__name__} with NaN in {key}")
    elif not isinstance(v, (bool, np.bool_)) and math.isnan(float(v)):
        raise _WrongValue("nan", f"returned a {type(value).__name__} with {key} = NaN")
    return value


def wrap_value(query: str, value, a, b, args: tuple = (), method: str = ""):
    """The result record for what a user function returned (module docstring's table).

    Raises ``_WrongValue`` (kind ``"type"`` or ``"nan"``) for anything else.
    """
    record = RECORD_OF[query]
    if isinstance(value, record):
        return _check_record(query, value)
    from algorithms.results import Result

    if isinstance(value, Result):
        raise _WrongValue("type", f"returned a {type(value).__name__}; a {query} method returns "
                                  f"{PLAIN_OF[query]} or a {record.__name__}")
    shown = repr(value)
    if len(shown) > 120:
        shown = shown[:117] + "..."
    trace = {"user": True, "returned": shown}
    wrong = _WrongValue("type", f"returned {shown} ({type(value).__name__}); a {query} method "
                                f"returns {PLAIN_OF[query]} or a {record.__name__}")
    if query == "distance":
        pa = pb = None
        if isinstance(value, (tuple, list)) and len(value) == 3 and _is_number(value[0]):
            pa, pb = _vector3(value[1]), _vector3(value[2])
            if pa is None or pb is None:
                raise wrong
            if any(math.isnan(c) for c in pa + pb):
                raise _WrongValue("nan", "returned NaN in a closest point")
            value = value[0]
        if not _is_number(value):
            raise wrong
        d = _finite(value, "the distance")
        if d < 0:
            raise _WrongValue("type", f"returned a negative distance {d!r}")
        return DistanceResult(method=method, trace=trace, distance=d, sqr_distance=d * d,
                              closest=(pa, pb))
    if query == "intersects":
        if not isinstance(value, (bool, np.bool_)):
            raise wrong
        return IntersectionResult(method=method, trace=trace, intersects=bool(value))
    if query == "hits":
        if value is None:
            return HitResult(method=method, trace=trace, intersects=False)
        if not _is_number(value):
            raise wrong
        t = _finite(value, "first_t")
        return HitResult(method=method, trace=trace, intersects=True, first_t=t,
                         hits=(Hit(t, _point_at(a, t)),))
    if query == "separating_axis":
        if value is None:
            return SeparationResult(method=method, trace=trace, intersects=True)
        v = _vector3(value)
        if v is None:
            raise wrong
        if any(math.isnan(c) for c in v):
            raise _WrongValue("nan", "returned NaN in the separating axis")
        n = math.sqrt(sum(c * c for c in v))
        if n == 0 or not math.isfinite(n):
            raise _WrongValue("type", f"returned the axis {list(v)}, which is not a nonzero "
                                      "finite vector")
        axis = tuple(c / n for c in v)
        intervals = None
        try:
            from algorithms.kernels.support import support_interval

            intervals = (support_interval(a, axis), support_interval(b, axis))
        except Exception:  # noqa: BLE001 - unbounded kinds have no interval
            intervals = None
        return SeparationResult(method=method, trace=trace, intersects=False, axis=axis,
                                intervals=intervals)
    if query == "side":
        if not _is_number(value) or value not in (-1, 0, 1):
            raise wrong
        return SideResult(method=method, trace=trace, side=int(value))
    if query == "toi":
        if value is None:
            return ContactResult(method=method, trace=trace)
        if not _is_number(value):
            raise wrong
        return ContactResult(method=method, trace=trace, toi=_finite(value, "toi"))
    raise wrong




# ----------------------------------------------------------------------------- guarded calls


@dataclass
class MethodState:
    """What the explorer knows of one user method between calls."""

    suspended: Optional[str] = None  # why it is not run (after a time-out, in a live view)
    calls: int = 0
    failures: int = 0


def _user_traceback(exc: BaseException, source: str) -> str:
    """The traceback from the first frame in the user's file (the wrapper's frames dropped)."""
    frames = traceback.extract_tb(exc.__traceback__)
    for i, fr in enumerate(frames):
        if source and os.path.abspath(fr.filename) == source:
            frames = frames[i:]
            break
    lines = ["Traceback (most recent call last):\n"] + traceback.format_list(frames)
    lines += traceback.format_exception_only(type(exc), exc)
    return "".join(lines)


def guard(func: Callable, query: str, name: str, source: str, policy: "Policy") -> Callable:
    """``func`` wrapped: time limit, value wrapping, every failure as :class:`UserMethodError`."""
    try:
        line = inspect.getsourcelines(func)[1]
    except (OSError, TypeError):
        line = 0
    where = f"{source}:{line}" if source else name
    label = f"{name} (user method, {Path(source).name if source else '?'}:{line})"
    state = MethodState()

    def user_method(a, b, *args):
        state.calls += 1
        if state.suspended:
            raise UserMethodError("suspended", state.suspended, method=name, where=where)
        started = time.perf_counter()
        try:
            value = call_with_time_limit(func, (a, b, *args), policy.time_limit)
        except _TimeLimit:
            state.failures += 1
            limit = policy.time_limit
            msg = f"{name} ran past the time limit of {limit:g} s and was stopped ({where})"
            if policy.suspend_after_timeout:
                state.suspended = (f"{name} is suspended: it ran past the time limit of "
                                   f"{limit:g} s; reload the file to try it again")
            raise UserMethodError("timeout", msg, method=name, where=where) from None
        except Exception as exc:  # noqa: BLE001 - the user's bug, reported on its row
            state.failures += 1
            tb = _user_traceback(exc, source)
            raise UserMethodError("exception", f"{name} raised {type(exc).__name__}: {exc}",
                                  method=name, where=where, tb=tb) from None
        try:
            result = wrap_value(query, value, a, b, args, method=label)
        except _WrongValue as exc:
            state.failures += 1
            raise UserMethodError(exc.kind, f"{name} {exc} ({where})", method=name,
                                  where=where) from None
        if isinstance(result.trace, dict) and result.trace.get("user"):
            result.trace["seconds"] = time.perf_counter() - started
        return result

    user_method.__name__ = name
    user_method.__qualname__ = name
    user_method.__wrapped__ = func
    user_method.state = state  # type: ignore[attr-defined]
    user_method.where = where  # type: ignore[attr-defined]
    return user_method


@dataclass
class Policy:
    """How user methods are run: ``time_limit`` seconds per call (``None``: no limit);
    ``suspend_after_timeout``: a method that timed out is not run again until its file is
    reloaded (a live view must not freeze once per frame)."""

    time_limit: Optional[float] = DEFAULT_TIME_LIMIT
    suspend_after_timeout: bool = False


POLICY = Policy()


# ----------------------------------------------------------------------------- loading files


@dataclass
class MethodFile:
    """One loaded source of user methods: a file (``path``) or an entry point (``name``)."""

    source: str  # absolute path of the file, or "entry point NAME"
    entries: list = field(default_factory=list)  # registry.Entry, as registered
    mtime: Optional[float] = None
    error: Optional[MethodsLoadError] = None  # the last failed (re)load; entries stay the old

    @property
    def path(self) -> Optional[Path]:
        return None if self.source.startswith("entry point ") else Path(self.source)

    @property
    def name(self) -> str:
        return self.path.name if self.path else self.source

    def methods(self) -> list[tuple[str, str, str, str]]:
        """``(query, kind_a, kind_b, name)`` of every method this source registered."""
        return [(e.query, e.kind_a, e.kind_b, e.name) for e in self.entries]

    def changed_on_disk(self) -> bool:
        p = self.path
        if p is None:
            return False
        try:
            return p.stat().st_mtime_ns != self.mtime
        except OSError:
            return False


#: every loaded source, by source string
LOADED: dict[str, MethodFile] = {}


class _Collect:
    """The registry's user context while a source runs: validates and guards each register."""

    def __init__(self, source: str, policy: Policy):
        self.source = source
        self.policy = policy
        self.entries: list = []

    def make_entry(self, query, kind_a, kind_b, func, name, priority):
        for which, kind in (("kind_a", kind_a), ("kind_b", kind_b)):
            if kind != registry.WILDCARD and kind not in TYPES:
                raise ValueError(f"register({query!r}, {kind_a!r}, {kind_b!r}): {which} "
                                 f"{kind!r} is not a type (known: {', '.join(TYPES)})")
        if not callable(func):
            raise TypeError(f"register({query!r}, ...) decorates {func!r}, not a function")
        for e in registry.entries_for(query, kind_a, kind_b):
            if e.name == name and not e.user:
                raise ValueError(f"register({query!r}, {kind_a!r}, {kind_b!r}, name={name!r}): "
                                 f"the library already has a method {name!r} for this pair; "
                                 "choose another name")
        path = self.source if not self.source.startswith("entry point ") else ""
        wrapped = guard(func, query, name, path, self.policy)
        entry = registry.Entry(query, kind_a, kind_b, wrapped, name,
                               registry.USER_PRIORITY, user=True, source=self.source)
        self.entries.append(entry)
        return entry


def _format_load_error(exc: BaseException, source: str) -> MethodsLoadError:
    tb = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    where = source
    if isinstance(exc, SyntaxError) and exc.lineno:
        where = f"{exc.filename or source}:{exc.lineno}"
    else:
        for fr in reversed(traceback.extract_tb(exc.__traceback__)):
            if os.path.abspath(fr.filename) == source:
                where = f"{source}:{fr.lineno}"
                break
    return MethodsLoadError(f"{where}: {type(exc).__name__}: {exc}", tb)


def _run_source(source: str, run: Callable[[], None], policy: Policy) -> MethodFile:
    """Run ``run`` (which executes the user's code) collecting its registrations; on success
    they replace the source's previous ones, on failure the previous ones stay and the error
    is raised."""
    registry.load_all()
    collect = _Collect(source, policy)
    with registry.user_context(collect):
        try:
            run()
        except BaseException as exc:  # noqa: BLE001 - anything in the user's module
            if isinstance(exc, KeyboardInterrupt):
                raise
            error = _format_load_error(exc, source)
            old = LOADED.get(source)
            if old is not None:
                old.error = error
            raise error from None
    registry.unregister_source(source)
    for entry in collect.entries:
        registry.add_entry(entry)
    mf = LOADED.get(source) or MethodFile(source)
    mf.entries, mf.error = collect.entries, None
    LOADED[source] = mf
    return mf


def load_methods(path, policy: Optional[Policy] = None) -> MethodFile:
    """Run the Python file ``path``; every function it registers becomes a user method.

    Loading the same file again replaces its methods (that is :func:`reload`). Raises
    :class:`MethodsLoadError` (one line naming the file and line; the traceback kept) when the
    file does not exist, does not compile, raises, or registers something invalid; then
    nothing of this load is registered (an earlier load of the file stays).
    """
    p = Path(path).expanduser()
    source = os.path.abspath(p)
    if not p.is_file():
        raise MethodsLoadError(f"{path}: no such file")
    try:
        mtime = p.stat().st_mtime_ns
        text = p.read_bytes()
    except OSError as exc:
        raise MethodsLoadError(f"{path}: cannot read: {exc}") from None
    digest = hashlib.sha1(source.encode()).hexdigest()[:10]
    mod_name = f"_intersection_explorer_user_{p.stem}_{digest}"

    def run():
        code = compile(text, source, "exec")
        spec = importlib.util.spec_from_loader(mod_name, loader=None, origin=source)
        module = importlib.util.module_from_spec(spec)
        module.__file__ = source
        sys.modules[mod_name] = module
        folder = str(p.parent.resolve())
        added = folder not in sys.path
        if added:
            sys.path.insert(0, folder)  # the user's file may import its neighbours
        try:
            exec(code, module.__dict__)
        finally:
            if added:
                try:
                    sys.path.remove(folder)
                except ValueError:
                    pass

    mf = _run_source(source, run, policy or POLICY)
    mf.mtime = mtime
    return mf


def reload(mf: MethodFile) -> MethodFile:
    """Load ``mf``'s file again (see :func:`load_methods`)."""
    if mf.path is None:
        raise MethodsLoadError(f"{mf.source}: an entry point is reloaded by reinstalling it")
    return load_methods(mf.path)


def reload_changed() -> list[tuple[MethodFile, Optional[MethodsLoadError]]]:
    """Reload every loaded file whose modification time changed: ``[(file, error or None)]``.

    A file that fails to reload keeps its previous methods; its ``error`` says why (and its
    new modification time is remembered, so the same broken version is not retried)."""
    out = []
    for mf in list(LOADED.values()):
        if mf.changed_on_disk():
            try:
                out.append((reload(mf), None))
            except MethodsLoadError as exc:
                try:
                    mf.mtime = mf.path.stat().st_mtime_ns
                except OSError:
                    pass
                out.append((mf, exc))
    return out


def unload(mf: MethodFile) -> None:
    """Remove every method ``mf`` registered."""
    registry.unregister_source(mf.source)
    LOADED.pop(mf.source, None)


def unload_all() -> None:
    for mf in list(LOADED.values()):
        unload(mf)


def load_entry_points(group: str = ENTRY_POINT_GROUP) -> tuple[list[MethodFile], list[str]]:
    """Load every installed entry point of ``group`` (each names a module or a callable that
    registers methods when imported or called): ``(loaded, one-line errors)``."""
    from importlib.metadata import entry_points

    loaded, errors = [], []
    for ep in entry_points(group=group):
        source = f"entry point {ep.name}"

        def run(ep=ep):
            obj = ep.load()
            if callable(obj) and not inspect.ismodule(obj):
                obj()

        try:
            loaded.append(_run_source(source, run, POLICY))
        except MethodsLoadError as exc:
            errors.append(f"{source} ({ep.value}): {exc}")
    return loaded, errors


def user_methods(query: Optional[str] = None, kind_a: Optional[str] = None,
                 kind_b: Optional[str] = None) -> list:
    """The registry entries of user methods, optionally for one query and (ordered) pair."""
    return [e for e in registry.table(include_user=True) if e.user
            and (query is None or e.query == query)
            and (kind_a is None or e.kind_a == kind_a) and (kind_b is None or e.kind_b == kind_b)]


def resume_all() -> None:
    """Lift every suspension (after the user fixed a hanging method without reloading)."""
    for e in user_methods():
        e.func.state.suspended = None
