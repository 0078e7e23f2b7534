"""SQLite storage: round trip, listing, undo, and no completed shot lost to a kill -9."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
from dataclasses import replace
from pathlib import Path

import pytest

from nineball import BallId, InvalidInputError
from nineball.game import GameRecord, MatchRecord, ShotKind, ShotRecord
from nineball.game.store import DB_ENV, Store, default_db_path
from nineball.rules import GameOver, MatchConfig, Seat, ShotFacts, Termination

A, B = Seat.FIRST, Seat.SECOND
CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=2)


def _shot(player: Seat, **facts: object) -> ShotRecord:
    return ShotRecord(kind=ShotKind.STROKE, player=player, facts=ShotFacts.of(**facts))  # type: ignore[arg-type]


def test_default_path(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(DB_ENV, str(tmp_path / "x.db"))
    assert default_db_path() == tmp_path / "x.db"
    monkeypatch.delenv(DB_ENV)
    assert default_db_path().name == "nineball.sqlite3"
    assert "nineball" in str(default_db_path().parent)


def test_a_match_shot_by_shot(tmp_path: Path) -> None:
    path = tmp_path / "sub" / "n.db"
    with Store(path) as store:
        match_id = store.start_match(MatchRecord(config=CONFIG, seed=7, date="2026-11-30"))
        store.add_game(match_id, GameRecord(number=1, breaker=A, rack={BallId.ONE: (0.635, 1.905)}))
        store.add_shot(match_id, 1, _shot(A, first_contact=1, rails=[2, 3, 4, 5]))
        store.add_shot(match_id, 1, _shot(B, first_contact=1, pocketed=[9]))
        store.end_game(
            match_id, GameOver(game=1, winner=B, reason=Termination.NINE_BALL, breaker=A)
        )
        assert store.unfinished()[0].id == match_id
    with Store(path) as store:  # a new connection sees everything
        record = store.load(match_id)
        assert record.seed == 7
        assert record.games[0].rack == {BallId.ONE: (0.635, 1.905)}
        assert [s.player for s in record.games[0].shots] == [A, B]
        assert record.games[0].result is not None
        assert record.games[0].result.winner is B
        [summary] = store.matches(player="Bob")
        assert summary.players == ("Ann", "Bob")
        assert summary.score == (0, 1)
        assert not summary.finished
        assert store.matches(player="Cy") == []
        assert store.players() == ["Ann", "Bob"]
        con = sqlite3.connect(path)
        assert con.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        con.close()


def test_start_match_with_games_and_finish(tmp_path: Path) -> None:
    over = GameOver(game=1, winner=A, reason=Termination.FORFEIT, breaker=A)
    record = MatchRecord(
        config=replace(CONFIG, race_to=1),
        games=(
            GameRecord(
                number=1,
                breaker=A,
                shots=(ShotRecord(kind=ShotKind.FORFEIT, player=B),),
                result=over,
            ),
        ),
        winner=A,
    )
    with Store(tmp_path / "n.db") as store:
        match_id = store.start_match(record)
        assert store.load(match_id) == record
        assert store.unfinished() == []
        assert store.matches()[0].winner is A


def test_undo_takes_back_one_thing_at_a_time(tmp_path: Path) -> None:
    with Store(tmp_path / "n.db") as store:
        match_id = store.start_match(MatchRecord(config=CONFIG))
        store.add_game(match_id, GameRecord(number=1, breaker=A))
        store.add_shot(match_id, 1, _shot(A, first_contact=1, pocketed=[9]))
        store.end_game(
            match_id, GameOver(game=1, winner=A, reason=Termination.NINE_BALL, breaker=A)
        )
        store.undo_last(match_id)
        assert store.load(match_id).games[0].result is None
        store.undo_last(match_id)
        assert store.load(match_id).games[0].shots == ()
        store.undo_last(match_id)
        assert store.load(match_id).games == ()
        with pytest.raises(InvalidInputError, match="has nothing to undo"):
            store.undo_last(match_id)


def test_bad_ids(tmp_path: Path) -> None:
    with Store(tmp_path / "n.db") as store:
        with pytest.raises(InvalidInputError, match="no match with id 99"):
            store.load(99)
        match_id = store.start_match(MatchRecord(config=CONFIG))
        with pytest.raises(InvalidInputError, match="has no game 3"):
            store.add_shot(match_id, 3, _shot(A))


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "n.db"
    con = sqlite3.connect(path)
    con.execute("PRAGMA user_version=99")
    con.close()
    with pytest.raises(InvalidInputError, match="schema 99, newer"):
        Store(path)


def test_memory_store() -> None:
    with Store(":memory:") as store:
        assert store.matches() == []


WRITER = textwrap.dedent(
    """
    import sys
    from nineball.game import GameRecord, MatchRecord, ShotKind, ShotRecord
    from nineball.game.store import Store
    from nineball.rules import MatchConfig, Seat, ShotFacts

    store = Store(sys.argv[1])
    match_id = store.start_match(MatchRecord(config=MatchConfig(players=("Ann", "Bob"))))
    store.add_game(match_id, GameRecord(number=1, breaker=Seat.FIRST))
    n = 0
    while True:
        facts = ShotFacts.of(first_contact=1, rails=[0])
        shot = ShotRecord(kind=ShotKind.STROKE, player=Seat(n % 2), facts=facts)
        store.add_shot(match_id, 1, shot)
        n += 1
        print(n, flush=True)
    """
)


def test_kill_9_loses_no_committed_shot(tmp_path: Path) -> None:
    path = tmp_path / "n.db"
    writer = subprocess.Popen(
        [sys.executable, "-c", WRITER, str(path)], stdout=subprocess.PIPE, text=True
    )
    assert writer.stdout is not None
    acknowledged = 0
    for line in writer.stdout:
        acknowledged = int(line)
        if acknowledged >= 40:
            break
    os.kill(writer.pid, signal.SIGKILL)
    writer.wait(timeout=30)
    writer.stdout.close()
    with Store(path) as store:
        [summary] = store.unfinished()
        shots = store.load(summary.id).games[0].shots
    assert len(shots) >= acknowledged
