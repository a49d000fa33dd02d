"""A flag a task can wait for: ``asyncio.Event``'s set, clear and wait, in a fraction of its
memory (an Event keeps a deque of waiters, ~0.8 KB, where a device needs four flags per
socket and rarely has a waiter)."""

from __future__ import annotations

import asyncio


class Flag:
    __slots__ = ("_set", "_waiters")

    def __init__(self, value: bool = False) -> None:
        self._set = value
        self._waiters: list[asyncio.Future[None]] | None = None

    def is_set(self) -> bool:
        return self._set

    def set(self) -> None:
        if self._set:
            return
        self._set = True
        waiters, self._waiters = self._waiters, None
        for waiter in waiters or ():
            if not waiter.done():
                waiter.set_result(None)

    def clear(self) -> None:
        self._set = False

    async def wait(self) -> None:
        """Return once the flag is set (at once if it is)."""
        if self._set:
            return
        waiter = self.waiter()
        try:
            await waiter
        finally:
            self.forget(waiter)

    def waiter(self) -> asyncio.Future[None]:
        """A future done once the flag is set (for ``asyncio.wait`` with others, without a
        task); ``forget`` it when no longer waited for."""
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        if self._set:
            waiter.set_result(None)
            return waiter
        if self._waiters is None:
            self._waiters = []
        self._waiters.append(waiter)
        return waiter

    def forget(self, waiter: asyncio.Future[None]) -> None:
        waiter.cancel()
        if self._waiters is not None and waiter in self._waiters:
            self._waiters.remove(waiter)
