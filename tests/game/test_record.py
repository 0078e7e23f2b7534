"""Match records: round trip, exact floats, and a lenient reader that names every problem."""

from __future__ import annotations

import json
from typing import Any

import pytest

from nineball import BallId
from nineball.game import (
    GameRecord,
    InvalidRecordError,
    MatchRecord,
    ShotKind,
    ShotRecord,
    StrokeRecord,
    dump_record,
    load_record,
    read_record,
    record_to_json,
)
from nineball.rules import (
    Choice,
    GameOver,
    MatchConfig,
    Seat,
    ShotFacts,
    Termination,
    find_variant,
)

A, B = Seat.FIRST, Seat.SECOND
STROKE = StrokeRecord(speed=7.123456789012345, aim_deg=91.0, side=0.1, height=-0.3)
RACK = {BallId.ONE: (0.635, 1.905), BallId.NINE: (0.635, 2.0039699999999998)}


def _record() -> MatchRecord:
    game1 = GameRecord(
        number=1,
        breaker=A,
        rack=RACK,
        shots=(
            ShotRecord(
                kind=ShotKind.STROKE,
                player=A,
                cue_ball=(0.5, 0.3),
                stroke=STROKE,
                intended=StrokeRecord(speed=7.0, aim_deg=91.0),
                facts=ShotFacts.of(first_contact=1, rails=[2, 3, 4, 5]),
                positions={BallId.CUE: (0.1 + 0.2, 1.0 / 3.0)},
            ),
            ShotRecord(
                kind=ShotKind.STROKE, player=B, push_out=True, facts=ShotFacts.of(rails=[0])
            ),
            ShotRecord(kind=ShotKind.CHOICE, player=A, choice=Choice.PASS),
            ShotRecord(
                kind=ShotKind.STROKE,
                player=B,
                facts=ShotFacts.of(first_contact=3),
                fouls=(),
            ),
        ),
    )
    return MatchRecord(
        config=MatchConfig(players=("Ann", "Bob"), race_to=2, rules=find_variant("fr")),
        seed=42,
        params={"mu_slide": 0.2},
        event="club night",
        date="2026-11-30T18:00:00Z",
        games=(game1,),
    )


def _fixed() -> MatchRecord:
    """The record above with the fouls the referee really gives, and a second game."""
    base = _record()
    game1 = base.games[0]
    shots = list(game1.shots)
    from nineball.rules import Foul

    shots[3] = ShotRecord(
        kind=ShotKind.STROKE,
        player=B,
        facts=ShotFacts.of(first_contact=3),
        fouls=(Foul.WRONG_BALL_FIRST,),
    )
    shots.append(
        ShotRecord(
            kind=ShotKind.STROKE, player=A, facts=ShotFacts.of(first_contact=1, pocketed=[9])
        )
    )
    game1 = GameRecord(
        number=1,
        breaker=A,
        rack=RACK,
        shots=tuple(shots),
        result=GameOver(game=1, winner=A, reason=Termination.NINE_BALL, breaker=A),
    )
    game2 = GameRecord(
        number=2,
        breaker=B,
        shots=(ShotRecord(kind=ShotKind.FORFEIT, player=B),),
        result=GameOver(game=2, winner=A, reason=Termination.FORFEIT, breaker=B),
    )
    return MatchRecord(
        config=base.config,
        seed=base.seed,
        params=base.params,
        event=base.event,
        date=base.date,
        games=(game1, game2),
        winner=A,
        agents=("human", "ghost"),
    )


def test_round_trip_is_exact() -> None:
    record = _fixed()
    text = dump_record(record)
    again = load_record(text)
    assert again == record
    assert dump_record(again) == text
    cue = again.games[0].shots[0].positions
    assert cue is not None
    assert cue[BallId.CUE] == (0.1 + 0.2, 1.0 / 3.0)  # floats survive bit for bit
    assert again.games[0].shots[0].stroke == STROKE


def test_json_shape() -> None:
    data = record_to_json(_fixed())
    assert data["format"] == "nineball-record"
    assert data["version"] == 1
    assert data["players"] == ["Ann", "Bob"]
    assert data["rules"] == "fr"
    assert data["games"][0]["rack"] == {"1": [0.635, 1.905], "9": [0.635, 2.0039699999999998]}
    assert data["games"][0]["shots"][2] == {"kind": "choice", "player": 0, "choice": "pass"}
    assert data["games"][0]["shots"][3]["fouls"] == ["wrong_ball_first"]
    assert data["games"][1]["result"] == {"winner": 0, "reason": "forfeit"}
    assert data["winner"] == 0
    assert data["agents"] == ["human", "ghost"]


def test_the_referee_checks_what_the_record_says() -> None:
    record, problems = read_record(dump_record(_record()))
    assert record is not None
    assert [(p.path, p.message) for p in problems] == [
        (
            "$.games[0].shots[3].fouls",
            "the referee rules ['wrong_ball_first'], the record says []",
        )
    ]


