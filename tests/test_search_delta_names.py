"""The names files of the search index's split, made again after an edit (compiler/site/search_delta.py's
``_cut``): each item is written without a JSON encoder per term, and must be what ``dump`` writes, byte for
byte, whatever the term holds (the split is compared with a full one in tests/test_search_delta.py)."""

from __future__ import annotations

import random

from navlaw.site.search_delta import _length, _name_item
from navlaw.site.search_top import dump


def test_a_names_item_is_dump_of_the_term_and_its_shard_and_a_length_is_javascript_s():
    rng = random.Random(32)
    terms = ["a", "", "é", "naïve", 'q"uote', "back\\slash", "tab\there", "nl\nx", "\x00\x1f\x7f", "😀x",
             "\u2028\u2029", "ß", "漢字", "</script>", "\ufeffbom"]
    for _ in range(3000):
        terms.append("".join(chr(rng.choice([rng.randrange(0, 0x80), rng.randrange(0x80, 0xD800),
                                             rng.randrange(0xE000, 0x110000)])) for _ in range(rng.randrange(0, 9))))
    for term in terms:
        for shard in (0, 7, 1234567):
            assert _name_item(term, shard) == dump([term, shard]), (term, shard)
        assert _length(term) == len(term.encode("utf-16-be")) // 2, term
