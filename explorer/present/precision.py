"""The precision lab's numbers: the st-plane trace in float32, float64 and exact. Qt-free.

For a pair of points, segments, rays or lines the library's st-plane minimisation (GTCG 10.8.3)
runs on floats and on Fractions (:mod:`algorithms.exact`); :func:`trace_rows` lines up its
values ``a b c d e det s_bar t_bar s t Q region`` from both runs, adds the same formulas
evaluated in float32 (numpy), and gives the error of each in ulps of its format and an alarm
when a sign or the region differs from the exact one. :func:`angle_sweep` builds nearly
parallel segments from 1e-1 down to 1e-16 rad and measures the float distance's error against
the exact one at each angle; :func:`minimiser_set` says when the closest points are not unique
(``Q`` flat along an edge) and returns the set of equally good parameters.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Optional

import numpy as np

from algorithms import registry
from algorithms.compare import ulps
from algorithms.primitives import Segment

LINEAR = ("point", "segment", "ray", "line")
ROWS = ("a", "b", "c", "d", "e", "det", "s_bar", "t_bar", "s", "t", "Q", "region")
#: below this exact |det| / (a c) the two directions are parallel to within any rounding
FLAT = 1e-30


def applies(a, b) -> bool:
    return a.kind in LINEAR and b.kind in LINEAR


def _parts(p):
    if p.kind == "point":
        return np.asarray(p.position, float), np.zeros(3)
    if p.kind == "segment":
        p0, p1 = np.asarray(p.p0, float), np.asarray(p.p1, float)
        return p0, p1 - p0
    return np.asarray(p.origin, float), np.asarray(p.direction, float)


def float32_values(a, b) -> dict:
    """``a b c d e det s_bar t_bar`` by the book's formulas in float32."""
    f = np.float32
    B0, m0 = (x.astype(f) for x in _parts(a))
    B1, m1 = (x.astype(f) for x in _parts(b))
    D = B0 - B1
    va, vb, vc = f(m0 @ m0), f(-(m0 @ m1)), f(m1 @ m1)
    vd, ve = f(m0 @ D), f(-(m1 @ D))
    det = f(va * vc - vb * vb)
    out = {"a": va, "b": vb, "c": vc, "d": vd, "e": ve, "det": det}
    with np.errstate(all="ignore"):
        out["s_bar"] = f((vb * ve - vc * vd) / det) if det != 0 else None
        out["t_bar"] = f((vb * vd - va * ve) / det) if det != 0 else None
    return {k: (None if v is None else float(v)) for k, v in out.items()}


def _ulps32(x: float, y: float) -> Optional[int]:
    if not (math.isfinite(x) and math.isfinite(y)):
        return None
    ix = int(np.float32(x).view(np.int32))
    iy = int(np.float32(y).view(np.int32))
    ix = ix if ix >= 0 else -(ix & 0x7FFFFFFF)
    iy = iy if iy >= 0 else -(iy & 0x7FFFFFFF)
    return abs(ix - iy)


def _sign(x) -> int:
    return 0 if x == 0 else (1 if x > 0 else -1)


def _row(name: str, v32, v64, vex, decision: bool = False) -> dict:
    """One table row: the value in float32, float64 and exactly, the errors in ulps and an
    alarm when a sign (or, for a ``decision`` row, the value itself) differs from the exact."""
    number = not decision and v64 is not None and not isinstance(v64, (bool, str))
    row = {"name": name, "f32": v32, "f64": float(v64) if number else v64,
           "exact": vex, "ulps32": None, "ulps64": None, "alarm": ""}
    if decision:
        if v64 != vex:
            row["alarm"] = f"{name} {v64} in floats, {vex} exactly"
        elif v32 is not None and v32 != vex:
            row["alarm"] = f"{name} {v32} in float32, {vex} exactly"
    elif vex is not None and v64 is not None:
        ex = float(vex)
        row["ulps64"] = ulps(float(v64), ex)
        if v32 is not None:
            row["ulps32"] = _ulps32(v32, ex)
        if _sign(v64) != _sign(vex):
            row["alarm"] = f"sign {_sign(v64):+d} in float64, {_sign(vex):+d} exactly"
        elif v32 is not None and _sign(v32) != _sign(vex):
            row["alarm"] = f"sign {_sign(v32):+d} in float32, {_sign(vex):+d} exactly"
    return row


def _collect(rows: list) -> list:
    return [f"{r['name']}: {r['alarm']}" for r in rows if r["alarm"]]


