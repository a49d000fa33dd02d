"""deploy/ holds what its README promises: an nginx site Debian's nginx accepts, a compose
file with its services and health checks, a Dockerfile whose command serves outside a
container, and systemd units with their hardening. (Docker itself cannot run here.)"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from eights.web import Settings
from tests import programs
from tests.deploy_helpers import (
    DEPLOY,
    SITE,
    Certificate,
    free_port,
    main_conf,
    make_certificate,
    nginx_check,
    site_for_test,
    upstream_for_test,
)
from tests.faults.harness import ADDRESS, START_SECONDS, STOP_SECONDS, wait_until

ROOT = DEPLOY.parent
SOCKETS = ROOT / "server" / "eights" / "web" / "sockets.py"
SECRET = "a deploy-test secret, never a real one"


# --- nginx ---------------------------------------------------------------------------


@pytest.fixture
def nginx() -> str:
    return programs.require("nginx")


@pytest.fixture
def certificate(tmp_path: Path) -> Certificate:
    return make_certificate(tmp_path)


def _upstream_file(name: str) -> str:
    """One of deploy/nginx/upstream-*.conf, its host names made resolvable here."""
    text = (DEPLOY / "nginx" / f"upstream-{name}.conf").read_text()
    return re.sub(r"server eights-\d+:", "server 127.0.0.1:", text)


@pytest.mark.parametrize("upstream", ["tcp", "unix", "compose"])
def test_nginx_accepts_the_site_with_tls_and_each_upstream(
    nginx: str, certificate: Certificate, tmp_path: Path, upstream: str
) -> None:
    site = site_for_test(free_port(), free_port(), certificate)
    conf = main_conf(tmp_path, _upstream_file(upstream), site)
    checked = nginx_check(nginx, conf)
    assert checked.returncode == 0, checked.stderr
    assert "test is successful" in checked.stderr


def test_nginx_accepts_the_site_with_the_test_processes_substituted(
    nginx: str, tmp_path: Path
) -> None:
    """The form test_proxy_nginx.py runs: the upstream's processes swapped for the test's."""
    upstream = upstream_for_test(["127.0.0.1:1", "unix:/tmp/eights-none.sock"])
    conf = main_conf(tmp_path, upstream, site_for_test(free_port(), free_port(), None))
    checked = nginx_check(nginx, conf)
    assert checked.returncode == 0, checked.stderr


def _location(site: str, path: str) -> str:
    found = re.search(r"(?ms)^    location " + re.escape(path) + r" \{\n(.*?)^    \}", site)
    assert found is not None, f"no location {path}"
    return found.group(1)


def test_the_site_carries_sockets_forwarded_headers_and_the_servers_limits() -> None:
    site = SITE.read_text()
    assert f"client_max_body_size {Settings().max_body // 1024}k;" in site
    socket_block = _location(site, "/ws/")
    # A location with proxy_set_header of its own inherits none of the server's.
    for header in ("Host", "X-Forwarded-For", "X-Forwarded-Proto", "Upgrade", "Connection"):
        assert f"proxy_set_header {header} " in socket_block, header
    assert 'proxy_set_header Connection "upgrade";' in socket_block
    assert "proxy_set_header X-Forwarded-Proto $scheme;" in site
    assert "proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;" in site
    ping = re.search(r"heartbeat=([\d.]+)", SOCKETS.read_text())
    assert ping is not None
    for timeout in ("proxy_read_timeout", "proxy_send_timeout"):
        found = re.search(timeout + r" (\d+)s;", socket_block)
        assert found is not None, timeout
        assert int(found.group(1)) > 2 * float(ping.group(1)), timeout
    assert "gzip on;" in _location(site, "/assets/")
    assert "gzip on;" not in _location(site, "/")  # never the API's answers (BREACH)
    assert "return 301 https://$host$request_uri;" in site
    assert "proxy_http_version 1.1;" in site


# --- compose -------------------------------------------------------------------------


def read_yaml_subset(text: str) -> Any:
    """The plain YAML deploy/compose.yaml is written in: block mappings and lists, plain
    scalars, and bracketed or quoted values that are JSON. Anything else fails, so the
    file stays readable without a YAML library."""
    lines = [
        (len(line) - len(line.lstrip(" ")), line.strip())
        for line in text.splitlines()
        if line.strip() and not line.strip().startswith("#")
    ]
    value, end = _block(lines, 0, lines[0][0])
    assert end == len(lines), f"cannot read from {lines[end]}"
    return value


def _block(lines: list[tuple[int, str]], i: int, indent: int) -> tuple[Any, int]:
    if lines[i][1].startswith("- "):
        items = []
        while i < len(lines) and lines[i][0] == indent and lines[i][1].startswith("- "):
            items.append(_scalar(lines[i][1][2:]))
            i += 1
        return items, i
    mapping: dict[str, Any] = {}
    while i < len(lines) and lines[i][0] == indent:
        key, colon, rest = lines[i][1].partition(":")
        assert colon, f"not a key: {lines[i][1]}"
        assert not key.startswith("- "), f"a list among keys: {lines[i][1]}"
        assert key not in mapping, f"{key} twice"
        i += 1
        if rest.strip():
            mapping[key] = _scalar(rest.strip())
        elif i < len(lines) and lines[i][0] > indent:
            mapping[key], i = _block(lines, i, lines[i][0])
        else:
            mapping[key] = None
    assert i == len(lines) or lines[i][0] < indent, f"indentation at {lines[i][1]}"
    return mapping, i


def _scalar(raw: str) -> Any:
    if raw[0] in '["{':
        return json.loads(raw)
    assert raw[0] not in "&*|>'!%@`", f"outside the subset: {raw}"
    assert " #" not in raw, f"a comment after a value: {raw}"
    return raw


@pytest.fixture
def compose() -> dict[str, Any]:
    parsed: dict[str, Any] = read_yaml_subset((DEPLOY / "compose.yaml").read_text())
    return parsed


def test_compose_runs_redis_two_processes_and_nginx(compose: dict[str, Any]) -> None:
    services = compose["services"]
    assert set(services) == {"redis", "eights-1", "eights-2", "nginx"}
    readme = (DEPLOY / "README.md").read_text()
    for name in services:
        assert f"`{name}`" in readme, f"deploy/README.md does not say what {name} is"
    redis = services["redis"]
    command = redis["command"]
    flags = dict(zip(command[1::2], command[2::2], strict=False))
    assert command[0] == "redis-server"
    assert flags["--appendonly"] == "yes"
    assert flags["--appendfsync"] == "always"
    assert flags["--maxmemory-policy"] == "noeviction"
    assert redis["healthcheck"]["test"] == ["CMD", "redis-cli", "ping"]
    assert "ports" not in redis  # only the compose network reaches it
    upstream = (DEPLOY / "nginx" / "upstream-compose.conf").read_text()
    for name in ("eights-1", "eights-2"):
        service = services[name]
        assert (DEPLOY / service["build"]["context"] / service["build"]["dockerfile"]).is_file()
        assert service["environment"]["REDIS_URL"] == "redis://redis:6379/0"
        assert service["environment"]["EIGHTS_TRUST_PROXY"] == "1"
        assert "EIGHTS_SECRET" not in service["environment"]  # from eights.env, never here
        assert service["env_file"] == ["eights.env"]
        assert service["depends_on"]["redis"]["condition"] == "service_healthy"
        assert f"server {name}:8080;" in upstream
        assert "healthcheck" not in service  # the image's own (Dockerfile HEALTHCHECK)
    nginx = services["nginx"]
    assert "443:443" in nginx["ports"]
    sources = [volume.split(":", 1)[0] for volume in nginx["volumes"]]
    assert sources == ["./nginx/eights.conf", "./nginx/upstream-compose.conf", "./tls"]
    assert all((DEPLOY / source).is_file() for source in sources[:2])
    assert "/deploy/tls/" in (ROOT / ".gitignore").read_text().split()  # the operator's
    assert {"eights-1", "eights-2"} <= set(nginx["depends_on"])


def test_the_secret_file_is_an_example_and_ignored_by_git() -> None:
    example = (DEPLOY / "eights.env.example").read_text()
    assert re.search(r"(?m)^EIGHTS_SECRET=$", example)
    ignored = (ROOT / ".gitignore").read_text().split()
    assert "/deploy/eights.env" in ignored
    assert "/deploy/tls/" in ignored


# --- Dockerfile ----------------------------------------------------------------------


def dockerfile() -> list[tuple[str, str]]:
    """(instruction, arguments) of deploy/Dockerfile, continuation lines joined."""
    text = (DEPLOY / "Dockerfile").read_text()
    text = re.sub(r"\\\n(\s*#.*\n)*", " ", text)
    found = []
    for line in text.splitlines():
        if line.strip() and not line.lstrip().startswith("#"):
            instruction, _, arguments = line.strip().partition(" ")
            found.append((instruction.upper(), arguments.strip()))
    return found


def _one(instructions: list[tuple[str, str]], name: str) -> str:
    values = [arguments for instruction, arguments in instructions if instruction == name]
    assert len(values) == 1, f"{name}: {values}"
    return values[0]


def test_the_dockerfile_installs_the_lock_and_runs_unprivileged() -> None:
    instructions = dockerfile()
    assert _one(instructions, "FROM") == "python:3.12-slim"
    runs = " && ".join(a for i, a in instructions if i == "RUN")
    assert "pip install --require-hashes -r requirements.lock" in runs
    assert "pip install --no-deps --no-build-isolation ." in runs
    users = [a for i, a in instructions if i == "USER"]
    assert users, "no USER"
    assert users[-1] not in ("root", "0")
    assert _one(instructions, "EXPOSE") == "8080"
    health = _one(instructions, "HEALTHCHECK")
    assert "urllib.request" in health
    assert "http://127.0.0.1:8080/healthz" in health
    assert json.loads(_one(instructions, "CMD")) == [
        "eights", "serve", "--host", "0.0.0.0", "--port", "8080",
    ]  # fmt: skip
    allowed = (ROOT / ".dockerignore").read_text().split()
    for instruction, arguments in instructions:
        if instruction == "COPY":
            for source in shlex.split(arguments)[:-1]:
                assert (ROOT / source).exists(), source
                assert f"!{source}" in allowed or f"!{source}/" in allowed, source


def test_the_images_install_puts_the_web_table_where_the_server_looks(tmp_path: Path) -> None:
    """The image installs the project as a package, not in place as dev.py does: the
    Dockerfile's own commands copy client/ to where the installed server looks for it."""
    run = next(a for i, a in dockerfile() if i == "RUN" and "client_dir" in a)
    find, check = re.findall(r"python -c '([^']*)'", run)
    source = tmp_path / "src"
    shutil.copytree(
        ROOT / "server",
        source / "server",
        ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"),
    )
    for name in ("pyproject.toml", "setup.py", "README.md"):
        shutil.copy(ROOT / name, source / name)
    site = tmp_path / "usr" / "local" / "lib" / "python3.12" / "site-packages"
    subprocess.run(
        [sys.executable, "-m", "pip", "install", "--quiet", "--disable-pip-version-check",
         "--no-deps", "--no-build-isolation", "--no-index", "--target", str(site), str(source)],
        check=True, capture_output=True, timeout=120,
        env={**os.environ, "EIGHTS_PURE": "1"},  # where the files go, not the compiling
    )  # fmt: skip
    env = {**os.environ, "PYTHONPATH": str(site)}  # before this checkout's own install
    found = subprocess.run(
        [sys.executable, "-c", find], env=env, cwd=tmp_path, capture_output=True, text=True,
        check=True, timeout=START_SECONDS,
    )  # fmt: skip
    folder = Path(found.stdout.strip())
    assert folder == site.parent  # the installed copy's, not this checkout's
    shutil.copytree(ROOT / "client", folder / "client")
    checked = subprocess.run(
        [sys.executable, "-c", check], env=env, cwd=tmp_path, capture_output=True, text=True,
        check=False, timeout=START_SECONDS,
    )  # fmt: skip
    assert checked.returncode == 0, checked.stderr


