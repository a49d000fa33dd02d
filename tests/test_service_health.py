"""/healthz and /readyz of a running app, and /readyz once the app is stopping."""

from __future__ import annotations

from typing import Any


async def test_ready_until_the_app_begins_to_stop(aiohttp_client: Any, make_app: Any) -> None:
    app = make_app()
    http = await aiohttp_client(app)
    async with http.get("/healthz") as response:
        assert (response.status, await response.json()) == (200, {"ok": True, "redis": True})
    async with http.get("/readyz") as response:
        assert (response.status, await response.json()) == (200, {"ok": True})
    await app.shutdown()  # what a SIGTERM starts: proxies must stop sending requests here
    async with http.get("/readyz") as response:
        assert response.status == 503
        assert response.headers["Retry-After"] == "1"
        assert (await response.json())["error"] == "shutting_down"
    async with http.get("/healthz") as response:
        assert response.status == 200
