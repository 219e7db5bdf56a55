"""Float against exact: the library's rational path on the binary values of the inputs.

The scalar code of several queries runs unchanged on :class:`fractions.Fraction` (primitives
built with ``exact=True``): the st-plane segment distance (GTCG 10.8.3), the separating-axis
decisions of boxes and triangles, Woo's ray-box test and Badouel's ray-triangle test, the
sphere distances (sphere-sphere, sphere-box: Primer A.14, sphere-triangle), the plane sides
(Primer A.15 and the support-point classification). :func:`exact_answers` runs them on
``a.as_exact()`` and ``b.as_exact()``, that is on exactly the doubles the float run saw, and
adds two rational tests of its own for the moving spheres of the Primer:

* A.13 (two moving spheres): ``|e + t m|^2 = (r_A + r_B)^2`` is a quadratic ``A t^2 + B t + C``
  with rational coefficients; whether the spheres touch within ``[0, 1]`` is decided exactly
  from the signs of ``C``, ``B``, the discriminant ``B^2 - 4 A C`` and of ``(-B - 2A)^2 - disc``
  (the smaller root against 1), without a square root;
* A.15 (a sphere moving towards a plane): the centre's signed distance ``f(t) = n . (c + t m) - d``
  is linear in ``t``; touching is ``f(t)^2 <= r^2 |n|^2``, decided exactly on squares.

Where a value is irrational (a distance is the square root of the exact rational ``Q``; a time
of impact of A.13/A.15 a root), it is evaluated to 60 significant bits more than a double from
the exact rational, so it is the correctly rounded exact value to within an ulp.

:func:`compare` says per key whether the float answer (the ``explorer eval`` result) agrees
*within rounding*: a decision (``intersects``, ``separating_axis`` present or not, ``side``, a
hit or no hit, a contact or none) must be equal; a number must be within :data:`ROUNDING` times
the input's scale (``first_t`` over ``|direction|``; ``toi`` within :data:`TOI_ROUNDING`).
"""

from __future__ import annotations

import math
from decimal import Decimal, localcontext
from fractions import Fraction
from typing import Optional

from algorithms import registry
from algorithms.compare import direction_length, scale_of, ulps
from algorithms.primitives import LINEAR_KINDS, SEPARABLE_KINDS, Primitive

#: a number agrees within rounding when its error is at most this times the input's scale
ROUNDING = 1e-12
#: ... and a time of impact (dimensionless) within this
TOI_ROUNDING = 1e-9

KEYS = ("intersects", "distance", "first_t", "separating_axis", "side", "toi")


def has_fraction(obj, depth: int = 0) -> bool:
    """True when a Fraction occurs in ``obj`` (nested dicts, lists, tuples, records)."""
    if depth > 6:
        return False
    if isinstance(obj, Fraction):
        return True
    if isinstance(obj, dict):
        return any(has_fraction(v, depth + 1) for v in obj.values())
    if isinstance(obj, (list, tuple)):
        return any(has_fraction(v, depth + 1) for v in obj)
    if hasattr(obj, "__dataclass_fields__"):
        return any(has_fraction(getattr(obj, k), depth + 1) for k in obj.__dataclass_fields__)
    return False


def _ran_exactly(result) -> bool:
    """The library ran on Fractions: a Fraction in the result, or an exact-mode marker."""
    t = getattr(result, "trace", {}) or {}
    if t.get("parallel_tolerance") == 0 or t.get("touch_tolerance") == 0:
        return True
    return has_fraction(result)


def sqrt_fraction(q: Fraction) -> float:
    """``sqrt(q)`` correctly rounded to within one ulp (integer square root of a scaled q)."""
    if q < 0:
        raise ValueError("negative")
    if q == 0:
        return 0.0
    with localcontext() as ctx:
        ctx.prec = 40
        return float((Decimal(q.numerator) / Decimal(q.denominator)).sqrt())


def _dec(q: Fraction) -> Decimal:
    return Decimal(q.numerator) / Decimal(q.denominator)


def _dot(u, v) -> Fraction:
    return sum((Fraction(x) * Fraction(y) for x, y in zip(u, v)), Fraction(0))


