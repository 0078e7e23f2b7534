"""Hostile input at the command line: records the physics refuses, bad paths, damaged databases.

Every case ends in a message and a non-zero status (or a correct answer), never a traceback,
and a database that is refused keeps its bytes.
"""

from __future__ import annotations

import contextlib
import copy
import io
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from rich.console import Console

from nineball.cli import main
from nineball.cli.records import replay_record
from nineball.game import Language
from nineball.game.match import replay
from nineball.game.record import InvalidRecordError
from nineball.game.record_read import read_record
from nineball.game.saved import SavedMatch
from nineball.game.store import Store
from tests.cli.test_records_cli import SCORE
from tests.game.test_store_hardening import _miss, _real_db, damage_db

STROKES = Path(__file__).with_name("data") / "strokes.json"
"""A physics record: a break and three strokes (seed 1), every ball position recorded."""


def _run(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    *lines: str,
) -> tuple[int, str]:
    monkeypatch.setattr("sys.stdin", io.StringIO("".join(f"{line}\n" for line in lines)))
    code = main(args)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def _edited(tmp_path: Path, field: str, value: object) -> Path:
    doc = json.loads(STROKES.read_text())
    shot = doc["games"][0]["shots"][0]
    if field == "cue_ball_on_the_one":
        shot["cue_ball"] = doc["games"][0]["rack"]["1"]
    elif field == "cue_ball":
        shot["cue_ball"] = value
    else:
        shot["stroke"][field] = value
    path = tmp_path / f"{field}.json"
    path.write_text(json.dumps(doc))
    return path


@pytest.mark.parametrize(
    ("field", "value", "words"),
    [
        ("speed", -3.0, "stroke 'speed' must be in [0, 20.0] m/s, got -3.0"),
        ("cue_ball", [5.0, 5.0], "ball 0 at (5.0, 5.0) is outside the playing surface"),
        ("cue_ball_on_the_one", None, "balls 0 and 1 overlap"),
        ("elevation_deg", 1e308, "stroke elevation must be in [0, 80] deg, got 1e+308"),
    ],
)
def test_replay_reports_what_the_physics_refuses_as_record_problems(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    field: str,
    value: object,
    words: str,
) -> None:
    path = _edited(tmp_path, field, value)
    code, out = _run(monkeypatch, capsys, ["replay", str(path)])
    assert code == 1
    assert "1 problem(s)" in out
    assert f"$.games[0].shots[0]: {words}" in out
    assert "Traceback" not in out


