"""What navlaw keeps on disk to load back, sealed: the per-user key, the seal (an HMAC-SHA256 over an entry's
context and bytes, checked before anything is unpickled), atomic writes, and the entries a rebuilding process
has put but not written yet (``later``). compiler/cache.py's BuildCache and the user cache use these."""

from __future__ import annotations

import atexit
import hashlib
import hmac
import os
import pickle
import secrets
import stat
import tempfile
from contextlib import contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any, BinaryIO, Callable, Iterator


def private_dir(path: Path) -> str:
    """Make ``path`` (mode 0700 when new) and say why it is unfit to hold what navlaw loads back —
    a link, not a directory, owned by another user, or writable by group or others — or "" if fit."""
    try:
        path.mkdir(mode=0o700, parents=True, exist_ok=True)
        st = path.lstat()
    except OSError as exc:
        return f"{path} cannot be made ({exc.strerror or exc})"
    if stat.S_ISLNK(st.st_mode) or not stat.S_ISDIR(st.st_mode):
        return f"{path} is not a directory"
    if st.st_uid != os.geteuid():
        return f"{path} belongs to another user (uid {st.st_uid})"
    if st.st_mode & 0o022:
        return f"{path} is writable by other users (mode {stat.S_IMODE(st.st_mode):o})"
    return ""


def user_cache() -> Path | None:
    """navlaw's directory in the user's cache (``$XDG_CACHE_HOME/navlaw``, else ``~/.cache/navlaw``) for
    what depends only on navlaw's own files: the sealing key, Lark's parse tables and Jinja's compiled
    templates. Not the shared temporary directory, since the latter two are loaded as code. None if it
    cannot be made private to this user."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "navlaw"
    return None if private_dir(base) else base


_MAGIC = b"navlaw-sealed-1\n"


@lru_cache(maxsize=1)
def user_key() -> bytes | None:
    """This user's sealing key (32 random bytes, made once, 0600 in the private user cache)."""
    base = user_cache()
    if base is None:
        return None
    path = base / "key"
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    except FileExistsError:
        try:
            fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
            with os.fdopen(fd, "rb") as f:
                st = os.fstat(f.fileno())
                key = f.read()
        except OSError:
            return None
        if st.st_uid != os.geteuid() or st.st_mode & 0o077 or len(key) != 32:
            return None
        return key
    except OSError:
        return None
    key = secrets.token_bytes(32)
    with os.fdopen(fd, "wb") as f:
        f.write(key)
    return key


class Unsealed(Exception):
    """A sealed blob that fails its check: not written by this user's navlaw for this context."""


def seal(context: str, data: bytes) -> bytes:
    key = user_key()
    if key is None:
        raise Unsealed("no private key directory")
    mac = hmac.new(key, context.encode() + b"\0" + data, hashlib.sha256).digest()
    return _MAGIC + mac + data


def unseal(context: str, blob: bytes) -> memoryview:
    """The data sealed for ``context`` (a view of ``blob``: not copied), or Unsealed: checked before anything
    is unpickled."""
    key = user_key()
    if key is None:
        raise Unsealed("no private key directory")
    view = memoryview(blob)
    n = len(_MAGIC)
    data = view[n + 32:]
    mac = hmac.new(key, context.encode() + b"\0", hashlib.sha256)
    mac.update(data)
    if view[:n] != _MAGIC or not hmac.compare_digest(view[n:n + 32], mac.digest()):
        raise Unsealed("its seal does not match: written by someone else, edited, or another entry")
    return data


def write_atomic(path: Path, data: bytes) -> None:
    with _atomic(path) as f:
        f.write(data)


def write_sealed(path: Path, context: str, value: Any) -> None:
    """``value`` pickled and sealed for ``context`` into ``path`` (as ``write_atomic(path, seal(context,
    pickle.dumps(value)))`` writes it), a pickle frame at a time: no whole copy of the pickle is made (at 10x
    a document's tree or its JSON is a few MB, made three times over)."""
    key = user_key()
    if key is None:
        raise Unsealed("no private key directory")
    mac = hmac.new(key, context.encode() + b"\0", hashlib.sha256)
    with _atomic(path) as f:
        f.write(_MAGIC + bytes(32))

        class Sealing:
            @staticmethod
            def write(chunk: bytes) -> int:
                mac.update(chunk)
                return f.write(chunk)

        pickle.Pickler(Sealing(), protocol=pickle.HIGHEST_PROTOCOL).dump(value)
        f.seek(len(_MAGIC))
        f.write(mac.digest())


@contextmanager
def _atomic(path: Path) -> Iterator[BinaryIO]:
    """A file to write ``path``'s new bytes to: readers see the old file or the new one, never half of one."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            yield f
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


class Later:
    """The entries a rebuilding process (``navlaw serve``, saving after saving) put with ``hold`` and has not
    written yet: each is written when something asks for it from disk, and the last build's are written when
    the process ends. A save's document tree, site state and pages memo are made again at the next save, so
    writing each build's (pickled and sealed: at 10x ~0.12 s CPU a save) was work for a file no one read;
    a fresh process after ``serve`` finds what the last build made. Only a value nothing changes after it
    was put is held here (``hold``), so what is written at the end is what was put. An entry the process
    ends without writing (killed) is a miss for the next process, never a wrong entry: every key says what
    its value was made from."""

    def __init__(self) -> None:
        # entry path -> (pid that put it, its file's size, time and inode then, seal context, value)
        self._entries: dict[Path, tuple[int, tuple[int, int, int] | None, str, Any]] = {}
        self._exit = False

    def defer(self, path: Path, context: str, value: Any) -> None:
        if not self._exit:
            atexit.register(self.flush)
            self._exit = True
        self._entries[path] = (os.getpid(), file_state(path), context, value)

    def __contains__(self, path: Path) -> bool:
        """Whether an entry is waiting at ``path``: not if its file was written since it was put (by another
        process: then the file is the newer, and the entry is forgotten)."""
        e = self._entries.get(path)
        if e is not None and e[1] != file_state(path):
            del self._entries[path]
            return False
        return e is not None

    def take(self, path: Path) -> Any:
        """The value put at ``path`` (given back, not written: whoever takes it may change it)."""
        return self._entries.pop(path)[3]

    def write(self, path: Path, write: Callable[[Path, str, Any], None]) -> None:
        """Write the entry at ``path`` now (``write(path, context, value)``), and forget it."""
        _, _, context, value = self._entries.pop(path)
        write(path, context, value)

    def drop(self, root: Path, used: set[Path]) -> None:
        """Forget the entries under ``root`` that a build did not use (as its prune deletes their files)."""
        for p in [p for p in self._entries if p not in used and p.is_relative_to(root)]:
            del self._entries[p]

    def flush(self) -> None:
        """Write every entry this process put (a forked process's copies of its parent's are not its own)."""
        for p in [p for p, e in self._entries.items() if e[0] == os.getpid()]:
            if p not in self:
                continue  # written since by another process
            _, _, context, value = self._entries.pop(p)
            try:
                write_sealed(p, context, value)
            except (OSError, Unsealed):
                pass  # its directory went (a temporary cache), or no key: a miss for the next process


def file_state(path: Path) -> tuple[int, int, int] | None:
    """A file's size, modification time and inode (None if there is none): whether it was written since."""
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_size, st.st_mtime_ns, st.st_ino


later = Later()
