"""Files and documents without Qt: what the window's File menu, recent files and autosave do.

* :class:`Document`: the path a scene came from and whether it has unsaved edits.
* :func:`atomic_write`: the one way a file is written. A temporary file in the target's folder,
  flushed to disk, then renamed over the target, so a crash or a kill never leaves half a file.
  A save through a symlink writes the link's target and keeps the link; an existing file keeps
  its permission bits (and owner, where allowed); a read-only file is refused
  (:class:`ReadOnlyError`), never overwritten silently; a full disk raises :class:`SaveError`
  saying so, and the old file is left as it was.
* :func:`clean_stale_temps`: temporary files of saves that were killed (their process is gone)
  are removed before the next save into the same folder.
* :class:`RecentFiles`: the File > Open Recent list, kept in a small JSON file.
* :class:`RecoverySlot` and :func:`orphaned_recoveries`: each window autosaves into its OWN
  recovery file, locked for as long as the window lives. After a crash only files whose
  owner is gone are offered back, so a second window never offers (nor deletes) the live work
  of another.

Nothing here knows where the platform keeps such files; the Qt adapter
(:mod:`explorer.qt.documents`) finds the folders with ``QStandardPaths`` and passes them in.
"""

from __future__ import annotations

import errno
import json
import os
import re
import secrets
import stat
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from explorer.model import scenefile
from explorer.model.scene import Scene

try:  # POSIX: an advisory lock that the kernel drops when the process dies
    import fcntl
except ImportError:  # pragma: no cover - Windows: the owner's pid is checked instead
    fcntl = None

MAX_RECENT = 8
#: the window refuses scenes with more objects (each is an actor, and every refresh lists the
#: scene's pairs: 1,000 objects make 499,500); ``explorer eval`` has no such limit
MAX_WINDOW_OBJECTS = 1000
#: temporary files written by :func:`atomic_write`: ``.NAME.PID.RANDOM.explorer-tmp``
TEMP_SUFFIX = ".explorer-tmp"
_TEMP_RE = re.compile(r"^\.(?P<name>.+)\.(?P<pid>\d+)\.[0-9a-f]{8}" + re.escape(TEMP_SUFFIX) + "$")
#: ``tempfile.mkstemp`` names that versions before this module left behind
_OLD_TEMP_RE = re.compile(r"^\..+\.[a-z0-9_]{8}\.tmp$")
#: a temporary file older than this is stale whoever wrote it (no save takes an hour)
STALE_AFTER_S = 3600.0
RECOVERY_PREFIX = "recovery-"
_TOKEN_RE = re.compile(r"^\d+-[0-9a-f]{8}$")

# the calls that touch the disk, as module attributes so that tests can make them fail
# in-process (a full disk, a failing rename) without touching the real disk
_write = os.write
_fsync = os.fsync
_replace = os.replace


class SaveError(OSError):
    """A file could not be written; ``str(error)`` is one line saying why. The old file (if
    any) is unchanged."""

    def __init__(self, path, reason: str, errno_: Optional[int] = None):
        super().__init__(errno_ or 0, reason)
        self.path = Path(path)
        self.reason = reason

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


class ReadOnlyError(SaveError):
    """The target file is read-only: it is not overwritten unless the caller says so."""


def _reason(exc: OSError) -> str:
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", -1)):
        return "the disk is full (no space left on the device); the file was not written"
    if exc.errno in (errno.EACCES, errno.EPERM):
        return "permission denied (the folder is not writable)"
    if exc.errno == errno.EROFS:
        return "the disk is read-only"
    if exc.errno == errno.ENOENT:
        return "the folder does not exist"
    return exc.strerror or str(exc)


def resolve_target(path) -> Path:
    """The file a save of ``path`` must write: symlinks followed (also a dangling one), so the
    link stays a link and its target gets the new contents."""
    path = Path(os.path.abspath(path))
    seen = 0
    while path.is_symlink() and seen < 40:
        link = Path(os.readlink(path))
        path = link if link.is_absolute() else path.parent / link
        path = Path(os.path.normpath(path))
        seen += 1
    return path


