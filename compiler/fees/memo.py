"""The generated module's code made once and kept: a build whose fee module would be rendered from the same
inputs as the last build's takes that build's text instead of rendering it again (issue 32: an edit of a
section that holds no fee re-made the whole module, templates and all).

The memo is one cache entry (compiler/cache.py: sealed, under a key that holds navlaw's own fingerprint, so a
change to the generator or its templates is a miss) whose key is the digest of what ``render`` reads: the
plans, the tariffs, the names of the source files and the module's ``About``, pickled. What ``render`` asks
the timeline (``Versions``: the version of a section in force on a day) is recorded with the answers, and
the memo is used only when every recorded question gets the same answer from this build's timeline: the
render would then take the same path and write the same text.

The sources' SHA-256 are left out of the key: they are in the header every generated file starts with
(``header_lines``) and in pyproject.toml, which are made afresh; the memo keeps each file without its header
and is not kept at all when a digest appears anywhere else in it. An edit of a section without a fee
changes the header and nothing else of the code."""

from __future__ import annotations

import datetime as dt
import hashlib
import pickle
from array import array
from typing import TYPE_CHECKING, Any


if TYPE_CHECKING:
    from navlaw.cache import BuildCache
    from navlaw.fees.package import About
    from navlaw.fees.plans import Plan
    from navlaw.fees.trace_gen import Versions
    from navlaw.law.timeline import Timeline
    from navlaw.model.tariffs import AnyTariff

STAGE = "fee-module"
Asked = list[tuple[tuple[str, dt.date], tuple[dt.date | None, bool]]]


def rendered(plans: dict[str, Plan], tariffs: list[AnyTariff], sources: list[tuple[str, str]],
             versions: Versions | None, about: About, cache: BuildCache | None = None,
             tariffs_key: str = "") -> dict[str, str]:
    """``render(plans, tariffs, sources, versions, about)`` (compiler/fees/generate.py), taken from the last
    build's when its inputs are the same (counted in ``cache.stats``: "fee module reused", "fee module made").
    ``tariffs_key``: ``tariffs_digest(tariffs)`` when the caller has it already (the site's tariffs page keys
    on it too)."""
    from navlaw.fees.package import header_lines

    if cache is None or not cache.enabled:
        return _render(plans, tariffs, sources, versions, about)
    names = [name for name, _ in sources]
    try:
        inputs = (tariffs_key or _pickled(tariffs)) + _pickled((plans, names, about, versions is None))
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return _render(plans, tariffs, sources, versions, about)
    key = cache.key(STAGE, inputs)
    header = header_lines(sources)
    memo: Any = cache.get(STAGE, key)
    if _valid(memo) and all(versions is not None and versions(*q) == a for q, a in memo["asked"]):
        cache.stats["fee module reused"] += 1
        return _with_header(memo["files"], header, plans, tariffs, sources, about)
    asked: Asked = []

    def recorded(section: str, day: dt.date) -> tuple[dt.date | None, bool]:
        assert versions is not None
        answer = versions(section, day)
        asked.append(((section, day), answer))
        return answer

    files = _render(plans, tariffs, sources, recorded if versions is not None else None, about)
    cache.stats["fee module made"] += 1
    kept = _headless(files, header, sources)
    if kept is not None:
        try:
            cache.put(STAGE, key, {"asked": asked, "files": kept})
        except OSError as exc:
            cache.warnings.append(f"the build cache could not be written ({exc.strerror or exc})")
    return files


def versions(timeline: Timeline) -> Versions:
    """What ``render`` asks the timeline: the version of a section's text in force on a day, and whether the
    site has a history page of it (a section with two versions or more, or a rule in bracket notation, whose
    markup is its history: compiler/site/history.py). A section's boundaries and texts are asked once."""
    known: dict[str, tuple[list[dt.date], int]] = {}

    def version(section: str, day: dt.date) -> tuple[dt.date | None, bool]:
        if section not in known:
            dates = timeline.boundaries(section)
            known[section] = dates, sum(1 for d in dates if timeline.section_on(section, d).section is not None)
        dates, texts = known[section]
        rule = timeline.section_on(section, day).from_rule
        return max((d for d in dates if d <= day), default=None), texts >= 2 or rule

    return version


