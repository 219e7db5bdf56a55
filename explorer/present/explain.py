"""The explain text (no Qt): the method, its source and the steps it took, with the current
numbers. The Qt panel is :mod:`explorer.qt.panels.explain`.

Numbers carry six significant digits, more where a list (the st-plane's candidates, Woo's
planes) would otherwise show two different values alike; the region sentence of the st-plane
never contradicts the chosen candidate (nearly parallel segments try every edge, and it says
so); a miss says why (Woo: the slab never entered or the coordinate outside the face, from the
step-through of :mod:`explorer.present.steps`; Hultquist: ``f^2 < 0``).

The text reads the typed answer (:class:`~algorithms.answer.PairAnswer`): its fields and its
records' traces, whose keys are declared in :mod:`algorithms.traces`. One template per method
family, in a table (:data:`TEMPLATES`) keyed by a method-name fragment and/or the pair's kinds;
a template's steps are a small function of the :class:`Subject` that reads each trace through a
:class:`Fields` accessor bound to its schema (a ``TypedDict``), never a string path into JSON.
A step is a sentence with ``{name}`` placeholders filled by :func:`say`: a value that is missing
(or not finite) makes its step drop out, so a template never shows "None" for a trace that has
not got that key. :func:`each` repeats a sentence for every row of a list in a trace (Arvo's
per-axis terms, Woo's candidate planes, the separating-axis candidates...) with the digits that
tell the rows apart. Every family is shown whose key matches, then the distance record's
remaining top-level trace numbers.

Sources: Eberly & Schneider, GTCG §10.8 (st-plane regions), §11.12.7-11.12.9 (separating
axes, Arvo, cylinders); Dunn & Parberry, 3D Math Primer, App. A.13, A.15, A.17, A.18 (Woo);
Boreskov, bounding volumes, Fig. 3.9 (the AABB corner picked by the plane normal's signs).
"""

from __future__ import annotations

import html
import re
import typing
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Callable, Iterable, Iterator, Mapping, Optional

import numpy as np

