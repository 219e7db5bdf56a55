"""The Lessons menu and the lesson dock (issue 13, part 5).

:func:`install` adds, to a :class:`~explorer.qt.window.MainWindow`, a **Lessons** menu listing
``scenes/lessons/*.json`` by title and a **Lesson** dock (:class:`LessonPanel`) that follows
the open scene: a scene with a ``"lesson"`` key shows its steps, any other scene shows how to
open one. Shipped scenes and lessons are read-only: the window's Save asks for a new path
(:func:`explorer.is_shipped`).
"""

from __future__ import annotations

import json
from pathlib import Path

from PyQt6.QtCore import Qt

from explorer import LESSONS_DIR
from explorer.qt.panels.lesson import TITLE, LessonPanel


def shipped_lessons() -> list[tuple[str, Path]]:
    """``[(title, path)]`` of ``scenes/lessons/*.json``, in file-name order."""
    out = []
    for p in sorted(LESSONS_DIR.glob("*.json")):
        try:
            doc = json.loads(p.read_text(encoding="utf-8"))
            title = (doc.get("lesson") or {}).get("title") or doc.get("name") or p.stem
        except Exception:  # noqa: BLE001 - a broken file still gets an entry (opening it explains)
            title = p.stem
        out.append((title, p))
    return out


def look_at(window, look) -> None:
    """Apply a lesson step's ``look`` to ``window``: choose its pair, select an object, move
    the camera to a preset, draw moving objects at a time, bring a panel to the front."""
    if look.pair:
        window.set_pair(*look.pair)
    if look.select:
        window.select(look.select)
    if look.camera:
        preset = getattr(window, "camera_preset", None)
        if preset is not None:
            preset(look.camera)
    docks = list(getattr(window, "panel_docks", []))
    for name in ("results_dock", "scene_dock", "property_dock"):
        d = getattr(window, name, None)
        if d is not None:
            docks.append(d)
    if look.time is not None:
        timeline = next((d.widget() for d in docks if d.windowTitle() == "Time line"), None)
        if timeline is not None and hasattr(timeline, "set_time"):
            timeline.set_time(look.time)
        else:
            window.viewport.set_time(look.time)
    if look.panel:
        for dock in docks:
            if dock.windowTitle() == look.panel:
                dock.show()
                dock.raise_()


def install(window) -> LessonPanel:
    """Add the Lessons menu and the Lesson dock to ``window``; returns the panel. The panel is
    built from the model and its ``look_requested`` is wired to :func:`look_at`; the View >
    Answers For menu follows the workspace's scope (a lesson step sets it)."""
    panel = LessonPanel(window.scene, window.workspace, window.commands, window.viewport,
                        window.evaluator)
    panel.look_requested.connect(lambda look: look_at(window, look))

    def tick(scope):
        actions = getattr(window, "scope_actions", {})
        if scope in actions and not actions[scope].isChecked():
            actions[scope].setChecked(True)

    window.workspace.scope_changed.connect(tick)
    dock = window._dock(TITLE, panel, Qt.DockWidgetArea.LeftDockWidgetArea,
                        "The open lesson: its steps, what to look at, a question to check")
    window.tabifyDockWidget(window.property_dock, dock)
    window.property_dock.raise_()
    window.lesson_panel, window.lesson_dock = panel, dock

    menu = window.menuBar().addMenu("&Lessons")
    menu.setToolTipsVisible(True)
    help_menu = next((a for a in window.menuBar().actions() if a.text() == "&Help"), None)
    if help_menu is not None:  # Lessons before Help
        window.menuBar().insertMenu(help_menu, menu)
    for i, (title, path) in enumerate(shipped_lessons(), start=1):
        a = menu.addAction(f"&{i} {title}")
        a.setToolTip(f"Open the lesson {path.name} (read-only: Save asks for a new path)")
        a.triggered.connect(lambda _c=False, p=path: window.open_file(p))
    menu.addSeparator()
    a = menu.addAction("Show the Lesson Panel")
    a.triggered.connect(lambda: (dock.show(), dock.raise_()))
    window.lessons_menu = menu
    return panel
