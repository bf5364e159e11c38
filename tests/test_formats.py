"""Input formats as plug-ins (issue 26, item 2): one module per format behind one interface, one registry.

A format written here, in the test, and registered at run time is read by the whole front end and a
build, with nothing else of navlaw changed; every registered format accounts for every character of
the texts it reads (law, or lines and marks kept out of the law, with their offsets)."""

from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pytest

from navlaw.diagnostics import Diagnostics, NavlawError
from navlaw.frontend import formats
from navlaw.frontend.corpus import compile_corpus, compile_source
from navlaw.frontend.formats.base import KEPT_ROLES, LAW_ROLES, Decoded, SourceLine, decode_text
from navlaw.frontend.load import SourceDocument, load
from navlaw.frontend.normalize import normalize

from .conftest import CONSOLIDATED, CORPUS, ROOT

OUTSIDE = ROOT.parent / "shared" / "outside"
# The Markdown law's file name: .txt, as law texts are named (law/references.py lints the references of
# .txt documents only, whatever their format)
LAW_MD = "nav-law.md.txt"


class Markdown:
    """A law written as Markdown: "# Article 2 - …" and "## § 10. …" headings (the hashes are markup, not
    law), "> …" notes of the editor, "---" rules between parts. The whole format: these five members."""

    name = "markdown"
    _MARK = re.compile(r"(#{1,6})[ \t]+")

    def detect(self, data: bytes) -> float:
        return 0.9 if re.search(rb"(?m)^#{1,6}[ \t]+(?:\xc2\xa7|\xef\xbd\xa7|Section|Article)", data) else 0.0

    def decode(self, data: bytes, path: str) -> Decoded:
        return decode_text(data, path)

    def refuse(self, text: str, path: str) -> None:
        return None

    def lines(self, text: str) -> list[SourceLine]:
        out = []
        for m in re.finditer(r"[^\n]*\n|[^\n]+$", text):
            start, end = m.start(), m.end()
            stop = end - 1 if m.group().endswith("\n") else end
            line = text[start:stop]
            mark = self._MARK.match(line)
            if not line.strip():
                out.append(SourceLine(start, end, "blank", start, stop))
            elif mark:
                out.append(SourceLine(start, end, "heading", start + mark.end(), stop))
            elif line.startswith(">"):
                out.append(SourceLine(start, end, "editorial-note", start, stop))
            elif re.fullmatch(r"-{3,}[ \t]*", line):
                out.append(SourceLine(start, end, "furniture", start, stop))
            else:
                out.append(SourceLine(start, end, "law", start, stop))
        return out


@pytest.fixture
def markdown():
    fmt = formats.register(Markdown())
    yield fmt
    formats.unregister(fmt.name)


def _as_markdown(text: str) -> str:
    """The consolidated law as a Markdown page: its headings marked, an editor's note on top, a rule
    before each article."""
    out = ["> Note: the Navigation Law, written as Markdown for this test.", ""]
    for line in text.split("\n"):
        if re.match(r"(?:ｧ|§)[ \t]*\d", line):
            out.append("## " + line)
        elif re.match(r"Article[ \t]+\d", line):
            out += ["---", "", "# " + line]
        else:
            out.append(line)
    return "\n".join(out)


def _markdown_corpus(tmp_path: Path, declared: bool = True) -> tuple[Path, str]:
    """A copy of the corpus whose consolidated law is written as Markdown, and that Markdown."""
    copy = tmp_path / "corpus"
    shutil.copytree(CORPUS, copy)
    md = _as_markdown((CORPUS / CONSOLIDATED).read_text(encoding="utf-8"))
    (copy / CONSOLIDATED).unlink()
    (copy / LAW_MD).write_text(md, encoding="utf-8")
    manifest = (copy / "manifest.toml").read_text(encoding="utf-8")
    entry = f'file = "{LAW_MD}"\nformat = "markdown"' if declared else f'file = "{LAW_MD}"'
    (copy / "manifest.toml").write_text(manifest.replace(f'file = "{CONSOLIDATED}"', entry, 1), encoding="utf-8")
    return copy, md


def _law(doc) -> list[tuple[str, str, str, str, str]]:
    """What a lawyer reads of a tree: each node's id, kind, label, heading and text, the lines kept out
    of the law aside."""
    return [(n.id, n.kind, n.label, n.heading, n.text) for n in doc.walk()
            if n.kind != "document" and not KEPT_ROLES.intersection(n.flags)]


