"""The build cache: stage results kept on disk under the SHA-256 of everything they were made from.

``navlaw build`` asks the cache before each stage it can skip:

- **document** — one document's tree and findings, keyed by the compiler, the document's manifest
  entry and its bytes: after an amendment to one document the others are not parsed again;
- **tariffs**, **tree-json** — a document's tariffs (with their findings) and its tree as JSON, under
  the document's key;
- **parse-chunks**, **tariff-sections** — a document's parser lines by section and its sections' tariffs,
  under the document's path (compiler/frontend/chunks.py, compiler/tariffs/by_section.py): after an edit a
  new process parses and reads only the changed sections (each is looked up by its own digest);
- **last** — what the last build was made from (a digest of every file of the corpus) and what it
  wrote (digests of the output directories): a rebuild with nothing changed does nothing;
- **site** — what the last MkDocs build was made from (each page's text, the search entries each page
  gave), so the next build renders only the pages that changed (see compiler/site/mkdocs_build.py);
- **site-pages**, **akn-memo** — the law and history pages' Markdown and each section's Akoma Ntoso,
  under a digest of what each shows (compiler/site/render.py's Memo, compiler/export/akn_memo.py);
- **site-spare**, **out-spare** — the site and OUT's per-section directories that the last build
  replaced, moved here to start the next build from (not sealed entries: directories of output files,
  never loaded as code or unpickled; what a build keeps of them is checked against the output in use).

Every key includes the compiler's own fingerprint (its source, grammars, templates, site config and
the versions of the libraries that shape the output), so a changed navlaw never reuses an old result.
An entry that cannot be read (truncated, garbled, written by another version) is a miss with a
warning, never an error: the cache can always be deleted.

Nothing is unpickled that this user's navlaw did not write: every entry (and Lark's parse tables) is
sealed with an HMAC-SHA256 under a per-user key kept in a private directory (``~/.cache/navlaw/key``,
0700/0600, owned by the user), over the entry's own stage and key and its bytes. An entry planted by
another account, edited, truncated or swapped for another valid entry fails the check and is never
loaded. A cache directory owned by someone else, or writable by others, is not used at all.
"""

from __future__ import annotations

import hashlib
import io
import os
import pickle
import stat
from collections import Counter
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from navlaw.sealed import Unsealed as Unsealed, user_key as _user_key, write_atomic as _write_atomic
from navlaw.sealed import file_state as _file_state, later, private_dir as private_dir, seal as seal, unseal as unseal
from navlaw.sealed import user_cache as user_cache, write_sealed
from navlaw.stamps import Stamp

if TYPE_CHECKING:
    from lark import Lark

_LIBRARIES = ("lark", "jinja2", "mkdocs", "mkdocs-material", "pymdown-extensions", "markdown")
FORMAT = 2  # bump when the layout of cached values changes
T = TypeVar("T")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    """What the compiler is made of (compiler/resources.py: code, templates, grammars, site config)
    and the libraries that shape its output: a change to any of these changes every key."""
    from navlaw import resources
    from navlaw.versions import versions  # importlib.metadata's answers without its import (issue 32)

    h = hashlib.sha256(f"navlaw-cache-{FORMAT}".encode())
    for name, p in resources.files():
        h.update(name.encode() + b"\0" + p.read_bytes() + b"\0")
    for lib, found in versions(*_LIBRARIES).items():
        h.update(f"{lib}={'-' if found is None else found}\0".encode())
    return h.hexdigest()


def digest(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        b = p.encode("utf-8", "surrogatepass") if isinstance(p, str) else p
        h.update(len(b).to_bytes(8, "little") + b)  # length-prefixed: ("ab", "c") != ("a", "bc")
    return h.hexdigest()


def tree_digest(root: Path) -> str:
    """Every file's path and bytes below ``root`` (empty string if it does not exist)."""
    if not root.is_dir():
        return ""
    parts: list[bytes | str] = []
    for p in sorted(root.rglob("*")):
        if p.is_file():
            parts += [p.relative_to(root).as_posix(), p.read_bytes()]
    return digest(*parts)


FileState = tuple[str, int, int, int]  # sha256 of its bytes, size, modification time (ns), inode


def tree_files(root: Path) -> dict[str, FileState]:
    """Each regular file below ``root`` (a link to one counts as the file; special files are skipped, the
    front end refuses them): its path relative to ``root`` -> the SHA-256 of its bytes, with the size,
    time and inode it had when read ({} if ``root`` is not a directory)."""
    out: dict[str, FileState] = {}
    for rel, e in _entries(root):
        if not e.is_file():
            continue
        try:
            fd = os.open(e.path, os.O_RDONLY | os.O_NONBLOCK)
        except OSError:
            continue  # removed or unreadable: the front end says why, if it needs it
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode):
                continue
            h = hashlib.sha256()
            while chunk := f.read(1 << 20):
                h.update(chunk)
        out[rel] = (h.hexdigest(), st.st_size, st.st_mtime_ns, st.st_ino)
    return out


