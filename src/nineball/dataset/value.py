"""Training the learned win probability: self-play positions, LightGBM, held-out calibration.

``nineball train-value`` plays seeded self-play matches (the dataset's own jobs,
:func:`nineball.dataset.selfplay.dataset_jobs`, in chunks on the process pool or Ray), turns the
position before every entry into its features (:func:`nineball.players.features.features`) and
labels it with whether the player to act won that game (and the match), keeps every fifth match
out of the training as held-out games, fits LightGBM's gradient-boosted trees (one thread,
deterministic: the same seed and games give the same file, byte for byte), and measures on the
held-out games the calibration of the model and of today's geometric value
(:func:`nineball.players.evaluation.position_value`, read as a chance ``(1 + v) / 2``).

The model is written as the JSON that :class:`nineball.players.value.ValueModel` reads; LightGBM
(the ``[train]`` extra) is needed only here.
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Sequence
from dataclasses import asdict, astuple, dataclass, fields
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from nineball.dataset.selfplay import dataset_jobs, match_positions, start_match
from nineball.errors import InvalidInputError
from nineball.game import RULE_NAMES
from nineball.players.evaluation import position_value
from nineball.players.features import AIM_SD, FEATURE_COUNT, feature_names, features
from nineball.players.registry import PLAYERS
from nineball.players.value import VALUE_FORMAT, VALUE_VERSION, Standing, ValueModel

__all__ = [
    "HELD_OUT_EVERY",
    "POSITIONS_FORMAT",
    "STANDING",
    "Calibration",
    "Decile",
    "Trained",
    "TrainingParams",
    "ValueChunk",
    "ValueJob",
    "calibration",
    "dump_model_file",
    "load_positions",
    "match_positions",
    "model_json",
    "play_value_job",
    "save_positions",
    "train_value_model",
    "value_jobs",
]

HELD_OUT_EVERY = 5
"""Every fifth match (index 0, 5, 10...) is held out of the training, for the calibration."""

STANDING = len(fields(Standing))
"""The numbers of a :class:`Standing` row."""

POSITIONS_FORMAT = "nineball-value-positions"
"""The ``format`` of a file of saved positions (:func:`save_positions`)."""


def _standing(row: NDArray[np.int64]) -> Standing:
    mine, theirs, race, their_race, breaking, winner_breaks = (int(v) for v in row)
    return Standing(mine=mine, theirs=theirs, race=race, their_race=their_race,
                    breaking=bool(breaking), winner_breaks=bool(winner_breaks))  # fmt: skip


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueJob:
    """Matches ``start`` to ``stop - 1`` of a training set, played in one worker."""

    players: tuple[str, str]
    start: int
    stop: int
    seed: int
    race_to: int
    rules: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ValueChunk:
    """The positions of a :class:`ValueJob`'s matches, one row per entry of a finished game."""

    start: int
    match: NDArray[np.int64]
    """Each position's match index."""
    features: NDArray[np.float64]
    """Shape ``(n, FEATURE_COUNT)``."""
    game_won: NDArray[np.bool_]
    """The player to act won this game."""
    match_won: NDArray[np.bool_]
    """The player to act won the match."""
    heuristic: NDArray[np.float64]
    """Today's geometric value of the position as a chance, ``(1 + position_value) / 2``."""
    standing: NDArray[np.int64]
    """Shape ``(n, 6)``: the match as the player to act stands in it, the fields of
    :class:`nineball.players.value.Standing` in order (flags as 0 or 1)."""
    games: int
    """Finished games."""
    breaker_won: int
    """Of them, those the breaker won."""
    cpu_seconds: float