def trace_rows(a, b) -> dict:
    """``{"rows": [{"name", "f32", "f64", "exact", "ulps32", "ulps64", "alarm"}], "alarms",
    "distance": {"f64", "exact"}, "region": {"f64", "exact"}}`` for a linear pair."""
    rf = registry.query("distance", a, b)
    re_ = registry.query("distance", a.as_exact(), b.as_exact())
    tf, te = rf.trace, re_.trace
    f32 = float32_values(a, b)
    rows = []
    for name in ROWS:
        if name == "Q":
            v64, vex = rf.sqr_distance, re_.sqr_distance
        else:
            v64, vex = tf.get(name), te.get(name)
        rows.append(_row(name, f32.get(name), v64, vex, decision=name == "region"))
    alarms = _collect(rows)
    q = re_.sqr_distance
    return {"rows": rows, "alarms": alarms,
            "distance": {"f64": float(rf.distance),
                         "exact": math.sqrt(float(q)) if isinstance(q, Fraction) else None},
            "region": {"f64": tf.get("region"), "exact": te.get("region")}}


def nearly_parallel(a: Segment, angle: float, offset: float = 0.5) -> Segment:
    """Segment A turned by ``angle`` about its midpoint, moved ``offset`` off it."""
    p0, p1 = np.asarray(a.p0, float), np.asarray(a.p1, float)
    d = p1 - p0
    n = float(np.linalg.norm(d)) or 1.0
    u = d / n
    e = np.zeros(3)
    e[int(np.argmin(np.abs(u)))] = 1.0
    w = np.cross(u, e)
    w /= np.linalg.norm(w)
    mid = (p0 + p1) / 2 + offset * w
    v = math.cos(angle) * u + math.sin(angle) * w
    return Segment(tuple(mid - v * n / 2), tuple(mid + v * n / 2))


def angle_sweep(a: Segment, angles=None) -> list[dict]:
    """``[{"angle", "b", "f64", "exact", "error", "ericson64", "ericson32"}]`` for B =
    :func:`nearly_parallel` (A, angle): the library's float64 error, and the textbook
    algorithm's (Ericson 5.1.9) in float64 and float32, each against the exact distance."""
    angles = angles or [10.0 ** -k for k in range(1, 17)]
    out = []
    for ang in angles:
        b = nearly_parallel(a, ang)
        f = float(registry.query("distance", a, b).distance)
        q = registry.query("distance", a.as_exact(), b.as_exact()).sqr_distance
        ex = math.sqrt(float(q))
        e32 = ericson_distance(a, b, np.float32)
        e64 = ericson_distance(a, b, np.float64)
        out.append({"angle": ang, "b": b, "f64": f, "exact": ex, "error": abs(f - ex),
                    "ericson64": abs(e64 - ex), "ericson32": abs(e32 - ex)})
    return out


def minimiser_set(a, b, samples: int = 201) -> Optional[dict]:
    """When ``Q`` is flat (the directions parallel to ``FLAT``: exact ``det <= FLAT a c``),
    the parameters of A whose best point of B is as close as the minimum within rounding:
    ``{"s": (lo, hi), "points_a": [p, q], "points_b": [p, q]}``; ``None`` when unique."""
    if a.kind != "segment" or b.kind != "segment":
        return None
    te = registry.query("distance", a.as_exact(), b.as_exact()).trace
    aa, cc, det = te.get("a"), te.get("c"), te.get("det")
    if not aa or not cc or det is None or abs(det) > FLAT * aa * cc:
        return None
    B0, m0 = _parts(a)
    B1, m1 = _parts(b)
    best = registry.query("distance", a, b).sqr_distance
    tol = 8 * np.finfo(float).eps * max(1.0, float(np.max(np.abs(np.r_[B0, B1, m0, m1])))) ** 2
    good = []
    for s in np.linspace(0.0, 1.0, samples):
        p = B0 + s * m0
        t = float(np.clip((p - B1) @ m1 / (m1 @ m1), 0.0, 1.0))
        q = float(np.sum((p - (B1 + t * m1)) ** 2))
        if q <= best + tol:
            good.append((s, t))
    if len(good) < 2:
        return None
    (s0, t0), (s1, t1) = good[0], good[-1]
    return {"s": (s0, s1), "t": (t0, t1),
            "points_a": [tuple(B0 + s0 * m0), tuple(B0 + s1 * m0)],
            "points_b": [tuple(B1 + t0 * m1), tuple(B1 + t1 * m1)]}


