"""One exception never takes the window down (issue 15, part 0).

PyQt6 aborts the whole process (``qFatal``) when a Python exception leaves a slot or a virtual
method and ``sys.excepthook`` is Python's own. :func:`install` replaces the hook: the
traceback goes to standard error and to ``crash.log`` in the state folder, every open window
autosaves its scene into its own recovery file, and the active window shows one dialog saying
what failed and that the window, the scene and the unsaved work are kept. :func:`report` does
the same for errors caught where they happen (the update path, File > Open).

Dialogs are not stacked: while one is open, or when the same error repeats (a failing update
on every step of a drag), only the status bar and the log get it; :func:`ok` (called after an
update that worked) lets the next failure show a dialog again.
"""

from __future__ import annotations

import sys
import time
import traceback
import weakref
from typing import Optional

from explorer.qt.documents import bounded, state_dir

#: the crash log is cut to its last half when it grows past this
MAX_LOG_BYTES = 1 << 20

_windows: "weakref.WeakSet" = weakref.WeakSet()
_showing = False
_installed: Optional[object] = None


def register(window) -> None:
    """``window`` autosaves and may show the dialog when an uncaught exception happens."""
    _windows.add(window)


def _log(text: str) -> Optional[str]:
    try:
        path = state_dir() / "crash.log"
        if path.exists() and path.stat().st_size > MAX_LOG_BYTES:
            data = path.read_bytes()[-MAX_LOG_BYTES // 2:]
            path.write_bytes(data)
        with open(path, "a", encoding="utf-8") as f:
            f.write(f"--- {time.strftime('%Y-%m-%d %H:%M:%S')}\n{text}\n")
        return str(path)
    except Exception:  # noqa: BLE001 - logging must never raise from the hook
        return None


def _summary(exc: BaseException) -> str:
    return bounded(f"{type(exc).__name__}: {exc}", 300)


def report(window, what: str, exc: BaseException, dialog: bool = True) -> None:
    """``what`` failed with ``exc`` in ``window``: log it, say it in the status bar, and (once
    per run of the same error, never stacked) in a dialog. Never raises."""
    global _showing
    text = "".join(traceback.format_exception(type(exc), exc, exc.__traceback__))
    try:
        sys.stderr.write(text)
    except Exception:  # noqa: BLE001 - no stderr (pythonw)
        pass
    log = _log(text)
    key = _summary(exc)
    try:
        window.statusBar().showMessage(bounded(f"{what}: {key}", 300), 15000)
    except Exception:  # noqa: BLE001 - a window half torn down
        return
    if not dialog or _showing or getattr(window, "_last_error", None) == key:
        return
    window._last_error = key
    _showing = True
    try:
        window.dialogs.error("Something went wrong", bounded(
            f"{what}:\n{key}\n\nThe window, the scene and your unsaved edits are kept."
            + (f"\nDetails are in {log}." if log else "")))
    except Exception:  # noqa: BLE001
        pass
    finally:
        _showing = False


def ok(window) -> None:
    """An update worked: the next failure may show a dialog again."""
    window._last_error = None


def _active_window():
    from PyQt6.QtWidgets import QApplication

    active = QApplication.activeWindow()
    live = [w for w in list(_windows) if not getattr(w, "_shut", False)]
    for w in live:
        if w is active:
            return w
    return live[0] if live else None


def excepthook(etype, value, tb) -> None:
    """The replacement for ``sys.excepthook`` (see the module's docstring)."""
    if issubclass(etype, KeyboardInterrupt):
        from PyQt6.QtWidgets import QApplication

        app = QApplication.instance()
        if app is not None:
            app.quit()
        return
    if value is None:
        value = etype()
    if value.__traceback__ is None and tb is not None:
        value = value.with_traceback(tb)
    for w in list(_windows):
        try:
            w.documents.document.autosaved_version = -1  # force a copy of the current state
            w.documents.autosave()
        except Exception:  # noqa: BLE001 - the hook must not raise
            pass
    window = _active_window()
    if window is None:
        sys.__excepthook__(etype, value, tb)
        return
    report(window, "An unexpected error happened", value)


def install() -> None:
    """Replace ``sys.excepthook`` (idempotent); :func:`uninstall` puts the previous one back."""
    global _installed
    if sys.excepthook is not excepthook:
        _installed = sys.excepthook
        sys.excepthook = excepthook


def uninstall() -> None:
    global _installed
    if sys.excepthook is excepthook:
        sys.excepthook = _installed or sys.__excepthook__
    _installed = None
