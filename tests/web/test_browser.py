"""The page in a real browser (Debian's chromium driven by Playwright).

One scripted session: a match for two players on one screen (drag the cue ball in hand to an
invalid then a valid place, break, push out and pass, take a shot, switch to French and Polish
and read the ruling), then a short match against the computer played to its end. Screenshots go
to ``artifacts/``.
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest
from playwright.sync_api import Page, Route, expect

from nineball.game import stroke_limits
from nineball.physics import BallInput, Stroke, simulate
from nineball.web.segments import trajectory_json

pytestmark = pytest.mark.browser

RATE = 6  # animations run 6 times faster than real time in the tests


def _idle(page: Page) -> None:
    page.wait_for_function("window.nbIdle && window.nbIdle()", timeout=30_000)


def _act(page: Page, selector: str) -> None:
    """Click, then wait for the server's answer (a shot or a ruling) and its animation."""
    before = page.evaluate("window.nb.received ?? 0")
    page.click(selector)
    page.wait_for_function(
        "([n]) => (window.nb.received ?? 0) > n && window.nbIdle()", arg=[before], timeout=30_000
    )


def _drag_cue(page: Page, to: tuple[float, float]) -> None:
    # on the 3D table the camera may still be easing (after the last drag, say): the client
    # points of table spots are only good once it is at rest. An ease begins at the frame after
    # its cause (a new target), so two frames are let pass first: on a busy machine the camera
    # was otherwise seen at rest just before it moved.
    page.evaluate("new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))")
    page.wait_for_function("window.nbView !== '3d' || window.nb3d.cameras.easing === null")
    cue = page.evaluate("window.nb.cue || window.nb.pendingCue")
    x0, y0 = page.evaluate("([x, y]) => window.nbToClient(x, y)", cue)
    x1, y1 = page.evaluate("([x, y]) => window.nbToClient(x, y)", list(to))
    page.mouse.move(x0, y0)
    page.mouse.down()
    page.mouse.move((x0 + x1) / 2, (y0 + y1) / 2, steps=4)
    page.mouse.move(x1, y1, steps=4)


def _start(page: Page, base: str, mode: str, race: int, seed: int, rate: int = RATE) -> None:
    page.goto(f"{base}/?rate={rate}&seed={seed}")
    expect(page.locator("#lobby")).to_be_visible()
    page.locator(f"input[name=mode][value={mode}]").check()
    page.fill("#race", str(race))
    page.click("#lobby-start")
    expect(page.locator("#scoreboard .seat")).to_have_count(2)
    _idle(page)


def test_the_anim_module_reproduces_the_engine(page: Page, server_url: str) -> None:
    trajectory = simulate(
        [BallInput(id=0, r=(0.6, 0.5)), BallInput(id=1, r=(0.62, 1.5)),
         BallInput(id=2, r=(0.3, 1.9))],
        stroke=Stroke(speed=4.0, aim=math.pi / 2, side=0.2, height=0.3),
    )  # fmt: skip
    times = np.linspace(0, trajectory.duration + 0.2, 400)
    expected = trajectory.positions_at(times)
    page.goto(f"{server_url}/static/anim.js")
    got = page.evaluate(
        """async ([traj, times]) => {
            const { positionAt } = await import('/static/anim.js');
            return times.map((t) => Object.keys(traj.balls).map((b) =>
                positionAt(traj.balls[b].pieces, t)));
        }""",
        [trajectory_json(trajectory), times.tolist()],
    )
    assert np.max(np.abs(np.array(got) - expected[:, :, :2])) < 1e-9


