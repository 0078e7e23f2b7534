"""Endings and flow in a real browser: the rack-over card, the match-over screen and the
rematch, the foul count and the warning (clause 12), the confirmation before conceding, the tray
of pocketed balls, and step, replay and slow motion that never leave the table stuck.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_browser import _act, _idle, _start

pytestmark = pytest.mark.browser


def _concede(page: Page) -> None:
    page.click("#btn-forfeit")
    expect(page.locator("#concede")).to_be_visible()
    _act(page, "#concede-yes")


def test_concede_rack_card_match_over_and_rematch(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "local", 2, 11)
    # Conceding asks first; Cancel sends nothing.
    page.click("#btn-forfeit")
    expect(page.locator("#concede")).to_be_visible()
    expect(page.locator("#concede-text")).to_contain_text("Player 1")
    page.screenshot(path=artifacts / "e1-concede-confirm.png")
    page.click("#concede-no")
    expect(page.locator("#concede")).to_be_hidden()
    page.wait_for_timeout(300)
    assert page.evaluate("window.nb.history.length") == 0
    # Conceded: the rack-over card says who won and how, with the rack's figures.
    _concede(page)
    card = page.locator("#rack-card")
    expect(card).to_be_visible()
    expect(page.locator("#rack-title")).to_have_text("Game 1: Player 2 wins")
    expect(page.locator("#rack-reason")).to_have_text("The opponent conceded the game.")
    expect(page.locator("#rack-figures tr")).to_have_count(4)
    # The referee's panel heads a conceded game as conceded, never as a legal shot.
    expect(page.locator("#ruling .conceded")).to_have_text("Game conceded")
    expect(page.locator("#ruling .legal")).to_have_count(0)
    page.screenshot(path=artifacts / "e2-rack-card.png")
    # A reload keeps it; Continue dismisses it.
    page.reload()
    _idle(page)
    expect(card).to_be_visible()
    page.click("#rack-close")
    expect(card).to_be_hidden()
    # The match is over: its statistics, then a rematch with the same players and race.
    _concede(page)
    page.click("#rack-close")
    _concede(page)
    screen = page.locator("#match-over-screen")
    expect(screen).to_be_visible()
    expect(page.locator("#mo-title")).to_contain_text("Player 2 wins the match 1\u20132")
    expect(page.locator("#mo-stats tr")).to_have_count(13)
    expect(card).to_be_hidden()
    page.screenshot(path=artifacts / "e3-match-over.png")
    old = page.evaluate("window.nb.match")
    page.click("#mo-rematch")
    page.wait_for_function(
        "([old]) => window.nb.match !== old && window.nb.state && window.nbIdle()", arg=[old]
    )
    expect(screen).to_be_hidden()
    state = page.evaluate("window.nb.state")
    assert state["score"] == [0, 0]
    assert state["race_to"] == 2
    assert state["players"] == ["Player 1", "Player 2"]
    assert page.evaluate("window.nb.mode") == "local"
    # New match opens the lobby.
    for _ in range(3):
        _concede(page)
        if page.locator("#rack-card").is_visible():
            page.click("#rack-close")
    page.click("#mo-new")
    expect(page.locator("#lobby")).to_be_visible()


def _foul(page: Page) -> None:
    """A stroke that hits nothing: away from every ball, softly."""
    page.evaluate(
        """() => { const nb = window.nb; const cue = nb.cue || nb.pendingCue || nb.layout['0'];
            let best = null;
            for (let k = 0; k < 72; k++) { // the direction farthest from every ball
              const a = (k * Math.PI) / 36; let worst = Infinity;
              for (const [id, [x, y]] of Object.entries(nb.layout)) {
                if (id === '0') continue;
                const d = Math.abs(Math.atan2(y - cue[1], x - cue[0]) - a) % (2 * Math.PI);
                worst = Math.min(worst, Math.min(d, 2 * Math.PI - d));
              }
              if (!best || worst > best[1]) best = [a, worst];
            }
            nb.aim = best[0]; nb.aimTouched = true; }"""
    )
    page.fill("#power", "5")
    page.dispatch_event("#power", "input")
    _act(page, "#btn-shoot")


def test_the_foul_count_and_the_warning_on_the_scoreboard(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "local", 3, 12)
    for _ in range(3):
        _foul(page)
    fouls = page.evaluate("window.nb.state.consecutive_fouls")
    assert fouls == [2, 1]
    seat0 = page.locator("#scoreboard .seat[data-seat='0']")
    expect(seat0.locator(".foulcount")).to_have_text("2 foul(s) in a row")
    expect(page.locator("#scoreboard .seat[data-seat='1'] .foulcount")).to_have_text(
        "1 foul(s) in a row"
    )
    expect(seat0.locator(".warned")).to_have_count(0)  # not at the table
    _foul(page)
    # Player 1 comes back to the table after two fouls: warned on the scoreboard and by the referee.
    assert page.evaluate("window.nb.state.to_act") == 0
    expect(seat0.locator(".warned")).to_be_visible()
    expect(page.locator("#warning")).to_be_visible()
    page.screenshot(path=artifacts / "e4-second-foul-warning.png")
    # A reload still warns.
    page.reload()
    _idle(page)
    expect(seat0.locator(".warned")).to_be_visible()
    expect(page.locator("#warning")).to_be_visible()


def _break(page: Page) -> None:
    page.fill("#power", "88")
    page.dispatch_event("#power", "input")
    _act(page, "#btn-shoot")


def _tray(page: Page) -> list[int]:
    return [int(b) for b in page.locator("#tray-balls .ballchip").all_inner_texts()]


def test_the_tray_stays_true(page: Page, server_url: str, artifacts: Path) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    # Seeds until a break pockets a ball (the rack of a seed is always the same).
    for seed in range(20, 40):
        _start(page, server_url, "local", 3, seed)
        _break(page)
        if page.evaluate("window.nb.state.game") == 1 and _tray(page):
            break
    else:  # pragma: no cover
        pytest.fail("no break pocketed a ball")
    down = _tray(page)
    on_table = page.evaluate("window.nb.state.on_table")
    assert sorted(down) == sorted(set(range(1, 10)) - set(on_table))
    # Replay keeps it, and so does a reload.
    page.click("#btn-replay")
    _idle(page)
    assert _tray(page) == down
    page.reload()
    _idle(page)
    assert sorted(_tray(page)) == sorted(down)
    # A 9 pocketed on a foul is respotted (D3): it leaves the tray.
    page.evaluate(
        """async () => {
            const { apply } = await import('/static/play.js');
            const nb = window.nb;
            const state = { ...nb.state, on_table: [...new Set([...nb.state.on_table, 9])] };
            apply({ type: 'ruling', state, ruling: { ...nb.ruling, respotted: [9] },
                    trajectory: { balls: { 9: { pocket: 'foot_left' } } } });
        }"""
    )
    assert 9 not in _tray(page)
    page.screenshot(path=artifacts / "e5-tray.png")


def test_step_replay_and_slow_motion_never_leave_the_table_stuck(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "local", 3, 4, rate=3)
    # Step during the live break: the shot pauses, Replay reads "Play on" and plays it on.
    before = page.evaluate("window.nb.received ?? 0")
    page.fill("#power", "88")
    page.dispatch_event("#power", "input")
    page.click("#btn-shoot")
    page.wait_for_function("([n]) => (window.nb.received ?? 0) > n && window.nb.anim", arg=[before])
    page.click("#btn-step")
    assert page.evaluate("window.nb.anim.paused")
    page.wait_for_timeout(300)
    assert page.evaluate("window.nb.anim !== null")
    expect(page.locator("#btn-replay")).to_be_enabled()
    expect(page.locator("#btn-replay")).to_have_text("Play on")
    page.screenshot(path=artifacts / "e6-stepped.png")
    page.click("#btn-replay")
    _idle(page)
    expect(page.locator("#btn-replay")).to_have_text("Replay")
    assert page.evaluate("window.nb.history.length") == 1
    # Step after the shot: a stepped replay, then played on, and the controls come back.
    page.click("#btn-step")
    page.click("#btn-step")
    assert page.evaluate("window.nb.anim && window.nb.anim.replay && window.nb.anim.paused")
    page.click("#btn-replay")
    _idle(page)
    expect(page.locator("#btn-shoot")).to_be_enabled()
    # Slow motion: a replay still ends, and so does the next shot.
    page.check("#slow")
    page.click("#btn-replay")
    _idle(page)
    expect(page.locator("#btn-shoot")).to_be_enabled()
    page.fill("#power", "30")
    page.dispatch_event("#power", "input")
    _act(page, "#btn-shoot")
    expect(page.locator("#btn-shoot")).to_be_enabled()
    page.uncheck("#slow")
