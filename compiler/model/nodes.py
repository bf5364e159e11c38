"""The section tree's nodes — typed, frozen, each with its id, label, span and citation — and how ids
and citations are formed ("88/4/b/1/ii/1/A" -> "Nav. Law § 88(4)(b)(1)(ii)(1)(A)", the code from compiler/model/codes.py)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, fields
from operator import attrgetter
from typing import Any, ClassVar, Iterator

from navlaw.model.codes import Code
from navlaw.model.text import NormalText


# ---- nodes ----------------------------------------------------------------------------------------

@dataclass(frozen=True, slots=True)
class Cell:
    text: str
    start: int  # normalized offsets of the cell text (stripped)
    end: int
    line: int  # raw position of the cell's first character
    column: int


@dataclass(frozen=True, slots=True)
class Row:
    cells: tuple[Cell, ...]
    line: int
    column: int


@dataclass(frozen=True, slots=True)
class Node:
    kind: ClassVar[str] = "node"
    id: str = ""
    label: str = ""  # as written: "4.", "(a)", "88" (section number), "6" (article number)
    heading: str = ""
    text: str = ""  # the node's own running text, readable (wrapped lines joined)
    start: int = 0  # own span in the normalized text
    end: int = 0
    line: int = 0  # raw file position of the node's start (its label or heading)
    column: int = 0
    citation: str = ""
    flags: tuple[str, ...] = ()
    children: tuple[Node, ...] = ()

    def __reduce__(self) -> tuple[type[Node], tuple[Any, ...]]:
        """Pickled as its class and its fields' values in order, made again by the class's own ``__init__``
        (dataclasses' state, field by field, took a third more: at 10x a document's tree is 6,000 nodes)."""
        cls = type(self)
        get = _FIELDS.get(cls)
        if get is None:
            get = _FIELDS[cls] = attrgetter(*[f.name for f in fields(cls)])
        return cls, get(self)

    def walk(self) -> Iterator[Node]:
        """This node and all below it, in document (pre-)order; iterative, so depth costs nothing."""
        stack: list[Node] = [self]
        while stack:
            n = stack.pop()
            yield n
            if n.children:
                stack.extend(reversed(n.children))

    def find(self, node_id: str) -> Node | None:
        return next((n for n in self.walk() if n.id == node_id), None)

    def full_text(self) -> str:
        """The node's text and all its descendants', one line each (labels included)."""
        parts = []
        for n in self.walk():
            own = " ".join(x for x in (n.label if isinstance(n, Provision) else "", n.heading, n.text) if x)
            if own:
                parts.append(own)
        return "\n".join(parts)


@dataclass(frozen=True, slots=True)
class Text(Node):
    kind: ClassVar[str] = "text"


@dataclass(frozen=True, slots=True)
class Formula(Node):
    kind: ClassVar[str] = "formula"


@dataclass(frozen=True, slots=True)
class Table(Node):
    kind: ClassVar[str] = "table"
    header: Row | None = None
    rows: tuple[Row, ...] = ()
    style: str = ""  # "tab", "pipe" or "leader"


@dataclass(frozen=True, slots=True)
class Provision(Node):
    kind: ClassVar[str] = "provision"
    level: str = ""  # subdivision, paragraph, subparagraph, clause, subclause, item
    old_label: str = ""  # "[(b)] (c)": the label this provision had before the amendment


@dataclass(frozen=True, slots=True)
class Section(Node):
    kind: ClassVar[str] = "section"


@dataclass(frozen=True, slots=True)
class Part(Node):
    kind: ClassVar[str] = "part"


@dataclass(frozen=True, slots=True)
class Article(Node):
    kind: ClassVar[str] = "article"


@dataclass(frozen=True, slots=True)
class Document(Node):
    kind: ClassVar[str] = "document"
    file: str = ""
    normal: NormalText | None = field(default=None, compare=False, repr=False)

    def source_text(self) -> str:
        """The normalized text rebuilt from the nodes' spans (equals ``normal.text``)."""
        assert self.normal is not None
        return "".join(self.normal.text[n.start : n.end] for n in self.walk())

    def sections(self) -> list[Section]:
        return [n for n in self.walk() if isinstance(n, Section)]


