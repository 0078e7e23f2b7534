"""The RL environments pass the Gymnasium and PettingZoo checkers and behave as documented."""

from __future__ import annotations

import itertools
import math

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

from nineball import InvalidInputError
from nineball.env import ENV_ID, NineBallAEC, NineBallEnv, aec_env
from nineball.env.vector import NineBallVectorEnv
from nineball.game import Match, Phase, Seat, Stroke


def test_gymnasium_check_env() -> None:
    env = NineBallEnv(opponent="beginner")
    check_env(env, skip_render_check=True)
    env.close()
    env.close()  # harmless twice


def test_registered_id() -> None:
    env = gym.make(ENV_ID, opponent="ghost")
    obs, info = env.reset(seed=3)
    assert obs["action_parts"].sum() > 0
    assert info["phase"] in ("stroke", "declare", "choice")
    env.close()


def _episode(seed: int) -> list[float]:
    env = NineBallEnv(opponent="beginner", shaping=True)
    obs, _ = env.reset(seed=seed)
    env.action_space.seed(seed)
    rewards = []
    for _ in range(60):
        obs, reward, terminated, truncated, _ = env.step(env.action_space.sample())
        rewards.append(float(reward))
        if terminated or truncated:
            break
    return [*rewards, float(obs["balls"].sum())]


def test_a_seeded_episode_is_replayed_identically() -> None:
    assert _episode(5) == _episode(5)


def test_bad_actions_raise_and_change_nothing() -> None:
    env = NineBallEnv(opponent="beginner")
    _obs, _ = env.reset(seed=1)
    before = env.match.record
    for action in ([0.0] * 7, [float("nan")] * 8, [float("inf")] * 8, ["a"] * 8):
        with pytest.raises(InvalidInputError, match="an action"):
            env.step(np.array(action, dtype=object))
    assert env.match.record == before
    env.step(np.zeros(8, dtype=np.float32))  # the episode goes on
    assert env.match.record != before
    with pytest.raises(InvalidInputError, match="call reset"):
        NineBallEnv().step(np.zeros(8, dtype=np.float32))
    with pytest.raises(InvalidInputError, match="unknown opponent"):
        NineBallEnv(opponent="shark")


def test_the_declare_phase_leads_to_a_push_out() -> None:
    env = NineBallEnv(opponent="ghost", breaker="opponent", noise=None)
    for seed in range(12):
        obs, info = env.reset(seed=seed)
        if info["phase"] == "declare":
            break
    else:  # pragma: no cover - every seed gave a foul break or a run-out
        raise AssertionError("no seed left the agent a push out to declare")
    assert obs["action_parts"].tolist() == [0, 0, 0, 0, 0, 0, 0, 1]
    before = len(env.match.record.games[-1].shots)
    declare = np.zeros(8, dtype=np.float32)
    declare[7] = 1.0
    obs, _, _, _, info = env.step(declare)
    assert info["phase"] == "stroke"
    assert len(env.match.record.games[-1].shots) == before  # declaring plays nothing
    soft = np.array([0.5, -1, -0.9, 0, 0, 0, 0, 0], dtype=np.float32)
    env.step(soft)
    pushed = [s for s in env.match.record.games[-1].shots if s.push_out]
    assert len(pushed) == 1


def _opponent_pushes_out(match: Match) -> None:
    """The agent breaks, then the opponent pushes out: the agent is to choose."""
    match.strike(Stroke(speed=7.0, aim=math.pi / 2), cue=(0.635, 0.5))
    assert match.state.to_act is Seat.SECOND
    assert match.state.push_out_allowed
    match.strike(Stroke(speed=0.5, aim=0.3), push_out=True)
    assert match.state.phase is Phase.PUSH_OUT_CHOICE
    assert match.state.to_act is Seat.FIRST


@pytest.mark.parametrize("vector", [False, True])
def test_passing_a_push_out_back_lets_the_opponent_shoot(vector: bool) -> None:
    passed = np.zeros(8, dtype=np.float32)
    passed[0] = -1.0  # pass: the opponent must shoot from where its push out left the balls
    if vector:
        envs = NineBallVectorEnv(1, opponent="ghost", breaker="agent", noise=None)
        envs.reset(seed=0)
        match = envs.tables[0].match
        _opponent_pushes_out(match)
        envs.step(passed[None, :])
    else:
        env = NineBallEnv(opponent="ghost", breaker="agent", noise=None)
        env.reset(seed=0)
        match = env.match
        _opponent_pushes_out(match)
        env.step(passed)
    shots = match.record.games[-1].shots
    # the pass, then the opponent's stroke: the agent is never asked to play the opponent's turn
    assert shots[-1].player is Seat.SECOND
    assert shots[-1].stroke is not None
    assert not shots[-1].push_out
    assert match.state.is_over or match.state.to_act is Seat.FIRST


