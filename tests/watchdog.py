"""A test that hangs fails instead of eating the CI's whole time: past WATCHDOG_SECONDS
every thread's stack and every asyncio task's stack are printed (where it hung), then the
loop's tasks are cancelled so the test fails and the run goes on; if even that does not
end it, the run exits after a second limit with the stacks already printed."""

from __future__ import annotations

import asyncio
import faulthandler
import os
import sys
import threading
from collections.abc import Iterator
from typing import Any

import pytest

WATCHDOG_SECONDS = float(os.environ.get("EIGHTS_TEST_WATCHDOG", "240"))
"""Far above any test's time (the slowest takes seconds): only a hang reaches it."""
EXIT_SECONDS = 60.0
"""After the cancel, how long before the run is ended outright."""


def _print_tasks(loop: asyncio.AbstractEventLoop) -> None:
    try:
        tasks = list(asyncio.all_tasks(loop))
    except RuntimeError:  # the set changed while read from this thread: once more
        tasks = list(asyncio.all_tasks(loop))
    for task in tasks:
        print(f"--- task {task!r}", file=sys.stderr)
        task.print_stack(file=sys.stderr)


def _expired(nodeid: str, loops: list[asyncio.AbstractEventLoop]) -> None:
    print(f"\n=== watchdog: {nodeid} ran over {WATCHDOG_SECONDS:.0f} s", file=sys.stderr)
    faulthandler.dump_traceback(file=sys.stderr, all_threads=True)
    for loop in loops:
        if loop.is_closed():
            continue
        _print_tasks(loop)

        def cancel_all(loop: asyncio.AbstractEventLoop = loop) -> None:
            for task in asyncio.all_tasks(loop):
                task.cancel()

        loop.call_soon_threadsafe(cancel_all)
    sys.stderr.flush()
    faulthandler.dump_traceback_later(EXIT_SECONDS, exit=True)


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: pytest.Item, nextitem: Any) -> Iterator[None]:
    loops: list[asyncio.AbstractEventLoop] = []
    original = asyncio.BaseEventLoop.run_until_complete

    def watched(self: asyncio.BaseEventLoop, future: Any) -> Any:
        if self not in loops:
            loops.append(self)
        return original(self, future)

    asyncio.BaseEventLoop.run_until_complete = watched  # type: ignore[method-assign]
    timer = threading.Timer(WATCHDOG_SECONDS, _expired, (item.nodeid, loops))
    timer.daemon = True
    timer.start()
    try:
        yield
    finally:
        timer.cancel()
        faulthandler.cancel_dump_traceback_later()
        asyncio.BaseEventLoop.run_until_complete = original  # type: ignore[method-assign]
