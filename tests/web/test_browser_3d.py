"""The 3D table in a real browser (Debian's chromium, WebGL through SwiftShader).

The page opens in 3D; a stroke against the computer animates and gives the controls back; the
cameras and the 2D/3D toggle switch and are remembered; aiming and the cue ball in hand work by
pointer through the 3D view's picking; without WebGL (or without the three.js files) the page
falls back to 2D with a notice. Screenshots of every camera, desktop and phone, go to
``artifacts/``.
"""

from __future__ import annotations

import io
import math
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Browser, BrowserContext, Page, Route, expect

pytestmark = pytest.mark.browser

RATE = 6
DESKTOP = {"width": 1366, "height": 768}
PHONE = {"width": 390, "height": 844}
NO_WEBGL = """
(() => {
  const get = HTMLCanvasElement.prototype.getContext;
  HTMLCanvasElement.prototype.getContext = function (kind, ...rest) {
    if (kind === 'webgl' || kind === 'webgl2' || kind === 'experimental-webgl') return null;
    return get.call(this, kind, ...rest);
  };
})();
"""


@pytest.fixture
def context(browser: Browser) -> Iterator[BrowserContext]:
    """A fresh context (empty localStorage: the page's own default view)."""
    ctx = browser.new_context(viewport=DESKTOP)
    yield ctx
    ctx.close()


def _start(page: Page, base: str, mode: str = "computer", seed: int = 3) -> None:
    page.goto(f"{base}/?rate={RATE}&seed={seed}")
    expect(page.locator("#lobby")).to_be_visible()
    page.locator(f"input[name=mode][value={mode}]").check()
    page.fill("#race", "1")
    page.click("#lobby-start")
    expect(page.locator("#scoreboard .seat")).to_have_count(2)
    page.wait_for_function("window.nbIdle && window.nbIdle()", timeout=30_000)


def _in_3d(page: Page) -> None:
    page.wait_for_function("window.nbView === '3d'", timeout=30_000)
    page.wait_for_timeout(700)  # past any camera's ease (0.5 s)


def _grey(png: bytes) -> np.ndarray:
    return np.asarray(Image.open(io.BytesIO(png)).convert("L"), dtype=np.float64)


def _variance(png: bytes) -> float:
    """How much the picture varies (0 for one flat colour), over its grey levels."""
    return float(_grey(png).std())


def _shot(page: Page, artifacts: Path, name: str) -> bytes:
    png = page.locator("#table3d").screenshot()
    (artifacts / f"3d-{name}.png").write_bytes(png)
    return png


def test_the_page_opens_in_3d_and_draws_the_table(
    context: BrowserContext, server_url: str, artifacts: Path
) -> None:
    page = context.new_page()
    _start(page, server_url)
    _in_3d(page)
    assert page.evaluate("window.__THREE__") == "187"
    assert page.evaluate("document.getElementById('table3d').width") > 0
    expect(page.locator("#table3d")).to_be_visible()
    assert page.evaluate("getComputedStyle(document.getElementById('table')).opacity") == "0"
    assert _variance(_shot(page, artifacts, "opened")) > 12.0
    expect(page.locator("#view-notice")).to_be_hidden()
    expect(page.locator("#cam-aim")).to_have_attribute("aria-pressed", "true")


