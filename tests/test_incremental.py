"""Incremental builds: after an amendment, `navlaw build` redoes only what the changed document
affects, and what it writes is byte for byte what a clean build of the amended corpus writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from navlaw.cli import main

from .conftest import CORPUS, LIS_2022

# § 89-b(4)(b)(1), file 001: the last rate of the schedule ("on and after January first, two thousand
# twenty-seven all vessels shall pay eleven dollars and twenty-two cents per pilotage unit").
RATE_2027 = "shall pay eleven dollars\\nand twenty-two cents"
AMENDED_2027 = "shall pay eleven dollars\\nand thirty cents"


def tree_bytes(root: Path) -> dict[str, bytes]:
    return {str(p.relative_to(root)): p.read_bytes() for p in sorted(root.rglob("*")) if p.is_file()}


def build(tmp: Path, corpus: Path, name: str = "build", *extra: str) -> int:
    return main(["build", "--corpus", str(corpus), "--out", str(tmp / name), "--module", str(tmp / f"{name}-fees"),
                 *extra])


def amend(corpus: Path, old: str, new: str) -> None:
    path = corpus / LIS_2022
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1
    path.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def corpus(tmp_path: Path) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    return root


def same_as_clean_build(tmp: Path, corpus: Path) -> None:
    assert build(tmp, corpus, "clean", "--no-cache") == 0
    assert tree_bytes(tmp / "build") == tree_bytes(tmp / "clean")
    # CHANGES (and the README that repeats it) say what changed since the module a build replaces: the one
    # output made of history, not of the corpus (tests/test_changelog.py)
    history = ("CHANGES", "README.md")
    assert ({k: v for k, v in tree_bytes(tmp / "build-fees").items() if k not in history}
            == {k: v for k, v in tree_bytes(tmp / "clean-fees").items() if k not in history})


def test_a_one_section_amendment_rebuilds_what_it_affects_and_nothing_else(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    assert "site: all 257 pages rendered (no earlier build in the cache)" in capsys.readouterr().out  # 257: § 137 (issue 27), law/outside and 21 NYCRR § 55.2's history (issue 30)
    site = tmp_path / "build" / "site"
    before = {p.relative_to(site).as_posix(): p.stat().st_ino for p in site.rglob("index.html")}
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    out = capsys.readouterr().out
    assert "1 of 5 documents parsed, 4 reused" in out
    # the Markdown of § 89-b's page and its history only (the other law pages are the last build's)
    assert "; 2 of 212 law and history pages written afresh;" in out
    # § 89-b's page and history, the tariffs, and the change report's year of the changed rate (2027),
    # not the other years nor the index of the years (the counts it gives did not change)
    assert "site: 4 of 257 pages rendered, the rest kept from the last build" in out
    after = {p.relative_to(site).as_posix(): p.stat().st_ino for p in site.rglob("index.html")}
    assert sorted(p for p in after if before.get(p) != after[p]) == [
        "changes/2027/index.html", "history/89-b/index.html", "law/89-b/index.html", "tariffs/index.html"]
    tariffs = (tmp_path / "build" / "tariffs.json").read_text(encoding="utf-8")
    assert '"formula": "11.30 × PU"' in tariffs and '11.22 × PU' not in tariffs
    assert "eleven dollars and thirty cents" in (tmp_path / "build" / "site" / "law" / "89-b" / "index.html").read_text()
    same_as_clean_build(tmp_path, corpus)


def test_an_unchanged_corpus_is_up_to_date_and_nothing_is_rewritten(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    stamps = {p: p.stat().st_mtime_ns for p in (tmp_path / "build").rglob("*")}
    assert build(tmp_path, corpus) == 0
    assert "are up to date" in capsys.readouterr().out
    assert {p: p.stat().st_mtime_ns for p in (tmp_path / "build").rglob("*")} == stamps


def test_a_damaged_cache_is_a_miss_with_a_warning(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    for entry in (tmp_path / ".build-cache").glob("*/*.sealed"):
        entry.write_bytes(b"not a pickle")
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    captured = capsys.readouterr()
    assert "could not be read (its seal does not match: written by someone else, edited, or another entry); rebuilt" in captured.err
    assert "site: all 257 pages rendered (no earlier build in the cache)" in captured.out
    same_as_clean_build(tmp_path, corpus)


def test_a_site_changed_by_hand_is_rebuilt_whole(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus) == 0
    (tmp_path / "build" / "site" / "index.html").write_text("edited by hand", encoding="utf-8")
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert "(the earlier site is not the one the cache remembers)" in capsys.readouterr().out
    same_as_clean_build(tmp_path, corpus)


def test_a_page_that_loses_an_anchor_makes_a_full_build(tmp_path, corpus, capsys):
    # Repeal § 89-b(5): § 89-b's page and its history lose the anchors of that subdivision,
    # which a page the incremental build would not render might link to: it starts over as a full one.
    assert build(tmp_path, corpus) == 0
    text = (corpus / LIS_2022).read_text(encoding="utf-8")
    start = text.index("\\n 5. The board of commissioners of pilots is hereby authorized")
    amend(corpus, text[start:text.index("Long Island Sound.\\n", start) + len("Long Island Sound.\\n")], "\\n")
    assert build(tmp_path, corpus) == 0
    out = capsys.readouterr().out
    assert "site: all 257 pages rendered (" in out and "lost anchor #" in out and "p-89-b-5" in out
    same_as_clean_build(tmp_path, corpus)


def test_an_incremental_build_that_fails_leaves_the_previous_output_and_a_sound_cache(tmp_path, corpus, capsys,
                                                                                      monkeypatch):
    from navlaw.site import mkdocs_build as site_build

    assert build(tmp_path, corpus) == 0
    before = tree_bytes(tmp_path / "build"), tree_bytes(tmp_path / "build-fees")
    amend(corpus, RATE_2027, AMENDED_2027)
    real = site_build._mkdocs

    def fails_after_writing(work, out, *args, **kwargs):  # type: ignore[no-untyped-def]
        real(work, out, *args, **kwargs)
        raise OSError("disk full (simulated)")

    monkeypatch.setattr(site_build, "_mkdocs", fails_after_writing)
    assert build(tmp_path, corpus) == 1  # one line, exit 1 (issue 12: a full disk is not a traceback)
    assert "cannot write the outputs: disk full (simulated); the previous output is unchanged" in capsys.readouterr().err
    assert (tree_bytes(tmp_path / "build"), tree_bytes(tmp_path / "build-fees")) == before
    monkeypatch.setattr(site_build, "_mkdocs", real)
    assert build(tmp_path, corpus) == 0
    same_as_clean_build(tmp_path, corpus)


def test_a_cache_that_cannot_be_written_is_a_warning_not_a_failure(tmp_path, corpus, capsys):
    (tmp_path / ".build-cache").write_text("a file where the cache directory should be")
    assert build(tmp_path, corpus) == 0
    assert "no build cache:" in capsys.readouterr().err
    same_as_clean_build(tmp_path, corpus)


def test_no_cache_writes_no_cache(tmp_path, corpus, capsys):
    assert build(tmp_path, corpus, "build", "--no-cache") == 0
    assert not (tmp_path / ".build-cache").exists()


def test_an_output_file_edited_by_hand_is_written_again_not_linked(tmp_path, corpus, capsys):
    """Unchanged outputs are hard links to the last build's files, but only files as that build left them."""
    assert build(tmp_path, corpus) == 0
    page = tmp_path / "build" / "site-docs" / "law" / "2.md"
    made = page.read_text(encoding="utf-8")
    page.write_text(made.replace("Definitions", "Definitiona"), encoding="utf-8")  # same size, new time
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert page.read_text(encoding="utf-8") == made
    same_as_clean_build(tmp_path, corpus)


