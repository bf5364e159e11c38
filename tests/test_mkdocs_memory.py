"""MkDocs' files made from memory are kept between the builds of one process (`navlaw serve`, issue 32): a
build with the same names, URL style and exclusion patterns takes them again — the same files, with this
build's contents and site directory — and any change of those makes them afresh."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from navlaw.site import mkdocs_memory
from navlaw.site.mkdocs_memory import memory_files

DOCS = {name: f"# {name}\n" for name in ("index.md", "b.md", "a/index.md", "a/README.md", "a/z.md", "law/89-b.md",
                                         "data/1.json", "assets/x.css", ".hidden.md")}


def _config(tmp: Path, yml: str, site: str) -> Any:
    from mkdocs.config import load_config

    (tmp / "docs").mkdir(exist_ok=True)
    (tmp / "mkdocs.yml").write_text(yml, encoding="utf-8")
    return load_config(str(tmp / "mkdocs.yml"), site_dir=str(tmp / site))


def _seen(files: Any) -> list[tuple[Any, ...]]:
    return [(f.src_uri, f.inclusion, f.dest_uri, f.url, f.name, f.abs_dest_path, f.abs_src_path, f.page,
             f.content_string) for f in files]


@pytest.fixture
def made(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """How many times the files were made afresh."""
    calls: list[int] = []
    real = mkdocs_memory._made

    def spy(*args: Any) -> Any:
        calls.append(1)
        return real(*args)

    monkeypatch.setattr(mkdocs_memory, "_made", spy)
    mkdocs_memory._KEPT.clear()
    return calls


def test_the_files_of_the_last_build_are_taken_again_with_this_build_s_contents_and_site(tmp_path, made):
    yml = "site_name: t\nnot_in_nav: |\n  /law/*.md\n"
    first = memory_files(_config(tmp_path, yml, "site1"), DOCS)
    for f in first:  # what MkDocs does to the files it is given does not reach the next build's
        f.page = object()
    edited = {**DOCS, "b.md": "# b, edited\n"}
    again = memory_files(_config(tmp_path, yml, "site2"), edited)
    assert made == [1]
    mkdocs_memory._KEPT.clear()
    fresh = memory_files(_config(tmp_path, yml, "site2"), edited)
    assert made == [1, 1]
    assert _seen(again) == _seen(fresh)
    assert all(f.abs_dest_path.startswith(str(tmp_path / "site2")) for f in again)
    assert [f.content_string for f in again if f.src_uri == "b.md"] == ["# b, edited\n"]


@pytest.mark.parametrize("change", ["a page added", "the URL style", "the exclusions"])
def test_other_names_or_settings_make_the_files_afresh(tmp_path, made, change):
    yml = "site_name: t\nnot_in_nav: |\n  /law/*.md\n"
    memory_files(_config(tmp_path, yml, "site"), DOCS)
    docs = {**DOCS, "c.md": "# c\n"} if change == "a page added" else DOCS
    yml = (yml + "use_directory_urls: false\n" if change == "the URL style"
           else yml.replace("/law/", "/a/") if change == "the exclusions" else yml)
    cfg = _config(tmp_path, yml, "site")
    got = memory_files(cfg, docs)
    assert made == [1, 1]
    mkdocs_memory._KEPT.clear()
    assert _seen(got) == _seen(memory_files(cfg, docs))
