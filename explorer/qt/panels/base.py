"""What every algorithm panel shares: the selected pair, one evaluation per change, live updates.

A panel is a ``QWidget`` built by ``factory(scene, workspace, commands, viewport, evaluator)``
from the Qt-free model: the :class:`~explorer.model.scene.Scene`, the
:class:`~explorer.model.workspace.Workspace` (the chosen pair and its ``pair_changed`` signal),
the :class:`~explorer.model.commands.Commands` (undoable edits), the viewport it draws overlays
in, and the window's cached evaluator (optional). It never calls back into the window. It
follows the workspace's ``pair_changed`` and the scene's change events, and redraws from the
pair's typed :class:`~algorithms.answer.PairAnswer` (its fields and records). The result is
computed once per change of either object and shared by every panel of the same scene
(:class:`PairCache`), so opening four panels costs one evaluation, not four.
"""

from __future__ import annotations

import weakref
from typing import Optional

import numpy as np
from PyQt6.QtCore import QTimer
from PyQt6.QtWidgets import QDockWidget, QWidget

from algorithms.answer import PairAnswer
from explorer.model.scene import Scene, SceneObject
from explorer.model.workspace import Workspace, current_pair
from explorer.present.explain import fmt as _fmt
from explorer.render.view import Geom


class PairCache:
    """The last evaluated pair of a scene, keyed by the identity of both (frozen) objects.

    :meth:`Scene.update` replaces an object by a new one, so identity is the change test.
    """

    def __init__(self, scene: Scene):
        self._scene = scene
        self._key: tuple = ()
        self._result: Optional[PairAnswer] = None
        #: the window's own cached evaluator (``result(scene, a_id, b_id)``), when it has one:
        #: the panels then share the window's evaluation of the drag step instead of redoing it
        self.evaluator = None

    def result(self, a: SceneObject, b: SceneObject) -> PairAnswer:
        key = (a, b)
        if len(self._key) == 2 and self._key[0] is a and self._key[1] is b:
            return self._result
        try:
            if self.evaluator is not None:
                result = self.evaluator.result(self._scene, a.id, b.id)
            else:
                result = self._scene.answer(a.id, b.id)
        except Exception as exc:  # noqa: BLE001 - a broken query must not break the panels
            result = PairAnswer(a=a.id, b=b.id, pair=f"{a.kind}-{b.kind}",
                                errors=(f"{type(exc).__name__}: {exc}",))
        self._key, self._result = key, result
        return result


_CACHES: "weakref.WeakKeyDictionary[Scene, PairCache]" = weakref.WeakKeyDictionary()


def cache_for(scene: Scene) -> PairCache:
    cache = _CACHES.get(scene)
    if cache is None:
        cache = _CACHES[scene] = PairCache(scene)
    return cache


def current_pair_of(scene: Scene, workspace: Optional[Workspace]) -> tuple[str, str]:
    """The workspace's chosen pair (:func:`explorer.model.workspace.current_pair`) normalised
    to two strings (``""`` for none)."""
    if workspace is None:
        return "", ""
    a, b = current_pair(scene, workspace)
    return str(a or ""), str(b or "")