def is_read_only(path) -> bool:
    """``True`` when ``path`` exists and nobody may write it: no write bit at all, or the
    current user may not write it. (The superuser may write anything; a file whose owner
    removed every write bit is still treated as read-only, which is what the owner meant.)"""
    try:
        st = os.stat(path)
    except OSError:
        return False
    return not (st.st_mode & 0o222) or not os.access(path, os.W_OK)


def pid_alive(pid: int) -> bool:
    """Whether a process with this id exists (on this machine)."""
    if pid <= 0:
        return False
    if pid == os.getpid():
        return True
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # someone else's process
        return True
    except OSError:  # pragma: no cover - platforms without signal 0: assume alive
        return True
    return True


def clean_stale_temps(folder, now: Optional[float] = None) -> list[Path]:
    """Remove the temporary files of saves that never finished (a kill, a crash, a power cut)
    from ``folder``: those of :func:`atomic_write` whose process is gone or that are older
    than :data:`STALE_AFTER_S`, and the ``.NAME.XXXXXXXX.tmp`` files of older versions once
    they are that old. Returns what was removed; errors are ignored (it is housekeeping)."""
    now = time.time() if now is None else now
    removed = []
    try:
        entries = list(os.scandir(folder))
    except OSError:
        return removed
    for entry in entries:
        name = entry.name
        if not name.startswith("."):
            continue
        m = _TEMP_RE.match(name)
        if m is None and not _OLD_TEMP_RE.match(name):
            continue
        try:
            if not entry.is_file(follow_symlinks=False):
                continue
            age = now - entry.stat(follow_symlinks=False).st_mtime
            pid = int(m.group("pid")) if m else None
            mine = pid == os.getpid()
            stale = age > STALE_AFTER_S or (pid is not None and not mine and not pid_alive(pid))
            if stale:
                os.unlink(entry.path)
                removed.append(Path(entry.path))
        except OSError:
            continue
    return removed


def _fsync_folder(folder: Path) -> None:
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def atomic_write(path, data, allow_read_only: bool = False) -> Path:
    """Write ``data`` (``str``: UTF-8, or ``bytes``) to ``path`` atomically and return the file
    written (the symlink's target when ``path`` is a link). Raises :class:`SaveError` (one line,
    the reason) and leaves the old file as it was on any failure."""
    payload = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    target = resolve_target(path)
    folder = target.parent
    try:
        st = os.stat(target)
    except FileNotFoundError:
        st = None
    except OSError as exc:
        raise SaveError(path, _reason(exc), exc.errno) from None
    if st is not None and not stat.S_ISREG(st.st_mode):
        raise SaveError(path, "is not a plain file (a folder, a device or a pipe); not written")
    if st is not None and not allow_read_only and is_read_only(target):
        raise ReadOnlyError(path, "the file is read-only; it was not overwritten (make it "
                            "writable or save under another name)", errno.EACCES)
    if not folder.is_dir():
        raise SaveError(path, "the folder does not exist", errno.ENOENT)
    clean_stale_temps(folder)
    tmp = folder / f".{target.name}.{os.getpid()}.{secrets.token_hex(4)}{TEMP_SUFFIX}"
    try:
        # 0o666 minus the umask, as any new file; an existing file's mode is copied below
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_BINARY", 0),
                     0o666)
    except OSError as exc:
        raise SaveError(path, _reason(exc), exc.errno) from None
    try:
        try:
            view = memoryview(payload)
            while view:
                n = _write(fd, view)
                view = view[n:]
            _fsync(fd)
            if st is not None:
                os.chmod(tmp, stat.S_IMODE(st.st_mode))
                if hasattr(os, "chown") and (st.st_uid, st.st_gid) != _owner(tmp):
                    try:
                        os.chown(tmp, st.st_uid, st.st_gid)
                    except OSError:  # not allowed (not root): the saver owns the new file
                        pass
        finally:
            os.close(fd)
        _replace(tmp, target)
    except BaseException as exc:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        if isinstance(exc, OSError) and not isinstance(exc, SaveError):
            raise SaveError(path, _reason(exc), exc.errno) from None
        raise
    _fsync_folder(folder)
    return target


def _owner(path) -> tuple[int, int]:
    st = os.stat(path)
    return st.st_uid, st.st_gid


