"""The rows of events in the store: settings, players, matches, quick racks and entries.

Events live in the same SQLite file as the matches (schema 4, :mod:`nineball.game.store_file`).
This module only reads and writes rows; what they mean (brackets, races, the order of play) is
:mod:`nineball.tournament`'s. A scorer's entry is stored whole in one transaction
(:meth:`nineball.game.store.Store.transaction`): its row in ``event_entries`` (its id unique in
the event, so an entry sent twice is found and not applied again; its place ``seq`` unique in its
match, so two devices cannot both add the n-th entry), what it did (a rack, a shot through the
match's own rows), and the event's revision, raised by one.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

from nineball.errors import DatabaseError, InvalidInputError
from nineball.game.store import Store
from nineball.game.store_file import guarded

__all__ = ["EntryRow", "EventRow", "EventStore", "MatchRow", "PlayerRow", "RackRow"]


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


@dataclass(frozen=True, slots=True, kw_only=True)
class EventRow:
    """An event as stored."""

    id: int
    name: str
    config: dict[str, Any]
    """The settings as JSON (:meth:`nineball.tournament.config.EventConfig.to_json`)."""
    secret: str
    """The key the event's tokens are made from (never sent to a page)."""
    seeding: tuple[int, ...] | None
    """The players' numbers from seed 1 down, once the event started."""
    created: str
    started: str | None
    revision: int
    """Raised by every change: a page asks whether anything changed since the one it has."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PlayerRow:
    """A registered player: their number in the event (from 1), name and rating."""

    number: int
    name: str
    rating: float | None


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchRow:
    """What is stored of one match of an event (the bracket itself is never stored)."""

    key: str
    table_number: int | None = None
    called: str | None = None
    """When the match was given its table."""
    mode: str | None = None
    """``quick`` (rack by rack) or ``shots`` (shot by shot), from its first entry."""
    first_breaker: int | None = None
    started: str | None = None
    finished: str | None = None
    record_id: int | None = None
    """The stored match (``matches.id``) of a match scored shot by shot."""
    winner: int | None = None
    """The slot (0 or 1) that won, once finished."""
    score: tuple[int, int] = (0, 0)


@dataclass(frozen=True, slots=True, kw_only=True)
class RackRow:
    """One rack entered by its result (quick entry)."""

    number: int
    winner: int
    breaker: int
    data: dict[str, Any]
    """The break's figures, as entered."""
    created: str = ""


@dataclass(frozen=True, slots=True, kw_only=True)
class EntryRow:
    """A scorer's entry, as applied."""

    id: str
    key: str
    seq: int
    table_number: int | None
    kind: str
    data: dict[str, Any]
    answer: dict[str, Any]
    created: str


def _json(text: str, what: str) -> Any:
    try:
        return json.loads(text)
    except (ValueError, TypeError) as exc:
        raise DatabaseError(f"the {what} is damaged (edited by hand?): {exc}") from exc


