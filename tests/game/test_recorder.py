"""The match recorder: rules, records, resumes and undoes in step with the referee."""

from __future__ import annotations

import pytest

from nineball import BallId, IllegalActionError
from nineball.game import ShotKind, ShotRecord, check_rulings, dump_record, load_record
from nineball.game.recorder import MatchRecorder
from nineball.rules import Foul, MatchConfig, Phase, Seat, ShotFacts, Termination
from tests.game.conftest import play

RACK = {BallId.ONE: (0.635, 1.905)}
CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=2)


def test_records_fouls_results_and_racks() -> None:
    recorder = MatchRecorder(CONFIG, seed=3, event="test")
    recorder.set_rack(RACK)
    play(recorder, "1 p2", "3")
    game = recorder.game
    assert game is not None
    assert game.rack == RACK
    assert game.shots[1].fouls == (Foul.WRONG_BALL_FIRST,)
    recorder.set_rack({BallId.ONE: (0.6, 1.9)})  # for the next game: this one has shots
    play(recorder, "1 p9")
    record = recorder.record
    assert record.games[0].result is not None
    assert record.games[0].result.reason is Termination.NINE_BALL
    assert record.seed == 3
    assert record.event == "test"
    assert recorder.game is None  # game 2 has no entry yet
    play(recorder, "1 r2345")
    assert recorder.record.games[1].rack == {BallId.ONE: (0.6, 1.9)}
    assert recorder.record.games[1].breaker is Seat.SECOND
    assert check_rulings(recorder.record) == []


def test_a_refused_entry_records_nothing() -> None:
    recorder = MatchRecorder(CONFIG)
    before = recorder.record
    with pytest.raises(IllegalActionError):
        recorder.play(ShotRecord(kind=ShotKind.STROKE, player=Seat.FIRST, push_out=True))
    assert recorder.record == before


def test_resume_gives_the_same_state() -> None:
    recorder = MatchRecorder(CONFIG)
    play(recorder, "1 r2345", "push - r0", "pass")
    resumed = MatchRecorder.resume(load_record(dump_record(recorder.record)))
    assert resumed.state == recorder.state
    assert resumed.record == recorder.record
    assert resumed.state.phase is Phase.SHOT
    assert resumed.state.to_act is Seat.SECOND


def test_resume_keeps_a_racked_game_without_entries() -> None:
    recorder = MatchRecorder(CONFIG)
    recorder.set_rack(RACK)
    assert recorder.record.games == ()
    play(recorder, "1 p9")
    recorder.set_rack(RACK)
    recorder.play(
        ShotRecord(kind=ShotKind.STROKE, player=Seat.SECOND, facts=ShotFacts.of(first_contact=1))
    )
    resumed = MatchRecorder.resume(recorder.record)
    assert resumed.record == recorder.record


def test_undo_walks_back_across_games() -> None:
    recorder = MatchRecorder(CONFIG)
    recorder.set_rack(RACK)
    play(recorder, "1 p2", "1 p9", "1 r2345")
    states = []
    for _ in range(3):
        states.append(recorder.state)
        recorder.undo()
    assert recorder.record.games == ()
    assert recorder.state == MatchRecorder(CONFIG).state
    play(recorder, "1 p2")
    assert recorder.record.games[0].rack == RACK  # the rack survives undoing the first entry
    with pytest.raises(IndexError, match="nothing to undo"):
        MatchRecorder(CONFIG).undo()
    assert states[0].game.number == 2
