"""The shape of an event: every match it may need and where its two players come from.

A :class:`Bracket` is pure data, built once from the format and the number of entrants: each
:class:`BracketMatch` names the sources of its two slots (a seed, the winner or the loser of an
earlier match, a place in a group, or a bye). Nothing here knows a result; what the results make
of the bracket is :func:`nineball.tournament.progress.resolve`.

Entrants are known here only by their seed, 1 (the best) to n. The formats:

- **Single elimination** (:func:`single_elimination`): a bracket of the next power of two,
  seeds placed so that 1 and 2 can meet only in the final (1 v n, 2 v n-1...); the slots beyond n
  are byes, and they fall to the best seeds.
- **Double elimination** (:func:`double_elimination`): the same winners' bracket; its losers drop
  into a losers' bracket (round 1 pairs the losers of winners' round 1, each later winners'
  round drops its losers in against the survivors, in an order turned round every other time to
  put off rematches); the winners' champion meets the losers' champion in the final, and a
  reset final is played only when the losers' champion wins the first (then each has lost once).
- **Round robin** (:func:`round_robin`): everyone meets everyone once (the circle method: with
  an odd count one player sits out each round).
- **Groups into a bracket** (:func:`groups_to_bracket`): groups by snake seeding (1, 2, ... G,
  then G ... 1), a round robin in each, the first ``advance`` of each group into a single
  elimination where group winners are the top seeds and no runner-up meets its own group's
  winner in the first round.

>>> bracket = double_elimination(5)
>>> bracket.size, len(bracket.matches)
(8, 15)
>>> bracket.match("W1-1").sources
(Seed(seed=1), Bye())
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from enum import StrEnum

from nineball.errors import InvalidInputError

__all__ = [
    "MAX_ENTRANTS",
    "Bracket",
    "BracketMatch",
    "Bye",
    "Format",
    "LoserOf",
    "PlaceOf",
    "Seed",
    "Source",
    "Stage",
    "WinnerOf",
    "double_elimination",
    "group_of_seeds",
    "groups_to_bracket",
    "make_bracket",
    "round_robin",
    "seed_positions",
    "single_elimination",
]

MAX_ENTRANTS = 256
"""The most entrants an event takes."""


class Format(StrEnum):
    """How an event is played."""

    SINGLE = "single"
    """Single elimination: one loss and out."""
    DOUBLE = "double"
    """Double elimination: out after two losses."""
    ROUND_ROBIN = "round_robin"
    """Everyone plays everyone once."""
    GROUPS = "groups"
    """Round-robin groups, the best of each into a single-elimination bracket."""


class Stage(StrEnum):
    """The part of an event a match belongs to."""

    WINNERS = "winners"
    """The winners' bracket (the only bracket of a single elimination)."""
    LOSERS = "losers"
    """The losers' bracket of a double elimination."""
    FINAL = "final"
    """The final of a double elimination (winners' v losers' champion)."""
    RESET = "reset"
    """The reset final: played only when the losers' champion won the final."""
    GROUP = "group"
    """A round-robin match (the whole event, or one group)."""
    KNOCKOUT = "knockout"
    """The single elimination after the groups."""


@dataclass(frozen=True, slots=True)
class Seed:
    """The entrant seeded ``seed`` (1 is the best)."""

    seed: int


@dataclass(frozen=True, slots=True)
class Bye:
    """No one: the other player goes through without playing."""


@dataclass(frozen=True, slots=True)
class WinnerOf:
    """The winner of the match ``key``."""

    key: str


@dataclass(frozen=True, slots=True)
class LoserOf:
    """The loser of the match ``key`` (a bye when that match was a walkover)."""

    key: str


@dataclass(frozen=True, slots=True)
class PlaceOf:
    """The player who finished ``place`` (from 1) in group ``group`` (from 1)."""

    group: int
    place: int


Source = Seed | Bye | WinnerOf | LoserOf | PlaceOf
"""Where one player of a match comes from."""


@dataclass(frozen=True, slots=True, kw_only=True)
class BracketMatch:
    """One match an event may need."""

    key: str
    """Its name, unique in the event: ``W2-3`` (winners' round 2, match 3), ``L1-2``, ``F1``
    and ``F2`` (the final and its reset), ``G1-R2-1`` (group 1, round 2, match 1), ``K1-1``."""
    stage: Stage
    round: int
    """The round within its stage, from 1."""
    number: int
    """The match within its round, from 1."""
    sources: tuple[Source, Source]
    """Where the players of its two slots come from."""
    group: int | None = None
    """The group of a round-robin match (from 1)."""

    @property
    def feeds_on(self) -> tuple[str, ...]:
        """The keys of the matches whose result it waits for."""
        return tuple(s.key for s in self.sources if isinstance(s, WinnerOf | LoserOf))