def save_scene(scene: Scene, path, allow_read_only: bool = False) -> Path:
    """Write ``scene`` (scene-v1 JSON) to ``path`` with :func:`atomic_write`."""
    return atomic_write(path, scenefile.dumps(scene), allow_read_only=allow_read_only)


# ----------------------------------------------------------------------------- the document


class Document:
    """The file a window shows: its ``path`` (``None``: never saved) and whether it has edits
    that are not on disk (``dirty``). ``version`` counts edits; autosave writes a version once."""

    def __init__(self, path=None):
        self.path: Optional[Path] = Path(path) if path else None
        self.dirty = False
        self.version = 0
        self.autosaved_version = 0

    @property
    def name(self) -> str:
        return self.path.name if self.path else "Untitled"

    def reset(self, path=None, dirty: bool = False) -> None:
        """A new scene is shown (opened, recovered, or New)."""
        self.path = Path(path) if path else None
        self.dirty = dirty
        self.version += 1
        self.autosaved_version = self.version if not dirty else 0

    def touch(self) -> bool:
        """One edit; returns whether the document just became dirty."""
        was = self.dirty
        self.dirty = True
        self.version += 1
        return not was

    def saved(self, path) -> None:
        self.path = Path(path)
        self.dirty = False
        self.autosaved_version = self.version

    @property
    def needs_autosave(self) -> bool:
        return self.dirty and self.autosaved_version != self.version


# ----------------------------------------------------------------------------- recent files


class RecentFiles:
    """The most recently opened or saved files, newest first, kept in ``file`` (JSON list)."""

    def __init__(self, file, limit: int = MAX_RECENT):
        self.file = Path(file)
        self.limit = limit
        self.last_error: Optional[str] = None

    def items(self) -> list[str]:
        try:
            with open(self.file, encoding="utf-8") as f:
                items = json.loads(f.read(1 << 20))
        except (OSError, ValueError, RecursionError):  # missing or broken: no recent files
            return []
        if not isinstance(items, list):
            return []
        out: list[str] = []
        for p in items:
            if isinstance(p, str) and p not in out and "\0" not in p:
                out.append(p)
        return out[:self.limit]

    def _store(self, items: list[str]) -> list[str]:
        items = items[:self.limit]
        try:
            self.file.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(self.file, json.dumps(items, indent=1), allow_read_only=True)
            self.last_error = None
        except (OSError, SaveError) as exc:  # the list is a convenience: never an error
            self.last_error = str(exc)
        return items

    def add(self, path) -> list[str]:
        p = str(Path(path).resolve())
        return self._store([p] + [x for x in self.items() if x != p])

    def remove(self, path) -> list[str]:
        p = str(Path(path).resolve())
        return self._store([x for x in self.items() if x != p and x != str(path)])


# ----------------------------------------------------------------------------- recovery


@dataclass(frozen=True)
class Recovery:
    """A recovery file left by a window that is gone."""

    path: Path
    #: the file the recovered scene came from (``None``: it was never saved)
    original: Optional[str]
    #: when it was written (seconds since the epoch)
    time: float
    token: str

    def load(self) -> Scene:
        return scenefile.load(self.path)

    def remove(self) -> None:
        folder = self.path.parent
        files = (_slot_files(folder, self.token) if self.token else
                 [self.path, folder / "recovery-meta.json"])
        for p in files:
            try:
                p.unlink()
            except OSError:
                pass


def _slot_files(folder: Path, token: str) -> list[Path]:
    base = f"{RECOVERY_PREFIX}{token}"
    return [folder / f"{base}.json", folder / f"{base}.meta.json", folder / f"{base}.lock"]


_live_tokens: set[str] = set()  # this process's slots (the lock-less fallback)


