"""The algorithm panels of issue 7, built without a window: from the Qt-free model (a
:class:`~explorer.model.workspace.Workspace` holding the chosen pair, :class:`Commands`) and a
recording viewport (``add_overlay``, ``remove_overlay``, ``set_time``, ``render``). One test at
the end runs the real window.
"""

from __future__ import annotations

import math
import statistics
import time
import xml.etree.ElementTree as ET
from fractions import Fraction
from pathlib import Path

import numpy as np
import pytest
from PyQt6.QtCore import Qt
from PyQt6.QtGui import QImage

from algorithms import AABB, Line, Ray, Segment
from algorithms.report import result_json as J  # the scene-v1 object of a typed answer
from algorithms.kernels.stplane import minimize
from explorer.model import scenefile
from explorer.model.commands import Commands
from explorer.model.scene import Scene
from explorer.model.undo import UndoStack
from explorer.model.workspace import Workspace
from explorer.present.stplane import TRANSPOSED_REGION, stplane
from explorer.qt.panels import PANELS, update_all
from explorer.qt.panels.explain import ExplainPanel, sources, to_html
from explorer.qt.panels.sat import SatInspectorPanel
from explorer.qt.panels.stplane import StPlanePanel
from explorer.qt.panels.timeline import TimelinePanel

SCENES = Path(__file__).resolve().parents[3] / "scenes"


class FakeViewport:
    def __init__(self):
        self.calls = []
        self.overlays = {}
        self.times = []

    def add_overlay(self, name, mesh, **kwargs):
        self.calls.append(("add", name))
        self.overlays[name] = (mesh, kwargs)

    def remove_overlay(self, name):
        self.calls.append(("remove", name))
        for key in [k for k in self.overlays if k.startswith(name)]:
            del self.overlays[key]

    def set_time(self, t):
        self.times.append(t)

    def render(self):
        self.calls.append(("render",))


def model(scene, pair=("", "")):
    """The model a panel is built from: the workspace (``pair`` chosen) and the commands."""
    ws = Workspace(scene)
    ws.set_pair(*pair)
    return ws, Commands(scene, UndoStack(scene), ws)


def make(qtbot, panel_cls, scene, pair):
    (ws, commands), viewport = model(scene, pair), FakeViewport()
    panel = panel_cls(scene, ws, commands, viewport)
    qtbot.addWidget(panel)
    panel.resize(420, 480)
    panel.show()
    return panel, ws, viewport


def scene_with(*items):
    scene = Scene()
    for obj_id, prim, motion in items:
        scene.add(prim, id=obj_id, motion=motion)
    return scene


# ============================================================================ st-plane
# The shipped scenes were built with L0(s) = (-1,0,0) + s (2,0,0), m1 = (0.9,1.6,0.5) and
# B = L0(s_bar) + 0.7 n - t_bar m1 (n the unit common normal), so the lines' closest points are
# at exactly these (s_bar, t_bar) up to the 4-decimal rounding of the file.
TARGET = {0: (0.45, 0.55), 1: (1.7, 0.4), 2: (1.6, 1.8), 3: (0.4, 1.7), 4: (-0.6, 1.6),
          5: (-0.7, 0.45), 6: (-0.6, -0.7), 7: (0.55, -0.6), 8: (1.7, -0.5)}


@pytest.mark.parametrize("region", range(9))
def test_diagram_shows_the_region_of_each_shipped_scene(qtbot, region):
    scene = scenefile.load(SCENES / f"stplane_region{region}.json")
    panel, _, _ = make(qtbot, StPlanePanel, scene, ("A", "B"))
    q = panel.model
    assert q.region == region
    assert panel.algorithm_region() == region  # the algorithm's trace agrees
    assert q.s_bar == pytest.approx(TARGET[region][0], abs=2e-3)
    assert q.t_bar == pytest.approx(TARGET[region][1], abs=2e-3)
    trace = J(panel.result)["trace"]
    assert (q.s, q.t) == pytest.approx((trace["s"], trace["t"]), abs=1e-9)
    assert math.sqrt(q.q_min) == pytest.approx(J(panel.result)["distance"], abs=1e-9)
    # the book's rule: outside region 0 the minimum is on the domain's boundary
    on_edge = min(abs(q.s), abs(q.s - 1), abs(q.t), abs(q.t - 1))
    assert (on_edge == 0) == (region != 0)
    assert f"region {region}" in panel.info.text()


def _exact_sqr(kind_a, pa, kind_b, pb):
    make_prim = {"segment": Segment, "ray": Ray, "line": Line}
    A = make_prim[kind_a](*pa, exact=True)
    B = make_prim[kind_b](*pb, exact=True)
    return minimize(A, B).sqr_distance


