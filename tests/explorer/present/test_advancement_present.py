"""Conservative advancement's step-through and time-line rows (issue 13 part 2), without a
display: the steps are the library's recorded run, in world coordinates."""

from __future__ import annotations

import math

import pytest

from algorithms import Capsule, Sphere, query
from explorer import SCENES_DIR
from explorer.model.scenefile import load
from explorer.present.advancement import advancement_steps, answered_by_advancement
from explorer.present.steps import CA_LISTING, CA_TITLE, walkthrough

# the shipped scene: a ball (r 0.5, centre (-3, 0.4, 0.8)) moving (6, 0, 0) past a box turned
# 45 degrees about z (centre (1.5, 0, 0.8), half-extents 0.6): its vertical edge nearest the
# ball is the line x = 1.5 - 0.6 sqrt 2, y = 0, so d(0) = sqrt(3.651472^2 + 0.4^2) - 0.5
EDGE_X = 1.5 - 0.6 * math.sqrt(2)
D0 = math.hypot(-3 - EDGE_X, 0.4) - 0.5  # 3.17332
# n points from the ball to the edge; the relative motion of the box is (-6, 0, 0), so the
# closing-speed bound is -n . (-6, 0, 0) = 6 (3.651472 / 3.673316) = 5.96432
V0 = 6 * (EDGE_X + 3) / math.hypot(EDGE_X + 3, 0.4)


def scene_pair():
    scene = load(SCENES_DIR / "advancement.json")
    a, b = scene["ball"], scene["box"]
    return scene, a, b, scene.answer("ball", "box")


def test_the_shipped_scene_is_answered_by_advancement_and_its_steps_are_the_runs():
    scene, a, b, ans = scene_pair()
    assert answered_by_advancement(ans)
    rows = advancement_steps(ans, a.primitive, b.primitive, a.motion, b.motion)
    assert [r["phase"] for r in rows] == ["advance", "advance", "advance", "toi"]
    assert rows[0]["distance"] == pytest.approx(D0, rel=1e-12)
    assert rows[0]["closing_speed"] == pytest.approx(V0, rel=1e-12)
    assert rows[0]["dt"] == pytest.approx(D0 / V0, abs=1e-8)
    assert rows[-1]["t"] == ans.toi
    # the box is still: world = A's frame; the ball's closest point at t0 is 0.5 from its centre
    pa = rows[0]["world"][0]
    assert math.dist(pa, (-3, 0.4, 0.8)) == pytest.approx(0.5)
    assert rows[0]["world"][1] == pytest.approx((EDGE_X, 0, 0.8))


def test_the_step_through_walks_the_listing_with_the_values():
    scene, a, b, ans = scene_pair()
    w = walkthrough(ans, a.primitive, b.primitive, motions=(a.motion, b.motion))
    assert w.title == CA_TITLE and w.listing == CA_LISTING
    # start; three iterations of (distance, bound, step); the contact's distance and verdict
    assert [s.line for s in w.steps] == [0, 1, 3, 5, 1, 3, 5, 1, 3, 5, 1, 2]
    assert f"d = {D0:.6g}" in w.steps[1].text
    assert f"v = -n . d = {V0:.6g}" in w.steps[2].text
    assert f"dt = d / v = {D0:.6g} / {V0:.6g} = " in w.steps[3].text
    assert f"contact at toi = {ans.toi:.6g} after 3 advancement steps" in w.steps[-1].text
    # the ball drawn at t_i: its centre moved by t_i (6, 0, 0); the box is still: no ghost
    rows = advancement_steps(ans, a.primitive, b.primitive, a.motion, b.motion)
    t1 = rows[1]["t"]
    ghosts = [m for m in w.steps[4].marks if m.kind == "shape"]
    assert len(ghosts) == 1
    assert ghosts[0].shape.center == pytest.approx((-3 + 6 * t1, 0.4, 0.8))
    seg = next(m for m in w.steps[4].marks if m.kind == "segment")
    assert math.dist(*seg.points) == pytest.approx(rows[1]["distance"], abs=1e-12)
    # the ball's advance relative to the box (dt times its motion) starts at its closest
    # point and covers the gap along n exactly: the bound cannot pass the contact
    adv = next(m for m in w.steps[3].marks if m.text.startswith("dt ="))
    assert adv.points[0] == pytest.approx(rows[0]["world"][0])
    n = rows[0]["normal"]
    along = sum((q - p) * c for p, q, c in zip(*adv.points, n))
    assert along == pytest.approx(D0, abs=1e-8)
    assert "A's advance relative to B, (" in w.steps[3].text


def test_both_moving_the_world_points_are_the_closest_points_at_t_i():
    # a capsule moving (3, 0, 0) and a ball moving (-2, -0.2, 0): relative motion (-5, -0.2, 0)
    cap, ball = Capsule((-2, 0, 0), (-2, 0, 1), 0.3), Sphere((2, 0.3, 0.5), 0.4)
    ma, mb = (3.0, 0.0, 0.0), (-2.0, -0.2, 0.0)
    from algorithms.evaluate import evaluate_pair

    ans = evaluate_pair(cap, ball, ma, mb)
    assert answered_by_advancement(ans)
    rows = advancement_steps(ans, cap, ball, ma, mb)
    assert rows[-1]["phase"] == "toi" and rows[-1]["t"] == pytest.approx(ans.toi)
    for r in rows:
        t = r["t"]
        a_t = cap.translated(tuple(t * c for c in ma))
        b_t = ball.translated(tuple(t * c for c in mb))
        d = query("distance", a_t, b_t)
        assert d.distance == pytest.approx(r["distance"], abs=1e-9)
        for got, want in zip(r["world"], d.closest):
            assert got == pytest.approx(tuple(want), abs=1e-7)


def test_exact_pairs_keep_their_own_step_through():
    # A.13 moving spheres: exact, not advancement; the step-through is not the CA one
    a, b = Sphere((0, 0, 0), 1.0), Sphere((5, 0, 0), 1.0)
    from algorithms.evaluate import evaluate_pair

    ans = evaluate_pair(a, b, None, (-10.0, 0.0, 0.0))
    assert ans.toi == pytest.approx(0.3) and not answered_by_advancement(ans)
    assert advancement_steps(ans, a, b, None, (-10.0, 0.0, 0.0)) is None
    w = walkthrough(ans, a, b, motions=(None, (-10.0, 0.0, 0.0)))
    assert w is None or w.title != CA_TITLE