@dataclass(frozen=True, slots=True, kw_only=True)
class Bracket:
    """Every match of an event, in the order they should be played."""

    format: Format
    entrants: int
    """How many players entered (seeds 1 to ``entrants``)."""
    size: int
    """The size of the elimination bracket (a power of two), 0 for a round robin."""
    matches: tuple[BracketMatch, ...]
    """In play order: a match comes after every match it waits for."""
    groups: tuple[tuple[int, ...], ...] = ()
    """The seeds of each round-robin group (one group for a round robin)."""
    advance: int = 0
    """How many of each group go on to the knockout."""

    def match(self, key: str) -> BracketMatch:
        """The match called ``key``.

        Raises:
            InvalidInputError: no match of the bracket has that key.
        """
        for match in self.matches:
            if match.key == key:
                return match
        raise InvalidInputError(f"no match {key!r:.40} in this bracket")

    def keys(self) -> tuple[str, ...]:
        """The keys of every match, in play order."""
        return tuple(m.key for m in self.matches)

    def group_matches(self, group: int) -> Iterator[BracketMatch]:
        """The round-robin matches of ``group``."""
        return (m for m in self.matches if m.stage is Stage.GROUP and m.group == group)


def _check_entrants(entrants: int, least: int) -> None:
    if isinstance(entrants, bool) or not isinstance(entrants, int):
        raise InvalidInputError(f"the number of entrants must be an integer, got {entrants!r}")
    if not least <= entrants <= MAX_ENTRANTS:
        raise InvalidInputError(
            f"this format takes {least} to {MAX_ENTRANTS} entrants, got {entrants!r}"
        )


def seed_positions(size: int) -> tuple[int, ...]:
    """The seeds down a bracket of ``size`` slots: slots 2i and 2i+1 meet in the first round.

    Seeds 1 and 2 are in opposite halves, 1-4 in different quarters, and so on; each first-round
    pair adds up to ``size + 1``.

    >>> seed_positions(8)
    (1, 8, 4, 5, 2, 7, 3, 6)
    """
    order = [1]
    while len(order) < size:
        total = 2 * len(order) + 1
        order = [s for seed in order for s in (seed, total - seed)]
    return tuple(order)


def _size(entrants: int) -> int:
    size = 2
    while size < entrants:
        size *= 2
    return size


