"""Benchmark: a burst of concurrent requests (devices reconnecting together) against one
`eights serve` process with its embedded Redis: how many succeed, how many are refused
(503) and how many fail (500 or no answer).

    .venv/bin/python -m tests.bench.bench_burst [--requests 300] [--rooms 20] [--pool 64]

Each request is a seat's ``GET /api/rooms/<token>/state`` (two Redis round trips). Not a
test: every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

import aiohttp

from eights.tableclient import TableClient

REQUEST_SECONDS = 60.0
START_SECONDS = 30.0


async def start(folder: Path, extra: tuple[str, ...]) -> tuple[asyncio.subprocess.Process, str]:
    """`eights serve` on any free port, ready (it answers /api/variants)."""
    env = {**os.environ, "EIGHTS_HTTP_RATE": "0"}
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "eights.cli.main", "serve", "--port", "0",
        "--data-dir", str(folder / "data"), "--bot-delay", "0", *extra,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL, env=env,
    )  # fmt: skip
    assert process.stdout is not None
    line = await asyncio.wait_for(process.stdout.readline(), START_SECONDS)
    found = re.search(rb":(\d+)/", line)
    if found is None:
        raise SystemExit(f"no address: {line!r}")
    base = f"http://127.0.0.1:{found.group(1).decode()}"
    give_up = time.monotonic() + START_SECONDS
    async with aiohttp.ClientSession() as http:
        while time.monotonic() < give_up:
            try:
                async with http.get(base + "/api/variants") as response:
                    if response.status == 200:
                        return process, base
            except aiohttp.ClientError:
                pass
            await asyncio.sleep(0.05)  # waiting for a child process to listen
    raise SystemExit("the server did not start")


async def run(args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="eights-burst-") as folder:
        extra = () if args.pool is None else ("--redis-pool", str(args.pool))
        process, base = await start(Path(folder), extra)
        try:
            connector = aiohttp.TCPConnector(limit=0)
            async with aiohttp.ClientSession(connector=connector) as http:
                client = TableClient(http, base)
                seats = []
                for _ in range(args.rooms):
                    host = await client.create(mode="online", timer=False)
                    guest = await client.join(host.token)
                    seats += [(host.token, host.credentials), (host.token, guest.credentials)]

                async def one(n: int) -> int:
                    token, credentials = seats[n % len(seats)]
                    try:
                        reply = await asyncio.wait_for(
                            client.state(token, credentials), REQUEST_SECONDS
                        )
                    except (aiohttp.ClientError, OSError, TimeoutError):
                        return 0
                    return reply.status

                started = time.perf_counter()
                statuses = Counter(await asyncio.gather(*(one(n) for n in range(args.requests))))
                seconds = time.perf_counter() - started
        finally:
            process.terminate()
            await asyncio.wait_for(process.wait(), START_SECONDS)
    return {
        "requests": args.requests,
        "pool": args.pool,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "failed (500 or no answer)": statuses[500] + statuses[0],
        "seconds": round(seconds, 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--requests", type=int, default=300)
    parser.add_argument("--rooms", type=int, default=20)
    parser.add_argument("--pool", type=int, help="--redis-pool of the server (its default)")
    print(json.dumps(asyncio.run(run(parser.parse_args()))))


if __name__ == "__main__":
    main()
