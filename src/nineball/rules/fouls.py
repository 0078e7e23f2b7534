"""Fouls, each citing the clause of the seed texts that makes it a foul."""

from __future__ import annotations

from enum import StrEnum

from nineball.rules.clauses import Clause

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
        """The number (1-13) of the clause of the seed texts that defines this foul."""
        return _DEFINED_BY[self].number

    def clauses(self, *, on_break: bool) -> tuple[Clause, ...]:
        """The clauses a ruling cites for this foul, on the break or on any other stroke.

        On the break, the part of clause 3 that names the foul comes first, then the clause
        that defines it on any stroke:

        >>> [str(c) for c in Foul.CUE_BALL_POCKETED.clauses(on_break=True)]
        ['3b', '6']
        >>> [str(c) for c in Foul.CUE_BALL_POCKETED.clauses(on_break=False)]
        ['6']
        """
        defined = _DEFINED_BY[self]
        on_the_break = _ON_THE_BREAK.get(self) if on_break else None
        return (defined,) if on_the_break is None else (on_the_break, defined)


_DEFINED_BY: dict[Foul, Clause] = {
    Foul.ILLEGAL_BREAK: Clause.BREAK_REQUIREMENT,
    Foul.CUE_BALL_POCKETED: Clause.FOULS,
    Foul.CUE_BALL_OFF_TABLE: Clause.OFF_TABLE,
    Foul.OBJECT_BALL_OFF_TABLE: Clause.OFF_TABLE,
    Foul.NO_CONTACT: Clause.WRONG_BALL,
    Foul.WRONG_BALL_FIRST: Clause.WRONG_BALL,
    Foul.NO_RAIL: Clause.RAIL,
    Foul.OBSTRUCTION_MOVED: Clause.JUMP_AND_MASSE,
}
"""The clause that makes each foul a foul (clause 3a only ever applies on the break)."""

_ON_THE_BREAK: dict[Foul, Clause] = {
    Foul.CUE_BALL_POCKETED: Clause.BREAK_FOUL,
    Foul.CUE_BALL_OFF_TABLE: Clause.BREAK_FOUL,
    Foul.OBJECT_BALL_OFF_TABLE: Clause.BREAK_OFF_TABLE,
}
"""The part of clause 3 that names a foul on the break, where it has one of its own."""
