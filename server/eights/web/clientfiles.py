"""The static client as the service worker sees it: every file it caches, and a version
(a hash of the whole folder, computed once at start-up) that names its cache, so a deploy
that changes any file replaces the cached ones (client/sw.js)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

WORKER = "sw.js"
MANIFEST = "manifest.webmanifest"
NOT_CACHED = frozenset({WORKER, MANIFEST, "README.md"})
"""Files of the client folder the worker does not cache under /assets/ (itself, the
manifest, which it caches at /manifest.webmanifest, and the folder's notes)."""
MAX_FILES = 500
"""More files than the client has: a folder with more is not the client."""
VERSION_MARK = "__EIGHTS_VERSION__"
FILES_MARK = '["__EIGHTS_FILES__"]'


@dataclass(frozen=True, slots=True)
class ClientFiles:
    version: str
    """16 hex digits of the folder's SHA-256 (its files' paths and bytes)."""
    files: tuple[str, ...]
    """The URLs the worker caches: the home page and the static files."""
    worker: str
    """sw.js with the version and the files written in ("" when there is none)."""

    @classmethod
    def read(cls, folder: Path) -> ClientFiles:
        paths = sorted(
            p
            for p in folder.rglob("*")
            if p.is_file() and not any(part.startswith(".") for part in p.relative_to(folder).parts)
        )[:MAX_FILES]
        digest = hashlib.sha256()
        for path in paths:
            name = path.relative_to(folder).as_posix()
            digest.update(name.encode() + b"\0" + path.read_bytes() + b"\0")
        version = digest.hexdigest()[:16]
        names = [p.relative_to(folder).as_posix() for p in paths]
        files = ("/", f"/{MANIFEST}", *(f"/assets/{n}" for n in names if n not in NOT_CACHED))
        template = folder / WORKER
        worker = ""
        if template.is_file():
            text = template.read_text()
            worker = text.replace(VERSION_MARK, version).replace(FILES_MARK, json.dumps(files))
        return cls(version, files, worker)
