"""Redis Cluster: ``REDIS_URL=redis+cluster://HOST:PORT`` (any node; the others are found
from its slot map), or ``rediss+cluster://`` for TLS.

Every key of a room carries the room's hash tag, so each room script lands on one node,
and redis-py's cluster client follows MOVED and ASK while slots move. The room's news
channel carries the same hash tag: on Redis 7 and later (and Valkey) the scripts announce
changes with SPUBLISH and the hub listens with SSUBSCRIBE on the node that owns the slot
(``news``); an older cluster keeps PUBLISH and SUBSCRIBE, which the cluster bus carries
to every node.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.asyncio.cluster import RedisCluster
from redis.asyncio.retry import Retry
from redis.commands.core import AsyncScript

CLUSTER_SCHEMES = {"redis+cluster": "redis", "rediss+cluster": "rediss"}
"""REDIS_URL's cluster schemes, and the plain scheme redis-py is given for each."""
SHARDED_SINCE = 7
"""The first Redis major version with sharded pub/sub (SPUBLISH, SSUBSCRIBE)."""


def is_cluster_url(url: str) -> bool:
    return url.split("://", 1)[0].lower() in CLUSTER_SCHEMES


def node_url(url: str) -> str:
    """A cluster URL as redis-py reads it: ``redis+cluster://h:p`` -> ``redis://h:p``."""
    scheme, rest = url.split("://", 1)
    return f"{CLUSTER_SCHEMES[scheme.lower()]}://{rest}"


class Cluster(RedisCluster):
    """redis-py's cluster client, which also knows whether the cluster has sharded
    pub/sub (asked once, of one node: the nodes of a cluster run one version)."""

    _sharded: bool | None = None

    async def sharded_pubsub(self) -> bool:
        if self._sharded is None:
            info = await self.info("server")
            version = str(info.get("redis_version", "0"))
            self._sharded = int(version.split(".", 1)[0] or 0) >= SHARDED_SINCE
        return self._sharded

    def ping(self, **kwargs: Any) -> Any:
        """Every master answers (one node answering says little of the others')."""
        kwargs.setdefault("target_nodes", self.PRIMARIES)
        return super().ping(**kwargs)


def cluster_client(
    url: str,
    *,
    size: int,
    connect_seconds: float,
    command_seconds: float,
    retry: Retry,
) -> Cluster:
    """A cluster client of at most ``size`` connections to each node. A node whose
    connections are all in use refuses at once (``MaxConnectionsError``, a connection
    error: 503 ``unavailable``) where a single Redis's pool makes the caller wait."""
    client = Cluster.from_url(
        node_url(url),
        max_connections=size,
        retry=retry,
        socket_connect_timeout=connect_seconds,
        socket_timeout=command_seconds,
        health_check_interval=30,
    )
    assert isinstance(client, Cluster)
    return client


class ClusterScript:
    """A room script on a cluster: one EVALSHA to the node of its keys' slot (loaded on
    NOSCRIPT; MOVED and ASK followed by the cluster client), announcing with SPUBLISH
    where the cluster has sharded pub/sub and PUBLISH where it has not."""

    def __init__(self, cluster: Cluster, source: str) -> None:
        self.cluster = cluster
        self._classic = cluster.register_script(source)
        self._sharded = cluster.register_script(sharded(source))

    async def __call__(self, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        script: AsyncScript = (
            self._sharded if await self.cluster.sharded_pubsub() else self._classic
        )
        return await script(keys=keys, args=args)

    async def aclose(self) -> None:
        """Nothing of its own to close: the calls use the cluster client's connections."""


def sharded(source: str) -> str:
    """A room script announcing with SPUBLISH (the room's channel is in the slot of its
    keys, as sharded pub/sub requires)."""
    published = source.replace("redis.call('PUBLISH',", "redis.call('SPUBLISH',")
    if published == source:
        raise ValueError("the script publishes nothing")
    return published
