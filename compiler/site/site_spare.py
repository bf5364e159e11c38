"""The site a build replaces, kept to start the next one from (compiler/site/mkdocs_build.py's incremental
builds): moved into the cache after the swap, made to mirror the current site at the next build (its
directories are there already), and checked to be the site the cache remembers by the same ``stat`` of
each file that mirrors it (issue 32: the check walked the site once more)."""

from __future__ import annotations

import os
import shutil
import stat
from pathlib import Path

from navlaw.cache import BuildCache, tree_stamp
from navlaw.publish import link_or_copy, umask_modes
from navlaw.stamps import WALKED, Stamp, set_mode


SPARE = "site-spare"  # in the cache: the site the last build replaced, to start the next build from


def keep_spare(old_site: Path, cache: BuildCache) -> None:
    """After a build is swapped in: keep the site it replaced (moved, not copied) in the cache."""
    if cache.root is None or not old_site.is_dir() or not cache.own_dir(SPARE):
        return
    spare = cache.root / SPARE
    shutil.rmtree(spare, ignore_errors=True)
    os.replace(old_site, spare)


def _from_spare(spare: Path, previous: Path, out: Path) -> tuple[Stamp, Stamp] | None:
    """Start the new site from the one the last build replaced (kept in the cache), made to hold
    exactly what the previous site holds: its directories are already there, so a rebuild does not
    make one directory per page again (at the scale of all the consolidated laws, the directories
    cost more than the pages rendered). Gives the stamp of the previous site and that of ``out`` as
    mirrored, its modes set (None: no spare)."""
    if not spare.is_dir():
        return None
    try:
        os.replace(spare, out)
    except OSError:
        return None
    modes = umask_modes()
    set_mode(os.fspath(out), os.lstat(out), modes)
    lines: dict[str, str] = {}
    here: dict[str, str] = {}
    _mirror(previous, out, "", (lines, here), modes)
    return Stamp(previous, lines), Stamp(out, here)


def _mirror(src: Path, dst: Path, rel: str, lines: tuple[dict[str, str], dict[str, str]],
            modes: tuple[int, int]) -> None:
    """Make ``dst`` hold what ``src`` holds and nothing else: pages (index.html) as hard links to
    ``src``'s (as _link_tree makes them), every other file a copy of its own (MkDocs may write those in
    place); a file already so is left as it is. ``lines``: ``src``'s stamp (navlaw.stamps), from the same
    ``stat``s, and ``dst``'s as mirrored; what is neither a directory nor a regular file is stamped "other"
    in ``src``'s and not mirrored. ``dst``'s modes are set as the site's stamp walk sets them (``modes``)."""
    WALKED["entries"] += _mirror_dir(os.fspath(src), os.fspath(dst), rel, lines, modes)


def _mirror_dir(src: str, dst: str, rel: str, lines: tuple[dict[str, str], dict[str, str]],
                modes: tuple[int, int]) -> int:
    """``_mirror`` of one directory (paths as strings: one scan of each side, one ``lstat`` of each file on
    each side, nothing made that is not needed); the files stated in ``src``."""
    with os.scandir(src) as it:
        want = {e.name: e for e in it}
    have: dict[str, os.DirEntry[str]] = {}
    with os.scandir(dst) as it:
        for e in it:
            w = want.get(e.name)
            if w is None or w.is_dir(follow_symlinks=False) != e.is_dir(follow_symlinks=False):
                shutil.rmtree(e.path) if e.is_dir(follow_symlinks=False) else os.unlink(e.path)
            else:
                have[e.name] = e
    stated = 0
    was, now = lines
    for name, e in want.items():
        d = dst + "/" + name
        h = have.get(name)
        if e.is_dir(follow_symlinks=False):
            if h is None:
                os.mkdir(d)  # the mode the umask gives
            else:
                set_mode(d, h.stat(follow_symlinks=False), modes)
            stated += _mirror_dir(e.path, d, rel + name + "/", lines, modes)
            continue
        st = e.stat(follow_symlinks=False)
        stated += 1
        if not stat.S_ISREG(st.st_mode):
            was[rel + name] = "other"  # the stamp differs from the one remembered: the site is not used
            continue
        was[rel + name] = now[rel + name] = f"{st.st_size}\0{st.st_mtime_ns}"
        hs = h.stat(follow_symlinks=False) if h is not None else None
        if name == "index.html":  # a link to the previous site's page: its stat (and mode: it is shared)
            if hs is not None and os.path.samestat(st, hs):
                continue
            if hs is not None:
                os.unlink(d)
            if link_or_copy(e.path, d) != d or not os.path.samestat(st, os.lstat(d)):
                _copied(d, rel + name, now, modes)  # another file system: a copy
            continue
        if (hs is not None and not os.path.samestat(st, hs) and stat.S_ISREG(hs.st_mode)
                and (hs.st_size, hs.st_mtime_ns) == (st.st_size, st.st_mtime_ns)):
            set_mode(d, hs, modes)
            continue  # the same copy as the previous site's
        if hs is not None:
            os.unlink(d)
        shutil.copy2(e.path, d)
        _copied(d, rel + name, now, modes)
    return stated


