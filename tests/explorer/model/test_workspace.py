"""The workspace model and the pair policies, without a display (issue 10 part 4)."""

import pytest

from algorithms import AABB, Point, Segment, Sphere
from explorer.model import workspace as policies
from explorer.model.scene import Scene
from explorer.model.workspace import Workspace


def scene_of(n, queries=None):
    scene = Scene()
    for i in range(n):
        scene.add(Point((i, 0, 0)), id=f"p{i}")
    if queries is not None:
        scene.set_queries(queries)
    return scene


def test_setters_emit_only_on_change_and_validate():
    scene = scene_of(3)
    ws = Workspace(scene)
    log = []
    ws.selection_changed.connect(lambda i: log.append(("sel", i)))
    ws.pair_changed.connect(lambda a, b: log.append(("pair", a, b)))
    ws.time_changed.connect(lambda t: log.append(("t", t)))
    ws.select("p1")
    ws.select("p1")            # unchanged: no signal
    ws.select("nope")          # a missing id clears the selection
    ws.set_pair("p0", "p0")    # the same object twice is no pair
    ws.set_pair("p0", "p2")
    ws.set_time(2.0)           # clamped to [0, 1]
    assert log == [("sel", "p1"), ("sel", None), ("pair", "p0", "p2"), ("t", 1.0)]
    with pytest.raises(ValueError, match="scope"):
        ws.set_scope("everything")
    with pytest.raises(ValueError, match="results mode"):
        ws.set_results_mode("all")


def test_a_new_scene_resets_selection_pair_and_time():
    # issue 10 defect: the time line's t survived New/Open and hid every answer overlay
    ws = Workspace(scene_of(3))
    ws.select("p1")
    ws.set_pair("p0", "p1")
    ws.set_time(0.4)
    other = scene_of(2)
    ws.set_scene(other, ("p0", "p1"))
    assert (ws.selected_id, ws.pair, ws.time) == (None, ("p0", "p1"), 0.0)


def test_overlay_toggles_live_in_the_model():
    ws = Workspace(scene_of(2))
    seen = []
    ws.overlays_changed.connect(seen.append)
    ws.set_overlay("closest", False)
    ws.set_overlay("closest", False)
    assert "closest" not in ws.overlays and seen == [ws.overlays - set()]


def test_overlay_pairs_follow_the_scope_and_always_include_the_chosen_pair():
    scene = scene_of(4, queries=[("p0", "p1")])
    ws = Workspace(scene)
    assert policies.overlay_pairs(scene, ws) == [("p0", "p1")]
    ws.set_pair("p3", "p2")
    assert policies.overlay_pairs(scene, ws) == [("p0", "p1"), ("p3", "p2")]
    ws.set_scope("selected")
    ws.select("p2")
    # p2 against every other, in scene order; the chosen pair (p3, p2) is p2's pair already
    pairs = policies.overlay_pairs(scene, ws)
    assert pairs[:3] == [("p0", "p2"), ("p1", "p2"), ("p2", "p3")] and len(pairs) == 3
    ws.set_scope("pair")
    assert policies.overlay_pairs(scene, ws) == [("p3", "p2")]


def test_a_crowded_scene_without_queries_draws_the_selections_pairs_only():
    scene = scene_of(6)   # 15 implicit pairs > MAX_IMPLICIT_PAIRS = 10
    ws = Workspace(scene)
    assert len(scene.pairs()) == 15 > policies.MAX_IMPLICIT_PAIRS
    assert policies.overlay_pairs(scene, ws) == []
    ws.select("p5")
    assert policies.overlay_pairs(scene, ws) == [(f"p{i}", "p5") for i in range(5)]


def test_focus_results_and_panels_policies():
    scene = Scene()
    scene.add(Segment((0, 0, 0), (1, 0, 0)), id="s")
    scene.add(Segment((0, 1, 0), (1, 1, 0)), id="t")
    scene.add(AABB((0, 0, 0), (1, 1, 1)), id="box")
    scene.add(Sphere((5, 0, 0), 1), id="ball", motion=(1, 0, 0))
    ws = Workspace(scene)
    assert policies.focus_pairs(scene, ws) == {("s", "t")}  # the scene's first pair
    ws.select("box")
    assert policies.focus_pairs(scene, ws) == {("s", "box")}
    assert policies.results_pairs(scene, ws) == [("s", "box"), ("t", "box"), ("box", "ball")]
    ws.set_results_mode("pair")
    assert policies.results_pairs(scene, ws) == []
    ws.set_pair("s", "t")
    assert policies.results_pairs(scene, ws) == [("s", "t")]
    assert policies.panels_for(scene, ("s", "t")) == ["st-plane", "Explain"]
    assert policies.panels_for(scene, ("box", "ball")) == ["Results", "Time line"]
    assert policies.panels_for(scene, ("s", "box")) == ["Results", "Explain"]
    assert policies.panels_for(scene, ("s", "missing")) == []


def test_forget_drops_a_removed_object():
    scene = scene_of(3)
    ws = Workspace(scene)
    ws.select("p1")
    ws.set_pair("p1", "p2")
    ws.forget("p1")
    assert ws.selected_id is None and ws.pair is None


def test_a_huge_selection_draws_a_bounded_number_of_pairs():
    # issue 15 (files' note): selecting one of 400 objects drew all 399 pairs (37 s)
    scene = scene_of(400)
    ws = Workspace(scene)
    ws.select("p7")
    ws.set_pair("p398", "p399")
    pairs = policies.overlay_pairs(scene, ws)
    assert len(pairs) == policies.MAX_DRAWN_PAIRS + 1 and pairs[-1] == ("p398", "p399")
    assert pairs[0] == ("p0", "p7") and all("p7" in p for p in pairs[:-1])
