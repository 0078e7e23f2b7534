"""The research tasks pass Gymnasium's checker; the vector env agrees with the single ones."""

from __future__ import annotations

from typing import Any

import gymnasium as gym
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from gymnasium.vector import AutoresetMode

from nineball import InvalidInputError
from nineball.env import (
    BREAK_ENV_ID,
    POT_ENV_ID,
    RUN_OUT_ENV_ID,
    NineBallEnv,
    NineBallVectorEnv,
    TaskEnv,
    tables,
)
from nineball.errors import NineballError
from nineball.physics import batch


@pytest.mark.parametrize("task", ["pot", "runout", "break"])
def test_the_tasks_pass_the_gymnasium_checker(task: str) -> None:
    env = TaskEnv(task=task)
    check_env(env, skip_render_check=True)
    env.close()
    env.close()
    check_env(TaskEnv(task=task, flat=True), skip_render_check=True)


def _single(task: str, options: dict[str, Any]) -> gym.Env[Any, Any]:
    if task == "match":
        return NineBallEnv(**options)
    return TaskEnv(task=task, **options)


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(_equal(a[k], b[k]) for k in a)
    return bool(np.array_equal(a, b))


def _row(obs: Any, i: int) -> Any:
    return {k: v[i] for k, v in obs.items()} if isinstance(obs, dict) else obs[i]