@pytest.mark.parametrize("declared", [True, False], ids=["declared", "detected"])
def test_a_format_registered_at_run_time_reads_a_corpus(tmp_path, markdown, corpus, declared):
    """A copy of the corpus whose consolidated law is Markdown, named in the manifest by the new format
    (or left to detection) compiles to the same law as the original; the markup is out of the headings,
    the editor's note and the rules are kept, flagged, and every offset maps back into the .md file."""
    copy, md = _markdown_corpus(tmp_path, declared)

    got = compile_corpus(copy)
    doc = got.by_file(str(copy / LAW_MD)).document
    original = corpus.by_file(str(CORPUS / CONSOLIDATED)).document
    assert got.by_file(str(copy / LAW_MD)).source.format == "markdown"
    assert _law(doc) == _law(original)
    assert sum(1 for n in doc.walk() if n.kind == "section") > 100
    assert not any("#" in n.heading for n in doc.walk())
    flags = [n.flags for n in doc.walk() if n.kind == "text" and KEPT_ROLES.intersection(n.flags)]
    assert ("editorial-note",) in flags and flags.count(("furniture",)) == md.count("\n---\n")
    # lossless: the tree tiles the text the grammar read, and that text maps back to the file exactly
    assert doc.source_text() == doc.normal.text
    assert doc.normal.denormalize() == md
    raw_lines = md.split("\n")
    s10 = next(n for n in doc.walk() if n.kind == "section" and n.label == "10")
    assert raw_lines[s10.line - 1].startswith("## ") and s10.column == 4  # after the markup, in the .md file
    assert [d.message for d in got.diagnostics if d.severity.name == "ERROR"] == [
        d.message for d in corpus.diagnostics if d.severity.name == "ERROR"]


def _placeless(value: object) -> object:
    """A build's JSON without where things are in their files (the Markdown has more lines, another name)."""
    if isinstance(value, dict):
        return {k: _placeless(v) for k, v in value.items()
                if k not in ("file", "line", "column", "span", "lines", "start", "end")}
    if isinstance(value, list):
        return [_placeless(v) for v in value]
    if isinstance(value, str):  # the file's name, its stem in ids ("…@nav-law.consolidated"), a table's line
        value = value.replace(LAW_MD, CONSOLIDATED).replace(Path(LAW_MD).stem, Path(CONSOLIDATED).stem)
        return re.sub(r"/table-[0-9]+", "/table-", value)
    return value


def test_a_corpus_in_a_registered_format_builds(tmp_path, markdown):
    """`navlaw build` on the Markdown corpus: exit 0, the same tariffs and the same findings as the corpus
    as received (but the note that counts the lines kept out of the law: the Markdown's rules)."""
    from navlaw.cli import main

    copy, _ = _markdown_corpus(tmp_path)
    for corpus_dir, out in ((CORPUS, "as-received"), (copy, "markdown")):
        assert main(["build", "--no-site", "--corpus", str(corpus_dir), "--out", str(tmp_path / out),
                     "--module", str(tmp_path / f"{out}-module")]) == 0
    read = [{name: json.loads((tmp_path / out / name).read_text(encoding="utf-8"))
             for name in ("tariffs.json", "diagnostics.json")} for out in ("as-received", "markdown")]
    assert read[0]["tariffs.json"]["tariffs"]
    assert _placeless(read[0]["tariffs.json"]) == _placeless(read[1]["tariffs.json"])
    found = [sorted(str(_placeless(d)) for d in r["diagnostics.json"]["diagnostics"]
                    if "line(s) of a bill print's furniture" not in d["message"]) for r in read]
    assert found[0] == found[1]


def test_a_registered_format_is_a_manifest_format_value(tmp_path, markdown):
    (tmp_path / "a.md").write_text("## § 4. Short title.\n\nThis chapter is a test.\n", encoding="utf-8")
    (tmp_path / "manifest.toml").write_text('[[document]]\nfile = "a.md"\nkind = "consolidated"\nformat = "markdown"\n',
                                            encoding="utf-8")
    assert compile_corpus(tmp_path).documents[0].document.children[0].id == "4"
    formats.unregister("markdown")
    with pytest.raises(NavlawError, match="unknown format 'markdown': expected one of plain, lbdc, bill"):
        compile_corpus(tmp_path)