def test_the_site_a_build_replaces_starts_the_next_one_and_the_result_is_a_clean_build(tmp_path, corpus, capsys):
    """The replaced site is kept in the cache (moved, not copied) and made to mirror the current one at
    the next incremental build: its pages' directories are not made again. Amended, amended back and
    amended again, the output is still byte for byte a clean build's."""
    from navlaw.build import cache_dir

    assert build(tmp_path, corpus) == 0
    spare = cache_dir(str(tmp_path / "build")) / "site-spare"
    assert not spare.exists()  # nothing was replaced yet
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert (spare / "law" / "89-b" / "index.html").is_file()  # the first build's site
    amend(corpus, AMENDED_2027, RATE_2027)
    assert build(tmp_path, corpus) == 0  # starts from the spare
    out = capsys.readouterr().out
    assert out.count("site: 4 of 257 pages rendered, the rest kept from the last build") == 2
    page = (tmp_path / "build" / "site" / "law" / "89-b" / "index.html").read_text(encoding="utf-8")
    assert "eleven dollars and twenty-two cents" in page
    same_as_clean_build(tmp_path, corpus)
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    same_as_clean_build(tmp_path, corpus)


def test_pages_rendered_on_several_cores_are_the_pages_rendered_on_one(tmp_path, corpus, monkeypatch):
    """Issue 18, item 2: with many pages to render, forked workers render them; the site is byte for byte
    the one a single process renders (here with the threshold lowered so the small corpus uses the pool)."""
    import multiprocessing  # render imports it where it forks (not at 1x's few pages)

    from navlaw.site import render

    pools: list[str] = []
    real_context = multiprocessing.get_context
    rendering: list[bool] = []

    def context(method):  # type: ignore[no-untyped-def]
        if rendering:  # render's pool, not the site's or the search's
            pools.append(method)
        return real_context(method)

    monkeypatch.setattr(multiprocessing, "get_context", context)
    monkeypatch.setattr(render, "PARALLEL_AT", 1)
    monkeypatch.setenv("NAVLAW_JOBS", "2")
    pool_sizes: list[int] = []
    real_all = render.render_all

    def spy(makes):  # type: ignore[no-untyped-def]
        pool_sizes.append(len(makes))
        rendering.append(True)
        try:
            return real_all(makes)
        finally:
            rendering.pop()

    monkeypatch.setattr(render, "render_all", spy)
    assert build(tmp_path, corpus, "build", "--no-cache") == 0
    # every law and history page (212) and article page (14), in one pool of workers
    assert pool_sizes == [212 + 14] and pools == ["fork"]
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    assert build(tmp_path, corpus, "serial", "--no-cache") == 0
    assert pools == ["fork"]  # no pool the second time
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "serial")


