"""Output files made one at a time, as they are written: a build's memory is what the law holds, not
that plus every output file at once (at 500x the corpus, OUT/akn/ alone is about 900 MB of text and the
consolidated text's tree JSON about 250 MB; held together with the tree it came from, they were most of
the build's peak memory).

``Files`` maps a file's name under OUT/ to its text, as a dict does, but a value may be given as a
function that makes it (``put``), or as one that yields it piece by piece (``stream``): the text is made
when the file is written (``pieces``) and dropped once written. Reading a value (``files[name]``) makes
it whole, as before: ``--dump outputs`` and the tests see the same texts.

A file may also be given a key (``file_keys``): a digest of everything its text is made from. A file whose key is
the one the last build wrote it under is not made at all when written (compiler/outputs.py's write_files
links the last build's copy).

``tree_json`` writes a document's tree as JSON one top-level child at a time, byte for byte the text
of ``dump(document_json(doc))``: the whole tree as one dict of dicts took several times the JSON's size.
"""

from __future__ import annotations

import dataclasses
import hashlib
from collections.abc import Callable, Iterator, MutableMapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, Union

from navlaw.model.nodes import Document
from navlaw.frontend.outline import document_json, node_json
from navlaw.export.pieces import Piece, Reusable, tree_pieces

if TYPE_CHECKING:
    from navlaw.cache import BuildCache

Made = Union[str, Callable[[], str], "Pieces", Reusable]


@dataclasses.dataclass(frozen=True)
class Pieces:
    """A file's text given as the pieces that make it, in order."""

    make: Callable[[], Iterator[str]]


class Files(MutableMapping[str, str]):
    """Name -> text, each text made when it is read or written (see the module's docstring)."""

    def __init__(self) -> None:
        self._made: dict[str, Made] = {}
        self.file_keys: dict[str, str] = {}  # name -> digest of what its text is made from (only where known)

    def put(self, name: str, make: Callable[[], str], key: str = "") -> None:
        """``name``'s text is what ``make()`` returns, called when the file is written (or read); ``key``:
        a digest of everything it is made from (with navlaw's own fingerprint), if known."""
        self._made[name] = make
        self._key(name, key)

    def stream(self, name: str, make: Callable[[], Iterator[str]], key: str = "") -> None:
        """``name``'s text is the pieces ``make()`` yields, written as they come."""
        self._made[name] = Pieces(make)
        self._key(name, key)

    def _key(self, name: str, key: str) -> None:
        if key:
            self.file_keys[name] = key
        else:
            self.file_keys.pop(name, None)

    def reuse(self, name: str, make: Callable[[], Iterator[Piece]], key: str) -> None:
        """``name``'s text is the pieces ``make()`` yields, each with its key (export/pieces.py: written, a
        piece the last build's copy holds is taken from there); ``key``: the whole file's."""
        self._made[name] = Reusable(make)
        self._key(name, key)

    def streamed(self, name: str) -> bool:
        """Whether ``name`` is given piece by piece (then written as its pieces come)."""
        return isinstance(self._made[name], (Pieces, Reusable))

    def reusable(self, name: str) -> Reusable | None:
        """``name``'s pieces with their keys, if it is given so."""
        made = self._made[name]
        return made if isinstance(made, Reusable) else None

    def pieces(self, name: str) -> Iterator[str]:
        """The text of ``name``, piece by piece (a plain value is one piece)."""
        made = self._made[name]
        if isinstance(made, Pieces):
            yield from made.make()
        elif isinstance(made, Reusable):
            yield from made.texts()
        elif isinstance(made, str):
            yield made
        else:
            yield made()

    def given(self, name: str) -> bool:
        """Whether ``name`` was given as text (held here anyway), not made when it is written."""
        return isinstance(self._made[name], str)

    def plain(self) -> dict[str, str]:
        """The files given as text (not made when written), by name."""
        return {name: made for name, made in self._made.items() if isinstance(made, str)}

    def __getitem__(self, name: str) -> str:
        made = self._made[name]
        if isinstance(made, str):  # most files: no generator to go through
            return made
        if isinstance(made, Reusable):
            return "".join(made.texts())
        return made() if not isinstance(made, Pieces) else "".join(made.make())

    def __setitem__(self, name: str, text: str) -> None:
        self._made[name] = text
        self.file_keys.pop(name, None)  # a text given anew: its key, if it has one, is given again (``file_keys``)

    def __delitem__(self, name: str) -> None:
        del self._made[name]
        self.file_keys.pop(name, None)

    def __contains__(self, name: object) -> bool:  # (Mapping's would make the text to see that it is there)
        return name in self._made

    def __iter__(self) -> Iterator[str]:
        return iter(self._made)

    def __len__(self) -> int:
        return len(self._made)


