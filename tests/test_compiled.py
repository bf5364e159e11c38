"""The table of compiled expressions and dataclass methods (navlaw/compiled.py, issue 32): what comes out of
it is what Python compiles, entry for entry; its key holds everything the result depends on; a table that is
not this user's is not used; a pattern whose compile warns still warns."""

from __future__ import annotations

import dataclasses
import re
import warnings
from re import _compiler  # type: ignore[attr-defined]

import pytest

from navlaw import cache, compiled

PATTERNS = [
    (r"(?P<num>\d+)(?:\.(?P<frac>\d{1,2}))?\s*(dollars|cents)", 0),
    (r"(?P<num>\d+)(?:\.(?P<frac>\d{1,2}))?\s*(dollars|cents)", re.I),  # same text, other flags
    (r"(?<=[\w!\"'&.,?]) -{2,} (?=\w)", re.X),
    (r"^\s*§\s*(\d+[-a-z]*)\.", re.M | re.UNICODE),
    (r"(?i:of\s+the\s+(?:first|second|third|last))\b", 0),
    (r"[^\x00-\x7f]+|\N{EM DASH}", 0),
    (b"(\\d+)\\s*([a-z]+)", 0),  # bytes: another key than the same text as str
    (r"(\d+)\s*([a-z]+)", 0),
    (r"(a)(?P<b>b)?(?(b)c|d)", 0),  # a conditional: compiled by re each time
    (r"[[a-z]]", 0),  # "possible nested set": compiled by re each time, so it warns
]


