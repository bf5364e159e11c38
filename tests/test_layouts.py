"""The same law in any layout gives the same result (issue 15, items 2, 4 and 5).

§ 89-b of the seed 089-b.2022.txt is re-rendered as New York publishes law text elsewhere; each
rendering must read into the same provisions, with the same ids and words, and (the LBDC record, put
in the corpus in place of the seed) the same tariffs and the same fee quotes."""

from __future__ import annotations

import datetime as dt
import json
import shutil
import sys
from decimal import Decimal

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from navlaw.cli import main
from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.corpus import compile_bytes, compile_text

from .conftest import CORPUS, load_module
from .layouts import escaped, lbdc, one_line_per_paragraph, paragraphs

SEED = CORPUS / "089-b.2022.txt"


def seed_paragraphs() -> list[str]:
    text = SEED.read_text(encoding="utf-8").replace("\\n", "\n")
    return [p for p in paragraphs(text) if not p.startswith("§ 89-B —")]  # the title line above the section


def provisions(doc) -> list[tuple[str, str, str]]:
    """(id, heading, words) of the section and every provision: what a lawyer reads, layout aside."""
    return [(n.id, n.heading, " ".join(n.text.split())) for n in doc.walk() if n.kind in ("section", "provision")]


def reference():
    return provisions(compile_text(SEED.read_text(encoding="utf-8"), "089-b.2022.txt"))


def test_the_seed_section_has_the_provisions_a_reader_sees():
    ref = reference()
    assert ref[0] == ("89-b", "Pilotage on Long Island Sound and Block Island Sound; rates", "")
    ids = [i for i, _, _ in ref]
    assert ids[:8] == ["89-b", "89-b/1", "89-b/2", "89-b/3", "89-b/4", "89-b/4/a", "89-b/4/b", "89-b/4/b/1"]
    assert dict((i, w) for i, _, w in ref)["89-b/3"].startswith("Violation of subdivision two of this section shall be a misdemeanor")


@pytest.mark.parametrize("width", [72, 80])
def test_the_lbdc_record_in_cp850_reads_as_the_seed(width):
    """72 columns puts "1." at the start of the second line; 80 keeps "rates. 1. Every" on the first."""
    data = lbdc("NAV89-B", seed_paragraphs(), width).encode("cp850")
    assert data.count(b"\xf5") == 1 and (b"rates. 1. Every" in data) == (width == 80)
    diags = Diagnostics()
    doc = compile_bytes(data, "089-b.lbdc.txt", diags)
    assert provisions(doc) == reference()
    assert not [d for d in diags if d.severity is not Severity.INFO]


def test_one_line_per_paragraph_and_literal_escapes_read_as_the_seed():
    paras = seed_paragraphs()
    for text in (one_line_per_paragraph(paras), escaped(paras)):
        diags = Diagnostics()
        assert provisions(compile_text(text, "089-b.txt", diags)) == reference()
        assert not [d for d in diags if d.severity is Severity.WARNING or d.severity is Severity.ERROR]


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(width=st.integers(min_value=60, max_value=120), indent=st.sampled_from(["  ", " ", "\t"]),
       record=st.booleans(), crlf=st.booleans())
def test_any_wrap_width_indent_and_line_ending_reads_as_the_seed(width, indent, record, crlf):
    """Hard wrap at any width, paragraphs indented by one or two spaces or a tab, with or without the
    LBDC record line, LF or CRLF: the same provisions with the same ids and words."""
    text = lbdc("NAV89-B", seed_paragraphs(), width).replace("\n  ", "\n" + indent)
    if not record:
        text = text.split("\n", 1)[1]
    if crlf:
        text = text.replace("\n", "\r\n")
    assert provisions(compile_text(text, "089-b.txt")) == reference()


def _strip_positions(value):
    """The tariffs as data: without the offsets and line numbers a layout changes, white space folded."""
    if isinstance(value, dict):
        return {k: (v.rsplit("/", 1)[-1] if k == "file" else _strip_positions(v)) for k, v in value.items()
                if not (k in ("start", "end", "line", "column") and isinstance(v, int))}
    if isinstance(value, list):
        return [_strip_positions(v) for v in value]
    # a cited excerpt is the raw text: the seed writes its line breaks as a literal "\n"
    return " ".join(value.replace("\\n", " ").split()) if isinstance(value, str) else value


