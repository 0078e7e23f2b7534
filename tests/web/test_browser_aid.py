"""The aiming aid, the pull-back power gesture and fine aim, in a real browser.

A practice position (the cue ball, the 3, the 5 straight ahead and the 9): each aid level draws
what it should (the slot ``S.preview`` and the canvas' pixels, screenshots in ``artifacts/``),
the wrong-ball warning comes when the line meets the 5 and goes when it meets the 3, the cue
pulled back on the table shoots with the power the pull set, the strip beside the power slider
does by touch (a tap alone does nothing), and fine aim turns ``S.aim`` by small steps.
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import _idle, _start, _updated

pytestmark = pytest.mark.browser

BALLS = {"0": [0.6, 0.5], "3": [0.9, 1.8], "5": [0.6, 1.3], "9": [0.3, 2.2]}
TO_CLIENT = "([x, y]) => window.nbToClient(x, y)"


def _practice(page: Page, server_url: str) -> None:
    """A practice table set up as BALLS, this page's turn."""
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "practice", 1, 7)
    _updated(page, lambda: page.evaluate(
        "(balls) => window.nb.ws.send(JSON.stringify({type: 'setup', balls}))", BALLS
    ))  # fmt: skip
    _idle(page)


def _client(page: Page, point: list[float]) -> tuple[float, float]:
    x, y = page.evaluate(TO_CLIENT, point)
    return float(x), float(y)


def _aim_at(page: Page, ball: str) -> None:
    """Move the mouse over a ball: the cue aims at it while the aim is not locked."""
    page.mouse.move(*_client(page, BALLS[ball]), steps=3)


def _preview_of(page: Page, first: int | None) -> dict[str, Any]:
    """The preview of the stroke as aimed now (not of an aim on the way), meeting ``first``."""
    page.wait_for_function(
        """([f]) => { const p = window.nb.preview;
            return p && p.aim === window.nb.aim && p.first === f; }""",
        arg=[first],
        timeout=15_000,
    )
    preview: dict[str, Any] = page.evaluate("window.nb.preview")
    return preview


def _pixel(page: Page, point: list[float]) -> list[int]:
    """The brightest pixel of the table's canvas within 2 px of a table point (r, g, b)."""
    rgb: list[int] = page.evaluate(
        """([x, y]) => {
            const c = document.getElementById('table'); const g = c.getContext('2d');
            const r = c.getBoundingClientRect(); const [cx, cy] = window.nbToClient(x, y);
            const k = c.width / r.width;
            const d = g.getImageData(Math.round((cx - r.left) * k) - 2,
                                     Math.round((cy - r.top) * k) - 2, 5, 5).data;
            let best = [0, 0, 0];
            for (let i = 0; i < d.length; i += 4) if (d[i] + d[i + 1] > best[0] + best[1])
                best = [d[i], d[i + 1], d[i + 2]];
            return best; }""",
        point,
    )
    return rgb


def _gold(rgb: list[int]) -> bool:
    """The aid's object-ball lines (pale gold, anti-aliased), not the cloth, nor a white line."""
    return rgb[0] > 150 and rgb[1] > 150 and rgb[2] < 150


def test_each_aid_level_draws_what_it_should(page: Page, server_url: str, artifacts: Path) -> None:
    _practice(page, server_url)
    _aim_at(page, "5")
    radius = page.evaluate("window.nb.table.radius")
    ghost = [0.6, 1.3 - 2 * radius]  # the ghost ball's rim, off the line
    rim = [ghost[0] + radius, ghost[1]]
    far = [0.6, 1.3 + 0.6]  # on the 5's path, beyond the 0.4 m departure line
    near = [0.6, 1.3 + 0.2]  # on the departure line

    page.select_option("#aid", "full")
    preview = _preview_of(page, 5)
    assert preview["ghost"] == pytest.approx(ghost, abs=1e-3)
    assert preview["paths"]["0"][0] == BALLS["0"]
    assert preview["paths"]["5"][0] == pytest.approx(BALLS["5"], abs=1e-3)
    assert max(y for _, y in preview["paths"]["5"]) > far[1]  # the 5 runs past the point
    page.wait_for_timeout(100)
    assert _gold(_pixel(page, far))  # the engine's path of the 5
    assert sum(_pixel(page, rim)) > 500  # the ghost ball's rim
    page.screenshot(path=artifacts / "aid-1-full.png")

    page.select_option("#aid", "ghost")
    page.wait_for_timeout(150)
    assert page.evaluate("window.nb.preview.first") == 5  # still asked: the warning needs it
    assert not _gold(_pixel(page, far))
    assert _gold(_pixel(page, near))  # the 5's line of departure
    assert sum(_pixel(page, rim)) > 500
    page.screenshot(path=artifacts / "aid-2-ghost.png")

    page.select_option("#aid", "off")
    page.wait_for_function("window.nb.preview === null")
    page.wait_for_timeout(150)
    assert sum(_pixel(page, rim)) < 400  # the cloth
    assert not _gold(_pixel(page, near))
    expect(page.locator("#aid-warning")).to_be_hidden()
    page.screenshot(path=artifacts / "aid-3-off.png")
    # The level is remembered.
    page.select_option("#aid", "full")
    page.reload()
    _idle(page)
    assert page.evaluate("document.getElementById('aid').value") == "full"