def _copied(path: str, rel: str, now: dict[str, str], modes: tuple[int, int]) -> None:
    st = os.lstat(path)
    now[rel] = f"{st.st_size}\0{st.st_mtime_ns}"
    set_mode(path, st, modes)


def _link_tree(previous: Path, out: Path) -> None:
    """Start the new site from the previous one without copying its pages: each page's HTML is a hard link
    to the previous site's file (MkDocs writes only the pages it renders, and those are unlinked first),
    and every other file — assets, the search index, the sitemap, which MkDocs may write in place — is a
    copy of its own, so the previous site stays whole until the new one replaces it. Where hard links
    are not possible (another file system), everything is copied."""
    def place(src: str, dst: str) -> object:
        return link_or_copy(src, dst) if os.path.basename(dst) == "index.html" else shutil.copy2(src, dst)

    shutil.copytree(previous, out, copy_function=place)


_NOT_REMEMBERED = "the earlier site is not the one the cache remembers"


def start_from(previous: Path, out: Path, spare: Path, stamp: str) -> tuple[str, Stamp | None]:
    """Make ``out`` the previous site to render the changed pages into, if the previous site is the one the
    cache remembers (its ``stamp``); else nothing is left in ``out`` and the reason is given. Mirrored from
    the spare, the previous site is stamped by the same ``stat`` of each file that mirrors it (no walk of its
    own), and a link or special file in it is not followed: it makes the stamp differ. Also gives the stamp
    of ``out`` as mirrored, its modes set as the stamp walk sets them (None unless made from the spare)."""
    seen = _from_spare(spare, previous, out)
    if seen is None:
        if tree_stamp(previous) != stamp:
            return _NOT_REMEMBERED, None
        _link_tree(previous, out)
        return "", None
    if seen[0].digest() != stamp:
        shutil.rmtree(out)
        return _NOT_REMEMBERED, None
    return "", seen[1]


def restamp(mirrored: Stamp, names: set[str]) -> Stamp:
    """The stamp of the site ``mirrored`` stamps (as ``start_from`` made it) after the files ``names`` (under
    it) were written or removed: those stated again (their modes set as the stamp walk sets them), the
    others as mirrored, untouched since (compiler/site/site_written.py)."""
    modes = umask_modes()
    lines = dict(mirrored.lines)
    root = os.fspath(mirrored.root)
    for rel in names:
        try:
            st = os.lstat(f"{root}/{rel}")
        except FileNotFoundError:
            lines.pop(rel, None)
            continue
        WALKED["entries"] += 1
        if stat.S_ISDIR(st.st_mode):  # a file that became a directory: not what a site build writes
            return Stamp.walk(mirrored.root, modes=modes)
        if stat.S_ISREG(st.st_mode):
            lines[rel] = f"{st.st_size}\0{st.st_mtime_ns}"
            set_mode(f"{root}/{rel}", st, modes)
        else:
            lines[rel] = "other"
    return Stamp(mirrored.root, lines)
