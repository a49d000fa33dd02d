"""Two devices at a table through the socket, on the real app and a real Redis."""

from __future__ import annotations

import random
from typing import Any

import pytest

from tests.rooms_helpers import check_no_leaks, open_table, play_socket_game

VARIANTS = ["duo", "classic", "ember-ridge"]


@pytest.mark.parametrize("variant", VARIANTS)
async def test_two_devices_play_a_whole_game_and_see_only_their_own_cards(
    aiohttp_client: Any, make_app: Any, variant: str
) -> None:
    table = await open_table(aiohttp_client, make_app())
    host = await table.client.create(mode="online", variant=variant, timer=False)
    guest = await table.client.join(host.token)
    assert (host.seats, guest.seats) == ([0], [1])
    rng = random.Random(f"socket-{variant}")
    async with (
        table.client.connect(host.token, host.credentials) as a,
        table.client.connect(host.token, guest.credentials) as b,
    ):
        final = await play_socket_game({0: a, 1: b}, rng)
        assert final["room"]["game_over"]
        assert final["view"]["seed"] is not None
        assert final["room"]["history"][-1]["seed"] == final["view"]["seed"]
        b_final = await b.state_of(1, newer_than=final["version"] - 1)
        assert b_final["view"]["game_over"] == final["view"]["game_over"]
        assert check_no_leaks(table, a.messages, [0]) > 10
        assert check_no_leaks(table, b.messages, [1]) > 10
