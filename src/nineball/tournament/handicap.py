"""Handicapped races from the players' ratings: the race that makes the odds even.

Ratings are on the Fargo-style scale of the project's ladder
(:func:`nineball.players.ladder.win_probability`): a player rated D points above another wins a
game with probability ``p = 1 / (1 + 2 ** (-D / 100))`` (100 points: 2 to 1). Games are taken as
independent, each won with ``p``, so the chance that the stronger player wins ``a`` games before
the weaker wins ``b`` is the negative-binomial sum

    P(a, b) = sum over j = 0 .. b - 1 of C(a - 1 + j, j) p^a (1 - p)^j.

The handicap (:func:`handicap_races`): the stronger player races to the event's race ``R``; the
weaker to the ``b`` in 1..R whose P(R, b) is nearest 1/2 (on a tie, the longer race). When
the gap is so wide that even ``b = 1`` leaves the stronger player favoured, longer races for the
stronger player are tried too, one game at a time (up to 3R, and 99) until one no longer does,
and the pair nearest 1/2 is kept (on a tie, the shorter). Equal ratings, or a player without
one, give both players ``R``.

>>> handicap_races((600.0, 500.0), 7).races
(7, 4)
>>> round(handicap_races((600.0, 500.0), 7).odds, 3)
0.559
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from nineball.errors import InvalidInputError
from nineball.players.ladder import win_probability

__all__ = ["Handicap", "handicap_races", "race_odds"]


def race_odds(game_probability: float, races: tuple[int, int]) -> float:
    """The chance that the first player wins ``races[0]`` games before the other wins ``races[1]``.

    Args:
        game_probability: the first player's chance of winning one game, 0 to 1.
        races: the games each player needs.

    Raises:
        InvalidInputError: a probability outside 0..1 or a race below 1.
    """
    p = game_probability
    if not (isinstance(p, float | int) and 0.0 <= p <= 1.0):
        raise InvalidInputError(f"a game probability is in 0..1, got {p!r}")
    a, b = races
    if a < 1 or b < 1:
        raise InvalidInputError(f"races are 1 game or more, got {races!r}")
    return float(sum(math.comb(a - 1 + j, j) * p**a * (1.0 - p) ** j for j in range(b)))


@dataclass(frozen=True, slots=True, kw_only=True)
class Handicap:
    """The races of a match and the odds they give."""

    races: tuple[int, int]
    """The games each of the two players needs, in the match's order."""
    odds: float
    """The first player's chance of winning the match, from the ratings (0.5 without them)."""
    game_probability: float
    """The first player's chance of winning one game."""


def handicap_races(ratings: tuple[float | None, float | None], race_to: int) -> Handicap:
    """The races of two players rated ``ratings`` in an event raced to ``race_to``.

    Raises:
        InvalidInputError: a race outside 1..99.
    """
    if isinstance(race_to, bool) or not isinstance(race_to, int) or not 1 <= race_to <= 99:
        raise InvalidInputError(f"a race is 1 to 99 games, got {race_to!r}")
    first, second = ratings
    if first is None or second is None or first == second:
        return Handicap(races=(race_to, race_to), odds=0.5, game_probability=0.5)
    stronger_first = first > second
    p = win_probability(abs(first - second))
    longest = min(99, 3 * race_to)
    candidates = []
    long = race_to
    while True:
        short = min(range(1, long + 1), key=lambda b: (abs(race_odds(p, (long, b)) - 0.5), -b))
        candidates.append((abs(race_odds(p, (long, short)) - 0.5), long, short))
        if race_odds(p, (long, 1)) <= 0.5 or long >= longest:
            break
        long += 1  # even a race of 1 leaves the stronger favoured: try a longer race
    _, long, short = min(candidates)
    odds = race_odds(p, (long, short))
    if stronger_first:
        return Handicap(races=(long, short), odds=odds, game_probability=p)
    return Handicap(races=(short, long), odds=1.0 - odds, game_probability=1.0 - p)
