"""Writing a build's outputs: paths checked before anything is written, one build per output at a
time, and a swap that a crash cannot leave half done.

``publish(corpus, outputs, write)`` is the whole protocol:

1. **Paths**: an output equal to, inside or containing the corpus, two outputs that are one directory
   or one inside the other the wrong way round (``--out`` inside ``--module``), or a file where an
   output directory should be, is refused before anything is written (``OutputError``). An output
   inside another (``--module build/navlaw_fees``) is written as part of the outer one.
   **Ownership**: a build replaces an existing output directory only if navlaw wrote it: it holds
   navlaw's marker (``MARKER``, the names navlaw wrote there), or is empty, or has the shape an older
   navlaw left (``Output.legacy``). Anything else (a project with ``main.py`` and ``.git/`` given as
   ``--module``) is refused, exit 2, before anything is written. An output that keeps what is not
   navlaw's (``Output.carries``: OUT carries such entries over) is refused only when it is not
   navlaw's at all; one that does not (the module) is refused when it holds anything navlaw did not
   write.
2. **Lock**: each output's parent holds ``.NAME.lock``; a second build on the same output exits with
   "another build is writing NAME" instead of racing the first.
3. **Leftovers** of a killed build (``.NAME.new-*``, ``.NAME.old-*``) are removed, and a swap a crash
   interrupted is completed first (see 5).
4. **Staging**: every output is written whole into ``.NAME.new-XXXX`` beside it; a failure (an error,
   a full or read-only disk) removes the staged directories and leaves every output as it was.
5. **Swap**: a journal (``.NAME.swap.json`` beside the first output, written atomically) lists the
   renames; then each output is renamed aside and its staged directory renamed in; then the journal
   goes. A build killed before the journal exists left the old outputs untouched; one killed after
   left a journal, and the next build (or ``recover``) finishes the renames before doing anything
   else, so the outputs are all of the old build or all of the new one — never the site of one build
   beside the module of another.

Modes of what is written follow the umask (0755/0644 under 022), not the 0700 of a temporary directory.
"""

from __future__ import annotations

import contextlib
import fnmatch
import json
import os
import shutil
import stat
import tempfile
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Iterator

from navlaw.stamps import set_mode

if TYPE_CHECKING:
    import filelock

FAULT_ENV = "NAVLAW_SWAP_FAULT"  # tests: "N" kills the build right before the swap's step N


class OutputError(Exception):
    """An output that cannot be written; ``code`` is the exit status (2 usage, 1 the machine)."""

    def __init__(self, message: str, code: int = 1):
        super().__init__(message)
        self.code = code


MARKER = ".navlaw-wrote.json"  # in each output navlaw writes: the names it wrote there
_MARKER_LIMIT = 1 << 20


@dataclass(frozen=True)
class Output:
    flag: str  # "--out", "--module": how the user named it, for messages
    path: Path  # resolved
    # an existing directory without the marker: the names an older navlaw wrote there, or None (not navlaw's)
    legacy: Callable[[Path, list[str]], frozenset[str] | None] | None = None
    carries: bool = False  # entries that are not navlaw's are carried over into the new output (OUT)
    # entries that are not navlaw's but live with its output, carried over (fnmatch patterns): the
    # *.egg-info an editable install (`pip install -e ./navlaw_fees`) writes into the module
    keeps: tuple[str, ...] = ()


