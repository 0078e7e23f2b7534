"""``nineball arena`` and ``nineball engine``: programs meet the built-in players."""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from nineball.cli import main
from nineball.game import load_record, replay
from nineball.players.registry import RATINGS
from nineball.players.runs import RunStore

ENGINES = Path(__file__).parents[1] / "players" / "engines"
REFERENCE = f"ref={sys.executable} {ENGINES / 'reference.py'}"


def _hostile(mode: str) -> str:
    return f"{mode}={sys.executable} {ENGINES / 'hostile.py'} {mode}"


QUICK = ["--move-time", "0.5", "--start-time", "5", "--workers", "1"]


def _run(capsys: pytest.CaptureFixture[str], args: list[str]) -> tuple[dict[str, Any], str]:
    assert main(["arena", *args, "--format", "json"]) == 0
    captured = capsys.readouterr()
    return json.loads(captured.out), captured.err


def test_the_reference_program_plays_a_whole_match_against_a_level(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    records = tmp_path / "records"
    records.mkdir()
    args = [REFERENCE, "beginner", "--matches", "1", "--race-to", "3", "--seed", "4"]
    args += ["--option", "ref:speed_scale=1.1", *QUICK, "--records", str(records)]
    figures, notes = _run(capsys, args)
    assert "wrote 1 records" in notes
    by_name = {row["name"]: row for row in figures["ratings"]}
    assert set(by_name) == {"ref", "beginner"}
    assert by_name["ref"]["kind"] == "program"
    assert by_name["ref"]["noise"] == "tournament"
    assert by_name["beginner"]["noise"] == "beginner"
    assert figures["faults"] == []
    # Anchored as the ladder is: beginner plays with its own hands, at its shipped rating.
    assert figures["anchor"] == {"name": "beginner", "rating": RATINGS["beginner"], "ladder": True}
    assert by_name["beginner"]["rating"] == RATINGS["beginner"]
    assert sum(row["matches_won"] for row in by_name.values()) == 1
    assert max(row["games_won"] for row in by_name.values()) == 3
    (path,) = records.iterdir()
    record = load_record(path.read_text(encoding="utf-8"))
    assert sorted(record.config.players) == ["beginner", "ref"]
    assert record.winner is not None
    wins = [game.result.winner for game in record.games if game.result is not None]
    assert wins.count(record.winner) == 3
    problems = [problem for *_, problem in replay(record)]
    assert problems
    assert all(problem is None for problem in problems)
    with RunStore() as store:
        (run,) = store.runs()
        (row,) = store.saved(run.id).values()
    seat = row["players"].index("ref")
    assert "speed_scale = 1.1" in row["seats"][seat]["logs"]


def test_the_arena_goes_on_past_programs_that_crash_hang_and_babble(
    capsys: pytest.CaptureFixture[str],
) -> None:
    entrants = ["ghost", REFERENCE, _hostile("crash"), _hostile("garbage"), _hostile("hang")]
    figures, _ = _run(capsys, [*entrants, "--matches", "1", *QUICK])
    assert len(figures["pairings"]) == 10
    assert figures["void"] == 0
    codes = {(f["name"], f["code"], f["penalty"]) for f in figures["faults"]}
    assert ("crash", "crashed", "match") in codes
    assert ("garbage", "bad_line", "lost_shot") in codes
    assert ("hang", "timeout", "lost_shot") in codes
    assert ("hang", "hung", "match") in codes
    assert not [f for f in figures["faults"] if f["name"] in ("ghost", "ref")]
    rated = {row["name"]: row for row in figures["ratings"]}
    assert all(rated[name]["rating"] is not None for name in rated)
    assert figures["anchor"]["name"] == "ghost"
    # The tables name each fault.
    assert main(["arena", *entrants, "--matches", "1", *QUICK]) == 0
    table = capsys.readouterr().out
    assert "faults" in table
    assert "hung" in table
    assert "crashed" in table


def _stop_after(monkeypatch: pytest.MonkeyPatch, matches: int) -> None:
    import nineball.cli.batch as batch

    play_run = batch.play_run

    def interrupted(*args: Any, on_result: Callable[[int, Any], None], **kwargs: Any) -> Any:
        seen = 0

        def count(index: int, result: Any) -> None:
            nonlocal seen
            on_result(index, result)
            seen += 1
            if seen == matches:
                raise KeyboardInterrupt

        return play_run(*args, on_result=count, **kwargs)

    monkeypatch.setattr(batch, "play_run", interrupted)


def test_a_stopped_arena_resumed_is_the_uninterrupted_one(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    stopped, whole = tmp_path / "stopped.sqlite3", tmp_path / "whole.sqlite3"
    args = [REFERENCE, "ghost", "--matches", "3", "--seed", "8", *QUICK]
    with monkeypatch.context() as patch:
        _stop_after(patch, 1)
        assert main(["arena", *args, "--db", str(stopped)]) == 130
    out = capsys.readouterr().out
    (run,) = RunStore(stopped).runs()
    assert (run.done, run.jobs) == (1, 3)
    assert f"nineball arena --resume {run.id}" in out
    resumed, notes = _run(capsys, ["--resume", run.id, "--db", str(stopped)])
    assert "1 of 3 already saved" in notes
    uninterrupted, _ = _run(capsys, [*args, "--db", str(whole)])
    strip = ("seconds", "thinking_s")
    for figures in (resumed, uninterrupted):
        figures.pop("seconds")
        for row in figures["ratings"]:
            row.pop("thinking_s")
    assert resumed == uninterrupted
    assert not set(strip) & set(resumed)


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["ghost"], "two or more"),
        (["ghost", "ghost"], "different names"),
        (["ghost", "shark"], "neither a built-in player"),
        (["ghost", "x="], "empty"),
        (["ghost", "club", "--noise", "loud"], "unknown noise"),
        (["ghost", "club", "--noise", "club"], "tournament, high, variable or none"),
        (["ghost", "club", "--noise-of", "pro=high"], "names no player"),
        (["ghost", "club", "--noise-of", "club=loud"], "unknown noise"),
        (["ghost", "club", "--option", "club"], "NAME:KEY=VALUE"),
        (["ghost", "club", "--option", "nobody:a=1"], "for a player"),
        (["ghost", "club", "--move-time", "0"], "move"),
        (["ghost", "club", "--game-time", "-1"], "--game-time"),
    ],
)
def test_bad_arguments_are_named(
    capsys: pytest.CaptureFixture[str], args: list[str], says: str
) -> None:
    assert main(["arena", *args]) == 2
    assert says in capsys.readouterr().err.replace("\n", " ")


