"""Dealing a hand from the game's seed, exactly as the live table does."""

from __future__ import annotations

from collections.abc import Sequence

from .cards import EIGHT, RANK_OF
from .engine import game_result, totals_after
from .events import Opened
from .options import OptionError
from .position import Position
from .shuffle import game_key, shuffled
from .table import Rules


def deal_hand(
    rules: Rules,
    *,
    seed: str,
    entropy: Sequence[str] = (),
    hand_no: int = 0,
    dealer: int | None = None,
    scores: Sequence[int] | None = None,
) -> Position:
    """Shuffle the deck for (seed, entropy, hand_no) and deal it.

    One card at a time, starting on the dealer's left, until every hand has the table's
    count; the next card starts the pile. An opening eight (where the table buries it)
    goes back into the middle of the stock and the next card is turned instead.
    """
    n = rules.players
    dealer = n - 1 if dealer is None else dealer
    if not 0 <= dealer < n:
        raise OptionError(f"the dealer must be a seat from 0 to {n - 1}")
    key = game_key(seed, entropy)
    order = shuffled(rules.deck, key, hand_no, 0)
    hands: list[list[int]] = [[] for _ in range(n)]
    first = (dealer + 1) % n
    at = 0
    for _ in range(rules.hand_size):
        for k in range(n):
            hands[(first + k) % n].append(order[at])
            at += 1
    rest = order[at:]
    top = rest.pop(0)
    if rules.options.opening_eight == "bury":
        for _ in range(len(rest)):
            if RANK_OF[top] != EIGHT:
                break
            rest.insert(len(rest) // 2, top)
            top = rest.pop(0)
    rest.reverse()
    pos = Position(
        rules,
        hands,
        [top],
        rest,
        turn=first,
        dealer=dealer,
        hand_no=hand_no,
        scores=list(scores) if scores is not None else None,
        seed=seed,
        entropy=tuple(entropy),
    )
    pos._key = key
    pos.log.append(Opened(top, None))
    return pos


def new_game(
    rules: Rules, seed: str, entropy: Sequence[str] = (), first_dealer: int | None = None
) -> Position:
    """The first hand of a game. By default the last seat deals, so seat 0 plays first."""
    return deal_hand(rules, seed=seed, entropy=entropy, dealer=first_dealer)


def next_dealer(pos: Position) -> int:
    """Who deals the hand after ``pos``: by default the deal moves one seat to the left
    (with two, the starter alternates); with ``highest_total``, the highest total deals
    (on equal totals, the first of them to the left of the last dealer)."""
    n = pos.players
    if pos.rules.options.next_dealer == "left":
        return (pos.dealer + 1) % n
    totals = totals_after(pos)
    order = [(pos.dealer + k) % n for k in range(1, n + 1)]
    return max(order, key=lambda seat: (totals[seat], -order.index(seat)))


def next_hand(pos: Position) -> Position:
    """Deal the game's next hand after a finished one, carrying the scores."""
    if pos.outcome is None:
        raise ValueError("the hand is not over")
    if game_result(pos) is not None:
        raise ValueError("the game is over")
    return deal_hand(
        pos.rules,
        seed=pos.seed or "",
        entropy=pos.entropy,
        hand_no=pos.hand_no + 1,
        dealer=next_dealer(pos),
        scores=totals_after(pos),
    )