def test_every_string_of_the_page_is_in_three_languages(page: Page, server_url: str) -> None:
    page.goto(f"{server_url}/static/i18n.js")
    keys = page.evaluate(
        """async () => {
            const i18n = await import('/static/i18n.js');
            return Object.fromEntries(i18n.LANGS.map((l) => [l, i18n.keys(l)]));
        }"""
    )
    assert set(keys) == {"en", "fr", "pl"}
    assert set(keys["en"]) == set(keys["fr"]) == set(keys["pl"])
    page.goto(server_url)
    used = page.evaluate("[...document.querySelectorAll('[data-i18n]')].map((e) => e.dataset.i18n)")
    assert set(used) <= set(keys["en"])


def test_a_language_picked_while_the_page_loads_is_kept(
    page: Page, server_url: str, artifacts: Path
) -> None:
    """The select is there before the page's modules have run (they wait for the catalogs)."""
    page.goto(server_url)
    page.evaluate("localStorage.setItem('nineball.lang', 'pl')")
    held: list[Route] = []
    page.route("**/i18n/*.json", lambda route: held.append(route))  # held back until the pick
    page.goto(server_url, wait_until="domcontentloaded")
    page.select_option("#lang", "fr")
    page.wait_for_timeout(200)
    assert held  # the modules have not run: the page is not yet in French
    assert page.evaluate("document.documentElement.lang") != "fr"
    for route in held:
        route.continue_()
    page.unroute("**/i18n/*.json")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#lobby-start")).to_have_text("Commencer")
    assert page.input_value("#lang") == "fr"
    assert page.evaluate("localStorage.getItem('nineball.lang')") == "fr"
    page.screenshot(path=artifacts / "lang-picked-while-loading.png")
    # Next time the page opens in the language picked.
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "fr")


def test_the_lobby_has_its_own_language_choice(
    page: Page, server_url: str, artifacts: Path
) -> None:
    """The lobby is modal: on a phone the header's menu (and its language) is out of reach."""
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(server_url)
    page.evaluate("localStorage.setItem('nineball.lang', 'en')")
    page.reload()
    expect(page.locator("#lobby")).to_be_visible()
    assert page.input_value("#lobby-lang") == "en"
    assert page.locator("#lobby-lang").is_visible()
    page.locator("#lobby-lang").select_option("fr")
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#lobby-start")).to_have_text("Commencer")
    assert page.input_value("#lang") == "fr"  # the header's select follows
    assert page.evaluate("localStorage.getItem('nineball.lang')") == "fr"
    page.screenshot(path=artifacts / "lobby-language-phone.png")
    # kept: the next visit opens in French, its lobby saying so
    page.reload()
    expect(page.locator("html")).to_have_attribute("lang", "fr")
    expect(page.locator("#lobby")).to_be_visible()
    assert page.input_value("#lobby-lang") == "fr"
    page.locator("#lobby-lang").select_option("pl")
    expect(page.locator("#lobby h2")).to_have_text("Nowy mecz")
    assert page.input_value("#lang") == "pl"