def test_a_bad_run_to_resume(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["arena", "--resume", "arena-0000000000"]) == 1
    assert "no run 'arena-0000000000'" in capsys.readouterr().out


def test_nineball_engine_speaks_the_protocol() -> None:
    lines = [
        {"type": "hello", "protocols": [1], "nineball": "x"},
        {"type": "ready"},
        {"type": "quit"},
        {"type": "ready"},
    ]
    done = subprocess.run(
        [sys.executable, "-m", "nineball.cli", "engine", "--level", "ghost"],
        input="".join(json.dumps(m) + "\n" for m in lines),
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    assert [r["type"] for r in replies] == ["hello", "readyok"]
    assert replies[0]["protocol"] == 1
    assert replies[0]["name"] == "ghost"


def test_nineball_engine_refuses_an_unknown_level(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["engine", "--level", "shark"]) == 2
    assert "unknown level 'shark'" in capsys.readouterr().err


def _results(figures: dict[str, Any]) -> dict[str, Any]:
    """The figures without the times (which differ from run to run)."""
    figures = dict(figures)
    for key in ("run", "seconds"):
        figures.pop(key)
    figures["ratings"] = [
        {k: v for k, v in row.items() if k != "thinking_s"} for row in figures["ratings"]
    ]
    return figures


def test_the_arena_gives_the_same_results_on_ray_and_on_the_process_pool(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RAY_AUTH_MODE", "disabled")
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    args = [REFERENCE, "ghost", "--matches", "2", "--seed", "3", "--move-time", "5"]
    pooled, _ = _run(capsys, [*args, "--workers", "2", "--db", str(tmp_path / "p.db")])
    on_ray, _ = _run(
        capsys, [*args, "--workers", "2", "--backend", "ray", "--db", str(tmp_path / "r.db")]
    )
    assert _results(on_ray) == _results(pooled)
    assert sum(row["games"] for row in pooled["ratings"]) == 4
