"""Measure the web game: shot-to-page latency, animation frame rate, server RSS, page load.

Starts ``python -m nineball.web`` in its own process (a scratch database), drives Debian's
chromium with Playwright through a match against the computer, and prints the figures:

- page load: navigation start to the load event, and to the table being drawn;
- shot latency: from the page sending a stroke to the shot (ruling + trajectory) arriving on the
  page, before any animation, measured by the page itself (``window.nbPerf``); also the
  server's own time per stroke, over the WebSocket from Python;
- frame interval during animations (the display's rate under headless chromium), the time to
  draw one frame, and the first animated frame's delay after the stroke is sent
  (``nbPerf.firstFrame``), for the 2D canvas and the 3D table (WebGL through SwiftShader, on
  the CPU: the slow case);
- the server's resident memory with one match in play.

Usage: ``.venv/bin/python benchmarks/web.py [--shots 12] [--view 2d|3d|both]``
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

CHROMIUM = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--shots", type=int, default=10)
    parser.add_argument("--view", choices=("2d", "3d", "both"), default="both")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as scratch:
        env = {**os.environ, "NINEBALL_DB": str(Path(scratch) / "bench.sqlite3")}
        server = subprocess.Popen(
            [sys.executable, "-m", "nineball.web", "--no-browser"],
            stdout=subprocess.PIPE,
            text=True,
            env=env,
        )
        try:
            assert server.stdout is not None
            url = server.stdout.readline().split()[4]
            while True:
                try:
                    urllib.request.urlopen(url, timeout=5).close()
                    break
                except OSError:
                    time.sleep(0.1)
            print(f"server RSS at rest: {rss_mb(server.pid):.0f} MB")
            for view in ("2d", "3d") if args.view == "both" else (args.view,):
                print(f"--- the {view.upper()} table")
                run(url, args.shots, server.pid, view)
        finally:
            server.terminate()
            server.wait(timeout=30)


def _p95(values: list[float]) -> float:
    return sorted(values)[min(len(values) - 1, int(0.95 * len(values)))]


def run(url: str, shots: int, pid: int, view: str) -> None:
    with sync_playwright() as p:
        args = ["--no-sandbox", "--use-gl=swiftshader", "--enable-unsafe-swiftshader"]
        browser = p.chromium.launch(executable_path=CHROMIUM, args=args)
        context = browser.new_context(viewport={"width": 1400, "height": 900})
        context.add_init_script(f"localStorage.setItem('nineball.view', '{view}')")
        page = context.new_page()
        page.on("pageerror", lambda e: print("page error:", e))
        loads = []
        for _ in range(5):
            page.goto(url)
            page.wait_for_selector("#lobby[open]")
            loads.append(
                page.evaluate(
                    "(() => { const n = performance.getEntriesByType('navigation')[0];"
                    " return [n.loadEventEnd - n.startTime, n.domContentLoadedEventEnd]; })()"
                )
            )
        # What the page downloads: the document and every resource of its last load, as sent
        # (compressed where the server compresses; the browser's cache is off for none of them
        # on a first visit, so these are a first visit's bytes).
        weight = page.evaluate(
            "(() => { const all = [...performance.getEntriesByType('navigation'),"
            " ...performance.getEntriesByType('resource')];"
            " return [all.length, all.reduce((a, e) => a + e.encodedBodySize, 0),"
            " all.reduce((a, e) => a + e.decodedBodySize, 0)]; })()"
        )
        print(
            f"page weight: {weight[0]} files, {weight[1] / 1024:.0f} KB as sent"
            f" ({weight[2] / 1024:.0f} KB decoded)"
        )
        load = statistics.median(x[0] for x in loads)
        print(
            f"page load (navigation to load event): first {loads[0][0]:.0f} ms,"
            f" median of 5 {load:.0f} ms"
        )
        page.locator("input[name=mode][value=computer]").check()
        page.fill("#race", "3")
        page.click("#lobby-start")
        page.wait_for_function("window.nbIdle && window.nbIdle()")
        page.wait_for_function(f"window.nbView === '{view}'", timeout=60_000)
        first_frames = []
        # The computer may run several racks in a row at real speed: generous timeouts.
        for _ in range(shots):
            # our turn, the choice after the computer's push out, or the match over
            page.wait_for_function(
                "window.nbIdle() && (!document.getElementById('btn-shoot').disabled"
                " || document.getElementById('choice').open || window.nb.state.winner !== null)",
                timeout=600_000,
            )
            if page.evaluate("window.nb.state.winner !== null"):
                break
            if page.evaluate("document.getElementById('choice').open"):
                page.click("#choice-shoot")
                page.wait_for_function(
                    "window.nbIdle() && !document.getElementById('btn-shoot').disabled",
                    timeout=600_000,
                )
            before = page.evaluate("window.nb.received ?? 0")
            page.click("#btn-shoot")
            page.wait_for_function(
                "([n]) => (window.nb.received ?? 0) > n && window.nbIdle()",
                arg=[before],
                timeout=600_000,
            )
            first_frames.append(page.evaluate("window.nbPerf.firstFrame"))
        latencies = page.evaluate("window.nbPerf.latencies")
        frames = page.evaluate("window.nbPerf.frames")
        render = page.evaluate("window.nbPerf.render")
        print(
            f"shot to page (stroke sent -> ruling + trajectory received), {len(latencies)} shots:"
            f" median {statistics.median(latencies):.1f} ms, max {max(latencies):.1f} ms"
        )
        print(
            f"animation frame interval: median {statistics.median(frames):.2f} ms"
            f" ({1000 / statistics.median(frames):.0f} fps), 95th percentile "
            f"{sorted(frames)[int(0.95 * len(frames))]:.2f} ms over {len(frames)} frames"
        )
        print(
            f"time to draw one animation frame: median {statistics.median(render):.2f} ms,"
            f" 95th percentile {_p95(render):.2f} ms, max {max(render):.2f} ms"
        )
        firsts = [f for f in first_frames if f is not None]
        if firsts:
            print(
                f"stroke sent -> first animated frame drawn, {len(firsts)} shots:"
                f" median {statistics.median(firsts):.1f} ms, 95th percentile"
                f" {_p95(firsts):.1f} ms, max {max(firsts):.1f} ms"
            )
        print(f"server RSS with one match in play: {rss_mb(pid):.0f} MB")
        browser.close()


if __name__ == "__main__":
    main()
