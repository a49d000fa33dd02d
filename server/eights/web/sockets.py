"""One WebSocket a device: ``hello`` with its credentials first, then actions; the hub
pushes the state of every seat it holds after each change. One task reads the socket,
one writes it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncGenerator
from typing import Any

from aiohttp import WSMessage, WSMsgType, web

from eights.bots.thinking import Question
from eights.rooms import Change, DamagedRoom, Mode, Repeat, RoomError, room_error
from eights.rules import view_for
from eights.storage import STORAGE_ERRORS

from .address import client_address
from .authority import Loaded
from .device import CLOSE_SECONDS, CLOSE_UNAUTHORISED, Device, OutboxLimits
from .errors import client_gone, error_response, storage_error
from .hub import CLOSE_NO_SPECTATORS, CLOSE_RESTART, Hub
from .inputs import flag, message_id, name_of, named_seat, parse_object, seat_of
from .keys import DESCRIPTORS, HUB, METRICS, SERVICE, SETTINGS, SOCKETS
from .limits import TokenBucket
from .reactions import answers_setting, react
from .service import TableService

log = logging.getLogger("eights.web")

HELLO_SECONDS = 15.0
CLOSE_TRY_AGAIN = 1013
MESSAGE_TYPES = (
    "The message types are act, agree, start, undo, finish, pause, rename, hint, leave, end,"
    " spectators, react, computer_reactions, sync and ping."
)
"""Try again later: the server is at its descriptor reserve, or its storage is away."""


def _refuse(device: Device, error: RoomError, **extra: Any) -> None:
    """Send a device a refusal, counted by its code (``web.metrics``)."""
    if device.metrics is not None:
        device.metrics.refused(error.code)
    device.send(_error(error, **extra))


async def _say(request: web.Request, ws: web.WebSocketResponse, error: RoomError) -> None:
    """Tell a socket that has no device yet why it is refused, counted by its code."""
    request.app[METRICS].refused(error.code)
    await ws.send_json(_error(error))


def _error(error: RoomError, **extra: Any) -> dict[str, Any]:
    return {"type": "error", **error.to_json(), **extra}


async def socket(request: web.Request) -> web.StreamResponse:
    """Admission first: not while stopping, not beyond the address's sockets."""
    settings = request.app[SETTINGS]
    if request.app[HUB].stopping:
        return error_response(room_error("shutting_down"))
    address = client_address(request, settings.trust_proxy)
    sockets = request.app[SOCKETS]
    if not sockets.enter(address):
        return error_response(room_error("too_many_sockets"))
    try:
        return await _serve(request)
    finally:
        sockets.leave(address)


async def _serve(request: web.Request) -> web.WebSocketResponse:
    settings = request.app[SETTINGS]
    ws = web.WebSocketResponse(
        heartbeat=30.0, max_msg_size=settings.max_message, timeout=CLOSE_SECONDS
    )
    await ws.prepare(request)
    if request.app[DESCRIPTORS].full():
        await _say(request, ws, room_error("busy"))
        await ws.close(code=CLOSE_TRY_AGAIN, message=b"try again later")
        return ws
    try:
        await _converse(request, ws)
    except STORAGE_ERRORS as exc:  # before or between messages: the device reconnects
        if client_gone(request, exc):
            return ws  # the device hung up (offline, reloaded): not the storage
        error = storage_error(exc)
        log.warning("storage %s on a socket", error.code)
        with contextlib.suppress(Exception):
            await _say(request, ws, error)
            await ws.close(code=CLOSE_TRY_AGAIN, message=b"try again later")
    return ws


async def _converse(request: web.Request, ws: web.WebSocketResponse) -> None:
    """The hello, then the device's messages until the socket closes."""
    service = request.app[SERVICE]
    hub = request.app[HUB]
    token = request.match_info["token"]
    try:
        first = await ws.receive(timeout=HELLO_SECONDS)
    except TimeoutError:
        await ws.close(code=CLOSE_UNAUTHORISED, message=b"no hello")
        return
    hello = parse_object(first.data) if first.type is WSMsgType.TEXT else None
    if not isinstance(hello, dict) or hello.get("type") != "hello":
        await _say(request, ws, room_error("bad_request", 'Say {"type": "hello"} first.'))
        await ws.close(code=CLOSE_UNAUTHORISED, message=b"no hello")
        return
    if hello.get("watch") is True:
        del first, hello
        await _watch(request, ws, token)
        return
    raw = hello.get("credentials")
    credentials = [c for c in raw if isinstance(c, str)][:8] if isinstance(raw, list) else []
    patches = hello.get("patches") is True
    answers = hello.get("computer_reactions") is True
    del first, hello, raw  # not kept for the socket's life
    held = await service.held(token, credentials)
    if isinstance(held, RoomError):
        await _say(request, ws, held)
        await ws.close(code=CLOSE_UNAUTHORISED, message=held.code.encode())
        return
    if hub.stopping:
        await _say(request, ws, room_error("shutting_down"))
        await ws.close(code=CLOSE_RESTART, message=b"service restart")
        return
    device = _device(request, ws, token, held.seats)
    device.nonces = {seat: held.loaded.room.seats[seat].nonce for seat in held.seats}
    device.patches = patches
    device.answers = answers
    seats = held.seats
    del credentials, held  # the room as it was at the hello is not kept for the socket's life
    await _attend(device, ws, service, hub, {"type": "welcome", "seats": seats})


