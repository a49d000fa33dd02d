"""The invitation's QR code, drawn by segno (a maintained, pure-Python encoder) as SVG:
the page shows it as an image, so a friend's phone camera opens the link."""

from __future__ import annotations

import io

import segno


def qr_svg(text: str) -> bytes:
    """``text`` as a QR code (error correction M, raised when it fits for free) in an SVG
    document: dark modules on white with the four-module quiet zone scanners need."""
    code = segno.make_qr(text, error="m", boost_error=True)
    out = io.BytesIO()
    code.save(
        out,
        kind="svg",
        scale=1,
        omitsize=True,
        border=4,
        dark="#000",
        light="#fff",
        xmldecl=False,
        title="Invitation link",
        svgclass=None,
        lineclass=None,
    )
    return out.getvalue()
