"""The game review and the live chances in a real browser (issue 18).

A stored match of two ghost players (seeded, race to 3) is opened from the history with its
Review button: the chart has one point per entry, its marks are the review's, a point's details
show on hover, a click on an entry moves the replay to it; on a laptop and on a phone held
upright. In a match against the computer the chance bar shows after a shot, and its switch hides
it, remembered across a reload. Screenshots go to ``artifacts/``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Locator, Page, expect

from nineball.game import Store
from nineball.game.match import Match
from nineball.players.play import play_match
from nineball.players.registry import make_player
from nineball.rules import MatchConfig
from tests.web.conftest import serve
from tests.web.test_browser import RATE, _act, _idle, _start
from tests.web.test_browser_layout import _fits

pytestmark = pytest.mark.browser

SEED = 5
"""A ghost match of 44 entries in 3 games, with a mistake and a blunder (found by trying)."""


@pytest.fixture(scope="module")
def stored(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, int]]:
    """A server whose store holds one finished ghost match: its origin and the match's id."""
    db = tmp_path_factory.mktemp("review") / "web.sqlite3"
    with Store(db) as store:
        match = Match(
            MatchConfig(players=("Ann", "Bob"), race_to=3), seed=SEED, store=store,
            agents=("ghost", "ghost"),
        )  # fmt: skip
        play_match(match, [make_player("ghost"), make_player("ghost")])
        match_id = match.match_id
    assert match_id is not None
    for origin in serve(db):
        yield origin, match_id


