"""What the computer thinks, as a pure function of JSON: a question (a seat's view as a
device receives it, and who asks) in, an answer out.

The server asks it in worker processes (``web/thinkers.py``), so that no search ever runs
on the event loop; the answer is then applied to the room by compare-and-set at the version
the view was made for. Three questions: ``move`` (a computer seat's action), ``bridge``
(101: does the computer seat whose move just made a bridge declare it) and ``hint`` (what
Hard would do in a person's seat, and why). Each answer says how much CPU it took and
whether a search's safety clock cut it short.
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from typing import Any, Literal

from eights.rules import Action, SeatView
from eights.rules.actions import parse_seatless_action

from .hint import hint
from .hundred_choice import declares
from .levels import make_bot
from .runner import decide, declares_bridge

Kind = Literal["move", "bridge", "hint"]
KINDS: tuple[Kind, ...] = ("move", "bridge", "hint")


@dataclass(frozen=True)
class Question:
    """What is asked of the computer: the kind, the level and private seed of the seat's
    bot (a hint is always Hard's judgement), and the seat's view as JSON."""

    kind: Kind
    view: dict[str, Any]
    level: str = "medium"
    seed: str = ""

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "view": self.view, "level": self.level, "seed": self.seed}


@dataclass(frozen=True)
class Answer:
    """The computer's answer: an action (``move``), a yes or no (``bridge``), or a hint's
    action and sentence (``hint``; None: nothing to hint)."""

    action: Action | None = None
    declares: bool | None = None
    hint: dict[str, Any] | None = None
    cpu_seconds: float = 0.0
    cut: bool = False
    """A search's safety clock ended it before its fixed number of playouts."""
    fallback: bool = False
    """Medium's quick choice, given because the worker did not answer in time."""

    def to_json(self) -> dict[str, Any]:
        return {
            "action": None if self.action is None else self.action.to_json(),
            "declares": self.declares,
            "hint": self.hint,
            "cpu_seconds": self.cpu_seconds,
            "cut": self.cut,
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Answer:
        action = data.get("action")
        return cls(
            action=None if action is None else parse_seatless_action(action),
            declares=data.get("declares"),
            hint=data.get("hint"),
            cpu_seconds=float(data.get("cpu_seconds", 0.0)),
            cut=bool(data.get("cut", False)),
        )


def think(question: dict[str, Any]) -> dict[str, Any]:
    """The answer to ``question`` (``Question.to_json``), as JSON: what a worker runs."""
    started = time.process_time()
    kind = question["kind"]
    view = SeatView.from_json(question["view"])
    bot = make_bot(question.get("level") or "medium", question.get("seed", ""))
    if kind == "move":
        answer = Answer(action=decide(bot, view))
    elif kind == "bridge":
        answer = Answer(declares=declares_bridge(bot, view))
    elif kind == "hint":
        advice = hint(view)
        answer = Answer(hint=None if advice is None else advice.to_json())
    else:
        raise ValueError(f"a question is one of {', '.join(KINDS)}, not {kind!r}")
    cut = getattr(bot, "timeouts", 0) > 0
    spent = time.process_time() - started
    return {**answer.to_json(), "cpu_seconds": spent, "cut": cut}


def quick_answer(question: Question) -> Answer:
    """Medium's choice, made in well under a millisecond with no search: what the table
    plays when a worker did not answer in time (never a hint: that one waits)."""
    view = SeatView.from_json(question.view)
    if question.kind == "move":
        medium = make_bot("medium", question.seed)
        return Answer(action=decide(medium, view), fallback=True)
    if question.kind == "bridge":
        return Answer(declares=declares(view, hard=False), fallback=True)
    return Answer(fallback=True)
