"""The input formats navlaw reads, one module each (detect, decode, refuse, lines: formats/base.py), and
the registry that names them. The manifest's ``format = "…"`` values are the registry's names; a
document without one is read in the format its bytes are most surely in.

Adding a format is one module (``name``, ``detect``, ``decode``, ``refuse``, ``lines``) and one line in
``_REGISTRY`` below (or ``register(module)`` at run time); nothing else of navlaw names a format.
"""

from __future__ import annotations

from navlaw.frontend import chunks
from navlaw.frontend.formats import bill, lbdc, lbdc_update, nycrr, nysenate, plain, web
from navlaw.frontend.formats.base import KEPT_ROLES, LAW_ROLES, Decoded, Format, SourceLine, lines_by_role
from navlaw.model.text import Edit, NormalText, Stage

__all__ = ["Decoded", "Format", "SourceLine", "KEPT_ROLES", "LAW_ROLES", "register", "unregister", "names",
           "named", "detect", "refuse", "copied_roles", "read_lines"]

# The registry, in the order detection breaks ties by (plain first: the format of last resort).
_REGISTRY: dict[str, Format] = {f.name: f for f in (
    plain,
    lbdc,
    bill,
    lbdc_update,
    web,
    nysenate,
    nycrr,
)}


def register(fmt: Format) -> Format:
    """Add a format (or replace the one of its name); returns it."""
    _REGISTRY[fmt.name] = fmt
    return fmt


def unregister(name: str) -> None:
    _REGISTRY.pop(name, None)


def names() -> tuple[str, ...]:
    """The manifest's ``format`` values."""
    return tuple(_REGISTRY)


def named(name: str) -> Format:
    """The format of this name (KeyError if none: the manifest checks its names against ``names()``)."""
    return _REGISTRY[name]


def detect(data: bytes) -> Format:
    """The format these bytes are most surely in (ties: the registry's order)."""
    best, sure = _REGISTRY["plain"] if "plain" in _REGISTRY else next(iter(_REGISTRY.values())), 0.0
    for fmt in _REGISTRY.values():
        p = fmt.detect(data)
        if p > sure:
            best, sure = fmt, p
    return best


def refuse(text: str, path: str) -> None:
    """A text some format recognises as not law text (a JSON dump, an HTML page) is refused, whatever
    the manifest says it is: NavlawError with what to do."""
    for fmt in _REGISTRY.values():
        fmt.refuse(text, path)


def _copied_role(body: str) -> str | None:
    """What every text is searched for, whatever its format: texts are copied from one source into
    another (a bill print pasted from a web page, an LBDC section quoted on a site), so a web page's
    chrome, a print's furniture and LBDC's notes are kept out of the law in any text."""
    return web.line_role(body) or bill.line_role(body) or lbdc.line_role(body)


def copied_roles(text: str, document: str = "") -> dict[int, str]:
    """The roles ``_copied_role`` gives the lines of ``text`` kept out of the law, by line start. Line by
    line: with the ``document``'s name, only its changed sections are read again (frontend/chunks.py)."""
    return chunks.line_local(document, "copied-roles", text, _copied_roles)


def _copied_roles(text: str) -> dict[int, str]:
    return {line.start: line.role for line in lines_by_role(text, _copied_role) if line.role in KEPT_ROLES}


def read_lines(fmt: Format, nt: NormalText, document: str = "") -> tuple[NormalText, dict[int, str]]:
    """The text as the format lays it out: the layout's marking within lines (outside each line's
    body) taken out of the text the grammar reads, as a normalization stage of its own (so every
    offset still maps to the file), and the role of each line kept out of the law, by its start in
    the returned text."""
    own = fmt.lines(nt.text)
    copied = copied_roles(nt.text, document)
    edits: list[Edit] = []
    roles: dict[int, str] = {}
    removed = 0
    out: list[str] = []
    last = 0
    text = nt.text
    for line in own:
        role = line.role if line.role in KEPT_ROLES else copied.get(line.start, "")
        if role:
            roles[line.start - removed] = role
        stop = line.end - (1 if text[line.end - 1 : line.end] == "\n" else 0)
        for a, b in ((line.start, line.body_start), (line.body_end, stop)):
            if b > a:
                out.append(text[last:a])
                new = a - removed
                edits.append(Edit(new, new, a, b, text[a:b], f"{fmt.name} layout"))
                removed += b - a
                last = b
    if not edits:
        return nt, roles
    out.append(text[last:])
    stage = Stage(f"{fmt.name} layout", edits)
    return NormalText(nt.raw, "".join(out), [*nt.stages, stage], nt.wrapped, nt.list_numbering), roles