def _container_command(port: str) -> tuple[list[str], list[str]]:
    """The image's entry point and command, run here: this checkout's `eights`, on
    127.0.0.1 and ``port``; and the HEALTHCHECK's command on that port."""
    instructions = dockerfile()
    entry = json.loads(_one(instructions, "ENTRYPOINT"))
    assert entry == ["/usr/local/bin/eights-entrypoint"]
    command = json.loads(_one(instructions, "CMD"))
    command[command.index("0.0.0.0")] = "127.0.0.1"
    command[command.index("8080")] = port
    health = _one(instructions, "HEALTHCHECK")
    check = json.loads(health[health.index("CMD ") + 4 :])
    check = [part.replace(":8080/", f":{port}/") for part in check]
    return [str(DEPLOY / "docker-entrypoint.sh"), *command], check


def _container_env(**extra: str) -> dict[str, str]:
    """A clean environment with this checkout's `eights` on the PATH (the image's is in
    /usr/local/bin)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("EIGHTS_", "REDIS_URL"))}
    env["PATH"] = f"{Path(sys.executable).parent}{os.pathsep}{env.get('PATH', '')}"
    env.update(extra)
    return env


@pytest.mark.parametrize("missing", ["REDIS_URL", "EIGHTS_SECRET"])
def test_the_entry_point_refuses_to_serve_without_redis_and_a_secret(
    missing: str, redis_url: str, tmp_path: Path
) -> None:
    argv, _ = _container_command("0")
    given = {"REDIS_URL": redis_url, "EIGHTS_SECRET": SECRET, "EIGHTS_DATA_DIR": str(tmp_path)}
    del given[missing]
    done = subprocess.run(
        argv, env=_container_env(**given), capture_output=True, text=True,
        timeout=START_SECONDS, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    assert f"set {missing}" in done.stderr
    assert not (tmp_path / "redis").exists()  # no embedded Redis was started


async def test_the_images_command_serves_and_its_health_check_passes(
    redis_url: str, tmp_path: Path
) -> None:
    argv, check = _container_command("0")
    env = _container_env(REDIS_URL=redis_url, EIGHTS_SECRET=SECRET)
    env["EIGHTS_DATA_DIR"] = str(tmp_path / "data")
    process = await asyncio.create_subprocess_exec(
        *argv, env=env, stdin=asyncio.subprocess.DEVNULL, stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )  # fmt: skip
    try:
        assert process.stdout is not None
        line = await asyncio.wait_for(process.stdout.readline(), START_SECONDS)
        found = ADDRESS.search(line)
        assert found is not None, line
        port = found.group(1).decode()
        base = f"http://127.0.0.1:{port}"
        async with aiohttp.ClientSession() as http:

            async def healthy() -> Any:
                try:
                    async with http.get(base + "/healthz") as reply:
                        return reply.status == 200 and await reply.json()
                except aiohttp.ClientError:
                    return False

            assert await wait_until(healthy, START_SECONDS, "/healthz") == {
                "ok": True,
                "redis": True,
            }
            async with http.get(base + "/readyz") as reply:
                assert reply.status == 200
        _, check = _container_command(port)
        done = await asyncio.create_subprocess_exec(*check, env=env)
        assert await asyncio.wait_for(done.wait(), START_SECONDS) == 0
        _, dead = _container_command(str(free_port()))
        refused = await asyncio.create_subprocess_exec(
            *dead, env=env, stderr=asyncio.subprocess.DEVNULL
        )
        assert await asyncio.wait_for(refused.wait(), START_SECONDS) != 0
        assert not (tmp_path / "data").exists()  # nothing written: the container keeps nothing
    finally:
        if process.returncode is None:
            process.terminate()
            await asyncio.wait_for(process.wait(), STOP_SECONDS)
    assert process.returncode == 0


# --- systemd -------------------------------------------------------------------------


def read_unit(path: Path) -> dict[str, dict[str, list[str]]]:
    """A systemd unit as INI, every value of a key kept (systemd keys repeat)."""
    sections: dict[str, dict[str, list[str]]] = {}
    current: dict[str, list[str]] | None = None
    for raw in path.read_text().splitlines():
        line = raw.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("[") and line.endswith("]"):
            current = sections.setdefault(line[1:-1], {})
            continue
        assert current is not None, f"{path.name}: a key before any section"
        key, equals, value = line.partition("=")
        assert equals, f"{path.name}: not a key: {line}"
        current.setdefault(key.strip(), []).append(value.strip())
    return sections


HARDENING = {
    "DynamicUser": "yes",
    "NoNewPrivileges": "yes",
    "ProtectSystem": "strict",
    "ProtectHome": "yes",
    "PrivateTmp": "yes",
    "Restart": "on-failure",
    "UMask": "0077",
    "CapabilityBoundingSet": "",
}


@pytest.mark.parametrize("name", ["eights.service", "eights@.service"])
def test_the_units_are_hardened_and_restart(name: str) -> None:
    unit = read_unit(DEPLOY / "systemd" / name)
    service = unit["Service"]
    for key, value in HARDENING.items():
        assert service.get(key) == [value], key
    assert service["StateDirectory"]
    assert service["EnvironmentFile"][0].lstrip("-") == "/etc/eights/eights.env"
    assert "EIGHTS_TRUST_PROXY=1" in service["Environment"]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]
    (start,) = service["ExecStart"]
    assert start.startswith("/opt/eights/.venv/bin/eights serve --host 127.0.0.1 ")


def test_the_template_serves_its_port_and_the_drop_in_its_socket() -> None:
    template = read_unit(DEPLOY / "systemd" / "eights@.service")["Service"]
    assert template["ExecStart"] == [
        "/opt/eights/.venv/bin/eights serve --host 127.0.0.1 --port %i"
    ]
    assert template["EnvironmentFile"] == ["/etc/eights/eights.env"]  # REDIS_URL: required
    tcp = (DEPLOY / "nginx" / "upstream-tcp.conf").read_text()
    unix = (DEPLOY / "nginx" / "upstream-unix.conf").read_text()
    ports = re.findall(r"server 127\.0\.0\.1:(\d+);", tcp)
    sockets = re.findall(r"server unix:(\S+);", unix)
    drop_in = read_unit(DEPLOY / "systemd" / "eights@.service.d" / "unix-socket.conf")["Service"]
    first, command = drop_in["ExecStart"]
    assert first == ""  # the template's ExecStart is replaced, not added to
    path = command.split("--unix ", 1)[1]
    assert sockets == [path.replace("%i", port) for port in ports]
    assert drop_in["RuntimeDirectory"] == ["eights/%i"]


@pytest.mark.needs("systemd-analyze")
def test_systemd_reads_the_units_without_a_complaint(tmp_path: Path) -> None:
    analyze = programs.require("systemd-analyze")  # without it, the units are checked as INI
    eights = str(Path(sys.executable).parent / "eights")
    units = {
        "eights.service": DEPLOY / "systemd" / "eights.service",
        "eights@8081.service": DEPLOY / "systemd" / "eights@.service",
        "eights@8082.service": DEPLOY / "systemd" / "eights@.service",
        "eights@8082.service.d/unix-socket.conf": DEPLOY
        / "systemd"
        / "eights@.service.d"
        / "unix-socket.conf",
    }
    for name, source in units.items():
        target = tmp_path / name
        target.parent.mkdir(exist_ok=True)
        # The binary must exist for systemd to accept the unit: this checkout's.
        target.write_text(source.read_text().replace("/opt/eights/.venv/bin/eights", eights))
    for name in ("eights.service", "eights@8081.service", "eights@8082.service"):
        done = subprocess.run(
            [analyze, "verify", str(tmp_path / name)],
            capture_output=True, text=True, timeout=START_SECONDS, check=False,
            env={**os.environ, "SYSTEMD_LOG_COLOR": "0"},
        )  # fmt: skip
        assert done.returncode == 0, done.stderr
        complaints = [line for line in done.stderr.splitlines() if str(tmp_path) in line]
        assert not complaints, complaints
