"""Easy: chooses at random among the legal actions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from eights.rules import Action, SeatView

from .interface import decision_rng


@dataclass(frozen=True)
class Easy:
    seed: str = "easy"

    def __call__(self, view: SeatView, legal: Sequence[Action]) -> Action:
        return decision_rng(self.seed, view).choice(list(legal))
