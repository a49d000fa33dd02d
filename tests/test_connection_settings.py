"""The connection limits come from their environment variables (README, configuration),
and `0` turns each of them off."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import aiohttp
import pytest

from eights.tableclient import TableClient
from eights.web import Settings
from eights.web.descriptors import DescriptorGate
from eights.web.quotas import RoomQuota, SocketsPerAddress
from eights.web.setting import rows
from eights.web.shedding import InFlight
from tests.serve_process import serve, until_serving


def test_the_limits_are_read_from_the_environment() -> None:
    settings = Settings.from_env(
        {
            "EIGHTS_SOCKETS_PER_ADDRESS": "7",
            "EIGHTS_ROOMS_PER_HOUR": "11",
            "EIGHTS_ROOMS_PER_DAY": "13",
            "EIGHTS_MAX_IN_FLIGHT": "17",
            "EIGHTS_DESCRIPTOR_RESERVE": "19",
            "EIGHTS_TRUST_PROXY": "1",
            "EIGHTS_SOCKET_RATE": "50",
        }
    )
    limits = (
        settings.sockets_per_address,
        settings.rooms_per_hour,
        settings.rooms_per_day,
        settings.max_in_flight,
        settings.descriptor_reserve,
    )
    assert limits == (7, 11, 13, 17, 19)
    assert settings.trust_proxy is True
    assert (settings.rate_per_second, settings.socket_burst()) == (50.0, 100)


def test_by_default_the_limits_are_on_and_no_proxy_is_trusted() -> None:
    settings = Settings.from_env({})
    assert (settings.sockets_per_address, settings.rooms_per_hour) == (32, 60)
    assert (settings.rooms_per_day, settings.max_in_flight) == (500, 512)
    assert settings.trust_proxy is False
    assert (settings.rate_per_second, settings.socket_burst()) == (20.0, 40)


def test_the_collector_and_the_event_loop_are_chosen_by_the_environment() -> None:
    assert Settings.from_env({}).gc_thresholds == (50_000, 20, 100)
    assert Settings.from_env({"EIGHTS_GC_THRESHOLDS": "700, 10,10"}).gc_thresholds == (700, 10, 10)
    for wrong in ("true", "1,2", "1,2,3,4", "-1,2,3", "1e9,2,3", "\u0661,2,3"):
        with pytest.raises(ValueError, match="EIGHTS_GC_THRESHOLDS"):
            Settings.from_env({"EIGHTS_GC_THRESHOLDS": wrong})
    assert Settings.from_env({}).uvloop is True
    assert Settings.from_env({"EIGHTS_UVLOOP": "0"}).uvloop is False


def test_the_web_tables_folder_and_the_metrics_come_from_the_environment() -> None:
    settings = Settings.from_env(
        {"EIGHTS_CLIENT_DIR": "/srv/eights/client", "EIGHTS_METRICS_PORT": "9102",
         "EIGHTS_LOG_FORMAT": "json"}
    )  # fmt: skip
    assert settings.client_dir == Path("/srv/eights/client")
    assert (settings.metrics_port, settings.log_format) == (9102, "json")
    assert Settings.from_env({}).client_dir is None


ZERO_MEANS = {
    "EIGHTS_HTTP_RATE": "turns the limit off",
    "EIGHTS_SOCKET_RATE": "no limit",
    "EIGHTS_SOCKETS_PER_ADDRESS": "no limit",
    "EIGHTS_ROOMS_PER_HOUR": "no limit",
    "EIGHTS_ROOMS_PER_DAY": "no limit",
    "EIGHTS_MAX_IN_FLIGHT": "no bound",
    "EIGHTS_DESCRIPTOR_RESERVE": "none kept",
    "EIGHTS_METRICS_PORT": "any free port",
}
"""What ``0`` means for each limit (and the metrics port, where it is not "off")."""


def test_every_row_that_takes_0_says_what_0_means() -> None:
    table = {row.env: row for row in rows(Settings) if row.env}
    for env, meaning in ZERO_MEANS.items():
        assert table[env].parse("0", env) == 0
        assert meaning in table[env].says, env
    for row in table.values():
        if row.low == 0:
            assert "`0`" in row.says, f"{row.env}: say what 0 means"


def test_0_turns_the_limits_of_an_address_and_of_a_process_off() -> None:
    settings = Settings.from_env(
        {name: "0" for name in ZERO_MEANS if name != "EIGHTS_METRICS_PORT"}
    )
    sockets = SocketsPerAddress(settings.sockets_per_address)
    rooms = RoomQuota(settings.rooms_per_hour, settings.rooms_per_day)
    in_flight = InFlight(settings.max_in_flight)
    assert all(sockets.enter("192.0.2.1") for _ in range(1000))
    assert all(rooms.take("192.0.2.1") for _ in range(1000))
    assert all(in_flight.enter() for _ in range(1000))
    almost_all_open = DescriptorGate(settings.descriptor_reserve, limit=1000, counter=lambda: 999)
    assert not almost_all_open.full()  # no reserve kept: refused only with none left
    assert DescriptorGate(Settings().descriptor_reserve, limit=1000, counter=lambda: 999).full()


SOCKET_MESSAGES = 300
"""Far beyond the default's burst of 40, all sent at once."""


async def test_eights_socket_rate_0_carries_out_every_message_of_a_socket(
    redis_url: str, redis_sync: Any, tmp_path: Path
) -> None:
    with serve(redis_url, tmp_path, env={"EIGHTS_SOCKET_RATE": "0"}) as served:
        async with aiohttp.ClientSession() as http:
            await until_serving(http, served.base)
            client = TableClient(http, served.base)
            made = await client.create(mode="computer")
            async with client.connect(made.token, made.credentials) as device:
                await device.state_of(0)
                for _ in range(SOCKET_MESSAGES):
                    await device.send({"type": "ping"})

                def answers(d: Any) -> list[str]:
                    said = [m.get("error") or m["type"] for m in d.messages]
                    return [kind for kind in said if kind in ("pong", "rate_limited")]

                await device.wait_for(lambda d: len(answers(d)) >= SOCKET_MESSAGES)
                assert answers(device) == ["pong"] * SOCKET_MESSAGES
