"""What Python compiles afresh in every process and keeps in none: the regular expressions and the methods
``dataclasses`` writes for each class (``__init__``, ``__eq__``, ...). A fresh `navlaw build` after a
one-word edit compiled ~510 expressions and ~100 classes' methods, ~0.13 s of its ~0.8 s of CPU (issue 32);
Python keeps a module's bytecode in ``__pycache__`` but neither of these.

While a command runs (``kept()``, around the command in navlaw.cli), ``re``'s compiler and the ``exec``
of ``dataclasses`` look each source up in a table this user's earlier navlaw processes made, kept sealed
(HMAC, as the Lark tables: navlaw.cache.seal) in the user cache beside them, under Python's own bytecode
magic and optimization level:

- an expression's entry is what ``re._compiler.compile`` hands ``_sre.compile`` for that pattern and those
  flags (the final flags, the code, the groups); the pattern object is made from it by ``_sre.compile`` as
  ``re`` makes it. A pattern whose parse can warn (a possible nested set, a group name ``re`` frowns upon)
  is compiled by ``re`` every time, so its warning is still given;
- a method's entry is the code object ``compile`` makes of the source ``dataclasses`` writes, compiled as
  ``exec`` compiles it (file ``<string>``, no inherited ``__future__`` flag).

An entry is made once, by Python, the first time a source is seen; a table that fails its seal, cannot be
read or was made by another Python is not used (every source is compiled as without it). The table keeps
what the last commands used (at most ``LIMIT`` entries), written when a command compiled enough that was new
(``WORTH``).
Only the Python whose ``re._compiler.compile`` this module follows (3.11) uses the table for expressions."""

from __future__ import annotations

import builtins
import contextlib
import dataclasses
import hashlib
import importlib.util
import marshal
import os
import re
import sys
import tempfile
import time
from typing import Any, Iterator

LIMIT = 3000  # entries kept (~3 MB, ~6 ms to load): a few commands' worth (a build uses ~1,000)
# The table is written again only when what was compiled afresh cost more CPU than that (writing it costs a few
# ms): a pattern that differs in every process (a set's order under hash randomization) does not rewrite it.
WORTH = 0.005
NAME = "compiled.sealed"
_WARNS = ("[[", "--", "&&", "~~", "||", "(?(")  # what re's parser may warn about (3.11)
_FOLLOWS_RE = sys.version_info[:2] == (3, 11)


class _Table:
    """The sealed table: a digest of each source (its kind, flags and text) -> the marshalled entry, each
    entry unmarshalled only when its source is compiled (a build uses ~1,000 of them, ~1 MB)."""

    def __init__(self) -> None:
        self.entries: dict[bytes, bytes] | None = None  # loaded on first use
        self.used: set[bytes] = set()
        self.new = 0
        self.cost = 0.0  # CPU seconds spent compiling what was new

    def context(self) -> str:
        return f"compiled/{importlib.util.MAGIC_NUMBER.hex()}/{sys.flags.optimize}/{sys.version}"

    def load(self) -> dict[bytes, bytes]:
        if self.entries is None:
            self.entries = {}
            from navlaw.cache import Unsealed, unseal, user_cache

            base = user_cache()
            try:
                if base is not None:
                    table = marshal.loads(unseal(self.context(), (base / NAME).read_bytes()))
                    if isinstance(table, dict):
                        self.entries = table
            except (OSError, Unsealed, EOFError, ValueError, TypeError):
                pass  # none yet, or not this user's or this Python's: compiled as without it
        return self.entries

    def get(self, key: bytes) -> Any:
        found = self.load().get(key)
        if found is None:
            return None
        try:
            value = marshal.loads(found)
        except (EOFError, ValueError, TypeError):
            return None  # not an entry this module wrote: compiled afresh
        self.used.add(key)
        return value

    def put(self, key: bytes, value: Any, cost: float) -> None:
        self.load()[key] = marshal.dumps(value)
        self.used.add(key)
        self.new += 1
        self.cost += cost

    def save(self) -> None:
        if not self.new or self.entries is None or self.cost < WORTH:
            return
        from navlaw.cache import Unsealed, seal, user_cache

        keep = self.entries if len(self.entries) <= LIMIT else {k: self.entries[k] for k in self.used}
        base = user_cache()
        if base is None:
            return
        fd, tmp = tempfile.mkstemp(dir=base, prefix=".tmp-")
        try:
            with os.fdopen(fd, "wb") as f:
                f.write(seal(self.context(), marshal.dumps(keep)))
            os.replace(tmp, base / NAME)  # readers see the old table or the new one, never half of one
        except (OSError, Unsealed, ValueError):
            pass  # not kept: the next process compiles them again
        finally:
            if os.path.exists(tmp):
                os.unlink(tmp)
        self.new, self.cost = 0, 0.0


