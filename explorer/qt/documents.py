"""The window's files, recent files and autosave: a thin Qt adapter over
:mod:`explorer.model.documents` (which holds the logic and is tested without a display).

This module adds what needs Qt: the platform's folder for state (``QStandardPaths``'
``GenericStateLocation``: ``~/.local/state/intersection-explorer`` on Linux, under
``~/Library/Preferences`` on macOS and ``%LOCALAPPDATA%`` on Windows; ``EXPLORER_STATE_DIR``
wins), the autosave timer, the Open Recent menu, and the dialogs (through ``window.dialogs``,
which tests replace).

:class:`DocumentController` needs from the window: ``scene``, ``dialogs``, ``statusBar()``,
``set_document(scene, path)`` (shows a scene; calls :meth:`DocumentController.shown`),
``recent_menu``, ``_store_camera()`` and ``_update_title()``.
"""

from __future__ import annotations

import os
import shutil
import time
from pathlib import Path
from typing import Optional

from PyQt6.QtCore import QObject, QStandardPaths, QTimer

from explorer import SCENES_DIR, is_shipped
from explorer.model import documents
from explorer.qt import busy
from explorer.model.documents import (
    MAX_WINDOW_OBJECTS,
    Document,
    ReadOnlyError,
    RecentFiles,
    RecoverySlot,
    SaveError,
    orphaned_recoveries,
)
from explorer.model.scenefile import MAX_MESSAGE, SceneError, load

ORGANIZATION = "intersection-explorer"
APPLICATION = "intersection-explorer"
AUTOSAVE_MS = 15000
#: the longest text put in a dialog (a 20 MB id in a file must not freeze it)
MAX_DIALOG_TEXT = 1200


def _location(kind) -> Optional[Path]:
    loc = QStandardPaths.writableLocation(kind)
    return Path(loc) if loc else None


def legacy_state_dir() -> Optional[Path]:
    """Where versions before this one kept recent files and the recovery file (the app data
    folder of ``run``'s names; they are read from there once)."""
    if os.environ.get("EXPLORER_STATE_DIR"):
        return None
    base = _location(QStandardPaths.StandardLocation.GenericDataLocation)
    return base / ORGANIZATION / APPLICATION if base else None


def state_dir() -> Path:
    """The platform's folder for the app's state, recent files and the autosave recovery
    files: ``intersection-explorer`` in ``QStandardPaths.GenericStateLocation`` (Qt 6.7+;
    ``$XDG_STATE_HOME``, by default ``~/.local/state``, on Linux), else in
    ``GenericDataLocation``. The same folder whatever the ``QApplication`` is called (a script
    or a notebook may have made it). ``EXPLORER_STATE_DIR`` wins."""
    env = os.environ.get("EXPLORER_STATE_DIR")
    if env:
        path = Path(env)
    else:
        kind = getattr(QStandardPaths.StandardLocation, "GenericStateLocation", None) \
            or QStandardPaths.StandardLocation.GenericDataLocation
        base = _location(kind) or Path.home() / ".local" / "state"
        path = base / APPLICATION
    path.mkdir(parents=True, exist_ok=True)
    return path


def recent_files_path() -> Path:
    path = state_dir() / "recent.json"
    legacy = legacy_state_dir()
    if not path.exists() and legacy is not None and (legacy / "recent.json").is_file():
        try:
            shutil.copyfile(legacy / "recent.json", path)
        except OSError:
            pass
    return path


def bounded(text: str, limit: int = MAX_DIALOG_TEXT) -> str:
    text = str(text)
    return text if len(text) <= limit else text[:limit - 30] + f"... ({len(text)} characters)"


