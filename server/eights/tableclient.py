"""A small client for the rooms protocol (docs/protocol.md), over HTTP and the socket.

Used by the tests and the load benchmark; a bot outside the project can use it too::

    async with aiohttp.ClientSession() as http:
        client = TableClient(http, "http://localhost:8080")
        made = await client.create(mode="computer")
        async with client.connect(made.token, made.credentials) as device:
            state = await device.state_of(0)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import aiohttp
import orjson

WAIT_SECONDS = 30.0


@dataclass(frozen=True)
class Reply:
    """An HTTP answer: its status and JSON body."""

    status: int
    data: dict[str, Any]

    @property
    def ok(self) -> bool:
        return self.status < 400

    @property
    def error(self) -> str | None:
        return self.data.get("error") if not self.ok else None


@dataclass(frozen=True)
class Seated:
    """A seat (or, on one device, several) taken at a table."""

    token: str
    credentials: list[str]
    seats: list[int]
    states: list[dict[str, Any]]
    link: str = ""


class ProtocolError(RuntimeError):
    """The server said no, or said something this client did not expect."""


class TableClient:
    def __init__(self, http: aiohttp.ClientSession, base_url: str = "") -> None:
        self.http = http
        self.base = base_url.rstrip("/")

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        credentials: list[str] | None = None,
        raw: bytes | None = None,
    ) -> Reply:
        headers = {}
        if credentials:
            headers["Authorization"] = "Seat " + " ".join(credentials)
        data = raw if raw is not None else (None if body is None else json.dumps(body))
        if data is not None:
            headers["Content-Type"] = "application/json"
        async with self.http.request(
            method, self.base + path, data=data, headers=headers
        ) as response:
            try:
                payload = await response.json(content_type=None)
            except (json.JSONDecodeError, UnicodeDecodeError):
                payload = {"error": "not_json", "message": await response.text()}
            return Reply(response.status, payload if isinstance(payload, dict) else {})

    async def create(self, **spec: Any) -> Seated:
        spec.setdefault("entropy", secrets.token_hex(16))
        reply = await self.request("POST", "/api/rooms", spec)
        if not reply.ok:
            raise ProtocolError(f"create: {reply.status} {reply.data}")
        creds = reply.data["credentials"]
        return Seated(
            reply.data["token"],
            list(creds.values()),
            [int(s) for s in creds],
            reply.data["states"],
            reply.data["link"],
        )

    async def lobby(self, token: str) -> Reply:
        return await self.request("GET", f"/api/rooms/{token}")

    async def join(self, token: str, name: str | None = None) -> Seated:
        reply = await self.try_join(token, name)
        if not reply.ok:
            raise ProtocolError(f"join: {reply.status} {reply.data}")
        data = reply.data
        return Seated(token, [data["credential"]], [data["seat"]], data["states"])

    async def try_join(self, token: str, name: str | None = None) -> Reply:
        body: dict[str, Any] = {"entropy": secrets.token_hex(16)}
        if name is not None:
            body["name"] = name
        return await self.request("POST", f"/api/rooms/{token}/join", body)

    async def state(self, token: str, credentials: list[str]) -> Reply:
        return await self.request("GET", f"/api/rooms/{token}/state", credentials=credentials)

    async def act(
        self,
        token: str,
        credentials: list[str],
        version: int,
        action: dict[str, Any],
        action_id: str | None = None,
        seat: int | None = None,
    ) -> Reply:
        body: dict[str, Any] = {
            "version": version,
            "id": action_id or secrets.token_hex(8),
            "action": action,
        }
        if seat is not None:
            body["seat"] = seat
        return await self.request("POST", f"/api/rooms/{token}/act", body, credentials)

    async def agree(self, token: str, credentials: list[str]) -> Reply:
        body = {"entropy": secrets.token_hex(8)}
        return await self.request("POST", f"/api/rooms/{token}/agree", body, credentials)

    async def undo(self, token: str, credentials: list[str]) -> Reply:
        return await self.request("POST", f"/api/rooms/{token}/undo", {}, credentials)

    async def record(self, token: str, credentials: list[str]) -> Reply:
        return await self.request("GET", f"/api/rooms/{token}/record", credentials=credentials)

    async def verify(self, record: dict[str, Any]) -> Reply:
        return await self.request("POST", "/api/verify", record)

    async def open_tables(self) -> Reply:
        """The lobby: public tables waiting for players and games that may be watched."""
        return await self.request("GET", "/api/lobby")

    def connect(self, token: str, credentials: list[str], *, patches: bool = False) -> DeviceSocket:
        url = self.base + f"/ws/{token}"
        return DeviceSocket(self.http, url, credentials, patches=patches)

    def watch(self, token: str) -> DeviceSocket:
        """A spectator's socket at a public table: its states are kept under seat None."""
        return DeviceSocket(self.http, self.base + f"/ws/{token}", [], watching=True)


