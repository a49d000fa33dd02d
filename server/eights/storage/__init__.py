"""Storage: room documents and presence in Redis, and the embedded Redis."""

from .embedded import EmbeddedRedis, RedisNotFound, redis_server_binary
from .keys import TTL_SECONDS, channel, presence_key, room_key
from .store import RoomStore, Saved

__all__ = [
    "TTL_SECONDS",
    "EmbeddedRedis",
    "RedisNotFound",
    "RoomStore",
    "Saved",
    "channel",
    "presence_key",
    "redis_server_binary",
    "room_key",
]
