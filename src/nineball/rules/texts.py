"""Every text an explanation is made of, as gettext message ids (the English source text).

Each member of :class:`Text` is one entry of the ``nineball`` catalogs
(``rules/locale/<lang>/LC_MESSAGES/nineball.po``): its value is the msgid, with a plural msgid
when the text has plural forms (chosen by the message's count, through ``ngettext``). The
docstring under a member goes into the template as a comment for translators. Placeholders are
``str.format`` fields; every translation keeps the same ones (a plural form may spell out the
count instead of printing ``{n}``). The commonest:

- ``{cite}``: the clauses cited, already translated (:attr:`Text.CLAUSE`), e.g. "clause 6";
- ``{actor}``, ``{player}``, ``{winner}``...: a player's name;
- ``{balls}``: a list of ball names (:attr:`Text.BALL_1`...), joined by :attr:`Text.LIST_AND`.
"""

from __future__ import annotations

from enum import Enum

from nineball.equipment import BallId

__all__ = ["Text"]


class Text(Enum):
    """A text of the explanations: a gettext msgid, and a plural msgid when it has forms."""

    msgid: str
    plural: str | None

    def __init__(self, msgid: str, plural: str | None = None) -> None:
        """A member's value: its msgid, and its plural msgid when it has plural forms."""
        self.msgid = msgid
        self.plural = plural

    @classmethod
    def ball(cls, ball: BallId) -> Text:
        """The name of an object ball (``BALL_1`` to ``BALL_9``)."""
        return cls[f"BALL_{int(ball)}"]

    # ------------------------------------------------------- building blocks
    CLAUSE = ("clause {clauses}", "clauses {clauses}")
    """The clauses a rule is found in: {clauses} is a list of clause numbers such as "3b and 6".
    It fills the {cite} of the other texts."""

    LIST_COMMA = "{items}, {item}"
    """Adds one item to a list that goes on: {items} is the list so far."""

    LIST_AND = "{items} and {item}"
    """Adds the last item to a list: {items} is the list so far (one item or more)."""

    LIST_SEMICOLON = "{items}; {item}"
    """Adds one more consequence of a ruling to the second sentence of an explanation."""

    SENTENCE = "{parts}."
    """The second sentence of an explanation: the consequences of the ruling, joined by
    LIST_SEMICOLON. Its first letter is capitalised when it is shown."""

    BALL_1 = "the 1"
    """The name of a ball, as it is used in a list of balls and in the other texts."""

    BALL_2 = "the 2"
    """The name of a ball."""

    BALL_3 = "the 3"
    """The name of a ball."""

    BALL_4 = "the 4"
    """The name of a ball."""

    BALL_5 = "the 5"
    """The name of a ball."""

    BALL_6 = "the 6"
    """The name of a ball."""

    BALL_7 = "the 7"
    """The name of a ball."""

    BALL_8 = "the 8"
    """The name of a ball."""

    BALL_9 = "the 9"
    """The name of a ball."""

    # ------------------------------------------------------- fouls (first sentence)
    FOUL = "Foul: {fouls}."
    """The first sentence of a foul: {fouls} lists the fouls, joined by LIST_AND."""

    FOUL_ON_BREAK = "Foul on the break: {fouls}."
    """The first sentence of a foul on the break."""

    FOUL_ON_PUSH_OUT = "Foul on the push out: {fouls}."
    """The first sentence of a foul on a push out."""

    BREAK_MISSED_ONE = "the cue ball did not hit the 1 first ({cite})"
    """A foul on the break."""

    BREAK_NO_RAIL = (
        "nothing was pocketed and no object ball reached a rail where four are needed ({cite})"
    )
    """A foul on the break: nothing pocketed and not one object ball to a rail."""

    BREAK_TOO_FEW_RAILS = (
        "nothing was pocketed and only {n} object ball reached a rail where four are needed "
        "({cite})",
        "nothing was pocketed and only {n} object balls reached a rail where four are needed "
        "({cite})",
    )
    """A foul on the break: {n} (1 to 3) object balls reached a rail."""

    CUE_BALL_POCKETED = "the cue ball was pocketed ({cite})"
    """A foul."""

    CUE_BALL_OFF_TABLE = "the cue ball left the table ({cite})"
    """A foul."""

    OBJECT_BALL_OFF_TABLE = ("{balls} left the table ({cite})", "{balls} left the table ({cite})")
    """A foul: the count is the number of balls in {balls}."""

    NO_CONTACT = "the cue ball hit no object ball ({cite})"
    """A foul."""

    WRONG_BALL_FIRST = "the cue ball hit {first} first, not the lowest ball, {lowest} ({cite})"
    """A foul: {first} and {lowest} are ball names."""

    NO_RAIL = "nothing was pocketed and no ball reached a rail after the contact ({cite})"
    """A foul."""

    OBSTRUCTION_MOVED = "an obstructing ball moved on a jump, curve or massé attempt ({cite})"
    """A foul."""

    # ------------------------------------------------------- what happened (first sentence)
    FORFEIT = "{actor} forfeits the game for a serious infraction ({cite})."
    """A player loses the game by forfeit."""

    CHOOSE_SHOOT = "{actor} chooses to shoot from the position left by the push out ({cite})."
    """The answer to a push out."""

    CHOOSE_PASS = (
        "{actor} hands the shot back: {other} must shoot from the position left by the push out "
        "({cite})."
    )
    """The answer to a push out: {other} is the player who pushed out."""

    LEGAL_PUSH_OUT = "Legal push out ({cite})."
    """A push out without a foul."""

    BREAK_NINE = "Legal break ({cite}): {actor} pocketed the 9 on the break."
    """A legal break that pocketed the 9 (and wins the game)."""

    BREAK_POCKETED = (
        "Legal break ({cite}): the 1 was hit first and {balls} was pocketed.",
        "Legal break ({cite}): the 1 was hit first and {balls} were pocketed.",
    )
    """A legal break: the count is the number of balls in {balls}."""

    BREAK_RAILS = (
        "Legal break ({cite}): the 1 was hit first and {n} object ball reached a rail.",
        "Legal break ({cite}): the 1 was hit first and {n} object balls reached a rail.",
    )
    """A legal break that pocketed nothing: {n} (four or more) object balls reached a rail."""

    SHOT_NINE = "{actor} legally pocketed the 9 ({cite})."
    """A legal shot that pocketed the 9 (and wins the game)."""

    SHOT_POCKETED = (
        "Legal shot: {lowest} was hit first and {balls} was pocketed ({cite}).",
        "Legal shot: {lowest} was hit first and {balls} were pocketed ({cite}).",
    )
    """A legal shot: {lowest} is a ball name; the count is the number of balls in {balls}."""

    SHOT_NOTHING = "Legal shot, but nothing was pocketed ({cite})."
    """A legal shot that pocketed nothing."""

    # ------------------------------------------------------- what follows (second sentence)
    RESPOT = "the 9 is respotted on the foot spot ({cite})"
    """A consequence: the 9 goes back on the table."""

    THREE_FOULS = "that is {actor}'s third foul in a row, so {winner} wins game {game} ({cite})"
    """A consequence: {game} is the number of the game."""

    GAME_WON = "{winner} wins game {game} ({cite})"
    """A consequence: {game} is the number of the game."""

    MATCH_WON = "{winner} wins the match {first}-{second}"
    """A consequence: the final score, player 1's games first."""

    SCORE = "the score is {first}-{second} and {breaker} breaks next"
    """A consequence: the score (player 1 first) after a game, and who breaks the next."""

    BALL_IN_HAND = "{player} has the cue ball in hand anywhere on the table ({cite})"
    """A consequence of a foul."""

    MAY_PUSH_OUT = "{then} and may push out ({cite})"
    """Adds the permission to push out to {then}: BALL_IN_HAND, KEEPS_SHOOTING or AS_IT_LIES,
    whose subject is the player who may push out."""

    WARNING = "{player} is warned: a third foul in a row loses the game ({cite})"
    """A consequence of a second consecutive foul."""

    CHOOSE = "{chooser} chooses to shoot from here or to hand the shot back to {pusher}"
    """A consequence of a legal push out."""

    KEEPS_SHOOTING = "{player} keeps shooting"
    """A consequence of a legal stroke that pocketed a ball."""

    AS_IT_LIES = "{player} plays the position as it lies"
    """A consequence of a legal stroke that pocketed nothing."""
