"""The explain text (no Qt): the method, its source and the steps it took, with the current
numbers. The Qt panel is :mod:`explorer.qt.panels.explain`.

Numbers carry six significant digits, more where a list (the st-plane's candidates, Woo's
planes) would otherwise show two different values alike; the region sentence of the st-plane
never contradicts the chosen candidate (nearly parallel segments try every edge, and it says
so); a miss says why (Woo: the slab never entered or the coordinate outside the face, from the
step-through of :mod:`explorer.present.steps`; Hultquist: ``f^2 < 0``).

One text template per method family, in a table (:data:`TEMPLATES`) keyed by a method-name
fragment and/or the pair's kinds, not an ``isinstance`` ladder. A template is a list of steps; a
step is a sentence with ``{path}`` placeholders into the result (``{distance}``,
``{trace.region}``, ``{trace.toi.t_enter}``), or ``("each", list_path, sentence)`` repeated for
every item of a list in the trace (Arvo's per-axis terms, Woo's candidate planes, the
separating-axis candidates...). A placeholder whose value is missing makes its step drop out,
so a template never shows "None" for a trace that has not got that key. Every family is shown
whose key matches, then the remaining top-level trace numbers.

Sources: Eberly & Schneider, GTCG §10.8 (st-plane regions), §11.12.7-11.12.9 (separating
axes, Arvo, cylinders); Dunn & Parberry, 3D Math Primer, App. A.13, A.15, A.17, A.18 (Woo);
Boreskov, bounding volumes, Fig. 3.9 (the AABB corner picked by the plane normal's signs).
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import Optional, Union

import numpy as np

Step = Union[str, tuple]


def fmt(x, digits: int = 6, none: str = "—", vector_digits: int | None = None) -> str:
    """A number for people: ``None`` -> ``none``, floats with ``digits`` significant digits,
    vectors component by component (with ``vector_digits``, default ``digits``)."""
    if x is None:
        return none
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, (int, np.integer)):
        return str(int(x))
    if isinstance(x, (float, np.floating)):
        x = float(x)
        if x != x:
            return "nan"
        if x in (float("inf"), float("-inf")):
            return "∞" if x > 0 else "-∞"
        if x == 0:
            return "0"
        return f"{x:.{digits}g}"
    if isinstance(x, (list, tuple, np.ndarray)):
        vd = digits if vector_digits is None else vector_digits
        return "(" + ", ".join(fmt(v, vd, none) for v in x) + ")"
    return str(x)


def distinct_digits(values, start: int = 6, most: int = 15) -> int:
    """The fewest significant digits (at least ``start``) that print different numbers of
    ``values`` differently."""
    nums = [float(v) for v in values if isinstance(v, (int, float)) and not isinstance(v, bool)]
    for d in range(start, most + 1):
        if len({f"{v:.{d}g}" for v in nums}) == len(set(nums)):
            return d
    return most


@dataclass(frozen=True)
class Template:
    """A method family's explanation: shown when ``method`` contains ``method_has`` (any of, case
    folded) or the pair is one of ``pairs`` (unordered, ``"aabb-ray"`` style)."""

    title: str
    source: str
    steps: tuple
    method_has: tuple = ()
    pairs: tuple = ()
    needs: str = ""  # a result path that must exist (e.g. "trace.toi.axes")
    exclude_pairs: tuple = ()

    def matches(self, result: dict) -> bool:
        if self.needs and lookup(result, self.needs) is None:
            return False
        kinds = "-".join(sorted(str(result.get("pair") or "").split("-")))
        if kinds in {"-".join(sorted(p.split("-"))) for p in self.exclude_pairs}:
            return False
        if not self.method_has and not self.pairs:
            return bool(self.needs)
        method = (result.get("method") or "").lower()
        if any(h.lower() in method for h in self.method_has):
            return True
        kinds = str(result.get("pair") or "").split("-")
        return "-".join(sorted(kinds)) in {"-".join(sorted(p.split("-"))) for p in self.pairs}


REGION_WORDS = {
    0: "inside the domain: both closest points are interior, no clamping",
    1: "beyond s = 1: the minimum lies on the edge s = 1 (A's end P1)",
    2: "beyond s = 1 and t = 1: the minimum lies on the edge s = 1 or t = 1, picked by the "
       "signs of Q_s(1, 1) and Q_t(1, 1)",
    3: "beyond t = 1: the minimum lies on the edge t = 1 (B's end)",
    4: "before s = 0 and beyond t = 1: on the edge s = 0 or t = 1",
    5: "before s = 0: the minimum lies on the edge s = 0 (A's start)",
    6: "before s = 0 and t = 0: on the edge s = 0 or t = 0",
    7: "before t = 0: the minimum lies on the edge t = 0 (B's start)",
    8: "beyond s = 1 and before t = 0: on the edge s = 1 or t = 0",
}

#: the edges of the unit square each region's minimum is looked for on (Eberly Fig. 10.36)
REGION_EDGES = {1: {"s=1"}, 2: {"s=1", "t=1"}, 3: {"t=1"}, 4: {"s=0", "t=1"}, 5: {"s=0"},
                6: {"s=0", "t=0"}, 7: {"t=0"}, 8: {"s=1", "t=0"}}


def region_sentence(trace: dict) -> str:
    """The region's words, and, when the chosen edge is not one of the region's (nearly parallel
    segments: every edge is tried), what was done instead, so the two never contradict."""
    region = trace.get("region")
    words = REGION_WORDS.get(region, "") if isinstance(region, int) else ""
    edge = trace.get("edge")
    if isinstance(region, int) and region in REGION_EDGES and isinstance(edge, str) \
            and edge.replace(" ", "") not in REGION_EDGES[region]:
        words += (f"; but (s̄, t̄) is far outside the square (det = {fmt(trace.get('det'))}: "
                  f"nearly parallel), so every edge was tried and the least lies on {edge}")
    return words


#: the table: method family -> template (first the specific ones)
TEMPLATES: dict[str, Template] = {
    "st-plane": Template(
        "Closest points of two linear components: the st-plane",
        "Eberly & Schneider, GTCG §10.8.3, Figs. 10.35-10.37",
        (
            "Write the squared distance as Q(s, t) = a s² + 2b st + c t² + 2d s + 2e t + f with "
            "a = {trace.a}, b = {trace.b}, c = {trace.c}, d = {trace.d}, e = {trace.e}, "
            "f = {trace.f} (domain {trace.domain}).",
            "det = ac − b² = |m0 × m1|² = {trace.det}.",
            "The gradient of Q vanishes at (s̄, t̄) = ({trace.s_bar}, {trace.t_bar}), in region "
            "{trace.region}: {region_words}.",
            "The components are parallel (det = 0): Q is least along a whole line, the valley "
            "a s + b t + d = 0; B's ends project to σ0 = {trace.sigma0}, σ1 = {trace.sigma1} on A.",
            ("each", "trace.candidates",
             "Candidate on {edge}: (s, t) = ({s}, {t}), Q = {sqr_distance}."),
            "The least candidate is on {trace.edge}: s = {trace.s}, t = {trace.t}, "
            "Q = {trace.sqr_distance}, so the distance is {distance}.",
        ),
        method_has=("st-plane",),
    ),
    "two rays": Template(
        "The lines of two rays: crossing, parallel, coincident or skew",
        "Dunn & Parberry, 3D Math Primer, App. A.8",
        (
            "Take the lines r1(t1) = p1 + t1 d1 and r2(t2) = p2 + t2 d2 (no range yet): "
            "|d1 × d2|² = {trace.two rays.|d1 x d2|^2}.",
            "They are {trace.two rays.case}.",
            "t1 = ((p2 − p1) × d2) · (d1 × d2) / |d1 × d2|² = {trace.two rays.t1}, "
            "t2 = ((p2 − p1) × d1) · (d1 × d2) / |d1 × d2|² = {trace.two rays.t2}; "
            "r1(t1) and r2(t2) are {trace.two rays.gap} apart.",
            "Within both components' own ranges: {trace.two rays.within}.",
        ),
        needs="trace.two rays.case",
    ),
    "2d lines": Template(
        "Lines in the z = 0 plane as a x + b y = d",
        "Dunn & Parberry, 3D Math Primer, App. A.1 (closest point), A.7 (two lines)",
        (
            "A's line: a x + b y = d with (a, b, d) = {trace.2d lines.line_a} (unit normal).",
            "B's line: (a, b, d) = {trace.2d lines.line_b}.",
            "A.7: denominator a1 b2 − a2 b1 = {trace.2d lines.denominator}; the lines are "
            "{trace.2d lines.case}; x = (b2 d1 − b1 d2) / den, y = (a1 d2 − a2 d1) / den give "
            "{trace.2d lines.point}.",
            "A.1: q' = q + (d − q · n) n, with d − q · n = {trace.2d lines.signed_distance}: "
            "the closest point is {trace.2d lines.point}.",
        ),
        needs="trace.2d lines.section",
    ),
    "woo": Template(
        "Ray against a box: Woo's candidate planes",
        "Dunn & Parberry, 3D Math Primer, App. A.18, Listing A.6 (Woo)",
        (
            "The ray starts inside the box: {trace.hits.inside}.",
            ("each", "trace.hits.candidate planes",
             "On axis {axis}, the candidate plane facing the ray is {plane}, reached at "
             "t = {t}."),
            "The hit, if any, is on the candidate plane farthest along the ray: "
            "{trace.hits.chosen.plane} at t = {trace.hits.chosen.t}; the hit point is then "
            "checked to lie inside the face's rectangle.",
            "First hit parameter: t = {first_t}.",
            "Why it misses: {why_miss}",
        ),
        method_has=("woo",),
    ),
    "hultquist": Template(
        "Ray against a sphere: Hultquist's test",
        "Dunn & Parberry, 3D Math Primer, App. A.12",
        (
            "e = c − p0 = {trace.hits.e} runs from the ray's origin to the centre; "
            "e · e = {trace.hits.e^2} against r² = {trace.hits.r^2} (origin inside: "
            "{trace.hits.inside}).",
            "a = e · d̂ = {trace.hits.a} is how far along the ray the centre projects; "
            "b² = e · e − a² = {trace.hits.b^2} is the squared distance from the centre to the "
            "ray's line.",
            "f² = r² − b² = {trace.hits.f^2}; a negative f² means the line misses. "
            "f = {trace.hits.f}.",
            "The ray enters at distance a − f = {trace.hits.t = a - f} and leaves at a + f = "
            "{trace.hits.a + f} along it; in the ray's own parameter the first hit is "
            "t = {first_t}.",
            "Why it misses: {why_miss}",
        ),
        method_has=("hultquist",),
        needs="trace.hits",
    ),
    "badouel": Template(
        "Ray against a triangle: Badouel's test",
        "Dunn & Parberry, 3D Math Primer, App. A.16, Listing A.4",
        (
            "Edges e1 = {trace.hits.e1}, e2 = {trace.hits.e2}; normal n = e1 × e2 = "
            "{trace.hits.n}; n · d = {trace.hits.dot} (0 would mean parallel; the division "
            "is deferred).",
            "The ray meets the triangle's plane at t = {trace.hits.t} "
            "(numerator {trace.hits.t (before division)}).",
            "Drop the dominant axis of n ({trace.hits.dominant axis dropped}) and solve in 2D "
            "for the barycentric coordinates: α = {trace.hits.alpha}, β = {trace.hits.beta}, "
            "γ = {trace.hits.gamma}.",
            "All three in [0, 1]: the hit point lies inside; first hit t = {first_t}.",
        ),
        method_has=("badouel",),
        needs="trace.hits.e1",
    ),
    "ray plane": Template(
        "Ray against a plane",
        "Dunn & Parberry, 3D Math Primer, App. A.9",
        (
            "d · n = {trace.hits.d.n} (0: the ray runs parallel to the plane).",
            "t = (d − p0 · n) / (d · n) with numerator {trace.hits.d - p0.n}: t = "
            "{trace.hits.t}.",
            "First hit t = {first_t}.",
        ),
        method_has=("A.9",),
        needs="trace.hits.t",
        exclude_pairs=("segment-aabb", "ray-aabb", "line-aabb"),
    ),
    "arvo": Template(
        "Sphere against a box: Arvo's closest point",
        "Eberly & Schneider, GTCG §11.12.8 (Arvo); Dunn & Parberry, App. A.14",
        (
            ("each", "trace.per_axis",
             "Axis {axis}: the centre coordinate {c} is {where} [{min}, {max}]; the closest "
             "box coordinate is {q}, adding {term} to the squared distance."),
            "The squared distance from the centre to the box is {trace.dist_squared}; "
            "compared with r² = {trace.intersects.r_squared}: intersects = {intersects}.",
        ),
        method_has=("arvo",),
    ),
    "primer a10": Template(
        "Box against a plane: the projection interval",
        "Dunn & Parberry, 3D Math Primer, App. A.10, Listing A.2",
        (
            "Project the box on the plane normal: its points reach n · x from minD = "
            "{trace.side.minD} to maxD = {trace.side.maxD}; the plane is n · x = "
            "{trace.side.d}.",
            "Side {side}: 1 when minD > d (all in front), −1 when maxD < d (all behind), 0 "
            "when d lies in [minD, maxD].",
        ),
        needs="trace.side.minD",
    ),
    "boreskov corner": Template(
        "Box against a plane: Boreskov's corner test",
        "Boreskov, bounding volumes, Fig. 3.9",
        (
            "The signs of the normal's components pick one corner, {trace.boreskov.corner} "
            "(corner {trace.boreskov.corner_index}), where f(x) = n · x − d is least: "
            "f = {trace.boreskov.f_corner}.",
            "The opposite corner {trace.boreskov.opposite_corner} gives the largest value, "
            "f = {trace.boreskov.f_opposite}.",
            "Both signs together classify the box: {trace.boreskov.classify}.",
        ),
        needs="trace.boreskov.corner",
    ),
    "boreskov sphere": Template(
        "Sphere against a plane: Boreskov's classify",
        "Boreskov, bounding volumes, BoundingSphere::classify",
        (
            "The centre's signed distance to the plane is {trace.boreskov.v}; compared with "
            "the radius {trace.boreskov.effective_radius}: {trace.boreskov.classify}.",
        ),
        needs="trace.boreskov.v",
    ),
    "cylinders": Template(
        "Cylinder against cylinder: separating axes and planes",
        "Eberly & Schneider, GTCG §11.12.9",
        (
            ("each", "trace.separating_axis.axes",
             "Test {name}: r_A = {r_A}, r_B = {r_B}, centre distance {distance}, "
             "margin {margin} (separating: {separating})."),
            "The first test that separates: {trace.separating_axis.found_by}.",
            "{trace.separating_axis.certificate}.",
        ),
        pairs=("cylinder-cylinder",),
    ),
    "separating axes": Template(
        "Separating axes",
        "Eberly & Schneider, GTCG §11.11, §11.12.7",
        (
            "Each candidate axis L gets the projection radii r_A = Σ h_i |a_i · L| and r_B, and "
            "the projected centre distance |(C_B − C_A) · L|; the shapes are separated on L "
            "when the distance exceeds r_A + r_B (margin > 0).",
            ("each", "trace.separating_axis.axes",
             "{name}: r_A = {r_A}, r_B = {r_B}, distance {distance}, margin {margin}."),
            "Axis used (largest margin among the separating ones): "
            "{trace.separating_axis.chosen}.",
            "No axis separates; the least overlap is on {trace.separating_axis.least_overlap}: "
            "the shapes intersect.",
        ),
        needs="trace.separating_axis.axes",
        exclude_pairs=("cylinder-cylinder",),
    ),
    "moving aabbs": Template(
        "Moving boxes: per-axis time intervals",
        "Dunn & Parberry, 3D Math Primer, App. A.17, Listing A.5, Fig. A.16",
        (
            "Hold A still; B moves by d = {trace.toi.relative_motion} over t in [0, 1] (A.6).",
            ("each", "trace.toi.axes",
             "Axis {axis}: velocity {d}; the boxes overlap on this axis for t in "
             "[{t_enter}, {t_leave}]."),
            "All three axes overlap for t in [{trace.toi.t_enter}, {trace.toi.t_leave}] "
            "(the largest t_enter, the smallest t_leave, cut to [0, 1]).",
            "Time of impact: {toi}.",
        ),
        needs="trace.toi.axes",
        pairs=("aabb-aabb",),
    ),
    "moving sphere plane": Template(
        "Moving sphere against a plane",
        "Dunn & Parberry, 3D Math Primer, App. A.15, Listing A.3",
        (
            "The sphere (radius {trace.toi.r}) starts on side {trace.toi.classify} of the plane.",
            "Its nearest point to the plane, p0 = {trace.toi.p0}, travels as a ray; d · n = "
            "{trace.toi.d_dot_n}.",
            "Case: {trace.toi.case}; the ray meets the plane at t = {trace.toi.t}.",
            "Time of impact {toi}, contact point c − r n = {trace.toi.point}.",
        ),
        method_has=("A.15",),
    ),
    "moving spheres": Template(
        "Moving spheres",
        "Dunn & Parberry, 3D Math Primer, App. A.13",
        (
            "e = {trace.toi.e} (centre to centre), r = r1 + r2 = {trace.toi.r}, "
            "e · e = {trace.toi.e_dot_e} against r² = {trace.toi.r2}.",
            "The relative motion has length l = {trace.toi.l}; e · d̂ = {trace.toi.e_dot_d}, "
            "discriminant {trace.toi.discriminant}.",
            "Case: {trace.toi.case}.",
            "Time of impact: {toi}.",
        ),
        method_has=("A.13",),
        needs="trace.toi",
    ),
    "gjk": Template(
        "GJK distance",
        "Gilbert-Johnson-Keerthi on the support functions",
        (
            "{trace.iterations} iterations; termination: {trace.termination}.",
            ("each", "trace.steps", "Support point w = {w}, gap {gap}."),
            "Distance {distance} between {closest}.",
        ),
        method_has=("gjk",),
        needs="trace.steps",
    ),
}

_PLACEHOLDER = re.compile(r"\{([^{}]+)\}")


def lookup(data, path: str):
    """``data["a"]["b"]...`` for ``"a.b..."`` (list indices allowed), ``None`` if absent.

    Keys that themselves hold dots (``"d.n"`` in the ray-plane trace) are found too: the
    longest key that matches wins at each level.
    """
    parts = path.split(".")

    def walk(cur, i):
        if i == len(parts):
            return cur
        if isinstance(cur, dict):
            for j in range(len(parts), i, -1):
                key = ".".join(parts[i:j])
                if key in cur:
                    found = walk(cur[key], j)
                    if found is not None:
                        return found
            return None
        if isinstance(cur, (list, tuple)) and parts[i].isdigit() and int(parts[i]) < len(cur):
            return walk(cur[int(parts[i])], i + 1)
        return None

    return walk(data, 0)


class _Missing(Exception):
    pass


def fill(sentence: str, data: dict, digits: Optional[dict] = None) -> Optional[str]:
    """``sentence`` with its placeholders filled from ``data``; ``None`` if one is missing.
    ``digits`` maps a placeholder to the significant digits it needs (default 6)."""

    def sub(m):
        value = lookup(data, m.group(1))
        if value is None:
            raise _Missing(m.group(1))
        d = (digits or {}).get(m.group(1), 6)
        return html.escape(fmt(value, d) if not isinstance(value, str) else value)

    try:
        return _PLACEHOLDER.sub(sub, html.escape(sentence, quote=False))
    except _Missing:
        return None


#: a second method worth showing beside the default one, per unordered pair: the explain panel
#: runs it (``registry.query(query, plane, other, method=name)``) and files its trace under
#: ``trace[key]``
EXTRA_METHODS = {
    ("aabb", "plane"): ("side", "boreskov_corner", "boreskov"),
    ("plane", "sphere"): ("side", "boreskov_classify", "boreskov"),
}


def with_extras(result: dict, prim_a, prim_b) -> dict:
    """``result`` plus the traces of :data:`EXTRA_METHODS` for its pair (never raises)."""
    extra = EXTRA_METHODS.get(tuple(sorted((prim_a.kind, prim_b.kind))))
    if extra is None:
        return result
    from algorithms import registry
    from algorithms.results import to_jsonable

    query, method, key = extra
    try:
        r = registry.query(query, prim_a, prim_b, method=method)
    except Exception:  # noqa: BLE001 - an explanation extra must never break the panel
        return result
    out = dict(result)
    out["trace"] = {**(result.get("trace") or {}), key: to_jsonable(r.trace)}
    out["method"] = "; ".join(m for m in (result.get("method"), r.method) if m)
    return out


def matching(result: dict) -> list[Template]:
    return [t for t in TEMPLATES.values() if t.matches(result)]


def why_miss(answer, prim_a, prim_b) -> Optional[str]:
    """Why a linear component misses its partner, from the step-through's last step (the same
    words the Step through panel shows), or ``None`` when it does not miss or there is none."""
    if answer is None or prim_a is None or answer.intersects is not False:
        return None
    from explorer.present.steps import walkthrough

    try:
        walk = walkthrough(answer, prim_a, prim_b)
    except Exception:  # noqa: BLE001 - an explanation must never break the panel
        return None
    if walk is None or not walk.steps:
        return None
    return walk.steps[-1].text


def explain(result: dict, answer=None, prim_a=None, prim_b=None
            ) -> list[tuple[str, str, list[str]]]:
    """``(title, source, sentences)`` for every template that matches ``result``; with the
    typed ``answer`` and the primitives, a miss also says why."""
    data = dict(result)
    trace = result.get("trace") or {}
    if isinstance(trace.get("region"), int):
        data["region_words"] = region_sentence(trace)
    reason = why_miss(answer, prim_a, prim_b)
    if reason:
        data["why_miss"] = reason
    out = []
    for template in matching(result):
        sentences = []
        for step in template.steps:
            if isinstance(step, tuple) and step[0] == "each":
                items = lookup(data, step[1])
                if isinstance(items, (list, tuple)):
                    dicts = [i for i in items[:24] if isinstance(i, dict)]
                    keys = {k for i in dicts for k in i}
                    digits = {k: distinct_digits([i.get(k) for i in dicts]) for k in keys}
                    for item in dicts:
                        if isinstance(item, dict):
                            text = fill(step[2], item, digits)
                            if text:
                                sentences.append(text)
                continue
            text = fill(step, data)
            if text:
                sentences.append(text)
        if sentences:
            out.append((template.title, template.source, sentences))
    return out


_REF = re.compile(r"(?:GTCG\s*)?§\s*\d+(?:\.\d+)*|(?:App\.\s*)?\b[A-Z]\.\d+\b|Listing\s*[A-Z]\.\d+"
                  r"|Figs?\.\s*[A-Z\d]+(?:\.\d+)*(?:\s*-\s*[A-Z\d]+(?:\.\d+)*)?")


def sources(method: str) -> list[str]:
    """The section references in a method string, e.g. ``"GTCG §10.8.3"``, ``"App. A.18"``."""
    return list(dict.fromkeys(m.group(0).strip() for m in _REF.finditer(method or "")))


def split_methods(method: str) -> list[str]:
    """``"; "``-separated method names, not splitting inside parentheses."""
    out, depth, cur = [], 0, ""
    for ch in method:
        depth += (ch == "(") - (ch == ")")
        if ch == ";" and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    out.append(cur.strip())
    return [m for m in out if m]


def to_html(result: Optional[dict], name_a: str = "A", name_b: str = "B", answer=None,
            prim_a=None, prim_b=None) -> str:
    """The panel's text for ``result`` (an ``explorer eval`` result); ``answer`` and the
    primitives let a miss say why."""
    if not result:
        return ("<p>Choose a pair to see how its answer was found: click a row of the "
                "Results table, or pick A and B at its top.</p>")
    parts = [f"<h3>{html.escape(name_a)} – {html.escape(name_b)} "
             f"<span style='color:#666'>({html.escape(str(result.get('pair')))})</span></h3>"]
    method = result.get("method") or ""
    if method:
        kept: list[str] = []
        for m in split_methods(method):  # a method already named inside an earlier one: once
            if not any(m in k for k in kept):
                kept.append(m)
        parts.append("<p><b>Method:</b><br>" + "<br>".join(html.escape(m) for m in kept)
                     + "</p>")
    refs = sources(method)
    if refs:
        parts.append("<p><b>Source:</b> " + html.escape(", ".join(refs)) + "</p>")
    if result.get("error"):
        parts.append(f"<p style='color:#b00'><b>Error:</b> {html.escape(result['error'])}</p>")
    summary = []
    for key in ("intersects", "distance", "first_t", "separating_axis", "side", "toi"):
        if result.get(key) is not None:
            summary.append(f"{key} = {html.escape(fmt(result[key]))}")
    if summary:
        parts.append("<p><b>Answer:</b> " + ", ".join(summary) + "</p>")
    for title, source, sentences in explain(result, answer, prim_a, prim_b):
        parts.append(f"<h4>{html.escape(title)} <span style='color:#666;font-weight:normal'>"
                     f"({html.escape(source)})</span></h4><ol>"
                     + "".join(f"<li>{s}</li>" for s in sentences) + "</ol>")
    scalars = [(k, v) for k, v in (result.get("trace") or {}).items()
               if isinstance(v, (int, float)) or (isinstance(v, str) and len(v) < 80)]
    if scalars:
        parts.append("<h4>Trace values</h4><table cellspacing='0' cellpadding='1'>" + "".join(
            f"<tr><td><code>{html.escape(str(k))}</code>&nbsp;</td><td>"
            f"{html.escape(fmt(v) if not isinstance(v, str) else v)}</td></tr>"
            for k, v in scalars[:30]) + "</table>")
    return "".join(parts)
