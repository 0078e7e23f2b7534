"""The event service over a real store: entries once and whole, the bracket at once, restarts."""

from __future__ import annotations

import sqlite3
import threading
import uuid
from pathlib import Path

import pytest

from nineball.errors import AccessError, ConcurrentWriteError, IllegalActionError, InvalidInputError
from nineball.game import Store
from nineball.tournament import (
    Entrant,
    Entry,
    EventConfig,
    EventService,
    EventView,
    Format,
    MatchView,
    Mode,
    Standing,
)


def _entry(match: MatchView, kind: str, **fields: object) -> Entry:
    return Entry.from_json(
        {"id": uuid.uuid4().hex, "match": match.key, "seq": match.seq, "kind": kind, **fields}
    )


def _event(store: Store, players: int = 6, **settings: object) -> tuple[EventService, int]:
    events = EventService(store)
    config = {"name": "Test Open", "date": "2026-12-10", "tables": 2, "race_to": 2} | settings
    event = events.create(EventConfig.from_json(config))
    for i in range(players):
        events.add_player(event, Entrant(name=f"Player {i + 1}", rating=400.0 + 25 * i))
    events.start(event)
    return events, event


def _on(view: EventView, table: int) -> MatchView:
    match = view.at_table(table)
    assert match is not None
    return match


def test_an_entry_sent_twice_is_applied_once(tmp_path: Path) -> None:
    with Store(tmp_path / "e.db") as store:
        events, event = _event(store)
        match = _on(events.view(event), 1)
        start = _entry(match, "start", mode="quick", first_breaker=1)
        first = events.apply(event, start, table=1)
        again = events.apply(event, start, table=1)
        assert first.applied
        assert not again.applied
        assert first.answer == again.answer
        match = _on(events.view(event), 1)
        rack = _entry(match, "rack", winner=0, break_balls=2, break_and_run=True)
        events.apply(event, rack, table=1)
        revision = events.revision(event)
        assert not events.apply(event, rack, table=1).applied
        assert events.revision(event) == revision  # the repeat changed nothing
        view = events.view(event)
        assert view.match(match.key).score == (1, 0)
        assert view.match(match.key).breaker == 0  # alternate breaks: player 1 broke rack 1
        assert len(events.rows.racks(event, match.key)[match.key]) == 1
        # The same id for another entry is refused.
        with pytest.raises(InvalidInputError, match="already used"):
            events.apply(event, Entry.from_json(rack.to_json() | {"seq": 2}), table=1)


def test_an_entry_made_after_another_devices_is_refused_and_changes_nothing(tmp_path: Path) -> None:
    with Store(tmp_path / "e.db") as store:
        events, event = _event(store)
        match = _on(events.view(event), 1)
        events.apply(event, _entry(match, "start", mode="quick", first_breaker=0), table=1)
        stale = _on(events.view(event), 1)
        events.apply(event, _entry(stale, "rack", winner=0), table=1)  # device A
        revision = events.revision(event)
        with pytest.raises(ConcurrentWriteError, match="another device"):
            events.apply(event, _entry(stale, "rack", winner=1), table=1)  # device B, stale
        assert events.revision(event) == revision
        assert events.view(event).match(match.key).score == (1, 0)


def test_a_result_goes_into_the_bracket_at_once(tmp_path: Path) -> None:
    with Store(tmp_path / "e.db") as store:
        events, event = _event(store, players=4, tables=1)
        view = events.view(event)
        first = _on(view, 1)
        assert [
            m.standing
            for m in view.matches
            if m.match.round == 1 and m.match.stage.value == "winners"
        ] == [Standing.CALLED, Standing.READY]
        events.apply(event, _entry(first, "start", mode="quick", first_breaker=0), table=1)
        for _ in range(2):
            events.apply(event, _entry(_on(events.view(event), 1), "rack", winner=1), table=1)
        view = events.view(event)
        done = view.match(first.key)
        assert done.standing is Standing.DONE
        assert done.winner == 1
        assert done.score == (0, 2)
        assert _on(view, 1).key == "W1-2"  # the table took the next match
        winner = done.sides[1].number
        assert any(s.number == winner for s in view.match("W2-1").sides)
        loser = done.sides[0].number
        assert any(s.number == loser for s in view.match("L1-1").sides)


