"""Stamps of output directories: every file's path, size and modification time, hashed (``Stamp.digest``
is ``navlaw.cache.tree_stamp``'s value for the same tree). A build stamps what it wrote, and the next build
starts from that output only if the directory's stamp is still the one recorded, so that navlaw never
starts from an output a user or another program changed.

A stamp is kept as its lines, not only as their digest, so that a build walks each tree once (issue 32):
the stamp of a tree that holds another one navlaw stamped moments before (OUT holds the site) takes the
inner stamp's lines instead of walking it again (``walk(root, known={"site": stamp})``). The stamp
recorded is then of the inner tree as navlaw wrote it: what another program changes there between the two
moments (within the one build) is not in it, so the next build, which walks the tree to compare, finds
the change and does not start from that output — where a second walk would have recorded it as navlaw's.

``WALKED`` counts the entries stated (tests count work, never wall clock).
"""

from __future__ import annotations

import hashlib
import os
import stat
from collections import Counter
from pathlib import Path
from typing import Mapping

WALKED: Counter[str] = Counter()  # "entries": every file, link or other entry stated by a walk


def _order(rel: str) -> str:
    """The order a walk meets files in: by name within each directory, a directory's files where its name
    falls ("a/b" before "a-c", as "a" sorts before "a-c"): the order of the paths' lists of names, which is
    that of the paths with "/" made NUL (a name holds no NUL, and NUL sorts before every character)."""
    return rel.replace("/", "\0")


class Stamp:
    """The stamp of the tree below ``root``: relative path -> what its line says of it after the path
    (size and time of a file, "other" for a link or special file)."""

    def __init__(self, root: Path, lines: dict[str, str], exists: bool = True) -> None:
        self.root = root
        self.lines = lines
        self.exists = exists

    @classmethod
    def walk(cls, root: Path, known: Mapping[str, Stamp] | None = None,
             modes: tuple[int, int] | None = None) -> Stamp:
        """Stat every entry below ``root``; a top-level directory named in ``known`` takes that stamp's
        lines instead of being walked. ``modes`` (of directories, of files): set on the way where they are
        not those already (``set_mode``, as navlaw.publish's _chmod_tree sets them),
        in the same walk; a mode is not in the stamp."""
        if not root.is_dir():
            return cls(root, {}, exists=False)
        if modes is not None:
            set_mode(os.fspath(root), os.lstat(root), modes)
        lines: dict[str, str] = {}
        _walk(os.fspath(root), "", lines, dict(known or {}), modes)
        return cls(root, lines)

    def digest(self) -> str:
        """``tree_stamp``'s value: "" for a tree that does not exist."""
        if not self.exists:
            return ""
        text = "\0\n".join(f"{rel}\0{self.lines[rel]}" for rel in sorted(self.lines, key=_order))
        # a name holds no NUL, and a line's NULs are followed by digits or "other": "\0\n" only separates
        return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def set_mode(path: str, st: os.stat_result, modes: tuple[int, int]) -> None:
    """The mode ``mkdir``/``open`` give under the umask (``modes``: of a directory, of a file) set on ``path``
    (``st``: its ``lstat``) where it is not that already. A link is not followed (its target may be
    anywhere), and a file shared with another copy (a hard link to the last build's, or to someone's carried
    over) keeps its mode."""
    if stat.S_ISDIR(st.st_mode):
        if stat.S_IMODE(st.st_mode) != modes[0]:
            os.chmod(path, modes[0])
    elif stat.S_ISREG(st.st_mode) and st.st_nlink == 1 and stat.S_IMODE(st.st_mode) != modes[1]:
        os.chmod(path, modes[1])


def _walk(path: str, rel: str, out: dict[str, str], known: dict[str, Stamp],
          modes: tuple[int, int] | None = None) -> None:
    with os.scandir(path) as it:
        entries = list(it)
    for e in entries:
        if e.is_dir(follow_symlinks=False):
            inner = known.get(rel + e.name) if not rel else None
            if inner is not None:
                out.update({f"{e.name}/{r}": line for r, line in inner.lines.items()})
                continue
            if modes is not None:
                set_mode(e.path, e.stat(follow_symlinks=False), modes)
            _walk(e.path, rel + e.name + "/", out, known, modes)
        elif e.is_file(follow_symlinks=False):
            WALKED["entries"] += 1
            st = e.stat(follow_symlinks=False)
            out[rel + e.name] = f"{st.st_size}\0{st.st_mtime_ns}"
            if modes is not None:
                set_mode(e.path, st, modes)
        else:
            WALKED["entries"] += 1
            out[rel + e.name] = "other"


def written_stamps(written: Mapping[str, tuple[str, int, int]]) -> dict[str, Stamp]:
    """The stamps of the top-level directories of the files navlaw wrote, from the (digest, size, time) it
    recorded of each as it wrote it (compiler/outputs.py's write_files), without stating them again: for
    ``walk``'s ``known``. A directory must hold nothing else (OUT's data directories hold only what the build
    wrote: what a spare held besides is removed)."""
    inner: dict[str, dict[str, str]] = {}
    for name, (_, size, mtime) in written.items():
        top, sep, rest = name.partition("/")
        if sep:
            inner.setdefault(top, {})[rest] = f"{size}\0{mtime}"
    return {top: Stamp(Path(top), lines) for top, lines in inner.items()}