def test_stplane_minimum_matches_exact_rational_minimiser():
    """The diagram's own minimiser against the algorithm's exact (Fraction) answer, on random
    segment/ray/line pairs with small-integer coordinates (some parallel, some degenerate)."""
    rng = np.random.default_rng(3)
    kinds = ("segment", "ray", "line")
    make_prim = {"segment": Segment, "ray": Ray, "line": Line}
    checked = 0
    for _ in range(300):
        ka, kb = rng.choice(kinds), rng.choice(kinds)
        pa = [tuple(int(v) for v in rng.integers(-3, 4, 3)) for _ in range(2)]
        pb = [tuple(int(v) for v in rng.integers(-3, 4, 3)) for _ in range(2)]
        if rng.random() < 0.2:  # parallel B
            d = np.subtract(pa[1], pa[0]) if ka == "segment" else np.array(pa[1])
            pb[1] = tuple(int(v) for v in (np.array(pb[0]) + 2 * d)) if kb == "segment" \
                else tuple(int(v) for v in 2 * d)
        try:
            A, B = make_prim[ka](*pa), make_prim[kb](*pb)
        except ValueError:  # zero direction of a ray or line
            continue
        q = stplane(A, B)
        exact = _exact_sqr(ka, pa, kb, pb)
        assert isinstance(exact, Fraction)
        assert q.q_min == pytest.approx(float(exact), rel=1e-9, abs=1e-9), (ka, pa, kb, pb)
        assert q.Q(q.s, q.t) == pytest.approx(float(exact), rel=1e-9, abs=1e-9)
        assert q.clamp(q.s, q.t) == (q.s, q.t)
        # swapping the arguments transposes the st-plane: same minimum, s <-> t, region
        # mirrored in the diagonal (1 <-> 3, 5 <-> 7, 4 <-> 8)
        r = stplane(B, A)
        assert r.q_min == pytest.approx(q.q_min, rel=1e-9, abs=1e-9)
        if q.region is not None:
            assert r.region == TRANSPOSED_REGION[q.region]
            assert (r.s_bar, r.t_bar) == pytest.approx((q.t_bar, q.s_bar), rel=1e-9, abs=1e-9)
        else:
            assert r.region is None
        checked += 1
    assert checked > 200


def test_stplane_hand_cases():
    # A = x axis segment [0,1], B = segment at x = 2 from y = -1 to 1, z = 1: perpendicular;
    # s_bar = 2 (projection of x = 2), t_bar = 1/2: region 1; the minimum is at (1, 1/2), the
    # squared distance (2 - 1)^2 + 1^2 = 2.
    q = stplane(Segment((0, 0, 0), (1, 0, 0)), Segment((2, -1, 1), (2, 1, 1)))
    assert (q.a, q.b, q.c) == (1, 0, 4) and q.det == 4
    assert (q.s_bar, q.t_bar, q.region) == (2, 0.5, 1)
    assert (q.s, q.t, q.q_min) == (1, 0.5, 2)
    # parallel: B = A shifted by (3, 1, 0); no single (s_bar, t_bar); minimum (1, 0), Q = 4 + 1
    q = stplane(Segment((0, 0, 0), (1, 0, 0)), Segment((3, 1, 0), (4, 1, 0)))
    assert q.parallel and q.region is None
    assert (q.s, q.t, q.q_min) == (1, 0, 5)
    # a zero-length segment against a ray: Q(s, t) = |(0,0,2) - t (1,0,0)|^2 + ... -> t = 0
    q = stplane(Segment((0, 0, 2), (0, 0, 2)), Ray((0, 0, 0), (1, 0, 0)))
    assert q.parallel and q.q_min == 4 and q.t == 0
    # the transposed region table: s and t exchanged
    assert TRANSPOSED_REGION == {0: 0, 1: 3, 2: 2, 3: 1, 4: 8, 5: 7, 6: 6, 7: 5, 8: 4}


def test_level_curves_lie_on_their_level():
    from explorer.present.stplane import ellipse_points, level_segments, well_conditioned

    # well conditioned: the parametric ellipse is exact up to rounding
    q = stplane(Segment((0, 0, 0), (1, 0, 0)), Segment((2, -1, 1), (2.5, 1, 1.5)))
    assert well_conditioned(q)
    for level in (q.q_min, q.q_min * 2):
        (poly,) = ellipse_points(q, level, view=(-1, 3, -1, 2))
        assert np.allclose(q.Q(poly[:, 0], poly[:, 1]), level, rtol=1e-9)
    # nearly parallel, coplanar: the lines meet near s = t = -1e6, so the ellipses are 1e6
    # long and 1 wide; the free minimum is 0 ((D.n)^2/|n|^2), and the constrained one
    # is at (0.2, 0) with Q = 1 (the distance between the segments' supporting lines there)
    q = stplane(Segment((0, 0, 0), (1, 0, 0)), Segment((0.2, 1, 0), (1.2, 1.000001, 0)))
    assert not q.parallel and q.region == 6 and q.q_free == pytest.approx(0, abs=1e-9)
    assert (q.s, q.t) == pytest.approx((0.2, 0.0), abs=1e-9) and q.q_min == pytest.approx(1)
    assert not well_conditioned(q)
    view = (-0.5, 1.5, -0.5, 1.5)
    for level in (1.0, 2.0):
        segs = level_segments(q, level, view)
        assert len(segs) > 10
        pts = segs.reshape(-1, 2)
        # marching squares interpolates linearly on a 1/40 grid: Q is within a few 1e-3
        assert np.abs(q.Q(pts[:, 0], pts[:, 1]) - level).max() < 5e-3 * level


