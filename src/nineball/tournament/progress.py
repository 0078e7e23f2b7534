"""What the results make of a bracket: who plays each match, who is through, who is out.

:func:`resolve` is a pure function of a :class:`~nineball.tournament.bracket.Bracket` and the
results entered so far; the event's state is never stored beside its results, so it cannot drift
from them. A walkover (a bye) resolves itself; a reset final that is not needed is void.

Players are named by seed (1 to n); :data:`BYE` (0) stands for a bye.

>>> from nineball.tournament.bracket import single_elimination
>>> bracket = single_elimination(3)
>>> progress = resolve(bracket, {"W1-2": Result(winner=1, score=(2, 5))})
>>> progress["W1-1"].status, progress["W1-1"].winner
(<Status.WALKOVER: 'walkover'>, 1)
>>> progress["W2-1"].players, progress["W2-1"].status
((1, 3), <Status.READY: 'ready'>)
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum

from nineball.errors import InvalidInputError
from nineball.tournament.bracket import (
    Bracket,
    BracketMatch,
    Bye,
    Format,
    LoserOf,
    PlaceOf,
    Seed,
    Source,
    Stage,
    WinnerOf,
)

__all__ = ["BYE", "MatchState", "Progress", "Result", "Standing", "Status", "resolve"]

BYE = 0
"""The seed that stands for a bye."""


class Status(StrEnum):
    """Where a match stands."""

    WAITING = "waiting"
    """A player is not known yet."""
    READY = "ready"
    """Both players are known: it can be played."""
    DONE = "done"
    """Played: it has a result."""
    WALKOVER = "walkover"
    """A bye: the other player goes through without playing (both byes: a bye goes through)."""
    VOID = "void"
    """Not needed: the reset final when the winners' champion won the final."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Result:
    """The result of a played match."""

    winner: int
    """The slot that won: 0 or 1."""
    score: tuple[int, int]
    """Games won by slots 0 and 1."""

    def __post_init__(self) -> None:
        """Check the slot and the score.

        Raises:
            InvalidInputError: a slot other than 0 or 1, or a score that is not two counts.
        """
        if self.winner not in (0, 1) or isinstance(self.winner, bool):
            raise InvalidInputError(f"the winner is slot 0 or 1, got {self.winner!r}")
        if not (
            isinstance(self.score, tuple)
            and len(self.score) == 2
            and all(isinstance(s, int) and not isinstance(s, bool) and s >= 0 for s in self.score)
        ):
            raise InvalidInputError(f"a score is two counts of games, got {self.score!r}")


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """One match of the bracket, as the results leave it."""

    match: BracketMatch
    players: tuple[int | None, int | None]
    """The seeds in its two slots (:data:`BYE` for a bye, None while not known)."""
    status: Status
    result: Result | None = None
    """The result, once played."""

    @property
    def key(self) -> str:
        """The match's key."""
        return self.match.key

    @property
    def winner(self) -> int | None:
        """The seed of the winner (a walkover's too), None before."""
        if self.status is Status.DONE and self.result is not None:
            return self.players[self.result.winner]
        if self.status is Status.WALKOVER:
            return self.players[0] if self.players[0] != BYE else self.players[1]
        return None

    @property
    def loser(self) -> int | None:
        """The seed of the loser (:data:`BYE` for a walkover), None before."""
        if self.status is Status.DONE and self.result is not None:
            return self.players[1 - self.result.winner]
        if self.status is Status.WALKOVER:
            return BYE
        return None


@dataclass(frozen=True, slots=True, kw_only=True)
class Standing:
    """One player's line in a round-robin group."""

    seed: int
    played: int
    won: int
    games_won: int
    games_lost: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Progress:
    """Every match of a bracket as the results leave it, and what follows."""

    bracket: Bracket
    matches: tuple[MatchState, ...]
    """In the bracket's play order."""
    tables: tuple[tuple[Standing, ...], ...]
    """Each group's standings, best first (empty for an elimination)."""

    def __getitem__(self, key: str) -> MatchState:
        """The state of the match ``key``.

        Raises:
            KeyError: no match has that key.
        """
        for state in self.matches:
            if state.key == key:
                return state
        raise KeyError(key)

    def __iter__(self) -> Iterator[MatchState]:
        """Every match, in play order."""
        return iter(self.matches)

    def ready(self) -> tuple[MatchState, ...]:
        """The matches that can be played now, in play order."""
        return tuple(m for m in self.matches if m.status is Status.READY)

    @property
    def is_over(self) -> bool:
        """True when every match is played, walked over or void."""
        return all(m.status not in (Status.WAITING, Status.READY) for m in self.matches)

    def group_complete(self, group: int) -> bool:
        """True when every match of ``group`` has been played."""
        return all(m.status is Status.DONE for m in self.matches if m.match.group == group)

    def placings(self) -> tuple[tuple[int, int], ...]:
        """(place, seed) of every player once the event is over, best first; ties share a place.

        An elimination ranks by how far each player went (the players out in the same round
        share the place); a round robin by its standings; groups into a bracket rank the knockout
        first, then the others by their place in their group.

        Raises:
            InvalidInputError: the event is not over.
        """
        if not self.is_over:
            raise InvalidInputError("the event is not over: no placings yet")
        return _placings(self)


def _source(
    source: Source, states: Mapping[str, MatchState], tables: Mapping[int, tuple[Standing, ...]]
) -> int | None:
    if isinstance(source, Seed):
        return source.seed
    if isinstance(source, Bye):
        return BYE
    if isinstance(source, WinnerOf):
        return states[source.key].winner
    if isinstance(source, LoserOf):
        return states[source.key].loser
    table = tables.get(source.group)
    if table is None:
        return None
    return table[source.place - 1].seed if source.place <= len(table) else BYE


