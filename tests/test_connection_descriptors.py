"""The descriptor gate and the quiet log of out-of-descriptor errors, on their own."""

from __future__ import annotations

import asyncio
import errno
import logging

import pytest

from eights.web.descriptors import NEAR_SECONDS, DescriptorGate, ResourceErrorLog

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