from algorithms.answer import PairAnswer
from algorithms.results import to_jsonable
from algorithms.traces import (ArvoAxis, ArvoTrace, BadouelTrace, GjkStep, GjkTrace,
                               HultquistTrace, MovingAabbsAxis, MovingAabbsTrace, MovingTrace,
                               Plane2dTrace, PlaneSideTrace, RayPlaneTrace, SatAxis, SatTrace,
                               StPlaneCandidate, StPlaneTrace, WooPlane, WooTrace)


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
    ``values`` differently. ``-0.0`` and ``0.0`` are the same number (equal, and :func:`fmt`
    prints both ``0``): ``+ 0.0`` turns ``-0.0`` into ``0.0`` before printing, so that the
    pair does not look like two numbers no digit count tells apart."""
    nums = [float(v) + 0.0 for v in values
            if isinstance(v, (int, float)) and not isinstance(v, bool)]
    for d in range(start, most + 1):
        if len({f"{v:.{d}g}" for v in nums}) == len(set(nums)):
            return d
    return most


# ---------------------------------------------------------------------- typed access

#: while :func:`recording` runs: every key read through a :class:`Fields`, as
#: ``(schema name, key, present)``
_READS: Optional[list] = None


@contextmanager
def recording() -> Iterator[list]:
    """Collect the trace keys the explain text reads (``(schema name, key, present)``), for the
    test that every one is declared in :mod:`algorithms.traces` and present on the shipped
    scenes."""
    global _READS
    outer, inner = _READS, []
    _READS = inner
    try:
        yield inner
    finally:
        if outer is not None:  # a recording inside another: the outer one sees these too
            outer.extend(inner)
        _READS = outer


@lru_cache(maxsize=None)
def declared(schema) -> frozenset:
    """The keys a trace schema (a ``TypedDict``) declares."""
    return frozenset(typing.get_type_hints(schema))


class Fields:
    """A trace (or one row of a list in it) read through its schema: ``f["key"]`` is the value
    or ``None`` when absent; :meth:`rows` and :meth:`sub` give the nested records typed too.

    While :func:`recording`, every read is noted, so a test can prove that the keys the text
    reads are the schema's and are present where they should be.
    """

    __slots__ = ("_data", "schema")

    def __init__(self, data, schema):
        self._data = data if isinstance(data, Mapping) else {}
        self.schema = schema

    def __bool__(self) -> bool:
        return bool(self._data)

    def __getitem__(self, key: str):
        if _READS is not None:
            _READS.append((self.schema.__name__, key, key in self._data))
        return self._data.get(key)

    def get(self, key: str, default=None):
        value = self[key]
        return default if value is None else value

    def rows(self, key: str, schema, most: int = 24) -> Optional[list]:
        """The dict rows of the list under ``key`` (its first ``most``), each a
        :class:`Fields` of ``schema``; ``None`` when ``key`` holds no list."""
        items = self[key]
        if not isinstance(items, (list, tuple)):
            return None
        return [Fields(i, schema) for i in items[:most] if isinstance(i, Mapping)]

    def sub(self, key: str, schema) -> "Fields":
        """The dict under ``key`` read as ``schema`` (empty when absent)."""
        return Fields(self[key], schema)


def _record_trace(record) -> dict:
    trace = getattr(record, "trace", None) if record is not None else None
    return trace if isinstance(trace, Mapping) else {}


#: a second method worth showing beside the default one, per unordered pair: the explain text
#: runs it (``registry.query(query, plane, other, method=name)``) and keeps its record under
#: ``key`` in :attr:`Subject.extras`
EXTRA_METHODS = {
    ("aabb", "plane"): ("side", "boreskov_corner", "boreskov"),
    ("plane", "sphere"): ("side", "boreskov_classify", "boreskov"),
}


def extras_of(answer: Optional[PairAnswer], prim_a, prim_b) -> dict:
    """The records of :data:`EXTRA_METHODS` for the pair (``{}`` when none; never raises)."""
    if answer is None or prim_a is None or prim_b is None:
        return {}
    extra = EXTRA_METHODS.get(tuple(sorted((prim_a.kind, prim_b.kind))))
    if extra is None:
        return {}
    from algorithms import registry

    query, method, key = extra
    try:
        record = registry.query(query, prim_a, prim_b, method=method)
    except Exception:  # noqa: BLE001 - an explanation extra must never break the panel
        return {}
    return {key: record}


@dataclass(frozen=True)
class Subject:
    """What a template explains: the typed answer, the extra methods' records and why a
    linear component misses (from the step-through), each trace read through its schema."""

    answer: PairAnswer
    extras: dict = field(default_factory=dict)
    why_miss: Optional[str] = None

    @property
    def method(self) -> str:
        """The answer's methods and the extras', joined by ``"; "``."""
        names = [self.answer.method] + [r.method for r in self.extras.values()]
        return "; ".join(m for m in names if m)

    @property
    def kinds(self) -> str:
        """The pair's kinds sorted, ``"aabb-ray"`` style (unordered)."""
        return "-".join(sorted(self.answer.pair.split("-")))

    # the records' traces, typed by the family the template explains
    def distance(self, schema) -> Fields:
        return Fields(_record_trace(self.answer.records.distance), schema)

    def intersection(self, schema) -> Fields:
        return Fields(_record_trace(self.answer.records.intersection), schema)

    def hits(self, schema) -> Fields:
        return Fields(_record_trace(self.answer.records.hits), schema)

    def side(self, schema=PlaneSideTrace) -> Fields:
        return Fields(_record_trace(self.answer.records.side), schema)

    def separation(self, schema=SatTrace) -> Fields:
        return Fields(_record_trace(self.answer.records.separation), schema)

    def contact(self, schema) -> Fields:
        return Fields(_record_trace(self.answer.records.contact), schema)

    def extra(self, key: str, schema=PlaneSideTrace) -> Fields:
        return Fields(_record_trace(self.extras.get(key)), schema)


# ---------------------------------------------------------------------- sentences

_PLACEHOLDER = re.compile(r"\{([A-Za-z_][A-Za-z0-9_]*)\}")


def _plain(value):
    """A trace value as the text shows it: numpy and Fraction values as Python numbers and
    lists, a non-finite float as missing (as in the scene-v1 result)."""
    return to_jsonable(value)


