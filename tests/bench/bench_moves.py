"""Benchmark: accepted moves a second through one `eights serve` process, and their latency.

    .venv/bin/python -m tests.bench.bench_moves [--rooms 50] [--moves 200] [--variant duo]

Starts `eights serve` on a unix socket with its embedded Redis (or --redis-url), opens
--rooms online rooms with two socket devices each, and in every room plays random legal
moves as fast as the answers come (each move: send `act`, wait for its `result` and for the
other device's pushed state). Prints moves/s and the latency percentiles of a move from
sending it to the other device holding the new state. See docs/performance.md.
Not a test: every loop is bounded in count and time.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import aiohttp

from eights.tableclient import DeviceSocket, TableClient

START_SECONDS = 30.0
ROOM_SECONDS = 300.0


async def wait_for_server(path: str, process: subprocess.Popen[bytes]) -> None:
    give_up = time.monotonic() + START_SECONDS
    while time.monotonic() < give_up:
        if process.poll() is not None:
            raise SystemExit("the server stopped")
        if os.path.exists(path):
            try:
                connector = aiohttp.UnixConnector(path)
                async with (
                    aiohttp.ClientSession(connector=connector) as s,
                    s.get("http://eights/readyz") as r,
                ):
                    if r.status == 200:
                        return
            except aiohttp.ClientError:
                pass
        await asyncio.sleep(0.05)  # waiting for a child process to listen
    raise SystemExit("the server did not start")


async def play_room(
    client: TableClient, moves: int, rng: random.Random, variant: str, latencies: list[float]
) -> int:
    host = await client.create(mode="online", variant=variant, timer=False)
    guest = await client.join(host.token)
    done = 0
    async with (
        client.connect(host.token, host.credentials) as a,
        client.connect(host.token, guest.credentials) as b,
    ):
        devices: dict[int, DeviceSocket] = {0: a, 1: b}
        await a.wait_for(lambda d: d.states.get(0) and d.states[0]["room"]["seats"][1]["connected"])
        while done < moves:
            state = await a.state_of(0)
            if state["room"]["hand_over"]:
                await a.send({"type": "agree"})
                await b.send({"type": "agree"})
                await a.state_of(0, newer_than=state["version"] + 1)
                await b.state_of(1, newer_than=state["version"] + 1)
                continue
            turn = state["view"]["turn"]
            mine = await devices[turn].state_of(turn, newer_than=state["version"] - 1)
            legal = mine["view"]["legal"]
            plays = [x for x in legal if x["type"] == "play"]
            other = devices[1 - turn]
            started = time.perf_counter()
            reply = await devices[turn].act(turn, mine["version"], rng.choice(plays or legal))
            if reply["type"] != "result":
                raise SystemExit(f"a move was refused: {reply}")
            await other.state_of(1 - turn, newer_than=mine["version"])
            latencies.append(time.perf_counter() - started)
            await devices[turn].state_of(turn, newer_than=mine["version"])
            done += 1
    return done


async def run(args: argparse.Namespace) -> dict[str, object]:
    folder = Path(tempfile.mkdtemp(prefix="eights-bench-"))
    path = str(folder / "eights.sock")
    command = [sys.executable, "-m", "eights.cli.main", "serve", "--unix", path,
               "--data-dir", str(folder / "data"), "--secret", "bench"]  # fmt: skip
    if args.redis_url:
        command += ["--redis-url", args.redis_url]
    env = dict(os.environ, EIGHTS_BOT_DELAY="0", EIGHTS_HTTP_RATE="0", EIGHTS_ROOMS_PER_HOUR="0",
               EIGHTS_ROOMS_PER_DAY="0", EIGHTS_SOCKETS_PER_ADDRESS="0")  # fmt: skip
    process = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        await wait_for_server(path, process)
        connector = aiohttp.UnixConnector(path, limit=0)
        async with aiohttp.ClientSession(connector=connector) as http:
            client = TableClient(http, "http://eights")
            latencies: list[float] = []
            rng = random.Random("bench")
            started = time.perf_counter()
            counts = await asyncio.wait_for(
                asyncio.gather(
                    *(
                        play_room(client, args.moves, random.Random(rng.random()), args.variant,
                                  latencies)
                        for _ in range(args.rooms)
                    )
                ),
                ROOM_SECONDS,
            )  # fmt: skip
            elapsed = time.perf_counter() - started
    finally:
        process.terminate()
        process.wait(30)
    latencies.sort()

    def pct(p: float) -> float:
        return round(latencies[min(len(latencies) - 1, int(p * len(latencies)))] * 1000, 2)

    total = sum(counts)
    return {
        "rooms": args.rooms,
        "moves": total,
        "seconds": round(elapsed, 2),
        "moves_per_second": round(total / elapsed),
        "latency_ms": {"p50": pct(0.5), "p95": pct(0.95), "p99": pct(0.99),
                       "mean": round(statistics.fmean(latencies) * 1000, 2)},
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rooms", type=int, default=50)
    parser.add_argument("--moves", type=int, default=200)
    parser.add_argument("--variant", default="duo")
    parser.add_argument("--redis-url")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=1))


if __name__ == "__main__":
    main()