def test_undo_takes_back_racks_and_a_result_not_yet_played_on(tmp_path: Path) -> None:
    with Store(tmp_path / "e.db") as store:
        events, event = _event(store, players=4, tables=2)
        one = _on(events.view(event), 1)
        events.apply(event, _entry(one, "start", mode="quick", first_breaker=0), table=1)
        for _ in range(2):
            events.apply(event, _entry(_on(events.view(event), 1), "rack", winner=0), table=1)
        view = events.view(event)
        finished = view.match(one.key)
        assert finished.standing is Standing.DONE
        # Undo the last rack of the finished match: back in play, the next match not called.
        answer = events.apply(event, _entry(finished, "undo"), table=1).answer
        assert answer["undid"] == "rack"
        view = events.view(event)
        assert view.match(one.key).standing is Standing.PLAYING
        assert view.match(one.key).score == (1, 0)
        events.apply(event, _entry(view.match(one.key), "rack", winner=0), table=1)
        # Once the match fed by it has started, its result is fixed.
        two = _on(events.view(event), 2)
        events.apply(event, _entry(two, "start", mode="quick", first_breaker=0), table=2)
        for _ in range(2):
            events.apply(event, _entry(_on(events.view(event), 2), "rack", winner=0), table=2)
        nxt = events.view(event).match("W2-1")
        assert nxt.table is not None
        events.apply(event, _entry(nxt, "start", mode="quick", first_breaker=0), table=nxt.table)
        done = events.view(event).match(one.key)
        with pytest.raises(IllegalActionError, match="already played on in W2-1"):
            events.apply(event, _entry(done, "undo"), table=1)


def test_tokens_open_only_their_own_doors(tmp_path: Path) -> None:
    with Store(tmp_path / "e.db") as store:
        events, event = _event(store)
        tokens = events.tokens(event)
        events.check_organiser(event, tokens.organiser)
        events.check_table(event, 2, tokens.tables[2])
        events.check_table(event, 2, tokens.organiser)  # the organiser opens every table
        with pytest.raises(AccessError):
            events.check_organiser(event, tokens.tables[1])
        with pytest.raises(AccessError):
            events.check_table(event, 2, tokens.tables[1])
        with pytest.raises(AccessError, match="no table 9"):
            events.check_table(event, 9, tokens.organiser)
        match = _on(events.view(event), 1)
        with pytest.raises(AccessError, match="organiser"):
            events.apply(event, _entry(match, "award", winner=0), table=1)
        with pytest.raises(IllegalActionError, match="not at table 2"):
            events.apply(event, _entry(match, "start", mode="quick", first_breaker=0), table=2)
        events.apply(event, _entry(match, "award", winner=1), organiser=True)
        assert events.view(event).match(match.key).winner == 1
        assert events.view(event).match(match.key).mode is Mode.AWARD


def test_a_match_scored_shot_by_shot_is_ruled_and_handicapped(tmp_path: Path) -> None:
    with Store(tmp_path / "e.db") as store:
        events = EventService(store)
        config = EventConfig(
            name="H",
            date="2026-12-10",
            race_to=3,
            handicap=True,
            format=Format.SINGLE,
            three_foul_warning=True,
        )
        event = events.create(config)
        events.add_player(event, Entrant(name="Strong", rating=700.0))
        events.add_player(event, Entrant(name="Weak", rating=500.0))
        view = events.start(event)
        match = _on(view, 1)
        assert match.races == (3, 1)  # 4:1 a game: 3 against 1 is the nearest even
        assert 0.4 < (match.odds or 0) < 0.6
        events.apply(event, _entry(match, "start", mode="shots", first_breaker=0), table=1)
        # A legal break without a ball, then the weak player fouls twice and is warned.
        events.apply(
            event, _entry(_on(events.view(event), 1), "shot", first=1, rails=[2, 3, 4, 5]), table=1
        )
        answer = events.apply(
            event, _entry(_on(events.view(event), 1), "shot", first=2), table=1
        ).answer
        assert [f["clause"] for f in answer["ruling"]["fouls"]] == [7]
        events.apply(
            event, _entry(_on(events.view(event), 1), "shot", first=1, pocketed=[3]), table=1
        )

        def shoot(**facts):
            return events.apply(
                event, _entry(_on(events.view(event), 1), "shot", **facts), table=1
            ).answer

        shoot(first=1, rails=[1])  # a legal miss: the weak player to shoot
        answer = shoot(first=5)  # the weak player's second foul in a row: warned (clause 12)
        assert answer["ruling"]["warning"] is True
        shoot(first=1, rails=[1])  # the strong player misses: the weak one comes back on two fouls
        now = _on(events.view(event), 1)
        assert now.state is not None
        assert now.state.game.consecutive_fouls == (0, 2)
        # The weak player wins one rack: their race of 1 wins the match.
        answer = events.apply(event, _entry(now, "shot", first=1, pocketed=[9]), table=1).answer
        assert answer["match_over"]
        assert answer["ruling"]["match_winner"] == 1
        view = events.view(event)
        done = view.match(match.key)
        assert done.standing is Standing.DONE
        assert done.winner == 1
        assert done.score == (0, 1)
        record = store.load(done.record_id or 0)
        assert record.config.races == (3, 1)
        assert record.winner is not None
        assert view.placings == ((1, 2), (2, 1))


