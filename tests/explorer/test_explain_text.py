"""The explain text (Qt-free, explorer/present/explain.py): why a ray misses, a region sentence
that never contradicts the chosen candidate, enough digits to tell candidates apart (issue 13)."""

from __future__ import annotations

from algorithms import AABB, Ray, Segment, Sphere
from explorer.model.scene import Scene
from explorer.present.explain import distinct_digits, explain, region_sentence, to_html


def text_of(a, b):
    scene = Scene()
    scene.add(a, id="A")
    scene.add(b, id="B")
    ans = scene.answer("A", "B")
    return to_html(ans, "A", "B", a, b), ans


def test_a_woo_miss_says_why():
    # the ray climbs away above the box on y: y = 2 + 0.2 t > 0.8 for every t >= 0
    html, ans = text_of(Ray((-3, 2, 0.5), (1, 0.2, 0)), AABB((-0.8, -0.8, 0), (0.8, 0.8, 1.2)))
    assert ans.intersects is False
    assert "Why it misses" in html and "never enters the y slab" in html
    assert "y = 2.44 outside [-0.8, 0.8]" in html
    # a hit has no such sentence
    html, _ = text_of(Ray((-3, 0, 0.5), (1, 0, 0)), AABB((-0.8, -0.8, 0), (0.8, 0.8, 1.2)))
    assert "Why it misses" not in html


def test_a_hultquist_miss_says_why():
    # the line y = 2 passes 2 from the centre of a unit ball: f^2 = 1 - 4 < 0
    html, _ = text_of(Ray((-3, 2, 0), (1, 0, 0)), Sphere((0, 0, 0), 1))
    assert "Why it misses" in html and "f^2 = -3 &lt; 0" in html
    # a ball behind the ray: both crossings at negative distance
    html, _ = text_of(Ray((3, 0, 0), (1, 0, 0)), Sphere((0, 0, 0), 1))
    assert "both behind the origin" in html


def test_the_region_sentence_never_contradicts_the_chosen_edge():
    # region 2 names the edges s = 1 and t = 1; a nearly parallel pair whose least candidate is
    # on s = 0 says that every edge was tried
    words = region_sentence({"region": 2, "edge": "s=0", "det": 1e-13})
    assert "s = 1 or t = 1" in words and "every edge was tried and the least lies on s=0" in words
    assert "every edge" not in region_sentence({"region": 2, "edge": "t=1", "det": 0.5})
    # and on a real pair: whatever the chosen edge, the text names it
    scene = Scene()
    scene.add(Segment((-1, 0, 0), (1, 0, 0)), id="A")
    scene.add(Segment((-0.5, 1, 0), (3, 1.00001, 0)), id="B")
    ans = scene.answer("A", "B")
    trace = ans.records.distance.trace
    sentence = region_sentence(trace)
    if trace["edge"].replace(" ", "") not in {"s=0", "t=0"}:  # region 6's edges
        assert "every edge was tried" in sentence
    texts = [s for _t, _src, ss in explain(ans) for s in ss]
    assert any(f"least candidate is on {trace['edge']}" in s for s in texts)


def test_digits_count_minus_zero_and_zero_as_one_number():
    # a clamped parameter can come out -0.0 beside another row's 0.0: equal numbers, both
    # printed "0"; counted as two, no digit count told them apart and every row got 15 digits
    assert distinct_digits([0.0, -0.0]) == 6
    assert distinct_digits([-0.0, 0.25, 0.0]) == 6
    assert distinct_digits([-0.0, 0.0, 1.0000001, 1.0000002]) == 8
    assert distinct_digits([-0.0, -0.0]) == 6


def test_digits_tell_candidates_apart():
    assert distinct_digits([1.0000001, 1.0000002]) == 8  # 1.0000001: eight significant digits
    assert distinct_digits([1.0, 2.0]) == 6
    # st-plane region 2: the candidates s=1 and t=1 are equal (2.51880305), others differ
    from explorer import SCENES_DIR
    from explorer.model.scenefile import load

    scene = load(SCENES_DIR / "stplane_region2.json")
    texts = [s for _t, _src, ss in explain(scene.answer("A", "B")) for s in ss]
    cands = [s for s in texts if s.startswith("Candidate on")]
    assert len(cands) == 4 and any("Q = 8.4388" in s for s in cands)


def test_region_0_on_the_boundary_names_the_edge_it_lies_on():
    # B ends at A's start: Q = |s (1.5, 0, 0) - (0, 1 - t, 0.531 (1 - t))|^2 is 0 at (s, t) =
    # (0, 1), the critical point itself (region 0, on the boundary); the least candidate is the
    # edge s = 0's, the same point, and the text says so instead of "interior, no clamping"
    scene = Scene()
    scene.add(Segment((0, 0, 0), (1.5, 0, 0)), id="A")
    scene.add(Segment((0, 1, 0.531), (0, 0, 0)), id="B")
    ans = scene.answer("A", "B")
    texts = [s for _t, _src, ss in explain(ans) for s in ss]
    region = next(s for s in texts if "in region 0" in s)
    assert "lies on the edge s=0 itself" in region and "interior" not in region
    assert any(s.startswith("The least candidate is on s=0: s = 0, t = 1, Q = 0") for s in texts)
