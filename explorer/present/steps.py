"""Step-throughs: an algorithm's run on the chosen pair, one step at a time, each with the line
of a short pseudocode listing it is at, a sentence with the current values and the geometry to
draw (issue 13, part 2). No Qt, no VTK: marks are plain points the Qt panel turns into meshes.

The steps are read from the library's own record of the run (``answer.records``: the hits
record's Woo trace, Arvo's per-axis trace), so the drawing and the answer cannot disagree.

Families: Woo's ray-box test (Dunn & Parberry App. A.18, Listing A.6), Arvo's sphere-box clamp
(GTCG §11.12.8), Hultquist's ray-sphere (App. A.12), Badouel's ray-triangle (App. A.16) and the
st-plane candidates of two linear components (GTCG §10.8.3), and GJK's simplices in the
Minkowski difference A - B (van den Bergen §4.3) for pairs whose distance GJK answers.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any, Optional

import numpy as np

AXES = "xyz"
CANDIDATE = "#1565c0"
CHOSEN = "#e65100"
GOOD = "#2e7d32"
BAD = "#c62828"


@dataclass(frozen=True)
class Mark:
    """Something to draw: ``kind`` ``"point"``, ``"segment"`` (2 points), ``"quad"`` (4
    corners), ``"label"`` (1 point), ``"shape"`` (the primitive ``shape`` as a ghost, its
    label at ``points[0]``), ``"triangles"`` (3 corners a triangle, semi-transparent) or
    ``"hull"`` (the convex hull of the points, faint), in ``color``, with optional
    ``text``."""

    kind: str
    points: tuple
    color: str = CANDIDATE
    text: str = ""
    #: the primitive a ``"shape"`` mark draws (an object placed at a step's time)
    shape: Any = None


@dataclass(frozen=True)
class Step:
    line: int  # index into the listing
    text: str
    marks: tuple = ()


@dataclass(frozen=True)
class Walkthrough:
    title: str
    source: str
    listing: tuple
    steps: tuple = field(default_factory=tuple)


def _g(x) -> str:
    """Enough digits to tell candidates apart (six significant)."""
    x = float(x) + 0.0  # no "-0"
    return f"{x:.6g}"


def _p(v) -> str:
    return "(" + ", ".join(_g(c) for c in v) + ")"


# ----------------------------------------------------------------------------- Woo (A.18)

WOO_LISTING = (
    "inside = true",
    "for axis i: o_i < min_i -> t_i = (min_i - o_i) / d_i",
    "            o_i > max_i -> t_i = (max_i - o_i) / d_i",
    "            else: no candidate on i",
    "            front plane not reached -> miss",
    "if inside: hit at t = 0",
    "which = the axis of the largest t_i",
    "other axes j: o_j + t d_j in [min_j, max_j]? else miss",
    "hit at t_which, normal of that plane",
)


def _face(box, i: int, side: str) -> tuple:
    """The 4 corners of the face of ``box`` on axis ``i`` at ``side`` (``"min"``/``"max"``)."""
    lo, hi = np.asarray(box.min, float), np.asarray(box.max, float)
    j, k = [a for a in range(3) if a != i]
    v = lo[i] if side == "min" else hi[i]
    out = []
    for cj, ck in ((lo[j], lo[k]), (hi[j], lo[k]), (hi[j], hi[k]), (lo[j], hi[k])):
        p = np.zeros(3)
        p[i], p[j], p[k] = v, cj, ck
        out.append(tuple(p))
    return tuple(out)


def _linear(prim):
    if prim.kind == "segment":
        o = np.asarray(prim.p0, float)
        return o, np.asarray(prim.p1, float) - o
    return np.asarray(prim.origin, float), np.asarray(prim.direction, float)


def woo(answer, a, b) -> Optional[Walkthrough]:
    """Woo's test on a linear ``a`` against the aabb ``b``, from the hits record's trace."""
    rec = answer.records.hits
    if rec is None or "woo" not in (rec.method or "").lower() or b.kind != "aabb":
        return None
    tr = rec.trace
    o, d = _linear(a)
    lo, hi = np.asarray(b.min, float), np.asarray(b.max, float)
    steps: list[Step] = [Step(0, f"Start with inside = true. The ray: o = {_p(o)}, "
                                 f"d = {_p(d)}; the box [{_p(lo)}, {_p(hi)}].")]
    cands = tr.get("candidate planes") or []
    rejected = tr.get("rejected") or ""
    found = []
    for i in range(3):
        ax = AXES[i]
        c = cands[i] if i < len(cands) else None
        if c is None:  # the loop stopped at this axis: a front plane never reached
            side = "min" if o[i] < lo[i] else "max"
            away = "moves away from it" if (d[i] <= 0 if side == "min" else d[i] >= 0) \
                else "does not reach it within its length"
            marks = [Mark("quad", _face(b, i, side), BAD, f"{side} {ax}: never reached")]
            text = (f"Axis {ax}: o_{ax} = {_g(o[i])} is {'below' if side == 'min' else 'above'} "
                    f"{side}_{ax} = {_g(lo[i] if side == 'min' else hi[i])}, and the ray "
                    f"{away} (d_{ax} = {_g(d[i])}): it never enters the {ax} slab, so it "
                    "misses the box.")
            for fi, fc in found:  # where it does cross a candidate plane, and what falls out
                t = float(fc["t"])
                x = o + t * d
                out = [AXES[j] for j in range(3) if j != fi and not (lo[j] <= x[j] <= hi[j])]
                fside = fc["plane"].split()[0]
                marks.append(Mark("quad", _face(b, fi, fside), CANDIDATE, ""))
                marks.append(Mark("point", (tuple(x),), BAD,
                                  f"t = {_g(t)}: {', '.join(out) or 'inside'} outside"))
                if out:
                    j = AXES.index(out[0])
                    text += (f" At its crossing of {fc['plane']} (t = {_g(t)}) the point "
                             f"{_p(x)} has {out[0]} = {_g(x[j])} outside "
                             f"[{_g(lo[j])}, {_g(hi[j])}].")
            steps.append(Step(4, text, tuple(marks)))
            return Walkthrough("Ray against a box: Woo", "Dunn & Parberry App. A.18, Listing A.6",
                               WOO_LISTING, tuple(steps))
        if c.get("plane") is None:
            steps.append(Step(3, f"Axis {ax}: o_{ax} = {_g(o[i])} lies in [{_g(lo[i])}, "
                                 f"{_g(hi[i])}]: no front plane on {ax}."))
            continue
        side = c["plane"].split()[0]
        t = float(c["t"])
        x = o + t * d
        found.append((i, c))
        steps.append(Step(1 if side == "min" else 2,
                          f"Axis {ax}: front plane {c['plane']}, t_{ax} = {_g(t)} (the ray "
                          f"crosses it at {_p(x)}); inside = false.",
                          (Mark("quad", _face(b, i, side), CANDIDATE, f"{c['plane']}"),
                           Mark("point", (tuple(x),), CANDIDATE, f"t = {_g(t)}"))))
    if tr.get("inside"):
        steps.append(Step(5, "Every coordinate lies in its slab: the origin is inside the box, "
                             "first_t = 0."))
        return Walkthrough("Ray against a box: Woo", "Dunn & Parberry App. A.18, Listing A.6",
                           WOO_LISTING, tuple(steps))
    chosen = tr.get("chosen")
    if chosen is None:
        steps.append(Step(4, f"Miss: {rejected}."))
        return Walkthrough("Ray against a box: Woo", "Dunn & Parberry App. A.18, Listing A.6",
                           WOO_LISTING, tuple(steps))
    i = AXES.index(chosen["axis"])
    t = float(chosen["t"])
    x = o + t * d
    others = ", ".join(f"{fc['plane']} {_g(fc['t'])}" for _fi, fc in found)
    side = chosen["plane"].split()[0]
    steps.append(Step(6, f"The largest t wins: {chosen['plane']} at t = {_g(t)} (candidates: "
                         f"{others}). A ray inside all three slabs has crossed every front "
                         "plane, so it enters at the last crossing.",
                      (Mark("quad", _face(b, i, side), CHOSEN, f"chosen: {chosen['plane']}"),
                       Mark("point", (tuple(x),), CHOSEN, f"t = {_g(t)}"))))
    checks, bad = [], None
    for j in range(3):
        if j == i:
            continue
        ok = lo[j] <= x[j] <= hi[j]
        checks.append(f"{AXES[j]} = {_g(x[j])} {'in' if ok else 'NOT in'} "
                      f"[{_g(lo[j])}, {_g(hi[j])}]")
        if not ok and bad is None:
            bad = AXES[j]
    marks = (Mark("quad", _face(b, i, side), GOOD if bad is None else BAD, "face rectangle"),
             Mark("point", (tuple(x),), GOOD if bad is None else BAD,
                  "inside the face" if bad is None else f"{bad} outside"))
    steps.append(Step(7, "Is the crossing point inside the face rectangle? " + "; ".join(checks)
                      + (". Yes." if bad is None else
                         f". No: {bad} falls outside, so the ray misses the box."), marks))
    if bad is None:
        n = np.zeros(3)
        n[i] = -1.0 if side == "min" else 1.0
        size = float(np.max(hi - lo)) or 1.0
        steps.append(Step(8, f"Hit at t = {_g(t)}, point {_p(x)}, normal {_p(n)}.",
                          (Mark("point", (tuple(x),), GOOD, f"hit t = {_g(t)}"),
                           Mark("segment", (tuple(x), tuple(x + 0.4 * size * n)), GOOD,
                                "normal"))))
    return Walkthrough("Ray against a box: Woo", "Dunn & Parberry App. A.18, Listing A.6",
                       WOO_LISTING, tuple(steps))


# ----------------------------------------------------------------------------- Arvo (11.12.8)

ARVO_LISTING = (
    "d2 = 0",
    "for axis i: c_i < min_i -> d2 += (c_i - min_i)^2, q_i = min_i",
    "            c_i > max_i -> d2 += (c_i - max_i)^2, q_i = max_i",
    "            else: q_i = c_i (no term)",
    "intersects = d2 <= r^2",
)


def arvo(answer, a, b) -> Optional[Walkthrough]:
    """Arvo's per-axis clamp for a sphere ``a`` against an aabb ``b``."""
    if a.kind != "sphere" or b.kind != "aabb":
        return None
    rec = answer.records.distance
    per_axis = (rec.trace.get("per_axis") if rec is not None else None) or []
    if len(per_axis) != 3:
        return None
    c = np.asarray(a.center, float)
    r = float(a.radius)
    q = c.copy()
    total = 0.0
    steps = [Step(0, f"The centre c = {_p(c)}, r = {_g(r)}: start with d2 = 0 and walk the "
                     "axes, clamping c into the box.")]
    for p in per_axis:
        i = int(p["axis"])
        q[i] = float(p["q"])
        total += float(p["term"])
        line = {"below min": 1, "above max": 2}.get(p["where"], 3)
        words = {1: f"c_{AXES[i]} = {_g(p['c'])} < min = {_g(p['min'])}: q_{AXES[i]} = min, "
                    f"term {_g(p['term'])}",
                 2: f"c_{AXES[i]} = {_g(p['c'])} > max = {_g(p['max'])}: q_{AXES[i]} = max, "
                    f"term {_g(p['term'])}",
                 3: f"c_{AXES[i]} = {_g(p['c'])} in [{_g(p['min'])}, {_g(p['max'])}]: "
                    f"q_{AXES[i]} = c_{AXES[i]}, no term"}[line]
        steps.append(Step(line, f"Axis {AXES[i]}: {words}; d2 = {_g(total)}.",
                          (Mark("segment", (tuple(c), tuple(q)), CANDIDATE,
                                f"q so far {_p(q)}"),
                           Mark("point", (tuple(q),), CANDIDATE, ""))))
    ok = answer.intersects
    steps.append(Step(4, f"d2 = {_g(total)} {'<=' if total <= r * r else '>'} r^2 = {_g(r * r)}"
                         f": {'they intersect' if ok else 'they do not intersect'}; the "
                         f"distance is {_g(max(0.0, math.sqrt(total) - r))}.",
                      (Mark("segment", (tuple(c), tuple(q)), GOOD if ok else BAD,
                            f"|c - q| = {_g(math.sqrt(total))}"),
                       Mark("point", (tuple(q),), GOOD if ok else BAD, "closest point q"))))
    return Walkthrough("Sphere against a box: Arvo", "Eberly & Schneider, GTCG §11.12.8",
                       ARVO_LISTING, tuple(steps))


