"""The 3-D viewport: a pyvistaqt ``QtInteractor`` showing a :class:`~explorer.render.SceneView`,
plus the drag grips of the selected object and click-to-select.

Hooks other panels rely on (keep them stable): :meth:`Viewport.add_overlay`,
:meth:`Viewport.remove_overlay` (prefix match), :meth:`Viewport.set_time`,
:meth:`Viewport.render` and :attr:`Viewport.plotter` (the ``QtInteractor``).
"""

from __future__ import annotations

from typing import Callable, Optional

from PyQt6.QtCore import pyqtSignal
from PyQt6.QtWidgets import QVBoxLayout, QWidget
from pyvistaqt import QtInteractor
from vtkmodules.vtkCommonCore import vtkCommand
from vtkmodules.vtkInteractionWidgets import vtkSphereWidget
from vtkmodules.vtkRenderingCore import vtkPropPicker

from . import drag
from .render import SceneView, frame_bounds
from .scene import Scene

#: grip colours by role
GRIP_COLORS = {"center": (0.15, 0.15, 0.15), "radius": (0.85, 0.1, 0.45),
               "direction": (0.9, 0.45, 0.0), "normal": (0.9, 0.45, 0.0)}
GRIP_DEFAULT = (1.0, 0.85, 0.1)


