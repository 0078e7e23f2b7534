"""Statistics from a scripted match whose every figure is counted by hand below."""

from __future__ import annotations

import csv
import io
import json

import pytest

from nineball.game import dump_record, load_record
from nineball.game.recorder import MatchRecorder
from nineball.game.stats import compute_stats, stats_to_csv, stats_to_json
from nineball.rules import MatchConfig, Seat
from tests.game.conftest import play


@pytest.fixture
def match() -> MatchRecorder:
    recorder = MatchRecorder(MatchConfig(players=("Ann", "Bob"), race_to=2))
    # Game 1, Ann breaks and runs out: 2 balls on the break, then the 1, then the 4 and the 9.
    play(recorder, "1 p23", "1 p1", "4 p49")
    # Game 2, Bob breaks dry; Ann pushes out, Bob passes; Ann pockets the 1 then fouls (no rail);
    # Bob runs out from ball in hand.
    play(recorder, "1 r2345", "push - r0", "pass", "1 p1", "2", "2 p2", "3 p39")
    # Game 3, Ann scratches on a dry break; Bob plays a safety; Ann runs out.
    play(recorder, "1 s", "1 r0 safe", "1 p19")
    return recorder


def test_hand_counted_figures(match: MatchRecorder) -> None:
    assert match.record.winner is Seat.FIRST
    stats = compute_stats([match.record])
    ann, bob = stats["Ann"], stats["Bob"]
    assert (ann.matches_played, ann.matches_won, ann.games_played, ann.games_won) == (1, 1, 3, 2)
    assert (bob.matches_played, bob.matches_won, bob.games_played, bob.games_won) == (1, 0, 3, 1)
    assert (ann.breaks, ann.legal_breaks, ann.breaks_with_a_ball) == (2, 1, 1)
    assert (ann.balls_on_break, ann.break_scratches, ann.nine_on_break) == (2, 1, 0)
    assert (bob.breaks, bob.legal_breaks, bob.breaks_with_a_ball) == (1, 1, 0)
    assert (ann.break_and_runs, ann.run_outs) == (1, 1)
    assert (bob.break_and_runs, bob.run_outs) == (0, 1)
    assert (ann.innings, ann.strokes, ann.balls_pocketed) == (4, 8, 8)
    assert (bob.innings, bob.strokes, bob.balls_pocketed) == (3, 4, 3)
    assert ann.balls_per_inning == 2.0
    assert ann.break_success == 0.5
    assert (ann.push_outs, ann.safeties, bob.safeties) == (1, 0, 1)
    assert ann.fouls == 2
    assert ann.fouls_by_clause == {8: 1, 3: 1, 6: 1}
    assert bob.fouls == 0
    assert bob.fouls_by_clause == {}


def test_three_fouls_and_forfeits_are_counted() -> None:
    recorder = MatchRecorder(MatchConfig(players=("Ann", "Bob"), race_to=3))
    play(recorder, "2", "1 r0", "3", "1 r0", "-")  # Ann loses game 1 on three fouls
    play(recorder, "forfeit 2")  # Bob forfeits game 2
    stats = compute_stats([recorder.record])
    assert stats["Ann"].three_foul_losses == 1
    assert stats["Ann"].fouls_by_clause == {3: 1, 7: 2}
    assert stats["Bob"].forfeits == 1
    assert stats["Bob"].games_won == 1
    assert stats["Ann"].games_won == 1
    assert stats["Ann"].matches_won == 0
    assert stats["Ann"].matches_played == 1


def test_stats_survive_a_record_round_trip(match: MatchRecorder) -> None:
    again = load_record(dump_record(match.record))
    assert compute_stats([again]) == compute_stats([match.record])
    two = compute_stats([match.record, again])
    assert two["Ann"].matches_won == 2
    assert two["Bob"].balls_pocketed == 6


def test_exports(match: MatchRecorder) -> None:
    stats = compute_stats([match.record])
    rows = list(csv.DictReader(io.StringIO(stats_to_csv(stats))))
    assert [r["name"] for r in rows] == ["Ann", "Bob"]
    assert rows[0]["balls_per_inning"] == "2.0"
    assert rows[0]["fouls_clause_8"] == "1"
    assert rows[1]["safeties"] == "1"
    data = json.loads(stats_to_json(stats))
    assert data["Ann"]["fouls_by_clause"] == {"3": 1, "6": 1, "8": 1}
    assert data["Bob"]["run_outs"] == 1
    assert stats_to_csv({}) == ""
