"""p99 latency against achieved moves/s, per server and room count, as a hand-written SVG
(no plotting library): one panel per room count, one colour per server, a filled dot for a
saturated phase and a ring for a paced one, each run's phases joined by a line.

    python -m tests.bench.capacity.chart report.json out.svg

``report.json`` is what ``bench_capacity --json`` writes.
"""

from __future__ import annotations

import json
import math
import sys
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

COLOURS = {"eights": "#d62728", "stack": "#1f77b4", "bgio": "#2ca02c"}
OTHER = "#7f7f7f"
WIDTH, HEIGHT = 460, 360  # a panel
LEFT, RIGHT, TOP, BOTTOM = 70, 20, 50, 60  # its margins


def nice(top: float) -> float:
    """A round number at or above ``top`` for an axis end."""
    if top <= 0:
        return 1.0
    step = 10.0 ** math.floor(math.log10(top))
    for m in (1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10):
        if m * step >= top:
            return m * step
    return 10 * step


def decades(low: float, high: float) -> list[float]:
    """Powers of ten (and 2x, 5x) spanning [low, high]: log-axis ticks."""
    ticks = []
    for e in range(math.floor(math.log10(low)), math.ceil(math.log10(high)) + 1):
        for m in (1, 2, 5):
            v = m * 10.0**e
            if low <= v <= high:
                ticks.append(v)
    return ticks


def label(v: float) -> str:
    return f"{v:,.0f}" if v >= 1 else f"{v:g}"


def usable(r: dict[str, Any]) -> bool:
    p99 = r.get("p99_ms")
    return isinstance(p99, int | float) and p99 == p99 and p99 > 0


def panel(rows: list[dict[str, Any]], count: int, x0: float) -> list[str]:
    """The SVG elements of one room count's panel, its left edge at ``x0``."""
    out: list[str] = []
    pw, ph = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    points = [r for r in rows if usable(r)]
    xmax = nice(max([r["moves_per_second"] for r in points] or [1]) * 1.05)
    lats = [float(r["p99_ms"]) for r in points] or [1.0, 10.0]
    ylow = 10.0 ** math.floor(math.log10(min(lats)))
    yhigh = 10.0 ** math.ceil(math.log10(max(lats)))
    if yhigh <= ylow:
        yhigh = ylow * 10

    def x(v: float) -> float:
        return x0 + LEFT + pw * v / xmax

    def y(v: float) -> float:
        span = math.log10(yhigh) - math.log10(ylow)
        return TOP + ph * (1 - (math.log10(v) - math.log10(ylow)) / span)

    out.append(f'<text x="{x0 + WIDTH / 2:.1f}" y="24" text-anchor="middle" '
               f'font-size="15" font-weight="bold">{count} rooms</text>')  # fmt: skip
    out.append(f'<rect x="{x0 + LEFT}" y="{TOP}" width="{pw}" height="{ph}" fill="none" '
               f'stroke="#444"/>')  # fmt: skip
    for i in range(6):
        v = xmax * i / 5
        out.append(f'<line x1="{x(v):.1f}" y1="{TOP}" x2="{x(v):.1f}" y2="{TOP + ph}" '
                   f'stroke="#ddd"/>')  # fmt: skip
        out.append(f'<text x="{x(v):.1f}" y="{TOP + ph + 16}" text-anchor="middle" '
                   f'font-size="11">{label(v)}</text>')  # fmt: skip
    for v in decades(ylow, yhigh):
        out.append(f'<line x1="{x0 + LEFT}" y1="{y(v):.1f}" x2="{x0 + LEFT + pw}" '
                   f'y2="{y(v):.1f}" stroke="#ddd"/>')  # fmt: skip
        out.append(f'<text x="{x0 + LEFT - 6}" y="{y(v) + 4:.1f}" text-anchor="end" '
                   f'font-size="11">{label(v)}</text>')  # fmt: skip
    out.append(f'<text x="{x0 + LEFT + pw / 2:.1f}" y="{HEIGHT - 18}" text-anchor="middle" '
               f'font-size="12">achieved moves/s</text>')  # fmt: skip
    cy = TOP + ph / 2
    out.append(f'<text x="{x0 + 18}" y="{cy:.1f}" text-anchor="middle" font-size="12" '
               f'transform="rotate(-90 {x0 + 18} {cy:.1f})">'
               "p99 latency, ms (log)</text>")  # fmt: skip
    runs: dict[tuple[str, Any], list[dict[str, Any]]] = {}
    for r in points:
        runs.setdefault((r["server"], r.get("run", 0)), []).append(r)
    for (name, _), group in sorted(runs.items(), key=lambda kv: str(kv[0])):
        colour = COLOURS.get(name, OTHER)
        group.sort(key=lambda r: r["moves_per_second"])
        if len(group) > 1:
            path = " ".join(f"{x(r['moves_per_second']):.1f},{y(r['p99_ms']):.1f}"
                            for r in group)  # fmt: skip
            out.append(f'<polyline points="{path}" fill="none" stroke="{colour}" '
                       f'stroke-opacity="0.5" stroke-width="1.5"/>')  # fmt: skip
        for r in group:
            fill = colour if r["mode"] == "saturated" else "white"
            tip = escape(f"{name} run {r.get('run', 0)} {r['mode']} {r.get('fraction') or ''}: "
                         f"{r['moves_per_second']} moves/s, p99 {r['p99_ms']} ms")  # fmt: skip
            out.append(f'<circle cx="{x(r["moves_per_second"]):.1f}" cy="{y(r["p99_ms"]):.1f}" '
                       f'r="4.5" fill="{fill}" stroke="{colour}" stroke-width="2">'
                       f"<title>{tip}</title></circle>")  # fmt: skip
    return out


