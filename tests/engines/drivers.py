"""Two more engines, driven from outside as a player's browser is: WebKit (Debian's
``webkit2gtk-driver``: ``WebKitWebDriver`` starts its MiniBrowser, here under ``Xvfb``),
spoken to in classic WebDriver over HTTP; and Firefox (Debian's ``firefox-esr``, headless),
spoken to in WebDriver BiDi over its WebSocket. Both clients are small and standard library
only (``websocket.py``): no driver download, no new dependency. Each engine offers the same
few things the smoke tests use (``Engine``); every wait is on the page (``call`` resolves
when the page's promise does) or bounded in time."""

from __future__ import annotations

import base64
import json
import os
import queue
import re
import selectors
import socket
import subprocess
import threading
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from pathlib import Path
from typing import Any, Protocol

from tests.engines.websocket import WebSocket

START_SECONDS = 60.0
"""The longest an engine (or the virtual display) may take to start."""
COMMAND_SECONDS = 60.0
"""The longest one command may take (a wait on the page is bounded by its own timeout)."""


CLICK_TRIES = 3
"""How often a click finds its element again when a render replaced it in between."""


class EngineError(RuntimeError):
    """An engine refused a command, or a script on the page failed."""


class Engine(Protocol):
    name: str

    def go(self, url: str) -> None:
        """Open `url` in the page and wait until it has loaded."""

    def call(self, function: str, *args: object) -> Any:
        """Run the JavaScript function (source; it may return a promise) in the page with
        `args` (JSON values); its result, through JSON."""

    def click(self, selector: str) -> None:
        """A real click (the pointer, not element.click()) on the element's centre."""

    def resize(self, width: int, height: int) -> None:
        """Make the page's viewport this size."""

    def screenshot(self, path: Path) -> None: ...

    def close(self) -> None: ...


