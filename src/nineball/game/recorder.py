"""A match being played: the referee's state and the record, kept in step entry by entry."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace

from nineball.equipment import BallId, Point
from nineball.game.record import GameRecord, MatchRecord, ShotKind, ShotRecord
from nineball.game.rulings import rule
from nineball.rules import MatchConfig, MatchState, Ruling, start_match

__all__ = ["MatchRecorder"]


class MatchRecorder:
    """Rules on each entry of a match and appends it to the match's record.

    >>> from nineball.rules import Seat, ShotFacts
    >>> recorder = MatchRecorder(MatchConfig(players=("Ann", "Bob"), race_to=1))
    >>> facts = ShotFacts.of(first_contact=1, pocketed=[9])
    >>> ruling = recorder.play(ShotRecord(kind=ShotKind.STROKE, player=Seat.FIRST, facts=facts))
    >>> recorder.record.winner, len(recorder.record.games)
    (<Seat.FIRST: 0>, 1)
    """

    def __init__(self, config: MatchConfig, **header: object) -> None:
        """Start a match.

        Args:
            config: what the players agreed.
            **header: the other fields of :class:`MatchRecord` (seed, table, params, event,
                date).
        """
        self._header = MatchRecord(config=config, **header)  # type: ignore[arg-type]
        self._games: list[GameRecord] = []
        self._next_rack: Mapping[BallId, Point] | None = None
        self.state: MatchState = start_match(config)
        """The referee's state of the match."""

    @classmethod
    def resume(cls, record: MatchRecord) -> MatchRecorder:
        """Continue a stored match: replay its entries through the referee.

        Raises:
            InvalidRecordError: an entry the referee refuses.
        """
        recorder = cls(record.config)
        recorder._header = replace(record, games=(), winner=None)
        for game in record.games:
            recorder._next_rack = game.rack
            for shot in game.shots:
                recorder.play(shot)
            if not game.shots:
                recorder._games.append(replace(game, result=None))
        return recorder

    @property
    def record(self) -> MatchRecord:
        """The record of everything played so far."""
        return replace(self._header, games=tuple(self._games), winner=self.state.winner)

    @property
    def game(self) -> GameRecord | None:
        """The record of the game in progress (None before its first entry)."""
        if self._games and self._games[-1].number == self.state.game.number:
            return self._games[-1]
        return None

    def set_rack(self, rack: Mapping[BallId, Point]) -> None:
        """Record how the next game (or the current one, before its first entry) was racked."""
        game = self.game
        if game is not None and not game.shots:
            self._games[-1] = replace(game, rack=rack)
        else:
            self._next_rack = rack

    def play(self, shot: ShotRecord, *, ruling: Ruling | None = None) -> Ruling:
        """Rule on ``shot`` and record it, with the referee's fouls and the game's result.

        ``ruling``: the referee's ruling on this stroke from :attr:`state`, when the caller
        has it already (a match's stroke, which the step ruled on from the very same state:
        :meth:`Match.strike`); the referee is asked here otherwise.

        Raises:
            NineballError: the referee refuses the entry; nothing is recorded.
        """
        if ruling is None or shot.kind is not ShotKind.STROKE:
            ruling = rule(self.state, shot)
        if shot.kind is ShotKind.STROKE and shot.fouls != ruling.fouls:
            shot = replace(shot, fouls=ruling.fouls)
        game = self.game
        if game is None:
            game = GameRecord(
                number=self.state.game.number, breaker=self.state.game.breaker, rack=self._next_rack
            )
            self._games.append(game)
            self._next_rack = None
        self._games[-1] = replace(game, shots=(*game.shots, shot), result=ruling.game_over)
        self.state = ruling.state
        return ruling

    def undo(self) -> ShotRecord:
        """Take back the last entry and return it.

        Raises:
            IndexError: nothing has been played.
        """
        shots = [s for g in self._games for s in g.shots]
        if not shots:
            raise IndexError("nothing to undo")
        last = self._games[-1]
        trimmed = replace(last, shots=last.shots[:-1], result=None)
        games = [*self._games[:-1], trimmed] if trimmed.shots else self._games[:-1]
        replay = MatchRecorder.resume(replace(self._header, games=tuple(games)))
        if not trimmed.shots:
            replay._next_rack = last.rack
        self._games, self.state, self._next_rack = replay._games, replay.state, replay._next_rack
        return last.shots[-1]