def _problems(data: dict[str, Any]) -> list[tuple[str, str]]:
    _, problems = read_record(json.dumps(data))
    return [(p.path, p.message) for p in problems]


def test_every_problem_is_reported_with_its_place() -> None:
    data = record_to_json(_fixed())
    data["race_to"] = "two"
    data["colour"] = "blue"
    data["params"]["mu_roll"] = "fast"
    shots = data["games"][0]["shots"]
    shots[0]["stroke"]["speed"] = None
    shots[0]["cue_ball"] = [0.5]
    shots[0]["facts"]["pocketed"] = [3, 12]
    shots[1]["kind"] = "jump"
    shots[2]["choice"] = "maybe"
    shots[3]["fouls"] = ["scratch"]
    data["games"][1]["result"]["reason"] = "boredom"
    found = _problems(data)
    assert ("$.race_to", 'expected an integer, got "two"') in found
    assert ("$.colour", "unknown field") in found
    assert ("$.params.mu_roll", 'expected a finite number, got "fast"') in found
    assert ("$.games[0].shots[0].stroke.speed", "expected a finite number, got null") in found
    assert ("$.games[0].shots[0].cue_ball", "expected a position [x, y] in m, got [0.5]") in found
    assert ("$.games[0].shots[0].facts.pocketed[1]", "12 is not a ball (0-9)") in found
    assert any(p == "$.games[0].shots[1].kind" and 'got "jump"' in m for p, m in found)
    assert any(p == "$.games[0].shots[2].choice" and 'got "maybe"' in m for p, m in found)
    assert any(p == "$.games[0].shots[3].fouls[0]" for p, _ in found)
    assert any(p == "$.games[1].result.reason" for p, _ in found)
    with pytest.raises(InvalidRecordError, match="invalid record, 10 problem"):
        load_record(json.dumps(data))


def _doc(shots: list[dict[str, Any]] | None = None, **fields: Any) -> str:
    data: dict[str, Any] = {"format": "nineball-record", "version": 1, "players": ["A", "B"]}
    if shots is not None:
        data["games"] = [{"number": 1, "breaker": 0, "shots": shots}]
    return json.dumps({**data, **fields})


@pytest.mark.parametrize(
    ("text", "place", "message"),
    [
        ("{", "line 1, column 2", "bad JSON"),
        ("[]", "$", "expected an object"),
        ('{"format": "pgn", "version": 1}', "$.format", "expected 'nineball-record'"),
        ('{"format": "nineball-record", "version": 2}', "$.version", "from 1 to 1, got 2"),
        (_doc(players=["Ann"]), "$.players", "expected two names"),
        (_doc(players=["A", "A"]), "$", "different names"),
        (_doc(rules="wpa"), "$.rules", "expected one of standard, fr, pl, seed, got 'wpa'"),
        (_doc(games={}), "$.games", "expected a list of games"),
        (_doc(agents=["human"]), "$.agents", "expected two player kinds"),
        (_doc(games=[{"number": 2, "breaker": 0}]), "$.games[0].number", "expected game 1, got 2"),
        (_doc(games=[{"number": 1}]), "$.games[0]", "missing field 'breaker'"),
        (
            _doc(games=[{"number": 1, "breaker": 0, "rack": {"x": [0, 0]}}]),
            "$.games[0].rack.x",
            "'x' is not a ball",
        ),
        (_doc([{"kind": "stroke", "player": 0}]), "$.games[0].shots[0]", "missing field 'facts'"),
        (
            _doc([{"kind": "stroke", "player": 1, "facts": {}}]),
            "$.games[0].shots[0].player",
            "expected player 0 to act, got 1",
        ),
        (
            _doc([{"kind": "stroke", "player": 0, "facts": {"first_contact": 1, "pocketed": [9]}}]),
            "$.games[0].result",
            "the referee ends this game with {'winner': 0, 'reason': 'nine_ball'}",
        ),
        (
            _doc([{"kind": "stroke", "player": 0, "facts": {"pocketed": [2, 2]}}]),
            "$.games[0].shots[0].facts",
            "ball 2 is listed twice",
        ),
        (
            _doc([{"kind": "choice", "player": 0, "choice": "shoot"}]),
            "$.games[0].shots[0]",
            "there is no push out to answer",
        ),
        (
            _doc(
                race_to=1,
                games=[
                    {
                        "number": 1,
                        "breaker": 0,
                        "shots": [{"kind": "forfeit", "player": 0}],
                        "result": {"winner": 1, "reason": "forfeit"},
                    }
                ],
            ),
            "$.winner",
            "the referee gives 1",
        ),
    ],
)
def test_bad_records(text: str, place: str, message: str) -> None:
    _, problems = read_record(text)
    assert any(p.path == place and message in p.message for p in problems), problems


def test_a_record_of_the_former_profile_name_reads_as_standard() -> None:
    from nineball.rules import STANDARD

    record = load_record(_doc(rules="seed"))
    assert record.config.rules is STANDARD
    assert json.loads(dump_record(record))["rules"] == "standard"
