"""The law over time: the timeline of text versions (timeline.py) with amending acts applied
(amend.py), cross-references (references.py), defined terms (definitions.py), redlines (redline.py).

The stage is one call, ``compile_law(corpus) -> Law``: a new value holding what every later stage reads
(the corpus as read, the timeline, what each act did, the cross-references, the findings so far); nothing
is set on the corpus or on its acts."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from navlaw.diagnostics import Diagnostics
    from navlaw.frontend.acts import Act
    from navlaw.frontend.corpus import Corpus
    from navlaw.law.amend import ActOutcome
    from navlaw.law.references import Reference
    from navlaw.law.timeline import Timeline


@dataclass(frozen=True)
class Law:
    """What the law stage knows, for every stage after it: the corpus as the front end read it, the
    timeline (the corpus's texts on their dates, amending acts applied), what the law stage did with each
    act (keyed by the act's file), the cross-references of the texts, and the findings so far (the front
    end's, then the law stage's: conflicts, acts that do not apply, update records)."""

    corpus: Corpus
    timeline: Timeline
    outcomes: Mapping[str, ActOutcome]
    references: tuple[Reference, ...]
    diagnostics: Diagnostics

    @property
    def acts(self) -> list[Act]:
        """The corpus's amending acts, as read."""
        return list(self.corpus.acts)

    def outcome(self, act: Act) -> ActOutcome:
        """What the law stage did with ``act``."""
        from navlaw.law.amend import ActOutcome

        return self.outcomes.get(act.file) or ActOutcome(act.file)


def compile_law(corpus: Corpus) -> Law:
    """The law stage: the timeline of text versions (amending acts checked and applied, each act's outcome
    kept as a value of its own), two texts in force for one provision on one day reported as errors, and the
    texts' cross-references. The corpus is not changed; its findings are copied, then the stage's follow."""
    from navlaw.diagnostics import Diagnostics
    from navlaw.law import references
    from navlaw.law.timeline import check_conflicts

    diags = Diagnostics()
    diags.extend(corpus.diagnostics)
    timeline, outcomes = versions_of(corpus, diags)
    check_conflicts(timeline, diags, str(corpus.manifest.path))
    return Law(corpus, timeline, MappingProxyType(outcomes), tuple(references.find(corpus)), diags)


def versions_of(corpus: Corpus, diags: Diagnostics) -> tuple[Timeline, dict[str, ActOutcome]]:
    """Every provision's text versions on their dates: the corpus's texts, then its LBDC update records and
    its amending acts checked and applied in the order they take effect; what each act did, by its file."""
    from navlaw.law.amend import apply_acts
    from navlaw.law.timeline import Timeline, document_versions

    versions = document_versions(corpus)
    if any(c.source.starts("..SO DOC") or c.source.contains("\n..SO DOC") for c in corpus.documents):
        from navlaw.law.updates import apply_updates  # LBDC update records: repeals, or said not applied
        apply_updates(corpus, versions, diags)
    timeline = Timeline(versions)
    if not corpus.acts:
        return timeline, {}
    return apply_acts(corpus, timeline, diags)


def build_timeline(corpus: Corpus, diags: Diagnostics | None = None) -> Timeline:
    """The timeline alone (``versions_of``), its findings into ``diags`` (a new collector when None: the
    corpus's own is not written). Commands go through ``compile_law``, which also checks conflicts."""
    from navlaw.diagnostics import Diagnostics

    return versions_of(corpus, diags if diags is not None else Diagnostics())[0]
