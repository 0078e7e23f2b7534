"""The event pages in a real browser: the live board, a table's scorer on a phone, the overlay.

Screenshots go to ``artifacts/event-*.png``.
"""

from __future__ import annotations

import json
import re
import urllib.request
import uuid
from pathlib import Path
from typing import Any

import pytest
from playwright.sync_api import Browser, Page, expect

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def _call(base: str, method: str, path: str, body: Any = None) -> Any:
    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(
        f"{base}{path}", data=data, method=method, headers={"Content-Type": "application/json"}
    )
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())


def _event(base: str, players: int = 8, **settings: Any) -> dict[str, Any]:
    body = {"name": "Browser Open", "date": "2026-12-10", "tables": 4, "race_to": 2} | settings
    event = _call(base, "POST", "/api/events", body)
    names = [
        "Anna Kowalska",
        "Bob Smith",
        "Céline Dupont",
        "Dariusz Łęcki",
        "Eva Novak",
        "Frank Miller",
        "Gosia Wiśniewska",
        "Henri Martin",
    ]
    for i in range(players):
        _call(
            base,
            "POST",
            f"/api/events/{event['id']}/players",
            {"token": event["token"], "name": names[i], "rating": 420 + 17 * i},
        )
    _call(base, "POST", f"/api/events/{event['id']}/start", {"token": event["token"]})
    return event


def _send(base: str, event: dict[str, Any], table: int, kind: str, **fields: Any) -> Any:
    match = _call(base, "GET", f"/api/events/{event['id']}/tables/{table}")["match"]
    entry = {"id": uuid.uuid4().hex, "match": match["key"], "seq": match["seq"], "kind": kind}
    body = {"token": event["tables"][str(table)], "table": table, "entries": [entry | fields]}
    return _call(base, "POST", f"/api/events/{event['id']}/entries", body)


def test_the_live_board_follows_the_event(page: Page, server_url: str, artifacts: Path) -> None:
    event = _event(server_url)
    _send(server_url, event, 1, "start", mode="quick", first_breaker=0)
    _send(server_url, event, 1, "rack", winner=0)
    page.set_viewport_size({"width": 1400, "height": 900})
    page.goto(f"{server_url}/event/board#e={event['id']}")
    expect(page.locator(".table-card")).to_have_count(4)
    expect(page.locator(".table-card").first).to_contain_text("1 - 0")
    expect(page.locator(".match[data-key^='W']")).to_have_count(7)
    expect(page.locator(".match[data-key^='L']")).to_have_count(6)
    # A rack entered at table 1 ends the match: the board shows it within its polling.
    _send(server_url, event, 1, "rack", winner=0)
    first = page.locator(".bracket[data-stage=winners] .match").first
    expect(first.locator(".side.won")).to_have_count(1, timeout=10_000)
    expect(page.locator("ul.results li")).to_have_count(1)
    page.select_option("#lang", "pl")
    expect(page.locator(".board-page h2").first).to_have_text("Przy stołach")
    page.screenshot(path=artifacts / "event-board.png", full_page=True)
    page.select_option("#lang", "en")


