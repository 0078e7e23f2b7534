"""Training the win probability: labelled self-play positions, a reproducible file, the command."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from nineball.cli import main
from nineball.dataset.value import (
    HELD_OUT_EVERY,
    STANDING,
    TrainingParams,
    ValueChunk,
    calibration,
    dump_model_file,
    load_positions,
    play_value_job,
    train_value_model,
    value_jobs,
)
from nineball.errors import InvalidInputError
from nineball.players.features import FEATURE_COUNT
from nineball.players.value import load_value_model

SMALL = TrainingParams(rounds=8, leaves=7, min_leaf=10)


@pytest.fixture(scope="module")
def chunks() -> list[ValueChunk]:
    return [play_value_job(job) for job in value_jobs(40, seed=5, race_to=2, chunk=20)]


def test_positions_are_labelled_by_who_won(chunks: list[ValueChunk]) -> None:
    again = play_value_job(value_jobs(40, seed=5, race_to=2, chunk=20)[1])
    first = chunks[1]
    assert np.array_equal(first.features, again.features)  # same seed, same positions
    assert np.array_equal(first.game_won, again.game_won)
    for chunk in chunks:
        n = chunk.match.size
        assert chunk.features.shape == (n, FEATURE_COUNT)
        assert n >= 10 * (chunk.games // 2)
        assert ((chunk.heuristic >= 0) & (chunk.heuristic <= 1)).all()
        assert 0 <= chunk.breaker_won <= chunk.games
    won = np.concatenate([c.game_won for c in chunks])
    match_won = np.concatenate([c.match_won for c in chunks])
    assert 0.35 < won.mean() < 0.65  # the player to act wins about half the time
    assert not np.array_equal(won, match_won)  # races to 2: some games lost, the match won
    # Every finished game starts from a break.
    x = np.concatenate([c.features for c in chunks])
    assert x[:, 0].sum() >= sum(c.games for c in chunks)
    # The standing: races to 2, the breaker is the one to act at the break, scores 0 or 1.
    standing = np.concatenate([c.standing for c in chunks])
    assert (standing[:, 2:4] == 2).all()
    assert (standing[x[:, 0] == 1, 4] == 1).all()
    assert set(np.unique(standing[:, :2])) <= {0, 1}


def test_training_is_reproducible_and_holds_out_whole_matches(chunks: list[ValueChunk]) -> None:
    one = train_value_model(chunks, seed=3, players=("ghost", "ghost"), race_to=2, params=SMALL)
    two = train_value_model(
        chunks[::-1], seed=3, players=("ghost", "ghost"), race_to=2, params=SMALL
    )
    assert dump_model_file(one.data) == dump_model_file(two.data)
    matches = np.concatenate([c.match for c in chunks])
    assert one.held_out_positions == int((matches % HELD_OUT_EVERY == 0).sum())
    assert one.train_positions + one.held_out_positions == matches.size
    assert one.data["held_out"]["matches"] == 8
    assert one.model.trees == SMALL.rounds
    assert one.held_out.positions == one.heuristic.positions == one.held_out_positions
    with pytest.raises(InvalidInputError, match="play more games"):
        train_value_model([_empty()], seed=0, players=("ghost", "ghost"), race_to=1)


def _empty() -> ValueChunk:
    return ValueChunk(
        start=0,
        match=np.zeros(0, dtype=np.int64),
        features=np.zeros((0, FEATURE_COUNT)),
        game_won=np.zeros(0, dtype=bool),
        match_won=np.zeros(0, dtype=bool),
        heuristic=np.zeros(0),
        standing=np.zeros((0, STANDING), dtype=np.int64),
        games=0,
        breaker_won=0,
        cpu_seconds=0.0,
    )


def test_calibration_figures() -> None:
    p = np.array([0.05, 0.05, 0.95, 0.95, 0.5, 0.55])
    won = np.array([False, False, True, True, True, False])
    c = calibration(p, won)
    assert c.positions == 6
    assert c.brier == pytest.approx(np.mean((p - won) ** 2))
    assert c.log_loss == pytest.approx(-np.mean(np.log(np.where(won, p, 1 - p))))
    assert [d.count for d in c.deciles] == [2, 0, 0, 0, 0, 2, 0, 0, 0, 2]
    assert c.deciles[5].stated == pytest.approx(0.525)
    assert c.deciles[5].observed == 0.5
    assert c.deciles[9].observed == 1.0
    with pytest.raises(InvalidInputError):
        calibration(p, won[:3])
    with pytest.raises(InvalidInputError, match="matches"):
        calibration(p, won, np.arange(5))


def test_a_bins_error_counts_matches_not_positions() -> None:
    rng = np.random.default_rng(3)
    p = rng.uniform(0.1, 0.9, 400)
    won = rng.random(400) < p
    alone = calibration(p, won)
    for d in alone.deciles:  # independent positions: the binomial error of the gap
        if d.count > 1:
            inside = np.minimum((p * 10).astype(int), 9) == int(d.low * 10)
            r = (won - p)[inside]
            assert d.matches == d.count
            assert d.error == pytest.approx(np.sqrt(((r - r.mean()) ** 2).sum() / (d.count - 1))
                                            / np.sqrt(d.count))  # fmt: skip
    # Every match seen as ten positions sharing one outcome: ten times the positions, the same
    # evidence, so the same gaps and errors (not errors a sqrt(10) smaller).
    copies = calibration(np.repeat(p, 10), np.repeat(won, 10), np.repeat(np.arange(400), 10))
    for d, e in zip(alone.deciles, copies.deciles, strict=True):
        assert e.count == 10 * d.count
        assert e.matches == d.matches
        if d.count > 1:
            assert e.observed - e.stated == pytest.approx(d.observed - d.stated)
            assert e.error == pytest.approx(d.error)


def test_jobs_are_checked() -> None:
    with pytest.raises(InvalidInputError, match="nobody"):
        value_jobs(10, players=("ghost", "nobody"))
    with pytest.raises(InvalidInputError, match="games"):
        value_jobs(0)
    jobs = value_jobs(45, chunk=20)
    assert [(j.start, j.stop) for j in jobs] == [(0, 20), (20, 40), (40, 45)]


def test_the_command_writes_a_model_the_players_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "value.json"
    kept = tmp_path / "positions.npz"
    args = ["train-value", "--games", "30", "--rounds", "4", "--workers", "1", "--seed", "2",
            "--race-to", "2", "-o", str(out), "--save-positions", str(kept)]  # fmt: skip
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "held-out calibration" in text
    assert "position_value" in text
    assert "the match" in text
    model = load_value_model(out)
    assert model.seed == 2
    assert model.trees == 4
    assert model.meta["players"] == ["ghost", "ghost"]
    assert model.meta["race_to"] == 2
    # Trained again from the kept positions, without playing: the same file.
    again = tmp_path / "again.json"
    assert (
        main(["train-value", "--from-positions", str(kept), "--rounds", "4", "-o", str(again)]) == 0
    )
    assert again.read_text() == out.read_text()
    assert main(["train-value", "--from-positions", str(out), "-o", str(again)]) == 1
    assert "cannot read positions" in capsys.readouterr().out


def test_checkpoints_let_a_stopped_run_go_on(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    folder = tmp_path / "kept"
    common = ["train-value", "--rounds", "4", "--workers", "1", "--seed", "4", "--race-to", "2",
              "--chunk", "10"]  # fmt: skip
    whole = tmp_path / "whole.json"
    assert main([*common, "--games", "30", "-o", str(whole)]) == 0
    # A run stopped after its first 20 matches: each finished job was kept as it ended.
    first = tmp_path / "first.json"
    assert main([*common, "--games", "20", "--checkpoints", str(folder), "-o", str(first)]) == 0
    kept = sorted(p.name for p in folder.iterdir())
    assert kept == ["matches-000000000-000000010.npz", "matches-000000010-000000020.npz"]
    # Its matches are taken from the folder, not played again: a job file changed on disk
    # changes the model, and the run with the file as it was gives the uninterrupted run's model.
    capsys.readouterr()
    resumed = tmp_path / "resumed.json"
    assert main([*common, "--games", "30", "--checkpoints", str(folder), "-o", str(resumed)]) == 0
    assert "from " + str(folder) in capsys.readouterr().out
    assert resumed.read_text() == whole.read_text()
    assert len(list(folder.iterdir())) == 3
    chunk, meta = load_positions(folder / kept[0])
    assert (meta["start"], meta["stop"], meta["seed"]) == (0, 10, 4)
    assert set(chunk.match.tolist()) <= set(range(10))
    with np.load(folder / kept[0]) as data:  # the first job's positions, its labels flipped
        arrays = {name: data[name] for name in data.files}
    arrays["game_won"] = ~arrays["game_won"]
    np.savez_compressed(folder / kept[0], **arrays)
    flipped = tmp_path / "flipped.json"
    assert main([*common, "--games", "30", "--checkpoints", str(folder), "-o", str(flipped)]) == 0
    assert flipped.read_text() != whole.read_text()
    # Another run's folder is refused, naming what differs; nothing is played or written.
    other = tmp_path / "other.json"
    capsys.readouterr()
    args = [*common[:6], "5", *common[7:], "--games", "30", "--checkpoints", str(folder)]
    assert main([*args, "-o", str(other)]) == 1
    assert "seed 4, not 5" in capsys.readouterr().out
    assert not other.exists()
    assert main([*common, "--games", "30", "--checkpoints", str(folder),
                 "--from-positions", str(folder / kept[0])]) == 1  # fmt: skip
