"""One WebSocket a device: ``hello`` with its credentials first, then actions; the hub
pushes the state of every seat it holds after each change. One task reads the socket,
one writes it."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import orjson
from aiohttp import WSMsgType, web

from eights.bots.hint import hint
from eights.bots.runner import bot_view
from eights.rooms import Change, Repeat, RoomError, room_error

from .errors import STORAGE_ERRORS, storage_error
from .hub import CLOSE_UNAUTHORISED, Device, Hub
from .keys import HUB, SERVICE, SETTINGS
from .limits import TokenBucket
from .service import TableService

HELLO_SECONDS = 15.0
CLOSE_TRY_AGAIN = 1013
"""The socket closes with "try again later" when storage is away at hello."""


def _error(error: RoomError, **extra: Any) -> dict[str, Any]:
    return {"type": "error", **error.to_json(), **extra}


async def socket(request: web.Request) -> web.WebSocketResponse:
    settings = request.app[SETTINGS]
    service = request.app[SERVICE]
    hub = request.app[HUB]
    token = request.match_info["token"]
    ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=settings.max_message)
    await ws.prepare(request)
    try:
        first = await ws.receive(timeout=HELLO_SECONDS)
    except TimeoutError:
        await ws.close(code=CLOSE_UNAUTHORISED, message=b"no hello")
        return ws
    hello = _parse(first.data) if first.type is WSMsgType.TEXT else None
    if hello is None or hello.get("type") != "hello":
        await ws.send_json(_error(room_error("bad_request", 'Say {"type": "hello"} first.')))
        await ws.close(code=CLOSE_UNAUTHORISED, message=b"no hello")
        return ws
    raw = hello.get("credentials")
    credentials = [c for c in raw if isinstance(c, str)][:8] if isinstance(raw, list) else []
    try:
        held = await service.held(token, credentials)
    except STORAGE_ERRORS as exc:
        held = storage_error(exc)
    if isinstance(held, RoomError):
        await ws.send_json(_error(held))
        code = CLOSE_TRY_AGAIN if held.status == 503 else CLOSE_UNAUTHORISED
        await ws.close(code=code, message=held.code.encode())
        return ws
    bucket = TokenBucket(settings.rate_per_second, settings.rate_burst)
    device = Device(ws, token, held.seats, bucket)
    device.nonces = {seat: held.loaded.room.seats[seat].nonce for seat in held.seats}
    writer = asyncio.get_running_loop().create_task(device.write())
    try:
        device.send({"type": "welcome", "seats": held.seats})
        try:
            await hub.attach(device)
        except STORAGE_ERRORS as exc:
            device.send(_error(storage_error(exc)))
            device.close_after_send(CLOSE_TRY_AGAIN)
            with contextlib.suppress(Exception):
                await asyncio.wait_for(asyncio.shield(writer), HELLO_SECONDS)
            return ws
        async for message in ws:
            if message.type is not WSMsgType.TEXT:
                if message.type is WSMsgType.BINARY:
                    device.send(_error(room_error("bad_json")))
                continue
            if not device.bucket.take():
                device.send(_error(room_error("rate_limited")))
                continue
            data = _parse(message.data)
            if data is None:
                device.send(_error(room_error("bad_json")))
                continue
            try:
                await _handle(device, data, service, hub)
            except STORAGE_ERRORS as exc:  # Redis away or busy: this message is refused
                device.send(_error(storage_error(exc), id=data.get("id")))
    finally:
        await hub.detach(device)
        writer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await writer
    return ws


async def _hint(device: Device, data: dict[str, Any], service: TableService) -> None:
    """What the Hard computer would do in the device's seat, and why (the H key)."""
    loaded = service.cached(device.token) or await service.load(device.token)
    seat = data.get("seat", device.seats[0])
    position = None if loaded is None else loaded.position
    advice = None
    if position is not None and seat in device.seats and position.turn == seat:
        advice = hint(bot_view(position, seat))
    if advice is None:
        error = room_error("bad_request", "There is nothing to hint now.")
        device.send(_error(error, id=data.get("id")))
        return
    device.send({"type": "hint", "id": data.get("id"), "seat": seat, **advice.to_json()})


def _parse(text: object) -> dict[str, Any] | None:
    if not isinstance(text, str):
        return None
    try:
        data = orjson.loads(text)
    except orjson.JSONDecodeError:
        return None
    return data if isinstance(data, dict) else None


async def _handle(device: Device, data: dict[str, Any], service: TableService, hub: Hub) -> None:
    kind = data.get("type")
    token = device.token
    request_id = data.get("id")
    if kind == "ping":
        device.send({"type": "pong"})
        return
    if kind == "hint":
        await _hint(device, data, service)
        return
    if kind == "act":
        seat = data.get("seat")
        if seat is None and len(device.seats) == 1:
            seat = device.seats[0]
        if seat is None:
            loaded = service.cached(token)
            if loaded is not None and loaded.position is not None:
                seat = loaded.position.turn if loaded.position.turn in device.seats else None
        if not isinstance(seat, int) or seat not in device.seats:
            device.send(_error(room_error("not_your_seat"), id=request_id))
            return
        result, _ = await hub.act(token, seat, data)
    elif kind == "agree":
        result, _ = await service.agree(token, device.seats, data.get("entropy"))
    elif kind == "pause":
        result, _ = await service.pause(token, bool(data.get("paused", True)))
    elif kind == "undo":
        result, _ = await service.undo(token, device.seats[0])
    else:
        message = "The message types are act, agree, undo, pause, hint and ping."
        device.send(_error(room_error("bad_request", message), id=request_id))
        return
    if isinstance(result, RoomError):
        device.send(_error(result, id=request_id))
        if result.code in ("stale_version", "not_started", "opponent_away"):
            device.sent.clear()  # send the current state again, whatever was sent before
            await hub.refresh(token)
        return
    answer = {} if result is None else dict(result.answer)
    device.send({"type": "result", **answer, "ok": True, "id": request_id})
    if isinstance(result, Change):
        await hub.after_change(token)
    elif isinstance(result, Repeat):
        device.sent.clear()
        await hub.refresh(token)
