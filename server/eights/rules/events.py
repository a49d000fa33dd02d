"""What an action caused, in order. Some events carry a card only one seat may see;
``view.event_for`` is the one place that decides what each seat is told."""

from __future__ import annotations

from typing import NamedTuple

from .cards import Card, Suit
from .outcome import GameOutcome, HandOutcome


class Opened(NamedTuple):
    """The pile's top card (and a named suit) when this hand's log begins: the turned-up
    card at a deal, or the top of a position read from a file."""

    card: Card
    suit: Suit | None


class Played(NamedTuple):
    seat: int
    cards: tuple[Card, ...]
    suit: Suit | None
    """The suit named, when the last card laid is an eight."""


class Ordered(NamedTuple):
    """A 101 dealer ordered a suit for its opening jack (which it did not lay: the deal did)."""

    seat: int
    suit: Suit


class Drew(NamedTuple):
    seat: int
    card: Card
    """Private to the drawing seat."""


class Kept(NamedTuple):
    seat: int
    card: Card
    """Private to the keeping seat."""


class Passed(NamedTuple):
    seat: int


class TurnEnded(NamedTuple):
    """The seat's turn ended without a card played (it drew under the one-card rule)."""

    seat: int


class TimedOut(NamedTuple):
    """The seat's turn clock ran out: the moves logged after it until its turn ended were
    made by the table for it. The engine never makes this event (it knows no clock); the
    rooms layer logs it when it replays a stored timeout."""

    seat: int


class PickupWaiting(NamedTuple):
    """A pickup now waits for ``seat``: it answers it or takes ``pickup`` cards."""

    seat: int
    kind: str
    """``two`` or ``queen``: what answers it."""
    pickup: int
    """How many cards it is now."""


class Took(NamedTuple):
    """The seat took a pickup and lost its turn."""

    seat: int
    cards: tuple[Card, ...]
    """Private to the taking seat; fewer than ``pickup`` when even a new stock ran short."""
    pickup: int


class Skipped(NamedTuple):
    """This seat lost its turn: a jack skipped it (newfoundland), or it owed a skip (101)."""

    seat: int


class Reversed(NamedTuple):
    """A king turned the play around: ``direction`` is the new one (1 or -1)."""

    direction: int


class Reshuffled(NamedTuple):
    cards: int
    """How many cards the new stock holds."""
    times: int
    """How many times the stock has run out this hand, this time included."""


class Dice(NamedTuple):
    """The dice that chose a game's first dealer (``rules/dice.py``): public."""

    rolls: tuple[tuple[int, int, int, int], ...]
    """(roll round, seat, first die, second die), in the order rolled; a round after the
    first is the tied seats rolling again."""
    dealer: int


class Penalty(NamedTuple):
    """A move made ``seat`` draw as part of it (101's sevens, eights and queen of spades):
    nobody sends an action for it."""

    seat: int
    cards: tuple[Card, ...]
    """Private to the drawing seat; fewer than ``due`` when bank and table ran dry."""
    due: int
    cause: str
    """The rank name of the card that made it (``seven``, ``eight``), or ``queen_of_spades``
    style for a single card (``last_draws``)."""


class BankRenewed(NamedTuple):
    """The table under its top card became a new bank (101): the round's multiplier rose."""

    cards: int
    times: int
    multiplier: int


class BridgeDeclared(NamedTuple):
    """``seat`` declared the bridge on the table: the round ends at once."""

    seat: int
    rank: str
    jacks: int


class TotalReset(NamedTuple):
    """A total landed exactly on the limit or on its half and went back to 0."""

    seat: int
    total: int


class Eliminated(NamedTuple):
    """A total went over the limit: the seat is out of the game."""

    seat: int
    total: int


class HandOver(NamedTuple):
    outcome: HandOutcome


class GameOver(NamedTuple):
    outcome: GameOutcome


Event = (
    Opened
    | Played
    | Drew
    | Kept
    | Passed
    | Ordered
    | TurnEnded
    | TimedOut
    | PickupWaiting
    | Took
    | Skipped
    | Reversed
    | Reshuffled
    | Dice
    | Penalty
    | BankRenewed
    | BridgeDeclared
    | TotalReset
    | Eliminated
    | HandOver
    | GameOver
)
