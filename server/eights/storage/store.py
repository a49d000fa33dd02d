"""Rooms in Redis: load, create, compare-and-set, presence. One script per change."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import orjson
from redis.asyncio import Redis

from eights.rooms import Room
from eights.rooms.repair import DamagedRoom, read_room

from . import scripts
from .batch import ScriptBatch
from .keys import TTL_SECONDS, channel, presence_key, room_key


@dataclass(frozen=True)
class Saved:
    ok: bool
    gone: bool = False
    """The room expired (or never was) between loading and saving."""


class RoomStore:
    """Room documents and presence in one Redis (or Valkey, or a Redis Cluster)."""

    def __init__(self, redis: Redis, ttl: int = TTL_SECONDS) -> None:
        self.redis = redis
        self.ttl = ttl
        self._create = redis.register_script(scripts.CREATE)
        self._save = ScriptBatch(redis, scripts.SAVE)
        self._presence = redis.register_script(scripts.PRESENCE)

    async def load(self, token: str) -> Room | None:
        """The stored room, None when there is none, or DamagedRoom when the document
        cannot be read as a room."""
        version, doc = await self.redis.hmget(room_key(token), ["v", "d"])
        if version is None or doc is None:
            return None
        try:
            data = orjson.loads(doc)
        except orjson.JSONDecodeError:
            raise DamagedRoom(token, "the document is not JSON") from None
        return read_room(token, data)

    async def version(self, token: str) -> int | None:
        raw = await self.redis.hget(room_key(token), "v")
        return None if raw is None else int(raw)

    async def create(self, room: Room) -> bool:
        """Store a new room; False when its token is already taken."""
        doc = _dump(room.to_json())
        done = await self._create(keys=[room_key(room.token)], args=[room.version, doc, self.ttl])
        return bool(done)

    async def save(self, room: Room, expected: int) -> Saved:
        """Store ``room`` if the stored one is still at ``expected``, and announce it."""
        token = room.token
        result = await self._save(
            keys=[room_key(token), presence_key(token)],
            args=[expected, room.version, _dump(room.to_json()), self.ttl, channel(token)],
        )
        code = int(result)
        return Saved(ok=code == 0, gone=code == -1)

    async def presence(self, token: str, member: str, until_ms: int, now_ms: int) -> set[int]:
        """Mark ``member`` ("seat:connection") present until ``until_ms`` (0 to leave);
        the seats present afterwards."""
        members = await self._presence(
            keys=[room_key(token), presence_key(token)],
            args=[member, until_ms, now_ms, self.ttl, channel(token)],
        )
        return _seats(members)

    async def present(self, token: str, now_ms: int) -> set[int]:
        members = await self.redis.zrangebyscore(presence_key(token), now_ms, "+inf")
        return _seats(members)

    async def ttls(self, token: str) -> dict[str, int]:
        """Seconds left on each of the room's keys (for tests and operators)."""
        keys = {"room": room_key(token), "presence": presence_key(token)}
        return {name: int(await self.redis.ttl(key)) for name, key in keys.items()}


def _dump(data: dict[str, Any]) -> bytes:
    return orjson.dumps(data)


def _seats(members: list[Any]) -> set[int]:
    seats: set[int] = set()
    for member in members:
        text = member.decode() if isinstance(member, bytes) else str(member)
        head = text.split(":", 1)[0]
        if head.isdigit():
            seats.add(int(head))
    return seats
