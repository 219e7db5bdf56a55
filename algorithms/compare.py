"""Compare two methods' answers to one query: differences in ulps, a verdict a fuzzer can trust.

:func:`value_of` picks the number (or decision) a result is about, :func:`difference` measures
two numbers (absolute, relative, and the ulps between them: how many doubles lie in between),
and :func:`judge` decides whether a method *disagrees* with the reference on an input, with a
tolerance scaled to the input's size (:func:`scale_of`) and without crying wolf within rounding
of a decision boundary:

* numbers (``distance``, ``first_t``, ``toi``) disagree beyond ``abs_tol * scale + rel_tol *
  |value|`` (``first_t`` in A's parameter units: the position tolerance divided by ``|d|``);
* a hit against no hit, or an intersection against none, disagrees unless the reference says
  the shapes are apart by less than the tolerance (a graze: either answer is right within
  rounding) or the hits span less than the tolerance (a tangent);
* a separating axis must separate: projections overlapping by more than the tolerance on the
  method's axis disagree even when the decision matches;
* ``side`` disagrees unless the reference's object is within the tolerance of the plane;
* a time of impact against none disagrees unless the one given is within ``TOI_TOL`` of 1
  (touching exactly at the end of the motion may fall either way, scene-v1) or, where the
  reference says none, the shapes are within the tolerance at the time given (a graze); an
  earlier time of impact than the reference's is no error when the shapes are within the
  tolerance then (a later one is, unless the shapes are within the tolerance of touching
  from the start: it missed the first contact);
* an error (an exception, a wrong type, NaN, a time-out in a user method) always disagrees.

Touching counts as intersecting, so a method that calls exactly touching shapes apart
disagrees (the reference's exact decision on dyadic inputs is not a rounding case).
"""

from __future__ import annotations

import math
import struct
from typing import Optional

from algorithms.primitives import Primitive

#: position tolerance relative to the input's scale, and relative tolerance on values
ABS_TOL = 1e-6
REL_TOL = 1e-6
#: time-of-impact tolerance (the iterative toi methods converge to about 1e-9)
TOI_TOL = 1e-6

KEY_OF = {"distance": "distance", "intersects": "intersects", "hits": "first_t",
          "separating_axis": "separating_axis", "side": "side", "toi": "toi"}


def value_of(query: str, result):
    """The answer a result gives to ``query``: a float, a bool, an int side, a unit axis
    (tuple) or ``None``."""
    if query == "distance":
        return float(result.distance)
    if query == "intersects":
        return bool(result.intersects)
    if query == "hits":
        return None if result.first_t is None else float(result.first_t)
    if query == "separating_axis":
        return None if result.axis is None else tuple(float(c) for c in result.axis)
    if query == "side":
        return int(result.side)
    if query == "toi":
        return None if result.toi is None else float(result.toi)
    raise ValueError(f"unknown query {query!r}")


def _ordered(x: float) -> int:
    """An integer with the order of the doubles (``-0.0`` and ``0.0`` both map to 0)."""
    i = struct.unpack("<q", struct.pack("<d", float(x)))[0]
    return i if i >= 0 else -(i & 0x7FFFFFFFFFFFFFFF)


def ulps(x: float, y: float) -> Optional[int]:
    """How many doubles lie between ``x`` and ``y`` plus one (``0`` when equal; ``None`` when
    either is not finite)."""
    if not (math.isfinite(x) and math.isfinite(y)):
        return None
    return abs(_ordered(x) - _ordered(y))


def difference(reference: float, value: float) -> dict:
    """``{"abs", "rel", "ulps"}`` of ``value`` against ``reference`` (``rel`` against
    ``|reference|``; ``None`` when the reference is 0 and the value is not)."""
    d = abs(float(value) - float(reference))
    if reference == 0:
        rel = 0.0 if d == 0 else None
    else:
        rel = d / abs(float(reference))
    return {"abs": d, "rel": rel, "ulps": ulps(float(reference), float(value))}


def scale_of(*prims: Primitive, motion=None) -> float:
    """The size of the input: the largest magnitude among its coordinates and lengths (at
    least the smallest normal double, so a tolerance scaled by it is never zero)."""
    biggest = 0.0

    def visit(v):
        nonlocal biggest
        if isinstance(v, (tuple, list)):
            for x in v:
                visit(x)
        elif isinstance(v, (int, float)) and not isinstance(v, bool):
            biggest = max(biggest, abs(float(v)))
        else:
            try:
                biggest = max(biggest, abs(float(v)))
            except (TypeError, ValueError):
                pass

    for p in prims:
        for name, v in p.to_fields().items():
            visit(v)
    if motion is not None:
        visit(list(motion))
    return max(biggest, 2.2250738585072014e-308)


def direction_length(a: Primitive) -> float:
    """The length of a linear component's direction (a segment's ``p1 - p0``), as a float
    (what a parameter ``t`` of it is multiplied by; :func:`judge` and
    :func:`algorithms.exact.compare` scale a ``first_t`` difference by it)."""
    if a.kind == "segment":
        return math.dist(tuple(map(float, a.p0)), tuple(map(float, a.p1)))
    # hypot, not the root of the sum of squares: a direction (2.6e187, 0, -7.6e66) squared
    # overflowed (OverflowError)
    return math.hypot(*(float(c) for c in a.direction))