def test_everything_survives_closing_the_store(tmp_path: Path) -> None:
    path = tmp_path / "e.db"
    with Store(path) as store:
        events, event = _event(store, players=5)
        match = _on(events.view(event), 1)
        events.apply(event, _entry(match, "start", mode="quick", first_breaker=0), table=1)
        events.apply(event, _entry(_on(events.view(event), 1), "rack", winner=1), table=1)
        before = events.view(event)
    with Store(path) as store:
        after = EventService(store).view(event)
    assert after == before


def test_an_older_database_gains_events_and_keeps_its_matches(tmp_path: Path) -> None:
    path = tmp_path / "old.db"
    from nineball.game import MatchConfig, SavedMatch

    with Store(path) as store:
        SavedMatch.start(store, MatchConfig(players=("Ann", "Bob"), race_to=2))
    con = sqlite3.connect(path)
    for table in ("event_entries", "event_racks", "event_matches", "event_players", "events"):
        con.execute(f"DROP TABLE {table}")
    con.execute("PRAGMA user_version=3")
    con.commit()
    con.close()
    with Store(path) as store:
        assert store.connection.execute("PRAGMA user_version").fetchone()[0] == 4
        assert store.load(1).config.players == ("Ann", "Bob")
        events, event = _event(store, players=3)
        assert events.view(event).started


def test_two_connections_score_different_tables_at_once_without_loss(tmp_path: Path) -> None:
    path = tmp_path / "e.db"
    with Store(path) as store:
        _, event = _event(store, players=4, tables=2, race_to=9)
    failures: list[BaseException] = []

    def scorer(table: int) -> None:
        try:
            with Store(path) as store:  # its own connection: another process's, as it were
                events = EventService(store)
                match = _on(events.view(event), table)
                events.apply(
                    event, _entry(match, "start", mode="quick", first_breaker=0), table=table
                )
                for n in range(8):
                    events.apply(
                        event,
                        _entry(_on(events.view(event), table), "rack", winner=n % 2),
                        table=table,
                    )
        except BaseException as error:
            failures.append(error)

    threads = [threading.Thread(target=scorer, args=(t,)) for t in (1, 2)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert failures == []
    with Store(path) as store:
        view = EventService(store).view(event)
        for table in (1, 2):
            assert _on(view, table).score == (4, 4)
        assert len(EventService(store).rows.entries(event)) == 18
        assert view.revision >= 18


def test_settings_after_the_start_change_only_the_tables(tmp_path: Path) -> None:
    with Store(tmp_path / "e.db") as store:
        events, event = _event(store, players=8, tables=1)
        assert [m.table for m in events.view(event).matches if m.table] == [1]
        config = events.view(event).config
        from dataclasses import replace

        events.configure(event, replace(config, tables=3))
        assert sorted(m.table for m in events.view(event).matches if m.table) == [1, 2, 3]
        with pytest.raises(IllegalActionError, match="only its number of tables"):
            events.configure(event, replace(config, race_to=9))
        with pytest.raises(IllegalActionError, match="has started"):
            events.add_player(event, Entrant(name="Late"))


def test_tables_in_use_are_not_taken_away_and_nothing_is_undone_before_a_start(
    tmp_path: Path,
) -> None:
    with Store(tmp_path / "e.db") as store:
        events, event = _event(store, players=4, tables=3)  # two matches: table 3 is free
        view = events.view(event)
        from dataclasses import replace

        with pytest.raises(IllegalActionError, match="table 2 has a match on it"):
            events.configure(event, replace(view.config, tables=1))
        called = _on(view, 1)
        with pytest.raises(IllegalActionError, match="nothing to undo"):
            events.apply(event, _entry(called, "undo"), table=1)
        events.configure(event, replace(view.config, tables=2))
        assert len(events.tokens(event).tables) == 2
        assert _on(events.view(event), 2).key == "W1-2"