class DocumentController(QObject):
    """Open, save, recent files and autosave for one window."""

    def __init__(self, window, autosave_ms: int = AUTOSAVE_MS):
        super().__init__(window)
        self.window = window
        self.document = Document()
        self.recent = RecentFiles(recent_files_path())
        self.slot = RecoverySlot(state_dir())
        #: the last autosave failure shown (one dialog per run of failures, not one per tick)
        self.autosave_error: Optional[str] = None
        self.timer = QTimer(self)
        self.timer.timeout.connect(self.autosave)
        if autosave_ms:
            self.timer.start(autosave_ms)

    # ---------------------------------------------------------------- state
    @property
    def path(self) -> Optional[Path]:
        return self.document.path

    def _status(self, text: str, ms: int = 5000) -> None:
        self.window.statusBar().showMessage(bounded(text, 300), ms)

    def shown(self, path=None, dirty: bool = False) -> None:
        """The window now shows a scene from ``path`` (``None``: new or never saved)."""
        self.document.reset(path, dirty)
        if path is not None and not dirty:
            self.add_recent(path)

    def touch(self) -> bool:
        return self.document.touch()

    # ---------------------------------------------------------------- open
    def maybe_save(self) -> bool:
        """Ask before losing unsaved changes; ``False`` means: the user cancelled."""
        if not self.document.dirty:
            return True
        answer = self.window.dialogs.ask_unsaved(self.window.scene.name)
        if answer == "save":
            return self.save()
        return answer == "discard"

    def new_scene(self) -> bool:
        from explorer.model.scene import Scene

        if not self.maybe_save():
            return False
        self.window.set_document(Scene("Untitled"), None)
        self.slot.remove()
        return True

    def open_dialog(self) -> bool:
        folder = str(self.path.parent if self.path else SCENES_DIR)
        path = self.window.dialogs.open_path(folder)
        return self.open_file(path) if path else False

    def open_file(self, path, ask: bool = True) -> bool:
        """Open ``path``. A file that is refused, or that fails anywhere while it is shown,
        brings a dialog with the message, and the scene on screen (with its unsaved edits and
        its file name) is kept."""
        if ask and not self.maybe_save():
            return False
        w = self.window
        try:
            scene = load(path)
        except SceneError as exc:
            w.dialogs.error("Cannot open scene", bounded(f"{path}:\n{exc}"))
            self._status(f"Not opened: {exc}", 10000)
            if "no such file" in str(exc):
                self.recent.remove(path)
                self.fill_recent_menu()
            return False
        except Exception as exc:  # noqa: BLE001 - a bug must not take the window down
            w.dialogs.error("Cannot open scene", bounded(
                f"{path}:\nunexpected error while reading it ({type(exc).__name__}: {exc})"))
            return False
        if len(scene) > MAX_WINDOW_OBJECTS:
            w.dialogs.error("Cannot open scene", bounded(
                f"{path}:\nthe scene has {len(scene)} objects; the window shows at most "
                f"{MAX_WINDOW_OBJECTS} (`explorer eval` evaluates larger scenes)"))
            return False
        before = w.scene.copy()
        state = (self.document.path, self.document.dirty)
        try:
            if len(scene) >= busy.LARGE_SCENE:  # drawn in steps behind a progress dialog
                busy.show_large(w, scene, path)
            else:
                w.set_document(scene, path)
        except busy.Cancelled:  # the user cancelled the drawing: the old scene comes back
            self._restore(before, state)
            self._status(f"Opening {path} cancelled: the scene you had is kept", 10000)
            return False
        except Exception as exc:  # noqa: BLE001 - keep the scene that was on screen
            from explorer.qt.errors import report

            report(w, "Cannot show the scene", exc, dialog=False)
            try:
                w.set_document(before, state[0])
                self.document.dirty = state[1]
                w._update_title()
            except Exception:  # noqa: BLE001 - the report above already says what failed
                pass
            w.dialogs.error("Cannot open scene", bounded(
                f"{path}:\nthe scene could not be shown ({type(exc).__name__}: {exc}); "
                "the scene you had is kept"))
            return False
        self.slot.remove()
        documents.clean_stale_temps(Path(path).resolve().parent)  # killed saves' leftovers
        note = w.viewport.view.range_note()  # objects beyond the drawing range, if any
        self._status(f"Opened {path}" + (f": {note}" if note else ""), 20000 if note else 5000)
        return True

    def _restore(self, before, state) -> None:
        """Show ``before`` again with its file name and dirty flag (a cancelled open)."""
        w = self.window
        w.set_document(before, state[0])
        self.document.dirty = state[1]
        w._update_title()

    # ---------------------------------------------------------------- save
    def save(self) -> bool:
        if self.path is None or is_shipped(self.path):  # shipped examples are read-only
            return self.save_as()
        return self.save_to(self.path)

    def save_as(self) -> bool:
        if self.path is None or is_shipped(self.path):
            suggestion = str(Path.cwd() / (self.path.name if self.path else "scene.json"))
        else:
            suggestion = str(self.path)
        path = self.window.dialogs.save_path(suggestion)
        if path and is_shipped(path):
            self.window.dialogs.error("Cannot save scene", f"{path}:\nthe shipped scenes and "
                                      "lessons are read-only: save your copy outside the "
                                      "scenes folder")
            return False
        return self.save_to(Path(path)) if path else False

    def save_to(self, path: Path) -> bool:
        """Save atomically (:func:`~explorer.model.documents.atomic_write`): the mode and the
        symlink are kept, a read-only file is refused with a dialog, a failure keeps the old
        file and says why."""
        self.window._store_camera()
        try:
            documents.save_scene(self.window.scene, path)
        except ReadOnlyError as exc:
            self.window.dialogs.error("File is read-only", bounded(
                f"{path}:\n{exc.reason}.\nUse File > Save As to save elsewhere."))
            return False
        except Exception as exc:  # noqa: BLE001 - disk full, permissions...: the old file stays
            self.window.dialogs.error("Cannot save scene", bounded(f"{path}:\n{exc}"))
            return False
        self.document.saved(path)
        self.add_recent(path)
        self.slot.remove()
        self.window._update_title()
        self._status(f"Saved {path}")
        return True

    # ---------------------------------------------------------------- recent files
    def recent_files(self) -> list[str]:
        return self.recent.items()

    def add_recent(self, path) -> None:
        self.recent.add(path)
        self.fill_recent_menu()

    def fill_recent_menu(self) -> None:
        menu = getattr(self.window, "recent_menu", None)
        if menu is None:
            return
        menu.clear()
        items = self.recent_files()
        for p in items:
            a = menu.addAction(Path(p).name)
            a.setToolTip(p)
            a.triggered.connect(lambda _c=False, p=p: self.open_file(p))
        menu.setEnabled(bool(items))

    # ---------------------------------------------------------------- autosave
    def autosave(self) -> bool:
        """Write the scene to this window's recovery file when it changed since the last
        autosave. A failure (a full disk) is said in the status bar every time and in a dialog
        once, until an autosave succeeds again."""
        if not self.document.needs_autosave:
            return False
        try:
            self.slot.write(self.window.scene, self.document.path)
        except Exception as exc:  # noqa: BLE001 - an autosave failure never stops the user
            reason = exc.reason if isinstance(exc, SaveError) else f"{type(exc).__name__}: {exc}"
            text = (f"Autosave failed: {reason}. Your unsaved work is NOT protected against a "
                    "crash: save it (File > Save As) somewhere with space.")
            self._status(text, 0)
            if self.autosave_error is None:
                self.window.dialogs.error("Autosave failed", bounded(
                    f"{self.slot.path}:\n{reason}\n\nYour unsaved work is not protected "
                    "against a crash until an autosave succeeds; save it somewhere else."))
            self.autosave_error = reason
            return False
        if self.autosave_error is not None:
            self._status("Autosave works again", 5000)
        self.autosave_error = None
        self.document.autosaved_version = self.document.version
        return True

    def remove_recovery(self) -> None:
        self.slot.remove()

    def offer_recovery(self) -> bool:
        """After a crash: offer back the recovery files of windows that are gone (never those
        of a window still open), newest first; ``True`` if one was opened. Answering No
        deletes that copy."""
        folders = [state_dir()]
        legacy = legacy_state_dir()
        if legacy is not None and legacy != folders[0]:
            folders.append(legacy)
        found = [r for f in folders for r in orphaned_recoveries(f)]
        for rec in sorted(found, key=lambda r: r.time, reverse=True):
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(rec.time))
            if rec.original:
                when += f" (from {bounded(rec.original, 200)})"
            if not self.window.dialogs.ask_recover(when):
                rec.remove()
                continue
            try:
                scene = rec.load()
            except SceneError as exc:
                self.window.dialogs.error("Cannot recover", bounded(str(exc), MAX_MESSAGE))
                rec.remove()
                continue
            self.window.set_document(scene, rec.original)
            self.document.dirty = True
            self.document.version += 1
            rec.remove()
            self.autosave()  # the recovered work is protected by this window's own file now
            self.window._update_title()
            self._status("Recovered the autosaved scene: save it to keep it", 10000)
            return True
        return False

    def close(self) -> None:
        """The window closed cleanly: its recovery file goes."""
        self.timer.stop()
        self.slot.close()
