"""Whether Redis is close to its memory limit (INFO memory, read at most once a second):
then no new tables are opened, and the tables in play go on."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

from eights.storage import Client, memory_use

FULL_FRACTION = 0.9
CACHE_SECONDS = 1.0


class RedisMemory:
    def __init__(
        self,
        redis: Client,
        *,
        fraction: float = FULL_FRACTION,
        cache_seconds: float = CACHE_SECONDS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.redis = redis
        self.fraction = fraction
        self.cache_seconds = cache_seconds
        self.clock = clock
        self._stamp: float | None = None
        self._full = False
        self._lock = asyncio.Lock()

    async def full(self) -> bool:
        """True when Redis (any master of a cluster) has a ``maxmemory`` and uses more than
        ``fraction`` of it."""
        if self._fresh():
            return self._full
        async with self._lock:  # one INFO for everyone waiting, not one each
            if not self._fresh():
                self._full = any(  # on a cluster, any master (its slots' tables)
                    limit > 0 and used > self.fraction * limit
                    for used, limit in await memory_use(self.redis)
                )
                self._stamp = self.clock()
        return self._full

    def _fresh(self) -> bool:
        return self._stamp is not None and self.clock() - self._stamp < self.cache_seconds