def value_jobs(
    games: int,
    *,
    players: tuple[str, str] = ("ghost", "ghost"),
    seed: int = 0,
    race_to: int = 1,
    rules: str = "standard",
    chunk: int = 50,
) -> list[ValueJob]:
    """The jobs of a training set of ``games`` matches, ``chunk`` matches a job.

    Raises:
        InvalidInputError: an unknown player or rule profile, or counts out of range.
    """
    if len(players) != 2 or any(p not in PLAYERS for p in players):
        raise InvalidInputError(f"two players of {', '.join(PLAYERS)} are needed, got {players!r}")
    if rules.lower() not in RULE_NAMES:
        raise InvalidInputError(f"unknown rule profile {rules!r}")
    if not 1 <= games <= 10**8:
        raise InvalidInputError(f"games must be in 1..10**8, got {games!r}")
    if not 1 <= chunk <= 10**6:
        raise InvalidInputError(f"chunk must be in 1..10**6, got {chunk!r}")
    return [
        ValueJob(
            players=players,
            start=k,
            stop=min(games, k + chunk),
            seed=seed,
            race_to=race_to,
            rules=rules,
        )
        for k in range(0, games, chunk)
    ]


def play_value_job(job: ValueJob) -> ValueChunk:
    """Play a job's matches; every position before an entry, with its features and labels."""
    start = time.process_time()
    rows: list[NDArray[np.float64]] = []
    index: list[int] = []
    game_won: list[bool] = []
    match_won: list[bool] = []
    heuristic: list[float] = []
    standing: list[tuple[int, ...]] = []
    games = breaker_won = 0
    jobs = dataset_jobs(
        job.players,
        job.start,
        job.stop,
        seed=job.seed,
        race_to=job.race_to,
        rules=job.rules,
        record=False,
    )
    for each in jobs:
        match, players = start_match(each)
        positions = match_positions(match, players)
        record = match.record
        if record.winner is None:
            continue  # cut at the turn limit: no labels
        winners = {g.number: g.result.winner for g in record.games if g.result is not None}
        games += len(winners)
        breaker_won += sum(1 for g in record.games if g.result and g.result.winner is g.breaker)
        for position in positions:
            state = position.state
            winner = winners.get(state.game.number)
            if winner is None:
                continue
            me = state.to_act
            rows.append(features(position))
            index.append(each.index)
            game_won.append(winner is me)
            match_won.append(record.winner is me)
            heuristic.append((1.0 + position_value(position, me, AIM_SD)) / 2.0)
            standing.append(astuple(Standing.of(state)))
    return ValueChunk(
        start=job.start,
        match=np.asarray(index, dtype=np.int64),
        features=np.asarray(rows, dtype=np.float64).reshape(-1, FEATURE_COUNT),
        game_won=np.asarray(game_won, dtype=np.bool_),
        match_won=np.asarray(match_won, dtype=np.bool_),
        heuristic=np.asarray(heuristic, dtype=np.float64),
        standing=np.asarray(standing, dtype=np.int64).reshape(-1, STANDING),
        games=games,
        breaker_won=breaker_won,
        cpu_seconds=time.process_time() - start,
    )


def save_positions(path: Path, chunks: Sequence[ValueChunk], meta: dict[str, Any]) -> None:
    """Write played positions to a compressed ``.npz`` file (no pickled objects).

    ``meta`` (the players, the seed...) goes in as JSON; a model can then be trained again
    without playing.

    Raises:
        OSError: the file cannot be written.
    """
    ordered = sorted(chunks, key=lambda c: c.start)

    def joined(name: str) -> NDArray[Any]:
        return np.concatenate([getattr(c, name) for c in ordered])

    with path.open("wb") as out:
        np.savez_compressed(
            out,
            features=joined("features").reshape(-1, FEATURE_COUNT),
            standing=joined("standing").reshape(-1, STANDING),
            match=joined("match"),
            game_won=joined("game_won"),
            match_won=joined("match_won"),
            heuristic=joined("heuristic"),
            counts=np.array([sum(c.games for c in ordered), sum(c.breaker_won for c in ordered)]),
            cpu_seconds=np.array(sum(c.cpu_seconds for c in ordered)),
            meta=np.array(json.dumps({"format": POSITIONS_FORMAT, **meta})),
        )


