"""Move the shared types into compiler/model/ (issue 26, item 1), once, after every branch is merged.

    python tools/move_model.py          # from the repository's top, on a clean work tree

What it does, and prints as it goes:

1. ``git mv`` of the modules every stage shares into ``compiler/model/`` (MOVES below); the names
   normalize.py already takes from the model (``NormalText``, ``Edit``, ``Stage``: navlaw.model.text) are
   imported from there too (PARTIAL).
2. Every import of them in every tracked Python file (compiler/, tests/, benchmarks/, tools/, setup.py …),
   whatever else the file holds: ``from navlaw.frontend.nodes import A, B`` (one import per model module
   each name is defined in: a name ``nodes`` only re-exported, as ``NAV_LAW`` from ``codes``, goes to its
   own module), ``from navlaw.frontend import numbers as W, layout``, ``import navlaw.tariffs.model as M``,
   at the top or inside a function. Statements it can rewrite by changing the module name alone keep their
   layout and comments.
3. Dotted names (``"navlaw.frontend.numbers.scan"`` in a monkeypatch) and file paths
   (``compiler/frontend/codes.py``) in every tracked text file (code, docs, templates, pyproject, Makefile),
   except the generated ``navlaw_fees/`` and the law texts in ``corpus/``.
4. The few edits only the move makes right: nodes.py stops re-exporting the table of codes; the package
   docstrings of frontend/ and tariffs/ stop naming modules that left; the architecture test's checks that
   wait for the move are switched on (lines marked ``# until tools/move_model.py``); pyproject.toml lists
   the package ``navlaw.model``.

Every rewritten Python file is parsed before anything is written; then what could not be rewritten is
listed (``left alone: file:line: …``) and the script exits 1 if there is any. It refuses to run twice
(``compiler/model/nodes.py`` exists) or on a work tree with uncommitted changes. It commits nothing:
review ``git status`` / ``git diff --staged`` and commit.
"""

from __future__ import annotations

import ast
import re
import subprocess
import sys
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = "navlaw"  # the import name of the compiler/ folder (pyproject.toml's package-dir)

# old module -> new module (dotted, under the import name); the file follows the name
MOVES = {
    "navlaw.frontend.nodes": "navlaw.model.nodes",
    "navlaw.frontend.codes": "navlaw.model.codes",
    "navlaw.frontend.numbers": "navlaw.model.numbers",
    "navlaw.tariffs.formula": "navlaw.model.formula",
    "navlaw.tariffs.model": "navlaw.model.tariffs",
}
# modules that stay, some of whose names live in the model already: those names are imported from there
PARTIAL = {"navlaw.frontend.normalize": ["navlaw.model.text"]}
SKIP_TEXT = ("navlaw_fees/", "corpus/", "tools/move_model.py")  # generated, the law as received, this script
UNTIL = "# until tools/move_model.py"


def path_of(module: str) -> Path:
    return Path("compiler", *module.split(".")[1:]).with_suffix(".py")


def git(*args: str) -> str:
    return subprocess.run(["git", *args], cwd=ROOT, check=True, capture_output=True, text=True).stdout


def defined(source: str) -> set[str]:
    """The names a module defines at its top level (functions, classes, assignments), not those it imports."""
    out: set[str] = set()
    for node in ast.parse(source).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            out.add(node.name)
        elif isinstance(node, ast.Assign):
            out.update(t.id for t in node.targets if isinstance(t, ast.Name))
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out.add(node.target.id)
    return out


def bound(source: str) -> set[str]:
    """Every name a module binds at its top level, imported ones included (what ``module.X`` may read)."""
    out = defined(source)
    for node in ast.parse(source).body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            out.update((a.asname or a.name).split(".")[0] for a in node.names)
    return out


@dataclass
class Plan:
    sources: dict[str, str]  # new module name -> its source after the move
    definitions: dict[str, set[str]] = field(default_factory=dict)
    notes: list[str] = field(default_factory=list)  # what was done
    left: list[str] = field(default_factory=list)  # what could not be done

    def __post_init__(self) -> None:
        self.definitions = {m: defined(s) for m, s in self.sources.items()}

    def home(self, old: str, name: str, where: str) -> str:
        """The module a name imported from ``old`` is taken from after the move."""
        if old in PARTIAL:
            return next((m for m in PARTIAL[old] if name in self.definitions[m]), old)
        new = MOVES[old]
        if name == "*" or name in self.definitions[new]:
            return new
        owners = sorted(m for m, names in self.definitions.items() if name in names)
        if len(owners) == 1:
            return owners[0]
        said = f"defined in {', '.join(owners)}" if owners else "defined in no model module"
        self.left.append(f"{where}: {name} imported from {old}: {said}; kept at {new}")
        return new