def _entries(root: Path, rel: str = "") -> Iterator[tuple[str, os.DirEntry[str]]]:
    """Each entry below ``root`` that is not a directory (a link to one is not followed), by its path relative
    to ``root``, in name order (nothing if ``root`` is not a directory)."""
    if not rel and not root.is_dir():
        return
    with os.scandir(root) as it:
        entries = sorted(it, key=lambda e: e.name)
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            yield from _entries(Path(e.path), rel + e.name + "/")
        else:
            yield rel + e.name, e


def files_digest(hashes: dict[str, str]) -> str:
    """One digest of files by their path and the SHA-256 of their bytes."""
    return digest(*[part for name in sorted(hashes) for part in (name, hashes[name])])


def changed_since(root: Path, before: dict[str, FileState]) -> list[str]:
    """The files below ``root`` whose size, time or inode is not what it was in ``before`` (or that came
    or went): whether a file changed during a build, from one stat each, without reading it again."""
    now: dict[str, tuple[int, int, int]] = {}
    if root.is_dir():
        for dirpath, _, names in os.walk(root):
            for n in names:
                p = os.path.join(dirpath, n)
                try:
                    st = os.stat(p)
                except OSError:
                    continue
                if stat.S_ISREG(st.st_mode):
                    now[Path(p).relative_to(root).as_posix()] = (st.st_size, st.st_mtime_ns, st.st_ino)
    return sorted(n for n in set(now) | set(before) if now.get(n) != (before[n][1:] if n in before else None))


def tree_stamp(root: Path) -> str:
    """Every file's path, size and modification time below ``root`` ("" if it does not exist): whether an
    output directory is still the one a build wrote, without reading it (at the scale of all the
    consolidated laws, reading the site back twice a build cost more than rendering a page). One line per
    entry, hashed once: a build stamps its output several times, and at 10x the corpus (15,000 files) a
    digest per file cost a tenth of a one-section rebuild. (navlaw.stamps keeps the lines, to stamp a
    tree that holds one stamped already without walking that one again.)"""
    return Stamp.walk(root).digest()


def lark_parser(name: str, grammar: str, **options: Any) -> Lark:
    """A Lark LALR parser for ``grammar``, its analysis (the parse tables: ready 5-10x sooner) kept
    sealed in the user cache under the grammar's and Lark's digest. Lark's own ``cache=`` is not used:
    it unpickles its file before it compares the grammar's hash."""
    from lark import Lark, __version__ as lark_version

    transformer = options.pop("transformer", None)
    context = "lark/" + digest(name, grammar, repr(sorted(options.items())), lark_version)

    def load(data: bytes) -> Lark:
        loaded: Lark = Lark.__new__(Lark)
        return loaded._load(pickle.loads(data), **({"transformer": transformer} if transformer else {}))

    def make() -> tuple[Lark, bytes]:
        parser = Lark(grammar, parser="lalr", **options, **({"transformer": transformer} if transformer else {}))
        buf = io.BytesIO()
        parser.save(buf, exclude_options=("transformer",))
        return parser, buf.getvalue()
    return kept_sealed(f"lark-{name}.sealed", context, load, make)


def kept_sealed(name: str, context: str, load: Callable[[bytes], T], make: Callable[[], tuple[T, bytes]]) -> T:
    """What ``make`` gives (the value and the bytes to keep of it), kept sealed for ``context`` in the user
    cache's file ``name``: ``load`` of those bytes when the file is there, whole and sealed for ``context``
    (``load`` raises on bytes it does not accept); else made, and kept for the next process."""
    base = user_cache()
    path = base / name if base is not None else None
    if path is not None and path.is_file():
        try:
            return load(bytes(unseal(context, path.read_bytes())))
        except Exception:  # stale (another grammar), damaged or not ours: made afresh below
            pass
    value, data = make()
    if path is not None:
        try:
            _write_atomic(path, seal(context, data))
        except (OSError, Unsealed):
            pass  # no cache: the next process makes it again
    return value