def test_bad_output_and_database_paths_are_refused(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    _run(monkeypatch, capsys, SCORE, "1 p9", "q")
    for args, words in [
        (["export", "-o", str(tmp_path)], "cannot write"),
        (["export", "-o", str(tmp_path / "no" / "x.json")], "No such file or directory"),
        (["stats", "--format", "csv", "-o", str(tmp_path)], "Is a directory"),
        (["stats", "-o", str(tmp_path / "no" / "x.txt")], "cannot write"),
        (["stats", "--db", str(tmp_path)], "is a directory"),
        (["export", "--db", str(tmp_path)], "is a directory"),
        (["resume", "--db", str(tmp_path)], "is a directory"),
        ([*SCORE, "--db", str(tmp_path)], "is a directory"),
        (["render", str(STROKES), "-o", str(tmp_path)], "cannot draw"),
        (["render", str(STROKES), "-o", str(tmp_path / "x.gif")], "'.gif' is not one of"),
    ]:
        code, out = _run(monkeypatch, capsys, args, "q")
        assert code != 0, args
        assert words in out, (args, out)
    assert not (tmp_path / "x.gif").exists()


def test_stats_output_in_table_format_and_tables_not_cut_when_piped(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    players = ["--players", "Annabelle Longname-Smythe,Bob", *SCORE[3:]]
    _run(monkeypatch, capsys, ["score", *players], "1 p9", "q")
    code, out = _run(monkeypatch, capsys, ["stats"])  # captured: not a terminal
    assert code == 0
    header = next(line for line in out.splitlines() if "player" in line)
    assert len(header) > 80
    assert "push outs" in header  # the last column, whole
    assert "Annabelle Longname-Smythe" in out
    table = tmp_path / "stats.txt"
    code, out = _run(monkeypatch, capsys, ["stats", "-o", str(table)])
    assert code == 0
    assert f"wrote {table}" in out
    assert "Annabelle Longname-Smythe" not in out
    text = table.read_text()
    assert "push outs" in text
    assert "Annabelle Longname-Smythe" in text


def test_resume_refused_when_another_writer_plays_meanwhile(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    db = tmp_path / "shared.db"
    _run(monkeypatch, capsys, [*SCORE, "--db", str(db)], "1 r0", "q")
    other = Store(db)

    class Meanwhile(io.StringIO):
        """The scorekeeper's input; before its first line another writer plays an entry."""

        def readline(self, *args: Any) -> str:
            if not getattr(self, "done", False):
                self.done = True
                web = SavedMatch.resume(other, 1)
                web.play(_miss(web))
            return super().readline(*args)

    monkeypatch.setattr("sys.stdin", Meanwhile("1 r0\n1 r0\nq\n"))
    code = main(["resume", "--db", str(db)])
    out = capsys.readouterr().out
    assert code == 1
    assert "another writer" in out
    record = other.load(1)
    assert sum(len(g.shots) for g in record.games) == 2  # the CLI's first, the other's one
    other.close()


@st.composite
def _mutation(draw: st.DrawFn) -> tuple[int, int, object]:
    value = draw(
        st.one_of(
            st.floats(allow_nan=True, allow_infinity=True),
            st.floats(-30, 30),
            st.integers(-(10**6), 10**6),
            st.sampled_from([None, True, "x", [], {}, [0.5, 0.5], [0.635, 1.905], [1e308, 0]]),
        )
    )
    return draw(st.integers(0, 10**6)), draw(st.integers(0, 10**6)), value


def _leaves(doc: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(doc, dict):
        return [p for k, v in doc.items() for p in _leaves(v, (*path, k))] or [path]
    if isinstance(doc, list) and doc and not all(isinstance(x, float) for x in doc):
        return [p for i, v in enumerate(doc) for p in _leaves(v, (*path, i))]
    return [path]


def mutate_record(doc: dict[str, Any], pick: int, _unused: int, value: object) -> dict[str, Any]:
    """A copy of a record with one field of its entries set to ``value`` (shared with the soak)."""
    leaves = [p for p in _leaves(doc) if p[:1] == ("games",)]
    path = leaves[pick % len(leaves)]
    doc = copy.deepcopy(doc)
    parent: Any = doc
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return doc


@settings(
    max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(mutation=_mutation())
def test_fuzz_replay_of_mutated_records(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    mutation: tuple[int, int, object],
) -> None:
    """A problem list or success, never a traceback: the function and the command."""
    doc = mutate_record(json.loads(STROKES.read_text()), *mutation)
    text = json.dumps(doc)
    record, problems = read_record(text)
    if record is not None and not problems:
        with contextlib.suppress(InvalidRecordError):  # and nothing else
            list(replay(record))
    path = tmp_path / "fuzzed.json"
    path.write_text(text)
    console = Console(file=io.StringIO(), width=200)
    assert replay_record(console, path, Language.EN) in (0, 1)
    code, out = _run(monkeypatch, capsys, ["replay", str(path)])
    assert code in (0, 1)
    assert code == 0 or "problem(s)" in out or "replay differently" in out


@settings(
    max_examples=15, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)
@given(
    kind=st.sampled_from(["truncate", "bytes", "random", "row"]),
    seed=st.integers(0, 2**31),
    count=st.integers(1, 8),
    junk=st.binary(min_size=1, max_size=8),
)
def test_fuzz_commands_on_damaged_databases(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
    kind: str,
    seed: int,
    count: int,
    junk: bytes,
) -> None:
    good = tmp_path / "good.db"
    data = good.read_bytes() if good.exists() else _real_db(good)
    path = tmp_path / f"fuzzed-{random.Random(seed).random()}.db"
    damage_db(path, data, kind, seed, count, junk)
    for args in (["stats"], ["export"], ["export", "1"], ["resume"], ["stats", "--format", "csv"]):
        before = path.read_bytes()
        code, out = _run(monkeypatch, capsys, [*args, "--db", str(path)], "q")
        assert "Traceback" not in out
        if code != 0 and "database" in out and str(path) in out:
            assert path.read_bytes() == before  # a refused file keeps its bytes
