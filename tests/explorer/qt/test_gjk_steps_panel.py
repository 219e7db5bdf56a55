"""The Step through panel on GJK (issue 13, part 2): two cylinders of a shipped scene, stepped
with Next/Previous; the listing's current line is marked and the Minkowski difference, the
origin, the simplex and v are drawn as overlay actors."""

from __future__ import annotations

import numpy as np

from explorer import SCENES_DIR
from explorer.present.steps import GJK_LISTING

SCENE = SCENES_DIR / "sat_cylinders.json"


def _marked_line(panel) -> str:
    rows = [r for r in panel.listing.toPlainText().splitlines() if "▶" in r]
    assert len(rows) == 1, rows
    return rows[0].replace("▶", "").replace("\xa0", " ").strip()


def test_gjk_steps_on_two_cylinders(gui_window, qtbot):
    w = gui_window(SCENE, with_panels=True)
    w.set_pair("C0", "C1")
    dock = next(d for d in w.panel_docks if d.windowTitle() == "Step through")
    dock.raise_()
    panel = dock.widget()
    qtbot.waitUntil(lambda: panel.walk is not None and "GJK" in panel.walk.title,
                    timeout=5000)
    n = len(panel.walk.steps)
    assert panel.counter.text() == f"1 / {n}" and n > 10  # a curved contact: many iterations
    assert _marked_line(panel) == GJK_LISTING[0]
    assert "v = c_A - c_B" in panel.text.text()

    def shown(kind):
        """The overlay meshes of the current step's marks of ``kind``."""
        step = panel.walk.steps[panel.index]
        meshes = w.viewport.view.overlay_meshes()
        return [meshes[f"steps:{panel.index}:{k}"] for k, m in enumerate(step.marks)
                if m.kind == kind]

    # the dock's tab came up: the panel draws once it is on screen
    qtbot.waitUntil(lambda: "steps:0:0" in w.viewport.view.overlay_meshes(), timeout=5000)
    hull = shown("hull")
    assert len(hull) == 1 and hull[0].n_cells > 100  # the Minkowski difference's surface
    # the drawn surface spans the sampled support points of A - B
    pts = np.asarray(panel.walk.steps[0].marks[0].points)
    assert np.allclose(hull[0].bounds, [pts[:, 0].min(), pts[:, 0].max(), pts[:, 1].min(),
                                        pts[:, 1].max(), pts[:, 2].min(), pts[:, 2].max()])
    panel.next_button.click()  # the first support point
    assert _marked_line(panel) == GJK_LISTING[1] and "s_A(-v)" in panel.text.text()
    assert any(n.startswith("steps:") and n.endswith(":label") for n in
               w.viewport.view.overlay_names())
    # walk to the first step whose simplex is a triangle: its face is drawn
    while not shown("triangles") and panel.next_button.isEnabled():
        panel.next_button.click()
    assert shown("triangles"), "no triangle simplex drawn"
    assert _marked_line(panel) == GJK_LISTING[panel.walk.steps[panel.index].line]
    panel.prev_button.click()
    assert panel.counter.text().startswith(f"{panel.index + 1} /")
    panel.go(n - 1)  # the last step: the distance line and the pair's distance
    assert _marked_line(panel) == GJK_LISTING[-1]
    # the scene's answer (tests/golden/eval/sat_cylinders.json: 0.318850765302611)
    assert "the pair's distance is 0.318851" in panel.text.text()
    assert "|v| = 0.318851" in panel.text.text()
    assert not panel.next_button.isEnabled()