def alias_text(a: ast.alias, name: str | None = None) -> str:
    name = name or a.name
    return f"{name} as {a.asname}" if a.asname and a.asname != name else (f"{name} as {name}" if a.asname else name)


def from_import(module: str, names: list[str], indent: str) -> str:
    """``from module import a, b`` wrapped at 120 columns as the repository writes it."""
    one = f"from {module} import {', '.join(names)}"
    if len(indent) + len(one) <= 120:
        return one
    head = f"from {module} import ("
    lines, line = [], head
    for i, n in enumerate(names):
        piece = n + (", " if i < len(names) - 1 else ")")
        if len(indent) + len(line) + len(piece.rstrip()) > 120 and line.strip() != head.strip():
            lines.append(line.rstrip())
            line = " " * len(head)
        line += piece
    lines.append(line)
    return ("\n" + indent).join(lines)


def rewrite_import_from(node: ast.ImportFrom, segment: str, indent: str, plan: Plan, where: str) -> str | None:
    """The statement(s) replacing one ``from X import …``, or None when it names nothing that moved."""
    module = node.module or ""
    if node.level or not module.startswith(PACKAGE + "."):
        return None
    groups: dict[str, list[str]] = {}
    if module in MOVES or module in PARTIAL:
        for a in node.names:
            groups.setdefault(plan.home(module, a.name, where), []).append(alias_text(a))
    else:  # from navlaw.frontend import nodes as N, layout
        for a in node.names:
            full = f"{module}.{a.name}"
            if full in MOVES:
                new_pkg, new_name = MOVES[full].rsplit(".", 1)
                text = f"{new_name} as {a.asname or a.name}" if new_name != (a.asname or a.name) else new_name
                groups.setdefault(new_pkg, []).append(text)
            else:
                groups.setdefault(module, []).append(alias_text(a))
    if list(groups) == [module]:
        return None
    same_names = [n for names in groups.values() for n in names] == [alias_text(a) for a in node.names]
    if len(groups) == 1 and same_names:  # the module's name changes, nothing else: keep the layout
        (target,) = groups
        return re.sub(rf"(\bfrom\s+){re.escape(module)}\b", lambda m: m.group(1) + target, segment, count=1)
    if "#" in segment:
        plan.left.append(f"{where}: a comment inside the import was dropped: {segment.splitlines()[0]} …")
    return ("\n" + indent).join(from_import(m, names, indent) for m, names in groups.items())


def rewrite_import(node: ast.Import, segment: str) -> str | None:
    """``import navlaw.frontend.nodes [as N]``: the module's new name."""
    if not any(a.name in MOVES for a in node.names):
        return None
    return "import " + ", ".join(alias_text(a, MOVES.get(a.name, a.name)) for a in node.names)


def line_starts(raw: bytes) -> list[int]:
    """The byte offset of each line's start (ast's lines and columns count UTF-8 bytes)."""
    starts, pos = [], 0
    for line in raw.splitlines(keepends=True):
        starts.append(pos)
        pos += len(line)
    return starts + [pos]


def rewrite_python(source: str, plan: Plan, rel: str) -> str:
    tree = ast.parse(source)
    raw = source.encode("utf-8")
    bstarts = line_starts(raw)
    edits: list[tuple[int, int, str]] = []
    for node in ast.walk(tree):
        if not isinstance(node, (ast.Import, ast.ImportFrom)):
            continue
        assert node.end_lineno is not None and node.end_col_offset is not None
        a, b = bstarts[node.lineno - 1] + node.col_offset, bstarts[node.end_lineno - 1] + node.end_col_offset
        segment = raw[a:b].decode("utf-8")
        line_start = raw[bstarts[node.lineno - 1]:a].decode("utf-8")
        indent = line_start if not line_start.strip() else " " * len(line_start)
        where = f"{rel}:{node.lineno}"
        new = (rewrite_import_from(node, segment, indent, plan, where) if isinstance(node, ast.ImportFrom)
               else rewrite_import(node, segment))
        if new is not None and new != segment:
            edits.append((a, b, new))
    for a, b, new in sorted(edits, reverse=True):
        raw = raw[:a] + new.encode("utf-8") + raw[b:]
    out = raw.decode("utf-8")
    check_attributes(out, plan, rel)
    return out


