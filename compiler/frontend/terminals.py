"""The grammar's terminals as regular expressions, kept sealed in the user cache: what the tree builder reads
the parts of one token with (a labelled line's labels, a heading's number and mark)."""

from __future__ import annotations

import os
import pickle
import tempfile
from pathlib import Path

# sealed as cache.py seals Lark's parse tables (lark_parser)
from navlaw.cache import Unsealed, digest, seal, unseal, user_cache


def _write_atomic(path: Path, data: bytes) -> None:
    """Readers see the old file or the new one, never half of one."""
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def lark_terminals(name: str, grammar: str) -> dict[str, str]:
    """Every terminal of ``grammar`` as a regular expression, those only used inside other terminals too
    (what a lexer-only Lark hands out: building one reads and compiles the whole grammar, ~70 ms of a
    fresh process), kept sealed in the user cache under the grammar's and Lark's digest."""
    from lark import Lark, __version__ as lark_version

    context = "lark-terminals/" + digest(name, grammar, lark_version)
    base = user_cache()
    path = base / f"lark-{name}-terminals.sealed" if base is not None else None
    if path is not None and path.is_file():
        try:
            saved = pickle.loads(unseal(context, path.read_bytes()))
            if isinstance(saved, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in saved.items()):
                return saved
        except Exception:  # stale, damaged or not ours: made afresh below
            pass
    lexer = Lark(grammar, parser=None, lexer="basic")
    found = {t.name: str(t.pattern.to_regexp()) for t in lexer.terminals}
    if path is not None:
        try:
            _write_atomic(path, seal(context, pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL)))
        except (OSError, Unsealed):
            pass  # no cache: the next process reads the grammar again
    return found
