"""The engine protocol: the messages, the host, the pipes, and programs that break the rules."""

from __future__ import annotations

import io
import json
import math
import os
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from nineball.errors import ForfeitError, InvalidInputError, ProtocolError
from nineball.game import Choice, MatchConfig, Position, Seat, Stroke
from nineball.game.match import Match
from nineball.game.record_read import load_record
from nineball.players import GhostBallPlayer
from nineball.players.base import Decision
from nineball.players.protocol import (
    Closed,
    EnginePlayer,
    EngineSession,
    Line,
    LinkError,
    LocalConnection,
    PipeConnection,
    Silence,
    TimeControl,
    serve_engine,
)
from nineball.players.protocol.arena import (
    ArenaSettings,
    arena_from_row,
    arena_jobs,
    arena_row,
    parse_entrant,
    play_arena_job,
    resolve_noise,
)
from nineball.players.protocol.connection import MAX_UNREAD_BYTES
from nineball.players.protocol.wire import (
    AnswerError,
    lost_decision,
    match_from_json,
    parse_answer,
    parse_hello,
    position_from_json,
    position_json,
    table_json,
)

ENGINES = Path(__file__).parent / "engines"
REFERENCE = f"{sys.executable} {ENGINES / 'reference.py'}"
HOSTILE = f"{sys.executable} {ENGINES / 'hostile.py'}"
FAST = TimeControl(move=0.5, game=60.0, start=5.0)


def _match(seed: int = 1) -> Match:
    return Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=seed)


def _after_break(seed: int = 1) -> Match:
    """A match after a foul break: the cue ball in hand anywhere for the second player."""
    match = _match(seed)
    match.place_cue_ball((0.6, 0.4))
    match.strike(Stroke(speed=0.0, aim=1.0))
    return match


# ------------------------------------------------------------------------------------ messages


def test_a_position_sent_and_read_back_is_the_same_bit_for_bit() -> None:
    match = _match(4)
    match.place_cue_ball((0.6, 0.45))
    match.strike(Stroke(speed=9.0, aim=1.55))
    view = match.position
    new_match = {
        "you": 1,
        "players": ["Ann", "Bob"],
        "race_to": 1,
        "breaks": "alternate",
        "first_breaker": 0,
        "rules": "standard",
        "refereed": True,
        "table": table_json("9ft", match.table, match.params),
    }
    setup = match_from_json(json.loads(json.dumps(new_match)))
    back = position_from_json(setup, json.loads(json.dumps(position_json(view))))
    assert dict(back.layout) == dict(view.layout)
    assert back.state.game == view.state.game
    assert back.state.score == view.state.score
    assert back.table == view.table
    assert position_json(view)["state"]["phase"] == "shot"


def test_the_table_tells_a_program_what_it_needs() -> None:
    match = _match()
    table = table_json("9ft", match.table, match.params)
    assert (table["width"], table["length"], table["head_string"]) == (1.27, 2.54, 0.635)
    assert table["limits"] == {"max_speed": 12.0, "max_elevation_deg": 80.0, "miscue_limit": 0.5}
    assert sorted(table["pockets"]) == sorted(
        ["head_left", "head_right", "side_left", "side_right", "foot_left", "foot_right"]
    )
    assert table["pockets"]["foot_right"]["centre"] == [1.27, 2.54]
    assert table["params"] == {}


def _shot(**fields: Any) -> dict[str, Any]:
    return {"type": "shot", "id": 1, "speed": 2.0, "aim_deg": 90.0, **fields}


