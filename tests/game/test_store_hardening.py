"""Hostile storage: two writers of one match, damaged files, rows edited into nonsense.

A second writer of a match is refused whole (``ConcurrentWriteError``) and the stored match stays
a valid record; a file the store cannot use is refused with a ``DatabaseError`` naming it, and
its bytes are left exactly as they were.
"""

from __future__ import annotations

import contextlib
import json
import random
import sqlite3
import threading
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from nineball.errors import ConcurrentWriteError, DatabaseError, NineballError
from nineball.game import ShotKind, ShotRecord
from nineball.game.recorder import MatchRecorder
from nineball.game.saved import SavedMatch
from nineball.game.store import Store
from nineball.rules import MatchConfig, ShotFacts

CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=3)


def _miss(match: SavedMatch) -> ShotRecord:
    """A legal shot that pockets nothing: always playable, the turn passes."""
    facts = ShotFacts.of(first_contact=1, rails=[0])
    return ShotRecord(kind=ShotKind.STROKE, player=match.state.to_act, facts=facts)


def _win(match: SavedMatch) -> ShotRecord:
    """The 9 on the break: the game ends."""
    facts = ShotFacts.of(first_contact=1, pocketed=[9])
    return ShotRecord(kind=ShotKind.STROKE, player=match.state.to_act, facts=facts)


def _entries(store: Store, match_id: int) -> int:
    return sum(len(g.shots) for g in store.load(match_id).games)


def test_a_second_writer_is_refused_and_loses_nothing(tmp_path: Path) -> None:
    path = tmp_path / "two.db"
    with Store(path) as first_store, Store(path) as second_store:
        first = SavedMatch.start(first_store, CONFIG)
        first.play(_miss(first))
        second = SavedMatch.resume(second_store, first.match_id)
        first.play(_miss(first))  # the first writer goes on
        before = second.record
        with pytest.raises(ConcurrentWriteError, match=r"match #1 .* changed by another writer"):
            second.play(_miss(second))
        assert second.record == before  # the refused entry is forgotten in memory too
        with pytest.raises(ConcurrentWriteError):
            second.undo()  # undo respects the one writer as well
        assert second.record == before
        assert first_store.load(first.match_id) == first.record
        first.undo()
        first.play(_miss(first))  # undo then play: same length, still refused (not ABA)
        with pytest.raises(ConcurrentWriteError):
            second.play(_miss(second))
        again = SavedMatch.resume(second_store, first.match_id)  # resuming again works
        again.play(_win(again))
        assert MatchRecorder.resume(first_store.load(first.match_id)).record == again.record


def test_two_threads_resuming_the_same_match(tmp_path: Path) -> None:
    """Two writers race, each resuming after a refusal: no entry lost, none doubled."""
    path = tmp_path / "race.db"
    with Store(path) as store:
        match_id = SavedMatch.start(store, CONFIG).match_id
    played = [0, 0]
    refused = [0, 0]
    errors: list[BaseException] = []
    together = threading.Barrier(2)

    def writer(k: int) -> None:
        try:
            with Store(path) as own:
                match = SavedMatch.resume(own, match_id)
                for _ in range(25):
                    together.wait()  # both write at once, each from what it loaded
                    try:
                        match.play(_miss(match))
                        played[k] += 1
                    except ConcurrentWriteError:
                        refused[k] += 1
                        match = SavedMatch.resume(own, match_id)
        except BaseException as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert errors == []
    assert sum(refused) > 0  # the race did happen
    with Store(path) as store:
        record = store.load(match_id)
        assert sum(len(g.shots) for g in record.games) == sum(played)
        assert MatchRecorder.resume(record).record == record  # it replays: a valid record
        shots = store._db.execute("SELECT game_id, number FROM shots ORDER BY id").fetchall()
        assert [r["number"] for r in shots] == list(range(len(shots)))


