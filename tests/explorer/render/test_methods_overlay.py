"""User methods drawn beside the reference; a disagreeing pair marked (no Qt)."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from algorithms import usermethods
from explorer.model.methods import rows_for_pair
from explorer.model.scenefile import load
from explorer.render.methods_overlay import DISAGREE_COLOR, USER_COLOR, draw_rows
from explorer.render.overlays import Context, Frame

ROOT = Path(__file__).resolve().parents[3]


@pytest.fixture(autouse=True)
def _clean():
    yield
    usermethods.unload_all()


def _frame(scene):
    a, b = scene["A"], scene["B"]
    rows = rows_for_pair(a.primitive, b.primitive, a.motion, b.motion)
    frame = Frame()
    draw_rows(rows, ("A", "B"), Context.for_scene(scene), frame)
    return rows, frame


def test_disagreeing_pair_is_marked_and_the_users_points_drawn():
    usermethods.load_methods(ROOT / "examples" / "buggy_methods.py")
    scene = load(ROOT / "examples" / "clamp_bug.json")
    rows, frame = _frame(scene)
    (row,) = rows
    assert row["method"] == "clamp_separately" and row["agree"] is False
    items = {i.name: i for i in frame.items}
    assert {"ov:userbad:A", "ov:userbad:B"} <= set(items)
    assert items["ov:userbad:A"].kwargs["color"] == DISAGREE_COLOR
    pts = items["ov:user:A:B:clamp_separately:distance:pts"]
    assert pts.kwargs["color"] == USER_COLOR
    # the user's closest points: the lines' minimiser has s > 1 and t < 0, clamped separately
    # to (1, 0): A's second end and B's first end (the reference keeps t = 0 and moves s to
    # B.p0's projection on A, s = 0.1356)
    got = np.asarray(pts.mesh.points)
    assert np.allclose(got, [scene["A"].primitive.p1, scene["B"].primitive.p0])
    assert any("disagrees" in lab.text for lab in frame.labels)


def test_agreeing_methods_draw_no_mark():
    usermethods.load_methods(ROOT / "examples" / "buggy_methods.py")
    scene = load(ROOT / "scenes" / "gui_segments.json")
    rows, frame = _frame(scene)
    assert rows and all(r["agree"] for r in rows)
    assert not [i for i in frame.items if i.name.startswith("ov:userbad")]
    assert [i for i in frame.items if i.name.startswith("ov:user:")]
