"""The static client as it is served, read once at start-up: one stylesheet and one script
assembled from client/ (eights.web.bundle) under content-hashed addresses that never change,
the pages that name them, every file compressed once, and the service worker with the
files it caches and a version (a hash of the whole folder) that names its cache, so a
deploy that changes any file replaces the cached ones (client/sw.js).

With ``client_dev`` the pages name the source files one by one, as they are in client/,
and the files are read from disk on each request: edit a file, reload the page."""

from __future__ import annotations

import hashlib
import json
import mimetypes
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from .bundle import join_modules, join_stylesheets, module_graph, page_parts
from .compress import Encoded

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
INDEX = "index.html"
NOT_CACHED = frozenset({WORKER, MANIFEST, "README.md"})
"""Files of the client folder the worker does not cache under /assets/ (itself, the
manifest, which it caches at /manifest.webmanifest, and the folder's notes)."""
MAX_FILES = 500
"""More files than the client has: a folder with more is not the client."""
VERSION_MARK = "__EIGHTS_VERSION__"
FILES_MARK = '["__EIGHTS_FILES__"]'
FOREVER = "public, max-age=31536000, immutable"
"""A content-hashed file: its address changes with its bytes, so it is never asked again."""
REVALIDATE = "no-cache"
"""Everything else: kept, but asked again (a 304 when unchanged) before each use."""
FIRST_SCREENS = ("home", "table", "lobby", "page")
"""The kinds of page, each with its first screen in client/first/ (eights.web.pages says
which address is which kind)."""
FIRST_MARK = "<!-- first screen:"
CATALOGUE_MARK = 'content="/api/variants"'
KEPT_WHOLE = ("icons/", "offline.html", "offline.js", "icon.svg")
"""What the worker caches besides the assembled files and the page: what a page names
outside the two assembled files (the icons) and what it shows offline."""
_TYPES = {
    ".js": "text/javascript",
    ".css": "text/css",
    ".html": "text/html",
    ".svg": "image/svg+xml",
    ".webmanifest": "application/manifest+json",
    ".json": "application/json",
    ".md": "text/plain",
    ".png": "image/png",
}


@dataclass(frozen=True, slots=True, eq=False)
class Asset:
    """One file as served: its encodings, type, validator and caching."""

    body: Encoded
    content_type: str
    etag: str
    cache_control: str

    @classmethod
    def of(cls, data: bytes, content_type: str, cache_control: str) -> Asset:
        # Weak: the same file in another encoding has the same tag (If-None-Match compares
        # weakly, so a 304 still answers it).
        etag = 'W/"' + hashlib.sha256(data).hexdigest()[:20] + '"'
        return cls(Encoded(data, content_type), content_type, etag, cache_control)


