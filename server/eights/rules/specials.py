"""The special cards (Newfoundland's twos, jacks, queens and kings) as options: what a card
laid does to the next seats, what answers a pickup, and which cards go down together.

Every effect is an option (``options.py``), off at duo, so any table can switch one on.
"""

from __future__ import annotations

from itertools import permutations

from .actions import PLAY_ONE, Action, ActionType
from .cards import JACK, KING, QUEEN, RANK_OF, SPADES, SUIT_OF, TWO, Card, make_card
from .events import Event, PickupWaiting, Reversed, Skipped
from .options import Options
from .position import Pending, Position

ANSWER_NAMES = {"two": "a two", "queen": "a queen"}

_TWOS = tuple(make_card(TWO, suit) for suit in range(4))
TWO_STACKS: dict[tuple[Card, ...], Action] = {
    cards: Action(ActionType.PLAY, cards)
    for size in range(2, 5)
    for cards in permutations(_TWOS, size)
}
"""Every play of two to four twos, built once (like ``PLAY_ONE``): the hot path shares them."""


def lays_together(o: Options, rank: int) -> bool:
    """Whether cards of ``rank`` may go down several at once at this table."""
    if o.max_cards_per_play == 1:
        return False
    if o.lay_together == "same_rank":
        return True
    return rank == TWO and o.pickup_twos > 0


def pickup_kind(o: Options, card: Card, pending: Pending | None) -> str | None:
    """The pickup ``card`` makes when it ends a play, or None: a two where twos pick up, a
    queen of the kind the table names, and any queen that answers a queen."""
    rank = RANK_OF[card]
    if rank == TWO and o.pickup_twos:
        return "two"
    if rank == QUEEN and (
        (pending is not None and pending.kind == "queen")
        or o.pickup_queens == "all"
        or (o.pickup_queens == "spades" and SUIT_OF[card] == SPADES)
    ):
        return "queen"
    return None


def answers(pos: Position, hand: list[Card]) -> list[Action]:
    """The plays that answer the pending pickup: twos for twos (several where twos go down
    together, in any order, the last on top), one queen for a queen; any suit."""
    pending = pos.pending
    assert pending is not None
    o = pos.rules.options
    if not o.answering:
        return []
    if pending.kind == "queen":
        return [PLAY_ONE[c] for c in hand if RANK_OF[c] == QUEEN]
    twos = [c for c in hand if RANK_OF[c] == TWO]
    most = min(o.max_cards_per_play, len(twos)) if lays_together(o, TWO) else min(1, len(twos))
    out: list[Action] = []
    for size in range(1, most + 1):
        for cards in permutations(twos, size):
            out.append(PLAY_ONE[cards[0]] if size == 1 else TWO_STACKS[cards])
    return out


def is_answer(pos: Position, cards: tuple[Card, ...]) -> bool:
    """Whether ``cards`` are of the kind that answers the pending pickup."""
    pending = pos.pending
    assert pending is not None
    rank = TWO if pending.kind == "two" else QUEEN
    return all(RANK_OF[c] == rank for c in cards)


def after_play(pos: Position, seat: int, cards: tuple[Card, ...], events: list[Event]) -> None:
    """Pass the turn on after a play that did not end the hand, with the last card's effect:
    a pickup waits for the next seat (grown where it answered one), a jack skips the next
    seat, a king turns the play around (with two players it simply passes the turn)."""
    o = pos.rules.options
    n = len(pos.hands)
    last = cards[-1]
    rank = RANK_OF[last]
    kind = pickup_kind(o, last, pos.pending) if rank in (TWO, QUEEN) else None
    if kind is not None:
        add = o.pickup_twos * len(cards) if kind == "two" else o.queen_pickup
        count = add + (pos.pending.count if pos.pending is not None else 0)
        pos.pending = Pending(kind, count)
        pos.turn = (seat + pos.direction) % n
        events.append(PickupWaiting(pos.turn, kind, count))
        return
    pos.pending = None
    if rank == JACK and o.skip_jacks:
        skipped = (seat + pos.direction) % n
        events.append(Skipped(skipped))
        pos.turn = (skipped + pos.direction) % n
    elif rank == KING and o.reverse_kings and n > 2:
        pos.direction = -pos.direction
        events.append(Reversed(pos.direction))
        pos.turn = (seat + pos.direction) % n
    else:
        pos.turn = (seat + pos.direction) % n


def pickup_sentence(pos: Position) -> str:
    """What the seat a pickup waits for is told: take it, or answer it."""
    pending = pos.pending
    assert pending is not None
    if pos.rules.options.answering:
        return f"Pick up {pending.count}, or answer with {ANSWER_NAMES[pending.kind]}."
    return f"Pick up {pending.count}: at this table a pickup is not answered."
