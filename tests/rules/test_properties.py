"""Property tests: random request streams never crash and keep the invariants of the rules."""

from __future__ import annotations

import json
import re
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nineball.rules import RefereeSession

SENTENCE_END = re.compile(r"[.!?](?:\s|$)")
CLAUSE = {"en": "clause", "fr": "règle", "pl": "punkt"}

balls = st.integers(min_value=0, max_value=9)


@st.composite
def shot_requests(draw: st.DrawFn, state: dict[str, Any]) -> dict[str, Any]:
    on_table = state["on_table"]
    live = st.sampled_from([0, *on_table])
    request: dict[str, Any] = {"type": "shot"}
    if draw(st.booleans()):
        request["first_contact"] = draw(
            st.one_of(st.none(), st.sampled_from(on_table), st.just(state["lowest"]))
        )
    request["pocketed"] = draw(st.lists(live, max_size=3, unique=True))
    request["rails"] = draw(st.lists(live, max_size=6, unique=True))
    if draw(st.integers(0, 9)) == 0:
        request["off_table"] = [
            b for b in draw(st.lists(live, max_size=2, unique=True)) if b not in request["pocketed"]
        ]
    if state["push_out_allowed"] and draw(st.booleans()):
        request["push_out"] = True
    if draw(st.integers(0, 9)) == 0:
        request["obstruction_moved"] = True
    return request


@st.composite
def any_request(draw: st.DrawFn, state: dict[str, Any]) -> dict[str, Any] | str:
    kind = draw(st.integers(0, 99))
    if state["phase"] == "push_out_choice" and kind < 70:
        return {"type": "choice", "choice": draw(st.sampled_from(["shoot", "pass"]))}
    if kind < 80:
        return draw(shot_requests(state))
    if kind < 84:
        return {"type": "forfeit", "player": draw(st.integers(0, 1))}
    if kind < 88:
        return {"type": "state"}
    if kind < 92:
        return {"type": "choice", "choice": draw(st.sampled_from(["shoot", "pass", "maybe"]))}
    # garbage: bad types, unknown fields, balls that are not on the table, not JSON at all
    return draw(
        st.sampled_from(
            [
                "{not json",
                "[]",
                '{"type": "shot", "pocketed": [10]}',
                '{"type": "shot", "first_contact": 0}',
                '{"type": "shot", "pocketed": [3, 3]}',
                '{"type": "shot", "rails": "0"}',
                '{"type": "shot", "push_out": 1}',
                '{"type": "dance"}',
                '{"type": "state", "extra": 1}',
                '{"type": "forfeit", "player": true}',
                '{"type": "shot", "push_out": true}',
            ]
        )
    )


def _sentences(text: str) -> int:
    return len(SENTENCE_END.findall(text))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    race_to=st.integers(1, 4),
    winner_breaks=st.booleans(),
    rules=st.sampled_from(["seed", "fr", "pl"]),
    lang=st.sampled_from(["en", "fr", "pl"]),
)
def test_random_streams_keep_the_invariants(
    data: st.DataObject, race_to: int, winner_breaks: bool, rules: str, lang: str
) -> None:
    session = RefereeSession()
    breaks = "winner" if winner_breaks else "alternate"
    start = session.handle(
        {"type": "new_match", "race_to": race_to, "breaks": breaks, "rules": rules, "lang": lang}
    )
    state = start["state"]
    for _ in range(60):
        request = data.draw(any_request(state))
        line = request if isinstance(request, str) else json.dumps(request)
        reply = json.loads(session.handle_line(line))
        after = reply["state"]
        if not reply["ok"]:
            assert after == state, "a refused request changed the state"
            assert reply["error"]["message"]
            continue
        ruling = reply["ruling"]
        # Scores never fall, and every finished game is in the score.
        assert after["score"][0] >= state["score"][0]
        assert after["score"][1] >= state["score"][1]
        assert sum(after["score"]) == after["game"] - (0 if after["phase"] == "match_over" else 1)
        assert max(after["consecutive_fouls"]) <= (3 if after["phase"] == "match_over" else 2)
        if ruling is not None:
            text = ruling["explanation"]
            assert 1 <= _sentences(text) <= 2, text
            assert CLAUSE[lang] in text, text
            if ruling["warning"]:
                assert ruling["fouls"]
                assert after["consecutive_fouls"][ruling["shooter"]] == 2
        if after["game"] == state["game"] and after["phase"] != "match_over":
            # Balls only leave the table; the 9 never leaves it while the game goes on.
            assert set(after["on_table"]) <= set(state["on_table"])
            assert 9 in after["on_table"]
            assert after["lowest"] == min(after["on_table"])
            if ruling is not None and ruling["fouls"]:
                assert after["cue_ball"] == "anywhere"
                assert after["shooter"] != ruling["shooter"]
        elif ruling is not None:
            over = ruling["game_over"]
            assert over is not None
            if ruling["fouls"] and over["reason"] == "three_fouls":
                assert state["consecutive_fouls"][ruling["shooter"]] == 2
                assert over["winner"] != ruling["shooter"]
            if after["phase"] != "match_over":
                expected = over["winner"] if breaks == "winner" else 1 - state["breaker"]
                assert after["breaker"] == expected == after["shooter"]
                assert after["phase"] == "break"
                assert after["cue_ball"] == "kitchen"
                assert after["on_table"] == list(range(1, 10))
        # A third consecutive foul always ends the game.
        if ruling is not None and ruling["fouls"] and ruling["game_over"] is None:
            assert state["consecutive_fouls"][ruling["shooter"]] < 2
        if after["phase"] == "match_over":
            refused = session.handle({"type": "shot", "first_contact": 1})
            assert refused["ok"] is False
            assert refused["state"] == after
            break
        state = after
