"""The lag for the first break, through the physics."""

from __future__ import annotations

import math

import numpy as np

from nineball.game import lag_for_break
from nineball.game.lag import lag, lag_spot
from nineball.game.position import Position
from nineball.physics import PhysicsParams, Stroke, nine_foot
from nineball.players import GhostBallPlayer
from nineball.rules import MatchState, Seat

TABLE, PARAMS = nine_foot(), PhysicsParams()
UP = math.pi / 2


def test_nearer_the_head_cushion_wins() -> None:
    result = lag((Stroke(speed=1.85, aim=UP), Stroke(speed=1.7, aim=UP)), TABLE, PARAMS)
    a, b = result.distances
    assert a is not None
    assert b is not None
    assert result.winner is (Seat.FIRST if a < b else Seat.SECOND)


def test_a_ball_that_does_not_reach_the_foot_cushion_loses() -> None:
    result = lag((Stroke(speed=0.8, aim=UP), Stroke(speed=1.8, aim=UP)), TABLE, PARAMS)
    assert result.distances[0] is None
    assert result.winner is Seat.SECOND


def test_both_failing_is_no_result() -> None:
    result = lag((Stroke(speed=0.5, aim=UP), Stroke(speed=0.5, aim=UP)), TABLE, PARAMS)
    assert result.winner is None
    assert result.distances == (None, None)


def test_the_ghost_player_lags_close_to_the_head_cushion() -> None:
    view = Position(state=MatchState.start(), layout={0: lag_spot(Seat.FIRST)}, table=TABLE,
                     params=PARAMS)  # fmt: skip
    stroke = GhostBallPlayer().lag(view, np.random.default_rng(0))
    result = lag((stroke, Stroke(speed=0.5, aim=UP)), TABLE, PARAMS)
    assert result.winner is Seat.FIRST
    assert result.distances[0] is not None
    assert result.distances[0] < 0.05


def test_tied_lags_end_in_a_seeded_coin_toss() -> None:
    players = [GhostBallPlayer().lag, GhostBallPlayer().lag]
    winners = {lag_for_break(players, TABLE, PARAMS, np.random.default_rng(s))[0] for s in range(8)}
    assert winners == {Seat.FIRST, Seat.SECOND}
    winner, lags = lag_for_break(players, TABLE, PARAMS, np.random.default_rng(3))
    assert len(lags) == 3
    assert all(r.winner is None for r in lags)
    assert winner is lag_for_break(players, TABLE, PARAMS, np.random.default_rng(3))[0]


def test_the_match_lags_from_its_own_stream() -> None:
    from nineball.game import Match, Streams
    from nineball.game import lag_for_break as game_lag

    laggers = [GhostBallPlayer().lag, GhostBallPlayer().lag]
    first = Match.lag(laggers, seed=11)
    assert Match.lag(laggers, seed=11) == first  # same seed, same lag
    # The lag is the game's lag on the match's table, drawn from the match's lag stream.
    assert game_lag(laggers, TABLE, PARAMS, Streams(11).lag()) == first
    assert all(result.distances[0] is not None for result in first[1])