@pytest.mark.parametrize(
    ("answer", "code", "says"),
    [
        ({"type": "move", "id": 1}, "bad_answer", "unknown answer type"),
        (_shot(spin=1.0), "bad_answer", "unknown shot field"),
        ({"type": "shot", "id": 1, "aim_deg": 90.0}, "bad_answer", "needs 'speed'"),
        (_shot(speed="fast"), "bad_answer", "finite number"),
        (_shot(speed=True), "bad_answer", "finite number"),
        (_shot(push_out=1), "bad_answer", "true or false"),
        (_shot(cue_ball=[1.0]), "bad_answer", r"\[x, y\]"),
        ({"type": "choice", "id": 1, "choice": "shoot"}, "illegal_action", "shot is due"),
        (_shot(speed=12.5), "illegal_action", r"speed must be in \[0, 12.0\]"),
        (_shot(speed=-0.1), "illegal_action", "speed must be"),
        (_shot(elevation_deg=85.0), "illegal_action", "elevation_deg"),
        (_shot(side=0.4, height=0.4), "illegal_action", "miscue limit"),
        (_shot(aim_deg=1e9), "illegal_action", "aim_deg"),
        (_shot(push_out=True), "illegal_action", "no push out"),
        (_shot(cue_ball=[0.635, 1.905]), "illegal_action", "overlaps the 1"),
        (_shot(cue_ball=[0.635, 3.0]), "illegal_action", "off the playing surface"),
    ],
)
def test_a_bad_answer_is_refused_with_its_code(
    answer: dict[str, Any], code: str, says: str
) -> None:
    view = _after_break().position
    assert view.in_hand is not None
    with pytest.raises(AnswerError, match=says) as refused:
        parse_answer(answer, "shot", view)
    assert refused.value.code == code


def test_a_good_answer_becomes_a_decision() -> None:
    view = _after_break().position
    decided = parse_answer(
        _shot(cue_ball=[0.3, 0.5], elevation_deg=10.0, side=-0.2, height=0.1, safety=True),
        "shot",
        view,
    )
    assert isinstance(decided, Decision)
    assert decided.cue_ball == (0.3, 0.5)
    assert decided.stroke.aim == math.radians(90.0)
    assert decided.stroke.elevation == math.radians(10.0)
    assert (decided.stroke.side, decided.stroke.height, decided.safety) == (-0.2, 0.1, True)
    on_break = _match().position
    with pytest.raises(AnswerError, match="behind the head string"):
        parse_answer(_shot(cue_ball=[0.6, 0.7]), "shot", on_break)
    with pytest.raises(AnswerError, match=r"in hand: place it \(behind the head string\)"):
        parse_answer(_shot(), "shot", on_break)
    # In hand but lying on the table (a foul that left it there): played where it lies.
    assert parse_answer(_shot(), "shot", view).cue_ball is None
    in_place = _match()
    in_place.place_cue_ball((0.6, 0.4))
    in_place.strike(Stroke(speed=9.0, aim=math.atan2(1.905 - 0.4, 0.635 - 0.6)))
    if in_place.position.in_hand is None:
        with pytest.raises(AnswerError, match="not in hand"):
            parse_answer(_shot(cue_ball=[0.3, 0.5]), "shot", in_place.position)
    assert (
        parse_answer({"type": "choice", "id": 3, "choice": "pass"}, "choice", view) is Choice.PASS
    )


def test_a_lost_shot_is_a_zero_speed_stroke_from_a_legal_place() -> None:
    for view in (_match().position, _after_break().position):
        lost = lost_decision(view)
        assert lost.lost
        assert lost.stroke.speed == 0.0
        assert not lost.push_out
        assert lost.cue_ball is not None
        view.check_cue_ball(lost.cue_ball)
    # Played, it is a foul: the cue ball touches nothing.
    match = _after_break()
    lost = lost_decision(match.position)
    report = match.strike(lost.stroke, cue=lost.cue_ball)
    assert [f.value for f in report.ruling.fouls] == ["no_contact"]


@pytest.mark.parametrize(
    ("hello", "says"),
    [
        ({"type": "hello", "protocol": 1}, "'name'"),
        ({"type": "hello", "protocol": "1", "name": "x"}, "integer"),
        ({"type": "hello", "protocol": 1, "name": "a\nb"}, "control"),
        ({"type": "hello", "protocol": 1, "name": "x", "colour": "red"}, "unknown hello field"),
        ({"type": "hello", "protocol": 1, "name": "x", "options": [{"name": "d"}]}, "type"),
        (
            {
                "type": "hello",
                "protocol": 1,
                "name": "x",
                "options": [{"name": "d", "type": "int", "default": 9, "max": 5}],
            },
            "cannot be 9",
        ),
        ({"type": "readyok"}, "expected a hello"),
    ],
)
def test_a_bad_hello_is_refused(hello: dict[str, Any], says: str) -> None:
    with pytest.raises(ProtocolError, match=says):
        parse_hello(hello)


