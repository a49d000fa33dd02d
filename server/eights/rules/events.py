"""What an action caused, in order. Some events carry a card only one seat may see;
``view.event_for`` is the one place that decides what each seat is told."""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit
from .outcome import GameOutcome, HandOutcome


@dataclass(frozen=True)
class Played:
    seat: int
    cards: tuple[Card, ...]
    suit: Suit | None
    """The suit named, when the last card laid is an eight."""


@dataclass(frozen=True)
class Drew:
    seat: int
    card: Card
    """Private to the drawing seat."""


@dataclass(frozen=True)
class Kept:
    seat: int
    card: Card
    """Private to the keeping seat."""


@dataclass(frozen=True)
class Passed:
    seat: int


@dataclass(frozen=True)
class TurnEnded:
    """The seat's turn ended without a card played (it drew under the one-card rule)."""

    seat: int


@dataclass(frozen=True)
class Reshuffled:
    cards: int
    """How many cards the new stock holds."""
    count: int
    """How many times the stock has run out this hand, this time included."""


@dataclass(frozen=True)
class HandOver:
    outcome: HandOutcome


@dataclass(frozen=True)
class GameOver:
    outcome: GameOutcome


Event = Played | Drew | Kept | Passed | TurnEnded | Reshuffled | HandOver | GameOver
