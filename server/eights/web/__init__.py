"""The web layer: HTTP and sockets, fan-out, the static client. ``create_app`` wires it."""

from .app import create_app
from .config import Settings

__all__ = ["Settings", "create_app"]