def test_a_hello_with_options() -> None:
    hello = parse_hello(
        {
            "type": "hello",
            "protocol": 1,
            "name": "Zed",
            "author": "Ann",
            "version": "0.3",
            "options": [
                {"name": "depth", "type": "int", "default": 2, "min": 1, "max": 6},
                {"name": "style", "type": "choice", "default": "safe", "choices": ["safe", "bold"]},
            ],
        }
    )
    depth, style = hello.options
    assert depth.check(4) == 4
    with pytest.raises(ProtocolError):
        depth.check(7)
    with pytest.raises(ProtocolError):
        style.check("wild")


def test_time_controls_are_checked() -> None:
    assert TimeControl().as_json() == {
        "move_s": 30.0,
        "game_s": 300.0,
        "match_s": None,
        "start_s": 30.0,
    }
    for bad in ({"move": 0.0}, {"game": -1.0}, {"start": math.inf}, {"move": True}):
        with pytest.raises(ProtocolError):
            TimeControl(**bad)  # type: ignore[arg-type]


def test_noises_of_the_arena() -> None:
    assert resolve_noise("high").label == "high"
    pro = resolve_noise("pro")
    hands = pro.for_game(seed=1, game=1)
    assert hands is not None
    assert (hands.aim, hands.speed) == (GhostBallPlayer().noise.scaled(0.8).aim, 0.8 * 0.075)
    assert hands.growth == 0.5  # a level's hands grow with the stroke's speed
    half = resolve_noise("0.5")
    assert half.for_game(seed=1, game=1).speed == pytest.approx(0.0375)  # type: ignore[union-attr]
    for bad in ("loud", "-1", "nan", "1e9"):
        with pytest.raises(InvalidInputError, match="unknown noise"):
            resolve_noise(bad)


def test_entrants_from_the_command_line() -> None:
    bot = parse_entrant("my bot=python3 'my bot.py' --fast", cwd="/tmp")
    assert (bot.name, bot.command, bot.cwd, bot.kind) == (
        "my bot",
        ("python3", "my bot.py", "--fast"),
        "/tmp",
        "program",
    )
    assert parse_entrant("club").level == "club"
    for bad in ("shark", "x=", "x='unclosed", "=python3 bot.py", "a\tb=python3 x.py"):
        with pytest.raises(ValueError):  # noqa: PT011 - each message names the entrant
            parse_entrant(bad)


# ------------------------------------------------------------------------ the built-in side


def _session_reply(session: EngineSession, message: dict[str, Any]) -> Any:
    return session.handle(json.loads(json.dumps(message)))


def test_a_built_in_player_speaks_the_protocol() -> None:
    session = EngineSession(GhostBallPlayer())
    hello = parse_hello(_session_reply(session, {"type": "hello", "protocols": [1]}))
    assert (hello.name, hello.protocol) == ("ghost", 1)
    assert _session_reply(session, {"type": "ready"}) == {"type": "readyok"}
    assert _session_reply(session, {"type": "turn", "id": 1})["type"] == "log"
    assert _session_reply(session, {"type": "what"})["type"] == "log"
    assert session.handle("not a message")["type"] == "log"  # type: ignore[index]
    assert _session_reply(session, {"type": "result"}) is None
    _session_reply(session, {"type": "quit"})
    assert session.finished


def test_serve_engine_answers_line_by_line_and_skips_overlong_lines() -> None:
    source = io.BytesIO(
        b'{"type": "hello", "protocols": [1]}\n'
        + b"x" * 100_000
        + b"\n"
        + b"\xff\xfe\n"
        + b'{"type": "ready"}\n{"type": "quit"}\n{"type": "ready"}\n'
    )
    sink = io.BytesIO()
    assert serve_engine(EngineSession(GhostBallPlayer()), source, sink) == 0
    replies = [json.loads(line) for line in sink.getvalue().splitlines()]
    assert [r["type"] for r in replies] == ["hello", "log", "log", "readyok"]


