"""The learned win probability: its features, its evaluator, the match from the game, the file."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

import lightgbm as lgb
import numpy as np
import pytest

from nineball import BallId
from nineball.dataset.selfplay import dataset_jobs, start_match
from nineball.dataset.value import TrainingParams, match_positions, model_json
from nineball.errors import InvalidInputError
from nineball.game.position import Position
from nineball.physics import PhysicsParams, nine_foot
from nineball.players.features import FEATURE_COUNT, FEATURES, NOT_APPLICABLE, features
from nineball.players.search import LEVELS, SearchPlayer
from nineball.players.value import (
    VALUE_FORMAT,
    SeatChances,
    ValueModel,
    load_value_model,
    match_win_probability,
    shipped_value_model,
)
from nineball.rules import BreakRule, CueBall, MatchConfig, MatchState, Seat, ShotFacts, shoot

TABLE, PARAMS = nine_foot(), PhysicsParams()
NAMES = [f.name for f in FEATURES]


def _state(**game: object) -> MatchState:
    """After a legal break that left the 1 and the 9, Ann to shoot."""
    start = MatchState.start(MatchConfig(players=("Ann", "Bob")))
    state = shoot(start, ShotFacts.of(first_contact=1, pocketed=[2, 3, 4, 5, 6, 7, 8])).state
    return replace(state, game=replace(state.game, push_out_allowed=False, **game))


def _view(layout: dict[BallId, tuple[float, float]], state: MatchState | None = None) -> Position:
    return Position(state=state or _state(), layout=layout, table=TABLE, params=PARAMS)


@pytest.fixture(scope="module")
def positions() -> list[Position]:
    """Every position of two seeded ghost matches (breaks, ball in hand, fouls, runs)."""
    out: list[Position] = []
    for job in dataset_jobs(("ghost", "ghost"), 0, 2, seed=11, race_to=2, rules="standard",
                            record=False):  # fmt: skip
        out += match_positions(*start_match(job))
    return out


def _mirrored(position: Position, x: bool, y: bool) -> Position:
    w, length = position.table.width, position.table.length
    layout = {
        b: (w - p[0] if x else p[0], length - p[1] if y else p[1])
        for b, p in position.layout.items()
    }
    return replace(position, layout=layout)


def test_features_are_named_once_and_fill_the_vector(positions: list[Position]) -> None:
    assert len(set(NAMES)) == FEATURE_COUNT
    assert all(f.unit in ("-", "m", "rad") and f.meaning for f in FEATURES)
    x = np.array([features(p) for p in positions])
    assert x.shape == (len(positions), FEATURE_COUNT)
    assert np.isfinite(x).all()
    # The matches held breaks, ball in hand after fouls, and shots with the cue ball in place.
    assert x[:, NAMES.index("break")].sum() >= 2
    assert x[:, NAMES.index("in_hand")].sum() >= 1
    assert (x[:, NAMES.index("pot_chance")] >= 0).sum() >= 5


def test_features_do_not_see_the_table_mirrored(positions: list[Position]) -> None:
    for position in positions:
        f = features(position)
        for x, y in ((True, False), (False, True), (True, True)):
            np.testing.assert_allclose(features(_mirrored(position, x, y)), f, atol=1e-9)


def test_features_of_a_plain_position() -> None:
    # The 1 straight up the table from the cue ball toward the foot-right pocket's line.
    clear = _view({BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)})
    f = dict(zip(NAMES, features(clear), strict=True))
    assert f["balls_left"] == 2
    assert f["lowest"] == 1
    assert f["pot_chance"] > 0.9
    assert f["blockers"] == 0
    assert f["cue_distance"] == pytest.approx(np.hypot(0.2, 0.4))
    assert f["next_distance"] == pytest.approx(np.hypot(0.8, 1.5))
    assert f["in_hand"] == 0
    # The 9 put between the cue ball and the 1: one blocker, and no direct pot is left.
    hidden = _view({BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (1.0, 2.1)})
    g = dict(zip(NAMES, features(hidden), strict=True))
    assert g["blockers"] == 1
    assert g["pot_chance"] < f["pot_chance"]
    # Ball in hand after a foul: the cue ball's features do not apply; the fouls are counted.
    state = _state(cue_ball=CueBall.ANYWHERE, consecutive_fouls=(0, 2))
    h = dict(zip(NAMES, features(_view(clear.layout, state)), strict=True))
    assert h["in_hand"] == 1
    assert h["their_fouls"] == 2
    assert h["my_fouls"] == 0
    assert h["pot_chance"] == h["cut"] == h["cue_distance"] == NOT_APPLICABLE


def test_features_refuse_a_position_that_cannot_be_played() -> None:
    with pytest.raises(InvalidInputError, match=r"\[9\]"):
        features(_view({BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3)}))


def _booster(seed: int = 0) -> tuple[object, np.ndarray]:
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1, 3, size=(3000, FEATURE_COUNT))
    x[:, 0] = rng.integers(0, 2, size=3000)
    y = (x[:, 8] + 0.3 * x[:, 0] - x[:, 10] + rng.normal(0, 0.5, 3000) > 0).astype(float)
    settings = {"objective": "binary", "num_leaves": 15, "num_threads": 1, "verbose": -1,
                "deterministic": True, "force_row_wise": True, "seed": seed}  # fmt: skip
    return lgb.train(settings, lgb.Dataset(x, label=y), num_boost_round=30), x


def test_the_numpy_forest_gives_lightgbm_s_own_predictions() -> None:
    booster, x = _booster()
    data = model_json(booster, seed=0, games=1, positions=3000, breaker_wins=0.5, extra={})
    model = ValueModel.from_json(json.loads(json.dumps(data)))  # through the file's text
    assert model.trees == 30
    np.testing.assert_allclose(model.raw(x), booster.predict(x, raw_score=True), atol=1e-12)
    np.testing.assert_allclose(model.probability(x[:50]), booster.predict(x[:50]), atol=1e-12)
    with pytest.raises(InvalidInputError, match="NaN"):
        model.raw(np.full((1, FEATURE_COUNT), np.nan))
    with pytest.raises(InvalidInputError, match="shape"):
        model.raw(np.zeros((1, 3)))


def test_one_position_and_many_give_the_same_chance(positions: list[Position]) -> None:
    model = shipped_value_model()
    x = np.array([features(p) for p in positions])
    many = model.probability(x)
    one = np.array([model.game_win(p) for p in positions])
    np.testing.assert_allclose(one, many, atol=1e-12)
    assert ((one > 0) & (one < 1)).all()


def test_the_match_follows_from_the_game() -> None:
    one = MatchState.start(MatchConfig(players=("Ann", "Bob"), race_to=1))
    assert match_win_probability(one, 0.3, 0.6) == pytest.approx(0.3)
    two = MatchState.start(MatchConfig(players=("Ann", "Bob"), race_to=2))
    # Ann wins this game: 1-0, she needs one of the next two (each a coin toss).
    assert match_win_probability(two, 1.0, 0.5) == pytest.approx(0.75)
    assert match_win_probability(two, 0.5, 0.5) == pytest.approx(0.5)
    # Alternate breaks, breakers win 70%: after winning game 1 (Ann broke), Bob breaks game 2.
    # Ann wins game 2 with 0.3, else game 3 (Ann breaks) with 0.7: 0.3 + 0.7 * 0.7.
    assert match_win_probability(two, 1.0, 0.7) == pytest.approx(0.3 + 0.7 * 0.7)
    # The winner breaks: Ann breaks game 2 too.
    winner = MatchState.start(
        MatchConfig(players=("Ann", "Bob"), race_to=2, breaks=BreakRule.WINNER)
    )
    assert match_win_probability(winner, 1.0, 0.7) == pytest.approx(0.7 + 0.3 * 0.3)
    longer = MatchState.start(MatchConfig(players=("Ann", "Bob"), race_to=5))
    chances = [match_win_probability(longer, p, 0.55) for p in (0.1, 0.4, 0.6, 0.9)]
    assert chances == sorted(chances)
    assert 0.1 < chances[0] < 0.5 < chances[-1] < 0.9  # one game moves a long race less
    with pytest.raises(InvalidInputError, match=r"1\.5"):
        match_win_probability(longer, 1.5, 0.5)


def test_each_seat_s_chances_are_the_player_to_act_s_and_their_complements(
    positions: list[Position],
) -> None:
    model = shipped_value_model()
    for position in positions[:40]:
        me = position.state.to_act
        chances = model.seat_chances(position)
        assert chances.game[me] == model.game_win(position)
        assert chances.match[me] == pytest.approx(model.match_win(position), abs=1e-15)
        assert chances.game[me.other] == 1.0 - chances.game[me]
        assert chances.match[me.other] == 1.0 - chances.match[me]
        assert chances.of_seat(me) == (chances.game[me], chances.match[me])
    assert {p.state.to_act for p in positions[:40]} == {0, 1}  # both seats were seen
    assert SeatChances.of(Seat.SECOND, 0.25, 0.125).to_json() == {
        "game": [0.75, 0.25], "match": [0.875, 0.125]
    }  # fmt: skip


def test_a_bad_model_file_is_refused_by_name(tmp_path: Path) -> None:
    text = json.dumps({"format": "something-else"})
    (tmp_path / "a.json").write_text(text)
    with pytest.raises(InvalidInputError, match="something-else"):
        load_value_model(tmp_path / "a.json")
    booster, _ = _booster()
    data = model_json(booster, seed=0, games=1, positions=3000, breaker_wins=0.5, extra={})
    (tmp_path / "b.json").write_text(json.dumps({**data, "version": 99}))
    with pytest.raises(InvalidInputError, match="version 99"):
        load_value_model(tmp_path / "b.json")
    (tmp_path / "c.json").write_text(json.dumps({**data, "features": ["x"] * FEATURE_COUNT}))
    with pytest.raises(InvalidInputError, match="trained on features"):
        load_value_model(tmp_path / "c.json")
    broken = {**data, "trees": [{**data["trees"][0], "left": [99] * len(data["trees"][0]["left"])}]}
    (tmp_path / "d.json").write_text(json.dumps(broken))
    with pytest.raises(InvalidInputError, match="out of range"):
        load_value_model(tmp_path / "d.json")
    (tmp_path / "e.json").write_text("{")
    with pytest.raises(InvalidInputError, match=r"e\.json"):
        load_value_model(tmp_path / "e.json")


def test_the_shipped_model_says_what_it_is_and_beats_the_geometry() -> None:
    model = shipped_value_model()
    meta = model.meta
    assert meta["format"] == VALUE_FORMAT
    assert list(model.features) == NAMES
    assert model.positions >= 10_000
    assert meta["library"].startswith("lightgbm")
    assert set(meta["params"]) == set(TrainingParams.__dataclass_fields__)
    held = meta["held_out"]
    assert held["model"]["brier"] < held["heuristic"]["brier"]
    assert held["model"]["log_loss"] < held["heuristic"]["log_loss"]
    # Calibrated: in every well-filled bin the stated chance is within 3 points of the outcome.
    for decile in held["model"]["deciles"]:
        if decile["count"] >= 1000:
            assert abs(decile["stated"] - decile["observed"]) < 0.03


def test_a_level_may_value_its_leaves_by_the_model() -> None:
    # As shipped: pro values its leaves by the model (it beat itself with geometric leaves 226 of
    # 400 racks, docs/players.md); max stays geometric (no difference in 200 at twice the cost).
    assert {name for name, level in LEVELS.items() if level.leaves == "model"} == {"pro"}
    with pytest.raises(InvalidInputError, match="bogus"):
        replace(LEVELS["club"], leaves="bogus")
    layout = {BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)}
    learned = SearchPlayer(replace(LEVELS["club"], leaves="model"))
    ranked = learned.evaluate(_view(layout), np.random.default_rng(0))
    geometric = SearchPlayer(LEVELS["club"]).evaluate(_view(layout), np.random.default_rng(0))
    assert all(-1.0 <= c.value <= 1.0 for c in ranked)
    # The leaves' values are the model's, and the best shot still plays the 1 for a gain.
    assert [c.value for c in ranked] != [c.value for c in geometric]
    assert ranked[0].ball == 1
    assert ranked[0].value > 0.0


def test_the_docs_list_every_feature() -> None:
    text = (Path(__file__).resolve().parents[2] / "docs" / "players.md").read_text("utf-8")
    for k, feature in enumerate(FEATURES):
        row = f"| {k} | `{feature.name}` | {feature.unit} | {feature.meaning} |"
        assert row in text, row
