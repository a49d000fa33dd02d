"""Rooms in Redis: load, create, compare-and-set, presence. One script per change.

A change writes what it changed (``scripts``): the tick, the new actions appended, the
new action ids appended, and the room's fixed part only when that changed. So a move's
write is the size of the move, however long the game.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

import orjson
from redis import Redis as SyncRedis
from redis.commands.core import AsyncScript

from eights.rooms import Room
from eights.rooms.presence import Here, here_of
from eights.rooms.repair import DamagedRoom, read_room
from eights.rooms.room import Stored
from eights.rooms.settle import RECENT_IDS

from . import scripts
from .batch import ScriptBatch
from .cluster import Cluster, ClusterBatch, ClusterScript
from .expiry import TTL_SECONDS
from .keys import (
    LOBBY_KEEP,
    LOBBY_KEY,
    channel,
    ids_key,
    moves_key,
    presence_key,
    room_key,
    room_keys,
)
from .pool import Client

TICK = ("updated", "deadline", "bridge_deadline", "agreed")
"""The fields of a room a move may change besides its actions and ids (with ``version``)."""


@dataclass(frozen=True)
class Saved:
    ok: bool
    gone: bool = False
    """The room expired (or never was) between loading and saving."""


class RoomStore:
    """Room documents and presence in one Redis (or Valkey, or a Redis Cluster)."""

    def __init__(self, redis: Client, ttl: int = TTL_SECONDS) -> None:
        self.redis = redis
        self.ttl = ttl
        self._save: ScriptBatch | ClusterBatch
        self._presence: AsyncScript | ClusterScript
        if isinstance(redis, Cluster):  # each call to the master of its room's slot
            self._save = ClusterBatch(redis, scripts.SAVE)
            self._presence = ClusterScript(redis, scripts.PRESENCE)
        else:
            self._save = ScriptBatch(redis, scripts.SAVE)
            self._presence = redis.register_script(scripts.PRESENCE)

    async def aclose(self) -> None:
        """Stop the batched writes and close their connection."""
        await self._save.aclose()

    async def load(self, token: str) -> Room | None:
        """The stored room, None when there is none, or DamagedRoom when the document
        cannot be read as a room."""
        async with self.redis.pipeline(transaction=True) as pipe:  # one MULTI: one version
            _queue_reads(pipe, token)
            parts = await pipe.execute()
        data = assemble(token, parts)
        if data is None:
            return None
        room = read_room(token, data)
        (_, whole, fixed, _), _, _ = parts
        if whole is None:  # stored in parts: what is stored is known
            actions = len(room.game.actions) if room.game is not None else 0
            room.stored = Stored(_digest(fixed), _game_number(room), actions)
        return room

    async def version(self, token: str) -> int | None:
        raw = await self.redis.hget(room_key(token), "v")
        return None if raw is None else int(raw)

    async def create(self, room: Room) -> bool:
        """Store a new room; False when its token is already taken."""
        code = await self._write(room, None)
        return code == 0

    async def list_public(self, token: str, created_ms: int) -> None:
        """Put a public table in the lobby's list, which keeps the newest ``LOBBY_KEEP``
        and expires a week after the last one was listed."""
        async with self.redis.pipeline(transaction=True) as pipe:
            pipe.zadd(LOBBY_KEY, {token: created_ms})
            pipe.zremrangebyrank(LOBBY_KEY, 0, -LOBBY_KEEP - 1)
            pipe.expire(LOBBY_KEY, self.ttl)
            await pipe.execute()

    async def public_tables(self, now_ms: int, count: int) -> list[str]:
        """The newest ``count`` public tables (tokens), forgetting those older than a
        room lives unused."""
        await self.redis.zremrangebyscore(LOBBY_KEY, "-inf", now_ms - self.ttl * 1000)
        tokens = await self.redis.zrevrange(LOBBY_KEY, 0, count - 1)
        return [t.decode() if isinstance(t, bytes) else str(t) for t in tokens]

    async def unlist(self, tokens: list[str]) -> None:
        """Take tables off the lobby's list (gone, ended or full)."""
        if tokens:
            await self.redis.zrem(LOBBY_KEY, *tokens)

    async def save(self, room: Room, expected: int) -> Saved:
        """Store ``room`` if the stored one is still at ``expected``, and announce it."""
        code = await self._write(room, expected)
        return Saved(ok=code == 0, gone=code == -1)

    async def _write(self, room: Room, expected: int | None) -> int:
        token = room.token
        meta = orjson.dumps(fixed_part(room))
        digest = _digest(meta)
        before = room.stored
        game = room.game
        actions = game.actions if game is not None else []
        number = _game_number(room)
        whole = (
            before is None
            or expected is None
            or before.game != number
            or before.actions > len(actions)
        )
        if whole:
            moves = actions
            ids = sorted(
                ([seat, i, v] for seat, seen in room.recent.items() for i, v in seen),
                key=lambda entry: entry[2],
            )
        else:
            assert before is not None
            moves = actions[before.actions :]
            ids = [
                [seat, i, v] for seat, seen in room.recent.items() for i, v in seen if v > expected
            ]
        tick = orjson.dumps({name: getattr(room, name) for name in TICK})
        args: list[Any] = [
            "" if expected is None else expected,
            room.version,
            self.ttl,
            channel(token),
            meta if whole or before is None or digest != before.meta else b"",
            tick,
            "r" if whole else "a",
            RECENT_IDS * max(1, room.players),
            len(moves),
            *(orjson.dumps(entry) for entry in moves),
            *(orjson.dumps(entry) for entry in ids),
        ]
        code = int(await self._save(room_keys(token), args))
        if code == 0:
            room.stored = Stored(digest, number, len(actions))
        return code

    async def presence(self, token: str, member: str, until_ms: int, now_ms: int) -> Here:
        """Mark ``member`` ("seat:connection") present until ``until_ms`` (0 to leave);
        the seats present afterwards."""
        members = await self._presence(
            keys=room_keys(token),
            args=[member, until_ms, now_ms, self.ttl, channel(token)],
        )
        return here_of(members)

    async def present(self, token: str, now_ms: int) -> Here:
        members = await self.redis.zrangebyscore(presence_key(token), now_ms, "+inf")
        return here_of(members)

    async def announce(self, token: str, news: str) -> None:
        """Tell every process's devices at the room something that is not stored (a
        reaction): on the room's own news channel, SPUBLISH where the cluster has sharded
        pub/sub (the hub listens there), PUBLISH elsewhere. Nothing is written."""
        name = channel(token)
        if isinstance(self.redis, Cluster) and await self.redis.sharded_pubsub():
            await self.redis.spublish(name, news)
        else:
            await self.redis.publish(name, news)

    async def ttls(self, token: str) -> dict[str, int]:
        """Seconds left on each of the room's keys (for tests and operators)."""
        names = ("room", "presence", "moves", "ids")
        return {
            name: int(await self.redis.ttl(key))
            for name, key in zip(names, room_keys(token), strict=True)
        }


