"""The connection limits come from their environment variables (README, configuration)."""

from __future__ import annotations

import pytest

from eights.web import Settings


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
    from pathlib import Path

    from eights.web.config import Settings

    settings = Settings.from_env(
        {"EIGHTS_CLIENT_DIR": "/srv/eights/client", "EIGHTS_METRICS_PORT": "9102",
         "EIGHTS_LOG_FORMAT": "json"}
    )  # fmt: skip
    assert settings.client_dir == Path("/srv/eights/client")
    assert (settings.metrics_port, settings.log_format) == (9102, "json")
    assert Settings.from_env({}).client_dir is None