def judge(query: str, a: Primitive, b: Primitive, args: tuple, reference, other, *,
          abs_tol: float = ABS_TOL, rel_tol: float = REL_TOL, exact=None) -> dict:
    """Does ``other`` (a result, or the exception its method raised) disagree with the
    ``reference`` result on ``query`` for ``(a, b)``?

    Returns ``{"disagrees", "why", "reference", "value", "abs", "rel", "ulps",
    "tolerance"}``. ``exact`` (optional): the exact answer of the query (a bool decision) when
    the library has a rational path; a decision that matches it is never a disagreement.
    """
    motion = args[0] if (query == "toi" and args) else None
    scale = scale_of(a, b, motion=motion)
    tol = abs_tol * scale
    out = {"disagrees": False, "why": "", "reference": None, "value": None, "abs": None,
           "rel": None, "ulps": None, "tolerance": tol}
    if isinstance(reference, BaseException):
        out.update(disagrees=False, why=f"the reference failed: {reference}")
        return out
    ref = value_of(query, reference)
    out["reference"] = ref
    if isinstance(other, BaseException):
        out.update(disagrees=True, why=str(other), value=None)
        return out
    try:
        val = value_of(query, other)
    except (TypeError, ValueError, AttributeError) as exc:
        out.update(disagrees=True, why=f"unreadable answer: {exc}")
        return out
    out["value"] = val

    def number_verdict(r, v, t_abs, what):
        diff = difference(r, v)
        out.update(diff)
        if not math.isfinite(v):
            return True, f"{what} is {v!r}, the reference {r!r}"
        limit = t_abs + rel_tol * abs(r)
        if diff["abs"] > limit:
            return True, (f"{what} {v!r} differs from the reference {r!r} by {diff['abs']:.3g} "
                          f"(tolerance {limit:.3g})")
        return False, ""

    def graze():
        """True when the reference says A and B are apart by at most the tolerance."""
        from algorithms import registry

        try:
            return float(registry.query("distance", a, b).distance) <= tol
        except Exception:  # noqa: BLE001 - no distance: no graze rule
            return False

    if query == "distance":
        bad, why = number_verdict(ref, val, tol, "distance")
    elif query in ("intersects",):
        bad, why = False, ""
        if ref != val:
            if exact is not None and bool(exact) == val:
                bad = False
            elif ref is False and graze():
                bad = False
            else:
                bad = True
                why = (f"says {'intersecting' if val else 'apart'}; the reference says "
                       f"{'intersecting' if ref else 'apart'}")
                if exact is not None:
                    why += " (and so does the exact answer)"
    elif query == "separating_axis":
        bad, why = False, ""
        ref_apart, val_apart = ref is not None, val is not None
        if ref_apart != val_apart:
            if exact is not None and (not bool(exact)) == val_apart:
                bad = False
            elif ref_apart and graze():
                bad = False
            else:
                bad = True
                why = (f"says {'apart (axis ' + _fmt(val) + ')' if val_apart else 'intersecting'}"
                       f"; the reference says {'apart' if ref_apart else 'intersecting'}")
        if not bad and val_apart and other.intervals is not None:
            (amin, amax), (bmin, bmax) = other.intervals
            gap = max(float(bmin) - float(amax), float(amin) - float(bmax))
            if gap < -tol:
                bad = True
                why = (f"the axis {_fmt(val)} does not separate: the projections overlap by "
                       f"{-gap:.3g}")
    elif query == "side":
        bad, why = False, ""
        if ref != val:
            sd, r = reference.signed_distance, reference.effective_radius
            near = (sd is not None and r is not None
                    and min(abs(abs(float(sd)) - float(r)), abs(float(sd))) <= tol)
            if not near:
                bad, why = True, f"side {val}; the reference says {ref}"
    elif query == "hits":
        bad, why = False, ""
        length = direction_length(a)
        if ref is None and val is None:
            pass
        elif (ref is None) != (val is None):
            if ref is None:
                bad = not graze()
            else:
                ts = [float(h.t) for h in getattr(reference, "hits", ())]
                span = (max(ts) - min(ts)) * length if len(ts) >= 2 else None
                bad = not (span is not None and span <= tol)
            if bad:
                why = (f"first_t {val!r}; the reference says {ref!r}"
                       + (" (no hit)" if ref is None else ""))
        elif length > 0:
            bad, why = number_verdict(ref, val, tol / length, "first_t")
    elif query == "toi":
        bad, why = False, ""
        if (ref is None) != (val is None):
            # touching exactly at t = 1 is within rounding of "no contact" (scene-v1)
            near_end = max(x for x in (ref, val) if x is not None) >= 1 - TOI_TOL
            bad = not near_end
            if bad and motion is not None:
                # a graze: at the time given the shapes are within the tolerance (and, for a
                # missed contact, they were within it from the start: rounding)
                from algorithms import registry

                try:
                    def gap(t):
                        moved = b.translated(tuple(float(t) * float(m) for m in motion))
                        return float(registry.query("distance", a, moved).distance)

                    if ref is None:
                        bad = gap(val) > tol
                    else:
                        bad = not (gap(0.0) <= tol and gap(ref) <= tol)
                except Exception:  # noqa: BLE001 - no distance: no graze rule
                    pass
            if bad:
                why = f"toi {val!r}; the reference says {ref!r}"
        elif ref is not None:
            bad, why = number_verdict(ref, val, TOI_TOL, "toi")
            if bad and motion is not None:
                from algorithms import registry

                def gap(t):
                    moved = b.translated(tuple(float(t) * float(m) for m in motion))
                    return float(registry.query("distance", a, moved).distance)

                try:
                    if val < ref:
                        # an earlier contact that is a touch within the tolerance
                        bad = gap(val) > tol
                    else:
                        # within the tolerance of touching from the start: rounding
                        bad = not (gap(0.0) <= tol and gap(val) <= tol)
                except Exception:  # noqa: BLE001
                    pass
    else:
        raise ValueError(f"unknown query {query!r}")
    out["disagrees"], out["why"] = bad, why
    return out


def _fmt(v) -> str:
    if v is None:
        return "None"
    return "(" + ", ".join(f"{c:.6g}" for c in v) + ")"