# The model's own parsers (numbers in words, fee formulas) are sealed the same way: the model imports nothing
# of navlaw, so this module hands it the maker (navlaw/model/parsers.py).
from navlaw.model import parsers as _model_parsers  # noqa: E402

_model_parsers.use(lark_parser)


def jinja_bytecode() -> Any:
    """A Jinja bytecode cache for navlaw's templates (each template compiled once, not at every build;
    Jinja checks the template's source against the checksum in each entry). None: compile each time."""
    from jinja2 import FileSystemBytecodeCache

    base = user_cache()
    if base is None:
        return None
    jinja = base / "jinja"
    if private_dir(jinja):
        return None
    cache = FileSystemBytecodeCache(str(jinja))
    if jinja not in _JINJA_COUNTED:  # counted once a process (each environment asks: ~550 entries listed each time)
        _JINJA_COUNTED.add(jinja)
        if sum(1 for _ in jinja.iterdir()) > 2000:  # entries are per template path; temporary sites add some
            cache.clear()
    return cache


_JINJA_COUNTED: set[Path] = set()


# what a rebuilding process put with hold=True: entry path -> (its file's size, time and inode as written, value)
_HELD: dict[Path, tuple[tuple[int, int, int] | None, Any]] = {}
_OPENED: set[Path] = set()  # the cache directories this process opened a BuildCache on


