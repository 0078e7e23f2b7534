"""Playing over a network in real browsers: links with copy buttons and QR codes, the opponent's
aim shown live, spectators without controls, the page a bad link opens, and a stored match
replayed on the table from the history.

The server listens on every interface (``nineball play --host 0.0.0.0``); the lobby is opened
at 127.0.0.1, and the links it gives must carry the address other machines reach it at.
"""

from __future__ import annotations

import re
import socket
from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page, expect

from nineball.web.server import make_server
from tests.web.conftest import start_in_thread
from tests.web.test_browser import _act, _idle, _start

pytestmark = pytest.mark.browser


@pytest.fixture(scope="module")
def every_interface(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, str]]:
    """The server on 0.0.0.0: its loopback origin and the origin its links must carry."""
    server, sock, url = make_server(
        "0.0.0.0", 0, store_path=tmp_path_factory.mktemp("net") / "web.sqlite3",
        allow_network=True,
    )  # fmt: skip
    port = sock.getsockname()[1]
    thread = start_in_thread(server, sock)
    yield f"http://127.0.0.1:{port}", url.rstrip("/")
    server.should_exit = True
    thread.join(timeout=10)


SEE_REPLAYS = """() => {
  let anim = window.nb.anim;
  window.nbReplaysSeen = 0;
  Object.defineProperty(window.nb, "anim", {
    configurable: true,
    get: () => anim,
    set: (value) => {
      anim = value;
      if (value && value.replay === true) window.nbReplaysSeen += 1;
    },
  });
}"""
"""Count the replay animations the page starts (a setter on the page's state, for the test)."""


def _page(browser: Browser, url: str, *, joined: bool = True) -> Page:
    context = browser.new_context(viewport={"width": 1300, "height": 820})
    page = context.new_page()
    page.goto(url)
    if joined:
        _idle(page)
    return page


def _aim_at(page: Page, x: float, y: float) -> float:
    """Move the mouse over table point (x, y) m; the page's aim then."""
    cx, cy = page.evaluate("([x, y]) => window.nbToClient(x, y)", [x, y])
    page.mouse.move(cx, cy, steps=3)
    return float(page.evaluate("window.nb.aim"))


def _reachable(base: str) -> bool:
    host, port = base.removeprefix("http://").rsplit(":", 1)
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=2):
            return True
    except OSError:  # pragma: no cover - a machine whose network address is not its own
        return False


