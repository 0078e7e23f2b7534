"""The clauses of the seed texts, and the clauses each part of an explanation cites.

The two seed texts number the same 13 clauses; clause 3 has three lettered parts (the Polish
text letters them a, b, c; the French text's second part refers to the first as "(a.)"). Every
clause number an explanation prints comes from here: a foul's from :meth:`Foul.clauses`, every
other rule's from :class:`Ground`.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["Clause", "Ground"]


class Clause(StrEnum):
    """A clause of the seed texts, or a lettered part of clause 3. The value is how it is cited."""

    OBJECT_OF_THE_GAME = "1"
    """Clause 1: the lowest ball first; pocketing keeps the table; the 9 legally pocketed wins."""

    RACK = "2"
    """Clause 2: the diamond rack, the 1 on the foot spot, the 9 in the centre."""

    BREAK = "3"
    """Clause 3: the legal break, as a whole."""

    BREAK_REQUIREMENT = "3a"
    """Clause 3a: the 1 first, then a ball pocketed or four object balls to a rail."""

    BREAK_FOUL = "3b"
    """Clause 3b: the cue ball pocketed or off the table, or 3a not met: foul, ball in hand."""

    BREAK_OFF_TABLE = "3c"
    """Clause 3c: an object ball off the table on the break: foul; it stays off, but the 9."""

    CONTINUING_PLAY = "4"
    """Clause 4: the push out after the break, the turn, the end of a game by forfeit."""

    PUSH_OUT = "5"
    """Clause 5: the push out and the opponent's choice after it."""

    FOULS = "6"
    """Clause 6: after a foul the turn passes, the 9 is respotted, the opponent has ball in hand."""

    WRONG_BALL = "7"
    """Clause 7: the cue ball must first touch the lowest ball."""

    RAIL = "8"
    """Clause 8: without a ball pocketed, a ball must reach a rail after the first contact."""

    BALL_IN_HAND = "9"
    """Clause 9: placing the cue ball in hand."""

    OFF_TABLE = "10"
    """Clause 10: a ball off the table is a foul; it stays off, but the 9."""

    JUMP_AND_MASSE = "11"
    """Clause 11: moving an obstructing ball on a jump, curve or massé attempt."""

    THREE_FOULS = "12"
    """Clause 12: three consecutive fouls lose the game; a warning after the second."""

    END_OF_GAME = "13"
    """Clause 13: the game ends with the 9 legally pocketed or a player losing it."""

    @property
    def number(self) -> int:
        """The clause's number (1-13), without the letter of a part of clause 3.

        >>> Clause.BREAK_FOUL.number
        3
        """
        return int(self.value.rstrip("abc"))


class Ground(StrEnum):
    """A rule an explanation applies, besides the fouls (which cite their own clauses)."""

    LEGAL_SHOT = "legal_shot"
    """A legal shot, and the 9 legally pocketed on one."""

    LEGAL_BREAK = "legal_break"
    """A legal break."""

    FORFEIT = "forfeit"
    """A game lost for a serious infraction."""

    PUSH_OUT = "push_out"
    """A legal push out, the choice after it, and the permission to push out."""

    RESPOT_AFTER_FOUL = "respot_after_foul"
    """The 9 respotted after it went down on a foul."""

    RESPOT_AFTER_PUSH_OUT = "respot_after_push_out"
    """The 9 respotted after it went down on a legal push out."""

    RESPOT_OFF_TABLE = "respot_off_table"
    """The 9 respotted after it left the table."""

    RESPOT_OFF_TABLE_ON_BREAK = "respot_off_table_on_break"
    """The 9 respotted after it left the table on the break."""

    BALL_IN_HAND = "ball_in_hand"
    """The opponent's cue ball in hand anywhere after a foul."""

    WARNING = "warning"
    """The warning after a second consecutive foul."""

    THREE_FOULS = "three_fouls"
    """A game lost by a third consecutive foul."""

    GAME_WON = "game_won"
    """The end of a game."""

    @property
    def clauses(self) -> tuple[Clause, ...]:
        """The clauses an explanation cites for this rule."""
        return _GROUNDS[self]


_GROUNDS: dict[Ground, tuple[Clause, ...]] = {
    Ground.LEGAL_SHOT: (Clause.OBJECT_OF_THE_GAME,),
    Ground.LEGAL_BREAK: (Clause.BREAK,),
    Ground.FORFEIT: (Clause.CONTINUING_PLAY,),
    Ground.PUSH_OUT: (Clause.PUSH_OUT,),
    Ground.RESPOT_AFTER_FOUL: (Clause.FOULS,),
    Ground.RESPOT_AFTER_PUSH_OUT: (Clause.PUSH_OUT,),
    Ground.RESPOT_OFF_TABLE: (Clause.OFF_TABLE,),
    Ground.RESPOT_OFF_TABLE_ON_BREAK: (Clause.BREAK_OFF_TABLE, Clause.OFF_TABLE),
    Ground.BALL_IN_HAND: (Clause.FOULS,),
    Ground.WARNING: (Clause.THREE_FOULS,),
    Ground.THREE_FOULS: (Clause.THREE_FOULS,),
    Ground.GAME_WON: (Clause.END_OF_GAME,),
}
