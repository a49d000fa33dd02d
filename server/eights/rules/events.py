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
    """A jack made this seat lose its turn."""

    seat: int


class Reversed(NamedTuple):
    """A king turned the play around: ``direction`` is the new one (1 or -1)."""

    direction: int


class Reshuffled(NamedTuple):
    cards: int
    """How many cards the new stock holds."""
    times: int
    """How many times the stock has run out this hand, this time included."""


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
    | TurnEnded
    | TimedOut
    | PickupWaiting
    | Took
    | Skipped
    | Reversed
    | Reshuffled
    | HandOver
    | GameOver
)
