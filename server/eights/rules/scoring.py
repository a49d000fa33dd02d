"""Scoring a finished hand and deciding a finished game."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import Card
from .outcome import EndReason, GameOutcome, HandOutcome
from .table import Rules


def score_hand(
    rules: Rules, hands: Sequence[Sequence[Card]], reason: EndReason, went_out: int | None
) -> HandOutcome:
    """Who won the hand and what each seat scored, by the table's scoring options."""
    remaining = tuple(rules.points_of(list(hand)) for hand in hands)
    seats = range(len(hands))
    o = rules.options
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


def game_outcome(rules: Rules, totals: Sequence[int]) -> GameOutcome | None:
    """The game's end after a hand, given the new totals; None while it goes on.

    Without a target every hand is a whole game. With one, the game ends after a hand in
    which someone reaches it; the best total wins and equal totals share the place.
    """
    if rules.target is not None and max(totals) < rules.target:
        return None
    best = max(totals) if rules.options.game_winner == "highest" else min(totals)
    winners = tuple(s for s, t in enumerate(totals) if t == best)
    return GameOutcome(tuple(totals), winners)