def load_positions(path: Path) -> tuple[ValueChunk, dict[str, Any]]:
    """Read positions written by :func:`save_positions`: one chunk of them all, and the meta.

    Raises:
        InvalidInputError: not such a file, or one of other features.
    """
    try:
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["meta"]))
            if meta.get("format") != POSITIONS_FORMAT or data["features"].shape[1:] != (
                FEATURE_COUNT,
            ):
                raise InvalidInputError(f"{str(path)!r} holds no positions of these features")
            games, breaker_won = (int(v) for v in data["counts"])
            chunk = ValueChunk(
                start=0,
                match=data["match"],
                features=data["features"],
                game_won=data["game_won"],
                match_won=data["match_won"],
                heuristic=data["heuristic"],
                standing=data["standing"],
                games=games,
                breaker_won=breaker_won,
                cpu_seconds=float(data["cpu_seconds"]),
            )
    except (OSError, ValueError, KeyError) as exc:
        raise InvalidInputError(f"cannot read positions from {str(path)!r}: {exc}") from None
    return chunk, meta


@dataclass(frozen=True, slots=True, kw_only=True)
class Decile:
    """One bin of the reliability curve: stated chances in ``[low, high)``."""

    low: float
    high: float
    count: int
    stated: float
    """The mean stated chance in the bin (NaN when empty)."""
    observed: float
    """The share of the bin's positions whose player to act won (NaN when empty)."""
    matches: int
    """How many matches the bin's positions come from (each position its own when the
    matches are not given)."""
    error: float
    """The standard error of ``observed - stated``, the matches taken as the draws (positions
    of one match share its outcome: they are not independent); NaN with fewer than two."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Calibration:
    """How well stated chances match outcomes."""

    positions: int
    brier: float
    """Mean squared error of the chance (0 perfect; 0.25 for a constant 0.5)."""
    log_loss: float
    """Mean negative log-likelihood, nats (0.693 for a constant 0.5); chances clipped to
    [1e-6, 1 - 1e-6]."""
    deciles: tuple[Decile, ...]


def calibration(
    p: NDArray[np.float64], won: NDArray[np.bool_], match: NDArray[np.int64] | None = None
) -> Calibration:
    """Brier score, log loss and the reliability curve in ten equal bins of stated chance.

    ``match`` names each position's match: a bin's error then counts matches, not positions
    (the cluster-robust standard error of a ratio); None: every position is independent.

    Raises:
        InvalidInputError: no positions, or arrays of different lengths.
    """
    p = np.asarray(p, dtype=np.float64)
    y = np.asarray(won, dtype=np.float64)
    groups = np.arange(p.size) if match is None else np.asarray(match)
    if p.shape != y.shape or p.shape != groups.shape or p.size == 0:
        raise InvalidInputError(f"{p.size} chances for {y.size} outcomes and {groups.size} matches")
    group = np.unique(groups, return_inverse=True)[1].reshape(-1)
    clipped = np.clip(p, 1e-6, 1.0 - 1e-6)
    log_loss = float(-np.mean(y * np.log(clipped) + (1.0 - y) * np.log(1.0 - clipped)))
    bins = np.minimum((p * 10).astype(np.int64), 9)
    deciles = []
    for k in range(10):
        inside = bins == k
        n = int(inside.sum())
        # Per match: its positions in the bin and their summed surprise (won - stated).
        counts = np.bincount(group[inside], minlength=group.max() + 1)
        surprise = np.bincount(group[inside], weights=(y - p)[inside], minlength=counts.size)
        present = counts > 0
        m = int(present.sum())
        gap = surprise.sum() / n if n else math.nan
        spread = ((surprise - gap * counts)[present] ** 2).sum() if n else 0.0
        deciles.append(
            Decile(
                low=k / 10,
                high=(k + 1) / 10,
                count=n,
                stated=float(p[inside].mean()) if n else math.nan,
                observed=float(y[inside].mean()) if n else math.nan,
                matches=m,
                error=math.sqrt(m / (m - 1) * spread) / n if m > 1 else math.nan,
            )
        )
    return Calibration(
        positions=int(p.size),
        brier=float(np.mean((p - y) ** 2)),
        log_loss=log_loss,
        deciles=tuple(deciles),
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class TrainingParams:
    """LightGBM's settings (the rest are LightGBM's defaults)."""

    rounds: int = 300
    """Boosting rounds: trees in the forest."""
    leaves: int = 31
    """Most leaves a tree may have."""
    learning_rate: float = 0.05
    min_leaf: int = 100
    """Fewest training positions in a leaf."""
    max_depth: int = 8
    """Deepest a tree may grow (the search walks every tree this many steps)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Trained:
    """A model trained, with its file's JSON and its held-out figures."""

    data: dict[str, Any]
    """The model file's content (see :func:`model_json`)."""
    model: ValueModel
    held_out: Calibration
    heuristic: Calibration
    """Today's geometric value on the same held-out positions."""
    match: Calibration
    """The match's chance (:meth:`Standing.chance` of the model's game chance) against who won
    the match, on the same positions."""
    train_positions: int
    held_out_positions: int
    games: int
    cpu_seconds: float
    """The self-play's CPU time (the workers')."""