def test_files_someone_put_in_the_output_survive_a_rebuild(tmp_path, corpus, capsys):
    """A rebuild replaces navlaw's outputs whole, never someone's files: a note and a directory of
    screenshots in OUT are carried over (and said); a site an earlier build wrote is navlaw's and goes
    with --no-site."""
    assert build(tmp_path, corpus) == 0
    out = tmp_path / "build"
    (out / "note.txt").write_text("mine", encoding="utf-8")
    (out / "screenshots").mkdir()
    (out / "screenshots" / "a.png").write_bytes(b"\x89PNG")
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert "kept in " in (said := capsys.readouterr().out) and "(not navlaw's, carried over): note.txt, screenshots/" in said
    assert (out / "note.txt").read_text(encoding="utf-8") == "mine"
    assert (out / "screenshots" / "a.png").read_bytes() == b"\x89PNG"
    assert build(tmp_path, corpus, "build", "--no-site") == 0
    assert not (out / "site").exists() and (out / "note.txt").is_file()


def test_the_theme_s_file_list_is_kept_for_the_next_process(tmp_path, monkeypatch):
    """MkDocs lists Material's thousands of files at each build; the list is kept in the user's cache
    (JSON), so the next process reads it instead. A damaged copy is listed again, not trusted."""
    from navlaw.site import mkdocs_build as mb

    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    monkeypatch.setattr(mb, "_THEME_FILES", {})  # as a new process starts
    assert build(tmp_path, CORPUS, "one", "--no-cache") == 0
    kept = list((tmp_path / "xdg" / "navlaw" / "theme-files").glob("*.json"))
    assert len(kept) == 1 and any(f.startswith("assets/javascripts/bundle.") for f in mb._kept_list(kept[0].stem))

    def listed_again(key, files):  # noqa: ANN001, ANN202
        raise AssertionError("the theme was listed again")
    monkeypatch.setattr(mb, "_THEME_FILES", {})
    monkeypatch.setattr(mb, "_keep_list", listed_again)
    assert build(tmp_path, CORPUS, "two", "--no-cache") == 0  # the kept list was read
    assert tree_bytes(tmp_path / "two" / "site") == tree_bytes(tmp_path / "one" / "site")

    kept[0].write_text("[not json", encoding="utf-8")
    monkeypatch.setattr(mb, "_THEME_FILES", {})
    with pytest.raises(AssertionError, match="listed again"):
        build(tmp_path, CORPUS, "three", "--no-cache")


def test_a_one_word_edit_in_one_section_of_the_large_document_renders_that_section_only(tmp_path, corpus, capsys):
    """Issue 32: a word of another length early in the consolidated document moves every node after it
    in the file; the pages of the sections after it show the same law and are not written again."""
    assert build(tmp_path, corpus) == 0
    capsys.readouterr()
    path = corpus / "nav-law.consolidated.txt"
    text = path.read_text(encoding="utf-8")
    old = "who shall have a practical knowledge of the construction"
    assert text.count(old) == 1 and text.index(old) < len(text) // 10  # early: most of the document follows
    path.write_text(text.replace(old, "who shall have a thorough and practical knowledge of the construction"),
                    encoding="utf-8")
    assert build(tmp_path, corpus) == 0
    out = capsys.readouterr().out
    assert "1 of 5 documents parsed, 4 reused" in out
    assert "; 1 of 212 law and history pages written afresh;" in out  # § 12's page
    assert "site: 1 of 257 pages rendered, the rest kept from the last build" in out
    assert "thorough and practical knowledge" in (tmp_path / "build" / "site" / "law" / "12" / "index.html").read_text()
    same_as_clean_build(tmp_path, corpus)


