"""The fault tests' tools: real `eights serve` processes and redis-servers started and
killed, and a duo table driven over HTTP that records every acknowledged move, so a test
can check each one is in the stored game exactly once, at its version."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import re
import secrets
import shutil
import signal
import sys
import tempfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import aiohttp
from redis import Redis as SyncRedis
from redis.asyncio import Redis

from eights.storage import redis_server_binary, socket_path
from eights.storage.leftover import alive, read_pid
from eights.storage.store import stored_document
from eights.tableclient import ProtocolError, Reply, TableClient

START_SECONDS = 20.0
STOP_SECONDS = 10.0
STEP_SECONDS = 20.0
"""The longest one move may take to be acknowledged, faults included."""
SECRET = "a fault-test secret, never a real one"
ADDRESS = re.compile(rb"http://[^:]+:(\d+)/")
TRANSPORT_ERRORS = (aiohttp.ClientError, OSError, asyncio.TimeoutError)


async def wait_until(check: Any, seconds: float, what: str) -> Any:
    """Poll ``check()`` (sync or async) until it is truthy, for at most ``seconds``."""
    loop = asyncio.get_running_loop()
    give_up = loop.time() + seconds
    delay = 0.01
    while True:
        value = check()
        if asyncio.iscoroutine(value):
            value = await value
        if value:
            return value
        if loop.time() > give_up:
            raise AssertionError(f"gave up waiting ({seconds} s) for {what}")
        await asyncio.sleep(delay)  # polling a condition with a deadline
        delay = min(delay * 2, 0.1)


@dataclass
class Server:
    """One `eights serve` process on 127.0.0.1 (any free port)."""

    process: asyncio.subprocess.Process
    base: str
    data_dir: Path
    log: Path

    @property
    def pid(self) -> int:
        return self.process.pid

    def redis_pid(self) -> int | None:
        """The embedded Redis's pid, from the server's pid file."""
        return read_pid(self.data_dir / "redis")

    def redis_url(self) -> str:
        return f"unix://{socket_path(self.data_dir / 'redis')}"

    async def kill(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            self.process.send_signal(signal.SIGKILL)
        await self.process.wait()

    async def stop(self) -> None:
        if self.process.returncode is not None:
            return
        self.process.terminate()
        try:
            await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
        except TimeoutError:
            await self.kill()

    def log_tail(self) -> str:
        return self.log.read_text(errors="replace")[-2000:] if self.log.exists() else ""


async def start_server(
    data_dir: Path,
    log: Path,
    *,
    redis_url: str | None = None,
    extra: tuple[str, ...] = (),
    environment: dict[str, str] | None = None,
) -> Server:
    """Start `eights serve` and wait (bounded) until its /readyz says 200; ``environment``
    adds variables (EIGHTS_TRUST_PROXY, ...) to a clean one."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EIGHTS_", "REDIS_URL"))}
    env["EIGHTS_HTTP_RATE"] = "0"
    env.update(environment or {})
    argv = [sys.executable, "-m", "eights.cli.main", "serve", "--port", "0"]
    argv += ["--data-dir", str(data_dir), "--bot-delay", "0", "--secret", SECRET, *extra]
    if redis_url is not None:
        argv += ["--redis-url", redis_url]
    with log.open("ab") as err:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
            stderr=err, env=env,
        )  # fmt: skip
    assert process.stdout is not None
    try:
        line = await asyncio.wait_for(process.stdout.readline(), START_SECONDS)
    except TimeoutError:
        line = b""
    found = ADDRESS.search(line)
    base = f"http://127.0.0.1:{found.group(1).decode()}" if found else ""
    server = Server(process, base, data_dir, log)
    if not found:
        await server.kill()
        raise AssertionError(f"no address printed: {line!r}\n{server.log_tail()}")
    async with aiohttp.ClientSession() as http:

        async def ready() -> bool:
            if process.returncode is not None:
                raise AssertionError(f"the server stopped:\n{server.log_tail()}")
            try:
                async with http.get(server.base + "/readyz") as response:
                    return response.status == 200
            except TRANSPORT_ERRORS:
                return False

        await wait_until(ready, START_SECONDS, "the server to be ready")
    return server


