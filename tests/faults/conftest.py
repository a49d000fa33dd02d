"""Fixtures of the fault tests: an HTTP session, and every server a test starts stopped
at its end (whatever the test did to it)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import aiohttp
import pytest

from tests.faults.harness import Server


@pytest.fixture
async def http() -> AsyncIterator[aiohttp.ClientSession]:
    async with aiohttp.ClientSession() as session:
        yield session


@pytest.fixture
async def servers() -> AsyncIterator[list[Server]]:
    started: list[Server] = []
    yield started
    for server in started:
        await server.stop()
