"""How a hand and a game end: scoring the hand, the totals after it (with 101's limit and
its resets), who is out of the game, and the game's result, also when the host finishes it.
"""

from __future__ import annotations

from .events import Eliminated, Event, GameOver, HandOver, TotalReset
from .outcome import EndReason, GameOutcome
from .position import Ended, Position
from .scoring import game_outcome, score_hand


def finish(
    pos: Position, reason: EndReason, went_out: int | None, events: list[Event], jacks: int = 0
) -> None:
    """End the hand: score it, then log the resets and eliminations a limit makes and the
    game's end if this hand ends it."""
    outcome = score_hand(
        pos.rules,
        pos.hands,
        reason,
        went_out,
        multiplier=pos.multiplier,
        jacks=jacks,
        out=pos.out,
    )
    pos.outcome = outcome
    pos.drawn = None
    pos.bridge = None
    if went_out is not None and pos.rules.moves:
        pos.ended = Ended(reason.value, went_out, jacks)
    events.append(HandOver(outcome))
    if pos.rules.options.game_end == "limit":
        events.extend(limit_events(pos))
    game = game_result(pos)
    if game is not None:
        events.append(GameOver(game))


def limit_events(pos: Position) -> list[Event]:
    """The totals this hand sent back to 0 and the seats it put out of the game."""
    limit = pos.rules.options.limit
    half = pos.rules.half
    assert pos.outcome is not None
    assert limit is not None
    out: list[Event] = []
    for seat in pos.in_play():
        total = pos.scores[seat] + pos.outcome.points[seat]
        if total in (limit, half):
            out.append(TotalReset(seat, total))
        elif total > limit:
            out.append(Eliminated(seat, total))
    return out


def totals_after(pos: Position) -> list[int]:
    """Game totals including this hand's points once it is over (a total that lands exactly
    on the limit or its half is 0)."""
    if pos.outcome is None:
        return list(pos.scores)
    totals = [s + p for s, p in zip(pos.scores, pos.outcome.points, strict=True)]
    limit = pos.rules.options.limit
    if limit is not None and pos.rules.options.game_end == "limit":
        half = pos.rules.half
        totals = [0 if t in (limit, half) else t for t in totals]
    return totals


def out_after(pos: Position) -> list[int]:
    """The seats out of the game once this hand is over: those out before, and those whose
    total it took over the limit."""
    limit = pos.rules.options.limit
    if pos.outcome is None or limit is None or pos.rules.options.game_end != "limit":
        return list(pos.out)
    totals = totals_after(pos)
    return sorted(set(pos.out) | {s for s in pos.in_play() if totals[s] > limit})


def game_result(pos: Position) -> GameOutcome | None:
    """How the game ended, once this hand is over and ends it; None while it goes on."""
    if pos.outcome is None:
        return None
    o = pos.rules.options
    if pos.finished:
        return _best_of(pos, [s for s in pos.in_play() if s not in out_after(pos)])
    if o.game_end == "host":
        return None
    if o.game_end == "limit":
        left = [s for s in pos.in_play() if s not in out_after(pos)]
        if len(left) > 1:
            return None
        return _best_of(pos, left)
    return game_outcome(pos.rules, totals_after(pos))


def _best_of(pos: Position, seats: list[int]) -> GameOutcome:
    """The best total among ``seats`` wins, equal totals sharing; with nobody left (the last
    seats all went over together), the best among the seats that played the hand."""
    totals = totals_after(pos)
    pool = seats or pos.in_play()
    pick = min if pos.rules.options.game_winner == "lowest" else max
    best = pick(totals[s] for s in pool)
    return GameOutcome(tuple(totals), tuple(s for s in pool if totals[s] == best))