def test_the_warning_comes_for_the_5_and_goes_for_the_3(
    page: Page, server_url: str, artifacts: Path
) -> None:
    _practice(page, server_url)
    page.select_option("#aid", "ghost")
    _aim_at(page, "5")
    _preview_of(page, 5)
    warning = page.locator("#aid-warning")
    expect(warning).to_have_text("The line meets the 5 first: the 3 is the ball on")
    page.screenshot(path=artifacts / "aid-4-warning.png")
    page.select_option("#lang", "fr")
    expect(warning).to_have_text("La ligne touche d'abord la 5 : la boule à jouer est la 3")
    page.select_option("#lang", "pl")
    expect(warning).to_have_text("Linia trafia najpierw w bilę 5: bila do zagrania to 3")
    page.select_option("#lang", "en")
    _aim_at(page, "3")
    _preview_of(page, 3)
    expect(warning).to_be_hidden()


def _pull_on_the_table(page: Page, fraction: float) -> None:
    """Lock the aim on the 3, press on the stick behind the cue ball and draw it back."""
    cue, three = BALLS["0"], BALLS["3"]
    page.mouse.move(*_client(page, [(cue[0] + three[0]) / 2, (cue[1] + three[1]) / 2]))
    page.mouse.down()  # a click on the cloth (not on a ball: practice would drag it) locks it
    page.mouse.up()
    aim = page.evaluate("window.nb.aim")
    back = (-math.cos(aim), -math.sin(aim))

    def behind(d: float) -> list[float]:
        return [cue[0] + back[0] * d, cue[1] + back[1] * d]

    page.mouse.move(*_client(page, behind(0.25)), steps=2)
    assert page.evaluate("window.nb.aim") == aim  # locked: the pointer behind does not turn it
    page.mouse.down()
    page.mouse.move(*_client(page, behind(0.25 + 0.45 * fraction)), steps=8)


def test_the_cue_pulled_back_on_the_table_shoots_with_its_power(
    page: Page, server_url: str, artifacts: Path
) -> None:
    _practice(page, server_url)
    before = page.evaluate("window.nb.received ?? 0")
    _pull_on_the_table(page, 0.6)
    page.wait_for_function("Math.abs(window.nb.pull - 0.6) < 0.03", timeout=5_000)
    pull = page.evaluate("window.nb.pull")
    assert int(page.input_value("#power")) == round(pull * 100)  # the slider follows
    page.screenshot(path=artifacts / "aid-5-pull.png")
    wanted = page.evaluate("(p) => import('/static/stroke.js').then((m) => m.speedAt(p))", pull)
    page.mouse.up()
    page.wait_for_function("([n]) => (window.nb.received ?? 0) > n", arg=[before])
    assert page.evaluate("window.nb.lastStroke.speed") == pytest.approx(wanted, rel=0.02)
    assert page.evaluate("window.nb.pull") == 0
    _idle(page)


def test_a_pull_let_go_near_zero_shoots_nothing(page: Page, server_url: str) -> None:
    _practice(page, server_url)
    power = page.input_value("#power")
    _pull_on_the_table(page, 0.5)
    aim = page.evaluate("window.nb.aim")
    cue = BALLS["0"]
    page.mouse.move(*_client(page, [cue[0] - math.cos(aim) * 0.25,
                                    cue[1] - math.sin(aim) * 0.25]), steps=4)  # fmt: skip
    page.mouse.up()
    page.wait_for_timeout(300)
    assert page.evaluate("window.nb.lastStroke") is None
    assert page.input_value("#power") == power  # back to the power it had


@pytest.fixture
def touch_page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(has_touch=True, viewport={"width": 1400, "height": 900})
    yield context.new_page()
    context.close()


class _Finger:
    """A finger on the page's touch screen (the browser's own touch events)."""

    def __init__(self, page: Page) -> None:
        self.cdp = page.context.new_cdp_session(page)

    def _send(self, kind: str, points: list[dict[str, float]]) -> None:
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def down(self, x: float, y: float) -> None:
        self._send("touchStart", [{"x": x, "y": y}])

    def move(self, x: float, y: float) -> None:
        self._send("touchMove", [{"x": x, "y": y}])

    def up(self) -> None:
        self._send("touchEnd", [])


