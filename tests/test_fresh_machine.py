"""A fresh machine's path through the suite: in a checkout of this repository with every
program of tests/programs.py hidden from PATH, the suite collects without an error and
each test that needs a hidden program is skipped with a sentence naming its Debian package,
none errors."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests import programs
from tests.needs import REPORT_VARIABLE

ROOT = Path(__file__).resolve().parents[1]
RUN_SECONDS = 300


def _checkout(target: Path) -> Path:
    """The files a clone of the working tree would hold (tracked, and new ones git does not
    ignore), copied: what is under test is this tree, committed or not."""
    listed = subprocess.run(
        ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
        cwd=ROOT, capture_output=True, check=True, timeout=60,
    ).stdout.decode()  # fmt: skip
    for name in filter(None, listed.split("\0")):
        source = ROOT / name
        if source.is_file():  # a file deleted but not yet staged is listed too
            (target / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target / name)
    return target


def _path_without(hidden: set[str], farm: Path) -> str:
    """A PATH of one folder: a link to every command on today's PATH but the hidden ones."""
    farm.mkdir()
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        for entry in os.scandir(folder):
            name = entry.name
            if name in hidden or (farm / name).exists():
                continue
            if entry.is_file() and os.access(entry.path, os.X_OK):
                (farm / name).symlink_to(entry.path)
    return str(farm)


def _pytest(
    checkout: Path, path: str, *args: str, report: Path | None = None
) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PATH": path,
        "PYTHONPATH": os.pathsep.join([str(checkout / "server"), str(checkout)]),
    }
    env.pop("PYTEST_ADDOPTS", None)
    if report is not None:
        env[REPORT_VARIABLE] = str(report)
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-p", "no:cacheprovider", *args],
        cwd=checkout, env=env, capture_output=True, text=True, timeout=RUN_SECONDS,
    )  # fmt: skip


def test_without_the_system_programs_their_tests_skip_by_package_and_none_errors(
    tmp_path: Path,
) -> None:
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("not a git checkout: nothing to clone")
    checkout = _checkout(tmp_path / "checkout")
    hidden = {program.command for program in programs.PROGRAMS}
    path = _path_without(hidden, tmp_path / "bin")
    probe = subprocess.run(
        [sys.executable, "-c", "import shutil, sys; print([shutil.which(c) for c in sys.argv[1:]])",
         *sorted(hidden)],
        env={**os.environ, "PATH": path}, capture_output=True, text=True, check=True, timeout=60,
    )  # fmt: skip
    assert probe.stdout.strip() == repr([None] * len(hidden)), "the programs are not hidden"

    collected = _pytest(checkout, path, "--collect-only", "-q")
    assert collected.returncode == 0, collected.stdout[-3000:] + collected.stderr[-3000:]

    report = tmp_path / "report.json"
    ran = _pytest(checkout, path, "-m", programs.MARKER, "-q", report=report)
    assert ran.returncode == 0, ran.stdout[-3000:] + ran.stderr[-3000:]
    outcome = json.loads(report.read_text())
    counts = outcome["counts"]
    assert counts["skipped"] > 0
    assert counts == {**dict.fromkeys(counts, 0), "skipped": counts["skipped"]}, counts
    reasons = outcome["skipped"]
    assert all("Debian package" in reason for reason in reasons), reasons
    for program in programs.PROGRAMS:
        assert programs.missing_reason(program.command) in reasons, (program.package, reasons)
