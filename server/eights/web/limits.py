"""Rate limits: a token bucket a device (or an address) spends one token a message from."""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable


class TokenBucket:
    __slots__ = ("burst", "clock", "rate", "stamp", "tokens")  # one a socket: no dict each

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self.tokens = float(burst)
        self.clock = clock
        self.stamp = clock()

    def available(self) -> float:
        now = self.clock()
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        return self.tokens

    def take(self) -> bool:
        if self.available() >= 1.0:
            self.tokens -= 1.0
            return True
        return False

    def refund(self) -> None:
        """Give back a token spent on something that did not happen after all."""
        self.tokens = min(self.burst, self.tokens + 1.0)


class WindowLimit:
    """At most ``count`` takes in any ``seconds`` (a device's reactions): the times of the
    last ``count`` takes, a short list."""

    __slots__ = ("clock", "count", "seconds", "stamps")

    def __init__(
        self, count: int, seconds: float, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.count = count
        self.seconds = seconds
        self.clock = clock
        self.stamps: list[float] = []

    def take(self) -> bool:
        now = self.clock()
        self.stamps = [t for t in self.stamps if now - t < self.seconds][-self.count :]
        if len(self.stamps) >= self.count:
            return False
        self.stamps.append(now)
        return True


class AddressLimiter:
    """One bucket an address, for plain HTTP requests; the least recent are forgotten."""

    def __init__(
        self,
        rate: float,
        burst: int,
        remember: int = 50_000,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.remember = remember
        self.clock = clock
        self._buckets: OrderedDict[str, TokenBucket] = OrderedDict()

    def bucket(self, address: str) -> TokenBucket:
        bucket = self._buckets.get(address)
        if bucket is None:
            bucket = self._buckets[address] = TokenBucket(self.rate, self.burst, self.clock)
            if len(self._buckets) > self.remember:
                self._buckets.popitem(last=False)
        else:
            self._buckets.move_to_end(address)
        return bucket

    def allow(self, address: str) -> bool:
        return self.bucket(address).take()
