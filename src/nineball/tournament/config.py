"""What an organiser decides before an event: its settings and its players.

Values are frozen and checked when made: a bad field raises :class:`InvalidInputError` naming it.
:meth:`EventConfig.to_json` and :meth:`EventConfig.from_json` are the form the store keeps.
"""

from __future__ import annotations

import datetime
import math
import unicodedata
from dataclasses import asdict, dataclass
from enum import StrEnum
from typing import Any

from nineball.errors import InvalidInputError, NineballError
from nineball.game import (
    RULE_NAMES,
    BreakRule,
    MatchConfig,
    Seat,
    check_player_name,
    find_variant,
)
from nineball.tournament.bracket import MAX_ENTRANTS, Format

__all__ = [
    "EVENT_NAME_MAX",
    "MAX_TABLES",
    "Entrant",
    "EventConfig",
    "Seeding",
    "ShotClockRule",
    "check_rating",
]

EVENT_NAME_MAX = 80
"""The longest event name, in characters."""

MAX_TABLES = 64
"""The most tables an event uses."""


class Seeding(StrEnum):
    """How the entrants are seeded."""

    RATING = "rating"
    """Best rating first; the unrated after the rated, in an order drawn from the event's seed."""
    RANDOM = "random"
    """An order drawn from the event's seed (the same seed, the same draw)."""


