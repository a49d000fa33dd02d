"""The newfoundland table served whole: a computer table of four and of seven played to the
end through the socket, a pickup taken, and no device told a card it may not see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.rooms_helpers import check_no_leaks, open_table, play_socket_game


@pytest.mark.parametrize("players", [4, 7])
async def test_a_computer_table_of_many_plays_to_the_end(
    aiohttp_client: Any, make_app: Any, players: int
) -> None:
    table = await open_table(aiohttp_client, make_app())
    rng = random.Random(f"newfoundland-{players}")
    events: set[str] = set()
    for _ in range(4):  # a short game may deal no pickup; a few games surely do
        made = await table.client.create(
            mode="computer",
            variant="newfoundland",
            players=players,
            level="medium",
            timer=False,
            house={"game_to": "250"},
        )
        assert made.seats == [0]
        async with table.client.connect(made.token, made.credentials) as device:
            final = await play_socket_game({0: device}, rng)
            assert final["room"]["game_over"]
            assert len(final["view"]["counts"]) == players
            assert max(final["view"]["totals"]) >= 250
            events |= {
                e["type"]
                for m in device.messages
                if m.get("type") == "state"
                for e in m["view"]["log"]
            }
            assert check_no_leaks(table, device.messages, [0]) > 5
        if {"pickup", "took"} <= events:
            break
    assert {"pickup", "took"} <= events
