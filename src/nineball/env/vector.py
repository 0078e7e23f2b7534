"""A native vector environment: ``num_envs`` tables whose strokes are simulated in one batch."""

from __future__ import annotations

from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from gymnasium.vector import AutoresetMode, VectorEnv
from gymnasium.vector.utils import batch_space
from numpy.typing import NDArray

from nineball.env.spaces import (
    Turns,
    action_space,
    check_action,
    check_count,
    observation_space,
)
from nineball.env.tables import (
    MatchTable,
    Observation,
    Racking,
    Table,
    make_table,
    open_matches,
)
from nineball.env.workers import Workers, joined
from nineball.errors import InvalidInputError
from nineball.game import Choice, Seat, Stroke
from nineball.game.match import ShotReport
from nineball.game.strikes import strike_matches
from nineball.players.base import Decision
from nineball.players.play import carry_out, decide_turn
from nineball.players.registry import make_player

__all__ = ["NineBallVectorEnv"]


class NineBallVectorEnv(VectorEnv[Any, NDArray[np.float32], NDArray[Any]]):
    """``num_envs`` tables of one task, stepped together; the strokes simulated in one batch.

    Not a wrapper around single environments: each step applies every table's action, then
    simulates all the strokes they play in one compiled call over the cores
    (:func:`nineball.game.strikes.strike_matches`), then rules on each and ends each table's
    step. Table i behaves exactly as the single environment of the same task and options
    (:class:`~nineball.env.NineBallEnv` for ``task="match"``, else
    :class:`~nineball.env.TaskEnv`) reset with seed ``seed + i``: the same observations,
    rewards, terminations and truncations, bit for bit. In the full match the opponents decide
    one table after another (the computer players are Python), and their strokes too are
    simulated together, a round of turns at a time; so are the opening turns of the tables
    being reset (when the opponent breaks).

    Autoreset: ``AutoresetMode.NEXT_STEP`` (Gymnasium's default): the step after a table's
    episode ended resets that table from its own generator (its action is ignored) and returns
    the new episode's first observation with reward 0 and neither ended.

    ``workers=k`` (from 1 to the number of tables) spreads the tables over ``k`` processes,
    contiguous shares of them (:mod:`nineball.env.workers`): the Python of a step then runs on
    ``k`` cores, with the same results bit for bit. The tables then live in those processes
    (``tables`` is empty here); :meth:`close` stops them.

    ``reset(seed=s)`` seeds table i with ``s + i`` (a list of seeds, one per table, is taken
    too); ``reset()`` without a seed goes on with each table's generator, as a single
    environment's does. Observations: the Dict of the single environment with a leading
    dimension of ``num_envs``, or with ``flat=True`` a ``(num_envs, 57)`` float32 Box. Infos
    are empty.

    Raises (construction):
        InvalidInputError: ``num_envs`` not a whole number from 1 to 4096, ``workers`` not
            one from 1 to ``num_envs``, an unknown task or a bad option of the task
            (:func:`nineball.env.tables.make_table`).
        WorkerError: a worker process could not start.
    """

    metadata = {"autoreset_mode": AutoresetMode.NEXT_STEP, "render_modes": []}  # noqa: RUF012

    def __init__(
        self,
        num_envs: int = 8,
        *,
        task: str = "match",
        flat: bool = False,
        workers: int = 1,
        **options: Any,
    ) -> None:
        """Make ``num_envs`` tables of ``task`` with ``options``, in ``workers`` processes."""
        check_count(num_envs, "num_envs", 4096)
        check_count(workers, "workers", num_envs)
        if not isinstance(flat, bool):
            raise InvalidInputError(f"flat is True or False, got {flat!r}")
        options.pop("max_episode_steps", None)  # a registration's, none of ours
        self.tables: list[Table] = [
            make_table(task, **options) for _ in range(num_envs if workers == 1 else 1)
        ]  # with workers, one table made here checks the options before any process starts
        self._workers: Workers | None = None
        if workers > 1:
            self.tables = []
            self._workers = Workers(num_envs, workers, {"task": task, "flat": flat, **options})
        self.task = task
        self.num_envs = num_envs
        self.flat = flat
        self.dict_observation_space = observation_space()
        """One table's observation Dict (what a flat observation unflattens to)."""
        single: spaces.Space[Any] = (
            spaces.flatten_space(self.dict_observation_space)
            if flat
            else self.dict_observation_space
        )
        self.single_observation_space = single
        self.observation_space = batch_space(single, num_envs)
        self.single_action_space = action_space()
        self.action_space = batch_space(self.single_action_space, num_envs)
        self._rngs: list[np.random.Generator | None] = [None] * num_envs
        self._ended = np.zeros(num_envs, dtype=np.bool_)
        self._started = False

    def _observe(self, observations: list[Observation | NDArray[np.float32]]) -> Any:
        if self.flat:
            return np.stack(observations)  # type: ignore[arg-type]
        dicts: list[Observation] = observations  # type: ignore[assignment]
        return {key: np.stack([o[key] for o in dicts]) for key in dicts[0]}

    def _start_resets(self, indices: list[int], seeds: list[int | None]) -> list[Racking]:
        """Reset tables ``indices`` (table i from ``seeds[i]``, or its own generator).

        A match table is only racked and returned: :func:`open_matches` then plays every such
        table's opening turns together (:func:`_opponents_move`), as :meth:`MatchTable.reset`
        plays one table's.
        """
        racking: list[Racking] = []
        for i, seed in zip(indices, seeds, strict=True):
            rng = self._rngs[i]
            if seed is not None or rng is None:
                rng, _ = seeding.np_random(seed)
                self._rngs[i] = rng
            table = self.tables[i]
            if isinstance(table, MatchTable):
                table.clear()
                first = table.first_breaker(rng)
                table.rack(rng, first)
                racking.append((table, first, rng))
            else:
                table.reset(rng)
        return racking

    def reset(
        self, *, seed: int | list[int | None] | None = None, options: dict[str, Any] | None = None
    ) -> tuple[Any, dict[str, Any]]:
        """Start an episode on every table.

        Raises:
            InvalidInputError: a list of seeds not one per table.
        """
        if seed is None or isinstance(seed, int):
            seeds: list[int | None] = [
                None if seed is None else seed + i for i in range(self.num_envs)
            ]
        else:
            seeds = list(seed)
            if len(seeds) != self.num_envs:
                raise InvalidInputError(f"{len(seeds)} seeds for {self.num_envs} tables")
        super().reset(seed=seeds[0])
        if self._workers is not None:
            parts = self._workers.reset(seeds)
            self._ended[:] = False
            self._started = True
            return joined([obs for obs, _ in parts]), {}
        open_matches(self._start_resets(list(range(self.num_envs)), seeds), _opponents_move)
        observations = [table.observe(self.flat) for table in self.tables]
        self._ended[:] = False
        self._started = True
        return self._observe(observations), {}

    def step(
        self, actions: NDArray[np.float32]
    ) -> tuple[Any, NDArray[Any], NDArray[Any], NDArray[Any], dict[str, Any]]:
        """Act on every table: strokes simulated together, then the rulings and the rewards.

        Raises:
            InvalidInputError: a step before :meth:`reset`, actions not of shape
                (num_envs, 8), or a table's action not finite (naming the table); nothing
                changes.
        """
        if not self._started:
            raise InvalidInputError("call reset() before step()")
        array = np.asarray(actions)
        if array.ndim != 2 or array.shape[0] != self.num_envs:
            raise InvalidInputError(
                f"actions are ({self.num_envs}, 8) numbers, got shape {array.shape}"
            )
        checked = []
        for i in range(self.num_envs):
            try:
                checked.append(check_action(array[i]))
            except InvalidInputError as error:
                raise InvalidInputError(f"table {i}: {error}") from None
        if self._workers is not None:
            parts = self._workers.step(array)
            ended = [np.concatenate([p[k] for p in parts]) for k in (2, 3)]
            self._ended = ended[0] | ended[1]
            rewards = np.concatenate([p[1] for p in parts])
            return joined([p[0] for p in parts]), rewards, ended[0], ended[1], {}
        n = self.num_envs
        rewards = np.zeros(n, dtype=np.float64)
        terminated = np.zeros(n, dtype=np.bool_)
        truncated = np.zeros(n, dtype=np.bool_)
        observations: list[Observation | NDArray[np.float32] | None] = [None] * n
        stepping: list[int] = []
        resetting: list[int] = []
        strokes: list[tuple[int, Stroke, bool]] = []
        for i, table in enumerate(self.tables):
            if self._ended[i]:
                resetting.append(i)
                continue
            stepping.append(i)
            got = table.begin(checked[i])
            if got is not None:
                strokes.append((i, *got))
        reports: dict[int, ShotReport] = {}
        if strokes:
            played = strike_matches(
                [self.tables[i].match for i, _, _ in strokes],
                [stroke for _, stroke, _ in strokes],
                push_outs=[push for _, _, push in strokes],
                noises=[self.tables[i].noise for i, _, _ in strokes],
            )
            reports = {i: report for (i, _, _), report in zip(strokes, played, strict=True)}
        scored = {i: self.tables[i].scored(reports.get(i)) for i in stepping}
        _opponents_move(
            [
                table
                for i in stepping
                if isinstance(table := self.tables[i], MatchTable) and table.waits_for_opponent()
            ]
        )
        open_matches(self._start_resets(resetting, [None] * len(resetting)), _opponents_move)
        for i in resetting:
            observations[i] = self.tables[i].observe(self.flat)
        for i in stepping:
            table = self.tables[i]
            rewards[i], terminated[i], truncated[i] = table.ended(scored[i])
            observations[i] = table.observe(self.flat)
        self._ended = terminated | truncated
        return self._observe(observations), rewards, terminated, truncated, {}  # type: ignore[arg-type]

    def close_extras(self, **kwargs: Any) -> None:
        """Stop the worker processes, if any."""
        self._started = False
        if self._workers is not None:
            self._workers.close()
            self._workers = None


