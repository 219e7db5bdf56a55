"""Undo and redo by scene snapshots. No Qt.

Before every edit the window calls :meth:`UndoStack.checkpoint`; consecutive edits with the same
``key`` (the steps of one drag, the keystrokes in one field) share one checkpoint, so a drag is
one undo step. Snapshots are :meth:`Scene.copy` (primitives are frozen, so a copy is cheap).

Examples
--------
>>> from explorer.model.scene import Scene
>>> from algorithms import Point
>>> scene = Scene(); stack = UndoStack(scene)
>>> stack.checkpoint("Add point"); _ = scene.add(Point((0, 0, 0)))
>>> stack.undo(); len(scene)
'Add point'
0
>>> stack.redo(); len(scene)
'Add point'
1
"""

from __future__ import annotations

from typing import Hashable, Optional

from explorer.model.scene import Scene, Signal


class UndoStack:
    def __init__(self, scene: Scene, limit: int = 200):
        self.scene = scene
        self.limit = limit
        self._undo: list[tuple[str, Scene]] = []
        self._redo: list[tuple[str, Scene]] = []
        self._last_key: Optional[Hashable] = None
        #: emitted after every change of the stacks
        self.changed = Signal()

    def checkpoint(self, label: str, key: Optional[Hashable] = None) -> None:
        """Remember the scene as it is now, before an edit called ``label``.

        With the same non-``None`` ``key`` as the previous checkpoint, nothing is added (the
        edit merges into the previous step)."""
        if key is not None and key == self._last_key and self._undo:
            return
        self._undo.append((label, self.scene.copy()))
        del self._undo[:-self.limit]
        self._redo.clear()
        self._last_key = key
        self.changed.emit()

    def end_merge(self) -> None:
        """The next checkpoint starts a new step even with the same key (a drag ended)."""
        self._last_key = None

    def can_undo(self) -> bool:
        return bool(self._undo)

    def can_redo(self) -> bool:
        return bool(self._redo)

    def undo_label(self) -> Optional[str]:
        return self._undo[-1][0] if self._undo else None

    def redo_label(self) -> Optional[str]:
        return self._redo[-1][0] if self._redo else None

    def undo(self) -> Optional[str]:
        """Go back one step; returns its label (``None``: nothing to undo)."""
        if not self._undo:
            return None
        label, snap = self._undo.pop()
        self._redo.append((label, self.scene.copy()))
        self._last_key = None
        self._restore(snap)
        self.changed.emit()
        return label

    def redo(self) -> Optional[str]:
        if not self._redo:
            return None
        label, snap = self._redo.pop()
        self._undo.append((label, self.scene.copy()))
        self._last_key = None
        self._restore(snap)
        self.changed.emit()
        return label

    def _restore(self, snap: Scene) -> None:
        """Make the scene equal to ``snap``: object by object (``object_changed``) when only
        objects' fields differ, as after a drag or an edit; a whole ``replace_all`` (``reset``)
        when objects were added, removed or reordered."""
        scene = self.scene
        same_shape = (scene.ids() == snap.ids() and scene.queries == snap.queries
                      and scene.name == snap.name)
        if not same_shape:
            scene.replace_all(snap)
            return
        for old in snap.objects:
            cur = scene[old.id]
            if cur == old:
                continue
            if cur.extra != old.extra:
                scene.replace_all(snap)
                return
            scene.update(old.id, primitive=old.primitive, label=old.label, color=old.color,
                         motion=old.motion, hidden=old.hidden, hollow=old.hollow)
        scene.view = snap.view

    def clear(self) -> None:
        self._undo.clear()
        self._redo.clear()
        self._last_key = None
        self.changed.emit()
