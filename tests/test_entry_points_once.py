"""compiler/site/entry_points.py: while a MkDocs build runs, the installed distributions are read once for all
its questions about entry points, and every answer is importlib.metadata's."""

from __future__ import annotations

from importlib import metadata

import mkdocs.plugins
import mkdocs.utils

from navlaw.site.entry_points import once

GROUPS = ("mkdocs.plugins", "mkdocs.themes", "markdown.extensions", "console_scripts", "no.such.group")


def _plain(eps: metadata.EntryPoints) -> list[tuple[str, str, str, str | None]]:
    return [(ep.name, ep.value, ep.group, ep.dist.name if ep.dist is not None else None) for ep in eps]


def test_the_answers_are_importlib_metadatas_from_one_reading(monkeypatch):
    truth = {g: _plain(metadata.entry_points(group=g)) for g in GROUPS}
    assert truth["mkdocs.plugins"] and truth["mkdocs.themes"]  # the test asks about something
    real = metadata.distributions
    reads = []

    def counted(**kw):  # type: ignore[no-untyped-def]
        reads.append(1)
        return real(**kw)

    monkeypatch.setattr(metadata, "distributions", counted)
    with once():
        got = {g: _plain(metadata.entry_points(group=g)) for g in GROUPS}
        assert _plain(mkdocs.plugins.entry_points(group="mkdocs.plugins")) == truth["mkdocs.plugins"]
        assert _plain(mkdocs.utils.entry_points(name="material", group="mkdocs.themes")) == [
            e for e in truth["mkdocs.themes"] if e[0] == "material"]
    assert got == truth
    assert len(reads) == 1  # without once(), one reading per question
    assert metadata.entry_points is not None and mkdocs.plugins.entry_points is metadata.entry_points  # given back
    assert mkdocs.utils.entry_points is metadata.entry_points
    metadata.entry_points(group="mkdocs.plugins")
    assert len(reads) == 2  # after it, each question reads them again


def test_a_mkdocs_config_loads_reading_them_once(tmp_path, monkeypatch):
    from mkdocs.config import load_config

    (tmp_path / "docs").mkdir()
    (tmp_path / "mkdocs.yml").write_text("site_name: t\ntheme:\n  name: material\nplugins:\n  - search\n")
    mkdocs.utils.get_themes.cache_clear()  # as in a fresh process
    real = metadata.distributions
    reads = []
    monkeypatch.setattr(metadata, "distributions", lambda **kw: reads.append(1) or real(**kw))
    with once():
        cfg = load_config(str(tmp_path / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    assert cfg.theme.name == "material" and "material/search" in cfg.plugins
    assert len(reads) == 1  # plugins and themes: two questions, one reading
