"""The architecture (issue 14): stage packages whose imports point down the pipeline only, no import
cycle among the modules of compiler/, modules of readable size, and no section number or provision id
of the corpus in the compiler's code."""

from __future__ import annotations

import ast
import re
from decimal import Decimal
from pathlib import Path

import pytest

from .conftest import ROOT

COMPILER = ROOT / "compiler"
# The pipeline, bottom up: a module may import from its own layer or one below it, never above.
LAYERS = [
    {"navlaw.model"},  # the types every stage shares; imports nothing else of navlaw (test below)
    {"navlaw.diagnostics", "navlaw.cache", "navlaw.sealed", "navlaw.resources", "navlaw.versions", "navlaw.compiled", "navlaw.runtime", "navlaw.publish", "navlaw.collect",
     "navlaw.escape", "navlaw.trace", "navlaw.stages", "navlaw.parallel", "navlaw.stamps"},  # stages: the names of --dump STAGE, for the command line
    {"navlaw.frontend"},
    {"navlaw.law"},
    {"navlaw.tariffs"},
    {"navlaw.fees"},
    {"navlaw.report"},
    {"navlaw.export"},  # Akoma Ntoso and the JSON API: the law and the reports as data
    {"navlaw.site"},
    {"navlaw.build", "navlaw.outputs", "navlaw.dumps"},  # the pipeline and what it writes where
    {"navlaw.cli", "navlaw.__main__", "navlaw.progress", "navlaw.argtypes"},  # the command line and what it shows
]


PACKAGE = "navlaw"  # the import name the compiler/ folder is installed as (pyproject.toml's package-dir)


def _module(path: Path) -> str:
    rel = path.relative_to(COMPILER).with_suffix("")
    parts = [PACKAGE, *rel.parts]
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
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == PACKAGE:
            assert node.level == 0, f"{path}: relative import"
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                out.add(full if (COMPILER / Path(*full.split(".")[1:])).with_suffix(".py").exists()
                        or (COMPILER / Path(*full.split(".")[1:]) / "__init__.py").exists() else node.module)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names if a.name.split(".")[0] == PACKAGE)
    return out


def _graph() -> dict[str, set[str]]:
    return {_module(p): _imports(p) for p in sorted(COMPILER.rglob("*.py"))}


