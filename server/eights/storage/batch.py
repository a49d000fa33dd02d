"""A room script called for many moves at once: the calls of one turn of the event loop
are written to Redis together, on one connection kept for them, and their answers read
back in order (Redis answers a connection's commands in the order it received them). One
round trip however many rooms moved meanwhile, and no connection taken from the pool and
given back per move.

A move's compare-and-set stays its own script, atomic on its room's keys; only the trip is
shared. A lost connection is opened again and the calls it carried are sent once more:
harmless, as each compare-and-set checks the version (one that had already been stored
answers that the room moved on, and the service reads the room again). A script Redis does
not know (a restarted Redis) is loaded and the call sent again.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from dataclasses import dataclass
from typing import Any

from redis.asyncio import Redis
from redis.asyncio.connection import Connection
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import NoScriptError, ResponseError
from redis.exceptions import TimeoutError as RedisTimeoutError

TRIP_ERRORS = (RedisConnectionError, RedisTimeoutError, ConnectionError, OSError, AttributeError)
"""A trip that failed; AttributeError too: redis-py's connection has no stream any more
when it was closed (by a failed read) while a write was under way."""
MAX_BATCH = 512
"""Calls at most in one write."""
TRIES = 2
"""How many connections a call is sent on before its caller is told Redis is away."""
CLOSE_SECONDS = 2.0
"""How long closing waits for the writer and the reader to end."""


@dataclass
class Call:
    keys: list[Any]
    args: list[Any]
    future: asyncio.Future[Any]
    tries: int = 0
    loaded: bool = False
    """The script was loaded again for it already."""


class ScriptBatch:
    """One Lua script, called many times; calls of one loop turn share a write."""

    def __init__(self, redis: Redis, source: str) -> None:
        self.redis = redis
        self.script = redis.register_script(source)
        self._queue: deque[Call] = deque()
        self._sent: deque[Call] = deque()
        """Written on the connection, answers not read yet, in order."""
        self._wake = asyncio.Event()
        self._answers = asyncio.Event()
        self._connection: Connection | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._closed = False

    def __call__(self, keys: list[Any], args: list[Any]) -> asyncio.Future[Any]:
        """The script's answer for these keys and arguments."""
        if self._closed:
            raise RedisConnectionError("the store is closed")
        loop = asyncio.get_running_loop()
        if not self._tasks or any(task.done() for task in self._tasks):
            for task in self._tasks:
                task.cancel()
            self._tasks = [loop.create_task(self._write()), loop.create_task(self._read())]
            for task in self._tasks:
                task.add_done_callback(self._ended)
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append(Call(keys, args, future))
        self._wake.set()
        return future

    def _ended(self, task: asyncio.Task[None]) -> None:
        """A writer or reader ended (cancelled with its loop, or closed)."""
        self._abandon(RedisConnectionError("the store's connection ended"))

    def _abandon(self, error: BaseException) -> None:
        """Nobody waits for an answer that will not come; the connection is closed."""
        calls = list(self._queue) + list(self._sent)
        self._queue.clear()
        self._sent.clear()
        self._fail(calls, error)
        self._drop()

    async def aclose(self) -> None:
        """Stop, failing what is still waiting; the connection is closed."""
        self._closed = True
        self._wake.set()  # a loop whose cancel was lost (3.11's wait_for can) ends too
        self._answers.set()
        for task in self._tasks:
            task.cancel()
        if self._tasks:  # bounded: a task that does not answer its cancel is left behind
            await asyncio.wait(self._tasks, timeout=CLOSE_SECONDS)
        self._abandon(RedisConnectionError("the store is closed"))

    async def _connect(self) -> Connection:
        if self._connection is None:
            # Made like the pool's, but never in the pool: no other caller ever reads it.
            self._connection = self.redis.connection_pool.make_connection()  # type: ignore[no-untyped-call]
        if not self._connection.is_connected:
            await self._connection.connect()
        return self._connection

    def _drop(self) -> None:
        """Close the connection without waiting (the loop may be gone); the next write
        opens a new one, and a read still waiting on the old one fails and is ignored."""
        connection, self._connection = self._connection, None
        if connection is not None:
            with contextlib.suppress(Exception):
                connection._close()  # type: ignore[no-untyped-call]

    async def _write(self) -> None:
        """Everything queued meanwhile in one write, then wait for more."""
        sha = self.script.sha
        while not self._closed:
            await self._wake.wait()
            self._wake.clear()
            while self._queue and not self._closed:
                try:
                    connection = await self._connect()
                except TRIP_ERRORS as exc:  # Redis away: each call tries once more, then fails
                    await self._lost(exc, None, list(self._queue))
                    continue
                calls = [self._queue.popleft() for _ in range(min(MAX_BATCH, len(self._queue)))]
                packed = connection.pack_commands(
                    [("EVALSHA", sha, len(c.keys), *c.keys, *c.args) for c in calls]
                )
                self._sent.extend(calls)
                self._answers.set()
                try:
                    await connection.send_packed_command(packed, check_health=False)
                except TRIP_ERRORS as exc:
                    await self._lost(exc, connection)

    async def _read(self) -> None:
        """The answers, in the order the calls were written."""
        while not self._closed:
            await self._answers.wait()
            self._answers.clear()
            while self._sent and not self._closed:
                connection = self._connection
                if connection is None:
                    break
                try:
                    answer: Any = await connection.read_response()
                except NoScriptError:
                    await self._again(self._sent.popleft())
                    continue
                except ResponseError as exc:
                    answer = exc
                except TRIP_ERRORS as exc:
                    await self._lost(exc, connection)
                    continue
                call = self._sent.popleft()
                if call.future.done():
                    continue
                if isinstance(answer, Exception):
                    call.future.set_exception(answer)
                else:
                    call.future.set_result(answer)

    async def _again(self, call: Call) -> None:
        """Redis does not know the script (it restarted): load it, send the call again."""
        if call.loaded:
            self._fail([call], NoScriptError("the script could not be loaded"))
            return
        call.loaded = True
        try:
            await self.redis.script_load(self.script.script)
        except TRIP_ERRORS as exc:
            self._fail([call], exc)
            return
        self._queue.appendleft(call)
        self._wake.set()

    async def _lost(
        self, error: BaseException, connection: Connection | None, queued: list[Call] | None = None
    ) -> None:
        """The connection broke (or could not be made): what it carried goes again on a new
        one, up to TRIES times a call."""
        if queued is not None:
            self._queue.clear()
            carried = queued
        else:
            if connection is not self._connection:
                return  # already dealt with by the other task
            self._drop()
            carried = list(self._sent)
            self._sent.clear()
        again = []
        for call in carried:
            call.tries += 1
            if call.tries >= TRIES:
                self._fail([call], error)
            else:
                again.append(call)
        self._queue.extendleft(reversed(again))
        if self._queue:
            self._wake.set()

    @staticmethod
    def _fail(calls: list[Call], error: BaseException) -> None:
        for call in calls:
            if not call.future.done():
                call.future.set_exception(error)