def say(sentence: str, digits: Optional[Mapping] = None, **values) -> Optional[str]:
    """``sentence`` (HTML-escaped) with its ``{name}`` placeholders filled from ``values``;
    ``None`` when one is missing. ``digits`` maps a name to its significant digits (6)."""
    shown = {}
    for name, value in values.items():
        value = _plain(value)
        if value is None:
            return None
        d = (digits or {}).get(name, 6)
        shown[name] = html.escape(value if isinstance(value, str) else fmt(value, d))
    try:
        return _PLACEHOLDER.sub(lambda m: shown[m.group(1)], html.escape(sentence, quote=False))
    except KeyError as exc:  # a placeholder the template did not fill: a template bug
        raise ValueError(f"explain template: no value for {exc} in {sentence!r}") from None


def each(rows: Optional[list], sentence: str, *keys: str) -> list[Optional[str]]:
    """``sentence`` once per row, its ``{key}`` placeholders from the row's ``keys``, with the
    digits that print the rows' different values differently (:func:`distinct_digits`)."""
    if rows is None:
        return []
    values = [{k: _plain(r[k]) for k in keys} for r in rows]
    digits = {k: distinct_digits([v[k] for v in values]) for k in keys}
    return [say(sentence, digits, **v) for v in values]


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


def region_sentence(trace) -> str:
    """The region's words, and, when the chosen edge is not one of the region's (nearly parallel
    segments: every edge is tried), what was done instead, so the two never contradict.
    ``trace``: an st-plane trace (:class:`~algorithms.traces.StPlaneTrace`) or its
    :class:`Fields`."""
    t = trace if isinstance(trace, Fields) else Fields(trace, StPlaneTrace)
    region = _plain(t["region"])
    words = REGION_WORDS.get(region, "") if isinstance(region, int) else ""
    edge = t["edge"]
    if not (isinstance(region, int) and isinstance(edge, str)):
        return words
    if region == 0 and edge != "interior":
        # (s̄, t̄) on the square's boundary (touching at an end): the least candidate is that
        # edge's, the same point; anything else is rounding of nearly parallel components
        on = edge.replace(" ", "").split("=")
        bar = {"s": _plain(t["s_bar"]), "t": _plain(t["t_bar"])}.get(on[0])
        if len(on) == 2 and isinstance(bar, (int, float)) and abs(bar - float(on[1])) <= 1e-9:
            return ("on the square's boundary: (s̄, t̄) lies on the edge "
                    f"{edge} itself, whose candidate is the same point (no clamping)")
        return words + (f"; but the least candidate lies on {edge} (det = "
                        f"{fmt(_plain(t['det']))}: nearly parallel, so every edge was tried "
                        f"and the least lies on {edge})")
    if region in REGION_EDGES and edge.replace(" ", "") not in REGION_EDGES[region]:
        words += (f"; but (s̄, t̄) is far outside the square (det = {fmt(_plain(t['det']))}: "
                  f"nearly parallel), so every edge was tried and the least lies on {edge}")
    return words


# ---------------------------------------------------------------------- the templates
# Each is a function of the Subject giving its sentences (None: the step drops out). The
# sentences keep the books' symbols; the values come from the typed answer and its records.

def _st_plane(x: Subject):
    t = x.distance(StPlaneTrace)
    region = _plain(t["region"])
    yield say("Write the squared distance as Q(s, t) = a s² + 2b st + c t² + 2d s + 2e t + f "
              "with a = {a}, b = {b}, c = {c}, d = {d}, e = {e}, f = {f} (domain {domain}).",
              a=t["a"], b=t["b"], c=t["c"], d=t["d"], e=t["e"], f=t["f"], domain=t["domain"])
    yield say("det = ac − b² = |m0 × m1|² = {det}.", det=t["det"])
    yield say("The gradient of Q vanishes at (s̄, t̄) = ({s_bar}, {t_bar}), in region {region}: "
              "{words}.", s_bar=t["s_bar"], t_bar=t["t_bar"], region=region,
              words=region_sentence(t) if isinstance(region, int) else None)
    yield say("The components are parallel (det = 0): Q is least along a whole line, the valley "
              "a s + b t + d = 0; B's ends project to σ0 = {sigma0}, σ1 = {sigma1} on A.",
              sigma0=t["sigma0"], sigma1=t["sigma1"])
    yield from each(t.rows("candidates", StPlaneCandidate),
                    "Candidate on {edge}: (s, t) = ({s}, {t}), Q = {sqr_distance}.",
                    "edge", "s", "t", "sqr_distance")
    yield say("The least candidate is on {edge}: s = {s}, t = {t}, Q = {sqr_distance}, so the "
              "distance is {distance}.", edge=t["edge"], s=t["s"], t=t["t"],
              sqr_distance=t["sqr_distance"], distance=x.answer.distance)


