"""Where navlaw's own files are — the grammars (grammar/*.lark) and the site's configuration (site/) —
in a source checkout and in an installed wheel alike.

In the repository they live at the top (``grammar/``, ``site/``: the grammars are the reference for
the language, the site's config is hand-edited); a wheel carries them as package data under
``compiler/_data/`` (pyproject.toml maps the directories there). ``path()`` finds either.
"""

from __future__ import annotations

from pathlib import Path

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
        for p in root.rglob("*"):
            if p.is_file() and "__pycache__" not in p.parts and "_data" not in p.relative_to(root).parts[:1]:
                found[f"{name}/{p.relative_to(root).as_posix()}"] = p
    return sorted(found.items())
