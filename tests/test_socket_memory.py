"""What a socket and a room keep: flags instead of asyncio Events, one Rules
object for all tables alike, and a news subscription Redis refuses told as unavailable."""

from __future__ import annotations

import asyncio
from typing import Any

from redis.exceptions import ResponseError

from eights.rules.table import Rules
from eights.web.flag import Flag
from eights.web.keys import HUB
from tests.rooms_helpers import open_table


async def test_a_flag_wakes_every_waiter_and_a_cancelled_wait_leaves_nothing() -> None:
    flag = Flag()
    waiters = [asyncio.ensure_future(flag.wait()) for _ in range(3)]
    await asyncio.sleep(0)  # one turn of the loop (not a wait): the tasks reach their await
    assert not any(w.done() for w in waiters)
    flag.set()
    await asyncio.wait_for(asyncio.gather(*waiters), 5)
    assert flag.is_set()
    await asyncio.wait_for(flag.wait(), 5)  # set: at once
    flag.clear()
    late = asyncio.ensure_future(flag.wait())
    await asyncio.sleep(0)  # one turn: the task reaches its await
    late.cancel()
    await asyncio.gather(late, return_exceptions=True)
    assert flag._waiters == []
    assert not flag.is_set()


def test_tables_alike_share_one_rules_object_and_others_do_not() -> None:
    assert Rules.for_variant("duo", 2) is Rules.for_variant("duo", 2)
    assert Rules.for_variant("classic", 4) is not Rules.for_variant("classic", 3)
    house: dict[str, object] = {"skip_jacks": True}
    shared = Rules.for_variant("classic", 4, house)
    assert shared is Rules.for_variant("classic", 4, {"skip_jacks": True})
    assert shared.options != Rules.for_variant("classic", 4).options
    assert shared.options.to_json() is shared.options.to_json()  # built once, shared


async def test_a_news_subscription_redis_refuses_is_unavailable_not_a_crash(
    aiohttp_client: Any, make_app: Any, monkeypatch: Any
) -> None:
    app = make_app()
    table = await open_table(aiohttp_client, app)
    host = await table.client.create(mode="online", timer=False)
    pubsub = app[HUB]._pubsub

    async def refused(*channels: Any, **named: Any) -> None:
        raise ResponseError("Unknown subcommand or wrong number of arguments for 'SETINFO'")

    monkeypatch.setattr(pubsub, "subscribe", refused)
    async with table.client.connect(host.token, host.credentials) as device:
        await device.wait_for(lambda d: d.closed)
    errors = [m.get("error") for m in device.messages if m.get("type") == "error"]
    assert errors == ["unavailable"]
    assert device.close_code == 1013  # try again later
    monkeypatch.undo()
    async with table.client.connect(host.token, host.credentials) as again:
        state = await again.state_of(0)
    assert state["room"]["token"] == host.token
