"""Where navlaw's own files are — the grammars (grammar/*.lark) and the site's configuration (site/) —
in a source checkout and in an installed wheel alike.

In the repository they live at the top (``grammar/``, ``site/``: the grammars are the reference for
the language, the site's config is hand-edited); a wheel carries them as package data under
``compiler/_data/`` (pyproject.toml maps the directories there). ``path()`` finds either.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Iterator

PACKAGE = Path(__file__).resolve().parent


def path(*parts: str) -> Path:
    """``path("grammar", "statute.lark")``: the file as installed, else as checked out."""
    installed = PACKAGE.joinpath("_data", *parts)
    return installed if installed.exists() else PACKAGE.parent.joinpath(*parts)


def files() -> list[tuple[str, Path]]:
    """Every file navlaw is made of (its code, templates, grammars and site configuration) with a
    name that does not depend on where navlaw is installed, for the build cache's fingerprint."""
    found: dict[str, Path] = {}
    for name, root in (("navlaw", PACKAGE), ("grammar", path("grammar")), ("site", path("site"))):
        if "__pycache__" in root.parts:
            continue
        for rel, full in _below(os.fspath(root), ""):
            if not (rel == "_data" or rel.startswith("_data/")):
                found[f"{name}/{rel}"] = Path(full)
    return sorted(found.items())


def _below(root: str, rel: str) -> Iterator[tuple[str, str]]:
    """What ``Path(root).rglob("*")`` finds that is a file (a link to one counts), by its path relative to
    ``root``, outside ``__pycache__``: directories are entered but not through a link, as rglob does (issue
    32: rglob and a Path per file were 5 ms of a build with nothing to do)."""
    try:
        with os.scandir(os.path.join(root, rel) if rel else root) as it:
            entries = list(it)
    except OSError:
        return
    for e in entries:
        name = f"{rel}/{e.name}" if rel else e.name
        if e.name == "__pycache__":
            continue  # nothing in it or below it is navlaw's source
        try:
            is_dir = e.is_dir() and not e.is_symlink()
        except OSError:
            is_dir = False
        if is_dir:
            yield from _below(root, name)
        elif os.path.isfile(e.path):
            yield name, e.path
