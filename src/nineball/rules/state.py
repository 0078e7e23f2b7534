"""Immutable state of a nine-ball match and of the game (rack) in progress."""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field
from enum import IntEnum, StrEnum

from nineball.equipment import OBJECT_BALLS, BallId
from nineball.errors import InvalidInputError
from nineball.rules.variants import STANDARD, RuleSet

__all__ = [
    "PLAYER_NAME_MAX",
    "Action",
    "BreakRule",
    "Choice",
    "CueBall",
    "GameOver",
    "GameState",
    "MatchConfig",
    "MatchState",
    "Phase",
    "Seat",
    "Termination",
    "check_player_name",
]


class Seat(IntEnum):
    """One of the two players of a match: 0 or 1, as on the wire."""

    FIRST = 0
    SECOND = 1

    @property
    def other(self) -> Seat:
        """The opponent."""
        return Seat(1 - self)


class Phase(StrEnum):
    """What the player who acts next has to do."""

    BREAK = "break"
    """The breaker breaks, with the cue ball in hand in the kitchen (clause 2)."""

    SHOT = "shot"
    """The shooter plays a shot (a push out too, when one is allowed)."""

    PUSH_OUT_CHOICE = "push_out_choice"
    """After a legal push out, the opponent chooses to shoot or to pass (clause 5)."""

    MATCH_OVER = "match_over"
    """A player has won the agreed number of games (clause 1); nothing more can happen."""


class CueBall(StrEnum):
    """Where the cue ball may be placed before the next stroke."""

    KITCHEN = "kitchen"
    """In hand behind the head string, for the break (clause 2)."""

    ANYWHERE = "anywhere"
    """In hand anywhere on the playing surface after a foul (clauses 6 and 9)."""

    IN_PLACE = "in_place"
    """Played where it lies (clause 1)."""


class BreakRule(StrEnum):
    """Who breaks the next game (D12)."""

    ALTERNATE = "alternate"
    """The players take turns to break (the default)."""

    WINNER = "winner"
    """The winner of a game breaks the next one."""


class Choice(StrEnum):
    """The answer to a legal push out (clause 5)."""

    SHOOT = "shoot"
    """The player who chooses shoots from the position left by the push out."""

    PASS = "pass"
    """The player who pushed out must shoot again from that position."""


class Action(StrEnum):
    """What the player to act may do now; see :func:`nineball.rules.legal_actions`."""

    SHOOT = "shoot"
    """Play a normal stroke (the break in the break phase)."""

    PUSH_OUT = "push_out"
    """Declare and play a push out (clause 5)."""

    CHOOSE_SHOOT = "choose_shoot"
    """After a push out: shoot from here."""

    CHOOSE_PASS = "choose_pass"
    """After a push out: hand the shot back to the player who pushed."""


