"""The site's data files (api/sections/, akn/) made only when what they are made from changed (issue 32:
after a one-word edit of one section of the large document at 10x, every section's JSON and Akoma Ntoso was
made again, in a forked process, ~0.25 s of CPU).

A ``Memo`` maps a digest of everything a file is made from (its *key*, which the caller gives as text) to the
file's text, for the files of the last build *of this process* (``navlaw serve``, which builds again after
each save): the texts are in memory already, nothing is stored. The files are made in a forked process
(compiler/parallel.py), so the memo of the next build is set here, in the building process, from what that
process sent back (``remember``): the files' texts, and their keys (``Keyed.file_keys``). Those keys also
name OUT's copies of the files (compiler/outputs.py's write_files: a file recorded under the same key is a
link to the last build's copy, not encoded and digested again).

A memo is of one build cache (a process building two corpora keeps each one's apart) and holds one build's
files: it does not grow edit after edit. A process's first build keeps no API files (their keys cost about a
third of the files, a loss for a one-off build): only from its second build on are they keyed and kept."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Callable, Mapping

from navlaw.cache import digest

if TYPE_CHECKING:
    from navlaw.cache import BuildCache

# The files to make (by their names under the site, "api/..." and "akn/..."), each with what makes it: a build
# whose memos are held keys every file first (here) and makes those whose key is new afterwards, in this
# process or in another when there are enough of them (compiler/build.py's site_pages, compiler/parallel.py)
Todo = dict[str, Callable[[], str]]

# kind ("api", "akn") -> (the cache's directory, key -> text): the last build's files, in this process
_LAST: dict[str, tuple[Path, dict[str, str]]] = {}


class Keyed(dict[str, str]):
    """Name -> text, with ``file_keys``: name -> the key of what the text is made from (where known)."""

    def __init__(self, *args: object, **kwargs: str) -> None:
        super().__init__(*args, **kwargs)
        self.file_keys: dict[str, str] = {}


def last(kind: str, cache: BuildCache | None) -> dict[str, str] | None:
    """The texts of this process's last build of ``cache``'s ``kind`` files, by key (None: none kept)."""
    if cache is None or cache.root is None:
        return None
    held = _LAST.get(kind)
    return held[1] if held is not None and held[0] == cache.root else None


class Memo:
    """The files of one kind in one build: ``text`` gives a file's text, made or taken from the last build's."""

    def __init__(self, kind: str, cache: BuildCache | None, todo: Todo | None = None) -> None:
        self.kind, self.cache, self.todo = kind, cache, todo
        self.old = last(kind, cache) or {}
        self.file_keys: dict[str, str] = {}  # name -> key, this build's

    def text(self, name: str, inputs: str | bytes, make: Callable[[], str]) -> str:
        """``name``'s text: the last build's text of a file made from ``inputs``, or else ``make()``'s (with a
        ``todo``: "" for now, and ``make`` put in ``todo`` under the file's name under the site)."""
        key = self.file_keys[name] = digest(self.kind, inputs)
        text = self.old.get(key)
        if text is None:
            text = make_or_defer(self.todo, f"{self.kind}/{name}", make)
            self._count("made")
        else:
            self._count("reused")
        return text

    def _count(self, what: str) -> None:
        if self.cache is not None:
            self.cache.stats[f"{self.kind} {what}"] += 1


def make_or_defer(todo: Todo | None, name: str, make: Callable[[], str]) -> str:
    """``make()``, or with a ``todo``: "" for now, ``make`` put in ``todo`` under ``name`` (``made_of`` makes it)."""
    if todo is None:
        return make()
    todo[name] = make
    return ""


def held(cache: BuildCache | None) -> bool:
    """Whether this process holds the last build's data files of ``cache`` (both kinds): then a build keys
    every file and makes only those whose key is new (``Todo``)."""
    return last("api", cache) is not None and last("akn", cache) is not None


def made_of(todo: Todo) -> dict[str, str]:
    """The texts of the files ``todo`` holds the making of, made in its order."""
    return {name: make() for name, make in todo.items()}


def filled(keyed: Keyed, made: Mapping[str, str]) -> Keyed:
    """``keyed`` (made with a ``Todo``: "" for each file it held) with the texts ``made_of`` made."""
    keyed.update(made)
    return keyed


def data_later(files: Callable[[Todo | None], Keyed], sections: int, cache: BuildCache | None) -> Callable[[], Keyed]:
    """The site's data files (``files``: with a ``Todo`` or None), made in another process while the caller goes on
    when there is enough of it to make (compiler/parallel.py); the returned function waits for them. While
    this process holds the last build's files, every file is keyed here first and the work is the files whose
    key is new; else it is every section's files (``sections``)."""
    from navlaw.parallel import later, worth

    if not held(cache):
        whole = later("data files", lambda: files(None), worth(sections), cache)
        return whole.result
    todo: Todo = {}
    keyed = files(todo)
    rest = later("data files", lambda: made_of(todo), worth(len(todo)), cache)
    return lambda: filled(keyed, rest.result())


def remember(cache: BuildCache | None, made: Mapping[str, str]) -> None:
    """After a build's data files were made (here or in a forked process): those with a key (``made``: a
    ``Keyed``, names under the site, "api/..." and "akn/...") are the memo of this process's next build, which
    has one (if empty) and so keys its files."""
    keys: dict[str, str] = getattr(made, "file_keys", {})
    if cache is None or cache.root is None:
        return
    for kind in ("api", "akn"):
        _LAST[kind] = (cache.root, {k: made[name] for name, k in keys.items() if name.startswith(kind + "/")})


def akn_of(made: Keyed) -> Keyed:
    """The Akoma Ntoso files of the site's data (``site_data``), with their keys, by their names under akn/."""
    out = Keyed({k[4:]: v for k, v in made.items() if k.startswith("akn/")})
    out.file_keys = {k[4:]: v for k, v in made.file_keys.items() if k.startswith("akn/")}
    return out


def with_data(pages: dict[str, str], made: Keyed) -> Keyed:
    """The site's files: its pages, then its data files (``made``), with the data files' keys."""
    out = Keyed(pages)
    out.update(made)
    out.file_keys = dict(made.file_keys)
    return out
