"""``nineball interop import-pooltool`` and ``export-pooltool``, called in process."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from nineball.cli import main
from nineball.interop import load_pooltool

DATA = Path(__file__).resolve().parents[1] / "interop" / "data"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_import_plays_the_shot_beside_pooltools_result(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    out_file = tmp_path / "result.json"
    code, out = run(
        capsys, "interop", "import-pooltool", str(DATA / "example_simulated.msgpack"),
        "-o", str(out_file),
    )  # fmt: skip
    assert code == 0, out
    assert "shot 1 of 1: 2 balls; stroke 1.714 m/s at 94.00 deg" in out
    assert "note:" not in out  # pooltool's table and parameters map exactly
    assert "pooltool (the file's events)" in out
    assert out.count("0 foot_left, 1 foot_right") == 2  # both engines pocket both balls there
    written = json.loads(out_file.read_text())
    (shot,) = written["shots"]
    assert shot["nineball"]["facts"] == {
        "first_contact": 1, "pocketed": [0, 1], "off_table": [], "rails": [0, 1]
    }  # fmt: skip
    assert shot["pooltool"]["pocketed"] == {"0": "foot_left", "1": "foot_right"}
    assert shot["request"]["stroke"]["aim_deg"] == pytest.approx(94.0)
    assert shot["request"]["table"]["corner_mouth"] == pytest.approx(0.118)


def test_import_one_shot_of_a_multisystem(capsys: pytest.CaptureFixture[str]) -> None:
    code, out = run(
        capsys, "interop", "import-pooltool", str(DATA / "shots.msgpack"), "--shot", "1"
    )
    assert code == 0, out
    assert "shot 1 of 2" in out
    assert "shot 2 of 2" not in out
    assert "pooltool (the file's events)" not in out  # the first shot was not simulated
    code, out = run(
        capsys, "interop", "import-pooltool", str(DATA / "shots.msgpack"), "--shot", "3"
    )
    assert code == 1
    assert "holds 2 shot(s), not a shot 3" in out


@pytest.mark.parametrize(
    ("content", "says"),
    [
        (b"{}", "$.table: is missing"),
        (b"garbage", "not valid JSON"),
        (b'{"multisystem": []}', "$.multisystem: must be a list of 1 to"),
    ],
)
def test_a_bad_file_is_an_error_message_not_a_traceback(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: bytes, says: str
) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    code, out = run(capsys, "interop", "import-pooltool", str(path))
    assert code == 1
    assert says in out
    assert "Traceback" not in out


def test_export_a_recorded_game_and_one_stroke(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    record = tmp_path / "match.json"
    code, out = run(
        capsys, "match", "--players", "ghost,ghost", "--race-to", "1", "--seed", "3",
        "--no-save", "--record", str(record),
    )  # fmt: skip
    assert code == 0, out
    strokes = [s for s in json.loads(record.read_text())["games"][0]["shots"] if "stroke" in s]
    game_file = tmp_path / "game.msgpack"
    code, out = run(capsys, "interop", "export-pooltool", str(record), "-o", str(game_file))
    assert code == 0, out
    assert f"a pooltool MultiSystem of {len(strokes)} shots" in out
    assert len(load_pooltool(game_file)) == len(strokes)
    one = tmp_path / "one.json"
    code, out = run(
        capsys, "interop", "export-pooltool", str(record), "--shot", "1", "-o", str(one)
    )
    assert code == 0, out
    (shot,) = load_pooltool(one)
    assert shot.stroke is not None
    assert shot.stroke.speed == pytest.approx(strokes[0]["stroke"]["speed"], rel=1e-12)
    # ... and back: the exported stroke imports and plays
    code, out = run(capsys, "interop", "import-pooltool", str(one))
    assert code == 0, out


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--game", "5"], "no game 5"),
        (["--shot", "999"], "no entry 999"),
    ],
)
def test_export_errors_name_what_is_wrong(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], says: str
) -> None:
    record = tmp_path / "match.json"
    main(["match", "--players", "ghost,ghost", "--race-to", "1", "--no-save",
          "--record", str(record)])  # fmt: skip
    code, out = run(capsys, "interop", "export-pooltool", str(record), *args, "-o", "x.json")
    assert code == 1
    assert says in out
    code, out = run(capsys, "interop", "export-pooltool", str(record), "-o", "x.txt")
    assert code == 1
    assert "neither .json nor .msgpack" in out
