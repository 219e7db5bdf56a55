"""Conservative advancement on the time line and in the step-through (issue 13 part 2), and
the Minkowski shapes of moving pairs (part 3), in the Qt panels."""

from __future__ import annotations

import pytest
from PyQt6.QtGui import QColor, QImage, QPainter

from explorer import SCENES_DIR
from explorer.model import scenefile
from explorer.present.advancement import advancement_steps
from explorer.qt.panels.timeline import TimelinePanel
from tests.explorer.qt.test_panels import make

ADV = SCENES_DIR / "advancement.json"


def _blue(c: QColor) -> bool:
    """The step colour #1565c0 (blue - red = 171), antialiased over the chart's #eef3f8
    (blue - red = 10); the distance curve's purple has 59."""
    return c.blue() - c.red() > 90


def test_time_line_ticks_at_each_advancement_step(qtbot):
    scene = scenefile.load(ADV)
    panel, _, _ = make(qtbot, TimelinePanel, scene, ("ball", "box"))
    a, b = scene["ball"], scene["box"]
    rows = advancement_steps(panel.result, a.primitive, b.primitive, a.motion, b.motion)
    # the chart holds every step (t_i, d(t_i), t_i + dt), the last one at the time of impact
    assert [s[1] for s in panel.chart.steps] == [r["t"] for r in rows]
    assert [s[0] for s in panel.chart.steps][-1] == "toi"
    assert panel.chart.steps[-1][1] == panel.toi
    assert panel.chart.steps[0][3] == pytest.approx(rows[0]["dt"])
    assert "Conservative advancement (ticks): t0 = 0 (d = 3.17)" in panel.info.text()
    # painted: a tick of the step colour runs down to the t axis at t1 (and none midway)
    panel.compute_curve()
    w, h = 480, 240
    img = QImage(w, h, QImage.Format.Format_RGB32)
    p = QPainter(img)
    panel.chart.paint(p, w, h)
    p.end()
    base = h - 20
    x1 = round(panel.chart._x(rows[1]["t"], w))
    assert any(_blue(img.pixelColor(x, base - 4)) for x in range(x1 - 2, x1 + 3))
    x_mid = round(panel.chart._x(0.8, w))
    assert not any(_blue(img.pixelColor(x, base - 4)) for x in range(x_mid - 2, x_mid + 3))
    # a pair answered exactly (A.17 boxes) has no advancement ticks
    scene2 = scenefile.load(SCENES_DIR / "timeline_aabbs.json")
    panel2, _, _ = make(qtbot, TimelinePanel, scene2, ("A", "B"))
    assert panel2.chart.steps == [] and "advancement" not in panel2.info.text()


def test_step_through_places_the_objects_at_each_t_i(gui_window, qtbot):
    w = gui_window(ADV, with_panels=True)
    w.set_pair("ball", "box")
    dock = next(d for d in w.panel_docks if d.windowTitle() == "Step through")
    dock.raise_()
    panel = dock.widget()
    qtbot.waitUntil(lambda: panel.walk is not None and panel.counter.text() == "1 / 12",
                    timeout=4000)
    assert "conservative advancement" in panel.walk.title
    panel.go(4)  # step 2: the distance query at t1
    assert "Step 2: t = 0.53205" in panel.text.text()
    names = set(w.viewport.view.overlay_names())
    assert "steps:4:0" in names and "steps:4:0:wire" in names  # the ball at t1
    assert "steps:4:1" in names  # the closest-point segment
    assert "▶" in panel.listing.toPlainText()
    ball_t1 = panel.walk.steps[4].marks[0].shape
    t1 = advancement_steps(panel.result, w.scene["ball"].primitive, w.scene["box"].primitive,
                           w.scene["ball"].motion, None)[1]["t"]
    assert ball_t1.center == pytest.approx((-3 + 6 * t1, 0.4, 0.8))


def test_minkowski_shape_toggle_in_the_view_menu(gui_window, qtbot):
    w = gui_window(SCENES_DIR / "gui_moving_sphere.json")
    w.set_pair("ball", "wall")

    def drawn():
        return {n for n in w.viewport.view.overlay_names() if "minkowski" in n}

    qtbot.waitUntil(lambda: "ov:minkowski:ball:wall:shape" in drawn(), timeout=4000)
    act = w.overlay_actions["minkowski"]
    assert act.isChecked() and act in w.view_menu.actions()
    act.trigger()  # off
    qtbot.waitUntil(lambda: not drawn(), timeout=4000)
    assert "minkowski" not in w.workspace.overlays
    act.trigger()  # on again
    qtbot.waitUntil(lambda: "ov:minkowski:ball:wall:entry" in drawn(), timeout=4000)


def test_time_line_swept_interval_of_the_rounded_box(qtbot):
    from algorithms import AABB, Sphere
    from explorer.model.scene import Scene

    # a sphere r = 1 at x = -5 moving +10 against the box [-1, 1]^3: its centre is inside the
    # box grown by 1 while x is in [-2, 2]: t in [0.3, 0.7]; it enters at the toi 0.3
    scene = Scene()
    scene.add(Sphere((-5, 0, 0), 1.0), id="s", motion=(10, 0, 0))
    scene.add(AABB((-1, -1, -1), (1, 1, 1)), id="b")
    panel, _, _ = make(qtbot, TimelinePanel, scene, ("s", "b"))
    label, te, tl = panel.chart.swept
    assert (te, tl) == pytest.approx((0.3, 0.7), abs=1e-12) and te == pytest.approx(panel.toi)
    assert label == "in r⊕box"
    assert "t in [0.3, 0.7]" in panel.info.text()
    # two spheres: r 1 still at the origin, r 0.5 from x = 5 moving -10: |x| <= 1.5 for
    # t in [0.35, 0.65]
    scene = Scene()
    scene.add(Sphere((0, 0, 0), 1.0), id="A")
    scene.add(Sphere((5, 0, 0), 0.5), id="B", motion=(-10, 0, 0))
    panel, _, _ = make(qtbot, TimelinePanel, scene, ("A", "B"))
    assert panel.chart.swept[1:] == pytest.approx((0.35, 0.65))
    assert panel.chart.swept[0] == "in rA+rB"
    # a sphere r 0.5 falling from z = 2 by 3 onto the plane z = 0 (A.15): its centre is within
    # 0.5 of the plane while 2 - 3t is in [-0.5, 0.5]: t in [0.5, 5/6]
    from algorithms import Plane

    scene = Scene()
    scene.add(Sphere((0, 0, 2), 0.5), id="s", motion=(0, 0, -3))
    scene.add(Plane((0, 0, 1), 0.0), id="p")
    panel, _, _ = make(qtbot, TimelinePanel, scene, ("s", "p"))
    assert panel.chart.swept[0] == "in slab ±r"
    assert panel.chart.swept[1:] == pytest.approx((0.5, 5 / 6), abs=1e-12)
    # A.17 boxes keep their per-axis bars and get no extra one
    scene2 = scenefile.load(SCENES_DIR / "timeline_aabbs.json")
    panel2, _, _ = make(qtbot, TimelinePanel, scene2, ("A", "B"))
    assert panel2.chart.swept is None and len(panel2.chart.rows) == 3
