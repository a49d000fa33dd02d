"""The room document: everything the authority keeps about one table, as a value.

It is stored whole (one JSON document a room) and never sent to a device: the seed, the
nonces and every hand can be worked out from it. ``state.device_state`` is what a
device is sent.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Literal

SeatKind = Literal["human", "bot"]


class Mode(StrEnum):
    ONLINE = "online"
    """Two devices, one seat each: the creator and the first guest who opens the link."""
    LOCAL = "local"
    """Pass and play: one device holds every seat."""
    COMPUTER = "computer"
    """One device and the computer in every other seat."""


@dataclass(slots=True)
class Seat:
    """One chair at the table. A human seat is taken when it has a nonce."""

    kind: SeatKind
    name: str
    nonce: str | None = None
    """Part of the seat's credential; a new nonce revokes every credential issued before."""
    level: str | None = None
    """The computer's level, for a bot seat (and for a person's seat it plays)."""
    open: bool = False
    """A friend's seat the computer keeps until a friend sits down (free at the start,
    or left): the next friend who opens the invitation takes it, with its hand."""
    away: bool = False
    """A person's seat the computer plays while they are away longer than the limit."""
    left: str | None = None
    """The name of the person who left this seat (the computer plays it since)."""

    @property
    def taken(self) -> bool:
        return self.kind == "bot" or self.nonce is not None

    @property
    def computer_plays(self) -> bool:
        """Whether the computer makes this seat's moves (a bot's seat, or an away
        person's)."""
        return self.kind == "bot" or self.away


@dataclass(slots=True)
class Game:
    """One game: its seed, the seats' entropy, who dealt first and every action since."""

    number: int
    seed: str
    entropy: list[str]
    first_dealer: int | None
    """The first hand's dealer, or None where the engine rolls dice for it (101)."""
    actions: list[list[Any]] = field(default_factory=list)
    """``[seat, action]`` for each accepted action, ``["deal"]`` for each next hand."""


@dataclass(frozen=True)
class Stored:
    """How much of a room its stored form holds: the room's fixed part (a digest of it as
    encoded), and the game (its number) and how many of its actions."""

    meta: bytes
    game: int | None
    actions: int