def check_attributes(source: str, plan: Plan, rel: str) -> None:
    """``N.NAV_LAW`` where N is a moved module that no longer binds the name: said, not guessed at."""
    tree = ast.parse(source)
    aliases: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            for a in node.names:
                if f"{node.module}.{a.name}" in plan.sources:
                    aliases[a.asname or a.name] = f"{node.module}.{a.name}"
        elif isinstance(node, ast.Import):
            for a in node.names:
                if a.asname and a.name in plan.sources:
                    aliases[a.asname] = a.name
    names = {m: bound(s) for m, s in plan.sources.items()}
    for node in ast.walk(tree):
        if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id in aliases
                and node.attr not in names[aliases[node.value.id]]):
            module = aliases[node.value.id]
            plan.left.append(f"{rel}:{node.lineno}: {node.value.id}.{node.attr}: {module} has no {node.attr}")


@lru_cache(maxsize=1)
def text_patterns() -> list[tuple[re.Pattern[str], str]]:
    """Dotted names (navlaw.frontend.nodes) and file paths (compiler/frontend/nodes.py, frontend/nodes.py)."""
    out = []
    for old, new in MOVES.items():
        out.append((re.compile(rf"(?<![\w.]){re.escape(old)}(?![\w])"), new))
        o, n = (path_of(m).as_posix().split("/", 1)[1] for m in (old, new))
        out.append((re.compile(rf"(?<![\w/])((?:compiler/)?){re.escape(o)}\b"), r"\g<1>" + n))
    for old, news in PARTIAL.items():
        for new in news:
            names = sorted(defined((ROOT / path_of(new)).read_text(encoding="utf-8")))
            out.append((re.compile(rf"(?<![\w.]){re.escape(old)}\.({'|'.join(names)})\b"), new + r".\1"))
    return out


def rewrite_text(text: str) -> str:
    for pattern, repl in text_patterns():
        text = pattern.sub(repl, text)
    return text


REEXPORT = r"from navlaw\.(?:model|frontend)\.codes import NAV_LAW as NAV_LAW, Code as Code[^\n]*"
SPECIAL = [  # (file after the move, pattern, replacement, what it does)
    ("compiler/model/nodes.py", REEXPORT,
     "from navlaw.model.codes import Code", "nodes no longer re-exports the table of codes"),
    ("compiler/frontend/normalize.py", r"NormalText as NormalText, Stage  # NormalText re-exported until [^\n]*",
     "NormalText, Stage", "normalize no longer re-exports NormalText"),
    ("compiler/frontend/__init__.py", r";?\s*numbers\.py reads numbers, money and dates in words\.",
     ".\nThe tree's nodes, the table of codes and numbers in words are navlaw.model's.",
     "the front end's docstring names what it no longer holds"),
    ("compiler/tariffs/__init__.py", r"the typed model \(model\.py\), rate-table formulas \(formula\.py\), ",
     "their types and formulas are navlaw.model's (tariffs.py, formula.py); ",
     "the tariffs' docstring names what it no longer holds"),
    ("README.md", r"\n(  frontend/ +bytes -> trees)",
     "\n  model/                  the types every stage shares, importing nothing else of navlaw: nodes.py (tree\n"
     "                          nodes, ids, citations), codes.py (the table of codes), numbers.py (in words),\n"
     "                          formula.py, tariffs.py, text.py (normalised text), parsers.py (their grammars)\n\\1",
     "the README's layout shows model/"),
    ("README.md", r"nodes\.py \+ tree\.py \(typed nodes, ids, citations; the builder\)", "tree.py (the tree builder)",
     "the README's layout: frontend/ without nodes.py"),
    ("README.md", r"numbers\.py, outline\.py,", "outline.py,", "the README's layout: frontend/ without numbers.py"),
    ("README.md", r"model\.py \(typed tariffs\), formula\.py, routes\.py", "routes.py",
     "the README's layout: tariffs/ without model.py and formula.py"),
    ("compiler/law/references.py", r"\b_(DIGIT_REF|EXTERNAL)\b", r"\1", "law.references' patterns by public names"),
    ("compiler/site/render.py", r"\b_(DIGIT_REF|EXTERNAL)\b", r"\1", "the site reads them by those names"),
]


