"""The page on phones, tablets and laptops, in a real browser: nothing to scroll in play, the
Shoot button in view, the table as large as the screen allows (turned upright on a phone held
upright), the cue ball large enough to touch, the scorekeeper whole on a laptop or a tablet, the
rack-over card never in the way of a click on the table, the compact header's menu, and default
names that read right in the referee's sentences. Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

from tests.web.test_browser import RATE, _act, _idle, _start

pytestmark = pytest.mark.browser

# name, width, height, a touch screen (a phone or a tablet)
SCREENS = [
    ("phone-portrait", 390, 844, True),
    ("phone-landscape", 844, 390, True),
    ("tablet-portrait", 768, 1024, True),
    ("tablet-landscape", 1024, 768, True),
    ("laptop", 1366, 768, False),
    ("desktop", 1920, 1080, False),
]
SCORE_SCREENS = [s for s in SCREENS if s[0] in ("tablet-portrait", "tablet-landscape", "laptop")]

# The document's scroll size against the viewport, and each box the checks need (CSS px).
MEASURE = """() => {
  const box = (el) => {
    const r = el.getBoundingClientRect(); return {x: r.left, y: r.top, w: r.width, h: r.height};
  };
  const d = document.documentElement;
  return {
    scroll: [d.scrollWidth, d.scrollHeight], viewport: [innerWidth, innerHeight],
    table: box(document.getElementById("table")), header: box(document.querySelector("header")),
    controls: box(document.getElementById("controls")), turned: window.nbGeometry().turned,
  };
}"""

# Whether a click at the centre of `selector` reaches that element (nothing covers it, it is not
# scrolled out of its panel, it is inside the viewport).
REACHABLE = """(selector) => {
  const el = document.querySelector(selector); const r = el.getBoundingClientRect();
  const x = r.left + r.width / 2; const y = r.top + r.height / 2;
  if (r.width === 0 || x < 0 || y < 0 || x > innerWidth || y > innerHeight) return false;
  const hit = document.elementFromPoint(x, y);
  return hit !== null && (hit === el || el.contains(hit));
}"""


@pytest.fixture
def screen(
    browser: Browser, request: pytest.FixtureRequest, server_url: str
) -> Iterator[tuple[str, Page]]:
    """A page of that size; in the view a test's ``view`` parameter names (default 2D: the
    checks of the table's own geometry, the turned table, the scorekeeper)."""
    name, width, height, touch = request.param
    callspec = getattr(request.node, "callspec", None)
    view = callspec.params.get("view", "2d") if callspec else "2d"
    remembered = [{"name": "nineball.view", "value": view}]
    storage = {"cookies": [], "origins": [{"origin": server_url, "localStorage": remembered}]}
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch,
        storage_state=storage,
    )  # fmt: skip
    yield name, context.new_page()
    context.close()


def _fits(page: Page) -> dict[str, Any]:
    m: dict[str, Any] = page.evaluate(MEASURE)
    assert m["scroll"][0] <= m["viewport"][0], m
    assert m["scroll"][1] <= m["viewport"][1], m
    return m


def _table_points(page: Page, n: int = 7) -> list[tuple[float, float]]:
    """A grid of points over the table's canvas, in CSS px of the page."""
    r = page.evaluate("() => document.getElementById('table').getBoundingClientRect().toJSON()")
    return [
        (r["left"] + r["width"] * (i + 0.5) / n, r["top"] + r["height"] * (j + 0.5) / n)
        for i in range(n)
        for j in range(n)
    ]


# What a click at (x, y) reaches: the table's canvas, the view's own toolbar over its corner (its
# buttons are meant to be there), or something else in the way.
HIT = """([x, y]) => {
  const el = document.elementFromPoint(x, y);
  return el && el.closest("#view-tools") ? "view-tools" : el?.id ?? null;
}"""


def _nothing_over_the_table(page: Page) -> None:
    points = _table_points(page)
    hits = [page.evaluate(HIT, [x, y]) for x, y in points]
    assert set(hits) <= {"table", "view-tools"}, hits
    # the view's toolbar is a strip along the table's top edge (the first row of points)
    top = min(y for _, y in points)
    assert all(y == top for (_, y), h in zip(points, hits, strict=True) if h == "view-tools"), hits


@pytest.mark.parametrize("view", ["2d", "3d"])
@pytest.mark.parametrize("screen", SCREENS, ids=[s[0] for s in SCREENS], indirect=True)
def test_play_fits_the_screen(
    screen: tuple[str, Page], view: str, server_url: str, artifacts: Path
) -> None:
    name, page = screen
    _start(page, server_url, "computer", 3, 3)
    page.wait_for_function(f"window.nbView === '{view}'")
    m = _fits(page)
    assert page.evaluate(REACHABLE, "#btn-shoot"), f"{name}: the Shoot button is out of reach"
    width, height = m["viewport"]
    table = m["table"]
    if height > width:  # portrait: the table across the width, turned upright on a phone
        assert table["w"] >= 0.9 * width, m
        assert m["turned"] == (width < 600), m
    elif height <= 500:  # a phone held sideways: the table fills the height under the header
        assert table["h"] >= 0.9 * (height - m["header"]["h"]), m
        assert not m["turned"]
    else:  # the table fills the width the controls' column leaves it
        assert table["w"] >= 0.9 * (width - m["controls"]["w"]), m
        assert m["controls"]["w"] <= 340, m
        assert not m["turned"]
    _nothing_over_the_table(page)
    page.screenshot(path=artifacts / f"l1-play-{name}-{view}.png")