@dataclass(slots=True)
class Room:
    token: str
    version: int
    mode: Mode
    variant: str
    options: dict[str, Any]
    """Overrides of the variant's options, by their documented names."""
    seats: list[Seat]
    next_seed: str
    """The seed of the next game, committed to by its fingerprint before it is dealt."""
    bot_seed: str
    """Private randomness for the computer seats."""
    timer: int | None = None
    """Seconds a seat has for its turn, or None for no clock."""
    speed: str = "normal"
    """How long the computer seems to think."""
    game: Game | None = None
    agreed: list[bool] = field(default_factory=list)
    """Who has asked for the next round (or the next hand) since the last one ended."""
    entropy: list[str] = field(default_factory=list)
    """Each seat's latest contribution to the next deal."""
    history: list[dict[str, Any]] = field(default_factory=list)
    """One entry a finished game, the newest few (``settle.HISTORY``): winners, points and
    the revealed seed."""
    played: int = 0
    """Games finished at this table since it opened."""
    wins: list[int] = field(default_factory=list)
    """Games each seat has won (a tie counts for each winner)."""
    recent: dict[str, list[list[Any]]] = field(default_factory=dict)
    """seat -> the last action ids it sent, each with the version it produced."""
    deadline: int | None = None
    """Epoch milliseconds when the seat to act runs out of time (timer rooms only)."""
    bridge_deadline: int | None = None
    """101: epoch milliseconds when the open bridge window lapses (the seat that laid the
    bridge's fourth card may declare it until then; other seats' moves wait), else None."""
    paused: bool = False
    """Against the computer: the computer waits until the player resumes."""
    created: int = 0
    updated: int = 0
    public: bool = False
    """Listed in the lobby while it waits for players; can be watched once it plays."""
    watchable: bool = True
    """At a public table: whether spectators may watch (the host can switch it off)."""
    away_limit: int | None = None
    """Seconds a person may be away before the computer plays their seat (None: the
    table waits for them)."""
    closed: bool = False
    """The host ended the game: nothing more happens at this table."""
    rematch: str | None = None
    """The token of the new table this one's people were asked to (Rematch), once asked."""
    house: list[dict[str, str]] = field(default_factory=list)
    """How this table differs from its variant's text, in words (``rules.house_notes``);
    fixed when the room is made, shown to every seat."""
    stored: Stored | None = field(default=None, compare=False, repr=False)
    """What the store holds of the version this room was made from (not part of the
    document): lets a save write only what changed. None: write it all."""

    @property
    def players(self) -> int:
        return len(self.seats)

    @property
    def full(self) -> bool:
        return all(seat.taken for seat in self.seats)

    def humans(self) -> list[int]:
        return [i for i, seat in enumerate(self.seats) if seat.kind == "human"]

    def waited_for(self) -> list[int]:
        """The people the table waits for when they are away: every person's seat the
        computer is not playing."""
        return [i for i, seat in enumerate(self.seats) if seat.kind == "human" and not seat.away]

    def everyone_here(self, here: AbstractSet[int]) -> bool:
        """Whether every person the table waits for is connected (``here``: the seats
        connected). At pass and play one device holds every seat: any of them here is
        everyone."""
        waited = self.waited_for()
        if self.mode is Mode.LOCAL:
            return not waited or any(seat in here for seat in waited)
        return all(seat in here for seat in waited)

    @property
    def watching(self) -> bool:
        """Whether spectators may watch now."""
        return self.public and self.watchable

    def to_json(self) -> dict[str, Any]:
        """The document as JSON-able data. Shares the (never mutated) action entries and
        history records instead of copying them: it is built once a move."""
        out = {f.name: getattr(self, f.name) for f in DOCUMENT_FIELDS}
        out["mode"] = self.mode.value
        out["seats"] = [_fields_of(seat, SEAT_FIELDS) for seat in self.seats]
        out["game"] = None if self.game is None else _fields_of(self.game, GAME_FIELDS)
        return out

    def evolve(self, version: int, now: int) -> Room:
        """A copy to change for the next version: every mutable part is fresh, except the
        entries of lists that are only ever appended to (actions, history)."""
        game = self.game
        return dataclasses.replace(
            self,
            version=version,
            updated=now,
            seats=[dataclasses.replace(seat) for seat in self.seats],
            game=None
            if game is None
            else dataclasses.replace(game, actions=list(game.actions), entropy=list(game.entropy)),
            agreed=list(self.agreed),
            entropy=list(self.entropy),
            history=list(self.history),
            wins=list(self.wins),
            recent={seat: list(ids) for seat, ids in self.recent.items()},
            options=dict(self.options),
        )

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Room:
        raw = dict(data)
        raw.pop("stored", None)
        if "played" not in raw:  # stored before the tally: count the games it still lists
            history = raw.get("history") or []
            raw["played"] = len(history)
            raw["wins"] = [
                sum(seat in (h.get("winners") or []) for h in history)
                for seat in range(len(raw["seats"]))
            ]
        raw["mode"] = Mode(raw["mode"])
        raw["seats"] = [Seat(**s) for s in raw["seats"]]
        raw["game"] = None if raw["game"] is None else Game(**raw["game"])
        return cls(**raw)


DOCUMENT_FIELDS = tuple(f for f in dataclasses.fields(Room) if f.name != "stored")
SEAT_FIELDS = tuple(f.name for f in dataclasses.fields(Seat))
GAME_FIELDS = tuple(f.name for f in dataclasses.fields(Game))
"""The fields of the room document (``stored`` is the store's note, not the room's)."""


def _fields_of(value: Seat | Game, names: tuple[str, ...]) -> dict[str, Any]:
    """A seat's or a game's fields as a dict (what ``vars`` gave before they had slots)."""
    return {name: getattr(value, name) for name in names}
