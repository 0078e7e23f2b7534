"""The rack-over card's figures, the match-over statistics and the rematch, from the session."""

from __future__ import annotations

import json
import math
from pathlib import Path

from nineball.game import compute_stats
from nineball.rules import MatchConfig, Seat
from nineball.web.protocol import Strike, parse_new_match
from nineball.web.registry import SessionRegistry
from nineball.web.seats import Mode

CONFIG = MatchConfig(players=("Ann", "Bob"), race_to=2)
BOTH = frozenset({Seat.FIRST, Seat.SECOND})


def _break() -> Strike:
    return Strike(
        type="strike", speed=8.0, aim=math.pi / 2, elevation=0.0, side=0.0, height=0.0,
        push_out=False, cue=(0.635, 0.4),
    )  # fmt: skip


def test_a_game_over_carries_the_rack_and_the_match_over_its_statistics(tmp_path: Path) -> None:
    registry = SessionRegistry(tmp_path / "web.sqlite3")
    session, _ = registry.create(Mode.LOCAL, CONFIG, seed=5)
    [shot] = session.strike(BOTH, _break())
    assert "rack" not in shot
    breaker = shot["ruling"]["shooter"]  # type: ignore[index]
    if session.state.game.number == 1:  # the break did not end the game: concede it
        [shot] = session.forfeit(BOTH)
    rack = shot["rack"]
    assert rack["game"] == 1
    assert rack["players"][breaker]["strokes"] == 1
    assert rack["players"][breaker]["innings"] == 1
    assert rack["players"][1 - breaker]["strokes"] == 0
    assert "match_stats" not in shot
    snapshot = session.snapshot(BOTH)  # a reload on the next break still shows the card
    assert snapshot["rack"] == rack
    assert "match_stats" not in snapshot
    while session.state.winner is None:
        [shot] = session.forfeit(BOTH)
    stats = shot["match_stats"]
    assert [row["name"] for row in stats] == ["Ann", "Bob"]
    record = session.record_state()
    assert record is not None
    expected = compute_stats([record])
    for row in stats:
        assert row["games_won"] == expected[row["name"]].games_won
        assert row["forfeits"] == expected[row["name"]].forfeits
    assert sum(row["games_won"] for row in stats) == sum(session.state.score)
    assert session.snapshot(frozenset())["match_stats"] == stats
    json.dumps(session.snapshot(frozenset()))


def test_the_rematch_is_a_new_match_with_the_same_settings(tmp_path: Path) -> None:
    registry = SessionRegistry(tmp_path / "web.sqlite3")
    config = MatchConfig(players=("Ann", "Bob"), race_to=4, first_breaker=Seat.SECOND)
    session, _ = registry.create(Mode.COMPUTER, config, level="club", human_seat=Seat.SECOND)
    body = session.snapshot(frozenset())["rematch"]
    assert body == {
        "mode": "computer", "players": ["Ann", "Bob"], "race_to": 4, "first_breaker": 1,
        "breaks": "alternate", "rules": "standard", "level": "club", "human_seat": 1,
    }  # fmt: skip
    parsed = parse_new_match(json.dumps(body))
    assert parsed.level == "club"
    assert parsed.human_seat == 1
    local, _ = registry.create(Mode.LOCAL, CONFIG)
    assert "level" not in local.rematch()