@pytest.mark.parametrize("view", ["2d", "3d"])
@pytest.mark.parametrize(
    "screen", [s for s in SCREENS if s[3]], ids=[s[0] for s in SCREENS if s[3]], indirect=True
)
def test_the_cue_ball_is_large_enough_to_touch(
    screen: tuple[str, Page], view: str, server_url: str, artifacts: Path
) -> None:
    name, page = screen
    _start(page, server_url, "computer", 3, 3)
    page.wait_for_function(f"window.nbView === '{view}'")
    if view == "3d":  # from above, where the balls are smallest (and the camera holds still)
        page.click("#cam-top")
        page.wait_for_function("window.nb3d.cameras.easing === null", timeout=10_000)
    cue = page.evaluate("window.nb.cue || window.nb.pendingCue || window.nb.layout['0']")
    x0, y0 = page.evaluate("([x, y]) => window.nbToClient(x, y)", cue)
    # 70 px from the ball's centre on the screen, a touch does not take the ball.
    page.touchscreen.tap(x0 + 70, y0)
    page.wait_for_timeout(300)
    assert page.evaluate("window.nb.drag") is None
    assert (page.evaluate("window.nb.cue || window.nb.pendingCue") or cue) == pytest.approx(cue)
    # 40 px from it (a finger's width), a touch takes the ball and drops it where it touched.
    page.touchscreen.tap(x0 + 40, y0)
    page.wait_for_function(
        """([x, y]) => { const c = window.nb.cue || window.nb.pendingCue;
            return c && Math.abs(c[0] - x) + Math.abs(c[1] - y) > 1e-4; }""",
        arg=cue,
    )
    _idle(page)
    placed = page.evaluate("window.nb.cue || window.nb.pendingCue")
    at = page.evaluate("([x, y]) => window.nbToClient(x, y)", placed)
    assert at == pytest.approx([x0 + 40, y0], abs=1.5)
    page.screenshot(path=artifacts / f"l2-touch-{name}-{view}.png")


@pytest.mark.parametrize("screen", SCORE_SCREENS, ids=[s[0] for s in SCORE_SCREENS], indirect=True)
def test_the_scorekeeper_fits_without_scrolling(
    screen: tuple[str, Page], server_url: str, artifacts: Path
) -> None:
    name, page = screen
    _start(page, server_url, "score", 3, 5)
    expect(page.locator("#scorekeeper")).to_be_visible()
    _fits(page)
    for panel in ("#scorekeeper", "#controls", "#info"):  # and nothing to scroll inside a panel
        sizes = page.eval_on_selector(panel, "(el) => [el.scrollHeight, el.clientHeight]")
        assert sizes[0] <= sizes[1] + 1, (panel, sizes)
    for control in ("#sk-submit", "#sk-clear", "#btn-undo", "#btn-forfeit", "#sk-tools"):
        assert page.evaluate(REACHABLE, control), f"{name}: {control} is out of reach"
    _nothing_over_the_table(page)
    page.screenshot(path=artifacts / f"l3-score-{name}.png")


@pytest.mark.parametrize(
    "screen", [SCREENS[0], SCREENS[3]], ids=[SCREENS[0][0], SCREENS[3][0]], indirect=True
)
def test_a_click_on_the_table_reaches_it_while_the_rack_card_shows(
    screen: tuple[str, Page], server_url: str, artifacts: Path
) -> None:
    name, page = screen
    _start(page, server_url, "score", 3, 7)
    page.click("#btn-forfeit")
    expect(page.locator("#concede")).to_be_visible()
    _act(page, "#concede-yes")
    expect(page.locator("#rack-card")).to_be_visible()
    _fits(page)
    _nothing_over_the_table(page)
    # The scorekeeper marks the 1 as hit first by a click on it, the card still up.
    spot = page.evaluate("window.nbScoreSpots().balls['1']")
    page.mouse.click(*page.evaluate("([x, y]) => window.nbToClient(x, y)", spot))
    expect(page.locator("#sk-summary")).to_contain_text("Hit first: 1")
    expect(page.locator("#rack-card")).to_be_visible()
    page.screenshot(path=artifacts / f"l4-rack-card-{name}.png")
    page.click("#rack-close")
    expect(page.locator("#rack-card")).to_be_hidden()