async def _watch(request: web.Request, ws: web.WebSocketResponse, token: str) -> None:
    """A spectator at a public table: the public table after every change, nothing held."""
    service = request.app[SERVICE]
    hub = request.app[HUB]
    try:
        loaded = await service.load(token)
    except DamagedRoom:
        loaded = None
        refusal = room_error("room_damaged")
    else:
        refusal = room_error("room_not_found")
    if loaded is not None and not loaded.room.watching:
        refusal = room_error("no_spectators")
    if loaded is None or not loaded.room.watching:
        await _say(request, ws, refusal)
        code = CLOSE_NO_SPECTATORS if refusal.code == "no_spectators" else CLOSE_UNAUTHORISED
        await ws.close(code=code, message=refusal.code.encode())
        return
    del loaded
    device = _device(request, ws, token, [])
    device.watching = True
    await _attend(device, ws, service, hub, {"type": "welcome", "seats": [], "watching": True})


async def _attend(
    device: Device,
    ws: web.WebSocketResponse,
    service: TableService,
    hub: Hub,
    welcome: dict[str, Any],
) -> None:
    """The device at its table: welcomed, attached to the hub, and its messages carried
    out until the socket closes."""
    writer = device.start()
    try:
        device.send(welcome)
        await hub.attach(device)
        async with contextlib.aclosing(_messages(ws, device)) as messages:
            async for message in messages:
                if hub.stopping:
                    continue  # every device was told to reconnect: nothing new is carried out
                if device.crowded():
                    await device.settle()  # one that sends faster than it reads is slowed down
                if message.type is not WSMsgType.TEXT:
                    if message.type is WSMsgType.BINARY:
                        _refuse(device, room_error("bad_json"))
                    continue
                if device.bucket is not None and not device.bucket.take():
                    _refuse(device, room_error("rate_limited"))
                    continue
                data = parse_object(message.data)
                if isinstance(data, RoomError):
                    _refuse(device, data)
                    continue
                device.begin()
                try:
                    await _handle(device, data, service, hub)
                except DamagedRoom:
                    _refuse(device, room_error("room_damaged"), id=message_id(data))
                except STORAGE_ERRORS as exc:  # refused; the socket stays open
                    error = storage_error(exc)
                    log.warning("storage %s on a socket message", error.code)
                    _refuse(device, error, id=message_id(data))
                finally:
                    device.end()
    finally:
        await hub.detach(device)
        writer.cancel()  # bounded: 3.11's wait_for can lose a cancel inside a send
        await asyncio.wait({writer}, timeout=CLOSE_SECONDS)
        if writer.done() and not writer.cancelled():
            writer.result()  # a writer that failed says so, as before


async def _messages(ws: web.WebSocketResponse, device: Device) -> AsyncGenerator[WSMessage, None]:
    """The device's messages until it closes, or until the server closes it: then the
    close handshake is done here, by the only reader, so the device gets the close frame
    (a close from another task would drop the connection without waiting for the answer)."""
    said = device.said_waiter()
    try:
        while True:
            receiving = asyncio.ensure_future(ws.receive())
            either: set[asyncio.Future[Any]] = {receiving, said}
            await asyncio.wait(either, return_when=asyncio.FIRST_COMPLETED)
            if not receiving.done():
                receiving.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await receiving
                await device.goodbye()
                return
            message = receiving.result()
            if message.type in (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED):
                return
            yield message
    finally:
        device.forget_said(said)


def _device(
    request: web.Request, ws: web.WebSocketResponse, token: str, seats: list[int]
) -> Device:
    """The device of a socket, its outbox bounded by the settings and by what the
    connection itself still buffers."""
    settings = request.app[SETTINGS]
    transport = request.transport
    limits = OutboxLimits(settings.outbox_messages, settings.outbox_bytes, settings.send_seconds)

    rate = settings.rate_per_second
    bucket = TokenBucket(rate, settings.socket_burst()) if rate > 0 else None  # 0: no limit
    if transport is None:  # the connection is gone already: the device goes with it
        device = Device(ws, token, seats, bucket, limits=limits)
    else:
        device = Device(
            ws, token, seats, bucket, limits=limits,
            buffered=transport.get_write_buffer_size, abort=transport.abort,
        )  # fmt: skip
    device.metrics = request.app[METRICS]
    return device


