"""The system programs some tests use, pip cannot bring, and Debian can: one list, read by
``dev.py test`` (which installs what is missing where it may) and by the tests (which skip,
naming the package, where a program is still missing). Standard library only: dev.py reads
this file before the project's virtual environment exists."""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
from dataclasses import dataclass

MARKER = "needs"
"""``@pytest.mark.needs("nginx")``: the test is skipped, naming the package, without it."""


@dataclass(frozen=True)
class Program:
    """A command some tests run, the Debian package that brings it, and why they need it."""

    command: str
    package: str
    why: str
    minimum: tuple[int, ...] = ()
    """The oldest version that will do; an older one counts as missing."""
    installed_by_dev: bool = True
    """Whether ``dev.py test`` installs it (where it runs as root with apt)."""


PROGRAMS: tuple[Program, ...] = (
    Program("chromium", "chromium", "the browser tests drive Debian's Chromium with Playwright"),
    Program("zbarimg", "zbar-tools", "a browser test decodes the invitation's QR code with it"),
    Program(
        "redis-server",
        "redis-server",
        "the cluster tests start a three-master Redis Cluster (7 or newer: sharded pub/sub)",
        minimum=(7,),
    ),
    Program("nginx", "nginx", "the proxy tests run deploy/'s nginx site in front of two servers"),
    Program("openssl", "openssl", "the proxy tests make a throwaway TLS certificate with it"),
    Program(
        "firefox-esr",
        "firefox-esr",
        "the engine smoke tests (tests/engines/) drive Firefox over WebDriver BiDi",
    ),
    Program(
        "WebKitWebDriver",
        "webkit2gtk-driver",
        "the engine smoke tests (tests/engines/) drive WebKit's MiniBrowser through it",
    ),
    Program(
        "Xvfb", "xvfb", "WebKit's MiniBrowser (the engine smoke tests) draws on a virtual display"
    ),
    Program(
        "systemd-analyze",
        "systemd",
        "a deploy test checks the unit files with it (never installed: a machine's init "
        "is not the tests' to change)",
        installed_by_dev=False,
    ),
)
BY_COMMAND = {program.command: program for program in PROGRAMS}


@functools.lru_cache(maxsize=32)
def _version(path: str) -> tuple[int, ...]:
    """The first dotted version the program prints for ``--version`` (``v=7.0.15`` …)."""
    try:
        done = subprocess.run(
            [path, "--version"], capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return ()
    found = re.search(r"(\d+)\.(\d+)(?:\.(\d+))?", done.stdout + done.stderr)
    if found is None:
        return ()
    return tuple(int(part) for part in found.groups() if part is not None)


def find(command: str) -> str | None:
    """The program's path on ``PATH``, or None where it is not there or too old. Only PATH
    is searched, so hiding a program from PATH hides it from every test."""
    program = BY_COMMAND[command]
    path = shutil.which(command, path=os.environ.get("PATH", os.defpath))
    if path is None:
        return None
    if program.minimum and _version(path) < program.minimum:
        return None
    return path


SYSTEM_DIRS = ("/usr/local/sbin", "/usr/sbin", "/sbin")
"""Where Debian puts nginx: on root's PATH, not always on a user's."""


def missing_reason(command: str) -> str:
    """The sentence a skipped test gives: what is missing, its package, and why."""
    program = BY_COMMAND[command]
    aside = shutil.which(command, path=os.pathsep.join(SYSTEM_DIRS))
    if aside is not None:
        return f"{aside} (Debian package {program.package}) is in a folder not on PATH: add it"
    wanted = ".".join(map(str, program.minimum))
    what = f"{command} {wanted} or newer" if program.minimum else command
    how = (
        "python3 dev.py test installs it where it runs as root with apt"
        if program.installed_by_dev
        else "not installed by python3 dev.py test"
    )
    return f"{what} is not installed: Debian package {program.package} ({how})"


def missing() -> list[Program]:
    """The listed programs not found now (absent from PATH, or too old)."""
    return [program for program in PROGRAMS if find(program.command) is None]


def require(command: str) -> str:
    """The program's path, or the test is skipped with :func:`missing_reason`."""
    import pytest  # here, not above: dev.py reads this file before pytest is installed

    path = find(command)
    if path is None:
        pytest.skip(missing_reason(command))
    return path
