"""Stamps of output directories: every file's path, size and modification time, hashed (``Stamp.digest``
is ``navlaw.cache.tree_stamp``'s value for the same tree). A build stamps what it wrote, and the next build
starts from that output only if the directory's stamp is still the one recorded, so that navlaw never
starts from an output a user or another program changed.

A stamp is kept as its lines, not only as their digest, so that a build walks each tree once (issue 32):

- the stamp of a tree that holds another one navlaw stamped moments before (OUT holds the site) takes the
  inner stamp's lines instead of walking it again (``walk(root, known={"site": stamp})``);
- a tree navlaw verified and then changed file by file (the site's page sources in the cache) is stamped
  again by stating only the files it changed (``restat``).

Either way the stamp recorded is of the tree as navlaw wrote it. What another program changes in the
inner tree between the two moments (within the one build) is not in the recorded stamp, so the next
build, which walks the tree to compare, finds it and does not start from it — where a second walk would
have recorded the change as navlaw's own.

``WALKED`` counts the entries stated (tests count work, never wall clock).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import Counter
from pathlib import Path
from typing import Mapping

WALKED: Counter[str] = Counter()  # "entries": every file, link or other entry stated by a walk or restat


def _order(rel: str) -> list[str]:
    """The order a walk meets files in: by name within each directory, a directory's files where its name
    falls ("a/b" before "a-c", as "a" sorts before "a-c")."""
    return rel.split("/")


class Stamp:
    """The stamp of the tree below ``root``: relative path -> what its line says of it after the path
    (size and time of a file, "other" for a link or special file)."""

    def __init__(self, root: Path, lines: dict[str, str], exists: bool = True) -> None:
        self.root = root
        self.lines = lines
        self.exists = exists

    @classmethod
    def walk(cls, root: Path, known: Mapping[str, Stamp] | None = None) -> Stamp:
        """Stat every entry below ``root``; a top-level directory named in ``known`` takes that stamp's
        lines instead of being walked."""
        if not root.is_dir():
            return cls(root, {}, exists=False)
        lines: dict[str, str] = {}
        _walk(os.fspath(root), "", lines, dict(known or {}))
        return cls(root, lines)

    def restat(self, names: set[str]) -> None:
        """Stat again the files ``names`` (relative paths) after navlaw wrote them: those gone are dropped,
        those new are added."""
        for rel in names:
            line = _line(os.path.join(self.root, rel))
            if line is None:
                self.lines.pop(rel, None)
            else:
                self.lines[rel] = line

    def mtime_ns(self, rel: str) -> int | None:
        """The modification time the stamp holds for file ``rel`` (None: not a file of it)."""
        line = self.lines.get(rel)
        if line is None or line == "other":
            return None
        return int(line.split("\0")[1])

    def digest(self) -> str:
        """``tree_stamp``'s value: "" for a tree that does not exist."""
        if not self.exists:
            return ""
        text = "\0\n".join(f"{rel}\0{self.lines[rel]}" for rel in sorted(self.lines, key=_order))
        # a name holds no NUL, and a line's NULs are followed by digits or "other": "\0\n" only separates
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def _line(path: str) -> str | None:
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return None
    WALKED["entries"] += 1
    if stat.S_ISREG(st.st_mode):
        return f"{st.st_size}\0{st.st_mtime_ns}"
    if stat.S_ISDIR(st.st_mode):
        return None  # a directory has no line of its own (its files do)
    return "other"


def _walk(path: str, rel: str, out: dict[str, str], known: dict[str, Stamp]) -> None:
    with os.scandir(path) as it:
        entries = list(it)
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            inner = known.get(rel + e.name) if not rel else None
            if inner is not None:
                out.update({f"{e.name}/{r}": line for r, line in inner.lines.items()})
                continue
            _walk(e.path, rel + e.name + "/", out, known)
        elif e.is_file(follow_symlinks=False):
            WALKED["entries"] += 1
            st = e.stat(follow_symlinks=False)
            out[rel + e.name] = f"{st.st_size}\0{st.st_mtime_ns}"
        else:
            WALKED["entries"] += 1
            out[rel + e.name] = "other"
