"""Every panel of explorer/qt/panels is built from the Qt-free model, ``(scene, workspace,
commands, viewport, evaluator)``, without a window, follows the workspace's chosen pair and
edits only through the commands (issue 10 part 4: no widget calls back into the window)."""

from __future__ import annotations

from pathlib import Path

import pytest

from algorithms import Segment
from explorer import LESSONS_DIR, SCENES_DIR
from explorer.model import scenefile
from explorer.model.commands import Commands
from explorer.model.undo import UndoStack
from explorer.model.workspace import Workspace
from explorer.qt.panels import PANELS

PANELS_DIR = Path(__file__).resolve().parents[3] / "explorer" / "qt" / "panels"


class Viewport:
    """What a panel draws through (a recording stand-in for explorer.qt.viewport.Viewport)."""

    def __init__(self):
        self.overlays, self.times = {}, []

    def add_overlay(self, name, mesh, **kwargs):
        self.overlays[name] = mesh

    def remove_overlay(self, name):
        self.overlays.pop(name, None)

    def set_time(self, t):
        self.times.append(t)

    def render(self):
        pass


def model(scene, pair):
    ws = Workspace(scene)
    ws.set_pair(*pair)
    return ws, Commands(scene, UndoStack(scene), ws)


def test_no_panel_module_refers_to_the_window():
    for path in sorted(PANELS_DIR.glob("*.py")):
        text = path.read_text(encoding="utf-8")
        assert "window_" not in text and "explorer.qt.window" not in text, path.name
        assert "current_pair()" not in text and ".pair_changed.connect" not in text \
            or path.name == "base.py", path.name


@pytest.mark.parametrize("title", [t for t, _ in PANELS])
def test_each_panel_is_built_from_the_model_and_follows_the_workspace(qtbot, title):
    factory = dict(PANELS)[title]
    scene = scenefile.load(SCENES_DIR / "stplane_region1.json")
    ws, commands = model(scene, ("A", "B"))
    viewport = Viewport()
    panel = factory(scene, ws, commands, viewport, None)
    qtbot.addWidget(panel)
    panel.resize(420, 460)
    panel.show()
    if not hasattr(panel, "pair_ids"):  # the three-planes panel follows the scene's planes
        assert title == "Three planes"
        return
    assert panel.pair_ids == ("A", "B") and panel.result.pair == "segment-segment"
    # the workspace's pair is what the panel shows: another pair, then none
    scene.add(Segment((5, 5, 5), (6, 5, 5)), id="far")
    ws.set_pair("A", "far")
    assert panel.pair_ids == ("A", "far") and panel.result.b == "far"
    # A = (-1,0,0)-(1,0,0), far = (5,5,5)-(6,5,5): the closest points are (1,0,0), (5,5,5)
    assert panel.result.distance == pytest.approx((16 + 25 + 25) ** 0.5)
    ws.set_pair(None, None)
    assert panel.pair_ids == ("", "") and panel.result is None
    assert not any(k.startswith(f"{panel.overlay_prefix}:") for k in viewport.overlays)


def test_the_precision_panel_edits_through_the_commands(qtbot):
    from explorer.qt.panels.precision import PrecisionPanel

    scene = scenefile.load(SCENES_DIR / "stplane_region1.json")
    ws, commands = model(scene, ("A", "B"))
    panel = PrecisionPanel(scene, ws, commands, Viewport(), None)
    qtbot.addWidget(panel)
    panel.show()
    before = scene["B"].primitive
    edited = []
    commands.edited.connect(edited.append)
    assert panel.put_in_scene()
    assert scene["B"].primitive != before and edited == ["Nearly parallel B"]
    commands.undo_stack.undo()  # one undoable step
    assert scene["B"].primitive == before
    # without commands a panel does not edit the scene
    alone = PrecisionPanel(scene, ws, None, Viewport(), None)
    qtbot.addWidget(alone)
    alone.show()
    assert not alone.put_in_scene() and scene["B"].primitive == before


def test_the_lesson_panel_sets_the_scope_and_asks_for_its_look(qtbot):
    from explorer.qt.panels.lesson import LessonPanel

    scene = scenefile.load(LESSONS_DIR / "01_segment_distance.json")
    ws, commands = model(scene, (None, None))
    panel = LessonPanel(scene, ws, commands, Viewport(), None)
    qtbot.addWidget(panel)
    looks = []
    panel.look_requested.connect(looks.append)
    panel.apply_look()
    # step 1 looks at A-B in the st-plane: only that pair drawn, the look handed to the window
    assert ws.scope == "pair" and looks[-1].pair == ("A", "B") and looks[-1].panel == "st-plane"
    panel.go(2)
    assert looks[-1].pair == ("A", "C") and looks[-1].camera == "top"


def test_the_fuzz_panel_hands_a_case_over_instead_of_opening_it(qtbot, tmp_path):
    from PyQt6.QtCore import Qt
    from PyQt6.QtWidgets import QListWidgetItem

    from explorer.qt.panels.fuzz import FuzzPanel

    scene = scenefile.load(SCENES_DIR / "stplane_region1.json")
    ws, commands = model(scene, ("A", "B"))
    panel = FuzzPanel(scene, ws, commands, Viewport(), None)
    qtbot.addWidget(panel)
    item = QListWidgetItem("case")
    item.setData(Qt.ItemDataRole.UserRole, str(tmp_path / "case.json"))
    panel.gallery.addItem(item)
    with qtbot.waitSignal(panel.case_chosen) as got:
        panel.gallery.itemClicked.emit(item)
    assert got.args == [str(tmp_path / "case.json")]
