#!/usr/bin/env python3
"""Set up and run Eights with nothing but Python 3.11+ and git.

    python3 dev.py start   # install what is needed, then run the main job
    python3 dev.py test    # install what is needed, then lint, type-check and test

Everything Python is installed into ./.venv from the pinned, hash-checked requirements.lock,
and reinstalled only when the lock, pyproject.toml, setup.py or a source setup.py compiles
(Hard's simulator, with mypyc where a C compiler is at hand) changes. ``test`` also installs the
Debian packages some tests run (tests/programs.py lists them) where it runs as root with
apt; elsewhere those tests are skipped, each naming its package.
"""

from __future__ import annotations

import hashlib
import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
import venv
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent
VENV = ROOT / ".venv"
LOCK = ROOT / "requirements.lock"
STAMP = VENV / ".eights-installed"
Outcome = dict[str, Any]
"""A pytest run's counts and skips by reason, as tests/needs.py writes them."""
Results = list[tuple[str, int, Outcome | None]]
"""Each step's name, exit code and (for pytest) outcome, for the summary."""


def _bin(name: str) -> Path:
    folder = "Scripts" if os.name == "nt" else "bin"
    return VENV / folder / name


def _fingerprint() -> str:
    """What the installed environment was made from: the lock, the project's files, and the
    sources setup.py compiles (an edit to one of them rebuilds it)."""
    digest = hashlib.sha256()
    setup = ROOT / "setup.py"
    compiled = re.findall(r'"(server/[^"]+\.py)"', setup.read_text())
    for path in (LOCK, ROOT / "pyproject.toml", setup, *(ROOT / c for c in compiled)):
        digest.update(path.read_bytes())
    return digest.hexdigest()


def _call(*argv: str | Path, env: dict[str, str] | None = None) -> int:
    print("+", " ".join(str(a) for a in argv), flush=True)
    child = subprocess.Popen([str(a) for a in argv], cwd=ROOT, env=env)
    try:
        return child.wait()
    except KeyboardInterrupt:  # Ctrl+C reached the child too: let it stop cleanly
        return child.wait()


def _run(*argv: str | Path) -> None:
    code = _call(*argv)
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


# ---- test ---------------------------------------------------------------------------------


def _programs() -> ModuleType:
    """tests/programs.py, the one list of the system programs the tests use (stdlib only)."""
    path = ROOT / "tests" / "programs.py"
    spec = importlib.util.spec_from_file_location("eights_test_programs", path)
    if spec is None or spec.loader is None:
        sys.exit(f"cannot read {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while it loads
    spec.loader.exec_module(module)
    return module


def install_system_programs() -> None:
    """apt-get install the Debian packages of the listed programs still missing, where this
    runs as root with apt; otherwise say which tests will be skipped, and go on."""
    programs = _programs()
    wanted = [p for p in programs.missing() if p.installed_by_dev]
    if not wanted:
        return
    packages = [p.package for p in wanted]
    can = os.name == "posix" and os.geteuid() == 0 and shutil.which("apt-get") is not None
    if not can:
        print(
            f"not installing {', '.join(packages)} (that needs root and apt-get): the tests "
            "that use them are skipped, each naming its package",
            flush=True,
        )
        return
    for program in wanted:
        print(f"installing {program.package}: {program.why}", flush=True)
    env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    began = time.monotonic()
    for argv in (
        ["apt-get", "update", "-qq"],
        ["apt-get", "install", "-y", "-qq", *packages],
    ):
        done = subprocess.run(argv, env=env, capture_output=True, text=True, check=False)
        if done.returncode:
            print(done.stdout[-2000:] + done.stderr[-2000:], flush=True)
            print(
                f"`{' '.join(argv)}` failed ({done.returncode}): the tests that need "
                f"{', '.join(packages)} are skipped, each naming its package",
                flush=True,
            )
            return
    still = [p.package for p in programs.missing() if p.installed_by_dev]
    took = time.monotonic() - began
    print(
        f"installed {', '.join(packages)} in {took:.0f} s"
        + (f"; still missing or too old: {', '.join(still)}" if still else ""),
        flush=True,
    )


def _pytest(name: str, args: list[str], results: Results) -> None:
    """One pytest run, its outcome (counts and skips by reason) kept for the summary."""
    with tempfile.TemporaryDirectory(prefix="eights-test-report-") as folder:
        report = Path(folder) / "report.json"
        env = {**os.environ, "EIGHTS_TEST_REPORT": str(report)}
        code = _call(_bin("python"), "-m", "pytest", *args, env=env)
        outcome = json.loads(report.read_text()) if report.exists() else None
    results.append((name, code, outcome))


def _summary(results: Results) -> str:
    """Each step's result on one line, then the skips grouped by reason."""
    steps = []
    skipped: dict[str, int] = {}
    for name, code, outcome in results:
        if outcome is None:
            steps.append(f"{name} {'ok' if code == 0 else f'FAILED ({code})'}")
            continue
        counts = outcome["counts"]
        words = [f"{counts[k]} {k}" for k in ("passed", "failed", "error", "skipped") if counts[k]]
        steps.append(f"{name} {', '.join(words) or 'nothing run'}" + ("" if code == 0 else " ✗"))
        for reason, count in outcome["skipped"].items():
            skipped[reason] = skipped.get(reason, 0) + count
    lines = ["dev.py test: " + " · ".join(steps)]
    total = sum(skipped.values())
    lines.append(f"skipped: {total}" + (", by reason:" if total else ""))
    for reason, count in sorted(skipped.items(), key=lambda item: -item[1]):
        lines.append(f"  {count:4d}  {reason}")
    return "\n".join(lines)


def test(extra: list[str]) -> None:
    install_system_programs()
    results: Results = []
    for name, argv in (
        ("ruff", [_bin("ruff"), "check", "server", "tests", "dev.py", "setup.py"]),
        ("format", [_bin("ruff"), "format", "--check", "server", "tests", "dev.py", "setup.py"]),
        ("mypy", [_bin("mypy")]),
    ):
        results.append((name, _call(*argv), None))
    if extra:
        _pytest("pytest", extra, results)
    else:
        # The browser tests' sync Playwright loop and the asyncio tests each get a process.
        _pytest("tests", ["--ignore=tests/browser"], results)
        _pytest("browser", ["tests/browser"], results)
    print("\n" + _summary(results), flush=True)
    failed = [code for _, code, _ in results if code]
    sys.exit(failed[0] if failed else 0)


def main() -> None:
    commands = {"start": start, "test": test}
    if len(sys.argv) < 2 or sys.argv[1] not in commands:
        sys.exit("usage: python3 dev.py start|test [args...]")
    ensure_installed()
    commands[sys.argv[1]](sys.argv[2:])


if __name__ == "__main__":
    main()
