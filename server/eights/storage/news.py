"""The rooms' news, as the hub hears it: subscribe to a room's channel or leave it, and one
stream of ``(channel, data)`` from every subscription, which fails when a connection is
lost (the hub then subscribes again and reads its rooms afresh: news may have been missed).

On a single Redis, classic pub/sub on one connection. On a Redis Cluster with sharded
pub/sub, SSUBSCRIBE on the node that owns each room channel's slot (the channel carries
the room's hash tag, so it is the node of the room's keys, where the scripts SPUBLISH):
one connection to each node that has rooms here, read by a task of its own. A slot that
moves away (Redis then ends its subscriptions there), a MOVED answer or a node lost fails
the stream, and subscribing again reads the slot map afresh. A channel without a hash tag
(the hub's own) stays classic pub/sub, on the node of its slot: the cluster bus carries
PUBLISH to every node.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from redis.asyncio import ConnectionPool
from redis.asyncio.client import PubSub
from redis.asyncio.cluster import ClusterNode
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import RedisClusterException

from .cluster import Cluster
from .pool import Client

CLOSE_SECONDS = 0.25
"""How long closing waits for a node's reader to end."""


class News(Protocol):
    async def subscribe(self, *names: str) -> None:
        """Hear these channels from now on."""

    async def unsubscribe(self, *names: str) -> None:
        """Stop hearing these channels."""

    def messages(self) -> AsyncIterator[tuple[str, str]]:
        """Every message heard, as (channel, data); raises when a connection is lost."""
        ...

    async def resubscribe(self, names: Iterable[str]) -> None:
        """After a loss: hear exactly these channels again, on new connections."""

    async def aclose(self) -> None:
        """Close the connections; ``messages`` ends."""


async def open_news(client: Client) -> News:
    """The news of ``client``'s Redis: sharded on a cluster that has it, else classic."""
    if isinstance(client, Cluster):
        await client.initialize()  # the slot map: a classic subscription goes to a node
        if await client.sharded_pubsub():
            return ShardedNews(client)
    return ClassicNews(client.pubsub())


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def is_room_channel(name: str) -> bool:
    """A channel with a hash tag (a room's): sharded on a cluster."""
    return "{" in name and "}" in name.split("{", 1)[1]


class ClassicNews:
    """SUBSCRIBE on one connection: a single Redis, or a cluster without sharded pub/sub."""

    def __init__(self, pubsub: PubSub) -> None:
        self.pubsub = pubsub

    async def subscribe(self, *names: str) -> None:
        await self.pubsub.subscribe(*names)

    async def unsubscribe(self, *names: str) -> None:
        await self.pubsub.unsubscribe(*names)

    async def messages(self) -> AsyncIterator[tuple[str, str]]:
        async for message in self.pubsub.listen():
            if message.get("type") in ("message", "smessage"):
                yield _text(message["channel"]), _text(message["data"])

    async def resubscribe(self, names: Iterable[str]) -> None:
        await self.pubsub.subscribe(*names)

    async def aclose(self) -> None:
        await self.pubsub.aclose()  # type: ignore[no-untyped-call]


class SlotMoved(RedisConnectionError):
    """A node ended a subscription of ours on its own: the channel's slot moved."""


@dataclass
class _Feed:
    """One node's pub/sub connection and the task that reads it."""

    name: str
    pool: ConnectionPool
    pubsub: PubSub
    reader: asyncio.Task[None] | None = None
    channels: set[str] = field(default_factory=set)


