"""A match on a network, in real browsers: two seats with their secret links and a spectator.

The server listens on every interface (as ``nineball play --host 0.0.0.0`` does) and the pages
reach it through the machine's network address when it has one. The access log is on, to show
that no secret token ever reaches a logged URL.
"""

from __future__ import annotations

import logging
import socket
from collections.abc import Iterator

import pytest
from playwright.sync_api import Browser, Page, expect

from nineball.web.server import make_server
from tests.web.conftest import start_in_thread

pytestmark = pytest.mark.browser


class _Lines(logging.Handler):
    def __init__(self) -> None:
        super().__init__()
        self.lines: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.append(record.getMessage())


def _network_address() -> str:
    """This machine's address on its network (no packet is sent), else loopback."""
    probe = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
    try:
        probe.connect(("192.0.2.1", 9))
        return str(probe.getsockname()[0])
    except OSError:  # pragma: no cover - a machine without a network
        return "127.0.0.1"
    finally:
        probe.close()


@pytest.fixture(scope="module")
def network(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, _Lines]]:
    lines = _Lines()
    server, sock, _ = make_server(
        "0.0.0.0", 0, store_path=tmp_path_factory.mktemp("net") / "web.sqlite3",
        allow_network=True, access_log=True,
    )  # fmt: skip
    port = sock.getsockname()[1]
    thread = start_in_thread(server, sock)
    loggers = [logging.getLogger(name) for name in ("uvicorn.access", "uvicorn.error")]
    for logger in loggers:  # once uvicorn has set its logging up
        logger.addHandler(lines)
    yield f"http://{_network_address()}:{port}", lines
    server.should_exit = True
    thread.join(timeout=10)
    for logger in loggers:
        logger.removeHandler(lines)


def _open(browser: Browser, url: str, *, joined: bool = True) -> Page:
    page = browser.new_context(viewport={"width": 1200, "height": 800}).new_page()
    page.goto(url)
    if joined:
        page.wait_for_function("window.nbIdle && window.nbIdle()", timeout=30_000)
    return page


def _error_after(page: Page, message: dict[str, object]) -> str:
    """Send a message as a page would (bypassing its disabled buttons); the server's refusal."""
    return str(
        page.evaluate(
            """(msg) => new Promise((resolve) => {
                const ws = window.nb.ws;
                const on = (ev) => {
                    const m = JSON.parse(ev.data);
                    if (m.type !== 'error') return;
                    ws.removeEventListener('message', on);
                    resolve(m.message);
                };
                ws.addEventListener('message', on);
                ws.send(JSON.stringify(msg));
            })""",
            message,
        )
    )


STRIKE = {"type": "strike", "speed": 9.0, "aim": 1.55, "elevation": 0.0, "side": 0.0,
          "height": 0.0, "push_out": False, "cue": [0.6, 0.45]}  # fmt: skip


def test_two_seats_and_a_spectator_on_a_network(
    browser: Browser, network: tuple[str, _Lines]
) -> None:
    base, log = network
    lobby = _open(browser, f"{base}/?rate=8", joined=False)
    lobby.locator("input[name=mode][value=network]").check()
    lobby.fill("#name0", "Ann")
    lobby.fill("#name1", "Bob")
    lobby.fill("#race", "2")
    lobby.click("#lobby-start")
    expect(lobby.locator("#links")).to_be_visible()
    links = {k: lobby.input_value(f"#link{k}") for k in ("0", "1", "-watch")}
    lobby.context.close()
    tokens = [links[k].split("&t=")[1] for k in ("0", "1")]
    assert links["-watch"].startswith(base)
    assert "&t=" not in links["-watch"]
    ann = _open(browser, links["0"].replace("/#", "/?rate=8#"))
    bob = _open(browser, links["1"].replace("/#", "/?rate=8#"))
    watcher = _open(browser, links["-watch"].replace("/#", "/?rate=8#"))
    assert ann.evaluate("window.nb.seats") == [0]
    assert bob.evaluate("window.nb.seats") == [1]
    assert watcher.evaluate("window.nb.seats") == []
    # Ann breaks; Bob and the spectator cannot act, not even by sending a stroke themselves.
    expect(ann.locator("#btn-shoot")).to_be_enabled()
    expect(bob.locator("#btn-shoot")).to_be_disabled()
    expect(watcher.locator("#btn-shoot")).to_be_disabled()
    expect(watcher.locator("#hint")).to_have_text("You are watching")
    assert "not your turn" in _error_after(bob, STRIKE)
    assert "spectators cannot act" in _error_after(watcher, STRIKE)
    assert "spectators cannot act" in _error_after(watcher, {"type": "forfeit"})
    assert "unknown message type" in _error_after(bob, {"type": "teleport"})
    assert all(p.evaluate("window.nb.history.length") == 0 for p in (ann, bob, watcher))
    pages = (ann, bob, watcher)
    seen = [p.evaluate("window.nb.received ?? 0") for p in pages]
    ann.click("#btn-shoot")
    for page, before in zip(pages, seen, strict=True):
        page.wait_for_function(
            "([n]) => (window.nb.received ?? 0) > n && window.nbIdle()", arg=[before],
            timeout=30_000,
        )  # fmt: skip
    # Everyone sees the same ruling.
    ruling = ann.evaluate("window.nb.ruling")
    assert ruling["shooter"] == 0
    for page in pages:
        expect(page.locator("#ruling-text")).to_have_text(ruling["explanation"]["en"])
        expect(page.locator("#history li")).to_have_count(1)
    # The connection of the seat not to act drops; the other plays meanwhile; the dropped page
    # rejoins where the match now stands.
    actor, dropped = (ann, bob) if ann.evaluate("window.nb.state.to_act") == 0 else (bob, ann)
    seat = dropped.evaluate("window.nb.seats")
    dropped.evaluate("window.nb.closedOnPurpose = true; window.nb.ws.close()")
    dropped.wait_for_function("window.nb.ws.readyState === 3")
    before = actor.evaluate("window.nb.received ?? 0")
    actor.click("#btn-shoot")
    actor.wait_for_function(
        "([n]) => (window.nb.received ?? 0) > n && window.nbIdle()", arg=[before], timeout=30_000
    )
    state = actor.evaluate("window.nb.state")
    history = actor.evaluate("window.nb.history.length")
    assert history == 2
    assert dropped.evaluate("window.nb.history.length") == 1  # it missed the shot
    dropped.evaluate("window.nb.closedOnPurpose = false; window.nb.ws.onclose()")
    dropped.wait_for_function(
        "([n]) => window.nb.ws.readyState === 1 && window.nb.history.length === n && nbIdle()",
        arg=[history], timeout=30_000,
    )  # fmt: skip
    assert dropped.evaluate("window.nb.state") == state
    assert dropped.evaluate("window.nb.layout") == actor.evaluate("window.nb.layout")
    assert dropped.evaluate("window.nb.seats") == seat
    expect(dropped.locator("#history li")).to_have_count(2)
    for page in pages:
        page.context.close()
    # The access log saw the page and the socket, and never a token.
    assert any("GET /static/main.js" in line for line in log.lines)
    assert any("/ws" in line for line in log.lines)
    assert not [line for line in log.lines for token in tokens if token in line]