def test_diagram_paints_degenerate_pairs(qtbot):
    cases = [
        (Segment((0, 0, 0), (0, 0, 0)), Segment((1, 1, 1), (1, 1, 1))),  # two points
        (Segment((0, 0, 0), (0, 0, 0)), Line((1, 1, 1), (1, 0, 0))),  # a point and a line
        (Segment((1e6, 1e6, 0), (1e6 + 1, 1e6, 0)), Segment((1e6 + 2, 1e6 - 1, 1),
                                                            (1e6 + 2, 1e6 + 1, 1))),
        (Segment((0, 0, 0), (1, 0, 0)), Segment((0.5, -1, 0), (0.5, 1, 0))),  # crossing
        (Ray((0, 0, 0), (1, 0, 0)), Ray((2, -1, 1), (-1, -1, 0))),
        (Line((0, 0, 0), (1, 0, 0)), Segment((3, 1, 0), (5, 1, 0))),  # parallel
        (Segment((0, 0, 0), (1, 0, 0)), Segment((0.2, 1, 0), (1.2, 1.000001, 0))),
    ]
    for a, b in cases:
        scene = scene_with(("A", a, None), ("B", b, None))
        panel, _, _ = make(qtbot, StPlanePanel, scene, ("A", "B"))
        panel.grab()
        q = panel.model
        assert math.sqrt(q.q_min) == pytest.approx(J(panel.result)["distance"], abs=1e-6)
        assert panel.algorithm_region() == q.region


def test_diagram_for_ray_and_line_domains(qtbot):
    # ray along x from the origin, segment crossing x = 2.5 above it: (s_bar, t_bar) = (2.5, .5)
    # is inside the half-strip [0, inf) x [0, 1]: region 0 even though s_bar > 1
    scene = scene_with(("R", Ray((0, 0, 0), (1, 0, 0)), None),
                       ("S", Segment((2.5, -1, 1), (2.5, 1, 1)), None))
    panel, _, _ = make(qtbot, StPlanePanel, scene, ("R", "S"))
    assert panel.model.region == 0 and panel.model.s == pytest.approx(2.5)
    assert panel.algorithm_region() == 0
    # line against line, parallel: the whole plane, no exception, distance 1
    scene = scene_with(("L", Line((0, 0, 0), (1, 0, 0)), None),
                       ("M", Line((0, 1, 0), (-2, 0, 0)), None))
    panel, _, _ = make(qtbot, StPlanePanel, scene, ("L", "M"))
    assert panel.model.parallel and panel.model.q_min == pytest.approx(1.0)
    assert panel.refusal is None and "library" not in panel.info.text()
    panel.grab()  # paints without error


def test_diagram_of_lines_the_library_refuses_says_so(qtbot):
    # (0,0,0) + s (0,1,0) and (1,0,0) + t (1e-310, 1, 0) cross at y = -1e310, beyond the floats:
    # the library refuses the pair (stplane.BeyondFloatRange), while the diagram's plain
    # floats see two parallel lines 1 apart; its text must not pass that off as the answer
    scene = scene_with(("L", Line((0, 0, 0), (0, 1, 0)), None),
                       ("M", Line((1, 0, 0), (1e-310, 1, 0)), None))
    panel, _, _ = make(qtbot, StPlanePanel, scene, ("L", "M"))
    assert panel.model.parallel
    assert "beyond the float range" in panel.refusal
    assert "The library gives no answer for this pair" in panel.info.text()
    panel.grab()