def test_a_scripted_session_in_the_browser(page: Page, server_url: str, artifacts: Path) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "local", 3, 4)
    page.screenshot(path=artifacts / "01-table.png")
    # The controls take their ranges from the server's stroke limits.
    limits = stroke_limits()
    elevation_max = page.evaluate("document.getElementById('elevation').max")
    assert elevation_max == str(math.floor(math.degrees(limits.max_elevation)))
    spin = page.locator("#spin").bounding_box()
    assert spin is not None
    page.mouse.click(spin["x"] + spin["width"] - 2, spin["y"] + 8)  # the rim: beyond the disc
    side, height = page.evaluate("[window.nb.side, window.nb.height]")
    assert 0.9 * limits.miscue_limit < math.hypot(side, height) <= limits.miscue_limit + 0.01
    page.mouse.click(spin["x"] + spin["width"] / 2, spin["y"] + spin["height"] / 2)
    # Ball in hand on the break: the foot of the table is refused, the kitchen accepted.
    _drag_cue(page, (0.5, 1.6))
    expect(page.locator("#hint")).to_have_class("bad")
    page.screenshot(path=artifacts / "02-cue-ball-invalid.png")
    page.mouse.up()
    _drag_cue(page, (0.55, 0.5))
    expect(page.locator("#hint")).to_have_class("good")
    page.mouse.up()
    page.screenshot(path=artifacts / "03-cue-ball-valid.png")
    placed = page.evaluate("window.nb.cue || window.nb.pendingCue")
    assert abs(placed[0] - 0.55) < 0.01
    assert abs(placed[1] - 0.5) < 0.01
    # The break.
    _act(page, "#btn-shoot")
    expect(page.locator("#ruling-text")).not_to_be_empty()
    assert page.evaluate("window.nbPerf.latencies.length") == 1
    page.screenshot(path=artifacts / "04-after-break.png")
    # A push out, then the opponent passes.
    expect(page.locator("#pushout")).to_be_enabled()
    page.check("#pushout")
    page.fill("#power", "20")
    page.dispatch_event("#power", "input")
    page.click("#btn-shoot")
    expect(page.locator("#choice")).to_be_visible(timeout=30_000)
    page.screenshot(path=artifacts / "05-push-out-choice.png")
    _act(page, "#choice-pass")
    expect(page.locator("#history li")).to_have_count(3)
    # A shot.
    page.fill("#power", "45")
    page.dispatch_event("#power", "input")
    _act(page, "#btn-shoot")
    expect(page.locator("#history li")).to_have_count(4)
    english = page.inner_text("#ruling-text")
    ruling = page.evaluate("window.nb.ruling")
    assert english == ruling["explanation"]["en"]
    # French, then Polish: the page and the referee.
    page.select_option("#lang", "fr")
    expect(page.locator("#btn-shoot")).to_have_text("Jouer")
    expect(page.locator("#ruling-text")).to_have_text(ruling["explanation"]["fr"])
    page.screenshot(path=artifacts / "06-french.png")
    page.select_option("#lang", "pl")
    expect(page.locator("#btn-shoot")).to_have_text("Uderz")
    expect(page.locator("#ruling-text")).to_have_text(ruling["explanation"]["pl"])
    page.screenshot(path=artifacts / "07-polish.png")
    page.select_option("#lang", "en")
    # A closed tab (here a reload) finds the match where it stood.
    layout = page.evaluate("window.nb.layout")
    page.reload()
    _idle(page)
    expect(page.locator("#history li")).to_have_count(4)
    assert page.evaluate("window.nb.layout") == layout
    expect(page.locator("#ruling-text")).to_have_text(ruling["explanation"]["en"])


def test_scorekeeper_and_practice(page: Page, server_url: str, artifacts: Path) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "score", 1, 1)
    expect(page.locator("#table")).to_be_visible()  # to click on; the ball buttons remain
    page.click("#sk-chips summary")
    page.click("#sk-first .ballchip[data-ball='1']")  # an illegal break (clause 3)
    page.click("#sk-submit")
    expect(page.locator("#history li")).to_have_count(1)
    page.click("#sk-first .ballchip[data-ball='1']")  # a legal safety by player 2
    page.click("#sk-rails .ballchip[data-ball='1']")
    page.click("#sk-submit")
    expect(page.locator("#history li")).to_have_count(2)
    expect(page.locator("#warning")).to_be_hidden()
    page.click("#sk-submit")  # player 1 hits nothing: a second foul in a row
    expect(page.locator("#warning")).to_be_visible()
    expect(page.locator("#ruling .fouls")).to_contain_text("clause 7")
    page.screenshot(path=artifacts / "09-scorekeeper-warning.png")
    page.click("#sk-first .ballchip[data-ball='1']")
    page.click("#sk-pocketed .ballchip[data-ball='9']")
    page.click("#sk-submit")
    expect(page.locator("#match-over")).to_be_visible()
    expect(page.locator("#ruling-text")).to_contain_text("9")
    expect(page.locator("#match-over-screen")).to_be_visible()  # the statistics, over the page
    page.screenshot(path=artifacts / "10-scorekeeper-match-over.png")
    page.click("#mo-new")
    page.locator("input[name=mode][value=practice]").check()
    page.click("#lobby-start")
    expect(page.locator("#btn-analysis")).to_be_visible()
    _idle(page)
    _act(page, "#btn-shoot")
    page.click("#btn-undo")
    expect(page.locator("#history li")).to_have_count(0)