def _moving_spheres(a, b, motion) -> dict:
    """Primer A.13, exactly: the least ``t`` in ``[0, 1]`` at which they touch."""
    e = [Fraction(y) - Fraction(x) for x, y in zip(a.center, b.center)]
    m = [Fraction(c) for c in motion]
    r = Fraction(a.radius) + Fraction(b.radius)
    qa, qb, qc = _dot(m, m), 2 * _dot(e, m), _dot(e, e) - r * r
    trace = {"A": qa, "B": qb, "C": qc}
    if qc <= 0:
        return {"toi": Fraction(0), "how": "C <= 0: touching at t = 0", "trace": trace}
    if qa == 0:
        return {"toi": None, "how": "no relative motion", "trace": trace}
    disc = qb * qb - 4 * qa * qc
    trace["disc"] = disc
    if disc < 0 or qb >= 0:  # no real root, or both roots <= 0 (C > 0: same sign, sum -B/A)
        return {"toi": None, "how": "disc < 0 or moving apart", "trace": trace}
    # smaller root t1 = (-B - sqrt(disc)) / (2A) <= 1  <=>  -B - 2A <= sqrt(disc)
    k = -qb - 2 * qa
    if k > 0 and k * k > disc:
        return {"toi": None, "how": "the smaller root is past 1", "trace": trace}
    with localcontext() as ctx:
        ctx.prec = 40
        t1 = (-_dec(qb) - _dec(disc).sqrt()) / (2 * _dec(qa))
    return {"toi": float(t1), "how": "smaller root of A t^2 + B t + C (exact decision)",
            "trace": trace}


def _moving_sphere_plane(plane, sphere, motion) -> dict:
    """Primer A.15, exactly: the sphere (moving by ``motion`` relative to the plane)."""
    n = [Fraction(c) for c in plane.normal]
    nn = _dot(n, n)
    r = Fraction(sphere.radius)
    f0 = _dot(n, sphere.center) - Fraction(plane.d)
    fm = _dot(n, motion)
    trace = {"f0": f0, "fm": fm, "r^2 |n|^2": r * r * nn}
    band = r * r * nn
    if f0 * f0 <= band:
        return {"toi": Fraction(0), "how": "touching at t = 0", "trace": trace}
    f1 = f0 + fm
    if (f1 > 0) == (f0 > 0) and f1 * f1 > band:
        return {"toi": None, "how": "stays on its side, apart", "trace": trace}
    # touches when f0 + t fm = sign(f0) r |n|
    with localcontext() as ctx:
        ctx.prec = 40
        rn = _dec(r) * _dec(nn).sqrt()
        target = rn if f0 > 0 else -rn
        t = (target - _dec(f0)) / _dec(fm)
    return {"toi": float(t), "how": "f(t) reaches the band (exact decision)", "trace": trace}


def exact_answers(a: Primitive, b: Primitive, motion_a=None, motion_b=None) -> dict:
    """``{key: {"exact", "how", "method"}}`` for every key with an exact path (docstring).

    ``exact`` is a bool, an int side, ``None``, or a float correctly rounded from the exact
    value (``distance``, ``first_t``, ``toi``); ``distance`` also carries ``sqr_exact`` (the
    exact rational as a string).
    """
    ea, eb = a.as_exact(), b.as_exact()
    out: dict = {}
    exact_q = None
    try:
        d = registry.query("distance", ea, eb)
        if isinstance(d.sqr_distance, Fraction):
            exact_q = d.sqr_distance
            out["distance"] = {"exact": sqrt_fraction(exact_q), "sqr_exact": str(exact_q),
                               "how": "the library's distance on Fractions",
                               "method": d.method}
    except Exception:  # noqa: BLE001 - no exact path
        pass
    if exact_q is not None:
        out["intersects"] = {"exact": exact_q == 0, "how": "exact squared distance == 0",
                             "method": out["distance"]["method"]}
    separable = a.kind in SEPARABLE_KINDS and b.kind in SEPARABLE_KINDS
    if separable and registry.has_query("separating_axis", a.kind, b.kind, specific=True):
        try:
            s = registry.query("separating_axis", ea, eb)
            if _ran_exactly(s):
                out["separating_axis"] = {"exact": not s.intersects,
                                          "how": "the separating-axis decision on Fractions",
                                          "method": s.method}
                out.setdefault("intersects", {"exact": bool(s.intersects),
                                              "how": "separating-axis decision on Fractions",
                                              "method": s.method})
        except Exception:  # noqa: BLE001
            pass
    elif separable and exact_q is not None:
        out["separating_axis"] = {"exact": exact_q != 0, "how": "exact squared distance > 0",
                                  "method": out["distance"]["method"]}
    if "intersects" not in out and registry.has_query("intersects", a.kind, b.kind,
                                                      specific=True):
        try:
            i = registry.query("intersects", ea, eb)
            if _ran_exactly(i):
                out["intersects"] = {"exact": bool(i.intersects),
                                     "how": "the intersection test on Fractions",
                                     "method": i.method}
        except Exception:  # noqa: BLE001
            pass
    if a.kind in LINEAR_KINDS:
        try:
            h = registry.query("hits", ea, eb)
            t = _exact_first_t(h)
            if t is not False:
                out["first_t"] = {"exact": None if t is None else float(t),
                                  "how": "the hit test on Fractions", "method": h.method}
        except Exception:  # noqa: BLE001
            pass
    if "plane" in (a.kind, b.kind):
        try:
            s = registry.query("side", ea, eb)
            if _ran_exactly(s):
                out["side"] = {"exact": int(s.side), "how": "the side test on Fractions",
                               "method": s.method}
        except Exception:  # noqa: BLE001
            pass
    if motion_a is not None or motion_b is not None:
        ma = [Fraction(c) for c in (motion_a or (0, 0, 0))]
        mb = [Fraction(c) for c in (motion_b or (0, 0, 0))]
        rel = [y - x for x, y in zip(ma, mb)]
        res = None
        if a.kind == "sphere" and b.kind == "sphere":
            res, method = _moving_spheres(ea, eb, rel), "Primer A.13, exact decision"
        elif a.kind == "plane" and b.kind == "sphere":
            res, method = _moving_sphere_plane(ea, eb, rel), "Primer A.15, exact decision"
        elif a.kind == "sphere" and b.kind == "plane":
            res = _moving_sphere_plane(eb, ea, [-c for c in rel])
            method = "Primer A.15, exact decision"
        if res is not None:
            t = res["toi"]
            out["toi"] = {"exact": None if t is None else float(t), "how": res["how"],
                          "method": method}
    return out


