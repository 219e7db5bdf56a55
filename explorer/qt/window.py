"""The main window: viewport in the centre, scene / property / results panels around it, the
algorithm panels of :mod:`explorer.qt.panels` as docks, menus, toolbars, undo, files, autosave.

The window owns one :class:`~explorer.model.scene.Scene` for its whole life (opening a file replaces
its contents with :meth:`Scene.replace_all`), so panels built once keep a valid reference.

The algorithm panels are built from the model, ``(scene, workspace, commands, viewport,
evaluator)``, and follow ``workspace.pair_changed``; they never call back into the window. The
window still emits ``pair_changed(str, str)`` (``""`` for none) for its own helpers.
"""

from __future__ import annotations

import json
import traceback
from pathlib import Path
from typing import Optional

import numpy as np
from PyQt6.QtCore import Qt, QTimer, pyqtSignal
from PyQt6.QtGui import QAction, QActionGroup, QColor, QKeySequence
from PyQt6.QtWidgets import (QColorDialog, QDockWidget, QDoubleSpinBox, QFileDialog, QLabel,
                             QMainWindow, QMessageBox, QToolBar, QWidget)

from algorithms.primitives import TYPES, GeometryError
from algorithms.answer import PairAnswer
from explorer import SCENES_DIR, is_shipped
from explorer.model import drag
from explorer.model.scene import Scene, SceneObject
from explorer.model import workspace as policies
from explorer.model.commands import Commands
from explorer.model.undo import UndoStack
from explorer.model.workspace import Workspace
from explorer.qt import busy, errors
from explorer.qt.documents import AUTOSAVE_MS, DocumentController, state_dir  # noqa: F401
from explorer.qt.viewport import Viewport
from explorer.qt.widgets.property_panel import PropertyPanel
from explorer.qt.widgets.results_panel import ResultsPanel
from explorer.qt.widgets.scene_panel import ScenePanel
from explorer.render import overlays
from explorer.render.overlays import Context, Evaluator
from explorer.render.view import scene_extent

APP_NAME = "Intersection Explorer"
FILE_FILTER = "Scene files (*.json);;All files (*)"
#: the results panel lists at most this many pairs (the rest: select an object, choose a pair)
MAX_LISTED_PAIRS = 500
TYPE_TIPS = {
    "point": "a point", "segment": "a segment p0 p1", "ray": "a ray origin + t direction, t >= 0",
    "line": "an infinite line", "plane": "a plane normal . x = d",
    "triangle": "a filled triangle", "sphere": "a solid ball", "aabb": "an axis-aligned box",
    "obb": "an oriented box", "cylinder": "a solid finite cylinder",
    "capsule": "a capsule (all points within a radius of a segment)",
}


def shipped_scenes() -> list[tuple[str, Path]]:
    """``[(title, path)]`` of the scenes in ``scenes/``, by file name."""
    out = []
    for p in sorted(SCENES_DIR.glob("*.json")):
        try:
            title = json.loads(p.read_text(encoding="utf-8")).get("name") or p.stem
        except Exception:  # noqa: BLE001 - a broken example still gets a menu entry
            title = p.stem
        out.append((f"{title}  ({p.name})", p))
    return out


class Dialogs:
    """Every modal question the window asks, in one place (tests replace it)."""

    def __init__(self, parent):
        self.parent = parent

    def error(self, title: str, text: str) -> None:
        QMessageBox.critical(self.parent, title, text)

    def ask_unsaved(self, name: str) -> str:
        """``"save"``, ``"discard"`` or ``"cancel"``."""
        b = QMessageBox.StandardButton
        r = QMessageBox.question(self.parent, "Unsaved changes",
                                 f"'{name}' has unsaved changes. Save them first?",
                                 b.Save | b.Discard | b.Cancel, b.Save)
        return {b.Save: "save", b.Discard: "discard"}.get(r, "cancel")

    def ask_recover(self, when: str) -> bool:
        b = QMessageBox.StandardButton
        r = QMessageBox.question(self.parent, "Recover unsaved work?",
                                 f"The explorer did not close cleanly. A recovery copy of the "
                                 f"scene was saved at {when}. Open it?", b.Yes | b.No, b.Yes)
        return r == b.Yes

    def open_path(self, folder: str) -> Optional[str]:
        path, _ = QFileDialog.getOpenFileName(self.parent, "Open scene", folder, FILE_FILTER)
        return path or None

    def save_path(self, suggestion: str) -> Optional[str]:
        path, _ = QFileDialog.getSaveFileName(self.parent, "Save scene as", suggestion,
                                              FILE_FILTER)
        if path and not path.lower().endswith(".json"):
            path += ".json"
        return path or None

    def png_path(self, suggestion: str) -> Optional[str]:
        path, _ = QFileDialog.getSaveFileName(self.parent, "Export view as PNG", suggestion,
                                              "PNG images (*.png)")
        if path and not path.lower().endswith(".png"):
            path += ".png"
        return path or None

    def color(self, initial) -> Optional[str]:
        c = QColorDialog.getColor(QColor(initial), self.parent, "Object colour")
        return c.name() if c.isValid() else None


