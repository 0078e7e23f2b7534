"""A match whose every entry is committed to the store the moment it is played."""

from __future__ import annotations

from dataclasses import replace

from nineball.errors import DatabaseError
from nineball.game.record import MatchRecord, ShotRecord
from nineball.game.recorder import MatchRecorder
from nineball.game.store import Store
from nineball.rules import MatchConfig, MatchState, Ruling

__all__ = ["SavedMatch"]


class SavedMatch:
    """A :class:`MatchRecorder` kept in step with a :class:`Store`.

    Each entry is ruled, recorded and committed (its game's start and end too, in the same
    transaction) before :meth:`play` returns, so a killed process loses nothing that was played.

    One writer per match: every write carries the match's revision as this object last saw it,
    so when someone else (a second ``nineball resume``, the web server) wrote to the match
    meanwhile, :meth:`play` and :meth:`undo` raise :class:`ConcurrentWriteError`, store nothing
    and leave this object as it was.
    """

    def __init__(
        self, store: Store, recorder: MatchRecorder, match_id: int, revision: int | None = None
    ) -> None:
        """Wrap an existing stored match; prefer :meth:`start` and :meth:`resume`.

        Args:
            store: the store.
            recorder: the match as stored.
            match_id: its id.
            revision: the revision ``recorder`` was loaded at (None: the store's now).
        """
        self.store = store
        self.recorder = recorder
        self.match_id = match_id
        self.revision = store.revision(match_id) if revision is None else revision

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
            DatabaseError: the stored rows are damaged.
            InvalidRecordError: the stored entries do not replay.
            ConcurrentWriteError: another writer changed the match while it was repaired.
        """
        record, revision = store.snapshot(match_id)
        recorder = MatchRecorder.resume(record)
        saved = cls(store, recorder, match_id, revision)
        if len(recorder.record.games) != len(record.games):
            raise DatabaseError(
                f"database {str(store.path)!r}: the games of match #{match_id} do not replay "
                f"as stored ({len(record.games)} stored, {len(recorder.record.games)} replayed)"
            )
        # A kill between a game-ending shot and its result row: store what the referee says.
        for stored, replayed in zip(record.games, recorder.record.games, strict=True):
            if stored.result is None and replayed.result is not None:
                saved.revision = store.commit_entry(
                    match_id, saved.revision, game_over=replayed.result
                )
        if record.winner is None and recorder.state.winner is not None:
            saved.revision = store.commit_entry(
                match_id, saved.revision, winner=recorder.state.winner
            )
        return saved

    @property
    def state(self) -> MatchState:
        """The referee's state of the match."""
        return self.recorder.state

    @property
    def record(self) -> MatchRecord:
        """The record of the match so far."""
        return self.recorder.record

    def play(self, shot: ShotRecord, *, ruling: Ruling | None = None) -> Ruling:
        """Rule on ``shot``, record it and commit it (one transaction).

        ``ruling``: as :meth:`MatchRecorder.play`.

        Raises:
            NineballError: the referee refuses it; nothing is recorded or stored.
            ConcurrentWriteError: another writer changed the match since it was loaded;
                nothing is recorded or stored.
        """
        starts_game = self.recorder.game is None
        ruling = self.recorder.play(shot, ruling=ruling)
        game = self.recorder.record.games[-1]
        try:
            self.revision = self.store.commit_entry(
                self.match_id,
                self.revision,
                game=replace(game, shots=(), result=None) if starts_game else None,
                shot=(game.number, game.shots[-1]),
                game_over=ruling.game_over,
                winner=ruling.state.winner,
            )
        except BaseException:
            self.recorder.undo()  # the store refused it: the record forgets it too
            raise
        return ruling

    def undo(self) -> ShotRecord:
        """Take back the last entry, in the record and in the store (one transaction).

        Raises:
            IndexError: nothing has been played.
            ConcurrentWriteError: another writer changed the match since it was loaded;
                nothing changes.
        """
        games = self.recorder.record.games
        if not any(g.shots for g in games):
            raise IndexError("nothing to undo")
        # The shot; before it the game's result (and the match's end); after it the game row
        # when the shot was the game's only one.
        steps = 1 + (games[-1].result is not None) + (len(games[-1].shots) == 1)
        self.revision = self.store.undo_last(self.match_id, steps=steps, revision=self.revision)
        return self.recorder.undo()