class EventStore:
    """The events of a :class:`Store`; every write joins the store's current transaction."""

    def __init__(self, store: Store) -> None:
        """Use the tables of ``store`` (created with it: schema 4)."""
        self.store = store

    @property
    def _db(self) -> sqlite3.Connection:
        return self.store.connection

    def transaction(self) -> Any:
        """The store's write transaction (re-entrant)."""
        return self.store.transaction()

    # ------------------------------------------------------------------------ events

    @guarded
    def create_event(self, name: str, config: Mapping[str, Any], secret: str) -> int:
        """Store a new event; return its id."""
        with self.store.transaction():
            cursor = self._db.execute(
                "INSERT INTO events (name, config, secret, created) VALUES (?, ?, ?, ?)",
                (name, json.dumps(dict(config)), secret, _now()),
            )
            return int(cursor.lastrowid or 0)

    @guarded
    def event(self, event_id: int) -> EventRow:
        """The event ``event_id``.

        Raises:
            InvalidInputError: no event has that id.
        """
        row = self._db.execute("SELECT * FROM events WHERE id = ?", (event_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no event with id {event_id!r}")
        return self._event(row)

    def _event(self, row: sqlite3.Row) -> EventRow:
        config = _json(row["config"], f"settings of event #{row['id']}")
        seeding = None if row["seeding"] is None else _json(row["seeding"], "seeding")
        if not isinstance(config, dict) or not (
            seeding is None or (isinstance(seeding, list) and all(type(s) is int for s in seeding))
        ):
            raise DatabaseError(f"event #{row['id']} is damaged (edited by hand?)")
        return EventRow(
            id=row["id"],
            name=row["name"],
            config=config,
            secret=row["secret"],
            seeding=None if seeding is None else tuple(seeding),
            created=row["created"],
            started=row["started"],
            revision=row["revision"],
        )

    @guarded
    def events(self) -> list[EventRow]:
        """Every event, newest first."""
        return [self._event(r) for r in self._db.execute("SELECT * FROM events ORDER BY id DESC")]

    @guarded
    def revision(self, event_id: int) -> int:
        """The event's revision (raised by every change).

        Raises:
            InvalidInputError: no event has that id.
        """
        row = self._db.execute("SELECT revision FROM events WHERE id = ?", (event_id,)).fetchone()
        if row is None:
            raise InvalidInputError(f"no event with id {event_id!r}")
        return int(row["revision"])

    def bump(self, event_id: int) -> None:
        """Raise the event's revision (inside the write that changes it)."""
        self._db.execute("UPDATE events SET revision = revision + 1 WHERE id = ?", (event_id,))

    @guarded
    def set_config(self, event_id: int, config: Mapping[str, Any]) -> None:
        """Replace the settings of an event not yet started."""
        with self.store.transaction():
            self._db.execute(
                "UPDATE events SET config = ? WHERE id = ?", (json.dumps(dict(config)), event_id)
            )
            self.bump(event_id)

    @guarded
    def start(self, event_id: int, seeding: tuple[int, ...]) -> None:
        """Fix the seeding and mark the event started."""
        with self.store.transaction():
            self._db.execute(
                "UPDATE events SET seeding = ?, started = ? WHERE id = ?",
                (json.dumps(list(seeding)), _now(), event_id),
            )
            self.bump(event_id)

    # ------------------------------------------------------------------------ players

    @guarded
    def add_player(self, event_id: int, name: str, rating: float | None) -> int:
        """Register a player; return their number in the event.

        Raises:
            InvalidInputError: the name is already registered in the event.
        """
        with self.store.transaction():
            number = (
                1
                + self._db.execute(
                    "SELECT COALESCE(MAX(number), 0) FROM event_players WHERE event_id = ?",
                    (event_id,),
                ).fetchone()[0]
            )
            try:
                self._db.execute(
                    "INSERT INTO event_players (event_id, number, name, rating)"
                    " VALUES (?, ?, ?, ?)",
                    (event_id, number, name, rating),
                )
            except sqlite3.IntegrityError as exc:
                raise InvalidInputError(f"{name!r} is already registered") from exc
            self.bump(event_id)
            return int(number)

    @guarded
    def remove_player(self, event_id: int, number: int) -> None:
        """Take a player off an event not yet started (the others keep their numbers)."""
        with self.store.transaction():
            cursor = self._db.execute(
                "DELETE FROM event_players WHERE event_id = ? AND number = ?", (event_id, number)
            )
            if cursor.rowcount == 0:
                raise InvalidInputError(f"no player number {number!r} in event #{event_id}")
            self.bump(event_id)

    @guarded
    def players(self, event_id: int) -> list[PlayerRow]:
        """The registered players, by number."""
        rows = self._db.execute(
            "SELECT number, name, rating FROM event_players WHERE event_id = ? ORDER BY number",
            (event_id,),
        )
        return [PlayerRow(number=r["number"], name=r["name"], rating=r["rating"]) for r in rows]

    # ------------------------------------------------------------------------ matches

    @guarded
    def matches(self, event_id: int) -> dict[str, MatchRow]:
        """The stored matches of an event, by key."""
        rows = self._db.execute("SELECT * FROM event_matches WHERE event_id = ?", (event_id,))
        return {
            r["key"]: MatchRow(
                key=r["key"],
                table_number=r["table_number"],
                called=r["called"],
                mode=r["mode"],
                first_breaker=r["first_breaker"],
                started=r["started"],
                finished=r["finished"],
                record_id=r["record_id"],
                winner=r["winner"],
                score=(r["score0"], r["score1"]),
            )
            for r in rows
        }

    def put_match(self, event_id: int, row: MatchRow) -> None:
        """Write a match's row (inside the write that changes it)."""
        self._db.execute(
            "INSERT OR REPLACE INTO event_matches (event_id, key, table_number, called, mode,"
            " first_breaker, started, finished, record_id, winner, score0, score1)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                event_id,
                row.key,
                row.table_number,
                row.called,
                row.mode,
                row.first_breaker,
                row.started,
                row.finished,
                row.record_id,
                row.winner,
                *row.score,
            ),
        )

    # ------------------------------------------------------------------------ quick racks

    @guarded
    def racks(self, event_id: int, key: str | None = None) -> dict[str, list[RackRow]]:
        """The racks entered by their result, by match key (one match's, or every one)."""
        query = "SELECT * FROM event_racks WHERE event_id = ?"
        args: tuple[object, ...] = (event_id,)
        if key is not None:
            query += " AND key = ?"
            args += (key,)
        out: dict[str, list[RackRow]] = {}
        for r in self._db.execute(query + " ORDER BY key, number", args):
            data = _json(r["data"], f"rack {r['number']} of {r['key']!r}")
            out.setdefault(r["key"], []).append(
                RackRow(
                    number=r["number"],
                    winner=r["winner"],
                    breaker=r["breaker"],
                    data=data if isinstance(data, dict) else {},
                    created=r["created"],
                )
            )
        return out

    def add_rack(self, event_id: int, key: str, rack: RackRow) -> None:
        """Store one rack (inside the entry's write)."""
        self._db.execute(
            "INSERT INTO event_racks (event_id, key, number, winner, breaker, data, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (event_id, key, rack.number, rack.winner, rack.breaker, json.dumps(rack.data), _now()),
        )

    def remove_rack(self, event_id: int, key: str, number: int) -> None:
        """Take back one rack (inside the entry's write)."""
        self._db.execute(
            "DELETE FROM event_racks WHERE event_id = ? AND key = ? AND number = ?",
            (event_id, key, number),
        )

    # ------------------------------------------------------------------------ entries

    @guarded
    def entry(self, event_id: int, entry_id: str) -> EntryRow | None:
        """The entry ``entry_id`` of the event, if it was applied."""
        row = self._db.execute(
            "SELECT * FROM event_entries WHERE event_id = ? AND id = ?", (event_id, entry_id)
        ).fetchone()
        return None if row is None else self._entry(row)

    def _entry(self, row: sqlite3.Row) -> EntryRow:
        return EntryRow(
            id=row["id"],
            key=row["key"],
            seq=row["seq"],
            table_number=row["table_number"],
            kind=row["kind"],
            data=_json(row["data"], "entry"),
            answer=_json(row["answer"], "entry's answer"),
            created=row["created"],
        )

    @guarded
    def entries(self, event_id: int, key: str | None = None) -> list[EntryRow]:
        """The applied entries, in the order they were applied (one match's, or all)."""
        query = "SELECT * FROM event_entries WHERE event_id = ?"
        args: tuple[object, ...] = (event_id,)
        if key is not None:
            query += " AND key = ?"
            args += (key,)
        return [self._entry(r) for r in self._db.execute(query + " ORDER BY rowid", args)]

    def count_entries(self, event_id: int, key: str) -> int:
        """How many entries a match has had (the ``seq`` its next entry must carry)."""
        return int(
            self._db.execute(
                "SELECT COUNT(*) FROM event_entries WHERE event_id = ? AND key = ?",
                (event_id, key),
            ).fetchone()[0]
        )

    def add_entry(self, event_id: int, entry: EntryRow) -> None:
        """Store an applied entry (inside its write)."""
        self._db.execute(
            "INSERT INTO event_entries (event_id, id, key, seq, table_number, kind, data, answer,"
            " created) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (
                event_id,
                entry.id,
                entry.key,
                entry.seq,
                entry.table_number,
                entry.kind,
                json.dumps(entry.data),
                json.dumps(entry.answer),
                _now(),
            ),
        )

    @guarded
    def entry_summary(self, event_id: int) -> dict[str, tuple[int, dict[str, Any]]]:
        """For each match with entries: how many, and the answer to the last one."""
        rows = self._db.execute(
            "SELECT key, COUNT(*) AS n, MAX(seq) AS last FROM event_entries"
            " WHERE event_id = ? GROUP BY key",
            (event_id,),
        ).fetchall()
        out: dict[str, tuple[int, dict[str, Any]]] = {}
        for row in rows:
            answer = self._db.execute(
                "SELECT answer FROM event_entries WHERE event_id = ? AND key = ? AND seq = ?",
                (event_id, row["key"], row["last"]),
            ).fetchone()
            data = _json(answer["answer"], "entry's answer")
            out[row["key"]] = (int(row["n"]), data if isinstance(data, dict) else {})
        return out