def _two_rays(x: Subject):
    ln = x.answer.lines  # algorithms.extras.planes.TwoRaysResult
    yield say("Take the lines r1(t1) = p1 + t1 d1 and r2(t2) = p2 + t2 d2 (no range yet): "
              "|d1 × d2|² = {cross}.", cross=ln.cross_sqr)
    yield say("They are {case}.", case=ln.case)
    yield say("t1 = ((p2 − p1) × d2) · (d1 × d2) / |d1 × d2|² = {t1}, "
              "t2 = ((p2 − p1) × d1) · (d1 × d2) / |d1 × d2|² = {t2}; "
              "r1(t1) and r2(t2) are {gap} apart.", t1=ln.t1, t2=ln.t2, gap=ln.gap)
    yield say("Within both components' own ranges: {within}.", within=ln.within)


def _lines_2d(x: Subject):
    p = Fields(x.answer.plane2d, Plane2dTrace)
    yield say("A's line: a x + b y = d with (a, b, d) = {line} (unit normal).", line=p["line_a"])
    yield say("B's line: (a, b, d) = {line}.", line=p["line_b"])
    yield say("A.7: denominator a1 b2 − a2 b1 = {den}; the lines are {case}; x = (b2 d1 − b1 "
              "d2) / den, y = (a1 d2 − a2 d1) / den give {point}.", den=p["denominator"],
              case=p["case"], point=p["point"])
    yield say("A.1: q' = q + (d − q · n) n, with d − q · n = {signed}: the closest point is "
              "{point}.", signed=p["signed_distance"], point=p["point"])


def _woo(x: Subject):
    h = x.hits(WooTrace)
    chosen = h.sub("chosen", WooPlane)
    yield say("The ray starts inside the box: {inside}.", inside=h["inside"])
    yield from each(h.rows("candidate planes", WooPlane),
                    "On axis {axis}, the candidate plane facing the ray is {plane}, reached at "
                    "t = {t}.", "axis", "plane", "t")
    yield say("The hit, if any, is on the candidate plane farthest along the ray: {plane} at "
              "t = {t}; the hit point is then checked to lie inside the face's rectangle.",
              plane=chosen["plane"], t=chosen["t"])
    yield say("First hit parameter: t = {first_t}.", first_t=x.answer.first_t)
    yield say("Why it misses: {why}", why=x.why_miss)


def _hultquist(x: Subject):
    h = x.hits(HultquistTrace)
    yield say("e = c − p0 = {e} runs from the ray's origin to the centre; e · e = {e2} against "
              "r² = {r2} (origin inside: {inside}).", e=h["e"], e2=h["e^2"], r2=h["r^2"],
              inside=h["inside"])
    yield say("a = e · d̂ = {a} is how far along the ray the centre projects; b² = e · e − a² = "
              "{b2} is the squared distance from the centre to the ray's line.", a=h["a"],
              b2=h["b^2"])
    yield say("f² = r² − b² = {f2}; a negative f² means the line misses. f = {f}.",
              f2=h["f^2"], f=h["f"])
    yield say("The ray enters at distance a − f = {enter} and leaves at a + f = {leave} along "
              "it; in the ray's own parameter the first hit is t = {first_t}.",
              enter=h["t = a - f"], leave=h["a + f"], first_t=x.answer.first_t)
    yield say("Why it misses: {why}", why=x.why_miss)


def _badouel(x: Subject):
    h = x.hits(BadouelTrace)
    yield say("Edges e1 = {e1}, e2 = {e2}; normal n = e1 × e2 = {n}; n · d = {dot} (0 would "
              "mean parallel; the division is deferred).", e1=h["e1"], e2=h["e2"], n=h["n"],
              dot=h["dot"])
    yield say("The ray meets the triangle's plane at t = {t} (numerator {num}).", t=h["t"],
              num=h["t (before division)"])
    yield say("Drop the dominant axis of n ({axis}) and solve in 2D for the barycentric "
              "coordinates: α = {alpha}, β = {beta}, γ = {gamma}.",
              axis=h["dominant axis dropped"], alpha=h["alpha"], beta=h["beta"],
              gamma=h["gamma"])
    yield say("All three in [0, 1]: the hit point lies inside; first hit t = {first_t}.",
              first_t=x.answer.first_t)


