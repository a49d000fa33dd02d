"""The bot interface anyone can plug into: ``(SeatView, legal actions) -> Action``."""

from __future__ import annotations

import importlib
import os
import random
import sys
from collections.abc import Sequence
from typing import Protocol

from eights.rules import Action, SeatView


class Bot(Protocol):
    """Chooses one of ``legal`` for the seat whose view this is."""

    def __call__(self, view: SeatView, legal: Sequence[Action]) -> Action: ...


class BotError(ValueError):
    """A bot that cannot be loaded, or that answered with an action not offered to it."""


def load_bot(spec: str) -> Bot:
    """``package.module:function`` -> that callable (a bot from outside the project)."""
    module_name, _, attribute = spec.partition(":")
    if not module_name or not attribute:
        raise BotError(f"a bot from outside is given as module:function, not {spec!r}")
    if os.getcwd() not in sys.path:
        sys.path.append(os.getcwd())  # as docs/bots.md says: the current folder is importable
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise BotError(f"cannot import {module_name}: {exc}") from None
    bot = getattr(module, attribute, None)
    if not callable(bot):
        raise BotError(f"{module_name} has no callable {attribute}")
    return bot  # type: ignore[no-any-return]


def decision_rng(seed: str, view: SeatView) -> random.Random:
    """A random source fixed by the bot's seed and the moment of the hand, so that a bot is a
    pure function of its view: the same view always gets the same answer."""
    table = view.table
    return random.Random(f"{seed}|{table.hand_no}|{len(table.log)}|{view.seat}|{table.draws}")