class PairPanel(QWidget):
    """Base class: keeps ``self.a``/``self.b`` (:class:`SceneObject` or ``None``) and
    ``self.result`` up to date and calls :meth:`show_pair` (or :meth:`show_nothing`).

    Subclasses implement ``show_pair(a, b, result)`` and ``show_nothing()``; the viewport
    overlays they draw are named with their :attr:`overlay_prefix` so :meth:`clear_overlays`
    removes them.
    """

    overlay_prefix = "panel"

    def __init__(self, scene: Scene, workspace: Workspace, commands=None, viewport=None,
                 evaluator=None, parent=None):
        super().__init__(parent)
        self.scene = scene
        self.workspace = workspace
        #: :class:`~explorer.model.commands.Commands`: the only way a panel edits the scene
        self.commands = commands
        self.viewport = viewport
        self.pair_ids: tuple[str, str] = ("", "")
        self.a: Optional[SceneObject] = None
        self.b: Optional[SceneObject] = None
        self.result: Optional[PairAnswer] = None
        self._overlays: set[str] = set()
        self._shown: Optional[tuple] = None  # the (a, b) objects last shown, ("", "") for none
        self._stale = False
        self._dock_hooked = False
        self._dirty: set[str] = set()
        self._cache = cache_for(scene)
        if callable(getattr(evaluator, "result", None)):
            self._cache.evaluator = evaluator
        # The model's Signals hold strong references: disconnect when the widget dies.
        callbacks = [(scene.object_changed, self._on_object_changed),
                     (scene.object_removed, self._on_object_removed),
                     (scene.reset, self._on_reset)]
        if workspace is not None:
            callbacks.append((workspace.pair_changed, self._on_pair_changed))
        for signal, cb in callbacks:
            signal.connect(cb)

        def _disconnect(*_args, _callbacks=callbacks):
            for signal, cb in _callbacks:
                signal.disconnect(cb)

        self.destroyed.connect(_disconnect)
        self._disconnect_scene = _disconnect

    # ------------------------------------------------------------------ pair tracking
    def start(self) -> "PairPanel":
        """Pick up the workspace's current pair (call once the subclass is built)."""
        self.set_pair(*current_pair_of(self.scene, self.workspace))
        return self

    def _on_pair_changed(self, a_id, b_id) -> None:
        self._guarded(lambda: self.set_pair(a_id or "", b_id or ""))

    def set_pair(self, a_id: str, b_id: str) -> None:
        self.pair_ids = (a_id or "", b_id or "")
        self.refresh(force=True)

    #: a hidden panel (a tabbed-away dock) does no work and draws nothing in the viewport; it
    #: catches up when shown again
    defer_when_hidden = True

    def refresh(self, force: bool = False) -> None:
        """Re-read both objects and the result, and redraw (the per-update path).

        A no-op when neither object changed since the last call (unless ``force``).
        """
        a_id, b_id = self.pair_ids
        if a_id and b_id and a_id != b_id and a_id in self.scene and b_id in self.scene:
            a, b = self.scene[a_id], self.scene[b_id]
            if not force and self._shown is not None and self._shown[0] is a \
                    and self._shown[1] is b:
                return
            if self.defer_when_hidden and not self.on_screen():
                self._shown = None
                self._stale = True
                return
            self.a, self.b = a, b
            self.result = self._cache.result(a, b)
            self._shown = (a, b)
            self._stale = False
            self.show_pair(a, b, self.result)
        else:
            if self._shown == ("", "") and not force:
                return
            self._shown = ("", "")
            self.a = self.b = None
            self.result = None
            self.clear_overlays()
            self.show_nothing()

    def on_screen(self) -> bool:
        """Shown and not covered: a dock in a tab group whose tab is not selected stays
        ``isVisible()`` but has an empty visible region."""
        self._hook_dock()
        return self.isVisible() and not self.visibleRegion().isEmpty()

    def _hook_dock(self) -> None:
        """Follow the enclosing dock's ``visibilityChanged`` (tab selected or not)."""
        if self._dock_hooked:
            return
        w = self.parentWidget()
        while w is not None and not isinstance(w, QDockWidget):
            w = w.parentWidget()
        if w is not None:
            w.visibilityChanged.connect(self._on_dock_visibility)
            self._dock_hooked = True

    def _on_dock_visibility(self, visible: bool) -> None:
        if visible:
            # the tab switch lays the widget out after this signal: catch up then
            QTimer.singleShot(0, lambda: self._guarded(self._catch_up))
        else:
            self._went_away()

    def _catch_up(self) -> None:
        if self._stale and self.on_screen():
            self.refresh(force=True)

    def _went_away(self) -> None:
        if self.defer_when_hidden:
            # its 3D drawings belong to the panel on screen: they go with it, and come back
            self._stale = True
            self._shown = None
            if self._overlays:
                self.clear_overlays()
                self.render_viewport()

    def showEvent(self, event):
        super().showEvent(event)
        self._hook_dock()
        if self._stale:
            self.refresh(force=True)

    def hideEvent(self, event):
        super().hideEvent(event)
        self._went_away()

    #: true while refreshing for a live edit (a drag step), false for a new pair: panels may
    #: throttle slow text (tables, rich text) during live edits only
    live = False

    def _on_object_changed(self, obj, fields) -> None:
        if obj.id in self.pair_ids:
            self.live = True
            try:
                self._guarded(self.refresh)
            finally:
                self.live = False

    def _on_object_removed(self, obj) -> None:
        if obj.id in self.pair_ids:
            self._guarded(self.refresh)

    def _on_reset(self) -> None:
        self._guarded(lambda: self.refresh(force=True))

    def _guarded(self, fn) -> None:
        try:
            fn()
        except RuntimeError as exc:  # the C++ widget is gone but Python still holds us
            if "deleted" in str(exc):
                self._disconnect_scene()
            else:
                raise

    # ------------------------------------------------------------------ overlays
    def add_overlay(self, name: str, mesh, **kwargs) -> None:
        full = f"{self.overlay_prefix}:{name}"
        self._overlays.add(full)
        if self.viewport is not None:
            self.viewport.add_overlay(full, mesh, **kwargs)

    def remove_overlay(self, name: str) -> None:
        full = f"{self.overlay_prefix}:{name}"
        if full in self._overlays:
            self._overlays.discard(full)
            if self.viewport is not None:
                self.viewport.remove_overlay(full)

    def clear_overlays(self) -> None:
        if self.viewport is not None:
            for full in sorted(self._overlays):
                try:
                    self.viewport.remove_overlay(full)
                except Exception:  # noqa: BLE001 - a viewport already closed (window exit)
                    pass
        self._overlays.clear()

    def render_viewport(self) -> None:
        if self.viewport is not None and hasattr(self.viewport, "render"):
            try:
                self.viewport.render()
            except Exception:  # noqa: BLE001 - a viewport already closed (window exit)
                pass

    def marker_radius(self) -> float:
        """A marker size proportional to the scene (2 % of its extent)."""
        from explorer.render.view import scene_extent

        return 0.02 * scene_extent(self.scene.objects).size

    def mark_dirty(self, *names: str) -> None:
        """Note child widgets (attribute names) whose contents this update changed."""
        self._dirty.update(names)

    def paint_now(self) -> None:
        """Schedule the repaint of the child widgets this update changed (:meth:`mark_dirty`);
        :func:`explorer.qt.panels.update_all` then paints every scheduled widget in one pass.
        Unchanged widgets are not repainted."""
        names, self._dirty = self._dirty, set()
        for name in names:
            widget = getattr(self, name, None)
            if widget is not None and widget.isVisible():
                widget.update()

    # ------------------------------------------------------------------ to override
    def show_pair(self, a: SceneObject, b: SceneObject, result: dict) -> None:
        raise NotImplementedError

    def show_nothing(self) -> None:
        pass


def point_mesh(p) -> Geom:
    """One vertex (drawn with ``render_points_as_spheres``), as a :class:`Geom` the viewport
    refills in place on the next step: far cheaper than a new ``pv.Sphere``."""
    return Geom(np.asarray([p], dtype=float), verts=True, topo="pts1")


def line_mesh(p, q) -> Geom:
    """The segment ``p q`` as a two-point polyline :class:`Geom`."""
    return Geom(np.asarray([p, q], dtype=float), lines=np.array([2, 0, 1]), topo="lines1")


def fmt(x, digits: int = 4) -> str:
    """A number for people (:func:`explorer.present.explain.fmt`), 4 significant digits."""
    return _fmt(x, digits)
