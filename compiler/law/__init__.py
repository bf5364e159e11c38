"""The law over time: the timeline of text versions (timeline.py) with amending acts applied
(amend.py), cross-references (references.py), defined terms (definitions.py), redlines (redline.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from navlaw.diagnostics import Diagnostics
    from navlaw.frontend.corpus import Corpus
    from navlaw.law.timeline import Timeline


def build_timeline(corpus: Corpus, diags: Diagnostics | None = None) -> Timeline:
    """Every provision's text versions on their dates: the corpus's texts, then its amending acts
    checked and applied in the order they take effect."""
    from navlaw.law.amend import apply_acts
    from navlaw.law.timeline import Timeline, document_versions

    versions = document_versions(corpus)
    if any(c.source.text.startswith("..SO DOC") or "\n..SO DOC" in c.source.text for c in corpus.documents):
        from navlaw.law.updates import apply_updates  # LBDC update records: repeals, or said not applied
        apply_updates(corpus, versions, diags if diags is not None else corpus.diagnostics)
    timeline = Timeline(versions)
    if corpus.acts:
        timeline = apply_acts(corpus, timeline, diags if diags is not None else corpus.diagnostics)
    return timeline
