"""An LBDC update file: record lines that act on the law ("..SO DOC ABC4   *REPEAL*", "*DELETE*"), not
its text; compiler/law/updates.py applies them (or says it does not)."""

from __future__ import annotations

import re

from navlaw.frontend.formats import lbdc
from navlaw.frontend.formats.base import Decoded, SourceLine, decode_text, lines_by_role

name = "lbdc-update"

# "..SO DOC NAV88-A            *REPEAL*                 LAWS(CONSOLIDATED)": the record's id and its action
UPDATE_RE = re.compile(r"(?m)^\.\.SO DOC[ \t]+(?P<id>\S+)[ \t]+\*(?P<action>[A-Z]+)\*.*$")
_UPDATE_BYTES = re.compile(rb"(?m)^\.\.SO DOC[ \t]+\S+[ \t]+\*[A-Z]+\*")


def updates(text: str) -> int:
    """How many update records the text holds."""
    return len(UPDATE_RE.findall(text))


def first_update_line(text: str) -> int:
    m = UPDATE_RE.search(text)
    return text.count("\n", 0, m.start()) + 1 if m else 1


def detect(data: bytes) -> float:
    return 0.95 if _UPDATE_BYTES.search(data) is not None else 0.0


def decode(data: bytes, path: str) -> Decoded:
    return decode_text(data, path)


def refuse(text: str, path: str) -> None:
    return None


def lines(text: str) -> list[SourceLine]:
    return lines_by_role(text, lbdc.line_role)