def test_links_live_aim_and_a_spectator_without_controls(
    browser: Browser, every_interface: tuple[str, str], artifacts: Path
) -> None:
    local, public = every_interface
    lobby = _page(browser, f"{local}/?rate=8", joined=False)
    lobby.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=local)
    lobby.locator("input[name=mode][value=network]").check()
    lobby.fill("#name0", "Ann")
    lobby.fill("#name1", "Bob")
    lobby.click("#lobby-start")
    dialog = lobby.locator("#links")
    expect(dialog).to_be_visible()
    links = {k: lobby.input_value(f"#link{k}") for k in ("0", "1", "-watch")}
    # The links carry the server's network address, never the loopback the lobby was opened at.
    for link in links.values():
        assert link.startswith(f"{public}/#m="), link
    assert "127.0.0.1" not in public
    assert "&t=" in links["0"]
    assert "&t=" in links["1"]
    assert "&t=" not in links["-watch"]
    # A QR code per link, drawn by the server; a copy button per link that copies it.
    qr = dialog.locator("img.qr")
    expect(qr).to_have_count(3)
    lobby.wait_for_function(
        "() => [...document.querySelectorAll('#links img.qr')]"
        ".every((i) => i.complete && i.naturalWidth > 100)"
    )
    expect(qr.first).to_have_attribute("alt", "QR code: Player 1's link")
    dialog.locator(".link[data-for=link1] button.copy").click()
    expect(lobby.locator("#links-copied")).to_have_text("Copied")
    assert lobby.evaluate("navigator.clipboard.readText()") == links["1"]
    lobby.screenshot(path=artifacts / "n1-links-dialog.png")
    lobby.context.close()

    base = public if _reachable(public) else local
    ann = _page(browser, links["0"].replace(public, base).replace("/#", "/?rate=8#"))
    bob = _page(browser, links["1"].replace(public, base).replace("/#", "/?rate=8#"))
    watcher = _page(browser, links["-watch"].replace(public, base).replace("/#", "/?rate=8#"))
    # The spectator: table, scoreboard and referee as for the players; no control at all.
    expect(watcher.locator("#spectating")).to_be_visible()
    expect(watcher.locator("#spectating")).to_have_text("Spectating")
    for selector in ("#btn-shoot", "#pushout", "#btn-forfeit", "#btn-undo", "#btn-analysis",
                     "#power", "#spin"):  # fmt: skip
        expect(watcher.locator(selector)).to_be_hidden()
    for selector in ("#table", "#scoreboard .seat >> nth=1", "#referee"):
        expect(watcher.locator(selector)).to_be_visible()
    expect(bob.locator("#btn-shoot")).to_be_visible()  # a seat keeps its controls
    expect(bob.locator("#spectating")).to_be_hidden()
    expect(ann.locator("#btn-shoot")).to_be_enabled()
    # Ann aims: Bob and the spectator see her cue move, live.
    for point in [(0.3, 1.6), (1.0, 1.4), (0.2, 0.9)]:
        aim = _aim_at(ann, *point)
        for page in (bob, watcher):
            page.wait_for_function(
                "([a]) => window.nb.remoteAim && Math.abs(window.nb.remoteAim.aim - a) < 1e-9",
                arg=[aim], timeout=10_000,
            )  # fmt: skip
    remote = watcher.evaluate("window.nb.remoteAim")
    assert set(remote) == {"cue", "aim", "elevation", "side", "height", "power", "pull"}
    assert remote["power"] == pytest.approx(
        ann.evaluate("document.getElementById('power').value / 100")
    )
    assert ann.evaluate("window.nb.remoteAim") is None  # never sent back to her
    watcher.screenshot(path=artifacts / "n2-spectator-sees-the-aim.png")
    bob.screenshot(path=artifacts / "n3-opponent-sees-the-aim.png")
    # Ann breaks: her aim goes with the shot; then whoever is to act aims from where the cue
    # ball now lies, and the two other pages see that one.
    before = [p.evaluate("window.nb.received ?? 0") for p in (bob, watcher)]
    _act(ann, "#btn-shoot")
    for page, n in zip((bob, watcher), before, strict=True):
        page.wait_for_function(
            "([n]) => (window.nb.received ?? 0) > n && window.nbIdle()", arg=[n], timeout=30_000
        )
    to_act = ann.evaluate("window.nb.state.to_act")
    actor, other = (ann, bob) if to_act == 0 else (bob, ann)
    expect(actor.locator("#btn-shoot")).to_be_enabled()
    for page in (other, watcher):
        page.wait_for_function(
            """() => { const r = window.nb.remoteAim, c = window.nb.cue || window.nb.pendingCue;
                       return r && c && Math.hypot(r.cue[0] - c[0], r.cue[1] - c[1]) < 1e-9; }""",
            timeout=10_000,
        )
    assert actor.evaluate("window.nb.remoteAim") is None
    # The links again, from the Links button: Ann's own and the spectators' (not Bob's secret).
    expect(ann.locator("#btn-links")).to_be_visible()
    ann.click("#btn-links")
    expect(ann.locator("#links")).to_be_visible()
    expect(ann.locator(".link[data-for=link1]")).to_be_hidden()
    assert ann.input_value("#link0").endswith(links["0"].split("/#")[1])
    assert ann.input_value("#link-watch").endswith(links["-watch"].split("/#")[1])
    ann.screenshot(path=artifacts / "n4-links-again.png")
    # Copy where the page has no clipboard (plain http on a network): the link is selected.
    ann.evaluate("Object.defineProperty(navigator, 'clipboard', { value: undefined })")
    ann.locator(".link[data-for=link-watch] button.copy").click()
    expect(ann.locator("#links-copied")).to_have_text(
        re.compile("^(Copied|The link is selected: press Ctrl\\+C to copy it)$")
    )
    selected = ann.evaluate(
        "(() => { const i = document.getElementById('link-watch');"
        " return [i.selectionStart, i.selectionEnd, document.activeElement.id]; })()"
    )
    assert selected == [0, len(ann.input_value("#link-watch")), "link-watch"]
    for page in (ann, bob, watcher):
        page.context.close()


