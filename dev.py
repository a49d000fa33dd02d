#!/usr/bin/env python3
"""Set up and run Eights with nothing but Python 3.11+ and git.

    python3 dev.py start   # install what is needed, then run the main job
    python3 dev.py test    # install what is needed, then lint, type-check and test

Everything is installed into ./.venv from the pinned, hash-checked requirements.lock,
and reinstalled only when the lock or pyproject.toml changes.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
import venv
from pathlib import Path

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements.lock"
STAMP = VENV / ".eights-installed"


def _bin(name: str) -> Path:
    folder = "Scripts" if os.name == "nt" else "bin"
    return VENV / folder / name


def _fingerprint() -> str:
    digest = hashlib.sha256()
    for path in (LOCK, ROOT / "pyproject.toml"):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _run(*argv: str | Path) -> None:
    print("+", " ".join(str(a) for a in argv), flush=True)
    child = subprocess.Popen([str(a) for a in argv], cwd=ROOT)
    try:
        code = child.wait()
    except KeyboardInterrupt:  # Ctrl+C reached the child too: let it stop cleanly
        code = child.wait()
    if code:
        sys.exit(code)


def ensure_installed() -> None:
    """Create .venv and install the locked dependencies and the project, if not done yet."""
    if sys.version_info < (3, 11):  # noqa: UP036 - dev.py runs on any python3 first
        sys.exit(f"Eights needs Python 3.11 or newer; this is {sys.version.split()[0]}.")
    if not _bin("python").exists():
        print(f"creating {VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(VENV)
    wanted = _fingerprint()
    if STAMP.exists() and STAMP.read_text() == wanted:
        return
    pip = (_bin("python"), "-m", "pip", "--disable-pip-version-check")
    _run(*pip, "install", "--quiet", "--require-hashes", "-r", LOCK)
    _run(*pip, "install", "--quiet", "--no-deps", "--no-build-isolation", "-e", ROOT)
    STAMP.write_text(wanted)


def start(extra: list[str]) -> None:
    args = extra or ["serve"]
    _run(_bin("eights"), *args)


def test(extra: list[str]) -> None:
    _run(_bin("ruff"), "check", "server", "tests", "dev.py")
    _run(_bin("ruff"), "format", "--check", "server", "tests", "dev.py")
    _run(_bin("mypy"))
    if extra:
        _run(_bin("python"), "-m", "pytest", *extra)
        return
    # The browser tests' sync Playwright loop and the asyncio tests each get a process.
    _run(_bin("python"), "-m", "pytest", "--ignore=tests/browser")
    _run(_bin("python"), "-m", "pytest", "tests/browser")


def main() -> None:
    commands = {"start": start, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: python3 dev.py start|test [args...]")
    ensure_installed()
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
