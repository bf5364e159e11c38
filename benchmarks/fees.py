"""Quotes per second: the generated navlaw_fees module against evaluating the tariff objects directly
(compiler/fees.py reference_quote), on the same mixed workload in the same run, on one core.

Targets (issue 4): generated >= 3x the tariff-object evaluation and >= 50,000 quotes/s.
Prints the median of several rounds for each, and the ratio.
"""

from __future__ import annotations

import argparse
import datetime as dt
import random
import statistics
import sys
import time
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import navlaw_fees as nf  # noqa: E402
from compiler.tariffs import tariffs_and_lint  # noqa: E402
from compiler.fees.plans import build_plans
from compiler.fees.reference import reference_quote  # noqa: E402
from compiler.tariffs.routes import RouteTable  # noqa: E402
from compiler.frontend.corpus import compile_corpus  # noqa: E402


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


def rate(fn, work, rounds: int) -> float:
    results = []
    for _ in range(rounds):
        t = time.perf_counter()
        for route, units, on, opts in work:
            fn(route, units=units, on=on, **opts)
        results.append(len(work) / (time.perf_counter() - t))
    return statistics.median(results)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quotes", type=int, default=20000)
    ap.add_argument("--rounds", type=int, default=7)
    args = ap.parse_args()
    corpus = compile_corpus(ROOT / "corpus")
    plans = build_plans(tariffs_and_lint(corpus)[0], RouteTable(corpus.manifest.routes))
    work = workload(args.quotes)

    def reference(route, **kw):  # type: ignore[no-untyped-def]
        return reference_quote(plans, route, **kw)

    for route, units, on, opts in work[:200]:  # same answers before timing anything
        assert nf.quote(route, units=units, on=on, **opts).total == reference(route, units=units, on=on, **opts).total
    gen = rate(nf.quote, work, args.rounds)
    ref = rate(reference, work[: max(1, args.quotes // 5)], args.rounds)
    print(f"workload: {args.quotes} quotes (all routes, 2023-2028, 30% with options), {args.rounds} rounds, medians")
    print(f"generated navlaw_fees.quote        {gen:>10,.0f} quotes/s")
    print(f"tariff objects (reference_quote)   {ref:>10,.0f} quotes/s")
    print(f"ratio generated / reference        {gen / ref:>10.1f}x   (target >= 3x; >= 50,000 quotes/s: "
          f"{'met' if gen >= 50000 and gen / ref >= 3 else 'NOT met'})")
    # a plain quote (no options) against the least a quote must do: one Decimal multiply and quantize
    plain = [(r, u, on, {}) for r, u, on, _ in work]
    plain_rate = rate(nf.quote, plain, args.rounds)
    rate_d, cent = Decimal("10.89"), Decimal("0.01")
    ops = []
    for _ in range(args.rounds):
        t = time.perf_counter()
        for _, units, _, _ in plain:
            (units * rate_d).quantize(cent, rounding=ROUND_HALF_UP)
        ops.append(len(plain) / (time.perf_counter() - t))
    floor = statistics.median(ops)
    print(f"plain quote                        {plain_rate:>10,.0f} quotes/s")
    print(f"one Decimal multiply-and-quantize  {floor:>10,.0f} ops/s")
    print(f"cost of a plain quote              {floor / plain_rate:>10.1f}x one multiply-and-quantize "
          f"(target <= 30x: {'met' if floor / plain_rate <= 30 else 'NOT met'})")


if __name__ == "__main__":
    main()
