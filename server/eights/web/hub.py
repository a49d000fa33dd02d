"""Fan-out: the devices connected to this process, the rooms they sit in, and what each
is sent after every change, from whichever process made it (Redis pub/sub carries the
news). What it starts and wakes later (the computer's moves, the clocks) is in ``timers``.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisError

from eights.rooms import (
    Change,
    DamagedRoom,
    Repeat,
    Room,
    RoomError,
    room_error,
)
from eights.rooms.presence import watchers_of
from eights.rooms.state import PublicLogs, StateParts, state_parts
from eights.storage import STORAGE_ERRORS, Client, News, channel, open_news

from .authority import Loaded
from .device import CLOSE_UNAUTHORISED, Device
from .reactions import NEWS_MARK, answer_after, heard_reaction, reaction_message
from .service import TableService
from .timers import Timers

log = logging.getLogger("eights.hub")

HUB_CHANNEL = "eights:hub"
PRESENCE_MS = 60_000
"""A socket counts as connected this long after its last heartbeat."""
HEARTBEAT_SECONDS = 20.0
WATCH = -1
"""The key of a spectator's state in its device's ``sent`` (it holds no seat)."""
CLOSE_NO_SPECTATORS = 4403
"""The table stopped letting people watch (or never did): the spectator is closed."""
CLOSE_RESTART = 1012
"""Service restart: the device reconnects (to another process, or this one restarted)."""
STOP_SECONDS = 1.0
"""How long the devices together get to take their last messages when the server stops."""
END_SECONDS = 0.25
"""How long the news connection, then the hub's tasks, get to end when the hub closes."""

__all__ = ["CLOSE_NO_SPECTATORS", "CLOSE_RESTART", "CLOSE_UNAUTHORISED", "Device", "Hub"]


