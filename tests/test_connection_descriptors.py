"""The descriptor gate, and logs that stay small: out-of-descriptor errors once a minute,
a background task that meets Redis away in one line."""

from __future__ import annotations

import asyncio
import errno
import gc
import logging
from typing import Any

import pytest
from redis.exceptions import ConnectionError as RedisConnectionError

from eights.web.descriptors import NEAR_SECONDS, DescriptorGate, ResourceErrorLog
from eights.web.keys import HUB

TIMES = 1000


async def test_out_of_descriptor_errors_are_logged_once_and_others_as_before(
    caplog: pytest.LogCaptureFixture,
) -> None:
    loop = asyncio.get_running_loop()
    quiet = ResourceErrorLog()
    quiet.install(loop)
    try:
        with caplog.at_level(logging.ERROR):
            for _ in range(TIMES):  # what asyncio reports on each failed accept
                loop.call_exception_handler(
                    {
                        "message": "socket.accept() out of system resource",
                        "exception": OSError(errno.EMFILE, "Too many open files"),
                    }
                )
            loop.call_exception_handler({"message": "something else went wrong"})
    finally:
        quiet.uninstall()
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 2
    assert "out of resources (Too many open files)" in messages[0]
    assert messages[1] == "something else went wrong"
    assert quiet.suppressed == TIMES - 1


def test_the_gate_refuses_within_the_reserve_and_opens_again_below_it() -> None:
    now = [0.0]
    open_now = [10]
    gate = DescriptorGate(reserve=10, limit=100, counter=lambda: open_now[0], clock=lambda: now[0])
    assert gate.ceiling == 90
    assert not gate.full()
    open_now[0] = 90  # connections came in between counts
    admitted = 0
    for _ in range(200):  # each admission counts as a descriptor until the next count
        now[0] += NEAR_SECONDS / 4
        if gate.full():
            break
        admitted += 1
    assert admitted < 200
    assert gate.full()
    open_now[0] = 40
    now[0] += 2 * NEAR_SECONDS
    assert not gate.full()
    assert DescriptorGate(reserve=64, limit=128).reserve == 32  # a low limit still serves


async def test_a_background_task_that_meets_storage_away_logs_one_line(
    aiohttp_client: Any, make_app: Any, caplog: pytest.LogCaptureFixture
) -> None:
    app = make_app()
    await aiohttp_client(app)
    hub = app[HUB]

    async def refresh_with_redis_away() -> None:
        raise RedisConnectionError("Connection closed by server.")

    with caplog.at_level(logging.WARNING):
        task = hub._spawn(refresh_with_redis_away())
        await asyncio.wait({task}, timeout=5)
        del task
        gc.collect()  # an unretrieved exception would be reported now, with its traceback
    lines = [r.getMessage() for r in caplog.records]
    assert len(lines) == 1
    assert lines[0].startswith("storage unavailable in ")
    assert lines[0].endswith("refresh_with_redis_away")
