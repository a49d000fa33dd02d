"""The HTTP endpoints: create, the lobby, join, a seat's state, act, agree, undo, the
record and /api/verify. A simple client or a test can play a whole game without a socket.
docs/protocol.md describes each with an example."""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

from aiohttp import web

from eights.rooms import (
    Change,
    Repeat,
    RoomError,
    device_state,
    record_of,
    room_error,
)
from eights.rooms.lobby import free_seats
from eights.rules.record import RecordError, verify_record

from .authority import Held, Loaded
from .clientfiles import FOREVER, catalogue_version
from .errors import error_response, read_json
from .inputs import flag, name_of, named_seat, seat_in_path, seat_of
from .keys import CATALOGUE, HUB, METRICS, SERVICE, SETTINGS
from .qr import qr_svg
from .static import send

routes = web.RouteTableDef()

AUTH_SCHEME = "Seat"
HTTP_PRESENCE_MS = 30_000
"""A device that plays over plain HTTP counts as connected this long after a request."""


def credentials_of(request: web.Request) -> list[str]:
    """``Authorization: Seat <credential> [<credential> ...]`` (one a seat held)."""
    header = request.headers.get("Authorization", "")
    scheme, _, rest = header.partition(" ")
    if scheme != AUTH_SCHEME:
        return []
    return rest.split()[:8]


def invitation(request: web.Request, token: str) -> str:
    return f"{request.url.origin()}/t/{token}"


async def _held(request: web.Request) -> Held | RoomError:
    service = request.app[SERVICE]
    token = request.match_info["token"]
    held = await service.held(token, credentials_of(request))
    if isinstance(held, RoomError):
        return held
    now = service.clock()
    for seat in held.seats:
        await service.store.presence(token, f"{seat}:http", now + HTTP_PRESENCE_MS, now)
    return held


async def _states(request: web.Request, loaded: Loaded, seats: list[int]) -> list[dict[str, Any]]:
    here = await request.app[HUB].connected(loaded.room.token)
    now = request.app[SERVICE].clock()
    return [device_state(loaded.room, loaded.position, seat, here, now) for seat in seats]


@routes.post("/api/rooms")
async def create_room(request: web.Request) -> web.Response:
    data = await read_json(request)
    if isinstance(data, RoomError):
        return error_response(data)
    made = await request.app[SERVICE].create(data)
    if isinstance(made, RoomError):
        return error_response(made)
    loaded, credentials = made
    request.app[METRICS].rooms_created.inc()
    token = loaded.room.token
    seats = [int(s) for s in credentials]
    await request.app[HUB].after_change(token)
    body = {
        "token": token,
        "link": invitation(request, token),
        "seat": 0,
        "credentials": credentials,
        "states": await _states(request, loaded, seats),
    }
    return web.json_response(body, status=201)


@routes.get("/api/rooms/{token}")
async def lobby(request: web.Request) -> web.Response:
    """What the invitation page needs before taking a seat; no credential, no secrets."""
    loaded = await request.app[SERVICE].load(request.match_info["token"])
    if loaded is None:
        return error_response(room_error("room_not_found"))
    room = loaded.room
    return web.json_response(
        {
            "token": room.token,
            "mode": room.mode.value,
            "variant": room.variant,
            "players": room.players,
            "seats": [
                {"name": s.name, "kind": s.kind, "taken": s.taken, "open": s.open}
                for s in room.seats
            ],
            "full": free_seats(room) == 0,
            "started": room.game is not None,
            "house": room.house,
            "public": room.public,
            "watchable": room.watching,
            "closed": room.closed,
        }
    )


@routes.get("/api/rooms/{token}/qr.svg")
async def invitation_qr(request: web.Request) -> web.Response:
    """The invitation link as a QR code (SVG). No credential: it holds only the link the
    host shares, and only for a table that exists."""
    token = request.match_info["token"]
    if await request.app[SERVICE].store.version(token) is None:
        return error_response(room_error("room_not_found"))
    return web.Response(
        body=qr_svg(invitation(request, token)),
        content_type="image/svg+xml",
        headers={"Cache-Control": "private, max-age=3600"},
    )


@routes.post("/api/rooms/{token}/join")
async def join(request: web.Request) -> web.Response:
    data = await read_json(request)
    if isinstance(data, RoomError):
        return error_response(data)
    service = request.app[SERVICE]
    joined = await service.join(request.match_info["token"], data)
    if isinstance(joined, RoomError):
        return error_response(joined)
    loaded, seat, credential = joined
    await request.app[HUB].after_change(loaded.room.token)
    body = {
        "token": loaded.room.token,
        "seat": seat,
        "credential": credential,
        "states": await _states(request, loaded, [seat]),
    }
    return web.json_response(body, status=201)


