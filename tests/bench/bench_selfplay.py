"""Benchmark: complete random hands per second on one core, and actions per second.

    .venv/bin/python -m tests.bench.bench_selfplay [--hands N] [--rounds R] [--variant V]
        [--players P] [--options JSON]

Plays N random hands (whole games, as ``eights selfplay`` does) R times and prints the best
and median rates, in hands and in actions a second. Goals (docs/performance.md): at least
3,000 duo hands a second; every other table at least duo's actions a second (its hands are
longer, so hands a second is not comparable across tables). hundred-and-one (101) is the
exception so far, at about 0.35 of duo's actions a second (its multi-card plays and penalty
draws; docs/performance.md has the figures at 2, 4 and 6 seats):

    .venv/bin/python -m tests.bench.bench_selfplay --variant hundred-and-one --players 4 \
        --hands 300 --rounds 3

A game without an end of its own (101 with the house rule limit ``none``) is finished by
the host after ``selfplay.MAX_ROUNDS`` rounds, as ``eights selfplay`` does. Not a test: speed
goals live here, never in timed assertions.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import time

from eights.cli.selfplay import Summary, game_seed, play_game
from eights.rules import Rules


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--variant", default="duo")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--options", default="{}", help="option overrides as a JSON object")
    args = parser.parse_args()
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})  # one core
    rules = Rules.for_variant(args.variant, args.players, json.loads(args.options))
    hand_rates = []
    action_rates = []
    actions = hands = 0
    for round_no in range(args.rounds):
        summary = _play_hands(rules, args.hands, f"bench-{round_no}")
        hand_rates.append(summary.hands / summary.seconds)
        action_rates.append(summary.actions / summary.seconds)
        actions += summary.actions
        hands += summary.hands
    print(
        json.dumps(
            {
                "benchmark": "random self-play, one core",
                "variant": args.variant,
                "players": args.players,
                "options": json.loads(args.options),
                "hands_per_round": args.hands,
                "rounds": args.rounds,
                "best": round(max(hand_rates)),
                "median": round(statistics.median(hand_rates)),
                "actions_per_second_best": round(max(action_rates)),
                "actions_per_second_median": round(statistics.median(action_rates)),
                "actions_per_hand": round(actions / hands, 1),
                "python": platform.python_version(),
            }
        )
    )


def _play_hands(rules: Rules, hands: int, seed: str) -> Summary:
    """Whole games until at least ``hands`` hands are played, as ``selfplay`` plays them
    (for duo, where a game is one hand, exactly ``selfplay(rules, hands, seed)``)."""
    summary = Summary(rules.variant, rules.players)
    summary.wins = [0] * rules.players
    rng = random.Random(seed)
    started = time.perf_counter()
    while summary.hands < hands:
        play_game(rules, game_seed(seed, summary.games), rng, summary, None)
        summary.games += 1
    summary.seconds = time.perf_counter() - started
    return summary


if __name__ == "__main__":
    main()
