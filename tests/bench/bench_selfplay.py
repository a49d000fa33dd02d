"""Benchmark: complete random duo hands per second on one core (goal: at least 3,000).

    .venv/bin/python -m tests.bench.bench_selfplay [--hands N] [--rounds R] [--variant V]

Plays N random hands R times and prints the best and median rate; see docs/performance.md.
Not a test: speed goals live here, never in timed assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import statistics

from eights.cli.selfplay import selfplay
from eights.rules import Rules


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", default="duo")
    parser.add_argument("--players", type=int, default=2)
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rules = Rules.for_variant(args.variant, args.players)
    rates = []
    for round_no in range(args.rounds):
        summary = selfplay(rules, args.hands, f"bench-{round_no}")
        rates.append(summary.hands / summary.seconds)
    print(
        json.dumps(
            {
                "benchmark": "random hands per second, one core",
                "variant": args.variant,
                "players": args.players,
                "hands_per_round": args.hands,
                "rounds": args.rounds,
                "best": round(max(rates)),
                "median": round(statistics.median(rates)),
                "python": platform.python_version(),
            }
        )
    )


if __name__ == "__main__":
    main()
