"""Quotes per second: the generated navlaw_fees module against evaluating the tariff objects directly
(compiler/fees/reference.py reference_quote), on the same mixed workload in the same run, on one core.

Targets (issue 4): generated >= 3x the tariff-object evaluation and >= 50,000 quotes/s.
Prints the median of several rounds for each, and the ratio.

Survives a busy machine (benchmarks/measure.py): rates are quotes per second of CPU time
(time.process_time), the generated module and the tariff objects run in interleaved rounds, and the
ratio is the median of the ratios within each round; the floor (one Decimal multiply-and-quantize)
likewise runs in the same rounds as the plain quote.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "benchmarks"))

import navlaw_fees as nf  # noqa: E402
from navlaw.tariffs import tariffs_and_lint  # noqa: E402
from navlaw.fees.plans import build_plans
from navlaw.fees.reference import reference_quote  # noqa: E402
from navlaw.tariffs.routes import RouteTable  # noqa: E402
from navlaw.frontend.corpus import compile_corpus  # noqa: E402
from measure import MIN_RUNS, interleaved, load, run_call  # noqa: E402


def workload(n: int, seed: int = 7) -> list[tuple[str, Decimal, dt.date, dict[str, object]]]:
    """A realistic mix: every route, units from 10 to 2,000, dates 2023–2028, some options."""
    rnd = random.Random(seed)
    out = []
    for _ in range(n):
        route = rnd.choice(nf.ROUTES)
        units = Decimal(rnd.randint(1000, 200000)) / 100
        on = dt.date(2023, 1, 1) + dt.timedelta(days=rnd.randint(0, 6 * 365))
        opts: dict[str, object] = {}
        if route.startswith("hudson") and rnd.random() < 0.3:
            opts = {"second_pilot": True, "docking": "tug"}
        if route == "long-island-sound" and rnd.random() < 0.3:
            opts = {"miles": 10, "detention_hours": 3}
        out.append((route, units, on, opts))
    return out


def rounds_of(fn, work):  # type: ignore[no-untyped-def]
    """One round: every quote of ``work`` through ``fn``, timed (CPU and wall)."""
    def one():  # type: ignore[no-untyped-def]
        return run_call(lambda: [fn(route, units=units, on=on, **opts) for route, units, on, opts in work])
    return one


def per_second(n: int, pairs, which: str) -> float:  # type: ignore[no-untyped-def]
    return n / pairs.median(which, "cpu")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quotes", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    corpus = compile_corpus(ROOT / "corpus")
    plans = build_plans(tariffs_and_lint(corpus)[0], RouteTable.of(corpus.manifest))
    work = workload(args.quotes)

    def reference(route, **kw):  # type: ignore[no-untyped-def]
        return reference_quote(plans, route, **kw)

    for route, units, on, opts in work[:200]:  # same answers before timing anything
        assert nf.quote(route, units=units, on=on, **opts).total == reference(route, units=units, on=on, **opts).total
    rounds = max(args.rounds, MIN_RUNS)
    small = work[: max(1, args.quotes // 5)]  # the slow side on a fifth of the workload: rates compare
    pairs = interleaved(rounds_of(nf.quote, work), rounds_of(reference, small), rounds)
    gen, ref = per_second(len(work), pairs, "subject"), per_second(len(small), pairs, "baseline")
    ratio = statistics.median((b.cpu / len(small)) / (s.cpu / len(work)) for s, b in zip(pairs.subject, pairs.baseline))
    print(f"workload: {args.quotes} quotes (all routes, 2023-2028, 30% with options), {rounds} interleaved rounds, "
          f"medians of CPU time; {load()}")
    print(f"generated navlaw_fees.quote        {gen:>10,.0f} quotes/s of CPU")
    print(f"tariff objects (reference_quote)   {ref:>10,.0f} quotes/s of CPU")
    print(f"ratio generated / reference        {ratio:>10.1f}x   (median of the ratio per round; target >= 3x; "
          f">= 50,000 quotes/s: {'met' if gen >= 50000 and ratio >= 3 else 'NOT met'})")
    # a plain quote (no options) against the least a quote must do: one Decimal multiply and quantize
    plain = [(r, u, on, {}) for r, u, on, _ in work]
    rate_d, cent = Decimal("10.89"), Decimal("0.01")

    def floor_round():  # type: ignore[no-untyped-def]
        return run_call(lambda: [(units * rate_d).quantize(cent, rounding=ROUND_HALF_UP) for _, units, _, _ in plain])

    pp = interleaved(rounds_of(nf.quote, plain), floor_round, rounds)
    plain_rate, floor = per_second(len(plain), pp, "subject"), per_second(len(plain), pp, "baseline")
    cost = pp.ratio("cpu")
    print(f"plain quote                        {plain_rate:>10,.0f} quotes/s of CPU")
    print(f"one Decimal multiply-and-quantize  {floor:>10,.0f} ops/s of CPU (same rounds)")
    print(f"cost of a plain quote              {cost:>10.1f}x one multiply-and-quantize "
          f"(median of the ratio per round; target <= 30x: {'met' if cost <= 30 else 'NOT met'})")


if __name__ == "__main__":
    main()
