"""Measurements that survive a busy machine: CPU time, not the wall clock alone; a subject and its
baseline measured in interleaved pairs (subject, baseline, baseline, subject, ...), so that load that
comes and goes falls on both; medians of at least five pairs, and the ratio taken within each pair.

On a machine whose cores are shared, the wall clock of a single-threaded run mostly measures how long
it waited for a core; its CPU time (user + system) does not. A figure printed by these benchmarks is
always printed beside the baseline measured in the same run.
"""

from __future__ import annotations

import os
import resource
import statistics
import subprocess
import time
from typing import Callable, NamedTuple, Sequence

MIN_RUNS = 5


class Sample(NamedTuple):
    wall: float  # seconds elapsed
    cpu: float  # seconds of CPU (user + system): this process's, or the child's for a command


class Pairs(NamedTuple):
    """Medians of a subject and its baseline measured in interleaved pairs, and of the ratio per pair."""

    subject: list[Sample]
    baseline: list[Sample]

    def median(self, which: str, what: str = "cpu") -> float:
        return statistics.median(getattr(s, what) for s in getattr(self, which))

    def ratio(self, what: str = "cpu") -> float:
        """The median of subject/baseline taken pair by pair (each pair ran side by side in time)."""
        return statistics.median(getattr(s, what) / max(getattr(b, what), 1e-9)
                                 for s, b in zip(self.subject, self.baseline))

    def line(self, name: str, base: str, what: str = "cpu", unit: str = "s", scale: float = 1.0) -> str:
        n = len(self.subject)
        return (f"{name}: {self.median('subject', what) * scale:.3f} {unit} {what}, "
                f"{base}: {self.median('baseline', what) * scale:.3f} {unit} {what}; "
                f"ratio {self.ratio(what):.2f}x (median of {n} interleaved pairs)")


def _children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def run_command(cmd: Sequence[str], env: dict[str, str] | None = None, cwd: str | None = None,
                check: bool = True) -> Sample:
    """Run ``cmd`` to its end; its elapsed time and the CPU time it and its children used."""
    before, t = _children_cpu(), time.perf_counter()
    done = subprocess.run(list(cmd), env=env, cwd=cwd, capture_output=True)
    wall, cpu = time.perf_counter() - t, _children_cpu() - before
    if check and done.returncode != 0:
        raise SystemExit(f"{' '.join(cmd)} failed ({done.returncode}):\n{done.stderr.decode()[-2000:]}")
    return Sample(wall, cpu)


def run_call(fn: Callable[[], object]) -> Sample:
    """Call ``fn`` in this process; its elapsed time and the CPU time this process used meanwhile, with
    that of the processes it started and waited for (a build's forked workers)."""
    c, k, t = time.process_time(), _children_cpu(), time.perf_counter()
    fn()
    return Sample(time.perf_counter() - t, time.process_time() - c + _children_cpu() - k)


def interleaved(subject: Callable[[], Sample], baseline: Callable[[], Sample], runs: int = MIN_RUNS) -> Pairs:
    """``runs`` pairs (at least five), alternating which of the two goes first."""
    runs = max(runs, MIN_RUNS)
    a: list[Sample] = []
    b: list[Sample] = []
    for i in range(runs):
        if i % 2 == 0:
            a.append(subject())
            b.append(baseline())
        else:
            b.append(baseline())
            a.append(subject())
    return Pairs(a, b)


def user_env(**extra: str) -> dict[str, str]:
    """The environment of a user's fresh process: bytecode written and reused (this machine sets
    PYTHONDONTWRITEBYTECODE=1, which makes every process compile navlaw's modules again)."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}
    env.update(extra)
    return env


def load() -> str:
    """The machine's load average and cores, printed with every result: figures from a busy machine
    say so."""
    try:
        one, five, _ = os.getloadavg()
    except OSError:
        return "load average unknown"
    return f"load average {one:.1f} (5 min {five:.1f}) on {os.cpu_count()} cores"
