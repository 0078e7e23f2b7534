"""``nineball review``: every entry's chances before and after, marks, the table and the JSON."""

from __future__ import annotations

import itertools
import json
from pathlib import Path
from typing import Any

import pytest

from nineball.cli import main
from nineball.game import dump_record, load_record
from nineball.game.match import Match
from nineball.players.play import play_match
from nineball.players.registry import make_player
from nineball.players.review import BLUNDER, MISTAKE, Mark, review
from nineball.rules import MatchConfig, Seat

STROKES = Path(__file__).with_name("data") / "strokes.json"


@pytest.fixture(scope="module")
def recorded(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A seeded ghost match, race to 2, as a record file."""
    config = MatchConfig(players=("Ann", "Bob"), race_to=2, first_breaker=Seat.SECOND)
    match = Match(config, seed=4, agents=("ghost", "ghost"))
    play_match(match, [make_player("ghost"), make_player("ghost")])
    path = tmp_path_factory.mktemp("review") / "match.json"
    path.write_text(dump_record(match.record), encoding="utf-8")
    return path


def _json(capsys: pytest.CaptureFixture[str], *args: str) -> Any:
    assert main(["review", *args, "--json"]) == 0
    return json.loads(capsys.readouterr().out)


def test_every_entry_is_valued_and_the_chances_hold_together(recorded: Path) -> None:
    record = load_record(recorded.read_text(encoding="utf-8"))
    result = review(record)
    shots = result.shots
    assert len(shots) == sum(len(g.shots) for g in record.games)
    assert [s.game for s in shots] == [g.number for g in record.games for _ in g.shots]
    for s in shots:
        assert 0.0 <= s.before <= 1.0
        assert 0.0 <= s.after <= 1.0
        assert s.change == pytest.approx(s.after - s.before)
        expected = (
            Mark.NONE  # a break's result is mostly luck: never marked
            if s.kind == "break"
            else Mark.BLUNDER
            if s.change < -BLUNDER
            else Mark.MISTAKE
            if s.change < -MISTAKE
            else Mark.NONE
        )
        assert s.mark is expected
    # game 2's break lost more than a mistake's 10 points, and is not marked for it
    assert any(s.kind == "break" and s.change < -MISTAKE and not s.mark.value for s in shots)
    # One entry's "after" is the next entry's "before", seen from the other side if it changed.
    for a, b in itertools.pairwise(shots):
        if a.game == b.game:
            same = a.player == b.player
            assert a.after == pytest.approx(b.before if same else 1.0 - b.before)
    # Each game's last entry: the winner's chance is 1 after it, the loser's 0.
    for game in record.games:
        last = next(s for s in reversed(shots) if s.game == game.number)
        assert game.result is not None
        assert last.after == (1.0 if last.player == game.result.winner else 0.0)
    assert shots[-1].match_after in (0.0, 1.0)
    assert shots[0].kind == "break"


def test_the_table_and_the_json(recorded: Path, capsys: pytest.CaptureFixture[str]) -> None:
    data = _json(capsys, str(recorded))
    record = load_record(recorded.read_text(encoding="utf-8"))
    assert data == review(record).to_json()
    assert main(["review", str(recorded)]) == 0
    out = capsys.readouterr().out
    assert "the chance to win the game" in out
    assert "Ann: " in out
    assert "mistake(s)" in out
    # The recorded four strokes of tests/cli/data: an unfinished game, valued all the same.
    short = _json(capsys, str(STROKES))
    assert [s["shot"] for s in short["shots"]] == [1, 2, 3, 4]


def test_what_cannot_be_reviewed_is_said(
    recorded: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    data = json.loads(recorded.read_text(encoding="utf-8"))
    del data["games"][0]["rack"]
    scored = tmp_path / "scored.json"
    scored.write_text(json.dumps(data), encoding="utf-8")
    assert main(["review", str(scored)]) == 1
    assert "no rack" in capsys.readouterr().out
    assert main(["review", str(recorded), "--model", str(tmp_path / "none.json")]) == 1
    assert "cannot read the value model" in capsys.readouterr().out
    assert main(["review", str(tmp_path / "missing.json")]) == 1


def test_each_stroke_set_against_a_levels_best_shot(
    recorded: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = load_record(recorded.read_text(encoding="utf-8"))
    seen: list[tuple[int, int]] = []
    result = review(record, level="club", progress=lambda done, total: seen.append((done, total)))
    n = len(result.shots)
    assert seen == [(k + 1, n) for k in range(n)]
    with_alt = [s for s in result.shots if s.alternative is not None]
    # every stroke but the breaks and push outs gets one; push-out answers and breaks none
    assert {s.kind for s in with_alt} <= {"shot", "safety"}
    assert all(s.kind in ("break", "push_out", "shoot", "pass", "forfeit") or s.alternative
               for s in result.shots)  # fmt: skip
    for s in with_alt:
        alt = s.alternative
        assert alt is not None
        assert alt.level == "club"
        assert alt.target
        assert 0.0 <= alt.best <= 1.0
        assert 0.0 <= alt.played <= 1.0
        assert alt.cost == pytest.approx(alt.best - alt.played)
    # the same seed, the same review
    again = review(record, level="club")
    assert [s.alternative for s in again.shots] == [s.alternative for s in result.shots]
    # the command: JSON with the alternatives, the table with their columns
    shots = _json(capsys, str(recorded), "--level", "club")["shots"]
    assert [s["alternative"] is not None for s in shots] == [
        s.alternative is not None for s in result.shots
    ]
    assert main(["review", str(recorded), "--level", "club"]) == 0
    out = capsys.readouterr().out
    assert "best at club" in out
    assert "against club's best shot" in out
    assert main(["review", str(recorded), "--level", "snooker"]) == 1
    assert "unknown level 'snooker'" in capsys.readouterr().out
