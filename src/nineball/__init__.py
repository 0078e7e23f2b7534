"""nineball: the game of nine-ball pool in Python.

One import is enough for a script. The errors and the ball and pocket names load with the
package; everything else (the game, the physics, the computer players) loads on first use, so
that ``import nineball.rules`` alone never imports numpy or numba.

>>> import nineball
>>> match = nineball.Match(nineball.MatchConfig(players=("Ann", "Bob"), race_to=1), seed=1)
>>> nineball.play_match(match, [nineball.make_player("ghost"), nineball.make_player("ghost")])
>>> match.state.is_over
True
>>> balls = [nineball.BallInput(id=0, r=(0.635, 0.6)), nineball.BallInput(id=1, r=(0.635, 1.9))]
>>> nineball.simulate(balls, stroke=nineball.Stroke(speed=2.0, aim=1.5708)).facts().first_contact
1
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from nineball.__about__ import __version__
from nineball.equipment import BallId, PocketId
from nineball.errors import (
    IllegalActionError,
    InvalidInputError,
    InvalidPlacementError,
    InvalidShotError,
    NineballError,
    ProtocolError,
)

if TYPE_CHECKING:
    from nineball.game import (
        BallInput,
        Match,
        MatchConfig,
        PhysicsParams,
        Position,
        ShotOutcome,
        Stroke,
        TableSpec,
        play_stroke,
        simulate,
    )
    from nineball.players import SearchPlayer, play_match
    from nineball.players.registry import make_player

_LAZY = {
    "BallInput": "nineball.game",
    "Match": "nineball.game",
    "MatchConfig": "nineball.game",
    "PhysicsParams": "nineball.game",
    "Position": "nineball.game",
    "SearchPlayer": "nineball.players",
    "ShotOutcome": "nineball.game",
    "Stroke": "nineball.game",
    "TableSpec": "nineball.game",
    "make_player": "nineball.players.registry",
    "play_match": "nineball.players",
    "play_stroke": "nineball.game",
    "simulate": "nineball.game",
}
"""Names loaded on first use, and the module each comes from."""

__all__ = [
    "BallId",
    "BallInput",
    "IllegalActionError",
    "InvalidInputError",
    "InvalidPlacementError",
    "InvalidShotError",
    "Match",
    "MatchConfig",
    "NineballError",
    "PhysicsParams",
    "PocketId",
    "Position",
    "ProtocolError",
    "SearchPlayer",
    "ShotOutcome",
    "Stroke",
    "TableSpec",
    "__version__",
    "make_player",
    "play_match",
    "play_stroke",
    "simulate",
]


def __getattr__(name: str) -> Any:
    """Load a name of :data:`_LAZY` on first use."""
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'nineball' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    """The names of the package, the lazy ones included."""
    return sorted(set(globals()) | set(_LAZY))
