"""File descriptors: a reserve kept free so that at the limit new connections are refused
cleanly (503 ``busy``, close code 1013) instead of going unanswered, the soft limit raised
toward the hard one at start, and asyncio's out-of-descriptors errors logged once a minute.
"""

from __future__ import annotations

import asyncio
import errno
import logging
import os
import time
from collections.abc import Callable
from typing import Any

log = logging.getLogger("eights.web")

RESERVE = 64
"""Descriptors kept free for Redis, logs and the refusals themselves (at most a quarter of
the limit, so that a low limit still serves)."""
RECOUNT_SECONDS = 1.0
"""How stale the count may be while far from the limit."""
NEAR_SECONDS = 0.01
"""How stale it may be near the limit (counting is a directory listing: not every time)."""
REPORT_SECONDS = 60.0
OUT_OF_RESOURCES = {errno.EMFILE, errno.ENFILE, errno.ENOBUFS, errno.ENOMEM}
_FOLDERS = ("/proc/self/fd", "/dev/fd")

try:
    import resource
except ImportError:  # pragma: no cover - not on Windows
    resource = None  # type: ignore[assignment]


def descriptor_limit() -> int | None:
    """The soft RLIMIT_NOFILE, or None where there is none to read."""
    if resource is None:
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_NOFILE)
    return None if soft == resource.RLIM_INFINITY else int(soft)


def raise_descriptor_limit() -> int | None:
    """Raise the soft limit to the hard one (or as far as the system lets); the new soft."""
    if resource is None:
        return None
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    for target in (hard, 1 << 20, 65_536, 10_240):
        if target == resource.RLIM_INFINITY or (soft != resource.RLIM_INFINITY and target <= soft):
            continue
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
            break
        except (ValueError, OSError):
            continue
    return descriptor_limit()


def open_descriptors() -> int | None:
    """How many descriptors this process has open, or None where that cannot be read."""
    for folder in _FOLDERS:
        try:
            return len(os.listdir(folder)) - 1  # less the one listing the folder
        except OSError:
            continue
    return None


class DescriptorGate:
    """Says when new connections must be refused: open descriptors at ``limit - reserve``.

    Counting lists a directory, so it is done at most once a second while far from the
    limit; between counts every admission is assumed to have taken one more descriptor.
    """

    def __init__(
        self,
        reserve: int = RESERVE,
        limit: int | None = None,
        counter: Callable[[], int | None] = open_descriptors,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit if limit is not None else descriptor_limit()
        self.reserve = 0 if self.limit is None else min(reserve, self.limit // 4)
        self.ceiling = None if self.limit is None else self.limit - self.reserve
        self._counter = counter
        self._clock = clock
        self._count = 0
        self._since = 0
        self._stamp: float | None = None
        self._full = False
        self.refused = 0

    def full(self) -> bool:
        """True when a new connection must be refused; otherwise it counts as admitted."""
        if self.ceiling is None:
            return False
        now = self._clock()
        age = float("inf") if self._stamp is None else now - self._stamp
        near = self._full or 2 * self._since >= self.ceiling - self._count
        if age > RECOUNT_SECONDS or (near and age > NEAR_SECONDS):
            count = self._counter()
            if count is None:
                self.ceiling = None
                return False
            self._count, self._since, self._stamp = count, 0, now
            self._full = count >= self.ceiling
        if self._full:
            self.refused += 1
            return True
        self._since += 1
        return False


class ResourceErrorLog:
    """A loop exception handler: errors from running out of descriptors (or buffers) are
    logged once a minute with how many there were; anything else goes on as before."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        self._clock = clock
        self._last: float | None = None
        self.suppressed = 0
        self._previous: Any = None
        self._loop: asyncio.AbstractEventLoop | None = None

    def install(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._previous = loop.get_exception_handler()
        loop.set_exception_handler(self)

    def uninstall(self) -> None:
        if self._loop is not None:
            self._loop.set_exception_handler(self._previous)
            self._loop = None

    def __call__(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        error = context.get("exception")
        if isinstance(error, OSError) and error.errno in OUT_OF_RESOURCES:
            now = self._clock()
            if self._last is None or now - self._last >= REPORT_SECONDS:
                log.error(
                    "out of resources (%s): new connections wait; %d more such errors "
                    "since the last report",
                    error.strerror,
                    self.suppressed,
                )
                self._last = now
                self.suppressed = 0
            else:
                self.suppressed += 1
            return
        if self._previous is not None:
            self._previous(loop, context)
        else:
            loop.default_exception_handler(context)
