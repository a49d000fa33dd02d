"""The data directory: private from creation (0700, files 0600), one server at a time (a
lock held for the server's life), and a Redis socket path that is always the same."""

from __future__ import annotations

import contextlib
import errno
import fcntl
import hashlib
import os
import stat
import tempfile
from pathlib import Path

SOCKET_NAME = "redis.sock"
LOCK_NAME = "server.lock"
SOCKET_PATH_LIMIT = 100
"""A unix socket's path has a small size limit (108 bytes on Linux, 104 on macOS)."""


class DataDirBusy(RuntimeError):
    """Another server holds this data directory's lock."""


def private_dir(path: Path) -> Path:
    """``path`` as a directory only its owner may enter: made 0700, or set to 0700 when it
    already exists and is ours (parents are made with the usual modes)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700)
    info = path.stat()
    if info.st_uid == os.getuid() and stat.S_IMODE(info.st_mode) != 0o700:
        path.chmod(0o700)
    return path


def write_private(path: Path, text: str) -> bool:
    """Create ``path`` 0600 with ``text``, never readable by others even for an instant;
    False when it already exists (another process wrote it first)."""
    try:
        fd = os.open(path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o600)
    except FileExistsError:
        return False
    with os.fdopen(fd, "w") as out:
        out.write(text)
    return True


def make_files_private(folder: Path) -> None:
    """Files an older version left readable by others (``appendonly.aof``, Redis 7's
    ``appendonlydir``): 0600 (0700 for directories)."""
    uid = os.getuid()
    for path in [folder, *folder.iterdir()]:
        info = path.lstat()
        if info.st_uid != uid or stat.S_ISLNK(info.st_mode):
            continue
        if stat.S_ISDIR(info.st_mode):
            if path != folder:
                make_files_private(path)
            wanted = 0o700
        else:
            wanted = 0o600
        if stat.S_IMODE(info.st_mode) & 0o077:
            path.chmod(wanted)


class DataDirLock:
    """An exclusive ``flock`` on a file in the data directory, held while the server runs;
    the kernel drops it when the process dies, however it dies."""

    def __init__(self, folder: Path) -> None:
        self.path = folder / LOCK_NAME
        self._fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_CREAT | os.O_RDWR | os.O_CLOEXEC, 0o600)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as exc:
            os.close(fd)
            if exc.errno in (errno.EWOULDBLOCK, errno.EAGAIN, errno.EACCES):
                raise DataDirBusy(
                    f"another `eights serve` is using {self.path.parent} (one"
                    " data directory serves one server; give the others REDIS_URL or "
                    "another --data-dir)"
                ) from None
            raise
        self._fd = fd

    def release(self) -> None:
        if self._fd is not None:
            os.close(self._fd)  # closing the descriptor drops the lock
            self._fd = None


def socket_path(folder: Path) -> Path:
    """Where the embedded Redis of ``folder`` listens: in the folder when the path is short
    enough, else in a private directory named for a hash of the folder, the same on every
    start (so a leftover Redis is always found)."""
    socket = folder / SOCKET_NAME
    if len(str(socket)) <= SOCKET_PATH_LIMIT:
        return socket
    digest = hashlib.sha256(str(folder.resolve()).encode()).hexdigest()[:16]
    base = os.environ.get("XDG_RUNTIME_DIR") or tempfile.gettempdir()
    short = Path(base) / f"eights-{os.getuid()}-{digest}"
    if len(str(short / SOCKET_NAME)) > SOCKET_PATH_LIMIT:
        short = Path(tempfile.gettempdir()) / f"eights-{os.getuid()}-{digest}"
    return _owned_dir(short) / SOCKET_NAME


def _owned_dir(path: Path) -> Path:
    """A directory in a shared place (``/tmp``) that must be ours and private: another
    user who made it first could otherwise watch or take over the socket."""
    with contextlib.suppress(FileExistsError):
        path.mkdir(mode=0o700)
    info = path.lstat()
    if stat.S_ISLNK(info.st_mode) or not stat.S_ISDIR(info.st_mode):
        raise RuntimeError(f"{path} is not a directory: refusing to put a socket there")
    if info.st_uid != os.getuid():
        raise RuntimeError(f"{path} belongs to another user: refusing to put a socket there")
    if stat.S_IMODE(info.st_mode) != 0o700:
        path.chmod(0o700)
    return path
