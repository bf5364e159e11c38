"""The grammar's terminals as regular expressions, kept sealed in the user cache: what the tree builder reads
the parts of one token with (a labelled line's labels, a heading's number and mark)."""

from __future__ import annotations

import pickle

# sealed as cache.py seals Lark's parse tables (lark_parser)
from navlaw.cache import digest, kept_sealed


def lark_terminals(name: str, grammar: str) -> dict[str, str]:
    """Every terminal of ``grammar`` as a regular expression, those only used inside other terminals too
    (what a lexer-only Lark hands out: building one reads and compiles the whole grammar, ~70 ms of a
    fresh process), kept sealed in the user cache under the grammar's and Lark's digest."""
    from lark import Lark, __version__ as lark_version

    context = "lark-terminals/" + digest(name, grammar, lark_version)

    def load(data: bytes) -> dict[str, str]:
        saved = pickle.loads(data)
        if isinstance(saved, dict) and all(isinstance(k, str) and isinstance(v, str) for k, v in saved.items()):
            return saved
        raise ValueError("not a table of terminals")

    def make() -> tuple[dict[str, str], bytes]:
        lexer = Lark(grammar, parser=None, lexer="basic")
        found = {t.name: str(t.pattern.to_regexp()) for t in lexer.terminals}
        return found, pickle.dumps(found, protocol=pickle.HIGHEST_PROTOCOL)
    return kept_sealed(f"lark-{name}-terminals.sealed", context, load, make)
