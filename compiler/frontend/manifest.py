"""Reads corpus/manifest.toml: which documents make up the corpus, what they cover, and their dates."""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from navlaw.model import codes
from navlaw.frontend import formats
from navlaw.frontend.options import OptionDecl, read_options
from navlaw.diagnostics import Diagnostic, NavlawError, Severity
from navlaw.frontend.load import read_regular
from navlaw.frontend.routes import Route as Route, read_routes

KINDS = ("consolidated", "section-text", "act", "rule", "proposed-rule")
STATUSES = ("in-force", "proposed", "adopted", "superseded", "repealed")
CONFIDENCES = ("verified", "inferred")
DOCUMENT_KEYS = {"file", "kind", "covers", "effective", "became_law", "status", "source", "confidence",
                 "anchors", "fragments", "note", "received_as", "list_numbering", "section", "code", "known_from",
                 "known_until", "options", "format", "lost_labels", "cite", "law"}
FRAGMENT_KEYS = {"covers", "lines", "effective", "confidence", "note", "source", "status"}
ANCHOR_KEYS = {"date", "after", "by", "source", "confidence"}
BOUNDS_KEYS = {"after", "by", "source", "confidence", "note"}


@dataclass(frozen=True)
class Bounds:
    """A date the corpus knows only between bounds: after ``after`` (exclusive) and by ``by`` (inclusive),
    e.g. an act printed on 2024-02-08 and signed by the end of 2024. Whatever is counted from it is known
    between the same bounds moved alike; nothing picks a day inside them."""

    after: dt.date
    by: dt.date
    source: str = ""
    confidence: str = "inferred"

    @property
    def earliest(self) -> dt.date:
        return self.after + dt.timedelta(days=1)

    def words(self) -> str:
        return f"between {self.after} and {self.by}"

    def rests_on(self) -> str:
        return f"{self.words()} ({self.confidence}" + (f": {self.source}" if self.source else "") + ")"


@dataclass(frozen=True)
class Anchor:
    phrase: str
    date: dt.date  # the day; for a date known between bounds, the last day it can be (``bounds.by``)
    source: str
    confidence: str
    bounds: Bounds | None = None  # set when the manifest knows the date only between bounds


@dataclass(frozen=True)
class Fragment:
    covers: str
    lines: tuple[int, int]
    effective: dt.date | None
    confidence: str
    note: str


@dataclass(frozen=True)
class Entry:
    file: str
    kind: str
    covers: tuple[str, ...]
    effective: dt.date | None
    became_law: dt.date | None
    status: str
    source: str
    confidence: str
    note: str
    list_numbering: str
    section: str
    code_prefix: str
    code_cite: str
    anchors: tuple[Anchor, ...]
    fragments: tuple[Fragment, ...]
    line: int  # line of its [[document]] header in the manifest
    known_from: dt.date | None = None  # the text is known to be in force from here (it may be older)
    known_until: dt.date | None = None  # ... and up to here (exclusive); after it, the corpus does not know
    # which quote option each fee of the text is, where the text does not name one (a rule's "(d)(1)
    # docking ..."): provision id ("21nycrr/55.2/d/1", "…/c#2" for its second fee) -> (option, choice)
    options: tuple[tuple[str, str, str], ...] = ()
    format: str = ""  # a name of formats/'s registry (plain, lbdc, bill …), as declared; "" = detected
    # levels the text lost ("88/4/b/ii" = "88/4/b/1/ii": its "(1)" is not printed): the provision the
    # text's labels give one id is the one the legislature cites by the other
    lost_labels: tuple[tuple[str, str], ...] = ()
    # became_law known only between bounds (``became_law`` is then its last possible day, ``bounds.by``)
    became_law_bounds: Bounds | None = None
    cite: str = ""  # how the document is cited ("A.8982-A of 2024"); quotes and reports name it so
    # whose law the text is, as the manifest says (``law = "Vehicle and Traffic Law"``, or the manifest's
    # top-level ``law``, the corpus's own chapter); "" = read from the text (compiler/model/codes.py)
    law: str = ""