def _touch(page: Page, points: list[tuple[float, float]]) -> None:
    """A finger down on the first point, moved through the others, lifted from the last."""
    finger = _Finger(page)
    finger.down(*points[0])
    for point in points[1:]:
        finger.move(*point)
    finger.up()


def test_the_strip_shoots_by_touch_and_a_tap_does_nothing(
    touch_page: Page, server_url: str, artifacts: Path
) -> None:
    page = touch_page
    _practice(page, server_url)
    box = page.locator("#pull-strip").bounding_box()
    assert box is not None
    x, top, height = box["x"] + box["width"] / 2, box["y"] + 5, box["height"]
    power = page.input_value("#power")
    _touch(page, [(x, top)])  # a tap
    page.wait_for_timeout(300)
    assert page.evaluate("window.nb.lastStroke") is None
    assert page.input_value("#power") == power
    # Press, drag down three quarters of the strip, lift: the shot, at that power.
    before = page.evaluate("window.nb.received ?? 0")
    finger = _Finger(page)
    finger.down(x, top)
    for k in range(1, 7):
        finger.move(x, top + height * 0.75 * k / 6)
    # The page takes the finger's moves at its own pace (a frame at a time): until the last.
    page.wait_for_function("Math.abs(window.nb.pull - 0.75) < 0.03", timeout=5_000)
    pull = page.evaluate("window.nb.pull")
    page.screenshot(path=artifacts / "aid-6-strip.png")
    finger.up()
    page.wait_for_function("([n]) => (window.nb.received ?? 0) > n", arg=[before])
    wanted = page.evaluate("(p) => import('/static/stroke.js').then((m) => m.speedAt(p))", pull)
    assert page.evaluate("window.nb.lastStroke.speed") == pytest.approx(wanted, rel=0.02)


def test_fine_aim_turns_the_aim_by_small_steps(
    touch_page: Page, server_url: str, artifacts: Path
) -> None:
    page = touch_page
    _practice(page, server_url)
    aim = page.evaluate("window.nb.aim")
    page.click("#aim-ccw")
    assert page.evaluate("window.nb.aim") - aim == pytest.approx(math.radians(0.05), abs=1e-9)
    page.click("#aim-cw")
    page.click("#aim-cw")
    assert page.evaluate("window.nb.aim") - aim == pytest.approx(-math.radians(0.05), abs=1e-9)
    # Dragged 100 px to the right by touch: 2 degrees clockwise.
    aim = page.evaluate("window.nb.aim")
    box = page.locator("#fine-aim").bounding_box()
    assert box is not None
    y = box["y"] + box["height"] / 2
    x0 = box["x"] + 20
    _touch(page, [(x0 + k * 10, y) for k in range(11)])
    turned = "([a, d]) => Math.abs(window.nb.aim - a - d) < 1e-6"
    page.wait_for_function(turned, arg=[aim, -math.radians(2.0)], timeout=5_000)
    # And by mouse, back 50 px: 1 degree back.
    page.mouse.move(x0 + 100, y)
    page.mouse.down()
    page.mouse.move(x0 + 50, y, steps=5)
    page.mouse.up()
    page.wait_for_function(turned, arg=[aim, -math.radians(1.0)], timeout=5_000)
    page.screenshot(path=artifacts / "aid-7-fine.png")


def test_the_power_curve_reaches_the_servers_top_speed(page: Page, server_url: str) -> None:
    _practice(page, server_url)
    top = page.evaluate("window.nb.limits.max_speed")
    page.evaluate(
        "() => { const p = document.getElementById('power'); p.value = '100';"
        " p.dispatchEvent(new Event('input')); }"
    )
    expect(page.locator("#power-out")).to_have_text(f"{top:.1f} m/s")
    speeds = page.evaluate(
        "() => import('/static/stroke.js').then((m) => [0, 0.5, 1].map((p) => m.speedAt(p)))"
    )
    assert speeds[0] < speeds[1] < speeds[2] == top


def test_a_refused_preview_leaves_the_status_line_alone(page: Page, server_url: str) -> None:
    """The aid may ask about a stroke a step behind the server (a cue ball just taken out of
    hand, as when a practice position is restored): its refusal is the aid's, not the player's."""
    _practice(page, server_url)
    page.evaluate("document.getElementById('status').textContent = 'kept'")
    refused = """(cue) => window.nb.ws.send(JSON.stringify({type: 'preview', speed: 2.0,
        aim: 1.5, elevation: 0, side: 0, height: 0, push_out: false, cue}))"""
    page.evaluate(refused, BALLS["0"])  # the cue ball is not in hand here: the server refuses
    page.wait_for_timeout(400)
    assert page.evaluate("document.getElementById('status').textContent") == "kept"
