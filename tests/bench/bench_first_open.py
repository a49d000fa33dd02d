"""Benchmark: the first open of each page on a phone, as Lighthouse measures it.

    .venv/bin/python -m tests.bench.bench_first_open [--runs 3] [--json FILE]
        [--lighthouse DIR] [--chromium PATH]

Starts `eights serve` on 127.0.0.1 (its embedded Redis, a fresh data folder) and runs
Lighthouse 12's default mobile run (simulated slow 4G, a 4x slower CPU) --runs times on
each page in a fresh Chromium profile: an invitation link (`/t/<token>` of a friend table
nobody has joined), home, the lobby, a rules page and a table against the computer (its
seat saved in the browser, as after Play). Prints the median of the runs for each page:
the performance score, first and largest contentful paint, total blocking time, layout
shift, the requests and bytes of the load, and the requests made before the first paint
(requested before the first contentful paint, on the run's own timeline); then the
accessibility and best-practices scores. Last, a repeat visit of each page in a browser
that has seen it (its service worker installed): the requests the server receives.

Needs Node.js and npm (it installs `lighthouse@12` into --lighthouse, by default
~/.cache/eights-bench/lighthouse, once) and Chromium (Debian's `chromium`, or
--chromium). Loopback only; every run is bounded in time. See docs/performance.md.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from tests.serve_process import SECRET

LIGHTHOUSE = "12"
RUN_SECONDS = 180
ATTEMPTS = 3
CHROME_FLAGS = (
    "--headless=new --no-sandbox --disable-gpu --no-first-run --disable-background-networking "
    "--disable-component-update --disable-sync --disable-dev-shm-usage"
)
PAGES = ("invitation", "home", "lobby", "rules", "table")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _post(base: str, path: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(
        base + path,
        data=json.dumps(body).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as answer:
        data: dict[str, Any] = json.loads(answer.read())
        return data


@contextmanager
def served(folder: Path) -> Any:
    log = (folder / "serve.log").open("wb")
    command = [
        sys.executable, "-m", "eights.cli.main", "serve", "--port", "0",
        "--data-dir", str(folder / "data"), "--secret", SECRET,
    ]  # fmt: skip
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=log, env={**os.environ, "EIGHTS_HTTP_RATE": "0"}
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode()  # "Eights is open at http://localhost:P/"
        port = int(line.rsplit(":", 1)[-1].split("/", 1)[0])
        yield f"http://127.0.0.1:{port}", folder / "serve.log"
    finally:
        process.send_signal(signal.SIGTERM)
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
        log.close()


def ensure_lighthouse(folder: Path) -> Path:
    binary = folder / "node_modules" / ".bin" / "lighthouse"
    if not binary.exists():
        if shutil.which("npm") is None:
            sys.exit("bench_first_open needs npm (Debian's nodejs and npm) to install Lighthouse")
        folder.mkdir(parents=True, exist_ok=True)
        subprocess.run(
            ["npm", "install", "--no-audit", "--no-fund", "--prefix", str(folder),
             f"lighthouse@{LIGHTHOUSE}"],
            check=True, timeout=600,
        )  # fmt: skip
    return binary


@contextmanager
def chromium(binary: str, profile: Path) -> Any:
    """A Chromium for Lighthouse to drive (so that a page's storage can be set first)."""
    port = _free_port()
    process = subprocess.Popen(
        [binary, *CHROME_FLAGS.split(), f"--remote-debugging-port={port}",
         f"--user-data-dir={profile}", "about:blank"],
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    try:
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:  # bounded: until its debugging port answers
            try:
                urllib.request.urlopen(f"http://127.0.0.1:{port}/json/version", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        yield port
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()


def save_seat(port: int, base: str, entry: dict[str, Any]) -> None:
    """Keep a seat in the browser's storage, as the home page does after Play."""
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        browser = p.chromium.connect_over_cdp(f"http://127.0.0.1:{port}")
        page = browser.contexts[0].new_page()
        page.goto(base + "/healthz")
        page.evaluate(
            "e => localStorage.setItem('eights.seats', JSON.stringify({[e.token]: e}))", entry
        )
        page.close()
        browser.close()


def lighthouse(binary: Path, port: int, url: str, out: Path, *, keep_storage: bool) -> Any:
    command = [
        str(binary), url, f"--port={port}", "--output=json", f"--output-path={out}",
        "--quiet", "--only-categories=performance,accessibility,best-practices",
    ]  # fmt: skip
    if keep_storage:
        command.append("--disable-storage-reset")
    for attempt in range(ATTEMPTS):  # Lighthouse now and then loses its trace (NO_NAVSTART)
        done = subprocess.run(command, timeout=RUN_SECONDS)
        if done.returncode == 0:
            return json.loads(out.read_text())
        print(f"lighthouse failed on {url} (attempt {attempt + 1} of {ATTEMPTS})", flush=True)
    raise SystemExit(f"lighthouse failed {ATTEMPTS} times on {url}")


def figures(report: Any) -> dict[str, float]:
    audits = report["audits"]
    items = audits["network-requests"]["details"]["items"]
    observed = audits["metrics"]["details"]["items"][0]
    first_paint = observed["observedFirstContentfulPaint"]
    return {
        "performance": report["categories"]["performance"]["score"] * 100,
        "accessibility": report["categories"]["accessibility"]["score"] * 100,
        "best_practices": report["categories"]["best-practices"]["score"] * 100,
        "fcp_s": audits["first-contentful-paint"]["numericValue"] / 1000,
        "lcp_s": audits["largest-contentful-paint"]["numericValue"] / 1000,
        "tbt_ms": audits["total-blocking-time"]["numericValue"],
        "cls": audits["cumulative-layout-shift"]["numericValue"],
        "requests": len(items),
        "kib": sum(i.get("transferSize", 0) for i in items) / 1024,
        "before_paint": sum(1 for i in items if i.get("networkRequestTime", 0) < first_paint),
    }


def repeat_visits(browser_path: str, base: str, urls: dict[str, str], log: Path,
                  entry: dict[str, Any]) -> dict[str, list[str]]:  # fmt: skip
    """Each page opened twice in one browser (service workers allowed): what the server
    hears on the second open."""
    from playwright.sync_api import sync_playwright

    heard: dict[str, list[str]] = {}
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
        for name, url in urls.items():
            context = browser.new_context(viewport={"width": 360, "height": 740})
            page = context.new_page()
            page.goto(base + "/healthz")
            if name == "table":
                page.evaluate(
                    "e => localStorage.setItem('eights.seats', JSON.stringify({[e.token]: e}))",
                    entry,
                )
            page.goto(url, wait_until="networkidle")
            page.evaluate("navigator.serviceWorker.ready.then(() => true)")
            page.goto(base + "/healthz")
            page.wait_for_timeout(300)  # a benchmark, not a test: let the log settle
            start = log.stat().st_size
            page.goto(url, wait_until="networkidle")
            page.wait_for_timeout(500)
            with log.open("rb") as f:
                f.seek(start)
                lines = f.read().decode(errors="replace").splitlines()
            heard[name] = [
                " ".join(line.split('"')[1].split()[:2]) + " " + line.split('"')[2].split()[0]
                for line in lines
                if '"GET ' in line or '"POST ' in line
            ]
            context.close()
        browser.close()
    return heard


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--json", type=Path)
    parser.add_argument("--lighthouse", type=Path,
                        default=Path.home() / ".cache" / "eights-bench" / "lighthouse")  # fmt: skip
    parser.add_argument("--chromium", default=shutil.which("chromium") or "/usr/bin/chromium")
    args = parser.parse_args()
    binary = ensure_lighthouse(args.lighthouse)
    results: dict[str, list[dict[str, float]]] = {name: [] for name in PAGES}
    with tempfile.TemporaryDirectory() as tmp, served(Path(tmp)) as (base, log):
        friend = _post(base, "/api/rooms", {"mode": "online", "variant": "duo"})
        computer = _post(base, "/api/rooms", {"mode": "computer", "variant": "duo",
                                              "level": "medium", "timer": False})  # fmt: skip
        entry = {
            "token": computer["token"], "mode": "computer", "variant": "duo", "players": 2,
            "credentials": computer["credentials"], "created": int(time.time() * 1000),
        }  # fmt: skip
        urls = {
            "invitation": f"{base}/t/{friend['token']}",
            "home": f"{base}/",
            "lobby": f"{base}/lobby",
            "rules": f"{base}/rules/duo",
            "table": f"{base}/t/{computer['token']}",
        }
        for run in range(args.runs):
            for name, url in urls.items():
                profile = Path(tmp) / f"profile-{name}-{run}"
                with chromium(args.chromium, profile) as port:
                    if name == "table":
                        save_seat(port, base, entry)
                    report = lighthouse(binary, port, url, Path(tmp) / "report.json",
                                        keep_storage=name == "table")  # fmt: skip
                results[name].append(figures(report))
        heard = repeat_visits(args.chromium, base, urls, log, entry)
    medians = {
        name: {key: statistics.median(r[key] for r in runs) for key in runs[0]}
        for name, runs in results.items()
    }
    print(f"Lighthouse {LIGHTHOUSE} mobile, median of {args.runs} runs")
    print("| page | performance | first paint | largest paint | TBT | CLS | requests "
          "| before first paint | KiB | a11y | best practices |")  # fmt: skip
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, m in medians.items():
        print(
            f"| {name} | {m['performance']:.0f} | {m['fcp_s']:.1f} s | {m['lcp_s']:.1f} s "
            f"| {m['tbt_ms']:.0f} ms | {m['cls']:.3f} | {m['requests']:.0f} "
            f"| {m['before_paint']:.0f} | {m['kib']:.0f} | {m['accessibility']:.0f} "
            f"| {m['best_practices']:.0f} |"
        )
    print("\nA repeat visit, what the server hears:")
    for name, lines in heard.items():
        print(f"  {name}: {', '.join(lines) or 'nothing'}")
    if args.json:
        args.json.write_text(json.dumps({"runs": results, "median": medians, "repeat": heard},
                                        indent=2))  # fmt: skip


if __name__ == "__main__":
    main()
