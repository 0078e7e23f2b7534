"""Links that work on a network and their QR codes, and the opponent's aim relayed live."""

from __future__ import annotations

import json
import urllib.request
from pathlib import Path
from typing import Any

import pytest
import segno
from fastapi.testclient import TestClient

from nineball.errors import ProtocolError
from nineball.web.app import AIM_BURST, create_app
from nineball.web.links import MAX_LINK_CHARS, check_link, link_base, qr_svg
from nineball.web.server import make_server
from tests.web.conftest import TEST_HOSTS, start_in_thread
from tests.web.test_app import _break, _join

PUBLIC = "10.1.2.3"
"""The network address the tests' server says it is reached at."""


def _client(tmp_path: Path, base_url: str, **kwargs: Any) -> TestClient:
    app = create_app(
        tmp_path / "web.sqlite3", warm_up=False,
        allowed_hosts=kwargs.pop("allowed_hosts", TEST_HOSTS | {PUBLIC}), **kwargs,
    )  # fmt: skip
    return TestClient(app, base_url=base_url)


def test_a_link_carries_the_host_the_server_was_reached_at() -> None:
    assert link_base("http", "192.168.1.5:8933", PUBLIC) == "http://192.168.1.5:8933"
    assert link_base("http", "Pool-Room.local:8933", None) == "http://pool-room.local:8933"
    # A loopback name means nothing on another machine: the network address instead...
    assert link_base("http", "127.0.0.1:8933", PUBLIC) == f"http://{PUBLIC}:8933"
    assert link_base("http", "localhost:8933", "fe80::1") == "http://[fe80::1]:8933"
    assert link_base("https", "[::1]:8933", PUBLIC) == f"https://{PUBLIC}:8933"
    # ...unless the server serves loopback only, where nobody else could follow the link.
    assert link_base("http", "127.0.0.1:8933", None) == "http://127.0.0.1:8933"
    for hostile in ("evil.example/x", 'a"><script>', "a b", "", "host:port", "x@y"):
        with pytest.raises(ProtocolError, match="cannot be put in a link"):
            link_base("http", hostile, PUBLIC)


def test_the_new_match_and_the_base_route_give_the_links_origin(tmp_path: Path) -> None:
    with _client(tmp_path, "http://127.0.0.1:8933", public_host=PUBLIC) as client:
        created = client.post("/api/matches", json={"mode": "network"}).json()
        assert created["base"] == f"http://{PUBLIC}:8933"
        assert client.get("/api/base").json() == {"base": f"http://{PUBLIC}:8933"}
        reached = client.get("/api/base", headers={"host": f"{PUBLIC}:8933"}).json()
        assert reached == {"base": f"http://{PUBLIC}:8933"}
        # A Host this server does not serve is refused before any link is made of it.
        refused = client.get("/api/base", headers={"host": "evil.example:8933"})
        assert refused.status_code == 400
        assert "not served here" in refused.json()["error"]
        refused = client.post("/api/matches", json={"mode": "network"}, headers={"host": "evil"})
        assert refused.status_code == 400
    with _client(tmp_path, "http://127.0.0.1:8933", allowed_hosts={"*"}) as client:
        # Serving any host, a Host that is no host name still never reaches a link.
        refused = client.get("/api/base", headers={"host": "a<b>:1"})
        assert refused.status_code == 400
        assert "cannot be put in a link" in refused.json()["error"]
        assert client.get("/api/base").json() == {"base": "http://127.0.0.1:8933"}


def test_a_server_on_every_interface_never_links_to_loopback(tmp_path: Path) -> None:
    server, sock, url = make_server(
        "0.0.0.0", 0, store_path=tmp_path / "web.sqlite3", allow_network=True
    )
    port = sock.getsockname()[1]
    thread = start_in_thread(server, sock)
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/api/base", timeout=30) as reply:
            base = json.loads(reply.read())["base"]
    finally:
        server.should_exit = True
        thread.join(timeout=10)
    assert "127.0.0.1" not in base
    assert base == url.rstrip("/")  # the address the server printed


