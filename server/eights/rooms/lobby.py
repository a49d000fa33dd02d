"""What the lobby says of a public table: whether it is listed (waiting for players, or
playing and watchable) and the public facts shown for it. Never a hand, a seed or a
credential: only what the invitation page already shows."""

from __future__ import annotations

from collections.abc import Set
from typing import Any, Literal

from .room import Room

Listing = Literal["waiting", "playing"]


def listing_of(room: Room) -> Listing | None:
    """Where the lobby lists the table: ``waiting`` while a friend's seat is free before
    the start, ``playing`` while a game is on and may be watched; else not at all."""
    if not room.public or room.closed:
        return None
    if room.game is None:
        return "waiting" if free_seats(room) else None
    return "playing" if room.watching else None


def free_seats(room: Room) -> int:
    """Seats a friend may still take: free ones before the start, the computer's kept
    ones (``open``) after it."""
    if room.game is None:
        return sum(not seat.taken for seat in room.seats)
    return sum(seat.open for seat in room.seats)


def lobby_entry(room: Room, watchers: int) -> dict[str, Any]:
    """One table as the lobby shows it."""
    return {
        "token": room.token,
        "variant": room.variant,
        "players": room.players,
        "free": free_seats(room),
        "house": room.house,
        "seats": [
            {"name": s.name, "kind": s.kind, "taken": s.taken, "open": s.open} for s in room.seats
        ],
        "away_limit": room.away_limit,
        "spectators": watchers,
        "watchable": room.watching,
        "created": room.created,
    }


def people_here(room: Room, connected: Set[int]) -> int:
    """People at the table now: its seats a person holds (not the computer's, nor one the
    computer plays while its person is away) with a device connected."""
    seats = room.seats
    return sum(
        1
        for seat in connected
        if 0 <= seat < len(seats) and seats[seat].kind == "human" and not seats[seat].computer_plays
    )
