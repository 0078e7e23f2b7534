"""``nineball dataset``, called in process."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest

from nineball.cli import dataset as dataset_cli
from nineball.cli import main


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    code = main(list(args))
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_a_small_dataset_is_written_and_reported(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    folder = tmp_path / "selfplay"
    args = ("dataset", "-o", str(folder), "--matches", "3", "--shard-matches", "2",
            "--workers", "1", "--seed", "7")  # fmt: skip
    code, out = run(capsys, *args)
    assert code == 0, out
    frame = pd.read_parquet(folder)
    assert f"positions (rows)          │ {len(frame)}" in out
    assert "positions per core-second" in out
    assert "files                     │ 2 (shots-*.parquet)" in out
    manifest = json.loads((folder / "_dataset.json").read_text())
    assert manifest["params"]["seed"] == 7
    # the same command again: nothing to play, the shards kept
    code, out = run(capsys, *args)
    assert code == 0, out
    assert "2 shard(s) found finished and kept" in out
    assert "positions per core-second" not in out
    # other parameters in the same folder: refused, the files left alone
    before = {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()}
    code, out = run(capsys, "dataset", "-o", str(folder), "--matches", "4", "--workers", "1")
    assert code == 1
    assert "holds a dataset of other parameters" in out
    assert {p.name: p.read_bytes() for p in folder.iterdir() if p.is_file()} == before


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["--players", "ghost"], "give two players"),
        (["--players", "ghost,nobody"], "a dataset needs two players"),
        (["--matches", "2", "--positions", "9"], "not both"),
        (["--rules", "snooker"], "unknown rule profile"),
        (["--backend", "spark"], "--backend is one of"),
    ],
)
def test_bad_options_are_named(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], says: str
) -> None:
    code, out = run(capsys, "dataset", "-o", str(tmp_path / "d"), *args)
    assert code != 0
    assert says in out
    assert not (tmp_path / "d" / "_dataset.json").exists()


def test_without_pyarrow_the_extra_is_named_before_any_work(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = dataset_cli.importlib.util.find_spec
    monkeypatch.setattr(
        dataset_cli.importlib.util,
        "find_spec",
        lambda name, *a: None if name == "pyarrow" else real(name, *a),
    )
    code, out = run(capsys, "dataset", "-o", str(tmp_path / "d"), "--matches", "1")
    assert code == 2
    assert "pip install 'nineball[data]'" in out
    assert not (tmp_path / "d").exists()
