"""Step-throughs (issue 13, part 2): Woo, Arvo and Hultquist one step at a time, the listing's
line highlighted and the step's geometry drawn; the steps agree with the library's answer."""

from __future__ import annotations

import math

import pytest

from algorithms import AABB, Ray, Segment, Sphere
from explorer import LESSONS_DIR
from explorer.model.scene import Scene
from explorer.present.steps import WOO_LISTING, walkthrough

WOO = LESSONS_DIR / "02_ray_box_woo.json"


def walk(a, b):
    scene = Scene()
    scene.add(a, id="A")
    scene.add(b, id="B")
    return walkthrough(scene.answer("A", "B"), a, b), scene.answer("A", "B")


def test_woo_hit_steps_match_the_answer():
    # the lesson's ray: candidates min x 2.2, min y (-0.8 + 1.2) / 0.45, max z (1.2 - 1.4) / -0.3
    w, ans = walk(Ray((-3, -1.2, 1.4), (1, 0.45, -0.3)), AABB((-0.8, -0.8, 0), (0.8, 0.8, 1.2)))
    lines = [s.line for s in w.steps]
    assert lines == [0, 1, 1, 2, 6, 7, 8]
    chosen = w.steps[4]
    assert "min x at t = 2.2" in chosen.text and "min y 0.888889" in chosen.text
    assert WOO_LISTING[chosen.line].startswith("which = the axis of the largest")
    assert "Yes" in w.steps[5].text and f"t = {ans.first_t:.6g}" in w.steps[6].text
    # the crossing point drawn is the library's hit point
    hit = ans.records.hits.hits[0].point
    assert w.steps[6].marks[0].points[0] == pytest.approx(tuple(hit))


def test_woo_miss_says_why_and_which_coordinate_falls_outside():
    w, ans = walk(Ray((-3, 2, 0.5), (1, 0.2, 0)), AABB((-0.8, -0.8, 0), (0.8, 0.8, 1.2)))
    assert ans.intersects is False
    last = w.steps[-1]
    assert last.line == 4 and "never enters the y slab" in last.text
    # at t = 2.2 the crossing of x = -0.8 has y = 2 + 0.2 * 2.2 = 2.44 > 0.8
    assert "y = 2.44 outside [-0.8, 0.8]" in last.text
    # a segment too short to reach its front plane
    w, _ = walk(Segment((-3, 0, 0.5), (-2, 0, 0.5)), AABB((-0.8, -0.8, 0), (0.8, 0.8, 1.2)))
    assert "does not reach it within its length" in w.steps[1].text


def test_woo_face_check_miss():
    # both front planes reached, but at the chosen crossing z falls outside the face
    # ray from (-2, -2, 5) along (1, 1, 0): t_x = t_y = 1.2, the point (-0.8, -0.8, 5): z > 1.2
    w, ans = walk(Ray((-2, -2, 5), (1, 1, 0)), AABB((-0.8, -0.8, 0), (0.8, 0.8, 1.2)))
    assert ans.intersects is False
    assert any("never enters the z slab" in s.text for s in w.steps)


def test_arvo_and_hultquist():
    w, ans = walk(Sphere((2, 2, 0), 1), AABB((-1, -1, -1), (1, 1, 1)))
    assert "d2 = 2 > r^2 = 1" in w.steps[-1].text  # 1 + 1 + 0 by hand
    assert w.steps[-1].marks[1].points[0] == pytest.approx((1, 1, 0))
    w, ans = walk(Ray((-3, 0.5, 0), (1, 0, 0)), Sphere((0, 0, 0), 1))
    assert "a = e . d = 3" in w.steps[1].text and "= 0.75" in w.steps[2].text
    assert f"{3 - math.sqrt(0.75):.6g}" in w.steps[-1].text
    w, ans = walk(Ray((-3, 2, 0), (1, 0, 0)), Sphere((0, 0, 0), 1))
    assert ans.intersects is False and "misses the sphere" in w.steps[-1].text  # f^2 = -3


def test_panel_steps_and_draws(gui_window, qtbot):
    w = gui_window(WOO, with_panels=True)
    qtbot.waitUntil(lambda: w.scope_actions["pair"].isChecked(), timeout=3000)  # step 1 shown
    w.set_pair("miss", "box")
    dock = next(d for d in w.panel_docks if d.windowTitle() == "Step through")
    dock.raise_()
    panel = dock.widget()
    qtbot.waitUntil(lambda: panel.counter.text() == "1 / 3", timeout=3000)
    assert w.current_pair() == ("miss", "box")
    panel.next_button.click()
    assert "front plane min x" in panel.text.text()
    assert any(n.startswith("steps:") for n in w.viewport.view.overlay_names())
    panel.next_button.click()
    assert "▶" in panel.listing.toPlainText() and "never enters the y slab" in panel.text.text()
    assert not panel.next_button.isEnabled()
    w.set_pair("ray", "box")  # another pair of the same family starts again at step 1
    qtbot.waitUntil(lambda: panel.counter.text().endswith("/ 7"), timeout=3000)
    w.set_pair("ray", "miss")  # two rays: the st-plane candidates
    dock.raise_()  # the window raised the pair's own panels (st-plane, Explain)
    qtbot.waitUntil(lambda: panel.walk is not None and "st-plane" in panel.walk.title,
                    timeout=3000)


def test_badouel_and_stplane():
    from algorithms import Triangle

    tri = Triangle([(0, -1, -1), (0, 1, -1), (0, 0, 1)])
    # hit: the plane x = 0 at t = 3; barycentrics (0.1, 0.3, 0.6) (z = -1 + 2 beta = 0.2)
    w, ans = walk(Ray((-3, 0.2, 0.2), (1, 0, 0)), tri)
    assert "t = 12 / 4 = 3" in w.steps[2].text and "All three >= 0" in w.steps[-1].text
    # miss: at (0, 2, 0.2) gamma = -0.8 < 0
    w, ans = walk(Ray((-3, 2, 0.2), (1, 0, 0)), tri)
    assert ans.intersects is False and "gamma < 0" in w.steps[-1].text
    # behind: t = -12 / 4
    w, _ = walk(Ray((3, 0, 0), (1, 0, 0)), tri)
    assert "behind" in w.steps[-1].text
    # st-plane: region 8, the least candidate on s = 1 at (1, 0): sqrt(1 + 4 + 0.25)
    w, ans = walk(Segment((-1, 0, 0), (1, 0, 0)), Segment((2, 2, 0.5), (2, 4, 0.5)))
    assert "Region 8" in w.steps[2].text
    assert f"distance {math.sqrt(5.25):.6g}" in w.steps[-1].text
    assert ans.distance == pytest.approx(math.sqrt(5.25))