class RecoverySlot:
    """One window's recovery file ``recovery-TOKEN.json`` in ``folder`` (with a ``.meta.json``
    naming the original file and a ``.lock`` held while the window lives)."""

    def __init__(self, folder):
        self.folder = Path(folder)
        self.token = f"{os.getpid()}-{secrets.token_hex(4)}"
        base = f"{RECOVERY_PREFIX}{self.token}"
        self.path = self.folder / f"{base}.json"
        self.meta_path = self.folder / f"{base}.meta.json"
        self.lock_path = self.folder / f"{base}.lock"
        self._lock_fd: Optional[int] = None
        _live_tokens.add(self.token)
        self._lock()

    def _lock(self) -> None:
        if fcntl is None:
            return
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            fd = os.open(self.lock_path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError:
            return
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            os.close(fd)
            return
        self._lock_fd = fd

    def write(self, scene: Scene, original=None) -> Path:
        """Autosave ``scene``; raises :class:`SaveError` (for example on a full disk)."""
        self.folder.mkdir(parents=True, exist_ok=True)
        meta = {"path": str(original) if original else None, "time": time.time(),
                "pid": os.getpid(), "name": scene.name}
        atomic_write(self.meta_path, json.dumps(meta), allow_read_only=True)
        return save_scene(scene, self.path, allow_read_only=True)

    def exists(self) -> bool:
        return self.path.exists()

    def remove(self) -> None:
        """Drop the recovery copy (saved, or closed cleanly); the slot stays usable."""
        for p in (self.path, self.meta_path):
            try:
                p.unlink()
            except OSError:
                pass

    def release(self) -> None:
        """Give up the slot as a dying process does: the lock goes, the files stay (so another
        window may offer them). Tests simulate a crash with it."""
        _live_tokens.discard(self.token)
        if self._lock_fd is not None:
            os.close(self._lock_fd)
            self._lock_fd = None

    def close(self) -> None:
        """The window closes cleanly: remove the files and release the lock."""
        self.remove()
        _live_tokens.discard(self.token)
        if self._lock_fd is not None:
            try:
                self.lock_path.unlink()
            except OSError:
                pass
            os.close(self._lock_fd)
            self._lock_fd = None


def _owner_gone(folder: Path, token: str) -> bool:
    """Whether the window that wrote ``token``'s files is gone (so they may be offered)."""
    if token in _live_tokens:
        return False
    lock = folder / f"{RECOVERY_PREFIX}{token}.lock"
    if fcntl is not None and lock.exists():
        try:
            fd = os.open(lock, os.O_RDWR)
        except OSError:
            return False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            return False  # held: its window is alive
        finally:
            os.close(fd)  # closing drops the lock we may have taken
        return True
    pid = token.split("-", 1)[0]
    return not (pid.isdigit() and pid_alive(int(pid)))


def orphaned_recoveries(folder) -> list[Recovery]:
    """Recovery files of windows that are gone, newest first. Also cleans up: lock or meta
    files without a recovery file (a window that crashed before its first autosave), the
    recovery file of the versions before per-window files (``recovery.json``) is included,
    and stale temporary files are removed."""
    folder = Path(folder)
    if not folder.is_dir():
        return []
    clean_stale_temps(folder)
    found: list[Recovery] = []
    tokens = set()
    for p in folder.glob(f"{RECOVERY_PREFIX}*"):
        name = p.name[len(RECOVERY_PREFIX):]
        for suffix in (".meta.json", ".json", ".lock"):
            if name.endswith(suffix) and _TOKEN_RE.match(name[: -len(suffix)]):
                tokens.add(name[: -len(suffix)])
                break
    for token in sorted(tokens):
        scene_file, meta_file, _lock = _slot_files(folder, token)
        if not _owner_gone(folder, token):
            continue
        if not scene_file.exists():
            for p in _slot_files(folder, token):
                try:
                    p.unlink()
                except OSError:
                    pass
            continue
        original, when = None, scene_file.stat().st_mtime
        try:
            meta = json.loads(meta_file.read_text(encoding="utf-8"))
            if isinstance(meta.get("path"), str):
                original = meta["path"]
        except (OSError, ValueError, AttributeError, RecursionError):
            pass
        found.append(Recovery(scene_file, original, when, token))
    legacy = folder / "recovery.json"  # one shared file, before per-window recovery files
    if legacy.exists():
        original = None
        try:
            meta = json.loads((folder / "recovery-meta.json").read_text(encoding="utf-8"))
            original = meta.get("path") if isinstance(meta.get("path"), str) else None
        except (OSError, ValueError, AttributeError, RecursionError):
            pass
        found.append(Recovery(legacy, original, legacy.stat().st_mtime, ""))
    found.sort(key=lambda r: r.time, reverse=True)
    return found