def test_render_modes() -> None:
    env = NineBallEnv(opponent="beginner", render_mode="ansi")
    env.reset(seed=0)
    text = env.render()
    assert isinstance(text, str)
    assert "score" in text
    env = NineBallEnv(opponent="beginner", render_mode="rgb_array")
    env.reset(seed=0)
    image = env.render()
    assert isinstance(image, np.ndarray)
    assert image.ndim == 3
    assert image.shape[2] == 3


@pytest.mark.filterwarnings("ignore::UserWarning:pettingzoo.test.api_test")
def test_pettingzoo_api_and_seed() -> None:
    api_test(aec_env(), num_cycles=40)
    seed_test(lambda: aec_env(), num_cycles=20)


def test_the_agent_to_act_is_the_shooter_under_the_rules() -> None:
    env = NineBallAEC(noise=None)
    env.reset(seed=4)
    seen = []
    rng = np.random.default_rng(0)
    for _ in range(40):
        _, _, terminated, truncated, _ = env.last()
        if terminated or truncated:
            break
        agent = env.agent_selection
        assert agent == ("player_0", "player_1")[env.match.state.to_act]
        seen.append(agent)
        action = rng.uniform(-1, 1, 8).astype(np.float32)
        if len(seen) == 1:  # a firm break straight up the table from the kitchen's middle
            action = np.array([0.5, -1, 0.7, 0, 0, 0, 0, 0], dtype=np.float32)
        env.step(action)
    assert set(seen) == {"player_0", "player_1"}
    # After a legal break someone acts twice in a row: the breaker who pocketed a ball, or the
    # incoming player (the push-out declaration, then the stroke).
    assert any(a == b for a, b in itertools.pairwise(seen))


def test_a_tiny_training_loop_runs_and_learns_something() -> None:
    """Cross-entropy search of a linear policy: a few episodes, the parameters move, it runs."""
    env = NineBallEnv(opponent="beginner", shaping=True, max_strokes=12)
    rng = np.random.default_rng(0)
    features = 10 * 3 + 9 + 3 + 3
    mean, std = np.zeros((8, features)), np.full((8, features), 0.3)

    def episode(weights: np.ndarray, seed: int) -> float:
        obs, _ = env.reset(seed=seed)
        total = 0.0
        for _ in range(12):
            x = np.concatenate([obs["balls"].ravel(), obs["lowest"], obs["phase"], obs["in_hand"]])
            action = np.tanh(weights @ x).astype(np.float32)
            obs, reward, terminated, truncated, _ = env.step(action)
            total += float(reward)
            if terminated or truncated:
                break
        return total

    start = mean.copy()
    for generation in range(2):
        samples = [mean + std * rng.standard_normal(mean.shape) for _ in range(3)]
        scores = [episode(w, seed=generation) for w in samples]
        best = samples[int(np.argmax(scores))]
        mean, std = 0.5 * mean + 0.5 * best, std * 0.8
    assert not np.allclose(mean, start)
    assert np.all(np.isfinite(mean))


def test_a_ball_in_hand_put_on_a_ball_goes_to_the_nearest_free_spot() -> None:
    from nineball.env.spaces import decode_placement
    from nineball.errors import InvalidPlacementError
    from nineball.game import CueBall
    from nineball.game.layout import check_cue_placement

    env = NineBallEnv(opponent="ghost")
    env.reset(seed=5)
    rng = np.random.default_rng(5)
    for _ in range(3000):  # random strokes until the ghost fouls: the agent's ball in hand
        match = env._table.match
        if match.state.cue_ball is CueBall.ANYWHERE and match.state.to_act is Seat.FIRST:
            break
        _, _, terminated, truncated, _ = env.step(rng.uniform(-1, 1, 8).astype(np.float32))
        if terminated or truncated:
            env.reset()
    else:
        pytest.fail("no ball in hand for the agent in 3000 seeded steps")
    table, r = match.table, match.params.radius
    others = {b: p for b, p in match.layout.items() if b != 0}
    grid = [
        (float(x), float(y))
        for x in np.linspace(r, table.width - r, 41)
        for y in np.linspace(r, table.length - r, 61)
    ]
    for bx, by in others.values():  # the cue ball put on each object ball
        action = np.zeros(8)
        action[5] = 2 * (bx - r) / (table.width - 2 * r) - 1
        action[6] = 2 * (by - r) / (table.length - 2 * r) - 1
        x = r + (table.width - 2 * r) * (action[5] + 1) / 2
        y = r + (table.length - 2 * r) * (action[6] + 1) / 2
        spot = decode_placement(action, match)
        match.check_cue_ball(spot)  # legal
        assert spot in grid
        assert math.dist(spot, (bx, by)) > 2 * r
        for other in grid:  # and no free spot of the grid is nearer
            if math.hypot(other[0] - x, other[1] - y) < math.hypot(spot[0] - x, spot[1] - y):
                with pytest.raises(InvalidPlacementError):
                    check_cue_placement(other, others, CueBall.ANYWHERE, table, match.params)
