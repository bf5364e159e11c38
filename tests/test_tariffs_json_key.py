"""tariffs.json (OUT's and the site's api/tariffs.json) made once per distinct tariffs (issue 32): keyed on the
digest of every value of every tariff with the offsets of each Source (fees/memo.tariffs_digests; the JSON shows
them, and an edit above a tariff moves them). A build whose tariffs are the last build's, offsets and all, links
OUT's copy and takes the site's from the last build of the process; every build is a clean build's."""

from __future__ import annotations

import dataclasses
import datetime as dt
import pickle
from decimal import Decimal
from pathlib import Path

import pytest

from navlaw.export import api
from navlaw.fees.memo import tariffs_digest, tariffs_digests
from navlaw.model.tariffs import Amount, BracketSchedule

from navlaw.build import compile_law

from .conftest import CONSOLIDATED, CORPUS
from .test_incremental import build, same_as_clean_build
from .test_pages_memo import OLD, corpus, edit  # noqa: F401  (corpus: a copy of corpus/, the fixture)


def _schedule(tariffs) -> tuple[int, BracketSchedule]:
    return next((k, t) for k, t in enumerate(tariffs) if isinstance(t, BracketSchedule) and t.brackets[0].amounts)


def _with_first_amount(t: BracketSchedule, amount: Amount) -> BracketSchedule:
    b = t.brackets[0]
    b = dataclasses.replace(b, amounts=(amount, *b.amounts[1:]))
    return dataclasses.replace(t, brackets=(b, *t.brackets[1:]))


def _changed(tariffs, k: int, t) -> list:
    out = list(tariffs)
    out[k] = t
    return out


def test_the_key_holds_every_value_and_every_offset() -> None:
    tariffs = compile_law(str(CORPUS)).tariffs
    fees, json = tariffs_digests(tariffs)
    assert fees == tariffs_digest(tariffs) and json and json != fees
    assert tariffs_digests(pickle.loads(pickle.dumps(tariffs))) == (fees, json)  # equal values, other objects
    k, t = _schedule(tariffs)
    a = t.brackets[0].amounts[0]
    moved = _changed(tariffs, k, _with_first_amount(t, dataclasses.replace(
        a, source=dataclasses.replace(a.source, start=a.source.start + 1, end=a.source.end + 1))))
    assert tariffs_digests(moved)[0] == fees  # the fee module cites lines and columns only
    assert tariffs_digests(moved)[1] != json  # tariffs.json shows the offsets
    one_end = _changed(tariffs, k, _with_first_amount(t, dataclasses.replace(
        a, source=dataclasses.replace(a.source, end=a.source.end + 1))))
    assert tariffs_digests(one_end)[1] not in (json, tariffs_digests(moved)[1])
    rate = _changed(tariffs, k, _with_first_amount(t, dataclasses.replace(a, value=a.value + Decimal("0.01"))))
    words = _changed(tariffs, k, _with_first_amount(t, dataclasses.replace(
        a, source=dataclasses.replace(a.source, text=a.source.text + " "))))
    line = _changed(tariffs, k, _with_first_amount(t, dataclasses.replace(
        a, source=dataclasses.replace(a.source, line=a.source.line + 1))))
    day = _changed(tariffs, k, dataclasses.replace(t, effective=dataclasses.replace(
        t.effective, start=(t.effective.start or dt.date(2000, 1, 1)) + dt.timedelta(days=1))))
    dropped = tariffs[:k] + tariffs[k + 1:]
    keys = {json} | {tariffs_digests(x)[1] for x in (rate, words, line, day, dropped)}
    assert len(keys) == 6
    for x in (rate, words, line, day, dropped):
        assert tariffs_digests(x)[0] != fees


@pytest.fixture
def made(monkeypatch) -> list[int]:
    """One entry per tariffs.json made in this process (OUT's and the site's both list the tariffs sorted)."""
    count: list[int] = []
    real = api.tariffs_sorted

    def counted(tariffs):  # type: ignore[no-untyped-def]
        count.append(1)
        return real(tariffs)
    monkeypatch.setattr(api, "tariffs_sorted", counted)
    monkeypatch.setenv("NAVLAW_JOBS", "1")
    return count


def _inode(tmp: Path) -> int:
    return (tmp / "build" / "tariffs.json").stat().st_ino


def test_tariffs_json_is_made_only_when_a_tariff_or_an_offset_changed(tmp_path, corpus, made) -> None:
    assert build(tmp_path, corpus) == 0
    assert len(made) == 2  # OUT's and the site's
    first = _inode(tmp_path)
    # a word of § 12 (no fee) for one of the same length: no tariff's offset moves
    edit(corpus / CONSOLIDATED, OLD, OLD.replace("practical", "technical"))
    assert build(tmp_path, corpus) == 0
    # OUT's linked; the site's made (a process's first build keeps no API files: export/data_memo.py)
    assert len(made) == 3 and _inode(tmp_path) == first
    edit(corpus / CONSOLIDATED, OLD.replace("practical", "technical"), OLD.replace("practical", "practised"))
    assert build(tmp_path, corpus) == 0
    assert len(made) == 3 and _inode(tmp_path) == first  # both taken from the last build
    del made[:]
    same_as_clean_build(tmp_path, corpus)
    # a shorter word: every offset after § 12 moves (lines and columns do not): both made again
    edit(corpus / CONSOLIDATED, OLD.replace("practical", "practised"), OLD.replace("practical", "sound"))
    del made[:]
    assert build(tmp_path, corpus) == 0
    assert len(made) == 2 and _inode(tmp_path) != first
    same_as_clean_build(tmp_path, corpus)
