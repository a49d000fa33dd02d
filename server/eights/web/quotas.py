"""Per-address quotas: open sockets at once, and new tables an hour and a day (two token
buckets), so that one address can neither hold every connection nor fill Redis."""

from __future__ import annotations

import time
from collections.abc import Callable

from .limits import AddressLimiter

HOUR = 3600.0
DAY = 24 * HOUR


class SocketsPerAddress:
    """How many sockets each address has open; ``limit`` 0 for no limit."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.open: dict[str, int] = {}

    def enter(self, address: str | None) -> bool:
        if address is None:  # unknown (a unix socket): not counted
            return True
        held = self.open.get(address, 0)
        if self.limit > 0 and held >= self.limit:
            return False
        self.open[address] = held + 1
        return True

    def leave(self, address: str | None) -> None:
        if address is None:
            return
        held = self.open.get(address, 0) - 1
        if held > 0:
            self.open[address] = held
        else:
            self.open.pop(address, None)


class RoomQuota:
    """New tables an address may open: ``per_hour`` and ``per_day``, each a token bucket
    (a burst of that many, refilled evenly); 0 turns either off."""

    def __init__(
        self, per_hour: int, per_day: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self._limiters = [
            AddressLimiter(count / period, count, clock=clock)
            for count, period in ((per_hour, HOUR), (per_day, DAY))
            if count > 0
        ]

    def take(self, address: str) -> bool:
        buckets = [limiter.bucket(address) for limiter in self._limiters]
        if any(bucket.available() < 1.0 for bucket in buckets):
            return False
        for bucket in buckets:
            bucket.take()
        return True

    def refund(self, address: str) -> None:
        """The table was not made after all (a bad request): the address keeps its turn."""
        for limiter in self._limiters:
            limiter.bucket(address).refund()
