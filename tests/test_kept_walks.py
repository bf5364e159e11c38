"""What an incremental build keeps instead of doing again (issue 32, the site and OUT's tree at 10x), checked
to miss nothing: the anchors of the pages MkDocs does not render (kept from the last build, not copied), and
the files and directories of OUT's spare directories (one scandir each, not os.walk)."""

from __future__ import annotations

import os

import pytest

from navlaw.cache import BuildCache
from navlaw.site.mkdocs_build import build_site
from navlaw.site.mkdocs_errors import SiteError


def test_a_rendered_page_s_links_are_checked_against_the_kept_anchors_of_the_pages_not_rendered(tmp_path):
    """A page not rendered gives the link check the anchors it had (kept from the last build): a link to one
    of them passes, a link to an anchor it does not have fails as in a full build."""
    cache = BuildCache(tmp_path / "cache")
    home = "# Home\n\n## Part one\n\nText.\n"

    def site(link: str, more: str = "") -> dict[str, str]:
        return {"index.md": home, "other.md": f"# Other\n\nSee [the part]({link}).\n{more}"}

    assert build_site(site("index.md#part-one"), tmp_path / "a", None, cache).mode == "full"
    report = build_site(site("index.md#part-one", "More.\n"), tmp_path / "b", tmp_path / "a", cache)
    assert (report.mode, report.rendered) == ("incremental", 1)  # other.md only: index.md's anchors are kept
    with pytest.raises(SiteError) as caught:
        build_site(site("index.md#nowhere"), tmp_path / "c", tmp_path / "b", cache)
    assert "the page index.md has no anchor #nowhere" in str(caught.value)


def test_links_planted_in_out_s_spare_directories_are_removed_never_followed(tmp_path):
    """A link to a directory in the spare OUT directories (put there by someone between two builds) is not
    taken for a directory: where the build writes a file it is replaced by the file, elsewhere it goes; the
    directory it points to is not written through nor removed."""
    from navlaw.outputs import SPARE, keep_dirs, write_out

    cache = BuildCache(tmp_path / "cache")
    old, staged, elsewhere = tmp_path / "old", tmp_path / "new", tmp_path / "elsewhere"
    (old / "akn" / "12").mkdir(parents=True)
    (old / "akn" / "12" / "a.xml").write_text("old", encoding="utf-8")
    elsewhere.mkdir()
    (elsewhere / "keep.txt").write_text("someone's", encoding="utf-8")
    os.symlink(elsewhere, old / "akn" / "12" / "b.xml")  # where the build writes a file
    os.symlink(elsewhere, old / "akn" / "stray")  # where it writes nothing
    keep_dirs(old, cache)
    assert (tmp_path / "cache" / SPARE / "akn" / "stray").is_symlink()
    staged.mkdir()
    files = {"akn/12/a.xml": "new", "akn/12/b.xml": "new b"}
    write_out(staged, files, None, None, cache)
    assert {p.relative_to(staged).as_posix(): p.read_text(encoding="utf-8")
            for p in staged.rglob("*") if p.is_file() or p.is_symlink()} == files
    assert not (staged / "akn" / "12" / "b.xml").is_symlink()
    assert [p.name for p in elsewhere.iterdir()] == ["keep.txt"]


def test_out_s_texts_are_hashed_again_only_where_they_changed_and_a_changed_one_is_written(tmp_path):
    """``write_files`` keeps each text's digest for the next call (``navlaw serve``): a text that is the last
    one (the same object or an equal one) is not hashed again and its file is the last output's, linked; a
    changed text is hashed and written, never taken for the last one by its name."""
    from navlaw.cache import digest
    from navlaw.outputs import Texts, write_files

    texts = Texts()
    one, two = "one " * 50, "two " * 50
    first = write_files(tmp_path / "a", {"d/x.md": one, "d/y.md": two}, texts=texts)
    assert texts.hashed == 2
    again = "".join(["one "] * 50)  # equal, another object
    assert again is not one
    second = write_files(tmp_path / "b", {"d/x.md": again, "d/y.md": two.upper()}, tmp_path / "a", first,
                         texts=texts)
    assert texts.hashed == 3  # y.md's text only
    assert (tmp_path / "b" / "d" / "y.md").read_text(encoding="utf-8") == two.upper()
    assert second["d/y.md"][0] == digest(two.upper().encode("utf-8"))
    assert os.path.samefile(tmp_path / "a" / "d" / "x.md", tmp_path / "b" / "d" / "x.md")  # the last one's, linked
    third = write_files(tmp_path / "c", {"d/x.md": one, "d/y.md": two}, tmp_path / "b", second, texts=texts)
    assert texts.hashed == 4  # y.md's text changed back: hashed, written; x.md's is the one kept
    assert (tmp_path / "c" / "d" / "y.md").read_text(encoding="utf-8") == two and third["d/y.md"] != second["d/y.md"]


