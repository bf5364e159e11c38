"""The `navlaw` command line: each subcommand wires the pipeline stages together."""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

from .diagnostics import Diagnostic, Diagnostics, NavlawError, Severity
from .frontend import Corpus, compile_corpus, compile_file
from .outline import document_json, node_json, outline
from .tree import Node, Section

EXIT_OK, EXIT_ERRORS, EXIT_USAGE = 0, 1, 2


def _print_diagnostics(diags: list[Diagnostic] | Diagnostics, stream: Any = None, minimum: Severity = Severity.INFO) -> None:
    stream = stream or sys.stderr
    for d in diags:
        if d.severity >= minimum:
            print(d.format(), file=stream)


def _dump(obj: Any) -> str:
    return json.dumps(obj, ensure_ascii=False, indent=2, sort_keys=False)


def _summary(diags: Diagnostics) -> str:
    counts = {s: sum(1 for d in diags if d.severity is s) for s in Severity}
    return (f"{counts[Severity.ERROR]} error(s), {counts[Severity.WARNING]} warning(s), "
            f"{counts[Severity.INFO]} note(s)")


# ---- commands --------------------------------------------------------------------------------------

def cmd_parse(args: argparse.Namespace) -> int:
    diags = Diagnostics()
    doc = compile_file(args.file, diags)
    if args.format == "json":
        print(_dump({"document": document_json(doc), "diagnostics": [d.to_json() for d in diags]}))
    else:
        print("\n".join(outline(doc)))
    _print_diagnostics(diags)
    return EXIT_ERRORS if diags.has_errors() else EXIT_OK


def section_versions(corpus: Corpus, section: str) -> list[tuple[Node, str]]:
    """Every text of ``section`` in the corpus, in manifest order, with the file it comes from."""
    out = []
    for c in corpus.documents:
        for s in c.document.sections():
            if s.id == section:
                out.append((s, c.source.path))
    return out


def current_section(corpus: Corpus, section: str) -> tuple[Section, list[str]] | None:
    """The section as the corpus gives it last: the latest whole text, with the provisions of later
    partial texts put in place of the ones they cover. (Effective dates are not applied here.)"""
    from dataclasses import replace
    base: Section | None = None
    sources: list[str] = []
    for c in corpus.documents:
        e = c.entry
        for s in c.document.sections():
            if s.id != section:
                continue
            partial = e is not None and e.covers and all(cov != section for cov in e.covers) and e.kind != "consolidated"
            if base is None or not partial:
                base, sources = s, [c.source.path]
                continue
            children = list(base.children)
            for new in s.children:
                idx = next((k for k, old in enumerate(children) if old.id == new.id), None)
                if idx is None:
                    children.append(new)
                else:
                    children[idx] = new
            base = replace(base, children=tuple(children))
            sources.append(c.source.path)
    return (base, sources) if base is not None else None


def cmd_show(args: argparse.Namespace) -> int:
    corpus = compile_corpus(args.corpus)
    section = args.section.lstrip("§ ").lower()
    found = current_section(corpus, section)
    if found is None:
        known = sorted({s.id for c in corpus.documents for s in c.document.sections()})
        close = [k for k in known if k.split("-")[0] == section.split("-")[0]][:8]
        print(f"navlaw show: no section {args.section!r} in the corpus"
              + (f"; sections with that number: {', '.join(close)}" if close else ""), file=sys.stderr)
        return EXIT_ERRORS
    node, sources = found
    if args.format == "json":
        print(_dump({"section": node_json(node), "sources": sources}))
    else:
        print("\n".join(outline(node)))
        print(f"\nsource: {', '.join(sources)}")
    return EXIT_OK


def cmd_lint(args: argparse.Namespace) -> int:
    corpus = compile_corpus(args.corpus)
    diags = corpus.diagnostics
    if args.format == "json":
        print(_dump({"diagnostics": [d.to_json() for d in diags], "summary": _summary(diags)}))
    else:
        _print_diagnostics(diags, sys.stdout)
        print(_summary(diags))
    return EXIT_ERRORS if diags.has_errors() else EXIT_OK


