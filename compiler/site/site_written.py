"""What MkDocs wrote into the site during a build, by name: the stamp of the new site is then the mirrored
previous site's (compiler/site/site_spare.py), with only these files stated again, not a walk of every
file (issue 32: 0.13 s of an edit at 10x, a third of the site's stats).

MkDocs 1.6 writes a site's files through three functions: ``mkdocs.utils.write_file`` (pages, theme
templates, plugins' files), ``mkdocs.utils.copy_file`` (the theme's static files) and ``File.copy_file``
(a file held in memory, written with ``open``; compiler/site/mkdocs_memory.py). While ``tracked`` is
active each of them records the path it wrote. A writer missed here would leave its file's line in the
stamp as it was before the build: the next build would then find the site not the one the cache
remembers and build it whole (slower, never wrong); a test compares the stamp with a walk of the site."""

from __future__ import annotations

import contextlib
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator


@dataclass
class Written:
    """The files a site build wrote, by their names under the site; ``elsewhere``: some were written where
    they are not recorded (forked workers, or the search index split whole), so the site is walked."""

    names: set[str] = field(default_factory=set)
    elsewhere: bool = False

    def take(self, site: Path, paths: set[str], elsewhere: bool) -> None:
        """``paths`` (absolute) that MkDocs wrote in this process, and what the search's split made from
        the last one wrote or removed (compiler/site/search_delta.py)."""
        from navlaw.site import search_delta

        work = search_delta.LAST
        if elsewhere or work.mode != "delta":
            self.elsewhere = True
            return
        root = os.fspath(site.resolve()) + os.sep
        self.names |= {p[len(root):].replace(os.sep, "/") for p in paths if p.startswith(root)}
        self.names |= set(work.written) | set(work.removed)
        self.elsewhere = any(not p.startswith(root) for p in paths)  # (none is: MkDocs writes only there)


@contextlib.contextmanager
def tracked(into: set[str]) -> Iterator[None]:
    """While active, the absolute path of every file MkDocs writes (in this process) is added to ``into``."""
    from mkdocs import utils
    from mkdocs.structure.files import File

    real_write, real_copy, real_file_copy = utils.write_file, utils.copy_file, File.copy_file

    def write_file(content: bytes, output_path: str) -> None:
        into.add(os.fspath(output_path))
        if os.fspath(output_path).endswith("sitemap.xml"):
            into.add(os.fspath(output_path) + ".gz")  # written beside it with open (mkdocs.commands.build)
        real_write(content, output_path)

    def copy_file(source_path: str, output_path: str) -> None:
        target = os.fspath(output_path)
        if os.path.isdir(target):
            target = os.path.join(target, os.path.basename(source_path))
        into.add(target)
        real_copy(source_path, output_path)

    def file_copy(self: Any, dirty: bool = False) -> None:
        if self._content is not None and not (dirty and not self.is_modified()):
            into.add(os.fspath(self.abs_dest_path))  # written with open, not through utils
        real_file_copy(self, dirty)

    setattr(utils, "write_file", write_file)
    setattr(utils, "copy_file", copy_file)
    setattr(File, "copy_file", file_copy)
    try:
        yield
    finally:
        setattr(utils, "write_file", real_write)
        setattr(utils, "copy_file", real_copy)
        setattr(File, "copy_file", real_file_copy)
