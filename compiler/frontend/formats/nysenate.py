"""The nysenate.gov (Drupal) dump of a law, as JSON: one node per chapter, article and section, the law
text in each node's ``field_text``. It is data about the law, not law text: navlaw recognises it and
says how to get the text out (each node's field_text, in order), rather than read JSON as prose.
"""

from __future__ import annotations

import json

from navlaw.diagnostics import Diagnostic, NavlawError, Severity
from navlaw.frontend.formats.base import Decoded, SourceLine, decode_text, lines_by_role

name = "nysenate-json"

_SAMPLE = 65536


def detect(data: bytes) -> float:
    if data.lstrip(b"\xef\xbb\xbf \t\r\n")[:1] not in (b"{", b"["):
        return 0.0
    try:
        return 1.0 if isinstance(json.loads(data), (dict, list)) else 0.0
    except ValueError:
        return 0.0


def decode(data: bytes, path: str) -> Decoded:
    return decode_text(data, path)


def refuse(text: str, path: str) -> None:
    """JSON is not law text: an error that says which field holds the text."""
    stripped = text[:_SAMPLE].lstrip("\ufeff").lstrip()
    if stripped[:1] not in "{[":  # "" too, as the text's first 64K may be white space
        return
    try:
        data = json.loads(text)
    except ValueError:
        return
    if isinstance(data, (dict, list)):
        keys = _keys(data)
        raise NavlawError([Diagnostic(
            Severity.ERROR, "the file is JSON, not law text" + (f" (its fields include {', '.join(keys)})" if keys else ""),
            path, 1, 1, stripped.split("\n", 1)[0][:120], "input",
            "extract the law text from the field that holds it (e.g. each node's field_text, in order) "
            "and give navlaw that text")])


def _keys(data: object) -> list[str]:
    first = data[0] if isinstance(data, list) and data else data
    if isinstance(first, dict):
        return sorted(str(k) for k in first)[:6]
    return []


def lines(text: str) -> list[SourceLine]:
    """Never reached for a dump (``refuse`` stops it); a text that only looks like one reads as law."""
    return lines_by_role(text, lambda body: None)
