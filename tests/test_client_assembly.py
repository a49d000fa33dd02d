"""The client as a phone gets it: every source file in the one stylesheet or the one
script, the assembled files under content-hashed addresses cached for good, every
compressible answer over 1 KiB compressed for a browser that accepts it, and a 304 for a
copy that is current."""

from __future__ import annotations

import gzip
import re
import shutil
from pathlib import Path
from typing import Any

import brotli
import pytest

from eights.web.bundle import (
    BundleError,
    join_modules,
    join_stylesheets,
    module_graph,
    page_parts,
    read_module,
)
from eights.web.clientfiles import FOREVER, ClientFiles
from eights.web.keys import CLIENT as CLIENT_FILES
from tests.rooms_helpers import open_table

CLIENT = Path(__file__).resolve().parents[1] / "client"
OWN_PAGES = {"sw.js", "offline.js"}
"""Scripts that are not part of the page: the service worker and the offline page's."""


def test_every_stylesheet_and_module_of_the_client_is_in_what_the_page_gets() -> None:
    """A .css file the page does not link, or a .js file its module graph does not reach,
    would never reach a browser: this fails and names it."""
    sheets, entry = page_parts((CLIENT / "index.html").read_text())
    modules = {m.path for m in module_graph(CLIENT, entry)}
    on_disk = {p.relative_to(CLIENT).as_posix() for p in CLIENT.rglob("*") if p.is_file()}
    css = {p for p in on_disk if p.endswith(".css")}
    js = {p for p in on_disk if p.endswith(".js")} - OWN_PAGES
    assert css - set(sheets) == set(), "stylesheets the page does not link"
    assert js - modules == set(), "modules no import reaches"
    assert len(sheets) == len(set(sheets))
    joined = join_stylesheets(CLIENT, sheets)
    at = [joined.index(f"/* {sheet} */\n") for sheet in sheets]
    assert at == sorted(at), "the cascade's order is index.html's"
    for sheet in sheets:
        assert (CLIENT / sheet).read_text().strip() in joined


def test_the_assembled_page_names_one_stylesheet_and_one_script_both_cached_for_good() -> None:
    client = ClientFiles.read(CLIENT)
    assert set(client.pages) == {"home", "table", "lobby", "page"}
    page = client.pages["home"].body.identity.decode()
    styles = re.findall(r'<link rel="stylesheet" href="/assets/([^"]+)">', page)
    scripts = re.findall(r'<script type="module" src="/assets/([^"]+)"></script>', page)
    assert len(styles) == 1
    assert len(scripts) == 1
    for name in (*styles, *scripts):
        assert re.fullmatch(r"app\.[0-9a-f]{16}\.(css|js)", name)
        assert client.assets[name].cache_control == FOREVER
    script = client.assets[scripts[0]].body.identity.decode()
    for module in client.modules:
        assert f"\n// {module}\n" in script
    assert set(client.sheets) == set(page_parts((CLIENT / "index.html").read_text())[0])


def test_a_changed_file_is_a_new_address_and_an_unchanged_one_keeps_its_own(
    tmp_path: Path,
) -> None:
    folder = tmp_path / "client"
    shutil.copytree(CLIENT, folder)
    before = ClientFiles.read(folder)
    hand = folder / "table" / "hand.js"
    hand.write_text(hand.read_text() + "\n// changed\n")
    after = ClientFiles.read(folder)

    def names(client: ClientFiles) -> set[str]:
        return {n for n in client.assets if re.fullmatch(r"app\.[0-9a-f]{16}\.(css|js)", n)}

    css_before = {n for n in names(before) if n.endswith(".css")}
    assert css_before == {n for n in names(after) if n.endswith(".css")}
    js_before = {n for n in names(before) if n.endswith(".js")}
    js_after = {n for n in names(after) if n.endswith(".js")}
    assert js_before.isdisjoint(js_after)
    assert before.version != after.version


