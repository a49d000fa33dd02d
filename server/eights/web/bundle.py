"""The client's source files as the browser gets them: its ES modules joined into one script
and its stylesheets into one, at start-up, so that a phone opens the table in a few round
trips instead of a chain of them. No build step: the files in client/ stay one per part,
and this reads them as they are (client/README.md says what they may use).

The modules keep their own scopes: each becomes a function run once, in the order the
browser would run them (each module after the modules it imports), that returns its
exports; an import takes them from the module run before it."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

MAX_MODULES = 400
"""More modules than the client has: a graph with more is not the client."""

_IMPORT = re.compile(
    r'^import\s*\{(?P<names>[^}]*)\}\s*from\s*"(?P<path>\.{1,2}/[^"]+\.js)";?[ \t]*$', re.M
)
_ANY_IMPORT = re.compile(r"^import\b", re.M)
_EXPORT = re.compile(
    r"^export\s+(?:async\s+)?(?:function\s*\*?|const|let|var|class)\s+(?P<name>[A-Za-z_$][\w$]*)",
    re.M,
)
_ANY_EXPORT = re.compile(r"^export\b", re.M)
_NAME = re.compile(r"^[A-Za-z_$][\w$]*$")
_STYLESHEET = re.compile(r'<link rel="stylesheet" href="/assets/(?P<path>[^"]+\.css)">')
_SCRIPT = re.compile(r'<script type="module" src="/assets/(?P<path>[^"]+\.js)"></script>')


class BundleError(ValueError):
    """A client file this joiner cannot read as it is (the sentence says which and why):
    start-up stops, as it would for a missing file, rather than serve a broken table."""


@dataclass(frozen=True, slots=True)
class Module:
    path: str
    """Its path inside client/, with forward slashes (``table/hand.js``)."""
    source: str
    imports: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    """Each import: the module's path and its (exported name, local name) pairs."""
    exports: tuple[str, ...]


def page_parts(index: str) -> tuple[list[str], str]:
    """The stylesheets index.html links, in its order (the cascade's), and its one module
    script: the paths inside client/."""
    sheets = [m.group("path") for m in _STYLESHEET.finditer(index)]
    scripts = [m.group("path") for m in _SCRIPT.finditer(index)]
    if len(scripts) != 1:
        raise BundleError(f"index.html names {len(scripts)} module scripts; it names one")
    return sheets, scripts[0]


def join_stylesheets(folder: Path, paths: list[str]) -> str:
    """The stylesheets in the order given, each under a comment naming its file."""
    parts = []
    for path in paths:
        text = _read(folder, path)
        if re.search(r"@import|@charset|url\(\s*['\"]?(?!data:)", text):
            raise BundleError(f"{path} imports or links a file; joined, its address would move")
        parts.append(f"/* {path} */\n{text.rstrip()}\n")
    return "\n".join(parts)


def read_module(folder: Path, path: str) -> Module:
    """One module's source, imports and exports, refused where the joiner would change
    its meaning (a default export, ``import *``, a side-effect import, ``export {…}``)."""
    source = _read(folder, path)
    imports = []
    for match in _IMPORT.finditer(source):
        target = _resolve(path, match.group("path"))
        pairs = []
        for item in match.group("names").split(","):
            words = item.split()
            if not words:
                continue
            if len(words) == 3 and words[1] == "as":
                pairs.append((words[0], words[2]))
            elif len(words) == 1:
                pairs.append((words[0], words[0]))
            else:
                raise BundleError(f"{path}: cannot read the import {item.strip()!r}")
            if not all(_NAME.match(w) for w in pairs[-1]):
                raise BundleError(f"{path}: cannot read the import {item.strip()!r}")
        imports.append((target, tuple(pairs)))
    if len(_ANY_IMPORT.findall(source)) != len(imports):
        raise BundleError(f'{path}: an import other than `import {{ … }} from "./x.js";`')
    exports = tuple(m.group("name") for m in _EXPORT.finditer(source))
    if len(_ANY_EXPORT.findall(source)) != len(exports):
        raise BundleError(f"{path}: an export other than `export function|const|let|class name`")
    return Module(path, source, tuple(imports), exports)


def module_graph(folder: Path, entry: str) -> list[Module]:
    """Every module the entry reaches, each after the modules it imports (the order the
    browser runs them in), refusing an import cycle or a name a module does not export."""
    order: list[Module] = []
    done: dict[str, Module] = {}
    visiting: list[str] = []

    def visit(path: str) -> None:
        if path in done:
            return
        if path in visiting:
            cycle = " → ".join([*visiting[visiting.index(path) :], path])
            raise BundleError(f"an import cycle: {cycle}")
        if len(done) + len(visiting) >= MAX_MODULES:
            raise BundleError(f"more than {MAX_MODULES} modules")
        visiting.append(path)
        module = read_module(folder, path)
        for target, pairs in module.imports:
            visit(target)
            missing = [name for name, _ in pairs if name not in done[target].exports]
            if missing:
                names = ", ".join(missing)
                raise BundleError(f"{path} imports {names} that {target} does not export")
        visiting.pop()
        done[path] = module
        order.append(module)

    visit(entry)
    return order


def join_modules(modules: list[Module]) -> str:
    """One module script running the given modules in order, each in its own scope."""
    names = {m.path: f"__eights_{i}" for i, m in enumerate(modules)}
    parts = ["// The client's modules joined at start-up (eights.web.bundle): one scope each."]
    for module in modules:
        lines = [f"// {module.path}", f"const {names[module.path]} = (() => {{"]
        for target, pairs in module.imports:
            fields = ", ".join(n if n == local else f"{n}: {local}" for n, local in pairs)
            lines.append(f"const {{ {fields} }} = {names[target]};")
        body = _IMPORT.sub("", module.source)
        body = _ANY_EXPORT.sub("", body)
        lines.append(body.rstrip())
        lines.append(f"return {{ {', '.join(module.exports)} }};")
        lines.append("})();")
        parts.append("\n".join(lines))
    return "\n".join(parts) + "\n"


def _resolve(importer: str, relative: str) -> str:
    parts: list[str] = []
    for part in (PurePosixPath(importer).parent / relative).parts:
        if part == "..":
            if not parts:
                raise BundleError(f"{importer} imports {relative}, outside client/")
            parts.pop()
        elif part != ".":
            parts.append(part)
    return "/".join(parts)


def _read(folder: Path, path: str) -> str:
    file = (folder / path).resolve()
    if not file.is_relative_to(folder.resolve()) or not file.is_file():
        raise BundleError(f"{path} is named but is not a file of the client")
    return file.read_text(encoding="utf-8")
