"""What a card laid does to the next seats at this table, read from the options in the view
(Newfoundland's twos, jacks, queens and kings; every one is off at duo, classic and Ember
Ridge, where nothing here changes a bot's play).

Mirrors ``eights.rules.specials`` from the options alone, since a bot never sees a position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from eights.rules import SeatView
from eights.rules.cards import JACK, KING, QUEEN, RANK_OF, SPADES, SUIT_OF, TWO, Card

from .tactics import is_wild

PICKUP, SKIP, REVERSE = "pickup", "skip", "reverse"


@dataclass(frozen=True)
class Effects:
    """The special cards in force at one table."""

    players: int
    twos: int = 0
    """Cards each two makes the next seat pick up (0: twos are ordinary)."""
    queens: str = "none"
    queen_pickup: int = 5
    answering: bool = True
    jacks: bool = False
    kings: bool = False

    @classmethod
    def of(cls, view: SeatView) -> Effects:
        return cls.from_options(view.table.options, view.table.players)

    @classmethod
    def from_options(cls, options: Mapping[str, Any], players: int) -> Effects:
        return cls(
            players=players,
            twos=int(options.get("pickup_twos", 0) or 0),
            queens=str(options.get("pickup_queens", "none")),
            queen_pickup=int(options.get("queen_pickup", 5)),
            answering=bool(options.get("answering", True)),
            jacks=bool(options.get("skip_jacks", False)),
            kings=bool(options.get("reverse_kings", False)),
        )

    @property
    def any(self) -> bool:
        """Whether any card does anything here beyond an eight's wildness."""
        return bool(self.twos or self.queens != "none" or self.jacks or self.kings)

    def pickup_queen(self, card: Card) -> bool:
        return RANK_OF[card] == QUEEN and (
            self.queens == "all" or (self.queens == "spades" and SUIT_OF[card] == SPADES)
        )

    def pickup(self, cards: tuple[Card, ...] | list[Card]) -> int:
        """Cards the next seat must pick up (or answer) after ``cards`` are laid, no pickup
        waiting: 0 for a play that makes none."""
        last = cards[-1]
        if RANK_OF[last] == TWO and self.twos:
            return self.twos * len(cards)
        if self.pickup_queen(last):
            return self.queen_pickup
        return 0

    def effect(self, card: Card) -> str | None:
        """What ``card`` does when it ends a play (no pickup waiting): a pickup, a skip, a
        reversal, or nothing. A king at two players only passes the turn."""
        rank = RANK_OF[card]
        if (rank == TWO and self.twos) or self.pickup_queen(card):
            return PICKUP
        if rank == JACK and self.jacks:
            return SKIP
        if rank == KING and self.kings and self.players > 2:
            return REVERSE
        return None

    def is_two(self, card: Card) -> bool:
        """A two that makes a pickup here."""
        return bool(self.twos) and RANK_OF[card] == TWO

    def saved(self, card: Card) -> bool:
        """A card worth keeping for later: an eight (wild), or a two where twos pick up
        (it answers a pickup of twos)."""
        return is_wild(card) or self.is_two(card)