# ------------------------------------------------------------------------------------ pipes


def _python(code: str) -> PipeConnection:
    connection = PipeConnection([sys.executable, "-c", code])
    connection.open()
    return connection


def test_a_line_over_the_limit_is_refused_and_never_held_whole() -> None:
    code = (
        "import sys; sys.stdout.write('y' * 3_000_000 + '\\n{\"type\": \"log\"}\\n'); "
        "sys.stdout.flush()"
    )
    connection = _python(code)
    try:
        first = connection.receive(time.monotonic() + 10)
        assert isinstance(first, Line)
        assert first.value is None
        assert first.error == "bad JSON: the line is 3000000 bytes long, over 65536"
        assert len(connection._buf) < 2 * 65_536
        second = connection.receive(time.monotonic() + 10)
        assert isinstance(second, Line)
        assert second.value == {"type": "log"}
    finally:
        connection.kill()


def test_a_program_that_exits_is_closed_with_its_status_and_stderr() -> None:
    connection = _python("import sys; print('bye', file=sys.stderr); sys.exit(3)")
    try:
        closed = connection.receive(time.monotonic() + 10)
        assert isinstance(closed, Closed)
        assert closed.status == 3
        assert "bye" in closed.stderr
    finally:
        connection.kill()


def test_a_program_that_does_not_read_is_cut_off() -> None:
    connection = _python("import time; time.sleep(60)")
    try:
        message = {"type": "log", "text": "z" * 1000}
        for _ in range(MAX_UNREAD_BYTES // 1100):
            connection.send(message)
        with pytest.raises(LinkError, match="unread") as cut:
            connection.send({"type": "log", "text": "z" * 200_000})
        assert cut.value.code == "not_reading"
        assert isinstance(connection.receive(time.monotonic() + 0.1), Silence)
    finally:
        connection.kill()


def test_kill_ends_the_program_and_what_it_started() -> None:
    connection = PipeConnection(["sh", "-c", "sleep 60 & echo $!; wait"])
    connection.open()
    line = connection.receive(time.monotonic() + 10)
    assert isinstance(line, Line)
    assert isinstance(line.value, int)
    child = line.value
    connection.kill()
    for _ in range(100):
        try:
            os.kill(child, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        pytest.fail(f"the program's child {child} outlived it")


def test_a_command_that_cannot_start() -> None:
    with pytest.raises(LinkError, match="cannot start") as failed:
        PipeConnection(["/no/such/program"]).open()
    assert failed.value.code == "start_failed"


# ------------------------------------------------------------------------------------ the host


class _Sleepy(GhostBallPlayer):
    """A built-in player that thinks too long."""

    def decide(self, view: Position, rng: np.random.Generator) -> Decision:
        time.sleep(0.3)
        return super().decide(view, rng)


def test_an_in_process_player_that_overruns_loses_the_shot() -> None:
    match = _match()
    player = EnginePlayer(
        LocalConnection(EngineSession(_Sleepy())),
        name="sleepy",
        time_control=TimeControl(move=0.1, start=1.0),
    )
    player.start_match(match.config, Seat.FIRST, table=match.table, params=match.params)
    decided = player.decide(match.position, np.random.default_rng(0))
    assert decided.lost
    assert [f.code for f in player.faults] == ["timeout"]


def test_an_engine_player_works_in_play_match_and_starts_itself() -> None:
    from nineball.players import play_match

    match = _match(3)
    player = EnginePlayer(PipeConnection(REFERENCE.split()), name="ref", time_control=FAST)
    try:
        play_match(match, [player, GhostBallPlayer()])
    finally:
        player.close()
    assert match.state.is_over
    assert player.faults == []
    assert player.hello is not None
    assert player.hello.name == "reference"


def test_the_game_clock_forfeits_the_game() -> None:
    match = _match()
    player = EnginePlayer(
        PipeConnection([*HOSTILE.split(), "slow"]),
        name="slow",
        time_control=TimeControl(move=5.0, game=0.5, start=5.0),
    )
    try:
        player.start_match(match.config, Seat.FIRST, table=match.table, params=match.params)
        with pytest.raises(ForfeitError) as forfeit:
            player.decide(match.position, np.random.default_rng(0))
    finally:
        player.close()
    assert forfeit.value.scope == "game"
    assert [f.code for f in player.faults] == ["game_time"]


# ------------------------------------------------------------------------------ the arena


def _arena_match(
    second: str, *, race_to: int = 1, seed: int = 5, time_control: TimeControl = FAST
) -> Any:
    entrants = [parse_entrant("ghost"), parse_entrant(second)]
    options = ArenaSettings(race_to=race_to, time=time_control)
    job = arena_jobs(entrants, 1, seed, options)[0]
    return play_arena_job(job)


HOSTILE_CASES = [
    # mode, the first fault, its penalty, whether the ghost must win the match
    ("garbage", "bad_line", "lost_shot", True),
    ("wrong_json", "bad_answer", "lost_shot", True),
    ("range", "illegal_action", "lost_shot", True),
    ("placement", "illegal_action", "lost_shot", True),
    ("binary", "bad_line", "lost_shot", True),
    ("hang", "timeout", "lost_shot", True),
    ("slow", "timeout", "lost_shot", True),
    ("crash", "crashed", "match", False),
    ("flood", "flood", "match", True),
    ("huge", "bad_line", "lost_shot", False),
    ("no_hello", "handshake", "match", True),
    ("old", "handshake", "match", True),
    ("deaf", "handshake", "match", True),
]


@pytest.mark.parametrize(("mode", "code", "penalty", "ghost_wins"), HOSTILE_CASES)
def test_a_hostile_program_is_penalised_as_the_protocol_says(
    mode: str, code: str, penalty: str, ghost_wins: bool
) -> None:
    quick = TimeControl(move=0.5, game=60.0, start=1.5)  # the handshake cases wait it out
    result = _arena_match(f"{mode}={HOSTILE} {mode}", time_control=quick)
    faults = [f for f in result.faults if f["name"] == mode]
    assert faults, f"{mode}: no fault recorded"
    first = next(f for f in faults if f["penalty"] != "none")
    assert (first["code"], first["penalty"]) == (code, penalty), faults
    assert not [f for f in result.faults if f["name"] == "ghost"]
    assert result.winner is not None
    assert sum(result.score) >= 1
    if ghost_wins:
        assert result.players[result.winner] == "ghost"
    # Every match ends as a valid record that replays through the physics.
    record = load_record(json.dumps(result.record))
    assert record.winner == result.winner
    assert arena_from_row(json.loads(json.dumps(arena_row(result)))) == result


def test_the_hostile_programs_details() -> None:
    hung = _arena_match(f"hang={HOSTILE} hang")
    codes = [(f["code"], f["penalty"]) for f in hung.faults]
    assert codes[:2] == [("timeout", "lost_shot"), ("hung", "match")]
    slow = _arena_match(f"slow={HOSTILE} slow", race_to=1)
    assert {f["code"] for f in slow.faults} >= {"timeout", "stale"}
    assert "hung" not in {f["code"] for f in slow.faults}
    crash = _arena_match(f"crash={HOSTILE} crash", race_to=2)
    crashed = next(f for f in crash.faults if f["code"] == "crashed")
    assert "exit status 3" in crashed["message"]
    assert "segmentation fault" in crashed["message"]
    if crash.players[crash.winner] == "ghost":
        assert crash.score[crash.players.index("ghost")] == 2
    stray = _arena_match(f"stray={HOSTILE} out_of_turn")
    stray_codes = {f["code"] for f in stray.faults}
    assert "out_of_turn" in stray_codes
    assert all(f["penalty"] == "none" for f in stray.faults)
    huge = _arena_match(f"huge={HOSTILE} huge")
    assert "200" in next(f for f in huge.faults if f["code"] == "bad_line")["message"]


def test_three_lost_shots_in_a_row_lose_the_game_by_clause_12() -> None:
    result = _arena_match(f"garbage={HOSTILE} garbage", race_to=2)
    record = load_record(json.dumps(result.record))
    reasons = {game.result.reason.value for game in record.games if game.result}
    assert "three_fouls" in reasons
    assert result.players[result.winner] == "ghost"


def test_a_program_that_cannot_start_forfeits_every_game() -> None:
    result = _arena_match("nothing=/no/such/program --flag", race_to=3)
    assert [f["code"] for f in result.faults] == ["start_failed"]
    assert result.players[result.winner] == "ghost"
    record = load_record(json.dumps(result.record))
    assert [g.result.reason.value for g in record.games if g.result] == ["forfeit"] * 3


def test_two_programs_that_cannot_start_make_a_void_match() -> None:
    entrants = [parse_entrant("a=/no/such/a"), parse_entrant("b=/no/such/b")]
    job = arena_jobs(entrants, 1, 0, ArenaSettings(time=FAST))[0]
    result = play_arena_job(job)
    assert result.winner is None
    assert result.games == ()


def test_a_built_in_player_plays_the_same_through_the_pipe_and_in_process() -> None:
    pipe = f"beginner={sys.executable} -m nineball.cli engine --level beginner"
    entrants = {
        "process": [parse_entrant(f"ref={REFERENCE}"), parse_entrant("beginner")],
        "pipe": [parse_entrant(f"ref={REFERENCE}"), parse_entrant(pipe)],
    }
    records = {}
    for how, pair in entrants.items():
        settings = ArenaSettings(race_to=1, time=TimeControl(move=10.0, start=60.0))
        if how == "pipe":  # the program gets the level's own hands, as in process
            pair = [pair[0], replace(pair[1], noise="beginner")]
        job = arena_jobs(pair, 1, 21, settings)[0]
        result = play_arena_job(job)
        assert result.faults == ()
        records[how] = {k: v for k, v in result.record.items() if k != "date"}
    assert records["pipe"] == records["process"]


@pytest.mark.parametrize(
    ("budget", "code", "reasons"),
    [
        (TimeControl(move=5.0, game=0.5, start=5.0), "game_time", {"forfeit"}),
        (TimeControl(move=5.0, game=None, match=0.5, start=5.0), "match_time", {"forfeit"}),
    ],
)
def test_running_out_of_the_budget_forfeits(
    budget: TimeControl, code: str, reasons: set[str]
) -> None:
    result = _arena_match(f"slow={HOSTILE} slow", race_to=2, time_control=budget)
    assert [f["code"] for f in result.faults if f["penalty"] != "none"][:1] == [code]
    assert result.players[result.winner] == "ghost"
    record = load_record(json.dumps(result.record))
    slow = result.players.index("slow")
    forfeited = [g for g in record.games if g.result and g.result.reason.value == "forfeit"]
    assert forfeited
    assert all(g.result.winner != slow for g in forfeited)
    if code == "match_time":  # every game left went at once
        assert record.games[-1].shots[-1].kind.value == "forfeit"


def test_a_noise_that_grows_with_speed_crosses_the_wire_and_a_class_says_nothing_of_it() -> None:
    from nineball.game.noise import TOURNAMENT_NOISE
    from nineball.players.levels import LEVELS
    from nineball.players.protocol.wire import noise_from_json, noise_json

    hands = LEVELS["pro"].noise
    sent = json.loads(json.dumps(noise_json(hands, "pro")))
    assert sent["growth"] == 0.5
    back = noise_from_json(sent)
    assert back.growth == hands.growth
    assert back.aim == pytest.approx(hands.aim, rel=1e-12)
    plain = noise_json(TOURNAMENT_NOISE, "tournament")
    assert "growth" not in plain
    assert noise_from_json(plain).growth == 0.0
    with pytest.raises(ProtocolError, match="growth"):
        noise_from_json(sent | {"growth": 2})
