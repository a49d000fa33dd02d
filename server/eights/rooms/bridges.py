"""What the room adds to 101's bridge and to the host's "finish the game": the ten-second
window (the engine needs no clock: a bridge is legal only as the declarer's next action;
the room enforces the seconds), and the stored markers that keep a replay exact.

Stored entries of a game besides ``[seat, action]`` and ``["deal"]``:

- ``["bridge_lapsed", seat]``: the window of ``seat`` closed unused (its ten seconds ran
  out, or the computer chose not to declare). Replayed, the position's ``bridge`` is
  cleared, so the declarer cannot declare later even when the turn comes back to it.
- ``["finished", seat]``: the host (``seat``) finished the game (``engine.finish_game``).
"""

from __future__ import annotations

from typing import Any

from eights.rules import Position, Rules
from eights.rules.engine import finish_game

BRIDGE_SECONDS = 10
BRIDGE_MS = BRIDGE_SECONDS * 1000
LAPSED = "bridge_lapsed"
FINISHED = "finished"
FINISH_VARIANTS = frozenset({"hundred-and-one"})
"""Tables whose text lets the host finish the game (101: "The host may finish the game at
any time"); elsewhere ``finish`` is refused with ``no_finish``."""


def marker(entry: list[Any], kind: str) -> int | None:
    """The seat of a stored ``[kind, seat]`` marker, or None when ``entry`` is another."""
    if len(entry) == 2 and entry[0] == kind and type(entry[1]) is int:
        return int(entry[1])
    return None


def bridge_seat(pos: Position | None) -> int | None:
    """The seat that may declare a bridge now (``pos.bridge``), or None."""
    if pos is None or pos.outcome is not None:
        return None
    bridge = getattr(pos, "bridge", None)
    if bridge is None:
        return None
    if isinstance(bridge, dict):
        return int(bridge["seat"])
    if isinstance(bridge, int):
        return bridge
    return int(bridge.seat)


def close_bridge(pos: Position) -> Position:
    """``pos`` (a copy) with the bridge window closed: nobody may declare it any more."""
    closed = pos.copy()
    if hasattr(closed, "bridge"):
        closed.bridge = None
    return closed


def has_finish(rules: Rules) -> bool:
    """Whether the host may finish a game at this table."""
    return rules.variant in FINISH_VARIANTS


def finish_position(pos: Position) -> Position:
    """The game finished by the host: ``engine.finish_game`` (the round under way is not
    scored, the lowest total wins)."""
    return finish_game(pos).position