@dataclass
class Manifest:
    path: Path
    entries: list[Entry]
    text: str = field(repr=False, default="")
    routes: tuple[Route, ...] = ()
    sha256: str = ""  # of the bytes read: what the build's record of its corpus is made from
    options: tuple[OptionDecl, ...] = ()  # the [[option]] table (compiler/frontend/options.py)
    law: str = ""  # the top-level law = "…": the corpus's own chapter, as the table of codes names it


class _Reader:
    def __init__(self, path: Path, text: str):
        self.path = path
        self.shown = str(path)
        self.lines = text.split("\n")
        self.headers = [k + 1 for k, l in enumerate(self.lines) if l.strip() == "[[document]]"]
        self.route_headers = [k + 1 for k, l in enumerate(self.lines) if l.strip() == "[[route]]"]
        self.errors: list[Diagnostic] = []
        self._indexes: dict[int, tuple[dict[str, int], dict[str, int]]] = {}

    def line_of(self, doc_index: int, key: str | None = None, value: str | None = None) -> int:
        """The line of a [[document]]'s header, or of the first line in it that sets ``key`` (or, with
        ``value``, holds that quoted string): from an index of each document's lines made once, so
        that finding the lines of N fragments or anchors is linear in N, not N times the lines."""
        start = self.headers[doc_index] if doc_index < len(self.headers) else 1
        if key is None:
            return start
        keys, quoted = self._index(doc_index)
        if value is None:
            return keys.get(key, start)
        return quoted.get(value, start)

    _KEY = re.compile(r'^\s*(?:"((?:[^"\\]|\\.)*)"|([A-Za-z0-9_-]+))\s*=')
    _QUOTED = re.compile(r'"(?:[^"\\\n]|\\.)*"')

    def _index(self, doc_index: int) -> tuple[dict[str, int], dict[str, int]]:
        """A document's keys (as TOML reads them) and quoted strings (as written) -> their first line."""
        got = self._indexes.get(doc_index)
        if got is None:
            start = self.headers[doc_index] if doc_index < len(self.headers) else 1
            end = self.headers[doc_index + 1] if doc_index + 1 < len(self.headers) else len(self.lines) + 1
            keys: dict[str, int] = {}
            quoted: dict[str, int] = {}
            for n in range(start, end):
                line = self.lines[n - 1]
                m = self._KEY.match(line)
                if m:
                    name = m.group(2) if m.group(2) is not None else _unquote(m.group(1))
                    keys.setdefault(name, n)
                for q in self._QUOTED.findall(line):
                    quoted.setdefault(q, n)
            got = self._indexes[doc_index] = (keys, quoted)
        return got

    def error(self, line: int, message: str, hint: str = "") -> None:
        src = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        col = len(src) - len(src.lstrip()) + 1
        self.errors.append(Diagnostic(Severity.ERROR, message, self.shown, line, col, src, "manifest", hint))

    def date(self, i: int, key: str, value: object, where: str = "") -> dt.date | None:
        if value is None:
            return None
        if isinstance(value, dt.datetime) or not isinstance(value, dt.date):
            self.error(self.line_of(i, key), f"{where}{key} must be a date written YYYY-MM-DD without quotes, not {value!r}")
            return None
        if value == dt.date.min:  # every date is compared with the day before it: this one has none
            self.error(self.line_of(i, key), f"{where}{key} = 0001-01-01 has no day before it, and navlaw compares the "
                       "law on each date with the day before; the earliest date it takes is 0001-01-02")
            return None
        return value

    def bounds(self, i: int, key: str, value: dict[str, object], where: str = "") -> Bounds | None:
        """``{ after = D, by = D, source = "…", confidence = "…" }``: a date known only between bounds."""
        line = self.line_of(i, key)
        for k in sorted(set(value) - BOUNDS_KEYS - {"date"}):
            self.error(line, f"unknown key {k!r} in {where}{key}", "a date known between bounds is written "
                       "{ after = YYYY-MM-DD, by = YYYY-MM-DD, confidence = \"inferred\", source = \"…\" }")
        if "date" in value and ("after" in value or "by" in value):
            self.error(line, f"{where}{key}: give either date = … or after = … and by = …, not both")
            return None
        if "after" not in value or "by" not in value:
            self.error(line, f"{where}{key}: a date known between bounds needs both after = YYYY-MM-DD (the last day "
                       "it had certainly not happened) and by = YYYY-MM-DD (the day by which it certainly had)")
            return None
        after, by = self.date(i, key, value["after"], where), self.date(i, key, value["by"], where)
        if after is None or by is None:
            return None
        if by <= after:
            self.error(line, f"{where}{key}: by = {by} must be later than after = {after}")
            return None
        for k in ("source", "note"):
            if k in value and not isinstance(value[k], str):
                self.error(line, f"{where}{key}: {k} must be a string in quotes, not {value[k]!r}")
        return Bounds(after, by, str(value.get("source", "")), self.choice(i, key, value.get("confidence"), CONFIDENCES,
                                                                           "inferred"))

    def choice(self, i: int, key: str, value: object, allowed: tuple[str, ...], default: str | None = None) -> str:
        if value is None and default is not None:
            return default
        if value not in allowed:
            self.error(self.line_of(i, key), f"unknown {key} {value!r}: expected one of {', '.join(allowed)}")
            return default or ""
        return str(value)


