"""The access log of a real ``eights serve``: one line a request, and never a whole room
token (an invitation opens a free seat) nor a credential."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp

from eights.tableclient import TableClient
from eights.web.accesslog import redact
from tests.serve_process import serve, until_serving


def test_a_token_in_a_path_is_cut_to_six_characters() -> None:
    token = "6ds2VmS_OkGtCnnLPqgCmg"
    assert redact(f"/api/rooms/{token}/state") == "/api/rooms/6ds2Vm…/state"
    assert redact(f"/t/{token}") == "/t/6ds2Vm…"
    assert redact(f"/ws/{token}") == "/ws/6ds2Vm…"
    assert redact("/assets/app.js") == "/assets/app.js"


async def test_the_servers_log_never_holds_a_whole_token_or_a_credential(
    redis_url: str, redis_sync: Any, tmp_path: Path
) -> None:
    with serve(redis_url, tmp_path) as served:
        async with aiohttp.ClientSession() as http:
            await until_serving(http, served.base)
            client = TableClient(http, served.base)
            host = await client.create(mode="online", timer=False)
            guest = await client.join(host.token)
            await client.state(host.token, guest.credentials)
            async with http.get(f"{served.base}/t/{host.token}") as page:
                assert page.status == 200
            async with client.connect(host.token, host.credentials) as device:
                await device.state_of(0)
    log = served.log.read_text()
    assert f"/api/rooms/{host.token[:6]}…/state" in log
    assert host.token not in log
    for credential in host.credentials + guest.credentials:
        assert credential not in log
