"""The front end as one call: load -> normalize -> parse -> build tree, for a file or a whole corpus."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, TypeVar

from compiler.cache import BuildCache
from compiler.diagnostics import Diagnostic, Diagnostics, NavlawError, Severity
from compiler.frontend.load import SourceDocument, decode, load
from compiler.frontend.manifest import Entry, Manifest, load_manifest
from compiler.frontend.normalize import normalize
from compiler.frontend.nodes import NAV_LAW, Code, Document
from compiler.frontend.assess import assess, refuse_non_law
from compiler.frontend.figures import check_figures
from compiler.frontend.fragments import restore_labels, wrap_fragments
from compiler.frontend.tree import build


@dataclass
class Compiled:
    source: SourceDocument
    document: Document
    entry: Entry | None = None
    key: str = ""  # its cache key (compiler, file, bytes, manifest entry), when compiled with a cache


@dataclass
class Corpus:
    root: Path
    manifest: Manifest
    documents: list[Compiled]
    diagnostics: Diagnostics = field(default_factory=Diagnostics)
    acts: list = field(default_factory=list)  # compiler.acts.Act: amending acts, applied by the timeline

    def by_file(self, file: str) -> Compiled:
        return next(c for c in self.documents if c.source.path == file)


T = TypeVar("T")
_FOUND: dict[str, dict[str, list[Any]]] = {}  # finder -> document cache key -> what it found there


def per_document(corpus: Corpus, finder: str, find: Callable[[Document], list[T]]) -> list[T]:
    """``find`` over every document, in the corpus's order, concatenated. In one process (``navlaw
    serve`` rebuilding after each save) a document whose cache key is the one it had at the finder's
    last call gives what it gave then, so only the changed documents are searched again. For what a
    document's own text decides alone (its definitions, its references)."""
    last = _FOUND.get(finder, {})
    now: dict[str, list[T]] = {}
    out: list[T] = []
    for c in corpus.documents:
        got = last.get(c.key) if c.key else None
        if got is None:
            got = find(c.document)
        if c.key:
            now[c.key] = got
        out.extend(got)
    _FOUND[finder] = now  # only this corpus's documents: the memo does not grow edit after edit
    return out


def compile_source(src: SourceDocument, entry: Entry | None = None,
                   diagnostics: Diagnostics | None = None) -> Document:
    diags = diagnostics if diagnostics is not None else Diagnostics()
    refuse_non_law(src.text, src.path)
    nt = normalize(src.text, entry.list_numbering if entry else "auto")  # type: ignore[arg-type]
    code = Code(entry.code_prefix, entry.code_cite) if entry and entry.code_cite else NAV_LAW
    section = entry.section if entry else ""
    if entry and not section and entry.kind in ("section-text", "rule", "proposed-rule"):
        firsts = {c.split("/")[1 if code.prefix else 0] for c in entry.covers if c}
        section = firsts.pop() if len(firsts) == 1 else ""
    doc = build(nt, src.path, code, section, diags)
    if entry and entry.lost_labels:
        doc = restore_labels(doc, list(entry.lost_labels), code, diags, entry.line)
    if entry and entry.fragments:
        doc = wrap_fragments(doc, [(f.covers, *f.lines) for f in entry.fragments], code, diags)
    check_figures(nt, src.path, diags)
    assess(doc, src.text, entry, diags, src.encoding)
    return doc


def compile_text(text: str, file: str = "<input>", diagnostics: Diagnostics | None = None) -> Document:
    """Compile law text given as a string (tests, fuzzing): the same path a file takes."""
    src = SourceDocument(file, text, "", len(text.encode()))
    return compile_source(src, None, diagnostics)


def compile_file(path: str | Path, diagnostics: Diagnostics | None = None) -> Document:
    """One standalone file, no manifest. Raises NavlawError if the file cannot be read or decoded."""
    return compile_source(load(path), None, diagnostics)


def compile_bytes(data: bytes, file: str, diagnostics: Diagnostics | None = None) -> Document:
    return compile_text(decode(data, file), file, diagnostics)


def compile_corpus(root: str | Path = "corpus", cache: BuildCache | None = None) -> Corpus:
    """Every document of the manifest, compiled. Unreadable documents and manifest errors raise
    NavlawError with all their diagnostics; findings in the law text are collected in the result.
    With a ``cache``, a document whose bytes and manifest entry are unchanged is not parsed again."""
    root = Path(root)
    if not root.is_dir():
        raise NavlawError([Diagnostic(Severity.ERROR, "no such corpus directory", str(root), code="input",
                                      hint="run from the repository root or pass --corpus DIR")])
    manifest = load_manifest(root)
    diags = Diagnostics()
    docs: list[Compiled] = []
    acts: list = []
    failures: list[Diagnostic] = []
    for entry in manifest.entries:
        try:
            src = load(root / entry.file, display=str(root / entry.file))
        except NavlawError as exc:
            failures.extend(exc.diagnostics)
            continue
        if entry.kind == "act":
            from compiler.frontend.acts import parse_act
            acts.append(parse_act(src, entry, diags))
            continue
        key = cache.key("document", src.path, src.sha256, repr(entry)) if cache is not None and cache.enabled else ""
        docs.append(Compiled(src, _compile_cached(src, entry, diags, cache, key), entry, key))
    if failures:
        raise NavlawError(failures)
    corpus = Corpus(root, manifest, docs, diags, acts)
    _check_covers(corpus)
    return corpus


def _compile_cached(src: SourceDocument, entry: Entry, diags: Diagnostics, cache: BuildCache | None,
                    key: str) -> Document:
    """compile_source, through the cache: the tree and the findings it gave, keyed by the bytes."""
    def compile_own() -> tuple[Document, list[Diagnostic]]:
        own = Diagnostics()
        return compile_source(src, entry, own), own.items

    doc, found = cache.through("document", key, compile_own) if cache is not None else compile_own()
    diags.extend(found)
    return doc


def _check_covers(corpus: Corpus) -> None:
    """Each provision a document says it covers must be in that document's text."""
    lines = corpus.manifest.text.split("\n")
    for c in corpus.documents:
        e = c.entry
        assert e is not None
        ids = {n.id for n in c.document.walk()}
        for cov in e.covers:
            if cov not in ids:
                line = next((k + 1 for k, l in enumerate(lines) if f'"{cov}"' in l and k + 1 >= e.line), e.line)
                corpus.diagnostics.add(Diagnostic(
                    Severity.ERROR, f"{e.file} is said to cover {cov!r}, but its text has no such provision",
                    str(corpus.manifest.path), line, 1, lines[line - 1], "manifest",
                    f"the provisions it has at top level: {', '.join(n.id for n in c.document.walk() if n.id.count('/') <= 1 and n.id)[:200]}"))
