"""Racks (clause 2), the cue ball in hand (clauses 2, 9) and the respotted 9 (D3)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball import BallId, InvalidPlacementError
from nineball.game.layout import PLACEMENT_CLEARANCE, check_cue_placement, rack, respot_nine
from nineball.physics import PhysicsParams, nine_foot
from nineball.rules import CueBall

TABLE = nine_foot()
PARAMS = PhysicsParams()
R = PARAMS.radius
FOOT = TABLE.foot_spot


def test_rack_follows_clause_2() -> None:
    layout = rack(np.random.default_rng(1), TABLE, PARAMS)
    assert set(layout) == set(BallId) - {BallId.CUE}
    assert layout[BallId.ONE] == FOOT
    nine = layout[BallId.NINE]
    assert nine[0] == pytest.approx(0.635, abs=1e-5)
    assert nine[1] == pytest.approx(2.0040, abs=1e-4)
    balls = list(layout.values())
    gaps = [math.dist(a, b) - 2 * R for i, a in enumerate(balls) for b in balls[i + 1 :]]
    assert min(gaps) > 0
    assert sorted(gaps)[15] < 1e-5  # the 16 neighbour pairs are micrometres apart


def test_racks_are_random_but_seeded() -> None:
    a = rack(np.random.default_rng(7), TABLE, PARAMS)
    b = rack(np.random.default_rng(7), TABLE, PARAMS)
    assert a == b

    def order(seed: int) -> tuple[BallId, ...]:
        layout = rack(np.random.default_rng(seed), TABLE, PARAMS)
        return tuple(sorted(layout, key=lambda b: (round(layout[b][1], 3), layout[b][0])))

    orders = {order(seed) for seed in range(6)}
    assert len(orders) > 1


KITCHEN_OK = (0.635, 0.5)


@pytest.mark.parametrize(
    ("position", "region", "message"),
    [
        ((0.635, 0.635), CueBall.KITCHEN, "behind the head string (y < 0.6350 m), got y = 0.6350"),
        ((0.635, 1.0), CueBall.KITCHEN, "behind the head string"),
        ((0.01, 0.5), CueBall.ANYWHERE, "off the playing surface"),
        ((0.635, 2.53), CueBall.ANYWHERE, "off the playing surface"),
        ((math.nan, 0.5), CueBall.ANYWHERE, "must be finite"),
        ((FOOT[0], FOOT[1] - 2 * R), CueBall.ANYWHERE, "touches the 1"),
        ((FOOT[0], FOOT[1] - R), CueBall.ANYWHERE, "overlaps the 1"),
        (KITCHEN_OK, CueBall.IN_PLACE, "not in hand"),
    ],
)
def test_bad_placements(position: tuple[float, float], region: CueBall, message: str) -> None:
    layout = {BallId.ONE: FOOT}
    with pytest.raises(
        InvalidPlacementError, match=message.replace("(", r"\(").replace(")", r"\)")
    ):
        check_cue_placement(position, layout, region, TABLE, PARAMS)


def test_good_placements() -> None:
    layout = {BallId.ONE: FOOT, BallId.CUE: (0.2, 0.2)}
    check_cue_placement(KITCHEN_OK, layout, CueBall.KITCHEN, TABLE, PARAMS)
    check_cue_placement((0.635, 0.6349), layout, CueBall.KITCHEN, TABLE, PARAMS)
    close = (FOOT[0], FOOT[1] - 2 * R - 2 * PLACEMENT_CLEARANCE)
    check_cue_placement(close, layout, CueBall.ANYWHERE, TABLE, PARAMS)
    check_cue_placement((0.2, 0.2), layout, CueBall.ANYWHERE, TABLE, PARAMS)  # its own old spot


def test_respot_on_a_free_spot() -> None:
    assert respot_nine({BallId.THREE: (0.3, 0.3)}, TABLE, PARAMS) == FOOT


def test_respot_behind_an_occupied_spot() -> None:
    x, y = respot_nine({BallId.THREE: FOOT}, TABLE, PARAMS)
    assert x == FOOT[0]
    assert y == pytest.approx(FOOT[1] + 2 * R, abs=2e-6)
    assert y > FOOT[1] + 2 * R


def test_respot_skips_a_row_of_balls_behind() -> None:
    layout = {
        BallId.THREE: FOOT,
        BallId.FOUR: (FOOT[0] + 0.01, FOOT[1] + 2 * R + 0.001),
    }
    x, y = respot_nine(layout, TABLE, PARAMS)
    assert x == FOOT[0]
    for bx, by in layout.values():
        assert math.hypot(x - bx, y - by) >= 2 * R
    assert y > FOOT[1]


def test_respot_in_front_when_there_is_no_room_behind() -> None:
    step = 4 * R - 1e-4  # balls on the string with gaps too small for the 9
    layout = {BallId(b): (FOOT[0], FOOT[1] + (b - 1) * step) for b in range(1, 7)}
    x, y = respot_nine(layout, TABLE, PARAMS)
    assert x == FOOT[0]
    assert y == pytest.approx(FOOT[1] - 2 * R, abs=2e-6)
    assert y < FOOT[1] - 2 * R