@routes.get("/api/rooms/{token}/state")
async def state(request: web.Request) -> web.Response:
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    return web.json_response({"states": await _states(request, held.loaded, held.seats)})


def acting_seat(held: Held, data: dict[str, Any]) -> int | RoomError:
    """The seat an action is for: the one held, or the one the body names."""
    wanted = seat_of(data)
    if isinstance(wanted, RoomError):
        return wanted
    if wanted is None:
        if len(held.seats) == 1:
            return held.seats[0]
        position = held.loaded.position
        if position is not None and position.turn in held.seats:
            return position.turn
        return held.seats[0]
    if wanted not in held.seats:
        return room_error("not_your_seat")
    return wanted


@routes.post("/api/rooms/{token}/act")
async def act(request: web.Request) -> web.Response:
    data = await read_json(request)
    if isinstance(data, RoomError):
        return error_response(data)
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    seat = acting_seat(held, data)
    if isinstance(seat, RoomError):
        return error_response(seat)
    hub = request.app[HUB]
    token = held.loaded.room.token
    began = time.perf_counter()
    result, loaded = await hub.act(token, seat, data)
    if isinstance(result, Change):
        request.app[METRICS].moves.inc()
        request.app[METRICS].move_seconds.observe(time.perf_counter() - began)
    return await _answer(request, result, loaded, held.seats)


async def _answer(
    request: web.Request,
    result: Change | Repeat | RoomError | None,
    loaded: Loaded | None,
    seats: list[int],
) -> web.Response:
    states = [] if loaded is None else await _states(request, loaded, seats)
    if isinstance(result, RoomError):
        return error_response(result, states=states)
    if loaded is not None and isinstance(result, Change):
        await request.app[HUB].after_change(loaded.room.token)
    answer = {} if result is None else dict(result.answer)
    return web.json_response({**answer, "ok": True, "states": states})


@routes.post("/api/rooms/{token}/rematch")
async def rematch(request: web.Request) -> web.Response:
    """A person of a finished (or ended) table with friends takes the same seat at a new
    table for the same people: one tap each."""
    data = await read_json(request)
    if isinstance(data, RoomError):
        return error_response(data)
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    seat = named_seat(held.seats, data)
    if isinstance(seat, RoomError):
        return error_response(seat)
    service = request.app[SERVICE]
    made = await service.rematch(held, seat, data)
    if isinstance(made, RoomError):
        return error_response(made)
    loaded, seat, credential = made
    hub = request.app[HUB]
    await hub.after_change(held.loaded.room.token)
    await hub.after_change(loaded.room.token)
    body = {
        "token": loaded.room.token,
        "seat": seat,
        "credential": credential,
        "link": invitation(request, loaded.room.token),
        "states": await _states(request, loaded, [seat]),
    }
    return web.json_response(body, status=201)


@routes.post("/api/rooms/{token}/rename")
async def rename(request: web.Request) -> web.Response:
    """A seat takes a new name; every device at the table sees it."""
    data = await read_json(request)
    if isinstance(data, RoomError):
        return error_response(data)
    # Not presence: a browser renames its seats at tables it is not sitting at just now.
    held = await request.app[SERVICE].held(request.match_info["token"], credentials_of(request))
    if isinstance(held, RoomError):
        return error_response(held)
    seat = named_seat(held.seats, data)
    name = name_of(data)
    if isinstance(seat, RoomError) or isinstance(name, RoomError):
        problem = seat if isinstance(seat, RoomError) else name
        assert isinstance(problem, RoomError)
        return error_response(problem)
    result, loaded = await request.app[SERVICE].rename(held.loaded.room.token, seat, name)
    return await _answer(request, result, loaded, held.seats)


@routes.post("/api/rooms/{token}/agree")
async def agree(request: web.Request) -> web.Response:
    data = await read_json(request)
    if isinstance(data, RoomError):
        return error_response(data)
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    result, loaded = await request.app[SERVICE].agree(
        held.loaded.room.token, held.seats, data.get("entropy")
    )
    return await _answer(request, result, loaded, held.seats)


@routes.post("/api/rooms/{token}/start")
async def start(request: web.Request) -> web.Response:
    """The host starts a table with friends before every friend has come."""
    return await _as_first_seat(request, request.app[SERVICE].start)


