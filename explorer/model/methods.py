"""User methods in the explorer: load them, and compare each with the reference on a pair.

Qt-free (the window's Methods panel, ``explorer eval --methods`` and ``explorer open
--methods`` share it). Loading is :mod:`algorithms.usermethods`; this module adds what a view
needs: which user methods apply to a pair, and one *row* per method with its answer, the
reference's, the differences and the verdict of :func:`algorithms.compare.judge`, or the
error with its traceback. A failing user method never raises out of here.
"""

from __future__ import annotations

from typing import Iterable, Optional

from algorithms import registry, usermethods
from algorithms.compare import difference, judge, value_of
from algorithms.primitives import LINEAR_KINDS, SEPARABLE_KINDS, Primitive
from algorithms.results import to_jsonable


def load_files(paths: Iterable) -> list:
    """Load each methods file (:func:`algorithms.usermethods.load_methods`); raises
    :class:`algorithms.usermethods.MethodsLoadError` on the first that fails."""
    return [usermethods.load_methods(p) for p in paths]


def load_plugins() -> list[str]:
    """Load the installed entry points (group ``intersection_explorer.methods``) once per
    process; returns the one-line errors of those that failed."""
    global _plugins_loaded
    if _plugins_loaded:
        return []
    _plugins_loaded = True
    _, errors = usermethods.load_entry_points()
    return errors


_plugins_loaded = False


def applicable(kind_a: str, kind_b: str, moving: bool) -> list[tuple[str, str]]:
    """``(query, name)`` of every user method that answers the ordered pair."""
    out = []
    for e in usermethods.user_methods():
        q = e.query
        same = (e.kind_a, e.kind_b) == (kind_a, kind_b)
        swapped = (e.kind_a, e.kind_b) == (kind_b, kind_a) and q in registry.FLIPPABLE
        wild = registry.WILDCARD in (e.kind_a, e.kind_b)
        if not (same or swapped or wild):
            continue
        if wild and not _wild_matches(e, kind_a, kind_b):
            continue
        if q == "hits" and kind_a not in LINEAR_KINDS:
            continue
        if q == "side" and "plane" not in (kind_a, kind_b):
            continue
        if q == "separating_axis" and not (kind_a in SEPARABLE_KINDS
                                           and kind_b in SEPARABLE_KINDS):
            continue
        if q == "toi" and not moving:
            continue
        if (q, e.name) not in out:
            out.append((q, e.name))
    return out


def _wild_matches(e, ka, kb) -> bool:
    def ok(pat, k):
        return pat in (registry.WILDCARD, k)

    return (ok(e.kind_a, ka) and ok(e.kind_b, kb)) or (
        e.query in registry.FLIPPABLE and ok(e.kind_a, kb) and ok(e.kind_b, ka))


def _relative_motion(motion_a, motion_b) -> Optional[tuple]:
    if motion_a is None and motion_b is None:
        return None
    ma = motion_a if motion_a is not None else (0.0, 0.0, 0.0)
    mb = motion_b if motion_b is not None else (0.0, 0.0, 0.0)
    return tuple(float(y) - float(x) for x, y in zip(ma, mb))


def compare_row(query: str, name: str, a: Primitive, b: Primitive, motion=None) -> dict:
    """One method's answer against the reference's on ``query`` for ``(a, b)``.

    ``{"query", "method", "user", "source", "value", "reference", "reference_method",
    "agree", "why", "abs", "rel", "ulps", "error", "error_kind", "traceback", "result",
    "reference_result"}`` (the two results are the records, for drawing; not JSON).
    """
    args = () if query != "toi" else (motion or (0.0, 0.0, 0.0),)
    entry = registry.find(query, a.kind, b.kind, name)
    row = {"query": query, "method": name, "user": bool(entry and entry.user),
           "source": entry.source if entry else None, "value": None, "reference": None,
           "reference_method": registry.default_method(query, a.kind, b.kind),
           "agree": None, "why": "", "abs": None, "rel": None, "ulps": None, "error": None,
           "error_kind": None, "traceback": None, "result": None, "reference_result": None}
    try:
        ref = registry.query(query, a, b, *args)
        row["reference_result"] = ref
        row["reference"] = value_of(query, ref)
    except Exception as exc:  # noqa: BLE001 - shown on the row
        ref = exc
    try:
        got = registry.query(query, a, b, *args, method=name)
        row["result"] = got
        row["value"] = value_of(query, got)
    except Exception as exc:  # noqa: BLE001 - the user's failure, on its row
        got = exc
        row["error"] = str(exc)
        row["error_kind"] = getattr(exc, "kind", "exception")
        row["traceback"] = getattr(exc, "traceback", None) or f"{type(exc).__name__}: {exc}"
    verdict = judge(query, a, b, args, ref, got)
    row["agree"] = not verdict["disagrees"] if not isinstance(ref, BaseException) else None
    row["why"] = verdict["why"]
    r, v = row["reference"], row["value"]
    if isinstance(r, float) and isinstance(v, float):
        row.update(difference(r, v))
    return row


def library_alternatives(kind_a: str, kind_b: str, moving: bool) -> list[tuple[str, str]]:
    """``(query, name)`` of the library's second methods of the pair (GJK, slabs,
    Moller-Trumbore, conservative advancement...), the default left out."""
    out = []
    for q in registry.QUERIES:
        if q == "hits" and kind_a not in LINEAR_KINDS or q == "side" and "plane" not in (
                kind_a, kind_b) or q == "toi" and not moving:
            continue
        if q == "separating_axis" and not (kind_a in SEPARABLE_KINDS
                                           and kind_b in SEPARABLE_KINDS):
            continue
        names = [n for n in registry.methods(q, kind_a, kind_b)
                 if not registry.is_user(q, kind_a, kind_b, n)]
        out += [(q, n) for n in names[1:]]
    return out


def rows_for_pair(a: Primitive, b: Primitive, motion_a=None, motion_b=None,
                  include_library: bool = False) -> list[dict]:
    """:func:`compare_row` for every user method that answers the pair (and, with
    ``include_library``, for every second library method too)."""
    motion = _relative_motion(motion_a, motion_b)
    wanted = applicable(a.kind, b.kind, motion is not None)
    if include_library:
        wanted = library_alternatives(a.kind, b.kind, motion is not None) + wanted
    return [compare_row(q, name, a, b, motion) for q, name in wanted]


def jsonable_row(row: dict) -> dict:
    """A row as ``explorer eval --methods`` prints it (no records)."""
    out = {k: v for k, v in row.items() if k not in ("result", "reference_result")}
    return to_jsonable(out)


def disagreeing(rows: list[dict]) -> list[dict]:
    """The rows whose method disagrees with the reference (errors included)."""
    return [r for r in rows if r["agree"] is False]