class ShardedNews:
    """SSUBSCRIBE on the node of each channel's slot, one connection a node."""

    def __init__(self, cluster: Cluster) -> None:
        self.cluster = cluster
        self._feeds: dict[str, _Feed] = {}
        self._where: dict[str, str] = {}
        """channel -> the node it is subscribed on."""
        self._heard: asyncio.Queue[tuple[int, tuple[str, str] | BaseException | None]] = (
            asyncio.Queue()
        )
        self._generation = 0
        """Bumped on each resubscribe: a loss reported by an older connection is old news."""
        self._closed = False

    # ---- subscriptions -------------------------------------------------------------
    async def subscribe(self, *names: str) -> None:
        try:
            await self.cluster.initialize()  # the slot map (nothing to do once known)
            for name in names:
                feed = self._feed(self._node_of(name))
                if is_room_channel(name):
                    await feed.pubsub.ssubscribe(name)
                else:
                    await feed.pubsub.subscribe(name)
                feed.channels.add(name)
                self._where[name] = feed.name
                self._start(feed)
        except RedisClusterException as exc:  # no slot map, or a slot not covered
            raise RedisConnectionError(f"the cluster cannot say where {names}: {exc}") from exc

    async def unsubscribe(self, *names: str) -> None:
        for name in names:
            feed = self._feeds.get(self._where.pop(name, ""))
            if feed is None:
                continue
            feed.channels.discard(name)
            if is_room_channel(name):
                await feed.pubsub.sunsubscribe(name)
            else:
                await feed.pubsub.unsubscribe(name)

    async def resubscribe(self, names: Iterable[str]) -> None:
        wanted = list(names)
        self._generation += 1
        await self._close_feeds()
        try:
            await self.cluster.nodes_manager.initialize()  # the slot map afresh
            await self.subscribe(*wanted)
        except Exception as exc:
            self._heard.put_nowait((self._generation, exc))  # the listener tries again
            if isinstance(exc, RedisClusterException):
                raise RedisConnectionError(f"the cluster is away: {exc}") from exc
            raise

    def _node_of(self, name: str) -> ClusterNode:
        node = self.cluster.get_node_from_key(name)
        if node is None:
            raise RedisConnectionError(f"no node serves {name}")
        return node

    def _feed(self, node: ClusterNode) -> _Feed:
        feed = self._feeds.get(node.name)
        if feed is None:
            options = dict(node.connection_kwargs)
            # A lost connection fails the stream at once (news may have been missed
            # meanwhile): the hub subscribes again and reads its rooms afresh.
            options["retry"] = Retry(NoBackoff(), 0)
            pool = ConnectionPool(
                connection_class=node.connection_class, max_connections=1, **options
            )
            pubsub = PubSub(pool, encoder=self.cluster.get_encoder())
            feed = self._feeds[node.name] = _Feed(node.name, pool, pubsub)
        return feed

    # ---- reading -------------------------------------------------------------------
    def _start(self, feed: _Feed) -> None:
        if feed.reader is None or feed.reader.done():
            feed.reader = asyncio.get_running_loop().create_task(self._read(feed, self._generation))

    async def _read(self, feed: _Feed, generation: int) -> None:
        """One node's messages into the common stream, until its connection fails."""
        pubsub = feed.pubsub
        try:
            while True:
                response = await pubsub.parse_response(block=True)
                ours = (
                    isinstance(response, list)
                    and len(response) > 1
                    and _text(response[0]) == "sunsubscribe"
                    and response[1] not in pubsub.pending_unsubscribe_shard_channels
                )
                message = await pubsub.handle_message(response)  # type: ignore[no-untyped-call]
                if message is None:
                    continue
                kind = message.get("type")
                if kind in ("message", "smessage"):
                    item = (_text(message["channel"]), _text(message["data"]))
                    self._heard.put_nowait((generation, item))
                elif ours and _text(message["channel"]) in feed.channels:
                    raise SlotMoved(f"{_text(message['channel'])} moved away from {feed.name}")
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            self._heard.put_nowait((generation, exc))

    async def messages(self) -> AsyncIterator[tuple[str, str]]:
        while not self._closed:
            generation, item = await self._heard.get()
            if item is None:
                return
            if isinstance(item, BaseException):
                if generation == self._generation:
                    raise item
                continue  # a connection already replaced
            yield item

    # ---- closing -------------------------------------------------------------------
    async def _close_feeds(self) -> None:
        feeds = list(self._feeds.values())
        self._feeds.clear()
        self._where.clear()
        readers = [f.reader for f in feeds if f.reader is not None]
        for reader in readers:
            reader.cancel()
        for feed in feeds:  # closed whatever a reader does with its cancel
            with contextlib.suppress(Exception):
                await feed.pubsub.aclose()  # type: ignore[no-untyped-call]
            with contextlib.suppress(Exception):
                await feed.pool.aclose()
        if readers:
            await asyncio.wait(readers, timeout=CLOSE_SECONDS)

    async def aclose(self) -> None:
        self._closed = True
        await self._close_feeds()
        self._heard.put_nowait((self._generation, None))