# ----------------------------------------------------------------------------- Hultquist (A.12)

HULTQUIST_LISTING = (
    "e = c - p0;  d = unit direction",
    "a = e . d   (the centre's foot along the ray)",
    "f^2 = r^2 - e^2 + a^2",
    "if f^2 < 0: the line misses the sphere",
    "t = a - f   (entry)",
)


def hultquist(answer, a, b) -> Optional[Walkthrough]:
    """Hultquist's ray-sphere for a linear ``a`` against a sphere ``b``."""
    if b.kind != "sphere" or a.kind not in ("ray", "segment", "line"):
        return None
    o, d = _linear(a)
    nd = float(np.linalg.norm(d))
    if nd == 0:
        return None
    u = d / nd
    c = np.asarray(b.center, float)
    r = float(b.radius)
    e = c - o
    aa = float(e @ u)
    f2 = r * r - float(e @ e) + aa * aa
    foot = o + aa * u
    steps = [Step(0, f"e = c - p0 = {_p(e)}, |e|^2 = {_g(e @ e)}, d = {_p(u)}.",
                  (Mark("segment", (tuple(o), tuple(c)), CANDIDATE, "e"),)),
             Step(1, f"a = e . d = {_g(aa)}: the foot of the centre on the line is {_p(foot)}.",
                  (Mark("point", (tuple(foot),), CANDIDATE, f"a = {_g(aa)}"),
                   Mark("segment", (tuple(foot), tuple(c)), CANDIDATE,
                        f"b = {_g(math.sqrt(max(0.0, float(e @ e) - aa * aa)))}"))),
             Step(2, f"f^2 = r^2 - e^2 + a^2 = {_g(r * r)} - {_g(e @ e)} + {_g(aa * aa)} "
                     f"= {_g(f2)}.")]
    if f2 < 0:
        steps.append(Step(3, f"f^2 = {_g(f2)} < 0: the line passes "
                             f"{_g(math.sqrt(float(e @ e) - aa * aa))} from the centre, more "
                             f"than r = {_g(r)}: it misses the sphere.",
                          (Mark("segment", (tuple(foot), tuple(c)), BAD, "b > r"),)))
    elif aa + math.sqrt(f2) < 0 and a.kind != "line":
        steps.append(Step(4, f"f = {_g(math.sqrt(f2))}: the line crosses the sphere at "
                             f"a - f = {_g(aa - math.sqrt(f2))} and a + f = "
                             f"{_g(aa + math.sqrt(f2))}, both behind the origin: the "
                             f"{a.kind} misses the sphere.",
                          (Mark("point", (tuple(o + (aa + math.sqrt(f2)) * u),), BAD,
                                "behind the origin"),)))
    elif a.kind == "segment" and aa - math.sqrt(f2) > nd:
        steps.append(Step(4, f"The line enters the sphere at a - f = {_g(aa - math.sqrt(f2))}, "
                             f"beyond the segment's length {_g(nd)}: the segment misses it.",
                          (Mark("point", (tuple(o + (aa - math.sqrt(f2)) * u),), BAD,
                                "beyond p1"),)))
    else:
        f = math.sqrt(f2)
        t = aa - f
        x = o + t * u
        steps.append(Step(4, f"t = a - f = {_g(aa)} - {_g(f)} = {_g(t)} along the unit "
                             f"direction ({_g(t / nd)} in the object's own parameter): the "
                             f"entry point {_p(x)}.",
                          (Mark("point", (tuple(x),), GOOD, f"t = {_g(t / nd)}"),)))
    return Walkthrough("Ray against a sphere: Hultquist", "Dunn & Parberry App. A.12",
                       HULTQUIST_LISTING, tuple(steps))


