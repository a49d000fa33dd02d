"""Benchmark: Hard computer tables beside friend tables on one `eights serve` process.

    .venv/bin/python -m tests.bench.bench_computer_tables [--computer 200] [--friends 100]
        [--seconds 20] [--human-seconds 1.0] [--friend-interval 2.0] [--level hard]
        [--variant duo] [--pin] [--json FILE]

Starts `eights serve` on 127.0.0.1 (its embedded Redis, per-address limits off, the
computer at its normal speed) and opens --computer computer tables (one device each, which
moves --human-seconds after its turn comes, as a quick person would) and --friends friend
tables (two devices each, a move every --friend-interval seconds a table). Three phases of
--seconds each (after a warm-up): friend tables alone, computer tables alone, and both.
Prints, for each: moves a second (a computer table's own and its person's), the friend
tables' move-to-both-devices latency (p50, p99), `GET /healthz` timed every 20 ms (p50,
p99, max), the server process's CPU a move (the event loop) for each kind of table, the
workers' CPU (the computer's thinking) a computer move, and the computer's answers that
fell back to Medium's quick choice (from the metrics). The load generator is a plain
asyncio WebSocket client (tests/bench/capacity/wsclient.py) and reports its own CPU and
loop lag; the probe is a process of its own. With --pin the server's event loop has the
first core to itself and everything else shares the others (on a 2-core machine the
load generator, Redis and the workers otherwise take the loop's core now and then).
Loopback only; every loop is bounded in count and time. See docs/performance.md.
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
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import aiohttp

from tests.bench.bench_capacity import (
    EightsRoom,
    Server,
    child_redis,
    cpu_seconds,
    pct,
)
from tests.bench.capacity.rooms import Room
from tests.bench.capacity.wsclient import Socket
from tests.serve_process import _address

START_SECONDS = 30.0
SETUP_SECONDS = 300.0
WARM_SECONDS = 5.0
PROBE_SECONDS = 0.02


def descendants(pid: int) -> list[int]:
    """Every process below ``pid`` (children, their children, …)."""
    parents: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        with contextlib.suppress(OSError, ValueError, IndexError):
            ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            parents.setdefault(ppid, []).append(int(entry.name))
    found, todo = [], [pid]
    while todo:  # bounded: the process tree is finite and each pid is visited once
        for child in parents.get(todo.pop(), []):
            found.append(child)
            todo.append(child)
    return found


def workers_cpu(server: Server) -> float:
    """CPU seconds of the server's descendants but its Redis: the computer's workers (and
    the fork server they come from)."""
    total = 0.0
    for pid in descendants(server.process.pid):
        if pid != server.redis_pid:
            with contextlib.suppress(OSError):
                total += cpu_seconds(pid)
    return total


def pin(server: Server) -> None:
    """The server's event loop alone on the first core; its Redis, the computer's workers,
    the fork server and this load generator on the others (as on a host with more cores,
    where the loop never waits for a core)."""
    cores = sorted(os.sched_getaffinity(0))
    if len(cores) < 2:
        return
    os.sched_setaffinity(server.process.pid, {cores[0]})
    rest = set(cores[1:])
    for pid in [*descendants(server.process.pid), os.getpid()]:
        with contextlib.suppress(OSError):
            os.sched_setaffinity(pid, rest)


def start_server(folder: Path, metrics_port: int) -> Server:
    env = dict(os.environ, EIGHTS_HTTP_RATE="0", EIGHTS_ROOMS_PER_HOUR="0",
               EIGHTS_ROOMS_PER_DAY="0", EIGHTS_SOCKETS_PER_ADDRESS="0",
               EIGHTS_SOCKET_RATE="100000", EIGHTS_METRICS_PORT=str(metrics_port))  # fmt: skip
    env.pop("EIGHTS_BOT_DELAY", None)  # the computer at the table's own speed
    command = [sys.executable, "-m", "eights.cli.main", "serve", "--port", "0",
               "--data-dir", str(folder / "data"), "--secret", "bench"]  # fmt: skip
    process = subprocess.Popen(command, env=env, stdout=subprocess.PIPE,
                               stderr=(folder / "eights.log").open("wb"))  # fmt: skip
    port = int(_address(process).rsplit(":", 1)[1])
    give_up = time.monotonic() + START_SECONDS
    while True:  # bounded by the deadline: the embedded Redis starts after the address
        try:
            redis_pid = child_redis(process.pid)
            break
        except SystemExit:
            if time.monotonic() > give_up:
                process.terminate()
                raise
            time.sleep(0.1)
    return Server("eights", process, "127.0.0.1", port, redis_pid, None)


class ComputerRoom(Room):
    """A computer table: one device that moves ``think`` seconds after its turn comes."""

    def __init__(self, token: str, socket: Socket) -> None:
        super().__init__(token, [socket])
        self.state: dict[str, Any] | None = None
        self.computer_moves = 0
        self.person_moves = 0
        loop = asyncio.get_running_loop()
        self.readers = [loop.create_task(socket.read_loop(self.handle))]

    def handle(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        self.count(str(kind))
        if kind == "state":
            before = self.state
            self.state = message
            if before is not None and message["version"] > before["version"]:
                turn_before = before["view"].get("turn")
                if (
                    isinstance(turn_before, int)
                    and turn_before != 0
                    and not before["room"].get("hand_over")
                ):
                    self.computer_moves += 1
        elif kind == "error":
            self.codes.append(str(message.get("error")))
        self.wake()

    async def play(self, stop: asyncio.Event, think: float, rng: random.Random) -> None:
        while not stop.is_set():  # bounded by the phase's stop
            if not await self.until(lambda: self.state is not None and self._mine(), 10.0):
                continue
            state = self.state
            assert state is not None
            if state["room"].get("game_over") or state["room"].get("hand_over"):
                self.sockets[0].send({"type": "agree"})
                await self.until(partial(self._newer, state["version"]), 10.0)
                continue
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), think)  # the person's thinking
            if stop.is_set():
                return
            legal = state["view"]["legal"]
            plays = [a for a in legal if a["type"] == "play"]
            version = state["version"]
            action = rng.choice(plays or legal)
            act = {"type": "act", "seat": 0, "version": version, "id": f"p{version}"}
            self.sockets[0].send({**act, "action": action})
            self.person_moves += 1
            await self.until(partial(self._newer, version))

    def _newer(self, version: int) -> bool:
        return self.state is not None and self.state["version"] > version

    def _mine(self) -> bool:
        assert self.state is not None
        room = self.state["room"]
        return bool(room.get("hand_over") or room.get("game_over")) or (
            self.state["view"].get("turn") == 0 and bool(self.state["view"].get("legal"))
        )


async def open_tables(
    server: Server, computer: int, friends: int, level: str, variant: str
) -> tuple[list[ComputerRoom], list[EightsRoom]]:
    base = f"http://{server.host}:{server.port}"
    gate = asyncio.Semaphore(20)

    async def create(http: aiohttp.ClientSession, spec: dict[str, Any]) -> dict[str, Any]:
        async with http.post(f"{base}/api/rooms", json=spec) as r:
            made: dict[str, Any] = await r.json()
            if r.status != 201:
                raise SystemExit(f"create: {r.status} {made}")
            return made

    async def hello(token: str, credential: str) -> Socket:
        s = await Socket.open(server.host, server.port, f"/ws/{token}")
        s.send({"type": "hello", "credentials": [credential]})
        return s

    async def computer_table(http: aiohttp.ClientSession) -> ComputerRoom:
        async with gate:
            made = await create(http, {"mode": "computer", "variant": variant, "level": level,
                                       "timer": False})  # fmt: skip
            room = ComputerRoom(made["token"], await hello(made["token"],
                                                           made["credentials"]["0"]))  # fmt: skip
            if not await room.until(lambda: room.state is not None, 20):
                raise SystemExit("a computer table did not start")
            return room

    async def friend_table(http: aiohttp.ClientSession) -> EightsRoom:
        async with gate:
            host = await create(http, {"mode": "online", "variant": variant, "timer": False})
            token = host["token"]
            async with http.post(f"{base}/api/rooms/{token}/join", json={}) as r:
                guest = await r.json()
            sockets = [await hello(token, host["credentials"]["0"]),
                       await hello(token, guest["credential"])]  # fmt: skip
            room = EightsRoom(token, sockets)
            if not await room.until(room.level, 20):
                raise SystemExit("a friend table did not start")
            return room

    connector = aiohttp.TCPConnector(limit=20)
    async with aiohttp.ClientSession(connector=connector) as http:
        rooms = await asyncio.wait_for(
            asyncio.gather(
                asyncio.gather(*(computer_table(http) for _ in range(computer))),
                asyncio.gather(*(friend_table(http) for _ in range(friends))),
            ),
            SETUP_SECONDS,
        )
    return list(rooms[0]), list(rooms[1])


def _both_past(room: EightsRoom, version: int) -> bool:
    return min(room.versions) > version


async def friend_play(
    room: EightsRoom, stop: asyncio.Event, interval: float, rng: random.Random,
    latencies: list[float], measuring: Callable[[], bool],
) -> None:  # fmt: skip
    """A move every ``interval`` seconds (first at a random offset), timed from its send to
    both devices holding the new state."""
    loop = asyncio.get_running_loop()
    with contextlib.suppress(TimeoutError):
        await asyncio.wait_for(stop.wait(), rng.random() * interval)
    while not stop.is_set():  # bounded by the phase's stop
        began = loop.time()
        if await room.prepare():
            version = room.versions[0]
            send = room.move(rng)
            started = time.perf_counter()
            send()
            ok = await room.until(partial(_both_past, room, version))
            if ok and measuring():
                latencies.append(time.perf_counter() - started)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), max(0.0, interval - (loop.time() - began)))


PROBE = """
import socket, sys, time
host, port, seconds, every = sys.argv[1], int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
request = f"GET /healthz HTTP/1.1\\r\\nHost: {host}\\r\\n\\r\\n".encode()
conn = socket.create_connection((host, port))
times = []
end = time.monotonic() + seconds
while time.monotonic() < end:
    started = time.perf_counter()
    conn.sendall(request)
    data = b""
    while b"\\r\\n\\r\\n" not in data:
        data += conn.recv(65536)
    head, _, body = data.partition(b"\\r\\n\\r\\n")
    length = int(head.lower().split(b"content-length:")[1].split(b"\\r\\n")[0])
    while len(body) < length:
        body += conn.recv(65536)
    times.append(time.perf_counter() - started)
    time.sleep(every)
