"""The build cache: stage results kept on disk under the SHA-256 of everything they were made from.

``navlaw build`` asks the cache before each stage it can skip:

- **document** — one document's tree and findings, keyed by the compiler, the document's manifest
  entry and its bytes: after an amendment to one document the others are not parsed again;
- **tariffs**, **tree-json** — a document's tariffs (with their findings) and its tree as JSON, under
  the document's key;
- **last** — what the last build was made from (a digest of every file of the corpus) and what it
  wrote (digests of the output directories): a rebuild with nothing changed does nothing;
- **site** — what the last MkDocs build was made from (each page's text, the search entries each page
  gave), so the next build renders only the pages that changed (see compiler/site_build.py).

Every key includes the compiler's own fingerprint (its source, grammars, templates, site config and
the versions of the libraries that shape the output), so a changed navlaw never reuses an old result.
An entry that cannot be read (truncated, garbled, written by another version) is a miss with a
warning, never an error: the cache can always be deleted. Entries are pickles the build wrote itself;
the cache directory is as trusted as the corpus directory beside it.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from collections import Counter
from functools import lru_cache
from importlib import metadata
from pathlib import Path
from typing import Any, Callable, TypeVar

ROOT = Path(__file__).resolve().parent.parent
# What the compiler is made of: a change to any of these changes every key.
_FINGERPRINT_GLOBS = ("compiler/**/*.py", "compiler/templates/**/*", "grammar/*.lark", "site/mkdocs.yml",
                      "site/overrides/**/*")
_LIBRARIES = ("lark", "jinja2", "mkdocs", "mkdocs-material", "pymdown-extensions", "markdown")
FORMAT = 1  # bump when the layout of cached values changes
T = TypeVar("T")


@lru_cache(maxsize=1)
def fingerprint() -> str:
    h = hashlib.sha256(f"navlaw-cache-{FORMAT}".encode())
    paths = sorted({p for g in _FINGERPRINT_GLOBS for p in ROOT.glob(g) if p.is_file() and "__pycache__" not in p.parts})
    for p in paths:
        h.update(p.relative_to(ROOT).as_posix().encode() + b"\0" + p.read_bytes() + b"\0")
    for lib in _LIBRARIES:
        try:
            h.update(f"{lib}={metadata.version(lib)}\0".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{lib}=-\0".encode())
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


def user_cache() -> Path | None:
    """navlaw's directory in the user's cache (``$XDG_CACHE_HOME/navlaw``, else ``~/.cache/navlaw``) for
    what depends only on navlaw's own files: Lark's parse tables and Jinja's compiled templates. Not
    the shared temporary directory, since both are loaded as code or pickles. None if it cannot be made."""
    base = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "navlaw"
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError:
        return None
    return base


def lark_cache(name: str) -> str | bool:
    """Where Lark keeps its analysis of grammar ``name`` (the LALR tables: a parser is ready 5-10x
    sooner). Lark checks the grammar's hash in the file and redoes the analysis when it differs."""
    base = user_cache()
    return str(base / f"lark-{name}.pickle") if base is not None else False


def jinja_bytecode() -> Any:
    """A Jinja bytecode cache for navlaw's templates (each template compiled once, not at every build;
    Jinja checks the template's source against the checksum in each entry). None: compile each time."""
    from jinja2 import FileSystemBytecodeCache

    base = user_cache()
    if base is None:
        return None
    jinja = base / "jinja"
    jinja.mkdir(exist_ok=True)
    cache = FileSystemBytecodeCache(str(jinja))
    if sum(1 for _ in jinja.iterdir()) > 2000:  # entries are per template path; temporary sites add some
        cache.clear()
    return cache


class BuildCache:
    """Stage results on disk, one pickle per key. ``BuildCache(None)`` is a cache that never hits."""

    def __init__(self, root: Path | None):
        self.root = root
        self.stats: Counter[str] = Counter()  # "document hit", "document miss", ...
        self.warnings: list[str] = []
        self._used: set[Path] = set()
        if root is not None:  # a cache that cannot be written is no cache, not a failed build
            try:
                root.mkdir(parents=True, exist_ok=True)
                probe = root / ".writable"
                probe.write_bytes(b"")
                probe.unlink()
            except OSError as exc:
                self.warnings.append(f"no build cache: {root} cannot be written ({exc.strerror or exc}); "
                                     "building everything afresh")
                self.root = None

    @property
    def enabled(self) -> bool:
        return self.root is not None

    def key(self, stage: str, *parts: bytes | str) -> str:
        return digest(stage, fingerprint(), *parts)

    def _path(self, stage: str, key: str) -> Path:
        assert self.root is not None
        return self.root / stage / f"{key}.pickle"

    def get(self, stage: str, key: str) -> Any | None:
        if self.root is None:
            return None
        path = self._path(stage, key)
        try:
            with path.open("rb") as f:
                value = pickle.load(f)
        except FileNotFoundError:
            self.stats[f"{stage} miss"] += 1
            return None
        except Exception as exc:  # a damaged entry is a miss, and goes
            self.warnings.append(f"cache entry {path} could not be read ({type(exc).__name__}); rebuilt")
            path.unlink(missing_ok=True)
            self.stats[f"{stage} miss"] += 1
            return None
        self._used.add(path)
        self.stats[f"{stage} hit"] += 1
        return value

    def put(self, stage: str, key: str, value: Any) -> None:
        if self.root is None:
            return
        path = self._path(stage, key)
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
            os.replace(tmp, path)  # readers see the old entry or the new one, never half of one
        except BaseException:
            Path(tmp).unlink(missing_ok=True)
            raise
        self._used.add(path)

    def through(self, stage: str, key: str, make: Callable[[], T]) -> T:
        """The value stored under ``key``, or else ``make()``'s, stored. No key: just ``make()``."""
        if self.root is None or not key:
            return make()
        hit = self.get(stage, key)
        if hit is not None:
            return hit  # type: ignore[no-any-return]
        value = make()
        self.put(stage, key, value)
        return value

    def prune(self) -> None:
        """Drop the entries this build did not use: the cache holds one build's worth, not history."""
        if self.root is None or not self.root.is_dir():
            return
        for path in self.root.glob("*/*.pickle"):
            if path not in self._used:
                path.unlink(missing_ok=True)
