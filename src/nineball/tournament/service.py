"""An event in the store: what the organiser and the scorers do, one transaction each.

:class:`EventService` is the one way an event changes, for the web pages and the command line
alike. Each scorer's entry (:class:`~nineball.tournament.entries.Entry`) is applied whole in one
transaction of the store: refused or stored with everything it changes (the rack or the shot, the
match's score and result, the tables given to the matches that can now be played, the event's
revision). An entry whose id was applied already is answered as it was the first time and changes
nothing; one whose ``seq`` is not its match's count of entries is refused
(:class:`ConcurrentWriteError`): it was made on a device that missed another's entry.

Tokens: the organiser's and each table's are made from a secret kept in the event's row (an HMAC
of the role), so the organiser can be shown the tables' links again at any time; they travel in
request bodies, never in a URL.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from typing import Any

from nineball.errors import (
    AccessError,
    ConcurrentWriteError,
    DatabaseError,
    IllegalActionError,
    InvalidInputError,
)
from nineball.game import SavedMatch, Seat, Store
from nineball.game.event_store import EntryRow, EventStore, MatchRow, RackRow
from nineball.game.record import ShotKind, ShotRecord
from nineball.game.rulings import ruling_json, state_json
from nineball.tournament.bracket import Format, LoserOf, PlaceOf, WinnerOf, make_bracket
from nineball.tournament.config import Entrant, EventConfig
from nineball.tournament.entries import Entry, EntryKind, Mode
from nineball.tournament.reading import event_config, load_event
from nineball.tournament.schedule import assign_tables
from nineball.tournament.seeding import seed_order
from nineball.tournament.view import EventView, MatchView, Standing

__all__ = ["Applied", "EventService", "Tokens"]

_LEAST = {Format.SINGLE: 2, Format.DOUBLE: 2, Format.ROUND_ROBIN: 2, Format.GROUPS: 3}
"""The fewest players each format is played with."""


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _token(secret: str, role: str) -> str:
    digest = hmac.new(bytes.fromhex(secret), role.encode(), hashlib.sha256).digest()
    return base64.urlsafe_b64encode(digest).decode()[:22]


@dataclass(frozen=True, slots=True, kw_only=True)
class Tokens:
    """The secrets of an event: the organiser's and one per table."""

    organiser: str
    tables: dict[int, str]


@dataclass(frozen=True, slots=True, kw_only=True)
class Applied:
    """What became of an entry."""

    applied: bool
    """False when the entry had been applied before (it changed nothing this time)."""
    answer: dict[str, Any]
    """What it did (the same both times): a rack, a ruling..."""