@pytest.mark.parametrize("screen", [SCREENS[0]], ids=[SCREENS[0][0]], indirect=True)
def test_the_compact_header_opens_its_menu(
    screen: tuple[str, Page], server_url: str, artifacts: Path
) -> None:
    _, page = screen
    _start(page, server_url, "computer", 3, 3)
    expect(page.locator("#btn-new")).to_be_hidden()
    page.click("#btn-menu")
    expect(page.locator("#btn-new")).to_be_visible()
    expect(page.locator("#lang")).to_be_visible()
    page.screenshot(path=artifacts / "l5-menu-phone.png")
    page.select_option("#lang", "fr")
    expect(page.locator("#btn-menu")).to_have_text("Menu")
    expect(page.locator("#btn-new")).to_be_hidden()
    page.click("#btn-menu")
    page.click("#btn-new")
    expect(page.locator("#lobby")).to_be_visible()
    page.screenshot(path=artifacts / "l6-lobby-phone.png")


@pytest.mark.parametrize(
    ("lang", "player", "keeps"),
    [
        ("en", "Player 1", "Player 1 keeps shooting"),
        ("fr", "Joueur 1", "Joueur 1 continue de jouer"),
        ("pl", "Gracz 1", "Gracz 1 pozostaje przy stole"),
    ],
)
def test_the_default_names_read_right_in_the_rulings(
    page: Page, server_url: str, lang: str, player: str, keeps: str
) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    page.goto(f"{server_url}/?rate={RATE}&seed=2")
    expect(page.locator("#lobby")).to_be_visible()
    page.select_option("#lang", lang)
    page.locator("input[name=mode][value=computer]").check()
    expect(page.locator("#name0")).to_have_attribute("placeholder", player)
    page.click("#lobby-start")
    expect(page.locator("#scoreboard .seat")).to_have_count(2)
    _idle(page)
    assert page.evaluate("window.nb.state.players")[0] == player
    _act(page, "#btn-shoot")  # the break (seed 2): the 8 goes down, the breaker shoots on
    text = page.evaluate(f"window.nb.history[0].explanation['{lang}']")
    assert keeps in text


@pytest.mark.parametrize("screen", [SCREENS[0]], ids=[SCREENS[0][0]], indirect=True)
def test_the_turned_table_takes_the_scorekeepers_clicks(
    screen: tuple[str, Page], server_url: str, artifacts: Path
) -> None:
    _, page = screen
    _start(page, server_url, "score", 3, 9)
    assert page.evaluate("window.nbGeometry().turned")
    spots = page.evaluate("window.nbScoreSpots()")

    def at(point: list[float]) -> list[float]:
        where: list[float] = page.evaluate("([x, y]) => window.nbToClient(x, y)", point)
        return where

    # Turned a quarter: the foot end at the top of the screen, the head end at the bottom.
    assert at(spots["pockets"]["foot_left"])[1] < at(spots["pockets"]["head_left"])[1]
    assert at(spots["pockets"]["foot_left"])[1] == pytest.approx(
        at(spots["pockets"]["foot_right"])[1]
    )
    page.locator("input[name=sk-tool][value=pocket]").check()
    page.mouse.click(*at(spots["balls"]["3"]))
    page.mouse.click(*at(spots["pockets"]["foot_right"]))
    expect(page.locator("#sk-summary")).to_contain_text("3 in foot right")
    page.screenshot(path=artifacts / "l7-score-turned-phone.png")


PHONES = [s for s in SCREENS if s[0].startswith("phone")]


@pytest.mark.parametrize("view", ["3d"])
@pytest.mark.parametrize("screen", PHONES, ids=[s[0] for s in PHONES], indirect=True)
def test_a_whole_match_on_a_phone_by_touch(
    screen: tuple[str, Page], view: str, server_url: str, artifacts: Path
) -> None:
    """Against the computer, race to 1, every stroke by a tap on Shoot: at each turn nothing
    scrolls and Shoot is in reach; the match-over screen fits, and its Rematch starts the next."""
    name, page = screen
    _start(page, server_url, "computer", 1, 3, rate=30)
    page.wait_for_function(f"window.nbView === '{view}'")
    turns = 0
    for _ in range(40):
        page.wait_for_function(
            "window.nb.state.winner !== null || document.querySelector('#choice').open"
            " || (!document.querySelector('#btn-shoot').disabled && window.nbIdle())",
            timeout=60_000,
        )
        if page.evaluate("window.nb.state.winner !== null"):
            break
        if page.evaluate("document.querySelector('#choice').open"):  # the computer pushed out
            page.tap("#choice-shoot")
            continue
        _fits(page)
        assert page.evaluate(REACHABLE, "#btn-shoot"), f"{name}: turn {turns}: Shoot out of reach"
        page.tap("#btn-shoot")
        page.wait_for_function("document.querySelector('#btn-shoot').disabled || !window.nbIdle()")
        turns += 1
    screen_over = page.locator("#match-over-screen")
    expect(screen_over).to_be_visible(timeout=60_000)
    assert turns >= 1
    assert page.evaluate(REACHABLE, "#mo-rematch"), f"{name}: Rematch out of reach"
    page.screenshot(path=artifacts / f"l8-match-over-{name}.png")
    first = page.evaluate("window.nb.match")
    page.tap("#mo-rematch")
    page.wait_for_function(
        "([m]) => window.nb.match !== m && window.nb.state && window.nb.state.winner === null",
        arg=[first],
    )
    _idle(page)
    _fits(page)
    page.screenshot(path=artifacts / f"l9-rematch-{name}.png")
