"""Everything the web layer may ask of the rooms, in one object: each request is a pure
operation of the rooms layer that the authority (``authority``) runs at the room's version.
The requests are grouped by what they are about, a module each: ``seating``, ``rematch``,
``play``, ``computer``, ``clock``, ``lobby``."""

from __future__ import annotations

from collections.abc import Callable

from eights.rooms import SeatSigner
from eights.storage import RoomStore

from .authority import now_ms
from .clock import TurnClock
from .computer import ComputerTurns
from .lobby import Lobby
from .play import Play
from .rematch import Rematches
from .seating import Seating
from .thinkers import Thinkers


class TableService(Seating, Rematches, Play, ComputerTurns, TurnClock, Lobby):
    """Everything the web layer may ask of the rooms, over one RoomStore."""

    def __init__(
        self,
        store: RoomStore,
        signer: SeatSigner,
        *,
        turn_timer: int = 20,
        cache_size: int = 10_000,
        clock: Callable[[], int] = now_ms,
        timed: Callable[[str, float], None] | None = None,
        thinkers: Thinkers | None = None,
    ) -> None:
        super().__init__(store, signer, cache_size=cache_size, clock=clock, timed=timed)
        self.thinkers = thinkers or Thinkers()
        self.turn_timer = turn_timer