def _pickled(value: Any, offsets: list[int] | None = None) -> str:
    """The digest of ``value`` pickled without the pickler's memo: equal values give equal bytes whether or
    not they share objects (tariffs read from the cache share fewer strings than tariffs just extracted).
    A ``Source`` (where a number was read) counts by its file, line, column and words, not by its offsets in
    the file: the module cites line and column, and a one-word edit above a fee moves its offsets only
    (tests/test_fee_memo.py renders a module from tariffs with every offset moved: the same text). ``offsets``:
    gets each Source's start and end, in the order the Sources are pickled (each where it stands in the stream)."""
    from navlaw.model.tariffs import Source

    h = hashlib.sha256()

    class _Sink:
        @staticmethod
        def write(b: bytes) -> None:
            h.update(b)

    class _Pickler(pickle.Pickler):
        def reducer_override(self, obj: Any) -> Any:
            if type(obj) is Source:
                if offsets is not None:
                    offsets.extend((obj.start, obj.end))
                return _where, (obj.file, obj.line, obj.column, obj.text)
            return NotImplemented

    p = _Pickler(_Sink(), protocol=pickle.HIGHEST_PROTOCOL)
    p.fast = True  # no memo: no back-references that depend on which objects are shared
    p.dump(value)
    return h.hexdigest()


def tariffs_digest(tariffs: list[AnyTariff]) -> str:
    """The digest of every value of every tariff, each ``Source`` by its file, line, column and words (not its
    offsets: ``_pickled``); "" when a value cannot be pickled (then nothing is taken from a memo)."""
    return tariffs_digests(tariffs)[0]


def tariffs_digests(tariffs: list[AnyTariff]) -> tuple[str, str]:
    """``tariffs_digest(tariffs)``, and the digest of every value of every tariff with the offsets of each
    ``Source`` too (everything OUT/tariffs.json and the site's api/tariffs.json show), from one pass over the
    tariffs; ("", "") when a value cannot be pickled."""
    offsets: list[int] = []
    try:
        values = _pickled(tariffs, offsets)
    except (pickle.PicklingError, TypeError, AttributeError, ValueError, RecursionError):
        return "", ""
    return values, hashlib.sha256(values.encode() + array("q", offsets).tobytes()).hexdigest()


def _where(file: str, line: int, column: int, text: str) -> tuple[str, int, int, str]:
    """What of a ``Source`` the memo's key holds (``_pickled``; never unpickled)."""
    return file, line, column, text


def _render(plans: dict[str, Plan], tariffs: list[AnyTariff], sources: list[tuple[str, str]],
            versions: Versions | None, about: About) -> dict[str, str]:
    from navlaw.fees.generate import render

    return render(plans, tariffs, sources, versions, about)


def _valid(memo: Any) -> bool:
    return (isinstance(memo, dict) and isinstance(memo.get("asked"), list)
            and isinstance(memo.get("files"), dict))


def _headless(files: dict[str, str], header: str, sources: list[tuple[str, str]]) -> dict[str, str] | None:
    """The files as the memo keeps them: pyproject.toml left out (made afresh), each other file's header cut
    off (a file without one is kept whole); None when a source's digest appears outside the header (the
    text would not be the same for another corpus with the same fees)."""
    out: dict[str, str] = {}
    for name, text in files.items():
        if name == "pyproject.toml":
            continue
        body = text[len(header):] if header and text.startswith(header) else text
        if any(sha and sha in body for _, sha in sources):
            return None
        out[name] = ("h" if body is not text else "-") + body
    return out


def _with_header(kept: dict[str, str], header: str, plans: dict[str, Plan], tariffs: list[AnyTariff],
                 sources: list[tuple[str, str]], about: About) -> dict[str, str]:
    """The memo's files with this build's header, and this build's pyproject.toml, in ``render``'s order."""
    from navlaw.fees.package import pyproject

    out: dict[str, str] = {}
    for name, body in kept.items():
        out[name] = (header if body[:1] == "h" else "") + body[1:]
    out["pyproject.toml"] = pyproject(tariffs, sources, about)
    return out
