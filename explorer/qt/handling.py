"""Handling like a 3-D tool (issue 13, part 4): camera presets, an orthographic toggle, drags
locked to an axis or a plane, labels on the grips, and a presentation mode with large fonts.

:func:`install` adds to a :class:`~explorer.qt.window.MainWindow`:

* **View > Camera**: Top (``7``), Front (``1``), Side (``3``), Isometric (``0``) and
  Orthographic (``5``), the numeric keys of Blender's keypad; ``window.camera_preset(name)``;
* **Edit > Lock Drags**: none, to an axis, to a plane; held **Ctrl** locks a drag to the axis it
  moves most along, **Ctrl+Shift** to the world plane that faces the camera (no depth drift);
* grip labels (``p0``, ``p1``, ``centre``, ``radius``, ``max x`` ...) beside the selected object's
  grips (**View > Grip Labels**);
* **View > Presentation Mode** (``F11``): large fonts in the panels and the viewport labels.

The geometry of the locks is :func:`explorer.model.drag.lock_position` (no Qt).
"""

from __future__ import annotations

from typing import Optional

from PyQt6.QtCore import Qt
from PyQt6.QtGui import QAction, QActionGroup, QGuiApplication

from explorer.model import drag

#: preset -> (direction from the focal point to the camera, view up)
CAMERAS = {
    "top": ((0.0, 0.0, 1.0), (0.0, 1.0, 0.0)),
    "front": ((0.0, -1.0, 0.0), (0.0, 0.0, 1.0)),
    "side": ((1.0, 0.0, 0.0), (0.0, 0.0, 1.0)),
    "iso": ((1.0, 1.0, 1.0), (0.0, 0.0, 1.0)),
}
CAMERA_KEYS = {"top": "7", "front": "1", "side": "3", "iso": "0"}
GRIP_LABEL_PREFIX = "grip-label:"
PRESENTATION_POINTS = 16
PRESENTATION_LABEL_PX = 24
NORMAL_LABEL_PX = 15


class Handling:
    """The state behind the actions: the lock, the drag's start, the presentation mode."""

    def __init__(self, window):
        self.window = window
        self.lock: Optional[str] = None  # the menu's choice: None, "axis" or "plane"
        self.start: Optional[tuple] = None  # where the dragged grip was at the drag's start
        self.presenting = False
        self.grip_labels = True
        self._style_before = ""

    # ------------------------------------------------------------------ camera
    def camera_preset(self, name: str) -> None:
        """Look from the top, front, side or iso direction at the whole scene."""
        if name not in CAMERAS:
            raise ValueError(f"camera: must be one of {', '.join(CAMERAS)}, got {name!r}")
        direction, up = CAMERAS[name]
        vp = self.window.viewport
        cam = vp.plotter.camera
        fx, fy, fz = cam.GetFocalPoint()
        cam.SetPosition(fx + direction[0], fy + direction[1], fz + direction[2])
        cam.SetViewUp(*up)
        vp.frame(None)  # keeps the direction, fits the scene
        self.window.statusBar().showMessage(f"Camera: {name}", 2000)

    def set_orthographic(self, on: bool) -> None:
        plotter = self.window.viewport.plotter
        if on:
            plotter.enable_parallel_projection()
        else:
            plotter.disable_parallel_projection()
        self.window.viewport.frame(None)

    def orthographic(self) -> bool:
        return bool(self.window.viewport.plotter.camera.GetParallelProjection())

    # ------------------------------------------------------------------ drag locks
    def current_lock(self) -> Optional[str]:
        """The menu's lock, or the one the held modifiers ask for (Ctrl: axis, Ctrl+Shift:
        plane)."""
        mods = QGuiApplication.queryKeyboardModifiers()
        ctrl = bool(mods & Qt.KeyboardModifier.ControlModifier)
        shift = bool(mods & Qt.KeyboardModifier.ShiftModifier)
        if ctrl and shift:
            return "plane"
        if ctrl:
            return "axis"
        return self.lock

    def on_drag_start(self, obj_id, handle) -> None:
        try:
            self.start = tuple(self.window.viewport.grip_position(handle))
        except (KeyError, AttributeError):
            self.start = None

    def constrain(self, obj_id, handle, position) -> tuple:
        """``position`` held to the current lock; the grip widget is moved there too."""
        mode = self.current_lock()
        if mode is None or self.start is None:
            return tuple(position)
        cam = self.window.viewport.plotter.camera
        held = drag.lock_position(self.start, position, mode, cam.GetViewPlaneNormal())
        grips = dict(getattr(self.window.viewport, "_grips", []))
        widget = grips.get(handle)
        if widget is not None and tuple(widget.GetCenter()) != held:
            widget.SetCenter(*held)
        return held

    # ------------------------------------------------------------------ grip labels
    def update_grip_labels(self) -> None:
        """Label each grip of the selected object (Grip Labels on), refilled in place: a drag
        step only moves the labels' anchors (it removed and created their text actors on
        every step, and a new text actor is a font rasterisation and a texture in the render),
        and only the labels of grips gone are removed."""
        vp = self.window.viewport
        view = vp.view
        names = vp.grip_names() if self.grip_labels else []
        keep = {f"{GRIP_LABEL_PREFIX}{name}" for name in names}
        for key in [k for k in view.label_actors() if k.startswith(GRIP_LABEL_PREFIX)]:
            if key not in keep:
                view.remove_label(key)
        for name in names:
            pos = vp.grip_position(name)
            view.set_label(f"{GRIP_LABEL_PREFIX}{name}", pos, drag.grip_label(name),
                           color="#5a3c00")

    # ------------------------------------------------------------------ presentation
    def set_presentation(self, on: bool) -> None:
        """Large fonts for the panels, the explain text and the viewport's labels."""
        w = self.window
        self.presenting = on
        if on:
            self._style_before = w.styleSheet()
            w.setStyleSheet(self._style_before + f"\nQDockWidget, QDockWidget QWidget, "
                            f"QMenuBar, QToolBar, QStatusBar {{ font-size: "
                            f"{PRESENTATION_POINTS}pt; }}")
        else:
            w.setStyleSheet(self._style_before)
        px = PRESENTATION_LABEL_PX if on else NORMAL_LABEL_PX
        view = w.viewport.view
        view.label_font_size = px
        for actor in getattr(view, "_labels", {}).values():
            actor.GetTextProperty().SetFontSize(px)
        w.viewport.render()
        w.statusBar().showMessage("Presentation mode " + ("on (F11 leaves it)" if on else "off"),
                                  3000)