def test_dragging_st_moves_the_3d_markers(qtbot):
    scene = scenefile.load(SCENES / "stplane_region1.json")
    panel, _, viewport = make(qtbot, StPlanePanel, scene, ("A", "B"))
    diagram = panel.diagram
    target = (0.25, 0.75)
    start, end = diagram.to_px(0.5, 0.5), diagram.to_px(*target)
    qtbot.mousePress(diagram, Qt.MouseButton.LeftButton, pos=start.toPoint())
    qtbot.mouseMove(diagram, pos=end.toPoint())
    qtbot.mouseRelease(diagram, Qt.MouseButton.LeftButton, pos=end.toPoint())
    s, t = diagram.probe
    assert (s, t) == pytest.approx(target, abs=0.02)  # one pixel is < 0.02 in (s, t)
    A, B = scene["A"].primitive, scene["B"].primitive
    want_a = np.add(A.p0, s * np.subtract(A.p1, A.p0))
    want_b = np.add(B.p0, t * np.subtract(B.p1, B.p0))
    mesh_a, kw_a = viewport.overlays["stplane:probe_a"]
    mesh_b, _ = viewport.overlays["stplane:probe_b"]
    assert np.asarray(mesh_a.points[0]) == pytest.approx(want_a, abs=1e-12)
    assert np.asarray(mesh_b.points[0]) == pytest.approx(want_b, abs=1e-12)
    link, _ = viewport.overlays["stplane:probe_link"]
    assert np.asarray(link.points[[0, -1]]) == pytest.approx(np.array([want_a, want_b]), abs=1e-5)
    assert ("render",) in viewport.calls
    q = float(panel.model.Q(s, t))
    assert q == pytest.approx(float(np.sum((want_a - want_b) ** 2)), rel=1e-12)
    assert f"Q = {q:.4g}" in panel.info.text()
    # dragging outside the domain clamps to it
    qtbot.mousePress(diagram, Qt.MouseButton.LeftButton, pos=diagram.to_px(3, -3).toPoint())
    assert diagram.probe == (1.0, 0.0)


def test_diagram_follows_the_3d_drag_and_the_pair(qtbot):
    scene = scenefile.load(SCENES / "stplane_region1.json")
    panel, ws, viewport = make(qtbot, StPlanePanel, scene, ("A", "B"))
    B = scene["B"].primitive
    # move B along -x by 1.6: both closest points move by -1.6 in x, so s_bar 1.7 -> 0.9
    # (|m0| = 2) and t_bar stays 0.4: inside the square, region 0
    scene.update("B", primitive=B.translated((-1.6, 0, 0)))
    assert (panel.model.s_bar, panel.model.t_bar) == pytest.approx((0.9, 0.4), abs=2e-3)
    assert panel.model.region == 0 and panel.algorithm_region() == 0
    # a pair that is not linear: the diagram empties and its markers go
    scene.add(AABB((0, 0, 0), (1, 1, 1)), id="box")
    ws.set_pair("A", "box")
    assert panel.model is None and not viewport.overlays
    ws.set_pair("A", "B")
    assert panel.model.region == 0
    scene.remove("B")
    assert panel.model is None


def test_clip_polyline():
    from explorer.qt.panels.stplane import clip_polyline

    # a horizontal line through the box [0, 10]^2 keeps x in [0, 10]
    assert clip_polyline([(-10, 5), (20, 5)], 0, 0, 10, 10) == [[(0, 5), (10, 5)]]
    # out, in, in, out: one run, entering at y = 0 and leaving at x = 10
    runs = clip_polyline([(5, -5), (5, 5), (8, 5), (12, 5)], 0, 0, 10, 10)
    assert runs == [[(5, 0), (5, 5), (8, 5), (10, 5)]]
    # in, out, in: two runs
    runs = clip_polyline([(1, 1), (1, 20), (2, 1)], 0, 0, 10, 10)
    assert len(runs) == 2 and runs[0][-1] == (1, 10)
    assert clip_polyline([(20, 20), (30, 30)], 0, 0, 10, 10) == []


def test_exports_png_and_svg(qtbot, tmp_path):
    scene = scenefile.load(SCENES / "stplane_region2.json")
    panel, _, _ = make(qtbot, StPlanePanel, scene, ("A", "B"))
    png, svg = tmp_path / "st.png", tmp_path / "st.svg"
    panel.export_png(str(png))
    panel.export_svg(str(svg))
    image = QImage(str(png))
    assert not image.isNull() and image.width() >= 380
    colours = {image.pixel(x, y) for x in range(0, image.width(), 7)
               for y in range(0, image.height(), 7)}
    assert len(colours) > 20  # not blank: domain, regions, curves, text
    root = ET.parse(svg).getroot()
    assert root.tag.endswith("svg")
    assert sum(1 for el in root.iter() if el.tag.endswith(("path", "polyline", "text"))) > 20


