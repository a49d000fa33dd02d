"""Rooms: the authority over a table. Pure: versions, seats, agreement, the clock.

A room is a document (``room.Room``); everything that can happen to it is a pure function
from (room, position, request) to the room's next version (``change.Change``) or a
``RoomError``, in a module named for it: ``seating``, ``rematch``, ``play``, ``rounds``,
``takeback``, ``computer``, ``timeout``, ``clock``. The caller brings the randomness (seeds,
nonces) and the time; it stores the result with a compare-and-set on the version
(``web.authority``). ``state.device_state`` is the one thing a device is sent. Storage and
the web layer sit on top and import from here.
"""

from .catalogue import catalogue
from .change import Change, Repeat
from .credentials import SeatClaim, SeatSigner, holds
from .errors import ROOM_ERRORS, RoomError, room_error
from .repair import DamagedRoom, Repaired, repair
from .replay import position_of, record_of, rules_of
from .room import Game, Mode, Room, Seat
from .spec import TableSpec, parse_spec
from .state import device_state, encoded_states, public_room

__all__ = [
    "ROOM_ERRORS",
    "Change",
    "DamagedRoom",
    "Game",
    "Mode",
    "Repaired",
    "Repeat",
    "Room",
    "RoomError",
    "Seat",
    "SeatClaim",
    "SeatSigner",
    "TableSpec",
    "catalogue",
    "device_state",
    "encoded_states",
    "holds",
    "parse_spec",
    "position_of",
    "public_room",
    "record_of",
    "repair",
    "room_error",
    "rules_of",
]
