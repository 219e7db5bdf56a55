"""explorer.model.documents without a display: atomic saves that keep modes and symlinks and
refuse read-only files, a full disk simulated in-process, killed saves' temporary files cleaned,
recent files, and one recovery file per window (issue 15 part 5, issue 14 part 4).
"""

import errno
import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import pytest

from explorer.model import documents
from explorer.model.documents import (
    Document,
    ReadOnlyError,
    RecentFiles,
    RecoverySlot,
    SaveError,
    atomic_write,
    clean_stale_temps,
    orphaned_recoveries,
    save_scene,
)
from explorer.model.scenefile import load, loads

ROOT = Path(__file__).resolve().parents[3]
SCENE = ('{"format": "intersection-explorer-scene", "version": 1, "objects": '
         '[{"id": "S", "type": "sphere", "center": [0, 0, 0], "radius": 1}]}')

pytestmark = pytest.mark.skipif(os.name != "posix", reason="modes, symlinks and pids: POSIX")


def temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.startswith("."))


def dead_pid() -> int:
    """The id of a process that has exited (and been reaped)."""
    p = subprocess.Popen([sys.executable, "-c", "pass"])
    p.wait()
    return p.pid


# ----------------------------------------------------------------------------- saving


@pytest.mark.parametrize("mode", [0o644, 0o640, 0o600, 0o664, 0o755])
def test_save_keeps_the_mode_of_the_file(tmp_path, mode):
    path = tmp_path / "s.json"
    path.write_text("old")
    os.chmod(path, mode)
    save_scene(loads(SCENE), path)
    assert stat.S_IMODE(path.stat().st_mode) == mode  # not reset to 0600 (mkstemp's mode)
    assert load(path)["S"].primitive.radius == 1.0


def test_a_new_file_gets_the_umask_mode(tmp_path):
    old = os.umask(0o027)
    try:
        atomic_write(tmp_path / "new.json", "{}")
    finally:
        os.umask(old)
    assert stat.S_IMODE((tmp_path / "new.json").stat().st_mode) == 0o640  # 0o666 & ~0o027


def test_save_through_a_symlink_writes_the_target_and_keeps_the_link(tmp_path):
    real = tmp_path / "real" / "scene.json"
    real.parent.mkdir()
    real.write_text("old")
    os.chmod(real, 0o644)
    link = tmp_path / "link.json"
    link.symlink_to(Path("real") / "scene.json")  # a relative link
    written = save_scene(loads(SCENE), link)
    assert link.is_symlink() and os.readlink(link) == str(Path("real") / "scene.json")
    assert written == real and load(real)["S"].primitive.radius == 1.0
    assert stat.S_IMODE(real.stat().st_mode) == 0o644
    assert temps(tmp_path) == [] and temps(real.parent) == []  # the temp file was in real/


def test_a_chain_of_symlinks_and_a_dangling_one(tmp_path):
    target = tmp_path / "t.json"
    (tmp_path / "b.json").symlink_to(target)  # dangling: the save creates its target
    (tmp_path / "a.json").symlink_to(tmp_path / "b.json")
    atomic_write(tmp_path / "a.json", "{}")
    assert target.read_text() == "{}" and (tmp_path / "a.json").is_symlink()
    assert (tmp_path / "b.json").is_symlink()


def test_a_read_only_file_is_not_overwritten_silently(tmp_path):
    path = tmp_path / "ro.json"
    path.write_text("precious")
    os.chmod(path, 0o444)
    with pytest.raises(ReadOnlyError) as info:
        save_scene(loads(SCENE), path)
    assert "read-only" in str(info.value) and str(path) in str(info.value)
    assert path.read_text() == "precious" and temps(tmp_path) == []
    # asked for explicitly (the recent-files list, the recovery file), it is written
    atomic_write(path, "new", allow_read_only=True)
    assert path.read_text() == "new" and stat.S_IMODE(path.stat().st_mode) == 0o444