def test_a_bad_link_says_so_and_offers_a_new_match(
    browser: Browser, every_interface: tuple[str, str], artifacts: Path
) -> None:
    local, _ = every_interface
    page = _page(browser, f"{local}/#m=no-such-match&t=whatever", joined=False)
    card = page.locator("#bad-link")
    expect(card).to_be_visible()
    expect(card).to_contain_text("This link is not valid, or its match is over.")
    expect(page.locator("#status")).to_have_text("")
    page.screenshot(path=artifacts / "n5-bad-link.png")
    page.click("#bad-link-new")
    expect(card).to_be_hidden()
    expect(page.locator("#lobby")).to_be_visible()
    # A real match with a token it never gave out: the same page, in French too.
    page.locator("input[name=mode][value=network]").check()
    page.click("#lobby-start")
    match = page.evaluate("window.nb.match")
    page.context.close()
    page = _page(browser, f"{local}/#m={match}&t=forged", joined=False)
    # As a person would: the refusal shown first (the page's modules have run), then French.
    expect(page.locator("#bad-link")).to_be_visible()
    page.select_option("#lang", "fr")
    expect(page.locator("#bad-link")).to_contain_text("Ce lien n'est pas valide")
    expect(page.locator("#bad-link-new")).to_have_text("Commencer un nouveau match")
    page.context.close()


