"""Redis Cluster: ``REDIS_URL=redis+cluster://HOST:PORT`` (any node; the others are found
from its slot map), or ``rediss+cluster://`` for TLS.

Every key of a room carries the room's hash tag, so each room script lands on one node:
the compare-and-sets of one loop turn are batched by master (``ClusterBatch``), and
redis-py's cluster client follows MOVED and ASK while slots move. The room's news
channel carries the same hash tag: on Redis 7 and later (and Valkey) the scripts announce
changes with SPUBLISH and the hub listens with SSUBSCRIBE on the node that owns the slot
(``news``); an older cluster keeps PUBLISH and SUBSCRIBE, which the cluster bus carries
to every node.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from redis.asyncio import ConnectionPool, Redis
from redis.asyncio.cluster import ClusterNode, RedisCluster
from redis.asyncio.retry import Retry
from redis.commands.core import AsyncScript
from redis.exceptions import AskError, ClusterDownError, RedisClusterException, TryAgainError

from .batch import TRIP_ERRORS, ScriptBatch

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


REDIRECTED = (AskError, TryAgainError, ClusterDownError)
"""Answers that mean the slot is elsewhere (MOVED is an AskError) or moving, or the
cluster is changing: the call goes again through the cluster client, which follows them."""
NODE_CONNECTIONS = 2
"""A node's batch: its own connection, and one to load the script after a NOSCRIPT."""


class ClusterScript:
    """A room script on a cluster: one EVALSHA to the node of its keys' slot (loaded on
    NOSCRIPT; MOVED and ASK followed by the cluster client), announcing with SPUBLISH
    where the cluster has sharded pub/sub and PUBLISH where it has not."""

    def __init__(self, cluster: Cluster, source: str) -> None:
        self.cluster = cluster
        self._classic = cluster.register_script(source)
        self._sharded = cluster.register_script(sharded_source(source))

    async def __call__(self, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        script: AsyncScript = (
            self._sharded if await self.cluster.sharded_pubsub() else self._classic
        )
        return await script(keys=keys, args=args)

    async def aclose(self) -> None:
        """Nothing of its own to close: the calls use the cluster client's connections."""


def sharded_source(source: str) -> str:
    """A room script announcing with SPUBLISH (the room's channel is in the slot of its
    keys, as sharded pub/sub requires)."""
    published = source.replace("redis.call('PUBLISH',", "redis.call('SPUBLISH',")
    if published == source:
        raise ValueError("the script publishes nothing")
    return published


class ClusterBatch:
    """A room script on a cluster, batched by master: the calls of one event-loop turn
    for rooms of one master share a write on a connection kept for them (``ScriptBatch``:
    one per master, routed by the slot map). A call the master answers with MOVED, ASK,
    TRYAGAIN or CLUSTERDOWN, or that its connection could not carry, goes again through
    the cluster client (``ClusterScript``), which follows the redirection and reads the
    slot map again; the compare-and-set makes a second attempt harmless."""

    def __init__(self, cluster: Cluster, source: str) -> None:
        self.cluster = cluster
        self.source = source
        self._direct = ClusterScript(cluster, source)
        self._batches: dict[tuple[str, bool], ScriptBatch] = {}
        self._nodes: dict[str, Redis] = {}

    async def __call__(self, keys: Sequence[Any], args: Sequence[Any]) -> Any:
        sharded = await self.cluster.sharded_pubsub()
        try:
            node = self.cluster.get_node_from_key(keys[0])
        except RedisClusterException:  # the slot map is being read again: not batched
            node = None
        if node is None:
            return await self._direct(keys, args)
        try:
            return await self._batch(node, sharded)(list(keys), list(args))
        except (*REDIRECTED, *TRIP_ERRORS):
            return await self._direct(keys, args)

    def _batch(self, node: ClusterNode, sharded: bool) -> ScriptBatch:
        batch = self._batches.get((node.name, sharded))
        if batch is None:
            client = self._nodes.get(node.name)
            if client is None:
                pool = ConnectionPool(
                    connection_class=node.connection_class,
                    max_connections=NODE_CONNECTIONS,
                    **node.connection_kwargs,
                )
                client = self._nodes[node.name] = Redis.from_pool(pool)
            source = sharded_source(self.source) if sharded else self.source
            batch = self._batches[(node.name, sharded)] = ScriptBatch(client, source)
        return batch

    async def aclose(self) -> None:
        """Stop every master's batch and close its connections."""
        for batch in self._batches.values():
            await batch.aclose()
        for client in self._nodes.values():
            await client.aclose()
        self._batches.clear()
        self._nodes.clear()
