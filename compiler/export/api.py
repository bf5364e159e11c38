"""The site's static JSON API (``api/``) and the JSON of the command line, each document naming the
JSON Schema it validates against (``schema``: a file of schema/, published as ``api/schema/``) and that
schema's ``version``:

- ``api/sections/<section>.json``: every version of a section (the dates it is in force from and until,
  the texts it is made of with their sources, its Akoma Ntoso), each version's provisions as a tree whose
  nodes give their text whole with the raw spans it came from, their citation and their site anchor; the
  chapter references the section makes;
- ``api/tariffs.json``: every tariff, typed, dated and cited (as ``OUT/tariffs.json``);
- ``api/changes.json``: every date the law changes, with what changes (as ``navlaw changes``).
"""

from __future__ import annotations

import datetime as dt
import json
import re
from functools import lru_cache, partial
from pathlib import Path
from typing import TYPE_CHECKING, Any, Callable, Iterator, Mapping

from navlaw.export import VERSION, akn_path, api_path, slug, stamped
from navlaw.export.data_memo import Keyed, Memo, Todo, last
from navlaw.export.shapes import Same, section_key, shape
from navlaw.model.nodes import Node, Section
from navlaw.model.text import NormalText
from navlaw.frontend.outline import node_json
from navlaw.law.redline import render_json
from navlaw.law.references import in_text
from navlaw.model.tariffs import AnyTariff, to_json

if TYPE_CHECKING:
    from navlaw.cache import BuildCache
    from navlaw.export.akn import Export
    from navlaw.frontend.corpus import Corpus
    from navlaw.law.timeline import Composed, Timeline
    from navlaw.report.changes import Changes

SCHEMAS = Path(__file__).resolve().parent / "schema"


def schema_names() -> list[str]:
    return sorted(p.name for p in SCHEMAS.glob("*.schema.json"))


def dump(data: Any) -> str:
    """The API's files compact (a browser or a program reads them; `python -m json.tool` shows them indented)."""
    return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"


@lru_cache(maxsize=1 << 16)  # every provision of every version of every section: the same ids again and again
def anchor(node_id: str) -> str:
    """The provision's anchor on its site page (compiler/site/render.anchor; a test checks they agree)."""
    return "p-" + re.sub(r"[^A-Za-z0-9-]+", "-", node_id.replace("*", "x")).strip("-")


# ---- sections ---------------------------------------------------------------------------------------------

def text_of(corpus: Corpus, comp: Composed) -> Callable[[Node], NormalText | None]:
    """For a section composed of several texts: the normalized text each node was read from (the source
    whose provision id is the nearest above it)."""
    by_file = {c.source.path: c.document.normal for c in corpus.documents}
    sources = sorted(((pid, v.compiled.document.normal if v.compiled is not None else by_file.get(v.file))
                      for pid, v in comp.sources), key=lambda s: -s[0].count("/"))
    one = sources[0][1] if sources else None
    if one is not None and all(nt is one for _, nt in sources):
        return Same(one)  # every node read from one text: what ``find`` gives, and its sections' keys are shared

    def find(n: Node) -> NormalText | None:
        for pid, nt in sources:
            if n.id == pid or n.id.startswith(pid + "/") or (not n.id and pid == comp.sources[0][0]):
                return nt
        return sources[-1][1] if sources else None

    return find


def tree_json(node: Node, find: Callable[[Node], NormalText | None]) -> dict[str, Any]:
    """A section's tree as the API gives it: ``node_json`` with each node's site anchor."""
    out = node_json(node, find)

    def walk(j: dict[str, Any]) -> None:
        if j["id"]:
            j["anchor"] = anchor(j["id"])
        for c in j["children"]:
            walk(c)

    walk(out)
    return out


def _source_file(corpus: Corpus, file: str) -> str:
    """A document's path relative to the manifest (a build names them so already)."""
    return _relative(corpus.root, file)


@lru_cache(maxsize=1 << 12)  # every source of every version of every section: the same few files again and again
def _relative(root: Path, file: str) -> str:
    """(Cleared by each ``api_files``: a path resolved in one build is resolved again in the next.)"""
    p = Path(file.split("#")[0])
    try:
        return p.resolve().relative_to(Path(root).resolve()).as_posix() if p.is_absolute() else p.as_posix()
    except ValueError:
        return p.name