_FIELDS: dict[type[Node], attrgetter[Any]] = {}  # a node class -> its fields' values, in order (Node.__reduce__)


# ---- citations ---------------------------------------------------------------------------------------



def citation(code: Code, node_id: str) -> str:
    """'88/4/b/1/ii/1/A' -> 'Nav. Law § 88(4)(b)(1)(ii)(1)(A)'; '21nycrr/55.2/c' -> '21 NYCRR § 55.2(c)'."""
    parts = node_id.split("/")
    if code.prefix and parts and parts[0] == code.prefix:
        parts = parts[1:]
    if not parts or not parts[0]:
        return code.cite
    section = parts[0].split("*")[0]
    cite = f"{code.cite} § {section}" if code.cite else f"§ {section}"
    return cite + "".join(f"({p.split('*')[0]})" for p in parts[1:])


_OTHER_CODE = re.compile(r"(?P<title>\d+)nycrr")  # ids of another code start with its prefix: "21nycrr/55.2"


def other_code(node_id: str) -> str:
    """The code prefix of an id outside the chapter ("21nycrr" for "21nycrr/55.2/c"), or ""."""
    first = node_id.split("/", 1)[0]
    return first if _OTHER_CODE.fullmatch(first) and "/" in node_id else ""


def section_of(node_id: str) -> str:
    """The section a provision id belongs to: "89-a/4/b" -> "89-a", "21nycrr/55.2/c" -> "21nycrr/55.2"."""
    parts = node_id.split("/")
    return "/".join(parts[:2]) if other_code(node_id) else parts[0]


def section_name(section: str) -> str:
    """How a section is named to a reader: "89-b" -> "§ 89-b", "21nycrr/55.2" -> "21 NYCRR § 55.2"."""
    code = other_code(section)
    if code:
        m = _OTHER_CODE.fullmatch(code)
        assert m is not None
        return f"{m['title']} NYCRR § {section.split('/', 1)[1]}"
    return f"§ {section}"


def section_order(node_id: str) -> tuple[int, str]:
    """A sort key in the statute's order: "9" before "10", "89-a" after "89"; other codes' sections
    ("21nycrr/55.2") and ids that do not start with a number last."""
    m = re.match(r"\d+", node_id)
    return (int(m[0]) if m and "/" not in section_of(node_id) else 10**6, node_id)


def lineage(node_id: str) -> list[str]:
    """The id and its enclosing provisions up to its section, innermost first:
    "89-a/4/b" -> ["89-a/4/b", "89-a/4", "89-a"]."""
    parts = node_id.split("/")
    stop = 2 if other_code(node_id) else 1
    return ["/".join(parts[:i]) for i in range(len(parts), stop - 1, -1)]


def table_row(text: str, nt: NormalText, body_start: int, body_end: int, style: str) -> Row:
    """One table line as a Row: cells split at tabs, at pipes (a trailing pipe ends the row, it opens no
    cell), or at a dot leader; each cell with its offsets in ``text`` and its raw line and column."""
    body = text[body_start:body_end]
    if style == "tab":
        pieces = [(m.start(), m.group()) for m in re.finditer(r"[^\t]+", body)]
    elif style == "pipe":
        pieces = [(m.start(), m.group()) for m in re.finditer(r"[^|]+", body)]
        if body.rstrip().endswith("|") and pieces and not pieces[-1][1].strip():
            pieces.pop()
    else:
        k = body.find(" ....")
        pieces = [(0, body[:k]), (k + 5, body[k + 5:])]
    cells = []
    for off, s in pieces:
        lead = len(s) - len(s.lstrip())
        stripped = s.strip()
        a = body_start + off + lead
        ln, col = nt.raw_linecol(a)
        cells.append(Cell(stripped, a, a + len(stripped), ln, col))
    ln, col = nt.raw_linecol(body_start)
    return Row(tuple(cells), ln, col)
