"""Bots against bots over whole games, through every seating order in turn (at three
seats and more the order matters by several points), with each seat's results."""

from __future__ import annotations

import hashlib
import hmac
import itertools
import math
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from eights.rules import (
    Action,
    ActionType,
    Position,
    Rules,
    apply,
    apply_in_place,
    game_result,
    legal_actions,
    new_game,
    next_hand,
)
from eights.rules.engine import finish_game
from eights.rules.errors import Rejection

from .interface import Bot, load_bot
from .levels import LEVELS, make_bot
from .runner import bot_view, decide, declares_bridge

UNLIMITED_ROUNDS = 12
"""At a table whose game has no end of its own (101 with no limit), a game is this many
rounds, then finished as the host would finish it (the lowest total wins)."""


@dataclass
class Entrant:
    name: str
    bot: Bot
    wins: int = 0
    game_wins: int = 0
    starts: int = 0
    """Hands in which this entrant had the first move."""
    seconds: list[float] = field(default_factory=list)
    cpu: list[float] = field(default_factory=list)
    """CPU seconds of each decision in this process (a bot from outside thinks in a child
    process of its own: its CPU is not counted here)."""
    seat_hands: list[int] = field(default_factory=list)
    """Hands this entrant played in each seat."""
    seat_wins: list[int] = field(default_factory=list)
    """Hands this entrant won from each seat."""