@pytest.mark.parametrize(
    ("task", "options", "steps"),
    [
        ("pot", {"balls": 3}, 6),
        ("runout", {"max_strokes": 3}, 6),
        ("break", {"flat": True}, 4),
        ("match", {"opponent": "ghost", "max_strokes": 2}, 5),
    ],
)
def test_the_vector_env_agrees_with_the_single_env_step_for_step(
    task: str, options: dict[str, Any], steps: int, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(batch, "SMALL", 1)  # three tables through the compiled batch
    n, seed = 3, 40
    vector = NineBallVectorEnv(n, task=task, **options)
    singles = [_single(task, options) for _ in range(n)]
    obs, _ = vector.reset(seed=seed)
    for i, env in enumerate(singles):
        single_obs, _ = env.reset(seed=seed + i)
        assert _equal(_row(obs, i), single_obs)
    actions_rng = np.random.default_rng(seed)
    ended = [False] * n
    autoresets = 0
    for _ in range(steps):
        actions = actions_rng.uniform(-1, 1, (n, 8)).astype(np.float32)
        obs, rewards, terminated, truncated, _ = vector.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:  # the next step resets it, from its own generator: reward 0
                single_obs, _ = env.reset()
                reward, term, trunc = 0.0, False, False
                autoresets += 1
            else:
                single_obs, reward, term, trunc, _ = env.step(actions[i])
            assert _equal(_row(obs, i), single_obs)
            assert rewards[i] == reward
            assert terminated[i] == term
            assert truncated[i] == trunc
            ended[i] = term or trunc
    assert autoresets > 0  # the autoreset was exercised
    assert vector.metadata["autoreset_mode"] is AutoresetMode.NEXT_STEP


def _rollout(seed: int) -> list[float]:
    vector = NineBallVectorEnv(4, task="pot")
    obs, _ = vector.reset(seed=seed)
    rng = np.random.default_rng(0)
    out = [float(obs["balls"].sum())]
    for _ in range(3):
        obs, rewards, _, _, _ = vector.step(rng.uniform(-1, 1, (4, 8)))
        out += [float(obs["balls"].sum()), *map(float, rewards)]
    return out


def test_a_seeded_vector_env_replays_identically() -> None:
    assert _rollout(3) == _rollout(3)
    assert _rollout(3) != _rollout(4)


def test_make_vec_builds_the_native_vector_env_from_the_registry() -> None:
    for env_id in (POT_ENV_ID, RUN_OUT_ENV_ID, BREAK_ENV_ID):
        envs = gym.make_vec(env_id, num_envs=2)
        assert isinstance(envs.unwrapped, NineBallVectorEnv)
        obs, _ = envs.reset(seed=1)
        assert obs["balls"].shape == (2, 10, 3)
        assert envs.observation_space.contains(obs)
        envs.close()
    flat = gym.make_vec("nineball/NineBallFlat-v0", num_envs=2, opponent="ghost")
    obs, _ = flat.reset(seed=2)
    assert obs.shape == (2, 57)
    assert obs.dtype == np.float32
    flat.close()


def test_bad_actions_are_refused_and_change_nothing() -> None:
    vector = NineBallVectorEnv(2, task="pot")
    with pytest.raises(InvalidInputError, match="call reset"):
        vector.step(np.zeros((2, 8)))
    vector.reset(seed=5)
    bad = np.zeros((2, 8))
    bad[1, 2] = np.nan
    with pytest.raises(InvalidInputError, match="table 1: an action must be finite"):
        vector.step(bad)
    with pytest.raises(InvalidInputError, match=r"actions are \(2, 8\) numbers"):
        vector.step(np.zeros(8))
    assert [t.strokes for t in vector.tables] == [0, 0]
    with pytest.raises(InvalidInputError, match="num_envs"):
        NineBallVectorEnv(0)
    with pytest.raises(InvalidInputError, match="unknown task"):
        NineBallVectorEnv(2, task="snooker")
    with pytest.raises(InvalidInputError, match="balls"):
        NineBallVectorEnv(2, task="pot", balls=12)
    with pytest.raises(InvalidInputError, match="2 seeds for 3 tables"):
        NineBallVectorEnv(3, task="pot").reset(seed=[1, 2])


def _steps(vector: NineBallVectorEnv, seed: int, steps: int) -> list[Any]:
    obs, _ = vector.reset(seed=seed)
    out: list[Any] = [obs]
    rng = np.random.default_rng(seed)
    for _ in range(steps):
        out.append(vector.step(rng.uniform(-1, 1, (vector.num_envs, 8)).astype(np.float32))[:4])
    return out


@pytest.mark.parametrize(
    ("task", "options"),
    [("match", {"opponent": "ghost", "max_strokes": 3}), ("pot", {"balls": 2, "flat": True})],
)
def test_tables_spread_over_worker_processes_play_as_in_one(
    task: str, options: dict[str, Any]
) -> None:
    one = NineBallVectorEnv(5, task=task, **options)
    expected = _steps(one, 7, 6)
    spread = NineBallVectorEnv(5, task=task, workers=2, **options)
    try:
        assert spread.tables == []  # they live in the workers: tables 0-2 and 3-4
        got = _steps(spread, 7, 6)
        assert spread.observation_space.contains(got[0])
    finally:
        spread.close()
    for a, b in zip(expected, got, strict=True):
        parts_a = a if isinstance(a, tuple) else (a,)
        parts_b = b if isinstance(b, tuple) else (b,)
        assert all(_equal(x, y) for x, y in zip(parts_a, parts_b, strict=True))


def test_workers_refuse_bad_input_before_any_process_starts_and_report_a_dead_one() -> None:
    from nineball.errors import WorkerError

    for bad in (0, 3, "2", True):
        with pytest.raises(InvalidInputError, match="workers is a whole number from 1 to 2"):
            NineBallVectorEnv(2, task="pot", workers=bad)  # type: ignore[arg-type]
    with pytest.raises(InvalidInputError, match="balls"):
        NineBallVectorEnv(2, task="pot", balls=12, workers=2)
    vector = NineBallVectorEnv(2, task="pot", workers=2)
    try:
        vector.reset(seed=1)
        bad = np.zeros((2, 8))
        bad[1, 0] = np.inf
        with pytest.raises(InvalidInputError, match="table 1: an action must be finite"):
            vector.step(bad)
        vector.step(np.zeros((2, 8)))  # the refused step changed nothing: the workers go on
        assert vector._workers is not None
        victim = vector._workers._procs[1]
        victim.kill()
        victim.join()
        with pytest.raises(WorkerError, match="worker 1 died"):
            vector.step(np.zeros((2, 8)))
    finally:
        vector.close()


def test_a_match_the_opponent_won_from_its_break_is_racked_again_as_in_the_single_env(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # ghost breaks and runs out in the first match of seeds 200 and 364 (2 of the first 400):
    # the vector env plays every table's opening turns together, then racks those two again
    seeds: list[int | None] = [200, 3, 364]
    options: dict[str, Any] = {"opponent": "ghost", "breaker": "opponent", "max_strokes": 3}
    singles = [NineBallEnv(**options) for _ in seeds]
    started = [env.reset(seed=s) for env, s in zip(singles, seeds, strict=True)]
    assert [info["discarded"] for _, info in started] == [1, 0, 1]
    vector = NineBallVectorEnv(3, **options)
    obs, _ = vector.reset(seed=seeds)
    for i, (single_obs, _) in enumerate(started):
        assert _equal(_row(obs, i), single_obs)
        assert vector.tables[i].match.layout == singles[i].match.layout
    actions_rng = np.random.default_rng(0)
    ended = [False] * 3
    for _ in range(5):
        actions = actions_rng.uniform(-1, 1, (3, 8)).astype(np.float32)
        obs, rewards, terminated, truncated, _ = vector.step(actions)
        for i, env in enumerate(singles):
            if ended[i]:
                single_obs, _ = env.reset()
                reward, term, trunc = 0.0, False, False
            else:
                single_obs, reward, term, trunc, _ = env.step(actions[i])
            assert _equal(_row(obs, i), single_obs)
            assert (rewards[i], terminated[i], truncated[i]) == (reward, term, trunc)
            ended[i] = term or trunc
    monkeypatch.setattr(tables, "MAX_RACKS", 1)
    with pytest.raises(NineballError, match=r"'ghost' won \d+ matches in a row"):
        vector.reset(seed=seeds)