def resolve(bracket: Bracket, results: Mapping[str, Result]) -> Progress:
    """The bracket as ``results`` (by match key) leave it.

    Raises:
        InvalidInputError: a result for a match that does not exist, or that cannot have been
            played (a player not known, a walkover, a reset final that is not needed).
    """
    unknown = set(results) - set(bracket.keys())
    if unknown:
        raise InvalidInputError(f"results for matches not in the bracket: {sorted(unknown)!r:.120}")
    states: dict[str, MatchState] = {}
    done: dict[int, tuple[Standing, ...]] = {}  # the tables of the groups fully played
    for match in bracket.matches:
        for source in match.sources:
            if isinstance(source, PlaceOf) and source.group not in done:
                # Every match of a group comes before any match that waits for its table.
                group = list(bracket.group_matches(source.group))
                if all(states[m.key].status is Status.DONE for m in group):
                    done[source.group] = _standings(bracket, source.group, states)
        players = (_source(match.sources[0], states, done), _source(match.sources[1], states, done))
        states[match.key] = _state(match, players, results.get(match.key), states)
    return Progress(
        bracket=bracket,
        matches=tuple(states[m.key] for m in bracket.matches),
        tables=tuple(_standings(bracket, g, states) for g in range(1, len(bracket.groups) + 1)),
    )


def _state(
    match: BracketMatch,
    players: tuple[int | None, int | None],
    result: Result | None,
    states: Mapping[str, MatchState],
) -> MatchState:
    if match.stage is Stage.RESET:
        final = states["F1"]
        if final.status is not Status.DONE or final.result is None:
            if final.status is Status.WALKOVER:
                return _refuse_result(match, players, Status.VOID, result)
            return _refuse_result(match, players, Status.WAITING, result)
        if final.result.winner == 0:  # the winners' champion won: no reset
            return _refuse_result(match, players, Status.VOID, result)
    if None in players:
        return _refuse_result(match, players, Status.WAITING, result)
    if BYE in players:
        return _refuse_result(match, players, Status.WALKOVER, result)
    if result is None:
        return MatchState(match=match, players=players, status=Status.READY)
    return MatchState(match=match, players=players, status=Status.DONE, result=result)


def _refuse_result(
    match: BracketMatch,
    players: tuple[int | None, int | None],
    status: Status,
    result: Result | None,
) -> MatchState:
    if result is not None:
        raise InvalidInputError(f"match {match.key!r} cannot have a result: it is {status.value}")
    return MatchState(match=match, players=players, status=status)


def _standings(
    bracket: Bracket, group: int, states: Mapping[str, MatchState]
) -> tuple[Standing, ...]:
    """A group's table: most wins, then wins among the tied, game difference, games won, seed."""
    seeds = bracket.groups[group - 1]
    lines = {s: [0, 0, 0, 0] for s in seeds}  # played, won, games won, games lost
    beat: dict[tuple[int, int], int] = {}
    for match in bracket.group_matches(group):
        state = states.get(match.key)
        if state is None or state.status is not Status.DONE or state.result is None:
            continue
        for slot in (0, 1):
            seed = state.players[slot]
            if seed is None or seed == BYE:
                continue
            line = lines[seed]
            line[0] += 1
            line[1] += state.result.winner == slot
            line[2] += state.result.score[slot]
            line[3] += state.result.score[1 - slot]
        winner, loser = state.winner, state.loser
        if winner is not None and loser is not None:
            beat[(winner, loser)] = 1
    wins = {s: lines[s][1] for s in seeds}

    def among_tied(seed: int) -> int:
        tied = [t for t in seeds if wins[t] == wins[seed] and t != seed]
        return sum(beat.get((seed, other), 0) for other in tied)

    order = sorted(
        seeds,
        key=lambda s: (-wins[s], -among_tied(s), -(lines[s][2] - lines[s][3]), -lines[s][2], s),
    )
    return tuple(
        Standing(
            seed=s,
            played=lines[s][0],
            won=lines[s][1],
            games_won=lines[s][2],
            games_lost=lines[s][3],
        )
        for s in order
    )


def _placings(progress: Progress) -> tuple[tuple[int, int], ...]:
    bracket = progress.bracket
    if bracket.format is Format.ROUND_ROBIN:
        return tuple((place, line.seed) for place, line in enumerate(progress.tables[0], 1))
    lives = 2 if bracket.format is Format.DOUBLE else 1
    losses: dict[int, int] = {}
    rank: dict[int, tuple[int, int]] = {}  # the higher, the better
    entered: set[int] = set()
    for state in progress.matches:
        if state.match.stage is Stage.GROUP:
            continue
        entered |= {p for p in state.players if p is not None and p != BYE}
        loser = state.loser
        if state.status is not Status.DONE or loser is None:
            continue
        losses[loser] = losses.get(loser, 0) + 1
        if losses[loser] == lives:  # out: ranked by the round that put them out
            final = state.match.stage in (Stage.FINAL, Stage.RESET)
            rank[loser] = (2, 0) if final else (1, state.match.round)
    for seed in entered - set(rank):
        rank[seed] = (3, 0)  # the champion
    for group in progress.tables:
        for place, line in enumerate(group, 1):
            if line.seed not in entered:
                rank[line.seed] = (0, -place)
    every = sorted(rank)
    places = {s: 1 + sum(rank[o] > rank[s] for o in every) for s in every}
    return tuple(sorted((places[s], s) for s in every))
