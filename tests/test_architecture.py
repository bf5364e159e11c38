"""The architecture (issue 14): stage packages whose imports point down the pipeline only, no import
cycle among the modules of compiler/, modules of readable size, and no section number or provision id
of the corpus in the compiler's code."""

from __future__ import annotations

import ast
from pathlib import Path

from .conftest import ROOT

COMPILER = ROOT / "compiler"
# The pipeline, bottom up: a module may import from its own layer or one below it, never above.
LAYERS = [
    {"compiler.diagnostics", "compiler.cache", "compiler.resources", "compiler.runtime", "compiler.publish",
     "compiler.escape"},
    {"compiler.frontend"},
    {"compiler.law"},
    {"compiler.tariffs"},
    {"compiler.fees"},
    {"compiler.report"},
    {"compiler.site"},
    {"compiler.build"},
    {"compiler.cli", "compiler.__main__"},
]


def _module(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _layer(module: str) -> int:
    for i, names in enumerate(LAYERS):
        if any(module == n or module.startswith(n + ".") for n in names):
            return i
    raise AssertionError(f"{module} belongs to no layer of the pipeline: add it to a stage package")


def _imports(path: Path) -> set[str]:
    """Every compiler module this file imports, at the top or inside a function."""
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("compiler"):
            assert node.level == 0, f"{path}: relative import"
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                out.add(full if (COMPILER / Path(*full.split(".")[1:])).with_suffix(".py").exists()
                        or (COMPILER / Path(*full.split(".")[1:]) / "__init__.py").exists() else node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.startswith("compiler"))
    return out


def _graph() -> dict[str, set[str]]:
    return {_module(p): _imports(p) for p in sorted(COMPILER.rglob("*.py"))}


def test_imports_point_down_the_pipeline():
    wrong = [f"{m} imports {t}" for m, targets in _graph().items() for t in targets if _layer(t) > _layer(m)]
    assert wrong == []


def test_no_import_cycle_inside_compiler():
    graph = {m: {t for t in ts if t != m} for m, ts in _graph().items()}
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> None:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if t.startswith(m + "."):
                continue  # a package's __init__ re-exporting its own modules
            if state.get(t) == 1:
                raise AssertionError("import cycle: " + " -> ".join(stack[stack.index(t):] + [t]))
            if t not in state:
                visit(t)
        stack.pop()
        state[m] = 2

    for m in sorted(graph):
        if m not in state:
            visit(m)


def test_a_cycle_is_caught(tmp_path):
    """The cycle finder itself: two modules importing each other are reported."""
    graph = {"a": {"b"}, "b": {"a"}}
    seen: list[str] = []

    def visit(m: str, path: list[str]) -> None:
        for t in graph[m]:
            if t in path:
                seen.append(" -> ".join(path + [t]))
                return
            visit(t, path + [t])

    visit("a", ["a"])
    assert seen == ["a -> b -> a"]


def test_every_stage_has_its_package():
    for pkg in ("frontend", "law", "tariffs", "fees", "report", "site"):
        assert (COMPILER / pkg / "__init__.py").is_file(), pkg
        doc = ast.get_docstring(ast.parse((COMPILER / pkg / "__init__.py").read_text(encoding="utf-8")))
        assert doc, f"compiler/{pkg}/__init__.py says what the stage produces"


def test_modules_stay_readable():
    long = {str(p.relative_to(ROOT)): n for p in COMPILER.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert long == {}
