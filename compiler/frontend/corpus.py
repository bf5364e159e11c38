"""The front end as one call: load -> normalize -> parse -> build tree, for a file or a whole corpus."""

from __future__ import annotations

import re
from bisect import bisect_left
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, TypeVar

from navlaw.cache import BuildCache
from navlaw.diagnostics import Diagnostic, Diagnostics, NavlawError, Severity
from navlaw.frontend.load import SourceDocument, decode, load
from navlaw.frontend.manifest import Entry, Manifest, load_manifest
from navlaw.frontend.normalize import normalize
from navlaw.model import codes
from navlaw.model.codes import Code
from navlaw.model.nodes import Document
from navlaw.frontend.normalize import ListNumbering
from navlaw.model.text import NormalText
from navlaw.frontend.assess import assess
from navlaw.frontend import chunks, formats, heap
from navlaw.frontend.formats import lbdc
from navlaw.frontend.figures import check_figures
from navlaw.frontend.invariants import check_tree
from navlaw.frontend.unicode import check_invisible
from navlaw.frontend.fragments import restore_labels, wrap_fragments
from navlaw.frontend.tree import build

if TYPE_CHECKING:
    from navlaw.frontend.acts import Act


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
    acts: list[Act] = field(default_factory=list)  # amending acts, applied by the timeline
    # every file the front end read (its path in the corpus) -> the SHA-256 of the bytes it read: what a
    # build records it was made from (a file saved during the build is caught by comparing these)
    read: dict[str, str] = field(default_factory=dict)

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
                   diagnostics: Diagnostics | None = None, memo: bool = False) -> Document:
    diags = diagnostics if diagnostics is not None else Diagnostics()
    formats.refuse(src.text, src.path)
    fmt = formats.named(src.format) if src.format else formats.detect(src.text.encode("utf-8", "surrogatepass"))
    # memo: what was read by section is kept for the next compile of the document (frontend/chunks.py; the
    # corpus build, which lets it go after a first compile: chunks.settle)
    nt, roles = formats.read_lines(fmt, normalize(src.text, _list_numbering(entry)), src.path if memo else "")
    code = whose_law(nt, src.path, entry, diags)
    section = entry.section if entry else ""
    if entry and not section and entry.kind in ("section-text", "rule", "proposed-rule"):
        firsts = {c.split("/")[1 if code.prefix else 0] for c in entry.covers if c}
        section = firsts.pop() if len(firsts) == 1 else ""
    doc = build(nt, src.path, code, section, diags, roles, src.path if memo else "")
    if entry and entry.lost_labels:
        doc = restore_labels(doc, list(entry.lost_labels), code, diags, entry.line)
    if entry and entry.fragments:
        doc = wrap_fragments(doc, [(f.covers, *f.lines) for f in entry.fragments], code, diags)
    check_figures(nt, src.path, diags)
    check_invisible(nt, src.path, diags)
    assess(doc, src.text, entry, diags, src.encoding)
    check_tree(doc, diags)
    nt.release_raw()  # the tree and the normalised text hold every character: the raw text is rebuilt when asked
    return doc


def _list_numbering(entry: Entry | None) -> ListNumbering:
    value = entry.list_numbering if entry else "auto"
    return "artifact" if value == "artifact" else "real" if value == "real" else "auto"


_LAW_STARTS = re.compile(r"(?m)^[ \t]*(?:§|Section[ \t]+\d|S[ \t]+\d|\d+\.[ \t]+[A-Z]|\.\.SO DOC)")
_ACT_RE = re.compile(r"(?i)\bAN\s+ACT\b|\bBill\s+ID\b|\bdo\s+enact\b|\bIN\s+(?:SENATE|ASSEMBLY)\b")


def whose_law(nt: NormalText, path: str, entry: Entry | None, diags: Diagnostics) -> Code:
    """The code a document's citations use: the manifest's (``law``, ``code``, NYCRR covers), else what
    the text says of itself (an LBDC record's law id, its page header, a Westlaw "21 CRR-NY" line). Where
    the two disagree, a warning at the text's words; where neither says, citations name no code, and a
    note says so (never another law's name)."""
    text = nt.text
    said = ""
    at = 0
    record = lbdc.record_law(text)
    if record is not None:
        said, at = codes.law_of_record(record[0]), record[1]
    header = ""
    if not said:
        start = _LAW_STARTS.search(text, 0, 4096)
        header = text[: start.start() if start else 2048]
    if not said and not _ACT_RE.search(header):  # an act names the laws it amends: its sections are its own
        found = codes.named_in(header) or (
            codes.named_in(text[:20000]) if "CRR-NY" in text[:20000] or "NYCRR" in text[:20000] else None)
        if found is not None:
            said, at = found
    declared = Code(entry.code_prefix, entry.code_cite) if entry is not None and entry.code_cite else None
    found_code = codes.code_for(said, own=declared is None or not entry or codes.lookup(said) == codes.lookup(entry.law)) \
        if said else None
    line, col = nt.raw_linecol(at)
    if declared is not None:
        if found_code is not None and found_code.cite != declared.cite:
            diags.add(Diagnostic(Severity.WARNING, f"the manifest says this is {declared.cite}, but the text names "
                                 f"itself {said}: its citations say {declared.cite}", path, line, col,
                                 nt.raw_line(line), "whose-law", "check the manifest's law key for this file"))
        return declared
    if found_code is not None:
        return found_code
    if entry is None or not entry.law:
        diags.add(Diagnostic(Severity.INFO, "the text does not say whose law it is (no title, record id or manifest "
                             "law key): its citations name no code (\"§ 12(a)\")", path, 1, 1, "", "whose-law",
                             "give the file a law in the manifest (law = \"…\", a law of the table of codes)"))
    return Code()