class EventService:
    """The events of a store."""

    def __init__(self, store: Store) -> None:
        """Work on the events of ``store`` (the web server's, or a command's)."""
        self.store = store
        self.rows = EventStore(store)

    # ------------------------------------------------------------------------ organiser

    def create(self, config: EventConfig) -> int:
        """Store a new event; return its id (its tokens: :meth:`tokens`)."""
        return self.rows.create_event(config.name, config.to_json(), secrets.token_hex(32))

    def tokens(self, event_id: int) -> Tokens:
        """The organiser's token and each table's.

        Raises:
            InvalidInputError: no such event.
        """
        row = self.rows.event(event_id)
        config = event_config(row.config, event_id)
        return Tokens(
            organiser=_token(row.secret, "organiser"),
            tables={n: _token(row.secret, f"table {n}") for n in range(1, config.tables + 1)},
        )

    def check_organiser(self, event_id: int, token: object) -> None:
        """Refuse a token that is not the event's organiser's.

        Raises:
            AccessError: a wrong token; InvalidInputError: no such event.
        """
        expected = self.tokens(event_id).organiser
        if not isinstance(token, str) or not hmac.compare_digest(token, expected):
            raise AccessError(f"that token does not open event #{event_id} for its organiser")

    def check_table(self, event_id: int, table: int, token: object) -> None:
        """Refuse a token that is not the table's (the organiser's opens every table).

        Raises:
            AccessError: a wrong token or a table the event does not have.
        """
        tokens = self.tokens(event_id)
        if not isinstance(token, str):
            raise AccessError(f"a table's token is text, got {type(token).__name__}")
        good = tokens.tables.get(table)
        if good is None:
            raise AccessError(f"event #{event_id} has no table {table!r}")
        if not (hmac.compare_digest(token, good) or hmac.compare_digest(token, tokens.organiser)):
            raise AccessError(f"that token does not open table {table} of event #{event_id}")

    def configure(self, event_id: int, config: EventConfig) -> None:
        """Change the settings; once the event started, only the number of tables.

        Raises:
            IllegalActionError: another setting of a started event.
        """
        with self.rows.transaction():
            view = load_event(self.store, self.rows, event_id, states=False)
            if view.started and replace(config, tables=view.config.tables) != view.config:
                raise IllegalActionError(
                    "the event has started: only its number of tables can change"
                )
            busy = [
                m.table
                for m in view.matches
                if m.table
                and m.table > config.tables
                and m.standing in (Standing.CALLED, Standing.PLAYING)
            ]
            if busy:
                raise IllegalActionError(
                    f"table {max(busy)} has a match on it: finish it before taking the table away"
                )
            self.rows.set_config(event_id, config.to_json())
            if view.started:
                self._reconcile(event_id)

    def add_player(self, event_id: int, entrant: Entrant) -> int:
        """Register a player before the start; return their number.

        Raises:
            IllegalActionError: the event has started; InvalidInputError: a name taken.
        """
        with self.rows.transaction():
            self._before_start(event_id)
            return self.rows.add_player(event_id, entrant.name, entrant.rating)

    def remove_player(self, event_id: int, number: int) -> None:
        """Take a player off before the start.

        Raises:
            IllegalActionError: the event has started; InvalidInputError: no such player.
        """
        with self.rows.transaction():
            self._before_start(event_id)
            self.rows.remove_player(event_id, number)

    def _before_start(self, event_id: int) -> None:
        if self.rows.event(event_id).seeding is not None:
            raise IllegalActionError(f"event #{event_id} has started: its players are fixed")

    def start(self, event_id: int) -> EventView:
        """Draw the seeding, build the bracket and call the first matches to their tables.

        Raises:
            IllegalActionError: already started, or too few players for the format.
            InvalidInputError: numbers the format cannot take (groups too small).
        """
        with self.rows.transaction():
            row = self.rows.event(event_id)
            if row.seeding is not None:
                raise IllegalActionError(f"event #{event_id} has already started")
            config = event_config(row.config, event_id)
            players = self.rows.players(event_id)
            if len(players) < _LEAST[config.format]:
                raise IllegalActionError(
                    f"a {config.format.value} event needs {_LEAST[config.format]} players or "
                    f"more, event #{event_id} has {len(players)}"
                )
            make_bracket(config.format, len(players), groups=config.groups, advance=config.advance)
            entrants = [Entrant(name=p.name, rating=p.rating) for p in players]
            order = seed_order(entrants, config.seeding, seed=config.seed)
            self.rows.start(event_id, tuple(players[i].number for i in order))
            self._reconcile(event_id)
        return self.view(event_id)

    # ------------------------------------------------------------------------ reading

    def view(self, event_id: int) -> EventView:
        """The event as it stands (one read of the store).

        Raises:
            InvalidInputError: no such event; DatabaseError: its rows are damaged.
        """
        with self.store.reading():
            return load_event(self.store, self.rows, event_id, states=True)

    def revision(self, event_id: int) -> int:
        """The event's revision: raised by every change.

        Raises:
            InvalidInputError: no such event.
        """
        return self.rows.revision(event_id)

    # ------------------------------------------------------------------------ entries

    def apply(
        self, event_id: int, entry: Entry, *, table: int | None = None, organiser: bool = False
    ) -> Applied:
        """Apply a scorer's entry (once, whole, in one transaction).

        Args:
            event_id: the event.
            entry: the entry.
            table: the table it was entered at (None: the organiser, or a scorer at the
                organiser's machine, any table).
            organiser: the organiser sent it (an ``award`` needs this).

        Raises:
            ConcurrentWriteError: its ``seq`` is not the match's count of entries.
            IllegalActionError: not allowed now (the match is over, not at this table...).
            AccessError: an ``award`` not from the organiser.
            NineballError: the referee refuses the shot; nothing changes.
        """
        with self.rows.transaction():
            done = self.rows.entry(event_id, entry.id)
            if done is not None:
                if (done.key, done.kind, done.seq) != (entry.match, entry.kind.value, entry.seq):
                    raise InvalidInputError(
                        f"entry id {entry.id!r} was already used for another entry"
                    )
                return Applied(applied=False, answer=done.answer)
            view = load_event(self.store, self.rows, event_id, states=False)
            if not view.started:
                raise IllegalActionError(f"event #{event_id} has not started")
            try:
                match = view.match(entry.match)
            except KeyError:
                raise InvalidInputError(f"event #{event_id} has no match {entry.match!r}") from None
            self._check_entry(view, match, entry, table, organiser)
            answer = self._effect(event_id, view, match, entry)
            answer |= {"entry": entry.id, "match": entry.match, "seq": entry.seq}
            self.rows.add_entry(
                event_id,
                EntryRow(
                    id=entry.id,
                    key=entry.match,
                    seq=entry.seq,
                    table_number=table,
                    kind=entry.kind.value,
                    data=entry.to_json(),
                    answer=answer,
                    created="",
                ),
            )
            self._reconcile(event_id)
            self.rows.bump(event_id)
            return Applied(applied=True, answer=answer)

    def _check_entry(
        self, view: EventView, match: MatchView, entry: Entry, table: int | None, organiser: bool
    ) -> None:
        if entry.kind is EntryKind.AWARD and not organiser:
            raise AccessError("only the organiser gives a match without play")
        if table is not None and match.table != table:
            where = "no table" if match.table is None else f"table {match.table}"
            raise IllegalActionError(f"match {match.key} is at {where}, not at table {table}")
        if entry.seq != match.seq:
            raise ConcurrentWriteError(
                f"match {match.key} has had {match.seq} entries, and this one was made after "
                f"{entry.seq}: another device scored it meanwhile; reload the match"
            )
        if entry.kind is EntryKind.UNDO:
            if match.standing is Standing.DONE:
                used = [
                    m.key
                    for m in view.matches
                    if match.key in _feeds(view, m)
                    and (m.mode is not None or m.standing is Standing.DONE)
                ]
                if used:
                    raise IllegalActionError(
                        f"the result of {match.key} is already played on in {', '.join(used)}: "
                        "ask the organiser"
                    )
            elif match.standing is not Standing.PLAYING or match.mode is None:
                raise IllegalActionError(f"match {match.key} has nothing to undo")
            return
        playable: tuple[Standing, ...] = (Standing.CALLED, Standing.PLAYING)
        if organiser:
            playable += (Standing.READY,)
        if match.standing not in playable:
            raise IllegalActionError(
                f"match {match.key} cannot be scored: it is {match.standing.value}"
            )
        wanted = {EntryKind.START: None, EntryKind.RACK: Mode.QUICK, EntryKind.AWARD: None}.get(
            entry.kind, Mode.SHOTS
        )
        if match.mode is not wanted:
            if match.mode is None:
                raise IllegalActionError(f"match {match.key} has not started: start it first")
            how = "rack by rack" if match.mode is Mode.QUICK else "shot by shot"
            raise IllegalActionError(
                f"match {match.key} is scored {how}: a {entry.kind.value} entry does not fit"
            )

    def _effect(
        self, event_id: int, view: EventView, match: MatchView, entry: Entry
    ) -> dict[str, Any]:
        stored = self.rows.matches(event_id).get(match.key, MatchRow(key=match.key))
        kind = entry.kind
        if kind is EntryKind.START and entry.mode is not None and entry.first_breaker is not None:
            record_id = None
            if entry.mode is Mode.SHOTS:
                names = (str(match.sides[0].name), str(match.sides[1].name))
                config = view.config.match_config(names, match.races, Seat(entry.first_breaker))
                saved = SavedMatch.start(
                    self.store,
                    config,
                    date=_now(),
                    agents=("human", "human"),
                    event=f"{view.config.name} · {match.key}",
                )
                record_id = saved.match_id
            self.rows.put_match(
                event_id,
                replace(
                    stored,
                    mode=entry.mode.value,
                    first_breaker=entry.first_breaker,
                    started=_now(),
                    record_id=record_id,
                    score=(0, 0),
                ),
            )
            return {"kind": "start", "mode": entry.mode.value, "first_breaker": entry.first_breaker}
        if kind is EntryKind.AWARD and entry.winner is not None:
            self.rows.put_match(
                event_id,
                replace(
                    stored,
                    mode=Mode.AWARD.value,
                    started=_now(),
                    finished=_now(),
                    winner=entry.winner,
                    score=(0, 0),
                ),
            )
            return {"kind": "award", "winner": entry.winner}
        if kind is EntryKind.RACK and entry.winner is not None:
            return self._rack(event_id, match, stored, entry)
        if kind is EntryKind.UNDO:
            return self._undo(event_id, match, stored)
        return self._stroke(event_id, match, stored, entry)

    def _rack(
        self, event_id: int, match: MatchView, stored: MatchRow, entry: Entry
    ) -> dict[str, Any]:
        winner = int(entry.winner or 0)
        racks = self.rows.racks(event_id, match.key).get(match.key, [])
        breaker = int(match.breaker or 0)
        data = {
            "break_balls": entry.break_balls,
            "break_foul": entry.break_foul,
            "break_and_run": entry.break_and_run,
        }
        number = len(racks) + 1
        self.rows.add_rack(
            event_id, match.key, RackRow(number=number, winner=winner, breaker=breaker, data=data)
        )
        score = (stored.score[0] + (winner == 0), stored.score[1] + (winner == 1))
        over = score[winner] >= match.races[winner]
        self.rows.put_match(
            event_id,
            replace(
                stored,
                score=score,
                winner=winner if over else None,
                finished=_now() if over else None,
            ),
        )
        return {
            "kind": "rack",
            "rack": number,
            "winner": winner,
            "breaker": breaker,
            "score": list(score),
            "match_over": over,
        }

    def _stroke(
        self, event_id: int, match: MatchView, stored: MatchRow, entry: Entry
    ) -> dict[str, Any]:
        if stored.record_id is None:
            raise DatabaseError(f"match {match.key} is scored shot by shot but has no record")
        saved = SavedMatch.resume(self.store, stored.record_id)
        to_act = saved.state.to_act
        if entry.kind is EntryKind.SHOT:
            shot = ShotRecord(
                kind=ShotKind.STROKE, player=to_act, facts=entry.facts, push_out=entry.push_out
            )
        elif entry.kind is EntryKind.CHOICE:
            shot = ShotRecord(kind=ShotKind.CHOICE, player=to_act, choice=entry.choice)
        else:
            shot = ShotRecord(kind=ShotKind.FORFEIT, player=Seat(int(entry.seat or 0)))
        game = saved.state.game.number
        ruling = saved.play(shot)
        state = saved.state
        over = state.winner is not None
        self.rows.put_match(
            event_id,
            replace(
                stored,
                score=state.score,
                winner=None if state.winner is None else int(state.winner),
                finished=_now() if over else None,
            ),
        )
        return {
            "kind": entry.kind.value,
            "ruling": ruling_json(ruling, game),
            "state": state_json(state),
            "score": list(state.score),
            "match_over": over,
        }

    def _undo(self, event_id: int, match: MatchView, stored: MatchRow) -> dict[str, Any]:
        reopened = replace(stored, winner=None, finished=None)
        if stored.mode == Mode.AWARD.value:
            self.rows.put_match(event_id, replace(reopened, mode=None, started=None))
            return {"kind": "undo", "undid": "award"}
        if stored.mode == Mode.QUICK.value:
            racks = self.rows.racks(event_id, match.key).get(match.key, [])
            if racks:
                last = racks[-1]
                self.rows.remove_rack(event_id, match.key, last.number)
                score = (stored.score[0] - (last.winner == 0), stored.score[1] - (last.winner == 1))
                self.rows.put_match(event_id, replace(reopened, score=score))
                return {"kind": "undo", "undid": "rack", "rack": last.number, "score": list(score)}
        elif stored.mode == Mode.SHOTS.value and stored.record_id is not None:
            saved = SavedMatch.resume(self.store, stored.record_id)
            if any(g.shots for g in saved.record.games):
                saved.undo()
                state = saved.state
                self.rows.put_match(event_id, replace(reopened, score=state.score))
                return {
                    "kind": "undo",
                    "undid": "shot",
                    "state": state_json(state),
                    "score": list(state.score),
                }
        self.rows.put_match(
            event_id,
            replace(
                reopened, mode=None, first_breaker=None, started=None, record_id=None, score=(0, 0)
            ),
        )
        return {"kind": "undo", "undid": "start"}

    def _reconcile(self, event_id: int) -> None:
        """Free the tables of matches that can no longer be played; fill the free tables."""
        view = load_event(self.store, self.rows, event_id, states=False)
        stored = self.rows.matches(event_id)
        on_table: dict[str, int] = {}
        for match in view.matches:
            row = stored.get(match.key)
            if row is None or row.table_number is None or row.finished is not None:
                continue
            if match.standing is Standing.WAITING and row.mode is None:  # undone upstream
                self.rows.put_match(event_id, replace(row, table_number=None, called=None))
                continue
            on_table[match.key] = row.table_number
        if view.progress is None:
            return  # not started: no table to fill
        given = assign_tables(view.progress, on_table, view.config.tables)
        for key, table in given.items():
            row = stored.get(key, MatchRow(key=key))
            self.rows.put_match(event_id, replace(row, table_number=table, called=_now()))


def _feeds(view: EventView, match: MatchView) -> set[str]:
    """The keys of the matches whose results ``match`` takes its players from."""
    keys: set[str] = set()
    bracket = view.bracket
    for source in match.match.sources:
        if isinstance(source, WinnerOf | LoserOf):
            keys.add(source.key)
        elif isinstance(source, PlaceOf) and bracket is not None:
            keys |= {m.key for m in bracket.group_matches(source.group)}
    if match.key == "F2":
        keys.add("F1")
    return keys