#: ``MainWindow(with_panels=PANELS_AFTER_FIRST_FRAME)``: build the algorithm panels at the turn
#: of the event loop after the view's first frame (``explorer open``: the scene shows sooner)
PANELS_AFTER_FIRST_FRAME = "after first frame"


class MainWindow(QMainWindow):
    """The explorer window. ``pair_changed(a_id, b_id)`` (``""`` for none)."""

    pair_changed = pyqtSignal(str, str)
    #: the algorithm panels were built after the window showed (``PANELS_AFTER_FIRST_FRAME``)
    panels_loaded = pyqtSignal()

    def __init__(self, scene: Optional[Scene] = None, path=None, with_panels: bool | str = True,
                 autosave_ms: int = AUTOSAVE_MS):
        super().__init__()
        self.setWindowTitle(APP_NAME)
        self.resize(1500, 920)
        self.scene = Scene()
        self.dialogs = Dialogs(self)
        #: files, recent files and autosave (explorer.qt.documents over explorer.model.documents)
        self.documents = DocumentController(self, autosave_ms)
        errors.register(self)
        self.undo_stack = UndoStack(self.scene)
        self.evaluator = Evaluator()
        #: the view state (selection, chosen pair, scope, overlays, results mode, time)
        self.workspace = Workspace(self.scene)
        #: the edits widgets ask for (they never call the window)
        self.commands = Commands(self.scene, self.undo_stack, self.workspace)
        self.commands.edited.connect(lambda _what: (self._touch(), self.refresh()))
        self.commands.message.connect(lambda text, ms: self.statusBar().showMessage(text, ms))
        self.commands.view_size = lambda: self.viewport.view.ext.size
        self.workspace.results_mode_changed.connect(lambda _mode: self.refresh())
        self._emitted_pair = (None, None)
        self._drag_serial = 0
        self._add_count = 0
        self._refreshing = False
        self.last_results: list[PairAnswer] = []
        self._frame_cache: dict = {}
        #: render after each change (the drag benchmark turns it off to time render apart)
        self.auto_render = True
        self.panel_errors: list[str] = []
        self.panel_docks: list[QDockWidget] = []

        self.viewport = Viewport(self)
        self.setCentralWidget(self.viewport)
        self.viewport.on_drag = self.drag_handle
        self.viewport.on_drag_start = self.drag_start
        self.viewport.on_drag_end = self.drag_end
        self.viewport.picked.connect(lambda i: self.select(i or None))
        self.viewport.view.on_rebuild.append(self._after_rebuild)

        self._build_actions()
        self._build_menus()
        self._build_toolbars()
        self._build_docks()
        self.statusBar().showMessage("Ready")

        self._results_timer = QTimer(self)
        self._results_timer.setSingleShot(True)
        self._results_timer.timeout.connect(self._update_results_panel)
        self._props_timer = QTimer(self)
        self._props_timer.setSingleShot(True)
        self._props_timer.timeout.connect(self._refresh_properties)
        self._refresh_timer = QTimer(self)
        self._refresh_timer.setSingleShot(True)
        self._refresh_timer.timeout.connect(self.refresh)

        self.viewport.set_scene(self.scene)
        self.scene_panel.set_scene(self.scene)
        self.scene.object_changed.connect(self._on_object_changed)
        for sig in (self.scene.object_added, self.scene.object_removed, self.scene.reset,
                    self.scene.queries_changed):
            sig.connect(self._on_structure_changed)
        self.undo_stack.changed.connect(self._update_undo_actions)
        self._update_undo_actions()
        if with_panels == PANELS_AFTER_FIRST_FRAME:  # explorer's start-up: the view first
            self.viewport.after_first_frame.append(self._load_panels)
        elif with_panels:
            self._load_panels()
        from explorer.qt import lessons  # the Lessons menu and the Lesson dock (issue 13)

        lessons.install(self)
        from explorer.qt import handling  # cameras, drag locks, grip labels, presentation

        handling.install(self)
        from explorer.qt import bounding  # Edit > Bound These (issue 13)

        bounding.install(self)
        from explorer.qt import features  # View > Closest-Point Features (issue 13)

        features.install(self)
        from explorer.qt.methods import install as install_methods

        self.methods_ui = install_methods(self)  # File > Load Methods…, the Methods dock
        from explorer.qt import export_menu  # File > Export (issue 14)

        export_menu.install(self)
        if scene is not None:
            self.set_document(scene, path)
        self._update_title()

    def methods_panel_watch(self, paths) -> None:
        """Show user methods loaded before the window opened (``explorer open --methods``)."""
        self.methods_ui.watch(paths)

    # ================================================================== construction
    def _action(self, text, slot, shortcut=None, tip="", checkable=False) -> QAction:
        a = QAction(text, self)
        if shortcut is not None:
            if isinstance(shortcut, (list, tuple)):
                a.setShortcuts([QKeySequence(s) for s in shortcut])
            else:
                a.setShortcut(QKeySequence(shortcut))
        a.setToolTip(tip or text.replace("&", ""))
        a.setStatusTip(tip or text.replace("&", ""))
        a.setCheckable(checkable)
        a.triggered.connect(slot)
        return a

    def _build_actions(self) -> None:
        K = QKeySequence.StandardKey
        self.act_new = self._action("&New", self.new_scene, K.New, "Start an empty scene")
        self.act_open = self._action("&Open…", self.open_dialog, K.Open, "Open a scene file")
        self.act_save = self._action("&Save", self.save, K.Save, "Save the scene (Ctrl+S)")
        self.act_save_as = self._action("Save &As…", self.save_as, K.SaveAs,
                                        "Save the scene under a new name")
        self.act_export = self._action("&Export View as PNG…", self.export_dialog, "Ctrl+E",
                                       "Save the 3-D view as a PNG image")
        self.act_quit = self._action("&Quit", self.close, K.Quit, "Close the explorer")
        self.act_undo = self._action("&Undo", self.undo, "Ctrl+Z", "Undo the last edit (Ctrl+Z)")
        self.act_redo = self._action("&Redo", self.redo, ["Ctrl+Shift+Z", "Ctrl+Y"],
                                     "Redo the undone edit (Ctrl+Shift+Z)")
        self.act_delete = self._action("Delete", self.delete_selected, K.Delete,
                                       "Delete the selected object (Delete)")
        self.act_duplicate = self._action("Duplicate", self.duplicate_selected, "Ctrl+D",
                                          "Duplicate the selected object (Ctrl+D)")
        self.act_rename = self._action("Rename", self.rename_selected, "F2",
                                       "Rename (label) the selected object (F2)")
        self.act_color = self._action("Color…", self.recolor_selected, None,
                                      "Change the selected object's colour")
        self.act_hide = self._action("Hide/Show", self.toggle_hidden, "H",
                                     "Hide or show the selected object (H)")
        self.act_frame = self._action("&Frame Selection", self.frame_selection, "F",
                                      "Frame the selected object (or the scene) in the view (F)")
        self.act_frame_all = self._action("Frame &All", lambda: self.viewport.frame(None),
                                          "Shift+F", "Frame the whole scene (Shift+F)")
        self.act_snap = self._action("Snap to &Grid", lambda on: None, "Ctrl+G",
                                     "Round dragged grips to the grid step (Ctrl+G)",
                                     checkable=True)
        self.add_actions = {}
        for kind in TYPES:
            self.add_actions[kind] = self._action(
                kind, lambda _c=False, k=kind: self.add_object(k), None,
                f"Add {TYPE_TIPS.get(kind, kind)} to the scene")
        self.overlay_actions = {}
        for key, text, tip in overlays.KINDS:
            a = self._action(text, lambda on, k=key: self.workspace.set_overlay(k, on), None,
                             tip, checkable=True)
            a.setChecked(key in self.workspace.overlays)
            self.overlay_actions[key] = a
        self.scope_group = QActionGroup(self)
        self.scope_actions = {}
        for key, text, tip in (
                ("queries", "Answers for the Scene's Pairs",
                 "Draw the answers of the scene's query pairs (and the chosen pair); a scene "
                 f"without a query list and more than {policies.MAX_IMPLICIT_PAIRS} pairs draws the "
                 "selected object's pairs"),
                ("selected", "Answers for the Selected Object",
                 "Draw the answers of the selected object against every other one"),
                ("pair", "Answers for the Chosen Pair Only", "Draw only the chosen pair")):
            a = self._action(text, lambda on, k=key: on and self.workspace.set_scope(k), None,
                             tip, checkable=True)
            self.scope_group.addAction(a)
            self.scope_actions[key] = a
        self.scope_actions[self.workspace.scope].setChecked(True)
        self.workspace.overlays_changed.connect(lambda _kinds: self.refresh())
        self.workspace.scope_changed.connect(lambda _scope: self.refresh())

    def _build_menus(self) -> None:
        mb = self.menuBar()
        m = mb.addMenu("&File")
        m.addActions([self.act_new, self.act_open])
        self.recent_menu = m.addMenu("Open &Recent")
        self.recent_menu.setToolTipsVisible(True)
        self.examples_menu = m.addMenu("E&xample Scenes")
        self.examples_menu.setToolTipsVisible(True)
        for title, p in shipped_scenes():
            a = self.examples_menu.addAction(title)
            a.setToolTip(f"Open the shipped scene {p.name}")
            a.triggered.connect(lambda _c=False, p=p: self.open_file(p))
        m.addSeparator()
        m.addActions([self.act_save, self.act_save_as, self.act_export])
        m.addSeparator()
        m.addAction(self.act_quit)
        self._fill_recent_menu()
        m = mb.addMenu("&Edit")
        m.addActions([self.act_undo, self.act_redo])
        m.addSeparator()
        m.addActions([self.act_delete, self.act_duplicate, self.act_rename, self.act_color,
                      self.act_hide])
        m.addSeparator()
        m.addAction(self.act_snap)
        m = mb.addMenu("&Add")
        m.setToolTipsVisible(True)
        m.addActions(list(self.add_actions.values()))
        m = mb.addMenu("&View")
        m.setToolTipsVisible(True)
        m.addActions([self.act_frame, self.act_frame_all])
        m.addSeparator()
        for a in self.overlay_actions.values():
            m.addAction(a)
        m.addSeparator()
        m.addActions(list(self.scope_actions.values()))
        self.view_menu = m
        for menu in mb.findChildren(type(m)):
            menu.setToolTipsVisible(True)
        h = mb.addMenu("&Help")
        h.addAction(self._action("&Keys and Mouse", self._show_keys, "F1",
                                 "Keyboard shortcuts and mouse moves"))

    def _build_toolbars(self) -> None:
        tb = QToolBar("Add")
        tb.setObjectName("add-toolbar")
        tb.setToolTip("Add a primitive")
        tb.addWidget(QLabel(" Add: "))
        for a in self.add_actions.values():
            tb.addAction(a)
        self.addToolBar(tb)
        tb = QToolBar("Edit")
        tb.setObjectName("edit-toolbar")
        tb.addActions([self.act_undo, self.act_redo, self.act_frame])
        tb.addSeparator()
        tb.addAction(self.act_snap)
        self.grid_step = QDoubleSpinBox()
        self.grid_step.setRange(0.001, 100.0)
        self.grid_step.setDecimals(3)
        self.grid_step.setValue(0.25)
        self.grid_step.setSingleStep(0.05)
        self.grid_step.setToolTip("Grid step for snapping dragged grips")
        tb.addWidget(self.grid_step)
        self.addToolBar(tb)
        self.addToolBarBreak()
        tb = QToolBar("Answers")
        tb.setObjectName("answers-toolbar")
        tb.addWidget(QLabel(" Show: "))
        for a in self.overlay_actions.values():
            tb.addAction(a)
        self.addToolBar(tb)
        from PyQt6.QtWidgets import QToolButton

        for bar in self.findChildren(QToolBar):
            ext = bar.findChild(QToolButton, "qt_toolbar_ext_button")
            if ext is not None:
                ext.setToolTip("More tools (the window is too narrow to show them all)")

    def _dock(self, title: str, widget: QWidget, area, tip: str = "") -> QDockWidget:
        d = QDockWidget(title, self)
        d.setObjectName(f"dock-{title}")
        d.setWidget(widget)
        d.setToolTip(tip or title)
        self.addDockWidget(area, d)
        self.view_menu.addAction(d.toggleViewAction())
        return d

    def _build_docks(self) -> None:
        L, R = Qt.DockWidgetArea.LeftDockWidgetArea, Qt.DockWidgetArea.RightDockWidgetArea
        self.view_menu.addSeparator()
        self.scene_panel = ScenePanel(self.workspace, self.commands,
                                      (self.act_duplicate, self.act_rename, self.act_color,
                                       self.act_hide, self.act_delete), self)
        self.scene_panel.selected.connect(lambda i: self.select(i or None))
        self.scene_dock = self._dock("Scene", self.scene_panel, L, "The scene's objects")
        self.property_panel = PropertyPanel(self.scene, self.commands, self)
        self.property_dock = self._dock("Properties", self.property_panel, L,
                                        "The selected object's numbers")
        self.results_panel = ResultsPanel(self.scene, self.workspace, self.commands, self)
        self.results_panel.pair_chosen.connect(self._pair_from_panel)
        self.results_dock = self._dock("Results", self.results_panel, R,
                                       "Every answer for the selected object or a chosen pair")
        self.resizeDocks([self.scene_dock, self.property_dock], [300, 460],
                         Qt.Orientation.Vertical)
        self.resizeDocks([self.scene_dock, self.results_dock], [330, 420],
                         Qt.Orientation.Horizontal)

    def _load_panels(self) -> None:
        """Add each ``explorer.qt.panels.PANELS`` entry as a dock; a broken panel never breaks the
        window (its error is listed in :attr:`panel_errors` and the status bar)."""
        try:
            from explorer.qt.panels import PANELS  # noqa: WPS433 - optional, built in parallel
        except Exception as exc:  # noqa: BLE001
            self.panel_errors.append(f"panels: {type(exc).__name__}: {exc}")
            return
        first = None
        for title, factory in list(PANELS):
            try:
                widget = factory(self.scene, self.workspace, self.commands, self.viewport,
                                 self.evaluator)
            except Exception as exc:  # noqa: BLE001
                self.panel_errors.append(f"{title}: {type(exc).__name__}: {exc}")
                traceback.print_exc()
                continue
            d = self._dock(title, widget, Qt.DockWidgetArea.RightDockWidgetArea)
            if first is None:
                first = d
            else:
                self.tabifyDockWidget(first, d)
            self.panel_docks.append(d)
        if first is not None:
            # built after the first frame, the Methods, Fuzz and Precision docks are already
            # beside Results: put them back after the panels, the order of a window built at once
            later = [d for d in self.tabifiedDockWidgets(self.results_dock)
                     if d not in self.panel_docks]
            self.tabifyDockWidget(self.results_dock, first)
            for d in later:
                self.tabifyDockWidget(self.results_dock, d)
            self.results_dock.raise_()
        if getattr(self, "_shown_once", False):  # built after the first show (start-up):
            QTimer.singleShot(0, lambda: self.raise_panels_for(self.current_pair()))  # shown
        self.panels_loaded.emit()
        if self.panel_errors:
            self.statusBar().showMessage("Some panels failed to load: "
                                         + "; ".join(self.panel_errors), 10000)

    # ================================================================== document
    def set_document(self, scene: Scene, path=None) -> None:
        """Show ``scene`` (its contents become this window's scene) from ``path``."""
        self.scene.replace_all(scene)
        self.documents.shown(path)
        self.undo_stack.clear()
        self.evaluator.clear()
        pairs = self.scene.pairs()
        # a new document starts at t = 0: a time left from the last scene would hide every
        # answer overlay of the new one (issue 10 defect)
        self.workspace.set_scene(self.scene, pairs[0] if pairs else None)
        self.viewport.set_time(0.0)
        self.results_panel.set_objects(self.scene.ids())
        self.results_panel.set_pair(*(self._pair or (None, None)))
        self.property_panel.show_object(None)
        self.viewport.clear_grips()
        self._apply_camera()
        self.refresh()
        self._emit_pair()
        self._update_title()

    def _apply_camera(self) -> None:
        cam = self.scene.view.get("camera") if isinstance(self.scene.view, dict) else None
        plotter = self.viewport.plotter
        try:
            if cam:
                plotter.camera_position = [cam["position"], cam["focal_point"], cam["up"]]
                return
        except Exception:  # noqa: BLE001 - a bad saved camera falls back to the default
            pass
        plotter.camera_position = "iso"
        self.viewport.frame(None)

    def _store_camera(self) -> None:
        pos, foc, up = self.viewport.plotter.camera_position
        self.scene.view["camera"] = {"position": [float(v) for v in pos],
                                     "focal_point": [float(v) for v in foc],
                                     "up": [float(v) for v in up]}

    # the File menu: explorer.qt.documents does the work (explorer.model.documents the logic)
    @property
    def path(self) -> Optional[Path]:
        return self.documents.document.path

    @path.setter
    def path(self, value) -> None:
        self.documents.document.path = Path(value) if value else None

    @property
    def dirty(self) -> bool:
        return self.documents.document.dirty

    @dirty.setter
    def dirty(self, value: bool) -> None:
        self.documents.document.dirty = bool(value)

    def maybe_save(self) -> bool:
        return self.documents.maybe_save()

    def new_scene(self) -> bool:
        return self.documents.new_scene()

    def open_dialog(self) -> bool:
        return self.documents.open_dialog()

    def open_file(self, path, ask: bool = True) -> bool:
        return self.documents.open_file(path, ask)

    def save(self) -> bool:
        return self.documents.save()

    def save_as(self) -> bool:
        return self.documents.save_as()

    def export_dialog(self) -> bool:
        stem = self.path.stem if self.path else "scene"
        path = self.dialogs.png_path(str(Path.cwd() / f"{stem}.png"))
        return self.export_png(path) if path else False

    def export_png(self, path) -> bool:
        try:
            self.viewport.screenshot(path)
        except Exception as exc:  # noqa: BLE001
            self.dialogs.error("Cannot export", f"{path}:\n{exc}")
            return False
        self.statusBar().showMessage(f"Exported {path}", 5000)
        return True

    def recent_files(self) -> list[str]:
        return self.documents.recent_files()

    def _fill_recent_menu(self) -> None:
        self.documents.fill_recent_menu()

    def autosave(self) -> bool:
        return self.documents.autosave()

    def remove_recovery(self) -> None:
        self.documents.remove_recovery()

    def offer_recovery(self) -> bool:
        return self.documents.offer_recovery()

    def showEvent(self, event) -> None:
        """On the first show the docks exist on screen: bring the chosen pair's teaching
        panels to the front (before that, raising a hidden dock does nothing)."""
        super().showEvent(event)
        if not getattr(self, "_shown_once", False):
            self._shown_once = True
            self.raise_panels_for(self.current_pair())

    def closeEvent(self, event) -> None:  # noqa: N802 - Qt's name
        if not self.maybe_save():
            event.ignore()
            return
        self.documents.close()
        self._results_timer.stop()
        self._refresh_timer.stop()
        self._props_timer.stop()
        event.accept()
        self.shutdown()

    def shutdown(self) -> None:
        """Release the viewport (safe to call twice)."""
        if getattr(self, "_shut", False):
            return
        self._shut = True
        self.scene_panel.unbind()
        self.viewport.close_viewport()

    # ================================================================== editing
    def _touch(self) -> None:
        if self.documents.touch():
            self._update_title()

    def edit(self, obj_id: str, what: str, key=None, **changes) -> Optional[SceneObject]:
        """Change fields of one object (``changes``: ``primitive``, ``label``, ``color``,
        ``motion``, ``hidden``) as one undoable step called ``what`` (``key`` merges steps)."""
        return self.commands.edit(obj_id, what, key, **changes)

    def add_object(self, kind: str) -> SceneObject:
        ext = self.viewport.view.ext if len(self.scene) else scene_extent([])
        size = 1.0 if not len(self.scene) else max(min(ext.size / 6, 2.0), 0.5)
        # new objects go round a grid of 4 x 3 places, so that they do not pile up
        n = self._add_count % 12
        offset = np.array([n % 4 - 1.5, n // 4 - 1.0, 0.0]) * size * 1.8
        self._add_count += 1
        base = ext.center if len(self.scene) else np.zeros(3)
        prim = drag.new_primitive(kind, base + offset, size)
        self.undo_stack.checkpoint(f"Add {kind}")
        obj = self.scene.add(prim)
        self._touch()
        self.select(obj.id)
        if not self.viewport.in_view(obj.id):  # a new object the student cannot see: frame
            self.viewport.frame(None)
        self.statusBar().showMessage(f"Added {obj.id}: drag its grips in the view", 5000)
        return obj

    def delete_selected(self) -> bool:
        obj_id = self.selected_id
        if obj_id is None or obj_id not in self.scene:
            return False
        self.undo_stack.checkpoint(f"Delete {obj_id}")
        self.select(None)
        self.scene.remove(obj_id)
        self.workspace.forget(obj_id)
        self._touch()
        self.refresh()
        self._emit_pair()
        return True

    def duplicate_selected(self) -> Optional[SceneObject]:
        obj_id = self.selected_id
        if obj_id is None or obj_id not in self.scene:
            return None
        src = self.scene[obj_id]
        shift = self.viewport.view.ext.size * 0.08
        prim = src.primitive.translated((shift, shift, 0.0))
        new = SceneObject(self.scene.new_id(src.kind), prim, label=None, color=None,
                          motion=src.motion, hidden=False, extra=dict(src.extra))
        self.undo_stack.checkpoint(f"Duplicate {obj_id}")
        self.scene.insert(self.scene.index(obj_id) + 1, new)
        self._touch()
        self.select(new.id)
        return new

    def rename_selected(self) -> None:
        if self.selected_id:
            self.scene_dock.show()
            self.scene_panel.rename(self.selected_id)

    def recolor_selected(self) -> None:
        obj_id = self.selected_id
        if obj_id is None:
            return
        r, g, b = self.viewport.view.colors.get(obj_id, (0.5, 0.5, 0.5))
        color = self.dialogs.color(QColor.fromRgbF(r, g, b))
        if color:
            self.edit(obj_id, "Recolor", color=color)

    def toggle_hidden(self) -> None:
        obj_id = self.selected_id
        if obj_id is not None and obj_id in self.scene:
            hidden = not self.scene[obj_id].hidden
            self.edit(obj_id, "Hide" if hidden else "Show", hidden=hidden)
            self.viewport.show_grips(obj_id)

    def undo(self) -> None:
        label = self.undo_stack.undo()
        if label:
            self._after_history(f"Undid: {label}")

    def redo(self) -> None:
        label = self.undo_stack.redo()
        if label:
            self._after_history(f"Redid: {label}")

    def _after_history(self, message: str) -> None:
        if self.viewport.view.refresh_extent():
            self._frame_cache.clear()
        self._touch()
        self.select(self.selected_id if self.selected_id in self.scene else None, force=True)
        self.refresh()
        self.statusBar().showMessage(message, 4000)

    def _update_undo_actions(self) -> None:
        u, r = self.undo_stack.undo_label(), self.undo_stack.redo_label()
        self.act_undo.setEnabled(u is not None)
        self.act_redo.setEnabled(r is not None)
        self.act_undo.setText(f"&Undo {u}" if u else "&Undo")
        self.act_redo.setText(f"&Redo {r}" if r else "&Redo")

    # ---------------------------------------------------------------- dragging
    def snap_step(self) -> Optional[float]:
        return self.grid_step.value() if self.act_snap.isChecked() else None

    def drag_start(self, obj_id, handle) -> None:
        """A drag of ``handle`` of ``obj_id`` begins: one undo step for the whole drag."""
        self._drag_serial += 1

    def drag_handle(self, obj_id: str, handle: str, position) -> bool:
        """A grip of ``obj_id`` moved to ``position`` (world, as drawn): the viewport widget's
        callback. One drag (start to end) is one undo step. Returns whether the scene changed."""
        if obj_id is None or obj_id not in self.scene:
            return False
        obj = self.scene[obj_id]
        pos = np.asarray(position, dtype=float)
        t = self.viewport.view.time
        if t and obj.motion is not None:
            pos = pos - t * np.asarray(obj.motion, dtype=float)  # grips follow the drawn time
        ext = self.viewport.view.ext
        try:
            prim = drag.drag_to(obj.primitive, handle, pos, ext.size, self.snap_step(),
                                ext.center)
        except GeometryError as exc:
            self.statusBar().showMessage(f"{obj_id}: {exc}", 3000)
            return False
        if prim == obj.primitive:
            return False
        self.edit(obj_id, f"Drag {obj_id} {handle}", key=("drag", self._drag_serial),
                  primitive=prim)
        return True

    def drag_end(self, obj_id, handle) -> None:
        self.undo_stack.end_merge()
        self._drag_serial += 1
        if self.viewport.view.refresh_extent():  # the floor and the rays follow the new size
            self._frame_cache.clear()
            self.viewport.show_grips(obj_id)
            self.refresh()
        if obj_id in self.scene:
            self.property_panel.refresh(self.scene[obj_id])

    # ================================================================== selection and pairs
    @property
    def selected_id(self) -> Optional[str]:
        return self.workspace.selected_id

    @property
    def _pair(self) -> Optional[tuple[str, str]]:
        return policies.chosen_pair(self.scene, self.workspace)

    def select(self, obj_id: Optional[str], force: bool = False) -> None:
        if obj_id is not None and obj_id not in self.scene:
            obj_id = None
        if obj_id == self.selected_id and not force:
            return
        self.workspace.select(obj_id)
        self.scene_panel.show_selection(obj_id)
        self.property_panel.show_object(self.scene[obj_id] if obj_id else None)
        self.viewport.show_grips(obj_id)
        for a in (self.act_delete, self.act_duplicate, self.act_rename, self.act_color,
                  self.act_hide):
            a.setEnabled(obj_id is not None)
        self.refresh()
        self._emit_pair()

    def current_pair(self) -> tuple[Optional[str], Optional[str]]:
        """The pair the panels should show: the chosen pair, else (selected object, None)."""
        return policies.current_pair(self.scene, self.workspace)

    def set_pair(self, a: Optional[str], b: Optional[str]) -> None:
        """Choose the pair ``(a, b)`` (``None``/``""`` clears it)."""
        self.workspace.set_pair(a, b)
        self.results_panel.set_pair(*(self._pair or (None, None)))
        self.refresh()
        self._emit_pair()

    def _pair_from_panel(self, a: str, b: str) -> None:
        self.set_pair(a, b)

    def _emit_pair(self) -> None:
        pair = self.current_pair()
        if pair != self._emitted_pair:
            self._emitted_pair = pair
            self.pair_changed.emit(pair[0] or "", pair[1] or "")
            self.raise_panels_for(pair)

    def panels_for(self, pair) -> list[str]:
        """Titles of the docks that teach the most about ``pair`` (:func:`policies.panels_for`)."""
        return policies.panels_for(self.scene, pair)

    def raise_panels_for(self, pair) -> None:
        """Bring the panels of :meth:`panels_for` to the front of their tab groups (a student
        choosing a pair should not have to hunt for the panel that shows it)."""
        docks = {d.windowTitle(): d for d in [self.results_dock, *self.panel_docks]}
        for title in self.panels_for(pair):
            dock = docks.get(title)
            if dock is not None and dock.toggleViewAction().isChecked():
                dock.raise_()

    def frame_selection(self) -> None:
        self.viewport.frame(self.selected_id)

    # ================================================================== live answers
    def _on_object_changed(self, obj, fields) -> None:
        if "color" in fields:
            self._frame_cache.clear()
        if obj.id == self.selected_id:
            self._props_timer.start(0)  # the fields follow at the next turn of the loop
            self.viewport.sync_grips()
        self._schedule_refresh()

    def _refresh_properties(self) -> None:
        if self.selected_id in self.scene and not getattr(self, "_shut", False):
            self.property_panel.refresh(self.scene[self.selected_id])

    def _on_structure_changed(self, *_args) -> None:
        ids = self.scene.ids()
        self.results_panel.set_objects(ids)
        self._schedule_refresh()

    def _after_rebuild(self) -> None:
        self._frame_cache.clear()
        note = self.viewport.view.range_note()  # objects beyond the drawing range (drawrange)
        if note:
            self.statusBar().showMessage(note, 20000)
        if self.selected_id and self.selected_id in self.scene:
            self.viewport.show_grips(self.selected_id)
        else:
            self.viewport.clear_grips()

    def _schedule_refresh(self) -> None:
        """Changes made by others (panels) are drawn at the next turn of the event loop."""
        self._refresh_timer.start(0)

    def overlay_pairs(self) -> list[tuple[str, str]]:
        """The pairs whose answers are drawn (View > Answers for ...)."""
        return policies.overlay_pairs(self.scene, self.workspace)

    def pairs_of(self, obj_id: str) -> list[tuple[str, str]]:
        """``obj_id`` against every other object, each pair in the scene's order."""
        return policies.pairs_of(self.scene, obj_id)

    def focus_pairs(self) -> set:
        """Pairs that get the roomy overlays (:func:`policies.focus_pairs`)."""
        return policies.focus_pairs(self.scene, self.workspace)

    def enabled_overlays(self) -> set[str]:
        return set(self.workspace.overlays)

    def update_answers(self) -> list[PairAnswer]:
        """The update path of a drag step: queries, then overlay geometry (no render)."""
        view = self.viewport.view
        results = self.evaluator.results(self.scene, self.overlay_pairs())
        ctx = Context(self.scene, view.ext, view.meshes, view.colors)
        frame = overlays.build(self.scene, results, ctx, self.enabled_overlays(),
                               focus=self.focus_pairs(), cache=self._frame_cache)
        methods_ui = getattr(self, "methods_ui", None)
        if methods_ui is not None:
            methods_ui.decorate(frame, ctx)  # the user's methods beside the reference
        view.apply_frame(frame)
        self.last_results = results
        return results

    def refresh(self) -> None:
        """Recompute the drawn answers and render; the results panel follows shortly."""
        if self._refreshing or getattr(self, "_shut", False):
            return
        self._refreshing = True
        try:
            self._refresh_timer.stop()
            self.update_answers()
            self._results_timer.start(0)
            # while a grip is dragged, VTK renders right after our InteractionEvent callback:
            # rendering here too would draw every step twice
            if self.auto_render and self.viewport.dragging is None:
                self.viewport.render()
            errors.ok(self)
        except Exception as exc:  # noqa: BLE001 - a failing update never closes the window
            errors.report(self, "Cannot update the answers", exc)
        finally:
            self._refreshing = False

    def panel_pairs(self) -> list[tuple[str, str]]:
        """The pairs the results panel lists (at most MAX_LISTED_PAIRS, and the chosen one)."""
        self.workspace.set_results_mode(self.results_panel.mode_key)
        pairs = policies.results_pairs(self.scene, self.workspace)
        if len(pairs) > MAX_LISTED_PAIRS:  # 400 objects: 79,800 pairs froze the window 15 s
            self.statusBar().showMessage(
                f"The results list the first {MAX_LISTED_PAIRS} of {len(pairs)} pairs: select "
                "an object or choose a pair to see its answers", 10000)
            pairs = pairs[:MAX_LISTED_PAIRS] + [p for p in pairs[-1:] if p == self._pair]
        return pairs

    def results_for_panel(self) -> list[PairAnswer]:
        return self.evaluator.results(self.scene, self.panel_pairs())

    def _update_results_panel(self) -> None:
        if getattr(self, "_shut", False):
            return
        busy.update_results(self)  # many pairs: in steps, with progress and Cancel

    # ================================================================== misc
    def _update_title(self) -> None:
        name = self.path.name if self.path else "Untitled"
        if self.path is not None and is_shipped(self.path):
            name += " [read-only example]"
        self.setWindowTitle(f"{'*' if self.dirty else ''}{name} ({self.scene.name}) — {APP_NAME}")

    def _show_keys(self) -> None:
        QMessageBox.information(self, "Keys and mouse", (
            "Mouse: left-drag rotates, Shift+left or middle-drag pans, wheel or right-drag zooms.\n"
            "Click an object to select it; drag its grips (small balls) to edit it.\n\n"
            "Delete: delete the selection    Ctrl+D: duplicate    F2: rename    H: hide\n"
            "Ctrl+Z / Ctrl+Shift+Z: undo / redo    Ctrl+S: save    Ctrl+O: open\n"
            "F: frame the selection    Shift+F: frame all    Ctrl+G: snap to grid\n"
            "Ctrl+E: export the view as PNG\n"
            "Hold Ctrl while dragging a grip: along one axis; Ctrl+Shift: in the plane facing you\n"
            "7 / 1 / 3 / 0: top / front / side / isometric view    5: orthographic\n"
            "F11: presentation mode (large fonts)"))
