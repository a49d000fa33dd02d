"""The installable table's icons: the pages' own club mark (the gold ``♣`` of the invitation
and table pages) on the felt, drawn as PNGs in pure Python (no imaging library).

``python -m eights.web.appicons client/icons`` writes ``icon-192.png``, ``icon-512.png``
(a rounded felt square, transparent corners) and ``maskable-512.png`` (full-bleed felt, the
mark inside the maskable safe zone: the middle circle of 80 % of the width). The files are
committed under client/icons/; run this again only to change them."""

from __future__ import annotations

import math
import struct
import sys
import zlib
from collections.abc import Callable
from pathlib import Path

GOLD = (0xFF, 0xD7, 0x6A)
"""The club mark's colour (client/base.css: ``--gold``, ``.page-icon``)."""
FELT_TOP = (0x14, 0x57, 0x3A)
FELT_EDGE = (0x0C, 0x3F, 0x2A)
"""The body's radial felt: light at the top centre, deep at the edge (client/base.css)."""

Distance = Callable[[float, float], float]
"""A signed distance (negative inside) from a point of the unit square to a shape."""


def _circle(cx: float, cy: float, r: float) -> Distance:
    return lambda x, y: math.hypot(x - cx, y - cy) - r


def _triangle(points: tuple[tuple[float, float], ...]) -> Distance:
    """A convex polygon's distance, close enough for anti-aliasing: the largest of the
    distances to its edges' lines (exact inside and beside an edge)."""
    edges = []
    n = len(points)
    # Counter-clockwise or not, the outward normal points away from the centroid.
    gx = sum(p[0] for p in points) / n
    gy = sum(p[1] for p in points) / n
    for i in range(n):
        (x0, y0), (x1, y1) = points[i], points[(i + 1) % n]
        nx, ny = y1 - y0, x0 - x1
        length = math.hypot(nx, ny)
        nx, ny = nx / length, ny / length
        c = nx * x0 + ny * y0
        if nx * gx + ny * gy - c > 0:
            nx, ny, c = -nx, -ny, -c
        edges.append((nx, ny, c))
    return lambda x, y: max(nx * x + ny * y - c for nx, ny, c in edges)


def club(scale: float) -> Distance:
    """The club (three leaves and a flared stem) centred in the unit square, ``scale``
    of the square tall."""
    r = 0.205
    parts = [
        _circle(0.5, 0.29, r),
        _circle(0.285, 0.56, r),
        _circle(0.715, 0.56, r),
        _circle(0.5, 0.5, 0.13),
        _triangle(((0.5, 0.45), (0.33, 0.93), (0.67, 0.93))),
    ]
    # The unscaled mark spans about 0.085 to 0.93 across and down: centre it.
    top, bottom = 0.085, 0.93
    middle = (top + bottom) / 2
    size = bottom - top

    def distance(x: float, y: float) -> float:
        ux = 0.5 + (x - 0.5) * size / scale
        uy = middle + (y - 0.5) * size / scale
        return min(part(ux, uy) for part in parts) * scale / size

    return distance


def _rounded_square(radius: float) -> Distance:
    def distance(x: float, y: float) -> float:
        qx = abs(x - 0.5) - (0.5 - radius)
        qy = abs(y - 0.5) - (0.5 - radius)
        outside = math.hypot(max(qx, 0.0), max(qy, 0.0))
        return outside + min(max(qx, qy), 0.0) - radius

    return distance


def _coverage(distance: float, pixel: float) -> float:
    """How much of a pixel a shape covers, from the distance to its edge."""
    return min(1.0, max(0.0, 0.5 - distance / pixel))


def _mix(a: tuple[int, int, int], b: tuple[int, int, int], t: float) -> tuple[float, ...]:
    return tuple(x + (y - x) * t for x, y in zip(a, b, strict=True))


def draw(size: int, *, maskable: bool) -> bytes:
    """The icon as RGBA rows: the felt (a full square when ``maskable``, else rounded)
    and the gold club on it."""
    mark = club(0.5 if maskable else 0.68)
    shape = None if maskable else _rounded_square(0.18)
    pixel = 1.0 / size
    rows = bytearray()
    for j in range(size):
        rows.append(0)  # the row's filter: none
        y = (j + 0.5) / size
        for i in range(size):
            x = (i + 0.5) / size
            felt = _mix(FELT_TOP, FELT_EDGE, min(1.0, math.hypot(x - 0.5, y - 0.15) / 0.85))
            gold = _coverage(mark(x, y), pixel)
            r, g, b = (f + (c - f) * gold for f, c in zip(felt, GOLD, strict=True))
            alpha = 1.0 if shape is None else _coverage(shape(x, y), pixel)
            rows += bytes((round(r), round(g), round(b), round(alpha * 255)))
    return bytes(rows)


def png(size: int, rows: bytes) -> bytes:
    """An 8-bit RGBA PNG of ``size`` by ``size`` from its filtered rows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        crc = zlib.crc32(kind + data) & 0xFFFFFFFF
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

    header = struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", header)
        + chunk(b"IDAT", zlib.compress(rows, 9))
        + chunk(b"IEND", b"")
    )


ICONS = {
    "icon-192.png": (192, False),
    "icon-512.png": (512, False),
    "maskable-512.png": (512, True),
}
"""The files the manifest names: size, and whether maskable."""


def write_icons(folder: Path) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, (size, maskable) in ICONS.items():
        path = folder / name
        path.write_bytes(png(size, draw(size, maskable=maskable)))
        written.append(path)
    return written


if __name__ == "__main__":  # pragma: no cover - run by hand
    for written in write_icons(Path(sys.argv[1] if len(sys.argv) > 1 else "client/icons")):
        print(written)