def install(window) -> Handling:
    """Add the camera, lock, grip label and presentation actions to ``window``."""
    h = Handling(window)
    window.handling = h
    window.camera_preset = h.camera_preset

    view_menu = window.view_menu
    cam_menu = view_menu.addMenu("&Camera")
    cam_menu.setToolTipsVisible(True)
    window.camera_actions = {}
    for name, text in (("top", "&Top"), ("front", "&Front"), ("side", "&Side"),
                       ("iso", "&Isometric")):
        a = window._action(text, lambda _c=False, n=name: h.camera_preset(n), CAMERA_KEYS[name],
                           f"Look at the scene from the {name} ({CAMERA_KEYS[name]})")
        cam_menu.addAction(a)
        window.camera_actions[name] = a
    cam_menu.addSeparator()
    window.act_ortho = window._action("&Orthographic", h.set_orthographic, "5",
                                      "Orthographic (parallel) projection: no perspective, "
                                      "sizes comparable across the view (5)", checkable=True)
    cam_menu.addAction(window.act_ortho)

    window.act_grip_labels = window._action(
        "&Grip Labels", lambda on: (setattr(h, "grip_labels", on), h.update_grip_labels(),
                                    window.viewport.render()),
        None, "Name each grip of the selected object (p0, p1, centre, radius...)",
        checkable=True)
    window.act_grip_labels.setChecked(True)
    view_menu.addAction(window.act_grip_labels)
    window.act_present = window._action("&Presentation Mode", h.set_presentation, "F11",
                                        "Large fonts in the panels and the view, for a class "
                                        "or a projector (F11)", checkable=True)
    view_menu.addAction(window.act_present)

    edit_menu = next((a.menu() for a in window.menuBar().actions() if a.text() == "&Edit"), None)
    lock_menu = (edit_menu or view_menu).addMenu("&Lock Drags")
    lock_menu.setToolTipsVisible(True)
    group = QActionGroup(window)
    window.lock_actions = {}
    for key, text, tip in (
            (None, "&Free", "Drags move in the view plane (hold Ctrl: axis, Ctrl+Shift: plane)"),
            ("axis", "To an &Axis", "A drag moves along the world axis it moves most along"),
            ("plane", "To a &Plane", "A drag stays in the world plane facing the camera: no "
                                     "drift in depth")):
        a = QAction(text, window)
        a.setCheckable(True)
        a.setToolTip(tip)
        a.setStatusTip(tip)
        a.triggered.connect(lambda _c=False, k=key: setattr(h, "lock", k))
        group.addAction(a)
        lock_menu.addAction(a)
        window.lock_actions[key] = a
    window.lock_actions[None].setChecked(True)

    vp = window.viewport
    on_drag, on_start = vp.on_drag, vp.on_drag_start

    def drag_step(obj_id, handle, position):
        return on_drag(obj_id, handle, h.constrain(obj_id, handle, position))

    def drag_start(obj_id, handle):
        h.on_drag_start(obj_id, handle)
        if on_start is not None:
            on_start(obj_id, handle)

    vp.on_drag, vp.on_drag_start = drag_step, drag_start
    vp.grips_changed = h.update_grip_labels
    return h
