"""The pipeline's results as JSON: ``navlaw build --dump STAGE`` and the names of OUT's JSON files."""

from __future__ import annotations

import datetime as dt
from pathlib import Path
from typing import TYPE_CHECKING, Any, Iterable

if TYPE_CHECKING:  # the stages' modules are imported where they run
    from navlaw.diagnostics import Diagnostic
    from navlaw.frontend.corpus import Compiled, Corpus
    from navlaw.law.timeline import Timeline
    from navlaw.model.tariffs import AnyTariff


def dump(obj: Any) -> str:
    """``json.dumps(obj, ensure_ascii=False, indent=2, default=str)``, byte for byte (export/jsontext.py: the
    standard library indents in pure Python, a third slower)."""
    from navlaw.export.jsontext import indented

    return indented(obj)


def stage_data(stage: str, corpus: Corpus | None = None, timeline: Timeline | None = None,
               tariffs: list[AnyTariff] | None = None, diagnostics: Iterable[Diagnostic] = ()) -> Any:
    """``--dump STAGE``: the stage's result, as data for JSON (manifest and tree from the corpus, the
    timeline, the tariffs; the findings for any other stage)."""
    from navlaw.frontend.outline import document_json

    if stage == "manifest" and corpus is not None:
        return [{k: (v.isoformat() if isinstance(v, dt.date) else v) for k, v in vars(e).items()
                 if k not in ("anchors", "fragments")} for e in corpus.manifest.entries]
    if stage == "tree" and corpus is not None:
        return {tree_name(corpus, c): document_json(c.document) for c in corpus.documents}
    if stage == "timeline" and timeline is not None:
        return {sec: [{"date": d.isoformat(), "sources": [{"id": pid, "file": Path(v.file).name, "note": v.note}
                                                         for pid, v in timeline.section_on(sec, d).sources],
                       "message": timeline.section_on(sec, d).message}
                      for d in timeline.boundaries(sec)] for sec in timeline.sections()}
    if stage == "tariffs" and tariffs is not None:
        return tariffs_json(tariffs)
    return [d.to_json() for d in diagnostics]


def tree_name(corpus: Corpus, c: Compiled) -> str:
    """A document's tree file: its path relative to the corpus (two files named alike in two folders
    get two tree files)."""
    path = Path(c.source.path)
    if not path.is_absolute() and not path.exists():  # named relative to the manifest already
        return path.as_posix()
    try:
        return path.resolve().relative_to(Path(corpus.root).resolve()).as_posix()
    except ValueError:
        return path.name


def tariffs_json(tariffs: list[AnyTariff]) -> list[dict[str, Any]]:
    """Stable and sorted: by route, series, start date (unresolved first), id."""
    from navlaw.export.api import tariffs_list

    return tariffs_list(tariffs)