def ericson_distance(a: Segment, b: Segment, dtype=np.float32) -> float:
    """Ericson's ClosestPtSegmentSegment (Real-Time Collision Detection 5.1.9) in ``dtype``:
    the textbook algorithm, for the sweep's comparison (its parallel test is ``denom != 0``)."""
    f = dtype
    p1, q1 = np.asarray(a.p0, f), np.asarray(a.p1, f)
    p2, q2 = np.asarray(b.p0, f), np.asarray(b.p1, f)
    d1, d2, r = q1 - p1, q2 - p2, p1 - p2
    aa, e, ff = f(d1 @ d1), f(d2 @ d2), f(d2 @ r)
    with np.errstate(all="ignore"):
        if aa <= 0 and e <= 0:
            return float(np.sqrt(r @ r))
        if aa <= 0:
            s, t = f(0), f(np.clip(ff / e, 0, 1))
        else:
            c = f(d1 @ r)
            if e <= 0:
                t, s = f(0), f(np.clip(-c / aa, 0, 1))
            else:
                bb = f(d1 @ d2)
                denom = f(aa * e - bb * bb)
                s = f(np.clip((bb * ff - c * e) / denom, 0, 1)) if denom != 0 else f(0)
                t = f((bb * s + ff) / e)
                if t < 0:
                    t, s = f(0), f(np.clip(-c / aa, 0, 1))
                elif t > 1:
                    t, s = f(1), f(np.clip((bb - c) / aa, 0, 1))
        dp = (p1 + d1 * s) - (p2 + d2 * t)
        return float(np.sqrt(dp @ dp))


# ----------------------------------------------------------------------------- ray casts

CAST_TARGETS = ("aabb", "triangle")


def cast_applies(a, b) -> bool:
    """A segment, ray or line cast against a box (Woo) or a triangle (Badouel): the casts
    whose decisions the library also makes on Fractions."""
    return a.kind in ("segment", "ray", "line") and b.kind in CAST_TARGETS


def _f32(v) -> np.ndarray:
    return np.asarray(v, dtype=np.float64).astype(np.float32)


def _woo32(a, box) -> dict:
    """Woo's candidate-plane parameters ``t_i = (plane_i - o_i) / d_i`` in float32 (Primer
    A.18): the plane facing the ray on each axis, and the largest of them."""
    o, d = _parts(a)
    o, d, lo, hi = _f32(o), _f32(d), _f32(box.min), _f32(box.max)
    out = {}
    with np.errstate(all="ignore"):
        for i, axis in enumerate("xyz"):
            if d[i] == 0:
                continue
            plane = lo[i] if d[i] > 0 else hi[i]
            out[f"t ({axis})"] = float((plane - o[i]) / d[i])
    return out


def _badouel32(a, tri) -> dict:
    """Badouel's ``t`` and barycentrics in float32 (Primer A.16): ``t = (p0 - o) . n / d . n``,
    then the hit point's barycentric coordinates from sub-triangle areas on the plane."""
    o, d = (_f32(x) for x in _parts(a))
    p0, p1, p2 = (_f32(v) for v in tri.vertices)
    n = np.cross(p1 - p0, p2 - p0)
    with np.errstate(all="ignore"):
        dn = np.float32(d @ n)
        if dn == 0:
            return {"dot": 0.0}
        t = np.float32((p0 - o) @ n) / dn
        p = o + t * d
        nn = np.float32(n @ n)
        alpha = np.float32(np.cross(p2 - p1, p - p1) @ n) / nn
        beta = np.float32(np.cross(p0 - p2, p - p2) @ n) / nn
        return {"dot": float(dn), "t": float(t), "gamma": float(alpha), "alpha": float(beta),
                "beta": float(1 - alpha - beta)}


def cast_rows(a, b) -> dict:
    """The cast's trace values beside their exact runs: Woo's candidate ``t`` per axis, the
    chosen ``t`` and the hit decision (box); Badouel's ``d . n``, ``t``, the barycentrics
    ``alpha beta gamma`` and the hit decision (triangle). Same shape as :func:`trace_rows`."""
    rf = registry.query("hits", a, b)
    re_ = registry.query("hits", a.as_exact(), b.as_exact())
    tf, te = rf.trace, re_.trace
    rows = []
    if b.kind == "aabb":
        f32 = _woo32(a, b)
        exact_t = {c["axis"]: c["t"] for c in te.get("candidate planes", []) if c.get("plane")}
        for c in tf.get("candidate planes", []):
            if c.get("plane") is None:
                continue
            name = f"t ({c['axis']})"
            rows.append(_row(name, f32.get(name), c["t"], exact_t.get(c["axis"])))
        chosen_f, chosen_e = tf.get("chosen") or {}, te.get("chosen") or {}
        rows.append(_row("chosen plane", None, chosen_f.get("plane"), chosen_e.get("plane"),
                         decision=True))
    else:
        f32 = _badouel32(a, b)
        for name in ("dot", "t", "alpha", "beta", "gamma"):
            if name in tf or name in te:
                rows.append(_row(name, f32.get(name), tf.get(name), te.get(name)))
    hit32 = None
    rows.append(_row("hit", hit32, bool(rf.intersects), bool(re_.intersects), decision=True))
    return {"rows": rows, "alarms": _collect(rows),
            "first_t": {"f64": rf.first_t, "exact": re_.first_t}}
