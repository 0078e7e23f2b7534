"""The terms a program plays under: its clocks, its noise, and what its faults cost.

docs/engine-protocol.md, "Time control", "Noise classes" and "Faults".
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

from nineball.errors import ProtocolError
from nineball.game import ExecutionNoise, NoiseClass, find_noise_class

__all__ = ["PENALTIES", "Fault", "SeatNoise", "TimeControl"]

PENALTIES = ("none", "lost_shot", "game", "match")
"""What a fault costs, mildest first: nothing, the shot, the game, the match."""

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class TimeControl:
    """How long a program may think (wall-clock seconds, measured by nineball).

    >>> TimeControl(move=5.0, game=60.0).as_json()
    {'move_s': 5.0, 'game_s': 60.0, 'match_s': None, 'start_s': 30.0}
    """

    move: float = 30.0
    """Per turn: an answer later than this loses the shot."""
    game: float | None = 300.0
    """Per game, the turns' times added up (the 2011 championships gave 5 minutes a game):
    running out forfeits the game. None: no limit."""
    match: float | None = None
    """Per match: running out forfeits the match. None: no limit."""
    start: float = 30.0
    """For the program to start and answer ``hello`` and each ``ready``."""

    def __post_init__(self) -> None:
        """Check the limits.

        Raises:
            ProtocolError: a limit that is not a positive finite number of seconds.
        """
        for name in ("move", "game", "match", "start"):
            value = getattr(self, name)
            if value is None and name in ("game", "match"):
                continue
            if not (
                isinstance(value, int | float)
                and not isinstance(value, bool)
                and math.isfinite(value)
                and 0 < value <= 86_400
            ):
                raise ProtocolError(f"time control {name!r} must be 0-86400 s, got {value!r}")

    def as_json(self) -> JSON:
        """The time control as ``new_match`` gives it."""
        return {
            "move_s": self.move,
            "game_s": self.game,
            "match_s": self.match,
            "start_s": self.start,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class Fault:
    """Something a program did wrong, and what it cost."""

    code: str
    """The protocol's fault code (docs/engine-protocol.md, "Faults")."""
    penalty: str
    """One of :data:`PENALTIES`."""
    message: str
    game: int
    """The game it happened in (from 1; 0 before the first)."""
    turn: int | None
    """The turn's id, when it happened in a turn."""

    def as_json(self) -> JSON:
        """The fault as the ``result`` and ``error`` messages and the arena's records give it."""
        return {
            "code": self.code,
            "penalty": self.penalty,
            "message": self.message,
            "game": self.game,
            "turn": self.turn,
        }


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatNoise:
    """The execution noise of one seat: a noise class, or a fixed noise (a level's own hands)."""

    label: str
    """What the wire calls it: a class name, or the level whose hands these are."""
    noise_class: NoiseClass | None = None
    fixed: ExecutionNoise | None = None

    @classmethod
    def of_class(cls, name: str) -> SeatNoise:
        """The noise class called ``name`` (see :data:`nineball.game.NOISE_CLASSES`)."""
        return cls(label=name, noise_class=find_noise_class(name))

    def for_game(self, *, seed: int, game: int) -> ExecutionNoise | None:
        """The noise of game ``game`` of the match with ``seed``."""
        if self.noise_class is not None:
            return self.noise_class.noise_for_game(seed=seed, game=game)
        return self.fixed