@dataclass
class Report:
    variant: str
    players: int
    games: int
    hands: int
    ties: int
    entrants: list[Entrant]
    orders: int = 1
    """How many distinct seating orders the games went through (in turn)."""

    def to_json(self) -> dict[str, Any]:
        return {
            "variant": self.variant,
            "players": self.players,
            "games": self.games,
            "hands": self.hands,
            "ties": self.ties,
            "seating_orders": self.orders,
            "bots": [
                {
                    "name": e.name,
                    "wins": e.wins,
                    "win_rate": round(e.wins / self.hands, 4) if self.hands else 0.0,
                    "ci95": [round(x, 4) for x in wilson(e.wins, self.hands)],
                    "game_wins": e.game_wins,
                    "game_ci95": [round(x, 4) for x in wilson(e.game_wins, self.games)],
                    "first_moves": e.starts,
                    "decisions": len(e.seconds),
                    "decision_ms_median": _ms(statistics.median(e.seconds)) if e.seconds else 0.0,
                    "decision_ms_p95": _ms(percentile(e.seconds, 0.95)) if e.seconds else 0.0,
                    "decision_cpu_ms_median": _ms(statistics.median(e.cpu)) if e.cpu else 0.0,
                    "decision_cpu_ms_p95": _ms(percentile(e.cpu, 0.95)) if e.cpu else 0.0,
                    "timeouts": getattr(e.bot, "timeouts", 0),
                    "seats": [
                        {
                            "seat": seat,
                            "hands": hands,
                            "wins": wins,
                            "win_rate": round(wins / hands, 4) if hands else 0.0,
                        }
                        for seat, (hands, wins) in enumerate(
                            zip(e.seat_hands, e.seat_wins, strict=False)
                        )
                    ],
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


def entrant_for(spec: str, seed: str, index: int, load: Callable[[str], Bot] = load_bot) -> Entrant:
    if spec in LEVELS:
        return Entrant(spec, make_bot(spec, f"{seed}/{index}/{spec}"))
    return Entrant(spec, load(spec))


def seating_orders(entrants: int, players: int) -> list[tuple[int, ...]]:
    """Every distinct order of the table's entrants in its seats, in a fixed order: the
    table seats entrant s mod k in seat s, and the games go through each arrangement of
    that table in turn, an order's rotations one after another (two orders at a table of
    two; 4 for one bot against three of another; 6 for three different bots at three)."""
    table = [s % entrants for s in range(players)]
    orders: list[tuple[int, ...]] = []
    seen: set[tuple[int, ...]] = set()
    for order in sorted(set(itertools.permutations(table))):
        for turn in range(players):  # each order's rotations together: in a short run
            rotated = order[turn:] + order[:turn]  # every bot still gets the first seat
            if rotated not in seen:
                seen.add(rotated)
                orders.append(rotated)
    return orders


def game_seed(seed: str, game: int, key: bytes = b"") -> str:
    """Game ``game``'s seed: ``<seed>/game/<n>``, or, with a ``key`` (a tournament where a
    bot from outside plays), its HMAC under that key, so that a bot that knows or guesses
    the tournament's seed still cannot deal the hand again from the public fingerprint."""
    name = f"{seed}/game/{game}"
    if not key:
        return name
    return hmac.new(key, name.encode(), hashlib.sha256).hexdigest()


def run_tournament(
    rules: Rules,
    games: int,
    specs: list[str],
    seed: str = "tournament",
    max_rounds: int | None = None,
    *,
    key: bytes = b"",
    load: Callable[[str], Bot] = load_bot,
) -> Report:
    """Play ``games`` whole games, game g in the (g mod n)-th of the n seating orders.

    ``load`` makes a bot from outside of its ``module:function`` (the command line runs
    each in a child process of its own); ``key`` derives the games' seeds (``game_seed``).
    At 101, right after every move that makes a bridge, the seat that made it is asked
    ``declares_bridge`` (as the room asks a computer seat); a game with no limit ends after
    ``max_rounds`` rounds (``UNLIMITED_ROUNDS`` by default), finished as the host would."""
    entrants = [entrant_for(spec, seed, i, load) for i, spec in enumerate(specs)]
    for entrant in entrants:
        entrant.seat_hands = [0] * rules.players
        entrant.seat_wins = [0] * rules.players
    orders = seating_orders(len(entrants), rules.players)
    report = Report(rules.variant, rules.players, 0, 0, 0, entrants, len(orders))
    for g in range(games):
        seating = [entrants[i] for i in orders[g % len(orders)]]
        pos = new_game(rules, game_seed(seed, g, key))
        rounds = 0
        while True:
            seating[pos.turn].starts += 1
            for seat, entrant in enumerate(seating):
                entrant.seat_hands[seat] += 1
            while pos.outcome is None:
                seat = pos.turn
                legal = legal_actions(pos)
                if len(legal) == 1:  # nothing to decide: no view to build
                    action = legal[0]
                else:
                    view = bot_view(pos, seat)
                    entrant = seating[seat]
                    started, cpu = time.perf_counter(), time.thread_time()
                    action = decide(entrant.bot, view)
                    entrant.seconds.append(time.perf_counter() - started)
                    entrant.cpu.append(time.thread_time() - cpu)
                apply_in_place(pos, action)
                declarer = bridge_seat(pos)
                if declarer is not None and pos.outcome is None:
                    pos = offer_bridge(pos, declarer, seating[declarer])
            report.hands += 1
            rounds += 1
            winner = pos.outcome.winner
            if winner is None:
                report.ties += 1
            else:
                seating[winner].wins += 1
                seating[winner].seat_wins[winner] += 1
            if game_result(pos) is not None:
                break
            if rounds >= (max_rounds or UNLIMITED_ROUNDS) and endless(rules):
                pos = finished(pos)
                break
            pos = next_hand(pos)
        result = game_result(pos)
        assert result is not None
        if len(result.winners) == 1:
            seating[result.winners[0]].game_wins += 1
        report.games += 1
    return report


def endless(rules: Rules) -> bool:
    """A game with no end of its own: 101 with its limit off (only the host ends it)."""
    options = rules.options.to_json()
    end = options.get("game_end", "target")
    return end == "host" or (end == "limit" and not options.get("limit"))


def bridge_seat(pos: Position) -> int | None:
    """The seat that may declare a bridge now (101), or None."""
    bridge = getattr(pos, "bridge", None)
    if bridge is None:
        return None
    seat = bridge.get("seat") if isinstance(bridge, dict) else getattr(bridge, "seat", None)
    return seat if isinstance(seat, int) else None


def offer_bridge(pos: Position, seat: int, entrant: Entrant) -> Position:
    """Ask the seat whose move made a bridge whether it declares, as the room does."""
    view = bot_view(pos, seat)
    started = time.perf_counter()
    yes = declares_bridge(entrant.bot, view)
    entrant.seconds.append(time.perf_counter() - started)
    if not yes:
        return pos
    done = apply(pos, seat, Action(ActionType.BRIDGE))
    assert not isinstance(done, Rejection), done
    return done.position


def finished(pos: Position) -> Position:
    """The game ended by the host between rounds (``finish_game``)."""
    return finish_game(pos).position