# ----------------------------------------------------------------------------- Badouel (A.16)

BADOUEL_LISTING = (
    "e1 = v1 - v0;  e2 = v2 - v0;  n = e1 x e2",
    "dot = n . d;  if dot == 0: parallel (miss unless in the plane)",
    "t = (n . v0 - n . o) / dot;  if t < 0 (or past the end): miss",
    "p = o + t d;  drop the axis where |n| is largest -> 2-D (u, v)",
    "alpha, beta, gamma from the 2-D edges",
    "all of alpha, beta, gamma >= 0: hit (barycentrics)",
)


def badouel(answer, a, b) -> Optional[Walkthrough]:
    """Badouel's ray-triangle (App. A.16, Listing A.4), from the hits record's trace."""
    rec = answer.records.hits
    if rec is None or "badouel" not in (rec.method or "").lower() or b.kind != "triangle":
        return None
    tr = rec.trace
    v = np.asarray(b.vertices, float)
    o, d = _linear(a)
    title, src = "Ray against a triangle: Badouel", "Dunn & Parberry App. A.16, Listing A.4"
    steps = [Step(0, f"e1 = {_p(tr['e1'])}, e2 = {_p(tr['e2'])}, n = e1 x e2 = {_p(tr['n'])}.",
                  (Mark("segment", (tuple(v[0]), tuple(v[1])), CANDIDATE, "e1"),
                   Mark("segment", (tuple(v[0]), tuple(v[2])), CANDIDATE, "e2")))]
    rejected = tr.get("rejected")
    if tr.get("parallel"):
        steps.append(Step(1, f"dot = n . d = {_g(tr['dot'])}: the ray runs parallel to the "
                             f"triangle's plane; {rejected or 'it lies in the plane'}."))
        return Walkthrough(title, src, BADOUEL_LISTING, tuple(steps))
    steps.append(Step(1, f"dot = n . d = {_g(tr['dot'])}."))
    if "t" not in tr:
        steps.append(Step(2, f"t = {_g(tr['t (before division)'])} / {_g(tr['dot'])} < 0: "
                             f"{rejected or 'miss'}: the plane is behind the origin, a miss."))
        return Walkthrough(title, src, BADOUEL_LISTING, tuple(steps))
    t = float(tr["t"])
    x = o + t * d
    steps.append(Step(2, f"t = {_g(tr['t (before division)'])} / {_g(tr['dot'])} = {_g(t)}: "
                         f"the ray meets the plane at {_p(x)}.",
                      (Mark("quad", (tuple(v[0]), tuple(v[1]), tuple(v[2]), tuple(v[2])),
                            CANDIDATE, ""), Mark("point", (tuple(x),), CANDIDATE,
                                                 f"t = {_g(t)}"))))
    steps.append(Step(3, f"Drop {tr.get('dominant axis dropped')} (the normal's largest "
                         f"component): u = ({_g(tr['u0'])}, {_g(tr['u1'])}, {_g(tr['u2'])}), "
                         f"v = ({_g(tr['v0'])}, {_g(tr['v1'])}, {_g(tr['v2'])})."))
    al, be, ga = (float(tr[k]) for k in ("alpha", "beta", "gamma"))
    bad = [n for n, val in (("alpha", al), ("beta", be), ("gamma", ga)) if val < 0]
    steps.append(Step(4, f"alpha = {_g(al)}, beta = {_g(be)}, gamma = {_g(ga)}."))
    if bad or rejected:
        steps.append(Step(5, f"{', '.join(bad) or rejected} < 0: the point {_p(x)} lies "
                             "outside the triangle, beyond the edge opposite that vertex: a miss.",
                          (Mark("point", (tuple(x),), BAD, f"{', '.join(bad)} < 0"),)))
    else:
        steps.append(Step(5, f"All three >= 0: a hit at t = {_g(t)}, barycentrics "
                             f"({_g(ga)}, {_g(al)}, {_g(be)}).",
                          (Mark("point", (tuple(x),), GOOD, f"hit t = {_g(t)}"),)))
    return Walkthrough(title, src, BADOUEL_LISTING, tuple(steps))


