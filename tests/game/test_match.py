"""A match through the real physics: the break, ball in hand, push outs, games, records, replay."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import pytest

from nineball import BallId, IllegalActionError, InvalidPlacementError, NineballError
from nineball.game import dump_record, load_record
from nineball.game.match import Match, replay
from nineball.game.store import Store
from nineball.physics import Stroke
from nineball.players import GhostBallPlayer, play_match
from nineball.rules import Choice, CueBall, MatchConfig, Phase, Seat, Termination

CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=2)


def _aim(src: tuple[float, float], dst: tuple[float, float]) -> float:
    return math.atan2(dst[1] - src[1], dst[0] - src[0])


def _break(match: Match, speed: float = 10.0) -> None:
    cue = (0.6, 0.45)
    match.place_cue_ball(cue)
    match.strike(Stroke(speed=speed, aim=_aim(cue, match.layout[BallId.ONE])))


def test_the_break_needs_the_cue_ball_in_the_kitchen() -> None:
    match = Match(CONFIG, seed=1)
    assert match.cue_ball_in_hand
    assert match.state.cue_ball is CueBall.KITCHEN
    with pytest.raises(IllegalActionError, match="place the cue ball in hand first"):
        match.strike(Stroke(speed=8.0))
    with pytest.raises(InvalidPlacementError, match="behind the head string"):
        match.place_cue_ball((0.635, 0.7))
    assert match.cue_ball is None
    match.place_cue_ball((0.635, 0.3))
    match.place_cue_ball((0.5, 0.3))  # adjustable until the stroke (clause 9)
    assert match.cue_ball == (0.5, 0.3)


def test_a_break_through_the_physics_is_ruled() -> None:
    match = Match(CONFIG, seed=2)
    _break(match)
    entry = match.record.games[0].shots[0]
    assert entry.facts is not None
    assert entry.facts.first_contact is BallId.ONE
    assert entry.cue_ball == (0.6, 0.45)
    assert entry.positions == match.layout
    assert match.state.phase is Phase.SHOT
    assert match.record.games[0].rack is not None
    assert match.record.games[0].rack[BallId.ONE] == (0.635, 1.905)


def test_push_out_and_pass() -> None:
    match = Match(CONFIG, seed=3)
    _break(match)
    pusher = match.state.to_act
    assert match.state.push_out_allowed
    cue = match.layout[BallId.CUE]
    match.strike(Stroke(speed=0.5, aim=_aim(cue, (0.2, cue[1]))), push_out=True)
    assert match.state.phase is Phase.PUSH_OUT_CHOICE
    with pytest.raises(IllegalActionError, match="must first choose"):
        match.strike(Stroke(speed=1.0))
    match.choose(Choice.PASS)
    assert match.state.to_act is pusher
    assert match.state.phase is Phase.SHOT


def test_ball_in_hand_after_a_scratch() -> None:
    match = Match(CONFIG, seed=4)
    _break(match)
    shooter = match.state.to_act
    cue = match.layout[BallId.CUE]
    # Shoot the cue ball straight into the nearest corner: a scratch.
    corner = min(
        ((0.0, 0.0), (1.27, 0.0), (0.0, 2.54), (1.27, 2.54)), key=lambda p: math.dist(p, cue)
    )
    report = match.strike(Stroke(speed=4.0, aim=_aim(cue, corner)))
    if BallId.CUE in report.facts.pocketed:
        assert match.state.cue_ball is CueBall.ANYWHERE
        assert match.state.to_act is shooter.other
        assert BallId.CUE not in match.layout
        with pytest.raises(IllegalActionError, match="anywhere"):
            match.strike(Stroke(speed=1.0))
        lowest = match.layout[match.state.lowest]
        with pytest.raises(InvalidPlacementError, match="touches"):
            match.place_cue_ball((lowest[0], lowest[1] - 2 * match.params.radius))
        before = match.record
        match.place_cue_ball((0.3, 0.3))
        assert match.record == before
    else:  # the path was blocked: still a ruling, and the position moved on
        assert report.ruling.fouls


def test_ghost_players_finish_a_match_and_the_record_replays_bit_for_bit(tmp_path: object) -> None:
    match = Match(CONFIG, seed=11)
    play_match(match, [GhostBallPlayer(), GhostBallPlayer()], np.random.default_rng(11))
    record = match.record
    assert record.winner is not None
    assert max(match.state.score) == 2
    assert all(g.result is not None for g in record.games)
    assert record.games[-1].result is not None
    assert record.games[-1].result.reason in set(Termination)
    again = load_record(dump_record(record))
    assert again == record
    entries = list(replay(again))
    assert len(entries) == sum(len(g.shots) for g in record.games)
    assert [p for *_, p in entries if p is not None] == []


def test_same_seed_same_match() -> None:
    def run() -> str:
        match = Match(CONFIG, seed=5)
        play_match(match, [GhostBallPlayer(), GhostBallPlayer()], np.random.default_rng(5))
        return dump_record(match.record)

    assert run() == run()


def test_a_tampered_record_is_caught_by_the_replay() -> None:
    match = Match(CONFIG, seed=6)
    _break(match)
    record = match.record
    shot = record.games[0].shots[0]
    assert shot.positions is not None
    moved = dict(shot.positions)
    x, y = moved[BallId.CUE]
    moved[BallId.CUE] = (x + 1e-12, y)
    from dataclasses import replace

    game = replace(record.games[0], shots=(replace(shot, positions=moved),))
    tampered = replace(record, games=(game,))
    problems = [p for *_, p in replay(tampered) if p is not None]
    assert [p.path for p in problems] == ["$.games[0].shots[0].positions"]


def test_undo_restores_the_position() -> None:
    match = Match(CONFIG, seed=7)
    _break(match)
    layout, state = dict(match.layout), match.state
    cue = match.layout[BallId.CUE]
    match.strike(Stroke(speed=3.0, aim=_aim(cue, match.layout[match.state.lowest])))
    match.undo()
    assert match.layout == layout
    assert match.state == state
    match.undo()
    assert match.state.phase is Phase.BREAK
    assert match.cue_ball == (0.6, 0.45)  # where it was placed for the break
    with pytest.raises(IndexError):
        match.undo()


def test_forfeit_racks_the_next_game(tmp_path: object) -> None:
    match = Match(CONFIG, seed=8)
    match.forfeit(Seat.FIRST)
    assert match.state.score == (0, 1)
    assert match.state.game.number == 2
    assert len(match.layout) == 9
    rack = dict(match.layout)
    _break(match)
    assert match.record.games[1].rack == rack


def test_a_stored_match_is_committed_entry_by_entry(tmp_path: object) -> None:
    from pathlib import Path

    assert isinstance(tmp_path, Path)
    with Store(tmp_path / "m.db") as store:
        match = Match(CONFIG, seed=9, store=store)
        _break(match)
        assert match.match_id is not None
        assert store.load(match.match_id) == match.record


def test_unknown_table() -> None:
    from nineball import InvalidInputError

    with pytest.raises(InvalidInputError, match="unknown table '10ft'"):
        Match(CONFIG, table="10ft")


def test_set_position_puts_balls_back_and_the_referee_follows(tmp_path: Path) -> None:
    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=3)
    match.set_position({BallId.CUE: (0.6, 0.5), BallId.THREE: (0.6, 1.5), BallId.NINE: (0.3, 2.2)})
    state = match.state
    assert state.phase is Phase.SHOT
    assert state.on_table == {BallId.THREE, BallId.NINE}
    assert state.lowest is BallId.THREE
    assert state.cue_ball is CueBall.IN_PLACE
    assert match.cue_ball == (0.6, 0.5)
    report = match.strike(Stroke(speed=2.0, aim=math.pi / 2))
    assert report.facts.first_contact is BallId.THREE
    # No cue ball in the layout: in hand anywhere.
    match.set_position({BallId.FIVE: (0.6, 1.0), BallId.NINE: (0.6, 2.0)})
    assert match.state.cue_ball is CueBall.ANYWHERE
    assert match.cue_ball_in_hand
    with pytest.raises(IndexError):
        match.undo()  # the record no longer replays to this position
    before = (match.state, dict(match.layout))
    for layout, words in [
        ({BallId.ONE: (0.6, 1.0)}, "the 9 must be on the table"),
        ({BallId.ONE: (0.6, 1.0), BallId.NINE: (0.6, 1.01)}, "the 1 .* overlaps the 9"),
        ({BallId.NINE: (5.0, 1.0)}, "off the playing surface"),
    ]:
        with pytest.raises(NineballError, match=words):
            match.set_position(layout)
        assert (match.state, dict(match.layout)) == before
    with Store(tmp_path / "s.sqlite3") as store:
        stored = Match(MatchConfig(), seed=1, store=store)
        with pytest.raises(IllegalActionError, match="stored"):
            stored.set_position({BallId.NINE: (0.6, 2.0)})


def test_a_jump_attempt_whose_bridge_lands_on_a_ball_is_a_clause_11_foul() -> None:
    from nineball.game.match import obstruction_moved
    from nineball.rules import Foul

    # The 3 to hit up the table; the 5 lies on the cue line 0.2 m behind the cue ball, where
    # the bridge hand of a raised cue goes.
    layout = {
        BallId.CUE: (0.6, 0.8),
        BallId.THREE: (0.6, 1.5),
        BallId.FIVE: (0.6, 0.6),
        BallId.NINE: (0.3, 2.2),
    }
    jump = Stroke(speed=2.0, aim=math.pi / 2, elevation=math.radians(40))
    level = Stroke(speed=2.0, aim=math.pi / 2)
    assert obstruction_moved(layout, jump)
    assert not obstruction_moved(layout, level)  # not an attempt: the bridge goes elsewhere
    assert not obstruction_moved({b: p for b, p in layout.items() if b != BallId.FIVE}, jump)
    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=3)
    match.set_position(layout)
    report = match.strike(jump)
    assert report.facts.obstruction_moved
    assert Foul.OBSTRUCTION_MOVED in report.ruling.fouls
    again = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=3)
    again.set_position(layout)
    assert not again.strike(level).facts.obstruction_moved


def test_a_ball_jumped_off_the_table_is_ruled_by_clause_10_from_the_physics() -> None:
    from nineball.rules import Foul

    # The cue ball jumped hard at the foot cushion: it flies over the rail.
    layout = {BallId.CUE: (0.635, 2.0), BallId.THREE: (0.2, 1.0), BallId.NINE: (1.1, 0.4)}
    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=3)
    match.set_position(layout)
    report = match.strike(Stroke(speed=4.0, aim=math.pi / 2, elevation=math.radians(60)))
    assert report.facts.off_table == {BallId.CUE}
    assert Foul.CUE_BALL_OFF_TABLE in report.ruling.fouls
    assert BallId.CUE not in match.layout  # in hand for Bob, anywhere
    assert match.state.cue_ball is CueBall.ANYWHERE
    assert match.state.to_act is Seat.SECOND
    assert match.layout == {BallId.THREE: (0.2, 1.0), BallId.NINE: (1.1, 0.4)}


def test_a_refused_stroke_changes_nothing_not_even_the_cue_ball_it_places() -> None:
    match = Match(CONFIG, seed=4)
    before = (match.position, match.cue_ball, match.record)
    # A push out on the break: refused before anything is played or placed.
    with pytest.raises(IllegalActionError, match="clause 5"):
        match.strike(Stroke(speed=3.0, aim=math.pi / 2), cue=(0.6, 0.45), push_out=True)
    # A miscue from a good spot: refused by the physics, the cue ball not placed.
    with pytest.raises(NineballError, match="miscue"):
        match.strike(Stroke(speed=3.0, aim=math.pi / 2, side=0.6), cue=(0.6, 0.45))
    # A spot in front of the head string on the break.
    with pytest.raises(InvalidPlacementError):
        match.strike(Stroke(speed=3.0, aim=math.pi / 2), cue=(0.6, 1.2))
    assert (match.position, match.cue_ball, match.record) == before
    assert match.cue_ball is None
    report = match.strike(Stroke(speed=9.0, aim=_aim((0.6, 0.45), match.layout[BallId.ONE])),
                          cue=(0.6, 0.45))  # fmt: skip
    assert report.shot.cue_ball == (0.6, 0.45)


def test_the_referee_rules_once_on_each_stroke_and_the_record_agrees(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """The step's ruling is the one recorded (the recorder does not ask the referee again),
    in memory and in a store; a replay of the record rules the same."""
    import nineball.game.rulings as rulings
    import nineball.game.step as step
    from nineball.game.rulings import check_rulings

    calls: list[str] = []

    def counted(where: str, real):  # type: ignore[no-untyped-def]
        def shoot(*args, **kwargs):  # type: ignore[no-untyped-def]
            calls.append(where)
            return real(*args, **kwargs)

        return shoot

    monkeypatch.setattr(step, "shoot", counted("step", step.shoot))
    monkeypatch.setattr(rulings, "shoot", counted("recorder", rulings.shoot))
    from nineball.players.play import play_turn

    for store in (None, Store(tmp_path / "m.db")):
        match = Match(MatchConfig(race_to=2), seed=4, store=store)
        player = GhostBallPlayer()
        strokes = 0
        for turn_number in range(40):
            if match.state.is_over:
                break
            calls.clear()
            turn = play_turn(match, player, np.random.default_rng(turn_number))
            if turn.report is None:  # a push-out choice: no stroke, no shot ruled on
                assert calls == []
                continue
            strokes += 1
            assert calls == ["step"]  # once, by the step
            assert match.record.games[-1].shots[-1].fouls == turn.ruling.fouls
        assert strokes >= 10
        assert check_rulings(match.record) == []