print(" ".join(f"{t:.6f}" for t in times))
"""
"""``GET /healthz`` every 20 ms over one kept-alive connection, from a process of its own
(so the load generator's own event loop cannot delay what it measures)."""


async def probe(server: Server, seconds: float) -> list[float]:
    process = await asyncio.create_subprocess_exec(
        sys.executable, "-c", PROBE, server.host, str(server.port), str(seconds),
        str(PROBE_SECONDS), stdout=asyncio.subprocess.PIPE,
    )  # fmt: skip
    out, _ = await asyncio.wait_for(process.communicate(), seconds + 30)
    return [float(t) for t in out.split()]


async def loop_lag(stop: asyncio.Event, lags: list[float]) -> None:
    """How late the generator's own loop wakes from a 10 ms sleep (it must stay small for
    its measurements to be the server's)."""
    loop = asyncio.get_running_loop()
    while not stop.is_set():  # bounded by the phase's stop
        started = loop.time()
        await asyncio.sleep(0.01)  # the lag monitor's tick, not a synchronisation
        lags.append(loop.time() - started - 0.01)


async def fallbacks(metrics: str) -> dict[str, float]:
    """The computer's answers by how they came, from the metrics."""
    out: dict[str, float] = {}
    async with aiohttp.ClientSession() as http, http.get(f"{metrics}/metrics") as r:
        for line in (await r.text()).splitlines():
            if line.startswith("eights_bot_answers_total{"):
                labels, value = line.rsplit(" ", 1)
                out[labels.split("{", 1)[1].rstrip("}")] = float(value)
    return out


async def phase(
    name: str, server: Server, metrics: str, computers: list[ComputerRoom],
    friends: list[EightsRoom], args: argparse.Namespace, idle_cores: float = 0.0,
) -> dict[str, Any]:  # fmt: skip
    """One phase: the tables given play for ``args.seconds`` after a warm-up. The server's
    CPU a move is net of ``idle_cores`` (what it spends with no table moving: the probe,
    timers)."""
    if args.pin:
        pin(server)  # again each phase: workers replaced meanwhile start where they like
    stop = asyncio.Event()
    measuring = [False]
    latencies: list[float] = []
    rng = random.Random(name)
    tasks = [asyncio.create_task(room.play(stop, args.human_seconds, random.Random(rng.random())))
             for room in computers]  # fmt: skip
    for room in friends:
        play = friend_play(room, stop, args.friend_interval, random.Random(rng.random()),
                           latencies, lambda: measuring[0])  # fmt: skip
        tasks.append(asyncio.create_task(play))
    await asyncio.sleep(WARM_SECONDS)  # the warm-up: a phase's length, not a synchronisation
    before_answers = await fallbacks(metrics)
    computer_before = sum(r.computer_moves for r in computers)
    person_before = sum(r.person_moves for r in computers)
    friend_before = len(latencies)
    server_before, _ = server.cpu()
    workers_before = workers_cpu(server)
    own_before = time.process_time()
    measuring[0] = True
    lags: list[float] = []
    prober = asyncio.create_task(probe(server, args.seconds))
    lagger = asyncio.create_task(loop_lag(stop, lags))
    started = time.perf_counter()
    await asyncio.sleep(args.seconds)  # the measured window: its length, not a synchronisation
    elapsed = time.perf_counter() - started
    measuring[0] = False
    server_cpu = server.cpu()[0] - server_before
    worker_cpu = workers_cpu(server) - workers_before
    own_cpu = time.process_time() - own_before
    computer_moves = sum(r.computer_moves for r in computers) - computer_before
    person_moves = sum(r.person_moves for r in computers) - person_before
    friend_moves = len(latencies) - friend_before
    after_answers = await fallbacks(metrics)
    probes = sorted(await prober)
    stop.set()
    await asyncio.wait_for(asyncio.gather(*tasks, lagger, return_exceptions=True), 30)
    latencies.sort()
    lags.sort()
    moves = computer_moves + person_moves + friend_moves
    answers = {k: v - before_answers.get(k, 0.0) for k, v in after_answers.items()}
    return {
        "phase": name,
        "seconds": round(elapsed, 1),
        "moves_per_second": {
            "computer": round(computer_moves / elapsed, 1),
            "person_at_computer_tables": round(person_moves / elapsed, 1),
            "friend": round(friend_moves / elapsed, 1),
        },
        "friend_latency_ms": {"p50": pct(latencies, 0.5), "p99": pct(latencies, 0.99)},
        "healthz_ms": {
            "p50": pct(probes, 0.5),
            "p99": pct(probes, 0.99),
            "max": pct(probes, 1.0),
        },
        "server_cpu_per_move_us": (
            round(max(0.0, server_cpu - idle_cores * elapsed) / moves * 1e6) if moves else None
        ),
        "server_cpu_cores": round(server_cpu / elapsed, 2),
        "workers_cpu_per_computer_move_ms": (
            round(worker_cpu / computer_moves * 1000, 2) if computer_moves else None
        ),
        "workers_cpu_cores": round(worker_cpu / elapsed, 2),
        "generator_cpu_cores": round(own_cpu / elapsed, 2),
        "generator_loop_lag_ms": {"p50": pct(lags, 0.5), "p99": pct(lags, 0.99)},
        "answers": {k: v for k, v in answers.items() if v},
    }


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="eights-bench-computer-"))
    with __import__("socket").socket() as s:
        s.bind(("127.0.0.1", 0))
        metrics_port = s.getsockname()[1]
    server = start_server(folder, metrics_port)
    metrics = f"http://127.0.0.1:{metrics_port}"
    try:
        computers, friends = await open_tables(
            server, args.computer, args.friends, args.level, args.variant
        )
        idle = await phase("no table moving", server, metrics, [], [], args)
        cores = idle["server_cpu_cores"]
        phases = [
            idle,
            await phase("friends alone", server, metrics, [], friends, args, cores),
            await phase("computer tables alone", server, metrics, computers, [], args, cores),
            await phase("both", server, metrics, computers, friends, args, cores),
        ]
        for room in [*computers, *friends]:
            for s in room.sockets:
                s.close()
    finally:
        server.stop()
    alone = {p["phase"]: p for p in phases}
    friend_cpu = alone["friends alone"]["server_cpu_per_move_us"]
    computer_cpu = alone["computer tables alone"]["server_cpu_per_move_us"]
    return {
        "computer_tables": args.computer,
        "friend_tables": args.friends,
        "level": args.level,
        "variant": args.variant,
        "human_seconds": args.human_seconds,
        "friend_interval": args.friend_interval,
        "cores": os.cpu_count(),
        "pinned": args.pin,
        "phases": phases,
        "computer_move_to_friend_move_server_cpu": (
            round(computer_cpu / friend_cpu, 2) if friend_cpu and computer_cpu else None
        ),
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--computer", type=int, default=200)
    parser.add_argument("--friends", type=int, default=100)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--human-seconds", type=float, default=1.0)
    parser.add_argument("--friend-interval", type=float, default=2.0)
    parser.add_argument("--level", default="hard")
    parser.add_argument("--variant", default="duo")
    parser.add_argument("--json", type=Path)
    parser.add_argument(
        "--pin",
        action="store_true",
        help="the server's event loop alone on the first core, everything else on the others",
    )
    args = parser.parse_args()
    report = asyncio.run(run(args))
    text = json.dumps(report, indent=1)
    print(text)
    if args.json:
        args.json.write_text(text + "\n")


if __name__ == "__main__":
    main()
