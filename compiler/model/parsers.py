"""How the model's two small grammars (``grammar/numbers.lark``, ``grammar/formula.lark``) become Lark
parsers, without the model importing anything else of navlaw.

The grammars are found where navlaw keeps its data (the same rule as ``navlaw.resources.path``: installed
under ``_data/``, else at the top of the checkout). A parser is made by the maker installed with
:func:`use` — ``navlaw.cache`` installs its sealed one (the grammar's analysis kept in the user cache, read
back 20-50x sooner) when it is imported, which every stage that reads law does — or, before any is
installed, by Lark directly, with the same grammar and options: the same parser, made more slowly.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

if TYPE_CHECKING:  # Lark is loaded when a parser is made: a command that parses nothing does not load it
    from lark import Lark

PACKAGE = Path(__file__).resolve().parent.parent  # the navlaw package (the compiler/ folder)


class Maker(Protocol):
    def __call__(self, name: str, grammar: str, **options: Any) -> Lark: ...


def _direct(name: str, grammar: str, **options: Any) -> Lark:
    from lark import Lark

    return Lark(grammar, parser="lalr", **options)


_maker: Maker = _direct


def use(maker: Maker) -> None:
    """Make the model's parsers with ``maker(name, grammar_text, **lark_options)`` from now on."""
    global _maker
    _maker = maker


def grammar_path(name: str) -> Path:
    """``grammar_path("numbers")``: grammar/numbers.lark as installed, else as checked out."""
    installed = PACKAGE / "_data" / "grammar" / f"{name}.lark"
    return installed if installed.exists() else PACKAGE.parent / "grammar" / f"{name}.lark"


def parser(name: str, **options: Any) -> Lark:
    """An LALR parser for grammar/<name>.lark with these Lark options."""
    return _maker(name, grammar_path(name).read_text(encoding="utf-8"), **options)
