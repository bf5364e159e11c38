"""A MkDocs strict-mode failure (a link to a page or an anchor the site does not have) is a navlaw build error:
which page, which link, where in the page's Markdown (line, column, caret), what to do; exit 1 as other build
errors, no traceback, and the previous output unchanged (issue 32; before, a RuntimeError traceback)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import navlaw.build as build_module
from navlaw.site.mkdocs_build import build_site
from navlaw.site.mkdocs_errors import SiteError, strict_failure

from .test_incremental import build, tree_bytes


def test_a_missing_anchor_names_the_page_the_link_its_place_and_what_to_do(tmp_path):
    files = {"index.md": "# Home\n\nSee [the other page](other.md).\n",
             "other.md": "# Other\n\nIntro.\n\nA link to [a part](index.md#nowhere) of the home page.\n"}
    with pytest.raises(SiteError) as caught:
        build_site(files, tmp_path / "site")
    message = str(caught.value)
    assert caught.value.code == 1
    assert "MkDocs (strict) found 1 problem" in message
    assert "site-docs/other.md:5:20: the link 'index.md#nowhere': the page index.md has no anchor #nowhere" in message
    # the caret under the link's first character
    line, caret = [x for x in message.splitlines() if "A link to" in x or x.strip() == "^"]
    assert line.index("index.md#nowhere") == caret.index("^")
    assert "what to do" in message and "--no-site" in message and "unchanged" in message


def test_a_link_to_no_page_and_other_messages_are_listed_each(tmp_path):
    error = strict_failure(["Doc file 'a.md' contains a link 'b.md', but the target is not found among "
                            "documentation files.", "Something else went wrong."] + ["x"] * 9,
                           {"a.md": "[b](b.md)\n"})
    text = str(error)
    assert "found 11 problems" in text
    assert "site-docs/a.md:1:5: the link 'b.md': no page of the site is there" in text
    assert "  Something else went wrong." in text and "and 3 more" in text


def test_navlaw_build_with_a_broken_link_exits_1_with_the_error_and_keeps_the_last_output(tmp_path, capsys,
                                                                                          monkeypatch):
    from .conftest import CORPUS

    corpus = tmp_path / "corpus"
    shutil.copytree(CORPUS, corpus)
    assert build(tmp_path, corpus) == 0
    before = tree_bytes(tmp_path / "build")
    real = build_module.site_pages

    def broken(*args, **kwargs):  # type: ignore[no-untyped-def]
        pages = real(*args, **kwargs)
        pages["index.md"] += "\nSee [a provision](law/89-b.md#p-no-such-provision).\n"
        return pages

    monkeypatch.setattr(build_module, "site_pages", broken)
    capsys.readouterr()
    assert build(tmp_path, corpus, "build", "--no-cache") == 1  # (with the cache: "up to date", nothing built)
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert err.startswith("navlaw build: the site could not be built: MkDocs (strict) found 1 problem")
    assert "site-docs/index.md:" in err and "the page law/89-b.md has no anchor #p-no-such-provision" in err
    assert tree_bytes(tmp_path / "build") == before
    assert not any(p.name.startswith(".build.new-") for p in Path(tmp_path).iterdir())
