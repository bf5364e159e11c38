"""Numbers are checked twice (issue 27, item 5): the law's words against its figures, money cells against
a strict grammar, manifest option names against the options the forms declare, and a rate the newer text
no longer states (in words navlaw reads) is never taken from the older text instead.

The texts are the corpus's own (§ 88 as amended by L.2022, ch. 413; 21 NYCRR § 55.2), copied to a
temporary corpus and changed the one way each test names.
"""

from __future__ import annotations

import datetime as dt
import shutil
from pathlib import Path

import pytest

from navlaw.cli import main
from navlaw.diagnostics import Diagnostics, Severity
from navlaw.frontend.corpus import compile_corpus, compile_text
from navlaw.tariffs import tariffs_and_lint

from .conftest import CORPUS, SANDY_HOOK

SENTENCE = "plus seven and one-half (7.5%) percent of the calculated fee"  # 088.fragments.2022.txt line 1


def changed_corpus(tmp_path: Path, file: str, old: str, new: str) -> Path:
    root = tmp_path / "corpus"
    shutil.copytree(CORPUS, root)
    text = (root / file).read_text(encoding="utf-8")
    assert old in text
    (root / file).write_text(text.replace(old, new, 1), encoding="utf-8")
    return root


def test_words_and_figures_agree_in_the_corpus(corpus):
    assert not [d for d in corpus.diagnostics if d.code == "numbers-twice"]


def test_words_that_disagree_with_their_figure_are_an_error_at_the_figure(tmp_path):
    root = changed_corpus(tmp_path, SANDY_HOOK, "(7.5%)", "(9.5%)")
    corpus = compile_corpus(root)
    [d] = [d for d in corpus.diagnostics if d.code == "numbers-twice"]
    line1 = (root / SANDY_HOOK).read_text(encoding="utf-8").split("\n")[0]
    assert (d.severity, d.line, d.column) == (Severity.ERROR, 1, line1.index("9.5%") + 1)
    assert d.message == '"seven and one-half" and its figure (9.5%) disagree: the words say 7.5 and the figure says 9.5'
    tariffs, _ = tariffs_and_lint(corpus)
    # neither number is charged: the 9.5% is not read as the addition
    assert not [t for t in tariffs if t.series == "sandy-hook/addition" and t.file.endswith(SANDY_HOOK)]


@pytest.mark.parametrize("text, words, figure", [
    ("The fee is thirty (30) dollars.", None, None),
    ("The sum of one million five hundred thousand dollars ($1,500,000) is appropriated.", None, None),  # S219 § 3
    ("within ninety (90) days", None, None),
    ("within ninety (19) days", "ninety", "19"),
    ("a fine of one hundred dollars ($1,00)", "one hundred dollars", "$1,00"),
])
def test_words_and_figures(text, words, figure):
    diags = Diagnostics()
    compile_text("§ 1. Fees.\n" + text + "\n", "x.txt", diags)
    found = [d.message for d in diags if d.code == "numbers-twice"]
    if words is None:
        assert found == []
    else:
        assert len(found) == 1 and found[0].startswith(f'"{words}" and its figure ({figure}) disagree')


def test_a_money_cell_must_be_grouped_by_threes(tmp_path):
    root = changed_corpus(tmp_path, SANDY_HOOK, "0 to 24.99 | $800 |", "0 to 24.99 | $1,2,3 |")
    _, diags = tariffs_and_lint(compile_corpus(root))
    [d] = [d for d in diags if d.code == "tariff-formula"]
    assert d.severity is Severity.ERROR and (d.line, d.column) == (3, 15)  # the "1" after "$"
    assert "'$1,2,3' is not an amount: '1,2,3' is not grouped by threes" in d.message


def test_a_mistyped_option_name_in_the_manifest_is_an_error_at_its_line(tmp_path, capsys):
    root = changed_corpus(tmp_path, "manifest.toml", '"21nycrr/55.2/e" = "shifting"', '"21nycrr/55.2/e" = "shiftng"')
    line = next(k + 1 for k, l in enumerate((root / "manifest.toml").read_text().split("\n")) if "shiftng" in l)
    assert main(["lint", "--corpus", str(root)]) == 1
    err = capsys.readouterr().out + capsys.readouterr().err
    assert f"manifest.toml:{line}:1: error: 21nycrr-55.2.proposed-2016.txt: option 'shiftng' of '21nycrr/55.2/e' " \
           "is not an option the manifest declares: the fee would be left out of quotes" in err
    assert "did you mean 'shifting'?" in err


def test_an_option_for_a_provision_without_a_fee_is_an_error(tmp_path):
    root = changed_corpus(tmp_path, "manifest.toml", '"21nycrr/55.2/f" = "anchoring"', '"21nycrr/55.2/b" = "anchoring"')
    _, diags = tariffs_and_lint(compile_corpus(root))
    assert [d.message for d in diags if d.code == "manifest"] == [
        "21nycrr-55.2.proposed-2016.txt: option 'anchoring' is given for '21nycrr/55.2/b', but no fee was read there"]


def test_a_reworded_rate_sentence_never_falls_back_to_the_2002_rate(tmp_path):
    """Before: the 2002 addition of the consolidation widened to "from 2002-07-01" with no end, and every
    quote used it. Now it ends where its text is known (2006-01-01), and the loss is an error."""
    root = changed_corpus(tmp_path, SANDY_HOOK, SENTENCE, "plus an additional seven and one-half percent on top of "
                          "the calculated fee")
    tariffs, diags = tariffs_and_lint(compile_corpus(root))
    [old] = [t for t in tariffs if t.series == "sandy-hook/addition"]
    assert old.file.endswith("nav-law.consolidated.txt")
    assert (old.effective.start, old.effective.end) == (dt.date(2002, 7, 1), dt.date(2006, 1, 1))
    assert not old.effective.contains(dt.date(2026, 6, 1))
    [d] = [d for d in diags if d.code == "tariff-lost"]
    assert d.severity is Severity.ERROR and d.file.endswith("nav-law.consolidated.txt")
    assert ("is not read in 088.fragments.2022.txt, a later text of § 88 that prices sandy-hook: the older rate ends "
            "on 2006-01-01") in d.message


def test_the_corpus_loses_no_rate(tariff_findings):
    assert not [d for d in tariff_findings if d.code in ("tariff-lost", "manifest")]
