"""The explain text never contradicts the chosen candidate, and its numbers tell competing
candidates apart (issue 13 part 2), on every shipped scene's linear pairs and on hypothesis'
segment pairs (nearly parallel ones too), checked against an exact oracle.

The oracle: the squared distance of two segments is the least of the interior critical point of
Q(s, t) (when it lies in the unit square) and the four edge minima (a point against a segment,
clamped), all in Fractions from the floats' exact values (Eberly & Schneider, GTCG §10.8.2:
the minimum of a convex quadratic over the square is at the critical point or on an edge).
"""

from __future__ import annotations

import html
import re
from fractions import Fraction as F

from hypothesis import HealthCheck, given, settings
from tests.fuzz import examples
from hypothesis import strategies as st

from algorithms import AABB, Ray, Segment
from explorer import SCENES_DIR
from explorer.model.scene import Scene
from explorer.model.scenefile import load
from explorer.present.explain import REGION_EDGES, explain, fmt

LINEAR = {"segment", "ray", "line"}
LEAST = re.compile(r"The least candidate is on (\S+): s = (\S+), t = (\S+), Q = (\S+), so")
CANDIDATE = re.compile(r"Candidate on (\S+): \(s, t\) = \((\S+), (\S+)\), Q = (\S+)\.$")
REGION = re.compile(r"in region (\d+): (.*)\.$")
NAMED_EDGE = re.compile(r"\b([st]) = ([01])\b")


def _sentences(ans, title_has: str) -> list[str]:
    return [html.unescape(s) for title, _src, ss in explain(ans) if title_has in title
            for s in ss]


def _edge_holds(edge: str, s: float, t: float) -> bool:
    """(s, t) lies on the named edge of the domain ("interior": anywhere)."""
    if edge == "interior":
        return True
    var, value = edge.replace(" ", "").split("=")
    return {"s": s, "t": t}[var] == float(value)


def apart(x, y) -> bool:
    """Two values 15 significant digits tell apart."""
    x, y = float(x), float(y)
    return abs(x - y) > 1e-14 * max(abs(x), abs(y))


def check_st_plane_text(ans, where: str) -> None:
    trace = ans.records.distance.trace
    texts = _sentences(ans, "st-plane")
    least = [m for m in map(LEAST.search, texts) if m]
    assert len(least) == 1, (where, texts)
    edge, s_txt, t_txt, q_txt = least[0].groups()
    # the sentence names the chosen candidate: its edge, parameters and Q, as the trace has them
    assert (edge, s_txt, t_txt, q_txt) == (trace["edge"], fmt(trace["s"]), fmt(trace["t"]),
                                           fmt(trace["sqr_distance"])), where
    assert _edge_holds(edge, trace["s"], trace["t"]), (where, edge, trace["s"], trace["t"])
    # the chosen candidate is the least of those listed
    cands = trace["candidates"]
    assert any(c["edge"] == edge and c["sqr_distance"] == trace["sqr_distance"] for c in cands)
    assert trace["sqr_distance"] <= min(c["sqr_distance"] for c in cands), where
    # the region sentence names the chosen edge, or says every edge was tried and names it
    region = [m for m in map(REGION.search, texts) if m]
    if region:
        number, words = int(region[0].group(1)), region[0].group(2)
        assert number == trace["region"], where
        told = words.split("; but")[0]
        named = {f"{v}={x}" for v, x in NAMED_EDGE.findall(told)}
        if number in REGION_EDGES:
            assert named == REGION_EDGES[number], (where, words)  # the words match the region
        said_instead = f"every edge was tried and the least lies on {edge}" in words
        on_boundary = f"lies on the edge {edge} itself" in words
        if on_boundary:  # then (s̄, t̄) really is on that edge
            var, value = edge.split("=")
            assert abs(trace[f"{var}_bar"] - float(value)) <= 1e-9, (where, words)
        if edge == "interior":
            assert number == 0 or said_instead, (where, words)
        else:
            assert edge in named or said_instead or on_boundary, (where, words)
    # different candidate values print differently (distinct_digits, up to its 15 significant
    # digits: values a few ulps apart, the same candidate found twice, may print alike)
    rows = [m.groups() for m in map(CANDIDATE.search, texts) if m]
    assert len(rows) == min(len(cands), 24), where
    for i, ci in enumerate(cands[:24]):
        for j, cj in enumerate(cands[:24]):
            for k, key in ((1, "s"), (2, "t"), (3, "sqr_distance")):
                if apart(ci[key], cj[key]):
                    assert rows[i][k] != rows[j][k], (where, key, ci[key], cj[key], rows[i][k])
    for row, c in zip(rows, cands):
        assert row[0] == c["edge"] and float(row[3]) == float(fmt(c["sqr_distance"], 15)) \
            or abs(float(row[3]) - c["sqr_distance"]) <= 1e-5 * max(1.0, c["sqr_distance"])