_MARK = "navlaw-streamed-children-9f1c"


def tree_json(doc: Document, dump: Callable[[Any], str]) -> Iterator[str]:
    """``dump(document_json(doc)) + "\\n"`` (``dump``: JSON indented by two), one top-level child at a time."""
    if not doc.children:
        yield dump(document_json(doc)) + "\n"
        return
    head = document_json(dataclasses.replace(doc, children=()))
    yield from listed(head, "children", (node_json(c, lambda n: doc.normal, doc.normal) for c in doc.children), dump)


def listed(head: dict[str, Any], key: str, items: Iterator[Any], dump: Callable[[Any], str]) -> Iterator[str]:
    """``dump(head) + "\\n"`` with ``head[key]`` the list of ``items``, made and written one item at a time
    (``dump``: JSON indented by two; ``head[key]`` at the top level). An item's JSON is its own dump
    indented two levels deeper: a JSON text holds no line break but those of its indentation (one in a
    string is written as \\n)."""
    first = next(items, None)
    if first is None:
        yield dump({**head, key: []}) + "\n"
        return
    text = dump({**head, key: [_MARK]})
    mark = f'"{_MARK}"'
    assert text.count(mark) == 1 and text.count(_MARK) == 1, "the mark is found once, where the items go"
    at = text.index(mark)
    yield text[:at]
    yield dump(first).replace("\n", "\n    ")
    for item in items:
        yield ",\n    " + dump(item).replace("\n", "\n    ")
    yield text[at + len(mark):] + "\n"


def write_pieces(path: Path, pieces: Iterator[str], digested: bool = True) -> tuple[str, int, int]:
    """Write the pieces to ``path`` as they come; its (digest, size, mtime) as build.write_files records
    them (cache.digest of the whole file's bytes, computed from the file once written; not ``digested``:
    no digest, "")."""
    with open(path, "wb") as f:
        for piece in pieces:
            f.write(piece.encode("utf-8"))
    size = path.stat().st_size
    if not digested:
        return "", size, path.stat().st_mtime_ns
    h = hashlib.sha256(size.to_bytes(8, "little"))  # cache.digest's length prefix, then the bytes
    with open(path, "rb") as f:
        while chunk := f.read(1 << 20):
            h.update(chunk)
    return h.hexdigest(), size, path.stat().st_mtime_ns


def put_tree(files: Files, name: str, doc: Document, dump: Callable[[Any], str], cache: BuildCache | None,
             key: str) -> None:
    """A document's tree JSON: written piece by piece; with a cache, under the document's key (the tree's:
    compiler/frontend/corpus.py), each top-level child's piece under its own (export/pieces.py)."""
    if cache is not None and key and cache.enabled:
        files.reuse(name, lambda: tree_pieces(doc, dump), key)
    else:
        files.stream(name, lambda: tree_json(doc, dump))


def put_tariffs(files: Files, tariffs: list[Any], dump: Callable[[Any], str], key: str = "") -> None:
    """tariffs.json (export/api.py's tariffs_list, stamped), written one tariff at a time; ``key``: a digest
    of every value of every tariff, the offsets of their amounts too (an edit above a tariff moves them and
    the JSON shows them), with navlaw's fingerprint: a build whose tariffs are the last build's, offsets and
    all, links the last build's copy without making the JSON (the build's Result.json_key)."""
    from navlaw.export import stamped
    from navlaw.export.api import tariffs_sorted

    files.stream("tariffs.json", lambda: listed(stamped("tariffs", {}), "tariffs", tariffs_sorted(tariffs), dump),
                 key)


def akn_later(result: Any, files: Files) -> None:
    """OUT/akn/: each section's Akoma Ntoso (``result``: the build's Result), made as it is written, or
    taken from the site's when the site made them first (``Result.akn_made``: never made here all at once)."""
    from navlaw.export import akn_path

    made_before: Callable[[], dict[str, str] | None] = result.akn_made
    before = made_before()
    if before is not None:
        files.update({f"akn/{k}": v for k, v in before.items()})
        files.file_keys.update({f"akn/{k}": v for k, v in getattr(before, "file_keys", {}).items()})
        return
    export = result.export

    def made(name: str, sec: str, day: Any) -> Callable[[], str]:
        return lambda: (made_before() or {}).get(name) or export.document(sec, day)

    for sec in result.timeline.sections():
        for day in export.dates(sec):
            name = akn_path(sec, day.isoformat())
            files.put(f"akn/{name}", made(name, sec, day))