# ----------------------------------------------------------------------------- st-plane (10.8)

STPLANE_LISTING = (
    "Q(s, t) = a s^2 + 2b st + c t^2 + 2d s + 2e t + f",
    "(s_bar, t_bar) = where grad Q = 0   (det = ac - b^2)",
    "its region 0-8 names the edges to try",
    "each candidate edge: the 1-D minimiser, clamped",
    "the least candidate is the answer",
)


def stplane(answer, a, b) -> Optional[Walkthrough]:
    """The st-plane minimisation of two linear components (GTCG §10.8.3), candidate by
    candidate, each drawn as the pair of points it stands for."""
    rec = answer.records.distance
    if rec is None or a.kind not in ("segment", "ray", "line") or \
            b.kind not in ("segment", "ray", "line"):
        return None
    tr = rec.trace
    if "region" not in tr and "candidates" not in tr:
        return None
    o1, d1 = _linear(a)
    o2, d2 = _linear(b)
    steps = [Step(0, f"a = {_g(tr.get('a', 0))}, b = {_g(tr.get('b', 0))}, "
                     f"c = {_g(tr.get('c', 0))}, d = {_g(tr.get('d', 0))}, "
                     f"e = {_g(tr.get('e', 0))}, f = {_g(tr.get('f', 0))}.")]
    if tr.get("s_bar") is not None:
        steps.append(Step(1, f"det = {_g(tr.get('det', 0))}; (s_bar, t_bar) = "
                             f"({_g(tr['s_bar'])}, {_g(tr['t_bar'])})."))
    if isinstance(tr.get("region"), int):
        steps.append(Step(2, f"Region {tr['region']}."))
    def points(s_, t_):
        # the pair of points (s, t) stands for; a parameter beyond the floats (rays 2e-309
        # rad apart crossing at t = 2.2e308, whose points are floats) has none to draw from
        # the parameters: the answer's own closest points stand for the interior one
        if not (math.isfinite(s_) and math.isfinite(t_)):
            return rec.closest if rec.closest is not None else None
        return tuple(o1 + s_ * d1), tuple(o2 + t_ * d2)

    cands = tr.get("candidates") or []
    for c in cands:
        s_, t_ = float(c["s"]), float(c["t"])
        ends = points(s_, t_)
        steps.append(Step(3, f"Candidate on {c.get('edge')}: (s, t) = ({_g(s_)}, {_g(t_)}), "
                             f"Q = {_g(c['sqr_distance'])}.",
                          () if ends is None else
                          (Mark("segment", ends, CANDIDATE,
                                f"{c.get('edge')}: Q = {_g(c['sqr_distance'])}"),)))
    s_, t_ = float(tr.get("s", 0)), float(tr.get("t", 0))
    ends = points(s_, t_)
    steps.append(Step(4, f"The least is on {tr.get('edge', 'the inside')}: s = {_g(s_)}, "
                         f"t = {_g(t_)}, distance "
                         f"{_g(math.sqrt(float(tr.get('sqr_distance', 0))))}.",
                      () if ends is None else
                      (Mark("segment", ends, GOOD, "the closest points"),)))
    return Walkthrough("Two linear components: the st-plane", "Eberly & Schneider, GTCG §10.8.3",
                       STPLANE_LISTING, tuple(steps))


