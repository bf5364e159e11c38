"""No function of compiler/ is over 80 lines (issue 26, item 4): one that grows past it is split, as
``site.pages.pages`` was into a function per page type.

WAITING would list a function being split on a branch of its own (a listed one that is short enough passes);
it is empty: every function of compiler/ is within the bound."""

from __future__ import annotations

import ast

from .conftest import ROOT

COMPILER = ROOT / "compiler"
MOST = 80
WAITING: dict[tuple[str, str], str] = {}  # (file under compiler/, function) -> the branch splitting it


def long_functions(source: str, most: int = MOST) -> list[tuple[str, int, int]]:
    """(name, first line, lines) of every function or method of a module longer than ``most`` lines."""
    return [(n.name, n.lineno, n.end_lineno - n.lineno + 1) for n in ast.walk(ast.parse(source))
            if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef))
            and n.end_lineno is not None and n.end_lineno - n.lineno + 1 > most]


def test_no_function_over_80_lines() -> None:
    found = [f"compiler/{rel}:{line}: {name}() is {n} lines"
             for path in sorted(COMPILER.rglob("*.py")) if (rel := path.relative_to(COMPILER).as_posix())
             for name, line, n in long_functions(path.read_text(encoding="utf-8")) if (rel, name) not in WAITING]
    assert not found, f"functions over {MOST} lines (split them):\n" + "\n".join(found)


def test_the_count_is_of_lines() -> None:
    """The check itself: a function of 81 lines (its def, 79 statements, a return) is found, one of 80 not."""
    body = "".join(f"    x{k} = {k}\n" for k in range(79))
    assert long_functions(f"def f():\n{body}    return 0\n") == [("f", 1, 81)]
    assert long_functions(f"def f():\n{body}") == []
