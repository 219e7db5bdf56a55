"""Start the explorer window: ``run(path)`` is what ``explorer`` and ``explorer open FILE`` call."""

from __future__ import annotations

import os
import sys
from typing import Optional

#: ``explorer bench startup`` sets it: print ``on-screen CPU`` on standard output when the
#: start-up window is painted, ``first-frame CPU`` when the view has rendered its first
#: frame and ``complete CPU`` when the algorithm panels (built after that frame) are in
#: (CPU: the process's CPU seconds so far), then quit
FIRST_FRAME_PROBE = "EXPLORER_FIRST_FRAME_PROBE"


def make_window(path: Optional[str] = None, with_panels: bool | str = True, scene=None):
    """A :class:`~explorer.qt.window.MainWindow` on ``path`` (needs a ``QApplication``);
    ``scene``: the scene of ``path`` when it is loaded already."""
    from explorer.model.scenefile import load
    from explorer.qt.window import MainWindow

    if scene is None and path:
        scene = load(path)
    return MainWindow(scene, path, with_panels=with_panels)


def _say(probe: bool, what: str) -> None:
    if probe:
        import time

        sys.stdout.write(f"{what} {time.process_time():.4f}\n")
        sys.stdout.flush()


def show_splash(app, path: Optional[str]):
    """A small window at once, before the 3-D libraries load (importing pyvista and VTK takes
    most of the start-up): the name and what is being opened. Qt only; closed when the main
    window shows."""
    from pathlib import Path

    from PyQt6.QtCore import Qt
    from PyQt6.QtWidgets import QLabel

    name = Path(path).name if path else "a new scene"
    splash = QLabel(f"<div style='font-size: 15pt; font-weight: 600'>Intersection Explorer</div>"
                    f"<div style='margin-top: 8px'>Opening {name}…</div>")
    splash.setWindowFlags(Qt.WindowType.SplashScreen | Qt.WindowType.FramelessWindowHint)
    splash.setAlignment(Qt.AlignmentFlag.AlignCenter)
    splash.setStyleSheet("QLabel { background: #f4f6f8; color: #1d2a36; padding: 28px; "
                         "border: 1px solid #9aa7b2; }")
    splash.setMinimumSize(380, 130)
    screen = app.primaryScreen()
    if screen is not None:  # where a window manager would put it (Xvfb has none)
        centre = screen.availableGeometry().center()
        splash.move(centre.x() - 190, centre.y() - 65)
    splash.show()
    splash.repaint()  # painted now, not when the event loop first runs
    app.processEvents()
    return splash


def run(path: str, methods: Optional[list] = None, scene=None) -> int:
    """Open the window on ``path`` and run the Qt event loop; returns the exit status.

    ``methods``: user methods files already loaded (``explorer open --methods``), shown in
    the Methods panel and reloaded when they change on disk; ``scene``: ``path`` loaded
    already. A start-up window shows at once (:func:`show_splash`) while the 3-D libraries
    load and the window is built."""
    from PyQt6.QtWidgets import QApplication

    probe = bool(os.environ.get(FIRST_FRAME_PROBE))
    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("intersection-explorer")
    app.setApplicationDisplayName("Intersection Explorer")
    app.setOrganizationName("intersection-explorer")
    splash = show_splash(app, path)
    _say(probe, "on-screen")
    from explorer.render import libs

    libs.import_pyvista()  # without matplotlib's pyplot, which the first frame does not need
    from explorer.qt import errors

    errors.install()  # an exception in a slot shows a dialog instead of aborting the process
    from explorer.qt.window import PANELS_AFTER_FIRST_FRAME

    # the view's first frame first; the algorithm panels at the next turn of the loop
    window = make_window(path, scene=scene, with_panels=PANELS_AFTER_FIRST_FRAME)
    if methods:
        window.methods_panel_watch(methods)
    if probe:
        _probe_first_frame(app, window)
    window.show()
    splash.close()
    if not probe:
        window.offer_recovery()
    return app.exec()


def _probe_first_frame(app, window) -> None:
    """On the render window's first finished frame: ``first-frame`` on stdout; once the
    panels are in as well, ``complete``, then quit."""
    from PyQt6.QtCore import QTimer

    ren_win = window.viewport.plotter.render_window
    seen = []

    def complete():
        _say(True, "complete")
        window.dirty = False
        QTimer.singleShot(0, app.quit)

    def done(*_args):
        if not seen:
            seen.append(True)
            _say(True, "first-frame")
            if window.panel_docks or window.panel_errors:
                complete()

    window.panels_loaded.connect(complete)
    ren_win.AddObserver("EndEvent", done)