# ============================================================================ separating axes
def test_inspector_lists_axes_and_selecting_draws_the_axis(qtbot):
    scene = scenefile.load(SCENES / "sat_obb_edge_edge.json")
    panel, _, viewport = make(qtbot, SatInspectorPanel, scene, ("A", "B"))
    names = [ax["name"] for ax in panel.axes]
    assert len(names) >= 14 and {"A0", "A1", "A2", "B0", "B1", "B2"} <= set(names)
    separating = [ax for ax in panel.axes if ax["separating"]]
    # the scene was built so that only one edge-edge axis separates (no face axis does)
    assert [ax["name"] for ax in separating] == ["A0xB0"]
    # sorted with the separating row first, marked with a star
    assert panel.table.item(0, 1).text() == "A0xB0" and panel.table.item(0, 0).text() == "★"
    assert not any(k.startswith("sat:") for k in viewport.overlays)
    panel.select_axis("A0xB0")
    assert panel.selected_name == "A0xB0"
    n = np.asarray(separating[0]["axis"])
    line, kw = viewport.overlays["sat:axis"]
    direction = np.subtract(line.points[-1], line.points[0])
    # (PyVista stores line points in float32: compare to 1e-6)
    assert abs(np.dot(direction / np.linalg.norm(direction), n)) == pytest.approx(1, abs=1e-6)
    # both intervals lie on the axis at their projections, and are disjoint (separating)
    (lo_a, hi_a), (lo_b, hi_b) = panel.intervals
    ia, _ = viewport.overlays["sat:interval_a"]
    ib, _ = viewport.overlays["sat:interval_b"]
    assert sorted(np.asarray(ia.points) @ n) == pytest.approx([lo_a, hi_a], abs=1e-5)
    assert sorted(np.asarray(ib.points) @ n) == pytest.approx([lo_b, hi_b], abs=1e-5)
    assert hi_a < lo_b or hi_b < lo_a
    r_sum = separating[0]["r_A"] + separating[0]["r_B"]
    assert (hi_a - lo_a) + (hi_b - lo_b) == pytest.approx(2 * r_sum, abs=1e-9)
    # a non-separating row: overlapping intervals
    panel.select_axis("A0")
    (lo_a, hi_a), (lo_b, hi_b) = panel.intervals
    assert not (hi_a < lo_b or hi_b < lo_a)


def test_inspector_filter_sort_and_live_update(qtbot):
    scene = scenefile.load(SCENES / "sat_obb_edge_edge.json")
    panel, _, viewport = make(qtbot, SatInspectorPanel, scene, ("A", "B"))
    panel.only_separating.setChecked(True)
    visible = [panel.table.item(r, 1).text() for r in range(panel.table.rowCount())
               if not panel.table.isRowHidden(r)]
    assert visible == ["A0xB0"]
    panel.only_separating.setChecked(False)
    panel.filter_edit.setText("B2")
    visible = {panel.table.item(r, 1).text() for r in range(panel.table.rowCount())
               if not panel.table.isRowHidden(r)}
    assert visible and all("B2" in v for v in visible)
    panel.filter_edit.setText("")
    panel.table.sortByColumn(5, Qt.SortOrder.DescendingOrder)  # margin, largest first
    margins = [float(panel.table.item(r, 5).key) for r in range(panel.table.rowCount())]
    assert margins == sorted(margins, reverse=True)
    # selection survives a live drag; pushing B far along +x makes face axis A0 separate too
    panel.select_axis("A0")
    B = scene["B"].primitive
    scene.update("B", primitive=B.translated((-5, 0, 0)))
    panel.flush()  # during a drag the table follows at most every 50 ms
    assert panel.selected_name == "A0"
    assert next(ax for ax in panel.axes if ax["name"] == "A0")["separating"]
    assert "sat:axis" in viewport.overlays


def test_inspector_cylinders_says_which_test(qtbot):
    scene = scenefile.load(SCENES / "sat_cylinders.json")
    panel, _, _ = make(qtbot, SatInspectorPanel, scene, ("C0", "C1"))
    found = J(panel.result)["trace"]["separating_axis"]["found_by"]
    assert found and f"found by the test <b>{found}</b>" in panel.summary.text()
    # the starred row is the test that found it, and it separates
    assert panel.table.item(0, 0).text() == "★" and panel.table.item(0, 1).text() == found


def test_inspector_triangle_box(qtbot):
    scene = scenefile.load(SCENES / "sat_triangle_box.json")
    panel, _, viewport = make(qtbot, SatInspectorPanel, scene, ("T", "B"))
    sep = [ax["name"] for ax in panel.axes if ax["separating"]]
    assert sep and all(" x " in name for name in sep)  # only an edge-cross axis separates
    panel.select_axis(sep[0])
    assert "sat:interval_a" in viewport.overlays


def test_inspector_direction_from_closest_points(qtbot):
    # sphere (r 1 at the origin) and a segment from (3,-1,0) to (3,1,0): no candidate-axis
    # test; the closest points (1,0,0) and (3,0,0) give the axis x; projections [-1, 1] and
    # [3, 3]: r_A = 1, r_B = 0, centre distance 3, margin 2 (= the distance)
    from algorithms import Sphere

    scene = scene_with(("S", Sphere((0, 0, 0), 1), None),
                       ("G", Segment((3, -1, 0), (3, 1, 0)), None))
    panel, _, viewport = make(qtbot, SatInspectorPanel, scene, ("S", "G"))
    assert J(panel.result)["trace"]["separating_axis"] == {"from": "closest points"}
    (row,) = panel.axes
    assert np.abs(row["axis"]) == pytest.approx((1, 0, 0))
    assert (row["r_A"], row["r_B"], row["distance"], row["margin"]) == \
        pytest.approx((1, 0, 3, 2), abs=1e-9)
    assert row["separating"] and "closest points" in panel.summary.text()
    panel.select_axis("closest-point direction")
    assert "sat:interval_b" in viewport.overlays