def test_the_lbdc_record_in_place_of_the_seed_gives_the_same_tariffs_and_quotes(tmp_path, capsys):
    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    (corpus / SEED.name).write_bytes(lbdc("NAV89-B", seed_paragraphs()).encode("cp850"))

    tariffs = []
    for c in (CORPUS, corpus):
        capsys.readouterr()
        assert main(["tariffs", "--corpus", str(c), "--route", "long-island-sound", "--format", "json"]) == 0
        tariffs.append(_strip_positions(json.loads(capsys.readouterr().out)))
    assert tariffs[0] == tariffs[1] and len(tariffs[0]["tariffs"]) >= 3

    assert main(["build", "--corpus", str(corpus), "--out", str(tmp_path / "out"), "--module", str(tmp_path / "lbdc_fees"),
                 "--no-site", "--no-cache"]) == 0
    try:
        lb = load_module(tmp_path / "lbdc_fees", "lbdc_fees")
        import navlaw_fees as seed
        q = lb.quote("long-island-sound", units=350, on=dt.date(2026, 6, 1))
        assert q.total == Decimal("3811.50")  # 350 PU × $10.89, § 89-b(4)(b)(1) from 2026-01-01
        for on in (dt.date(2022, 8, 1), dt.date(2023, 6, 1), dt.date(2025, 6, 1), dt.date(2027, 6, 1)):
            for units in (150, 350, 600):
                a = seed.quote("long-island-sound", units=units, on=on)
                b = lb.quote("long-island-sound", units=units, on=on)
                assert (b.total, b.lines, b.notes) == (a.total, a.lines, a.notes)
    finally:
        sys.modules.pop("lbdc_fees", None)


def test_a_section_copied_from_a_web_page_keeps_the_page_chrome_out_of_the_law():
    """A section as a legal-information site shows it: breadcrumbs, the section's title, a citation
    line, the text, a disclaimer. The chrome is kept (nothing is lost) and flagged, never law."""
    paras = seed_paragraphs()
    page = ("Justia › U.S. Law › US Codes and Statutes › New York Laws › Navigation Law › Article 6 - Pilots\n"
            "Universal Citation: NY Nav L § 89-B (2022)\n"
            + one_line_per_paragraph(paras)
            + "Disclaimer: These codes may not be the most recent version. New York may have more current information.\n"
            "N.Y. Nav. Law § 89-b\n")
    diags = Diagnostics()
    doc = compile_text(page, "089-b.page.txt", diags)
    assert provisions(doc) == reference()
    chrome = [n.text for n in doc.walk() if "chrome" in n.flags]
    assert chrome == ["Justia › U.S. Law › US Codes and Statutes › New York Laws › Navigation Law › Article 6 - Pilots",
                      "Universal Citation: NY Nav L § 89-B (2022)",
                      "Disclaimer: These codes may not be the most recent version. New York may have more current information.",
                      "N.Y. Nav. Law § 89-b"]
    assert any(d.message.startswith("4 line(s) of web-page chrome") and d.line == 1 for d in diags)
    assert doc.source_text() == doc.normal.text


def test_the_manifest_format_key_is_checked_against_the_text(tmp_path):
    from navlaw.frontend.corpus import compile_corpus
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    (corpus / "a.txt").write_bytes(lbdc("NAV89-B", seed_paragraphs()).encode("cp850"))
    (corpus / "b.txt").write_text(one_line_per_paragraph(seed_paragraphs()), encoding="utf-8")
    (corpus / "manifest.toml").write_text(
        '[[document]]\nfile = "a.txt"\nkind = "section-text"\ncovers = ["89-b"]\nformat = "plain"\n\n'
        '[[document]]\nfile = "b.txt"\nkind = "section-text"\ncovers = ["89-b"]\nformat = "lbdc"\n', encoding="utf-8")
    messages = [(d.file.rsplit("/", 1)[-1], d.message) for d in compile_corpus(corpus).diagnostics
                if d.severity is Severity.WARNING]
    assert ("a.txt", 'the manifest says format = "plain", but the file holds LBDC record lines (`..SO DOC`): '
            "they are read as records") in messages
    assert ("b.txt", 'the manifest says format = "lbdc", but the file has no `..SO DOC` record line: it is read '
            "as plain law text") in messages
    (corpus / "manifest.toml").write_text('[[document]]\nfile = "a.txt"\nkind = "section-text"\nformat = "pdf"\n',
                                          encoding="utf-8")
    from navlaw.diagnostics import NavlawError
    with pytest.raises(NavlawError, match="unknown format 'pdf': expected one of plain, lbdc, bill"):
        compile_corpus(corpus)