class Termination(StrEnum):
    """Why a game ended."""

    NINE_BALL = "nine_ball"
    """The 9 was pocketed on a legal shot, the break included (clauses 1, 13; D4)."""

    THREE_FOULS = "three_fouls"
    """The loser fouled on three consecutive turns at the table (clause 12)."""

    FORFEIT = "forfeit"
    """The loser forfeited the game for a serious infraction (clause 4; D14)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class GameOver:
    """The end of one game."""

    game: int
    """The number of the game in the match, from 1."""

    winner: Seat
    """Who won it."""

    reason: Termination
    """Why it ended."""

    breaker: Seat
    """Who broke it."""


def _check_int(value: object, name: str, low: int, high: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidInputError(f"{name} must be an integer, got {value!r}")
    if value < low or (high is not None and value > high):
        bounds = f">= {low}" if high is None else f"in {low}..{high}"
        raise InvalidInputError(f"{name} must be {bounds}, got {value!r}")
    return value


PLAYER_NAME_MAX = 40
"""The longest player name, in characters (code points), surrounding spaces included."""

_NAME_RULE = (
    f"a player name must be 1-{PLAYER_NAME_MAX} characters, not only spaces, with no control"
    " character, line or paragraph separator or lone surrogate"
)

_BAD_CATEGORIES = {
    "Cc": "a control character",
    "Cs": "a lone surrogate",
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
"""The Unicode categories a name may not hold: they break one-line answers and UTF-8 output."""


def check_player_name(name: object) -> str:
    """Check one player's name, the same rule everywhere a name comes in.

    A name is a string of 1 to :data:`PLAYER_NAME_MAX` characters that is not only spaces and
    holds no character of the Unicode categories Cc (controls: new lines, tabs, NUL...), Cs
    (lone surrogates, which cannot be written as UTF-8), Zl or Zp (the line and paragraph
    separators U+2028, U+2029). Such names are refused rather than cleaned, so that a name is
    shown exactly as it was given.

    >>> check_player_name("Zoë")
    'Zoë'

    Raises:
        InvalidInputError: the name breaks the rule; the message names it and the bad character.
    """
    if not isinstance(name, str):
        raise InvalidInputError(f"{_NAME_RULE}; got {name!r}, not a string")
    if not name.strip():
        raise InvalidInputError(f"{_NAME_RULE}; got the empty name {name!r}")
    if len(name) > PLAYER_NAME_MAX:
        shown = name[:PLAYER_NAME_MAX]
        raise InvalidInputError(f"{_NAME_RULE}; got {len(name)} characters, {shown!r}...")
    for char in name:
        kind = _BAD_CATEGORIES.get(unicodedata.category(char))
        if kind is not None:
            raise InvalidInputError(f"{_NAME_RULE}; {name!r} holds U+{ord(char):04X}, {kind}")
    return name


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchConfig:
    """What the players agreed before the match."""

    players: tuple[str, str] = ("Player 1", "Player 2")
    """The names of seats 0 and 1."""

    race_to: int = 5
    """Games needed to win the match (clause 1)."""

    races: tuple[int, int] | None = None
    """A handicapped race: the games seats 0 and 1 each need (clause 1's "agreed number" may
    differ between the players); None: both need :attr:`race_to`."""

    breaks: BreakRule = BreakRule.ALTERNATE
    """Who breaks after the first game (D12)."""

    first_breaker: Seat = Seat.FIRST
    """Who breaks the first game (by lag or by choice, D12)."""

    rules: RuleSet = STANDARD
    """The rule profile."""

    refereed: bool = True
    """Whether a referee officiates (changes clause 11 in the ``pl`` profile, D2)."""

    def __post_init__(self) -> None:
        """Validate the configuration.

        Raises:
            InvalidInputError: a bad player name, race length or option.
        """
        if not (isinstance(self.players, tuple) and len(self.players) == 2):
            raise InvalidInputError(f"players must be two names, got {self.players!r}")
        for name in self.players:
            check_player_name(name)
        if self.players[0].strip() == self.players[1].strip():
            raise InvalidInputError(f"the two players need different names, got {self.players!r}")
        _check_int(self.race_to, "race_to", 1, 99)
        if self.races is not None:
            if not (isinstance(self.races, tuple) and len(self.races) == 2):
                raise InvalidInputError(f"races must be two numbers of games, got {self.races!r}")
            for race in self.races:
                _check_int(race, "a race", 1, 99)
        if not isinstance(self.breaks, BreakRule):
            raise InvalidInputError(f"breaks must be a BreakRule, got {self.breaks!r}")
        if not isinstance(self.first_breaker, Seat):
            raise InvalidInputError(f"first_breaker must be a Seat, got {self.first_breaker!r}")
        if not isinstance(self.rules, RuleSet):
            raise InvalidInputError(f"rules must be a RuleSet, got {self.rules!r}")
        if not isinstance(self.refereed, bool):
            raise InvalidInputError(f"refereed must be true or false, got {self.refereed!r}")

    def name(self, seat: Seat) -> str:
        """The name of the player in ``seat``."""
        return self.players[seat]

    def race_of(self, seat: Seat) -> int:
        """The games the player in ``seat`` needs to win the match (clause 1)."""
        return self.race_to if self.races is None else self.races[seat]


@dataclass(frozen=True, slots=True, kw_only=True)
class GameState:
    """The state of one game (rack) between strokes."""

    number: int
    """The number of this game in the match, from 1."""

    breaker: Seat
    """Who breaks (or broke) this game."""

    shooter: Seat
    """Who acts next: the player to shoot, or in the push-out choice the player to choose."""

    phase: Phase
    """``BREAK``, ``SHOT`` or ``PUSH_OUT_CHOICE`` (``MATCH_OVER`` belongs to the match)."""

    cue_ball: CueBall
    """Where the cue ball may be placed for the next stroke."""

    push_out_allowed: bool
    """Whether the next stroke may be declared a push out (clause 5)."""

    on_table: frozenset[BallId]
    """The object balls on the table."""

    consecutive_fouls: tuple[int, int]
    """Per seat, the fouls in a row since that player's last legal shot in this game (D10)."""

    @classmethod
    def rack(cls, number: int, breaker: Seat) -> GameState:
        """A fresh rack: all nine object balls on the table and ``breaker`` to break."""
        return cls(
            number=number,
            breaker=breaker,
            shooter=breaker,
            phase=Phase.BREAK,
            cue_ball=CueBall.KITCHEN,
            push_out_allowed=False,
            on_table=frozenset(OBJECT_BALLS),
            consecutive_fouls=(0, 0),
        )

    @property
    def lowest(self) -> BallId:
        """The lowest-numbered object ball on the table: the ball to hit first (clause 1).

        While a game is in progress the 9 is always on the table. Only the final position of a
        finished match may have no ball left; asking for its lowest ball raises ``ValueError``.
        """
        return min(self.on_table)


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """The state of a match between strokes. Change it only through the referee's functions."""

    config: MatchConfig
    """What the players agreed."""

    game: GameState
    """The game in progress (after the match, the last game as it ended)."""

    score: tuple[int, int] = (0, 0)
    """Games won by seats 0 and 1."""

    winner: Seat | None = None
    """The winner of the match, once it is over."""

    results: tuple[GameOver, ...] = field(default=())
    """How each finished game ended, in order."""

    @classmethod
    def start(cls, config: MatchConfig | None = None) -> MatchState:
        """A new match: game 1, ready for the first break."""
        config = MatchConfig() if config is None else config
        return cls(config=config, game=GameState.rack(1, config.first_breaker))

    @property
    def phase(self) -> Phase:
        """The phase of play, ``MATCH_OVER`` once the match is won."""
        return Phase.MATCH_OVER if self.winner is not None else self.game.phase

    @property
    def is_over(self) -> bool:
        """True once a player has won the match."""
        return self.winner is not None

    @property
    def to_act(self) -> Seat:
        """Who acts next (the shooter, or the chooser after a push out)."""
        return self.game.shooter

    @property
    def cue_ball(self) -> CueBall:
        """Where the cue ball may be placed for the next stroke."""
        return self.game.cue_ball

    @property
    def lowest(self) -> BallId:
        """The ball the cue ball must hit first (clause 1)."""
        return self.game.lowest

    @property
    def on_table(self) -> frozenset[BallId]:
        """The object balls on the table."""
        return self.game.on_table

    @property
    def push_out_allowed(self) -> bool:
        """Whether the next stroke may be declared a push out (clause 5)."""
        return not self.is_over and self.game.push_out_allowed

    def name(self, seat: Seat) -> str:
        """The name of the player in ``seat``."""
        return self.config.name(seat)