def write_marker(directory: Path, names: list[str]) -> None:
    """Record in ``directory`` the names navlaw wrote there: the next build may replace them."""
    data = {"written by": "navlaw build", "names": sorted(set(names) - {MARKER})}
    (directory / MARKER).write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def marked(directory: Path) -> frozenset[str] | None:
    """The names navlaw's marker in ``directory`` says it wrote, or None (no marker, or not one navlaw
    wrote: a link, not a file, too big, not its JSON)."""
    try:
        fd = os.open(directory / MARKER, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_NOFOLLOW", 0))
    except OSError:
        return None
    with os.fdopen(fd, "rb") as f:
        if not stat.S_ISREG(os.fstat(f.fileno()).st_mode):
            return None
        raw = f.read(_MARKER_LIMIT + 1)
    try:
        data = json.loads(raw.decode("utf-8")) if len(raw) <= _MARKER_LIMIT else None
    except ValueError:
        return None
    names = data.get("names") if isinstance(data, dict) and data.get("written by") == "navlaw build" else None
    if not isinstance(names, list) or not all(isinstance(n, str) for n in names):
        return None
    return frozenset(names)


def kept(name: str, patterns: tuple[str, ...]) -> bool:
    """Whether an entry of an output is one that lives with it without being navlaw's (``Output.keeps``)."""
    return any(fnmatch.fnmatchcase(name, p) for p in patterns)


def not_navlaws(o: Output) -> list[str]:
    """The entries of the existing output directory ``o`` that a build would lose and navlaw did not
    write ([] when it does not exist, is empty, or is navlaw's). Names of directories end in "/"."""
    try:
        with os.scandir(o.path) as it:
            entries = {e.name: e.is_dir(follow_symlinks=False) for e in it}
    except (FileNotFoundError, NotADirectoryError):
        return []
    except OSError as exc:
        raise OutputError(f"{o.flag} {o.path} cannot be read ({exc.strerror or exc}), so navlaw cannot tell whether "
                          "it wrote it; nothing was changed") from None
    entries = {n: d for n, d in entries.items() if not kept(n, o.keeps)}
    if not entries:
        return []
    own = marked(o.path)
    if own is None and o.legacy is not None:
        own = o.legacy(o.path, sorted(entries))
    if own is None:
        foreign = sorted(entries)
    elif o.carries:
        return []
    else:
        foreign = sorted(n for n in entries if n not in own and n not in (MARKER, "__pycache__"))
    return [n + ("/" if entries[n] else "") for n in foreign]


def check_owned(outputs: list[Output]) -> None:
    """Refuse (exit 2) to replace an output directory that holds what navlaw did not write."""
    for o in outputs:
        foreign = not_navlaws(o)
        if foreign:
            shown = ", ".join(foreign[:8]) + (f" and {len(foreign) - 8} more" if len(foreign) > 8 else "")
            raise OutputError(f"{o.flag} {o.path} holds what navlaw did not write ({shown}); a build replaces "
                              f"{o.flag} whole, so it would delete them: choose a new or empty directory, or one a "
                              "navlaw build wrote; nothing was changed", 2)


def _inside(a: Path, b: Path) -> bool:
    """``a`` is ``b`` or below it."""
    return a == b or b in a.parents


def check_paths(corpus: Path, outputs: list[Output]) -> None:
    """Refuse, before anything is written, outputs that would overwrite the corpus or each other."""
    corpus = corpus.resolve()
    for o in outputs:
        if _inside(o.path, corpus) or _inside(corpus, o.path):
            where = "is" if o.path == corpus else "is inside" if _inside(o.path, corpus) else "contains"
            raise OutputError(f"{o.flag} {o.path} {where} the corpus {corpus}: a build replaces its outputs "
                              "whole, so it would delete the law texts; choose another directory", 2)
        if o.path.exists() and not o.path.is_dir():
            raise OutputError(f"{o.flag} {o.path} is a file, not a directory; move it or choose another {o.flag}")
        if o.path.parent == o.path:
            raise OutputError(f"{o.flag} {o.path} is the root directory", 2)
    for i, a in enumerate(outputs):
        for b in outputs[i + 1:]:
            if a.path == b.path:
                raise OutputError(f"{a.flag} and {b.flag} are both {a.path}: each output needs its own directory", 2)
            if _inside(a.path, b.path) and a.flag == "--out":
                raise OutputError(f"{a.flag} {a.path} is inside {b.flag} {b.path}; put the module elsewhere "
                                  f"(inside {a.flag} is fine)", 2)
    check_owned(outputs)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def umask_modes() -> tuple[int, int]:
    """The modes ``mkdir`` and ``open`` give under the umask: (of a directory, of a file)."""
    mask = _umask()
    return 0o777 & ~mask, 0o666 & ~mask


# Directories (by device and inode) of a staged output whose modes the writer set already, each in a walk
# it made anyway (the site's stamp: compiler/site/mkdocs_build.py; OUT's data directories, listed when the
# spare's are taken: compiler/outputs.py's write_out), as _chmod_tree would: it does not walk them again
# (issue 32: 0.05 s of an edit at 10x each). Emptied by each publish.
_MODES_SET: set[tuple[int, int]] = set()
CHMOD_STATED: Counter[str] = Counter()  # "entries" stated by _chmod_tree (tests count work, never time)


def modes_set(directory: Path) -> None:
    """Said by a writer: the modes of ``directory`` and everything below it are the umask's already."""
    st = os.lstat(directory)
    _MODES_SET.add((st.st_dev, st.st_ino))


def _chmod_tree(root: Path, mask: int) -> None:
    """Modes as ``mkdir``/``open`` would have given them under the umask. One ``lstat`` an entry; a ``chmod``
    only where the mode is not that already (most of an incremental build's output is directories and files
    it kept from the last build, whose modes are right: issue 32). A directory given to ``modes_set`` is
    not walked again."""
    modes = 0o777 & ~mask, 0o666 & ~mask
    set_mode(os.fspath(root), os.lstat(root), modes)
    _chmod_below(os.fspath(root), modes)


def _chmod_below(path: str, modes: tuple[int, int]) -> None:
    with os.scandir(path) as it:
        entries = list(it)
    for e in entries:
        CHMOD_STATED["entries"] += 1
        st = e.stat(follow_symlinks=False)
        if stat.S_ISDIR(st.st_mode) and (st.st_dev, st.st_ino) in _MODES_SET:
            continue
        set_mode(e.path, st, modes)  # the rule the site's stamp walk follows too
        if stat.S_ISDIR(st.st_mode):
            _chmod_below(e.path, modes)


@contextlib.contextmanager
def locked(outputs: list[Output]) -> Iterator[None]:
    """Hold ``.NAME.lock`` beside every output (sorted, without waiting) for the whole build."""
    # imported here: flock on POSIX, LockFileEx on Windows (no POSIX-only import), and a build with nothing
    # to do takes no lock and does not pay its import (issue 32: 13 ms of a no-change build's ~0.1 s)
    import filelock

    held: list[filelock.BaseFileLock] = []
    try:
        for o in sorted(outputs, key=lambda o: str(o.path)):
            lock = o.path.parent / f".{o.path.name}.lock"
            taker: filelock.BaseFileLock = filelock.FileLock(str(lock), timeout=0)
            try:
                o.path.parent.mkdir(parents=True, exist_ok=True)
                taker.acquire()
            except filelock.Timeout:
                raise OutputError(f"another build is writing {o.path} (it holds {lock}); "
                                  "wait for it to finish, then build again") from None
            except OSError as exc:  # a lock that cannot be made, or a link planted in its place
                raise OutputError(f"{o.flag} {o.path}: cannot take the lock {lock} ({exc.strerror or exc})") from None
            held.append(taker)
        yield
    finally:
        for taker in held:
            taker.release()  # the lock file stays (removing it would race)


def _journal(outputs: list[Output]) -> Path:
    first = outputs[0].path
    return first.parent / f".{first.name}.swap.json"


def _fault(step: int) -> None:
    if os.environ.get(FAULT_ENV) == str(step):
        os._exit(137)  # as a SIGKILL would: no clean-up, no finally


def recover(outputs: list[Output]) -> bool:
    """Finish a swap a killed build left (its journal exists), then remove every leftover of killed
    builds. True if there was a swap to finish. Call with the lock held."""
    journal = _journal(outputs)
    finished = False
    if journal.is_file():
        try:
            steps = json.loads(journal.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            steps = []
        for target, staged, aside in steps:
            t, s, a = Path(target), Path(staged), Path(aside)
            if s.is_dir():  # not swapped in yet
                if t.exists() and not a.exists():
                    os.replace(t, a)
                os.replace(s, t)
        journal.unlink()
        finished = True
    for o in outputs:
        for left in o.path.parent.glob(f".{o.path.name}.new-*"):
            remove_tree(left)
        for left in o.path.parent.glob(f".{o.path.name}.old-*"):
            remove_tree(left)
    return finished


# Directories a removal is shared out by: those a few levels down (OUT's site/law/<page>/ is the third),
# enough of them for the threads to finish about together.
_SPLIT_DEPTH = 3
_SPLIT_EACH = 64


def remove_tree(path: Path | str) -> None:
    """``shutil.rmtree(path, ignore_errors=True)``, shared out among threads (two for each of ``jobs()``).
    A removal mostly waits on the file system, not the CPU (at 10x the corpus a replaced OUT of ~30,000
    files and directories took 2.6 s, 0.7 s of it CPU; two threads 1.9 s, four 1.5 s), and it ends every
    build that replaces its outputs. The directories a few levels down are removed by the threads
    (``shutil.rmtree`` each: links in them are removed, never followed), the files above them too, then
    what is left. ``NAVLAW_JOBS=1``: one thread."""
    from navlaw.parallel import jobs

    n = jobs()
    top = str(path)
    if n >= 2 and os.path.isdir(top) and not os.path.islink(top):
        files: list[str] = []
        dirs = [top]
        for _ in range(_SPLIT_DEPTH):
            below: list[str] = []
            for d in dirs:
                try:
                    with os.scandir(d) as entries:
                        for e in entries:
                            (below if e.is_dir(follow_symlinks=False) else files).append(e.path)
                except OSError:
                    continue  # left to the last rmtree, which reports nothing either
            dirs = below
            if len(dirs) >= _SPLIT_EACH * n:
                break
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(2 * n) as pool:  # they wait more than they run
            for _ in pool.map(_remove_one, dirs + files):
                pass
    shutil.rmtree(top, ignore_errors=True)  # what is left (all of it with one thread): directories above


def _remove_one(path: str) -> None:
    try:
        if os.path.isdir(path) and not os.path.islink(path):
            shutil.rmtree(path, ignore_errors=True)
        else:
            os.unlink(path)
    except OSError:
        pass  # gone already, or left to the last rmtree


def link_or_copy(src: str, dst: str) -> str:
    """``dst`` as a hard link to ``src`` (no bytes copied), or a copy where a link cannot be made (another
    file system). Usable as shutil.copytree's copy_function."""
    try:
        os.link(src, dst)
        return dst
    except OSError:
        return str(shutil.copy2(src, dst))


def publish(corpus: Path, outputs: list[Output], write: Callable[[dict[Path, Path]], None],
            retired: Callable[[dict[Path, Path]], None] | None = None) -> None:
    """Check, lock, stage and swap: ``write`` gets each output's staging directory (an output inside
    another is a subdirectory of the outer one's) and fills it. ``retired``, once the new outputs are in
    place, gets each replaced output's old copy (output path -> where it was moved) before it is
    deleted, and may take parts of it away (the site build keeps the old site to start the next from)."""
    check_paths(corpus, outputs)
    outer = [o for o in outputs if not any(p is not o and _inside(o.path, p.path) for p in outputs)]
    with locked(outer):
        recover(outer)
        check_owned(outputs)  # again under the lock: what another process put there meanwhile
        mask = _umask()
        staged: dict[Path, Path] = {}
        _MODES_SET.clear()
        try:
            for o in outer:
                staged[o.path] = Path(tempfile.mkdtemp(prefix=f".{o.path.name}.new-", dir=o.path.parent))
            for o in outputs:
                if o.path not in staged:
                    host = next(p for p in outer if _inside(o.path, p.path))
                    staged[o.path] = staged[host.path] / o.path.relative_to(host.path)
                    staged[o.path].mkdir(parents=True, exist_ok=True)
            write(staged)
            for o in outer:
                _chmod_tree(staged[o.path], mask)
            _MODES_SET.clear()
        except BaseException:
            _MODES_SET.clear()
            for o in outer:
                if o.path in staged:
                    shutil.rmtree(staged[o.path], ignore_errors=True)
            raise
        _swap(outer, staged, retired)


def _swap(outer: list[Output], staged: dict[Path, Path],
          retired: Callable[[dict[Path, Path]], None] | None = None) -> None:
    steps = [(str(o.path), str(staged[o.path]), str(o.path.parent / f".{o.path.name}.old-{staged[o.path].name[-8:]}"))
             for o in outer]
    journal = _journal(outer)
    tmp = journal.with_name(journal.name + ".tmp")
    _fault(0)
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(steps, f)
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, journal)  # from here on the new outputs are committed: recover() finishes them
    step = 1
    for target, new, aside in steps:
        if Path(target).exists():
            _fault(step)
            os.replace(target, aside)
        step += 1
        _fault(step)
        os.replace(new, target)
        step += 1
    _fault(step)
    journal.unlink()
    if retired is not None:
        try:
            retired({Path(target): Path(aside) for target, _, aside in steps if Path(aside).is_dir()})
        except OSError:
            pass  # what it could not take is deleted with the rest
    for _, _, aside in steps:
        remove_tree(aside)
