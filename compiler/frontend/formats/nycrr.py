"""NYCRR rules as Westlaw prints them: a "21 CRR-NY 51.1" line above each section, the compilation's
header lines ("TITLE 21. MISCELLANEOUS", "CHAPTER II. BOARD OF COMMISSIONERS OF PILOTS", "STATE
COMPILATION OF CODES …"), and sections numbered within their part with no § ("51.1 Sandy Hook pilot
apprentices."). compiler/frontend/published.py places them in the tree, where the text's code is an
NYCRR title.
"""

from __future__ import annotations

import re

from navlaw.model.codes import NYCRR_TEXT_RE
from navlaw.frontend.formats.base import Decoded, SourceLine, decode_text, lines_by_role

name = "nycrr"

# "51.1 Sandy Hook pilot apprentices.": the section number has its part's number before the point
SECTION_RE = re.compile(r"(?P<num>[0-9]{1,4}\.[0-9]{1,4}(?:-[a-z])?)[ \t]+(?P<rest>[A-Z][^\n]*)$")
COMPILATION_RE = re.compile(r"(?:TITLE|CHAPTER|SUBCHAPTER)[ \t]+[0-9IVXLC]+[A-Z]?\.[ \t]+[A-Z][^a-z]*$"
                            r"|(?:STATE|OFFICIAL)[ \t]+COMPILATION[ \t]+OF[ \t]+CODES")


def westlaw(text: str) -> bool:
    """Whether a text carries Westlaw's NYCRR lines."""
    return "CRR-NY" in text


def title_line(body: str) -> bool:
    """Westlaw's line above a section ("21 CRR-NY 51.1", "NY-CRR"): navigation, not law."""
    return NYCRR_TEXT_RE.match(body) is not None or body == "NY-CRR"


def detect(data: bytes) -> float:
    return 0.7 if b"CRR-NY" in data else 0.0


def decode(data: bytes, path: str) -> Decoded:
    return decode_text(data, path)


def refuse(text: str, path: str) -> None:
    return None


def lines(text: str) -> list[SourceLine]:
    return lines_by_role(text, lambda body: "title" if title_line(body.strip()) else None)
