"""The aiming aid's ``preview``: the engine's noiseless result of the stroke as aimed, for the
seat to act only, validated like a strike, changing nothing, the newest request superseding."""

from __future__ import annotations

import asyncio
import json
import math
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from fastapi.testclient import TestClient

from nineball.game import Match, MatchConfig, Stroke
from nineball.web.preview import MAX_POINTS, Previews
from tests.web.test_app import _join, _new, _send

BREAK_CUE = [0.6, 0.45]
BREAK_AIM = math.atan2(1.905 - 0.45, 0.635 - 0.6)


def _stroke(kind: str = "preview", **fields: Any) -> dict[str, Any]:
    return {
        "type": kind, "speed": 9.0, "aim": BREAK_AIM, "elevation": 0.0, "side": 0.0,
        "height": 0.0, "push_out": False, "cue": BREAK_CUE,
    } | fields  # fmt: skip


def test_a_preview_of_the_break_shows_the_engine_paths(client: TestClient) -> None:
    created = _new(client, mode="local")
    with client.websocket_connect("/ws") as ws:
        before = _join(ws, created["match"], created["tokens"]["both"])
        reply = _send(ws, **_stroke())
        assert reply["type"] == "preview"
        assert reply["first"] == 1
        assert reply["lowest"] == 1
        assert reply["wrong_ball"] is False
        assert reply["stroke"] == {k: v for k, v in _stroke().items() if k != "type"}
        cue_path, one_path = reply["paths"]["0"], reply["paths"]["1"]
        assert set(reply["paths"]) == {"0", "1"}
        assert cue_path[0] == BREAK_CUE
        assert 2 <= len(cue_path) <= MAX_POINTS
        # The ghost ball: the cue ball's centre at the contact, two radii from the 1's centre.
        one = before["layout"]["1"]
        radius = before["table"]["radius"]
        assert math.dist(reply["ghost"], one) == pytest.approx(2 * radius, abs=2e-4)
        assert reply["ghost"] in cue_path
        assert one_path[0] == pytest.approx(one, abs=2e-4)  # the 1 leaves from where it lies
        assert math.dist(one_path[-1], one) > 0.05
        # What the strike then plays is what the preview showed.
        ws.send_text(json.dumps(_stroke("strike")))
        shot = ws.receive_json()
        assert shot["type"] == "shot"
        assert sorted(int(b) for b in reply["pocketed"]) == sorted(
            int(b) for b, ball in shot["trajectory"]["balls"].items() if ball["pocket"]
        )


def test_the_warning_when_the_line_meets_another_ball_first(client: TestClient) -> None:
    created = _new(client, mode="practice")
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        _send(ws, type="setup", balls={"0": [0.6, 0.5], "3": [0.9, 1.8], "5": [0.6, 1.3],
                                        "9": [0.3, 2.2]})  # fmt: skip
        straight: dict[str, Any] = {"speed": 2.0, "aim": math.pi / 2, "cue": None}
        reply = _send(ws, **_stroke(**straight))
        assert (reply["first"], reply["lowest"], reply["wrong_ball"]) == (5, 3, True)
        assert reply["ghost"] == pytest.approx([0.6, 1.3 - 2 * 0.028575], abs=2e-4)
        # No push out here (none after a position set up): refused as a strike would be.
        assert "push out" in _send(ws, **_stroke(**straight, push_out=True))["message"]
        # Aimed at the 3: the ball on, no warning.
        at_three = math.atan2(1.8 - 0.5, 0.9 - 0.6)
        reply = _send(ws, **_stroke(speed=2.0, aim=at_three, cue=None))
        assert (reply["first"], reply["wrong_ball"]) == (3, False)
        # Aimed at nothing: no first ball, no ghost, only the cue ball's path.
        reply = _send(ws, **_stroke(speed=1.0, aim=-math.pi / 2, cue=None))
        assert (reply["first"], reply["ghost"], reply["wrong_ball"]) == (None, None, False)
        assert list(reply["paths"]) == ["0"]


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"speed": 99.0}, "speed"),
        ({"speed": "fast"}, "speed"),
        ({"aim": None}, "aim"),
        ({"elevation": 2.0}, "elevation"),
        ({"side": 0.9}, "side"),
        ({"side": 0.4, "height": 0.4}, "miscue limit"),
        ({"push_out": 1}, "push_out"),
        ({"cue": [0.6]}, "cue"),
        ({"cue": [0.6, 1.5]}, "head string"),
        ({"cue": [5.0, 0.4]}, "off the playing surface"),
        ({"spin": 1}, "'spin'"),
    ],
)
def test_each_bad_value_is_refused_by_name_and_changes_nothing(
    client: TestClient, fields: dict[str, Any], named: str
) -> None:
    created = _new(client, mode="local")
    with client.websocket_connect("/ws") as ws:
        before = _join(ws, created["match"], created["tokens"]["both"])
        reply = _send(ws, **_stroke(**fields))
        assert reply["type"] == "error"
        assert named in reply["message"]
        with client.websocket_connect("/ws") as late:
            after = _join(late, created["match"], None)
        assert (after["state"], after["layout"], after["cue"]) == (
            before["state"], before["layout"], before["cue"],
        )  # fmt: skip