def test_the_joined_modules_keep_their_scopes_and_their_order(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text(
        'import { b, c as see } from "./lib/b.js";\nexport const a = b + see;\n'
    )
    (tmp_path / "lib").mkdir()
    (tmp_path / "lib" / "b.js").write_text(
        'import { d } from "../d.js";\nconst hidden = 1;\n'
        "export function b() { return d; }\nexport const c = hidden;\n"
    )
    (tmp_path / "d.js").write_text("const hidden = 2;\nexport const d = hidden;\n")
    graph = module_graph(tmp_path, "a.js")
    assert [m.path for m in graph] == ["d.js", "lib/b.js", "a.js"]
    joined = join_modules(graph)
    assert "import " not in joined
    assert "\nexport " not in joined
    assert "const { b, c: see } = __eights_1;" in joined
    assert joined.count("const hidden") == 2  # each in its own function scope
    assert "return { b, c };" in joined


@pytest.mark.parametrize(
    "source",
    [
        'import * as all from "./d.js";\n',
        'import "./d.js";\n',
        "export default 1;\n",
        "const x = 1;\nexport { x };\n",
        'import { d } from "./missing.js";\n',
        'import { nothing } from "./d.js";\n',
    ],
)
def test_what_the_joiner_would_change_is_refused_with_a_sentence(
    tmp_path: Path, source: str
) -> None:
    (tmp_path / "d.js").write_text("export const d = 1;\n")
    (tmp_path / "a.js").write_text(source)
    with pytest.raises(BundleError) as refused:
        module_graph(tmp_path, "a.js")
    assert "a.js" in str(refused.value) or "missing.js" in str(refused.value)


def test_an_import_cycle_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.js").write_text('import { b } from "./b.js";\nexport const a = 1;\n')
    (tmp_path / "b.js").write_text('import { a } from "./a.js";\nexport const b = 1;\n')
    with pytest.raises(BundleError, match="cycle"):
        module_graph(tmp_path, "a.js")
    assert read_module(tmp_path, "a.js").exports == ("a",)


async def _crawl(table: Any) -> list[tuple[str, dict[str, str]]]:
    """Every address a browser meets, with the headers it sends: the pages, the files,
    the API's answers (a seat's state among them)."""
    host = await table.client.create(mode="online", variant="duo", public=True, timer=False)
    await table.client.join(host.token)
    page = await (await table.http.get("/")).text()
    named = re.findall(r'(?:href|src)="(/[^"]+)"', page)
    seat = {"Authorization": "Seat " + " ".join(host.credentials)}
    paths = [
        "/", "/lobby", "/verify", "/rules/duo", f"/t/{host.token}", f"/watch/{host.token}",
        "/sw.js", "/manifest.webmanifest", "/api/variants", "/api/lobby",
        f"/api/rooms/{host.token}", f"/api/rooms/{host.token}/qr.svg",
        *named, *(f"/assets/{name}" for name in table.app[CLIENT_FILES].assets),
    ]  # fmt: skip
    return [(path, {}) for path in paths] + [(f"/api/rooms/{host.token}/state", seat)]


async def test_every_compressible_answer_over_1_kib_is_compressed_for_a_browser(
    aiohttp_client: Any, make_app: Any
) -> None:
    """With gzip accepted (and with brotli), each answer of a compressible type over
    1 KiB goes out compressed, and decodes to the same bytes as the plain answer."""
    table = await open_table(aiohttp_client, make_app())
    compressible = ("text/", "application/javascript", "application/json", "image/svg+xml",
                    "application/manifest+json")  # fmt: skip
    checked = 0
    for path, headers in await _crawl(table):
        plain = await table.http.get(path, headers={**headers, "Accept-Encoding": "identity"})
        body = await plain.read()
        assert "Content-Encoding" not in plain.headers, path
        if not plain.content_type.startswith(compressible) or len(body) <= 1024:
            continue
        if "Authorization" in headers:  # a seat's answer: never (BREACH), checked below
            continue
        for accept, coding, decode in (("gzip", "gzip", gzip.decompress),
                                       ("gzip, deflate, br", "br", brotli.decompress)):  # fmt: skip
            answer = await table.http.get(
                path, headers={**headers, "Accept-Encoding": accept}, auto_decompress=False
            )
            assert answer.headers.get("Content-Encoding") == coding or (
                coding == "br" and answer.headers.get("Content-Encoding") == "gzip"
            ), (path, accept, answer.headers.get("Content-Encoding"))
            raw = await answer.read()
            decoded = (
                decode(raw)
                if answer.headers["Content-Encoding"] == coding
                else gzip.decompress(raw)
            )
            assert decoded == body, path
            assert "Accept-Encoding" in answer.headers.get("Vary", ""), path
        checked += 1
    assert checked >= 8  # the page's two files, the pages, the catalogue, the worker…


async def test_the_assembled_files_are_immutable_and_the_rest_revalidate(
    aiohttp_client: Any, make_app: Any
) -> None:
    table = await open_table(aiohttp_client, make_app())
    for path, headers in await _crawl(table):
        answer = await table.http.get(path, headers=headers)
        assert answer.status == 200, path
        control = answer.headers.get("Cache-Control", "")
        if re.fullmatch(r"/assets/app\.[0-9a-f]{16}\.(css|js)", path):
            assert control == "public, max-age=31536000, immutable", path
        else:
            assert "immutable" not in control, path
            assert "max-age=31536000" not in control, path
        if path.startswith(("/assets/", "/sw.js", "/manifest")) or path in ("/", "/lobby"):
            current = {**headers, "If-None-Match": answer.headers["ETag"]}
            again = await table.http.get(path, headers=current)
            assert again.status == 304, path
            assert await again.read() == b""


async def test_in_client_dev_the_page_names_the_sources_read_afresh_on_each_request(
    aiohttp_client: Any, make_app: Any, tmp_path: Path
) -> None:
    """For editing the client: no assembly, no hashed address, and an edit on disk is
    served at the next request, without a restart."""
    folder = tmp_path / "client"
    shutil.copytree(CLIENT, folder)
    table = await open_table(aiohttp_client, make_app(client_dir=folder, client_dev=True))
    page = await (await table.http.get("/")).text()
    assert not re.search(r"/assets/app\.[0-9a-f]{16}\.", page)
    assert '<script type="module" src="/assets/app.js"></script>' in page
    answer = await table.http.get("/assets/table/hand.js")
    assert answer.headers["Cache-Control"] == "no-cache"
    (folder / "table" / "hand.js").write_text("// edited\n")
    assert await (await table.http.get("/assets/table/hand.js")).text() == "// edited\n"


async def test_an_answer_holding_a_seats_secret_is_never_compressed(
    aiohttp_client: Any, make_app: Any
) -> None:
    """A seat's state (its hand beside the names other players choose) and an answer that
    makes a credential go out as they are, whatever the browser accepts: compressed, their
    sizes would let an observer read the secret by choosing the text beside it (BREACH)."""
    table = await open_table(aiohttp_client, make_app())
    accept = {"Accept-Encoding": "gzip, deflate, br"}
    made = await table.http.post(
        "/api/rooms", json={"mode": "online", "variant": "duo", "names": ["x" * 300]},
        headers=accept,
    )  # fmt: skip
    assert made.status == 201
    assert "Content-Encoding" not in made.headers
    credentials = (await made.json())["credentials"]
    seat = {"Authorization": "Seat " + " ".join(credentials.values()), **accept}
    state = await table.http.get(f"/api/rooms/{(await made.json())['token']}/state", headers=seat)
    assert state.status == 200
    assert len(await state.read()) > 1024
    assert "Content-Encoding" not in state.headers


async def test_the_catalogue_at_the_address_the_page_names_is_kept_for_good(
    aiohttp_client: Any, make_app: Any
) -> None:
    """The page names the tables we deal at an address that changes when they do: a
    browser keeps that one for good; any other version, or none, is asked again."""
    table = await open_table(aiohttp_client, make_app())
    page = await (await table.http.get("/")).text()
    found = re.search(
        r'<meta name="eights-catalogue" content="(/api/variants\?v=[0-9a-f]+)">', page
    )
    assert found is not None
    current = await table.http.get(found.group(1))
    assert current.headers["Cache-Control"] == FOREVER
    for other in ("/api/variants", "/api/variants?v=0000", "/api/variants?v="):
        answer = await table.http.get(other)
        assert answer.headers["Cache-Control"] == "no-cache", other
        assert await answer.json() == await current.json()
