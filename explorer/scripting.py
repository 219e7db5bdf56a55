"""``from explorer import show; show(a, b, ...)``: the explorer on primitives built in a script
(Polyscope's one-line idea), and the same call in a Jupyter notebook.

In a plain script ``show`` opens the window on a scene made of the arguments and runs it until
it is closed. In a notebook (an IPython kernel) it returns a :class:`NotebookView` instead, which
Jupyter displays as an interactive 3D view of the scene with the answers drawn (the vtk.js
viewer of trame-vtk with the scene inlined: rotate and zoom in the page, no server, no Qt; it
also works in a saved notebook) above the results as a table.

Nothing here imports Qt until the window is really opened, so ``import explorer`` stays light.
"""

from __future__ import annotations

import html
import string
from typing import Optional

#: ids given to positional arguments, in order (then A1, B1, ...)
_LETTERS = string.ascii_uppercase


def _auto_ids():
    n = 0
    while True:
        for c in _LETTERS:
            yield c if n == 0 else f"{c}{n}"
        n += 1


def scene_of(*items, name: str = "Script", queries=None, **named):
    """A :class:`~explorer.scene.Scene` of ``items`` (primitives, ``SceneObject``\\ s, or a whole
    ``Scene``) and ``named`` primitives (the keyword is the id). Positional primitives get the
    ids ``A``, ``B``, ``C``, ... ``queries``: ``[(id, id), ...]`` (default: every pair)."""
    from algorithms.primitives import Primitive
    from explorer.model.scene import Scene, SceneObject

    if len(items) == 1 and isinstance(items[0], Scene) and not named:
        return items[0]
    scene = Scene(name)
    ids = _auto_ids()
    taken = set(named)
    for i, item in enumerate(items):
        if isinstance(item, SceneObject):
            scene.add(item)
        elif isinstance(item, Primitive):
            obj_id = next(ids)
            while obj_id in taken:
                obj_id = next(ids)
            taken.add(obj_id)
            scene.add(item, id=obj_id)
        else:
            raise TypeError(f"show: argument {i + 1} is a {type(item).__name__}, not a "
                            f"primitive (Segment, Sphere, AABB, ... from algorithms)")
    for obj_id, item in named.items():
        if isinstance(item, SceneObject):
            from dataclasses import replace

            scene.add(replace(item, id=obj_id))
        elif isinstance(item, Primitive):
            scene.add(item, id=obj_id)
        else:
            raise TypeError(f"show: {obj_id}= is a {type(item).__name__}, not a primitive")
    if queries is not None:
        scene.set_queries([tuple(q) for q in queries])
    return scene


def in_notebook() -> bool:
    """True inside a Jupyter kernel (IPython's ZMQ shell)."""
    import sys

    ipython = sys.modules.get("IPython")
    if ipython is None:
        return False
    try:
        shell = ipython.get_ipython()
    except Exception:  # noqa: BLE001
        return False
    return shell is not None and type(shell).__name__ == "ZMQInteractiveShell"


class NotebookView:
    """What ``show`` returns in a notebook: the scene, its answers and their rich display.

    ``answers`` are the typed answers (:class:`~algorithms.answer.PairAnswer`), ``rows`` the
    table's rows;
    Jupyter shows :meth:`_repr_html_`: the interactive view (an ``<iframe>`` holding the
    self-contained vtk.js page of ``explorer export X.html``) and the table."""

    def __init__(self, scene, size=(800, 520)):
        from explorer.present.table import rows

        self.scene = scene
        self.size = tuple(size)
        self.answers = scene.answers()
        self.rows = rows(self.answers)

    def page(self) -> str:
        """The interactive page (the HTML export) as a string."""
        import tempfile
        from pathlib import Path

        from explorer.render.export import export

        with tempfile.TemporaryDirectory() as tmp:
            out = export(self.scene, Path(tmp) / "view.html", size=self.size,
                         html_panel=False)  # the table is shown under the view
            return out.read_text(encoding="utf-8")

    def png(self) -> bytes:
        """A still picture of the view (PNG bytes), as ``explorer render`` draws it."""
        import tempfile
        from pathlib import Path

        from explorer.render.export import export

        with tempfile.TemporaryDirectory() as tmp:
            return export(self.scene, Path(tmp) / "view.png", size=self.size).read_bytes()

    def table_html(self) -> str:
        from explorer.render.export import results_table_html

        return results_table_html(self.answers)

    def _repr_html_(self) -> str:
        w, h = self.size
        page = html.escape(self.page(), quote=True)
        frame = (f"<iframe class='explorer-view' srcdoc=\"{page}\" width='{w}' height='{h}' "
                 "style='border:1px solid #ccc'></iframe>")
        return (f"<div class='explorer-show'><b>{html.escape(self.scene.name)}</b><br>{frame}"
                f"{self.table_html()}</div>")

    def _repr_png_(self) -> bytes:
        return self.png()

    def __repr__(self) -> str:
        from explorer.present.table import markdown_table

        return f"<explorer view of {len(self.scene)} objects>\n" + markdown_table(self.answers)


def show(*items, name: str = "Script", queries=None, block: Optional[bool] = None,
         notebook: Optional[bool] = None, **named):
    """Open the explorer on primitives built in a script; see the module's text.

    ``show(a, b)`` names them ``A`` and ``B``; ``show(seg=a, ball=b)`` names them ``seg`` and
    ``ball``. In a notebook (or with ``notebook=True``) returns a :class:`NotebookView`; else
    opens the window and, unless ``block=False``, runs Qt's event loop until it is closed;
    returns the window. When a ``QApplication`` already exists (IPython's ``%gui qt``, or a
    program of your own that runs the loop) the default is not to block."""
    scene = scene_of(*items, name=name, queries=queries, **named)
    if notebook if notebook is not None else in_notebook():
        return NotebookView(scene)
    from PyQt6.QtWidgets import QApplication  # Qt from here on

    from explorer.qt.window import MainWindow

    app = QApplication.instance()
    ours = app is None
    if ours:
        import sys

        app = QApplication(sys.argv[:1])
        app.setApplicationName("intersection-explorer")
        app.setApplicationDisplayName("Intersection Explorer")
    window = MainWindow(scene)
    window.show()
    if block if block is not None else ours:
        app.exec()
    return window
