"""File > Export in the window and ``explorer.show`` (issue 14), driven under Xvfb.

The scene is the one of tests/explorer/render/test_export.py: segment A (0,0,0)-(2,0,0), ball
B of radius 1 at (1,3,0); closest points (1,0,0) and (1,2,0), distance 2 (derived there).
"""

from __future__ import annotations

import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

pytest.importorskip("pytestqt")

from vtkmodules.vtkCommonCore import vtkCommand  # noqa: E402

from algorithms import Segment, Sphere  # noqa: E402
from explorer.model.scene import Scene, SceneObject  # noqa: E402
from explorer.model.scenefile import save  # noqa: E402

pytestmark = pytest.mark.gui


class FakeExportDialogs:
    def __init__(self):
        self.next_path = None
        self.next_folder = None
        self.asked = []

    def save_path(self, title, suggestion, exts):
        self.asked.append((title, tuple(exts)))
        return self.next_path

    def folder(self, title, start):
        return self.next_folder


def _scene_file(tmp_path, moving=False):
    scene = Scene("export test")
    scene.add(SceneObject("A", Segment((0, 0, 0), (2, 0, 0))))
    scene.add(SceneObject("B", Sphere((1, 3, 0), 1.0), motion=(0, -6, 0) if moving else None))
    path = tmp_path / "s.json"
    save(scene, path)
    return path


def _menu(window):
    m = window.export_menu
    m.dialogs = FakeExportDialogs()
    return m


def test_file_menu_has_the_export_submenu(gui_window, tmp_path):
    w = gui_window(_scene_file(tmp_path))
    file_menu = next(a.menu() for a in w.menuBar().actions() if a.menu() is not None
                     and w.act_export in a.menu().actions())
    sub = next(a.menu() for a in file_menu.actions() if a.menu() is w.export_menu.menu)
    texts = [a.text().replace("&", "") for a in sub.actions()]
    assert texts == ["View As…", "Time Line Animation…", "Last Drag Animation…",
                     "Panels as PNG and SVG…", "Explain Text as Markdown…"]
    assert not w.export_menu.act_drag.isEnabled()  # nothing dragged yet


def test_view_as_glb_from_the_dialog_holds_the_answer(gui_window, tmp_path):
    import trimesh

    w = gui_window(_scene_file(tmp_path))
    m = _menu(w)
    m.dialogs.next_path = str(tmp_path / "v.glb")
    assert m.export_view_dialog()
    scene = trimesh.load(tmp_path / "v.glb", force="scene")
    pa, pb = np.array([1.0, 0, 0]), np.array([1.0, 2, 0])
    assert any(np.linalg.norm(g.vertices - pa, axis=1).min() < 1e-5
               and np.linalg.norm(g.vertices - pb, axis=1).min() < 1e-5
               for g in scene.geometry.values())
    assert w.dialogs.errors == []
    assert m.dialogs.asked[0][1][0] == ".png" and ".html" in m.dialogs.asked[0][1]


def test_view_as_png_is_the_windows_own_picture(gui_window, tmp_path):
    import imageio.v3 as iio

    w = gui_window(_scene_file(tmp_path))
    m = _menu(w)
    assert m.export_view(tmp_path / "v.png")
    h, wd = iio.imread(tmp_path / "v.png").shape[:2]
    assert (wd, h) == tuple(w.viewport.plotter.window_size)


def test_a_bad_target_is_a_dialog_not_a_crash(gui_window, tmp_path):
    w = gui_window(_scene_file(tmp_path))
    m = _menu(w)
    assert not m.export_view(tmp_path / "missing" / "v.obj")
    assert w.dialogs.errors and "does not exist" in w.dialogs.errors[0][1]


def test_recorded_drag_becomes_a_gif_of_every_step(gui_window, tmp_path):
    import imageio.v3 as iio

    w = gui_window(_scene_file(tmp_path))
    w.select("B")
    grips = dict(w.viewport._grips)
    handle = next(h for h in grips if "center" in h)
    widget = grips[handle]
    widget.InvokeEvent(vtkCommand.StartInteractionEvent)
    for x in (1.2, 1.4, 1.6, 1.8):
        widget.SetCenter(x, 3.0, 0.0)
        widget.InvokeEvent(vtkCommand.InteractionEvent)
    widget.InvokeEvent(vtkCommand.EndInteractionEvent)
    m = _menu(w)
    assert m.act_drag.isEnabled()
    start, obj_id, steps = m.recorder.recorded()
    assert obj_id == "B" and len(steps) == 5  # where it began, then the four moves
    assert start["B"].primitive.center == (1.0, 3.0, 0.0)
    np.testing.assert_allclose(steps[-1].center, (1.8, 3.0, 0.0))
    m.dialogs.next_path = str(tmp_path / "drag.gif")
    assert m.export_drag_dialog()
    frames = iio.imread(tmp_path / "drag.gif", index=None)
    assert frames.shape[0] == 5
    assert np.abs(frames[0].astype(int) - frames[-1].astype(int)).mean() > 0.5