class Viewport(QWidget):
    """The centre of the window: the PyVista view of the scene and its grips.

    Signals: ``picked(str)`` (an object id clicked in the view, ``""`` for empty space).
    Callbacks: :attr:`on_drag` ``(obj_id, handle, position)`` while a grip moves,
    :attr:`on_drag_start` / :attr:`on_drag_end` ``(obj_id, handle)``.
    """

    picked = pyqtSignal(str)

    def __init__(self, parent=None):
        super().__init__(parent)
        layout = QVBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        self.plotter = QtInteractor(self, auto_update=False)
        layout.addWidget(self.plotter.interactor)
        self.setMinimumSize(420, 320)  # the docks never squeeze the view away
        self.plotter.add_axes()
        self.view = SceneView(self.plotter)
        self.on_drag: Optional[Callable] = None
        self.on_drag_start: Optional[Callable] = None
        self.on_drag_end: Optional[Callable] = None
        self._grips: list[tuple[str, vtkSphereWidget]] = []
        self._grip_at: dict = {}  # where each grip was last put (SetCenter only on a change)
        self._grip_obj: Optional[str] = None
        self._dragging: Optional[str] = None
        self._press = None
        iren = self.plotter.iren
        iren.add_observer("LeftButtonPressEvent", self._on_press)
        iren.add_observer("LeftButtonReleaseEvent", self._on_release)
        self._picker = vtkPropPicker()
        self.setToolTip("3-D view: left-drag rotates, middle-drag (or Shift+left) pans, "
                        "wheel zooms; click an object to select it, drag its grips to edit it")

    # ------------------------------------------------------------------ hooks for panels
    def add_overlay(self, name: str, mesh, **add_mesh_kwargs):
        """Add or replace (by name) an overlay mesh; returns its actor."""
        return self.view.add_overlay(name, mesh, **add_mesh_kwargs)

    def remove_overlay(self, name: str) -> None:
        """Remove every overlay whose name starts with ``name``."""
        self.view.remove_overlay(name)

    def set_time(self, t: float) -> None:
        """Draw moving objects at ``t * motion`` (0: as in the file)."""
        self.view.set_time(t)
        if self._grip_obj and self.view.scene is not None and self._grip_obj in self.view.scene:
            self.sync_grips()
        self.render()

    def render(self) -> None:
        self.plotter.render()

    # ------------------------------------------------------------------ scene
    def set_scene(self, scene: Scene) -> None:
        self.clear_grips()
        self.view.set_scene(scene)

    def close_viewport(self) -> None:
        self.clear_grips()
        self.view.close()
        self.plotter.close()

    # ------------------------------------------------------------------ grips
    def grip_radius(self) -> float:
        return 0.018 * self.view.ext.size

    def show_grips(self, obj_id: Optional[str]) -> None:
        """Put the grips of ``obj_id`` (``None``: no grips) in the view."""
        scene = self.view.scene
        if obj_id is None or scene is None or obj_id not in scene or scene[obj_id].hidden:
            self.clear_grips()
            return
        obj = scene[obj_id]
        items = drag.handles(self.view.prim_of(obj), self.view.ext.size, self.view.ext.center)
        if self._grip_obj == obj_id and [n for n, _ in self._grips] == [n for n, _ in items]:
            self.sync_grips()
            return
        self.clear_grips()
        self._grip_obj = obj_id
        for name, pos in items:
            w = vtkSphereWidget()
            w.SetInteractor(self.plotter.iren.interactor)
            w.SetCurrentRenderer(self.plotter.renderer)
            w.SetRepresentationToSurface()
            w.SetRadius(self.grip_radius())
            w.SetCenter(*pos)
            self._grip_at[name] = pos
            w.SetThetaResolution(16)
            w.SetPhiResolution(12)
            w.ScaleOff()  # right-drag would resize the grip itself: not wanted
            role = "direction" if name in ("direction", "normal") else name
            w.GetSphereProperty().SetColor(*GRIP_COLORS.get(role, GRIP_DEFAULT))
            w.GetSelectedSphereProperty().SetColor(1.0, 0.3, 0.3)
            w.AddObserver(vtkCommand.StartInteractionEvent,
                          lambda *_a, n=name: self._grip_start(n))
            w.AddObserver(vtkCommand.InteractionEvent,
                          lambda wid, _e, n=name: self._grip_moved(n, wid.GetCenter()))
            w.AddObserver(vtkCommand.EndInteractionEvent, lambda *_a, n=name: self._grip_end(n))
            w.On()
            self._grips.append((name, w))

    def sync_grips(self) -> None:
        """Move the grips to the selected object's current shape (the dragged one stays)."""
        scene = self.view.scene
        if self._grip_obj is None or scene is None or self._grip_obj not in scene:
            return
        items = dict(drag.handles(self.view.prim_of(scene[self._grip_obj]), self.view.ext.size,
                                  self.view.ext.center))
        for name, w in self._grips:
            if name != self._dragging and name in items and self._grip_at.get(name) != items[name]:
                w.SetCenter(*items[name])
                self._grip_at[name] = items[name]

    def clear_grips(self) -> None:
        for _name, w in self._grips:
            w.Off()
            w.RemoveAllObservers()
            w.SetInteractor(None)
        self._grips = []
        self._grip_at = {}
        self._grip_obj = None
        self._dragging = None

    def grip_names(self) -> list[str]:
        return [n for n, _ in self._grips]

    def grip_position(self, name: str) -> tuple:
        return dict(self._grips)[name].GetCenter()

    def _grip_start(self, name: str) -> None:
        self._dragging = name
        if self.on_drag_start:
            self.on_drag_start(self._grip_obj, name)

    def _grip_moved(self, name: str, center) -> None:
        self._grip_at[name] = tuple(center)
        if self.on_drag and self._grip_obj is not None:
            self.on_drag(self._grip_obj, name, tuple(center))

    def _grip_end(self, name: str) -> None:
        self._dragging = None
        obj = self._grip_obj
        if self.on_drag_end:
            self.on_drag_end(obj, name)
        self.sync_grips()
        self.render()

    # ------------------------------------------------------------------ picking
    def _event_position(self):
        return self.plotter.iren.interactor.GetEventPosition()

    def _on_press(self, *_args) -> None:
        self._press = self._event_position()

    def _on_release(self, *_args) -> None:
        pos = self._event_position()
        if self._press is None or self._dragging is not None:
            return
        moved = abs(pos[0] - self._press[0]) + abs(pos[1] - self._press[1])
        self._press = None
        if moved > 3:  # a rotation, not a click
            return
        self.picked.emit(self.pick_at(*pos) or "")

    def pick_at(self, x: int, y: int) -> Optional[str]:
        """The id of the object drawn at display pixel ``(x, y)``, or ``None``."""
        if self._picker.PickProp(x, y, self.plotter.renderer):
            actor = self._picker.GetViewProp()
            for obj_id, a in self.view.actors.items():
                if a is actor:
                    return obj_id
        return None

    # ------------------------------------------------------------------ camera
    def frame(self, obj_id: Optional[str] = None) -> None:
        """Frame ``obj_id`` (or every bounded object, when ``None``) in the view."""
        self.plotter.reset_camera(bounds=frame_bounds(self.view, obj_id))
        self.render()

    def screenshot(self, path=None):
        """Save (or return, with ``path=None``) the current view as an image array."""
        self.render()
        if path is None:
            return self.plotter.screenshot(return_img=True)
        return self.plotter.screenshot(str(path))
