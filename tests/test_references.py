"""Cross-references found in the law text, and the ones the corpus cannot resolve."""

from __future__ import annotations

from navlaw.law.references import find, lint

from .conftest import CONSOLIDATED, HUDSON


def test_references_in_words_and_digits(corpus):
    refs = find(corpus)
    pairs = {(r.source, r.target) for r in refs if not r.external}
    assert ("36", "35") in pairs and ("36", "35-a") in pairs  # "sections thirty-five and thirty-five-a of this chapter"
    assert ("89-a/4/b/1-c/iv", "95") in pairs  # file 002: "section ninety-five of this article"
    external = {r.text for r in refs if r.external}
    assert "section 15-0505 of the environmental conservation law" in external  # § 31


def test_unresolved_references_are_findings_with_positions(corpus):
    refs = find(corpus)
    known = {s.id for c in corpus.documents for s in c.document.sections()}
    found = [d for d in lint(corpus, refs, known) if d.code == "reference-unresolved"]
    assert any(d.file.endswith(CONSOLIDATED) and d.line == 153 and "§ 73-b" in d.message for d in found)
    assert not any(d.file.endswith(HUDSON) for d in found)  # file 002 cites §§ 88 and 95, both present


def test_a_document_not_named_txt_is_linted_alike(tmp_path):
    """The check does not go by the file's name: the consolidated text saved as .law (a .md, .html or .json
    document of the law alike) has its unresolved reference found at the same place."""
    import shutil

    from navlaw.frontend.corpus import compile_corpus

    from .conftest import CORPUS

    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    renamed = CONSOLIDATED.replace(".txt", ".law")
    (root / CONSOLIDATED).rename(root / renamed)
    manifest = root / "manifest.toml"
    manifest.write_text(manifest.read_text(encoding="utf-8").replace(f'"{CONSOLIDATED}"', f'"{renamed}"'),
                        encoding="utf-8")
    corpus = compile_corpus(root)
    refs = find(corpus)
    known = {s.id for c in corpus.documents for s in c.document.sections()}
    found = [d for d in lint(corpus, refs, known) if d.code == "reference-unresolved"]
    assert any(d.file.endswith(renamed) and d.line == 153 and "§ 73-b" in d.message for d in found)
