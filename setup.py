"""Hard's simulator, compiled with mypyc where a C compiler is at hand.

pyproject.toml holds everything else; this file adds only the compiled modules: the
simulator of Hard's search and the card tables it reads (``COMPILED``). They are plain,
typed Python too: where mypyc or a C compiler is missing, or ``EIGHTS_PURE=1``, the same
modules install as Python (about five times slower searches: docs/bots.md). Compiled, a Hard
decision's fixed search fits its CPU budget (docs/performance.md).
"""

from __future__ import annotations

import os

from setuptools import setup

COMPILED = [
    "server/eights/bots/playout.py",
    "server/eights/bots/hundred_playout.py",
    "server/eights/bots/search.py",
    "server/eights/bots/special_playout.py",
    "server/eights/bots/belief.py",
    "server/eights/rules/cards.py",
]


def extensions() -> list[object]:
    if os.environ.get("EIGHTS_PURE", "").strip() not in ("", "0"):
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:  # no mypy in this environment: pure Python
        return []
    try:
        modules = mypycify(COMPILED, opt_level="3", verbose=False)
    except Exception as exc:  # mypy refused the code: pure Python, said once
        print(f"eights: not compiling Hard's simulator ({exc}); it runs as Python")
        return []
    for module in modules:
        module.optional = True  # no C compiler: the module stays Python
    return list(modules)


setup(ext_modules=extensions())