def _ray_plane(x: Subject):
    h = x.hits(RayPlaneTrace)
    yield say("d · n = {dn} (0: the ray runs parallel to the plane).", dn=h["d.n"])
    yield say("t = (d − p0 · n) / (d · n) with numerator {num}: t = {t}.", num=h["d - p0.n"],
              t=h["t"])
    yield say("First hit t = {first_t}.", first_t=x.answer.first_t)


def _arvo(x: Subject):
    d = x.distance(ArvoTrace)
    yield from each(d.rows("per_axis", ArvoAxis),
                    "Axis {axis}: the centre coordinate {c} is {where} [{min}, {max}]; the "
                    "closest box coordinate is {q}, adding {term} to the squared distance.",
                    "axis", "c", "where", "min", "max", "q", "term")
    yield say("The squared distance from the centre to the box is {d2}; compared with r² = "
              "{r2}: intersects = {intersects}.", d2=d["dist_squared"],
              r2=x.intersection(ArvoTrace)["r_squared"], intersects=x.answer.intersects)


def _primer_a10(x: Subject):
    s = x.side()
    yield say("Project the box on the plane normal: its points reach n · x from minD = {lo} to "
              "maxD = {hi}; the plane is n · x = {d}.", lo=s["minD"], hi=s["maxD"], d=s["d"])
    yield say("Side {side}: 1 when minD > d (all in front), −1 when maxD < d (all behind), 0 "
              "when d lies in [minD, maxD].", side=x.answer.side)


def _boreskov_corner(x: Subject):
    b = x.extra("boreskov")
    yield say("The signs of the normal's components pick one corner, {corner} (corner "
              "{index}), where f(x) = n · x − d is least: f = {f}.", corner=b["corner"],
              index=b["corner_index"], f=b["f_corner"])
    yield say("The opposite corner {corner} gives the largest value, f = {f}.",
              corner=b["opposite_corner"], f=b["f_opposite"])
    yield say("Both signs together classify the box: {classify}.", classify=b["classify"])


def _boreskov_sphere(x: Subject):
    b = x.extra("boreskov")
    yield say("The centre's signed distance to the plane is {v}; compared with the radius "
              "{r}: {classify}.", v=b["v"], r=b["effective_radius"], classify=b["classify"])


def _cylinders(x: Subject):
    s = x.separation()
    yield from each(s.rows("axes", SatAxis),
                    "Test {name}: r_A = {r_A}, r_B = {r_B}, centre distance {distance}, "
                    "margin {margin} (separating: {separating}).",
                    "name", "r_A", "r_B", "distance", "margin", "separating")
    yield say("The first test that separates: {found_by}.", found_by=s["found_by"])
    yield say("{certificate}.", certificate=s["certificate"])


def _separating_axes(x: Subject):
    s = x.separation()
    yield say("Each candidate axis L gets the projection radii r_A = Σ h_i |a_i · L| and r_B, "
              "and the projected centre distance |(C_B − C_A) · L|; the shapes are separated on "
              "L when the distance exceeds r_A + r_B (margin > 0).")
    yield from each(s.rows("axes", SatAxis),
                    "{name}: r_A = {r_A}, r_B = {r_B}, distance {distance}, margin {margin}.",
                    "name", "r_A", "r_B", "distance", "margin")
    yield say("Axis used (largest margin among the separating ones): {chosen}.",
              chosen=s["chosen"])
    yield say("No axis separates; the least overlap is on {least}: the shapes intersect.",
              least=s["least_overlap"])


def _moving_aabbs(x: Subject):
    c = x.contact(MovingAabbsTrace)
    yield say("Hold A still; B moves by d = {d} over t in [0, 1] (A.6).",
              d=x.answer.relative_motion)
    yield from each(c.rows("axes", MovingAabbsAxis),
                    "Axis {axis}: velocity {d}; the boxes overlap on this axis for t in "
                    "[{t_enter}, {t_leave}].", "axis", "d", "t_enter", "t_leave")
    yield say("All three axes overlap for t in [{t_enter}, {t_leave}] (the largest t_enter, the "
              "smallest t_leave, cut to [0, 1]).", t_enter=c["t_enter"], t_leave=c["t_leave"])
    yield say("Time of impact: {toi}.", toi=x.answer.toi)


