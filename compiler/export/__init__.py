"""The export back end: the law in standard forms for other programs — Akoma Ntoso 3.0 XML (akn.py), one
document per section as in force on each date its text changes, and the site's static JSON API (api.py),
each file naming the JSON Schema (schema/) it validates against."""

from __future__ import annotations

import re
from functools import lru_cache
from typing import Any

VERSION = 1  # of every JSON Schema of schema/: a change that breaks a reader raises it


def stamped(name: str, data: dict[str, Any]) -> dict[str, Any]:
    """``data`` naming its schema (``name``.schema.json) and the schema's version, first (the command line
    takes it from here without loading the exports)."""
    return {"schema": f"{name}.schema.json", "version": VERSION, **data}


@lru_cache(maxsize=1 << 16)  # called for every file and link of every section (two regex passes each)
def slug(section: str) -> str:
    """A section's file name, the same as its site page's (compiler/site/render.section_slug, a test
    checks): "89-b" -> "89-b", "21nycrr/55.2" -> "21-nycrr-55.2", "45-aaaa*2" -> "45-aaaa-2"."""
    return re.sub(r"[^a-z0-9.-]+", "-", re.sub(r"^(\d+)([a-z]+)/", r"\1-\2-", section.lower())).strip("-")


def akn_path(section: str, day: str) -> str:
    """Where the Akoma Ntoso of ``section`` as in force from ``day`` (YYYY-MM-DD) is, under OUT/akn/ and
    the site's akn/."""
    return f"{slug(section)}/{day}.xml"


def api_path(section: str) -> str:
    """The section's JSON under the site's api/sections/."""
    return f"{slug(section)}.json"