def _unquote(text: str) -> str:
    """A TOML basic string's content, its escapes read (as JSON reads them; as written if it cannot)."""
    if "\\" not in text:
        return text
    try:
        return str(json.loads(f'"{text}"'))
    except ValueError:
        return text


def _code_for(covers: tuple[str, ...], explicit: str, law: str = "", own: bool = True) -> tuple[str, str]:
    """(id prefix, citation) of a document: its ``code`` as written, an NYCRR title its covers name, its
    ``law`` from the table of codes; ("", "") when the manifest does not say (the text may)."""
    if explicit:
        return re.sub(r"\W", "", explicit).lower(), explicit
    prefixes = {c.split("/")[0] for c in covers if "/" in c}
    for p in prefixes:
        m = re.fullmatch(r"(\d+)nycrr", p)
        if m:
            return p, f"{m.group(1)} NYCRR"
    code = codes.code_for(law, own) if law else None
    return (code.prefix, code.cite) if code else ("", "")


def load_manifest(corpus: Path) -> Manifest:
    path = corpus / "manifest.toml"
    data_bytes, text = _read(path)
    r = _Reader(path, text)
    data = _toml(r, text)
    top_law = data.get("law", "")
    if not isinstance(top_law, str) or (top_law and codes.code_for(top_law) is None):
        r.error(1 + next((n for n, l in enumerate(r.lines) if l.strip().startswith("law")), 0),
                f"unknown law {top_law!r}", f"the table of codes: {', '.join(l.name for l in codes.LAWS)}, or \"N NYCRR\" for a title of the regulations")
        top_law = ""
    for k in sorted(set(data) - {"document", "route", "option", "law"}):
        r.error(1 + next((n for n, l in enumerate(r.lines) if l.strip().startswith(k)), 0), f"unknown top-level key {k!r}")
    documents = data.get("document", [])
    if not isinstance(documents, list) or not all(isinstance(d, dict) for d in documents):
        r.error(1 + next((n for n, l in enumerate(r.lines) if l.strip().startswith(("[document]", "document"))), 0),
                "`document` must be an array of tables: write each entry under [[document]] (two brackets)")
        raise NavlawError(r.errors)
    entries = [e for i, d in enumerate(documents) if (e := _entry(r, i, d, corpus, top_law)) is not None]
    seen: dict[str, int] = {}
    for e in entries:
        if e.file in seen:
            r.error(e.line, f"the file {e.file!r} is listed twice (first at line {seen[e.file]})")
        seen.setdefault(e.file, e.line)
    if not data.get("document"):
        r.error(1, "the manifest lists no [[document]]")
    routes = read_routes(r, data.get("route", []))
    declared = read_options(data.get("option", []), r.lines, r.error)
    if r.errors:
        raise NavlawError(r.errors)
    return Manifest(path, entries, text, routes, hashlib.sha256(data_bytes).hexdigest(), declared, top_law)


