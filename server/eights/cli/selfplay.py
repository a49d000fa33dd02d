"""Whole games between uniformly random players: a conformance run and a speed benchmark."""

from __future__ import annotations

import random
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
from eights.rules.engine import finish_game
from eights.rules.outcome import EndReason
from eights.rules.position import Position
from eights.rules.record import GameRecorder


@dataclass
class Summary:
    variant: str
    players: int
    games: int = 0
    hands: int = 0
    actions: int = 0
    wins: list[int] = field(default_factory=list)
    """Hands won alone, by seat."""
    game_wins: list[int] = field(default_factory=list)
    ties: int = 0
    blocked: int = 0
    stock_limit: int = 0
    max_actions: int = 0
    max_reshuffles: int = 0
    bridges: int = 0
    """Hands ended by a declared bridge (101)."""
    finished: int = 0
    """Games the host's finish ended (101 without a limit, after ``max_rounds``)."""
    seconds: float = 0.0

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "hands": self.hands,
            "wins": self.wins,
            "game_wins": self.game_wins,
            "ties": self.ties,
            "blocked": self.blocked,
            "stock_limit": self.stock_limit,
            "actions_per_hand": round(self.actions / self.hands, 2) if self.hands else 0.0,
            "max_actions_in_a_hand": self.max_actions,
            "max_reshuffles_in_a_hand": self.max_reshuffles,
            "bridges": self.bridges,
            "finished_by_host": self.finished,
            "hands_per_second": round(self.hands / self.seconds, 1) if self.seconds else 0.0,
        }


def game_seed(base: str, index: int) -> str:
    return f"{base}/{index}"


MAX_ROUNDS = 20
"""A game that only the host ends (101 without a limit) is finished after this many rounds."""


def play_game(
    rules: Rules,
    seed: str,
    rng: random.Random,
    summary: Summary,
    recorder: GameRecorder | None,
    max_rounds: int = MAX_ROUNDS,
) -> Position:
    """Play one game to its end with random legal actions, counting into ``summary``. A
    game without an end of its own is finished by the host after ``max_rounds`` rounds."""
    pos = new_game(rules, seed)
    pick = rng.random
    rounds = 0
    while True:
        if recorder is not None:
            recorder.start_hand(pos)
        steps = 0
        while pos.outcome is None:
            actions = legal_actions(pos)
            action = actions[int(pick() * len(actions))] if len(actions) > 1 else actions[0]
            if recorder is not None:
                recorder.action(pos.turn, action)
            apply_in_place(pos, action)
            steps += 1
        outcome = pos.outcome
        if recorder is not None:
            recorder.end_hand(pos)
        summary.hands += 1
        summary.actions += steps
        summary.max_actions = max(summary.max_actions, steps)
        summary.max_reshuffles = max(summary.max_reshuffles, pos.reshuffles)
        if outcome.winner is None:
            summary.ties += 1
        else:
            summary.wins[outcome.winner] += 1
        if outcome.reason is EndReason.BLOCKED:
            summary.blocked += 1
        elif outcome.reason is EndReason.STOCK_LIMIT:
            summary.stock_limit += 1
        elif outcome.reason is EndReason.BRIDGE:
            summary.bridges += 1
        if game_result(pos) is not None:
            return pos
        rounds += 1
        if rules.options.game_end == "host" and rounds >= max_rounds:
            pos = finish_game(pos).position
            summary.finished += 1
            if recorder is not None:
                recorder.finish(pos)
            return pos
        pos = next_hand(pos)


def selfplay(
    rules: Rules, games: int, seed: str, records: list[dict[str, Any]] | None = None
) -> Summary:
    """Play ``games`` games; with ``records``, append each game's record to it."""
    summary = Summary(rules.variant, rules.players)
    summary.wins = [0] * rules.players
    summary.game_wins = [0] * rules.players
    rng = random.Random(seed)
    started = time.perf_counter()
    for index in range(games):
        gseed = game_seed(seed, index)
        recorder = GameRecorder(rules, gseed) if records is not None else None
        final = play_game(rules, gseed, rng, summary, recorder)
        summary.games += 1
        result = game_result(final)
        assert result is not None
        if len(result.winners) == 1:
            summary.game_wins[result.winners[0]] += 1
        if records is not None and recorder is not None:
            records.append(recorder.to_json(final))
    summary.seconds = time.perf_counter() - started
    return summary
