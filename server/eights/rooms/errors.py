"""Refusals of the room service as values: a stable code, an HTTP status and a sentence.

The engine's own refusals (``eights.rules.errors``) pass through with status 422 when an
action is not legal now and 400 when it is not an action at all. docs/protocol.md lists
every code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from eights.rules import ERROR_CODES, Rejection

ROOM_ERRORS: dict[str, tuple[int, str]] = {
    "bad_json": (400, "The request body is not a JSON object."),
    "bad_request": (400, "A field of the request is missing or has the wrong type."),
    "bad_options": (422, "The table's variant or options are not valid."),
    "no_credential": (401, "This needs a seat credential."),
    "bad_credential": (401, "The seat credential is not valid for this table."),
    "not_your_seat": (403, "The credential does not hold the seat that is to act."),
    "bad_origin": (403, "Requests must come from this server's own pages."),
    "not_found": (404, "There is nothing at this address."),
    "room_not_found": (404, "This table does not exist, or it expired after a week unused."),
    "table_full": (409, "Every seat at this table is taken."),
    "already_started": (409, "The table has started already."),
    "stale_version": (409, "The table changed before this move arrived."),
    "opponent_away": (409, "Every player must be connected before anyone moves."),
    "not_started": (409, "The game has not started: a seat is still free."),
    "round_not_over": (409, "The round is still being played."),
    "nothing_to_undo": (409, "There is no move of yours to take back."),
    "no_finish": (409, "This table has no finish: its games are played to the end."),
    "bridge_pending": (409, "A bridge may be declared: moves wait until its ten seconds are over."),
    "bridge_too_late": (409, "The ten seconds to declare this bridge are over."),
    "host_stays": (409, "The host cannot leave the table: end the game instead."),
    "table_closed": (409, "The host ended the game at this table."),
    "game_not_over": (409, "The game is still being played: a rematch comes after it."),
    "seat_taken": (409, "That seat at the new table is taken already."),
    "no_spectators": (403, "This table cannot be watched: it is private, or watching is off."),
    "watching_only": (403, "A spectator watches: only ping and sync are answered."),
    "no_hints": (403, "Hints are offered against the computer and in pass and play only."),
    "bad_reaction": (400, "That is not one of the table's reactions."),
    "too_many_reactions": (429, "At most 5 reactions every 10 seconds; wait a moment."),
    "bad_record": (422, "This is not a game record that can be checked."),
    "room_expired": (410, "This table expired after a week without play."),
    "too_large": (413, "The message is larger than the table accepts."),
    "rate_limited": (429, "Too many messages; slow down a little."),
    "too_many_rooms": (429, "Too many new tables from this address today; try again later."),
    "too_many_sockets": (429, "Too many open connections from this address."),
    "room_damaged": (409, "This table's saved game cannot be read; open a new table."),
    "server_full": (503, "The server cannot take new tables just now; try again later."),
    "busy": (503, "The server is busy; try again in a moment."),
    "unavailable": (503, "The table's storage is briefly unavailable; try again in a moment."),
    "shutting_down": (503, "The server is restarting; reconnect in a moment."),
}
"""code -> (HTTP status, the sentence a player is shown when there is no better one)."""


@dataclass(frozen=True)
class RoomError:
    """A refused request. Nothing in the room changed."""

    code: str
    message: str
    status: int

    def to_json(self) -> dict[str, Any]:
        return {"error": self.code, "message": self.message}


def room_error(code: str, message: str | None = None) -> RoomError:
    status, sentence = ROOM_ERRORS[code]
    return RoomError(code, message or sentence, status)


def from_rejection(rejection: Rejection) -> RoomError:
    """An engine refusal as a room error: 400 for malformed, 422 for not legal now."""
    kind = ERROR_CODES[rejection.code][0]
    return RoomError(rejection.code, rejection.message, 400 if kind == "malformed" else 422)
