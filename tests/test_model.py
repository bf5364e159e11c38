"""The model's parsers (compiler/model/parsers.py): the model imports nothing else of navlaw, so navlaw.cache
hands it the sealed parser maker; a parser made either way is the same parser, from the same grammar file."""

from __future__ import annotations

import pytest

from navlaw import cache, resources
from navlaw.model import parsers

OPTIONS = {"numbers": {"lexer": "contextual", "maybe_placeholders": False}, "formula": {"propagate_positions": False}}
SAMPLES = {"numbers": ["ten dollars and eighty-nine cents", "January first, two thousand twenty-three", "two-thirds"],
           "formula": ["$((P.U. - 500) x 1.57) + 5860", "$(11.72 x P.U.)"]}


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_the_model_finds_its_grammars_where_navlaw_keeps_its_data(name):
    assert parsers.grammar_path(name) == resources.path("grammar", f"{name}.lark")
    assert parsers.grammar_path(name).is_file()


def test_navlaw_cache_hands_the_model_its_sealed_maker():
    assert parsers._maker is cache.lark_parser  # installed when navlaw.cache was imported (above)


@pytest.mark.parametrize("name", sorted(OPTIONS))
def test_a_parser_made_directly_is_the_sealed_one(name, monkeypatch):
    """Before the cache hands over its maker the model makes the parser with Lark itself: the same trees."""
    sealed = parsers.parser(name, **OPTIONS[name])
    monkeypatch.setattr(parsers, "_maker", parsers._direct)
    direct = parsers.parser(name, **OPTIONS[name])
    assert type(direct) is type(sealed)
    for text in SAMPLES[name]:
        assert direct.parse(text) == sealed.parse(text)
