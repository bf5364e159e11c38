"""Plain law text: a consolidated law, a section's text, a rule, as the grammar reads it (section and
article headings, labelled provisions, tables), UTF-8 (or LBDC's CP850). What no other format claims."""

from __future__ import annotations

from navlaw.frontend.formats.base import Decoded, SourceLine, decode_text, lines_by_role
from navlaw.frontend.parse import article_head, section_head

name = "plain"


def detect(data: bytes) -> float:
    return 0.1  # any text: the format every other one outranks


def decode(data: bytes, path: str) -> Decoded:
    return decode_text(data, path)


def refuse(text: str, path: str) -> None:
    return None


def _role(body: str) -> str | None:
    return "heading" if body[:1] in "§*SAaRJPp" and (section_head(body) or article_head(body)) else None


def lines(text: str) -> list[SourceLine]:
    """Every line law text, its headings ("§ 4. Short title.", "ARTICLE 2") said so."""
    return lines_by_role(text, _role)
