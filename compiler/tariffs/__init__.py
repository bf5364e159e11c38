"""Tariffs: their types and formulas are navlaw.model's (tariffs.py, formula.py); extraction from the trees by
form (extract.py), dating on the timeline — the one place schedules succeed one another (dating.py) —
and lint (lint.py). ``tariffs_and_lint`` runs the stage."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from navlaw.cache import BuildCache
    from navlaw.diagnostics import Diagnostics
    from navlaw.frontend.corpus import Corpus
    from navlaw.law.timeline import Timeline
    from navlaw.model.tariffs import AnyTariff


def tariffs_and_lint(corpus: Corpus, timeline: Timeline | None = None,
                     cache: BuildCache | None = None) -> tuple[list[AnyTariff], Diagnostics]:
    """Extract every tariff (from the corpus texts and from what amending acts put in force), date it by
    the timeline, and lint; the findings go to the returned collector. With a cache, the tariffs of an
    unchanged document are not extracted again."""
    from navlaw.diagnostics import Diagnostics
    from navlaw.law import build_timeline
    from navlaw.tariffs.dating import act_tariffs, date_tariffs
    from navlaw.tariffs.extract import extract, raw_line_lookup, unique_ids
    from navlaw.tariffs import complete
    from navlaw.tariffs.lint import lint
    from navlaw.tariffs.routes import RouteTable

    diags = Diagnostics()
    if timeline is None:
        timeline = build_timeline(corpus, diags)
    tariffs = extract(corpus, diags, cache) + act_tariffs(timeline, diags, RouteTable.of(corpus.manifest),
                                                        {a.file: a.raw for a in corpus.acts})
    tariffs = unique_ids(date_tariffs(tariffs, timeline, diags))
    raw = raw_line_lookup(corpus)
    diags.extend(lint(tariffs, raw))
    diags.extend(complete.lint(tariffs, RouteTable.of(corpus.manifest).ids(), raw))  # every size has one rate
    return tariffs, diags
