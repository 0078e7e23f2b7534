"""The page's sounds in a real browser: one per sounding event of a shot, and a remembered mute."""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from tests.web.test_browser import _act, _idle, _start

pytestmark = pytest.mark.browser

_EXPECTED = """async () => {
    const { gainOf } = await import('/static/sound.js');
    return window.nb.last.trajectory.events
        .filter((e) => gainOf(e) >= 0.01)
        .map((e) => [e.kind, e.t, gainOf(e)]);
}"""


def _sounds(page: Page) -> list[list[object]]:
    return page.evaluate("window.nbSounds.map((s) => [s.kind, s.t, s.gain])")


def test_a_shot_schedules_a_sound_per_event_and_mute_is_remembered(
    page: Page, server_url: str
) -> None:
    _start(page, server_url, "practice", 1, 4)
    expect(page.locator("#sound")).to_be_checked()  # on by default, the switch in sight
    expect(page.locator("#sound")).to_be_visible()
    assert page.evaluate("typeof AudioContext") == "function"
    page.evaluate("window.nbSounds.length = 0")
    _act(page, "#btn-shoot")  # the break
    expected = page.evaluate(_EXPECTED)
    got = _sounds(page)
    assert [s[:2] for s in got] == [e[:2] for e in expected]
    assert [s[2] for s in got] == pytest.approx([e[2] for e in expected])
    kinds = [s[0] for s in got]
    assert kinds[0] == "stroke"
    assert "ball_ball" in kinds
    assert all(0.0 < s[2] <= 1.0 for s in got)
    # a harder impact is a louder click
    events = page.evaluate("window.nb.last.trajectory.events")
    clicks = sorted((e["speed"], s[2]) for e, s in zip(
        [e for e in events if e["kind"] == "ball_ball"],
        [s for s in got if s[0] == "ball_ball"], strict=False))  # fmt: skip
    assert [g for _, g in clicks] == sorted(g for _, g in clicks)
    # The replay sounds the same again.
    page.evaluate("window.nbSounds.length = 0")
    page.click("#btn-replay")
    _idle(page)
    assert [s[:2] for s in _sounds(page)] == [e[:2] for e in expected]
    # Stepped, a shot sounds each event as the steps reach it (the stroke on the first).
    page.evaluate("window.nbSounds.length = 0")
    page.click("#btn-step")
    page.wait_for_function("window.nb.anim && window.nbSounds.length > 0")
    steps = 1
    while page.evaluate("window.nb.anim.t") < expected[1][1] + 0.01:
        page.click("#btn-step")
        steps += 1
    page.wait_for_timeout(100)
    reached = page.evaluate("window.nb.anim.t")
    assert [s[:2] for s in _sounds(page)] == [e[:2] for e in expected if e[1] <= reached]
    assert steps > 1

    # Muted, the page stays quiet, and a reload remembers it.
    page.uncheck("#sound")
    assert page.evaluate("localStorage.getItem('nineball.sound')") == "off"
    page.reload()
    _idle(page)
    expect(page.locator("#sound")).not_to_be_checked()
    page.evaluate("window.nbSounds.length = 0")
    _act(page, "#btn-shoot")
    assert _sounds(page) == []
    page.check("#sound")
    page.reload()
    _idle(page)
    expect(page.locator("#sound")).to_be_checked()