def test_a_short_match_against_the_computer(page: Page, server_url: str, artifacts: Path) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "computer", 1, 3, rate=30)  # a whole match: faster still
    for _ in range(40):
        # The page may rest between two of the computer's shots: wait for the end, our turn or
        # our answer to the computer's push out.
        page.wait_for_function(
            "document.querySelector('#match-over') !== null"
            " || document.querySelector('#choice').open"
            " || (!document.querySelector('#btn-shoot').disabled && window.nbIdle())",
            timeout=60_000,
        )
        if page.locator("#match-over").count():
            break
        if page.evaluate("document.querySelector('#choice').open"):  # the computer pushed out
            _act(page, "#choice-shoot")
            continue
        _act(page, "#btn-shoot")
    expect(page.locator("#match-over")).to_be_visible()
    page.screenshot(path=artifacts / "08-match-over.png")
    # A dropped connection: the page rejoins by itself and finds the match as it ended.
    history = page.locator("#history li").count()
    page.evaluate("window.nb.ws.close()")
    page.wait_for_function("window.nb.ws.readyState === 1 && window.nb.state !== null")
    expect(page.locator("#match-over")).to_be_visible()
    expect(page.locator("#history li")).to_have_count(history)
    # every shot's latency was measured (the figures themselves are benchmarks/web.py's: a clock
    # in a pass/fail test fails on a busy machine, not on a slow page)
    latencies = page.evaluate("window.nbPerf.latencies")
    assert latencies
    assert all(isinstance(ms, int | float) and ms >= 0 for ms in latencies)


def _click_at(page: Page, x: float, y: float) -> None:
    """Click the table at (x, y) m."""
    px, py = page.evaluate("([x, y]) => window.nbToClient(x, y)", [x, y])
    page.mouse.click(px, py)


def _click_ball(page: Page, ball: int) -> None:
    _click_at(page, *page.evaluate("window.nbScoreSpots().balls")[str(ball)])


def test_scorekeeper_enters_the_shot_by_clicking_on_the_table(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "score", 2, 1)
    pockets = page.evaluate("window.nbScoreSpots().pockets")
    # The break: the 1 first, the 4 into the foot-left pocket, the 2 to a cushion.
    _click_ball(page, 1)
    page.check("input[name=sk-tool][value=pocket]")
    _click_at(page, *pockets["foot_left"])  # a pocket before a ball: the page asks for a ball
    expect(page.locator("#sk-help")).to_have_class("small bad")
    _click_ball(page, 4)
    _click_at(page, *pockets["foot_left"])
    page.check("input[name=sk-tool][value=rail]")
    _click_ball(page, 2)
    _click_at(page, 1.29, 1.5)  # on the wood beyond the right-hand cushion
    expect(page.locator("#sk-summary")).to_have_text(
        "Hit first: 1 · Pocketed: 4 in foot left · Touched a rail: 2 · Off the table: —"
    )
    page.screenshot(path=artifacts / "12-scorekeeper-table.png")
    page.click("#sk-submit")
    expect(page.locator("#history li")).to_have_count(1)
    expect(page.locator("#ruling .legal")).to_have_text("Legal")
    assert page.evaluate("window.nb.state.on_table") == [1, 2, 3, 5, 6, 7, 8, 9]
    expect(page.locator("#sk-summary")).to_contain_text("Hit first: no ball hit")
    # The breaker again: a massé around the 2 moves it (clause 11), the cue ball to a rail.
    _click_ball(page, 1)
    page.check("input[name=sk-tool][value=rail]")
    _click_ball(page, 0)
    _click_at(page, 0.6, -0.05)
    page.check("input[name=sk-tool][value=off]")
    _click_ball(page, 7)  # off the table, then back on: a second click takes it back
    _click_ball(page, 7)
    page.check("#sk-obstruction")
    page.select_option("#lang", "fr")
    expect(page.locator("#sk-summary")).to_contain_text(
        "boule faisant obstacle déplacée (règle 11)"
    )
    page.select_option("#lang", "pl")
    expect(page.locator("#sk-summary")).to_contain_text("(punkt 11)")
    page.select_option("#lang", "en")
    before = page.evaluate("window.nb.state.to_act")
    page.click("#sk-submit")
    expect(page.locator("#history li")).to_have_count(2)
    expect(page.locator("#ruling .fouls")).to_have_text("Foul: obstructing ball moved (clause 11)")
    ruling = page.evaluate("window.nb.ruling")
    assert ruling["fouls"] == [{"code": "obstruction_moved", "clause": 11}]
    assert page.evaluate("window.nb.state.to_act") == 1 - before
    expect(page.locator("#ruling-text")).to_have_text(ruling["explanation"]["en"])
    page.screenshot(path=artifacts / "13-scorekeeper-clause-11.png")


