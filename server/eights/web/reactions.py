"""Quick reactions over the socket: ``react`` from a seat's device, checked
here at the edge and rate-limited per device, then announced on the room's news channel,
so the devices of every process hear it (``hub``). Nothing is stored."""

from __future__ import annotations

from typing import Any

from eights.rooms import Mode, RoomError, room_error
from eights.rooms.reactions import (
    COMPUTER_ANSWER,
    REACTION_LIMIT,
    REACTION_WINDOW_SECONDS,
    computer_answer,
    reaction_of,
)

from .authority import Loaded
from .device import Device
from .inputs import flag, named_seat
from .limits import WindowLimit
from .service import TableService

NEWS_MARK = "r"
"""The first letter of a reaction's news on the room's channel: ``r<seat>:<id>``."""


def reaction_message(seat: int, reaction: str, *, computer: bool = False) -> dict[str, Any]:
    """What every device at the table is sent (docs/protocol.md, ``reaction``)."""
    message: dict[str, Any] = {"type": "reaction", "seat": seat, "reaction": reaction}
    if computer:
        message["computer"] = True
    return message


def news_of(seat: int, reaction: str) -> str:
    return f"{NEWS_MARK}{seat}:{reaction}"


def heard_reaction(data: str) -> tuple[int, str] | None:
    """A reaction's news as (seat, id), or None when it is not one (checked again: the
    channel is ours, but nothing from Redis is trusted more than it must be)."""
    seat, _, reaction = data[len(NEWS_MARK) :].partition(":")
    if not seat.isascii() or not seat.isdigit() or len(seat) > 2:
        return None
    known = reaction_of(reaction)
    return None if known is None else (int(seat), known)


async def react(device: Device, data: dict[str, Any], service: TableService) -> RoomError | None:
    """Check a ``react`` message and announce it; the refusal, if any."""
    reaction = reaction_of(data.get("reaction"))
    if reaction is None:
        return room_error("bad_reaction")
    seat = named_seat(device.seats, data)
    if isinstance(seat, RoomError):
        return seat
    if device.reactions is None:
        device.reactions = WindowLimit(REACTION_LIMIT, REACTION_WINDOW_SECONDS)
    if not device.reactions.take():
        return room_error("too_many_reactions")
    loaded = await service.load(device.token)  # as stored: another process may have ended it
    if loaded is None:
        return room_error("room_not_found")
    if loaded.room.closed:
        return room_error("table_closed")
    await service.store.announce(device.token, news_of(seat, reaction))
    return None


def answers_setting(device: Device, data: dict[str, Any]) -> RoomError | None:
    """``computer_reactions``: the device switches the computer's answers on or off."""
    on = flag(data, "on", None)
    if isinstance(on, RoomError):
        return on
    device.answers = on
    return None


def answer_after(device: Device, loaded: Loaded, before: tuple[int, str] | None) -> None:
    """After a state is sent to ``device``: the computer's "Good game" when this state
    shows a hand that ended since the device was last sent one (never on a first state
    or a reconnection, never twice for one hand), at a table against the computer, when
    the device asked for its answers."""
    room, position, game = loaded.room, loaded.position, loaded.room.game
    if game is None or position is None or position.outcome is None:
        return
    key = f"{game.number}:{len(game.actions)}"
    first = device.answered != key
    device.answered = key
    if not first or before is None or before[0] >= room.version:
        return
    if device.answers and room.mode is Mode.COMPUTER:
        seat = computer_answer(room, game)
        if seat is not None:
            device.send(reaction_message(seat, COMPUTER_ANSWER, computer=True))


__all__ = ["answer_after", "answers_setting", "heard_reaction", "react"]
