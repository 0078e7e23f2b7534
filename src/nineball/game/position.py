"""A position of a match between two strokes: what the referee knows and where the balls are.

A :class:`Position` is a value: the referee's state, the balls on the table, the cue ball placed
by hand (while it is in hand), the table and the physical parameters. The step of the game
(:func:`nineball.game.play_stroke`) takes one and a stroke and gives the next; the computer
players see one (it is what a player at the table sees), and :class:`nineball.game.Match` keeps
one as its current position.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from functools import cached_property

from nineball.equipment import BallId, Point
from nineball.errors import IllegalActionError, InvalidPlacementError
from nineball.game.layout import check_cue_placement
from nineball.physics import PhysicsParams, PreparedBalls, TableSpec, nine_foot
from nineball.rules import CueBall, MatchState

__all__ = ["Position"]


def _default_table() -> TableSpec:
    return nine_foot()


@dataclass(frozen=True, kw_only=True, eq=False)
class Position:
    """The position before a stroke.

    >>> from nineball.rules import MatchState
    >>> position = Position(state=MatchState.start(), layout={BallId.ONE: (0.635, 1.905)})
    >>> position.in_hand
    <CueBall.KITCHEN: 'kitchen'>
    >>> position.place((0.635, 0.4)).cue
    (0.635, 0.4)
    """

    state: MatchState
    """The referee's state: whose turn, the phase, the lowest ball, push out allowed, score."""
    layout: Mapping[BallId, Point]
    """The balls on the table. The cue ball is absent when it is in hand off the table; when it
    is in hand but still on the table (a foul that left it there) it is here where it lies."""
    placed: Point | None = None
    """Where the cue ball in hand has been placed (None: not placed)."""
    table: TableSpec = field(default_factory=_default_table)
    params: PhysicsParams = field(default_factory=PhysicsParams)

    def __post_init__(self) -> None:
        """Keep a private copy of the layout, so that the value cannot change under us."""
        object.__setattr__(self, "layout", dict(self.layout))

    def __eq__(self, other: object) -> bool:
        """Equal when every field is (the table and parameters by value)."""
        if not isinstance(other, Position):
            return NotImplemented
        return (
            self.state == other.state
            and dict(self.layout) == dict(other.layout)
            and self.placed == other.placed
            and self.table == other.table
            and self.params == other.params
        )

    __hash__ = None  # type: ignore[assignment]  # a mapping inside: not hashable

    @property
    def in_hand(self) -> CueBall | None:
        """``KITCHEN`` or ``ANYWHERE`` when the cue ball is in hand, else None."""
        if self.state.is_over:
            return None
        cue = self.state.cue_ball
        return None if cue is CueBall.IN_PLACE else cue

    @property
    def cue(self) -> Point | None:
        """Where the cue ball will be struck from: placed by hand, or where it lies."""
        return self.placed or self.layout.get(BallId.CUE)

    @property
    def balls(self) -> dict[BallId, Point]:
        """The balls as they stand for the stroke (the cue ball where it is placed)."""
        out = {b: p for b, p in self.layout.items() if b is not BallId.CUE or not self.placed}
        if self.placed is not None:
            out[BallId.CUE] = self.placed
        return out

    def check_cue_ball(self, point: Point) -> None:
        """Check a placement of the cue ball in hand without making it.

        Raises:
            InvalidPlacementError: the cue ball is not in hand, or the place is not allowed
                (see :func:`nineball.game.layout.check_cue_placement`).
        """
        region = self.in_hand
        if region is None:
            raise InvalidPlacementError("the cue ball is not in hand: it is played where it lies")
        others: dict[BallId, Point] = {b: p for b, p in self.layout.items() if b is not BallId.CUE}
        check_cue_placement(point, others, region, self.table, self.params)

    def place(self, point: Point) -> Position:
        """This position with the cue ball in hand placed at ``point`` (clause 9).

        Raises:
            InvalidPlacementError: the cue ball is not in hand, or the place is not allowed.
        """
        self.check_cue_ball(point)
        return replace(self, placed=(float(point[0]), float(point[1])))

    def ready(self) -> Position:
        """This position ready to strike: a cue ball in hand left where it lies is placed there.

        Raises:
            IllegalActionError: the cue ball is in hand, not placed and not on the table.
            InvalidPlacementError: the cue ball is in hand where it lies, and may not be
                played from there.
        """
        if self.in_hand is None or self.placed is not None:
            return self
        lying = self.layout.get(BallId.CUE)
        if lying is None:
            where = "behind the head string" if self.in_hand is CueBall.KITCHEN else "anywhere"
            raise IllegalActionError(f"place the cue ball in hand first ({where})")
        return self.place(lying)

    @cached_property
    def prepared(self) -> PreparedBalls:
        """The balls packed for the physics once, to be struck many times.

        The physics checks them with their first strike (or :meth:`PreparedBalls.check`): a
        position played once is checked and struck in one compiled call.

        Raises:
            InvalidInputError: a point that is not two numbers.
        """
        return PreparedBalls.resting(
            [(int(b), p) for b, p in sorted(self.balls.items())],
            params=self.params,
            table=self.table,
        )
