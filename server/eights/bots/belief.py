"""What a seat can work out from its view alone: the unseen cards, and which of them each
other seat cannot hold, read from the hand's public log.

The hint's sentences read this belief; Hard decides on ``reading.py``, which reads every
move and stays sound where this one, with ``eights_tell`` (an eight taken as proof that
nothing else fitted) and a laid card's slot guessed, rules out hands a seat really holds
now and then (``tests/test_bots_reading.py``).

At a table that forbids drawing while holding a card that fits (duo, newfoundland), a seat
that starts to draw shows that no card of its hand fitted; at every table, a drawn card that
was followed by another draw (or ended the turn) did not fit. Each other seat's hand is
modelled as slots, one a card, each with the set of cards it cannot be.

Where pickups wait (newfoundland), a seat that ``took`` a pickup gains that many slots about
which nothing is known (a seat may take even when it could answer, so taking shows
nothing), and a turn begins again after every play, take or skip: at two players a seat
that laid a jack or a pickup and then draws shows that nothing of its hand fitted.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Final

from eights.rules import SeatView
from eights.rules.cards import ALL_CARDS, EIGHT, RANK_OF, SUIT_OF, Card, parse_card, parse_suit

Mask = int
"""A set of cards as a 52-bit integer."""

SUIT_MASK: Final[tuple[Mask, ...]] = tuple(
    sum(1 << c for c in ALL_CARDS if SUIT_OF[c] == s and RANK_OF[c] != EIGHT) for s in range(4)
)
RANK_MASK: Final[tuple[Mask, ...]] = tuple(
    sum(1 << c for c in ALL_CARDS if RANK_OF[c] == r) for r in range(13)
)
EIGHTS: Final[Mask] = RANK_MASK[EIGHT]


def mask_of(cards: tuple[Card, ...] | list[Card]) -> Mask:
    out = 0
    for card in cards:
        out |= 1 << card
    return out


def fitting(suit: int, rank: int) -> Mask:
    """Every card that goes on a pile with this suit in force and this top rank."""
    return SUIT_MASK[suit] | RANK_MASK[rank] | EIGHTS


@dataclass
class Belief:
    unseen: Mask
    """Cards not in this seat's hand and not on the pile: in other hands or the stock."""
    slots: dict[int, list[Mask]] = field(default_factory=dict)
    """For each other seat, one exclusion set per card it holds."""

    def p_can_follow(self, seat: int, fits: Mask) -> float:
        """The chance that ``seat`` holds at least one card of ``fits``."""
        p_none = 1.0
        for excluded in self.slots.get(seat, ()):
            pool = self.unseen & ~excluded
            size = pool.bit_count()
            if size:
                p_none *= 1.0 - (pool & fits).bit_count() / size
        return 1.0 - p_none

    def unseen_in_suit(self, suit: int) -> int:
        return (self.unseen & SUIT_MASK[suit]).bit_count()


def read_belief(view: SeatView, eights_tell: bool = False) -> Belief:
    """Replay the public log of the hand into a Belief for ``view.seat``. With
    ``eights_tell``, a seat that laid an eight is read as holding nothing else that fitted
    (players save their eights: Medium always does, and Hard's search reads it so)."""
    table = view.table
    deck = mask_of(_deck(table.options))
    unseen = deck & ~mask_of(view.hand) & ~mask_of(table.pile)
    strict = not table.options.get("draw_with_legal", False)
    slots = {seat: [0] * n for seat, n in enumerate(_counts_at_start(view)) if seat != view.seat}
    top_suit, top_rank = 0, 0
    pending_draw: dict[int, int] = {}
    """Seat -> index of the slot of its last drawn card whose fit is not known yet."""
    actor = -1
    for event in table.log:
        kind = event["type"]
        if kind == "opened":
            top_suit, top_rank = _top(event["card"], event["suit"])
        elif kind == "played":
            seat = event["seat"]
            cards = [parse_card(c) for c in event["cards"]]
            if seat != view.seat:
                if eights_tell and RANK_OF[cards[-1]] == EIGHT and len(cards) == 1:
                    others = fitting(top_suit, top_rank) & ~EIGHTS
                    hand = slots[seat]
                    for i in range(len(hand)):
                        hand[i] |= others
                _remove_played(slots[seat], cards, pending_draw.pop(seat, None))
            last = event["cards"][-1]
            top_suit, top_rank = _top(last, event["suit"])
            actor = -1  # a play ends the turn; whoever draws next starts a turn
        elif kind == "took":
            seat = event["seat"]
            if seat != view.seat:
                slots[seat].extend([0] * event["taken"])
            actor = -1
        elif kind == "drew":
            seat = event["seat"]
            if seat == view.seat:
                actor = seat
                continue
            hand = slots[seat]
            fits = fitting(top_suit, top_rank)
            previous = pending_draw.pop(seat, None)
            if previous is not None and previous < len(hand):
                hand[previous] |= fits  # it was followed by another draw: it did not fit
            elif strict and actor != seat:
                for i in range(len(hand)):
                    hand[i] |= fits  # starting to draw shows that nothing fitted
            hand.append(0)
            pending_draw[seat] = len(hand) - 1
            actor = seat
        elif kind == "ordered":  # 101: the dealer ordered a suit for its opening jack
            top_suit = parse_suit(event["suit"])
            actor = -1
        elif kind in ("kept", "turn_ended", "passed"):
            seat = event["seat"]
            index = pending_draw.pop(seat, None)
            if kind == "turn_ended" and index is not None:
                slots[seat][index] |= fitting(top_suit, top_rank)
            actor = seat
    return Belief(unseen, slots)


def _counts_at_start(view: SeatView) -> list[int]:
    """How many cards each seat held when the log began: now, less draws, plus plays."""
    counts = list(view.table.counts)
    for event in view.table.log:
        kind = event["type"]
        if kind == "drew":
            counts[event["seat"]] -= 1
        elif kind == "took":
            counts[event["seat"]] -= event["taken"]
        elif kind == "penalty":  # 101: cards a move made the seat draw
            counts[event["seat"]] -= event["count"]
        elif kind == "played":
            counts[event["seat"]] += len(event["cards"])
    return counts


def _top(card: str, suit: str | None) -> tuple[int, int]:
    c = parse_card(card)
    return (parse_suit(suit) if suit is not None else SUIT_OF[c]), RANK_OF[c]


def _remove_played(hand: list[Mask], cards: list[Card], drawn_index: int | None) -> None:
    """Take the played cards' slots out: the card just drawn first; otherwise the most
    constrained slot that could have held the card, which leaves the rest as open as it can."""
    for card in cards:
        bit = 1 << card
        if drawn_index is not None and drawn_index < len(hand) and not hand[drawn_index] & bit:
            hand.pop(drawn_index)
            drawn_index = None
            continue
        fitting_slots = [i for i, excluded in enumerate(hand) if not excluded & bit]
        if fitting_slots:
            hand.pop(max(fitting_slots, key=lambda i: hand[i].bit_count()))
        elif hand:
            hand.pop(max(range(len(hand)), key=lambda i: hand[i].bit_count()))


def _deck(options: dict[str, Any]) -> tuple[Card, ...]:
    from eights.rules.cards import DECKS

    return DECKS[str(options.get("deck", "52"))]
