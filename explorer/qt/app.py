"""Start the explorer window: ``run(path)`` is what ``explorer`` and ``explorer open FILE`` call."""

from __future__ import annotations

import os
import sys
from typing import Optional

#: ``explorer bench startup`` sets it: print ``first-frame`` on standard output when the view
#: has rendered its first frame, then quit
FIRST_FRAME_PROBE = "EXPLORER_FIRST_FRAME_PROBE"


def make_window(path: Optional[str] = None, with_panels: bool = True):
    """A :class:`~explorer.qt.window.MainWindow` on ``path`` (needs a ``QApplication``)."""
    from explorer.model.scenefile import load
    from explorer.qt.window import MainWindow

    scene = load(path) if path else None
    return MainWindow(scene, path, with_panels=with_panels)


def run(path: str, methods: Optional[list] = None) -> int:
    """Open the window on ``path`` and run the Qt event loop; returns the exit status.

    ``methods``: user methods files already loaded (``explorer open --methods``), shown in
    the Methods panel and reloaded when they change on disk."""
    from PyQt6.QtWidgets import QApplication

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("intersection-explorer")
    app.setApplicationDisplayName("Intersection Explorer")
    app.setOrganizationName("intersection-explorer")
    from explorer.qt import errors

    errors.install()  # an exception in a slot shows a dialog instead of aborting the process
    window = make_window(path)
    if methods:
        window.methods_panel_watch(methods)
    window.show()
    if os.environ.get(FIRST_FRAME_PROBE):
        _probe_first_frame(app, window)
    else:
        window.offer_recovery()
    return app.exec()


def _probe_first_frame(app, window) -> None:
    """On the render window's first finished frame: ``first-frame`` on stdout, then quit."""
    from PyQt6.QtCore import QTimer

    ren_win = window.viewport.plotter.render_window
    seen = []

    def done(*_args):
        if not seen:
            seen.append(True)
            sys.stdout.write("first-frame\n")
            sys.stdout.flush()
            window.dirty = False
            QTimer.singleShot(0, app.quit)

    ren_win.AddObserver("EndEvent", done)