class Hub:
    def __init__(
        self,
        redis: Client,
        service: TableService,
        *,
        bot_delay: float | None = None,
        away_wait: float | None = None,
    ) -> None:
        self.redis = redis
        self.service = service
        self.bot_delay = bot_delay
        self.away_wait = away_wait
        """Seconds of every away limit, in place of the table's (tests); None: the table's."""
        self.rooms: dict[str, set[Device]] = {}
        self.presence: dict[str, set[int]] = {}
        self._locks: dict[str, asyncio.Lock] = {}
        self._tasks: set[asyncio.Task[Any]] = set()
        self.logs = PublicLogs()
        self.shown: dict[str, tuple[int, str, StateParts]] = {}
        """token -> what its devices here were last pushed (version, presence, parts): a
        device that holds it is sent a patch, when it asked for patches."""
        self._pubsub: News | None = None
        self._news_lock = asyncio.Lock()
        """One subscription change at a time on the news connection."""
        self.stopping = False
        """Set when the server stops: no new sockets, no new actions from open ones."""
        self._closed = False
        self.timers = Timers(
            service,
            spawn=self._spawn,
            after_change=self.after_change,
            closed=lambda: self._closed,
            bot_delay=bot_delay,
            away_wait=away_wait,
        )
        service.on_change = self.changed

    # ---- life --------------------------------------------------------------------------
    async def start(self) -> None:
        self._pubsub = await open_news(self.redis)  # sharded on a cluster that has it
        await self._pubsub.subscribe(HUB_CHANNEL)
        self._spawn(self._listen())
        self._spawn(self._heartbeat())
        self._spawn(self.service.thinkers.start())  # before the first hint or computer move

    def devices(self) -> list[Device]:
        return [device for devices in self.rooms.values() for device in devices]

    def device_counts(self) -> tuple[int, int]:
        """Sockets attached here: players' and spectators'."""
        watching = players = 0
        for devices in self.rooms.values():
            for device in devices:
                if device.watching:
                    watching += 1
                else:
                    players += 1
        return players, watching

    async def shutdown(self, seconds: float = STOP_SECONDS) -> None:
        """Tell every device to reconnect: once the messages being carried out have been
        answered, a ``shutting_down`` error after what is queued, then close code 1012;
        all at once, and bounded: the slow are dropped."""
        self.stopping = True
        loop = asyncio.get_running_loop()
        give_up = loop.time() + seconds
        devices = self.devices()
        busy = [asyncio.ensure_future(d.idle()) for d in devices if d.handling]
        if busy:  # a move being stored gets its answer before the goodbye
            _, late = await asyncio.wait(busy, timeout=seconds / 2)
            for waiting in late:
                waiting.cancel()
        devices = self.devices()
        for device in devices:
            device.send({"type": "error", **room_error("shutting_down").to_json()})
            device.close_after_send(CLOSE_RESTART, b"service restart")
        writers = {d.writer: d for d in devices if d.writer is not None and not d.writer.done()}
        if writers:
            _, late = await asyncio.wait(writers, timeout=max(0.0, give_up - loop.time()))
            for writer in late:
                writers[writer].drop()

    async def close(self) -> None:
        """Bounded, whatever a task does: the news connection is closed first (a task
        reading it does not always answer a cancel at once), then every task cancelled."""
        if not self.stopping:
            await self.shutdown()
        self._closed = True
        tasks = list(self._tasks)
        for task in tasks:
            task.cancel()
        if self._pubsub is not None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._pubsub.aclose(), END_SECONDS)
        if tasks:
            await asyncio.wait(tasks, timeout=END_SECONDS)

    def _spawn(self, coro: Any) -> asyncio.Task[Any]:
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[Any]) -> None:
        """A background task's failure in one line (storage away: a warning, and nothing
        once the hub is closing), never "Task exception was never retrieved"."""
        self._tasks.discard(task)
        if task.cancelled() or (error := task.exception()) is None:
            return
        what = getattr(task.get_coro(), "__qualname__", "a background task")
        if isinstance(error, STORAGE_ERRORS):
            if not self._closed:
                log.warning("storage unavailable in %s", what)
            return
        log.error("%s failed", what, exc_info=error)

    # ---- devices -----------------------------------------------------------------------
    async def attach(self, device: Device) -> None:
        token = device.token
        devices = self.rooms.setdefault(token, set())
        first = not devices
        devices.add(device)  # before any await: a detach meanwhile must see it here
        if first:
            await self._follow(channel(token))
        now = self.service.clock()
        for member in device.members():
            self.presence[token] = await self.service.store.presence(
                token, member, now + PRESENCE_MS, now
            )
        if device.seats and await self.service.back(token, device.seats) is not None:
            await self.after_change(token)  # the computer stops playing for them
        await self.refresh(token, rearm=True)

    async def detach(self, device: Device) -> None:
        """Take a closed device off its room, to the end even when the socket's handler is
        cancelled meanwhile (a lost connection): otherwise the room would stay listed here
        and its seat marked present until the presence lapsed."""
        device.close()
        await asyncio.shield(self._spawn(self._detach(device)))

    async def _detach(self, device: Device) -> None:
        token = device.token
        devices = self.rooms.get(token, set())
        devices.discard(device)
        now = self.service.clock()
        with contextlib.suppress(Exception):
            for member in device.members():
                self.presence[token] = await self.service.store.presence(token, member, 0, now)
        if not self.rooms.get(token):  # again after the awaits: someone may have arrived
            self.rooms.pop(token, None)
            self.presence.pop(token, None)
            self.logs.forget(token)
            self.shown.pop(token, None)
            with contextlib.suppress(Exception):
                await self._follow(channel(token), follow=False)

    async def connected(self, token: str, *, fresh: bool = False) -> set[int]:
        """The seats connected now (cached while this process hears the room's news)."""
        if not fresh and token in self.rooms and token in self.presence:
            return self.presence[token]
        here = await self.service.store.present(token, self.service.clock())
        if token in self.rooms:
            self.presence[token] = here
        return here

    async def act(
        self, token: str, seat: int, request: dict[str, Any]
    ) -> tuple[Change | Repeat | RoomError | None, Loaded | None]:
        """A seat's action, refused while a player is away (asked of Redis before saying
        so, in case this process has not heard of an arrival yet)."""
        result: Change | Repeat | RoomError | None = None
        loaded: Loaded | None = None
        for fresh in (False, True):
            here = await self.connected(token, fresh=fresh)

            def present(room: Room, here: set[int] = here) -> bool:
                return room.everyone_here(here)

            result, loaded = await self.service.act(token, seat, request, present)
            if not (isinstance(result, RoomError) and result.code == "opponent_away"):
                break
        return result, loaded

    # ---- news --------------------------------------------------------------------------
    async def _listen(self) -> None:
        assert self._pubsub is not None
        while not self._closed:  # a closed pub/sub is not a dropped connection
            try:
                async for name, data in self._pubsub.messages():
                    token = name.split("{", 1)[-1].split("}", 1)[0]
                    if data == "p":
                        self.presence[token] = await self.service.store.present(
                            token, self.service.clock()
                        )
                        self._spawn(self.refresh(token))
                    elif data.startswith("v") and data[1:].isdigit():
                        self.heard(token, int(data[1:]))
                    elif data.startswith(NEWS_MARK):
                        self.reacted(token, data)
                return
            except asyncio.CancelledError:
                raise
            except Exception:  # the connection dropped: resubscribe and go on
                if self._closed:
                    return
                log.warning("lost the news connection; reconnecting", exc_info=True)
                await asyncio.sleep(1.0)  # back-off before reconnecting, not a test sync
                try:
                    async with self._news_lock:
                        channels = [channel(t) for t in self.rooms]
                        await self._pubsub.resubscribe([HUB_CHANNEL, *channels])
                except Exception:
                    continue  # Redis still away: listen fails again and this waits again
                for token in list(self.rooms):  # news may have been missed meanwhile
                    self._spawn(self.refresh(token))

    async def _follow(self, name: str, *, follow: bool = True) -> None:
        """Subscribe to a room's news (or leave it), one such call at a time (each may have
        to open the news connection again; two handshakes at once would mix their answers).
        Any refusal from Redis is Redis unavailable (the device is told so and comes back),
        never a crash."""
        pubsub = self._pubsub
        if pubsub is None:
            return
        async with self._news_lock:
            try:
                if follow:
                    await pubsub.subscribe(name)
                else:
                    await pubsub.unsubscribe(name)
            except RedisError as exc:
                if isinstance(exc, STORAGE_ERRORS):
                    raise
                raise RedisConnectionError(f"the news connection failed: {exc}") from exc

    def heard(self, token: str, version: int) -> None:
        """News of ``version``: nothing to do when every device here holds it already (a
        change made here was pushed at once); when this process is storing that version
        itself, look again once its save ends; else read the room and push it."""
        if self.holds(token, version):
            return
        saving = self.service.writing(token, version)
        if saving is not None and not saving.done():
            saving.add_done_callback(lambda _: self.heard(token, version))
            return
        self._spawn(self.refresh(token, version=version))

    def reacted(self, token: str, data: str) -> None:
        """A reaction's news: every device of the room here is sent it, players and
        spectators alike (a spectator is only here while the table may be watched)."""
        heard = heard_reaction(data)
        if heard is None:
            return
        message = reaction_message(*heard)
        for device in list(self.rooms.get(token, ())):
            device.send(message)

    def holds(self, token: str, version: int) -> bool:
        """Every device of the room here was sent ``version`` or later."""
        for device in self.rooms.get(token, ()):
            for seat in (WATCH,) if device.watching else device.seats:
                if device.sent.get(seat, (0, ""))[0] < version:
                    return False
        return True

    def changed(self, loaded: Loaded) -> None:
        """The room as a change made in this process left it: pushed to the devices here
        at once (just after the answer to the device that made it, as docs/protocol.md
        says), and its computer move or clock started."""
        asyncio.get_running_loop().call_soon(self._changed, loaded)

    def _changed(self, loaded: Loaded) -> None:
        token = loaded.room.token
        here = self.presence.get(token)
        if here is not None and token in self.rooms:
            self.push(loaded, here)
            self.timers.watch_away(loaded, here)
        self.schedule(loaded)

    async def _heartbeat(self) -> None:
        """Keep this process's sockets marked present."""
        while True:
            await asyncio.sleep(HEARTBEAT_SECONDS)  # a periodic chore, not a test sync
            now = self.service.clock()
            for token, devices in list(self.rooms.items()):
                for device in list(devices):
                    for member in device.members():
                        with contextlib.suppress(Exception):
                            await self.service.store.presence(token, member, now + PRESENCE_MS, now)

    async def refresh(self, token: str, *, version: int = 0, rearm: bool = False) -> None:
        """Send every local device of the room its seats' state, if it changed."""
        lock = self._locks.setdefault(token, asyncio.Lock())
        async with lock:
            try:
                if version:
                    loaded = await self.service.at_least(token, version)
                else:
                    loaded = await self.service.load(token)
            except DamagedRoom:
                return  # logged where it was read; the devices were told when they asked
            if loaded is None:
                return
            here = self.presence.get(token)
            if here is None:
                here = await self.connected(token)
            self.push(loaded, here)
            room = loaded.room
            overdue = room.deadline is not None and room.deadline <= self.service.clock()
            if rearm and overdue and room.everyone_here(here):
                self._spawn(self.timers.rearm(token))
            self.timers.watch_away(loaded, here)
            self.schedule(loaded)
        if not self.rooms.get(token):
            self._locks.pop(token, None)

    def push(self, loaded: Loaded, here: set[int]) -> None:
        """Send each device of the room here its seats' state, where it has not had this
        version with this presence yet. The public parts are built once for all of them."""
        room = loaded.room
        mark = ",".join(map(str, sorted(here))) + f"/{watchers_of(here)}"
        due: list[tuple[Device, int]] = []
        watchers: list[Device] = []
        before: dict[tuple[int, int], tuple[int, str] | None] = {}
        for device in list(self.rooms.get(room.token, ())):
            if device.watching:
                if not room.watching:
                    device.send({"type": "error", **room_error("no_spectators").to_json()})
                    device.close_after_send(CLOSE_NO_SPECTATORS)
                    continue
                if _due(device.sent.get(WATCH), room.version, mark):
                    device.sent[WATCH] = (room.version, mark)
                    watchers.append(device)
                continue
            if any(room.seats[s].nonce != device.nonces.get(s) for s in device.seats):
                device.send({"type": "error", **room_error("bad_credential").to_json()})
                device.close_after_send(CLOSE_UNAUTHORISED)
                continue
            for seat in device.seats:
                sent = device.sent.get(seat)
                if not _due(sent, room.version, mark):
                    continue
                before[(id(device), seat)] = sent
                device.sent[seat] = (room.version, mark)
                due.append((device, seat))
        if not due and not watchers:
            return
        parts = state_parts(room, loaded.position, here, self.logs)
        shown = self.shown.get(room.token)
        now = self.service.clock()
        for device in watchers:
            device.send_encoded(parts.watched(now), WATCH)
        for device, seat in due:
            message = None
            if (
                device.patches
                and shown is not None
                and before.get((id(device), seat)) == shown[:2]
                and not device.queued(seat)
            ):
                message = parts.patch(shown[2], seat, now)
            device.send_encoded(parts.state(seat, now) if message is None else message, seat)
            answer_after(device, loaded, before.get((id(device), seat)))
        self.shown[room.token] = (room.version, mark, parts.kept())

    # ---- the computer and the clock ----------------------------------------------------
    def schedule(self, loaded: Loaded) -> None:
        """Start the computer's move or the turn clock for this version, once (``timers``)."""
        self.timers.schedule(loaded)

    async def after_change(self, token: str) -> None:
        """A change made here: local devices hear of it through the room's news; rooms
        nobody here watches still need their computer moves and clocks started."""
        if token not in self.rooms:
            loaded = self.service.cached(token)
            if loaded is not None:
                self.schedule(loaded)


def _due(sent: tuple[int, str] | None, version: int, mark: str) -> bool:
    """Whether a device that was last sent ``sent`` (version, presence) is due the room at
    ``version`` with the presence ``mark``: not when it has that, or a newer version."""
    return sent is None or (sent[0] <= version and sent != (version, mark))
