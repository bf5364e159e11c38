"""Each numbered guarantee of compiler/frontend/normalize.py, on real corpus text and on made-up cases."""

from __future__ import annotations

import re

from hypothesis import given, settings, strategies as st

from navlaw.frontend.normalize import detect_list_numbering, normalize

from .conftest import CORPUS, HUDSON, LIS_2022, CONSOLIDATED


def raw(name: str) -> str:
    return (CORPUS / name).read_text(encoding="utf-8")


def test_1_no_carriage_returns():
    nt = normalize("§ 1. Title.\r\n1. First.\r2. Second.\r\n")
    assert "\r" not in nt.text
    assert nt.text == "§ 1. Title.\n1. First.\n2. Second.\n"


def test_2_literal_backslash_n_becomes_line_break_and_marks_wrapped():
    nt = normalize(raw(LIS_2022))
    assert "\\n" not in nt.text
    assert "\n 2. It shall be unlawful for any person not licensed as a Long\n" in nt.text
    assert nt.wrapped
    assert not normalize(raw(CONSOLIDATED)).wrapped


def test_3_mojibake_repaired():
    nt = normalize(raw(CONSOLIDATED))
    assert "ｧ" not in nt.text
    assert nt.text.count("\n§ ") == 206
    assert normalize("Â§ 5. Heading â€” more").text == "§ 5. Heading — more"


def test_4_nbsp_and_tab_runs():
    assert normalize("a\u00a0b\t\t\tc\n").text == "a b\tc\n"


def test_5_list_numbering_artifacts_dropped_real_numbers_kept():
    nt = normalize(raw(HUDSON))
    assert nt.list_numbering == "artifact"
    assert nt.text.startswith("4.\n\n(a) Every foreign vessel")
    assert "\n(b) From or into the port of New York" in nt.text
    assert "\n   (vii) Effective January first, two thousand twenty-two" in nt.text
    assert "\n7.\n" in nt.text and "\n8.\n" in nt.text
    # real statute text: "4. (a)" and "2. (A)" are a subdivision with its first paragraph
    assert detect_list_numbering(raw(CONSOLIDATED)) == "real"
    assert detect_list_numbering(raw(LIS_2022)) == "real"
    assert "\n2. (A) All retirement assets" in normalize(raw(CONSOLIDATED)).text


def test_6_dotted_leaders_canonical():
    nt = normalize("Up to 50 pilotage units ........................ $852.97\n")
    assert nt.text == "Up to 50 pilotage units .... $852.97\n"
    assert not re.search(r"\.{5,}", normalize(raw(HUDSON)).text)


def test_7_offsets_map_back_and_denormalize_is_exact():
    for name in (CONSOLIDATED, LIS_2022, HUDSON):
        r = raw(name)
        nt = normalize(r)
        assert nt.denormalize() == r
        # § in the normalized text maps to the mojibake character in the raw text
        for m in list(re.finditer("§", nt.text))[:50]:
            assert r[nt.raw_offset(m.start())] in "§ｧ"
        positions = [nt.raw_offset(i) for i in range(0, len(nt.text) + 1, 97)]
        assert positions == sorted(positions)
    nt = normalize(raw(HUDSON))
    i = nt.text.index("(vii) Effective")
    line, col = nt.raw_linecol(i)
    assert nt.raw_line(line)[col - 1 :].startswith("(vii) Effective")
    assert (line, col) == (15, 7)  # "   8. (vii)" in the raw file


statute_chars = st.sampled_from(list("abcxyz ABC§ｧ.()-123\n\t|_$,\\n") + ["\\n", "Â§", "\r\n", " ....... ", "\u00a0", "2. (b) "])


@settings(max_examples=300, deadline=None)
@given(st.lists(statute_chars, max_size=80).map("".join))
def test_round_trip_property(text):
    nt = normalize(text)
    assert nt.denormalize() == text
    last = -1
    for i in range(len(nt.text) + 1):
        r = nt.raw_offset(i)
        assert 0 <= r <= len(text)
        assert r >= last
        last = r
