"""A response body in each encoding a browser may ask for, made once (at start-up for the
client's files) and chosen per request from its Accept-Encoding: gzip everywhere, brotli
where the ``brotli`` package is installed."""

from __future__ import annotations

import asyncio
import gzip
import zlib
from collections.abc import Callable

from aiohttp import hdrs, web

COMPRESSIBLE = frozenset({
    "text/html",
    "text/css",
    "text/javascript",
    "application/javascript",
    "application/json",
    "application/manifest+json",
    "image/svg+xml",
    "text/plain",
})  # fmt: skip
"""The content types worth compressing (images other than SVG are compressed already)."""
ANSWER_SMALLEST = 1024
"""An answer made per request (an API's JSON) is compressed from this many bytes; the
client's files, made once, from ``SMALLEST``."""
SMALLEST = 256
"""Below this many bytes a compressed body is no smaller in packets: sent as it is."""


class Encoded:
    """One body, as it is and in each encoding a browser asked for: each encoding made
    once, on the first request that accepts it (off the event loop when the body is
    large), then kept; an encoding no smaller than the body is never sent."""

    __slots__ = ("_made", "compressible", "identity")

    def __init__(self, body: bytes, content_type: str) -> None:
        self.identity = body
        self.compressible = content_type in COMPRESSIBLE and len(body) >= SMALLEST
        self._made: dict[str, asyncio.Future[bytes | None]] = {}

    async def choose(self, accept_encoding: str) -> tuple[str | None, bytes]:
        """The encoding to send (None: as it is) and its bytes, by the request's header."""
        if not self.compressible:
            return None, self.identity
        accepted = accepted_encodings(accept_encoding)
        for coding in CODINGS:
            if coding in accepted and coder(coding) is not None:
                data = await self.encoded(coding)
                if data is not None:
                    return coding, data
        return None, self.identity

    async def encoded(self, coding: str) -> bytes | None:
        """The body in ``coding`` (None when that is no smaller), made on first use."""
        made = self._made.get(coding)
        if made is None:
            made = asyncio.get_running_loop().create_future()
            self._made[coding] = made
            try:
                if len(self.identity) <= INLINE_BYTES and coding == "gzip":
                    data = _encode(coding, self.identity)
                else:
                    data = await asyncio.to_thread(_encode, coding, self.identity)
            except BaseException as error:
                del self._made[coding]  # the next request tries again
                if isinstance(error, asyncio.CancelledError):
                    made.cancel()
                else:
                    made.set_exception(error)
                    made.exception()  # read here: whoever waits on it hears it too
                raise
            made.set_result(data if data is not None and len(data) < len(self.identity) else None)
        return await asyncio.shield(made)


CODINGS = ("br", "gzip")
"""The encodings we make, best first."""
INLINE_BYTES = 16 * 1024
"""A body up to this size is gzipped on the loop (well under a millisecond); a larger one,
or any brotli (quality 11 takes about half a second for the client's script), in a thread."""


def coder(coding: str) -> Callable[[bytes], bytes] | None:
    """How to make ``coding``: gzip always, brotli where its package is installed."""
    if coding == "gzip":
        return _gzip_best
    if coding == "br":
        try:
            import brotli
        except ImportError:
            return None
        compress: Callable[..., bytes] = brotli.compress
        return lambda body: compress(body, quality=11)
    return None


def _gzip_best(body: bytes) -> bytes:
    return gzip.compress(body, compresslevel=9, mtime=0)


def _encode(coding: str, body: bytes) -> bytes | None:
    made = coder(coding)
    return None if made is None else made(body)


def accepted_encodings(header: str) -> frozenset[str]:
    """The codings an Accept-Encoding header allows (a ``q=0`` refuses one)."""
    codings = set()
    for item in header.lower().split(",")[:32]:
        name, _, params = item.partition(";")
        name = name.strip()
        quality = params.strip()
        if quality.startswith("q="):
            try:
                if float(quality[2:]) <= 0:
                    continue
            except ValueError:
                continue
        if name:
            codings.add(name)
    return frozenset(codings)


def gzip_fast(body: bytes) -> bytes:
    """A dynamic body (an API answer) compressed quickly: level 4, a few tens of
    microseconds a kilobyte."""
    compressor = zlib.compressobj(4, zlib.DEFLATED, 31)
    return compressor.compress(body) + compressor.flush()


def compress_answer(request: web.Request, response: web.StreamResponse) -> web.StreamResponse:
    """An answer made for this request (not a file made once, which is compressed
    already, nor a socket or a stream) gzipped when it is compressible, at least
    ``ANSWER_SMALLEST`` bytes, the browser accepts gzip, and it holds no secret.

    Never an answer to a request that carries a seat's credential or may make one (any
    request but a GET): its answer holds the credential or the seat's hand beside text
    another player chooses (a name), and compressing a secret next to chosen text lets
    an observer of the sizes read it (BREACH; docs/security.md)."""
    if type(response) is not web.Response or hdrs.CONTENT_ENCODING in response.headers:
        return response
    if request.method != "GET" or hdrs.AUTHORIZATION in request.headers:
        return response
    body = response.body
    if not isinstance(body, bytes) or len(body) < ANSWER_SMALLEST:
        return response
    if response.content_type not in COMPRESSIBLE:
        return response
    if "gzip" not in accepted_encodings(request.headers.get(hdrs.ACCEPT_ENCODING, "")):
        return response
    response.body = gzip_fast(body)
    response.headers[hdrs.CONTENT_ENCODING] = "gzip"
    response.headers[hdrs.VARY] = "Accept-Encoding"
    return response
