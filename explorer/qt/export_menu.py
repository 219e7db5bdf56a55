"""File > Export in the window (issue 14): the view in every format of
:mod:`explorer.render.export` (PNG, glTF, OBJ, VTK, HTML, SVG, PDF, GIF, MP4, Markdown), the
time line and the last drag as an animation, every panel as PNG and SVG, and the explain text
of the chosen pair as Markdown.

:func:`install` adds the menu to a :class:`~explorer.qt.window.MainWindow` and starts the drag
recorder. The exports other than the window's own PNG are drawn offscreen from the window's
scene with the window's camera and size, by the same code as ``explorer export``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Optional

from PyQt6.QtCore import QRectF, QSize
from PyQt6.QtGui import QPainter
from PyQt6.QtWidgets import QFileDialog, QMenu

from explorer.render import export as exporting

#: the most steps a recorded drag keeps (then every other one is dropped)
MAX_DRAG_STEPS = 600


class DragRecorder:
    """Keeps the last drag of the window: the scene when it started and the dragged object's
    primitive after each step (Qt-free logic fed by the viewport's drag callbacks)."""

    def __init__(self, scene):
        self.scene = scene
        self.start_scene = None
        self.obj_id: Optional[str] = None
        self.steps: list = []
        self._live = False
        scene.object_changed.connect(self._changed)

    def begin(self, obj_id: str) -> None:
        self.start_scene = self.scene.copy()
        self.obj_id = obj_id
        self.steps = [self.scene[obj_id].primitive] if obj_id in self.scene else []
        self._live = True

    def end(self) -> None:
        self._live = False

    def _changed(self, obj, fields) -> None:
        if self._live and obj.id == self.obj_id and "primitive" in fields:
            self.steps.append(obj.primitive)
            if len(self.steps) > MAX_DRAG_STEPS:
                self.steps = self.steps[::2]

    def recorded(self) -> Optional[tuple]:
        """``(scene at the start, object id, [primitive, ...])`` of the last drag, or ``None``."""
        if self.start_scene is None or len(self.steps) < 2 or self.obj_id not in self.start_scene:
            return None
        return self.start_scene, self.obj_id, list(self.steps)


class ExportDialogs:
    """The export menu's questions (tests replace it)."""

    def __init__(self, parent):
        self.parent = parent

    def save_path(self, title: str, suggestion: str, exts) -> Optional[str]:
        filters = ";;".join(f"{exporting.FORMATS[e]} (*{e})" for e in exts)
        path, chosen = QFileDialog.getSaveFileName(self.parent, title, suggestion, filters)
        if path and Path(path).suffix.lower() not in exts:
            ext = next((e for e in exts if f"*{e})" in chosen), exts[0])
            path += ext
        return path or None

    def folder(self, title: str, start: str) -> Optional[str]:
        return QFileDialog.getExistingDirectory(self.parent, title, start) or None


def render_widget_svg(widget, path, title: str = "") -> None:
    """``widget`` painted into an SVG file (vectors where it paints with QPainter)."""
    from PyQt6.QtSvg import QSvgGenerator

    size = widget.size()
    if size.width() < 50 or size.height() < 50:
        widget.resize(widget.sizeHint().expandedTo(QSize(420, 320)))
        size = widget.size()
    gen = QSvgGenerator()
    gen.setFileName(str(path))
    gen.setSize(size)
    gen.setViewBox(QRectF(0, 0, size.width(), size.height()))
    gen.setTitle(title)
    gen.setDescription("Intersection Explorer panel")
    painter = QPainter(gen)
    try:
        widget.render(painter)
    finally:
        painter.end()


def _slug(text: str) -> str:
    return "".join(c if c.isalnum() else "-" for c in text.lower()).strip("-") or "panel"


class ExportMenu:
    """The File > Export submenu of one window."""

    def __init__(self, window):
        self.window = window
        self.dialogs = ExportDialogs(window)
        self.recorder = DragRecorder(window.scene)
        vp = window.viewport
        start, end = vp.on_drag_start, vp.on_drag_end

        def on_start(obj_id, handle):
            self.recorder.begin(obj_id)
            if start is not None:
                start(obj_id, handle)

        def on_end(obj_id, handle):
            if end is not None:
                end(obj_id, handle)
            self.recorder.end()
            self.act_drag.setEnabled(self.recorder.recorded() is not None)

        vp.on_drag_start, vp.on_drag_end = on_start, on_end
        self.menu = QMenu("Expor&t", window)
        self.menu.setToolTipsVisible(True)
        act = window._action
        self.act_view = act("&View As…", self.export_view_dialog, "Ctrl+Shift+E",
                            "The 3-D view with its answers as PNG, glTF, OBJ, VTK, HTML, SVG "
                            "or PDF")
        self.act_timeline = act("&Time Line Animation…", self.export_timeline_dialog, None,
                                "The moving objects from t = 0 to 1 as a GIF or MP4")
        self.act_drag = act("Last &Drag Animation…", self.export_drag_dialog, None,
                            "Replay the last drag in the viewport as a GIF or MP4")
        self.act_drag.setEnabled(False)
        self.act_panels = act("&Panels as PNG and SVG…", self.export_panels_dialog, None,
                              "Every panel as a PNG picture and an SVG drawing, into a folder")
        self.act_explain = act("E&xplain Text as Markdown…", self.export_explain_dialog, None,
                               "The explain text of the chosen pair as Markdown")
        self.menu.addActions([self.act_view, self.act_timeline, self.act_drag, self.act_panels,
                              self.act_explain])

    # ---------------------------------------------------------------- helpers
    def _stem(self) -> str:
        return self.window.path.stem if self.window.path else "scene"

    def _suggest(self, suffix: str) -> str:
        return str(Path.cwd() / f"{self._stem()}{suffix}")

    def camera(self):
        return self.window.viewport.plotter.camera_position

    def size(self) -> tuple:
        w, h = self.window.viewport.plotter.window_size
        return (max(int(w), 16), max(int(h), 16))

    def _done(self, what) -> bool:
        self.window.statusBar().showMessage(f"Exported {what}", 5000)
        return True

    def _failed(self, path, exc) -> bool:
        self.window.dialogs.error("Cannot export", f"{path}:\n{exc}")
        return False

    # ---------------------------------------------------------------- exports
    def export_view(self, path) -> bool:
        """The view to ``path`` in the format of its extension (PNG: the window's own pixels)."""
        try:
            if Path(path).suffix.lower() == ".png":
                return self.window.export_png(path)
            exporting.export(self.window.scene.copy(), path, size=self.size(),
                             camera=self.camera())
        except Exception as exc:  # noqa: BLE001 - a dialog, never a crash
            return self._failed(path, exc)
        return self._done(path)

    def export_animation(self, path, kind: str) -> bool:
        """The time line (``"timeline"``) or the last drag (``"drag"``) to a GIF or MP4."""
        try:
            if kind == "drag":
                rec = self.recorder.recorded()
                if rec is None:
                    raise exporting.ExportError("no drag recorded yet: drag a grip first")
                scene, obj_id, steps = rec
                exporting.export(scene, path, size=self.size(), camera=self.camera(),
                                 animation="drag", drag=(obj_id, steps))
            else:
                exporting.export(self.window.scene.copy(), path, size=self.size(),
                                 camera=self.camera(), animation="timeline")
        except Exception as exc:  # noqa: BLE001
            return self._failed(path, exc)
        return self._done(path)

    def panels(self) -> list[tuple[str, object]]:
        """``[(title, widget)]`` of the results panel and every algorithm panel."""
        docks = [self.window.results_dock, *self.window.panel_docks]
        return [(d.windowTitle(), d.widget()) for d in docks if d.widget() is not None]

    def export_panels(self, folder) -> list[Path]:
        """Each panel as ``<scene>-<panel>.png`` and ``.svg`` in ``folder``; returns the files."""
        folder = Path(folder)
        written = []
        for title, widget in self.panels():
            refresh = getattr(widget, "flush", None) or getattr(widget, "refresh", None)
            if refresh is not None:
                refresh()
            base = folder / f"{self._stem()}-{_slug(title)}"
            if widget.width() < 50 or widget.height() < 50:
                widget.resize(widget.sizeHint().expandedTo(QSize(420, 320)))
            png = base.with_suffix(".png")
            if not widget.grab().save(str(png), "PNG"):
                raise OSError(f"could not write {png}")
            svg = base.with_suffix(".svg")
            render_widget_svg(widget, svg, title)
            written += [png, svg]
        return written

    def explain_markdown(self) -> str:
        from explorer.present.explain_md import pair_markdown, scene_markdown

        w = self.window
        a, b = w.current_pair()
        if a and b and a in w.scene and b in w.scene:
            oa, ob = w.scene[a], w.scene[b]
            return pair_markdown(w.scene.answer(a, b), oa.name, ob.name, oa.primitive,
                                 ob.primitive)
        return scene_markdown(w.scene)

    def export_explain(self, path) -> bool:
        try:
            Path(path).write_text(self.explain_markdown(), encoding="utf-8")
        except Exception as exc:  # noqa: BLE001
            return self._failed(path, exc)
        return self._done(path)

    # ---------------------------------------------------------------- dialogs
    def export_view_dialog(self) -> bool:
        exts = [e for e in exporting.FORMATS if e not in (".gif", ".mp4", ".md")]
        path = self.dialogs.save_path("Export view", self._suggest(".png"), exts)
        return self.export_view(path) if path else False

    def export_timeline_dialog(self) -> bool:
        path = self.dialogs.save_path("Export time line", self._suggest("-timeline.gif"),
                                      [".gif", ".mp4"])
        return self.export_animation(path, "timeline") if path else False

    def export_drag_dialog(self) -> bool:
        path = self.dialogs.save_path("Export last drag", self._suggest("-drag.gif"),
                                      [".gif", ".mp4"])
        return self.export_animation(path, "drag") if path else False

    def export_panels_dialog(self) -> bool:
        folder = self.dialogs.folder("Export panels into folder", str(Path.cwd()))
        if not folder:
            return False
        try:
            files = self.export_panels(folder)
        except Exception as exc:  # noqa: BLE001
            return self._failed(folder, exc)
        return self._done(f"{len(files)} files to {folder}")

    def export_explain_dialog(self) -> bool:
        path = self.dialogs.save_path("Export explain text", self._suggest("-explain.md"),
                                      [".md"])
        return self.export_explain(path) if path else False


def export_panels_of(path: str, folder, pair=None) -> list[Path]:
    """``explorer export SCENE -o FOLDER --panels``: open the window on ``path`` (hidden
    state folder), choose ``pair`` (default: the scene's first), write every panel as PNG and
    SVG into ``folder`` with :meth:`ExportMenu.export_panels`, close. Needs a display."""
    import os
    import sys
    import tempfile

    from PyQt6.QtWidgets import QApplication

    with tempfile.TemporaryDirectory() as state:
        os.environ.setdefault("EXPLORER_STATE_DIR", state)
        from explorer.qt.app import make_window

        app = QApplication.instance() or QApplication(sys.argv[:1])
        window = make_window(path)
        window.resize(1600, 1000)
        window.show()
        if pair:
            window.set_pair(*pair)
        for dock in window.panel_docks:  # each panel on screen, so it lays itself out
            dock.setFloating(True)
            dock.show()
            dock.resize(520, 440)
        for _ in range(10):
            app.processEvents()
        try:
            return window.export_menu.export_panels(folder)
        finally:
            window.dirty = False
            window.close()
            window.shutdown()
            app.processEvents()


def install(window) -> ExportMenu:
    """Add File > Export to ``window`` (after its "Export View as PNG" entry)."""
    menu = ExportMenu(window)
    file_menu = None
    for a in window.menuBar().actions():
        if a.menu() is not None and window.act_export in a.menu().actions():
            file_menu = a.menu()
            break
    if file_menu is not None:
        actions = file_menu.actions()
        i = actions.index(window.act_export)
        before = actions[i + 1] if i + 1 < len(actions) else None
        file_menu.insertMenu(before, menu.menu) if before else file_menu.addMenu(menu.menu)
    window.export_menu = menu
    return menu
