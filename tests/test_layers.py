"""Imports run one way, toward the engine: web -> storage -> rooms -> bots -> rules."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "server" / "eights"
MAY_IMPORT = {
    "rules": {"rules"},
    "bots": {"rules", "bots"},
    "rooms": {"rules", "bots", "rooms"},
    "storage": {"rules", "bots", "rooms", "storage"},
    "web": {"rules", "bots", "rooms", "storage", "web"},
}
NO_IO_IN = {"rules", "rooms"}
IO_MODULES = {"asyncio", "aiohttp", "redis", "socket", "subprocess", "os", "time", "random"}


def imports_of(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


@pytest.mark.parametrize("layer", sorted(MAY_IMPORT))
def test_a_layer_imports_only_the_layers_beneath_it(layer: str) -> None:
    for path in (PACKAGE / layer).rglob("*.py"):
        for name in imports_of(path):
            parts = name.split(".")
            if parts[0] == "eights" and len(parts) > 1:
                assert parts[1] in MAY_IMPORT[layer], f"{path.name} imports {name}"
            if layer in NO_IO_IN:
                assert parts[0] not in IO_MODULES, f"{path.name} imports {name}"