def _read(path: Path) -> tuple[bytes, str]:
    """The manifest's bytes and its text (line ends made "\\n"); NavlawError if it cannot be read."""
    if not path.exists() and not path.is_symlink():
        raise NavlawError([Diagnostic(Severity.ERROR, "the corpus has no manifest.toml", str(path), code="manifest",
                                      hint="every corpus directory needs a manifest.toml describing its documents")])
    if path.is_dir():
        raise NavlawError([Diagnostic(Severity.ERROR, "manifest.toml is a directory, not a file", str(path),
                                      code="manifest")])
    data_bytes = read_regular(path, str(path))  # a FIFO or a device is refused, a huge file too
    try:
        return data_bytes, data_bytes.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError:
        raise NavlawError([Diagnostic(Severity.ERROR, "manifest.toml is not UTF-8", str(path), code="manifest")]) from None


def _toml(r: _Reader, text: str) -> dict[str, Any]:
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+), column (\d+)", str(exc))
        line = int(m.group(1)) if m else 1
        raise NavlawError([Diagnostic(Severity.ERROR, f"manifest.toml is not valid TOML: {str(exc).split(' (at')[0]}",
                                      r.shown, line, int(m.group(2)) if m else 1,
                                      r.lines[line - 1] if 0 < line <= len(r.lines) else "", "manifest")]) from None


def _file(r: _Reader, i: int, d: dict[str, Any], corpus: Path) -> str | None:
    """A [[document]]'s file, relative to the corpus; None (said) if it has none or is outside it."""
    file = d.get("file")
    if not isinstance(file, str) or not file:
        r.error(r.line_of(i), "a [[document]] without `file`")
        return None
    inside = not Path(file).is_absolute() and (corpus / file).resolve().is_relative_to(corpus.resolve())
    if not inside:
        r.error(r.line_of(i, "file"), f"the file {file!r} must be inside the corpus directory",
                "name documents by their path relative to manifest.toml, without '..'")
        return None
    file = Path(file).as_posix()  # "./a.txt" and "a.txt" are one file
    if (corpus / file).exists() and not (corpus / file).is_file():
        r.error(r.line_of(i, "file"), f"{file!r} named here is not a regular file (a directory, a FIFO or a "
                "device): navlaw reads law texts from regular files")
    elif not (corpus / file).is_file():
        r.error(r.line_of(i, "file"), f"the file {file!r} named here does not exist in {corpus}")
    return file


