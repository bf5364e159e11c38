"""Comments and docstrings name code that exists (issue 26: nine comments named files that no longer did).

A path under compiler/ (``compiler/site/render.py``, ``compiler/site/render.anchor``) or a dotted name of
the package (``navlaw.model.formula.to_python``; never its old import name, ``compiler.…``) in a comment
or docstring of compiler/, tests/, benchmarks/, tools/, in a grammar's comments or in a template must name
a module of the tree as it is when the test runs, and a name the module binds: nothing here lists the
modules, so the test stays right when modules move (a move rewrites such names, as the model move did; one it missed
fails here, with its file and line)."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from functools import cache
from pathlib import Path

from .conftest import ROOT

COMPILER = ROOT / "compiler"
PACKAGE = "navlaw"  # the import name of the compiler/ folder (pyproject.toml's package-dir)

# "compiler/site/render.py", "compiler/site/render.anchor", "compiler/site" (a directory path such as a wheel's
# "compiler/_data/" is not a module: left alone)
PATH = re.compile(r"(?<![\w/.-])compiler/((?:\w+/)*\w+)(?:\.(\w+))?\b(?!/)")
# "navlaw.model.formula.to_python", "navlaw.frontend.acts.Act" (not navlaw_fees, not a path's "/navlaw.css")
DOTTED = re.compile(r"(?<![\w/.-])" + PACKAGE + r"((?:\.\w+)+)")
# the package's import name before it was navlaw, followed by a module's ("compiler.py" is a file name)
OLD = re.compile(r"(?<![\w/.-])compiler((?:\.\w+)+)")


def _python_texts(path: Path) -> list[tuple[int, str]]:
    """(line, text) of each comment and docstring (a string standing as a statement) of a Python file."""
    source = path.read_text(encoding="utf-8")
    statements = {n.value.lineno for n in ast.walk(ast.parse(source))
                  if isinstance(n, ast.Expr) and isinstance(n.value, ast.Constant) and isinstance(n.value.value, str)}
    out = []
    for tok in tokenize.generate_tokens(io.StringIO(source).readline):
        if tok.type == tokenize.COMMENT or (tok.type == tokenize.STRING and tok.start[0] in statements):
            out += [(tok.start[0] + k, line) for k, line in enumerate(tok.string.splitlines())]
    return out


def _comment_texts(path: Path, marker: str) -> list[tuple[int, str]]:
    """(line, text) of each line's comment, from ``marker`` on (a grammar's ``//``)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    return [(k, line[line.index(marker):]) for k, line in enumerate(lines, 1) if marker in line]


def _sources() -> list[tuple[Path, list[tuple[int, str]]]]:
    out = []
    for top in ("compiler", "tests", "benchmarks", "tools"):
        out += [(p, _python_texts(p)) for p in sorted((ROOT / top).rglob("*.py"))]
    out += [(p, _comment_texts(p, "//")) for p in sorted((ROOT / "grammar").glob("*.lark"))]
    # templates: Jinja's {# #} and the scripts' // comments are where they name code; their text is read whole
    out += [(p, list(enumerate(p.read_text(encoding="utf-8").splitlines(), 1)))
            for p in sorted((COMPILER / "templates").rglob("*")) if p.is_file()]
    return out


def _module_file(parts: tuple[str, ...]) -> Path | None:
    """The file of the module ``navlaw.<parts>`` in the tree now (a package's __init__.py), or None."""
    base = COMPILER.joinpath(*parts)
    for p in (base.with_suffix(".py") if parts else None, base / "__init__.py"):
        if p is not None and p.is_file():
            return p
    return None


@cache
def _bound(module: Path) -> frozenset[str]:
    """Every name a module binds at its top level: defined, assigned or imported (what ``module.X`` reads)."""
    out: set[str] = set()
    for node in ast.parse(module.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
    return frozenset(out)


def resolves(parts: tuple[str, ...]) -> bool:
    """Whether ``navlaw.<parts>`` names a module of the tree, or a name its longest module prefix binds
    (the first name after the module: ``navlaw.frontend.acts.Act.effective_of`` asks for ``Act``)."""
    for k in range(len(parts), -1, -1):
        module = _module_file(parts[:k])
        if module is not None:
            return k == len(parts) or parts[k] in _bound(module)
        if k == len(parts) and k and COMPILER.joinpath(*parts).is_dir():  # a directory of data: "navlaw.templates"
            return True
    return False


@cache
def _file_names() -> frozenset[str]:
    return frozenset(p.name for top in ("compiler", "site", "grammar") for p in (ROOT / top).rglob("*") if p.is_file())


def stale(text: str) -> list[str]:
    """The names in one line of a comment or docstring that name no code of the tree."""
    out = []
    for m in PATH.finditer(text):
        path, suffix = m.group(1), m.group(2)
        if suffix == "py":
            ok = (COMPILER / f"{path}.py").is_file()
        elif suffix is None:  # a module or a package: "compiler/site", "compiler/build"
            ok = (COMPILER / f"{path}.py").is_file() or (COMPILER / path).is_dir()
        else:  # "compiler/site/render.anchor": a name of the module; or a file, "compiler/templates/site/navlaw.css"
            ok = resolves((*path.split("/"), suffix)) or (COMPILER / f"{path}.{suffix}").is_file()
        if not ok:
            out.append(m.group(0))
    for m in DOTTED.finditer(text):
        name = m.group(0).rstrip(".")
        if name in _file_names():  # a file ("navlaw.css"), not a module
            continue
        if not resolves(tuple(name.split(".")[1:])):
            out.append(name)
    for m in OLD.finditer(text):
        first = m.group(1).split(".")[1]
        if _module_file((first,)) is not None:  # a module of the package, by its old import name
            out.append(m.group(0).rstrip("."))
    return out


def test_comments_name_code_that_exists() -> None:
    found = [f"{path.relative_to(ROOT)}:{line}: {name}" for path, texts in _sources() for line, text in texts
             for name in stale(text)]
    assert not found, "comments or docstrings name code that does not exist (any more):\n" + "\n".join(found)


def test_stale_names_are_found() -> None:
    """The check itself: the stale names issue 26 found are caught, their present names pass."""
    assert stale("(see compiler/site_build.py)") == ["compiler/site_build.py"]
    assert stale("rebuild (compiler/serve.py).") == ["compiler/serve.py"]
    assert stale(":func:`navlaw.formula.to_python` (numbers") == ["navlaw.formula.to_python"]
    assert stale("# navlaw.acts.Act: amending acts") == ["navlaw.acts.Act"]
    assert stale("an :class:`~navlaw.tariffs.Amount`") == ["navlaw.tariffs.Amount"]  # a package that lacks it
    assert stale("as compiler/site/render.anchors does") == ["compiler/site/render.anchors"]
    assert stale("(see compiler/site/mkdocs_build.py), compiler/site/render.anchor, compiler/site/") == []
    assert stale("navlaw.runtime.FeeError, navlaw.frontend.acts.Act.effective_of, navlaw.site.") == []
    assert stale("colours from navlaw.css; navlaw_fees.quote; compiler/_data/") == []
    assert stale("compiler/export/schema/akomantoso30.xsd, navlaw.templates.site") == []
    assert stale("compiler/export/schema/akomantoso31.xsd, navlaw.templates.sites") == [
        "compiler/export/schema/akomantoso31.xsd", "navlaw.templates.sites"]
    assert stale("import compiler.frontend.nodes; jinja's compiler.py") == ["compiler.frontend.nodes"]
