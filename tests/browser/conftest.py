"""Fixtures for the browser tests: one ``eights serve`` child process and one Chromium a
module (closed before the asyncio tests run: the sync API holds an event loop), and a
fresh browser context (a device of its own) for each ``device()`` call."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, BrowserContext, Playwright, expect, sync_playwright

from tests import programs
from tests.browser.support import (
    STEP_MS,
    Device,
    launch,
    running_server,
)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers", "screenshots: writes docs/screenshots/ (only with EIGHTS_SCREENSHOTS=1)"
    )


@pytest.fixture(scope="session")
def chromium() -> str:
    return programs.require("chromium")


@pytest.fixture(scope="module")
def base_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("eights-browser")) as url:
        yield url


@pytest.fixture(scope="module")
def playwright(chromium: str) -> Iterator[Playwright]:
    expect.set_options(timeout=STEP_MS)
    with sync_playwright() as p:
        yield p


@pytest.fixture(scope="module")
def browser(playwright: Playwright, chromium: str) -> Iterator[Browser]:
    launched = launch(playwright, chromium)
    yield launched
    launched.close()


@pytest.fixture
def device(browser: Browser, base_url: str) -> Iterator[Device]:
    """``device()`` opens a new browser context: its own storage, so its own seats."""
    opened: list[BrowserContext] = []

    def make(**options: object) -> BrowserContext:
        # Reduced motion: the client's own setting that makes its animations instant, so
        # cards and the suit picker hold still for Playwright's clicks.
        options.setdefault("reduced_motion", "reduce")
        # The table's service worker (sw.js) only where a test asks for it
        # (test_installable.py): elsewhere each context starts as a first visit would,
        # without a worker installing beside the test.
        options.setdefault("service_workers", "block")
        context = browser.new_context(base_url=base_url, **options)  # type: ignore[arg-type]
        context.set_default_timeout(STEP_MS)
        opened.append(context)
        return context

    yield make
    for context in opened:
        context.close()