def _entry(r: _Reader, i: int, d: dict[str, Any], corpus: Path, top_law: str) -> Entry | None:
    """One [[document]], its errors said through ``r``; None when it names no file navlaw can take."""
    for k in sorted(set(d) - DOCUMENT_KEYS):
        r.error(r.line_of(i, k), f"unknown key {k!r} in a [[document]]",
                f"known keys: {', '.join(sorted(DOCUMENT_KEYS))}")
    file = _file(r, i, d, corpus)
    if file is None:
        return None
    kind = r.choice(i, "kind", d.get("kind"), KINDS)
    status = r.choice(i, "status", d.get("status"), STATUSES, "in-force")
    confidence = r.choice(i, "confidence", d.get("confidence"), CONFIDENCES, "inferred")
    covers = d.get("covers", [])
    if not isinstance(covers, list) or not all(isinstance(c, str) for c in covers):
        r.error(r.line_of(i, "covers"), "covers must be a list of provision ids, e.g. [\"12-a\"]")
        covers = []
    for key in ("source", "note", "section", "code", "received_as", "cite"):
        if key in d and not isinstance(d[key], str):
            r.error(r.line_of(i, key), f"{key} must be a string in quotes, not {d[key]!r}")
    anchors, fragments, options, lost_labels = _anchors(r, i, d), _fragments(r, i, d), _options(r, i, d), _lost_labels(r, i, d)
    law = d.get("law", top_law)
    if not isinstance(law, str) or (law and codes.code_for(law) is None):
        r.error(r.line_of(i, "law"), f"unknown law {law!r}",
                f"the table of codes: {', '.join(l.name for l in codes.LAWS)}, or \"N NYCRR\" for a title of the regulations")
        law = ""
    own = not top_law or codes.lookup(law) == codes.lookup(top_law)
    prefix, cite = _code_for(tuple(covers), str(d.get("code", "")), law, own)
    became, became_bounds = d.get("became_law"), None
    if isinstance(became, dict):
        became_bounds = r.bounds(i, "became_law", became)
        became = became_bounds.by if became_bounds else None
    e = Entry(
        file=file, kind=kind, covers=tuple(covers),
        effective=r.date(i, "effective", d.get("effective")),
        became_law=r.date(i, "became_law", became),
        status=status, source=str(d.get("source", "")), confidence=confidence, note=str(d.get("note", "")).strip(),
        list_numbering=r.choice(i, "list_numbering", d.get("list_numbering"), ("auto", "artifact", "real"), "auto"),
        section=str(d.get("section", "")), code_prefix=prefix, code_cite=cite, anchors=anchors, fragments=fragments,
        line=r.line_of(i), known_from=r.date(i, "known_from", d.get("known_from")),
        known_until=r.date(i, "known_until", d.get("known_until")), options=options,
        format=r.choice(i, "format", d.get("format"), formats.names(), ""),
        lost_labels=lost_labels, became_law_bounds=became_bounds, cite=str(d.get("cite", "")), law=law)
    if e.known_from is not None and e.known_until is not None and e.known_from >= e.known_until:
        r.error(r.line_of(i, "known_until"),
                f"known_from = {e.known_from} is not before known_until = {e.known_until}: the text would be "
                "known in force on no day (known_until is the first day it is no longer known)",
                "swap the two dates, or correct the one that is wrong")
    return e


def _anchors(r: _Reader, i: int, d: dict[str, Any]) -> tuple[Anchor, ...]:
    """[document.anchors]: "phrase" = { date = …, source = … } (or known between bounds)."""
    anchors = []
    given_anchors = d.get("anchors") or {}
    if not isinstance(given_anchors, dict):
        r.error(r.line_of(i, "anchors"), "anchors must be a table: [document.anchors] with "
                "\"phrase\" = { date = YYYY-MM-DD, source = \"...\" }")
        given_anchors = {}
    for phrase, a in given_anchors.items():
        if not isinstance(a, dict) or not ("date" in a or "after" in a or "by" in a):
            r.error(r.line_of(i, phrase), f"anchor {phrase!r} needs a date: {{ date = YYYY-MM-DD, source = \"...\" }} "
                    "(or, known only between bounds, { after = YYYY-MM-DD, by = YYYY-MM-DD, source = \"...\" })")
            continue
        for k in sorted(set(a) - ANCHOR_KEYS):
            r.error(r.line_of(i, phrase), f"unknown key {k!r} in anchor {phrase!r}")
        conf = r.choice(i, phrase, a.get("confidence"), CONFIDENCES, "inferred")
        if "after" in a or "by" in a:
            b = r.bounds(i, phrase, a, "anchor ")
            if b:
                anchors.append(Anchor(phrase, b.by, str(a.get("source", "")), conf, b))
            continue
        date = r.date(i, phrase, a.get("date"), "anchor ")
        if date:
            anchors.append(Anchor(phrase, date, str(a.get("source", "")), conf))
    return tuple(anchors)


