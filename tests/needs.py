"""The ``needs`` marker, and the run's outcome for ``dev.py test``'s summary.

``@pytest.mark.needs("nginx")`` skips a test before its fixtures start, naming the Debian
package, where the program is missing or too old (tests/programs.py has the list). With
``EIGHTS_TEST_REPORT=FILE`` the run writes its counts and its skips, grouped by reason, to
FILE as JSON."""

from __future__ import annotations

import json
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from tests import programs

REPORT_VARIABLE = "EIGHTS_TEST_REPORT"
FIXTURE_NEEDS = {
    "cluster_nodes": "redis-server",  # tests/redis_cluster.py
    "nginx": "nginx",  # tests/test_deploy_files.py
    "certificate": "openssl",  # tests/test_deploy_files.py
    "chromium": "chromium",  # tests/browser/conftest.py
}
"""Fixtures that run a system program: a test using one (directly or through another
fixture) is marked as needing it, so it is skipped before any fixture starts."""
OUTCOMES = ("passed", "failed", "error", "skipped", "xfailed", "xpassed")


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        f"{programs.MARKER}(command, ...): skipped, naming the Debian package, without "
        "each system program (tests/programs.py)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        used = getattr(item, "fixturenames", ())
        for fixture, command in FIXTURE_NEEDS.items():
            if fixture in used:
                item.add_marker(pytest.mark.needs(command))


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    for mark in item.iter_markers(programs.MARKER):
        for command in mark.args:
            if programs.find(command) is None:
                pytest.skip(programs.missing_reason(command))


def skip_reason(report: pytest.TestReport) -> str:
    """A skipped report's sentence, without pytest's ``Skipped: `` prefix."""
    longrepr: Any = report.longrepr
    text = longrepr[2] if isinstance(longrepr, tuple) else str(longrepr)
    return str(text).removeprefix("Skipped: ")


def pytest_terminal_summary(terminalreporter: Any) -> None:
    target = os.environ.get(REPORT_VARIABLE)
    if not target:
        return
    stats = terminalreporter.stats
    counts = {outcome: len(stats.get(outcome, [])) for outcome in OUTCOMES}
    reasons = Counter(skip_reason(report) for report in stats.get("skipped", []))
    Path(target).write_text(json.dumps({"counts": counts, "skipped": dict(reasons)}))
