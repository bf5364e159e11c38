"""compiler/site/site_written.py: every way MkDocs 1.6 writes a file into the site is recorded, so that an
incremental build's stamp states again what was written (tests/test_stamps.py checks the stamp itself)."""

from __future__ import annotations

import os
from pathlib import Path

from mkdocs import utils
from mkdocs.structure.files import File

from navlaw.site.site_written import tracked


def test_each_writer_of_mkdocs_is_recorded_and_put_back_after(tmp_path: Path) -> None:
    site = tmp_path / "site"
    src = tmp_path / "theme.css"
    src.write_text("a {}", encoding="utf-8")
    real = utils.write_file, utils.copy_file, File.copy_file
    paths: set[str] = set()
    with tracked(paths):
        utils.write_file(b"<html>", str(site / "law" / "1" / "index.html"))
        utils.write_file(b"<urlset>", str(site / "sitemap.xml"))
        utils.copy_file(str(src), str(site / "assets" / "theme.css"))
        os.makedirs(site / "to")
        utils.copy_file(str(src), str(site / "to"))  # into a directory: by the source's name
        held = File("api/x.json", None, str(site), True)
        held.content_string = "{}"
        held.copy_file()
        kept = File("api/y.json", None, str(site), True)
        kept.content_string = "{}"
        kept.is_modified = lambda: False  # type: ignore[method-assign]  # as the keeper marks an unchanged one
        kept.copy_file(dirty=True)
    assert paths == {os.fspath(site / n) for n in ("law/1/index.html", "sitemap.xml", "sitemap.xml.gz",
                                                     "assets/theme.css", "to/theme.css", "api/x.json")}
    assert not (site / "api" / "y.json").exists() and (site / "api" / "x.json").read_text() == "{}"
    assert (utils.write_file, utils.copy_file, File.copy_file) == real
