"""Capacity on paper: how many tables one process, one host and one Redis node
hold, and what a million concurrent tables need, from the measured cost of a move.

    .venv/bin/python -m tests.bench.capacity_plan [--report docs/capacity-report.json]
        [--moves-per-table 0.3] [--utilisation 0.5] [--host-cores 16] [--tables 1000000]

Reads the saturated Eights run at the largest room count of ``bench_capacity``'s report
(server µs a move, Redis µs a move, RSS a socket, Redis bytes a room, bytes sent a move)
and works the model out; the assumptions are arguments, printed with the answer. Not a
test and not a measurement: arithmetic on measurements (docs/performance.md).
"""

from __future__ import annotations

import argparse
import json
import math
from dataclasses import dataclass
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class Measured:
    server_us: float
    """Server CPU a move, saturated (µs)."""
    redis_us: float
    """Redis CPU a move, saturated (µs; AOF with fsync always)."""
    socket_bytes: float
    """Server RSS a connected device (bytes)."""
    room_bytes: float
    """Redis memory a room in play (bytes)."""
    sent_bytes: float
    """Bytes the devices receive a move (both seats)."""


@dataclass(frozen=True)
class Plan:
    tables_per_process: int
    tables_per_host: int
    tables_per_redis_core: int
    processes: int
    hosts: int
    redis_masters: int
    server_memory_gb: float
    redis_memory_gb: float
    egress_gbit: float


def measured_from(report: dict[str, Any]) -> Measured:
    runs = [r for r in report["results"] if r["server"] == "eights" and r["mode"] == "saturated"]
    run = max(runs, key=lambda r: r["rooms"])
    return Measured(
        server_us=run["server_us_per_move"],
        redis_us=run["redis_us_per_move"],
        socket_bytes=run["rss_bytes_per_socket"],
        room_bytes=run["redis_bytes_per_room"],
        sent_bytes=run["received_bytes_per_move"],
    )


def plan(
    m: Measured,
    *,
    moves_per_table: float,
    utilisation: float,
    host_cores: int,
    tables: int,
    devices_per_table: float = 2.0,
) -> Plan:
    """The model: a process is one core, run at ``utilisation`` of its saturated rate; a
    host runs one process a core but one (the proxy, the OS); a Redis master is one core at
    the same utilisation; memory is what a device and a room cost, measured."""
    process_moves = utilisation * 1e6 / m.server_us
    per_process = int(process_moves / moves_per_table)
    per_host = per_process * (host_cores - 1)
    redis_moves = utilisation * 1e6 / m.redis_us
    per_redis = int(redis_moves / moves_per_table)
    processes = math.ceil(tables / per_process)
    return Plan(
        tables_per_process=per_process,
        tables_per_host=per_host,
        tables_per_redis_core=per_redis,
        processes=processes,
        hosts=math.ceil(processes / (host_cores - 1)),
        redis_masters=math.ceil(tables / per_redis),
        server_memory_gb=tables * devices_per_table * m.socket_bytes / 1e9,
        redis_memory_gb=tables * m.room_bytes / 1e9,
        egress_gbit=tables * moves_per_table * m.sent_bytes * 8 / 1e9,
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    p.add_argument("--report", type=Path, default=Path("docs/capacity-report.json"))
    p.add_argument("--moves-per-table", type=float, default=0.3)
    p.add_argument("--utilisation", type=float, default=0.5)
    p.add_argument("--host-cores", type=int, default=16)
    p.add_argument("--tables", type=int, default=1_000_000)
    args = p.parse_args()
    m = measured_from(json.loads(args.report.read_text()))
    result = plan(
        m,
        moves_per_table=args.moves_per_table,
        utilisation=args.utilisation,
        host_cores=args.host_cores,
        tables=args.tables,
    )
    print(json.dumps({"measured": m.__dict__, "assumed": vars(args) | {"report": str(args.report)},
                      "plan": result.__dict__}, indent=1))  # fmt: skip


if __name__ == "__main__":
    main()