def test_the_qr_code_of_a_link_to_this_server(tmp_path: Path) -> None:
    with _client(tmp_path, "http://127.0.0.1:8933", public_host=PUBLIC) as client:
        link = f"http://{PUBLIC}:8933/#m=abc&t=secret"
        reply = client.post("/api/qr.svg", json={"url": link})
        assert reply.status_code == 200
        assert reply.headers["content-type"] == "image/svg+xml"
        assert reply.content == qr_svg(link)
        assert reply.content.startswith(b"<svg")
        # the image is the code segno makes of exactly that link
        assert qr_svg(link) != qr_svg(link + "x")
        assert segno.make(link, error="m").designator.endswith("M")
        own = client.post("/api/qr.svg", json={"url": "http://127.0.0.1:8933/#m=abc"})
        assert own.status_code == 200  # the page's own origin too
        for body, words in [
            ({"url": "http://evil.example:8933/#m=abc"}, "only links to this server"),
            ({"url": f"https://{PUBLIC}:8933/"}, "only links to this server"),
            ({"url": "javascript:alert(1)"}, "not an http link"),
            ({"url": f"http://{PUBLIC}:8933/#" + "a" * MAX_LINK_CHARS}, "too long"),
            ({"url": 5}, "must be"),
            ({"url": link, "size": 9}, "must be"),
            ([link], "must be"),
        ]:
            refused = client.post("/api/qr.svg", json=body)
            assert refused.status_code == 400, body
            assert words in refused.json()["error"], body
        refused = client.post("/api/qr.svg", content=b"{not json")
        assert refused.status_code == 400
        refused = client.post("/api/qr.svg", content=b"x" * 5000)
        assert refused.status_code == 400
        assert "too long" in refused.json()["error"]
    with pytest.raises(ProtocolError):
        check_link("http://[::1", {"http://[::1]"})


AIM = {"type": "aim", "cue": [0.6, 0.45], "aim": 1.55, "elevation": 0.05, "side": 0.1,
       "height": -0.2, "power": 0.88, "pull": 0.0}  # fmt: skip


def test_the_aim_reaches_the_other_seat_and_spectators_only(tmp_path: Path) -> None:
    with _client(tmp_path, "http://testserver") as client:
        created = client.post("/api/matches", json={"mode": "network", "seed": 5}).json()
        match, tokens = created["match"], created["tokens"]
        with (
            client.websocket_connect("/ws") as ann,
            client.websocket_connect("/ws") as bob,
            client.websocket_connect("/ws") as watcher,
        ):
            _join(ann, match, tokens["0"])
            _join(bob, match, tokens["1"])
            _join(watcher, match, None)
            ann.send_text(json.dumps(AIM))
            expected = {**AIM, "seat": 0}
            assert bob.receive_json() == expected
            assert watcher.receive_json() == expected
            ann.send_text(json.dumps({"type": "ping"}))
            assert ann.receive_json() == {"type": "pong"}  # nothing came back to the sender
            # Not Bob's turn, and a spectator never aims: refused, relayed to nobody.
            bob.send_text(json.dumps(AIM))
            assert "not your turn" in bob.receive_json()["message"]
            watcher.send_text(json.dumps(AIM))
            assert "spectators cannot act" in watcher.receive_json()["message"]
            for field, value, words in [
                ("power", 1.5, "power must be in [0, 1]"),
                ("pull", -0.1, "pull must be in [0, 1]"),
                ("aim", "1", "aim must be"),
                ("side", 0.6, "side must be in"),
                ("cue", [0.6], "cue must be [x, y]"),
                ("elevation", 3.0, "elevation must be in"),
            ]:
                ann.send_text(json.dumps({**AIM, field: value}))
                assert words in ann.receive_json()["message"], field
            ann.send_text(json.dumps(AIM).replace("0.88", "NaN"))
            assert "power" in ann.receive_json()["message"]
            ann.send_text(json.dumps({**AIM, "who": "me"}))
            assert "unknown field" in ann.receive_json()["message"]
            # The shot after them: the first thing the others get (no refused aim was relayed).
            _break(ann)
            for ws in (ann, bob, watcher):
                assert ws.receive_json()["type"] == "shot"


def test_the_aim_is_rate_limited_by_dropping(tmp_path: Path) -> None:
    # The clock stands still: only the burst is relayed, the rest dropped without an error.
    with _client(tmp_path, "http://testserver", clock=lambda: 100.0) as client:
        created = client.post("/api/matches", json={"mode": "network", "seed": 5}).json()
        match, tokens = created["match"], created["tokens"]
        with client.websocket_connect("/ws") as ann, client.websocket_connect("/ws") as bob:
            _join(ann, match, tokens["0"])
            _join(bob, match, tokens["1"])
            for k in range(3 * AIM_BURST):
                ann.send_text(json.dumps({**AIM, "aim": 1.0 + k / 100}))
            _break(ann)
            assert ann.receive_json()["type"] == "shot"  # no error came before the shot
            received = []
            while (message := bob.receive_json())["type"] == "aim":
                received.append(message["aim"])
            assert message["type"] == "shot"
            assert received == [1.0 + k / 100 for k in range(AIM_BURST)]