# ============================================================================ time line
def test_time_line_plays_and_stops_at_impact(qtbot):
    # A moves (0, .5, 0), B (-3, 0, .4): relative d = (-3, -.5, .4). On x, B's min 3 - 3t meets
    # A's max 1 at t = 2/3 and leaves (B's max 4 - 3t < 0) at 4/3; y overlaps for t in
    # [-1.6, 3] and z for t <= 1.75 (0.3 + 0.4 t <= 1): time of impact 2/3 (Primer A.17).
    scene = scenefile.load(SCENES / "timeline_aabbs.json")
    panel, _, viewport = make(qtbot, TimelinePanel, scene, ("A", "B"))
    assert panel.toi == pytest.approx(2 / 3, abs=1e-12)
    rows = {r["axis"]: r for r in panel.chart.rows}
    assert (rows["x"]["t_enter"], rows["x"]["t_leave"]) == pytest.approx((2 / 3, 4 / 3))
    assert (rows["y"]["t_enter"], rows["y"]["t_leave"]) == pytest.approx((-1.6, 3.0))
    assert rows["z"]["t_leave"] == pytest.approx(1.75)
    # the slider moves the objects
    panel.slider.setValue(250)
    assert viewport.times[-1] == pytest.approx(0.25)
    # play: advances and stops exactly at the time of impact
    panel.play_step, n_before = 0.05, len(viewport.times)
    panel.timer.setInterval(1)
    panel.play()
    qtbot.waitUntil(lambda: not panel.timer.isActive(), timeout=3000)
    assert panel.t == 2 / 3 and viewport.times[-1] == 2 / 3
    assert len(viewport.times) - n_before == 9  # 0.30, 0.35, ..., 0.65 and then 2/3
    assert all(a < b for a, b in zip(viewport.times[n_before:], viewport.times[n_before + 1:]))
    assert panel.at_impact() and "timeline:contact" in viewport.overlays
    contact, _ = viewport.overlays["timeline:contact"]
    assert np.asarray(contact.points[0]) == pytest.approx(J(panel.result)["trace"]["toi"]["point"])
    # playing on from the impact continues to 1
    panel.play()
    qtbot.waitUntil(lambda: not panel.timer.isActive(), timeout=3000)
    assert panel.t == 1.0 and "timeline:contact" not in viewport.overlays
    panel.jump_to_impact()
    assert panel.t == pytest.approx(2 / 3)


def test_time_line_sphere_plane_and_still_pair(qtbot):
    scene = scenefile.load(SCENES / "timeline_sphere_plane.json")
    panel, ws, _ = make(qtbot, TimelinePanel, scene, ("S", "P"))
    # the sphere's lowest point z = 3 - 0.5 / |(0,.2,1)|... checked against Primer A.15 below
    n = np.array([0, 0.2, 1.0]) / np.linalg.norm([0, 0.2, 1.0])
    c0, d, r = np.array([-1, 0, 3.0]), np.array([2, 0.5, -4.0]), 0.5
    t_hand = (r - c0 @ n) / (d @ n)  # centre distance to the plane falls to r
    assert panel.toi == pytest.approx(t_hand, rel=1e-12)
    assert not panel.chart.rows  # no per-axis intervals for a sphere
    # the distance curve: |centre's signed distance to the plane| - r, clamped at 0 (the
    # sphere passes through the plane and is 0.88 - 0.5 below it at t = 1)
    curve = dict(panel.compute_curve())
    assert len(curve) == 41
    for t, dist in curve.items():
        h = float((c0 + t * d) @ n)
        assert dist == pytest.approx(max(abs(h) - r, 0.0), abs=1e-9)
    assert curve[0.5] > 0 and curve[0.75] == 0 and curve[1.0] > 0.3
    scene.add(AABB((5, 5, 5), (6, 6, 6)), id="still")
    ws.set_pair("S", "still")
    assert panel.toi is None and not panel.impact_button.isEnabled()


# ============================================================================ explain
def test_explain_st_plane_woo_and_arvo(qtbot):
    scene = scenefile.load(SCENES / "stplane_region1.json")
    panel, ws, _ = make(qtbot, ExplainPanel, scene, ("A", "B"))
    text = panel.text()
    # A = (-1,0,0) + s (2,0,0): a = m0.m0 = 4
    assert "a = 4" in text and "region 1" in text and "edge s = 1" in text
    assert "GTCG §10.8.3" in text
    # Woo: the ray from (-3, .5, .5) along x reaches the plane x = 0 at t = 3
    from algorithms import Ray as R
    from algorithms import Sphere

    scene.add(R((-3, 0.5, 0.5), (1, 0, 0)), id="ray")
    scene.add(AABB((0, 0, 0), (1, 1, 1)), id="box")
    scene.add(Sphere((2.5, 0.5, 0.5), 1), id="ball")
    ws.set_pair("ray", "box")
    text = panel.text()
    assert "Woo" in text and "min x" in text and "t = 3" in text
    # Arvo: centre x 2.5 above max 1 adds (2.5 - 1)^2 = 2.25; the others add 0
    ws.set_pair("ball", "box")
    text = panel.text()
    assert "adding 2.25" in text and "2.25" in text and "intersects = no" in text


