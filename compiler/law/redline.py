"""Redlines: a section on two dates, compared provision by provision, word by word.

Provisions are aligned by id; unchanged ones are collapsed, changed ones show ``[-deleted-]`` and
``{+inserted+}`` words (``<del>``/``<ins>`` in HTML, escaped), added and removed ones whole. A gap in
the corpus (no text of a provision known on a date) is said as a gap, not redlined as law.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Callable

from navlaw import escape as esc
from navlaw.model.nodes import Node, Provision, Table, Text


@dataclass(frozen=True)
class Change:
    id: str
    status: str  # "changed" | "added" | "removed" | "same"
    old: str
    new: str
    ops: tuple[tuple[str, str], ...]  # ("=", words) | ("-", words) | ("+", words)


def provisions(section: Node | None) -> list[tuple[str, str]]:
    """(id, own words) for the section and each provision/text below it, in document order."""
    return [(i, w) for i, w, _ in _provisions(section)]


def _provisions(section: Node | None) -> list[tuple[str, str, bool]]:
    """(id, own words, is a gap: the corpus has no text of it then) in document order."""
    out: list[tuple[str, str, bool]] = []
    if section is None:
        return out
    for n in section.walk():
        if isinstance(n, Text) and n.id and "gap" in n.flags:
            out.append((n.id, n.text, True))
            continue
        if n.kind not in ("section", "provision"):
            continue
        words = [n.label if isinstance(n, Provision) else "", n.heading, n.text]
        for c in n.children:
            if c.kind in ("text", "table", "formula") and not c.id:
                words.append(c.full_text())
                if isinstance(c, Table):  # a rate table's words are its cells' (a changed rate is a changed word)
                    words += [cell.text for row in ([c.header] if c.header else []) + list(c.rows) for cell in row.cells]
        out.append((n.id, " ".join(w for w in words if w), False))
    return out


def word_ops(old: str, new: str) -> tuple[tuple[str, str], ...]:
    a, b = old.split(), new.split()
    ops: list[tuple[str, str]] = []
    for tag, i1, i2, j1, j2 in difflib.SequenceMatcher(a=a, b=b, autojunk=False).get_opcodes():
        if tag == "equal":
            ops.append(("=", " ".join(a[i1:i2])))
        else:
            if i2 > i1:
                ops.append(("-", " ".join(a[i1:i2])))
            if j2 > j1:
                ops.append(("+", " ".join(b[j1:j2])))
    return tuple(ops)


def compare(old: Node | None, new: Node | None) -> list[Change]:
    """Provision by provision. A provision the corpus has no text of on one of the two dates (a gap in the
    record, not a law) is "gap" (no text known on the later date) or "known" (text known again): said as
    such, never redlined as deleted or inserted matter."""
    was = _provisions(old)
    now = _provisions(new)
    before = {i: (w, g) for i, w, g in was}
    after = {i: (w, g) for i, w, g in now}
    # a removed provision goes after the one that preceded it (one pass: a list search per provision
    # grew with the square of the section)
    removed_after: dict[str | None, list[str]] = {}
    prev: str | None = None
    for i, _, _ in was:
        if i not in after:
            removed_after.setdefault(prev if prev in after else None, []).append(i)
        prev = i if i in after else prev
    order: list[str] = list(removed_after.get(None, ()))
    for i, _, _ in now:
        order.append(i)
        order += removed_after.get(i, ())
    seen: set[str] = set()
    out: list[Change] = []
    for i in order:
        if i in seen:
            continue
        seen.add(i)
        (o, og), (n, ng) = before.get(i, (None, False)), after.get(i, (None, False))
        if ng and n is not None:
            out.append(Change(i, "same" if og and o == n else "gap", o or "", n, (("gap", n),)))
        elif og and n is not None:
            out.append(Change(i, "known", o or "", n, (("known", n),)))
        elif o is None and n is not None:
            out.append(Change(i, "added", "", n, (("+", n),)))
        elif n is None and o is not None:
            out.append(Change(i, "removed", o, "", (("-", o),)))
        elif o == n:
            out.append(Change(i, "same", o or "", n or "", (("=", n or ""),)))
        else:
            out.append(Change(i, "changed", o or "", n or "", word_ops(o or "", n or "")))
    return out


def render_text(changes: list[Change], context: bool = False) -> str:
    lines: list[str] = []
    same = 0
    for c in changes:
        if c.status == "same" and not context:
            same += 1
            continue
        if same:
            lines.append(f"  … {same} unchanged provision{'s' if same > 1 else ''} …")
            same = 0
        body = " ".join(f"[-{w}-]" if t == "-" else f"{{+{w}+}}" if t == "+" else _clip(w) for t, w in c.ops)
        lines.append(f"{c.id} ({c.status}): {_said(c)}" if c.status in _SAID else f"{c.id} ({c.status}): {body}")
    if same:
        lines.append(f"  … {same} unchanged provision{'s' if same > 1 else ''} …")
    return "\n".join(lines)


def _clip(words: str, keep: int = 12) -> str:
    w = words.split()
    return words if len(w) <= 2 * keep else " ".join(w[:keep]) + " … " + " ".join(w[-keep:])


_SAID = ("gap", "known")


def _said(c: Change) -> str:
    """A gap in the record in words: what the corpus does not know, or that it knows the text again."""
    if c.status == "gap":
        return c.new.strip("[]")
    return "the corpus has no text of this before; from here it is: " + _clip(c.new)


def render_html(changes: list[Change], link: Callable[[str], str] | None = None) -> str:
    """``link`` turns a provision id into a link to it (the site passes one; ids stay text without)."""
    parts = ['<div class="redline">']
    for c in changes:
        if c.status == "same":
            continue
        body = "".join(f"<del>{esc.text(w)}</del> " if t == "-" else f"<ins>{esc.text(w)}</ins> " if t == "+"
                       else f"{esc.text(_clip(w))} " for t, w in c.ops)
        if c.status in _SAID:
            body = f'<span class="gap">{esc.text(_said(c))}</span>'
        name = link(c.id) if link is not None else f"<b>{esc.text(c.id)}</b>"
        parts.append(f'<p class="{c.status}" data-id="{esc.text(c.id)}">{name} {body.strip()}</p>')
    parts.append("</div>")
    return "\n".join(parts)


def render_json(changes: list[Change]) -> list[dict[str, object]]:
    return [{"id": c.id, "status": c.status, "ops": [{"op": t, "text": w} for t, w in c.ops]}
            for c in changes if c.status != "same"]