def section_json(corpus: Corpus, timeline: Timeline, section: str, work: str = "") -> dict[str, Any]:
    data, trees = section_parts(corpus, timeline, section, work)
    return with_trees(data, trees)


Trees = list[tuple[dict[str, Any], Node, Callable[[Node], NormalText | None]]]  # (version, its law, text_of)


def section_parts(corpus: Corpus, timeline: Timeline, section: str, work: str = "") -> tuple[dict[str, Any], Trees]:
    """``section_json`` but its versions' trees and the section's references (the costly part): the JSON
    (``with_trees`` adds them) and each version's law with the texts it was read from."""
    entries = {c.source.path: c.entry for c in corpus.documents}
    entries.update({a.file: a.entry for a in corpus.acts})
    bounds = timeline.boundaries(section)
    versions = []
    trees: Trees = []
    latest: Node | None = None
    for i, day in enumerate(bounds):
        comp = timeline.section_on(section, day)
        until = bounds[i + 1].isoformat() if i + 1 < len(bounds) else None
        v: dict[str, Any] = {"from": day.isoformat(), "until": until, "in_force": comp.section is not None}
        if comp.section is None:
            v["message"] = comp.message
        v["sources"] = [{"id": pid, "file": _source_file(corpus, tv.file),
                         "source": getattr(entries.get(tv.file.split("#")[0]), "source", "") or "",
                         "from": tv.start.isoformat() if tv.start else None, "note": tv.note}
                        for pid, tv in comp.sources]
        v["gaps"] = list(comp.gaps)
        if comp.section is not None:
            latest = comp.section
            v["akn"] = f"../../akn/{akn_path(section, day.isoformat())}"
            trees.append((v, comp.section, text_of(corpus, comp)))
        versions.append(v)
    return stamped("section", {
        "section": section, "citation": latest.citation if latest is not None else "",
        "heading": latest.heading if latest is not None else "", "work": work,
        "page": f"law/{slug(section)}/", "versions": versions, "references": []}), trees


def with_trees(data: dict[str, Any], trees: Trees) -> dict[str, Any]:
    """``section_parts``' JSON with its versions' trees and the references of the section's latest law."""
    for v, node, find in trees:
        v["tree"] = tree_json(node, find)
    refs: list[dict[str, Any]] = data["references"]
    if trees:
        section = data["section"]
        for n in trees[-1][1].walk():
            for a, b, target, external in in_text(n.text, section):
                refs.append({"from": n.id, "text": n.text[a:b], "section": target or None, "external": external})
    return data


# ---- tariffs and changes ------------------------------------------------------------------------------------

def show_json(corpus: Corpus, comp: Composed, day: dt.date, pending: list[str]) -> dict[str, Any]:
    """`navlaw show --format json`: the section as in force on ``day``, where each part comes from, and
    the texts that may already be in force that day (their start known only between bounds)."""
    assert comp.section is not None
    return stamped("show", {"section": tree_json(comp.section, text_of(corpus, comp)), "on": day.isoformat(),
                            "sources": [{"id": pid, "file": Path(v.file).name.split("#")[0], "from": str(v.start),
                                         "note": v.note} for pid, v in comp.sources],
                            "gaps": comp.gaps, "pending": pending})


def tariffs_list(tariffs: list[AnyTariff]) -> list[dict[str, Any]]:
    """Stable and sorted: by route, series, start date (unresolved first), id."""
    return list(tariffs_sorted(tariffs))


def tariffs_sorted(tariffs: list[AnyTariff]) -> Iterator[dict[str, Any]]:
    """``tariffs_list``, one tariff's JSON at a time (build writes tariffs.json as they come)."""
    def key(t: AnyTariff) -> tuple[str, str, str, str]:
        s = t.effective.start
        return (t.route, t.series, s.isoformat() if s else "", t.id)
    return (to_json(t) for t in sorted(tariffs, key=key))


