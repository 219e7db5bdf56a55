"""The scene, property and results widgets are built from ``(scene, workspace, commands)``
alone: no window, no call back into one (issue 10 part 4)."""

import pytest

pytest.importorskip("PyQt6")

from algorithms import Segment, Sphere  # noqa: E402
from explorer.model.commands import Commands  # noqa: E402
from explorer.model.scene import Scene  # noqa: E402
from explorer.model.undo import UndoStack  # noqa: E402
from explorer.model.workspace import Workspace  # noqa: E402
from explorer.qt.widgets.property_panel import PropertyPanel  # noqa: E402
from explorer.qt.widgets.results_panel import ResultsPanel  # noqa: E402
from explorer.qt.widgets.scene_panel import ScenePanel  # noqa: E402


@pytest.fixture
def doc():
    scene = Scene()
    scene.add(Segment((0, 0, 0), (1, 0, 0)), id="seg")
    scene.add(Sphere((0.5, 2, 0), 0.5), id="ball")
    ws = Workspace(scene)
    return scene, ws, Commands(scene, UndoStack(scene), ws)


def test_the_property_panel_edits_through_the_commands(qtbot, doc):
    scene, ws, commands = doc
    edits = []
    commands.edited.connect(edits.append)
    panel = PropertyPanel(scene, commands)
    qtbot.addWidget(panel)
    assert panel.window() is panel  # QWidget.window() is not shadowed: a top-level widget
    panel.show_object(scene["ball"])
    panel.spins[("radius", None, None)].setValue(0.75)
    assert scene["ball"].primitive.radius == 0.75 and edits == ["Edit radius"]
    assert commands.undo_stack.can_undo()
    panel.motion_check.setChecked(True)  # a default motion: a quarter of the shown size (4)
    assert scene["ball"].motion == (1.0, 0.0, 0.0)


def test_the_scene_panel_follows_the_workspace_and_renames_through_commands(qtbot, doc):
    scene, ws, commands = doc
    panel = ScenePanel(ws, commands)
    qtbot.addWidget(panel)
    panel.set_scene(scene)
    ws.select("ball")
    panel._rebuild()
    assert [i.text(0) for i in panel.tree.selectedItems()] == ["ball"]
    item = panel.tree.topLevelItem(0)
    item.setText(0, "the segment")  # as a double-click edit would
    assert scene["seg"].label == "the segment"


def test_the_results_panel_lists_answers_and_reports_through_commands(qtbot, doc):
    scene, ws, commands = doc
    said = []
    commands.message.connect(lambda text, ms: said.append(text))
    panel = ResultsPanel(scene, ws, commands)
    qtbot.addWidget(panel)
    panel.set_objects(scene.ids())
    ws.set_pair("seg", "ball")
    panel.show_results([scene.answer("seg", "ball")])
    # segment on the x axis, ball of radius 0.5 at (0.5, 2, 0): distance 2 - 0.5 = 1.5
    assert "Distance <b>1.5</b>" in panel.summary.text()
    assert panel.copy_json() and said == ["Copied the pair's result (JSON)"]
    panel.mode.setCurrentIndex(2)
    assert ws.results_mode == panel.mode_key == "queries"
