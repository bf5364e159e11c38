"""The site's search entries kept in the cache in chunks of pages (compiler/site/site_chunks.py, issue 32): an
edit writes again only the chunks of the pages it rendered; a build in a new process reads them back and
its site is a clean build's; a chunk gone makes a full build."""

from __future__ import annotations

from pathlib import Path

import pytest

from navlaw import cache as cache_module
from navlaw.cache import BuildCache
from navlaw.site import site_chunks
from navlaw.site.site_chunks import get_entries, put_entries

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, corpus, same_as_clean_build  # noqa: F401

WORD = ("who shall have a practical knowledge", "who shall have a thorough knowledge")


def test_only_the_chunks_of_fresh_pages_are_written_again(tmp_path: Path) -> None:
    cache = BuildCache(tmp_path / "cache")
    entries = {f"law/{i:03}.md": [{"text": f"page {i}"}] for i in range(200)}
    first = put_entries(cache, entries, None, None)
    assert len(first) == 4 and get_entries(cache, first) == entries
    entries["law/070.md"] = [{"text": "changed"}]
    second = put_entries(cache, entries, {"law/070.md"}, first)
    assert [k for _, k in second] == [first[0][1], second[1][1], first[2][1], first[3][1]] != [k for _, k in first]
    assert get_entries(cache, second) == entries
    entries["law/999.md"] = []  # a page added: the last chunk holds other pages
    third = put_entries(cache, entries, set(), second)
    assert [k for _, k in third][:3] == [k for _, k in second][:3] and third[3][1] != second[3][1]
    (tmp_path / "cache" / site_chunks.STAGE / f"{third[1][1]}.sealed").unlink()
    assert get_entries(cache, third) is None


def _as_a_new_process() -> None:
    cache_module._HELD.clear()  # what a build in this process left in memory: read from the cache's files instead


def test_a_new_process_reads_the_chunks_back_and_builds_what_a_clean_build_does(tmp_path, corpus, capsys,  # noqa: F811
                                                                                 monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setattr(site_chunks, "CHUNK", 8)  # 33 chunks of the 257 pages
    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    puts: list[str] = []
    real = BuildCache.put

    def put(self, stage, key, value, hold=False):  # type: ignore[no-untyped-def]
        puts.append(stage)
        real(self, stage, key, value, hold)

    monkeypatch.setattr(BuildCache, "put", put)
    assert build(tmp_path, corpus) == 0
    assert "site: 4 of 257 pages rendered" in capsys.readouterr().out
    assert 1 <= puts.count(site_chunks.STAGE) <= 4  # the chunks of the 4 pages rendered
    _as_a_new_process()
    text = (corpus / "nav-law.consolidated.txt").read_text(encoding="utf-8")
    (corpus / "nav-law.consolidated.txt").write_text(text.replace(*WORD, 1), encoding="utf-8")
    assert build(tmp_path, corpus) == 0  # the pages amended before: their entries read from their chunks
    assert "pages rendered, the rest kept from the last build" in capsys.readouterr().out
    same_as_clean_build(tmp_path, corpus)


def test_a_chunk_gone_makes_a_full_build(tmp_path, corpus, capsys):  # noqa: F811
    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    from navlaw.build import cache_dir

    stage = cache_dir(str(tmp_path / "build")) / site_chunks.STAGE
    next(stage.iterdir()).unlink()
    _as_a_new_process()
    assert build(tmp_path, corpus) == 0
    assert "site: all 257 pages rendered (no earlier build in the cache)" in capsys.readouterr().out
    same_as_clean_build(tmp_path, corpus)
