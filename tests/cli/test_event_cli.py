"""``nineball event`` and ``nineball score --event``: an organiser's event run in a terminal."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from rich.console import Console

from nineball.cli import main
from nineball.cli.event_score import run_event_scorer
from nineball.game import Language, Store
from nineball.tournament import EventService


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    code = main([*args])
    out = capsys.readouterr()
    assert code == 0, out.err
    return out.out


def test_an_event_from_the_command_line(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    db = str(tmp_path / "e.db")
    out = _run(
        capsys,
        "event",
        "new",
        "Club Night",
        "--date",
        "2026-12-10",
        "--tables",
        "2",
        "--race-to",
        "2",
        "--shot-clock",
        "35",
        "--db",
        db,
    )
    assert "Event #1: Club Night" in out
    assert "Organiser's token:" in out
    out = _run(
        capsys, "event", "add-player", "1", "Ann=520", "Bob=480.5", "Cy", "Łucja=500", "--db", db
    )
    assert "#4 Łucja (500)" in out
    out = _run(capsys, "event", "start", "1", "--db", db)
    assert "Ann v Cy" in out
    assert "Łucja v Bob" in out
    links = _run(capsys, "event", "links", "1", "--base", "http://192.0.2.5:8000/", "--db", db)
    assert "http://192.0.2.5:8000/event/table#e=1&t=2&k=" in links
    # Table 1 scored in the terminal: shot by shot, Ann makes the 9 on her break, then after Cy's.
    lines = ["shots", "1", "1 p9", "1 r2345", "1 p9", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    text = io.StringIO()
    console = Console(file=text, width=200, color_system=None, highlight=False)
    assert run_event_scorer(1, 1, Language.EN, console, db=Path(db)) == 0
    said = text.getvalue()
    assert "W1-1 at table 1: Ann 0 - 0 Cy" in said
    assert "Ann pocketed the 9 on the break" in said
    assert "Ann wins W1-1 2-0." in said
    # Table 2, rack by rack (the second rack is taken back, then entered again).
    lines = ["quick", "2", "1", "undo", "2", "2", "quit"]
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    assert run_event_scorer(1, 2, Language.FR, console, db=Path(db)) == 0
    with Store(db) as store:
        view = EventService(store).view(1)
    assert view.match("W1-1").score == (2, 0)
    assert view.match("W1-2").score == (0, 2)
    board = _run(capsys, "event", "board", "1", "--db", db)
    assert "W1-1: Ann 2-0 Cy" in board
    rows = list(csv.DictReader(io.StringIO(_run(capsys, "event", "export", "1", "--db", db))))
    assert [(r["match"], r["winner"], r["mode"]) for r in rows] == [
        ("W1-1", "Ann", "shots"),
        ("W1-2", "Bob", "quick"),
    ]
    report = json.loads(_run(capsys, "event", "export", "1", "--report", "--db", db))
    assert {p["name"]: p["racks_won"] for p in report["players"]}["Ann"] == 2
    out = _run(capsys, "event", "scoresheet", "1", "-o", str(tmp_path / "sheets"), "--db", db)
    assert out.count("wrote") == 2
    assert (tmp_path / "sheets" / "event-1-W1-1.pdf").read_bytes().startswith(b"%PDF")
    assert "#1 Club Night (2026-12-10, started)" in _run(capsys, "event", "list", "--db", db)


def test_bad_input_is_a_message_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = str(tmp_path / "e.db")
    assert main(["event", "new", "X", "--date", "tomorrow", "--db", db]) == 1
    assert "ISO 8601" in capsys.readouterr().err
    _run(capsys, "event", "new", "X", "--date", "2026-12-10", "--db", db)
    assert main(["event", "add-player", "1", "Ann=fast", "--db", db]) == 1
    assert "not a number" in capsys.readouterr().err
    assert main(["event", "start", "1", "--db", db]) == 1
    assert "needs 2 players" in capsys.readouterr().err
    assert main(["event", "board", "7", "--db", db]) == 1
    assert "no event with id 7" in capsys.readouterr().err
    assert main(["score", "--event", "1", "--db", db]) != 0