class BuildCache:
    """Stage results on disk, one sealed pickle per key. ``BuildCache(None)`` is a cache that never hits."""

    def __init__(self, root: Path | None):
        self.root = root
        self.rebuilding = root is not None and root.resolve() in _OPENED  # this process built with it before
        self._pid = os.getpid()  # a process forked during the build writes what it puts at once
        _OPENED.update([root.resolve()] if root is not None else [])
        self.stats: Counter[str] = Counter()  # "document hit", "document miss", ...
        self.warnings: list[str] = []
        self._used: set[Path] = set()
        self._refused: set[str] = set()  # stages whose directory is a link or not a directory
        if root is not None:  # a cache that cannot be written, or is not ours alone, is no cache
            why = private_dir(root)
            if not why:
                try:
                    probe = root / ".writable"
                    probe.write_bytes(b"")
                    probe.unlink()
                except OSError as exc:
                    why = f"{root} cannot be written ({exc.strerror or exc})"
            if not why and _user_key() is None:
                why = "the user cache (~/.cache/navlaw) cannot hold a private key"
            if why:
                self.warnings.append(f"no build cache: {why}; building everything afresh")
                self.root = None

    @property
    def enabled(self) -> bool:
        return self.root is not None

    # What a forked process (navlaw.parallel) does to its copy of the cache is the build's too: the entries
    # it used or stored (else the build's prune drops them as unused), its counts and its warnings.
    def mark(self) -> tuple[frozenset[Path], Counter[str], int]:
        """Where the cache stands now, for ``news_since``."""
        return frozenset(self._used), Counter(self.stats), len(self.warnings)

    def news_since(self, mark: tuple[frozenset[Path], Counter[str], int]) -> tuple[set[Path], Counter[str], list[str]]:
        """What was used or stored, counted and warned since ``mark``: for ``take`` in another process."""
        used, stats, warned = mark
        return self._used - used, self.stats - stats, self.warnings[warned:]

    def take(self, news: tuple[set[Path], Counter[str], list[str]]) -> None:
        """Another process's ``news_since``, made this cache's."""
        self._used |= news[0]
        self.stats.update(news[1])
        self.warnings.extend(news[2])

    def key(self, stage: str, *parts: bytes | str) -> str:
        return digest(stage, fingerprint(), *parts)

    def _path(self, stage: str, key: str) -> Path:
        assert self.root is not None
        return self.root / stage / f"{key}.sealed"

    def own_dir(self, stage: str, make: bool = False) -> bool:
        """Whether the cache's directory ``stage`` is a directory of its own, or not there yet (then made
        if ``make``): one that is a link (or not a directory) is not used, never followed, and said once."""
        assert self.root is not None
        d = self.root / stage
        try:
            st = d.lstat()
        except FileNotFoundError:
            if not make:
                return True  # nothing there yet: a miss
            d.mkdir(mode=0o700, exist_ok=True)
            st = d.lstat()
        if stat.S_ISDIR(st.st_mode):
            return True
        if stage not in self._refused:
            self._refused.add(stage)
            self.warnings.append(f"cache directory {d} is {'a link' if stat.S_ISLNK(st.st_mode) else 'not a directory'}"
                                 f", not the cache's own: not used (remove it; the cache remakes it)")
        return False

    def get(self, stage: str, key: str, held: bool = False) -> Any | None:
        """The value stored under ``key``, or None. ``held``: what this process put with ``hold`` is given back as it
        is (not unpickled) once, while the entry's file is the one put wrote; the next get reads the file."""
        if self.root is None:
            return None
        if not self.own_dir(stage):
            self.stats[f"{stage} miss"] += 1
            return None
        path = self._path(stage, key)
        if path in later:  # put by this process, not written yet (sealed.Later)
            if held:
                self._used.add(path)
                self.stats.update([f"{stage} hit", f"{stage} held"])
                return later.take(path)
            later.write(path, self._write)
        kept = _HELD.pop(path, None) if held else None
        if kept is not None and kept[0] is not None and kept[0] == _file_state(path):
            self._used.add(path)
            self.stats[f"{stage} hit"] += 1
            self.stats[f"{stage} held"] += 1
            return kept[1]
        try:
            with path.open("rb") as f:
                blob = f.read()
        except FileNotFoundError:
            self.stats[f"{stage} miss"] += 1
            return None
        except OSError as exc:
            self._refuse(stage, path, exc.strerror or type(exc).__name__)
            return None
        try:
            data = unseal(f"{stage}/{key}", blob)  # checked before anything is unpickled
        except Unsealed as exc:
            self._refuse(stage, path, str(exc))
            return None
        try:
            value = pickle.loads(data)
        except Exception as exc:  # sealed by us but unreadable (another navlaw's classes)
            self._refuse(stage, path, type(exc).__name__)
            return None
        self._used.add(path)
        self.stats[f"{stage} hit"] += 1
        return value

    def _refuse(self, stage: str, path: Path, why: str) -> None:
        """A damaged or foreign entry is a miss, and goes."""
        self.warnings.append(f"cache entry {path} could not be read ({why}); rebuilt")
        path.unlink(missing_ok=True)
        self.stats[f"{stage} miss"] += 1

    def put(self, stage: str, key: str, value: Any, hold: bool = False) -> None:
        """Store ``value`` under ``key``; ``hold``: nothing changes it after this, and from a process's second build
        on (``navlaw serve``) it is kept in memory, for ``get(held=True)``, and written only when asked for from
        disk or when the process ends (sealed.Later: the next save makes the stage's value again)."""
        if self.root is None:
            return
        if not self.own_dir(stage, make=True):
            return
        path = self._path(stage, key)
        for p in [p for p in _HELD if p.parent == path.parent]:  # the stage's last value only
            del _HELD[p]
        self._used.add(path)
        if hold and self.rebuilding and os.getpid() == self._pid:
            later.defer(path, f"{stage}/{key}", value)
        else:
            self._write(path, f"{stage}/{key}", value, hold and self.rebuilding)

    @staticmethod
    def _write(path: Path, context: str, value: Any, hold: bool = True) -> None:
        write_sealed(path, context, value)
        if hold:  # given back once by get(held=True), while the file is the one written here
            _HELD[path] = (_file_state(path), value)

    def keep(self, stage: str, key: str) -> None:
        """Keep the entry ``key`` (if there is one) through this build's ``prune`` without reading it: what a
        later build may want though this one did not (a document's memo by section, while it is unchanged)."""
        if self.root is not None:
            self._used.add(self._path(stage, key))

    def through(self, stage: str, key: str, make: Callable[[], T], hold: bool = False) -> T:
        """The value stored under ``key``, or else ``make()``'s, stored (``hold``: as ``put``'s). No key: ``make()``."""
        if self.root is None or not key:
            return make()
        hit = self.get(stage, key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        value = make()
        self.put(stage, key, value, hold)
        return value

    def prune(self) -> None:
        """Drop the entries this build did not use: the cache holds one build's worth, not history."""
        if self.root is None:
            return
        later.drop(self.root, self._used)
        if not self.root.is_dir():
            return
        with os.scandir(self.root) as stages:  # the stage directories themselves: a link is not followed
            dirs = [Path(e.path) for e in stages if e.is_dir(follow_symlinks=False)]
        for d in dirs:
            with os.scandir(d) as entries:
                for e in entries:
                    path = Path(e.path)
                    if e.name.endswith(".sealed") and path not in self._used:
                        path.unlink(missing_ok=True)
