"""The long fault run: many duo rooms played at once on one server with its embedded
Redis, the server and its Redis killed (SIGKILL) in turn, the server restarted on the
same data directory; at the end every room's acknowledged moves are checked, each once at
its version. Not part of the test suite (it runs for minutes)::

    .venv/bin/python -m tests.faults.soak --minutes 5 --rooms 16 --kill-every 5
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import signal
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

from tests.faults.harness import Duo, Server, gone, start_server, wait_until

MOVES_A_ROOM = 400
"""A room plays at most this many moves (a bound; a duo game is over long before)."""


async def play(duo: Duo, until: float) -> None:
    """Moves until the game ends, the time is up or the bound is reached."""
    for _ in range(MOVES_A_ROOM):
        if time.monotonic() > until or not await duo.move():
            return


async def soak(minutes: float, rooms: int, kill_every: float, folder: Path) -> int:
    """The run itself; every server it starts is stopped at the end, whatever happens."""
    started: list[Server] = []
    try:
        return await _soak(minutes, rooms, kill_every, folder, started)
    finally:
        for server in started:
            await server.stop()


async def _soak(
    minutes: float, rooms: int, kill_every: float, folder: Path, started: list[Server]
) -> int:
    until = time.monotonic() + minutes * 60
    rng = random.Random(f"soak {minutes} {rooms}")
    log = folder / "server.log"
    started.append(await start_server(folder / "data", log))
    kills: Counter[str] = Counter()
    finished: list[Duo] = []
    players: list[Duo] = []
    async with aiohttp.ClientSession() as http:

        async def room(n: int) -> None:
            while time.monotonic() < until:
                base = started[-1].base
                duo = Duo(http, {0: base, 1: base}, rng=random.Random(n))
                players.append(duo)  # from now on a restart tells it the new address
                await duo.open()
                await play(duo, until)
                finished.append(duo)

        tasks = [asyncio.ensure_future(room(n)) for n in range(rooms)]
        try:
            while time.monotonic() < until and not any(t.done() for t in tasks):
                await asyncio.wait(tasks, timeout=kill_every, return_when="FIRST_COMPLETED")
                if time.monotonic() >= until or any(t.done() for t in tasks):
                    break
                server = started[-1]
                pid = server.redis_pid()
                if rng.random() < 0.5:
                    if pid is not None:
                        os.kill(pid, signal.SIGKILL)
                        kills["redis"] += 1
                    continue
                await server.kill()
                kills["server"] += 1
                await wait_until(lambda pid=pid: gone(pid), 15, "the Redis to go too")
                started.append(await start_server(folder / "data", log))
                for duo in players:
                    duo.bases = {0: started[-1].base, 1: started[-1].base}
            await asyncio.gather(*tasks)
        finally:
            for task in tasks:
                task.cancel()
            await asyncio.gather(*tasks, return_exceptions=True)
        statuses: Counter[int] = Counter()
        moves = 0
        for duo in players:
            if not duo.token:  # the time ran out while it was being opened
                continue
            moves += await duo.check(started[-1].redis_url())
            statuses.update(duo.statuses)
    print(
        f"{len(players)} rooms ({len(finished)} games over), {moves} acknowledged moves "
        f"checked, kills {dict(kills)}, statuses {dict(sorted(statuses.items()))}"
    )
    return 1 if 500 in statuses else 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--rooms", type=int, default=16)
    parser.add_argument("--kill-every", type=float, default=5.0, help="seconds between kills")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="eights-soak-") as folder:
        return asyncio.run(soak(args.minutes, args.rooms, args.kill_every, Path(folder)))


if __name__ == "__main__":
    sys.exit(main())