def _real_db(path: Path) -> bytes:
    """A small stored match (two games), closed; its bytes."""
    with Store(path) as store:
        match = SavedMatch.start(store, CONFIG)
        for shot in (_miss, _miss, _win, _miss, _win):
            match.play(shot(match))
    db = sqlite3.connect(path)  # a row of the legacy batch table, as older files have
    db.execute("INSERT INTO results (run, kind, data, created) VALUES ('run', 'b', '{}', 'now')")
    db.commit()
    db.close()  # the last connection closed: the file holds everything, no -wal beside it
    return path.read_bytes()


def _every_read(path: Path) -> None:
    """Everything the commands read through the store."""
    with Store(path) as store:
        for summary in store.matches():
            store.load(summary.id)
        store.unfinished()
        store.players()


@pytest.mark.parametrize(
    ("damage", "words"),
    [
        ("directory", "is a directory"),
        ("garbage", "is not an SQLite database"),
        ("short", "is not an SQLite database"),
        ("truncated", "damaged"),
        ("newer", "schema 99, newer than this nineball"),
        ("foreign", "is not a nineball database"),
    ],
)
def test_a_file_it_cannot_use_is_refused_and_left_alone(
    tmp_path: Path, damage: str, words: str
) -> None:
    path = tmp_path / "bad.db"
    if damage == "directory":
        path.mkdir()
    elif damage == "garbage":
        path.write_bytes(bytes(range(256)) * 8)
    elif damage == "short":
        path.write_bytes(b"SQLite format 3\x00")
    elif damage == "truncated":
        path.write_bytes(_real_db(path)[:5000])
    elif damage == "newer":
        _real_db(path)
        con = sqlite3.connect(path)
        con.execute("PRAGMA user_version=99")
        con.close()
    else:
        con = sqlite3.connect(path)
        con.execute("CREATE TABLE moz_places (id INTEGER PRIMARY KEY)")
        con.close()
    before = None if path.is_dir() else path.read_bytes()
    with pytest.raises(DatabaseError, match=words) as refused:
        _every_read(path)
    assert str(path) in str(refused.value)
    if before is not None:
        assert path.read_bytes() == before


@pytest.mark.parametrize(
    ("sql", "words"),
    [
        ("UPDATE shots SET data = 'nonsense' WHERE number = 1", "game 1 entry 1"),
        ("UPDATE shots SET data = '[1, 2]' WHERE number = 0", "damaged"),
        ('UPDATE matches SET header = \'{"race_to": "x"}\'', "race_to 'x'"),
        ("UPDATE matches SET winner = 7", "damaged"),
        ("UPDATE games SET rack = '{' WHERE number = 1", "damaged"),
    ],
)
def test_rows_edited_into_nonsense_are_refused_by_name(
    tmp_path: Path, sql: str, words: str
) -> None:
    path = tmp_path / "edited.db"
    _real_db(path)
    con = sqlite3.connect(path)
    con.execute(sql)
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match=words) as refused:
        _every_read(path)
    assert str(path) in str(refused.value)
    assert "match #1" in str(refused.value)


