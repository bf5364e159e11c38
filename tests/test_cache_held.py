"""Values a rebuilding process reads back itself (`navlaw serve`): the site's state and the pages' memo are put
with ``hold`` and got with ``held``, so the next build in the same process takes them from memory, not by
unpickling the entry it just wrote (at 10x, ~0.09 s CPU an edit), and the outputs stay a clean build's."""

from __future__ import annotations

import os
import pickle
from pathlib import Path

import pytest

from navlaw import cache as cache_module
from navlaw.cache import BuildCache, _write_atomic, seal, unseal
from navlaw.sealed import later

from .test_incremental import AMENDED_2027, RATE_2027, amend, build, corpus, same_as_clean_build  # noqa: F401


def test_only_a_rebuilding_process_holds_and_gives_back_once(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    value = {"page": ["entry"]}
    first = BuildCache(root)
    assert not first.rebuilding
    first.put("site", "k", value, hold=True)
    got = first.get("site", "k", held=True)
    assert got == value and got is not value  # a one-off build holds nothing: read from the file
    second = BuildCache(root)
    assert second.rebuilding
    second.put("site", "k", value, hold=True)
    assert second.get("site", "k") is not value  # not asked for: read from the file
    assert second.get("site", "k", held=True) is value
    assert second.stats["site held"] == 1
    again = second.get("site", "k", held=True)
    assert again == value and again is not value  # given back once: the next get reads the file


def test_an_entry_written_since_is_read_from_its_file(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    BuildCache(root)
    c = BuildCache(root)
    c.put("site", "k", {"old": 1}, hold=True)
    path = root / "site" / "k.sealed"
    other = {"written by": "another process"}
    _write_atomic(path, seal("site/k", pickle.dumps(other)))
    assert c.get("site", "k", held=True) == other
    c.put("site", "k", {"old": 2}, hold=True)
    assert c.get("site", "k") == {"old": 2}  # written when asked for from disk, and held
    before = path.stat()
    _write_atomic(path, seal("site/k", pickle.dumps(other)))
    assert path.stat().st_ino != before.st_ino or path.stat().st_mtime_ns != before.st_mtime_ns
    assert c.get("site", "k", held=True) == other


def test_a_held_value_goes_when_the_stage_is_put_again(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    BuildCache(root)
    c = BuildCache(root)
    c.put("site", "a", {"a": 1}, hold=True)
    c.put("site", "b", {"b": 2}, hold=True)
    assert c.get("site", "a") == {"a": 1} and c.get("site", "b") == {"b": 2}  # written when asked for
    c.put("site", "c", {"c": 3}, hold=True)
    c.get("site", "c")
    held = [p for p in cache_module._HELD if p.is_relative_to(root)]
    assert held == [root / "site" / "c.sealed"]  # the stage's last value only


def _unsealed(path: Path) -> object:
    return pickle.loads(unseal(f"{path.parent.name}/{path.stem}", path.read_bytes()))


def test_a_rebuilding_process_writes_what_it_holds_only_when_asked_or_at_its_end(tmp_path: Path) -> None:
    """From a process's second build on, a held value is written when a get asks for it from disk, or when
    the process ends (``later.flush``, run at exit): not at every build. A value put without ``hold`` (which
    its maker may change after) and a one-off build's are written at once."""
    root = tmp_path / "cache"
    first = BuildCache(root)
    first.put("site", "one-off", {"v": 0}, hold=True)
    assert (root / "site" / "one-off.sealed").is_file()
    c = BuildCache(root)
    c.put("site", "k", {"v": 1}, hold=True)
    c.put("document", "d", ("tree", ["finding"]), hold=True)
    c.put("tariffs", "t", {"v": 3})
    assert not (root / "site" / "k.sealed").exists() and not (root / "document" / "d.sealed").exists()
    assert _unsealed(root / "tariffs" / "t.sealed") == {"v": 3}
    assert c.get("document", "d") == ("tree", ["finding"])  # asked for from disk: written, then read
    assert _unsealed(root / "document" / "d.sealed") == ("tree", ["finding"])
    later.flush()
    assert _unsealed(root / "site" / "k.sealed") == {"v": 1}


def test_what_a_build_did_not_use_is_never_written(tmp_path: Path) -> None:
    """The next build's prune forgets the held values it did not use, as it deletes their files: the process's
    end writes the last build's values, not every build's."""
    root = tmp_path / "cache"
    BuildCache(root)
    c = BuildCache(root)
    c.put("document", "edit-1", {"v": 1}, hold=True)
    c.prune()
    nxt = BuildCache(root)
    nxt.put("document", "edit-2", {"v": 2}, hold=True)
    nxt.prune()
    later.flush()
    assert sorted(p.name for p in (root / "document").iterdir()) == ["edit-2.sealed"]


def test_a_file_written_by_another_process_is_not_overwritten_at_the_end(tmp_path: Path) -> None:
    root = tmp_path / "cache"
    BuildCache(root)
    c = BuildCache(root)
    c.put("site", "k", {"ours": 1}, hold=True)
    path = root / "site" / "k.sealed"
    _write_atomic(path, seal("site/k", pickle.dumps({"theirs": 2})))
    later.flush()
    assert _unsealed(path) == {"theirs": 2}


def test_a_forked_process_writes_what_it_puts_at_once(tmp_path: Path) -> None:
    """A process forked during a build (navlaw.parallel) ends without running the exit's writes: what it puts
    is written at once."""
    root = tmp_path / "cache"
    BuildCache(root)
    c = BuildCache(root)
    pid = os.fork()
    if pid == 0:  # the child
        c.put("tree-json", "k", "[]", hold=True)
        os._exit(0 if (root / "tree-json" / "k.sealed").is_file() else 1)
    _, status = os.waitpid(pid, 0)
    assert os.waitstatus_to_exitcode(status) == 0
    assert _unsealed(root / "tree-json" / "k.sealed") == "[]"


def test_in_process_rebuilds_take_the_site_state_and_pages_memo_held(tmp_path: Path, corpus: Path,  # noqa: F811
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    caches: list[BuildCache] = []
    init = BuildCache.__init__

    def spy(self: BuildCache, root: Path | None) -> None:
        init(self, root)
        caches.append(self)

    monkeypatch.setattr(BuildCache, "__init__", spy)
    assert build(tmp_path, corpus) == 0
    root = caches[-1].root
    assert root is not None and not [p for p in cache_module._HELD if p.is_relative_to(root)]  # one-off: none
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    assert caches[-1].stats["site held"] == 0  # the first build held nothing
    amend(corpus, AMENDED_2027, RATE_2027)
    assert build(tmp_path, corpus) == 0
    stats = caches[-1].stats
    assert stats["site held"] == 1 and stats["site-pages held"] == 1
    assert stats["site hit"] == 1 and stats["site-pages hit"] == 1
    same_as_clean_build(tmp_path, corpus)


def test_what_serve_held_is_written_at_its_end_and_a_fresh_process_builds_from_it(tmp_path: Path,
                                                                                  corpus: Path) -> None:  # noqa: F811
    """Builds in one process (``navlaw serve``) hold the edited document's tree, the site state and the pages
    memo; the process's end writes them, and a new process finds every document and page there (nothing
    parsed, nothing rendered again) and writes what a clean build writes."""
    import subprocess
    import sys

    assert build(tmp_path, corpus) == 0
    amend(corpus, RATE_2027, AMENDED_2027)
    assert build(tmp_path, corpus) == 0
    amend(corpus, AMENDED_2027, AMENDED_2027.replace("thirty", "forty"))
    assert build(tmp_path, corpus) == 0  # the third build in this process: held, not written
    cache = tmp_path / ".build-cache"
    assert len(list((cache / "document").glob("*.sealed"))) == 4
    later.flush()  # what the process's end does
    assert len(list((cache / "document").glob("*.sealed"))) == 5
    for last in (cache / "last").glob("*.sealed"):
        last.unlink()  # not "up to date": the new process looks every document up
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    fresh = subprocess.run([sys.executable, "-m", "navlaw", "build", "--corpus", str(corpus), "--out",
                            str(tmp_path / "build"), "--module", str(tmp_path / "build-fees")],
                           capture_output=True, text=True, env=env)
    assert fresh.returncode == 0, fresh.stderr
    assert "cache: 0 of 5 documents parsed, 5 reused; 0 of 212 law and history pages written afresh" in fresh.stdout
    same_as_clean_build(tmp_path, corpus)


def test_an_entry_written_a_frame_at_a_time_is_the_sealed_pickle_and_is_checked(tmp_path: Path) -> None:
    """``write_sealed`` writes what ``seal(context, pickle.dumps(value))`` is, byte for byte (a large string and
    many small objects: frames of their own and frames shared); a changed byte fails the seal."""
    from navlaw.sealed import Unsealed, write_sealed

    value = {"big": "§ 12 " * 400_000, "many": [(n, str(n), float(n)) for n in range(50_000)], "bytes": b"\0" * 99}
    path = tmp_path / "entry.sealed"
    write_sealed(path, "stage/key", value)
    assert path.read_bytes() == seal("stage/key", pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL))
    assert pickle.loads(unseal("stage/key", path.read_bytes())) == value
    with pytest.raises(Unsealed):
        unseal("stage/other-key", path.read_bytes())
    damaged = bytearray(path.read_bytes())
    damaged[-3] ^= 1
    with pytest.raises(Unsealed):
        unseal("stage/key", bytes(damaged))