def _export_tree(info: dict[str, Any]) -> dict[str, Any]:
    """One tree of LightGBM's ``dump_model`` as arrays.

    Split ``i``'s children are split indices, or ``~leaf`` for a leaf.
    """
    splits = int(info["num_leaves"]) - 1
    feature = [0] * splits
    threshold = [0.0] * splits
    left = [0] * splits
    right = [0] * splits
    leaf = [0.0] * (splits + 1)
    depth = 0

    def walk(node: dict[str, Any], level: int) -> int:
        nonlocal depth
        if "split_index" not in node:
            k = int(node.get("leaf_index", 0))
            leaf[k] = float(node["leaf_value"])
            depth = max(depth, level)
            return ~k
        i = int(node["split_index"])
        if node["decision_type"] != "<=" or node.get("missing_type", "None") not in ("None", "NaN"):
            raise InvalidInputError(f"a split LightGBM made that nineball cannot read: {node!r}")
        feature[i] = int(node["split_feature"])
        threshold[i] = float(node["threshold"])
        left[i] = walk(node["left_child"], level + 1)
        right[i] = walk(node["right_child"], level + 1)
        return i

    walk(info["tree_structure"], 0)
    return {
        "depth": depth,
        "feature": feature,
        "threshold": threshold,
        "left": left,
        "right": right,
        "leaf": leaf,
    }


def model_json(
    booster: Any,
    *,
    seed: int,
    games: int,
    positions: int,
    breaker_wins: float,
    extra: dict[str, Any],
) -> dict[str, Any]:
    """A fitted LightGBM booster as a value model file's JSON.

    Raises:
        InvalidInputError: a tree with a split this reader does not know.
    """
    dump = booster.dump_model()
    return {
        "format": VALUE_FORMAT,
        "version": VALUE_VERSION,
        "features": list(feature_names()),
        "seed": seed,
        "games": games,
        "positions": positions,
        "breaker_wins": breaker_wins,
        **extra,
        "trees": [_export_tree(t) for t in dump["tree_info"]],
    }


def dump_model_file(data: dict[str, Any]) -> str:
    """The model file's text: the description indented, one line per tree."""
    head = {k: v for k, v in data.items() if k != "trees"}
    text = json.dumps(head, indent=1)[:-2]  # drop the closing "\n}"
    trees = ",\n  ".join(json.dumps(t, separators=(",", ":")) for t in data["trees"])
    return f'{text},\n "trees": [\n  {trees}\n ]\n}}\n'


def _calibration_json(c: Calibration) -> dict[str, Any]:
    out = asdict(c)
    out["deciles"] = [
        {k: (None if isinstance(v, float) and math.isnan(v) else v) for k, v in d.items()}
        for d in out["deciles"]
    ]
    return out


