"""Benchmark: Hard's decision time at every table the engine deals, at every size.

    .venv/bin/python -m tests.bench.bench_hard [--hands N] [--tables duo:2,classic:6,...]

Plays N hands at each table with Hard in seat 0 and Medium in the others, and times each of
Hard's decisions that had a choice (the bot's call alone, from the view the table gives it),
in CPU time (what the decision costs a worker, whatever else the machine does) and wall time.
Prints one JSON line a table: decisions, median, 95th percentile and slowest CPU ms, the
wall-clock 95th percentile, the playouts a search, and how many searches the safety clock
cut. Goal (docs/bots.md): a CPU 95th percentile of at most 20 ms at every table and size, on
this project's 2-core machine. Not a test: speed goals live here, never in timed assertions.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from typing import Any

from eights.bots import decide, make_bot
from eights.bots.runner import bot_view
from eights.rules import Rules, apply_in_place, legal_actions, new_game

TABLES = (
    [("duo", 2)]
    + [("classic", n) for n in range(2, 7)]
    + [("ember-ridge", n) for n in range(2, 5)]
    + [("newfoundland", n) for n in range(2, 8)]
    + [("hundred-and-one", n) for n in range(2, 7)]
)
STEPS = 3000
"""Actions a hand may take before the benchmark moves on (a hand is far shorter)."""


def time_table(variant: str, players: int, hands: int) -> tuple[list[float], list[float], Any]:
    """Hard's decision CPU and wall times in ms over ``hands`` hands of this table, and its
    search statistics."""
    hard, medium = make_bot("hard", "bench"), make_bot("medium", "bench")
    times: list[float] = []
    walls: list[float] = []
    for hand in range(hands):
        pos = new_game(Rules.for_variant(variant, players), f"bench-hard-{hand}")
        for _ in range(STEPS):
            if pos.outcome is not None:
                break
            legal = legal_actions(pos)
            view = bot_view(pos, pos.turn)
            if len(legal) > 1 and pos.turn == 0:
                start, cpu = time.perf_counter(), time.process_time()
                action = decide(hard, view)
                times.append((time.process_time() - cpu) * 1000)
                walls.append((time.perf_counter() - start) * 1000)
            else:
                action = legal[0] if len(legal) == 1 else decide(medium, view)
            apply_in_place(pos, action)
    return times, walls, getattr(hard, "stats", None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=40)
    parser.add_argument("--tables", default="", help="variant:players,... (default: every one)")
    args = parser.parse_args()
    tables = TABLES
    if args.tables:
        tables = [(v, int(p)) for v, _, p in (t.partition(":") for t in args.tables.split(","))]
    for variant, players in tables:
        cpu, wall, stats = time_table(variant, players, args.hands)
        times, walls = sorted(cpu), sorted(wall)
        if not times:
            continue
        p95 = times[min(len(times) - 1, int(0.95 * len(times)))]
        searches = stats.searches if stats is not None else 0
        print(
            json.dumps(
                {
                    "variant": variant,
                    "players": players,
                    "decisions": len(times),
                    "median_ms": round(statistics.median(times), 2),
                    "p95_ms": round(p95, 2),
                    "max_ms": round(times[-1], 2),
                    "wall_p95_ms": round(walls[min(len(walls) - 1, int(0.95 * len(walls)))], 2),
                    "searches": searches,
                    "playouts_a_search": round(stats.playouts / searches) if searches else 0,
                    "safety_cuts": stats.cut if stats is not None else 0,
                }
            ),
            flush=True,
        )


if __name__ == "__main__":
    main()
