"""A tariff's amount in words (the change report, the site's tariff and penalty pages, the calculator's data)
is read through one typed door, ``report.tariffs.stated``: a tariff whose kind states an amount but that
carries none (a fault of the form that read it) is said with its citation and id, never an AttributeError
on None, and never a made-up amount."""

from __future__ import annotations

import dataclasses

import pytest

from navlaw.report.changes import brief
from navlaw.report.tariffs import stated
from navlaw.site.calculator import _extra_json
from navlaw.model.tariffs import FlatFee, Percentage, PerUnitFee, TimeFee

KINDS = ((Percentage, "percent"), (PerUnitFee, "rate"), (TimeFee, "amount"), (FlatFee, "amount"))


@pytest.mark.parametrize("kind, field", KINDS, ids=[k.__name__ for k, _ in KINDS])
def test_every_kind_of_the_corpus_states_its_amount(tariffs, kind, field) -> None:
    found = [t for t in tariffs if isinstance(t, kind)]
    assert found, f"the corpus has no {kind.__name__}: this test would check nothing"
    for t in found:
        assert stated(t, getattr(t, field)) == getattr(t, field).value
        assert str(int(getattr(t, field).value)) in brief(t).replace(",", "")  # its whole part, at least


@pytest.mark.parametrize("kind, field", KINDS, ids=[k.__name__ for k, _ in KINDS])
def test_a_tariff_without_its_amount_is_said(tariffs, kind, field) -> None:
    t = next(t for t in tariffs if isinstance(t, kind))
    broken = dataclasses.replace(t, **{field: None})
    for say in (brief, _extra_json) if kind is not FlatFee else (brief,):  # the calculator reads no flat fee
        with pytest.raises(ValueError) as e:
            say(broken)
        assert t.citation in str(e.value) and t.id in str(e.value) and "states no amount" in str(e.value)