def svg(report: dict[str, Any]) -> str:
    """The chart of a report, as an SVG document."""
    results = report.get("results", [])
    counts = sorted({r["rooms"] for r in results}) or [0]
    names = [n for n in COLOURS if any(r["server"] == n for r in results)]
    names += sorted({r["server"] for r in results} - set(names))
    width, height = WIDTH * len(counts), HEIGHT + 50
    body = [f'<rect width="{width}" height="{height}" fill="white"/>']
    for i, count in enumerate(counts):
        body += panel([r for r in results if r["rooms"] == count], count, i * WIDTH)
    lx, ly = 20, HEIGHT + 14
    for name in names:
        colour = COLOURS.get(name, OTHER)
        body.append(f'<circle cx="{lx}" cy="{ly}" r="5" fill="{colour}"/>')
        body.append(f'<text x="{lx + 10}" y="{ly + 4}" font-size="12">{escape(name)}</text>')
        lx += 30 + 8 * len(name)
    lx, ly = 20, ly + 22
    body.append(f'<circle cx="{lx}" cy="{ly}" r="4.5" fill="#444" stroke="#444"/>')
    body.append(f'<text x="{lx + 10}" y="{ly + 4}" font-size="12">saturated</text>')
    lx += 90
    body.append(f'<circle cx="{lx}" cy="{ly}" r="4.5" fill="white" stroke="#444" '
                f'stroke-width="2"/>')  # fmt: skip
    steps = ", ".join(f"{f:g}" for f in report.get("paced_steps", []))
    body.append(f'<text x="{lx + 10}" y="{ly + 4}" font-size="12">paced '
                f"({escape(steps)} of Eights' saturated rate)</text>")  # fmt: skip
    title = escape(f"p99 latency against moves/s, {report.get('date', '')}, "
                   f"{report.get('seconds', '?')} s a phase")  # fmt: skip
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" font-family="sans-serif">\n'
        f"<title>{title}</title>\n" + "\n".join(body) + "\n</svg>\n"
    )


def main() -> None:
    if len(sys.argv) != 3:
        raise SystemExit("usage: python -m tests.bench.capacity.chart report.json out.svg")
    report = json.loads(Path(sys.argv[1]).read_text())
    Path(sys.argv[2]).write_text(svg(report))


if __name__ == "__main__":
    main()