def test_explain_hultquist_badouel_ray_plane(qtbot):
    from algorithms import Plane, Sphere, Triangle

    scene = scene_with(("R", Ray((-3, 0.2, 0.1), (2, 0, 0)), None),
                       ("S", Sphere((0, 0, 0), 1), None),
                       ("T", Triangle(((0, -1, -1), (0, 1, -1), (0, 0, 1))), None),
                       ("P", Plane((1, 0, 0), 2), None))
    panel, ws, _ = make(qtbot, ExplainPanel, scene, ("R", "S"))
    # Hultquist: e = (3, -.2, -.1), a = e.d_hat = 3, b^2 = 9.05 - 9 = 0.05, f = sqrt(0.95)
    # = 0.974679, entry at distance 3 - f = 2.02532, i.e. t = 2.02532 / |d| = 1.01266
    text = panel.text()
    assert "a = e · d̂ = 3" in text and "b² = e · e − a² = 0.05" in text
    assert "a − f = 2.02532" in text and "first hit is t = 1.01266" in text
    # Badouel: the plane x = 0 is reached at t = 3 / |d| = 1.5 (n.d = 4 * 2 = 8)
    ws.set_pair("R", "T")
    text = panel.text()
    assert "Badouel" in text and "n · d = 8" in text and "first hit t = 1.5" in text
    # ray-plane (A.9): t = (2 - (-3)) / 2 = 2.5, with a key holding a dot ("d.n")
    ws.set_pair("R", "P")
    text = panel.text()
    assert "d · n = 2" in text and "t = 2.5" in text


def test_explain_boreskov_corner(qtbot):
    # plane y + z = 3 (n = (0, 1, 1), both components >= 0): the least corner of the unit box
    # is (0, 0, 0) with f = 0 - 3 = -3, the opposite (1, 1, 1) gives 2 - 3 = -1: all behind
    from algorithms import Plane

    scene = scene_with(("B", AABB((0, 0, 0), (1, 1, 1)), None),
                       ("P", Plane((0, 1, 1), 3), None))
    panel, _, _ = make(qtbot, ExplainPanel, scene, ("B", "P"))
    text = panel.text()
    assert "Boreskov's corner test" in text and "(0, 0, 0)" in text
    assert "f = -3" in text and "f = -1" in text and "IN_BACK" in text
    assert "minD = 0" in text and "maxD = 2" in text and "Side -1" in text


def test_explain_helpers():
    from explorer.qt.panels.explain import split_methods

    assert split_methods("AABB overlap (App. A.17; Boreskov); moving AABBs (A.17)") == \
        ["AABB overlap (App. A.17; Boreskov)", "moving AABBs (A.17)"]
    assert sources("ray-AABB, Woo (Dunn & Parberry, 3D Math Primer App. A.18, Listing A.6)") \
        == ["App. A.18", "Listing A.6"]
    assert "Choose a pair" in to_html(None) and "Results table" in to_html(None)
    # a template drops a step whose value is missing instead of printing None
    from algorithms import DistanceResult, PairAnswer, Records

    rec = DistanceResult(method="st-plane minimisation", distance=1.0,
                         closest=((0, 0, 0), (0, 0, 1)), parameter=(0, 0),
                         trace={"a": 1, "b": 0, "c": 1, "d": 0, "e": 0, "f": 1, "det": 1,
                                "domain": "segment-segment"})
    html = to_html(PairAnswer("A", "B", "segment-segment", methods=(rec.method,),
                              records=Records(distance=rec)))
    assert "a = 1" in html and "None" not in html and "s̄" not in html


