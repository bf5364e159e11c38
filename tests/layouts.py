"""The same law text rendered in the layouts New York publishes it in (issue 15, items 2 and 5): an
LBDC record (CP850, 72 columns, heading and first subdivision on one line), one line per paragraph,
a whole section flattened onto one line, literal "\\n" escapes. Tests feed each rendering to navlaw and
compare what it reads with what it reads from the original."""

from __future__ import annotations

import textwrap


def paragraphs(text: str) -> list[str]:
    """A hard-wrapped text whose paragraphs start indented (the seeds' layout): one string per
    paragraph, white space folded. The section heading line starts one too."""
    out: list[str] = []
    for line in text.split("\n"):
        if not line.strip():
            continue
        if line[:1] in " \t§" or not out:
            out.append(" ".join(line.split()))
        else:
            out[-1] += " " + " ".join(line.split())
    return out


def lbdc(record_id: str, paras: list[str], width: int = 72) -> str:
    """An LBDC record: the "..SO DOC" line, then each paragraph filled to ``width`` columns, indented two
    spaces, continuation lines flush left. (The seed's "1." line is flush left under the heading, so
    ``paragraphs`` gives the heading and subdivision 1 as one paragraph: they share a line here.)"""
    lines = [f"..SO DOC {record_id:<40}LAWS(CONSOLIDATED)"]
    for p in paras:
        lines.extend(textwrap.wrap(p, width=width, initial_indent="  ", subsequent_indent="",
                                   break_long_words=False, break_on_hyphens=False) or [""])
    return "\n".join(lines) + "\n"


def one_line_per_paragraph(paras: list[str]) -> str:
    return "\n".join(paras) + "\n"


def escaped(paras: list[str]) -> str:
    """The nysenate.gov layout: literal backslash-n between lines (as the seed file 001 came)."""
    return "\\n".join(paras) + "\\n"
