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