def _int(value: object, name: str, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise InvalidInputError(f"{name} must be a whole number in {low}..{high}, got {value!r}")
    return value


def check_rating(rating: object) -> float | None:
    """A player's rating on the Fargo-style scale: None, or a number in 0..3000.

    Raises:
        InvalidInputError: anything else (NaN, infinity, text, out of range).
    """
    if rating is None:
        return None
    if isinstance(rating, bool) or not isinstance(rating, int | float):
        raise InvalidInputError(f"a rating is a number of points, got {rating!r}")
    if not (math.isfinite(rating) and 0.0 <= rating <= 3000.0):
        raise InvalidInputError(f"a rating must be in 0..3000 points, got {rating!r}")
    return float(rating)


@dataclass(frozen=True, slots=True, kw_only=True)
class Entrant:
    """A registered player."""

    name: str
    """Their name (the rule of :func:`nineball.rules.state.check_player_name`)."""
    rating: float | None = None
    """Their rating on the Fargo-style scale (100 points: 2 to 1 odds a game), if known."""

    def __post_init__(self) -> None:
        """Check the name and the rating.

        Raises:
            InvalidInputError: a bad name or rating.
        """
        check_player_name(self.name)
        object.__setattr__(self, "rating", check_rating(self.rating))


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotClockRule:
    """The shot clock: a limit per shot and extensions a player may call per rack."""

    seconds: int = 30
    """Time for a shot, s (10-300)."""
    extension: int = 30
    """Time an extension adds, s (0-300)."""
    extensions: int = 1
    """Extensions each player may call in a rack (0-5)."""

    def __post_init__(self) -> None:
        """Check the numbers.

        Raises:
            InvalidInputError: a number out of range.
        """
        _int(self.seconds, "the shot clock", 10, 300)
        _int(self.extension, "an extension", 0, 300)
        _int(self.extensions, "extensions per rack", 0, 5)


def _check_name(name: object) -> str:
    if not isinstance(name, str) or not name.strip() or len(name) > EVENT_NAME_MAX:
        raise InvalidInputError(
            f"an event name is 1-{EVENT_NAME_MAX} characters, not only spaces; got {name!r:.100}"
        )
    for char in name:
        if unicodedata.category(char) in ("Cc", "Cs", "Zl", "Zp"):
            raise InvalidInputError(f"an event name holds no control character, got {name!r}")
    return name


@dataclass(frozen=True, slots=True, kw_only=True)
class EventConfig:
    """The settings of an event."""

    name: str
    """What it is called (1-80 characters)."""
    date: str
    """The day it is played, ISO 8601 (``2026-12-10``)."""
    format: Format = Format.DOUBLE
    race_to: int = 5
    """Games needed to win a match (1-99); the stronger player's race when handicapped."""
    breaks: BreakRule = BreakRule.ALTERNATE
    """Who breaks after each game."""
    rules: str = "standard"
    """The rule profile (:data:`nineball.game.RULE_NAMES`)."""
    refereed: bool = True
    """Whether a referee officiates (clause 11 in the ``pl`` profile)."""
    seeding: Seeding = Seeding.RATING
    seed: int = 0
    """The seed of every draw of the event (the random seeding, the order of the unrated)."""
    handicap: bool = False
    """Races from the ratings gap (:mod:`nineball.tournament.handicap`)."""
    three_foul_warning: bool = True
    """The scorer and the overlay announce the clause-12 warning when a player comes to the
    table on two fouls (clause 12 itself always applies)."""
    shot_clock: ShotClockRule | None = None
    """The shot clock, if the event uses one."""
    tables: int = 1
    """How many tables the event is played on (1-64)."""
    groups: int = 2
    """How many round-robin groups (the groups format)."""
    advance: int = 2
    """How many of each group go on to the knockout (the groups format)."""

    def __post_init__(self) -> None:
        """Check every field.

        Raises:
            InvalidInputError: naming the bad field.
        """
        _check_name(self.name)
        try:
            datetime.date.fromisoformat(self.date)
        except (TypeError, ValueError) as exc:
            raise InvalidInputError(
                f"the date must be ISO 8601 (2026-12-10), got {self.date!r:.40}"
            ) from exc
        for value, kind in (
            (self.format, Format),
            (self.breaks, BreakRule),
            (self.seeding, Seeding),
        ):
            if not isinstance(value, kind):
                raise InvalidInputError(f"expected one of {', '.join(kind)}, got {value!r}")
        _int(self.race_to, "race_to", 1, 99)
        if not isinstance(self.rules, str) or self.rules.lower() not in RULE_NAMES:
            raise InvalidInputError(
                f"the rules are one of {', '.join(RULE_NAMES)}, got {self.rules!r:.40}"
            )
        for flag in ("refereed", "handicap", "three_foul_warning"):
            if not isinstance(getattr(self, flag), bool):
                raise InvalidInputError(f"{flag} is true or false, got {getattr(self, flag)!r}")
        _int(self.seed, "the seed", 0, 2**63 - 1)
        _int(self.tables, "tables", 1, MAX_TABLES)
        _int(self.groups, "groups", 2, MAX_ENTRANTS // 2)
        _int(self.advance, "advance", 1, 4)
        if self.shot_clock is not None and not isinstance(self.shot_clock, ShotClockRule):
            raise InvalidInputError(f"a shot clock is a ShotClockRule, got {self.shot_clock!r}")

    def match_config(
        self, players: tuple[str, str], races: tuple[int, int], first_breaker: Seat
    ) -> MatchConfig:
        """The referee's settings for one match of the event.

        Raises:
            InvalidInputError: the referee refuses them (two players of the same name).
        """
        try:
            return MatchConfig(
                players=players,
                race_to=max(races),
                races=None if races[0] == races[1] else races,
                breaks=self.breaks,
                first_breaker=first_breaker,
                rules=find_variant(self.rules),
                refereed=self.refereed,
            )
        except NineballError as exc:
            raise InvalidInputError(str(exc)) from exc

    def to_json(self) -> dict[str, Any]:
        """The settings as a JSON object."""
        out = asdict(self)
        for key in ("format", "breaks", "seeding"):
            out[key] = str(out[key])
        return out

    @classmethod
    def from_json(cls, data: object) -> EventConfig:
        """Settings from :meth:`to_json`'s object (or an organiser's, fields left out default).

        Raises:
            InvalidInputError: not an object, an unknown field or a bad value.
        """
        if not isinstance(data, dict):
            raise InvalidInputError(f"the event's settings are a JSON object, got {data!r:.60}")
        known = set(cls.__dataclass_fields__)
        unknown = set(data) - known
        if unknown:
            raise InvalidInputError(f"unknown setting(s): {', '.join(sorted(map(str, unknown)))}")
        fields = dict(data)
        try:
            for key, kind in (("format", Format), ("breaks", BreakRule), ("seeding", Seeding)):
                if key in fields:
                    fields[key] = kind(fields[key])
            clock = fields.get("shot_clock")
            if isinstance(clock, dict):
                fields["shot_clock"] = ShotClockRule(**clock)
        except (ValueError, TypeError) as exc:
            raise InvalidInputError(f"a bad setting: {exc}") from exc
        return cls(**fields)
