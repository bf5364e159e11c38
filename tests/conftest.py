from __future__ import annotations

from pathlib import Path

import pytest

from compiler.frontend import Corpus, compile_corpus

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"
CONSOLIDATED = "nav-law.consolidated.txt"
LIS_2022 = "089-b.2022.txt"
HUDSON = "089-a.4-7-8.txt"
RULE = "21nycrr-55.2.proposed-2016.txt"
SANDY_HOOK = "088.fragments.2022.txt"


@pytest.fixture(scope="session")
def corpus() -> Corpus:
    return compile_corpus(CORPUS)


@pytest.fixture(scope="session")
def docs(corpus: Corpus):
    return {Path(c.source.path).name: c.document for c in corpus.documents}