def fixed_part(room: Room) -> dict[str, Any]:
    """The room without what a move changes: its actions, ids, tick and version."""
    data = room.to_json()
    for name in (*TICK, "version", "recent"):
        data.pop(name)
    if room.game is not None:
        data["game"] = {k: v for k, v in data["game"].items() if k != "actions"}
    return data


def _game_number(room: Room) -> int | None:
    return None if room.game is None else room.game.number


def _digest(meta: bytes) -> bytes:
    """16 bytes that tell one fixed part from another (kept a room instead of the part:
    ~1.5 KB a room in memory, and orjson's buffer behind it, for nothing)."""
    return hashlib.blake2b(meta, digest_size=16).digest()


def _queue_reads(pipe: Any, token: str) -> None:
    """The reads of a room's stored parts, on a pipeline (redis-py's, either kind)."""
    pipe.hmget(room_key(token), ["v", "d", "m", "t"])
    pipe.lrange(moves_key(token), 0, -1)
    pipe.lrange(ids_key(token), 0, -1)


def assemble(token: str, parts: list[Any]) -> dict[str, Any] | None:
    """The room document from what ``_queue_reads`` read (either form): None when there
    is no room, DamagedRoom when it is not a document."""
    (version, whole, fixed, tick), moves, ids = parts
    if version is None:
        return None
    try:
        if whole is not None:
            data = orjson.loads(whole)
            if not isinstance(data, dict):
                raise DamagedRoom(token, "the document is not an object")
            data["version"] = int(version)
            data.pop("stored", None)
            return data
        data = orjson.loads(fixed)
        tick = orjson.loads(tick)
        if not isinstance(data, dict) or not isinstance(tick, dict):
            raise DamagedRoom(token, "the document is not an object")
        data.update(tick)
        data["version"] = int(version)
        if isinstance(data.get("game"), dict):
            data["game"]["actions"] = [orjson.loads(entry) for entry in moves]
        recent: dict[str, list[list[Any]]] = {}
        for entry in ids:
            seat, seen, made = orjson.loads(entry)
            recent.setdefault(str(seat), []).append([seen, made])
        data["recent"] = recent  # the list is trimmed as rooms.settle trims the room's
        return data
    except (orjson.JSONDecodeError, TypeError, ValueError) as exc:
        raise DamagedRoom(token, f"the document is not JSON: {exc}"[:200]) from None


def stored_document(redis: SyncRedis, token: str) -> dict[str, Any] | None:
    """The room's document as stored, whichever form (for tests and operators)."""
    with redis.pipeline(transaction=True) as pipe:
        _queue_reads(pipe, token)
        return assemble(token, pipe.execute())