def test_a_one_word_edit_makes_the_akoma_ntoso_of_that_section_only(tmp_path, corpus, capsys, monkeypatch):
    """Issue 32: each section's Akoma Ntoso is kept under its inputs (the law less its place in the file):
    after a one-word edit of § 12 only § 12's file is made again, and every file is a clean build's."""
    from navlaw.export.akn import Export

    made: list[str] = []
    real = Export.document

    def counted(self: Export, section: str, day: object) -> str:
        made.append(section)
        return real(self, section, day)  # type: ignore[arg-type]
    monkeypatch.setattr(Export, "document", counted)
    assert build(tmp_path, corpus) == 0
    everything = len(made)
    assert everything > 200  # every section on every date its text changes
    path = corpus / "nav-law.consolidated.txt"
    text = path.read_text(encoding="utf-8")
    old = "who shall have a practical knowledge of the construction"
    path.write_text(text.replace(old, "who shall have a thorough knowledge of the construction"), encoding="utf-8")
    made.clear()
    assert build(tmp_path, corpus) == 0
    assert made == ["12"]
    assert "thorough knowledge" in (tmp_path / "build" / "akn" / "12").joinpath(
        next(p.name for p in (tmp_path / "build" / "akn" / "12").iterdir())).read_text(encoding="utf-8")
    made.clear()
    amend(corpus, RATE_2027, AMENDED_2027)  # an amendment of § 89-b: its files from that date on, no other
    assert build(tmp_path, corpus) == 0
    assert made and set(made) == {"89-b"} and len(made) < everything // 20
    capsys.readouterr()
    same_as_clean_build(tmp_path, corpus)
    assert len(made) > everything  # the clean build (--no-cache) made every file


def test_the_akoma_ntoso_memo_keys_on_what_a_file_shows(corpus):
    """A file's key changes with the section's law and with the works its references link to, and not with
    where the section is in its file."""
    import dataclasses

    from navlaw.build import read_law
    from navlaw.export.akn import Export

    law = read_law(str(corpus), relative=True)
    export = Export(law.corpus, law.timeline)
    day = export.dates("12")[0]
    key, works = export.inputs("12", day), export.works_key()
    section = law.timeline.section_on("12", day).section
    assert section is not None and section.line > 1
    moved = dataclasses.replace(section, line=section.line + 7, column=section.column + 1)
    law.timeline.__dict__["_composed"][("12", day)] = dataclasses.replace(law.timeline.section_on("12", day),
                                                                           section=moved)
    assert export.inputs("12", day) == key  # moved in its file: the same file
    reworded = dataclasses.replace(moved, heading=(moved.heading or "") + " (reworded)")
    law.timeline.__dict__["_composed"][("12", day)] = dataclasses.replace(law.timeline.section_on("12", day),
                                                                           section=reworded)
    assert export.inputs("12", day) != key
    other = next(s for s in export.works if s != "12")
    export.works[other] = dataclasses.replace(export.works[other], code="other")
    assert export.works_key() != works  # a reference to it links elsewhere now