def test_imports_point_down_the_pipeline():
    wrong = [f"{m} imports {t}" for m, targets in _graph().items() for t in targets if _layer(t) > _layer(m)]
    assert wrong == []


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """A cycle of the import graph as a path ("a -> b -> a"), or [] (a package's __init__ importing its
    own modules is not one)."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(m: str) -> list[str]:
        state[m] = 1
        stack.append(m)
        for t in sorted(graph.get(m, ())):
            if t == m or t.startswith(m + "."):
                continue
            if state.get(t) == 1:
                return stack[stack.index(t):] + [t]
            if t not in state:
                found = visit(t)
                if found:
                    return found
        stack.pop()
        state[m] = 2
        return []

    for m in sorted(graph):
        if m not in state:
            found = visit(m)
            if found:
                return found
    return []


def test_no_import_cycle_inside_compiler():
    assert find_cycle(_graph()) == []


def test_a_cycle_is_caught():
    """The finder itself: the cycle that existed (acts -> versions -> extract_tariffs -> frontend -> acts)
    is reported, and a package importing its own modules is not."""
    graph = {"acts": {"versions"}, "versions": {"extract_tariffs"}, "extract_tariffs": {"frontend"},
             "frontend": {"acts"}, "pkg": {"pkg.mod"}, "pkg.mod": set()}
    assert find_cycle(graph) == ["acts", "versions", "extract_tariffs", "frontend", "acts"]
    assert find_cycle({"pkg": {"pkg.mod"}, "pkg.mod": set()}) == []


# ---- the model: the types every stage shares, below every stage (issue 26) -----------------------------

def _stage(module: str) -> str:
    """A stage is a top-level package or module of navlaw: navlaw.frontend, navlaw.model, navlaw.cache …"""
    return ".".join(module.split(".")[:2])


def test_the_model_imports_nothing_else_of_navlaw():
    """navlaw.model sits below every stage: it imports its own modules, the standard library and lark."""
    import sys

    assert ast.get_docstring(ast.parse((COMPILER / "model" / "__init__.py").read_text(encoding="utf-8")))
    wrong = [f"{m} imports {t}" for m, targets in _graph().items() if _stage(m) == "navlaw.model"
             for t in targets if _stage(t) != "navlaw.model"]
    assert wrong == []
    outside = {f"{p.relative_to(ROOT)} imports {top}" for p in (COMPILER / "model").rglob("*.py")
               for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
               for top in ([a.name.split(".")[0] for a in node.names] if isinstance(node, ast.Import) else
                           [node.module.split(".")[0]] if isinstance(node, ast.ImportFrom) and node.module else [])
               if top not in sys.stdlib_module_names and top not in (PACKAGE, "lark")}
    assert outside == set()


def private_imports(module: str, source: str) -> list[str]:
    """Another stage's private names this module reads: ``from <another stage> import _name``, or ``y._name`` of a
    module of another stage it imported (a stage's own modules share their private names)."""
    tree = ast.parse(source)
    found, aliases = [], {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.split(".")[0] == PACKAGE:
            for a in node.names:
                full = f"{node.module}.{a.name}"
                if _stage(full) != _stage(module):
                    if a.name.startswith("_") and not a.name.startswith("__"):
                        found.append(f"{module} imports {full}")
                    aliases[a.asname or a.name] = full
        elif isinstance(node, ast.Import):
            aliases.update({a.asname: a.name for a in node.names if a.asname and _stage(a.name) != _stage(module)
                            and a.name.split(".")[0] == PACKAGE})
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and node.attr.startswith("_") and not node.attr.startswith("__")):
            found.append(f"{module} reads {aliases[node.value.id]}.{node.attr}")
    return found


def test_no_stage_imports_another_stages_private_names():
    found = [hit for p in sorted(COMPILER.rglob("*.py"))
             for hit in private_imports(_module(p), p.read_text(encoding="utf-8"))]
    assert found == []


def test_a_private_import_is_caught():
    src = ("from navlaw.law.references import _DIGIT_REF, section_number\nfrom navlaw.frontend import labels as L\n"
           "from navlaw.site.render import _local\nx = L._LABEL\n")
    assert private_imports("navlaw.site.pages", src) == ["navlaw.site.pages imports navlaw.law.references._DIGIT_REF",
                                                         "navlaw.site.pages reads navlaw.frontend.labels._LABEL"]
    assert private_imports("navlaw.law.amend", "from navlaw.law.references import _DIGIT_REF\n") == []


def _bound_from_the_model(source: str) -> set[str]:
    """The names a module binds at its top level by importing them from navlaw.model (and does not redefine)."""
    names: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, ast.ImportFrom) and node.module and _stage(node.module) == f"{PACKAGE}.model":
            names.update(a.asname or a.name for a in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.discard(node.name)
        elif isinstance(node, ast.Assign):
            names.difference_update(t.id for t in node.targets if isinstance(t, ast.Name))
    return names




def test_shared_types_are_imported_from_the_model():
    """A stage takes a shared type from navlaw.model, never through another module that imported it there
    (``from navlaw.frontend.normalize import NormalText``); and no stage keeps the modules that moved."""
    modules = {_module(p): p for p in sorted(COMPILER.rglob("*.py"))}
    via = {m: _bound_from_the_model(p.read_text(encoding="utf-8")) for m, p in modules.items()
           if _stage(m) != f"{PACKAGE}.model"}
    found = [f"{m} imports {a.name} from {node.module}" for m, p in modules.items()
             for node in ast.walk(ast.parse(p.read_text(encoding="utf-8")))
             if isinstance(node, ast.ImportFrom) and node.module in via
             for a in node.names if a.name in via[node.module]]
    assert found == []
    for stage, name in (("frontend", "nodes"), ("frontend", "codes"), ("frontend", "numbers"), ("tariffs", "formula"),
                        ("tariffs", "model")):
        assert not (COMPILER / stage / f"{name}.py").exists(), f"{stage}/{name}.py is the model's now"


def test_every_stage_has_its_package():
    for pkg in ("frontend", "law", "tariffs", "fees", "report", "export", "site"):
        assert (COMPILER / pkg / "__init__.py").is_file(), pkg
        doc = ast.get_docstring(ast.parse((COMPILER / pkg / "__init__.py").read_text(encoding="utf-8")))
        assert doc, f"compiler/{pkg}/__init__.py says what the stage produces"


def test_modules_stay_readable():
    long = {str(p.relative_to(ROOT)): n for p in COMPILER.rglob("*.py")
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert long == {}


# ---- routes are data: a new route needs a manifest entry and the law text, no code ------------------

NEW_SECTIONS = """§ 300. Pilotage on Lake Champlain; rates.
1. Every foreign vessel navigating Lake Champlain shall take a licensed pilot.
2. (a) From January first, two thousand twenty-five until January first, two thousand twenty-six all vessels shall pay four dollars and ten cents per pilotage unit; from January first, two thousand twenty-six all vessels shall pay four dollars and fifty cents per pilotage unit.
(b) A minimum charge calculated on fifty pilotage units and a maximum charge calculated on six hundred pilotage units shall apply.
§ 301. Pilotage on the Niagara River; rates.
1. Effective January first, two thousand twenty-five, the pilotage fee shall be calculated pursuant to the following table:
PILOTAGE UNITS (P.U.) | TARIFF |
0 to 99.99 | $500 |
100 and up | $(P.U. x 5.25) |
"""

NEW_ROUTES = """
[[document]]
file = "lakes.txt"
kind = "section-text"
covers = ["300", "301"]
status = "in-force"
source = "a test text: two sections pricing two new routes"
confidence = "verified"

[[route]]
id = "lake-champlain"
name = "Lake Champlain (§ 300)"
title = "Lake Champlain pilotage"
sections = ["300"]

[[route]]
id = "niagara-river"
name = "Niagara River (§ 301)"
title = "Niagara River pilotage"
sections = ["301"]
"""


def test_two_new_routes_declared_in_the_manifest_are_quoted_with_no_change_to_navlaw(tmp_path):
    import datetime as dt
    import shutil
    import sys

    from navlaw.cli import main
    from .conftest import CORPUS, load_module

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    (corpus / "lakes.txt").write_text(NEW_SECTIONS, encoding="utf-8")
    with (corpus / "manifest.toml").open("a", encoding="utf-8") as f:
        f.write(NEW_ROUTES)
    assert main(["build", "--corpus", str(corpus), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "lakes_fees"),
                 "--no-site", "--no-cache"]) == 0
    try:
        nf = load_module(tmp_path / "lakes_fees", "lakes_fees")
        assert nf.ROUTES[-2:] == ("lake-champlain", "niagara-river")
        # § 300(2)(a): rates in words with calendar periods; (b) clamps the units to [50, 600]
        q = nf.quote("lake-champlain", units=300, on=dt.date(2025, 6, 1))
        assert q.total == Decimal("1230.00") and q.lines[0].citation == "Nav. Law § 300(2)(a)"  # 300 × $4.10
        assert nf.quote("lake-champlain", units=300, on=dt.date(2026, 6, 1)).total == Decimal("1350.00")  # 300 × $4.50
        assert nf.quote("lake-champlain", units=20, on=dt.date(2026, 6, 1)).total == Decimal("225.00")  # 50 × $4.50
        assert nf.quote("lake-champlain", units=900, on=dt.date(2026, 6, 1)).total == Decimal("2700.00")  # 600 × $4.50
        # § 301(1): a units/tariff table, effective 2025-01-01
        assert nf.quote("niagara-river", units=50, on=dt.date(2025, 6, 1)).total == Decimal("500.00")
        q = nf.quote("niagara-river", units=300, on=dt.date(2025, 6, 1))
        assert q.total == Decimal("1575.00") and q.lines[0].citation == "Nav. Law § 301(1)"  # 300 × $5.25
        with pytest.raises(nf.FeeError, match="can be established for 2024-06-01"):
            nf.quote("niagara-river", units=50, on=dt.date(2024, 6, 1))
        # and the existing routes are as before
        assert nf.quote("long-island-sound", units=350, on=dt.date(2026, 6, 1)).total == Decimal("3811.50")
    finally:
        sys.modules.pop("lakes_fees", None)


def test_no_section_number_or_provision_id_of_the_corpus_in_compiler_code():
    """What is special about a section is data in the manifest; comments and docstrings may cite."""
    import io
    import tokenize

    pattern = re.compile(r"(?<![\w.])(?:8[89](?:-[ab])?|89-[ab]|55\.2|21nycrr)(?![\w.])")
    found = []
    for path in sorted(COMPILER.rglob("*.py")):
        tokens = tokenize.generate_tokens(io.StringIO(path.read_text(encoding="utf-8")).readline)
        prev = None
        for tok in tokens:
            docstring = tok.type == tokenize.STRING and (prev is None or prev.type in (tokenize.INDENT, tokenize.NEWLINE,
                                                                                         tokenize.DEDENT, tokenize.NL))
            if tok.type == tokenize.STRING and not docstring and pattern.search(tok.string):
                found.append(f"{path.relative_to(ROOT)}:{tok.start[0]}: {tok.string[:80]}")
            if tok.type not in (tokenize.COMMENT, tokenize.NL):
                prev = tok
    assert found == []


def test_every_benchmark_imports():
    """The benchmarks are not run by the tests, but they must not rot: each imports what exists."""
    import importlib.util
    import sys

    bench = ROOT / "benchmarks"
    sys.path.insert(0, str(bench))
    try:
        for path in sorted(bench.glob("*.py")):
            spec = importlib.util.spec_from_file_location(f"bench_{path.stem}", path)
            assert spec is not None and spec.loader is not None
            spec.loader.exec_module(importlib.util.module_from_spec(spec))  # defines, runs nothing: main() is guarded
    finally:
        sys.path.remove(str(bench))


# ---- the corpus's names are data: no route, family, option, schedule or code name in compiler/ -------
#
# Read from the corpus at test time (corpus/manifest.toml and the committed navlaw_fees), never listed
# here. What counts as a use: a string literal of compiler/'s Python (docstrings excepted: they are
# documentation, and cite the corpus as examples, as comments do) and the text of compiler/templates/
# (comments excepted: ``//``, ``/* */``, ``{# #}`` and ``#`` lines). A name of several words (a route
# id, "second_pilot", "Nav. Law") is found anywhere in a literal; a one-word name ("hudson", "docking")
# only as the whole literal, or its "name=choice" form, or quoted in a template. The table of codes
# (model/codes.py's LAWS: every New York code, the corpus's among them) is the one place that names codes.

# names that a later step of issue 26 removes, each with the engineer's branch that owns the file; the
# test fails when one is no longer found, so that this list only shrinks
PENDING: set[tuple[str, str]] = set()  # (file, name) a branch is removing: none


def corpus_names() -> tuple[set[str], set[str]]:
    """(names of several words, names of one word) the corpus declares: every route id and family,
    every option, every schedule id of the fee module, and the code (name, citation, LBDC key) of
    every law and regulation the manifest names."""
    import json
    import sys
    import tomllib

    from navlaw.model import codes
    from navlaw.frontend.options import KINDS
    from .conftest import CORPUS, load_module

    manifest = tomllib.loads((CORPUS / "manifest.toml").read_text(encoding="utf-8"))
    api = json.loads((ROOT / "navlaw_fees" / "api.json").read_text(encoding="utf-8"))
    routes = manifest.get("route", [])
    names = {r["id"] for r in routes} | {r["family"] for r in routes if r.get("family")} | set(api["routes"])
    options = ({o["name"] for o in manifest.get("option", [])}
               | {v.split("=")[0] for d in manifest["document"] for v in d.get("options", {}).values()}
               | {o for r in api["routes"].values() for o in r["options"]})
    names |= options - set(KINDS)  # "miles" is also a kind of option (navlaw_fees.option_forms): navlaw's word
    nf = load_module(ROOT / "navlaw_fees", "arch_fees")
    try:
        names |= {s["id"] for r in nf.ROUTES for s in nf.schedules(r)}
    finally:
        sys.modules.pop("arch_fees", None)
    laws = {manifest.get("law", "")} | {d.get("law", "") for d in manifest["document"]}
    laws |= {c.split("/")[0] for d in manifest["document"] for c in d.get("covers", []) if "nycrr" in c}
    for law in filter(None, laws):
        law = re.sub(r"^(\d+)nycrr$", r"\1 NYCRR", law)
        names.add(law)
        code, table = codes.code_for(law), codes.lookup(law)
        names |= {code.cite} if code is not None and code.cite else set()
        names |= {table.name, table.cite, table.key} if table is not None else set()
    several = {n for n in names if re.search(r"[-_ .]", n)}
    return several, names - several


def _literal_uses(text: str, several: set[str], one: set[str]) -> list[str]:
    found = [n for n in several if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", text, re.I)]
    return found + [n for n in one if re.fullmatch(rf"{re.escape(n)}(?:=[\w-]*)?", text.strip())]


def _python_literals(path: Path) -> list[tuple[int, str]]:
    """Every string constant of a module but its docstrings and the table of codes."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                skip.add(id(first.value))
        if (path.name == "codes.py" and isinstance(node, (ast.Assign, ast.AnnAssign))
                and any(isinstance(t, ast.Name) and t.id == "LAWS" for t in getattr(node, "targets", [getattr(node, "target", None)]))):
            skip.update(id(x) for x in ast.walk(node))
    return [(n.lineno, n.value) for n in ast.walk(tree)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip]


def _template_text(path: Path) -> list[tuple[int, str]]:
    """A template's lines but its comments."""
    text = re.sub(r"(?s)\{#.*?#\}|/\*.*?\*/", lambda m: "\n" * m.group().count("\n"), path.read_text(encoding="utf-8"))
    return [(i, line) for i, line in enumerate(text.splitlines(), 1)
            if not line.lstrip().startswith(("//", "#")) or path.name.endswith((".md.j2", ".md"))
            and line.lstrip().startswith("#") and not line.lstrip().startswith("#!")]


def find_corpus_names() -> set[tuple[str, str, int, str]]:
    several, one = corpus_names()
    found = set()
    for path in sorted(COMPILER.rglob("*.py")):
        for line, value in _python_literals(path):
            for name in _literal_uses(value, several, one):
                found.add((str(path.relative_to(ROOT)), name, line, value[:60]))
    for path in sorted((COMPILER / "templates").rglob("*")):
        if path.is_file():
            for line, value in _template_text(path):
                names = [n for n in several if re.search(rf"(?<![\w-]){re.escape(n)}(?![\w-])", value, re.I)]
                names += [n for n in one if re.search(rf"[\"']{re.escape(n)}[\"']", value)]
                found.update((str(path.relative_to(ROOT)), n, line, value.strip()[:60]) for n in names)
    return found


def test_no_route_family_option_schedule_or_code_name_of_the_corpus_in_compiler():
    found = find_corpus_names()
    new = sorted(f"{f}:{line}: {name!r} in {value!r}" for f, name, line, value in found if (f, name) not in PENDING)
    assert new == []
    gone = sorted(PENDING - {(f, name) for f, name, _, _ in found})
    assert gone == [], f"no longer found: remove from PENDING: {gone}"


def test_the_corpus_name_check_reads_the_corpus_and_finds_a_use(tmp_path):
    """The check itself: its names come from the corpus (routes, a family, options, schedule ids, the code),
    and a literal naming one is found, a docstring or comment naming one is not."""
    several, one = corpus_names()
    assert {"hudson", "docking"} <= one and {"long-island-sound", "second_pilot", "Nav. Law", "Navigation Law"} <= several
    assert any("/" in n for n in several)  # the schedule ids of the fee module
    module = tmp_path / "m.py"
    module.write_text('"""Quotes long-island-sound."""\nx = {"hudson": 1}  # hudson-lower\n'
                      'def f():\n    """second_pilot"""\n    return "the Nav. Law", "docking=tug"\n', encoding="utf-8")
    hits = sorted((line, n) for line, v in _python_literals(module) for n in _literal_uses(v, several, one))
    assert hits == [(2, "hudson"), (5, "Nav. Law"), (5, "docking")]
