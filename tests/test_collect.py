"""compiler/collect.py: the garbage collector's pace while a command runs (counted, never timed)."""

from __future__ import annotations

import atexit
import gc
import os
import subprocess
import sys

from navlaw import cli, collect

from .conftest import CORPUS


class Collections:
    def __init__(self) -> None:
        self.n = 0

    def __call__(self, phase: str, info: dict[str, int]) -> None:
        self.n += phase == "start"

    def __enter__(self) -> "Collections":
        gc.callbacks.append(self)
        return self

    def __exit__(self, *exc: object) -> None:
        gc.callbacks.remove(self)


def test_paced_restores_pythons_pace_without_a_collection_and_keeps_nothing_frozen():
    before, frozen = gc.get_threshold(), gc.get_freeze_count()
    with collect.paced():
        assert gc.get_threshold() == (collect.YOUNG, *before[1:])
        kept = [[i] for i in range(5000)]  # young containers, alive at the end
        cycle: list[object] = []
        cycle.append(cycle)
        with Collections() as seen:
            pass
    with Collections() as seen:
        more = [[i] for i in range(1000)]  # allocations after it: Python's threshold, nothing young to walk yet
    assert gc.get_threshold() == before
    assert seen.n <= 1  # not the walk of the 5,000 the command left young
    assert gc.get_freeze_count() == frozen  # what it left is collectable, not frozen for good
    del cycle
    assert gc.collect() >= 1  # the cycle made under it is collected with the oldest generation
    assert len(kept) + len(more) == 6000


def test_a_build_runs_few_collections(tmp_path, monkeypatch):
    """A build without the site, made twice in this process: at Python's pace it runs a collection every 700
    containers it allocates (each walking what the build holds), paced next to none."""
    def build(name: str) -> int:
        args = ["build", "--no-site", "--no-cache", "--corpus", str(CORPUS), "--out", str(tmp_path / name),
                "--module", str(tmp_path / f"{name}-fees")]
        with Collections() as seen:
            assert cli.main(args) == 0
        return seen.n

    paced = build("paced")
    monkeypatch.setattr(collect, "YOUNG", 0)  # Python's own pace
    unpaced = build("unpaced")
    assert unpaced > 10  # (here: 1 against 25)
    assert paced * 10 < unpaced


def test_a_navlaw_process_ends_with_its_objects_frozen(tmp_path):
    """Python's collections at the end of the process walk nothing: what the command left is frozen by then
    (the child's first exit handler runs last, after navlaw's)."""
    child = ("import atexit, gc, sys\n"
             "atexit.register(lambda: print('frozen at the end:', gc.get_freeze_count(), file=sys.stderr))\n"
             "from navlaw.cli import main\n"
             "sys.exit(main(sys.argv[1:]))\n")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in sys.path if p)}
    done = subprocess.run([sys.executable, "-c", child, "show", "12", "--corpus", str(CORPUS)], capture_output=True,
                          text=True, env=env, cwd=tmp_path)
    assert done.returncode == 0, done.stderr[-2000:]
    frozen = int(done.stderr.rsplit("frozen at the end:", 1)[1].split()[0])
    assert frozen > 10_000  # the modules, the corpus's trees: not walked again on the way out


def test_paced_registers_its_exit_handler_once():
    before = atexit._ncallbacks()
    for _ in range(3):
        with collect.paced():
            pass
    assert atexit._ncallbacks() - before <= 1