def compile_text(text: str, file: str = "<input>", diagnostics: Diagnostics | None = None) -> Document:
    """Compile law text given as a string (tests, fuzzing): the same path a file takes."""
    src = SourceDocument(file, text, "", len(text.encode()))
    return compile_source(src, None, diagnostics)


def compile_file(path: str | Path, diagnostics: Diagnostics | None = None) -> Document:
    """One standalone file, no manifest. Raises NavlawError if the file cannot be read or decoded."""
    return compile_source(load(path), None, diagnostics)


def compile_bytes(data: bytes, file: str, diagnostics: Diagnostics | None = None) -> Document:
    return compile_text(decode(data, file), file, diagnostics)


def compile_corpus(root: str | Path = "corpus", cache: BuildCache | None = None, relative: bool = False) -> Corpus:
    """Every document of the manifest, compiled. Unreadable documents and manifest errors raise
    NavlawError with all their diagnostics; findings in the law text are collected in the result.
    With a ``cache``, a document whose bytes and manifest entry are unchanged is not parsed again.
    ``relative``: documents are named by their path relative to the manifest ("089-b.2022.txt"), not
    as the corpus was spelled ("corpus/…", "/home/…"): what a build publishes is the same wherever
    and however the corpus is given."""
    root = Path(root)
    if not root.is_dir():
        raise NavlawError([Diagnostic(Severity.ERROR, "no such corpus directory", str(root), code="input",
                                      hint="run from the repository root or pass --corpus DIR")])
    manifest = load_manifest(root)
    heap.map_large_blocks()
    read = {"manifest.toml": manifest.sha256}
    unreturned = 0  # bytes of documents read since the heap's free memory was last given back
    diags = Diagnostics()
    docs: list[Compiled] = []
    acts: list[Act] = []
    failures: list[Diagnostic] = []
    for entry in manifest.entries:
        try:
            src = load(root / entry.file, display=Path(entry.file).as_posix() if relative else str(root / entry.file),
                       format=entry.format)
        except NavlawError as exc:
            failures.extend(exc.diagnostics)
            continue
        read[entry.file] = src.sha256
        if entry.kind == "act":
            from navlaw.frontend.acts import codes_held, parse_act
            acts.append(parse_act(src, entry, diags, codes_held(manifest.entries, docs)))
            continue
        key = cache.key("document", src.path, src.sha256, repr(entry)) if cache is not None and cache.enabled else ""
        doc = _compile_cached(src, entry, diags, cache, key)
        docs.append(Compiled(src.released(doc.normal) if doc.normal is not None else src, doc, entry, key))
        unreturned += src.size
        if unreturned >= _GIVE_BACK_EVERY:
            del src
            heap.give_back()
            unreturned = 0
    if unreturned:
        heap.give_back()
    if failures:
        raise NavlawError(failures)
    corpus = Corpus(root, manifest, docs, diags, acts, read)
    _check_covers(corpus)
    return corpus


_GIVE_BACK_EVERY = 4 << 20  # bytes of documents read between two returns of free memory (each walks the heap)


def _compile_cached(src: SourceDocument, entry: Entry, diags: Diagnostics, cache: BuildCache | None,
                    key: str) -> Document:
    """compile_source, through the cache: the tree and the findings it gave, keyed by the bytes."""
    # the parser's lines of the document's sections, for the next compile after an edit (in a fresh process too)
    lines = cache.key("parse-chunks", src.path) if cache is not None and cache.enabled and key else ""

    def compile_own() -> tuple[Document, list[Diagnostic]]:
        own = Diagnostics()
        # a memo this process holds (``navlaw serve``) is not written again after each edit: the one on disk
        # misses only the chunks changed since, should a fresh process ever need it
        fresh = bool(lines) and chunks.memo_of(src.path) is None
        if fresh and cache is not None:
            chunks.recall(src.path, cache.get("parse-chunks", lines))
        doc = compile_source(src, entry, own, memo=bool(lines))
        kept = chunks.memo_of(src.path)
        if fresh and cache is not None and kept is not None:
            cache.put("parse-chunks", lines, kept)
        chunks.settle(src.path)
        return doc, own.items

    # hold: the tree and its findings are not changed after this (in ``navlaw serve``, written when it ends)
    doc, found = cache.through("document", key, compile_own, hold=True) if cache is not None else compile_own()
    if lines and cache is not None:
        cache.keep("parse-chunks", lines)
    diags.extend(found)
    return doc


def _check_covers(corpus: Corpus) -> None:
    """Each provision a document says it covers must be in that document's text. Linear in the ids:
    each quoted string of the manifest is indexed once with its lines, not searched for per id."""
    lines = corpus.manifest.text.split("\n")
    where: dict[str, list[int]] = {}  # '"89-b/4"' -> the lines (1-based, ascending) that hold it
    for k, line in enumerate(lines):
        for q in _QUOTED.findall(line):
            where.setdefault(q, []).append(k + 1)
    for c in corpus.documents:
        e = c.entry
        assert e is not None
        ids = {n.id for n in c.document.walk()}
        hint = ""
        for cov in e.covers:
            if cov in ids:
                continue
            at = where.get(f'"{cov}"', [])
            i = bisect_left(at, e.line)
            at_line = at[i] if i < len(at) else e.line
            if not hint:
                hint = ("the provisions it has at top level: "
                        + ", ".join(n.id for n in c.document.walk() if n.id.count("/") <= 1 and n.id)[:200])
            corpus.diagnostics.add(Diagnostic(
                Severity.ERROR, f"{e.file} is said to cover {cov!r}, but its text has no such provision",
                str(corpus.manifest.path), at_line, 1, lines[at_line - 1], "manifest", hint))


_QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')
