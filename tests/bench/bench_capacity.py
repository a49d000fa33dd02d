"""Capacity benchmark (issue 14): Eights against the bare stack, in one run.

    .venv/bin/python -m tests.bench.bench_capacity [--quick] [--rooms 50 500] [--seconds 10]
                                                   [--json FILE]

Starts ``eights serve`` (its own data dir, embedded Redis, 127.0.0.1, per-address limits
off) and the stack-limit server (``tests/bench/capacity/stack_server.py``: aiohttp + one
Redis Lua compare-and-set of a 2 KB blob + two sends a move, with its own redis-server).
For each room count, opens that many online duo rooms (two devices each, both driven
here), and plays in every room a legal move as soon as both devices hold the latest state:
saturated, then paced at half of Eights' saturated rate. Latency is a move sent → both
devices holding the new state. Server CPU is read from /proc for the server and its Redis
separately; the generator reports its own CPU. Not a test: bounded in count and time,
loopback only. See docs/performance.md, "Capacity (issue 14)".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from redis import Redis

from eights.storage.datadir import socket_path
from eights.storage.embedded import redis_server_binary
from tests.bench.capacity.wsclient import Socket
from tests.serve_process import _address

TICK = os.sysconf("SC_CLK_TCK")
WAIT = 5.0  # seconds a room waits for an answer before it looks again
START_SECONDS = 30.0
SETUP_SECONDS = 120.0
PAGE = 4096


# --- processes ---------------------------------------------------------------------------


def cpu_seconds(pid: int) -> float:
    """User + system CPU of a process, from /proc/<pid>/stat."""
    text = Path(f"/proc/{pid}/stat").read_text()
    fields = text.rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / TICK


def rss_bytes(pid: int) -> int:
    return int(Path(f"/proc/{pid}/statm").read_text().split()[1]) * PAGE


def child_redis(pid: int) -> int:
    """The pid of the redis-server that ``pid`` started."""
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError):
            stat = (entry / "stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) != pid or "redis" not in stat:
                continue
            return int(entry.name)
    raise SystemExit(f"no redis-server under process {pid}")


@dataclass
class Server:
    name: str
    process: subprocess.Popen[bytes]
    host: str
    port: int
    redis_pid: int
    redis_socket: str
    extra: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def cpu(self) -> tuple[float, float]:
        return cpu_seconds(self.process.pid), cpu_seconds(self.redis_pid)

    def stop(self) -> None:
        for process in [self.process, *self.extra]:
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def start_eights(folder: Path) -> Server:
    env = dict(os.environ, EIGHTS_BOT_DELAY="0", EIGHTS_HTTP_RATE="0", EIGHTS_ROOMS_PER_HOUR="0",
               EIGHTS_ROOMS_PER_DAY="0", EIGHTS_SOCKETS_PER_ADDRESS="0",
               EIGHTS_REDIS_POOL="4000")  # fmt: skip
    command = [sys.executable, "-m", "eights.cli.main", "serve", "--port", "0",
               "--data-dir", str(folder / "eights-data"), "--secret", "bench"]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=(folder / "eights.log").open("wb"))  # fmt: skip
    try:
        port = int(_address(process).rsplit(":", 1)[1])
        give_up = time.monotonic() + START_SECONDS
        while True:  # bounded by the deadline: the embedded Redis starts after the address
            try:
                redis_pid = child_redis(process.pid)
                break
            except SystemExit:
                if time.monotonic() > give_up:
                    raise
                time.sleep(0.1)
    except BaseException:
        process.terminate()
        process.wait(30)
        raise
    socket = str(socket_path(folder / "eights-data" / "redis"))
    return Server("eights", process, "127.0.0.1", port, redis_pid, socket)


def start_stack(folder: Path, view_bytes: int) -> Server:
    data = folder / "stack-redis"
    data.mkdir()
    socket = str(data / "redis.sock")
    redis = subprocess.Popen(
        [redis_server_binary(), "--port", "0", "--unixsocket", socket, "--dir", str(data),
         "--appendonly", "yes", "--appendfsync", "everysec", "--save", "",
         "--loglevel", "warning"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    give_up = time.monotonic() + START_SECONDS
    while not os.path.exists(socket):  # bounded by the deadline
        if time.monotonic() > give_up or redis.poll() is not None:
            raise SystemExit("the stack's redis-server did not start")
        time.sleep(0.05)
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.bench.capacity.stack_server", "--redis-socket", socket,
         "--view-bytes", str(view_bytes)],
        stdout=subprocess.PIPE, stderr=(folder / "stack.log").open("wb"),
    )  # fmt: skip
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    if not line.startswith("listening on "):
        redis.terminate()
        raise SystemExit(f"the stack server did not start: {line!r}")
    return Server("stack", process, "127.0.0.1", int(line.split()[-1]), redis.pid, socket,
                  [redis])  # fmt: skip


# --- the load generator --------------------------------------------------------------------


@dataclass
class Phase:
    interval: float | None  # seconds between a room's moves, None when saturated
    stop: bool = False
    measuring: bool = False
    latencies: list[float] = field(default_factory=list)
    errors: dict[str, int] = field(default_factory=dict)
    stalls: int = 0


class Room:
    def __init__(self, token: str, sockets: list[Socket]) -> None:
        self.token = token
        self.sockets = sockets
        self.states: list[dict[str, Any] | None] = [None, None]
        self.versions = [0, 0]
        self.error = False
        self.codes: list[str] = []
        self.waiter: asyncio.Future[None] | None = None
        self.readers = [
            asyncio.get_running_loop().create_task(s.read_loop(self.handler(i)))
            for i, s in enumerate(sockets)
        ]

    def handler(self, index: int) -> Callable[[dict[str, Any]], None]:
        def handle(message: dict[str, Any]) -> None:
            kind = message.get("type")
            if kind == "state":
                self.states[index] = message
                self.versions[index] = message["version"]
            elif kind == "error":
                self.error = True
                self.codes.append(str(message.get("error")))
            else:
                return
            self.wake()

        return handle

    def wake(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(None)

    async def until(self, ready: Callable[[], bool], seconds: float = WAIT) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + seconds
        while not ready():  # bounded by the deadline
            if self.error or loop.time() >= deadline:
                return False
            self.waiter = loop.create_future()
            timer = loop.call_at(deadline, self.wake)
            await self.waiter
            timer.cancel()
        return True

    def dealt(self) -> bool:
        """Both devices hold a state of a hand in play (after both agreed)."""
        return all(s is not None and not s["room"].get("hand_over") for s in self.states)

    def level(self) -> bool:
        return self.versions[0] == self.versions[1] > 0

    async def drive(self, phase: Phase, rng: random.Random) -> None:
        loop = asyncio.get_running_loop()
        slot = loop.time() + rng.random() * (phase.interval or 0)
        while not phase.stop:  # bounded: the phase stops it
            if self.error:
                if phase.measuring:
                    for code in self.codes:
                        phase.errors[code] = phase.errors.get(code, 0) + 1
                self.codes.clear()
                self.error = False
                await asyncio.sleep(0.05)  # a refusal (rate limit, stale version): let it pass
                continue
            if not await self.until(self.level):
                phase.stalls += phase.measuring
                continue
            version = self.versions[0]
            state = self.states[0]
            assert state is not None
            turn = state["view"].get("turn")
            mover = self.states[turn] if isinstance(turn, int) else None
            legal = mover["view"].get("legal") if mover else None
            if state["room"].get("hand_over") or not legal:
                seats = state["room"].get("seats") or [{}, {}]
                for seat, s in zip(seats, self.sockets, strict=False):
                    if not seat.get("agreed"):
                        s.send({"type": "agree"})
                await self.until(self.dealt)
                continue
            if phase.interval is not None:
                now = loop.time()
                if slot > now:
                    await asyncio.sleep(min(slot - now, 0.5))
                    if slot > loop.time():
                        continue
                slot = max(slot + phase.interval, loop.time() - phase.interval)
            plays = [a for a in legal if a["type"] == "play"]
            started = time.perf_counter()
            action = rng.choice(plays or legal)
            act = {"type": "act", "seat": turn, "version": version, "id": f"m{version}"}
            self.sockets[turn].send({**act, "action": action})
            if await self.until(lambda: min(self.versions) > version):  # noqa: B023
                if phase.measuring:
                    phase.latencies.append(time.perf_counter() - started)
            elif phase.measuring and not self.error:
                phase.stalls += 1

    def close(self) -> None:
        for s in self.sockets:
            s.close()
        for r in self.readers:
            r.cancel()


async def open_rooms(server: Server, count: int) -> list[Room]:
    base = f"http://{server.host}:{server.port}"
    gate = asyncio.Semaphore(20)

    async def one(http: aiohttp.ClientSession) -> Room:
        async with gate:
            async with http.post(f"{base}/api/rooms", json={"mode": "online", "variant": "duo",
                                                            "timer": False}) as r:  # fmt: skip
                host = await r.json()
                if r.status != 201:
                    raise SystemExit(f"create: {r.status} {host}")
            token = host["token"]
            async with http.post(f"{base}/api/rooms/{token}/join", json={}) as r:
                guest = await r.json()
                if r.status >= 300:
                    raise SystemExit(f"join: {r.status} {guest}")
            sockets = []
            for credential in (next(iter(host["credentials"].values())), guest["credential"]):
                s = await Socket.open(server.host, server.port, f"/ws/{token}")
                s.send({"type": "hello", "credentials": [credential]})
                sockets.append(s)
            room = Room(token, sockets)
            if not await room.until(room.level, 20):
                raise SystemExit(f"room {token} did not start")
            return room

    connector = aiohttp.TCPConnector(limit=20)
    async with aiohttp.ClientSession(connector=connector) as http:
        return await asyncio.wait_for(
            asyncio.gather(*(one(http) for _ in range(count))), SETUP_SECONDS
        )


def pct(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    return round(values[min(len(values) - 1, int(p * len(values)))] * 1000, 2)


async def run_phase(
    server: Server, rooms: list[Room], interval: float | None, warm: float, seconds: float
) -> dict[str, Any]:
    phase = Phase(interval)
    rng = random.Random(f"{server.name}{len(rooms)}{interval}")
    tasks = [asyncio.create_task(r.drive(phase, random.Random(rng.random()))) for r in rooms]
    await asyncio.sleep(warm)
    server_cpu, redis_cpu = server.cpu()
    mine = os.times()
    phase.measuring = True
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    phase.measuring = False
    elapsed = time.perf_counter() - started
    server_after, redis_after = server.cpu()
    mine_after = os.times()
    phase.stop = True
    await asyncio.wait_for(asyncio.gather(*tasks), WAIT * 3)
    moves = len(phase.latencies)
    lat = sorted(phase.latencies)
    generator = (mine_after.user + mine_after.system) - (mine.user + mine.system)
    per = 1e6 / max(moves, 1)
    return {
        "server": server.name, "rooms": len(rooms),
        "mode": "saturated" if interval is None else "paced",
        "target_per_second": None if interval is None else round(len(rooms) / interval),
        "moves": moves, "moves_per_second": round(moves / elapsed),
        "p50_ms": pct(lat, 0.5), "p95_ms": pct(lat, 0.95), "p99_ms": pct(lat, 0.99),
        "server_us_per_move": round((server_after - server_cpu) * per),
        "redis_us_per_move": round((redis_after - redis_cpu) * per),
        "generator_cores": round(generator / elapsed, 3),
        "generator_us_per_move": round(generator * per),
        "errors": phase.errors, "stalls": phase.stalls,
    }  # fmt: skip


def redis_bytes_per_room(server: Server, rooms: list[Room]) -> int:
    client = Redis(unix_socket_path=server.redis_socket)
    try:
        sample = rooms[:: max(1, len(rooms) // 20)][:20]
        total = 0
        for room in sample:
            for key in client.scan_iter(match=f"*{room.token}*", count=1000):
                total += int(client.memory_usage(key, samples=0) or 0)
        return round(total / len(sample))
    finally:
        client.close()


async def measure(
    server: Server, count: int, warm: float, seconds: float, half_of: dict[int, int],
    profile: str | None = None,
) -> list[dict[str, Any]]:
    rss_before = rss_bytes(server.process.pid)
    rooms = await open_rooms(server, count)
    await asyncio.sleep(0.5)
    rss_after = rss_bytes(server.process.pid)
    try:
        profiler = None
        if profile:  # py-spy over the saturated phase (warm-up included)
            spy = str(Path(sys.executable).with_name("py-spy"))
            profiler = subprocess.Popen(
                [spy, "record", "--pid", str(server.process.pid), "--format", "raw", "--rate",
                 "250", "--output", f"{profile}.{count}", "--duration", str(round(warm + seconds))],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip
        results = [await run_phase(server, rooms, None, warm, seconds)]
        if profiler is not None:
            profiler.wait(30)
        print(results[-1], file=sys.stderr)
        if server.name == "eights":
            half_of[count] = max(1, results[0]["moves_per_second"] // 2)
        results.append(await run_phase(server, rooms, count / half_of[count], warm, seconds))
        print(results[-1], file=sys.stderr)
        per_socket = round((rss_after - rss_before) / (2 * count))
        per_room = redis_bytes_per_room(server, rooms)
        for r in results:
            r["rss_bytes_per_socket"] = per_socket
            r["redis_bytes_per_room"] = per_room
        return results
    finally:
        for room in rooms:
            room.close()
        await asyncio.sleep(0.5)


@contextlib.contextmanager
def servers(folder: Path, view_bytes: int) -> Iterator[tuple[Server, Server]]:
    eights = start_eights(folder)
    try:
        stack = start_stack(folder, view_bytes)
        try:
            yield eights, stack
        finally:
            stack.stop()
    finally:
        eights.stop()


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="eights-capacity-"))
    results: list[dict[str, Any]] = []
    half_of: dict[int, int] = {}
    load = os.getloadavg()
    with servers(folder, args.stack_view_bytes) as (eights, stack):
        await asyncio.sleep(1)
        for count in args.rooms:
            for server in (eights, stack):
                if server.name in args.servers:
                    profile = args.profile if server.name == "eights" else None
                    results += await measure(server, count, args.warm, args.seconds, half_of,
                                             profile)  # fmt: skip
    ratios = []
    for count in args.rooms:
        for mode in ("saturated", "paced"):
            pair = [next((r for r in results if r["server"] == n and r["rooms"] == count
                          and r["mode"] == mode), None) for n in ("eights", "stack")]  # fmt: skip
            e, s = pair
            if e is None or s is None:
                continue
            ratios.append({
                "rooms": count, "mode": mode,
                "moves_per_second": round(e["moves_per_second"] / max(1, s["moves_per_second"]), 2),
                "server_us_per_move": round(e["server_us_per_move"]
                                            / max(1, s["server_us_per_move"]), 2),
                "p99": round(e["p99_ms"] / s["p99_ms"], 2) if s["p99_ms"] else None,
            })  # fmt: skip
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_before": [round(x, 2) for x in load],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(), "seconds": args.seconds,
        "stack_view_bytes": args.stack_view_bytes, "results": results, "ratios": ratios,
    }  # fmt: skip


COLUMNS = [
    ("server", "server", "{}"), ("rooms", "rooms", "{}"), ("mode", "mode", "{}"),
    ("moves/s", "moves_per_second", "{:,}"), ("p50 ms", "p50_ms", "{}"),
    ("p95 ms", "p95_ms", "{}"), ("p99 ms", "p99_ms", "{}"),
    ("server µs/move", "server_us_per_move", "{}"), ("redis µs/move", "redis_us_per_move", "{}"),
    ("generator cores", "generator_cores", "{}"), ("RSS B/socket", "rss_bytes_per_socket", "{:,}"),
    ("Redis B/room", "redis_bytes_per_room", "{:,}"), ("refusals", "errors", "{}"),
]  # fmt: skip


def table(report: dict[str, Any]) -> str:
    lines = ["| " + " | ".join(c[0] for c in COLUMNS) + " |",
             "|" + "---|" * len(COLUMNS)]  # fmt: skip
    for r in report["results"]:
        lines.append("| " + " | ".join(f.format(r[k]) for _, k, f in COLUMNS) + " |")
    lines += ["", "| Eights/stack | rooms | mode | moves/s | server µs/move | p99 |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    for q in report["ratios"]:
        lines.append(f"| | {q['rooms']} | {q['mode']} | {q['moves_per_second']} | "
                     f"{q['server_us_per_move']} | {q['p99']} |")  # fmt: skip
    lines.append("")
    lines.append(f"{report['date']}, {report['cpus']} CPUs, {report['seconds']} s a phase, "
                 f"load average before {report['load_average_before']}, "
                 f"after {report['load_average_after']}")  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 500])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds a phase")
    parser.add_argument("--warm", type=float, default=2.0, help="warm-up seconds a phase")
    parser.add_argument("--quick", action="store_true", help="a one-minute smoke run")
    parser.add_argument("--json", help="also write the report to this file")
    parser.add_argument("--servers", nargs="+", default=["eights", "stack"])
    parser.add_argument("--profile", help="py-spy raw profile of eights serve to this file")
    parser.add_argument(
        "--stack-view-bytes", type=int, default=0,
        help="pad the stack server's states to this size (Eights' views are 3-5 KB)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.warm = 4.0, 1.0
    args.seconds = min(args.seconds, 120.0)
    args.rooms = [min(max(1, n), 2000) for n in args.rooms]
    report = asyncio.run(run(args))
    print(table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")


if __name__ == "__main__":
    main()