def _moving_sphere_plane(x: Subject):
    c = x.contact(MovingTrace)
    yield say("The sphere (radius {r}) starts on side {classify} of the plane.", r=c["r"],
              classify=c["classify"])
    yield say("Its nearest point to the plane, p0 = {p0}, travels as a ray; d · n = {dn}.",
              p0=c["p0"], dn=c["d_dot_n"])
    yield say("Case: {case}; the ray meets the plane at t = {t}.", case=c["case"], t=c["t"])
    yield say("Time of impact {toi}, contact point c − r n = {point}.", toi=x.answer.toi,
              point=x.answer.contact_point)


def _moving_spheres(x: Subject):
    c = x.contact(MovingTrace)
    yield say("e = {e} (centre to centre), r = r1 + r2 = {r}, e · e = {ee} against r² = {r2}.",
              e=c["e"], r=c["r"], ee=c["e_dot_e"], r2=c["r2"])
    yield say("The relative motion has length l = {l}; e · d̂ = {ed}, discriminant {disc}.",
              l=c["l"], ed=c["e_dot_d"], disc=c["discriminant"])
    yield say("Case: {case}.", case=c["case"])
    yield say("Time of impact: {toi}.", toi=x.answer.toi)


def _gjk(x: Subject):
    g = x.distance(GjkTrace)
    yield say("{iterations} iterations; termination: {termination}.",
              iterations=g["iterations"], termination=g["termination"])
    yield from each(g.rows("steps", GjkStep), "Support point w = {w}, gap {gap}.", "w", "gap")
    yield say("Distance {distance} between {closest}.", distance=x.answer.distance,
              closest=x.answer.closest)


def _present(value) -> bool:
    """A trace value that counts as there: a container, or a value shown as a number."""
    return isinstance(value, (Mapping, list, tuple)) or _plain(value) is not None


@dataclass(frozen=True)
class Template:
    """A method family's explanation: shown when the methods contain ``method_has`` (any of,
    case folded) or the pair is one of ``pairs`` (unordered, ``"aabb-ray"`` style), and
    ``needs`` (a test of the typed answer, if any) holds. ``steps`` gives the sentences."""

    title: str
    source: str
    steps: Callable[[Subject], Iterable[Optional[str]]]
    method_has: tuple = ()
    pairs: tuple = ()
    needs: Optional[Callable[[Subject], bool]] = None
    exclude_pairs: tuple = ()

    def matches(self, x: Subject) -> bool:
        if self.needs is not None and not self.needs(x):
            return False
        if x.kinds in {"-".join(sorted(p.split("-"))) for p in self.exclude_pairs}:
            return False
        if not self.method_has and not self.pairs:
            return self.needs is not None
        method = x.method.lower()
        if any(h.lower() in method for h in self.method_has):
            return True
        return x.kinds in {"-".join(sorted(p.split("-"))) for p in self.pairs}

    def sentences(self, x: Subject) -> list[str]:
        return [s for s in self.steps(x) if s]


def _has(fields_of: Callable[[Subject], Fields], key: str) -> Callable[[Subject], bool]:
    """``needs``: the trace ``fields_of(x)`` holds ``key`` (not ``None``)."""
    return lambda x: _present(fields_of(x)[key])