# ----------------------------------------------------------------------------- advancement (A.6)

CA_LISTING = (
    "t = 0",
    "loop: p_A, p_B, d = distance(A(t), B(t))",
    "  if d <= tol: contact at toi = t",
    "  n = (p_B - p_A) / d;  v = -n . motion",
    "  if v <= 0: no contact (d only grows)",
    "  dt = d / v;  t = t + dt",
    "  if t > 1: no contact in [0, 1]",
    "after 64 steps: convex search on [t, 1]",
)
CA_TITLE = "Moving pair: conservative advancement"
CA_SOURCE = "Mirtich; Dunn & Parberry App. A.6 (relative motion)"


def _at(prim, motion, t: float):
    if motion is None or t == 0:
        return prim
    return prim.translated(tuple(float(t) * float(m) for m in motion))


def _ghosts(a, b, motion_a, motion_b, t, pa, pb, color, when) -> tuple:
    """The moving objects placed at ``t`` (a still one is drawn where it is anyway)."""
    out = []
    for name, prim, motion, at in (("A", a, motion_a, pa), ("B", b, motion_b, pb)):
        if motion is not None and any(float(c) != 0 for c in motion):
            out.append(Mark("shape", (tuple(at),), color, f"{name} {when}",
                            shape=_at(prim, motion, t)))
    return tuple(out)


