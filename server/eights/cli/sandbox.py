"""A bot from outside the project, in a child process of its own: it is sent its seat's
view as JSON and answers an action, within a time limit. It never shares a process with
the game: no frame, object or secret of the tournament is in its memory to find.

    python -m eights.cli.sandbox package.module:function   # the child (the tournament starts it)

One JSON line each way. To the child ``{"view": SeatView.to_json()}`` (the legal actions
are in the view) or ``{"bridge": SeatView.to_json()}`` (101: does it declare?); from the
child ``{"action": {...}}``, ``{"declares": true|false|null}`` or ``{"error": "..."}``.
"""

from __future__ import annotations

import json
import os
import select
import subprocess
import sys
import time
from collections.abc import Sequence
from typing import IO, Any

from eights.rules import Action, SeatView, parse_seatless_action
from eights.storage.lifetime import child_setup

DECISION_SECONDS = 2.0
"""How long a bot from outside has for one decision before its move is made for it (the
first legal action) and the child is started again."""
START_SECONDS = 20.0
"""How long the child has to import its bot and say it is ready."""
KEPT_ENVIRONMENT = ("PATH", "LANG", "LC_ALL", "HOME", "TMPDIR", "SYSTEMROOT")
"""The only variables the child inherits: no secret the tournament was given reaches it."""


class SandboxError(RuntimeError):
    """The child could not load its bot, or stopped answering for good."""


class SandboxedBot:
    """A ``Bot`` (``(view, legal) -> Action``) answered by a child process."""

    def __init__(self, spec: str, *, seconds: float = DECISION_SECONDS) -> None:
        self.spec = spec
        self.seconds = seconds
        self.timeouts = 0
        """Decisions the bot did not make in time (its move was made for it)."""
        self.failures = 0
        """Decisions where the bot raised an error (its move was made for it too)."""
        self._child: subprocess.Popen[bytes] | None = None
        self._start()

    def _start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k in KEPT_ENVIRONMENT}
        env["PYTHONPATH"] = os.pathsep.join(p for p in sys.path if p)
        self._child = subprocess.Popen(
            [sys.executable, "-m", "eights.cli.sandbox", self.spec],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
            cwd=os.getcwd(),
            preexec_fn=child_setup(),
        )
        ready = self._read(START_SECONDS)
        if ready is None or "error" in ready:
            self.close()
            why = "no answer" if ready is None else ready["error"]
            raise SandboxError(f"the bot {self.spec} did not start: {why}")

    def __call__(self, view: SeatView, legal: Sequence[Action]) -> Action:
        answer = self._ask({"view": view.to_json()})
        if answer is None or "action" not in answer:
            if answer is None:
                self.timeouts += 1
            else:
                self.failures += 1
            return legal[0]
        try:
            return parse_seatless_action(answer["action"])
        except Exception:
            return legal[0]  # not an action at all: ``decide`` would refuse it anyway

    def declares_bridge(self, view: SeatView) -> bool | None:
        """Whether the bot declares its bridge (None: it has no opinion; Medium decides)."""
        answer = self._ask({"bridge": view.to_json()})
        declares = None if answer is None else answer.get("declares")
        return declares if isinstance(declares, bool) else None

    def _ask(self, message: dict[str, Any]) -> dict[str, Any] | None:
        child = self._child
        if child is None or child.poll() is not None:
            self._start()
            child = self._child
        assert child is not None
        assert child.stdin is not None
        try:
            child.stdin.write(json.dumps(message).encode() + b"\n")
            child.stdin.flush()
        except BrokenPipeError:
            self.close()
            return None
        answer = self._read(self.seconds)
        if answer is None:  # too slow (or gone): it starts afresh at its next decision
            self.close()
        return answer

    def _read(self, seconds: float) -> dict[str, Any] | None:
        child = self._child
        assert child is not None
        assert child.stdout is not None
        line = _read_line(child.stdout, seconds)
        if line is None:
            return None
        try:
            answer = json.loads(line)
        except ValueError:
            return None
        return answer if isinstance(answer, dict) else None

    def close(self) -> None:
        child, self._child = self._child, None
        if child is None:
            return
        if child.poll() is None:
            child.kill()
        child.wait(5)
        for pipe in (child.stdin, child.stdout):
            if pipe is not None:
                pipe.close()


def _read_line(pipe: IO[bytes], seconds: float) -> bytes | None:
    """One line from ``pipe`` within ``seconds``, or None (bounded by the deadline)."""
    fd = pipe.fileno()
    give_up = time.monotonic() + seconds
    line = b""
    while not line.endswith(b"\n"):
        left = give_up - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if not ready:
            return None
        chunk = os.read(fd, 65536)
        if not chunk:
            return None
        line += chunk
    return line


def child_main(spec: str) -> int:
    """The child: load the bot, then answer one line for each line until stdin closes.
    Whatever the bot prints goes to stderr: stdout carries the answers only."""
    from eights.bots.interface import BotError, load_bot

    answers = os.fdopen(os.dup(sys.stdout.fileno()), "w", buffering=1)
    sys.stdout = sys.stderr
    try:
        bot = load_bot(spec)
    except BotError as exc:
        answers.write(json.dumps({"error": str(exc)}) + "\n")
        return 2
    answers.write(json.dumps({"ready": True}) + "\n")
    for line in sys.stdin:
        answers.write(json.dumps(_answer(bot, line)) + "\n")
    return 0


def _answer(bot: Any, line: str) -> dict[str, Any]:
    try:
        message = json.loads(line)
        if "bridge" in message:
            ask = getattr(bot, "declares_bridge", None)
            view = SeatView.from_json(message["bridge"])
            return {"declares": bool(ask(view)) if callable(ask) else None}
        view = SeatView.from_json(message["view"])
        return {"action": bot(view, view.legal).to_json()}
    except Exception as exc:  # the bot's own failure is its answer, not the child's end
        return {"error": f"{type(exc).__name__}: {exc}"[:300]}


if __name__ == "__main__":
    sys.exit(child_main(sys.argv[1]))
