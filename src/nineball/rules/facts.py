"""What happened on one stroke, as the referee needs to know it."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from nineball.equipment import BALLS, BallId
from nineball.errors import InvalidShotError

__all__ = ["ShotFacts"]


def _ball(value: object, field: str) -> BallId:
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= 9:
        raise InvalidShotError(f"{field}: {value!r} is not a ball (0 is the cue ball, 1-9)")
    return BALLS[value]


def _balls(values: Iterable[object], field: str) -> frozenset[BallId]:
    balls = [_ball(v, field) for v in values]
    seen: set[BallId] = set()
    for ball in balls:
        if ball in seen:
            raise InvalidShotError(f"{field}: ball {int(ball)} is listed twice")
        seen.add(ball)
    return frozenset(balls)


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotFacts:
    """The facts of one stroke, observed after every ball came to rest.

    These are exactly the fields of the referee protocol's ``shot`` request apart from the push-out
    declaration, which is an intention and not a fact. The physics engine reports them (it is the
    referee's eyes); a scorekeeper at a real table types them in.

    >>> ShotFacts.of(first_contact=1, pocketed=[4], rails=[2, 3]).pocketed_object_balls
    frozenset({<BallId.FOUR: 4>})
    """

    first_contact: BallId | None = None
    """The first object ball the cue ball touched, or None when it touched none."""

    pocketed: frozenset[BallId] = frozenset()
    """Balls that ended in a pocket (BallId.CUE for a scratch)."""

    off_table: frozenset[BallId] = frozenset()
    """Balls that came to rest off the playing surface, not pocketed (clause 10)."""

    rails: frozenset[BallId] = frozenset()
    """Balls (the cue ball included) that touched a cushion after the cue ball's first contact."""

    obstruction_moved: bool = False
    """Clause 11: an obstructing ball moved during a jump, curve or massé attempt."""

    def __post_init__(self) -> None:
        """Check that the facts are consistent in themselves.

        Raises:
            InvalidShotError: a ball number out of range, the cue ball as first contact, or a
                ball both pocketed and off the table.
        """
        if (
            self.first_contact is not None
            and _ball(self.first_contact, "first_contact") is BallId.CUE
        ):
            raise InvalidShotError("first_contact: 0 is the cue ball, not an object ball")
        for name in ("pocketed", "off_table", "rails"):
            value = getattr(self, name)
            if not isinstance(value, frozenset):
                raise InvalidShotError(f"{name}: expected a frozenset of balls, got {value!r}")
            if any(type(ball) is not BallId for ball in value):  # else balls, and no twice
                _balls(value, name)
        both = self.pocketed & self.off_table
        if both:
            ball = min(both)
            raise InvalidShotError(f"ball {int(ball)} cannot be both pocketed and off the table")

    @classmethod
    def of(
        cls,
        *,
        first_contact: int | None = None,
        pocketed: Iterable[int] = (),
        off_table: Iterable[int] = (),
        rails: Iterable[int] = (),
        obstruction_moved: bool = False,
    ) -> ShotFacts:
        """Build facts from plain ball numbers (0 for the cue ball).

        Raises:
            InvalidShotError: a number that is not a ball, a ball listed twice in one field, or
                facts that contradict each other.
        """
        return cls(
            first_contact=None if first_contact is None else _ball(first_contact, "first_contact"),
            pocketed=_balls(pocketed, "pocketed"),
            off_table=_balls(off_table, "off_table"),
            rails=_balls(rails, "rails"),
            obstruction_moved=obstruction_moved,
        )

    @property
    def pocketed_object_balls(self) -> frozenset[BallId]:
        """The object balls that ended in a pocket."""
        return self.pocketed - {BallId.CUE}

    @property
    def off_table_object_balls(self) -> frozenset[BallId]:
        """The object balls that came to rest off the table."""
        return self.off_table - {BallId.CUE}

    @property
    def balls_seen(self) -> frozenset[BallId]:
        """Every ball the facts name."""
        named = self.pocketed | self.off_table | self.rails
        return named if self.first_contact is None else named | {self.first_contact}