def advancement(answer, a, b, motion_a=None, motion_b=None) -> Optional[Walkthrough]:
    """Conservative advancement on a moving pair, step by step: at each ``t_i`` both objects
    placed at ``t_i`` (ghosts) with the closest-point segment, the closing-speed bound along
    ``n`` and the step ``dt = d / v`` (the relative advance covers the gap along ``n``)."""
    from explorer.present.advancement import advancement_steps

    rows = advancement_steps(answer, a, b, motion_a, motion_b)
    if not rows:
        return None
    from algorithms.kernels.motion import relative_motion

    rel = np.asarray(relative_motion(motion_a, motion_b), dtype=float)
    steps = [Step(0, f"Start at t = 0. A moves by {_p(motion_a or (0, 0, 0))}, B by "
                     f"{_p(motion_b or (0, 0, 0))}: relative to A, B moves by d = {_p(rel)} "
                     f"(A.6). Contact when the distance falls to tol = {_g(rows[0]['tol'])}.")]
    k = 0
    for row in rows:
        t = float(row["t"])
        pa, pb = (np.asarray(p, dtype=float) for p in row["world"])
        ghosts = _ghosts(a, b, motion_a, motion_b, t, pa, pb, CANDIDATE, f"at t = {_g(t)}")
        d = float(row["distance"])
        gap = Mark("segment", (tuple(pa), tuple(pb)), CHOSEN, f"d = {_g(d)}")
        phase = row["phase"]
        if phase == "toi":
            steps.append(Step(1, f"t = {_g(t)}: the distance query gives d = {_g(d)}, "
                                 f"p_A = {_p(pa)}, p_B = {_p(pb)}.", ghosts + (gap,)))
            steps.append(Step(2, f"d = {_g(d)} <= tol: contact at toi = {_g(t)} after {k} "
                                 "advancement step" + ("s" if k != 1 else "") +
                                 " (a last Newton step polishes d to 0).",
                              _ghosts(a, b, motion_a, motion_b, t, pa, pb, GOOD,
                                      f"at toi = {_g(t)}")
                              + (Mark("point", (tuple(pa),), GOOD, "contact"),)))
            continue
        if phase == "end":
            steps.append(Step(6, f"t would pass 1; at t = 1 the distance is still d = {_g(d)} "
                                 "> tol: no contact in [0, 1].",
                              tuple(Mark(m.kind, m.points, BAD, m.text, m.shape)
                                    for m in ghosts) + (gap,)))
            continue
        if phase == "search":
            steps.append(Step(7, f"64 steps reached only t = {_g(t)} (d = {_g(d)}): a grazing "
                                 "contact converges slowly; the convex search finishes on "
                                 "[t, 1].", ghosts + (gap,)))
            continue
        k += 1
        steps.append(Step(1, f"Step {k}: t = {_g(t)}. The distance query gives d = {_g(d)}, "
                             f"p_A = {_p(pa)}, p_B = {_p(pb)}.", ghosts + (gap,)))
        n = np.asarray(row["normal"], dtype=float)
        v = float(row["closing_speed"])
        size = max(d, 1e-9)
        steps.append(Step(3, f"n = {_p(n)}; the closing-speed bound v = -n . d = {_g(v)}: "
                             "along n, B gains on A at most this fast.",
                          ghosts + (gap, Mark("segment", (tuple(pa), tuple(pa + n * size)),
                                              CANDIDATE, f"n, v = {_g(v)}"))))
        if row.get("dt") is None:
            steps.append(Step(4, f"v = {_g(v)} <= 0: B moves away along n; the distance "
                                 "(convex in t) only grows from here: no contact.",
                              tuple(Mark(m.kind, m.points, BAD, m.text, m.shape)
                                    for m in ghosts) + (gap,)))
            continue
        dt, t_next = float(row["dt"]), float(row["t_next"])
        # the moving one's advance relative to the other: it covers the gap along n, no more
        b_still = motion_b is None or not any(float(c) for c in motion_b)
        who, start, step = ("A", pa, -dt * rel) if b_still else ("B", pb, dt * rel)
        words = (f"dt = d / v = {_g(d)} / {_g(v)} = {_g(dt)}; t = {_g(t)} + {_g(dt)} = "
                 f"{_g(t_next)}. {who}'s advance relative to {'B' if who == 'A' else 'A'}, "
                 f"{_p(step)}, closes d along n and no more, so it cannot pass the contact.")
        if t_next > 1:
            words += " That is past t = 1."
        steps.append(Step(5, words, ghosts + (gap, Mark("segment", (tuple(start),
                                                                    tuple(start + step)),
                                                        GOOD, f"dt = {_g(dt)}"))))
    return Walkthrough(CA_TITLE, CA_SOURCE, CA_LISTING, tuple(steps))



# ----------------------------------------------------------------------------- GJK (§4.3)

GJK_LISTING = (
    "v = c_A - c_B;  W = {v}",
    "w = s_A(-v) - s_B(v)",
    "if |v|^2 - v.w <= tol |v|^2: stop",
    "W = W + {w}",
    "v = nearest 0 in conv(W); shrink W",
    "if |W| = 4: overlap",
    "distance = |v| - r_A - r_B",
)
MINKOWSKI = "#7e57c2"
ORIGIN = "#212121"
SIMPLEX = "#00897b"
GJK_SOURCE = "Gilbert, Johnson & Keerthi 1988; van den Bergen, Collision Detection §4.3"


def _gjk_trace(answer, a, b):
    """The GJK trace that answered the pair's distance (``algorithms.traces.GjkTrace``) and the
    two shapes GJK ran on (cores: a sphere's centre, a capsule's segment), or ``None``."""
    rec = answer.records.distance
    if rec is None:
        return None
    tr = rec.trace or {}
    if tr.get("algorithm") == "GJK" and tr.get("steps") is not None:
        from algorithms.kernels.gjk import core_primitive

        return tr, core_primitive(a)[0], core_primitive(b)[0]
    if a.kind == "cylinder" and b.kind == "cylinder" and "gjk" in (rec.method or "").lower():
        from algorithms.queries.cylinder_cylinder import gjk_trace

        tr = gjk_trace(a, b)  # decide() records nothing: run its GJK again, recording
        return None if tr is None else (tr, a, b)
    return None


def _directions(n: int = 300) -> np.ndarray:
    """``n`` unit vectors spread evenly (a Fibonacci sphere)."""
    k = np.arange(n) + 0.5
    z = 1 - 2 * k / n
    phi = k * math.pi * (3 - math.sqrt(5))
    r = np.sqrt(1 - z * z)
    return np.stack([r * np.cos(phi), r * np.sin(phi), z], axis=1)


def minkowski_points(ca, cb, n: int = 300, extra=()) -> np.ndarray:
    """Support points of ``A - B`` (``s_A(d) - s_B(-d)``) in ``n`` directions plus the
    coordinate axes and diagonals (where boxes have their vertices), and the points ``extra``
    (GJK's own support points, so that every ``w`` lies on the drawing): their convex hull is
    the drawn Minkowski difference."""
    from algorithms.kernels.support import support

    dirs = list(_directions(n)) + list(np.eye(3)) + list(-np.eye(3))
    for sx in (-1.0, 1.0):
        for sy in (-1.0, 1.0):
            for sz in (-1.0, 1.0):
                dirs.append(np.array([sx, sy, sz]))
    pts = [support(ca, d) - support(cb, -d) for d in dirs]
    pts += [np.asarray(p, dtype=float) for p in extra]
    return np.unique(np.round(np.array(pts), 12), axis=0)


