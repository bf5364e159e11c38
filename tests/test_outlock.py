"""The output lock (compiler/outlock.py): flock on POSIX, excluding and excluded by filelock's lock on the same
file (an older navlaw, or the fallback), and filelock itself where there is no flock."""

from __future__ import annotations

import errno
import os
import sys

import filelock
import pytest

from navlaw import outlock

posix = pytest.mark.skipif(sys.platform == "win32", reason="flock is POSIX's")


@posix
def test_a_held_lock_is_busy_until_released_and_its_file_stays(tmp_path):
    path = str(tmp_path / ".out.lock")
    held = outlock.take(path)
    assert isinstance(held, outlock._Flock)
    with pytest.raises(outlock.Busy):
        outlock.take(path)
    held.release()
    held.release()  # a second release does nothing
    assert os.path.exists(path)
    outlock.take(path).release()


@posix
def test_it_and_filelock_exclude_each_other(tmp_path):
    path = str(tmp_path / ".out.lock")
    theirs = filelock.FileLock(path, timeout=0)
    theirs.acquire()
    with pytest.raises(outlock.Busy):
        outlock.take(path)
    theirs.release()
    ours = outlock.take(path)
    with pytest.raises(filelock.Timeout):
        filelock.FileLock(path, timeout=0).acquire()
    ours.release()
    filelock.FileLock(path, timeout=0).acquire()


@posix
def test_a_link_in_the_locks_place_is_not_followed(tmp_path):
    target = tmp_path / "elsewhere"
    target.write_text("not a lock\n")
    os.symlink(target, tmp_path / ".out.lock")
    with pytest.raises(OSError):
        outlock.take(str(tmp_path / ".out.lock"))
    assert target.read_text() == "not a lock\n"


@posix
def test_without_flock_it_is_filelocks(tmp_path, monkeypatch):
    import fcntl

    real = fcntl.flock
    calls = []

    def no_flock(fd: int, op: int) -> None:
        calls.append(op)
        if len(calls) == 1:  # outlock's own attempt: the file system has none
            raise OSError(errno.ENOSYS, "Function not implemented")
        real(fd, op)

    monkeypatch.setattr(fcntl, "flock", no_flock)
    held = outlock.take(str(tmp_path / ".out.lock"))
    assert isinstance(held, filelock.BaseFileLock) and held.is_locked
    held.release()
