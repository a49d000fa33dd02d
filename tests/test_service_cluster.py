"""Two server processes on one Redis Cluster: REDIS_URL=redis+cluster://…, the
room scripts on the master of each room's slot and the news through sharded pub/sub, so a
device on either process sees every change, whichever master holds the room."""

from __future__ import annotations

import asyncio
import random
from typing import Any

from redis.crc import key_slot

from eights.storage.keys import channel, room_key
from eights.storage.news import ShardedNews
from eights.tableclient import DeviceSocket, Seated
from eights.web.keys import HUB
from tests.redis_cluster import ClusterNodes
from tests.rooms_helpers import Table, check_no_leaks, choose, open_table, play_socket_game

MAX_TABLES = 60
"""Tables opened at most to find one on each master (a third land on each)."""


async def _two_processes(aiohttp_client: Any, make_app: Any, cluster: ClusterNodes) -> list[Table]:
    tables = []
    for _ in range(2):
        table = await open_table(aiohttp_client, make_app(redis_url=cluster.url))
        assert isinstance(table.app[HUB]._pubsub, ShardedNews)
        tables.append(table)
    return tables


async def _one_table_on_each_master(table: Table, cluster: ClusterNodes) -> dict[int, Seated]:
    """Open online tables until each master holds one: port -> the host's seat."""
    found: dict[int, Seated] = {}
    for _ in range(MAX_TABLES):
        host = await table.client.create(mode="online", timer=False)
        port = cluster.port_of_slot(key_slot(room_key(host.token).encode()))
        found.setdefault(port, host)
        if len(found) == len(cluster.ports):
            return found
    raise AssertionError("no table on some master")


def _listeners(cluster: ClusterNodes, token: str) -> int:
    """How many connections hear the room's news, on the master of its slot."""
    node = cluster.client(cluster.port_of_slot(key_slot(room_key(token).encode())))
    try:
        [(_, count)] = node.pubsub_shardnumsub(channel(token))
        return int(count)
    finally:
        node.close()


async def test_two_processes_on_a_cluster_play_whole_games_on_every_master(
    aiohttp_client: Any, make_app: Any, cluster: ClusterNodes
) -> None:
    first, second = await _two_processes(aiohttp_client, make_app, cluster)
    hosts = await _one_table_on_each_master(first, cluster)

    async def game(port: int, host: Seated) -> None:
        guest = await second.client.join(host.token)
        async with (
            first.client.connect(host.token, host.credentials) as a,
            second.client.connect(host.token, guest.credentials, patches=True) as b,
        ):
            await a.state_of(0)
            await b.state_of(1)
            assert _listeners(cluster, host.token) == 2  # one SSUBSCRIBE from each process
            final = await play_socket_game({0: a, 1: b}, random.Random(f"cluster {port}"))
            assert final["room"]["game_over"]
            last_b = await b.state_of(1, newer_than=final["version"] - 1)
            assert last_b["room"]["game_over"]
            assert last_b["version"] == final["version"]
        first.truth.update(second.truth)
        assert check_no_leaks(first, a.messages, [0]) > 5
        assert check_no_leaks(first, b.messages, [1]) > 5

    await asyncio.gather(*(game(port, host) for port, host in hosts.items()))


async def _play_some(devices: dict[int, DeviceSocket], rng: random.Random, actions: int) -> int:
    """Make ``actions`` legal actions, each from the device of the seat to act, every
    device seeing each change before the next; the version reached."""
    version = 0
    for _ in range(actions * 4):  # bounded: a refusal or an agreement costs a turn
        states = {s: await d.state_of(s, newer_than=version - 1) for s, d in devices.items()}
        version = max(int(s["version"]) for s in states.values())
        states = {s: await d.state_of(s, newer_than=version - 1) for s, d in devices.items()}
        room, view = states[0]["room"], states[0]["view"]
        if room["game_over"] or actions == 0:
            return version
        if room["hand_over"]:
            for s, d in devices.items():
                if not states[s]["room"]["seats"][s]["agreed"]:
                    await d.send({"type": "agree"})
            await devices[0].state_of(0, newer_than=version)
            continue
        turn = view["turn"]
        reply = await devices[turn].act(turn, version, choose(states[turn], rng))
        if reply.get("type") == "result":
            actions -= 1
            await devices[turn].state_of(turn, newer_than=version)
    raise AssertionError("the actions were not made")