def _exact_first_t(h):
    """The exact first parameter of a hit result run on Fractions; False when it was not
    computed exactly."""
    if isinstance(h.first_t, Fraction):
        return h.first_t
    t = h.trace or {}
    if not _ran_exactly(h):
        return False
    if h.first_t is None:
        return None
    if t.get("inside") and h.first_t == 0:
        return Fraction(0)
    chosen = t.get("chosen")
    if isinstance(chosen, dict) and isinstance(chosen.get("t"), Fraction):
        return chosen["t"]
    if isinstance(t.get("t"), Fraction):
        return t["t"]
    return False


def compare(result, a: Primitive, b: Primitive, motion_a=None, motion_b=None) -> dict:
    """``explorer eval --exact`` for ``result`` (the pair's ``explorer eval`` dict or its
    :class:`~algorithms.answer.PairAnswer`): for each key with an exact path, ``{"float", "exact",
    "agrees", "decision", "abs_error", "ulps", "bound", "how", "method"}``.

    ``decision`` names what must be equal (``"intersects"``, ``"hit"``, ``"contact"``,
    ``"side"``, ``"separated"``) and is ``None`` for a pure number; ``agrees`` is False when a
    decision differs or a number is off by more than ``bound``.
    """
    if not isinstance(result, dict):  # a typed PairAnswer
        from algorithms.report import result_json

        result = result_json(result)
    ex = exact_answers(a, b, motion_a, motion_b)
    rel = None
    if motion_a is not None or motion_b is not None:
        rel = [y - x for x, y in zip(motion_a or (0, 0, 0), motion_b or (0, 0, 0))]
    scale = scale_of(a, b, motion=rel)
    out = {}
    for key in KEYS:
        if key not in ex:
            continue
        e = ex[key]["exact"]
        f = result.get(key)
        row = {"float": f, "exact": e, "agrees": True, "decision": None, "abs_error": None,
               "ulps": None, "bound": None, "how": ex[key]["how"],
               "method": ex[key]["method"]}
        if key in ("intersects", "side"):
            row["decision"] = key
            row["agrees"] = f == e
        elif key == "separating_axis":
            row["decision"] = "separated"
            row["float"] = f is not None
            row["agrees"] = (f is not None) == bool(e)
        else:
            if key == "distance":
                bound = ROUNDING * scale
            elif key == "first_t":
                row["decision"] = "hit"
                length = direction_length(a)
                bound = ROUNDING * scale / length if length else math.inf
            else:
                row["decision"] = "contact"
                bound = TOI_ROUNDING
            row["bound"] = bound
            if (f is None) != (e is None):
                row["agrees"] = False
            elif f is not None:
                row["abs_error"] = abs(float(f) - float(e))
                row["ulps"] = ulps(float(f), float(e))
                row["agrees"] = row["abs_error"] <= bound
            if key == "distance":
                row["decision"] = None
                row["sqr_exact"] = ex[key]["sqr_exact"]
        out[key] = row
    return out


def alarms(report: dict) -> list[str]:
    """The keys whose float decision differs from the exact one (the Precision alarm)."""
    return [k for k, row in report.items() if not row["agrees"] and row["decision"]]


def exact_value(report: dict, key: str) -> Optional[float]:
    row = report.get(key)
    return None if row is None else row["exact"]