def apply_patch(state: dict[str, Any], patch: dict[str, Any]) -> dict[str, Any] | None:
    """The state a ``patch`` message makes of ``state`` (docs/protocol.md), or None when
    the patch was not made for it (its ``base`` is another version, or no hand is shown):
    the device then asks for whole states with ``sync``."""
    if state.get("version") != patch.get("base") or state.get("view") is None:
        return None
    view = {**state["view"], **patch["view"]}
    log = patch.get("log")
    if log is not None:
        kept = state["view"]["log"]
        if log["from"] > len(kept):
            return None
        view["log"] = [*kept[: log["from"]], *log["events"]]
    room = {**state["room"], **patch["room"]}
    return {"type": "state", "version": patch["version"], "seat": patch["seat"],
            "now": patch["now"], "room": room, "view": view}  # fmt: skip


@dataclass
class DeviceSocket:
    """One device's socket: says hello, then keeps every message and the latest state of
    each seat it holds. ``async with client.connect(...) as device``."""

    http: aiohttp.ClientSession
    url: str
    credentials: list[str]
    patches: bool = False
    """Ask for patches instead of whole states after the first (they are applied here)."""
    watching: bool = False
    """A spectator: says so in its hello, holds no seat (its states are under None)."""
    messages: list[dict[str, Any]] = field(default_factory=list)
    states: dict[int | None, dict[str, Any]] = field(default_factory=dict)
    syncs: int = 0
    """How many times a patch did not fit and whole states were asked for again."""
    closed: bool = False
    close_code: int | None = None
    _ws: aiohttp.ClientWebSocketResponse | None = None
    _reader: asyncio.Task[None] | None = None
    _changed: asyncio.Condition | None = None

    async def __aenter__(self) -> DeviceSocket:
        self._changed = asyncio.Condition()
        self._ws = await self.http.ws_connect(self.url)
        hello: dict[str, Any] = {"type": "hello", "credentials": self.credentials}
        if self.patches:
            hello["patches"] = True
        if self.watching:
            hello = {"type": "hello", "watch": True}
        await self._ws.send_json(hello)
        self._reader = asyncio.get_running_loop().create_task(self._read())
        return self

    async def __aexit__(self, *exc: object) -> None:
        if self._ws is not None:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._ws.close(), WAIT_SECONDS)
        if self._reader is not None:
            with contextlib.suppress(TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, WAIT_SECONDS)

    async def _read(self) -> None:
        assert self._ws is not None
        assert self._changed is not None
        async for message in self._ws:
            if message.type is not aiohttp.WSMsgType.TEXT:
                break
            data = orjson.loads(message.data)
            async with self._changed:
                self.messages.append(data)
                if data.get("type") == "state":
                    seat = data["seat"]
                    old = self.states.get(seat)
                    if old is None or old["version"] <= data["version"]:
                        self.states[seat] = data
                elif data.get("type") == "patch":
                    held = self.states.get(data["seat"])
                    state = None if held is None else apply_patch(held, data)
                    if state is None:
                        self.syncs += 1
                        await self._ws.send_json({"type": "sync"})
                    else:
                        self.states[data["seat"]] = state
                self._changed.notify_all()
        async with self._changed:
            self.closed = True
            self.close_code = self._ws.close_code
            self._changed.notify_all()

    async def send(self, message: dict[str, Any]) -> None:
        assert self._ws is not None
        await self._ws.send_str(json.dumps(message))

    async def wait_for(
        self, predicate: Callable[[DeviceSocket], Any], timeout: float = WAIT_SECONDS
    ) -> Any:
        """Wait until ``predicate(self)`` is truthy (or the socket closes); its value."""
        assert self._changed is not None
        async with self._changed:
            await asyncio.wait_for(
                self._changed.wait_for(lambda: bool(predicate(self)) or self.closed), timeout
            )
            return predicate(self)

    async def state_of(self, seat: int | None, newer_than: int = 0) -> dict[str, Any]:
        def ready(device: DeviceSocket) -> dict[str, Any] | None:
            state = device.states.get(seat)
            return state if state is not None and state["version"] > newer_than else None

        state = await self.wait_for(ready)
        if not isinstance(state, dict):
            raise ProtocolError(f"the socket closed ({self.close_code}) before a state came")
        return state

    async def reply_to(self, message_id: str) -> dict[str, Any]:
        def found(device: DeviceSocket) -> dict[str, Any] | None:
            for message in reversed(device.messages):
                if message.get("id") == message_id and message.get("type") in ("result", "error"):
                    return dict(message)
            return None

        reply = await self.wait_for(found)
        if not isinstance(reply, dict):
            raise ProtocolError(f"the socket closed ({self.close_code}) before the answer")
        return reply

    async def act(
        self, seat: int, version: int, action: dict[str, Any], action_id: str | None = None
    ) -> dict[str, Any]:
        """Send an action and wait for its answer (a result or an error)."""
        message_id = action_id or secrets.token_hex(8)
        await self.send(
            {"type": "act", "seat": seat, "version": version, "id": message_id, "action": action}
        )
        return await self.reply_to(message_id)