def test_history_replays_a_finished_match_shot_by_shot(
    browser: Browser, every_interface: tuple[str, str], artifacts: Path
) -> None:
    local, _ = every_interface
    page = _page(browser, f"{local}/?rate=8&seed=7", joined=False)
    # A finished match: Rita breaks, the next stroke is played, then the game is conceded.
    page.locator("input[name=mode][value=local]").check()
    page.fill("#name0", "Rita")
    page.fill("#name1", "Sam")
    page.fill("#race", "1")
    page.click("#lobby-start")
    _idle(page)
    _act(page, "#btn-shoot")
    if page.evaluate("window.nb.state.winner") is None:
        _act(page, "#btn-shoot")
    while page.evaluate("window.nb.state.winner") is None:
        if page.locator("#rack-card").is_visible():
            page.click("#rack-close")
        page.click("#btn-forfeit")
        _act(page, "#concede-yes")
    played = page.evaluate("window.nb.history.length")
    finished = page.evaluate("window.nb.history")
    page.keyboard.press("Escape")
    # A live match to come back to.
    _start(page, local, "local", 3, 8)
    live = page.evaluate("window.nb.match")
    page.click("#btn-history")
    history = page.locator("#history-page")
    expect(history).to_be_visible()
    expect(history.locator("#opponents-table tr[data-opponent=human]")).to_have_count(1)
    expect(history.locator("#opponents-table th").first).to_have_text("Opponent")
    history.screenshot(path=artifacts / "n6-history-by-opponent.png")
    row = history.locator("#matches-table tr", has_text="Rita").first
    # every animation the page starts is seen, however short (the tests play animations fast,
    # and on a loaded machine a poll could come after a replay's whole animation)
    page.evaluate(SEE_REPLAYS)
    row.locator("button.replay-match").click()
    expect(history).to_be_hidden()
    bar = page.locator("#replay-bar")
    expect(bar).to_be_visible()
    expect(page.locator("#replay-title")).to_contain_text(f"shot 1 of {played}")
    expect(page.locator("#controls")).to_be_hidden()
    # the replay of shot 1 animates (once the replay's pieces have arrived)
    page.wait_for_function("window.nbReplaysSeen > 0", timeout=15_000)
    page.wait_for_timeout(250)
    page.screenshot(path=artifacts / "n7-replay-shot-1.png")
    page.wait_for_function("!window.nb.anim", timeout=30_000)
    expect(page.locator("#ruling-text")).to_have_text(finished[0]["explanation"]["en"])
    expect(page.locator("#replay-prev")).to_be_disabled()
    page.click("#replay-next")
    expect(page.locator("#replay-title")).to_contain_text(f"shot 2 of {played}")
    page.wait_for_function("!window.nb.anim", timeout=30_000)
    expect(page.locator("#ruling-text")).to_have_text(finished[1]["explanation"]["en"])
    page.click("#replay-prev")
    expect(page.locator("#replay-title")).to_contain_text(f"shot 1 of {played}")
    page.click("#replay-all")
    page.wait_for_function(
        "([n]) => document.getElementById('replay-title').textContent.includes(`shot ${n} of`)"
        " && !window.nb.anim", arg=[played], timeout=60_000,
    )  # fmt: skip
    expect(page.locator("#replay-next")).to_be_disabled()
    expect(page.locator("#history li")).to_have_count(played)
    page.screenshot(path=artifacts / "n8-replay-end.png")
    # Close: back to the live match, its controls working.
    page.click("#replay-close")
    expect(bar).to_be_hidden()
    _idle(page)
    assert page.evaluate("window.nb.match") == live
    assert page.evaluate("window.nb.mode") == "local"
    expect(page.locator("#btn-shoot")).to_be_visible()
    expect(page.locator("#btn-shoot")).to_be_enabled()
    expect(page.locator("#power")).to_be_enabled()
    expect(page.locator("#history li")).to_have_count(0)
    _act(page, "#btn-shoot")  # and it plays
    assert page.evaluate("window.nb.history.length") == 1
    page.screenshot(path=artifacts / "n9-back-to-live.png")
    page.context.close()


def test_a_network_rematch_takes_the_other_seat_along(
    browser: Browser, every_interface: tuple[str, str], artifacts: Path
) -> None:
    local, _ = every_interface
    ann = _page(browser, f"{local}/?rate=8", joined=False)
    ann.locator("input[name=mode][value=network]").check()
    ann.fill("#name0", "Ann")
    ann.fill("#name1", "Bob")
    ann.fill("#race", "1")
    ann.click("#lobby-start")
    expect(ann.locator("#links")).to_be_visible()
    bob_link = ann.input_value("#link1").replace(
        ann.input_value("#link1").split("/#")[0], local
    )  # the same link, opened here at loopback
    ann.click("#links button[data-i18n=close], #links form button")
    _idle(ann)
    bob = _page(browser, bob_link)
    first = ann.evaluate("window.nb.match")
    ann.click("#btn-forfeit")
    _act(ann, "#concede-yes")  # Ann concedes the only game: Bob wins the match
    for page in (ann, bob):
        expect(page.locator("#match-over-screen")).to_be_visible()
    bob.screenshot(path=artifacts / "n10-match-over-bob.png")
    bob.click("#mo-rematch")
    # Both pages are in the new match, each in its own seat, without a new link.
    for page, seats in ((ann, [0]), (bob, [1])):
        page.wait_for_function(
            "([m]) => window.nb.match !== m && window.nb.state && window.nb.state.winner === null",
            arg=[first],
        )
        expect(page.locator("#match-over-screen")).to_be_hidden()
        assert page.evaluate("window.nb.seats") == seats
    assert ann.evaluate("window.nb.match") == bob.evaluate("window.nb.match")
    assert ann.evaluate("location.hash").startswith(f"#m={ann.evaluate('window.nb.match')}")
    _idle(ann)
    ann.screenshot(path=artifacts / "n11-rematch-ann.png")
    ann.context.close()
    bob.context.close()