@dataclass
class RedisServer:
    """A redis-server of our own on a unix socket, append-only, as an operator's Redis."""

    folder: Path
    process: asyncio.subprocess.Process | None = None

    @property
    def socket(self) -> Path:
        return self.folder / "redis.sock"

    @property
    def url(self) -> str:
        return f"unix://{self.socket}"

    async def start(self) -> None:
        with contextlib.suppress(FileNotFoundError):
            self.socket.unlink()
        self.process = await asyncio.create_subprocess_exec(
            redis_server_binary(), "--port", "0", "--unixsocket", str(self.socket),
            "--unixsocketperm", "700", "--dir", str(self.folder), "--appendonly", "yes",
            # As the server's own Redis (storage.embedded.DEFAULT_FSYNC): a change is on
            # disk before Redis answers, so a killed Redis comes back with every room.
            "--appendfsync", "always",
            "--save", "", "--logfile", str(self.folder / "redis.log"),
            stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
            stderr=asyncio.subprocess.DEVNULL,
        )  # fmt: skip

        async def answers() -> bool:
            client = Redis.from_url(self.url)
            try:
                return bool(await client.ping())
            except Exception:
                return False
            finally:
                await client.aclose()

        await wait_until(answers, START_SECONDS, "the redis-server to answer")

    async def kill(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.kill()
            await self.process.wait()

    async def stop(self) -> None:
        if self.process is not None and self.process.returncode is None:
            self.process.terminate()
            try:
                await asyncio.wait_for(self.process.wait(), STOP_SECONDS)
            except TimeoutError:
                await self.kill()


@contextlib.asynccontextmanager
async def redis_server() -> Any:
    """A RedisServer in a short private folder under /tmp (socket paths are short)."""
    folder = Path(tempfile.mkdtemp(prefix="eights-fault-"))
    server = RedisServer(folder)
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
        shutil.rmtree(folder, ignore_errors=True)


@dataclass(frozen=True)
class Ack:
    """A move the server acknowledged: it must be in the game at ``version``, once."""

    version: int
    seat: int
    action: dict[str, Any]
    id: str


@dataclass
class Duo:
    """Both devices of an `online` duo room, over HTTP; each seat may talk to a server of
    its own (``bases``), which a test may change when a server restarts."""

    http: aiohttp.ClientSession
    bases: dict[int, str]
    token: str = ""
    credentials: dict[int, list[str]] = field(default_factory=dict)
    start_version: int = 0
    acks: dict[int, Ack] = field(default_factory=dict)
    statuses: Counter[int] = field(default_factory=Counter)
    """Every HTTP status answered, and 0 for a request that got no answer."""
    rng: random.Random = field(default_factory=lambda: random.Random("duo"))
    over: bool = False

    def client(self, seat: int, base: str | None = None) -> TableClient:
        return TableClient(self.http, base or self.bases[seat])

    async def open(self) -> None:
        """Create the room and take the second seat; while a server or its Redis is away,
        try again with a new room (an answer lost on the way leaves an unused one)."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + STEP_SECONDS
        while True:
            try:
                host = await self.client(0).create(mode="online", timer=False)
                guest = await self.client(1).join(host.token)
                break
            except (ProtocolError, *TRANSPORT_ERRORS):
                if loop.time() > give_up:
                    raise
            await asyncio.sleep(0.05)  # polling until the servers answer again
        self.token = host.token
        self.credentials = {0: host.credentials, 1: guest.credentials}
        self.start_version = guest.states[0]["version"]

    async def _ask(self, call: Any) -> Reply | None:
        try:
            reply: Reply = await asyncio.wait_for(call, STEP_SECONDS)
        except TRANSPORT_ERRORS:
            self.statuses[0] += 1
            return None
        self.statuses[reply.status] += 1
        return reply

    async def state(self, seat: int) -> dict[str, Any] | None:
        reply = await self._ask(self.client(seat).state(self.token, self.credentials[seat]))
        if reply is None or reply.status != 200:
            return None
        state: dict[str, Any] = reply.data["states"][0]
        return state

    async def _turn(self) -> dict[str, Any] | None:
        """The state of the seat to act (both seats asked: each request also keeps that
        seat present), or None while the servers cannot say."""
        asked = [await self.state(seat) for seat in (0, 1)]
        states = [s for s in asked if s is not None]
        if len(states) < 2:
            return None
        newest = max(states, key=lambda s: s["version"])
        if newest["room"]["game_over"]:
            self.over = True
            return newest
        turn = newest["view"]["turn"]
        state = states[turn]
        return state if state["version"] == newest["version"] else None

    async def send(
        self, seat: int, version: int, action: dict[str, Any], action_id: str, base: str | None
    ) -> Reply | None:
        client = self.client(seat, base)
        return await self._ask(
            client.act(self.token, self.credentials[seat], version, action, action_id)
        )

    async def move(self, *, stale_first: bool = False, racing: list[str] | None = None) -> bool:
        """One move of the seat to act, sent again (same id, same version) until it is
        acknowledged; False when the game is over. ``stale_first`` sends a move at an old
        version first (it must be refused); ``racing`` sends the move to every server
        listed at once, each copy with an id of its own (two taps on two devices of one
        seat): one copy may be applied, never two."""
        loop = asyncio.get_running_loop()
        give_up = loop.time() + STEP_SECONDS
        pending: tuple[int, int, dict[str, Any], str] | None = None
        while loop.time() < give_up:
            if pending is None:
                state = await self._turn()
                if self.over:
                    return False
                if state is None:
                    await asyncio.sleep(0.05)  # polling until the servers answer again
                    continue
                seat = state["seat"]
                legal = state["view"]["legal"]
                plays = [a for a in legal if a["type"] == "play"]
                action = dict(self.rng.choice(plays or legal))
                pending = (seat, state["version"], action, secrets.token_hex(8))
                if stale_first:
                    stale = state["version"] - 1
                    old = await self.send(seat, stale, action, "stale-" + pending[3], None)
                    assert old is None or old.status in (409, 503), old
            seat, version, action, action_id = pending
            targets = list(enumerate(racing or [self.bases[seat]]))
            ids = [f"{action_id}.{n}" if racing else action_id for n, _ in targets]
            replies = await asyncio.gather(
                *(self.send(seat, version, action, ids[n], base) for n, base in targets)
            )
            for reply in replies:
                assert reply is None or reply.status in (200, 409, 503), reply
            done = [(ids[n], r) for n, r in enumerate(replies) if r is not None and r.status == 200]
            for copy_id, reply in done:
                self.record(Ack(reply.data["version"], seat, action, copy_id))
            if done:
                return True
            await asyncio.sleep(0.05)  # polling until the move is acknowledged
        raise AssertionError(f"no acknowledgement in {STEP_SECONDS} s: {self.statuses}")

    def record(self, ack: Ack) -> None:
        known = self.acks.get(ack.version)
        assert known is None or known == ack, f"two moves acknowledged at {ack.version}"
        self.acks[ack.version] = ack

    async def check(self, redis_url: str) -> int:
        """Each acknowledged move is in the stored game exactly once, at its version, and
        every move stored was acknowledged; the number of moves checked."""
        client = SyncRedis.from_url(redis_url)
        try:
            room = stored_document(client, self.token)
        finally:
            client.close()
        assert room is not None, "the room is gone"
        actions = room["game"]["actions"]
        assert room["version"] - self.start_version == len(actions), "moves lost or doubled"
        assert sorted(self.acks) == list(range(self.start_version + 1, room["version"] + 1))
        for version, ack in self.acks.items():
            assert actions[version - self.start_version - 1] == [ack.seat, ack.action], version
        return len(self.acks)


def gone(pid: int | None) -> bool:
    return pid is None or not alive(pid)