def test_a_full_disk_says_so_and_keeps_the_old_file(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    path.write_text("old contents")

    def full(fd, data):  # the disk fills after the first 10 bytes
        if os.fstat(fd).st_size >= 10:
            raise OSError(errno.ENOSPC, "No space left on device")
        return os.write(fd, bytes(data[:10]))

    monkeypatch.setattr(documents, "_write", full)
    with pytest.raises(SaveError) as info:
        save_scene(loads(SCENE), path)
    assert "disk is full" in str(info.value)
    assert info.value.errno == errno.ENOSPC
    assert path.read_text() == "old contents" and temps(tmp_path) == []


def test_a_failing_rename_keeps_the_old_file_and_leaves_no_temp(tmp_path, monkeypatch):
    path = tmp_path / "s.json"
    path.write_text("old")

    def fail(a, b):
        raise OSError(errno.EXDEV, "Invalid cross-device link")

    monkeypatch.setattr(documents, "_replace", fail)
    with pytest.raises(SaveError):
        atomic_write(path, "new")
    assert path.read_text() == "old" and temps(tmp_path) == []


def test_a_missing_folder_and_a_folder_as_target(tmp_path):
    with pytest.raises(SaveError, match="folder does not exist"):
        atomic_write(tmp_path / "nope" / "s.json", "{}")
    (tmp_path / "d.json").mkdir()
    with pytest.raises(SaveError, match="not a plain file"):
        atomic_write(tmp_path / "d.json", "{}")


# ----------------------------------------------------------------------------- killed saves


def test_stale_temporary_files_are_cleaned_and_live_ones_kept(tmp_path):
    dead = dead_pid()
    stale = tmp_path / f".s.json.{dead}.0123abcd.explorer-tmp"
    live = tmp_path / f".s.json.{os.getppid()}.89abcdef.explorer-tmp"  # a live process's save
    old_style = tmp_path / ".s.json.k2j4h5g6.tmp"  # tempfile.mkstemp names of older versions
    fresh_old_style = tmp_path / ".t.json.abcdefgh.tmp"
    for p in (stale, live, old_style, fresh_old_style):
        p.write_text("half a scene")
    hour_ago = time.time() - 2 * documents.STALE_AFTER_S
    os.utime(old_style, (hour_ago, hour_ago))
    unrelated = tmp_path / ".hidden"
    unrelated.write_text("mine")
    atomic_write(tmp_path / "s.json", "{}")  # every save cleans its folder first
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [live.name, fresh_old_style.name, unrelated.name, "s.json"])
    # an hour later even a live process's temporary file is stale (no save takes that long)
    removed = clean_stale_temps(tmp_path, now=time.time() + 2 * documents.STALE_AFTER_S)
    assert sorted(removed) == sorted([live, fresh_old_style])
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted([unrelated.name, "s.json"])


KILLED_SAVER = """
import sys
from explorer.model.documents import atomic_write
big = "x" * (64 << 20)
print("saving", flush=True)
while True:
    atomic_write(sys.argv[1], big)
"""


def test_saves_killed_mid_write_leave_nothing_after_the_next_save(tmp_path):
    """A real kill -9 during a 64 MB save, five times: the next save removes every temporary
    file the killed processes left (25 kills left 23 files, 170 MB, before)."""
    target = tmp_path / "big.json"
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    for _ in range(5):
        p = subprocess.Popen([sys.executable, "-c", KILLED_SAVER, str(target)], env=env,
                             stdout=subprocess.PIPE)
        assert p.stdout.readline().strip() == b"saving"
        while not temps(tmp_path):  # wait until its temporary file is being written
            time.sleep(0.005)
        p.send_signal(signal.SIGKILL)
        p.wait()
        p.stdout.close()
    assert temps(tmp_path), "the killed saves left their temporary files"
    atomic_write(target, "{}")
    assert temps(tmp_path) == [] and target.read_text() == "{}"


# ----------------------------------------------------------------------------- document


def test_document_dirty_and_autosave_versions():
    d = Document()
    assert not d.dirty and not d.needs_autosave and d.name == "Untitled"
    assert d.touch() is True and d.touch() is False  # only the first edit makes it dirty
    assert d.needs_autosave
    d.autosaved_version = d.version
    assert not d.needs_autosave
    d.touch()
    assert d.needs_autosave
    d.saved("/tmp/x.json")
    assert not d.dirty and not d.needs_autosave and d.name == "x.json"
    d.reset(None, dirty=True)  # a recovered scene: dirty, not yet autosaved by this window
    assert d.path is None and d.needs_autosave


# ----------------------------------------------------------------------------- recent files


