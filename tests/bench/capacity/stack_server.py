"""The stack-limit server of the capacity benchmark: aiohttp WebSockets and one Redis Lua
compare-and-set of a 2 KB blob per move, then two sends (the new state to each device).

    python -m tests.bench.capacity.stack_server --redis-socket PATH

Speaks just enough of docs/protocol.md (``POST /api/rooms``, ``POST /api/rooms/<t>/join``,
``/ws/<t>`` with ``hello``, ``act``, ``agree``) for ``bench_capacity`` to drive it. Prints
``listening on PORT`` once it listens. Not a test, not the product.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
from typing import Any

import orjson
from aiohttp import WSMsgType, web
from redis.asyncio import Redis

BLOB = b"x" * 2048
CAS = """
local v = redis.call('HGET', KEYS[1], 'v')
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'blob', ARGV[3])
return 1
"""
LEGAL = [{"type": "draw"}, {"type": "play", "cards": ["7H"]}]


class Room:
    def __init__(self) -> None:
        self.version = 1
        self.sockets: list[web.WebSocketResponse | None] = [None, None]


def state(room: Room, seat: int, pad: str) -> bytes:
    """The seat's state, built and encoded per send as a real server would."""
    turn = room.version % 2
    return orjson.dumps({
        "type": "state", "seat": seat, "version": room.version,
        "room": {"hand_over": False, "seats": [{"agreed": False}, {"agreed": False}]},
        "view": {"turn": turn, "legal": LEGAL if turn == seat else [], "pad": pad},
    })  # fmt: skip


def build(redis: Redis, view_bytes: int) -> web.Application:
    pad = "x" * view_bytes
    rooms: dict[str, Room] = {}
    cas = redis.register_script(CAS)

    async def create(request: web.Request) -> web.Response:
        token = secrets.token_urlsafe(16)
        rooms[token] = Room()
        await redis.hset(f"room:{token}", mapping={"v": "1", "blob": BLOB})
        return web.json_response(
            {"token": token, "seat": 0, "credentials": {"0": f"{token}:0"}}, status=201
        )

    async def join(request: web.Request) -> web.Response:
        token = request.match_info["token"]
        return web.json_response({"seat": 1, "credential": f"{token}:1", "states": []})

    async def send(ws: web.WebSocketResponse | None, data: bytes) -> None:
        if ws is not None and not ws.closed:
            await ws.send_str(data.decode())

    async def socket(request: web.Request) -> web.WebSocketResponse:
        token = request.match_info["token"]
        room = rooms[token]
        ws = web.WebSocketResponse()
        await ws.prepare(request)
        seat = -1
        async for message in ws:
            if message.type != WSMsgType.TEXT:
                continue
            data: dict[str, Any] = orjson.loads(message.data)
            kind = data.get("type")
            if kind == "hello":
                seat = int(data["credentials"][0].rsplit(":", 1)[1])
                room.sockets[seat] = ws
                await ws.send_str(orjson.dumps({"type": "welcome", "seats": [seat]}).decode())
                await ws.send_str(state(room, seat, pad).decode())
            elif kind == "act":
                version = int(data["version"])
                ok = await cas(keys=[f"room:{token}"], args=[str(version), str(version + 1), BLOB])
                if not ok or version != room.version:
                    await ws.send_str(
                        orjson.dumps(
                            {"type": "error", "id": data.get("id"), "error": "stale_version"}
                        ).decode()
                    )
                    continue
                room.version = version + 1
                for other in (0, 1):
                    await send(room.sockets[other], state(room, other, pad))
        if seat >= 0:
            room.sockets[seat] = None
        return ws

    app = web.Application()
    app.router.add_post("/api/rooms", create)
    app.router.add_post("/api/rooms/{token}/join", join)
    app.router.add_get("/ws/{token}", socket)
    return app


async def serve(args: argparse.Namespace) -> None:
    redis = Redis(unix_socket_path=args.redis_socket, max_connections=10_000)
    runner = web.AppRunner(build(redis, args.view_bytes), access_log=None)
    await runner.setup()
    site = web.TCPSite(runner, "127.0.0.1", 0)
    await site.start()
    server = site._server
    assert isinstance(server, asyncio.Server)
    port = server.sockets[0].getsockname()[1]
    print(f"listening on {port}", flush=True)
    try:
        await asyncio.Event().wait()  # until the benchmark terminates the process
    finally:
        await runner.cleanup()
        await redis.aclose()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--redis-socket", required=True)
    parser.add_argument("--view-bytes", type=int, default=0, help="padding in each state")
    asyncio.run(serve(parser.parse_args()))


if __name__ == "__main__":
    main()