def _shipped_linear_pairs():
    for path in sorted(SCENES_DIR.glob("*.json")):
        scene = load(path)
        ids = [i for i in scene.ids() if scene[i].kind in LINEAR]
        pairs = set(p for p in scene.pairs() if {scene[p[0]].kind, scene[p[1]].kind} <= LINEAR)
        if len(scene.ids()) <= 12:  # every ordered pair of a small scene
            pairs |= {(a, b) for a in ids for b in ids if a != b}
        for a, b in sorted(pairs):
            yield f"{path.stem}: {a}-{b}", scene.answer(a, b)


def test_the_st_plane_text_agrees_with_its_candidate_on_every_shipped_scene():
    n = 0
    for where, ans in _shipped_linear_pairs():
        if "st-plane" in (ans.method or ""):
            check_st_plane_text(ans, where)
            n += 1
    assert n >= 30, n  # the nine region scenes, the welcome scene, lessons' linear pairs...


def _exact_segment_sqr_distance(p0, p1, q0, q1) -> F:
    P0, P1, Q0, Q1 = ([F(x) for x in p] for p in (p0, p1, q0, q1))

    def sub(u, v):
        return [a - b for a, b in zip(u, v)]

    def dot(u, v):
        return sum(a * b for a, b in zip(u, v))

    def point_segment(p, a, b):
        ab = sub(b, a)
        den = dot(ab, ab)
        u = F(0) if den == 0 else min(F(1), max(F(0), dot(sub(p, a), ab) / den))
        c = [x + u * y for x, y in zip(a, ab)]
        return dot(sub(p, c), sub(p, c))

    best = min(point_segment(P0, Q0, Q1), point_segment(P1, Q0, Q1),
               point_segment(Q0, P0, P1), point_segment(Q1, P0, P1))
    m0, m1, r = sub(P1, P0), sub(Q1, Q0), sub(P0, Q0)
    a, b, c, d, e = dot(m0, m0), -dot(m0, m1), dot(m1, m1), dot(m0, r), -dot(m1, r)
    det = a * c - b * b
    if det != 0:
        s, t = (b * e - c * d) / det, (b * d - a * e) / det
        if 0 <= s <= 1 and 0 <= t <= 1:
            g = sub([x + s * y for x, y in zip(P0, m0)], [x + t * y for x, y in zip(Q0, m1)])
            best = min(best, dot(g, g))
    return best


coord = st.floats(-3, 3, allow_nan=False).map(lambda v: round(v, 3))
point = st.tuples(coord, coord, coord)


@st.composite
def segment_pairs(draw):
    p0, p1, q0 = draw(point), draw(point), draw(point)
    if draw(st.booleans()):  # nearly parallel: B's direction is A's, bent by a tiny amount
        k = draw(st.sampled_from([1.0, -0.5, 2.0, 0.3]))
        eps = draw(st.sampled_from([0.0, 1e-12, 1e-9, 1e-6, 1e-3]))
        bend = draw(point)
        q1 = tuple(q + k * (b - a) + eps * w for q, a, b, w in zip(q0, p0, p1, bend))
    else:
        q1 = draw(point)
    return p0, p1, q0, q1


@settings(max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(segment_pairs())
def test_the_st_plane_text_agrees_with_its_candidate_on_hypothesis_segment_pairs(pair):
    p0, p1, q0, q1 = pair
    if p0 == p1 or q0 == q1:
        return  # a degenerate segment is a point: another method
    scene = Scene()
    scene.add(Segment(p0, p1), id="A")
    scene.add(Segment(q0, q1), id="B")
    ans = scene.answer("A", "B")
    check_st_plane_text(ans, f"{pair}")
    # and the chosen candidate is the true minimum (exact oracle)
    exact = float(_exact_segment_sqr_distance(p0, p1, q0, q1))
    q = ans.records.distance.trace["sqr_distance"]
    assert abs(q - exact) <= 1e-9 * (1 + exact) + 1e-12, (q, exact)


@settings(max_examples=examples(80), deadline=None)
@given(point, point)
def test_woo_prints_different_candidate_ts_differently(origin, direction):
    if direction == (0, 0, 0):
        return
    scene = Scene()
    scene.add(Ray(origin, direction), id="R")
    scene.add(AABB((-1, -1, -1), (1.0000001, 1, 1.0000002)), id="B")
    ans = scene.answer("R", "B")
    texts = _sentences(ans, "Woo")
    rows = [m.groups() for m in (re.search(r"On axis (\w+), .* is (.+), reached at t = (\S+)\.$",
                                           s) for s in texts) if m]
    # a row is shown when the axis has a plane facing the ray (inside the box: none)
    planes = [p for p in ans.records.hits.trace["candidate planes"] if p["plane"] is not None
              and p["t"] is not None and abs(p["t"]) != float("inf")]
    assert [r[0] for r in rows] == [p["axis"] for p in planes]
    for i, pi in enumerate(planes):
        for j, pj in enumerate(planes):
            if apart(pi["t"], pj["t"]):
                assert rows[i][2] != rows[j][2], (pi["t"], pj["t"])
    chosen = ans.records.hits.trace["chosen"]
    if chosen is not None:  # the chosen plane named is the candidate farthest along the ray
        assert chosen["t"] == max(p["t"] for p in planes)
        assert any(f"farthest along the ray: {chosen['plane']} at t = " in s for s in texts)