def test_recent_files_newest_first_deduplicated_and_limited(tmp_path):
    r = RecentFiles(tmp_path / "state" / "recent.json", limit=3)
    assert r.items() == []
    for name in ["a", "b", "a", "c", "d"]:
        r.add(tmp_path / f"{name}.json")
    assert [Path(p).name for p in r.items()] == ["d.json", "c.json", "a.json"]
    r.remove(tmp_path / "c.json")
    assert [Path(p).name for p in r.items()] == ["d.json", "a.json"]
    assert all(Path(p).is_absolute() for p in r.items())


def test_a_broken_recent_file_means_no_recent_files(tmp_path):
    f = tmp_path / "recent.json"
    for text in ["not json", '{"a": 1}', '[1, null, "ok", "ok", "bad\\u0000"]', "[" * 5000]:
        f.write_text(text)
        assert RecentFiles(f).items() in ([], ["ok"])
    f.write_text('[1, null, "ok", "ok"]')
    assert RecentFiles(f).items() == ["ok"]


def test_recent_files_that_cannot_be_written_are_not_an_error(tmp_path, monkeypatch):
    r = RecentFiles(tmp_path / "recent.json")

    def full(fd, data):
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(documents, "_write", full)
    assert r.add(tmp_path / "x.json")  # returns the list it wanted to keep
    assert "disk is full" in r.last_error


# ----------------------------------------------------------------------------- recovery


def test_each_window_has_its_own_recovery_file(tmp_path):
    one, two = RecoverySlot(tmp_path), RecoverySlot(tmp_path)
    assert one.path != two.path and one.path.parent == two.path.parent == tmp_path
    one.write(loads(SCENE), "/home/me/first.json")
    two.write(loads(SCENE.replace('"radius": 1', '"radius": 2')), None)
    # both windows live: nothing is offered to a third, nothing is deleted
    assert orphaned_recoveries(tmp_path) == []
    assert one.exists() and two.exists()
    two.remove()  # the second window saved: only its file goes
    assert one.exists() and not two.exists()
    one.release()  # the first window's process dies
    (rec,) = orphaned_recoveries(tmp_path)
    assert rec.path == one.path and rec.original == "/home/me/first.json"
    assert rec.load()["S"].primitive.radius == 1.0
    rec.remove()  # recovered (or declined): its scene, meta and lock files go
    assert sorted(p.name for p in tmp_path.iterdir()) == [two.lock_path.name]
    two.close()  # a clean close leaves nothing
    assert list(tmp_path.iterdir()) == []


def test_a_window_that_crashed_before_its_first_autosave_leaves_only_a_lock(tmp_path):
    slot = RecoverySlot(tmp_path)
    slot.release()
    assert [p.name for p in tmp_path.iterdir()] == [slot.lock_path.name]
    assert orphaned_recoveries(tmp_path) == []  # nothing to offer, and the lock is cleaned
    assert list(tmp_path.iterdir()) == []


def test_the_shared_recovery_file_of_older_versions_is_offered_once(tmp_path):
    (tmp_path / "recovery.json").write_text(SCENE)
    (tmp_path / "recovery-meta.json").write_text(json.dumps({"path": "/x/old.json"}))
    (rec,) = orphaned_recoveries(tmp_path)
    assert rec.original == "/x/old.json" and rec.load()["S"].primitive.radius == 1.0
    rec.remove()
    assert list(tmp_path.iterdir()) == []


LIVE_WINDOW = """
import sys, time
from explorer.model.documents import RecoverySlot
from explorer.model.scenefile import loads
slot = RecoverySlot(sys.argv[1])
slot.write(loads(sys.argv[2]), None)
print("written", flush=True)
time.sleep(600)
"""


def test_another_process_live_work_is_never_offered_until_it_dies(tmp_path):
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen([sys.executable, "-c", LIVE_WINDOW, str(tmp_path), SCENE], env=env,
                         stdout=subprocess.PIPE)
    try:
        assert p.stdout.readline().strip() == b"written"
        assert orphaned_recoveries(tmp_path) == []  # its lock is held: alive
    finally:
        p.send_signal(signal.SIGKILL)
        p.wait()
        p.stdout.close()
    (rec,) = orphaned_recoveries(tmp_path)  # the kernel dropped the lock with the process
    assert rec.load()["S"].primitive.radius == 1.0
