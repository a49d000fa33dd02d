"""Fixtures for the smoke tests in WebKit and Firefox: one ``eights serve`` a module, and
``open_engine(name)`` that starts a fresh browser of that engine (a device of its own: its
own profile, so its own seats), closed after the test. WebKit needs ``WebKitWebDriver``
(Debian's webkit2gtk-driver) and ``Xvfb`` (xvfb); Firefox needs ``firefox-esr``: each
found on PATH only, and a test is skipped naming the package where one is missing."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import ExitStack

import pytest

from tests import programs
from tests.browser.support import running_server
from tests.engines.drivers import Engine, Firefox, WebKit, virtual_display

ENGINES = (
    pytest.param("webkit", marks=pytest.mark.needs("WebKitWebDriver", "Xvfb"), id="webkit"),
    pytest.param("firefox", marks=pytest.mark.needs("firefox-esr"), id="firefox"),
)
"""Each engine's programs (tests/programs.py): a test is skipped before its fixtures start,
naming the Debian package, where one is missing from PATH (tests/needs.py)."""
OpenEngine = Callable[[], Engine]


@pytest.fixture(scope="module")
def engine_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    with running_server(tmp_path_factory.mktemp("eights-engines")) as url:
        yield url


@pytest.fixture(params=ENGINES)
def engine_name(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def open_engine(engine_name: str, tmp_path_factory: pytest.TempPathFactory) -> Iterator[OpenEngine]:
    """``open_engine()``: a new browser of this test's engine, on a page of its own."""
    with ExitStack() as stack:
        display: list[str] = []

        def make() -> Engine:
            home = tmp_path_factory.mktemp(engine_name)
            if engine_name == "firefox":
                engine: Engine = Firefox(programs.require("firefox-esr"), home)
            else:
                if not display:
                    display.append(stack.enter_context(virtual_display(programs.require("Xvfb"))))
                engine = WebKit(programs.require("WebKitWebDriver"), display[0], home)
            stack.callback(engine.close)
            return engine

        yield make
