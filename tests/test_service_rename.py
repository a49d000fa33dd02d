"""A seat renames itself (over the socket or HTTP) and every device at the table sees the
new name."""

from __future__ import annotations

from typing import Any

from tests.rooms_helpers import open_table


async def test_a_seat_renames_itself_over_the_socket_and_both_devices_see_it(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", names=["Ann"])
    guest = await table.client.join(host.token)
    assert guest.states[0]["room"]["seats"][1]["name"] == "Player 2"
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials) as b,
    ):
        before = (await a.state_of(0))["version"]
        await b.send({"type": "rename", "name": "  Bo   the Bold  ", "id": "r1"})
        reply = await b.reply_to("r1")
        assert reply["type"] == "result"
        assert reply["name"] == "Bo the Bold"
        assert reply["seat"] == 1
        for device, seat in ((a, 0), (b, 1)):
            state = await device.state_of(seat, newer_than=before)
            assert state["room"]["seats"][1]["name"] == "Bo the Bold"
            assert state["room"]["seats"][0]["name"] == "Ann"
        # The name is cleaned and cut to 24 characters; nothing printable is refused.
        await b.send({"type": "rename", "name": "x" * 40, "id": "r2"})
        assert (await b.reply_to("r2"))["name"] == "x" * 24
        for bad in ("", " \u200b\n ", 7, None, "y" * 401):
            await b.send({"type": "rename", "name": bad, "id": "r3"})
            refused = await b.reply_to("r3")
            assert refused["type"] == "error"
            assert refused["error"] == "bad_request", bad
            b.messages.clear()
        # A seat the device does not hold.
        await b.send({"type": "rename", "name": "Mallory", "seat": 0, "id": "r4"})
        assert (await b.reply_to("r4"))["error"] == "not_your_seat"
    lobby = await table.client.lobby(host.token)
    assert [s["name"] for s in lobby.data["seats"]] == ["Ann", "x" * 24]


async def test_a_seat_renames_itself_over_http_with_its_credential(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online")
    guest = await table.client.join(host.token, name="Bo")
    path = f"/api/rooms/{host.token}/rename"
    reply = await table.client.request("POST", path, {"name": "Ann"}, host.credentials)
    assert reply.status == 200, reply.data
    assert reply.data["name"] == "Ann"
    version = reply.data["states"][0]["version"]
    seen = (await table.client.state(host.token, guest.credentials)).data["states"][0]
    assert seen["version"] == version
    assert [s["name"] for s in seen["room"]["seats"]] == ["Ann", "Bo"]
    # The same name again changes nothing.
    again = await table.client.request("POST", path, {"name": "Ann"}, host.credentials)
    assert again.status == 200
    assert again.data["states"][0]["version"] == version
    # No credential, a forged one, a bad body.
    assert (await table.client.request("POST", path, {"name": "Eve"})).error == "no_credential"
    forged = await table.client.request("POST", path, {"name": "Eve"}, ["forged"])
    assert forged.error == "bad_credential"
    bad = await table.client.request("POST", path, {"name": ["Eve"]}, host.credentials)
    assert bad.status == 400
    assert bad.error == "bad_request"


async def test_pass_and_play_names_the_seat_and_the_computer_cannot_be_renamed(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    local = await table.client.create(mode="local", names=["Ann", "Bo"])
    path = f"/api/rooms/{local.token}/rename"
    unnamed = await table.client.request("POST", path, {"name": "Cy"}, local.credentials)
    assert unnamed.error == "bad_request"  # two seats held: which one?
    named = await table.client.request("POST", path, {"name": "Cy", "seat": 1}, local.credentials)
    assert named.status == 200
    assert [s["name"] for s in named.data["states"][0]["room"]["seats"]] == ["Ann", "Cy"]

    computer = await table.client.create(mode="computer")
    path = f"/api/rooms/{computer.token}/rename"
    bot = await table.client.request("POST", path, {"name": "Cy", "seat": 1}, computer.credentials)
    assert bot.error == "not_your_seat"
    mine = await table.client.request("POST", path, {"name": "Cy"}, computer.credentials)
    assert mine.status == 200