def test_a_stroke_against_the_computer_animates_in_3d(
    context: BrowserContext, server_url: str, artifacts: Path
) -> None:
    page = context.new_page()
    _start(page, server_url, seed=5)
    _in_3d(page)
    before = page.evaluate("window.nb.received ?? 0")
    page.check("#slow")  # a fifth of the speed: time to look at the shot as it plays
    page.click("#btn-shoot")
    page.wait_for_function("window.nb.anim !== null && window.nb.anim.t > 0.02", timeout=30_000)
    # the balls are where the engine's pieces put them at the animation's time, and they move
    where = """async () => {
        const { positionAt } = await import('/static/anim.js');
        const a = window.nb.anim; if (!a) return null;
        const out = {};
        for (const [id, ball] of Object.entries(a.msg.trajectory.balls)) {
            const m = window.nb3d.balls.meshes.get(id);
            const dropping = ball.pocketed_at !== null && a.t >= ball.pocketed_at;
            const [x, y] = positionAt(ball.pieces, a.t);
            out[id] = [m.position.x, m.position.y, x, y, m.visible && !dropping];
        }
        return out;
    }"""
    first = page.evaluate(where)
    page.wait_for_timeout(300)
    second = page.evaluate(where)
    assert first is not None
    assert second is not None
    for balls in (first, second):
        for x, y, ex, ey, visible in balls.values():
            if visible:
                assert math.hypot(x - ex, y - ey) < 1e-6
    assert math.dist(first["0"][:2], second["0"][:2]) > 1e-3
    page.uncheck("#slow")
    page.wait_for_function(
        "([n]) => (window.nb.received ?? 0) > n && window.nbIdle()", arg=[before], timeout=60_000
    )
    # the shot was drawn frame by frame, the first frame timed, and the turn comes back
    page.wait_for_function(
        "window.nbIdle() && window.nb.state.to_act === 0 && "
        "!document.getElementById('btn-shoot').disabled",
        timeout=120_000,
    )
    perf = page.evaluate("({render: nbPerf.render.length, first: nbPerf.firstFrame})")
    assert perf["render"] > 3
    assert perf["first"] is not None
    assert perf["first"] >= 0
    assert _variance(_shot(page, artifacts, "after-stroke")) > 12.0


@pytest.mark.parametrize(("size", "label"), [(DESKTOP, "desktop"), (PHONE, "phone")])
def test_every_camera_and_the_2d_toggle(
    browser: Browser, server_url: str, artifacts: Path, size: dict[str, int], label: str
) -> None:
    ctx = browser.new_context(viewport=size)
    page = ctx.new_page()
    try:
        _start(page, server_url)
        _in_3d(page)
        looks = {}
        for camera in ("top", "orbit", "aim"):
            page.click(f"#cam-{camera}")
            expect(page.locator(f"#cam-{camera}")).to_have_attribute("aria-pressed", "true")
            page.wait_for_function("window.nb3d.cameras.easing === null", timeout=10_000)
            page.wait_for_timeout(300)  # the ease's last step drawn
            png = _shot(page, artifacts, f"{label}-{camera}")
            assert _variance(png) > 12.0
            looks[camera] = page.evaluate("window.nb3d.cameras.camera.position.toArray()")
        assert page.evaluate("localStorage.getItem('nineball.camera')") == "aim"
        # overhead: straight above the middle of the table
        table = page.evaluate("[window.nb.table.width, window.nb.table.length]")
        assert abs(looks["top"][0] - table[0] / 2) < 1e-6
        assert abs(looks["top"][1] - table[1] / 2) < 1e-6
        assert looks["top"][2] > 1.5
        # each camera looks from somewhere else
        assert math.dist(looks["top"], looks["aim"]) > 0.5
        assert math.dist(looks["orbit"], looks["aim"]) > 0.5
        # to 2D: the 2D canvas is back, the 3D one hidden, and the choice is remembered
        page.click("#view-dim")
        page.wait_for_function("window.nbView === '2d'")
        expect(page.locator("#table3d")).to_be_hidden()
        expect(page.locator("#cam-top")).to_be_hidden()
        assert page.evaluate("getComputedStyle(document.getElementById('table')).opacity") == "1"
        page.reload()
        page.wait_for_function("window.nbIdle && window.nbIdle()", timeout=30_000)
        page.wait_for_timeout(500)
        assert page.evaluate("window.nbView") == "2d"
        page.click("#view-dim")
        _in_3d(page)
        expect(page.locator("#cam-aim")).to_have_attribute("aria-pressed", "true")
    finally:
        ctx.close()