def special(files: dict[str, str], plan: Plan) -> None:
    for rel, pattern, repl, what in SPECIAL:
        if rel not in files and not (ROOT / rel).is_file():
            plan.left.append(f"{rel}: not found ({what})")
            continue
        new, n = re.subn(pattern, repl, files[rel] if rel in files else (ROOT / rel).read_text(encoding="utf-8"))
        if n:
            files[rel] = new
            plan.notes.append(f"{rel}: {what}")
        elif not rel.endswith(("references.py", "render.py")):  # those two are done on this branch already
            plan.left.append(f"{rel}: {what}: the words were not found (edited since?); say it by hand")
    arch = files.get("tests/test_architecture.py", "")
    kept = [line for line in arch.splitlines(keepends=True) if UNTIL not in line]
    if arch and len(kept) != len(arch.splitlines(keepends=True)):
        files["tests/test_architecture.py"] = "".join(kept)
        plan.notes.append("tests/test_architecture.py: the checks that waited for the move are on")
    toml = files.get("pyproject.toml", "")
    if toml and '"navlaw.model"' not in toml:
        files["pyproject.toml"] = toml.replace('packages = ["navlaw", ', 'packages = ["navlaw", "navlaw.model", ', 1)
        plan.notes.append("pyproject.toml: the package navlaw.model")


def tracked() -> list[str]:
    return [p for p in git("ls-files", "-z").split("\0") if p and not p.startswith(SKIP_TEXT)]


def leftovers() -> list[str]:
    """Tracked lines that still name a module that moved (by its dotted name or its file)."""
    words = [w for old in MOVES for w in (old, path_of(old).as_posix().split("/", 1)[1])]
    r = subprocess.run(["git", "grep", "-n", "-F", *(a for w in words for a in ("-e", w)), "--", ".",
                        *(f":!{s}" for s in SKIP_TEXT)], cwd=ROOT, capture_output=True, text=True)
    return [f"{hit[:160]}: still names a module that moved" for hit in r.stdout.splitlines()]


def main() -> int:
    if (ROOT / path_of(MOVES["navlaw.frontend.nodes"])).exists() or not (ROOT / "compiler/frontend/nodes.py").exists():
        print("move_model: the model has been moved already (compiler/model/nodes.py exists, compiler/frontend/nodes.py"
              " does not); nothing to do. It runs once.", file=sys.stderr)
        return 2
    missing = [str(path_of(m)) for m in MOVES if not (ROOT / path_of(m)).exists()]
    if missing:
        print(f"move_model: missing {', '.join(missing)}; nothing done.", file=sys.stderr)
        return 2
    if git("status", "--porcelain", "--untracked-files=no").strip():
        print("move_model: the work tree has uncommitted changes; commit them first, so that the move is a commit of"
              " its own. Nothing done.", file=sys.stderr)
        return 2
    sources = {new: (ROOT / path_of(old)).read_text(encoding="utf-8") for old, new in MOVES.items()}
    nodes = "navlaw.model.nodes"  # as it will be: without the codes' re-export (SPECIAL)
    sources[nodes] = re.sub(REEXPORT, "from navlaw.frontend.codes import Code", sources[nodes])
    sources.update({m: (ROOT / path_of(m)).read_text(encoding="utf-8") for news in PARTIAL.values() for m in news})
    plan = Plan(sources)
    renamed = {path_of(old).as_posix(): path_of(new).as_posix() for old, new in MOVES.items()}
    files: dict[str, str] = {}
    for rel in tracked():
        try:
            text = (ROOT / rel).read_text(encoding="utf-8")
        except (UnicodeDecodeError, FileNotFoundError, IsADirectoryError):
            continue
        new = rewrite_python(text, plan, rel) if rel.endswith(".py") else text
        new = rewrite_text(new)
        target = renamed.get(rel, rel)
        if new != text or target != rel:
            files[target] = new
    special(files, plan)
    for rel, text in files.items():
        if rel.endswith(".py"):
            ast.parse(text, rel)  # nothing is written unless every file still parses
    for old, new in renamed.items():
        git("mv", old, new)
        print(f"moved   {old} -> {new}")
    for rel in sorted(files):
        (ROOT / rel).write_text(files[rel], encoding="utf-8")
        if rel not in renamed.values():
            print(f"rewrote {rel}")
    git("add", "-u")
    for note in plan.notes:
        print(f"patched {note}")
    plan.left.extend(leftovers())
    for item in plan.left:
        print(f"left alone: {item}", file=sys.stderr)
    print(f"move_model: {len(renamed)} modules moved into compiler/model/, {len(files) - len(renamed)} other files "
          "rewritten, staged (nothing committed). Next: run the architecture test, mypy (tests/test_mypy.py) and the "
          "tests, then commit." + (f" {len(plan.left)} thing(s) left alone, above: see to them." if plan.left else ""))
    return 1 if plan.left else 0


if __name__ == "__main__":
    sys.exit(main())
