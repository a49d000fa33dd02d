"""Scoring a finished hand and deciding a finished game."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .outcome import EndReason, GameOutcome, HandOutcome
from .table import Rules


def score_hand(
    rules: Rules,
    hands: Sequence[Sequence[Card]],
    reason: EndReason,
    went_out: int | None,
    *,
    multiplier: int = 1,
    jacks: int = 0,
    out: Sequence[int] = (),
) -> HandOutcome:
    """Who won the hand and what each seat scored, by the table's scoring options.

    ``went_out`` is the seat that went out, or the seat that declared a bridge; ``jacks``
    the wild cards of its last move; ``out`` the seats out of the game (they score nothing).
    """
    remaining = tuple(rules.points_of(list(hand)) for hand in hands)
    seats = range(len(hands))
    o = rules.options
    if reason is EndReason.FINISHED:
        return HandOutcome(reason, (), (0,) * len(hands), remaining)
    if (o.win_points if reason is EndReason.WENT_OUT else o.blocked_points) == "own_cards":
        return _own_cards(rules, remaining, reason, went_out, multiplier, jacks, out)
    if reason is EndReason.WENT_OUT:
        assert went_out is not None
        winners: tuple[int, ...] = (went_out,)
        rule = o.win_points
    else:
        low = min(remaining)
        winners = tuple(s for s in seats if remaining[s] == low)
        rule = o.blocked_points
    if rule == "one":
        points = [1 if len(winners) == 1 and s in winners else 0 for s in seats]
    elif rule == "others_cards":
        losers_total = sum(remaining[s] for s in seats if s not in winners)
        points = [losers_total if s in winners else 0 for s in seats]
    else:  # "difference": each lowest seat scores the difference to every other hand
        points = [
            sum(remaining[o_] - remaining[s] for o_ in seats) if s in winners else 0 for s in seats
        ]
    if o.losers_pay:
        points = [p if s in winners else -remaining[s] for s, p in enumerate(points)]
    return HandOutcome(reason, winners, tuple(points), remaining)


def _own_cards(
    rules: Rules,
    remaining: tuple[int, ...],
    reason: EndReason,
    went_out: int | None,
    multiplier: int,
    jacks: int,
    out: Sequence[int],
) -> HandOutcome:
    """Every seat scores its own cards; the mover that ended the round by going out or by a
    bridge also scores ``wild_out_points`` for each wild card of its last move; all of it
    times the bank's multiplier."""
    points = list(remaining)
    if went_out is not None:
        points[went_out] += jacks * rules.options.wild_out_points
    points = [p * multiplier for p in points]
    for seat in out:
        points[seat] = 0
    if reason is EndReason.WENT_OUT:
        assert went_out is not None
        winners: tuple[int, ...] = (went_out,)
    else:
        playing = [s for s in range(len(points)) if s not in out]
        low = min(points[s] for s in playing)
        winners = tuple(s for s in playing if points[s] == low)
    return HandOutcome(reason, winners, tuple(points), remaining)


def game_outcome(rules: Rules, totals: Sequence[int]) -> GameOutcome | None:
    """The game's end after a hand, given the new totals; None while it goes on.

    Without a target every hand is a whole game. With one, the game ends after a hand in
    which someone reaches it; the best total wins and equal totals share the place. Tables
    that end by a limit or by the host are decided in ``ending.game_result``.
    """
    if rules.options.game_end != "target":
        return None
    if rules.target is not None and max(totals) < rules.target:
        return None
    best = max(totals) if rules.options.game_winner == "highest" else min(totals)
    winners = tuple(s for s, t in enumerate(totals) if t == best)
    return GameOutcome(tuple(totals), winners)