def test_an_older_schema_is_brought_up_to_date(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    _real_db(path)
    con = sqlite3.connect(path)
    con.execute("ALTER TABLE matches DROP COLUMN revision")
    con.execute("PRAGMA user_version=2")
    con.commit()
    con.close()
    with Store(path) as store:
        match = SavedMatch.resume(store, 1)
        assert match.revision == 0
        match.play(_miss(match))
        assert store.revision(1) == match.revision > 0
        assert store._db.execute("PRAGMA user_version").fetchone()[0] == 4
        tables = {r[0] for r in store._db.execute("SELECT name FROM sqlite_master")}
        assert {"events", "event_players", "event_matches", "event_entries"} <= tables


@st.composite
def _damage(draw: st.DrawFn) -> tuple[str, int, int, bytes]:
    kind = draw(st.sampled_from(["truncate", "bytes", "random", "row"]))
    return (
        kind,
        draw(st.integers(0, 2**31)),
        draw(st.integers(1, 8)),
        draw(st.binary(min_size=1, max_size=8)),
    )


_ROW_EDITS = [
    ("shots", "data"),
    ("shots", "number"),
    ("games", "number"),
    ("games", "breaker"),
    ("games", "winner"),
    ("games", "reason"),
    ("games", "rack"),
    ("matches", "header"),
    ("matches", "winner"),
    ("matches", "finished"),
    ("matches", "player0"),
    ("players", "name"),
    ("results", "data"),
]


def damage_db(path: Path, good: bytes, kind: str, seed: int, count: int, junk: bytes) -> None:
    """Damage a copy of a real database at ``path`` (shared with the soak script)."""
    rng = random.Random(seed)
    if kind == "truncate":
        path.write_bytes(good[: rng.randrange(len(good))])
    elif kind == "bytes":
        data = bytearray(good)
        for _ in range(count):
            at = rng.randrange(len(data))
            data[at : at + len(junk)] = junk
        path.write_bytes(bytes(data[: len(good)]))
    elif kind == "random":
        path.write_bytes(rng.randbytes(rng.randrange(1, 9000)))
    else:
        path.write_bytes(good)
        con = sqlite3.connect(path)
        values: list[object] = [None, -1, 0, 7, 2**62, 1.5, "", "x", "{}", "[]", "nonsense", junk]
        try:
            for _ in range(count):
                table, column = rng.choice(_ROW_EDITS)
                rowids = [r[0] for r in con.execute(f"SELECT rowid FROM {table}")]
                # A constraint the schema keeps (NOT NULL, UNIQUE): no hand edit gets past it.
                with contextlib.suppress(sqlite3.IntegrityError):
                    con.execute(f"UPDATE {table} SET {column} = ? WHERE rowid = ?",
                                (rng.choice(values), rng.choice(rowids)))  # fmt: skip
            con.commit()
        finally:
            con.close()


@settings(
    max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(damage=_damage())
def test_fuzz_damaged_databases_give_a_clean_error_or_an_answer(
    tmp_path: Path, damage: tuple[str, int, int, bytes]
) -> None:
    good = tmp_path / "good.db"
    data = good.read_bytes() if good.exists() else _real_db(good)
    path = tmp_path / "fuzzed.db"
    for extra in ("-wal", "-shm"):
        Path(f"{path}{extra}").unlink(missing_ok=True)
    damage_db(path, data, *damage)
    before = path.read_bytes()
    refusal = None
    try:
        _every_read(path)
    except NineballError as exc:  # a clean error (any other exception fails the test)
        refusal = exc
    if isinstance(refusal, DatabaseError):
        assert str(path) in str(refusal)
        assert path.read_bytes() == before  # a refusal never changes the file
    path.unlink()


def test_damaged_database_json_error_names_the_entry(tmp_path: Path) -> None:
    path = tmp_path / "j.db"
    _real_db(path)
    con = sqlite3.connect(path)
    con.execute("UPDATE shots SET data = ? WHERE number = 0", (json.dumps({"kind": "stroke"}),))
    con.commit()
    con.close()
    with pytest.raises(DatabaseError, match=r"match #1 are damaged"):
        _every_read(path)


@pytest.mark.parametrize("number", ["'[]'", "'x'", "7", "-1", "2.5"])
def test_an_entry_renumbered_by_hand_is_damage_named_not_a_crash(
    tmp_path: Path, number: str
) -> None:
    """Found by the soak: a shot's number edited to '[]' made the resume crash in its repair."""
    path = tmp_path / "renumbered.db"
    with Store(path) as store:
        match = SavedMatch.start(store, CONFIG)
        for shot in (_miss, _win, _miss, _miss):
            match.play(shot(match))
        match_id = match.match_id
    db = sqlite3.connect(path)
    assert db.execute(f"UPDATE shots SET number = {number} WHERE id = 4").rowcount == 1
    db.commit()
    db.close()
    before = path.read_bytes()
    with Store(path) as store, pytest.raises(DatabaseError, match=r"damaged|do not replay"):
        SavedMatch.resume(store, match_id)
    assert path.read_bytes() == before
