"""Helpers for the service tests: a table on the real app, a leak check for every
message a device receives, and a bounded loop that plays a game to its end."""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.test_utils import TestClient

from eights.rules import Position
from eights.rules.cards import CODE_OF
from eights.tableclient import DeviceSocket, TableClient, apply_patch
from eights.web.authority import Loaded
from eights.web.keys import SERVICE
from tests.helpers import cards_in

MAX_ACTIONS = 4000
"""No test game runs longer than this many actions (a bound, not an expectation)."""


@dataclass
class Table:
    app: web.Application
    http: TestClient[Any, Any]
    client: TableClient
    truth: dict[tuple[str, int], Loaded] = field(default_factory=dict)
    """Every (room, version) this process stored or loaded: the true table, for checks."""


async def open_table(aiohttp_client: Any, app: web.Application) -> Table:
    http = await aiohttp_client(app)
    table = Table(app, http, TableClient(http.session, str(http.make_url("")).rstrip("/")))
    service = app[SERVICE]
    remember = service._remember

    def spy(loaded: Loaded) -> None:
        table.truth[(loaded.room.token, loaded.room.version)] = loaded
        remember(loaded)

    service._remember = spy  # type: ignore[method-assign]
    return table


def leaks(
    message: dict[str, Any], seat: int | None, position: Position | None, seed: str
) -> list[str]:
    """What in ``message`` (sent to ``seat``; None: a spectator) the seat may not see, given
    the true position at the message's version: another seat's cards, the stock, the seed
    before the end; for a spectator, any seat's cards and any field of a seat's own."""
    found = []
    if seat is None:
        view = message.get("view") or {}
        found += [f"a spectator's {k} field" for k in SEAT_FIELDS if k in view]
    text = json.dumps(message)
    if position is None:
        return ["seed"] if seed in text else []
    over = position.outcome is not None
    if seed in text and message.get("room", {}).get("game_over") is not True:
        found.append("the seed before the game is over")
    seen = cards_in(_without_options(message))
    if not over:
        # A card played earlier in the hand may be back in a hand or the stock after a
        # new stock: that it was played is public, where it is now is not.
        public = cards_in((message.get("view") or {}).get("log", []))
        seen -= public
        for other, hand in enumerate(position.hands):
            if other != seat:
                found += [f"seat {other}'s {CODE_OF[c]}" for c in hand if CODE_OF[c] in seen]
        hidden_stock = [CODE_OF[c] for c in position.stock if CODE_OF[c] not in public]
        found += [f"the stock's {c}" for c in hidden_stock if c in seen]
    if "stock" in (message.get("view") or {}):
        found.append("a stock field")
    for event in (message.get("view") or {}).get("log", []):
        # Drawn cards (a penalty's at 101 too) only ever in the log of the seat that drew.
        private = event.get("type") in PRIVATE_DRAWS and event.get("seat") != seat
        if private and ("card" in event or isinstance(event.get("cards"), list)):
            found.append(f"seat {event.get('seat')}'s drawn cards in a {event['type']} event")
    return found


def _without_options(message: dict[str, Any]) -> dict[str, Any]:
    """The message without the table's options (public rules that may name a card, as
    101's ``{"last_draws": {"QS": 5}}``)."""
    out = dict(message)
    if isinstance(out.get("view"), dict):
        out["view"] = {k: v for k, v in out["view"].items() if k != "options"}
    if isinstance(out.get("room"), dict):
        out["room"] = {k: v for k, v in out["room"].items() if k != "options"}
    return out


PRIVATE_DRAWS = frozenset({"drew", "kept", "took", "penalty"})
SEAT_FIELDS = ("seat", "hand", "drawn", "legal", "unplayable")
"""Fields of a seat's own view: a spectator never gets one."""
"""Events whose cards belong to their seat alone."""


def check_no_leaks(
    table: Table, messages: list[dict[str, Any]], seats: list[int] | list[None]
) -> int:
    """Check every message a device holding ``seats`` (``[None]``: a spectator) received
    against the true room at that message's version; the number of states checked."""
    checked = 0
    secrets_seen: set[str] = set()
    for loaded in table.truth.values():
        room = loaded.room
        secrets_seen |= {room.next_seed, room.bot_seed}
        secrets_seen |= {s.nonce for s in room.seats if s.nonce}
    held: dict[int | None, dict[str, Any]] = {}
    for raw in messages:
        text = json.dumps(raw)
        message = raw
        if raw.get("type") == "patch":  # checked as the state it makes, which holds all of it
            made = apply_patch(held[raw["seat"]], raw)
            assert made is not None, f"a patch that does not fit: {raw}"
            message = made
        elif raw.get("type") != "state":
            assert not cards_in(raw), raw
            continue
        held[message["seat"]] = message
        token = message["room"]["token"]
        truth = table.truth.get((token, message["version"]))
        assert truth is not None, f"no record of version {message['version']}"
        room = truth.room
        for secret in secrets_seen - {h["seed"] for h in room.history}:
            assert secret not in text, "a seed, a bot seed or a nonce reached a device"
        assert message["seat"] in seats
        seed = room.game.seed if room.game is not None else room.next_seed
        found = leaks(message, message["seat"], truth.position, seed)
        assert not found, f"version {message['version']} showed {found}"
        checked += 1
    return checked


def choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """A random legal action of this state (the server's list, never our own rules),
    a play whenever there is one, so that test games are not needlessly long."""
    legal = state["view"]["legal"]
    plays = [a for a in legal if a["type"] == "play"]
    return dict(rng.choice(plays or legal))


async def play_socket_game(
    devices: dict[int, DeviceSocket], rng: random.Random, *, agree_hands: bool = True
) -> dict[str, Any]:
    """Play random legal actions, each from the device of the seat to act, until the game
    is over; between hands every device agrees. The final state of seat 0."""
    newest = 0
    for _ in range(MAX_ACTIONS):
        states = {s: await d.state_of(s, newer_than=0) for s, d in devices.items()}
        state = max(states.values(), key=lambda s: s["version"])
        newest = state["version"]
        for s, d in devices.items():
            states[s] = await d.state_of(s, newer_than=newest - 1)
        room = states[0]["room"]
        if room["game_over"]:
            return states[0]
        view = states[0]["view"]
        if room["hand_over"]:
            assert agree_hands
            for s, d in devices.items():
                if not states[s]["room"]["seats"][s]["agreed"]:
                    await d.send({"type": "agree"})
            await devices[0].state_of(0, newer_than=newest)
            continue
        turn = view["turn"]
        if turn not in devices:  # a computer seat: wait for it
            await devices[0].state_of(0, newer_than=newest)
            continue
        mine = states[turn]
        reply = await devices[turn].act(turn, mine["version"], choose(mine, rng))
        if reply.get("error") == "stale_version":  # the device had not heard of a change yet
            await devices[turn].state_of(turn, newer_than=mine["version"])
            continue
        assert reply["type"] == "result", reply
        await devices[turn].state_of(turn, newer_than=newest)
    raise AssertionError(f"no end after {MAX_ACTIONS} actions")