def test_a_text_made_as_it_is_written_is_not_kept_for_the_next_build(tmp_path):
    """Only the texts given as text (which the build holds anyway) are kept with their digests: a file made as it
    is written (OUT's Akoma Ntoso and findings in a build without the cache) is not held to the process's end,
    so writing OUT still holds one such file at a time (tests/test_memory.py)."""
    from navlaw.export.streamed import Files
    from navlaw.outputs import Texts, write_files

    files, texts = Files(), Texts()
    files["given.md"] = "given " * 50
    files.put("made.json", lambda: "made " * 50)
    write_files(tmp_path / "a", files, texts=texts)
    assert list(texts.last) == ["given.md"]
    assert (tmp_path / "a" / "made.json").read_text(encoding="utf-8") == "made " * 50


def test_texts_written_in_a_fork_are_kept_from_its_record_as_they_were_when_it_forked(tmp_path):
    """OUT is written in a forked process (navlaw.parallel) while the site is built: the digests it made stay
    there, so the parent keeps them from the record it sends back, each with the text as it was when the fork
    began (``before``); a text given anew after that is not taken for the one the fork wrote."""
    from navlaw.export.streamed import Files
    from navlaw.outputs import Texts, write_files

    texts = Texts()
    files = Files()
    files.update({"d/x.md": "one", "d/y.md": "two"})
    files.put("d/z.md", lambda: "made when written")
    before = texts.before(files)
    written = write_files(tmp_path / "a", files, texts=Texts())  # as in the fork: its own Texts
    files["d/y.md"] = "given anew"  # after the fork began
    texts.learned(before, written)
    assert set(texts.last) == {"d/x.md", "d/y.md"}  # z.md: not given as text, never kept
    again = Files()
    again.update({"d/x.md": "one", "d/y.md": "given anew", "d/z.md": "made when written"})
    record = write_files(tmp_path / "b", again, tmp_path / "a", written, texts=texts)
    assert texts.hashed == 2  # y.md's new text and z.md's; x.md's kept
    assert (tmp_path / "b" / "d" / "y.md").read_text(encoding="utf-8") == "given anew" and record["d/y.md"] != written["d/y.md"]
    ran_here = texts.before(again)
    write_files(tmp_path / "c", again, tmp_path / "b", record, texts=texts)
    kept = texts.last
    texts.learned(ran_here, {})  # it ran here: what it kept stays
    assert texts.last is kept and len(kept) == 3


def test_an_out_file_deleted_between_two_builds_of_one_process_is_written_again(tmp_path):
    """In one process (``navlaw serve``) OUT's texts are not hashed again (outputs.OUT_TEXTS), but whether the
    last build's copy is still there, as it left it, is asked of the disk every time: a page or data file
    deleted, or a page edited, by hand between two builds is written again, and the output is a clean build's."""
    import shutil

    from navlaw import outputs

    from .conftest import CORPUS
    from .test_incremental import AMENDED_2027, RATE_2027, amend, build, same_as_clean_build

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0  # the texts now kept in this process
    out = tmp_path / "build"
    page, data = out / "site-docs" / "law" / "2.md", next((out / "site-docs").rglob("*.json"))
    kept = {p: p.read_bytes() for p in (page, data)}
    page.unlink()
    data.unlink()
    other = next(p for p in (out / "site-docs" / "law").glob("*.md") if p != page)
    made = other.read_text(encoding="utf-8")
    other.write_text(made + "\nby hand\n", encoding="utf-8")
    hashed = outputs.OUT_TEXTS.hashed
    amend(corpus, AMENDED_2027, RATE_2027)
    assert build(tmp_path, corpus) == 0
    assert outputs.OUT_TEXTS.hashed - hashed < len(outputs.OUT_TEXTS.last) // 10  # the kept digests were used
    assert {p: p.read_bytes() for p in kept} == kept and other.read_text(encoding="utf-8") == made
    same_as_clean_build(tmp_path, corpus)
