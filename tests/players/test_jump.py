"""Jump shots: the measured flight, the strokes it finds, clause 11, the search's use of them."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pytest

from nineball import BallId
from nineball.game.match import Match
from nineball.game.position import Position
from nineball.physics import BallInput, PhysicsParams, PreparedBalls, Stroke, nine_foot, simulate
from nineball.physics.cue import cue_contacts
from nineball.players import play_turn
from nineball.players.jump import JUMP_ELEVATIONS, JUMP_SPEEDS, flights, is_hidden, jump_shots
from nineball.players.search import LEVELS, SearchPlayer
from nineball.rules import CueBall, Foul, MatchConfig, MatchState, Seat, ShotFacts, shoot

TABLE, PARAMS = nine_foot(), PhysicsParams()
R = PARAMS.radius


def _view(layout: dict[BallId, tuple[float, float]]) -> Position:
    # After a legal break with the 2-4 and 6-8 down: the 1, 5 and 9 are left, Ann to shoot.
    start = MatchState.start(MatchConfig(players=("Ann", "Bob")))
    state = shoot(start, ShotFacts.of(first_contact=1, pocketed=[2, 3, 4, 6, 7, 8])).state
    state = replace(state, game=replace(state.game, push_out_allowed=False))
    return Position(state=state, layout=layout, table=TABLE, params=PARAMS)


def _hidden(gap: float, offset: float = 0.0) -> dict[BallId, tuple[float, float]]:
    """The 1 straight up the table from the cue ball, the 5 ``gap`` m ahead of the cue ball."""
    return {
        BallId.CUE: (0.635, 0.8),
        BallId.FIVE: (0.635 + offset, 0.8 + gap),
        BallId.ONE: (0.62, 1.6),
        BallId.NINE: (0.3, 0.3),
    }


def _strike(layout: dict[BallId, tuple[float, float]], stroke: Stroke) -> ShotFacts:
    balls = [BallInput(id=int(b), r=p) for b, p in layout.items()]
    seen = PreparedBalls(balls, params=PARAMS, table=TABLE).strike(stroke).facts()
    return ShotFacts.of(
        first_contact=seen.first_contact, pocketed=seen.pocketed, off_table=seen.off_table
    )


@pytest.mark.parametrize(("elevation_deg", "speed"), [(30, 4.0), (45, 2.5), (60, 3.5)])
def test_the_measured_flight_is_the_cue_balls_flight_in_any_direction(
    elevation_deg: float, speed: float
) -> None:
    # Measured up the table; checked on a diagonal from another spot.
    e = JUMP_ELEVATIONS.index(math.radians(elevation_deg))
    flight = flights(PARAMS)[e * len(JUMP_SPEEDS) + JUMP_SPEEDS.index(speed)]
    assert len(flight.starts) >= 2  # a jump, then at least one bounce
    start, aim = (0.3, 0.4), math.atan2(1.2, 0.7)
    stroke = Stroke(speed=speed, aim=aim, elevation=flight.elevation)
    trajectory = simulate([BallInput(id=0, r=start)], stroke=stroke, params=PARAMS)
    times = np.linspace(0.0, 0.5, 400)
    where = trajectory.positions_at(times)[:, 0, :]
    along = (where[:, 0] - start[0]) * math.cos(aim) + (where[:, 1] - start[1]) * math.sin(aim)
    inside = along < min(flight.reach, 1.2)
    height = flight.height(along[inside])
    assert np.max(where[inside, 2] - R) > 0.03  # it flies
    np.testing.assert_allclose(height, where[inside, 2] - R, atol=1e-6)


@pytest.mark.parametrize(("gap", "pockets"), [(0.1, 2), (0.2, 2), (0.3, 2), (0.5, 0)])
@pytest.mark.parametrize("offset", [0.0, 0.03])
def test_every_jump_found_clears_the_ball_in_the_way(
    gap: float, pockets: int, offset: float
) -> None:
    layout = _hidden(gap, offset)
    view = _view(layout)
    assert is_hidden(view, layout[BallId.CUE])
    shots = jump_shots(view, layout[BallId.CUE])
    # A full hit always; pots in both foot corners when the cue ball lands well before the 1.
    assert "" in {s.pocket for s in shots}
    assert len({s.pocket for s in shots} & {"foot_left", "foot_right"}) >= pockets
    pots = 0
    for shot in shots:
        assert math.radians(30) - 1e-9 <= shot.stroke.elevation <= math.radians(60) + 1e-9
        assert set(shot.over) <= {5}
        facts = _strike(layout, shot.stroke)
        assert facts.first_contact == BallId.ONE, shot
        pots += shot.pocket != "" and BallId.ONE in facts.pocketed
    assert pots >= pockets  # played exactly, the pots mostly go in
    assert any(shot.over == (5,) for shot in shots)


def test_no_jump_when_the_lowest_ball_is_in_view_or_the_ball_in_the_way_is_too_close() -> None:
    clear = _hidden(0.3, offset=0.2)
    assert not is_hidden(_view(clear), clear[BallId.CUE])
    assert jump_shots(_view(clear), clear[BallId.CUE]) == []
    frozen = _hidden(2 * R + 0.002)  # no cue can lift the ball over one this close
    assert jump_shots(_view(frozen), frozen[BallId.CUE]) == []


def test_a_ball_under_the_bridge_hand_rules_out_the_jump_and_the_search_knows_the_foul() -> None:
    layout = _hidden(0.2)
    free = jump_shots(_view(layout), layout[BallId.CUE])
    # A ball 0.2 m behind the cue ball, where the bridge hand goes for a jump up the table.
    crowded = {**layout, BallId.SIX: (0.635, 0.6)}
    view = replace(_view(crowded), state=_view(layout).state)
    balls = {int(b): p for b, p in crowded.items()}
    found = jump_shots(view, crowded[BallId.CUE])
    assert len(found) < len(free)
    assert all(not cue_contacts(balls, s.stroke, PARAMS) for s in found)
    # The search's referee hears of the stick or hand moving a ball (clause 11).
    player = SearchPlayer(LEVELS["pro"])
    search = player._search(view, np.random.default_rng(0))
    fouled = next(s.stroke for s in free if cue_contacts(balls, s.stroke, PARAMS))
    result = search.play(crowded[BallId.CUE], fouled)
    assert result is not None
    assert Foul.OBSTRUCTION_MOVED in result.ruling.fouls
    level = search.play(crowded[BallId.CUE], replace(fouled, elevation=0.0))
    assert level is not None
    assert Foul.OBSTRUCTION_MOVED not in level.ruling.fouls


def test_only_the_strong_levels_jump() -> None:
    jumping = {name for name, level in LEVELS.items() if "jump" in level.kinds}
    assert jumping == {"advanced", "pro", "max"}
    layout = _hidden(0.3)
    club = SearchPlayer(LEVELS["club"]).evaluate(_view(layout), np.random.default_rng(0))
    assert all(c.stroke.elevation == 0.0 for c in club)
    pro = SearchPlayer(LEVELS["pro"]).evaluate(_view(layout), np.random.default_rng(0))
    jumps = [c for c in pro if c.kind == "jump"]
    assert jumps
    assert all(c.ball == 1 and c.stroke.elevation >= math.radians(30) for c in jumps)


def _at(layout: dict[BallId, tuple[float, float]], seed: int) -> Match:
    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=seed)
    match.set_position(layout)
    return match


def test_a_pro_jump_that_leaves_the_table_is_ruled_from_the_physics() -> None:
    # A position from pro self-play (tools/jump_rates.py, seed 0): the 4 hidden behind the 6
    # and the 9. The pro jumps; in a few seeded matches the cue ball clears them, meets the 4
    # and flies off the table, and the referee, told only what the physics saw, rules clause 10.
    layout = {
        BallId.CUE: (0.266, 0.800),
        BallId.FOUR: (1.011, 2.203),
        BallId.FIVE: (1.163, 2.079),
        BallId.SIX: (0.355, 0.951),
        BallId.NINE: (0.901, 2.019),
    }
    # The pro now also finds kicks off two cushions here (players/candidates.py, kicks at a
    # hidden ball) and plays one in some seeds; the jump is what this test is about, so the
    # player here considers no kicks.
    pro = LEVELS["pro"]
    player = SearchPlayer(replace(pro, kinds=pro.kinds - {"kick"}))
    for seed in range(40):
        match = _at(layout, seed)
        report = play_turn(match, player).report
        assert report is not None
        intended = report.shot.intended
        assert intended is not None
        assert intended.elevation_deg >= 30.0  # a jump, every time
        seen = report.trajectory.facts()
        assert report.facts.off_table == frozenset(seen.off_table)
        if seen.off_table and seen.first_contact == BallId.FOUR:
            break
    else:
        raise AssertionError("no jump cleared the 6 and the 9 and left the table")
    assert seen.off_table == (0,)
    assert seen.first_contact == BallId.FOUR  # it cleared the 6 and the 9, then flew on
    assert report.ruling.fouls == (Foul.CUE_BALL_OFF_TABLE,)
    state = report.ruling.state
    assert state.to_act is Seat.SECOND
    assert state.cue_ball is CueBall.ANYWHERE
    assert BallId.CUE not in match.layout