def _free_spot(layout: dict[str, list[float]]) -> tuple[float, float]:
    for y in np.arange(0.3, 2.3, 0.1):
        for x in np.arange(0.2, 1.1, 0.1):
            if all(math.hypot(x - bx, y - by) > 0.12 for bx, by in layout.values()):
                return float(x), float(y)
    raise AssertionError("no free spot")  # pragma: no cover


def _drag(page: Page, start: tuple[float, float], to: tuple[float, float]) -> None:
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move((start[0] + to[0]) / 2, (start[1] + to[1]) / 2, steps=4)
    page.mouse.move(*to, steps=4)
    page.mouse.up()


def _updated(page: Page, action: object) -> None:
    """Do something that the server answers with a new position, and wait for it."""
    page.evaluate("window.nb.updated = false")
    action()  # type: ignore[operator]
    page.wait_for_function("window.nb.updated === true", timeout=30_000)


def test_practice_tray_position_kept_and_analysis(
    page: Page, server_url: str, artifacts: Path
) -> None:
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "practice", 1, 4)
    _act(page, "#btn-shoot")  # the break
    layout = page.evaluate("window.nb.layout")
    ball = min(int(b) for b in layout if b not in ("0", "9"))
    to_client = "([x, y]) => window.nbToClient(x, y)"
    # Dragged off the table, a ball goes to the tray and the referee no longer counts it.
    start = page.evaluate(to_client, layout[str(ball)])
    _updated(page, lambda: _drag(page, start, page.evaluate(to_client, [-0.06, 1.2])))
    expect(page.locator(f"#tray-balls .ballchip[data-ball='{ball}']")).to_be_visible()
    assert ball not in page.evaluate("window.nb.state.on_table")
    # Dragged back from the tray onto a free spot, it is on the table again.
    spot = _free_spot(page.evaluate("window.nb.layout"))
    chip = page.locator(f"#tray-balls .ballchip[data-ball='{ball}']").bounding_box()
    assert chip is not None
    centre = (chip["x"] + chip["width"] / 2, chip["y"] + chip["height"] / 2)
    _updated(page, lambda: _drag(page, centre, page.evaluate(to_client, list(spot))))
    expect(page.locator(f"#tray-balls .ballchip[data-ball='{ball}']")).to_have_count(0)
    assert ball in page.evaluate("window.nb.state.on_table")
    assert page.evaluate("window.nb.layout")[str(ball)] == pytest.approx(spot, abs=0.01)
    position = page.evaluate("window.nb.layout")
    # A reload finds the position (the server still has it) ...
    page.reload()
    _idle(page)
    assert page.evaluate("window.nb.layout") == position
    # ... and so does a page whose practice the server has forgotten: it sets it up again.
    first_match = page.evaluate("window.nb.match")
    page.evaluate(
        """() => { const kept = JSON.parse(localStorage.getItem('nineball.practice'));
                   kept.match = 'forgotten-match';
                   localStorage.setItem('nineball.practice', JSON.stringify(kept)); }"""
    )
    page.evaluate("window.nb.updated = false; location.hash = 'm=forgotten-match&t=gone'")
    page.wait_for_function(
        "([m]) => window.nb.match !== 'forgotten-match' && window.nb.match !== m"
        " && window.nb.state && window.nb.state.phase === 'shot' && window.nb.updated",
        arg=[first_match],
        timeout=30_000,
    )
    _idle(page)
    expect(page.locator("#status")).to_have_text("Practice position restored")
    restored = page.evaluate("window.nb.layout")
    assert {b: p for b, p in restored.items() if b != "0"} == {
        b: p for b, p in position.items() if b != "0"
    }
    assert ball in page.evaluate("window.nb.state.on_table")
    # The analysis: the best shots drawn on the table, with their odds listed.
    page.click("#btn-analysis")
    page.wait_for_function("window.nb.analysis && window.nb.analysis.shots", timeout=30_000)
    shots = page.evaluate("window.nb.analysis.shots")
    assert 1 <= len(shots) <= 3
    expect(page.locator("#analysis-list li")).to_have_count(len(shots))
    expect(page.locator("#analysis-list li").first).to_contain_text(
        f"success {round(shots[0]['success'] * 100)}%"
    )
    # What each shot tries reads in the page's language.
    best = shots[0]
    assert best["ball"] in range(1, 10)
    if best["kind"] in ("direct", "bank", "combo"):
        expect(page.locator("#analysis-list li").first).to_contain_text(f"the {best['ball']}")
    page.select_option("#lang", "fr")
    expect(page.locator("#analysis-list li").first).to_contain_text("réussite")
    if best["kind"] == "direct":
        expect(page.locator("#analysis-list li").first).to_contain_text(f"la {best['ball']} → ")
    page.select_option("#lang", "en")
    page.screenshot(path=artifacts / "11-practice-analysis.png")


