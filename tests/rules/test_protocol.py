"""The referee protocol (docs/referee-protocol.md) through RefereeSession."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nineball.rules import FR, Language, RefereeSession, protocol
from nineball.rules.protocol import dump_line

EXAMPLES = Path(__file__).resolve().parent / "data" / "referee-examples.jsonl"
STATE_KEYS = {
    "game",
    "score",
    "race_to",
    "breaker",
    "shooter",
    "phase",
    "cue_ball",
    "push_out_allowed",
    "on_table",
    "lowest",
    "consecutive_fouls",
    "rules",
    "match_winner",
}
RULING_KEYS = {"shooter", "legal", "fouls", "respotted", "warning", "game_over", "explanation"}


def test_default_match_before_any_new_match() -> None:
    reply = RefereeSession().handle({"type": "state"})
    assert reply == {
        "ok": True,
        "ruling": None,
        "state": {
            "game": 1,
            "score": [0, 0],
            "race_to": 5,
            "breaker": 0,
            "shooter": 0,
            "phase": "break",
            "cue_ball": "kitchen",
            "push_out_allowed": False,
            "on_table": [1, 2, 3, 4, 5, 6, 7, 8, 9],
            "lowest": 1,
            "consecutive_fouls": [0, 0],
            "rules": "standard",
            "match_winner": None,
        },
    }


def test_default_names_are_the_protocols() -> None:
    session = RefereeSession()
    reply = session.handle({"type": "forfeit", "player": 0})
    assert "Ann forfeits" in reply["ruling"]["explanation"]
    assert "Bob wins game 1" in reply["ruling"]["explanation"]


def test_command_line_defaults_apply_until_a_match_names_its_own() -> None:
    session = RefereeSession(rules=FR, lang=Language.PL)
    assert session.handle({"type": "state"})["state"]["rules"] == "fr"
    reply = session.handle({"type": "shot", "first_contact": 1, "pocketed": [2]})
    assert "Prawidłowe rozbicie" in reply["ruling"]["explanation"]
    session.handle({"type": "new_match"})
    assert session.handle({"type": "state"})["state"]["rules"] == "fr"
    # "seed", the former name of the standard profile, is still understood.
    session.handle({"type": "new_match", "rules": "seed", "lang": "en"})
    reply = session.handle({"type": "shot", "first_contact": 1, "pocketed": [2]})
    assert reply["state"]["rules"] == "standard"
    assert reply["ruling"]["explanation"].startswith("Legal break")


def test_examples_get_sensible_answers() -> None:
    session = RefereeSession()
    replies = [json.loads(session.handle_line(line)) for line in EXAMPLES.read_text().splitlines()]
    assert all(r["ok"] for r in replies)
    assert all(set(r["state"]) == STATE_KEYS for r in replies)
    rulings = [r["ruling"] for r in replies]
    assert rulings[0] is None
    assert rulings[-1] is None
    assert all(set(r) == RULING_KEYS for r in rulings[1:-1])
    # Legal break pocketing the 2: Ann keeps the table and may push out.
    assert rulings[1]["legal"]
    assert replies[1]["state"]["shooter"] == 0
    assert replies[1]["state"]["push_out_allowed"]
    # Legal miss: Bob plays it as it lies, no push out any more.
    assert rulings[2]["legal"]
    assert replies[2]["state"]["shooter"] == 1
    assert not replies[2]["state"]["push_out_allowed"]
    # Bob hits the 3 first: foul, Ann has ball in hand.
    assert rulings[3]["fouls"] == [{"code": "wrong_ball_first", "rule": 7}]
    assert replies[3]["state"]["cue_ball"] == "anywhere"
    assert replies[3]["state"]["consecutive_fouls"] == [0, 1]
    # Ann pockets the 1 and the 9: she wins game 1; Bob breaks game 2.
    assert rulings[4]["game_over"] == {"winner": 0, "reason": "nine_ball"}
    assert replies[5]["state"]["score"] == [1, 0]
    assert replies[5]["state"]["breaker"] == 1
    assert replies[5]["state"]["phase"] == "break"


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("{not json", "bad JSON"),
        ("", "bad JSON"),
        ("[1, 2]", "a request must be a JSON object, got [1, 2]"),
        ('{"kind": "shot"}', "unknown request type null"),
        ('{"type": "dance"}', 'unknown request type "dance"'),
        ('{"type": 3}', "unknown request type 3"),
        ('{"type": "state", "verbose": true}', "unknown field 'verbose' in a state request"),
        ('{"type": "shot", "first_contact": "1"}', "first_contact must be a ball number or null"),
        ('{"type": "shot", "first_contact": true}', "first_contact must be a ball number"),
        ('{"type": "shot", "first_contact": 0}', "0 is the cue ball"),
        ('{"type": "shot", "first_contact": 12}', "12 is not a ball"),
        ('{"type": "shot", "pocketed": 3}', "pocketed must be a list of ball numbers, got 3"),
        ('{"type": "shot", "rails": [1.0]}', "rails: 1.0 is not a ball number"),
        ('{"type": "shot", "rails": [false]}', "rails: false is not a ball number"),
        ('{"type": "shot", "pocketed": [4, 4]}', "ball 4 is listed twice"),
        ('{"type": "shot", "push_out": "yes"}', 'push_out must be true or false, got "yes"'),
        ('{"type": "shot", "obstruction_moved": 1}', "obstruction_moved must be true or false"),
        ('{"type": "shot", "first_contact": 2}', "ball 2 is not on the table"),
        ('{"type": "choice", "choice": "maybe"}', 'choice must be one of shoot, pass, got "maybe"'),
        ('{"type": "choice"}', "there is no push out to answer with 'shoot'"),
        ('{"type": "forfeit", "player": 2}', "player must be 0 or 1, got 2"),
        ('{"type": "forfeit", "player": "0"}', "player must be an integer"),
        ('{"type": "new_match", "players": ["Ann"]}', "players must be a list of two names"),
        ('{"type": "new_match", "players": "Ann,Bob"}', "players must be a list of two names"),
        ('{"type": "new_match", "players": ["Ann", 2]}', "players must be a list of two names"),
        ('{"type": "new_match", "players": ["Ann", "Ann"]}', "different names"),
        ('{"type": "new_match", "players": ["Ann", ""]}', "got the empty name ''"),
        ('{"type": "new_match", "race_to": 0}', "race_to must be in 1..99, got 0"),
        ('{"type": "new_match", "race_to": "5"}', "race_to must be an integer"),
        ('{"type": "new_match", "breaks": "loser"}', "breaks must be one of alternate, winner"),
        ('{"type": "new_match", "first_breaker": -1}', "first_breaker must be 0 or 1"),
        ('{"type": "new_match", "rules": "wpa"}', "rules must be one of standard, fr, pl, seed"),
        ('{"type": "new_match", "lang": "de"}', "lang must be one of en, fr, pl"),
        ('{"type": "new_match", "refereed": "no"}', "refereed must be true or false"),
        # Issue 16: hostile lines are refused, each with one answer, and change nothing.
        ("[" * 100_000, "bad JSON: the line is 100000 bytes long, over 65536"),
        ("[" * 5_000, "bad JSON: nested deeper than 16 levels"),
        ("[" * 17 + "]" * 17, "bad JSON: nested deeper than 16 levels"),
        ('{"type": "state", "x": ' + '{"a": ' * 20 + "1" + "}" * 21, "nested deeper than 16"),
        ("   ", "bad JSON: the line is empty"),
        ("\r", "bad JSON: the line is empty"),
        ('"' + "x" * 70_000 + '"', "over 65536"),
        ('{"type": "new_match", "race_to": ' + "9" * 5000 + "}", "has 5000 digits, too many"),
        ('{"type": "new_match", "race_to": -' + "9" * 61 + "}", "has 61 digits, too many"),
        ('{"type": "new_match", "race_to": ' + "9" * 60 + "}", "race_to must be in 1..99"),
        ('{"type": "new_match", "race_to": 1e999}', "the number 1e999 is too large"),
        ('{"type": "new_match", "race_to": NaN}', "NaN is not a JSON number"),
        ('{"type": "new_match", "race_to": -Infinity}', "-Infinity is not a JSON number"),
        ('{"type": "shot", "type": "state"}', "the field 'type' is given twice"),
        ('{"type": "new_match", "players": ["\\ud800", "Bob"]}', "U+D800, a lone surrogate"),
        ('{"type": "new_match", "players": ["Ann", "B\\udc00"]}', "U+DC00, a lone surrogate"),
        ('{"type": "new_match", "players": ["A\\u2028", "Bob"]}', "U+2028, a line separator"),
        ('{"type": "new_match", "players": ["A\u2029", "Bob"]}', "U+2029, a paragraph separator"),
        ('{"type": "new_match", "players": ["A\\nB", "Bob"]}', "U+000A, a control character"),
        ('{"type": "new_match", "players": ["A\\r", "Bob"]}', "U+000D, a control character"),
        ('{"type": "new_match", "players": ["A\\u0085", "Bob"]}', "U+0085, a control"),
        ('{"type": "new_match", "players": ["' + "x" * 41 + '", "Bob"]}', "got 41 characters"),
        ('{"type": "\\ud800"}', 'unknown request type "\\ud800"'),
        ('{"type": "state", "\\u2028": 1}', "unknown field '\\u2028' in a state request"),
        ('{"type": "shot", "rails": [' + "7," * 100 + "7]}", "rails: ball 7 is listed twice"),
        ('{"type": "shot", "rails": "' + "r" * 100 + '"}', 'got "' + "r" * 56 + "..."),
    ],
)
def test_refused_lines_change_nothing(line: str, message: str) -> None:
    session = RefereeSession()
    session.handle({"type": "new_match", "players": ["Cy", "Di"], "race_to": 3, "lang": "fr"})
    session.handle({"type": "shot", "first_contact": 1, "pocketed": [2]})
    before = session.handle({"type": "state"})["state"]
    lang_before = session.lang
    reply = json.loads(session.handle_line(line))
    assert reply["ok"] is False
    assert reply["error"]["code"] == "invalid_request"
    assert message in reply["error"]["message"]
    assert reply["state"] == before
    assert session.handle({"type": "state"})["state"] == before
    assert session.lang is lang_before


def test_replies_are_single_json_lines_with_unicode() -> None:
    session = RefereeSession()
    session.handle({"type": "new_match", "players": ["Łucja", "Zoë"], "lang": "pl"})
    line = session.handle_line('{"type": "shot", "first_contact": 3}')
    assert "\n" not in line
    assert "Zoë" in line
    assert "\\u" not in line
    assert json.loads(line)["ruling"]["fouls"] == [{"code": "illegal_break", "rule": 3}]


def test_refuse_reports_the_message() -> None:
    reply = json.loads(RefereeSession().refuse("bad JSON: not UTF-8"))
    assert reply["ok"] is False
    assert reply["error"]["message"] == "bad JSON: not UTF-8"


def test_state_after_a_match_won_with_an_empty_table() -> None:
    session = RefereeSession()
    session.handle({"type": "new_match", "race_to": 1})
    reply = session.handle(
        {"type": "shot", "first_contact": 1, "pocketed": [1, 2, 3, 4, 5, 6, 7, 8, 9]}
    )
    assert reply["state"]["phase"] == "match_over"
    assert reply["state"]["on_table"] == []
    assert reply["state"]["lowest"] is None


def _state(session: RefereeSession) -> dict[str, object]:
    state: dict[str, object] = session.handle({"type": "state"})["state"]
    return state


def test_a_surrogate_name_is_refused_and_the_next_ruling_still_answers() -> None:
    """Issue 16: the name was accepted, then the next ruling could not be written as UTF-8."""
    session = RefereeSession()
    refused = json.loads(session.handle_line('{"type":"new_match","players":["\\ud800","Bob"]}'))
    assert refused["ok"] is False
    line = session.handle_line('{"type": "forfeit", "player": 0}')
    line.encode("utf-8")
    assert "Ann forfeits" in json.loads(line)["ruling"]["explanation"]


@pytest.mark.parametrize("char", ["\u2028", "\u2029", "\x85", "\x1c", "\ud800", "\n", "\x7f"])
def test_dump_line_escapes_whatever_could_end_or_break_a_line(char: str) -> None:
    reply = {"ok": False, "error": {"code": "x", "message": f"a{char}b"}}
    line = dump_line(reply)
    assert line.splitlines() == [line]
    assert char not in line
    line.encode("utf-8")
    assert json.loads(line) == reply


def test_handle_bytes_reads_a_stream_line() -> None:
    session = RefereeSession()
    ok = json.loads(session.handle_bytes(b'{"type": "shot", "first_contact": 1, "rails": [2]}\r\n'))
    assert ok["ok"] is True
    before = ok["state"]
    for raw, message in [
        (b"\xff\xfe\n", "bad JSON: the line is not UTF-8"),
        (b'{"type": "state", "x": "\xed\xa0\x80"}\n', "not UTF-8"),  # an encoded surrogate
        (b"[" * 65_537 + b"\n", "bad JSON: the line is over 65536 bytes long"),
        (b"\n", "bad JSON: the line is empty"),
    ]:
        reply = json.loads(session.handle_bytes(raw))
        assert reply["ok"] is False
        assert message in reply["error"]["message"]
        assert reply["state"] == before
    assert json.loads(session.handle_bytes(b'{"type": "state"}'))["state"] == before


def test_python_callers_get_answers_for_any_object() -> None:
    session = RefereeSession()
    before = _state(session)
    reply = session.handle({"type": "state", 1: 2, None: 3})
    assert reply["error"]["message"] == "unknown field 1 in a state request"
    assert session.handle(object())["error"]["message"].startswith(
        'a request must be a JSON object, got "<object object at'
    )
    cycle: list[object] = []
    cycle.append(cycle)
    reply = session.handle(cycle)
    assert reply["error"]["message"] == "a request must be a JSON object, got a list"
    assert _state(session) == before


def test_a_failure_of_the_referee_itself_is_an_answer_and_changes_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A bug gets an ``internal_error`` answer, never a traceback, and the match is unchanged."""
    session = RefereeSession()
    before = _state(session)

    def broken(ruling: object, lang: object) -> None:
        raise RuntimeError("boom")

    # The shot is applied, then writing its ruling fails: the state goes back.
    monkeypatch.setattr(protocol, "ruling_to_json", broken)
    reply = json.loads(session.handle_line('{"type": "shot", "first_contact": 1}'))
    assert reply["ok"] is False
    assert reply["error"] == {
        "code": "internal_error",
        "message": "the referee failed on this request (RuntimeError); nothing changed",
    }
    assert reply["state"] == before
    monkeypatch.undo()
    assert _state(session) == before
    assert json.loads(session.handle_line('{"type": "shot", "first_contact": 1}'))["ok"]