def _elimination_rounds(
    firsts: list[tuple[Source, Source]], prefix: str, stage: Stage
) -> list[list[BracketMatch]]:
    """The rounds of a knockout from its first round's pairs: winners meet winners."""
    rounds = [
        [
            BracketMatch(key=f"{prefix}1-{i + 1}", stage=stage, round=1, number=i + 1, sources=pair)
            for i, pair in enumerate(firsts)
        ]
    ]
    while len(rounds[-1]) > 1:
        r = len(rounds) + 1
        previous = rounds[-1]
        rounds.append(
            [
                BracketMatch(
                    key=f"{prefix}{r}-{i + 1}",
                    stage=stage,
                    round=r,
                    number=i + 1,
                    sources=(WinnerOf(previous[2 * i].key), WinnerOf(previous[2 * i + 1].key)),
                )
                for i in range(len(previous) // 2)
            ]
        )
    return rounds


def _seeded_pairs(
    entrants: int, size: int, slot: list[Source] | None = None
) -> list[tuple[Source, Source]]:
    """The first round's pairs of a bracket of ``size``: seed k is ``slot[k - 1]`` (or Seed(k))."""
    positions = seed_positions(size)

    def source(seed: int) -> Source:
        if seed > entrants:
            return Bye()
        return Seed(seed) if slot is None else slot[seed - 1]

    return [(source(positions[2 * i]), source(positions[2 * i + 1])) for i in range(size // 2)]


def single_elimination(entrants: int) -> Bracket:
    """A single-elimination bracket for ``entrants`` players (2 to :data:`MAX_ENTRANTS`).

    Raises:
        InvalidInputError: too few or too many entrants.
    """
    _check_entrants(entrants, 2)
    size = _size(entrants)
    rounds = _elimination_rounds(_seeded_pairs(entrants, size), "W", Stage.WINNERS)
    return Bracket(
        format=Format.SINGLE, entrants=entrants, size=size, matches=_in_play_order(rounds)
    )


def _drop_order(count: int, winners_round: int) -> list[int]:
    """The order in which the losers of a winners' round drop in (0-based match indices).

    Turned round for every even round and swapped by halves for every odd one, so that a player
    who drops meets someone from another part of the bracket than the one who beat them.
    """
    order = list(range(count))
    if winners_round % 2 == 0:
        return order[::-1]
    half = count // 2
    return order[half:] + order[:half]


def double_elimination(entrants: int) -> Bracket:
    """A double-elimination bracket for ``entrants`` players (2 to :data:`MAX_ENTRANTS`).

    Raises:
        InvalidInputError: too few or too many entrants.
    """
    _check_entrants(entrants, 2)
    size = _size(entrants)
    winners = _elimination_rounds(_seeded_pairs(entrants, size), "W", Stage.WINNERS)
    losers: list[list[BracketMatch]] = []

    def add_round(pairs: list[tuple[Source, Source]]) -> None:
        r = len(losers) + 1
        losers.append(
            [
                BracketMatch(
                    key=f"L{r}-{i + 1}", stage=Stage.LOSERS, round=r, number=i + 1, sources=pair
                )
                for i, pair in enumerate(pairs)
            ]
        )

    if len(winners) > 1:
        first = winners[0]
        add_round(
            [
                (LoserOf(first[2 * i].key), LoserOf(first[2 * i + 1].key))
                for i in range(len(first) // 2)
            ]
        )
        for w in range(1, len(winners)):
            dropping = winners[w]
            order = _drop_order(len(dropping), w + 1)
            survivors = losers[-1]
            add_round(
                [
                    (WinnerOf(survivors[i].key), LoserOf(dropping[order[i]].key))
                    for i in range(len(dropping))
                ]
            )
            if w < len(winners) - 1:
                survivors = losers[-1]
                add_round(
                    [
                        (WinnerOf(survivors[2 * i].key), WinnerOf(survivors[2 * i + 1].key))
                        for i in range(len(survivors) // 2)
                    ]
                )
        losers_champion: Source = WinnerOf(losers[-1][0].key)
    else:
        losers_champion = LoserOf(winners[0][0].key)
    finalists = (WinnerOf(winners[-1][0].key), losers_champion)
    finals = [
        [BracketMatch(key="F1", stage=Stage.FINAL, round=1, number=1, sources=finalists)],
        [BracketMatch(key="F2", stage=Stage.RESET, round=1, number=1, sources=finalists)],
    ]
    return Bracket(
        format=Format.DOUBLE,
        entrants=entrants,
        size=size,
        matches=_in_play_order([*winners, *losers, *finals]),
    )


def _circle_rounds(seeds: tuple[int, ...]) -> list[list[tuple[int, int]]]:
    """Every pair of ``seeds`` once, in rounds (the circle method; None sits out)."""
    players: list[int | None] = list(seeds)
    if len(players) % 2:
        players.append(None)
    count = len(players)
    rounds = []
    for _ in range(count - 1):
        pairs = []
        for i in range(count // 2):
            a, b = players[i], players[count - 1 - i]
            if a is not None and b is not None:
                pairs.append((a, b) if a < b else (b, a))
        rounds.append(pairs)
        players = [players[0], players[-1], *players[1:-1]]
    return rounds


def group_of_seeds(entrants: int, groups: int) -> tuple[tuple[int, ...], ...]:
    """The seeds of each group, by snake seeding: 1..G into groups 1..G, then G+1.. back.

    >>> group_of_seeds(8, 3)
    ((1, 6, 7), (2, 5, 8), (3, 4))
    """
    members: list[list[int]] = [[] for _ in range(groups)]
    for index in range(entrants):
        lap, place = divmod(index, groups)
        members[place if lap % 2 == 0 else groups - 1 - place].append(index + 1)
    return tuple(tuple(m) for m in members)


def _group_matches(groups: tuple[tuple[int, ...], ...]) -> list[list[BracketMatch]]:
    rounds: list[list[BracketMatch]] = []
    for g, seeds in enumerate(groups, start=1):
        for r, pairs in enumerate(_circle_rounds(seeds), start=1):
            prefix = f"G{g}-" if len(groups) > 1 else ""
            rounds.append(
                [
                    BracketMatch(
                        key=f"{prefix}R{r}-{i + 1}",
                        stage=Stage.GROUP,
                        round=r,
                        number=i + 1,
                        sources=(Seed(a), Seed(b)),
                        group=g,
                    )
                    for i, (a, b) in enumerate(pairs)
                ]
            )
    return rounds


def round_robin(entrants: int) -> Bracket:
    """A round robin of ``entrants`` players (2 to :data:`MAX_ENTRANTS`).

    Raises:
        InvalidInputError: too few or too many entrants.
    """
    _check_entrants(entrants, 2)
    groups = (tuple(range(1, entrants + 1)),)
    return Bracket(
        format=Format.ROUND_ROBIN,
        entrants=entrants,
        size=0,
        matches=_in_play_order(_group_matches(groups)),
        groups=groups,
    )


def groups_to_bracket(entrants: int, groups: int, advance: int) -> Bracket:
    """Round-robin groups, then the first ``advance`` of each in a single elimination.

    Args:
        entrants: how many players.
        groups: how many groups (2 or more), each of at least ``advance + 1`` players.
        advance: how many of each group go on (1 to 4).

    Raises:
        InvalidInputError: numbers that do not make such an event.
    """
    _check_entrants(entrants, 3)
    if isinstance(groups, bool) or not isinstance(groups, int) or groups < 2:
        raise InvalidInputError(f"groups must be 2 or more, got {groups!r}")
    if isinstance(advance, bool) or not isinstance(advance, int) or not 1 <= advance <= 4:
        raise InvalidInputError(f"advance must be 1 to 4 players a group, got {advance!r}")
    if entrants // groups < advance + 1:
        raise InvalidInputError(
            f"{entrants} players in {groups} groups leave a group of {entrants // groups}: "
            f"too few for {advance} to go on (each group needs {advance + 1} or more)"
        )
    members = group_of_seeds(entrants, groups)
    qualifiers = groups * advance
    size = _size(qualifiers)
    slots: list[Source] = []
    for place in range(1, advance + 1):
        # Places in order; within a place the groups in an order that keeps each qualifier
        # away from the winner of its own group in the first round (a pair adds up to size + 1).
        for j in range(groups):
            if place == 1:
                slots.append(PlaceOf(j + 1, 1))
            else:
                slots.append(PlaceOf((groups - j + place - 2) % groups + 1, place))
    rounds = _elimination_rounds(_seeded_pairs(qualifiers, size, slots), "K", Stage.KNOCKOUT)
    return Bracket(
        format=Format.GROUPS,
        entrants=entrants,
        size=size,
        matches=_in_play_order([*_group_matches(members), *rounds]),
        groups=members,
        advance=advance,
    )


def make_bracket(format: Format, entrants: int, *, groups: int = 2, advance: int = 2) -> Bracket:
    """The bracket of ``format`` for ``entrants`` players (``groups`` and ``advance``: groups).

    Raises:
        InvalidInputError: numbers that do not make such an event.
    """
    if format is Format.SINGLE:
        return single_elimination(entrants)
    if format is Format.DOUBLE:
        return double_elimination(entrants)
    if format is Format.ROUND_ROBIN:
        return round_robin(entrants)
    return groups_to_bracket(entrants, groups, advance)


_STAGE_ORDER = {stage: rank for rank, stage in enumerate(Stage)}


def _in_play_order(rounds: list[list[BracketMatch]]) -> tuple[BracketMatch, ...]:
    """Every match, sorted by the earliest it can be played.

    A match's depth is one more than the deepest match it waits for (a group's knockout waits
    for every match of the group); matches of equal depth go winners first, then by round,
    group and number (the first round of every group before the second of any).
    """
    depth: dict[str, int] = {}
    group_depth: dict[int, int] = {}
    for match in (m for r in rounds for m in r):
        before = [depth[key] for key in match.feeds_on]
        before += [group_depth[s.group] for s in match.sources if isinstance(s, PlaceOf)]
        depth[match.key] = 1 + max(before, default=0)
        if match.group is not None:
            group_depth[match.group] = max(group_depth.get(match.group, 0), depth[match.key])
    every = [m for r in rounds for m in r]
    every.sort(key=lambda m: (depth[m.key], _STAGE_ORDER[m.stage], m.round, m.group or 0, m.number))
    return tuple(every)
