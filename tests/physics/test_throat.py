"""A ball may come to rest in a pocket's throat; the engine must take that position as input."""

from __future__ import annotations

import pytest

from nineball import InvalidPlacementError
from nineball.physics import BallInput, PhysicsParams, Stroke, nine_foot, simulate

TABLE, R = nine_foot(), PhysicsParams().radius


@pytest.mark.parametrize(
    "position",
    [
        (0.007387685693112837, 1.3069303734401523),  # came to rest against a side pocket's point
        (0.0, 1.27),  # in the middle of the side pocket's mouth
        (0.015, 0.015),  # in a corner pocket's throat
    ],
)
def test_rest_in_the_throat_is_accepted(position: tuple[float, float]) -> None:
    trajectory = simulate([BallInput(id=1, r=position), BallInput(id=0, r=(0.635, 0.5))],
                          stroke=Stroke(speed=0.5, aim=0.0))  # fmt: skip
    assert trajectory.final_states()[1].r[:2] == position


@pytest.mark.parametrize(
    "position",
    [
        (-0.01, 0.8),  # behind the left cushion, far from any pocket
        (0.0, 1.27 + 0.0635),  # on the side pocket's point
        (-0.2, 1.27),  # beyond the capture line: it would be in the pocket
        (0.5, 2.53),  # through the foot cushion
    ],
)
def test_positions_off_the_surface_are_refused(position: tuple[float, float]) -> None:
    with pytest.raises(InvalidPlacementError, match="outside the playing surface"):
        simulate([BallInput(id=1, r=position)])
