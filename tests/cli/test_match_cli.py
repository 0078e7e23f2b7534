"""``nineball match``: two computer players, a live scoreboard, a stored and exported match."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from nineball.cli import main
from nineball.game import load_record
from nineball.game.match import replay


def test_a_seeded_match_is_played_stored_and_reproducible(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    first, second = tmp_path / "a.json", tmp_path / "b.json"
    args = ["match", "--players", "ghost,ghost", "--names", "Ann,Bob", "--race-to", "2",
            "--seed", "3"]  # fmt: skip
    assert main([*args, "--record", str(first)]) == 0
    out = capsys.readouterr().out
    assert "wins" in out
    assert "saved as match #1" in out
    assert main([*args, "--no-save", "--record", str(second)]) == 0
    out = capsys.readouterr().out
    assert "saved as" not in out
    a, b = json.loads(first.read_text()), json.loads(second.read_text())
    a.pop("date"), b.pop("date")
    assert a == b
    record = load_record(first.read_text())
    assert record.config.players == ("Ann", "Bob")
    assert max(g.result.winner for g in record.games if g.result) in (0, 1)
    assert [p for *_, p in replay(record) if p is not None] == []
    assert main(["stats", "--format", "json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert stats["Ann"]["games_played"] == len(record.games)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--players", "ghost"], "give two players"),
        (["--players", "ghost,shark"], "unknown player 'shark'"),
        (["--names", "Ann"], "give two names"),
        (["--names", "A\u2028nn,Bob"], "'A\\u2028nn' holds U+2028, a line separator"),
        (["--names", ",Bob"], "got the empty name ''"),
    ],
)
def test_bad_options(args: list[str], message: str, capsys: pytest.CaptureFixture[str]) -> None:
    code = main(["match", "--no-save", *args])
    captured = capsys.readouterr()
    assert code == 2
    assert message in " ".join((captured.out + captured.err).split())


def test_render_a_recorded_stroke(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    assert (
        main(["match", "--no-save", "--race-to", "1", "--seed", "2", "--record", str(record)]) == 0
    )
    svg, png = tmp_path / "s.svg", tmp_path / "s.png"
    assert main(["render", str(record), "-o", str(svg), "--game", "1", "--shot", "1"]) == 0
    assert svg.read_text().startswith("<svg")
    assert main(["render", str(record), "-o", str(png), "--no-paths"]) == 0
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    capsys.readouterr()
    assert main(["render", str(record), "-o", str(svg), "--game", "9"]) == 1
    assert "game 9 has no stroke" in capsys.readouterr().out
    assert main(["render", str(record), "-o", str(svg), "--game", "1", "--shot", "99"]) == 1
    assert "no stroke number 99" in capsys.readouterr().out
    bad = tmp_path / "bad.json"
    bad.write_text("{}")
    assert main(["render", str(bad), "-o", str(svg)]) == 1
    assert main(["render", str(tmp_path / "none.json"), "-o", str(svg)]) == 1


def test_kill_9_during_a_computer_match_then_resume_finishes_it_identically(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    import os
    import signal
    import sqlite3
    import subprocess
    import sys
    import time

    from nineball.game import dump_record
    from nineball.game.store import Store

    args = ["match", "--players", "ghost,ghost", "--race-to", "9", "--seed", "21"]
    whole = tmp_path / "whole.json"
    assert main([*args, "--no-save", "--record", str(whole)]) == 0
    capsys.readouterr()

    db = Path(os.environ["NINEBALL_DB"])
    proc = subprocess.Popen(
        [sys.executable, "-m", "nineball.cli", *args],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    shots = 0
    deadline = time.monotonic() + 120
    while shots < 12 and time.monotonic() < deadline and proc.poll() is None:
        time.sleep(0.005)
        if db.exists():
            try:
                con = sqlite3.connect(db, timeout=5)
                shots = con.execute("SELECT COUNT(*) FROM shots").fetchone()[0]
                con.close()
            except sqlite3.OperationalError:
                continue
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    with Store(db) as store:
        [summary] = store.matches()
        assert not summary.finished, "the match ended before it could be killed"
        cut = sum(len(g.shots) for g in store.load(summary.id).games)
    assert cut >= 12
    assert main(["resume"]) == 0
    out = capsys.readouterr().out
    assert "Resuming match #1" in out
    with Store(db) as store:
        resumed = store.load(1)
    expected = load_record(whole.read_text())
    assert resumed.winner == expected.winner
    assert resumed.games == expected.games  # every ball position, bit for bit
    assert dump_record(resumed).count('"kind"') == dump_record(expected).count('"kind"')


def test_first_breaker_and_replay_check(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    args = ["match", "--no-save", "--race-to", "1", "--seed", "5", "--first-breaker", "2"]
    assert main([*args, "--record", str(record)]) == 0
    assert "won the lag" not in capsys.readouterr().out
    assert load_record(record.read_text()).games[0].breaker == 1
    assert main(["replay", str(record)]) == 0
    assert "every ball position identical" in capsys.readouterr().out
    data = json.loads(record.read_text())
    shot = data["games"][0]["shots"][0]
    shot["positions"]["0"][0] += 1e-9
    record.write_text(json.dumps(data))
    assert main(["replay", str(record)]) == 1
    assert "1 of" in capsys.readouterr().out
    assert main([*args[:-2], "--first-breaker", "3"]) == 2
    assert main(["match", "--no-save", "--race-to", "1", "--seed", "5"]) == 0
    assert "won the lag" in capsys.readouterr().out


def test_analyse_a_recorded_position(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    assert (
        main(["match", "--no-save", "--race-to", "1", "--seed", "2", "--record", str(record)]) == 0
    )
    capsys.readouterr()
    diagram = tmp_path / "a.svg"
    args = ["analyse", str(record), "--game", "1", "--shot", "2", "--level", "club", "--top", "3"]
    assert main([*args, "--diagram", str(diagram)]) == 0
    out = capsys.readouterr().out
    assert "to play (lowest ball" in out
    assert "success" in out
    assert diagram.read_text().startswith("<svg")
    assert main(["analyse", str(record), "--shot", "999"]) == 1
    assert "no entry 999" in capsys.readouterr().out
    assert main(["analyse", str(record), "--level", "god"]) == 2


def test_ladder_and_realism_commands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "200")
    output, plot = tmp_path / "ladder.json", tmp_path / "ladder.png"
    args = ["ladder", "--players", "ghost,beginner", "--games", "4", "--workers", "1",
            "--seed", "1", "--output", str(output), "--plot", str(plot)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert re.search(r"beginner\s+.\s+ghost\s+.\s+\d of 4", out)
    data = json.loads(output.read_text())
    assert (data["gaps"][0]["stronger"], data["gaps"][0]["games"]) == ("beginner", 4)
    assert {r["name"] for r in data["ratings"]} == {"ghost", "beginner"}
    assert len(data["games"]) == 4
    assert plot.read_bytes()[:4] == b"\x89PNG"
    assert main(["ladder", "--players", "beginner,club"]) == 2
    # A finished ladder is rated and drawn again from its file, without playing a game.
    again, replot = tmp_path / "again.json", tmp_path / "again.png"
    assert (
        main(["ladder", "--results", str(output), "--output", str(again), "--plot", str(replot)])
        == 0
    )
    assert re.search(r"beginner\s+.\s+ghost\s+.\s+\d of 4", capsys.readouterr().out)
    assert json.loads(again.read_text()) == data
    assert replot.read_bytes()[:4] == b"\x89PNG"
    (tmp_path / "bad.json").write_text("{}")
    assert main(["ladder", "--results", str(tmp_path / "bad.json")]) == 1
    assert "is not a ladder" in capsys.readouterr().out
    figures = tmp_path / "realism.json"
    args = ["realism", "--level", "beginner", "--games", "2", "--workers", "1",
            "--output", str(figures)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    written = json.loads(figures.read_text())
    assert len(written["games"]) == 2
    assert written["figures"]["break and run"]["games"] == 2
    assert "legal break pocketing a ball" in out
    assert "17% - 30%" in out
    assert main(["realism", "--level", "god"]) == 2


def test_wilson_interval() -> None:
    from nineball.cli.ladder import wilson

    low, high = wilson(50, 100)
    assert low == pytest.approx(0.404, abs=1e-3)
    assert high == pytest.approx(0.596, abs=1e-3)
    assert wilson(0, 0) == (0.0, 1.0)


def test_tournament_and_breaks_commands(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from nineball.players.runs import RunStore

    monkeypatch.setenv("COLUMNS", "200")
    plot = tmp_path / "t.png"
    args = ["tournament", "--players", "ghost,beginner,amateur", "--games", "2", "--workers",
            "2", "--seed", "3", "--plot", str(plot)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "round robin, 2 games per pairing" in out
    assert plot.read_bytes()[:4] == b"\x89PNG"
    breaks_plot = tmp_path / "b.png"
    args = ["breaks", "--level", "beginner", "--breaks", "6", "--workers", "1", "--plot",
            str(breaks_plot)]  # fmt: skip
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "legal and a ball pocketed" in out
    assert breaks_plot.read_bytes()[:4] == b"\x89PNG"
    with RunStore() as store:
        runs = {run.command: run for run in store.runs()}
        assert runs["tournament"].params == {"players": ["ghost", "beginner", "amateur"],
                                             "games": 2, "seed": 3}  # fmt: skip
        assert (runs["tournament"].done, runs["tournament"].finished) == (6, True)
        assert (runs["breaks"].done, len(store.saved(runs["breaks"].id))) == (6, 6)
    assert main(["tournament", "--players", "ghost"]) == 2
    assert main(["tournament", "--backend", "dask"]) == 2
    assert main(["breaks", "--level", "god"]) == 2
    assert main(["breaks", "--backend", "dask"]) == 2