def test_a_new_output_starts_from_the_directories_of_the_one_it_replaced_and_never_writes_through_them(tmp_path):
    """OUT/akn/ and OUT/site-docs/ hold a directory per section: the replaced OUT's are kept in the cache
    and the next build writes into them (no directory made or removed per section). What the spare holds
    may be hard links to the output in use: replaced, never written through; what the build does not
    write goes, as does a directory where a file goes now and a file where a directory goes."""
    import os

    from navlaw.cache import BuildCache
    from navlaw.outputs import SPARE, keep_dirs, write_out

    cache = BuildCache(tmp_path / "cache")
    live, old, staged = tmp_path / "out", tmp_path / "old", tmp_path / "new"
    (live / "akn" / "12").mkdir(parents=True)
    (live / "akn" / "12" / "a.xml").write_text("in use", encoding="utf-8")
    for name in ("akn/12", "akn/gone", "akn/was-a-dir/x", "site-docs"):
        (old / name).mkdir(parents=True)
    os.link(live / "akn" / "12" / "a.xml", old / "akn" / "12" / "a.xml")
    (old / "akn" / "gone" / "b.xml").write_text("old", encoding="utf-8")
    (old / "akn" / "was-a-dir" / "x" / "c.xml").write_text("old", encoding="utf-8")
    (old / "site-docs" / "law").write_text("a file where a directory goes now", encoding="utf-8")
    keep_dirs(old, cache)
    assert not (old / "akn").exists() and (tmp_path / "cache" / SPARE / "akn" / "12" / "a.xml").is_file()
    folder = (tmp_path / "cache" / SPARE / "akn" / "12").stat().st_ino
    staged.mkdir()
    files = {"akn/12/a.xml": "new text", "akn/was-a-dir": "now a file", "site-docs/law/12.md": "page"}
    write_out(staged, files, live, None, cache)
    assert (live / "akn" / "12" / "a.xml").read_text(encoding="utf-8") == "in use"  # not written through
    assert {p.relative_to(staged).as_posix(): p.read_text(encoding="utf-8")
            for p in staged.rglob("*") if p.is_file()} == files
    assert (staged / "akn" / "12").stat().st_ino == folder  # the spare's directory, not made again
    assert not (staged / "akn" / "gone").exists() and not (tmp_path / "cache" / SPARE / "akn").exists()


def test_writing_out_again_after_an_attempt_that_failed_half_way_leaves_nothing_stale(tmp_path):
    """OUT is written in a forked process (navlaw.parallel) and, if that fails, written again here into the
    same staging directory: what the failed attempt moved in from the spare is not taken for the build's
    own, so a file of the old OUT that the build does not write does not stay."""
    from navlaw.cache import BuildCache
    from navlaw.outputs import _take_dirs, keep_dirs, write_out

    cache = BuildCache(tmp_path / "cache")
    old, staged = tmp_path / "old", tmp_path / "new"
    (old / "akn" / "gone").mkdir(parents=True)
    (old / "akn" / "gone" / "b.xml").write_text("old", encoding="utf-8")
    keep_dirs(old, cache)
    staged.mkdir()
    files = {"akn/12/a.xml": "new text"}
    assert _take_dirs(staged, cache, files) == {"akn/gone/b.xml"}  # the first attempt, stopped here
    write_out(staged, files, None, None, cache)  # made again
    assert {p.relative_to(staged).as_posix() for p in staged.rglob("*") if p.is_file()} == set(files)


def test_rebuilds_from_the_kept_directories_are_clean_builds(tmp_path, corpus, capsys):
    """Edit after edit (the third build on starts from the directories the first one wrote), with and
    without the site, the outputs are byte for byte a clean build's."""
    from navlaw.build import cache_dir

    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    spare = cache_dir(str(tmp_path / "build")) / "out-spare"
    assert (spare / "akn").is_dir() and (spare / "site-docs").is_dir()
    amend(corpus, AMENDED_2027, RATE_2027)
    assert build(tmp_path, corpus) == 0
    same_as_clean_build(tmp_path, corpus)
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus, "build", "--no-site") == 0
    assert not (tmp_path / "build" / "site-docs").exists()
    assert build(tmp_path, corpus, "clean", "--no-cache", "--no-site") == 0
    assert tree_bytes(tmp_path / "build") == tree_bytes(tmp_path / "clean")


def test_an_edit_of_a_section_reaches_the_pages_that_cite_it(tmp_path, corpus, capsys):
    """§ 176(1) cites "section one hundred seventy-three of this article", a link to § 173's page. Renumber
    § 173 in the consolidated document and § 176's page (not edited) loses the link, as a clean build's
    does: the page memo keys on the anchors of the whole site, not only on the page's own law."""
    assert build(tmp_path, corpus) == 0
    page = tmp_path / "build" / "site-docs" / "law" / "176.md"
    assert 'href="../173/#p-173">section one hundred seventy-three of this article</a>' in page.read_text(encoding="utf-8")
    path = corpus / "nav-law.consolidated.txt"
    text = path.read_text(encoding="utf-8")
    old = next(line for line in text.splitlines() if line.endswith(" 173. Discharge of petroleum; prohibition."))
    assert text.count(old) == 1
    path.write_text(text.replace(old, old.replace(" 173.", " 173-z.")), encoding="utf-8")
    capsys.readouterr()
    assert build(tmp_path, corpus) == 0
    cited = page.read_text(encoding="utf-8")
    assert "section one hundred seventy-three of this article" in cited and "../173/" not in cited
    same_as_clean_build(tmp_path, corpus)
