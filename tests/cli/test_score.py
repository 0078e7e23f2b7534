"""``nineball score``, driven with scripted input as a scorer at a table would type it."""

from __future__ import annotations

import io
import re
from pathlib import Path

import pytest
from rich.console import Console

from nineball.cli import main
from nineball.cli.score import ScoreSetup, run_scorekeeper
from nineball.rules import BreakRule, Language, find_variant


def _play(monkeypatch: pytest.MonkeyPatch, lines: list[str], setup: ScoreSetup) -> str:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    out = io.StringIO()
    console = Console(file=out, width=200, color_system=None, highlight=False)
    assert run_scorekeeper(setup, console) == 0
    return out.getvalue()


FULL = ScoreSetup(
    players=("Ann", "Bob"),
    race_to=2,
    breaks=BreakRule.ALTERNATE,
    first_breaker=1,
    rules=find_variant("standard"),
    refereed=True,
    lang=Language.EN,
)


def test_asks_every_setting_then_plays(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(
        monkeypatch,
        ["en", "Ann", "Bob", "1", "alternate", "2", "standard", "1 p9", "quit"],
        ScoreSetup(),
    )
    assert "Name of player 1" in out
    assert "Race to how many games" in out
    assert "Bob to break, cue ball in hand behind the head string" in out
    assert "Bob pocketed the 9 on the break" in out
    assert "Bob wins the match 0-1" in out
    assert out.rstrip().endswith("Bye.")


def test_defaults_and_bad_answers_are_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(
        monkeypatch,
        ["", "", "", "zero", "0", "", "sometimes", "", "3", "", "wpa", "pl", "maybe", "n", "q"],
        ScoreSetup(),
    )
    assert out.count("Please answer one of: 1..99") == 2
    assert "Please answer one of: alternate, winner" in out
    assert "Please answer one of: 1..2" in out
    assert "Please answer one of: standard, fr, pl" in out
    assert "Please answer one of: y, n" in out
    assert "Player 1 to break" in out


def test_same_names_are_asked_again(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(
        monkeypatch,
        ["Ann", "Ann", "Ann", "Bob", "q"],
        ScoreSetup(
            race_to=3,
            breaks=BreakRule.WINNER,
            first_breaker=1,
            rules=find_variant("fr"),
            lang=Language.EN,
        ),
    )
    assert "Not recorded: the two players need different names" in out
    assert "Ann to break" in out


def test_a_game_with_fouls_push_out_undo_and_forfeit(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(
        monkeypatch,
        [
            "help",
            "1 r2345",  # Ann: legal break, nothing down: Bob may push out
            "push - r0",  # Bob pushes out
            "1 r0",  # refused: Ann must choose
            "pass",  # Ann passes: Bob shoots
            "3",  # Bob: wrong ball first
            "zz",  # refused: not notation
            "1 p4 r2",  # Ann: legal, pockets the 4
            "2",  # refused: the 2 is... on the table, but the 1 is lowest: foul
            "undo",  # take it back
            "1",  # Ann: no rail
            "1",  # Bob: no rail (his 2nd)
            "1 r0",  # Ann legal miss
            "undo",
            "undo",
            "undo",
            "undo",
            "undo",
            "undo",
            "undo",
            "undo",
            "undo",
            "undo",
            "forfeit 2",  # Bob forfeits game 1
            "quit",
        ],
        FULL,
    )
    assert "Type what happened on the shot" in out
    assert "a push out is allowed: start the entry with push" in out
    assert "Legal push out (clause 5)" in out
    assert "Ann must choose: shoot from here (shoot) or hand the shot back (pass)" in out
    assert "Not recorded: 'Ann' must first choose to shoot or pass" in out
    assert "Ann hands the shot back" in out
    assert "Foul: wrong_ball_first (7)" in out
    assert "Not recorded: 'zz' is not understood" in out
    assert "Undone: back to before the last entry." in out
    assert "fouls in a row: Ann 1, Bob 1" in out
    assert "Nothing to undo." in out
    assert "Bob forfeits the game" in out
    assert "Ann 1 - 0 Bob" in out


def test_warning_after_a_second_foul(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(monkeypatch, ["2", "1 r0", "3", "q"], FULL)
    assert "Foul: wrong_ball_first (7) · Warning" in out
    assert "Ann is on two fouls in a row: a third loses the game (clause 12)" in out


def test_match_over_then_undo(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(
        monkeypatch,
        ["1 p9", "1 r2345", "1 p9", "1 r0", "undo", "quit"],
        FULL,
    )
    assert "Ann wins the match 2-0. Type undo to correct the last entry, or quit." in out
    assert "Not recorded: the match is over" in out
    assert "Undone" in out
    assert re.search(r"Game 2 · Ann 1 - 0 Bob", out)


@pytest.mark.parametrize(
    ("lang", "expected"),
    [
        (
            Language.FR,
            [
                "Ann fait le bris, blanche en main dans la zone de départ",
                "Bris légal",
                "Non enregistré",
                "Au revoir.",
            ],
        ),
        (
            Language.PL,
            [
                "Ann rozbija, biała bila w ręce w polu bazy",
                "Prawidłowe rozbicie",
                "Nie zapisano",
                "Do widzenia.",
            ],
        ),
    ],
)
def test_french_and_polish_screens(
    monkeypatch: pytest.MonkeyPatch, lang: Language, expected: list[str]
) -> None:
    setup = ScoreSetup(
        players=("Ann", "Bob"),
        race_to=3,
        breaks=BreakRule.ALTERNATE,
        first_breaker=1,
        rules=find_variant("standard"),
        refereed=True,
        lang=lang,
    )
    out = _play(monkeypatch, ["1 p3", "??", "koniec"], setup)
    for text in expected:
        assert text in out


def test_end_of_input_quits_cleanly(monkeypatch: pytest.MonkeyPatch) -> None:
    out = _play(monkeypatch, ["1 p3"], FULL)
    assert out.rstrip().endswith("Bye.")


def test_command_line_options(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1 p9\nq\n"))
    code = main(
        [
            "score",
            "--players",
            "Cy,Di",
            "--race-to",
            "1",
            "--breaks",
            "winner",
            "--first-breaker",
            "2",
            "--rules",
            "pl",
            "--no-referee",
            "--lang",
            "en",
        ]
    )
    out = capsys.readouterr().out
    assert code == 0
    assert "Di pocketed the 9 on the break" in out
    assert "rules pl" in out


def test_play_starts_the_web_game_in_its_own_process(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    calls: list[list[str]] = []
    db = str(tmp_path / "x.db")

    def execv(path: str, command: list[str]) -> None:
        calls.append(command)

    monkeypatch.setattr("os.execv", execv)
    assert main(["play", "--no-browser", "--port", "8123", "--db", db]) == 0
    assert calls[-1][1:] == [
        "-m", "nineball.web", "--port", "8123", "--no-browser", "--db", db
    ]  # fmt: skip
    assert main(["play", "--host", "0.0.0.0"]) == 0
    assert calls[-1][1:] == ["-m", "nineball.web", "--port", "0", "--host", "0.0.0.0"]


def test_play_passes_the_documented_server_options_on(monkeypatch: pytest.MonkeyPatch) -> None:
    # Regression: `nineball play --idle-minutes 30` (README) was refused by the CLI.
    calls: list[list[str]] = []
    monkeypatch.setattr("os.execv", lambda path, command: calls.append(command))
    assert main(["play", "--no-browser", "--idle-minutes", "30", "--max-sessions", "7",
                 "--allow-host", "pool.lan"]) == 0  # fmt: skip
    served: dict[str, object] = {}
    monkeypatch.setattr("nineball.web.__main__.serve", lambda *a, **k: served.update(k))
    from nineball.web.__main__ import main as web_main

    assert web_main(calls[-1][3:]) == 0  # the server's own parser takes every option
    assert served["idle_seconds"] == 30 * 60
    assert served["max_sessions"] == 7
    assert served["allowed_hosts"] == ["pool.lan"]


def test_play_without_the_web_extra_says_how_to_get_it(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("importlib.util.find_spec", lambda name: None)
    assert main(["play"]) == 2
    assert "nineball[web]" in capsys.readouterr().err


def test_bad_players_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["score", "--players", "Cy"]) == 2
    assert "give two names separated by a comma" in capsys.readouterr().err


def test_no_command_shows_help(capsys: pytest.CaptureFixture[str]) -> None:
    code = main([])
    out = capsys.readouterr()
    assert code in (0, 2)
    assert "referee" in out.out + out.err
    assert "score" in out.out + out.err
