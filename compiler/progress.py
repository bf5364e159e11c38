"""What a build shows while it runs: each stage and how long it took, on a terminal (Rich, on stderr);
nothing in a pipe, in CI or on a dumb terminal, so what scripts and CI read is unchanged."""

from __future__ import annotations

import contextlib
import os
import sys
import time
from typing import Any, Callable, Iterator


@contextlib.contextmanager
def build_progress() -> Iterator[Callable[[str], None] | None]:
    """Each stage of a build, and how long it took, on a terminal (Rich); nothing in a pipe or in CI."""
    if not sys.stderr.isatty() or os.environ.get("CI") or os.environ.get("TERM") == "dumb":
        yield None
        return
    from rich.console import Console

    console = Console(stderr=True, highlight=False)
    state: dict[str, Any] = {"stage": "", "since": time.perf_counter()}
    with console.status("navlaw build: starting") as status:
        def step(stage: str) -> None:
            now = time.perf_counter()
            if state["stage"]:
                console.print(f"  {state['stage']}: {now - state['since']:.2f} s", style="dim")
            state["stage"], state["since"] = stage, now
            status.update(f"navlaw build: {stage} …")

        try:
            yield step
        finally:
            if state["stage"]:
                console.print(f"  {state['stage']}: {time.perf_counter() - state['since']:.2f} s", style="dim")
