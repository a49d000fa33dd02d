"""Hints are offered against the computer and in pass and play only: at a table with a
friend one player would get the computer's advice unseen by the other."""

from __future__ import annotations

from typing import Any

from tests.rooms_helpers import open_table


async def test_hints_are_refused_at_a_table_with_a_friend(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online")
    guest = await table.client.join(host.token)
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials) as b,
    ):
        state = await a.state_of(0)
        turn = state["view"]["turn"]
        device = a if turn == 0 else b
        await device.send({"type": "hint", "id": "h1", "seat": turn})
        refused = await device.reply_to("h1")
        assert refused["type"] == "error"
        assert refused["error"] == "no_hints"
        assert "computer" in refused["message"]
        assert not any(m.get("type") == "hint" for m in device.messages)

    # Against the computer and in pass and play the hint is offered.
    for spec in ({"mode": "computer"}, {"mode": "local"}):
        made = await table.client.create(**spec)
        async with table.client.connect(made.token, made.credentials) as device:
            state = await device.state_of(0)
            turn = state["view"]["turn"]
            if spec["mode"] == "computer" and turn != 0:
                state = await device.wait_for(
                    lambda d: d.states.get(0) if d.states[0]["view"]["turn"] == 0 else None
                )
                turn = 0
            await device.send({"type": "hint", "id": "h2", "seat": turn})
            answer = await device.wait_for(
                lambda d: next((m for m in d.messages if m.get("id") == "h2"), None)
            )
            assert answer["type"] == "hint", answer
