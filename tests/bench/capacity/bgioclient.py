"""A boardgame.io 0.50 client for the capacity benchmark, over the minimal WebSocket of
``wsclient``: socket.io v4 (engine.io v4) on a bare WebSocket, no polling.

The wire, as boardgame.io 0.50.2 speaks it (``dist/cjs/server.js``, class ``SocketIO``, and
the client's ``socketio`` transport, ``dist/cjs/socketio-*.js``):

- ``GET /socket.io/?EIO=4&transport=websocket``; the server opens with ``0{"sid", ...,
  "pingInterval": 10000, "pingTimeout": 20000}`` and pings with ``2`` every 10 s, to be
  answered ``3`` within 20 s;
- ``40/<game>,`` joins the game's namespace, answered ``40/<game>,{"sid": ...}``; an event
  sent before that answer closes the connection;
- events are ``42/<game>,["name", ...args]``: the client emits ``sync`` (matchID, playerID,
  credentials, numPlayers) and ``update`` (action, stateID, matchID, playerID), where the
  action is ``{"type": "MAKE_MOVE", "payload": {"type", "args", "playerID",
  "credentials"}}``; the server emits ``sync`` (matchID, {state, log, filteredMetadata,
  initialState}) to the one device, then ``update`` (matchID, state, deltalog) to every
  device of the match after each move, and ``matchData`` when a device comes or goes. A
  refused move (wrong stateID, not their turn, INVALID_MOVE) gets no answer at all.
- matches come from the lobby REST API: ``POST /games/<game>/create`` {numPlayers} →
  {matchID}, ``POST /games/<game>/<matchID>/join`` {playerID, playerName} →
  {playerCredentials}.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Callable
from typing import Any

import aiohttp
import orjson

from tests.bench.capacity.rooms import Room
from tests.bench.capacity.wsclient import Socket

GAME = "eights"
PATH = "/socket.io/?EIO=4&transport=websocket"


def parse(frame: bytes, namespace: str = GAME) -> tuple[str, Any]:
    """One engine.io/socket.io text frame → (kind, data): ``("open", {...})``, ``("ping",
    None)``, ``("connect", {...})``, ``("event", [name, *args])``, ``("connect_error",
    ...)``, ``("disconnect", None)``, or ``("other", frame)``."""
    if frame[:1] == b"2":
        return "ping", None
    if frame[:1] == b"0":
        return "open", orjson.loads(frame[1:])
    if frame[:1] != b"4" or len(frame) < 2:
        return "other", frame
    kind = {b"0": "connect", b"1": "disconnect", b"2": "event", b"4": "connect_error"}.get(
        frame[1:2], "other"
    )
    rest = frame[2:]
    if rest[:1] == b"/":  # a namespace other than "/": "/<name>," then the data
        comma = rest.find(b",")
        if comma < 0:
            return kind, None
        if rest[1:comma].decode() != namespace:
            return "other", frame
        rest = rest[comma + 1 :]
    start = 0
    while start < len(rest) and rest[start : start + 1].isdigit():  # an ack id
        start += 1
    rest = rest[start:]
    return kind, orjson.loads(rest) if rest else None


def connect_frame(namespace: str = GAME) -> bytes:
    return f"40/{namespace},".encode()


def event_frame(name: str, *args: Any, namespace: str = GAME) -> bytes:
    return f"42/{namespace},".encode() + orjson.dumps([name, *args])


def pick(view: dict[str, Any], rng: random.Random) -> tuple[str, list[Any]]:
    """The move a player makes from their own view (G after playerView): a card of the
    suit asked for or of the top card's rank, or an 8 (naming the suit it holds most of),
    at random among those; else draw."""
    hand: list[str] = view["hand"]
    top, suit = view["top"], view["suit"]
    plays = [i for i, c in enumerate(hand) if c[0] == "8" or c[1] == suit or c[0] == top[0]]
    if not plays:
        return "draw", []
    index = rng.choice(plays)
    if hand[index][0] != "8":
        return "play", [index]
    rest = [c[1] for i, c in enumerate(hand) if i != index] or [hand[index][1]]
    return "play", [index, max(sorted(set(rest)), key=rest.count)]


class BgioRoom(Room):
    """A boardgame.io match of two devices; its version is ``_stateID``."""

    def __init__(self, match: str, sockets: list[Socket], credentials: list[str]) -> None:
        super().__init__(match, sockets)
        self.credentials = credentials
        self.states: list[dict[str, Any] | None] = [None, None]
        loop = asyncio.get_running_loop()
        self.readers = [
            loop.create_task(s.read_text(self.handler(i))) for i, s in enumerate(sockets)
        ]

    def handler(self, index: int) -> Callable[[bytes], None]:
        socket = self.sockets[index]

        def handle(frame: bytes) -> None:
            kind, data = parse(frame)
            if kind == "ping":
                self.count("ping")
                socket.send_text(b"3")
            elif kind == "connect":
                self.count("connect")
                socket.send_text(
                    event_frame("sync", self.token, str(index), self.credentials[index], 2)
                )
            elif kind == "event" and data:
                name = str(data[0])
                self.count(name)
                if name == "sync":
                    state = data[2]["state"]
                elif name == "update":
                    state = data[2]
                else:
                    return
                self.states[index] = state
                self.versions[index] = int(state["_stateID"])
                self.wake()
            elif kind in ("connect_error", "disconnect"):
                self.count(kind)
                self.error = True
                self.codes.append(kind)
                self.wake()
            else:
                self.count(kind)

        return handle

    def move(self, rng: random.Random) -> Callable[[], None]:
        state = self.states[0]
        assert state is not None
        seat = int(state["ctx"]["currentPlayer"])
        mine = self.states[seat]
        assert mine is not None
        move, args = pick(mine["G"], rng)
        player = str(seat)
        action = {"type": "MAKE_MOVE", "payload": {"type": move, "args": args,
                  "playerID": player, "credentials": self.credentials[seat]}}  # fmt: skip
        frame = event_frame("update", action, state["_stateID"], self.token, player)
        socket = self.sockets[seat]
        return lambda: socket.send_text(frame)


async def open_match(http: aiohttp.ClientSession, host: str, port: int) -> BgioRoom:
    """A new match over the lobby API, both seats joined, both devices connected (the
    readers send ``sync`` once the namespace answers)."""
    base = f"http://{host}:{port}/games/{GAME}"
    async with http.post(f"{base}/create", json={"numPlayers": 2}) as r:
        if r.status != 200:
            raise SystemExit(f"bgio create: {r.status} {await r.text()}")
        match = str((await r.json())["matchID"])
    credentials = []
    for seat in ("0", "1"):
        body = {"playerID": seat, "playerName": f"p{seat}"}
        async with http.post(f"{base}/{match}/join", json=body) as r:
            if r.status != 200:
                raise SystemExit(f"bgio join: {r.status} {await r.text()}")
            credentials.append(str((await r.json())["playerCredentials"]))
    sockets = []
    for _ in range(2):
        s = await Socket.open(host, port, PATH)
        s.send_text(connect_frame())
        sockets.append(s)
    return BgioRoom(match, sockets, credentials)