async def test_a_device_that_reconnects_to_the_other_process_misses_nothing(
    aiohttp_client: Any, make_app: Any, cluster: ClusterNodes
) -> None:
    first, second = await _two_processes(aiohttp_client, make_app, cluster)
    host = await first.client.create(mode="online", timer=False)
    guest = await first.client.join(host.token)
    rng = random.Random("reconnect on a cluster")
    async with first.client.connect(host.token, host.credentials) as a:
        async with first.client.connect(host.token, guest.credentials, patches=True) as before:
            reached = await _play_some({0: a, 1: before}, rng, 12)
            seen_before = await before.state_of(1, newer_than=reached - 1)
        async with second.client.connect(host.token, guest.credentials, patches=True) as after:
            back = await after.state_of(1)
            assert back["version"] >= seen_before["version"]
            held = await a.state_of(0, newer_than=back["version"] - 1)
            assert held["version"] == back["version"]  # the same table, nothing between
            final = await play_socket_game({0: a, 1: after}, rng)
            assert final["room"]["game_over"]
            last = await after.state_of(1, newer_than=final["version"] - 1)
            assert last["version"] == final["version"]
    first.truth.update(second.truth)
    assert check_no_leaks(first, a.messages, [0]) > 5
    assert check_no_leaks(first, before.messages + after.messages, [1]) > 5


async def test_news_connections_a_master_drops_are_made_again_and_no_change_is_missed(
    aiohttp_client: Any, make_app: Any, cluster: ClusterNodes
) -> None:
    """Each process's sharded subscription on the room's master is killed mid-game: the
    hub subscribes again and reads its rooms afresh, and the game goes on to its end."""
    first, second = await _two_processes(aiohttp_client, make_app, cluster)
    host = await first.client.create(mode="online", timer=False)
    guest = await second.client.join(host.token)
    rng = random.Random("a master drops the news")
    async with (
        first.client.connect(host.token, host.credentials) as a,
        second.client.connect(host.token, guest.credentials, patches=True) as b,
    ):
        await _play_some({0: a, 1: b}, rng, 6)
        node = cluster.client(cluster.port_of_slot(key_slot(room_key(host.token).encode())))
        try:
            assert node.client_kill_filter(_type="pubsub") >= 2  # one of each process
        finally:
            node.close()
        final = await play_socket_game({0: a, 1: b}, rng)
        assert final["room"]["game_over"]
        last_b = await b.state_of(1, newer_than=final["version"] - 1)
        assert last_b["version"] == final["version"]
        assert _listeners(cluster, host.token) == 2  # both subscribed again
    first.truth.update(second.truth)
    assert check_no_leaks(first, a.messages, [0]) > 5
    assert check_no_leaks(first, b.messages, [1]) > 5


async def test_a_game_whose_slot_moves_to_another_master_goes_on_to_its_end(
    aiohttp_client: Any, make_app: Any, cluster: ClusterNodes
) -> None:
    """Resharding mid-game: the moves follow MOVED to the new master, the old one ends the
    room's sharded subscriptions and each process subscribes again on the new one."""
    first, second = await _two_processes(aiohttp_client, make_app, cluster)
    host = await first.client.create(mode="online", timer=False)
    guest = await second.client.join(host.token)
    rng = random.Random("a slot moves")
    async with (
        first.client.connect(host.token, host.credentials) as a,
        second.client.connect(host.token, guest.credentials, patches=True) as b,
    ):
        await _play_some({0: a, 1: b}, rng, 6)
        _, target = cluster.move_slot_of(room_key(host.token))
        final = await play_socket_game({0: a, 1: b}, rng)
        assert final["room"]["game_over"]
        last_b = await b.state_of(1, newer_than=final["version"] - 1)
        assert last_b["version"] == final["version"]
        assert _listeners(cluster, host.token) == 2  # on the new master
    node = cluster.client(target)
    try:
        assert int(node.hget(room_key(host.token), "v") or 0) == final["version"]
    finally:
        node.close()
    first.truth.update(second.truth)
    assert check_no_leaks(first, a.messages, [0]) > 5
    assert check_no_leaks(first, b.messages, [1]) > 5