def test_timeline_mp4_from_the_window(gui_window, tmp_path):
    import imageio.v3 as iio

    from explorer.render.export import TIMELINE_FRAMES

    w = gui_window(_scene_file(tmp_path, moving=True))
    m = _menu(w)
    assert m.export_animation(tmp_path / "t.mp4", "timeline")
    assert iio.imread(tmp_path / "t.mp4", index=None).shape[0] == TIMELINE_FRAMES


def test_every_panel_as_png_and_svg(gui_window, tmp_path):
    import imageio.v3 as iio

    w = gui_window(_scene_file(tmp_path), with_panels=True)
    m = _menu(w)
    m.dialogs.next_folder = str(tmp_path)
    assert m.export_panels_dialog()
    titles = [t for t, _w in m.panels()]
    assert len(titles) == 1 + len(w.panel_docks) >= 5  # results + the algorithm panels
    for title in titles:
        stem = tmp_path / f"s-{''.join(c if c.isalnum() else '-' for c in title.lower())}"
        img = iio.imread(stem.with_suffix(".png"))
        assert img.shape[0] >= 50 and img.shape[1] >= 50
        root = ET.parse(stem.with_suffix(".svg")).getroot()
        assert root.tag.endswith("svg") and len(list(root.iter())) > 5


def test_explain_text_of_the_pair_as_markdown(gui_window, tmp_path):
    w = gui_window(_scene_file(tmp_path))
    w.set_pair("A", "B")
    m = _menu(w)
    m.dialogs.next_path = str(tmp_path / "e.md")
    assert m.export_explain_dialog()
    md = (tmp_path / "e.md").read_text()
    assert md.startswith("## A – B (segment-sphere)")
    assert "distance = 2" in md


def test_show_opens_the_window_on_script_primitives(qtbot, state_dir):
    from explorer import show

    w = show(Segment((0, 0, 0), (2, 0, 0)), Sphere((1, 3, 0), 1.0), block=False)
    qtbot.addWidget(w)
    try:
        assert w.scene.ids() == ["A", "B"]
        assert w.isVisible()
        (r,) = w.scene.evaluate()
        assert r["distance"] == pytest.approx(2.0)
        assert any(n.startswith("ov:closest:A:B") for n in w.viewport.view.overlay_names())
    finally:
        w.dirty = False
        w.close()
        w.shutdown()


def test_show_names_keyword_primitives_and_refuses_other_things():
    from explorer.scripting import scene_of

    s = scene_of(Segment((0, 0, 0), (1, 0, 0)), ball=Sphere((0, 2, 0), 1))
    assert s.ids() == ["A", "ball"]
    with pytest.raises(TypeError, match="argument 2 is a str"):
        scene_of(Segment((0, 0, 0), (1, 0, 0)), "ball")


def test_import_explorer_and_show_load_no_qt():
    code = ("import sys, explorer; from explorer import show; "
            "from explorer.scripting import NotebookView; "
            "print(any(m.startswith('PyQt6') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True).stdout.strip()
    assert out == "False"


def test_command_line_panels_export_writes_every_panel(qtbot, state_dir, tmp_path, capsys):
    """``explorer export SCENE -o FOLDER --panels --pair A B`` (a display is there: the test
    runs under pytest-xvfb)."""
    import imageio.v3 as iio

    from explorer.cli import main

    path = _scene_file(tmp_path)
    out = tmp_path / "panels"
    out.mkdir()
    assert main(["export", str(path), "-o", str(out), "--panels", "--pair", "A", "B"]) == 0
    from explorer.qt.export_menu import _slug
    from explorer.qt.panels import PANELS

    names = sorted(p.name for p in out.iterdir())
    panels = ["results", *(_slug(title) for title, _factory in PANELS)]
    assert {"st-plane", "separating-axes", "time-line", "explain"} <= set(panels)
    assert names == sorted(f"s-{n}.{e}" for n in panels for e in ("png", "svg"))
    assert iio.imread(out / "s-explain.png").shape[0] > 100
    svg = ET.parse(out / "s-explain.svg").getroot()
    assert "segment-sphere" in " ".join(svg.itertext())  # the explain text of A-B, as text
    assert main(["export", str(path), "-o", str(tmp_path / "none"), "--panels"]) == 2
    assert main(["export", str(path), "-o", str(out), "--panels", "--pair", "A", "Z"]) == 2
    assert "no object 'Z'" in capsys.readouterr().err