def test_a_scorer_on_a_phone_keeps_entries_through_a_lost_network(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    event = _event(server_url)
    context = browser.new_context(**PHONE)
    page = context.new_page()
    url = f"{server_url}/event/table#e={event['id']}&t=2&k={event['tables']['2']}"
    page.goto(url)
    expect(page.locator(".scoreline")).to_be_visible()
    page.locator("[data-mode=quick]").tap()
    page.locator("#start").tap()
    expect(page.locator("#rack-0")).to_be_visible()
    page.locator("#rack-0").tap()
    expect(page.locator("#score")).to_have_text("1 - 0")
    expect(page.locator("#queue")).to_have_text("Every entry sent")
    # No network: the racks wait on the phone, the score counts them already.
    context.set_offline(True)
    page.locator("#rack-1").tap()
    expect(page.locator("#score")).to_have_text("1 - 1")
    expect(page.locator("#queue")).to_contain_text("1 entries waiting")
    page.screenshot(path=artifacts / "event-scorer-offline.png")
    server = _call(server_url, "GET", f"/api/events/{event['id']}/tables/2")["match"]
    assert server["score"] == [1, 0]
    # The page is closed while offline; the entry stays on the phone and goes when it is back.
    page.close()
    context.set_offline(False)
    page = context.new_page()
    page.goto(url)
    expect(page.locator("#queue")).to_have_text("Every entry sent", timeout=15_000)
    expect(page.locator("#score")).to_have_text("1 - 1")
    server = _call(server_url, "GET", f"/api/events/{event['id']}/tables/2")["match"]
    assert server["score"] == [1, 1]
    assert server["seq"] == 3
    # The last rack: the match is over and the page says the table is free (or the next match).
    page.locator("#rack-0").tap()
    expect(page.locator("#queue")).to_have_text("Every entry sent")
    assert _call(server_url, "GET", f"/api/events/{event['id']}")["matches"][1]["score"] == [2, 1]
    context.close()


def test_a_scorer_enters_shots_and_reads_the_referee(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    event = _event(server_url, shot_clock={"seconds": 30, "extension": 30, "extensions": 1})
    context = browser.new_context(**PHONE)
    page = context.new_page()
    page.goto(f"{server_url}/event/table#e={event['id']}&t=3&k={event['tables']['3']}")
    expect(page.locator(".scoreline")).to_be_visible()
    page.locator("[data-mode=shots]").tap()
    page.locator("#start").tap()
    expect(page.locator("#chips-first")).to_be_visible()
    # The break: the 1 first, the cue ball in the pocket (a foul, clauses 3 and 6).
    page.locator("#chips-first [data-ball='1']").tap()
    page.locator("#chips-pocketed [data-ball='0']").tap()
    page.locator("#enter-shot").tap()
    expect(page.locator("#ruling")).to_contain_text("clause 6")
    expect(page.locator("#to-act")).to_contain_text("ball in hand anywhere")
    # The shot clock counts down and gives an extension.
    page.locator("#clock-start").tap()
    expect(page.locator("#clock-time")).not_to_have_text("30", timeout=5000)
    page.locator("#clock-ext-1").tap()
    expect(page.locator("#clock-ext-1")).to_be_disabled()
    assert int(page.locator("#clock-time").inner_text()) > 30
    page.screenshot(path=artifacts / "event-scorer-phone.png", full_page=True)
    # The page fits the phone's width: nothing wider than the screen.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    context.close()


def test_the_overlay_shows_the_table_for_the_stream(
    browser: Browser, server_url: str, artifacts: Path
) -> None:
    event = _event(server_url, shot_clock={"seconds": 45, "extension": 30, "extensions": 1})
    _send(server_url, event, 4, "start", mode="shots", first_breaker=1)
    _send(server_url, event, 4, "shot", first=1, rails=[2, 3, 4, 5])
    _send(server_url, event, 4, "shot", first=2)  # a foul: the fouls show on the overlay
    _call(
        server_url,
        "POST",
        f"/api/events/{event['id']}/clock",
        {"token": event["tables"]["4"], "table": 4, "action": "start"},
    )
    match = _call(server_url, "GET", f"/api/events/{event['id']}/tables/4")["match"]
    context = browser.new_context(viewport={"width": 1920, "height": 1080})
    page = context.new_page()
    page.goto(f"{server_url}/event/overlay#e={event['id']}&t=4")
    expect(page.locator("#overlay")).to_be_visible()
    expect(page.locator("#o-p0 .pname")).to_have_text(match["sides"][0]["name"])
    expect(page.locator("#o-p1 .pname")).to_have_text(match["sides"][1]["name"])
    expect(page.locator("#o-clock")).to_contain_text(" s")
    expect(page.locator(".fouls i")).to_have_count(1)
    expect(page.locator("#o-chance")).to_be_hidden()  # no model, no layout: no number
    assert page.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    page.screenshot(path=artifacts / "event-overlay.png")
    context.close()


def test_the_player_and_organiser_pages(page: Page, server_url: str, artifacts: Path) -> None:
    event = _event(server_url)
    board = _call(server_url, "GET", f"/api/events/{event['id']}")
    called = next(m for m in board["matches"] if m["table"] == 1)
    number = called["sides"][0]["number"]
    page.set_viewport_size({"width": 390, "height": 700})
    page.goto(f"{server_url}/event/player#e={event['id']}&p={number}")
    expect(page.locator("#now .now")).to_contain_text("table 1")
    page.screenshot(path=artifacts / "event-player.png", full_page=True)
    page.set_viewport_size({"width": 1300, "height": 900})
    page.goto(f"{server_url}/event/admin#e={event['id']}&k={event['token']}")
    expect(page.locator("#links .link")).to_have_count(2 + 2 * 4)
    expect(page.locator("#links img").first).to_have_attribute("src", re.compile(r"^blob:"))
    expect(page.locator("#matches tr")).not_to_have_count(0)
    page.screenshot(path=artifacts / "event-admin.png", full_page=True)