def changes_json(found: Changes) -> dict[str, Any]:
    """What changes in (start, end]: the acts taking effect, each section's changed provisions with
    their redline, the texts the corpus starts or stops knowing, the fee changes in words."""
    return {
        "since": found.start.isoformat(), "date": found.end.isoformat(),
        "acts": [{"file": Path(a.file).name, "source": a.entry.source, "title": a.title,
                  "effective": a.effective.isoformat() if a.effective else None,
                  "outcome": [{"status": s, "what": w} for s, w in found.outcome(a).results]} for a in found.acts],
        "sections": [{"section": s.section, "before": s.before, "after": s.after,
                      "changes": render_json(s.changes)} for s in found.sections],
        "known": [{"starts": begins, "gap_from": gap_from or None,
                   "steps": [{"date": d, "files": files} for d, files in steps], "sections": listed}
                  for (begins, gap_from, steps), listed in found.known.items()],
        "fee_changes": list(found.deltas),
    }


def changes_between_json(timeline: Timeline, tariffs: list[AnyTariff], start: dt.date, end: dt.date,
                         acts: list[Any], outcomes: Any = None) -> dict[str, Any]:
    """`navlaw changes --format json`: what changes in (start, end] (``outcomes``: what the law stage did
    with each act, navlaw.law.Law.outcomes)."""
    from navlaw.report.changes import changes_between

    return stamped("changes", {"changes": [changes_json(changes_between(timeline, tariffs, start, end, acts,
                                                                        outcomes))]})


def _dumped(data: dict[str, Any], trees: Trees) -> str:
    return dump(with_trees(data, trees))


def api_files(corpus: Corpus, timeline: Timeline, tariffs: list[AnyTariff], changes: list[Changes],
              works: dict[str, str] | None = None, memo: Memo | None = None,
              tariffs_key: str = "") -> dict[str, str]:
    """Path under api/ -> JSON: every section, the tariffs, the changes, and the schemas. With a ``memo``
    (compiler/export/data_memo.py), a section's file whose inputs are those of a file of the last build is
    that file's text, not made again; so is tariffs.json when ``tariffs_key`` (the digest of every value of
    the tariffs, their offsets too: build.Result.json_key) is the last build's."""
    _relative.cache_clear()
    out: dict[str, str] = {}
    for s in timeline.sections():
        data, trees = section_parts(corpus, timeline, s, (works or {}).get(s, ""))
        name = f"sections/{api_path(s)}"
        if memo is None:
            out[name] = dump(with_trees(data, trees))
        else:
            key = repr((data, [section_key(node, find.nt) if isinstance(find, Same) and isinstance(node, Section)
                               else shape(node, find) for _, node, find in trees]))
            out[name] = memo.text(name, key, partial(_dumped, data, trees))
    def tariffs_file() -> str:
        return dump(stamped("tariffs", {"tariffs": tariffs_list(tariffs)}))
    out["tariffs.json"] = (memo.text("tariffs.json", "tariffs\0" + tariffs_key, tariffs_file)
                           if memo is not None and tariffs_key else tariffs_file())
    out["changes.json"] = dump(stamped("changes", {"changes": [changes_json(c) for c in changes]}))
    for name in schema_names():
        out[f"schema/{name}"] = (SCHEMAS / name).read_text(encoding="utf-8")
    return out


def site_data(corpus: Corpus, timeline: Timeline, tariffs: list[AnyTariff], changes: list[Changes],
              export: Export, akn: Mapping[str, str], cache: BuildCache | None, tariffs_key: str = "",
              todo: Todo | None = None) -> Keyed:
    """The site's data: the JSON API (api/) and each section's Akoma Ntoso (``akn``, under akn/), with the
    keys of the files that have one (every section's; tariffs.json's with ``tariffs_key``, see api_files); with a
    ``todo``, a section's file to make is "" for now, its making put in ``todo`` (compiler/export/data_memo.py)."""
    # a memo once this process built (its keys cost a third of the files: a one-off build makes none)
    memo = Memo("api", cache, todo) if last("api", cache) is not None else None
    out = Keyed()
    out.update({f"api/{k}": v for k, v in api_files(corpus, timeline, tariffs, changes,
                                                    {s: w.uri for s, w in export.works.items()}, memo,
                                                    tariffs_key).items()})
    out.update({f"akn/{k}": v for k, v in akn.items()})
    if memo is not None:
        out.file_keys.update({f"api/{k}": v for k, v in memo.file_keys.items()})
    out.file_keys.update({f"akn/{k}": v for k, v in getattr(akn, "file_keys", {}).items()})
    return out
