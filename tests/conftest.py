from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from navlaw.frontend.corpus import Corpus, compile_corpus

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


@pytest.fixture(scope="session")
def tariffs(corpus: Corpus):
    from navlaw.tariffs import tariffs_and_lint
    return tariffs_and_lint(corpus)[0]


@pytest.fixture(scope="session")
def tariff_findings(corpus: Corpus):
    from navlaw.tariffs import tariffs_and_lint
    return list(tariffs_and_lint(corpus)[1])


def load_module(path: Path, name: str):
    """Import the package a build generated at ``path`` under ``name``; the caller pops it from sys.modules."""
    spec = importlib.util.spec_from_file_location(name, path / "__init__.py", submodule_search_locations=[str(path)])
    assert spec is not None and spec.loader is not None
    mod = importlib.util.module_from_spec(spec)
    sys.modules[name] = mod
    spec.loader.exec_module(mod)
    return mod