#: the table: method family -> template (first the specific ones)
TEMPLATES: dict[str, Template] = {
    "st-plane": Template(
        "Closest points of two linear components: the st-plane",
        "Eberly & Schneider, GTCG §10.8.3, Figs. 10.35-10.37", _st_plane,
        method_has=("st-plane",)),
    "two rays": Template(
        "The lines of two rays: crossing, parallel, coincident or skew",
        "Dunn & Parberry, 3D Math Primer, App. A.8", _two_rays,
        needs=lambda x: x.answer.lines is not None and x.answer.lines.case is not None),
    "2d lines": Template(
        "Lines in the z = 0 plane as a x + b y = d",
        "Dunn & Parberry, 3D Math Primer, App. A.1 (closest point), A.7 (two lines)",
        _lines_2d,
        needs=_has(lambda x: Fields(x.answer.plane2d, Plane2dTrace), "section")),
    "woo": Template(
        "Ray against a box: Woo's candidate planes",
        "Dunn & Parberry, 3D Math Primer, App. A.18, Listing A.6 (Woo)", _woo,
        method_has=("woo",)),
    "hultquist": Template(
        "Ray against a sphere: Hultquist's test",
        "Dunn & Parberry, 3D Math Primer, App. A.12", _hultquist,
        method_has=("hultquist",),
        needs=lambda x: x.answer.records.hits is not None),
    "badouel": Template(
        "Ray against a triangle: Badouel's test",
        "Dunn & Parberry, 3D Math Primer, App. A.16, Listing A.4", _badouel,
        method_has=("badouel",),
        needs=_has(lambda x: x.hits(BadouelTrace), "e1")),
    "ray plane": Template(
        "Ray against a plane",
        "Dunn & Parberry, 3D Math Primer, App. A.9", _ray_plane,
        method_has=("A.9",),
        needs=_has(lambda x: x.hits(RayPlaneTrace), "t"),
        exclude_pairs=("segment-aabb", "ray-aabb", "line-aabb")),
    "arvo": Template(
        "Sphere against a box: Arvo's closest point",
        "Eberly & Schneider, GTCG §11.12.8 (Arvo); Dunn & Parberry, App. A.14", _arvo,
        method_has=("arvo",)),
    "primer a10": Template(
        "Box against a plane: the projection interval",
        "Dunn & Parberry, 3D Math Primer, App. A.10, Listing A.2", _primer_a10,
        needs=_has(lambda x: x.side(), "minD")),
    "boreskov corner": Template(
        "Box against a plane: Boreskov's corner test",
        "Boreskov, bounding volumes, Fig. 3.9", _boreskov_corner,
        needs=_has(lambda x: x.extra("boreskov"), "corner")),
    "boreskov sphere": Template(
        "Sphere against a plane: Boreskov's classify",
        "Boreskov, bounding volumes, BoundingSphere::classify", _boreskov_sphere,
        needs=_has(lambda x: x.extra("boreskov"), "v")),
    "cylinders": Template(
        "Cylinder against cylinder: separating axes and planes",
        "Eberly & Schneider, GTCG §11.12.9", _cylinders,
        pairs=("cylinder-cylinder",)),
    "separating axes": Template(
        "Separating axes",
        "Eberly & Schneider, GTCG §11.11, §11.12.7", _separating_axes,
        needs=_has(lambda x: x.separation(), "axes"),
        exclude_pairs=("cylinder-cylinder",)),
    "moving aabbs": Template(
        "Moving boxes: per-axis time intervals",
        "Dunn & Parberry, 3D Math Primer, App. A.17, Listing A.5, Fig. A.16", _moving_aabbs,
        needs=_has(lambda x: x.contact(MovingAabbsTrace), "axes"),
        pairs=("aabb-aabb",)),
    "moving sphere plane": Template(
        "Moving sphere against a plane",
        "Dunn & Parberry, 3D Math Primer, App. A.15, Listing A.3", _moving_sphere_plane,
        method_has=("A.15",)),
    "moving spheres": Template(
        "Moving spheres",
        "Dunn & Parberry, 3D Math Primer, App. A.13", _moving_spheres,
        method_has=("A.13",),
        needs=lambda x: x.answer.records.contact is not None),
    "gjk": Template(
        "GJK distance",
        "Gilbert-Johnson-Keerthi on the support functions", _gjk,
        method_has=("gjk",),
        needs=_has(lambda x: x.distance(GjkTrace), "steps")),
}


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


def subject(answer: PairAnswer, prim_a=None, prim_b=None) -> Subject:
    """The :class:`Subject` of ``answer``: with the primitives, the extra methods' records and
    why a miss misses."""
    return Subject(answer, extras_of(answer, prim_a, prim_b), why_miss(answer, prim_a, prim_b))


def matching(x: Subject) -> list[Template]:
    return [t for t in TEMPLATES.values() if t.matches(x)]