@routes.post("/api/rooms/{token}/undo")
async def undo(request: web.Request) -> web.Response:
    return await _as_first_seat(request, request.app[SERVICE].undo)


@routes.post("/api/rooms/{token}/finish")
async def finish(request: web.Request) -> web.Response:
    """The host finishes the game (101): the round under way is not scored."""
    return await _as_first_seat(request, request.app[SERVICE].finish)


@routes.post("/api/rooms/{token}/leave")
async def leave(request: web.Request) -> web.Response:
    """A friend leaves the table: the computer keeps the seat once the game is on. The
    answer holds no state: the seat's hand is no longer the device's to see."""
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    result, loaded = await request.app[SERVICE].leave(held.loaded.room.token, held.seats[0])
    return await _answer(request, result, loaded, [] if isinstance(result, Change) else held.seats)


@routes.post("/api/rooms/{token}/end")
async def end(request: web.Request) -> web.Response:
    """The host ends the game: nothing more happens at the table."""
    return await _as_first_seat(request, request.app[SERVICE].end)


@routes.post("/api/rooms/{token}/spectators")
async def spectators(request: web.Request) -> web.Response:
    """The host lets people watch a public table, or stops them."""
    data = await read_json(request)
    if isinstance(data, RoomError):
        return error_response(data)
    allowed = flag(data, "allowed", None)
    if isinstance(allowed, RoomError):
        return error_response(allowed)
    service = request.app[SERVICE]
    return await _as_first_seat(
        request, lambda token, seat: service.spectators(token, seat, allowed)
    )


ServiceAnswer = tuple[Change | Repeat | RoomError | None, Loaded | None]
"""What a service operation answers: the result, and the room as it stands after."""


async def _as_first_seat(
    request: web.Request,
    operation: Callable[[str, int], Awaitable[ServiceAnswer]],
) -> web.Response:
    """A request made as the first seat the credential holds (the host's, where only the
    host may): ``operation(token, seat)``, answered with the seats' states."""
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    result, loaded = await operation(held.loaded.room.token, held.seats[0])
    return await _answer(request, result, loaded, held.seats)


@routes.post("/api/rooms/{token}/seats/{seat}/reset")
async def reset_seat(request: web.Request) -> web.Response:
    """The host frees the friend's seat; the friend's credentials stop working."""
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    seat = seat_in_path(request.match_info["seat"])
    if seat is None:
        return error_response(room_error("bad_request", "The seat is a number such as 1."))
    result, loaded = await request.app[SERVICE].reset_seat(
        held.loaded.room.token, held.seats[0], seat
    )
    return await _answer(request, result, loaded, held.seats)


@routes.get("/api/rooms/{token}/record")
async def record(request: web.Request) -> web.Response:
    """The finished game's record (seed, deals, every action), for eights verify."""
    held = await _held(request)
    if isinstance(held, RoomError):
        return error_response(held)
    room, position = held.loaded.room, held.loaded.position
    finished = (
        room.game is not None and room.history and room.history[-1]["round"] == room.game.number
    )
    if room.game is None or position is None or not finished:
        return error_response(room_error("round_not_over", "The game is not over yet."))
    return web.json_response(record_of(room, room.game))


@routes.post("/api/verify")
async def verify(request: web.Request) -> web.Response:
    data = await read_json(request, limit=request.app[SETTINGS].max_record)
    if isinstance(data, RoomError):
        return error_response(data)
    try:
        result = verify_record(data)
    except (RecordError, ValueError, TypeError, KeyError, AttributeError) as exc:
        return error_response(room_error("bad_record", f"This record cannot be read: {exc}."))
    body = {
        "ok": result.ok,
        "hands": result.hands,
        "actions": result.actions,
        "scores": result.scores,
        "problems": result.problems,
    }
    return web.json_response(body)


@routes.get("/api/lobby")
async def lobby_tables(request: web.Request) -> web.Response:
    """The public tables waiting for players, and the games that may be watched."""
    listed = await request.app[SERVICE].lobby()
    return web.json_response(listed, headers={"Cache-Control": "no-cache"})


@routes.get("/api/variants")
async def variants(request: web.Request) -> web.Response:
    """The tables we deal and what a host may choose for each before the deal (made and
    compressed once, at start-up)."""
    found = request.app[CATALOGUE]
    if request.query.get("v") == catalogue_version(found):
        return await send(request, replace(found, cache_control=FOREVER))
    return await send(request, found)