def test_only_the_seat_to_act_may_preview(client: TestClient) -> None:
    created = _new(client, mode="network", players=["Ann", "Bob"])
    match, tokens = created["match"], created["tokens"]
    with (
        client.websocket_connect("/ws") as ann,
        client.websocket_connect("/ws") as bob,
        client.websocket_connect("/ws") as watcher,
    ):
        _join(ann, match, tokens["0"])
        _join(bob, match, tokens["1"])
        _join(watcher, match, None)
        refused = _send(bob, **_stroke())
        assert "not your turn" in refused["message"]
        assert refused["about"] == "preview"
        assert "spectators" in _send(watcher, **_stroke())["message"]
        assert _send(ann, **_stroke())["type"] == "preview"  # and only Ann hears of it
        ann.send_text(json.dumps(_stroke("strike")))
        for ws in (ann, bob, watcher):
            assert ws.receive_json()["type"] == "shot"  # the next message anyone gets


def _play(client: TestClient, previews: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A match against the computer from seed 5: previews, the break, then the computer's turns."""
    created = _new(client, mode="computer", level="club", seed=5)
    out = []
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["0"])
        for preview in previews:
            assert _send(ws, **preview)["type"] == "preview"
        ws.send_text(json.dumps(_stroke("strike", speed=3.0)))  # a soft break: a foul
        while True:
            message = ws.receive_json()
            assert message["type"] == "shot"
            out.append(message)
            if message["state"]["to_act"] == 0 or message["state"]["winner"] is not None:
                return out


def test_previews_change_neither_the_match_nor_its_random_streams(client: TestClient) -> None:
    alone = _play(client, [])
    previews = [_stroke(speed=s, aim=BREAK_AIM + d, side=0.2) for s, d in [(3.0, 0), (9, 0.1)]]
    previews.append(_stroke(speed=3.0, height=-0.3, cue=[0.3, 0.5]))
    after_previews = _play(client, previews)
    assert len(alone) >= 2  # the break, and the computer's noisy shot from the foul
    assert json.dumps(after_previews, sort_keys=True) == json.dumps(alone, sort_keys=True)


def test_match_preview_draws_nothing_from_the_streams() -> None:
    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=3)
    record, position = match.record, match.position
    outcome = match.preview(Stroke(speed=9.0, aim=BREAK_AIM), cue=(0.6, 0.45))
    assert outcome.facts.first_contact == 1
    assert match.record == record
    assert match.position == position
    assert match.cue_ball_in_hand  # the cue ball was not placed


def test_a_newer_request_supersedes_an_older() -> None:
    async def scenario() -> tuple[list[int], list[object], Previews[int]]:
        started: list[int] = []
        sent: list[object] = []
        release = asyncio.Event()

        async def compute(item: int) -> dict[str, object]:
            started.append(item)
            if item == 1:
                await release.wait()
            return {"type": "preview", "item": item}

        async def send(message: dict[str, object]) -> None:
            sent.append(message["item"])

        previews: Previews[int] = Previews(compute, send)
        previews.request(1)
        await asyncio.sleep(0)  # 1 is computing
        previews.request(2)  # waits...
        previews.request(3)  # ...and is replaced by 3
        release.set()
        await previews.idle()
        return started, sent, previews

    # A loop of its own in a thread of its own (the browser tests' loop may run in this one).
    with ThreadPoolExecutor(1) as thread:
        started, sent, previews = thread.submit(asyncio.run, scenario()).result()
    assert started == [1, 3]  # one at a time; 2 never computed
    assert sent == [3]  # 1's answer dropped: its stroke was no longer the one aimed
    assert (previews.computed, previews.dropped) == (2, 1)


def test_a_burst_of_previews_is_answered_with_the_latest(client: TestClient) -> None:
    created = _new(client, mode="local")
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        speeds = [1.0 + k for k in range(6)]
        for speed in speeds:
            ws.send_text(json.dumps(_stroke(speed=speed)))
        answered: list[float] = []
        while not answered or answered[-1] != speeds[-1]:
            reply = ws.receive_json()
            assert reply["type"] == "preview"
            answered.append(reply["stroke"]["speed"])
        assert answered == sorted(answered)  # never an older stroke after a newer one
        assert len(answered) <= len(speeds)
        assert _send(ws, type="ping")["type"] == "pong"  # nothing more was on its way


def test_no_warning_on_a_push_out(client: TestClient) -> None:
    created = _new(client, mode="local")  # seed 5: a legal break, a push out allowed after it
    with client.websocket_connect("/ws") as ws:
        _join(ws, created["match"], created["tokens"]["both"])
        ws.send_text(json.dumps(_stroke("strike")))
        shot = ws.receive_json()
        assert shot["state"]["push_out_allowed"]
        cue, lowest = shot["cue"], shot["state"]["lowest"]
        for ball, (x, y) in shot["layout"].items():
            if ball in ("0", str(lowest)):
                continue
            aimed = _stroke(speed=2.0, aim=math.atan2(y - cue[1], x - cue[0]), cue=None)
            reply = _send(ws, **aimed)
            if reply["first"] != int(ball):
                continue  # another ball in the way
            assert reply["wrong_ball"] is True
            pushed = _send(ws, **aimed | {"push_out": True})
            assert (pushed["first"], pushed["wrong_ball"]) == (int(ball), False)
            return
        raise AssertionError("no ball other than the ball on in clear view")  # pragma: no cover
