"""Tying a child process to the server's life: on Linux the kernel sends it SIGTERM when
the server dies, even by SIGKILL (``prctl(PR_SET_PDEATHSIG)``), and it creates files
readable by its owner only (umask 077)."""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
from collections.abc import Callable

PR_SET_PDEATHSIG = 1
PR_SET_DUMPABLE = 4
PRIVATE_UMASK = 0o077


def _prctl() -> Callable[..., int] | None:
    """libc's prctl, looked up before the fork (nothing is loaded in the child)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
    except OSError:
        return None
    function = getattr(libc, "prctl", None)
    return function if callable(function) else None


def child_setup() -> Callable[[], None]:
    """A ``preexec_fn`` for the child: umask 077, and SIGTERM when this process dies."""
    prctl = _prctl()
    parent = os.getpid()

    def setup() -> None:
        os.umask(PRIVATE_UMASK)
        if prctl is None:
            return
        prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        if os.getppid() != parent:  # the server died before the signal was armed
            os.kill(os.getpid(), signal.SIGTERM)

    return setup


def parent_death_supported() -> bool:
    return _prctl() is not None


def forbid_inspection() -> bool:
    """Make this process undumpable: another process of the same user can no longer read
    its memory or environment through /proc (nor attach a debugger). A bot from outside,
    run in a child, cannot read the tournament's secrets from its parent so. (Root still
    can: run such bots as an ordinary user.) False where the system has no prctl."""
    prctl = _prctl()
    return prctl is not None and prctl(PR_SET_DUMPABLE, 0, 0, 0, 0) == 0