# The page side of `call`: arguments travel as JSON text, and so does the answer.
def _wrapped(function: str) -> str:
    return (
        "(...raw) => Promise.resolve()"
        f".then(() => ({function})(...raw.map(r => JSON.parse(r))))"
        ".then(v => JSON.stringify(v === undefined ? null : v))"
    )


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _stop(process: subprocess.Popen[bytes]) -> None:
    """Our own child: terminate, then kill if it lingers."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


# ---- the virtual display (WebKit's MiniBrowser is a GTK window) ---------------------------


@contextmanager
def virtual_display(xvfb: str) -> Iterator[str]:
    """An ``Xvfb`` display of its own (it names a free number itself); yields ":N"."""
    read, write = os.pipe()
    argv = [xvfb, "-displayfd", str(write), "-screen", "0", "1600x1200x24", "-nolisten", "tcp"]
    process = subprocess.Popen(
        argv, pass_fds=(write,), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    os.close(write)
    try:
        seen = b""
        give_up = time.monotonic() + START_SECONDS
        with selectors.DefaultSelector() as selector:
            selector.register(read, selectors.EVENT_READ)
            while b"\n" not in seen and time.monotonic() < give_up:
                if selector.select(timeout=give_up - time.monotonic()):
                    chunk = os.read(read, 64)
                    if not chunk:
                        break
                    seen += chunk
        if not seen.strip().isdigit():
            raise EngineError(f"Xvfb named no display: {seen!r}")
        yield f":{seen.strip().decode()}"
    finally:
        os.close(read)
        _stop(process)


# ---- WebKit: classic WebDriver over HTTP ---------------------------------------------------

ELEMENT = "element-6066-11e4-a52e-4f735466cecf"


class WebKit:
    name = "webkit"

    def __init__(self, driver: str, display: str, home: Path) -> None:
        home.mkdir(parents=True, exist_ok=True)
        port = _free_port()
        env = dict(
            os.environ,
            DISPLAY=display,
            HOME=str(home),
            XDG_RUNTIME_DIR=str(home),
            # Root in a container has no user namespaces for WebKit's bubblewrap sandbox,
            # and Xvfb has no GPU.
            WEBKIT_DISABLE_SANDBOX_THIS_IS_DANGEROUS="1",
            WEBKIT_DISABLE_COMPOSITING_MODE="1",
            LIBGL_ALWAYS_SOFTWARE="1",
        )
        with (home / "webkitwebdriver.log").open("wb") as log:
            self.process = subprocess.Popen(
                [driver, f"--port={port}"], stdout=log, stderr=log, env=env
            )
        self.base = f"http://127.0.0.1:{port}"
        give_up = time.monotonic() + START_SECONDS
        while True:
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if self.process.poll() is not None or time.monotonic() > give_up:
                    raise EngineError("WebKitWebDriver never listened") from None
                time.sleep(0.05)  # polling a child's start-up, not a page
        try:
            answer = self._send("POST", "/session", {"capabilities": {"alwaysMatch": {}}})
            self.session = f"/session/{answer['sessionId']}"
            self._send("POST", f"{self.session}/timeouts", {"script": 60_000, "pageLoad": 60_000})
        except BaseException:
            _stop(self.process)
            raise

    def _send(self, method: str, path: str, body: object = None) -> Any:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(
            self.base + path, data=data, method=method,
            headers={"Content-Type": "application/json"},
        )  # fmt: skip
        try:
            with urllib.request.urlopen(request, timeout=COMMAND_SECONDS) as response:
                return json.loads(response.read())["value"]
        except urllib.error.HTTPError as refused:
            raise EngineError(
                f"{method} {path}: {refused.read().decode(errors='replace')}"
            ) from None

    def go(self, url: str) -> None:
        self._send("POST", f"{self.session}/url", {"url": url})

    def call(self, function: str, *args: object) -> Any:
        script = (
            "const done = arguments[arguments.length - 1];"
            "const raw = Array.prototype.slice.call(arguments, 0, -1);"
            f"({_wrapped(function)})(...raw).then(v => done({{ok: v}}),"
            " e => done({error: String(e && ((e.message || '') + ' ' + (e.stack || '')) || e)}));"
        )
        answer = self._send(
            "POST",
            f"{self.session}/execute/async",
            {"script": script, "args": [json.dumps(a) for a in args]},
        )
        if "error" in answer:
            raise EngineError(answer["error"])
        return json.loads(answer["ok"])

    def click(self, selector: str) -> None:
        for attempt in range(CLICK_TRIES):
            self.call("s => document.querySelector(s).scrollIntoView({block: 'center'})", selector)
            found = self._send(
                "POST", f"{self.session}/element", {"using": "css selector", "value": selector}
            )
            try:
                self._send("POST", f"{self.session}/element/{found[ELEMENT]}/click", {})
                return
            except EngineError as refused:
                # Drawn again between finding and clicking: find the new one.
                if "stale element" not in str(refused) or attempt == CLICK_TRIES - 1:
                    raise

    def resize(self, width: int, height: int) -> None:
        """The window, then again by what its frame takes (the viewport is what counts)."""
        self._send("POST", f"{self.session}/window/rect", {"width": width, "height": height})
        inner = self.call("() => [window.innerWidth, window.innerHeight]")
        if inner != [width, height]:
            outer = self._send("GET", f"{self.session}/window/rect")
            self._send(
                "POST",
                f"{self.session}/window/rect",
                {
                    "width": outer["width"] + width - inner[0],
                    "height": outer["height"] + height - inner[1],
                },
            )

    def screenshot(self, path: Path) -> None:
        path.write_bytes(base64.b64decode(self._send("GET", f"{self.session}/screenshot")))

    def close(self) -> None:
        with suppress(EngineError, OSError):
            self._send("DELETE", self.session)
        _stop(self.process)


# ---- Firefox: WebDriver BiDi over a WebSocket ----------------------------------------------

LISTENING = re.compile(r"WebDriver BiDi listening on (ws://\S+)")
FIREFOX_PREFS = {
    "browser.shell.checkDefaultBrowser": False,
    "browser.startup.homepage_override.mstone": "ignore",
    "datareporting.policy.dataSubmissionEnabled": False,
    "toolkit.telemetry.reportingpolicy.firstRun": False,
    "app.update.disabledForTesting": True,
    "browser.tabs.warnOnClose": False,
}


class Firefox:
    name = "firefox"

    def __init__(self, executable: str, home: Path) -> None:
        profile = home / "profile"
        profile.mkdir(parents=True, exist_ok=True)
        prefs = "".join(f'user_pref("{k}", {json.dumps(v)});\n' for k, v in FIREFOX_PREFS.items())
        (profile / "user.js").write_text(prefs)
        argv = [
            executable, "--headless", "--no-remote", "--profile", str(profile),
            "--remote-debugging-port=0", "about:blank",
        ]  # fmt: skip
        env = dict(os.environ, HOME=str(home), MOZ_CRASHREPORTER_DISABLE="1")
        self.process = subprocess.Popen(
            argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env
        )
        found: queue.Queue[str] = queue.Queue()
        self.drain = threading.Thread(
            target=_drain, args=(self.process, home / "firefox.log", found), daemon=True
        )
        self.drain.start()
        try:
            url = found.get(timeout=START_SECONDS)
            self.ws = WebSocket(f"{url}/session", timeout=COMMAND_SECONDS)
            self._next = 0
            self.command("session.new", {"capabilities": {}})
            tree = self.command("browsingContext.getTree", {})
            self.context = tree["contexts"][0]["context"]
        except BaseException:
            _stop(self.process)
            self.drain.join(15)
            if self.process.stderr is not None:
                self.process.stderr.close()
            raise

    def command(self, method: str, params: dict[str, Any]) -> Any:
        self._next += 1
        self.ws.send(json.dumps({"id": self._next, "method": method, "params": params}))
        while True:
            message = json.loads(self.ws.recv())
            if message.get("id") != self._next:
                continue  # an event: none is subscribed to, but some come regardless
            if message.get("type") == "error":
                raise EngineError(f"{method}: {message.get('error')}: {message.get('message')}")
            return message["result"]

    def _call(self, function: str, args: list[str], ownership: str = "none") -> Any:
        done = self.command(
            "script.callFunction",
            {
                "functionDeclaration": function,
                "arguments": [{"type": "string", "value": a} for a in args],
                "target": {"context": self.context},
                "awaitPromise": True,
                "resultOwnership": ownership,
            },
        )
        if done["type"] != "success":
            details = done.get("exceptionDetails", {})
            raise EngineError(f"{details.get('text')}\n{details.get('stackTrace')}")
        return done["result"]

    def go(self, url: str) -> None:
        self.command(
            "browsingContext.navigate", {"context": self.context, "url": url, "wait": "complete"}
        )

    def call(self, function: str, *args: object) -> Any:
        result = self._call(_wrapped(function), [json.dumps(a) for a in args])
        return json.loads(result["value"])

    def click(self, selector: str) -> None:
        for attempt in range(CLICK_TRIES):
            try:
                self._click_once(selector)
                return
            except EngineError as refused:
                # Drawn again between finding and clicking (a view arrived): find the new
                # one. Firefox says so as "no such node", or, for a node taken out of the
                # page, "Origin element ... is not displayed" (it has no boxes); an element
                # that is really hidden says the same every time, and is raised.
                replaced = "no such node" in str(refused) or "is not displayed" in str(refused)
                if not replaced or attempt == CLICK_TRIES - 1:
                    raise

    def _click_once(self, selector: str) -> None:
        node = self._call(
            "(s) => { const el = document.querySelector(s);"
            " el.scrollIntoView({block: 'center'}); return el; }",
            [selector],
            ownership="root",
        )
        if node.get("type") != "node":
            raise EngineError(f"nothing to click at {selector}")
        origin = {"type": "element", "element": {"sharedId": node["sharedId"]}}
        pointer = [
            {"type": "pointerMove", "x": 0, "y": 0, "origin": origin},
            {"type": "pointerDown", "button": 0},
            {"type": "pointerUp", "button": 0},
        ]
        self.command(
            "input.performActions",
            {
                "context": self.context,
                "actions": [
                    {
                        "type": "pointer",
                        "id": "mouse",
                        "parameters": {"pointerType": "mouse"},
                        "actions": pointer,
                    }
                ],
            },
        )

    def resize(self, width: int, height: int) -> None:
        self.command(
            "browsingContext.setViewport",
            {"context": self.context, "viewport": {"width": width, "height": height}},
        )

    def screenshot(self, path: Path) -> None:
        shot = self.command("browsingContext.captureScreenshot", {"context": self.context})
        path.write_bytes(base64.b64decode(shot["data"]))

    def close(self) -> None:
        with suppress(EngineError, OSError):
            self.command("session.end", {})
        self.ws.close()
        _stop(self.process)
        self.drain.join(15)  # its pipe ends with the process
        if self.process.stderr is not None:
            self.process.stderr.close()


def _drain(process: subprocess.Popen[bytes], log: Path, found: queue.Queue[str]) -> None:
    """Firefox's stderr into `log` (a full pipe would stall it); its BiDi address to `found`."""
    assert process.stderr is not None
    with log.open("wb") as out:
        for line in process.stderr:
            out.write(line)
            out.flush()
            match = LISTENING.search(line.decode(errors="replace"))
            if match:
                found.put(match.group(1))
