"""A position: everything on the table in one hand, hidden parts included.

Only the engine and the scenario format read a whole position. Devices, bots and logs
get ``view.view_for(position, seat)`` instead, which leaves out what a seat may not see.
"""

from __future__ import annotations

from dataclasses import dataclass

from .cards import Card, Suit
from .events import Event
from .outcome import HandOutcome
from .shuffle import game_key
from .table import Rules


@dataclass(frozen=True)
class Pending:
    """A pickup the seat to act must answer or take (Newfoundland twos and queens)."""

    kind: str
    count: int


@dataclass(frozen=True)
class Bridge:
    """A bridge on the table that ``seat`` may declare as its next action; ``jacks`` are the
    wild cards of the move that made it (each scores ``wild_out_points`` for the seat)."""

    seat: int
    jacks: int


@dataclass(frozen=True)
class Ended:
    """How a round on the moves path ended where the cards alone do not say: the seat that
    went out or declared a bridge, and the jacks of its last move (each scores
    ``wild_out_points``)."""

    reason: str
    """``went_out`` or ``bridge``."""
    seat: int
    jacks: int


class Position:
    """One hand in play. Piles are bottom first: ``pile[-1]`` is the top card and
    ``stock[-1]`` the next card drawn (files list the stock the other way round)."""

    __slots__ = (
        "_key",
        "bridge",
        "cover",
        "dealer",
        "direction",
        "drawn",
        "draws",
        "ended",
        "entropy",
        "finished",
        "hand_no",
        "hands",
        "log",
        "multiplier",
        "opening",
        "out",
        "outcome",
        "passes",
        "pending",
        "pile",
        "reshuffles",
        "rules",
        "scores",
        "seed",
        "skips",
        "stock",
        "suit",
        "turn",
    )

    def __init__(
        self,
        rules: Rules,
        hands: list[list[Card]],
        pile: list[Card],
        stock: list[Card],
        *,
        suit: Suit | None = None,
        turn: int = 0,
        direction: int = 1,
        pending: Pending | None = None,
        drawn: Card | None = None,
        draws: int = 0,
        passes: int = 0,
        reshuffles: int = 0,
        scores: list[int] | None = None,
        dealer: int | None = None,
        hand_no: int = 0,
        seed: str | None = None,
        entropy: tuple[str, ...] = (),
        multiplier: int = 1,
        cover: bool = False,
        skips: list[int] | None = None,
        bridge: Bridge | None = None,
        out: list[int] | None = None,
        opening: bool = False,
        finished: bool = False,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.pile = pile
        self.stock = stock
        self.suit = suit
        """The suit an eight named, or None where the top card's own suit is in force."""
        self.turn = turn
        self.direction = direction
        self.pending = pending
        self.drawn = drawn
        """The card just drawn that fits and may still be played (or kept)."""
        self.draws = draws
        """Cards the seat to act has drawn this turn."""
        self.passes = passes
        """Passes in a row."""
        self.reshuffles = reshuffles
        """Times the stock has run out this hand."""
        self.scores = scores if scores is not None else [0] * len(hands)
        """Game totals before this hand."""
        self.dealer = dealer if dealer is not None else len(hands) - 1
        self.hand_no = hand_no
        """Which hand of the game this is, from 0: it selects the shuffles."""
        self.seed = seed
        self.entropy = entropy
        self.multiplier = multiplier
        """The bank's multiplier: 1 at the start of a round, +1 for each new bank."""
        self.cover = cover
        """The seat to act must cover the card of ``cover_rank`` on top, its own."""
        self.skips = skips if skips is not None else [0] * len(hands)
        """Skips owed, one number a seat."""
        self.bridge = bridge
        """The bridge that ``bridge.seat`` may declare now, or None."""
        self.out = out if out is not None else []
        """Seats out of the game (over the limit): dealt nothing, they never act."""
        self.opening = opening
        """The dealer's opening move is under way."""
        self.finished = finished
        """The host finished the game (``finish_game``)."""
        self.ended: Ended | None = None
        """Who ended the round by going out or by a bridge, with the jacks of that move."""
        self.outcome: HandOutcome | None = None
        self.log: list[Event] = []
        """Everything that happened this hand, in order (views redact private cards)."""
        self._key: bytes | None = None

    @property
    def players(self) -> int:
        return len(self.hands)

    @property
    def key(self) -> bytes:
        """The shuffle key from the seed and the players' entropy (the empty seed if none)."""
        if self._key is None:
            self._key = game_key(self.seed or "", self.entropy)
        return self._key

    def in_play(self) -> list[int]:
        """The seats still in the game, in seat order."""
        out = self.out
        return (
            [s for s in range(len(self.hands)) if s not in out]
            if out
            else list(range(len(self.hands)))
        )

    @property
    def top(self) -> Card:
        return self.pile[-1]

    def copy(self) -> Position:
        clone = Position.__new__(Position)
        clone.rules = self.rules
        clone.hands = [list(h) for h in self.hands]
        clone.pile = list(self.pile)
        clone.stock = list(self.stock)
        clone.suit = self.suit
        clone.turn = self.turn
        clone.direction = self.direction
        clone.pending = self.pending
        clone.drawn = self.drawn
        clone.draws = self.draws
        clone.passes = self.passes
        clone.reshuffles = self.reshuffles
        clone.scores = list(self.scores)
        clone.dealer = self.dealer
        clone.hand_no = self.hand_no
        clone.seed = self.seed
        clone.entropy = self.entropy
        clone.multiplier = self.multiplier
        clone.cover = self.cover
        clone.skips = list(self.skips)
        clone.bridge = self.bridge
        clone.out = list(self.out)
        clone.opening = self.opening
        clone.finished = self.finished
        clone.ended = self.ended
        clone.outcome = self.outcome
        clone.log = list(self.log)
        clone._key = self._key
        return clone

    def __repr__(self) -> str:
        return f"<Position {self.rules.variant} hand {self.hand_no} turn {self.turn}>"