def _opponents_move(tables: list[MatchTable]) -> None:
    """:meth:`MatchTable.opponent_moves` on every table, the opponents' strokes in batches.

    In rounds: each opponent still to act decides (one table after another: the players are
    Python), answers a push out at once, and the strokes of the round are simulated together
    (:func:`strike_matches`); each table ends as its own ``opponent_moves`` leaves it.
    """
    if not tables:
        return
    players = [make_player(t.opponent) for t in tables]
    waiting = list(range(len(tables)))
    while True:
        waiting = [
            q
            for q in waiting
            if not tables[q].match.state.is_over and tables[q].match.state.to_act is Seat.SECOND
        ]
        if not waiting:
            break
        strikes: list[tuple[int, Decision]] = []
        for q in waiting:
            match, player = tables[q].match, players[q]
            decided = decide_turn(match, player)
            if isinstance(decided, Choice):
                tables[q].ruling = carry_out(match, player, decided).ruling
                continue
            if decided.cue_ball is not None:
                match.place_cue_ball(decided.cue_ball)
            strikes.append((q, decided))
        if strikes:
            reports = strike_matches(
                [tables[q].match for q, _ in strikes],
                [d.stroke for _, d in strikes],
                push_outs=[d.push_out for _, d in strikes],
                safeties=[d.safety for _, d in strikes],
                noises=[None if d.lost else players[q].noise for q, d in strikes],
            )
            for (q, _), report in zip(strikes, reports, strict=True):
                tables[q].ruling = report.ruling
    for table in tables:
        table.turns = Turns()
