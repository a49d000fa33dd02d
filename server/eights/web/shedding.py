"""Load shedding: API requests being worked on at once are counted, and beyond a bound
the server answers 503 ``busy`` at once rather than queue without bound."""

from __future__ import annotations


class InFlight:
    def __init__(self, limit: int) -> None:
        self.limit = limit
        """0 for no bound."""
        self.count = 0
        self.peak = 0

    def enter(self) -> bool:
        if self.limit > 0 and self.count >= self.limit:
            return False
        self.count += 1
        self.peak = max(self.peak, self.count)
        return True

    def leave(self) -> None:
        self.count -= 1
