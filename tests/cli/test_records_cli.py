"""resume, stats, export and replay; a kill -9 in the middle of a scored match loses nothing."""

from __future__ import annotations

import io
import json
import os
import select
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from nineball.cli import main

SCORE = ["score", "--players", "Ann,Bob", "--race-to", "2", "--breaks", "alternate",
         "--first-breaker", "1", "--rules", "standard", "--lang", "en"]  # fmt: skip


def _run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    *lines: str,
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(args)
    return code, capsys.readouterr().out


def test_score_then_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(monkeypatch, capsys, SCORE, "1 p2", "1 r0 safe", "q")
    assert code == 0
    assert "Match #1: every entry is saved to" in out
    code, out = _run(monkeypatch, capsys, ["resume"], "1 p9", "q")
    assert code == 0
    assert "Resuming match #1: Ann 0 - 0 Bob." in out
    assert "Bob to shoot, cue ball where it lies" in out
    assert "Bob legally pocketed the 9" in out
    code, out = _run(monkeypatch, capsys, ["resume", "1"], "undo", "q")
    assert "Resuming match #1: Ann 0 - 1 Bob." in out
    assert "Undone" in out


def test_nothing_to_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    code, out = _run(monkeypatch, capsys, ["resume"])
    assert code == 1
    assert "No unfinished match to resume." in out
    code, out = _run(monkeypatch, capsys, ["resume", "7"])
    assert code == 1
    assert "no match with id 7" in out


def test_no_save(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    code, out = _run(monkeypatch, capsys, [*SCORE, "--no-save"], "1 p9", "undo", "u", "q")
    assert code == 0
    assert "saved" not in out
    assert "Nothing to undo." in out
    code, out = _run(monkeypatch, capsys, ["resume"])
    assert code == 1


def test_stats_export_and_replay(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code, out = _run(monkeypatch, capsys, ["stats"])
    assert "no matches stored yet" in out
    code, out = _run(monkeypatch, capsys, ["export"])
    assert code == 1
    _run(monkeypatch, capsys, SCORE, "1 p23", "1 p19", "1 r2345", "push - r0", "pass", "2",
         "1 s", "1 p19", "q")  # fmt: skip
    code, out = _run(monkeypatch, capsys, ["stats"])
    assert code == 0
    assert "Ann" in out
    assert "B&R" in out
    csv_file = tmp_path / "stats.csv"
    code, out = _run(monkeypatch, capsys, ["stats", "--format", "csv", "-o", str(csv_file)])
    assert csv_file.read_text().startswith("name,matches_played")
    code, out = _run(monkeypatch, capsys, ["stats", "--format", "json", "--player", "Bob"])
    assert set(json.loads(out)) == {"Bob"}
    code, out = _run(monkeypatch, capsys, ["stats", "--format", "json", "--match", "1"])
    assert json.loads(out)["Ann"]["matches_won"] == 1
    code, out = _run(monkeypatch, capsys, ["stats", "--match", "7"])
    assert code == 1
    assert "no match with id 7" in out
    record = tmp_path / "match.json"
    code, out = _run(monkeypatch, capsys, ["export", "1", "-o", str(record)])
    assert code == 0
    assert json.loads(record.read_text())["winner"] == 0
    code, out = _run(monkeypatch, capsys, ["export"])
    assert json.loads(out)["players"] == ["Ann", "Bob"]
    code, out = _run(monkeypatch, capsys, ["export", "9"])
    assert code == 1
    code, out = _run(monkeypatch, capsys, ["replay", str(record), "--lang", "fr"])
    assert code == 0
    assert "Ann v Bob, race to 2, rules standard" in out
    assert "Bris légal" in out
    assert "FOUL" in out
    assert "Ann wins 2-0" in out


def test_replay_reports_problems(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "nineball-record", "version": 1, "players": ["A"], "race_to": "x"}')
    code, out = _run(monkeypatch, capsys, ["replay", str(bad)])
    assert code == 1
    assert "2 problem(s)" in out
    assert "$.players: expected two names" in out
    assert '$.race_to: expected an integer, got "x"' in out
    code, out = _run(monkeypatch, capsys, ["replay", str(tmp_path / "missing.json")])
    assert code == 1
    assert "cannot read" in out


@pytest.mark.parametrize(
    "players", ['["\\ud800", "Bob"]', '["A\\u2028nn", "Bob"]', '["A\\u0000", "Bob"]']
)
def test_replay_of_a_record_with_a_bad_name_is_a_problem(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    players: str,
) -> None:
    """Issue 16: a name that cannot be shown on one line (or at all) gives a problem."""
    bad = tmp_path / "bad.json"
    bad.write_text(f'{{"format": "nineball-record", "version": 1, "players": {players}}}')
    code, out = _run(monkeypatch, capsys, ["replay", str(bad)])
    assert code == 1
    assert "1 problem(s)" in out
    assert "$: a player name must be 1-40 characters" in " ".join(out.split())


def test_kill_9_during_a_scored_match_then_resume(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "COLUMNS": "200"}
    proc = subprocess.Popen(
        [sys.executable, "-m", "nineball.cli", *SCORE],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env=env,
    )
    assert proc.stdin is not None
    assert proc.stdout is not None
    fd = proc.stdout.fileno()
    seen = b""

    def wait_for(text: bytes) -> None:
        nonlocal seen
        deadline = time.monotonic() + 60
        while text not in seen:
            assert time.monotonic() < deadline, seen.decode()
            ready, _, _ = select.select([fd], [], [], 0.5)
            if ready:
                seen += os.read(fd, 65536)

    for entry, ruled in ((b"1 p2", b"Ann keeps shooting"), (b"3", b"Foul: wrong_ball_first")):
        proc.stdin.write(entry + b"\n")
        proc.stdin.flush()
        wait_for(ruled)
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)
    proc.stdin.close()
    proc.stdout.close()
    code, out = _run(monkeypatch, capsys, ["resume"], "q")
    assert code == 0
    assert "Resuming match #1: Ann 0 - 0 Bob." in out
    assert "Bob to shoot, cue ball in hand anywhere on the table" in out
    assert "fouls in a row: Ann 1, Bob 0" in out
