"""The room scripts of one turn of the event loop, sent to Redis together: one pipeline,
one connection, one round trip for every move made meanwhile, however many rooms.

A move's compare-and-set stays its own script (atomic on its room's keys); only the trip
is shared. A script Redis does not know yet (a restarted Redis) is loaded and run again.
"""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import Redis
from redis.exceptions import NoScriptError

Call = tuple[list[Any], list[Any], "asyncio.Future[Any]"]

MAX_BATCH = 512
"""Scripts at most in one pipeline: a larger turn is sent as several."""


class ScriptBatch:
    """One Lua script, called many times; calls of the same loop turn share a pipeline."""

    def __init__(self, redis: Redis, source: str) -> None:
        self.redis = redis
        self.script = redis.register_script(source)
        self._queue: list[Call] = []
        self._scheduled = False
        self._trips: set[asyncio.Task[None]] = set()

    def __call__(self, keys: list[Any], args: list[Any]) -> asyncio.Future[Any]:
        """The script's answer for these keys and arguments, once its batch is back."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[Any] = loop.create_future()
        self._queue.append((keys, args, future))
        if not self._scheduled:
            self._scheduled = True
            loop.call_soon(self._flush)
        return future

    def _flush(self) -> None:
        self._scheduled = False
        queue, self._queue = self._queue, []
        loop = asyncio.get_running_loop()
        for start in range(0, len(queue), MAX_BATCH):
            trip = loop.create_task(self._send(queue[start : start + MAX_BATCH]))
            self._trips.add(trip)  # the loop keeps only a weak reference to a task
            trip.add_done_callback(self._trips.discard)

    async def _send(self, calls: list[Call]) -> None:
        try:
            answers = await self._pipeline(calls)
            missing = [i for i, a in enumerate(answers) if isinstance(a, NoScriptError)]
            if missing:  # Redis restarted since the script was loaded
                await self.redis.script_load(self.script.script)
                again = await self._pipeline([calls[i] for i in missing])
                for i, answer in zip(missing, again, strict=True):
                    answers[i] = answer
        except BaseException as exc:  # the trip failed: every caller hears why
            for _, _, future in calls:
                if not future.done():
                    future.set_exception(exc)
            if not isinstance(exc, Exception):
                raise
            return
        for (_, _, future), answer in zip(calls, answers, strict=True):
            if future.done():
                continue
            if isinstance(answer, Exception):
                future.set_exception(answer)
            else:
                future.set_result(answer)

    async def _pipeline(self, calls: list[Call]) -> list[Any]:
        pipe = self.redis.pipeline(transaction=False)
        sha = self.script.sha
        for keys, args, _ in calls:
            pipe.evalsha(sha, len(keys), *keys, *args)
        return list(await pipe.execute(raise_on_error=False))