def test_practice_a_jump_off_the_table(page: Page, server_url: str, artifacts: Path) -> None:
    # The page's own controls: the cue raised 45 degrees with the elevation slider. The 9 goes
    # in, the cue ball flies over the foot rail: clause 10, the 9 respotted, the cue in hand.
    page.set_viewport_size({"width": 1400, "height": 900})
    _start(page, server_url, "practice", 1, 4)
    cue, nine = [1.13, 2.2976], [1.17, 2.367]
    setup = "([b]) => window.nb.ws.send(JSON.stringify({type: 'setup', balls: b}))"
    _updated(page, lambda: page.evaluate(setup, [{"0": cue, "9": nine}]))
    _idle(page)
    aim = math.atan2(nine[1] - cue[1], nine[0] - cue[0])
    page.evaluate("([a]) => { window.nb.aim = a; window.nb.aimTouched = true; }", [aim])
    page.fill("#elevation", "45")
    page.dispatch_event("#elevation", "input")
    expect(page.locator("#elevation-out")).to_have_text("45°")
    page.fill("#power", "51")  # about 3.9 m/s
    page.dispatch_event("#power", "input")
    _act(page, "#btn-shoot")
    expect(page.locator("#ruling .fouls")).to_have_text("Foul: cue ball off the table (clause 10)")
    assert page.evaluate("window.nb.ruling.respotted") == [9]
    layout = page.evaluate("window.nb.layout")
    assert "0" not in layout
    assert layout["9"] != nine
    assert page.evaluate("window.nb.state.cue_ball") == "anywhere"
    page.screenshot(path=artifacts / "14-practice-jump-off-the-table.png")
