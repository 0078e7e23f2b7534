"""Self-play datasets: written, read back, deterministic, resumable, and true to the records."""

from __future__ import annotations

import itertools
import json
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow.parquet as pq
import pytest

from nineball.dataset import (
    COLUMNS,
    MANIFEST,
    DatasetSpec,
    arrow_schema,
    column_names,
    match_rows,
    write_dataset,
)
from nineball.errors import InvalidInputError
from nineball.game import load_record, replay
from nineball.game.history import recorded_positions
from nineball.players.value import shipped_value_model

ROOT = Path(__file__).resolve().parents[2]
SPEC = DatasetSpec(players=("ghost", "ghost"), matches=5, shard_matches=2, records=True, seed=3)


@pytest.fixture(scope="module")
def written(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("dataset")
    write_dataset(folder, SPEC)
    return folder


def files(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in sorted(folder.glob("shots-*.parquet"))}


def test_the_files_read_back_with_pyarrow_and_pandas(written: Path) -> None:
    assert sorted(files(written)) == [f"shots-0000{k}.parquet" for k in range(3)]
    table = pq.read_table(written)  # the folder: _dataset.json and _records/ are skipped
    assert table.schema.equals(arrow_schema())
    assert table.schema.field("played_speed").metadata[b"unit"] == b"m/s"
    frame = pd.read_parquet(written)
    assert list(frame.columns) == list(column_names())
    assert len(frame) == table.num_rows > 5 * 8  # a ghost game takes about ten entries
    assert sorted(set(frame["match"])) == [0, 1, 2, 3, 4]
    keys = list(zip(frame["match"], frame["game"], frame["shot"], strict=True))
    assert keys == sorted(keys)
    chances = frame["win_probability"]
    assert chances.notna().all()
    assert chances.between(0.0, 1.0).all()
    assert chances.nunique() > 10  # a chance of each position, not one number
    assert set(frame["kind"]) <= {"stroke", "choice"}
    manifest = json.loads((written / MANIFEST).read_text())
    assert manifest["rows"] == len(frame)
    assert manifest["matches"] == 5
    assert [s["first_match"] for s in manifest["shards"]] == [0, 2, 4]


def test_the_rows_hold_together(written: Path) -> None:
    frame = pd.read_parquet(written)
    strokes = frame[frame["kind"] == "stroke"]
    assert strokes["played_speed"].between(0, 20).all()
    assert (strokes["pocketed"].map(len) == strokes["pockets"].map(len)).all()
    assert (frame["legal"] == frame["fouls"].map(len).eq(0)).all()
    breaks = frame[frame["phase"] == "break"]
    assert (breaks["shot"] == 1).all()
    assert (breaks["cue_ball"] == "kitchen").all()
    assert breaks["ball0_x"].isna().all()  # the cue ball is in hand
    assert breaks["cue_y"].lt(0.635).all()  # placed in the kitchen
    for _, game in frame.groupby(["match", "game"]):
        rows = game.to_dict("records")
        assert rows[-1]["game_over"] in ("nine_ball", "three_fouls")
        assert {r["game_winner"] for r in rows} == {rows[-1]["game_winner"]}
        for previous, row in itertools.pairwise(rows):
            # the layout after one entry is the layout before the next (the cue ball in hand
            # after a scratch is off the table until it is placed)
            for ball in range(1, 10):
                for axis in ("x", "y"):
                    a, b = row[f"ball{ball}_{axis}"], previous[f"after{ball}_{axis}"]
                    assert (pd.isna(a) and pd.isna(b)) or a == b
            on_table = [b for b in range(1, 10) if not pd.isna(row[f"ball{b}_x"])]
            assert row["ball_on"] == min(on_table)


def test_the_rows_agree_with_replaying_the_stored_records(written: Path) -> None:
    """Each match's record, replayed through the physics, gives back its rows exactly."""
    frame = pq.read_table(written).to_pylist()
    records = pq.read_table(written / "_records").to_pylist()
    assert [r["match"] for r in records] == [0, 1, 2, 3, 4]
    for stored in records:
        record = load_record(stored["record"])
        trajectories = []
        for _game, _index, trajectory, problem in replay(record):
            assert problem is None  # the physics puts every ball where the record says
            trajectories.append(trajectory)
        players = (record.agents or ("", ""))[0], (record.agents or ("", ""))[1]
        # the chances: the shipped model on the positions the record gives back (float32)
        positions = [position for _, position in recorded_positions(record)]
        chances = [float(np.float32(c)) for c in shipped_value_model().game_wins(positions)]
        again = match_rows(
            record, trajectories, match=stored["match"], players=players, chances=chances
        )
        for wrong in (chances[:-1], [*chances, 0.5]):
            with pytest.raises(ValueError, match="chances"):
                match_rows(record, trajectories, match=0, players=players, chances=wrong)
        rows = [row for row in frame if row["match"] == stored["match"]]
        assert [
            dict(zip(again, values, strict=True)) for values in zip(*again.values(), strict=True)
        ] == rows


def test_same_seed_same_bytes_whatever_the_workers(written: Path, tmp_path: Path) -> None:
    write_dataset(tmp_path / "two", SPEC, workers=2)
    assert files(tmp_path / "two") == files(written)
    other = DatasetSpec(players=("ghost", "ghost"), matches=5, shard_matches=2, seed=4)
    write_dataset(tmp_path / "other", other)
    assert files(tmp_path / "other") != files(written)


def test_a_stopped_dataset_is_finished_by_asking_again(written: Path, tmp_path: Path) -> None:
    folder = tmp_path / "resumed"
    write_dataset(folder, SPEC)
    (folder / "shots-00002.parquet").unlink()  # as if stopped while playing the last shard
    (folder / "shots-00001.parquet").write_bytes(b"damaged")
    seen = []
    done = write_dataset(folder, SPEC, progress=lambda m, r: seen.append((m, r)))
    assert done.resumed_shards == 1
    assert files(folder) == files(written)
    assert seen[0][0] == 2  # the kept shard, at once, then one match at a time
    assert [m for m, _ in seen[1:]] == [1, 1, 1]
    with pytest.raises(InvalidInputError, match="other parameters"):
        write_dataset(folder, DatasetSpec(players=("ghost", "ghost"), matches=6))


def test_positions_asks_for_whole_shards_until_there_are_enough(tmp_path: Path) -> None:
    done = write_dataset(tmp_path, DatasetSpec(positions=25, shard_matches=1, seed=5))
    per_match = pd.read_parquet(tmp_path).groupby("match").size().tolist()
    assert done.rows == sum(per_match) >= 25
    assert sum(per_match[:-1]) < 25  # one match fewer would not do


@pytest.mark.parametrize(
    ("kwargs", "says"),
    [
        ({"players": ("ghost", "nobody"), "matches": 1}, "two players"),
        ({"matches": 1, "positions": 10}, "either"),
        ({}, "either"),
        ({"matches": 0}, "matches must be"),
        ({"matches": 1, "rules": "snooker"}, "rule profile"),
        ({"matches": 1, "shard_matches": 0}, "shard_matches"),
    ],
)
def test_a_bad_spec_is_refused_by_name(kwargs: dict[str, object], says: str) -> None:
    with pytest.raises(InvalidInputError, match=says):
        DatasetSpec(**kwargs)  # type: ignore[arg-type]


def test_a_folder_of_something_else_is_left_alone(tmp_path: Path) -> None:
    (tmp_path / MANIFEST).write_text("[1, 2]")
    with pytest.raises(InvalidInputError, match="not a nineball dataset"):
        write_dataset(tmp_path, SPEC)
    (tmp_path / MANIFEST).unlink()
    (tmp_path / "shots-00000.parquet").write_bytes(b"x")
    with pytest.raises(InvalidInputError, match=r"no _dataset\.json"):
        write_dataset(tmp_path, SPEC)
    assert (tmp_path / "shots-00000.parquet").read_bytes() == b"x"


def test_polars_reads_it(written: Path) -> None:
    polars = pytest.importorskip("polars", reason="polars is in the [dev] extra")
    frame = polars.read_parquet(written / "shots-*.parquet")
    assert frame.columns == list(column_names())
    assert frame.height == pq.read_table(written).num_rows


def test_the_documentation_lists_every_column_with_its_type_and_unit() -> None:
    text = (ROOT / "docs" / "dataset.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| `([a-z0-9_]+)` \| `([a-z0-9<>]+)` \| ([^|]+) \|", text, re.MULTILINE)
    assert [(name, kind, unit.strip()) for name, kind, unit in rows] == [
        (c.name, c.type, c.unit) for c in COLUMNS
    ]


def test_a_tampered_description_keeps_only_the_shards_it_can_vouch_for(
    written: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "tampered"
    write_dataset(folder, SPEC)
    manifest = json.loads((folder / MANIFEST).read_text())
    manifest["shards"][0]["file"] = str(written / "shots-00000.parquet")  # elsewhere
    manifest["shards"][1]["first_match"] = 3  # not where shard 1 starts
    manifest["shards"].append("junk")
    (folder / MANIFEST).write_text(json.dumps(manifest))
    done = write_dataset(folder, SPEC)
    assert done.resumed_shards == 1
    assert files(folder) == files(written)