def _offset(hull: np.ndarray, a, b) -> np.ndarray:
    """Where to draw the origin of ``A - B``: the world origin when the drawing stays clear of
    the two shapes, else shifted along x past them."""
    from algorithms.kernels.support import support

    pair = np.array([support(p, d) for p in (a, b)
                     for d in (np.eye(3).tolist() + (-np.eye(3)).tolist())])
    lo, hi = pair.min(axis=0), pair.max(axis=0)
    hlo, hhi = hull.min(axis=0), hull.max(axis=0)
    gap = 0.15 * float(np.max(np.maximum(hi - lo, hhi - hlo)))
    if np.any(hhi < lo - gap) or np.any(hlo > hi + gap):
        return np.zeros(3)
    return np.array([hi[0] + gap - hlo[0], 0.0, 0.0])


def _simplex_marks(W, O, color=SIMPLEX, label=""):
    """Points, edges and faces of the simplex ``W`` (points of A - B) drawn at origin ``O``."""
    P = [tuple(np.asarray(w, float) + O) for w in W]
    marks = [Mark("point", (p,), color, label if k == 0 else "") for k, p in enumerate(P)]
    for i in range(len(P)):
        for j in range(i + 1, len(P)):
            marks.append(Mark("segment", (P[i], P[j]), color, ""))
    if len(P) >= 3:
        tris = [P[i] for t in ((0, 1, 2), (0, 1, 3), (0, 2, 3), (1, 2, 3)) if max(t) < len(P)
                for i in t]
        marks.append(Mark("triangles", tuple(tris), color, ""))
    return marks


def _v_mark(v, O, text):
    return Mark("segment", (tuple(O), tuple(O + np.asarray(v, float))), CHOSEN, text)


def _vec(v, nd: int = 4) -> str:
    return "(" + ", ".join(f"{float(c) + 0.0:.{nd}g}" for c in v) + ")"


