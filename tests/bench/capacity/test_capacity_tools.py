"""The capacity benchmark's pure parts, without node or a network: socket.io frames, the
bgio client's move choice, the medians and the chart's SVG."""

from __future__ import annotations

import random
import xml.etree.ElementTree as ET

from tests.bench import bench_capacity
from tests.bench.capacity import chart
from tests.bench.capacity.bgioclient import connect_frame, event_frame, parse, pick


def test_socketio_frames() -> None:
    assert parse(b'0{"sid":"a","pingInterval":10000}') == (
        "open", {"sid": "a", "pingInterval": 10000}
    )  # fmt: skip
    assert parse(b"2") == ("ping", None)
    assert parse(b'40/eights,{"sid":"x"}') == ("connect", {"sid": "x"})
    assert parse(b'42/eights,["update","m1",{"_stateID":3},[]]') == (
        "event", ["update", "m1", {"_stateID": 3}, []]
    )  # fmt: skip
    assert parse(b'42/eights,7["sync","m1"]') == ("event", ["sync", "m1"])  # an ack id
    assert parse(b'42/other,["update"]')[0] == "other"
    assert parse(b'44/eights,{"message":"no"}') == ("connect_error", {"message": "no"})
    assert connect_frame() == b"40/eights,"
    assert event_frame("sync", "m1", "0", "c", 2) == b'42/eights,["sync","m1","0","c",2]'


def test_pick_plays_a_matching_card_or_draws() -> None:
    rng = random.Random(1)
    view = {"hand": ["2C", "9H", "KD"], "top": "9S", "suit": "S"}
    assert pick(view, rng) == ("play", [1])
    assert pick({**view, "hand": ["2C", "KD"]}, rng) == ("draw", [])
    move, args = pick({**view, "hand": ["8C", "KD", "QD"]}, rng)
    assert (move, args) == ("play", [0, "D"])  # an 8 names the suit it holds most of


def row(server: str, mode: str, rate: int, p99: float, run: int) -> dict[str, object]:
    return {
        "server": server, "rooms": 50, "mode": mode, "run": run,
        "fraction": None if mode == "saturated" else 0.5,
        "target_per_second": None if mode == "saturated" else 100, "moves": rate,
        "moves_per_second": rate, "p50_ms": 1.0, "p95_ms": 2.0, "p99_ms": p99,
        "server_us_per_move": 100, "redis_us_per_move": None, "generator_cores": 0.1,
        "generator_us_per_move": 10, "received_bytes_per_move": 500,
        "rss_bytes_per_socket": 1000, "redis_bytes_per_room": None, "stalls": 0, "errors": {},
    }  # fmt: skip


def test_medians_ratios_and_chart() -> None:
    results = [row(name, mode, rate * k, 3.0 * k, k - 1) for k in (1, 2, 3)
               for name, rate in (("eights", 200), ("bgio", 400))
               for mode in ("saturated", "paced")]  # fmt: skip
    medians = bench_capacity.medians(results)
    eights = next(r for r in medians if r["server"] == "eights" and r["mode"] == "saturated")
    assert (eights["runs"], eights["moves_per_second"], eights["p99_ms"]) == (3, 400, 6.0)
    assert eights["redis_us_per_move"] is None
    ratios = bench_capacity.ratios(medians)
    assert {(q["versus"], q["mode"], q["moves_per_second"]) for q in ratios} == {
        ("bgio", "saturated", 0.5), ("bgio", "paced", 0.5)
    }  # fmt: skip
    report = {"date": "d", "seconds": 8, "paced_steps": [0.5], "results": results}
    root = ET.fromstring(chart.svg(report))
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    circles = root.findall(".//{http://www.w3.org/2000/svg}circle")
    assert len(circles) >= len(results)
    texts = " ".join(t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text"))
    assert "50 rooms" in texts
    assert "eights" in texts
    assert "bgio" in texts