def explain(answer: PairAnswer, prim_a=None, prim_b=None, x: Optional[Subject] = None
            ) -> list[tuple[str, str, list[str]]]:
    """``(title, source, sentences)`` for every template that matches the typed ``answer``;
    with the primitives, the extra methods are shown too and a miss says why."""
    x = x if x is not None else subject(answer, prim_a, prim_b)
    out = []
    for template in matching(x):
        sentences = template.sentences(x)
        if sentences:
            out.append((template.title, template.source, sentences))
    return out


def trace_values(answer: PairAnswer) -> list[tuple[str, object]]:
    """The "Trace values" table: the distance record's remaining top-level trace numbers and
    short words, in the order of the result's ``trace`` (:func:`algorithms.report.trace_of`
    puts the other records under their own keys, which replace the distance record's value of
    the same name), with the distance a touching test rounded to 0."""
    rec = answer.records
    values = dict(_record_trace(rec.distance))
    if rec.distance is not None:
        values["parameter"] = None  # a list: not shown here
    if rec.intersection is not None:
        values["intersects"] = rec.intersection.trace
    if rec.separation is not None:
        values["separating_axis"] = None
    if answer.distance_rounding is not None:
        values["distance_rounding"] = answer.distance_rounding
    if answer.axis_from_closest:
        values.setdefault("separating_axis", None)
    for key, present in (("reconciled", bool(answer.reconciled)), ("hits", rec.hits),
                         ("side", rec.side), ("two rays", answer.lines),
                         ("2d lines", answer.plane2d), ("toi", rec.contact)):
        if present is not None and present is not False:
            values[key] = None  # another record's trace or a list: not shown here
    out = []
    for k, v in values.items():
        v = _plain(v)
        if isinstance(v, (int, float)) or (isinstance(v, str) and len(v) < 80):
            out.append((k, v))
    return out


def summary(answer: PairAnswer) -> list[tuple[str, object]]:
    """The answer's keys shown first, ``(name, value)`` for those that apply."""
    values = (("intersects", answer.intersects), ("distance", answer.distance),
              ("first_t", answer.first_t), ("separating_axis", answer.separating_axis),
              ("side", answer.side), ("toi", answer.toi))
    return [(k, _plain(v)) for k, v in values if _plain(v) is not None]


def kept_methods(method: str) -> list[str]:
    """The methods to list: a method already named inside an earlier one is listed once."""
    kept: list[str] = []
    for m in split_methods(method):
        if not any(m in k for k in kept):
            kept.append(m)
    return kept


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


def to_html(answer: Optional[PairAnswer], name_a: str = "A", name_b: str = "B", prim_a=None,
            prim_b=None) -> str:
    """The panel's text for the typed ``answer``; with the primitives, the extra methods are
    explained too and a miss says why."""
    if answer is None:
        return ("<p>Choose a pair to see how its answer was found: click a row of the "
                "Results table, or pick A and B at its top.</p>")
    x = subject(answer, prim_a, prim_b)
    parts = [f"<h3>{html.escape(name_a)} – {html.escape(name_b)} "
             f"<span style='color:#666'>({html.escape(str(answer.pair))})</span></h3>"]
    method = x.method
    if method:
        parts.append("<p><b>Method:</b><br>"
                     + "<br>".join(html.escape(m) for m in kept_methods(method)) + "</p>")
    refs = sources(method)
    if refs:
        parts.append("<p><b>Source:</b> " + html.escape(", ".join(refs)) + "</p>")
    if answer.error:
        parts.append(f"<p style='color:#b00'><b>Error:</b> {html.escape(answer.error)}</p>")
    shown = [f"{k} = {html.escape(fmt(v))}" for k, v in summary(answer)]
    if shown:
        parts.append("<p><b>Answer:</b> " + ", ".join(shown) + "</p>")
    for title, source, sentences in explain(answer, x=x):
        parts.append(f"<h4>{html.escape(title)} <span style='color:#666;font-weight:normal'>"
                     f"({html.escape(source)})</span></h4><ol>"
                     + "".join(f"<li>{s}</li>" for s in sentences) + "</ol>")
    scalars = trace_values(answer)
    if scalars:
        parts.append("<h4>Trace values</h4><table cellspacing='0' cellpadding='1'>" + "".join(
            f"<tr><td><code>{html.escape(str(k))}</code>&nbsp;</td><td>"
            f"{html.escape(fmt(v) if not isinstance(v, str) else v)}</td></tr>"
            for k, v in scalars[:30]) + "</table>")
    return "".join(parts)