def gjk(answer, a, b) -> Optional[Walkthrough]:
    """GJK's iterations on the Minkowski difference ``A - B`` (van den Bergen §4.3): each
    step's simplex, search direction, support point and the simplex's point nearest the
    origin, read from the run's :class:`algorithms.traces.GjkTrace` (the distance record's
    own for the generic method, the cylinder query's recorded run for two cylinders)."""
    got = _gjk_trace(answer, a, b)
    if got is None:
        return None
    tr, ca, cb = got
    hull = minkowski_points(ca, cb, extra=[st["w"] for st in tr.get("steps") or ()])
    O = _offset(hull, a, b)
    where = ("at the origin" if not O.any() else
             f"beside the shapes, its origin 0 at {_p(O)}")
    base = [Mark("hull", tuple(map(tuple, hull + O)), MINKOWSKI, "A - B"),
            Mark("point", (tuple(O),), ORIGIN, "origin 0")]
    ra, rb = float(tr.get("radius_a", 0.0)), float(tr.get("radius_b", 0.0))
    cores = ""
    if ra or rb:
        cores = (f" GJK runs on the cores (a sphere's centre, a capsule's segment) and "
                 f"subtracts r_A + r_B = {_g(ra + rb)} at the end.")
    raw = list(tr.get("steps") or [])
    steps_out: list[Step] = []
    v0 = raw[0]["v"] if raw else (tr.get("simplex") or {}).get("w", [[0, 0, 0]])[0]
    W = [v0]
    steps_out.append(Step(0, f"Start at v = c_A - c_B = {_p(v0)} (|v| = "
                             f"{_g(np.linalg.norm(v0))}), a point of the Minkowski difference "
                             f"A - B, drawn {where}. W = {{v}}.{cores}",
                          tuple(base + _simplex_marks(W, O, label="W")
                                + [_v_mark(v0, O, "v")])))
    for k, st in enumerate(raw, start=1):
        v = np.asarray(st["v"], float)
        w = np.asarray(st["w"], float)
        vv = float(v @ v)
        vn = math.sqrt(vv)
        ndir = -v / vn if vn > 0 else v
        reach = 0.5 * float(np.max(hull.max(axis=0) - hull.min(axis=0)))
        marks = base + _simplex_marks(W, O, label="W") + [
            _v_mark(v, O, ""),
            Mark("segment", (tuple(O + v), tuple(O + v + reach * ndir)), CANDIDATE,
                 "search -v"),
            Mark("point", (tuple(O + w),), CANDIDATE, "w"),
            Mark("point", (tuple(st["support_a"]),), CANDIDATE, "s_A(-v)"),
            Mark("point", (tuple(st["support_b"]),), CANDIDATE, "s_B(v)")]
        steps_out.append(Step(1, f"Iteration {k}: search along -v = {_vec(-v)}. The support "
                                 f"points are s_A(-v) = {_p(st['support_a'])} on A and "
                                 f"s_B(v) = {_p(st['support_b'])} on B, so w = "
                                 f"{_p(w)} is the point of A - B farthest along -v."
                                 + (" (Retried along a tilted v: the first query stalled.)"
                                    if st.get("retried") else "")
                                 + (" (The first query stalled on a tie: w is the pair of "
                                    "vertices extreme to v's rounding that shrinks v most.)"
                                    if st.get("tie_break") else ""), tuple(marks)))
        gap = float(st["gap"])
        stop = "simplex" not in st
        tol = float(tr.get("tol", 0.0))
        if stop:
            why = {"converged (gap)": f"gap {_g(gap)} <= tol |v|^2 = {_g(tol * vv)} (or the "
                                      "rounding floor): stop, |v| is the distance of the "
                                      "shapes GJK ran on"}.get(
                tr.get("termination", ""),
                f"w adds nothing ({tr.get('termination')}): stop")
            steps_out.append(Step(2, f"|v|^2 - v.w = {_g(gap)}; lower bound v.w/|v| = "
                                     f"{_g(st['lower_bound'])}, upper bound |v| = {_g(vn)}: "
                                     f"{why}.",
                                  tuple(base + _simplex_marks(W, O, label="W")
                                        + [_v_mark(v, O, f"v, length {_g(vn)}"),
                                           Mark("point", (tuple(O + w),), CANDIDATE, "w")])))
            break
        low = float(st["lower_bound"])
        bounds = (f"the distance lies between v.w/|v| = {_g(low)} and |v| = {_g(vn)}"
                  if low > 0 else
                  f"v.w/|v| = {_g(low)} <= 0 proves no gap yet, |v| = {_g(vn)} bounds the "
                  "distance above")
        steps_out.append(Step(2, f"|v|^2 - v.w = {_g(gap)} > tol |v|^2 = {_g(tol * vv)}: "
                                 f"{bounds}; go on.", tuple(marks)))
        grown = W + [st["w"]]
        W = st["simplex"]
        lam = [float(x) for x in st["lambda"]]
        nv = np.sum([l * np.asarray(p, float) for l, p in zip(lam, W)], axis=0)
        face = {1: "a vertex", 2: "an edge", 3: "a triangle", 4: "the tetrahedron"}[len(W)]
        steps_out.append(Step(4, f"W + {{w}} has {len(grown)} points. The point of their hull "
                                 f"nearest the origin is v = {_p(nv)}, |v| = "
                                 f"{_g(np.linalg.norm(nv))}, on {face}: W keeps {len(W)} "
                                 f"point{'s' if len(W) > 1 else ''}, lambda = "
                                 f"({', '.join(_g(x) for x in lam)}).",
                              tuple(base + _simplex_marks(grown, O, CANDIDATE, "")
                                    + _simplex_marks(W, O, label="W")
                                    + [_v_mark(nv, O, f"v, length {_g(np.linalg.norm(nv))}")])))
        if len(W) == 4:
            steps_out.append(Step(5, "W is a tetrahedron holding the origin: 0 is inside A - B, "
                                     "so A and B overlap (distance 0).",
                                  tuple(base + _simplex_marks(W, O, BAD, "W"))))
            break
        if k == len(raw) and str(tr.get("termination", "")).startswith("overlap"):
            steps_out.append(Step(5, f"v = {_p(nv)} is the origin (within rounding): 0 lies in "
                                     "conv(W), inside A - B, so A and B overlap or touch "
                                     "(distance 0).",
                                  tuple(base + _simplex_marks(W, O, BAD, "W"))))
    simplex = tr.get("simplex") or {}
    dist = answer.distance
    pa, pb = (answer.closest or (None, None))
    final = list(base + _simplex_marks(simplex.get("w", W), O, label="W"))
    lam = simplex.get("lambda") or []
    vfin = np.sum([float(l) * np.asarray(p, float) for l, p in zip(lam, simplex.get("w", []))],
                  axis=0) if lam else np.zeros(3)
    if pa is not None and pb is not None:
        final.append(Mark("segment", (tuple(pa), tuple(pb)), GOOD,
                          f"distance {_g(dist)}"))
    final.append(_v_mark(vfin, O, f"v, length {_g(np.linalg.norm(vfin))}"))
    its = int(tr.get("iterations") or 0)
    text = (f"Stopped after {its} iteration{'' if its == 1 else 's'} "
            f"({tr.get('termination')}). "
            f"|v| = {_g(np.linalg.norm(vfin))}")
    if ra or rb:
        text += f", minus r_A + r_B = {_g(ra + rb)}"
    text += (f"; the pair's distance is {_g(dist)}"
             + (f", closest points {_p(pa)} on A and {_p(pb)} on B." if pa is not None else "."))
    if tr.get("source"):
        text += f" (This run: {tr['source']}.)"
    steps_out.append(Step(6, text, tuple(final)))
    return Walkthrough("Convex shapes: GJK on the Minkowski difference A - B", GJK_SOURCE,
                       GJK_LISTING, tuple(steps_out))


FAMILIES = (woo, arvo, hultquist, badouel, stplane, gjk)


def walkthrough(answer, a, b, motions=None) -> Optional[Walkthrough]:
    """The step-through of the pair's algorithm, or ``None`` when there is none yet.

    ``motions``: ``(motion_a, motion_b)`` of a moving pair; one answered by conservative
    advancement steps through that (:func:`advancement`)."""
    if motions is not None and any(m is not None for m in motions):
        w = advancement(answer, a, b, *motions)
        if w is not None:
            return w
    for family in FAMILIES:
        w = family(answer, a, b)
        if w is not None:
            return w
    return None