async def _hint(device: Device, data: dict[str, Any], service: TableService) -> None:
    """What the Hard computer would do in the device's seat, and why (the H key)."""
    request_id = message_id(data)
    seat = seat_of(data)
    if isinstance(seat, RoomError):
        _refuse(device, seat, id=request_id)
        return
    if seat is None:
        seat = device.seats[0]
    loaded = service.cached(device.token) or await service.load(device.token)
    if loaded is not None and loaded.room.mode is Mode.ONLINE:
        # The computer's advice, unseen by the friend, would not be a fair game.
        _refuse(device, room_error("no_hints"), id=request_id)
        return
    position = None if loaded is None else loaded.position
    advice = None
    if position is not None and seat in device.seats and position.turn == seat:
        question = Question("hint", view_for(position, seat).to_json(), "hard")
        answer = await service.thinkers.ask(question)
        if answer.fallback:
            _refuse(device, room_error("busy", "The computer is busy; ask again."), id=request_id)
            return
        advice = answer.hint
    if advice is None:
        error = room_error("bad_request", "There is nothing to hint now.")
        _refuse(device, error, id=request_id)
        return
    device.send({"type": "hint", "id": request_id, "seat": seat, **advice})


def _acting_seat(device: Device, data: dict[str, Any], service: TableService) -> int | RoomError:
    """The seat an ``act`` is for: the one named, the only one held, or the one to act."""
    seat = seat_of(data)
    if isinstance(seat, RoomError):
        return seat
    if seat is None and len(device.seats) == 1:
        seat = device.seats[0]
    if seat is None:
        loaded = service.cached(device.token)
        if loaded is not None and loaded.position is not None:
            seat = loaded.position.turn if loaded.position.turn in device.seats else None
    if seat is None or seat not in device.seats:
        return room_error("not_your_seat")
    return seat


async def _handle(device: Device, data: dict[str, Any], service: TableService, hub: Hub) -> None:
    kind = data.get("type")
    token = device.token
    request_id = message_id(data)
    began = time.perf_counter()
    result: Change | Repeat | RoomError | None
    loaded: Loaded | None = None
    if kind == "ping":
        device.send({"type": "pong"})
        return
    if device.watching and kind != "sync":
        _refuse(device, room_error("watching_only"), id=request_id)
        return
    if kind == "hint":
        await _hint(device, data, service)
        return
    if kind in ("react", "computer_reactions"):
        refused = await react(device, data, service) if kind == "react" else None
        if kind == "computer_reactions":
            refused = answers_setting(device, data)
        if refused is not None:
            _refuse(device, refused, id=request_id)
        else:
            device.send({"type": "result", "ok": True, "id": request_id})
        return
    if kind == "sync":  # a device whose patches went astray: whole states again
        device.sent.clear()
        await hub.refresh(token)
        return
    if kind == "act":
        seat = _acting_seat(device, data, service)
        if isinstance(seat, RoomError):
            _refuse(device, seat, id=request_id)
            return
        result, _ = await hub.act(token, seat, data)
    elif kind == "agree":
        result, _ = await service.agree(token, device.seats, data.get("entropy"))
    elif kind == "pause":
        paused = flag(data, "paused", True)
        if isinstance(paused, RoomError):
            _refuse(device, paused, id=request_id)
            return
        result, _ = await service.pause(token, paused)
    elif kind == "undo":
        result, _ = await service.undo(token, device.seats[0])
    elif kind == "finish":
        result, _ = await service.finish(token, device.seats[0])
    elif kind == "start":
        result, _ = await service.start(token, device.seats[0])
    elif kind == "leave":
        result, loaded = await service.leave(token, device.seats[0], deal=False)
    elif kind == "end":
        result, _ = await service.end(token, device.seats[0])
    elif kind == "spectators":
        allowed = flag(data, "allowed", None)
        if isinstance(allowed, RoomError):
            _refuse(device, allowed, id=request_id)
            return
        result, _ = await service.spectators(token, device.seats[0], allowed)
    elif kind == "rename":
        seat = named_seat(device.seats, data)
        name = name_of(data)
        if isinstance(seat, RoomError) or isinstance(name, RoomError):
            problem = seat if isinstance(seat, RoomError) else name
            assert isinstance(problem, RoomError)
            _refuse(device, problem, id=request_id)
            return
        result, _ = await service.rename(token, seat, name)
    else:
        _refuse(device, room_error("bad_request", MESSAGE_TYPES), id=request_id)
        return
    if isinstance(result, RoomError):
        _refuse(device, result, id=request_id)
        if result.code in ("stale_version", "not_started", "opponent_away", "bridge_pending"):
            device.sent.clear()  # send the current state again, whatever was sent before
            await hub.refresh(token)
        return
    answer = {} if result is None else dict(result.answer)
    device.send({"type": "result", **answer, "ok": True, "id": request_id})
    if kind == "act" and isinstance(result, Change) and device.metrics is not None:
        device.metrics.moves.inc()
        device.metrics.move_seconds.observe(time.perf_counter() - began)
    if kind == "leave":  # the answer first (docs/protocol.md), then the next hand if due
        await service.deal_if_agreed(token, loaded)
    if isinstance(result, Change):
        await hub.after_change(token)
    elif isinstance(result, Repeat):
        device.sent.clear()
        await hub.refresh(token)
