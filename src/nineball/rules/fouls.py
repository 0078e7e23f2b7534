"""Fouls, each citing the clause of the seed texts that makes it a foul."""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Foul"]


class Foul(StrEnum):
    """A foul. The member order is the order in which a ruling lists several fouls.

    Several fouls on one shot count as one foul (clause 6).
    """

    ILLEGAL_BREAK = "illegal_break"
    """Clause 3a: the break did not hit the 1 first, or pocketed nothing and drove fewer than
    four object balls to a rail (D7: distinct object balls, the cue ball not counted)."""

    CUE_BALL_POCKETED = "cue_ball_pocketed"
    """Clause 6 (and 3b on the break): the cue ball ended in a pocket."""

    CUE_BALL_OFF_TABLE = "cue_ball_off_table"
    """Clause 10 (and 3b on the break): the cue ball came to rest off the playing surface."""

    OBJECT_BALL_OFF_TABLE = "object_ball_off_table"
    """Clause 10 (and 3c on the break): an object ball came to rest off the playing surface."""

    NO_CONTACT = "no_contact"
    """Clause 7: the cue ball touched no object ball."""

    WRONG_BALL_FIRST = "wrong_ball_first"
    """Clause 7: the cue ball first touched a ball other than the lowest on the table."""

    NO_RAIL = "no_rail"
    """Clause 8: nothing was pocketed and no ball touched a rail after the first contact."""

    OBSTRUCTION_MOVED = "obstruction_moved"
    """Clause 11: an obstructing ball moved during a jump, curve or massé attempt."""

    @property
    def clause(self) -> int:
        """The clause (1-13) of the seed texts that defines this foul."""
        return _CLAUSES[self]


_CLAUSES: dict[Foul, int] = {
    Foul.ILLEGAL_BREAK: 3,
    Foul.CUE_BALL_POCKETED: 6,
    Foul.CUE_BALL_OFF_TABLE: 10,
    Foul.OBJECT_BALL_OFF_TABLE: 10,
    Foul.NO_CONTACT: 7,
    Foul.WRONG_BALL_FIRST: 7,
    Foul.NO_RAIL: 8,
    Foul.OBSTRUCTION_MOVED: 11,
}
