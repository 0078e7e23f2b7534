"""An event as it stands, read from the store in one go: the values every page and report reads.

:class:`EventView` is made by :meth:`nineball.tournament.service.EventService.view`; nothing in
it changes anything. Its matches are in play order, each with its players (by name, seed and
registration number), races, score, table and status.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from nineball.game import MatchState
from nineball.game.event_store import PlayerRow
from nineball.tournament.bracket import (
    Bracket,
    BracketMatch,
    Bye,
    LoserOf,
    PlaceOf,
    Seed,
    Source,
    WinnerOf,
)
from nineball.tournament.config import EventConfig
from nineball.tournament.entries import Mode
from nineball.tournament.progress import Progress

__all__ = ["EventView", "MatchView", "Side", "Standing", "source_json"]


class Standing(StrEnum):
    """Where a match stands, as a board shows it."""

    WAITING = "waiting"
    """A player is not known yet."""
    READY = "ready"
    """Both players known, no table yet."""
    CALLED = "called"
    """Given a table; the players are called to it."""
    PLAYING = "playing"
    """Its first entry is in."""
    DONE = "done"
    WALKOVER = "walkover"
    VOID = "void"


@dataclass(frozen=True, slots=True, kw_only=True)
class Side:
    """One slot of a match."""

    seed: int | None = None
    """The seed (None while not known; 0 for a bye)."""
    number: int | None = None
    """The player's number in the event (registration order), None for a bye or unknown."""
    name: str | None = None
    rating: float | None = None

    @property
    def is_bye(self) -> bool:
        """True for a bye."""
        return self.seed == 0


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchView:
    """One match of the event."""

    match: BracketMatch
    standing: Standing
    sides: tuple[Side, Side]
    races: tuple[int, int]
    """The games each side needs (handicapped races differ)."""
    odds: float | None
    """The first side's chance of winning, from the ratings (None unless both are rated)."""
    score: tuple[int, int] = (0, 0)
    winner: int | None = None
    """The slot that won (0 or 1)."""
    table: int | None = None
    mode: Mode | None = None
    seq: int = 0
    """How many entries it has had (the ``seq`` of its next entry)."""
    first_breaker: int | None = None
    breaker: int | None = None
    """Who breaks (or broke) the rack in progress."""
    state: MatchState | None = None
    """The referee's state, for a match scored shot by shot."""
    record_id: int | None = None
    called: str | None = None
    started: str | None = None
    finished: str | None = None
    last: dict[str, Any] | None = None
    """The answer to its last entry (a ruling, a rack)."""

    @property
    def key(self) -> str:
        """The match's key."""
        return self.match.key

    @property
    def is_over(self) -> bool:
        """True once played, walked over or void."""
        return self.standing in (Standing.DONE, Standing.WALKOVER, Standing.VOID)


@dataclass(frozen=True, slots=True, kw_only=True)
class EventView:
    """An event as it stands."""

    id: int
    config: EventConfig
    players: tuple[PlayerRow, ...]
    """By registration number."""
    seeding: tuple[int, ...] | None
    """Player numbers from seed 1 down (None before the start)."""
    revision: int
    bracket: Bracket | None = None
    progress: Progress | None = None
    matches: tuple[MatchView, ...] = ()
    up_next: tuple[str, ...] = ()
    """The ready matches without a table, in the order free tables will take them."""
    placings: tuple[tuple[int, int], ...] = ()
    """(place, player number), best first, once the event is over."""

    @property
    def started(self) -> bool:
        """True once the seeding is drawn."""
        return self.seeding is not None

    @property
    def is_over(self) -> bool:
        """True once every match is played."""
        return self.progress is not None and self.progress.is_over

    def match(self, key: str) -> MatchView:
        """The match ``key``.

        Raises:
            KeyError: no such match.
        """
        for match in self.matches:
            if match.key == key:
                return match
        raise KeyError(key)

    def player(self, number: int) -> PlayerRow:
        """The player registered as ``number``.

        Raises:
            KeyError: no such player.
        """
        for player in self.players:
            if player.number == number:
                return player
        raise KeyError(number)

    def seed_of(self, number: int) -> int | None:
        """The seed of the player ``number`` (None before the start)."""
        if self.seeding is None or number not in self.seeding:
            return None
        return self.seeding.index(number) + 1

    def at_table(self, table: int) -> MatchView | None:
        """The match on ``table`` now (None when the table is free)."""
        for match in self.matches:
            if match.table == table and match.standing in (Standing.CALLED, Standing.PLAYING):
                return match
        return None

    def last_at_table(self, table: int) -> MatchView | None:
        """The match played last on ``table`` (its result stays on the table's page)."""
        done = [m for m in self.matches if m.table == table and m.standing is Standing.DONE]
        return max(done, key=lambda m: m.finished or "", default=None)

    def of_player(self, number: int) -> tuple[MatchView, ...]:
        """The player's matches (played, on and to come), in play order."""
        return tuple(m for m in self.matches if any(s.number == number for s in m.sides))


def source_json(source: Source) -> dict[str, Any]:
    """Where a slot's player comes from, for a page to say so."""
    if isinstance(source, Seed):
        return {"kind": "seed", "seed": source.seed}
    if isinstance(source, Bye):
        return {"kind": "bye"}
    if isinstance(source, WinnerOf):
        return {"kind": "winner", "match": source.key}
    if isinstance(source, LoserOf):
        return {"kind": "loser", "match": source.key}
    if isinstance(source, PlaceOf):
        return {"kind": "place", "group": source.group, "place": source.place}
    raise TypeError(f"not a source: {source!r}")