def test_aiming_by_pointer_in_3d(context: BrowserContext, server_url: str) -> None:
    """The behind-the-cue camera holds still under an aiming mouse, so the aim is where it points.

    The mouse is already over the table when the 3D view comes (as after a click on the lobby's
    Start button over it): the view gets no pointerenter then, only moves.
    """
    held: list[Route] = []
    context.route(
        "**/scene3d.js", lambda route: held.append(route)
    )  # held until the mouse is there
    page = context.new_page()
    _start(page, server_url, mode="local")
    box = page.locator("#table").bounding_box()
    assert box is not None
    page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    page.wait_for_timeout(200)
    assert len(held) == 1
    held[0].continue_()
    _in_3d(page)
    cue = page.evaluate("window.nb.cue || window.nb.pendingCue")
    pose = "window.nb3d.camera.position.toArray().concat(window.nb3d.cameras.easing)"
    before = page.evaluate(pose)
    for target in ([cue[0] - 0.25, cue[1] + 0.8], [cue[0] + 0.3, cue[1] + 1.0]):
        x, y = page.evaluate("([x, y]) => window.nbToClient(x, y)", target)
        page.mouse.move(x, y, steps=3)
        want = math.atan2(target[1] - cue[1], target[0] - cue[0])
        page.wait_for_function(
            "([w]) => Math.abs(window.nb.aim - w) < 2e-3", arg=[want], timeout=5_000
        )
        page.wait_for_timeout(100)
        assert page.evaluate(pose) == before  # not moved, no ease begun


def test_the_cue_ball_in_hand_dragged_in_3d(context: BrowserContext, server_url: str) -> None:
    page = context.new_page()
    _start(page, server_url, mode="local")
    _in_3d(page)
    cue = page.evaluate("window.nb.cue || window.nb.pendingCue")
    to = [0.85, 0.42]  # in the kitchen, ahead of the behind-the-cue camera
    x0, y0 = page.evaluate("([x, y]) => window.nbToClient(x, y)", cue)
    x1, y1 = page.evaluate("([x, y]) => window.nbToClient(x, y)", to)
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)
    page.wait_for_function("window.nb.drag && window.nb.drag.ok === true", timeout=10_000)
    page.mouse.up()
    page.wait_for_function("window.nb.cue !== null", timeout=10_000)
    placed = page.evaluate("window.nb.cue")
    assert math.dist(placed, to) < 5e-3


def test_without_webgl_the_page_is_2d_with_a_notice(browser: Browser, server_url: str) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.add_init_script(NO_WEBGL)
    page = ctx.new_page()
    try:
        _start(page, server_url)
        page.wait_for_timeout(500)
        assert page.evaluate("window.nbView") == "2d"
        expect(page.locator("#view-notice")).to_be_visible()
        expect(page.locator("#view-notice")).to_contain_text("2D")
        expect(page.locator("#view-dim")).to_be_disabled()
        assert page.locator("#table3d").count() == 0
        assert _variance(page.locator("#table").screenshot()) > 12.0
    finally:
        ctx.close()


def test_without_the_three_files_the_page_is_2d_with_a_notice(
    browser: Browser, server_url: str
) -> None:
    ctx = browser.new_context(viewport=DESKTOP)
    ctx.route("**/static/vendor/**", lambda route: route.fulfill(status=404, body="gone"))
    page = ctx.new_page()
    try:
        _start(page, server_url)
        page.wait_for_function("!document.getElementById('view-notice').hidden", timeout=10_000)
        assert page.evaluate("window.nbView") == "2d"
        assert _variance(page.locator("#table").screenshot()) > 12.0
    finally:
        ctx.close()


def test_the_scorekeeper_keeps_the_2d_table(context: BrowserContext, server_url: str) -> None:
    """Its marks (the ball hit first, pocketed, railed) are drawn on the 2D table."""
    page = context.new_page()
    _start(page, server_url, mode="score")
    page.wait_for_timeout(800)
    assert page.evaluate("window.nbView") == "2d"
    expect(page.locator("#view-notice")).to_be_hidden()
    expect(page.locator("#view-dim")).to_be_disabled()
    assert page.evaluate("getComputedStyle(document.getElementById('table')).opacity") == "1"
