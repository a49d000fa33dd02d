"""Observability: Prometheus metrics on a port of their own, counted from what
the process really did, and log lines (text or JSON) that never hold a secret."""

from __future__ import annotations

import json
import re
import signal
from pathlib import Path
from typing import Any

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from eights.web.keys import METRICS_ADDRESS
from eights.web.logs import scrub
from tests.rooms_helpers import open_table
from tests.serve_process import serve, until_serving, wait_exit


def samples(text: str) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """Every sample of an exposition, by name and labels."""
    out = {}
    for family in text_string_to_metric_families(text):
        for sample in family.samples:
            out[(sample.name, tuple(sorted(sample.labels.items())))] = sample.value
    return out


async def test_metrics_count_tables_moves_refusals_devices_and_round_trips(
    aiohttp_client: Any, make_app: Any
) -> None:
    app = make_app(metrics_port=0)
    table = await open_table(aiohttp_client, app)
    host, port = app[METRICS_ADDRESS]
    made = await table.client.create(mode="online", players=2)
    friend = await table.client.join(made.token)
    refused = await table.client.request("POST", f"/api/rooms/{made.token}/act", {"x": 1})
    assert refused.error == "no_credential"
    async with (
        table.client.connect(made.token, made.credentials) as a,
        table.client.connect(made.token, friend.credentials) as b,
    ):
        await b.state_of(1)  # both devices here: nobody's move waits for the other
        state = await a.wait_for(
            lambda dev: (
                (s := dev.states.get(0)) and all(x["connected"] for x in s["room"]["seats"]) and s
            )
        )
        turn = state["view"]["turn"]
        device = a if turn == 0 else b
        mine = await device.state_of(turn)
        reply = await device.act(turn, mine["version"], mine["view"]["legal"][0])
        assert reply["type"] == "result"
        stale = await device.act(turn, 1, mine["view"]["legal"][0])
        assert stale["error"] == "stale_version"
        async with table.http.session.get(f"http://{host}:{port}/metrics") as answer:
            assert answer.status == 200
            text = await answer.text()
    found = samples(text)
    assert found[("eights_rooms_created_total", ())] == 1
    assert found[("eights_moves_total", ())] == 1
    assert found[("eights_errors_total", (("code", "no_credential"),))] == 1
    assert found[("eights_errors_total", (("code", "stale_version"),))] == 1
    assert found[("eights_devices_connected", ())] == 2
    assert found[("eights_move_seconds_count", ())] == 1
    assert found[("eights_redis_seconds_count", (("operation", "save"),))] >= 2
    for secret in (made.token, *made.credentials, *friend.credentials):
        assert secret not in text


async def test_no_metrics_listener_unless_asked(aiohttp_client: Any, make_app: Any) -> None:
    app = make_app()
    await open_table(aiohttp_client, app)
    assert METRICS_ADDRESS not in app


def test_scrub_cuts_every_secret_like_run() -> None:
    line = "join /t/6ds2VmS_OkGtCnnLPqgCmg seed 3f1c2a9b8e7d6c5b4a3f2e1d0c9b8a7f ok"
    assert scrub(line) == "join /t/6ds2Vm… seed 3f1c2a… ok"
    assert scrub("room abcdef… at version 12") == "room abcdef… at version 12"


async def test_json_logs_are_one_object_a_line_and_hold_no_secret(
    redis_url: str, tmp_path: Path
) -> None:
    env = {"EIGHTS_LOG_FORMAT": "json", "EIGHTS_METRICS_PORT": "0"}
    with serve(redis_url, tmp_path, env=env) as served:
        async with aiohttp.ClientSession() as http:
            await until_serving(http, served.base)
            async with http.post(f"{served.base}/api/rooms", json={"mode": "online"}) as made:
                body = await made.json()
            token = body["token"]
            credential = body["credentials"]["0"]
            join = f"{served.base}/api/rooms/{token}/join"
            async with http.post(join, json={"name": "Bo"}) as joined:
                friend = (await joined.json())["credential"]
            async with http.get(f"{served.base}/t/{token}") as page:
                assert page.status == 200
            wrong = {"Authorization": f"Seat {credential}x"}
            async with http.get(f"{served.base}/api/rooms/{token}/state", headers=wrong) as no:
                assert no.status == 401
        served.process.send_signal(signal.SIGTERM)
        assert await wait_exit(served.process, 20) is not None
    lines = served.log.read_text().splitlines()
    entries = [json.loads(line) for line in lines]  # every line is one JSON object
    assert entries
    assert all({"time", "level", "logger", "message"} <= e.keys() for e in entries)
    access = [e["http"] for e in entries if "http" in e]
    assert {a["status"] for a in access} >= {201, 200, 401}
    assert any(re.fullmatch(r"/t/[A-Za-z0-9_-]{6}…", a["path"]) for a in access)
    assert any("metrics at http://" in e["message"] for e in entries)
    text = served.log.read_text()
    for secret in (token, credential, friend, *credential.split("."), *friend.split(".")):
        if len(secret) >= 8:
            assert secret not in text
