"""The deploy/ files made runnable on loopback: the nginx site with its ports, upstream
and certificate swapped for temporary ones, a throwaway certificate, and an nginx of the
test's own (no root needed, nothing outside its folder)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import re
import signal
import socket
import subprocess
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

from tests import programs
from tests.faults.harness import START_SECONDS, STOP_SECONDS, wait_until

DEPLOY = Path(__file__).resolve().parents[1] / "deploy"
SITE = DEPLOY / "nginx" / "eights.conf"
UPSTREAM_TCP = DEPLOY / "nginx" / "upstream-tcp.conf"
UPSTREAM_HEADER = "X-Test-Upstream"
"""Added by the test's nginx.conf only: which process answered (never by the site)."""


def free_port() -> int:
    """A loopback port free now (nginx needs a number before it starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@dataclass(frozen=True)
class Certificate:
    cert: Path
    key: Path


def make_certificate(folder: Path) -> Certificate:
    """A self-signed certificate for cards.example and 127.0.0.1, valid a day, made with
    the `openssl` command (`cryptography` is not a dependency); the test is skipped,
    naming the package, without it."""
    openssl = programs.require("openssl")
    made = Certificate(folder / "cert.pem", folder / "key.pem")
    subprocess.run(
        [
            openssl, "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1",
            "-nodes", "-days", "1", "-subj", "/CN=cards.example",
            "-addext", "subjectAltName=DNS:cards.example,IP:127.0.0.1",
            "-keyout", str(made.key), "-out", str(made.cert),
        ],
        check=True, capture_output=True, timeout=START_SECONDS,
    )  # fmt: skip
    return made


def _swap(text: str, old: str, new: str) -> str:
    """Replace ``old`` once, and fail if the site no longer holds it exactly once (the
    test must follow the file, not quietly test something else)."""
    assert text.count(old) == 1, f"{old!r} is in the site {text.count(old)} times"
    return text.replace(old, new)


def site_for_test(https_port: int, http_port: int, cert: Certificate | None) -> str:
    """deploy/nginx/eights.conf on 127.0.0.1's ports, with the throwaway certificate (or,
    with none, its TLS server on plain http: everything else unchanged)."""
    text = SITE.read_text()
    text = _swap(text, "    listen [::]:80;\n", "")
    text = _swap(text, "    listen [::]:443 ssl http2;\n", "")
    text = _swap(text, "listen 80;", f"listen 127.0.0.1:{http_port};")
    if cert is not None:
        text = _swap(text, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port} ssl http2;")
        text = _swap(text, "/etc/ssl/eights/fullchain.pem", str(cert.cert))
        text = _swap(text, "/etc/ssl/eights/privkey.pem", str(cert.key))
    else:
        text = _swap(text, "listen 443 ssl http2;", f"listen 127.0.0.1:{https_port};")
        text = re.sub(r"(?m)^\s*ssl_\w+ .*;\n", "", text)
    return text


def upstream_for_test(addresses: list[str]) -> str:
    """deploy/nginx/upstream-tcp.conf with its processes' lines swapped for ``addresses``
    (``127.0.0.1:PORT`` or ``unix:/path``)."""
    text = UPSTREAM_TCP.read_text()
    lines = re.findall(r"(?m)^    server \S+;\n", text)
    assert len(lines) >= 2, "the upstream lists its processes one a line"
    text = text.replace("".join(lines), "".join(f"    server {a};\n" for a in addresses))
    assert text.count("upstream eights {") == 1
    return text


def main_conf(folder: Path, upstream: str, site: str) -> Path:
    """An nginx.conf that holds everything in ``folder``: logs, pid, temporary files,
    and includes the upstream and the site (written beside it) as Debian's would."""
    (folder / "upstream.conf").write_text(upstream)
    (folder / "site.conf").write_text(site)
    temp = "\n".join(
        f"    {kind}_temp_path {folder / kind};"
        for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
    )
    mime = "/etc/nginx/mime.types"
    types = f"include {mime};" if os.path.exists(mime) else "types { text/css css; }"
    # As root the workers would switch to `nobody`, who may not enter the test's folder.
    user = "user root;\n" if os.geteuid() == 0 else ""
    conf = folder / "nginx.conf"
    conf.write_text(
        f"""{user}worker_processes 1;
pid {folder / "nginx.pid"};
worker_shutdown_timeout 5s;
error_log {folder / "error.log"} info;
events {{ worker_connections 256; }}
http {{
    {types}
    default_type application/octet-stream;
    log_format upstreams '$remote_addr "$request" $status $upstream_addr';
    access_log {folder / "access.log"} upstreams;
    add_header {UPSTREAM_HEADER} $upstream_addr always;
{temp}
    include {folder / "upstream.conf"};
    include {folder / "site.conf"};
}}
"""
    )
    return conf


def nginx_check(nginx: str, conf: Path) -> subprocess.CompletedProcess[str]:
    """``nginx -t`` of ``conf`` with its prefix and start-up log in the conf's folder."""
    folder = conf.parent
    return subprocess.run(
        [nginx, "-t", "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf)],
        capture_output=True, text=True, timeout=START_SECONDS, check=False,
    )  # fmt: skip


@contextlib.asynccontextmanager
async def running_nginx(nginx: str, conf: Path, port: int) -> AsyncIterator[None]:
    """nginx in the foreground on ``conf``, until it accepts connections on ``port``;
    stopped gracefully (SIGQUIT) afterwards, so its access log is complete."""
    folder = conf.parent
    check = nginx_check(nginx, conf)
    assert check.returncode == 0, check.stderr
    process = await asyncio.create_subprocess_exec(
        nginx, "-p", str(folder), "-e", str(folder / "error.log"), "-c", str(conf),
        "-g", "daemon off;",
        stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip

    async def listening() -> bool:
        if process.returncode is not None:
            raise AssertionError(f"nginx stopped: {(folder / 'error.log').read_text()[-2000:]}")
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            return False
        writer.close()
        await writer.wait_closed()
        return True

    try:
        await wait_until(listening, START_SECONDS, "nginx to listen")
        yield
    finally:
        if process.returncode is None:
            process.send_signal(signal.SIGQUIT)
            try:
                await asyncio.wait_for(process.wait(), STOP_SECONDS)
            except TimeoutError:
                process.kill()
                await process.wait()
