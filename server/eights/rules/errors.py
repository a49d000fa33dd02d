"""Refusals as values: a stable code, the sentence a player is shown, and its kind.

Two kinds, as python-chess has: ``malformed`` (the input is not an action at all) and
``illegal`` (a well-formed action the rules do not allow now). docs/errors.md lists them.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Kind = Literal["malformed", "illegal"]

ERROR_CODES: dict[str, tuple[Kind, str]] = {
    # malformed: not an action
    "bad_action": ("malformed", "The action is not an object with a known type."),
    "bad_seat": ("malformed", "The seat is not a seat of this table."),
    "bad_card": ("malformed", "A card is not two characters such as 8H."),
    "bad_suit": ("malformed", "The suit is not one of C, D, H, S."),
    "no_cards": ("malformed", "A play names no card."),
    "card_not_in_deck": ("malformed", "The card is not in this table's deck."),
    # illegal: not allowed now
    "hand_over": ("illegal", "The hand is over."),
    "not_your_turn": ("illegal", "Another seat is to act."),
    "card_not_in_hand": ("illegal", "The card is not in the seat's hand."),
    "suit_not_followed": ("illegal", "An eight named a suit and the card is not of it."),
    "card_does_not_fit": ("illegal", "The card matches neither suit nor rank of the top card."),
    "suit_required": ("illegal", "An eight played needs a suit named."),
    "suit_not_allowed": ("illegal", "Only an eight names a suit."),
    "one_card_only": ("illegal", "This table plays one card at a time."),
    "same_rank_required": ("illegal", "Cards laid together must share a rank."),
    "must_keep_drawing": ("illegal", "The seat has started drawing and must go on."),
    "must_play_drawn": ("illegal", "Only the card just drawn may be played now."),
    "must_play": ("illegal", "This table does not let a seat keep a drawn card that fits."),
    "drawn_card_waiting": ("illegal", "A card just drawn waits to be played (or kept)."),
    "nothing_to_keep": ("illegal", "No drawn card is waiting to be played or kept."),
    "draw_with_legal_card": ("illegal", "This table allows drawing only without a legal card."),
    "stock_empty": ("illegal", "There is nothing left to draw."),
    "draw_limit": ("illegal", "The seat has drawn as many cards as a turn allows."),
    "cannot_pass": ("illegal", "The seat can still play or draw."),
    "nothing_to_take": ("illegal", "No pickup is waiting to be taken."),
    "pickup_waiting": ("illegal", "A pickup waits for the seat: answer it or take it."),
    "not_an_answer": ("illegal", "Only a two answers twos, and a queen a queen."),
    "only_twos_together": ("illegal", "Only twos go down together at this table."),
    "no_bridge": ("illegal", "This table has no bridge to declare."),
    "no_bridge_now": ("illegal", "No bridge this seat may declare now (101)."),
    "must_cover": ("illegal", "The seat must cover the six it laid (101)."),
    "opening_move": (
        "illegal",
        "The dealer's opening move adds cards of its rank or passes (101).",
    ),
    "no_order": (
        "illegal",
        "Only a dealer whose opening card is a jack orders a suit without laying a card (101).",
    ),
    "seat_out": ("illegal", "The seat is out of the game (101)."),
}


@dataclass(frozen=True)
class Rejection:
    """A refused action. The position it was tried on is unchanged."""

    code: str
    message: str

    @property
    def kind(self) -> Kind:
        return ERROR_CODES[self.code][0]

    def to_json(self) -> dict[str, str]:
        return {"error": self.code, "message": self.message}


class MalformedAction(ValueError):
    """Raised by the parsers: the input is not an action of the vocabulary."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.rejection = Rejection(code, message)


class PositionError(ValueError):
    """A position that no table could be in."""
