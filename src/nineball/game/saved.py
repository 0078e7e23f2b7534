"""A match whose every entry is committed to the store the moment it is played."""

from __future__ import annotations

from dataclasses import replace

from nineball.game.record import MatchRecord, ShotRecord
from nineball.game.recorder import MatchRecorder
from nineball.game.store import Store
from nineball.rules import MatchConfig, MatchState, Ruling

__all__ = ["SavedMatch"]


class SavedMatch:
    """A :class:`MatchRecorder` kept in step with a :class:`Store`.

    Each entry is ruled, recorded and committed (its game's start and end too) before
    :meth:`play` returns, so a killed process loses nothing that was played.
    """

    def __init__(self, store: Store, recorder: MatchRecorder, match_id: int) -> None:
        """Wrap an existing stored match; prefer :meth:`start` and :meth:`resume`."""
        self.store = store
        self.recorder = recorder
        self.match_id = match_id

    @classmethod
    def start(cls, store: Store, config: MatchConfig, **header: object) -> SavedMatch:
        """Start and store a new match (``header``: seed, table, params, event, date)."""
        recorder = MatchRecorder(config, **header)
        return cls(store, recorder, store.start_match(recorder.record))

    @classmethod
    def resume(cls, store: Store, match_id: int) -> SavedMatch:
        """Continue a stored match where it stood.

        Raises:
            InvalidInputError: no match has that id.
            InvalidRecordError: the stored entries do not replay.
        """
        record = store.load(match_id)
        recorder = MatchRecorder.resume(record)
        saved = cls(store, recorder, match_id)
        # A kill between a game-ending shot and its result row: store what the referee says.
        for stored, replayed in zip(record.games, recorder.record.games, strict=True):
            if stored.result is None and replayed.result is not None:
                store.end_game(match_id, replayed.result)
        if record.winner is None and recorder.state.winner is not None:
            store.end_match(match_id, recorder.state.winner)
        return saved

    @property
    def state(self) -> MatchState:
        """The referee's state of the match."""
        return self.recorder.state

    @property
    def record(self) -> MatchRecord:
        """The record of the match so far."""
        return self.recorder.record

    def play(self, shot: ShotRecord) -> Ruling:
        """Rule on ``shot``, record it and commit it.

        Raises:
            NineballError: the referee refuses it; nothing is recorded or stored.
        """
        starts_game = self.recorder.game is None
        ruling = self.recorder.play(shot)
        game = self.recorder.record.games[-1]
        if starts_game:
            self.store.add_game(self.match_id, replace(game, shots=(), result=None))
        self.store.add_shot(self.match_id, game.number, game.shots[-1])
        if ruling.game_over is not None:
            self.store.end_game(self.match_id, ruling.game_over)
        if ruling.state.winner is not None:
            self.store.end_match(self.match_id, ruling.state.winner)
        return ruling

    def undo(self) -> ShotRecord:
        """Take back the last entry, in the record and in the store.

        Raises:
            IndexError: nothing has been played.
        """
        games_before = len(self.recorder.record.games)
        ended_game = bool(self.recorder.record.games) and (
            self.recorder.record.games[-1].result is not None
        )
        shot = self.recorder.undo()
        if ended_game:
            self.store.undo_last(self.match_id)  # the game's result (and the match's end)
        self.store.undo_last(self.match_id)  # the shot
        if len(self.recorder.record.games) < games_before:
            self.store.undo_last(self.match_id)  # the game row it opened
        return shot
