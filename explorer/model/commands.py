"""The edits a widget may ask for, without Qt: each is one undoable step on the scene.

Widgets are built from ``(scene, workspace, commands)`` and never call back into the window:
they read the scene and the :class:`~explorer.model.workspace.Workspace`, and change the
document only through :class:`Commands`. The window subscribes to :attr:`Commands.edited` (to
mark the document dirty and redraw) and :attr:`Commands.message` (its status line).

Examples
--------
>>> from algorithms import Sphere
>>> from explorer.model.scene import Scene
>>> from explorer.model.undo import UndoStack
>>> from explorer.model.workspace import Workspace
>>> scene = Scene(); _ = scene.add(Sphere((0, 0, 0), 1), id="ball")
>>> commands = Commands(scene, UndoStack(scene), Workspace(scene))
>>> log = []; _ = commands.edited.connect(log.append)
>>> commands.edit("ball", "Grow", primitive=Sphere((0, 0, 0), 2)).primitive.radius
2.0
>>> commands.edit("ball", "Grow", primitive=Sphere((0, 0, 0), 2)) is scene["ball"]  # no change
True
>>> log, commands.undo_stack.can_undo()
(['Grow'], True)
"""

from __future__ import annotations

from typing import Callable, Hashable, Optional

from explorer.model.scene import Scene, SceneObject, Signal
from explorer.model.undo import UndoStack
from explorer.model.workspace import Workspace


class Commands:
    """Undoable edits of one document (see the module text)."""

    def __init__(self, scene: Scene, undo_stack: UndoStack, workspace: Workspace):
        self.scene = scene
        self.undo_stack = undo_stack
        self.workspace = workspace
        #: (what) after every change of the document made through these commands
        self.edited = Signal()
        #: (text, milliseconds): something to tell the user in a status line
        self.message = Signal()
        #: the size of the scene as shown (a new motion is a quarter of it); set by the window
        self.view_size: Callable[[], float] = lambda: 4.0

    def edit(self, obj_id: str, what: str, key: Optional[Hashable] = None,
             **changes) -> Optional[SceneObject]:
        """Change fields of one object (``primitive``, ``label``, ``color``, ``motion``,
        ``hidden``) as one undoable step called ``what``; edits with the same non-``None``
        ``key`` merge into one step (typing in one field) until :meth:`end_merge`."""
        if obj_id not in self.scene:
            return None
        obj = self.scene[obj_id]
        if all(getattr(obj, k) == v for k, v in changes.items()):
            return obj
        self.undo_stack.checkpoint(what, key)
        new = self.scene.update(obj_id, **changes)
        self.edited.emit(what)
        return new

    def end_merge(self) -> None:
        """The next edit starts a new undo step (a field was left, a drag ended)."""
        self.undo_stack.end_merge()

    def add_motion(self, obj_id: str) -> Optional[SceneObject]:
        """Give ``obj_id`` a default motion: a quarter of the shown scene along x."""
        return self.edit(obj_id, "Add motion", motion=(round(self.view_size() / 4, 3), 0.0, 0.0))

    def say(self, text: str, ms: int = 3000) -> None:
        self.message.emit(text, ms)