def _fragments(r: _Reader, i: int, d: dict[str, Any]) -> tuple[Fragment, ...]:
    """[[document.fragments]]: covers = "id", lines = [first, last], and the fragment's own facts."""
    fragments = []
    given_fragments = d.get("fragments", [])
    if not isinstance(given_fragments, list) or not all(isinstance(f, dict) for f in given_fragments):
        r.error(r.line_of(i, "fragments"), "fragments must be an array of tables: write each under "
                "[[document.fragments]] with covers = \"id\" and lines = [first, last]")
        given_fragments = []
    for f in given_fragments:
        cov = f.get("covers", "")
        if not isinstance(cov, str):
            r.error(r.line_of(i, "fragments"), f"a fragment's covers must be one provision id in quotes, not {cov!r}")
            continue
        line = r.line_of(i, "covers", f'"{cov}"')
        for k in sorted(set(f) - FRAGMENT_KEYS):
            r.error(line, f"unknown key {k!r} in a fragment")
        lines = f.get("lines")
        if not (isinstance(lines, list) and len(lines) == 2 and all(isinstance(x, int) for x in lines)
                and 1 <= lines[0] <= lines[1]):
            r.error(line, f"fragment {cov!r} needs lines = [first, last] (1-based, first <= last)")
            continue
        fragments.append(Fragment(cov, (lines[0], lines[1]), r.date(i, "effective", f.get("effective"), "fragment "),
                                  r.choice(i, "confidence", f.get("confidence"), CONFIDENCES, "inferred"),
                                  str(f.get("note", ""))))
    return tuple(fragments)


def _options(r: _Reader, i: int, d: dict[str, Any]) -> tuple[tuple[str, str, str], ...]:
    """[document.options]: "provision id" = "option" or "option=choice"."""
    options = []
    given_options = d.get("options", {})
    if not isinstance(given_options, dict):
        r.error(r.line_of(i, "options"), "options must be a table: [document.options] with "
                "\"provision id\" = \"option\" or \"option=choice\"")
        given_options = {}
    for pid, value in given_options.items():
        if not isinstance(value, str) or not re.fullmatch(r"[a-z_][a-z0-9_]*(?:=[a-z0-9-]+)?", value):
            r.error(r.line_of(i, pid), f"option of {pid!r} must be a quote option name, e.g. \"docking=tug\", "
                    f"not {value!r}")
            continue
        name, _, chosen = value.partition("=")
        options.append((pid, name, chosen))
    return tuple(options)


def _lost_labels(r: _Reader, i: int, d: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """[document.lost_labels]: "12/3/b/ii" = "12/3/b/1/ii", the id the text's labels give = the cited one."""
    lost = d.get("lost_labels", {})
    if not isinstance(lost, dict) or not all(isinstance(k, str) and isinstance(v, str) for k, v in lost.items()):
        r.error(r.line_of(i, "lost_labels"), "lost_labels must be a table of provision ids: [document.lost_labels] "
                "with \"12/3/b/ii\" = \"12/3/b/1/ii\" (the id the text's labels give = the id the legislature cites)")
        lost = {}
    lost_labels = []
    for old, new in lost.items():
        parent, _, last = old.rpartition("/")
        if not parent or not new.startswith(parent + "/") or not new.endswith("/" + last) or new.count("/") <= old.count("/"):
            r.error(r.line_of(i, old), f"lost_labels: {new!r} must be {old!r} with the lost levels put in before its "
                    f"last label, e.g. {parent}/1/{last}")
            continue
        lost_labels.append((old, new))
    return tuple(lost_labels)
