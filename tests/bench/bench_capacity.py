"""Capacity benchmark: Eights against the bare stack and boardgame.io, in one run.

    .venv/bin/python -m tests.bench.bench_capacity [--quick] [--rooms 50 500] [--seconds 10]
        [--servers eights stack bgio] [--repeat K] [--paced-steps 0.25 0.5 0.75]
        [--json FILE] [--chart FILE.svg]

Starts ``eights serve`` (its own data dir, embedded Redis, 127.0.0.1, per-address limits
off), the stack-limit server (``tests/bench/capacity/stack_server.py``: aiohttp + one
Redis Lua compare-and-set of a 2 KB blob + two sends a move, with its own redis-server)
and a boardgame.io 0.50.2 server (``tests/bench/capacity/bgio/server.js``: Crazy Eights
duo in memory, a private view per player, socket.io; needs node and npm, skipped without
them; ``npm ci`` there when ``node_modules`` is missing). For each room count, opens that
many duo rooms (two devices each, both driven here), and plays in every room a legal move
as soon as both devices hold the latest state: saturated, then paced at fractions of
Eights' saturated rate (half by default). With ``--repeat K`` the servers are measured K
times in rotating order and the medians are reported. Latency is a move sent → both
devices holding the new state. Server CPU is read from /proc for the server and its Redis
separately; the generator reports its own CPU. Not a test: bounded in count and time,
loopback only. See docs/performance.md, "Capacity: Eights against the bare stack and boardgame.io".
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import shutil
import statistics
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
from eights.tableclient import apply_patch
from tests.bench.capacity import bgioclient, chart
from tests.bench.capacity.rooms import WAIT, Phase, Room
from tests.bench.capacity.wsclient import Socket
from tests.serve_process import _address

TICK = os.sysconf("SC_CLK_TCK")
START_SECONDS = 30.0
SETUP_SECONDS = 120.0
NPM_SECONDS = 300.0
PAGE = 4096
BGIO = Path(__file__).parent / "capacity" / "bgio"
SERVERS = ("eights", "stack", "bgio")


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
    redis_pid: int | None  # None: no Redis (bgio keeps its matches in memory)
    redis_socket: str | None
    extra: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def cpu(self) -> tuple[float, float]:
        redis = cpu_seconds(self.redis_pid) if self.redis_pid is not None else 0.0
        return cpu_seconds(self.process.pid), redis

    def stop(self) -> None:
        for process in [self.process, *self.extra]:
            if process.poll() is None:
                process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)


def start_eights(folder: Path, fsync: str) -> Server:
    """``eights serve`` as shipped (its default Redis pool), its per-address and per-socket
    limits off (every socket comes from 127.0.0.1, and a saturated socket sends more than a
    player's 20 messages a second), the embedded Redis fsyncing as ``fsync`` says."""
    env = dict(os.environ, EIGHTS_BOT_DELAY="0", EIGHTS_HTTP_RATE="0", EIGHTS_ROOMS_PER_HOUR="0",
               EIGHTS_ROOMS_PER_DAY="0", EIGHTS_SOCKETS_PER_ADDRESS="0",
               EIGHTS_SOCKET_RATE="100000", EIGHTS_REDIS_FSYNC=fsync)  # fmt: skip
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


def start_stack(folder: Path, view_bytes: int, fsync: str) -> Server:
    data = folder / "stack-redis"
    data.mkdir()
    socket = str(data / "redis.sock")
    redis = subprocess.Popen(
        [redis_server_binary(), "--port", "0", "--unixsocket", socket, "--dir", str(data),
         "--appendonly", "yes", "--appendfsync", fsync, "--save", "",
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


def bgio_ready() -> str | None:
    """Install the bgio server's node_modules (``npm ci``) when missing: None when ready,
    else why bgio is skipped."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        return "node or npm is not installed"
    if (BGIO / "node_modules" / "boardgame.io").is_dir():
        return None
    print(f"installing boardgame.io into {BGIO / 'node_modules'} (npm ci)", file=sys.stderr)
    try:
        done = subprocess.run([npm, "ci", "--no-audit", "--no-fund"], cwd=BGIO,
                              capture_output=True, timeout=NPM_SECONDS, check=False)  # fmt: skip
    except subprocess.TimeoutExpired:
        return f"npm ci took over {NPM_SECONDS:.0f} s"
    if done.returncode:
        return f"npm ci failed: {done.stderr.decode(errors='replace')[-500:]}"
    return None


def start_bgio(folder: Path) -> Server:
    node = shutil.which("node")
    assert node is not None
    env = dict(os.environ, NODE_ENV="production")  # as deployed: no dev checks, no info logs
    process = subprocess.Popen([node, "server.js"], cwd=BGIO, env=env, stdout=subprocess.PIPE,
                               stderr=(folder / "bgio.log").open("wb"))  # fmt: skip
    assert process.stdout is not None
    line = process.stdout.readline().decode()
    if not line.startswith("listening on "):
        process.terminate()
        process.wait(10)
        raise SystemExit(f"the bgio server did not start: {line!r}, see {folder / 'bgio.log'}")
    return Server("bgio", process, "127.0.0.1", int(line.split()[-1]), None, None)


# --- the load generator --------------------------------------------------------------------


class EightsRoom(Room):
    """A room of docs/protocol.md (Eights, and the stack server that mimics it)."""

    def __init__(self, token: str, sockets: list[Socket]) -> None:
        super().__init__(token, sockets)
        self.states: list[dict[str, Any] | None] = [None, None]
        loop = asyncio.get_running_loop()
        self.readers = [
            loop.create_task(s.read_loop(self.handler(i))) for i, s in enumerate(sockets)
        ]

    def handler(self, index: int) -> Callable[[dict[str, Any]], None]:
        def handle(message: dict[str, Any]) -> None:
            kind = message.get("type")
            self.count(str(kind))
            if kind == "state":
                self.states[index] = message
                self.versions[index] = message["version"]
            elif kind == "patch":  # as the web table does: the state it makes, or a sync
                held = self.states[index]
                made = None if held is None else apply_patch(held, message)
                if made is None:
                    self.count("sync")
                    self.sockets[index].send({"type": "sync"})
                    return
                self.states[index] = made
                self.versions[index] = made["version"]
            elif kind == "error":
                self.error = True
                self.codes.append(str(message.get("error")))
            else:
                return
            self.wake()

        return handle

    def dealt(self) -> bool:
        """Both devices hold a state of a hand in play (after both agreed)."""
        return all(s is not None and not s["room"].get("hand_over") for s in self.states)

    def legal(self) -> tuple[int, list[dict[str, Any]]]:
        state = self.states[0]
        assert state is not None
        turn = state["view"].get("turn")
        mover = self.states[turn] if isinstance(turn, int) else None
        legal = mover["view"].get("legal") if mover else None
        return (turn if isinstance(turn, int) else -1), legal or []

    async def prepare(self) -> bool:
        state = self.states[0]
        assert state is not None
        if state["room"].get("hand_over") or not self.legal()[1]:
            seats = state["room"].get("seats") or [{}, {}]
            for seat, s in zip(seats, self.sockets, strict=False):
                if not seat.get("agreed"):
                    s.send({"type": "agree"})
            await self.until(self.dealt)
            return False
        return True

    def move(self, rng: random.Random) -> Callable[[], None]:
        turn, legal = self.legal()
        version = self.versions[0]
        plays = [a for a in legal if a["type"] == "play"]
        action = rng.choice(plays or legal)
        act = {"type": "act", "seat": turn, "version": version, "id": f"m{version}"}
        socket = self.sockets[turn]
        return lambda: socket.send({**act, "action": action})


async def open_rooms(server: Server, count: int, *, patches: bool = True) -> list[Room]:
    base = f"http://{server.host}:{server.port}"
    gate = asyncio.Semaphore(20)

    async def eights(http: aiohttp.ClientSession) -> Room:
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
            hello: dict[str, Any] = {"type": "hello", "credentials": [credential]}
            if patches:
                hello["patches"] = True
            s.send(hello)
            sockets.append(s)
        return EightsRoom(token, sockets)

    async def one(http: aiohttp.ClientSession) -> Room:
        async with gate:
            if server.name == "bgio":
                room: Room = await bgioclient.open_match(http, server.host, server.port)
            else:
                room = await eights(http)
            if not await room.until(room.level, 20):
                raise SystemExit(f"room {room.token} did not start")
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


def received(rooms: list[Room]) -> tuple[dict[str, int], int]:
    """Messages received so far by kind, and their bytes, over all the rooms' devices."""
    kinds: dict[str, int] = {}
    for room in rooms:
        for kind, n in room.kinds.items():
            kinds[kind] = kinds.get(kind, 0) + n
    return kinds, sum(s.received_bytes for room in rooms for s in room.sockets)


async def run_phase(
    server: Server, rooms: list[Room], target: int | None, fraction: float | None,
    warm: float, seconds: float,
) -> dict[str, Any]:  # fmt: skip
    """One phase: saturated when ``target`` (moves/s over all rooms) is None."""
    interval = None if target is None else len(rooms) / target
    phase = Phase(interval)
    rng = random.Random(f"{server.name}{len(rooms)}{interval}")
    tasks = [asyncio.create_task(r.drive(phase, random.Random(rng.random()))) for r in rooms]
    await asyncio.sleep(warm)
    server_cpu, redis_cpu = server.cpu()
    mine = os.times()
    kinds, bytes_in = received(rooms)
    phase.measuring = True
    started = time.perf_counter()
    await asyncio.sleep(seconds)
    phase.measuring = False
    elapsed = time.perf_counter() - started
    server_after, redis_after = server.cpu()
    mine_after = os.times()
    kinds_after, bytes_after = received(rooms)
    phase.stop = True
    await asyncio.wait_for(asyncio.gather(*tasks), WAIT * 3)
    moves = len(phase.latencies)
    lat = sorted(phase.latencies)
    generator = (mine_after.user + mine_after.system) - (mine.user + mine.system)
    per = 1e6 / max(moves, 1)
    return {
        "server": server.name, "rooms": len(rooms),
        "mode": "saturated" if interval is None else "paced", "fraction": fraction,
        "target_per_second": target,
        "moves": moves, "moves_per_second": round(moves / elapsed),
        "p50_ms": pct(lat, 0.5), "p95_ms": pct(lat, 0.95), "p99_ms": pct(lat, 0.99),
        "server_us_per_move": round((server_after - server_cpu) * per),
        "redis_us_per_move": None if server.redis_pid is None
                             else round((redis_after - redis_cpu) * per),
        "generator_cores": round(generator / elapsed, 3),
        "generator_us_per_move": round(generator * per),
        "received_bytes_per_move": round((bytes_after - bytes_in) / max(moves, 1)),
        "received_per_move": {k: round((n - kinds.get(k, 0)) / max(moves, 1), 3)
                              for k, n in sorted(kinds_after.items()) if n > kinds.get(k, 0)},
        "errors": phase.errors, "stalls": phase.stalls,
    }  # fmt: skip


def redis_bytes_per_room(server: Server, rooms: list[Room]) -> int | None:
    if server.redis_socket is None:
        return None
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
    server: Server, count: int, args: argparse.Namespace, reference: dict[int, int],
    run: int,
) -> list[dict[str, Any]]:  # fmt: skip
    """Saturated, then paced at each fraction of the reference (Eights') saturated rate.
    The first saturated run of a room count sets the reference for all the others."""
    warm, seconds = args.warm, args.seconds
    rss_before = rss_bytes(server.process.pid)
    rooms = await open_rooms(server, count, patches=not args.whole_states)
    await asyncio.sleep(0.5)
    rss_after = rss_bytes(server.process.pid)
    try:
        profiling = args.profile and server.name == "eights" and run == 0

        def spy(phase: str) -> subprocess.Popen[bytes] | None:
            """py-spy over one phase of Eights (warm-up included), to PROFILE.ROOMS.PHASE."""
            if not profiling:
                return None
            return subprocess.Popen(
                [str(Path(sys.executable).with_name("py-spy")), "record", "--pid",
                 str(server.process.pid), "--format", "raw", "--rate", "250", "--output",
                 f"{args.profile}.{count}.{phase}", "--duration", str(round(warm + seconds))],
                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)  # fmt: skip

        profiler = spy("saturated")
        results = [await run_phase(server, rooms, None, None, warm, seconds)]
        if profiler is not None:
            profiler.wait(30)
        print(results[-1], file=sys.stderr)
        reference.setdefault(count, args.reference or max(1, results[0]["moves_per_second"]))
        for fraction in args.paced_steps:
            target = max(1, round(fraction * reference[count]))
            profiler = spy(f"paced{fraction}")
            results.append(await run_phase(server, rooms, target, fraction, warm, seconds))
            if profiler is not None:
                profiler.wait(30)
            print(results[-1], file=sys.stderr)
        # Only a server's first opening of rooms grows it: later ones reuse what the first
        # freed (the figure would be near 0 or below), so they report none.
        per_socket = round((rss_after - rss_before) / (2 * count)) if run == 0 else None
        per_room = redis_bytes_per_room(server, rooms)
        for r in results:
            r["run"] = run
            r["rss_bytes_per_socket"] = per_socket
            r["redis_bytes_per_room"] = per_room
        return results
    finally:
        for room in rooms:
            room.close()
        await asyncio.sleep(0.5)


@contextlib.contextmanager
def servers(folder: Path, args: argparse.Namespace) -> Iterator[list[Server]]:
    """The servers asked for, in the order of SERVERS, stopped on the way out."""
    with contextlib.ExitStack() as stack:
        started = []
        for name in SERVERS:
            if name not in args.servers:
                continue
            if name == "eights":
                server = start_eights(folder, args.fsync)
            elif name == "stack":
                server = start_stack(folder, args.stack_view_bytes, args.fsync)
            else:
                server = start_bgio(folder)
            stack.callback(server.stop)
            started.append(server)
        yield started


MEDIAN_FIELDS = (
    "moves", "moves_per_second", "p50_ms", "p95_ms", "p99_ms", "server_us_per_move",
    "redis_us_per_move", "generator_cores", "generator_us_per_move", "received_bytes_per_move",
    "rss_bytes_per_socket", "redis_bytes_per_room", "stalls",
)  # fmt: skip


def medians(results: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """One row per (server, rooms, mode, fraction): the median of each number over runs."""
    groups: dict[tuple[Any, ...], list[dict[str, Any]]] = {}
    for r in results:
        groups.setdefault((r["server"], r["rooms"], r["mode"], r["fraction"]), []).append(r)
    rows = []
    for group in groups.values():
        row = {k: group[0][k] for k in ("server", "rooms", "mode", "fraction",
                                        "target_per_second")}  # fmt: skip
        row["runs"] = len(group)
        for key in MEDIAN_FIELDS:
            values = [r[key] for r in group if r[key] is not None and r[key] == r[key]]
            middle = statistics.median(values) if values else None
            row[key] = (
                None if middle is None
                else int(middle) if float(middle).is_integer() else round(middle, 3)
            )  # fmt: skip
        errors: dict[str, int] = {}
        for r in group:
            for code, n in r["errors"].items():
                errors[code] = errors.get(code, 0) + n
        row["errors"] = errors
        rows.append(row)
    order = {name: i for i, name in enumerate(SERVERS)}
    return sorted(rows, key=lambda r: (r["rooms"], order[r["server"]], r["mode"] == "paced",
                                       r["fraction"] or 0))  # fmt: skip


def ratio(a: float | None, b: float | None) -> float | None:
    return round(a / b, 2) if a is not None and b else None


def ratios(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Eights over each other server, from the medians."""
    found = {(r["server"], r["rooms"], r["mode"], r["fraction"]): r for r in rows}
    out = []
    for (name, count, mode, fraction), e in found.items():
        if name != "eights":
            continue
        for other in SERVERS[1:]:
            o = found.get((other, count, mode, fraction))
            if o is None:
                continue
            out.append({
                "versus": other, "rooms": count, "mode": mode, "fraction": fraction,
                "moves_per_second": ratio(e["moves_per_second"], o["moves_per_second"]),
                "server_us_per_move": ratio(e["server_us_per_move"], o["server_us_per_move"]),
                "p99": ratio(e["p99_ms"], o["p99_ms"]),
            })  # fmt: skip
    return out


async def run(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="eights-capacity-"))
    results: list[dict[str, Any]] = []
    reference: dict[int, int] = {}
    load = os.getloadavg()
    with servers(folder, args) as started:
        await asyncio.sleep(1)
        for count in args.rooms:
            for k in range(args.repeat):  # rotate the order: noise hits every server alike
                shift = k % len(started)
                for server in started[shift:] + started[:shift]:
                    results += await measure(server, count, args, reference, k)
    rows = medians(results)
    return {
        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
        "load_average_before": [round(x, 2) for x in load],
        "load_average_after": [round(x, 2) for x in os.getloadavg()],
        "cpus": os.cpu_count(), "seconds": args.seconds, "warm": args.warm,
        "repeat": args.repeat, "paced_steps": args.paced_steps,
        "pace_reference": {"server": args.servers[0], "moves_per_second": reference},
        "stack_view_bytes": args.stack_view_bytes, "patches": not args.whole_states,
        "fsync": args.fsync, "skipped": args.skipped,
        "notes": ["bgio keeps its matches in memory: no Redis, so its redis fields are null"]
                 if "bgio" in args.servers else [],
        "results": results, "medians": rows, "ratios": ratios(rows),
    }  # fmt: skip


def cell(value: Any, form: str) -> str:
    if value is None:
        return "–"
    return form.format(value)


COLUMNS = [
    ("server", "server", "{}"), ("rooms", "rooms", "{}"), ("mode", "mode", "{}"),
    ("run", "run", "{}"), ("target/s", "target_per_second", "{:,}"),
    ("moves/s", "moves_per_second", "{:,}"), ("p50 ms", "p50_ms", "{}"),
    ("p95 ms", "p95_ms", "{}"), ("p99 ms", "p99_ms", "{}"),
    ("server µs/move", "server_us_per_move", "{}"), ("redis µs/move", "redis_us_per_move", "{}"),
    ("generator cores", "generator_cores", "{}"), ("B in/move", "received_bytes_per_move", "{:,}"),
    ("RSS B/socket", "rss_bytes_per_socket", "{:,}"),
    ("Redis B/room", "redis_bytes_per_room", "{:,}"), ("stalls", "stalls", "{}"),
    ("refusals", "errors", "{}"),
]  # fmt: skip


def rows_table(rows: list[dict[str, Any]], columns: list[tuple[str, str, str]]) -> list[str]:
    lines = ["| " + " | ".join(c[0] for c in columns) + " |", "|" + "---|" * len(columns)]
    for r in rows:
        lines.append("| " + " | ".join(cell(r.get(k), f) for _, k, f in columns) + " |")
    return lines


def table(report: dict[str, Any]) -> str:
    lines = rows_table(report["results"], COLUMNS)
    if report["repeat"] > 1:
        lines += ["", f"Medians of {report['repeat']} runs:", ""]
        median_columns = [c if c[1] != "run" else ("runs", "runs", "{}") for c in COLUMNS]
        lines += rows_table(report["medians"], median_columns)
    lines += ["", "| Eights/… | rooms | mode | moves/s | server µs/move | p99 |",
              "|---|---|---|---|---|---|"]  # fmt: skip
    for q in report["ratios"]:
        mode = q["mode"] if q["fraction"] is None else f"paced {q['fraction']}"
        lines.append(
            f"| Eights/{q['versus']} | {q['rooms']} | {mode} | {q['moves_per_second']} | "
            f"{q['server_us_per_move']} | {q['p99']} |"
        )
    lines.append("")
    lines.append(f"{report['date']}, {report['cpus']} CPUs, {report['seconds']} s a phase, "
                 f"load average before {report['load_average_before']}, "
                 f"after {report['load_average_after']}")  # fmt: skip
    lines += [f"paced at fractions {report['paced_steps']} of "
              f"{report['pace_reference']['server']}'s first saturated run: "
              f"{report['pace_reference']['moves_per_second']} moves/s"]  # fmt: skip
    lines += [*report["notes"], *(f"skipped {k}: {v}" for k, v in report["skipped"].items())]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[50, 500])
    parser.add_argument("--seconds", type=float, default=10.0, help="measured seconds a phase")
    parser.add_argument("--warm", type=float, default=2.0, help="warm-up seconds a phase")
    parser.add_argument("--quick", action="store_true", help="a one-minute smoke run")
    parser.add_argument("--json", help="also write the report to this file")
    parser.add_argument("--chart", help="also draw p99 latency against moves/s to this SVG")
    parser.add_argument("--servers", nargs="+", choices=SERVERS, default=["eights", "stack"])
    parser.add_argument("--repeat", type=int, default=1,
                        help="measure each server this many times, in rotating order")  # fmt: skip
    parser.add_argument(
        "--reference", type=int, default=0,
        help="pace at fractions of this many moves/s (default: Eights' saturated rate in "
             "this run), to compare runs at one rate",
    )  # fmt: skip
    parser.add_argument("--paced-steps", type=float, nargs="+", default=[0.5],
                        help="paced phases at these fractions of Eights' saturated rate",
                        )  # fmt: skip
    parser.add_argument(
        "--fsync", choices=("always", "everysec"), default="always",
        help="both Redis servers' appendfsync (Eights ships with always)",
    )  # fmt: skip
    parser.add_argument("--profile", help="py-spy raw profile of eights serve to this file")
    parser.add_argument(
        "--whole-states", action="store_true",
        help="Eights' devices ask for whole states, not patches (as the web table does)",
    )  # fmt: skip
    parser.add_argument(
        "--stack-view-bytes", type=int, default=0,
        help="pad the stack server's states to this size (Eights' views are 3-5 KB)",
    )  # fmt: skip
    args = parser.parse_args()
    if args.quick:
        args.seconds, args.warm = 4.0, 1.0
    args.seconds = min(args.seconds, 120.0)
    args.rooms = [min(max(1, n), 2000) for n in args.rooms]
    args.repeat = min(max(1, args.repeat), 10)
    args.paced_steps = [min(max(0.01, f), 2.0) for f in args.paced_steps][:10]
    args.servers = [name for name in SERVERS if name in args.servers]
    args.skipped = {}
    if "bgio" in args.servers and (why := bgio_ready()) is not None:
        print(f"skipping bgio: {why}", file=sys.stderr)
        args.skipped["bgio"] = why
        args.servers.remove("bgio")
    if not args.servers:
        raise SystemExit("no server to measure")
    report = asyncio.run(run(args))
    print(table(report))
    if args.json:
        Path(args.json).write_text(json.dumps(report, indent=1) + "\n")
    if args.chart:
        Path(args.chart).write_text(chart.svg(report))
        print(f"chart: {args.chart}")


if __name__ == "__main__":
    main()