def train_value_model(
    chunks: Sequence[ValueChunk],
    *,
    seed: int,
    players: tuple[str, str],
    race_to: int,
    params: TrainingParams | None = None,
) -> Trained:
    """Fit the model on the chunks' training matches and measure it on the held-out ones.

    Raises:
        ImportError: LightGBM is not installed (the ``[train]`` extra).
        InvalidInputError: too few positions to train or to measure.
    """
    try:
        import lightgbm as lgb
    except ImportError:
        raise ImportError(
            "training the value model needs LightGBM: pip install 'nineball[train]'",
            name="lightgbm",
        ) from None
    params = params or TrainingParams()
    ordered = sorted(chunks, key=lambda c: c.start)
    x = np.concatenate([c.features for c in ordered]).reshape(-1, FEATURE_COUNT)
    y = np.concatenate([c.game_won for c in ordered])
    h = np.concatenate([c.heuristic for c in ordered])
    standing = np.concatenate([c.standing for c in ordered]).reshape(-1, STANDING)
    match_won = np.concatenate([c.match_won for c in ordered])
    match = np.concatenate([c.match for c in ordered])
    test = match % HELD_OUT_EVERY == 0
    train = ~test
    if train.sum() < 100 or test.sum() < 10:
        raise InvalidInputError(
            f"{int(train.sum())} training and {int(test.sum())} held-out positions: play more games"
        )
    games = sum(c.games for c in ordered)
    breaker_wins = sum(c.breaker_won for c in ordered) / max(games, 1)
    settings = {
        "objective": "binary",
        "learning_rate": params.learning_rate,
        "num_leaves": params.leaves,
        "min_data_in_leaf": params.min_leaf,
        "max_depth": params.max_depth,
        "num_threads": 1,
        "deterministic": True,
        "force_row_wise": True,
        "seed": seed,
        "verbose": -1,
    }
    dataset = lgb.Dataset(x[train], label=y[train].astype(np.float64), free_raw_data=True)
    booster = lgb.train(settings, dataset, num_boost_round=params.rounds)
    train_games = len(np.unique(match[train]))
    data = model_json(
        booster,
        seed=seed,
        games=train_games,
        positions=int(train.sum()),
        breaker_wins=breaker_wins,
        extra={
            "players": list(players),
            "race_to": race_to,
            "label": "the player to act won the game",
            "library": f"lightgbm {lgb.__version__}",
            "params": asdict(params),
        },
    )
    model = ValueModel.from_json(data)
    p_model = model.probability(x[test])
    held_out = calibration(p_model, y[test], match[test])
    heuristic = calibration(h[test], y[test], match[test])
    p_match = np.array(
        [
            _standing(row).chance(float(p), breaker_wins)
            for p, row in zip(p_model, standing[test], strict=True)
        ]
    )
    for_match = calibration(p_match, match_won[test], match[test])
    data["held_out"] = {
        "matches": len(np.unique(match[test])),
        "positions": int(test.sum()),
        "model": _calibration_json(held_out),
        "heuristic": _calibration_json(heuristic),
        "match": _calibration_json(for_match),
    }
    # The positions a search values (never a break: a game won or lost is worth 1 or -1).
    played = ~x[test][:, 0].astype(bool)
    if played.any():
        data["held_out"]["model_no_break"] = _calibration_json(
            calibration(p_model[played], y[test][played], match[test][played])
        )
        data["held_out"]["heuristic_no_break"] = _calibration_json(
            calibration(h[test][played], y[test][played], match[test][played])
        )
    data["trees"] = data.pop("trees")  # keep the trees last in the file
    return Trained(
        data=data,
        model=ValueModel.from_json(data),
        held_out=held_out,
        heuristic=heuristic,
        match=for_match,
        train_positions=int(train.sum()),
        held_out_positions=int(test.sum()),
        games=games,
        cpu_seconds=sum(c.cpu_seconds for c in ordered),
    )
