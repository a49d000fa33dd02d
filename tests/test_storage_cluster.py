"""The room store and the rooms' news on a Redis Cluster of three masters:
rooms whose keys land on every master, sharded pub/sub on the node of each room's slot,
and the classic pub/sub a cluster without it falls back to."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import AsyncIterator

import pytest
from redis.crc import key_slot

from eights.rooms import Room, RoomError, seating
from eights.rooms.spec import TableSpec, parse_spec
from eights.storage import (
    STORAGE_ERRORS,
    Cluster,
    RoomStore,
    connect,
    health_client,
    is_cluster_url,
    memory_use,
    open_news,
)
from eights.storage.cluster import ClusterBatch, node_url
from eights.storage.keys import channel, room_key, room_keys
from eights.storage.news import ClassicNews, ShardedNews
from tests.redis_cluster import ClusterNodes, _free_ports

WAIT_SECONDS = 10.0
NOW = 1_800_000_000_000


def _room(token: str) -> Room:
    spec = parse_spec({"mode": "online", "timer": False})
    assert isinstance(spec, TableSpec)
    made = seating.create_room(
        token,
        spec,
        nonces=["n0", "n1"],
        seeds=("a" * 32, "b" * 32, "c" * 32),
        entropy="",
        now=NOW,
    )
    assert not isinstance(made, RoomError)
    return made.room


def _tokens_on_every_master(cluster: ClusterNodes) -> dict[int, str]:
    """A token for each master: port -> a token whose keys that master holds."""
    found: dict[int, str] = {}
    for _ in range(1000):  # bounded: a third of the tokens land on each
        token = secrets.token_urlsafe(16)
        port = cluster.port_of_slot(key_slot(room_key(token).encode()))
        found.setdefault(port, token)
        if len(found) == len(cluster.ports):
            return found
    raise AssertionError("no token for some master")


@pytest.fixture
async def client(cluster: ClusterNodes) -> AsyncIterator[Cluster]:
    made = connect(cluster.url)
    assert isinstance(made, Cluster)
    yield made
    await made.aclose()


async def _next(stream: AsyncIterator[tuple[str, str]]) -> tuple[str, str]:
    return await asyncio.wait_for(anext(stream), WAIT_SECONDS)


def test_the_cluster_url_forms_are_read_as_redis_py_urls() -> None:
    assert is_cluster_url("redis+cluster://10.0.0.1:7000")
    assert is_cluster_url("rediss+cluster://:secret@redis.example:7000")
    assert not is_cluster_url("redis://localhost:6379/0")
    assert not is_cluster_url("unix:///run/redis.sock")
    assert node_url("redis+cluster://10.0.0.1:7000") == "redis://10.0.0.1:7000"
    assert node_url("rediss+cluster://:s@h:7000?x=1") == "rediss://:s@h:7000?x=1"


async def test_rooms_on_every_master_are_created_saved_loaded_and_refuse_a_stale_version(
    cluster: ClusterNodes, client: Cluster
) -> None:
    store = RoomStore(client)
    try:
        for port, token in _tokens_on_every_master(cluster).items():
            room = _room(token)
            assert await store.create(room)
            assert not await store.create(_room(token))  # the token is taken
            node = cluster.client(port)
            try:
                assert node.exists(*room_keys(token)[:1]) == 1  # on the master of its slot
            finally:
                node.close()
            loaded = await store.load(token)
            assert loaded is not None
            assert loaded.to_json() == room.to_json()
            room.version = 2
            room.updated = NOW + 1
            assert (await store.save(room, expected=1)).ok
            stale = _room(token)
            stale.version = 2
            assert not (await store.save(stale, expected=1)).ok  # moved on meanwhile
            again = await store.load(token)
            assert again is not None
            assert again.version == 2
            assert again.updated == NOW + 1
            assert await store.version(token) == 2
            gone = await store.save(_room(token + "x"), expected=1)
            assert not gone.ok
            assert gone.gone
    finally:
        await store.aclose()


async def test_presence_and_the_lobby_work_through_the_cluster_client(
    cluster: ClusterNodes, client: Cluster
) -> None:
    store = RoomStore(client)
    try:
        tokens = list(_tokens_on_every_master(cluster).values())
        for token in tokens:
            assert await store.create(_room(token))
            here = await store.presence(token, "1:a", NOW + 60_000, NOW)
            assert here == {1}
            assert await store.present(token, NOW) == {1}
            assert await store.presence(token, "1:a", 0, NOW) == set()
            assert await store.present(token, NOW) == set()
            ttls = await store.ttls(token)
            assert 0 < ttls["room"] <= store.ttl
        for i, token in enumerate(tokens):
            await store.list_public(token, NOW + i)
        assert await store.public_tables(NOW, 10) == tokens[::-1]
        await store.unlist(tokens[:1])
        assert await store.public_tables(NOW, 10) == tokens[:0:-1]
    finally:
        await store.aclose()


async def test_health_and_memory_ask_every_master(cluster: ClusterNodes, client: Cluster) -> None:
    health = health_client(cluster.url)
    try:
        assert await health.ping() is True
    finally:
        await health.aclose()
    use = await memory_use(client)
    assert len(use) == len(cluster.ports)
    assert all(used > 0 and limit == 0 for used, limit in use)


async def test_each_room_news_is_sharded_on_the_master_of_its_slot(
    cluster: ClusterNodes, client: Cluster
) -> None:
    store = RoomStore(client)
    news = await open_news(client)
    assert isinstance(news, ShardedNews)
    stream = news.messages()
    try:
        tokens = _tokens_on_every_master(cluster)
        await news.subscribe("eights:hub", *(channel(t) for t in tokens.values()))
        for port, token in tokens.items():
            node = cluster.client(port)
            try:
                subscribed = node.pubsub_shardnumsub(channel(token))
                assert subscribed == [(channel(token).encode(), 1)]
            finally:
                node.close()
            room = _room(token)
            assert await store.create(room)  # a creation announces nothing
            room.version = 2
            assert (await store.save(room, expected=1)).ok
            assert await _next(stream) == (channel(token), "v2")
            await store.presence(token, "0:a", NOW + 60_000, NOW)
            assert await _next(stream) == (channel(token), "p")
        await client.publish("eights:hub", "hello")  # classic pub/sub on a cluster
        assert await _next(stream) == ("eights:hub", "hello")
        quiet = next(iter(tokens.values()))
        await news.unsubscribe(channel(quiet))
        room = _room(quiet)
        room.version = 3
        assert (await store.save(room, expected=2)).ok
        loud = list(tokens.values())[1]
        room = _room(loud)
        room.version = 3
        assert (await store.save(room, expected=2)).ok
        assert await _next(stream) == (channel(loud), "v3")  # not the one left
    finally:
        await news.aclose()
        await store.aclose()


async def test_a_cluster_without_sharded_pub_sub_publishes_and_subscribes_classically(
    cluster: ClusterNodes, client: Cluster
) -> None:
    client._sharded = False  # as a Redis 6 cluster answers
    store = RoomStore(client)
    news = await open_news(client)
    assert isinstance(news, ClassicNews)
    stream = news.messages()
    try:
        tokens = list(_tokens_on_every_master(cluster).values())
        await news.subscribe("eights:hub", *(channel(t) for t in tokens))
        for token in tokens:
            room = _room(token)
            assert await store.create(room)
            room.version = 2
            assert (await store.save(room, expected=1)).ok
            assert await _next(stream) == (channel(token), "v2")
    finally:
        await news.aclose()
        await store.aclose()


async def test_a_room_whose_slot_moves_is_still_stored_and_its_news_still_heard(
    cluster: ClusterNodes, client: Cluster
) -> None:
    """MOVED is followed by the cluster client; the old master ends the room's sharded
    subscription, and the news subscribes again on the new one."""
    store = RoomStore(client)
    news = await open_news(client)
    stream = news.messages()
    token = next(iter(_tokens_on_every_master(cluster).values()))
    try:
        await news.subscribe(channel(token))
        room = _room(token)
        assert await store.create(room)
        assert await store.load(token) is not None  # the client knows the slot's master
        _, target = cluster.move_slot_of(room_key(token))
        with pytest.raises(Exception, match="moved away"):
            await asyncio.wait_for(anext(stream), WAIT_SECONDS)
        await news.resubscribe([channel(token)])
        stream = news.messages()
        room.version = 2
        assert (await store.save(room, expected=1)).ok  # MOVED, then on the new master
        node = cluster.client(target)
        try:
            assert node.hget(room_key(token), "v") == b"2"
        finally:
            node.close()
        assert await _next(stream) == (channel(token), "v2")
    finally:
        await news.aclose()
        await store.aclose()


async def test_the_saves_of_one_loop_turn_are_batched_by_master(
    cluster: ClusterNodes, client: Cluster
) -> None:
    store = RoomStore(client)
    try:
        tokens = [secrets.token_urlsafe(16) for _ in range(30)]
        rooms = [_room(token) for token in tokens]
        assert all(await asyncio.gather(*(store.create(room) for room in rooms)))
        for room in rooms:
            room.version = 2
        saved = await asyncio.gather(*(store.save(room, expected=1) for room in rooms))
        assert all(s.ok for s in saved)
        assert isinstance(store._save, ClusterBatch)
        masters = {cluster.port_of_slot(key_slot(room_key(t).encode())) for t in tokens}
        assert len(store._save._batches) == len(masters) == len(cluster.ports)
        for token in tokens:
            assert await store.version(token) == 2
    finally:
        await store.aclose()


async def test_a_cluster_nobody_answers_is_storage_unavailable() -> None:
    [port] = _free_ports(1)
    client = connect(f"redis+cluster://127.0.0.1:{port}")
    store = RoomStore(client)
    try:
        with pytest.raises(STORAGE_ERRORS):
            await store.load("nobody-answers")
        with pytest.raises(STORAGE_ERRORS):
            await store.save(_room("nobody-answers"), expected=1)
        with pytest.raises(STORAGE_ERRORS):
            await store.presence("nobody-answers", "0:a", NOW + 1, NOW)
    finally:
        await store.aclose()
        await client.aclose()
