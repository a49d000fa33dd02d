import random
from typing import Any

from tests.rooms_helpers import choose, open_table


async def test_exp(aiohttp_client: Any, make_app: Any, redis_sync: Any) -> None:
    table = await open_table(aiohttp_client, make_app())
    for mode in ("computer", "local"):
        seated = await table.client.create(mode=mode)
        st = seated.states[0]
        turn = st["view"]["turn"]
        state = seated.states[seated.seats.index(turn)] if turn in seated.seats else st
        r = await table.client.act(
            seated.token,
            seated.credentials,
            st["room"]["version"],
            choose(state, random.Random(1)),
            seat=turn,
        )
        print(mode, turn, r.status, r.data.get("error"), r.data.get("message"))
    for key in sorted(redis_sync.keys("*")):
        print(key, redis_sync.pttl(key))