def _point_at(page: Page, point: Locator, touch: bool) -> None:
    """Tap ``point`` (a phone) or hover over it (a mouse)."""
    if touch:
        box = point.bounding_box()
        assert box is not None
        page.touchscreen.tap(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    else:
        point.hover(force=True)


def _open_review(page: Page, base: str, match_id: int, compact: bool) -> dict[str, Any]:
    """The page opened, the lobby closed, the history's Review of the match clicked."""
    page.goto(f"{base}/?rate={RATE}")
    expect(page.locator("#lobby")).to_be_visible()
    page.keyboard.press("Escape")
    if compact:
        page.click("#btn-menu")
    page.click("#btn-history")
    row = page.locator(f"#matches-table tr[data-match='{match_id}']")
    expect(row.locator("button.replay-match")).to_be_visible()
    row.locator("button.review-match").click()
    expect(page.locator("#history-page")).to_be_hidden()
    expect(page.locator("#review")).to_be_visible()
    expect(page.locator("#replay-bar")).to_be_visible()
    review: dict[str, Any] = page.request.get(f"{base}/api/matches/{match_id}/review").json()
    return review


@pytest.mark.parametrize(
    ("name", "width", "height", "touch"),
    [("laptop", 1366, 768, False), ("phone-portrait", 390, 844, True)],
)
def test_the_review_opens_from_the_history(
    browser: Browser,
    stored: tuple[str, int],
    artifacts: Path,
    name: str,
    width: int,
    height: int,
    touch: bool,
) -> None:
    base, match_id = stored
    context = browser.new_context(
        viewport={"width": width, "height": height}, has_touch=touch, is_mobile=touch,
        storage_state={"cookies": [], "origins": [
            {"origin": base, "localStorage": [{"name": "nineball.view", "value": "2d"}]}
        ]},
    )  # fmt: skip
    page = context.new_page()
    review = _open_review(page, base, match_id, compact=width < 700)
    shots = review["shots"]
    n = len(shots)
    assert n == 44
    marks = [s["mark"] for s in shots]
    assert {"mistake", "blunder"} <= set(marks)
    # one point per entry, the review's marks on them, one row per entry
    expect(page.locator("#review-chart circle.pt")).to_have_count(n)
    expect(page.locator("#review-chart circle.pt.mistake")).to_have_count(marks.count("mistake"))
    expect(page.locator("#review-chart circle.pt.blunder")).to_have_count(marks.count("blunder"))
    expect(page.locator("#review-list tr[data-k]")).to_have_count(n)
    expect(page.locator("#review-chart line.boundary")).to_have_count(
        len({s["game"] for s in shots}) - 1
    )
    expect(page.locator("#review-title")).to_have_text(
        f"Review of match {match_id}: Ann \u2013 Bob"
    )
    expect(page.locator("#review-legend")).to_contain_text("blunder: lost over 25 points")
    # the replay starts at the first entry, and the list shows where it is
    expect(page.locator("#replay-title")).to_contain_text(f"shot 1 of {n}")
    expect(page.locator("#review-list tr.at")).to_have_attribute("data-k", "0")
    # a point's details on hover (a tap on a phone)
    k = marks.index("blunder")
    s = shots[k]
    point = page.locator(f"#review-chart circle.pt[data-k='{k}']")
    _point_at(page, point, touch)
    tip = page.locator("#review-tip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text(f"Game {s['game']}, shot {s['shot']}")
    expect(tip).to_contain_text(s["name"])
    before, after = round(s["before"] * 100), round(s["after"] * 100)
    change = round(s["change"] * 100)
    expect(tip).to_contain_text(f"{before}% \u2192 {after}% (\u2212{-change} pts)")
    expect(tip).to_contain_text("Blunder")
    # a click on an entry moves the replay to it (a tap on the point did so on the phone)
    if not touch:
        point.click(force=True)
    expect(page.locator("#replay-title")).to_contain_text(f"shot {k + 1} of {n}")
    expect(page.locator("#review-list tr.at")).to_have_attribute("data-k", str(k))
    page.locator("#review-list tr[data-k='3']").click()
    expect(page.locator("#replay-title")).to_contain_text(f"shot 4 of {n}")
    expect(page.locator("#review-list tr.at")).to_have_attribute("data-k", "3")
    page.wait_for_function("!window.nb.anim", timeout=30_000)
    _fits(page)  # the review fits the screen: nothing scrolls but its own list
    chart = page.locator("#review-chart svg").bounding_box()
    assert chart is not None
    assert chart["x"] >= 0
    assert chart["x"] + chart["width"] <= width
    assert chart["width"] >= 0.45 * min(width, 640)
    _point_at(page, point, touch)
    expect(tip).to_be_visible()
    page.screenshot(path=artifacts / f"r1-review-{name}.png")
    # French: the words follow the language
    if touch:
        page.click("#btn-menu")
    page.select_option("#lang", "fr")
    expect(page.locator("#review-title")).to_have_text(
        f"Analyse du match {match_id} : Ann \u2013 Bob"
    )
    expect(page.locator("#review-list th").first).to_have_text("Coup")
    # Close: the replay and the review go together
    page.click("#replay-close")
    expect(page.locator("#review")).to_be_hidden()
    context.close()


def test_the_chance_bar_in_a_match_against_the_computer(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1366, "height": 768})
    _start(page, server_url, "computer", 3, 3)
    bar = page.locator("#chance-bar")
    expect(bar).to_be_visible()  # the break: the breaker's chance from the rack
    _act(page, "#btn-shoot")
    _idle(page)
    if page.evaluate("document.querySelector('#choice').open"):  # the computer pushed out
        _act(page, "#choice-shoot")
    chance = page.evaluate("window.nb.chance")
    assert chance is not None
    for key in ("game", "match"):
        assert all(0.0 <= p <= 1.0 for p in chance[key])
        assert sum(chance[key]) == pytest.approx(1.0, abs=2e-4)
    expect(bar).to_be_visible()
    p0, p1 = (round(p * 100) for p in chance["game"])
    expect(page.locator("#scoreboard .chance.p0")).to_have_text(f"{p0}%")
    expect(page.locator("#scoreboard .chance.p1")).to_have_text(f"{p1}%")
    expect(bar).to_have_attribute("aria-label", re.compile(rf"Chance to win this game: .* {p0}%"))
    fill = page.eval_on_selector("#chance-bar .p0", "(e) => e.style.width")
    assert float(fill.rstrip("%")) == pytest.approx(chance["game"][0] * 100, abs=0.06)
    expect(page.locator("#chance-match")).to_contain_text("Match:")
    page.screenshot(path=artifacts / "r2-chance-bar-laptop.png")
    # the switch in the header hides it, and the page remembers
    page.uncheck("#chances")
    expect(bar).to_be_hidden()
    expect(page.locator("#scoreboard .chance")).to_have_count(2)
    expect(page.locator("#scoreboard .chance").first).to_be_hidden()
    page.reload()
    _idle(page)
    expect(page.locator("#chances")).not_to_be_checked()
    expect(page.locator("#scoreboard .seat")).to_have_count(2)
    assert page.evaluate("window.nb.chance") is not None  # still told; not shown
    expect(page.locator("#chance-bar")).to_be_hidden()
    page.check("#chances")
    expect(page.locator("#chance-bar")).to_be_visible()
    page.reload()
    _idle(page)
    expect(page.locator("#chance-bar")).to_be_visible()


def test_the_chance_bar_on_a_phone(browser: Browser, server_url: str, artifacts: Path) -> None:
    context = browser.new_context(
        viewport={"width": 390, "height": 844}, has_touch=True, is_mobile=True,
        storage_state={"cookies": [], "origins": [
            {"origin": server_url, "localStorage": [{"name": "nineball.view", "value": "2d"}]}
        ]},
    )  # fmt: skip
    page = context.new_page()
    _start(page, server_url, "computer", 3, 4)
    page.tap("#btn-shoot")
    page.wait_for_function("(window.nb.received ?? 0) > 0 && window.nbIdle()", timeout=30_000)
    expect(page.locator("#chance-bar")).to_be_visible()
    _fits(page)
    bar = page.locator("#chance-bar").bounding_box()
    board = page.locator("#scoreboard").bounding_box()
    assert bar is not None
    assert board is not None
    assert board["y"] <= bar["y"]
    assert bar["y"] + bar["height"] <= board["y"] + board["height"]
    page.screenshot(path=artifacts / "r3-chance-bar-phone.png")
    page.click("#btn-menu")
    expect(page.locator("#chances")).to_be_visible()
    page.uncheck("#chances")
    expect(page.locator("#chance-bar")).to_be_hidden()
    context.close()


def test_a_new_match_started_during_a_replay_puts_the_replay_and_the_review_away(
    browser: Browser, stored: tuple[str, int]
) -> None:
    base, match_id = stored
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    _open_review(page, base, match_id, compact=False)
    page.click("#btn-new")
    expect(page.locator("#lobby")).to_be_visible()
    page.locator("input[name=mode][value=local]").check()
    page.click("#lobby-start")
    expect(page.locator("#scoreboard .seat")).to_have_count(2)
    # the new match is on the table: no replay bar and no review left over from before
    expect(page.locator("#replay-bar")).to_be_hidden()
    expect(page.locator("#review")).to_be_hidden()
    expect(page.locator("body")).not_to_have_class(re.compile(r"\breplaying\b"))
    context.close()


def test_each_shot_compared_with_a_computer_level_on_the_page(
    browser: Browser, stored: tuple[str, int], artifacts: Path
) -> None:
    base, match_id = stored
    context = browser.new_context(viewport={"width": 1366, "height": 768})
    page = context.new_page()
    review = _open_review(page, base, match_id, compact=False)
    # the search levels only (the ghost player cannot judge), club chosen first
    expect(page.locator("#review-level option")).to_have_count(6)
    expect(page.locator("#review-level")).to_have_value("club")
    page.select_option("#review-level", "beginner")
    page.click("#review-compare")
    expect(page.locator("#review-list th").nth(6)).to_have_text("beginner's shot", timeout=60_000)
    expect(page.locator("#review-list th").nth(7)).to_have_text("Against it")
    judged: dict[str, Any] = page.request.get(
        f"{base}/api/matches/{match_id}/review?level=beginner"
    ).json()
    shots = judged["shots"]
    k = next(i for i, s in enumerate(shots) if s["alternative"] is not None)
    alt = shots[k]["alternative"]
    row = page.locator(f"#review-list tr[data-k='{k}'] td")
    expect(row.nth(6)).to_have_text(f"{alt['target']} ({round(alt['best'] * 100)}%)")
    page.locator(f"#review-chart rect.band[data-k='{k}']").hover()
    expect(page.locator("#review-tip")).to_contain_text(f"beginner's best: {alt['target']}")
    assert len(shots) == len(review["shots"])
    page.screenshot(path=str(artifacts / "r4-review-compared.png"))
    # the level chosen is remembered for the next review
    assert page.evaluate("localStorage.getItem('nineball.reviewLevel')") == "beginner"
    context.close()