# ============================================================================ all panels
def test_panels_registry_and_update_all_speed(qtbot):
    assert [t for t, _ in PANELS] == ["st-plane", "Separating axes", "Time line", "Explain",
                                     "Three planes", "Step through"]
    scene = scenefile.load(SCENES / "stplane_region3.json")
    (ws, commands), viewport = model(scene, ("A", "B")), FakeViewport()
    panels = [factory(scene, ws, commands, viewport, None) for _, factory in PANELS]
    for p in panels:
        qtbot.addWidget(p)
        p.resize(400, 420)
        p.show()
    B = scene["B"].primitive
    times = []
    for k in range(40):
        scene.update("B", primitive=B.translated((0.01 * k, 0, 0)))  # panels refresh here
        t0 = time.perf_counter()
        update_all(panels)
        times.append(time.perf_counter() - t0)
    median = statistics.median(times) * 1e3
    assert median < 60, f"update_all median {median:.1f} ms"
    assert panels[0].model is not None
    # segments have no candidate-axis test: one row, the closest-point direction, on which
    # the gap between the projections is the distance itself (r_A = 0: A is perpendicular)
    (row,) = panels[1].axes
    assert row["name"] == "closest-point direction" and row["r_A"] == pytest.approx(0, abs=1e-12)
    assert row["margin"] == pytest.approx(J(panels[1].result)["distance"], rel=1e-9)
    # a hidden panel does no work and leaves the viewport; shown again it catches up
    panels[0].hide()
    assert not any(k.startswith("stplane:") for k in viewport.overlays)
    scene.update("B", primitive=B)
    assert panels[0].model.s_bar != pytest.approx(TARGET[3][0], abs=1e-3)  # not updated yet
    panels[0].show()
    assert panels[0].model.s_bar == pytest.approx(TARGET[3][0], abs=2e-3)
    assert "stplane:probe_a" in viewport.overlays


def test_with_the_real_window(qtbot):
    window_mod = pytest.importorskip("explorer.qt.window")
    win = window_mod.MainWindow(scenefile.load(SCENES / "stplane_region4.json"), autosave_ms=0)
    qtbot.addWidget(win)
    win.show()
    try:
        assert not win.panel_errors
        panels = {d.windowTitle(): d.widget() for d in win.panel_docks}
        st = panels["st-plane"]
        {d.windowTitle(): d for d in win.panel_docks}["st-plane"].raise_()
        win.set_pair("A", "B")
        qtbot.waitUntil(lambda: st.isVisible() and st.model is not None, timeout=3000)
        assert st.model is not None and st.model.region == 4
        st.set_probe(0.5, 0.5)
        drawn = getattr(win.viewport.view, "_overlays", None)
        if drawn is not None:  # the viewport's overlay table (private: checked if present)
            assert {"stplane:probe_a", "stplane:probe_b", "stplane:probe_link"} <= set(drawn)
        # a 3D edit reaches the panels through the scene's events
        B = win.scene["B"].primitive
        win.scene.update("B", primitive=B.translated((1.6, 0, 0)))
        assert st.model.region == 3  # s_bar -0.6 + 0.8 = 0.2, t_bar 1.6: above the square
        timeline = panels["Time line"]
        timeline.set_time(0.5)
        assert timeline.t == 0.5
        update_all(panels.values())
        # a tabbed-away panel takes its 3D drawings with it and brings them back
        if drawn is not None:
            assert "stplane:probe_a" in drawn
            st_dock = {d.windowTitle(): d for d in win.panel_docks}["st-plane"]
            neighbours = win.tabifiedDockWidgets(st_dock)
            if neighbours:  # raise a dock in the same tab group: st-plane goes out of sight
                neighbours[0].raise_()
                qtbot.waitUntil(lambda: not st.on_screen(), timeout=3000)
                assert "stplane:probe_a" not in drawn
                st_dock.raise_()
                qtbot.waitUntil(lambda: "stplane:probe_a" in drawn, timeout=3000)
                assert "stplane:probe_a" in drawn and st.model.region == 3
    finally:
        win.viewport.close_viewport()
        win.close()


def test_panels_bench_runs(qtbot):
    from explorer.qt.panels.bench import measure

    figures = measure(SCENES / "timeline_aabbs.json", steps=5)
    assert figures["pair"] == "A-B"
    assert 0 < figures["cpu_median_ms"] <= figures["cpu_p95_ms"]
    assert 0 < figures["update_median_ms"] <= figures["update_p95_ms"]


def test_stplane_legend_follows_the_pair_not_the_cached_picture(qtbot):
    # issue 10 defect: "first contact Q = V0 = ..." was drawn into the cached static picture,
    # so it kept the first value while dragging and even into other scenes
    scene = scene_with(("A", Segment((0, 0, 0), (1, 0, 0)), None),
                       ("B", Segment((0.2, 1, 0), (0.8, 1, 0.3)), None))
    panel, _, _ = make(qtbot, StPlanePanel, scene, ("A", "B"))
    d = panel.diagram

    def legend_strip():
        img = d.grab().toImage()
        frame = d._frame(d.width(), d.height())
        y0 = int(frame.bottom()) + 16
        return [img.pixel(x, y) for y in range(y0, y0 + 14) for x in range(0, d.width(), 2)]

    first_text, first = d.legend_text(), legend_strip()
    # B twice as far: same region and view, V0 = 4 (1 apart -> Q 1; 2 apart -> Q 4)
    scene.update("B", primitive=Segment((0.2, 2, 0), (0.8, 2, 0.3)))
    panel.refresh(force=True)
    assert d.legend_text() != first_text
    assert legend_strip() != first