def test_the_registry_names_every_format_once_and_detects_the_outside_texts():
    assert formats.names()[:3] == ("plain", "lbdc", "bill")
    assert len(set(formats.names())) == len(formats.names())
    seen = {p.name: formats.detect(p.read_bytes()).name for p in OUTSIDE.iterdir() if p.name != "README.md"}
    assert seen["ol.DATABASE.LAW.ETP.txt"] == "lbdc"
    assert seen["derived.DATABASE.LAW.ABC.2020.cp850.txt"] == "lbdc"
    assert seen["nylg.2023-A3380.md"] == "bill"
    assert seen["ol.BudgetBill-A3007A-2017.txt"] == "bill"
    assert seen["ol.senate-site-law_dump-ABP.json"] == "nysenate-json"
    assert seen["ol.DATABASE.LAW.NO_HEADER.txt"] == "plain"
    assert formats.detect((CORPUS / "21nycrr-55.2.proposed-2016.txt").read_bytes()).name == "plain"  # no Westlaw lines
    assert formats.detect(b"21 CRR-NY 51.1\nNY-CRR\n51.1 Sandy Hook pilot apprentices.\n").name == "nycrr"
    assert formats.detect(b"..SO DOC NAV88-A            *REPEAL*                 LAWS(CONSOLIDATED)\n").name == "lbdc-update"


def _texts() -> list[Path]:
    return sorted([*CORPUS.glob("*.txt"), *(p for p in OUTSIDE.iterdir() if p.name != "README.md")])


def _accounted(text: str, lines: list[SourceLine]) -> None:
    """The lines tile the text; each line's body lies inside it; every character is law text (in the
    body of a law line), or kept out of the law (a kept line, or a mark outside a body), or a line break."""
    assert lines and lines[0].start == 0 and lines[-1].end == len(text)
    for a, b in zip(lines, lines[1:]):
        assert a.end == b.start
    law = kept = marks = breaks = 0
    for line in lines:
        assert line.start <= line.body_start <= line.body_end <= line.end, line
        assert line.role in LAW_ROLES | KEPT_ROLES, line.role
        body = line.body_end - line.body_start
        law += body if line.role in LAW_ROLES else 0
        kept += body if line.role in KEPT_ROLES else 0
        marks += (line.body_start - line.start) + (line.end - line.body_end) - text.count("\n", line.body_end, line.end)
        breaks += text.count("\n", line.start, line.end)
    assert law + kept + marks + breaks == len(text)


@pytest.mark.parametrize("name", formats.names())
def test_every_registered_format_accounts_for_every_character(name):
    """Each format, forced on every corpus and outside text: its lines account for every character, and
    the tree it gives is lossless (the tests' own checks: source_text, denormalize); a text the format
    recognises as not law is refused with what to do, never read."""
    fmt = formats.named(name)
    read = refused = 0
    for path in _texts():
        try:
            src = load(path)
        except NavlawError:
            continue
        src = SourceDocument(src.path, src.text, src.sha256, src.size, src.encoding, name)
        try:
            doc = compile_source(src, None, Diagnostics())
        except NavlawError as exc:
            assert exc.diagnostics[0].hint, exc.diagnostics[0]  # says what to do
            refused += 1
            continue
        nt = normalize(src.text)
        _accounted(nt.text, fmt.lines(nt.text))
        assert doc.source_text() == doc.normal.text
        assert doc.normal.denormalize() == src.text
        for n in doc.walk():  # a kept line is in the tree, flagged with its role, at its place in the file
            if n.kind == "text" and KEPT_ROLES.intersection(n.flags):
                assert n.line >= 1 and n.text.strip()
        read += 1
    assert read >= 20 and refused == 2  # the JSON dump and the HTML print, whatever format is forced


def test_a_format_that_marks_within_lines_keeps_offsets_to_the_file(markdown):
    raw = "> Note: a test.\n\n## § 4. Short title.\n\n1. The law.\n---\n## § 5. Other.\n\nMore law.\n"
    src = SourceDocument("t.md", raw, "", len(raw), "utf-8", "markdown")
    doc = compile_source(src, None, Diagnostics())
    sections = [n for n in doc.walk() if n.kind == "section"]
    assert [(s.label, s.heading, s.line, s.column) for s in sections] == [("4", "Short title", 3, 4), ("5", "Other", 7, 4)]
    assert doc.normal.denormalize() == raw
    assert [n.flags for n in doc.walk() if n.kind == "text"][:1] == [("editorial-note",)]
