"""How a hand and a game end: small records with a reason, never bare tuples."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class EndReason(StrEnum):
    WENT_OUT = "went_out"
    """A seat played its last card."""
    BLOCKED = "blocked"
    """Every seat passed in turn: nobody could play or draw."""
    STOCK_LIMIT = "stock_limit"
    """The stock ran out once more than the table allows in one hand."""
    BRIDGE = "bridge"
    """A seat declared a bridge (101): everyone scores the cards in hand."""
    FINISHED = "finished"
    """The host finished the game with this round under way: it is not scored."""


@dataclass(frozen=True)
class HandOutcome:
    reason: EndReason
    winners: tuple[int, ...]
    """The seat that went out, or the seats sharing the lowest count in a blocked hand (the
    lowest points at a table where every seat scores its own cards; none when finished)."""
    points: tuple[int, ...]
    """What each seat scored in this hand."""
    remaining: tuple[int, ...]
    """The points each seat still held when the hand ended."""

    @property
    def winner(self) -> int | None:
        """The one winner, or None when the lowest count is shared (a tie)."""
        return self.winners[0] if len(self.winners) == 1 else None

    @property
    def blocked(self) -> bool:
        return self.reason is EndReason.BLOCKED or self.reason is EndReason.STOCK_LIMIT


@dataclass(frozen=True)
class GameOutcome:
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    """Every seat with the best total: equal totals share the place."""
