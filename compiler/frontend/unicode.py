"""What normalization did to invisible characters, said at file:line:col (compiler/frontend/normalize.py
removes them, so they cannot change a label or a section number): a bidirectional override or mark is an
error (it can make a reader see other text than the file holds); a zero-width or format character or an
exotic space inside a label or a section number is a warning (the label is read without it); elsewhere
one note counts them.
"""

from __future__ import annotations

import re
import unicodedata

from navlaw.diagnostics import Diagnostic, Diagnostics, Severity
from navlaw.model.text import NormalText, Stage

# A label or a section number around the edit: "§ 8|8.", "(|b)", "(1|-a)", "4|." — the normalized text
# just before and after the removed character.
_BEFORE = re.compile(r"(?:§+[ \t]*|S[ \t]+|Section[ \t]+|\(|\b)[0-9A-Za-z-]{0,6}$")
_AFTER = re.compile(r"^[0-9A-Za-z-]{0,6}(?:\)|\.(?:[ \t]|$))")
_REASONS = ("exotic space", "format character", "bidi control")
MAX_LISTED = 20


def _name(ch: str) -> str:
    return f"U+{ord(ch):04X} {unicodedata.name(ch, 'format character')}"


def check_invisible(nt: NormalText, file: str, diags: Diagnostics) -> None:
    stages = [st for st in nt.stages if st.reason in _REASONS]
    if not stages:
        return
    text = nt.text
    elsewhere = 0
    first: tuple[int, int] | None = None
    listed = 0
    for st in stages:
        # the later stages' edits shift offsets: map this stage's position to the final text through them
        later = nt.stages[nt.stages.index(st) + 1:]
        for e in st.edits:
            at = e.new_start
            for nxt in later:
                at = _forward(nxt, at)
            raw_line, raw_col = _raw_linecol(nt, e.old_start, st)
            ch = e.old_text[0]
            inside = _BEFORE.search(text, max(0, at - 12), at) is not None and bool(text[max(0, at - 1):at].strip()) \
                and _AFTER.match(text[at : at + 8]) is not None
            if st.reason == "bidi control":
                sev, msg = Severity.ERROR, (f"{_name(ch)}: a bidirectional control character can show a reader "
                                            "other text than the file holds; removed")
            elif inside:
                sev, msg = Severity.WARNING, (f"{_name(ch)} inside a label or section number: read without it "
                                              f"({' '.join(text[max(0, at - 6):at + 6].split())!r})")
            else:
                elsewhere += 1
                first = first or (raw_line, raw_col)
                continue
            if listed < MAX_LISTED:
                diags.add(Diagnostic(sev, msg, file, raw_line, raw_col, nt.raw_line(raw_line), "unicode",
                                     "delete the invisible character from the source text"))
            listed += 1
    if elsewhere and first is not None:
        diags.add(Diagnostic(Severity.INFO, f"{elsewhere} invisible character(s) or exotic space(s) in running text "
                             "read as plain spaces or removed; the first here", file, first[0], first[1],
                             nt.raw_line(first[0]), "unicode"))


def _forward(stage: Stage, pos: int) -> int:
    """Where ``pos`` of the text before ``stage`` is in the text after it."""
    shift = 0
    for e in stage.edits:
        if e.old_end <= pos:
            shift += (e.new_end - e.new_start) - (e.old_end - e.old_start)
        else:
            break
    return pos + shift


def _raw_linecol(nt: NormalText, pos: int, stage: Stage) -> tuple[int, int]:
    """The raw line and column of ``pos`` in the text before ``stage``."""
    k = nt.stages.index(stage)
    for earlier in reversed(nt.stages[:k]):
        pos = earlier.to_old(pos)
    return _line_col(nt.raw, pos)


def _line_col(raw: str, pos: int) -> tuple[int, int]:
    line = raw.count("\n", 0, pos) + 1
    return line, pos - (raw.rfind("\n", 0, pos) + 1) + 1