@pytest.fixture
def table(tmp_path, monkeypatch):
    """A fresh table in a private user cache of its own; yields a function that starts another process's
    table (the file as written by the last ``kept`` block)."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(compiled, "WORTH", 0.0)  # every new entry written
    cache._user_key.cache_clear()

    def fresh() -> compiled._Table:
        t = compiled._Table()
        monkeypatch.setattr(compiled, "_TABLE", t)
        return t
    fresh()
    yield fresh
    cache._user_key.cache_clear()


def _fresh_compile(pattern: str | bytes, flags: int) -> re.Pattern[str]:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return _compiler.compile(pattern, flags)  # type: ignore[no-any-return]


def test_patterns_from_the_table_are_the_ones_re_compiles(table):
    hooked = compiled._regex(_compiler.compile)
    warnings.simplefilter("ignore", FutureWarning)  # the nested set's (pytest restores the filters)
    made = [hooked(p, f) for p, f in PATTERNS]  # the first process: every one compiled and kept
    with compiled.kept():
        pass
    written = compiled._TABLE
    assert written.new == 0 and len(written.entries) == len(PATTERNS) - 2  # the conditional and the set: not kept
    t = table()  # the next process
    again = [hooked(p, f) for p, f in PATTERNS]
    assert len(t.used) == len(PATTERNS) - 2 and t.new == 0  # all from the table
    for (p, f), a, b in zip(PATTERNS, made, again):
        want = _fresh_compile(p, f)
        # Pattern equality is CPython's: same pattern, flags and compiled code
        assert a == want and b == want, p
        assert (b.groups, b.groupindex, b.flags) == (want.groups, want.groupindex, want.flags)
    assert again[0].match("12.50 dollars").groupdict() == {"num": "12", "frac": "50"}
    assert again[1].match("12 DOLLARS") and not again[0].match("12 DOLLARS")


def test_the_key_holds_the_kind_the_flags_and_the_text():
    keys = {compiled._key(b"re-str" if isinstance(p, str) else b"re-bytes", p, int(f)) for p, f in PATTERNS}
    assert len(keys) == len(PATTERNS)
    assert compiled._key(b"dataclass", "x") != compiled._key(b"re-str", "x")
    assert compiled._key(b"re-str", "a", 2) != compiled._key(b"re-str", "a", 0)


def test_a_pattern_that_warns_warns_every_time(table):
    hooked = compiled._regex(_compiler.compile)
    for _ in range(2):
        with pytest.warns(FutureWarning, match="nested set"):
            hooked("[[a-z]]", 0)
        table()


def _make(name: str) -> type:
    return dataclasses.make_dataclass(name, [("x", int), ("y", "list[str]", dataclasses.field(default_factory=list))],
                                      frozen=True, order=True)


def test_dataclass_methods_from_the_table_are_the_ones_python_writes(table):
    plain = _make("Plain")
    with compiled.kept():
        first = _make("Plain")
    assert compiled._TABLE.new == 0 and len(compiled._TABLE.entries) >= 5  # __init__, __repr__, __eq__, ...
    assert "exec" not in vars(dataclasses)  # the block put dataclasses back as it was
    t = table()
    with compiled.kept():
        second = _make("Plain")
    assert t.new == 0 and len(t.used) >= 5  # every method from the table
    for name in ("__init__", "__repr__", "__eq__", "__lt__", "__hash__", "__setattr__", "__delattr__"):
        want = getattr(plain, name)
        for got in (getattr(first, name), getattr(second, name)):
            assert got.__code__ == want.__code__, name  # same bytecode, names, constants, file and lines
            assert got.__annotations__ == want.__annotations__, name  # no __future__ flag of navlaw's
    a, b = second(1, ["a"]), second(2)
    assert a < b and a == second(1, ["a"]) and repr(b) == "Plain(x=2, y=[])"
    with pytest.raises(dataclasses.FrozenInstanceError):
        a.x = 3  # type: ignore[misc]


def test_a_table_that_is_not_this_users_is_not_used(table, tmp_path):
    hooked = compiled._regex(_compiler.compile)
    hooked(r"(\d+) units", 0)
    with compiled.kept():
        pass
    path = tmp_path / "cache" / "navlaw" / compiled.NAME
    blob = bytearray(path.read_bytes())
    blob[-5] ^= 1  # one bit of the table changed: its seal fails
    path.write_bytes(bytes(blob))
    t = table()
    assert hooked(r"(\d+) units", 0) == _fresh_compile(r"(\d+) units", 0)
    assert t.used == {compiled._key(b"re-str", r"(\d+) units", 0)} and t.new == 1  # compiled again, not read


def test_the_table_is_written_when_what_was_new_cost_enough(table, tmp_path, monkeypatch):
    hooked = compiled._regex(_compiler.compile)
    monkeypatch.setattr(compiled, "WORTH", 60.0)
    hooked(r"(\d+) feet", 0)
    with compiled.kept():
        pass
    path = tmp_path / "cache" / "navlaw" / compiled.NAME
    assert not path.exists() and compiled._TABLE.new == 1  # a pattern's compile is not worth the write
    monkeypatch.setattr(compiled, "WORTH", 0.0)
    with compiled.kept():
        pass
    assert path.exists() and compiled._TABLE.new == 0


def test_blocks_inside_blocks_put_back_what_they_found(table):
    plain_compile = _compiler.compile
    with compiled.kept():
        outer_compile, outer_exec = _compiler.compile, vars(dataclasses)["exec"]
        with compiled.kept():
            assert _compiler.compile is not outer_compile
        assert _compiler.compile is outer_compile and vars(dataclasses)["exec"] is outer_exec
    assert _compiler.compile is plain_compile and "exec" not in vars(dataclasses)


def test_a_table_past_its_limit_keeps_what_the_last_command_used(table, monkeypatch):
    hooked = compiled._regex(_compiler.compile)
    monkeypatch.setattr(compiled, "LIMIT", 3)
    for n in range(4):
        hooked(rf"(\d+) units of {n}", 0)
    with compiled.kept():
        pass
    t = table()
    assert len(t.load()) == 4  # over the limit, but all four were used by the command that wrote it
    hooked(r"(\d+) units of 0", 0)
    hooked(r"(\d+) units of 9", 0)
    with compiled.kept():
        pass
    assert len(table().load()) == 2  # the last command's two: the others are gone
