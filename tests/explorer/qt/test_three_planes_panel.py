"""The Three planes panel: the point, the determinant and the conditioning meter (A.11)."""

from __future__ import annotations

import pytest

from algorithms import Plane
from explorer import SCENES_DIR
from explorer.present.three_planes import explain, meter

SCENE = SCENES_DIR / "three_planes.json"


def panel_of(w):
    dock = next(d for d in w.panel_docks if d.windowTitle() == "Three planes")
    dock.raise_()
    return dock.widget()


def test_meter_levels():
    assert meter(1.0).fill == 1.0 and meter(1.0).level == "good"
    assert meter(-0.05).level == "fair"      # either sign: |c| counts
    assert meter(1e-4).level == "poor" and meter(1e-4).fill == pytest.approx(2 / 6)
    assert meter(0.0).level == "singular" and meter(0.0).fill == 0.0
    assert meter(1e-9).fill == 0.0           # below the floor: empty, still "poor"


def test_panel_shows_each_query_with_its_point_and_meter(gui_window, qtbot):
    w = gui_window(SCENE, with_panels=True)
    p = panel_of(w)
    qtbot.waitUntil(lambda: "three-planes:point" in w.viewport.view.overlay_names(),
                    timeout=3000)  # drawn once its tab is in front
    assert p.combo.count() == 2  # the scene's two three-planes queries
    # P: x = 1, Q: y = 0.5, R: x + 0.02 y + z = 2 -> z = 2 - 1 - 0.01
    assert p.result["point"] == pytest.approx((1, 0.5, 0.99))
    assert "(1, 0.5, 0.99)" in p.headline.text()
    assert p.bar.value.level == "good"
    assert "three-planes:point" in w.viewport.view.overlay_names()
    p.combo.setCurrentIndex(1)
    # S: x + 0.0008 z = 1.0004 -> z = 0.0004 / 0.0008 = 0.5; unit-normal triple product 0.0008
    assert p.result["point"] == pytest.approx((1, 0.5, 0.5), abs=1e-9)
    assert p.bar.value.level == "poor" and "nearly dependent" in p.meter_words.text()
    # make S exactly parallel to P: no single point, the meter empties, the marker goes
    w.scene.update("S", primitive=Plane((1, 0, 0), 1.0004))
    assert p.result["point"] is None and p.bar.value.level == "singular"
    assert "No single point" in p.headline.text()
    assert "three-planes:point" not in w.viewport.view.overlay_names()


def test_explain_names_the_case():
    from algorithms.extras.planes import three_planes_result

    r = three_planes_result(Plane((1, 0, 0), 0), Plane((0, 1, 0), 0), Plane((1, 1, 0), 0))
    text = " ".join(explain(r))
    assert "Determinant (n1 x n2) . n3 = 0" in text and "No single point" in text


def test_the_marker_goes_with_the_panel(gui_window, qtbot):
    w = gui_window(SCENE, with_panels=True)
    panel_of(w)
    names = w.viewport.view.overlay_names
    qtbot.waitUntil(lambda: "three-planes:point" in names(), timeout=3000)
    next(d for d in w.panel_docks if d.windowTitle() == "Explain").raise_()
    qtbot.waitUntil(lambda: "three-planes:point" not in names(), timeout=3000)
    panel_of(w)
    qtbot.waitUntil(lambda: "three-planes:point" in names(), timeout=3000)