@dataclass(frozen=True, slots=True)
class ClientFiles:
    version: str
    """16 hex digits of the folder's SHA-256 (its files' paths and bytes)."""
    files: tuple[str, ...]
    """The URLs the worker caches: the home page and the static files."""
    worker: str
    """sw.js with the version and the files written in ("" when there is none)."""
    assets: Mapping[str, Asset]
    """Every file served under /assets/, by its path there (``table/hand.css``); the
    assembled ones under their hashed names (``app.1f2e….css``)."""
    pages: Mapping[str, Asset]
    """index.html naming the assembled files, with each kind of page's first screen
    (``FIRST_SCREENS``) in it; empty when there is no index.html."""
    manifest: Asset | None
    served_worker: Asset | None = None
    """The worker as sent at /sw.js."""
    sheets: tuple[str, ...] = ()
    """The stylesheets the page names, in order, and its module graph (paths in client/)."""
    modules: tuple[str, ...] = ()
    dev: bool = False

    @classmethod
    def read(cls, folder: Path, *, dev: bool = False, catalogue: str = "") -> ClientFiles:
        """The client in ``folder``; ``catalogue`` is the address of the tables we deal
        (/api/variants with its version), written into the page."""
        paths = sorted(
            p
            for p in folder.rglob("*")
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        )[:MAX_FILES]
        digest = hashlib.sha256()
        raw: dict[str, bytes] = {}
        for path in paths:
            name = path.relative_to(folder).as_posix()
            raw[name] = path.read_bytes()
            digest.update(name.encode() + b"\0" + raw[name] + b"\0")
        version = digest.hexdigest()[:16]
        assets = {
            name: Asset.of(data, _type(name), REVALIDATE)
            for name, data in raw.items()
            if name not in (WORKER, INDEX)
        }
        pages: dict[str, Asset] = {}
        manifest = None
        sheets: list[str] = []
        modules: list[str] = []
        cached: list[str] = [name for name in raw if name not in NOT_CACHED]
        if INDEX in raw:
            index = raw[INDEX].decode()
            sheets, entry = page_parts(index)
            graph = module_graph(folder, entry)
            modules = [m.path for m in graph]
            if not dev:
                style = join_stylesheets(folder, sheets).encode()
                script = join_modules(graph).encode()
                style_name = f"app.{hashlib.sha256(style).hexdigest()[:16]}.css"
                script_name = f"app.{hashlib.sha256(script).hexdigest()[:16]}.js"
                assets[style_name] = Asset.of(style, "text/css", FOREVER)
                assets[script_name] = Asset.of(script, "text/javascript", FOREVER)
                index = assembled_page(index, style_name, script_name)
                if catalogue:
                    index = index.replace(CATALOGUE_MARK, f'content="{catalogue}"', 1)
                cached = [style_name, script_name] + [
                    n for n in raw if n.startswith(KEPT_WHOLE) and n not in NOT_CACHED
                ]
            for kind in FIRST_SCREENS:
                first = "" if dev else raw.get(f"first/{kind}.html", b"").decode()
                text = with_first_screen(index, first)
                pages[kind] = Asset.of(text.encode(), "text/html", REVALIDATE)
        if MANIFEST in raw:
            manifest = Asset.of(raw[MANIFEST], "application/manifest+json", REVALIDATE)
        files = ("/", f"/{MANIFEST}", *(f"/assets/{n}" for n in cached))
        worker = ""
        if WORKER in raw:
            text = raw[WORKER].decode()
            worker = text.replace(VERSION_MARK, version).replace(FILES_MARK, json.dumps(files))
        served = Asset.of(worker.encode(), "text/javascript", REVALIDATE) if worker else None
        return cls(
            version,
            files,
            worker,
            assets,
            pages,
            manifest,
            served,
            tuple(sheets),
            tuple(modules),
            dev,
        )


def assembled_page(index: str, style_name: str, script_name: str) -> str:
    """index.html with its stylesheets as the one assembled stylesheet (where the first
    one stood) and its module script as the assembled script."""
    lines = index.splitlines(keepends=True)
    out: list[str] = []
    linked = False
    for line in lines:
        stripped = line.strip()
        if stripped.startswith('<link rel="stylesheet" href="/assets/'):
            if not linked:
                out.append(f'<link rel="stylesheet" href="/assets/{style_name}">\n')
                linked = True
            continue
        if stripped.startswith('<script type="module" src="/assets/'):
            out.append(f'<script type="module" src="/assets/{script_name}"></script>\n')
            continue
        out.append(line)
    return "".join(out)


def catalogue_version(asset: Asset) -> str:
    """The version of a file served at a fixed address (the catalogue): its tag's digits."""
    return asset.etag.removeprefix("W/").strip('"')


def with_first_screen(index: str, first: str) -> str:
    """index.html with ``first`` (a first screen, less its leading comment) in place of
    the line that marks where it goes."""
    lines = index.splitlines(keepends=True)
    body = first
    if body.lstrip().startswith("<!--"):
        body = body.split("-->", 1)[1].lstrip("\n")
    return "".join(body if line.lstrip().startswith(FIRST_MARK) else line for line in lines)


def _type(name: str) -> str:
    suffix = Path(name).suffix
    return _TYPES.get(suffix) or mimetypes.guess_type(name)[0] or "application/octet-stream"