def _key(kind: bytes, text: str | bytes, flags: int = 0) -> bytes:
    data = text.encode("utf-8", "surrogatepass") if isinstance(text, str) else text
    return hashlib.blake2b(b"%s\0%d\0%s" % (kind, flags, data), digest_size=16).digest()


_TABLE = _Table()


def _regex(compile_: Any) -> Any:
    """``re._compiler.compile`` through the table (``compile_`` is the original)."""
    from re import _compiler, _parser  # type: ignore[attr-defined]
    import _sre  # type: ignore[import-not-found]

    def compiled(p: Any, flags: int = 0) -> Any:
        kind = type(p)
        if (kind is not str and kind is not bytes) or flags & re.DEBUG or any(
                (w if kind is str else w.encode()) in p for w in _WARNS) or (kind is bytes and b"(?P" in p):
            return compile_(p, flags)
        key = _key(b"re-str" if kind is str else b"re-bytes", p, int(flags))
        found = _TABLE.get(key)
        if found is None:
            began = time.process_time()
            parsed = _parser.parse(p, flags)  # as re._compiler.compile does, keeping what it hands _sre
            code = _compiler._code(parsed, flags)
            groupindex = dict(parsed.state.groupdict)
            indexgroup: list[str | None] = [None] * parsed.state.groups
            for k, i in groupindex.items():
                indexgroup[i] = k
            found = (int(flags | parsed.state.flags), [int(c) for c in code], parsed.state.groups - 1, groupindex,
                     tuple(indexgroup))
            _TABLE.put(key, found, time.process_time() - began)
        final, code, groups, groupindex, indexgroup = found
        return _sre.compile(p, final, code, groups, groupindex, indexgroup)
    return compiled


def _exec(source: Any, globals_: Any = None, locals_: Any = None, /) -> Any:
    """``exec`` for dataclasses: the code of a source it wrote, from the table."""
    if type(source) is str:
        key = _key(b"dataclass", source)
        code = _TABLE.get(key)
        if code is None:
            began = time.process_time()
            code = compile(source, "<string>", "exec", dont_inherit=True)
            _TABLE.put(key, code, time.process_time() - began)
        source = code
    return builtins.exec(source, globals_, locals_)


@contextlib.contextmanager
def kept() -> Iterator[None]:
    """Compile through the table while the block runs; keep what was new for the next process."""
    from re import _compiler  # type: ignore[attr-defined]

    _TABLE.load()  # before the hooks: loading it imports navlaw.cache, which compiles
    original = _compiler.compile
    before = vars(dataclasses).get("exec")  # another block's, when this one runs inside it
    if _FOLLOWS_RE:
        _compiler.compile = _regex(original)
    dataclasses.exec = _exec  # type: ignore[attr-defined]  # the module's name for it before the builtin's
    try:
        yield
    finally:
        _compiler.compile = original
        if before is None:
            del dataclasses.exec  # type: ignore[attr-defined]
        else:
            dataclasses.exec = before  # type: ignore[attr-defined]
        _TABLE.save()
