"""Bots against bots over whole games, seats rotated so that no bot keeps the first move."""

from __future__ import annotations

import math
import statistics
import time
from dataclasses import dataclass, field
from typing import Any

from eights.rules import (
    Rules,
    apply_in_place,
    game_result,
    legal_actions,
    new_game,
    next_hand,
)

from .interface import Bot, load_bot
from .levels import LEVELS, make_bot
from .runner import bot_view, decide


@dataclass
class Entrant:
    name: str
    bot: Bot
    wins: int = 0
    game_wins: int = 0
    starts: int = 0
    """Hands in which this entrant had the first move."""
    seconds: list[float] = field(default_factory=list)


@dataclass
class Report:
    variant: str
    players: int
    games: int
    hands: int
    ties: int
    entrants: list[Entrant]

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "hands": self.hands,
            "ties": self.ties,
            "bots": [
                {
                    "name": e.name,
                    "wins": e.wins,
                    "win_rate": round(e.wins / self.hands, 4) if self.hands else 0.0,
                    "ci95": [round(x, 4) for x in wilson(e.wins, self.hands)],
                    "game_wins": e.game_wins,
                    "first_moves": e.starts,
                    "decisions": len(e.seconds),
                    "decision_ms_median": _ms(statistics.median(e.seconds)) if e.seconds else 0.0,
                    "decision_ms_p95": _ms(percentile(e.seconds, 0.95)) if e.seconds else 0.0,
                }
                for e in self.entrants
            ],
        }


def _ms(seconds: float) -> float:
    return round(seconds * 1000, 4)


def wilson(successes: int, trials: int, z: float = 1.959964) -> tuple[float, float]:
    """The Wilson score interval for a proportion (95% by default)."""
    if trials == 0:
        return (0.0, 1.0)
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return (max(0.0, centre - half), min(1.0, centre + half))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    index = min(len(ordered) - 1, max(0, math.ceil(q * len(ordered)) - 1))
    return ordered[index]


def entrant_for(spec: str, seed: str, index: int) -> Entrant:
    if spec in LEVELS:
        return Entrant(spec, make_bot(spec, f"{seed}/{index}/{spec}"))
    return Entrant(spec, load_bot(spec))


def run_tournament(rules: Rules, games: int, specs: list[str], seed: str = "tournament") -> Report:
    """Play ``games`` whole games; in game g, seat s is played by entrant (s + g) mod k."""
    entrants = [entrant_for(spec, seed, i) for i, spec in enumerate(specs)]
    k = len(entrants)
    report = Report(rules.variant, rules.players, 0, 0, 0, entrants)
    for g in range(games):
        seating = [entrants[(s + g) % k] for s in range(rules.players)]
        pos = new_game(rules, f"{seed}/game/{g}")
        while True:
            seating[pos.turn].starts += 1
            while pos.outcome is None:
                seat = pos.turn
                legal = legal_actions(pos)
                if len(legal) == 1:  # nothing to decide: no view to build
                    action = legal[0]
                else:
                    view = bot_view(pos, seat)
                    entrant = seating[seat]
                    started = time.perf_counter()
                    action = decide(entrant.bot, view)
                    entrant.seconds.append(time.perf_counter() - started)
                apply_in_place(pos, action)
            report.hands += 1
            winner = pos.outcome.winner
            if winner is None:
                report.ties += 1
            else:
                seating[winner].wins += 1
            if game_result(pos) is not None:
                break
            pos = next_hand(pos)
        result = game_result(pos)
        assert result is not None
        if len(result.winners) == 1:
            seating[result.winners[0]].game_wins += 1
        report.games += 1
    return report
