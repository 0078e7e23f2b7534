"""A saved match: every entry committed as played; resume and undo stay in step with the store."""

from __future__ import annotations

from pathlib import Path

from nineball import BallId
from nineball.game import GameRecord, ShotKind, ShotRecord
from nineball.game.saved import SavedMatch
from nineball.game.store import Store
from nineball.rules import MatchConfig, Seat, ShotFacts
from nineball.rules.notation import ShotEntry, parse_entry

CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=2)


def test_every_entry_is_in_the_store(tmp_path: Path) -> None:
    with Store(tmp_path / "m.db") as store:
        match = SavedMatch.start(store, CONFIG, seed=5)
        match.recorder.set_rack({BallId.ONE: (0.635, 1.905)})
        for text in ("1 p2", "1 p9", "1 r2345", "1 p9"):
            _play(match, text)
        assert store.load(match.match_id) == match.record
        assert store.matches()[0].finished
        assert store.matches()[0].winner is Seat.FIRST


def _play(match: SavedMatch, text: str) -> None:
    entry = parse_entry(text)
    assert isinstance(entry, ShotEntry)
    match.play(
        ShotRecord(
            kind=ShotKind.STROKE,
            player=match.state.to_act,
            facts=entry.facts,
            push_out=entry.push_out,
        )
    )


def test_undo_keeps_the_store_in_step(tmp_path: Path) -> None:
    with Store(tmp_path / "n.db") as store:
        match = SavedMatch.start(store, CONFIG)
        for text in ("1 p2", "1 p9", "1 r2345", "1 p9"):
            _play(match, text)
        for _ in range(4):
            match.undo()
            assert store.load(match.match_id) == match.record
        assert match.record.games == ()
        assert not store.matches()[0].finished


def test_resume_after_a_kill_between_the_shot_and_the_result(tmp_path: Path) -> None:
    with Store(tmp_path / "n.db") as store:
        match = SavedMatch.start(store, CONFIG)
        _play(match, "1 p2")
        # As if the process died right after committing the winning shot:
        facts = ShotFacts.of(first_contact=1, pocketed=[9])
        store.add_shot(
            match.match_id, 1, ShotRecord(kind=ShotKind.STROKE, player=Seat.FIRST, facts=facts)
        )
        resumed = SavedMatch.resume(store, match.match_id)
        assert resumed.state.score == (1, 0)
        assert resumed.state.game.number == 2
        stored = store.load(resumed.match_id)
        assert stored.games[0].result is not None
        _play(resumed, "1 p9")
        _play(resumed, "1 p9")  # Ann wins game 3 after Bob's game 2: 2-1
        assert store.load(resumed.match_id).winner is Seat.FIRST


def test_resume_ends_a_match_whose_end_was_not_stored(tmp_path: Path) -> None:
    with Store(tmp_path / "n.db") as store:
        match = SavedMatch.start(store, MatchConfig(players=("Ann", "Bob"), race_to=1))
        store.add_game(match.match_id, GameRecord(number=1, breaker=Seat.FIRST))
        facts = ShotFacts.of(first_contact=1, pocketed=[9])
        store.add_shot(
            match.match_id, 1, ShotRecord(kind=ShotKind.STROKE, player=Seat.FIRST, facts=facts)
        )
        resumed = SavedMatch.resume(store, match.match_id)
        assert resumed.state.winner is Seat.FIRST
        assert store.matches()[0].finished