def _write_atomically(out: Path, write: Callable[[Path], None]) -> None:
    """Write everything into a fresh directory beside ``out`` and swap it in only on success, so a
    failed build leaves the previous output intact."""
    out.parent.mkdir(parents=True, exist_ok=True)
    tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.", dir=out.parent))
    try:
        write(tmp)
        old = out.with_name(f".{out.name}.old")
        if old.exists():
            shutil.rmtree(old)
        if out.exists():
            os.replace(out, old)
        os.replace(tmp, out)
        if old.exists():
            shutil.rmtree(old)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise


def cmd_build(args: argparse.Namespace) -> int:
    corpus = compile_corpus(args.corpus)
    diags = corpus.diagnostics
    _print_diagnostics(diags, sys.stderr, Severity.WARNING)
    if diags.has_errors():
        print(f"navlaw build: not built: {_summary(diags)}; the previous output is unchanged", file=sys.stderr)
        return EXIT_ERRORS

    def write(tmp: Path) -> None:
        tree_dir = tmp / "tree"
        tree_dir.mkdir()
        for c in corpus.documents:
            name = Path(c.source.path).name
            (tree_dir / f"{name}.json").write_text(_dump(document_json(c.document)) + "\n", encoding="utf-8")
        (tmp / "diagnostics.json").write_text(_dump([d.to_json() for d in diags]) + "\n", encoding="utf-8")

    _write_atomically(Path(args.out), write)
    sections = sum(len(c.document.sections()) for c in corpus.documents)
    print(f"navlaw build: {len(corpus.documents)} documents, {sections} sections -> {args.out}/ ({_summary(diags)})")
    return EXIT_OK


# ---- argument parsing ------------------------------------------------------------------------------

def make_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="navlaw", description="Compile the New York Navigation Law: parse, "
                                "extract tariffs, track versions, publish a site and a fee module.")
    sub = p.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def corpus_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--corpus", default="corpus", metavar="DIR", help="corpus directory (default: corpus/)")

    def format_arg(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("--format", choices=("text", "json"), default="text", help="output format (default: text)")

    sp = sub.add_parser("build", help="compile the corpus and write the outputs",
                        description="Compile every document of the corpus and write the outputs into OUT "
                                    "(default build/): the section trees as JSON and the diagnostics. "
                                    "Outputs are written to a temporary directory and swapped in only on success.")
    corpus_arg(sp)
    sp.add_argument("--out", default="build", metavar="DIR", help="output directory (default: build/)")
    sp.set_defaults(func=cmd_build)

    sp = sub.add_parser("parse", help="parse one standalone file (no manifest)",
                        description="Parse one file on its own and print its section tree, or its diagnostics.")
    sp.add_argument("file", metavar="FILE")
    format_arg(sp)
    sp.set_defaults(func=cmd_parse)

    sp = sub.add_parser("show", help="print a section from the corpus",
                        description="Print a section (e.g. 89-b) as the corpus gives it, as an outline or JSON.")
    sp.add_argument("section", metavar="SECTION")
    corpus_arg(sp)
    format_arg(sp)
    sp.set_defaults(func=cmd_show)

    sp = sub.add_parser("lint", help="report every diagnostic of the corpus",
                        description="Report every finding as file:line:col: severity: message, with a caret excerpt.")
    corpus_arg(sp)
    format_arg(sp)
    sp.set_defaults(func=cmd_lint)
    return p


def main(argv: list[str] | None = None) -> int:
    args = make_parser().parse_args(argv)
    try:
        return int(args.func(args))
    except NavlawError as exc:
        _print_diagnostics(exc.diagnostics)
        return EXIT_ERRORS
    except BrokenPipeError:
        return EXIT_OK
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    sys.exit(main())
