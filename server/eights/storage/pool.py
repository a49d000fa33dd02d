"""The server's Redis clients: a bounded pool whose callers wait (a while) for a free
connection instead of failing at once, and connections that come back after Redis does.
A ``redis+cluster://`` URL gives a Redis Cluster's client instead (``cluster``)."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.asyncio import BlockingConnectionPool, Redis
from redis.asyncio.retry import Retry
from redis.backoff import ExponentialWithJitterBackoff
from redis.exceptions import ClusterDownError, RedisClusterException
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

from .cluster import Cluster, cluster_client, is_cluster_url

DEFAULT_POOL = 64
DEFAULT_POOL_WAIT = 3.0
CONNECT_SECONDS = 2.0
COMMAND_SECONDS = 5.0
"""A command that gets no answer this long (a stopped Redis) fails as unavailable."""
HEALTH_SECONDS = 1.0
HEALTH_CONNECTIONS = 4
"""Health checks' connections to each node of a cluster (checks at once do not fail)."""


Client = Redis | Cluster
"""A single Redis (or Valkey) or a Redis Cluster: the commands the server uses are alike."""

STORAGE_ERRORS = (
    RedisConnectionError,
    RedisTimeoutError,
    ConnectionError,
    TimeoutError,
    RedisClusterException,
    ClusterDownError,
)
"""Redis away (restarting, unreachable, not answering) or every connection busy; on a
cluster also no node reachable, a slot not covered, or a failover under way: the request
is refused with a 503 and may be tried again."""


class PoolBusy(RedisConnectionError):
    """Every connection of the pool stayed in use for the whole wait: the server is busy
    (Redis itself may be fine)."""


class WaitingPool(BlockingConnectionPool):
    """redis-py's blocking pool, telling a wait that ran out (``PoolBusy``) apart from a
    Redis that cannot be reached."""

    async def get_connection(self, command_name: Any = None, *keys: Any, **options: Any) -> Any:
        try:
            return await super().get_connection()  # type: ignore[no-untyped-call]
        except RedisConnectionError as exc:
            if isinstance(exc.__cause__, asyncio.TimeoutError) and not isinstance(exc, PoolBusy):
                raise PoolBusy("every Redis connection stayed busy") from exc
            raise


def _retry() -> Retry:
    """A dropped connection is opened again at once, a few times, backing off briefly:
    a restarting Redis costs a request a fraction of a second, not an error."""
    return Retry(ExponentialWithJitterBackoff(cap=0.5, base=0.05), retries=3)


def connect(url: str, *, size: int = DEFAULT_POOL, wait: float = DEFAULT_POOL_WAIT) -> Client:
    """A client of ``url`` with at most ``size`` connections for commands, plus one for
    the hub's pub/sub (which keeps its connection for good); on a cluster, ``size`` to
    each node (the hub's pub/sub connections are its own)."""
    if is_cluster_url(url):
        return cluster_client(
            url,
            size=size,
            connect_seconds=CONNECT_SECONDS,
            command_seconds=COMMAND_SECONDS,
            retry=_retry(),  # each attempt reads the slot map again first
        )
    pool = WaitingPool.from_url(
        url,
        max_connections=size + 1,
        timeout=wait,
        retry=_retry(),
        socket_connect_timeout=CONNECT_SECONDS,
        socket_timeout=COMMAND_SECONDS,
        health_check_interval=30,
    )
    return Redis.from_pool(pool)


def health_client(url: str) -> Client:
    """One connection of its own for health checks (one to each node of a cluster), so
    that a busy pool does not make a healthy process look dead to its supervisor."""
    if is_cluster_url(url):
        return cluster_client(  # a node's client refuses at once when all are busy: a few
            url,
            size=HEALTH_CONNECTIONS,
            connect_seconds=HEALTH_SECONDS,
            command_seconds=HEALTH_SECONDS,
            retry=Retry(ExponentialWithJitterBackoff(cap=0.1, base=0.01), retries=1),
        )
    pool = WaitingPool.from_url(
        url,
        max_connections=1,
        timeout=HEALTH_SECONDS,
        retry=Retry(ExponentialWithJitterBackoff(cap=0.1, base=0.01), retries=1),
        socket_connect_timeout=HEALTH_SECONDS,
        socket_timeout=HEALTH_SECONDS,
    )
    return Redis.from_pool(pool)


async def memory_use(client: Client) -> list[tuple[int, int]]:
    """``(used_memory, maxmemory)`` of the Redis, or of each master of a cluster (a full
    master refuses the writes of its slots, however empty the others)."""
    if isinstance(client, Cluster):
        answers = await client.info("memory", target_nodes=Cluster.PRIMARIES)
        by_node = all(isinstance(a, dict) for a in answers.values())  # one master: its own
        infos = list(answers.values()) if by_node else [answers]
    else:
        infos = [await client.info("memory")]
    return [(int(i.get("used_memory", 0)), int(i.get("maxmemory", 0))) for i in infos]
