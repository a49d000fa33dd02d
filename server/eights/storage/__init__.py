"""Storage: room documents and presence in Redis, and the embedded Redis."""

from .cluster import Cluster, is_cluster_url
from .datadir import DataDirBusy, private_dir, socket_path, write_private
from .embedded import (
    DEFAULT_FSYNC,
    DEFAULT_MAXMEMORY,
    EmbeddedRedis,
    RedisNotFound,
    redis_server_binary,
)
from .expiry import TTL_SECONDS
from .keys import channel, presence_key, room_key
from .news import News, open_news
from .pool import (
    DEFAULT_POOL,
    DEFAULT_POOL_WAIT,
    STORAGE_ERRORS,
    Client,
    PoolBusy,
    connect,
    health_client,
    memory_use,
)
from .store import RoomStore, Saved

__all__ = [
    "DEFAULT_FSYNC",
    "DEFAULT_MAXMEMORY",
    "DEFAULT_POOL",
    "DEFAULT_POOL_WAIT",
    "STORAGE_ERRORS",
    "TTL_SECONDS",
    "Client",
    "Cluster",
    "DataDirBusy",
    "EmbeddedRedis",
    "News",
    "PoolBusy",
    "RedisNotFound",
    "RoomStore",
    "Saved",
    "channel",
    "connect",
    "health_client",
    "is_cluster_url",
    "memory_use",
    "open_news",
    "presence_key",
    "private_dir",
    "redis_server_binary",
    "room_key",
    "socket_path",
    "write_private",
]
