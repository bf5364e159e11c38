"""Redlines: a section on two dates, compared provision by provision, word by word.

Provisions are aligned by id; unchanged ones are collapsed, changed ones show ``[-deleted-]`` and
``{+inserted+}`` words (``<del>``/``<ins>`` in HTML, escaped), added and removed ones whole.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass

from compiler import escape as esc
from compiler.frontend.nodes import Node, Provision, Text


@dataclass(frozen=True)
class Change:
    id: str
    status: str  # "changed" | "added" | "removed" | "same"
    old: str
    new: str
    ops: tuple[tuple[str, str], ...]  # ("=", words) | ("-", words) | ("+", words)


def provisions(section: Node | None) -> list[tuple[str, str]]:
    """(id, own words) for the section and each provision/text below it, in document order."""
    out: list[tuple[str, str]] = []
    if section is None:
        return out
    for n in section.walk():
        if isinstance(n, Text) and n.id and "gap" in n.flags:
            out.append((n.id, n.text))
            continue
        if n.kind not in ("section", "provision"):
            continue
        words = [n.label if isinstance(n, Provision) else "", n.heading, n.text]
        for c in n.children:
            if c.kind in ("text", "table", "formula") and not c.id:
                words.append(c.full_text())
        out.append((n.id, " ".join(w for w in words if w)))
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
    before = dict(provisions(old))
    after = provisions(new)
    seen = set()
    out: list[Change] = []
    order = [i for i, _ in after]
    prev = None
    for i, _ in provisions(old):  # a removed provision goes after the one that preceded it
        if i not in order:
            order.insert(order.index(prev) + 1 if prev in order else 0, i)
        prev = i
    for i in order:
        if i in seen:
            continue
        seen.add(i)
        o, n = before.get(i), dict(after).get(i)
        if o is None and n is not None:
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
        lines.append(f"{c.id} ({c.status}): {body}")
    if same:
        lines.append(f"  … {same} unchanged provision{'s' if same > 1 else ''} …")
    return "\n".join(lines)


def _clip(words: str, keep: int = 12) -> str:
    w = words.split()
    return words if len(w) <= 2 * keep else " ".join(w[:keep]) + " … " + " ".join(w[-keep:])


def render_html(changes: list[Change]) -> str:
    parts = ['<div class="redline">']
    for c in changes:
        if c.status == "same":
            continue
        body = "".join(f"<del>{esc.text(w)}</del> " if t == "-" else f"<ins>{esc.text(w)}</ins> " if t == "+"
                       else f"{esc.text(_clip(w))} " for t, w in c.ops)
        parts.append(f'<p class="{c.status}" data-id="{esc.text(c.id)}"><b>{esc.text(c.id)}</b> {body.strip()}</p>')
    parts.append("</div>")
    return "\n".join(parts)


def render_json(changes: list[Change]) -> list[dict[str, object]]:
    return [{"id": c.id, "status": c.status, "ops": [{"op": t, "text": w} for t, w in c.ops]}
            for c in changes if c.status != "same"]
