"""Each section's Akoma Ntoso made once and kept: after an edit, only the files whose inputs changed are made
again (issue 32: a one-word edit of one section of the large document made every section's XML anew, ~1 s
of a rebuild at 10x the corpus).

The memo is one cache entry (compiler/cache.py: sealed, written atomically, under a key that holds navlaw's
own fingerprint), mapping the digest of a file's inputs to its XML, as the site's page memo does
(compiler/site/render.py's Memo). A file's inputs are what ``Export.inputs`` says ``Export.document`` reads
(the section's law less its place in the file, its versions' dates and sources, the instructions that made
them) and the works of every section (the links of its references). The entry holds only this build's files:
the next build's memo is this one. A process that built before keeps the last build's files in memory
(compiler/export/data_memo.py): then the entry is neither read nor written again (it only stays), since
pickling every file each build cost more than the few files an edit makes; a later build in a new process
reads the entry as it stands, older, and only makes more of its files.

The keys of the files are given with them (``Keyed.file_keys``): OUT's copies are recorded under them."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from navlaw.cache import digest
from navlaw.export import akn_path
from navlaw.export.data_memo import Keyed, Todo, last, make_or_defer

if TYPE_CHECKING:
    from navlaw.cache import BuildCache
    from navlaw.export.akn import Export

STAGE = "akn-memo"


def akn_files(export: Export, cache: BuildCache | None = None, todo: Todo | None = None) -> dict[str, str]:
    """``export.files()``: path under akn/ -> XML for every section on every expression date; with a cache,
    a file whose inputs are those of a file of the last build is that file's text, not made again
    (counted in ``cache.stats``: "akn made", "akn reused"). With a ``todo`` (given only while this process
    holds the last build's files), a file to make is "" for now, its making put in ``todo`` ("akn/" and its name)."""
    if cache is None or not cache.enabled:
        return export.files()
    key = cache.key(STAGE, "last")
    held = last("akn", cache)
    old: dict[str, str] = held if held is not None else cache.get(STAGE, key) or {}
    new: dict[str, str] = {}
    works = digest(export.works_key())  # once: the works of every section, hashed for each file it would be 2n²
    out = Keyed()
    for sec in export.timeline.sections():
        for day in export.dates(sec):
            name = akn_path(sec, day.isoformat())
            k = out.file_keys[name] = digest(works, export.inputs(sec, day))
            text = old.get(k)
            if text is None:
                make = partial(export.document, sec, day)
                text = make_or_defer(todo if held is not None else None, f"akn/{name}", make)
                cache.stats["akn made"] += 1
            else:
                cache.stats["akn reused"] += 1
            new[k] = out[name] = text
    if held is not None:
        cache.keep(STAGE, key)
        return out
    try:
        cache.put(STAGE, key, new)
    except OSError as exc:
        cache.warnings.append(f"the build cache could not be written ({exc.strerror or exc})")
    return out
