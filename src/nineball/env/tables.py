"""The tables of the environments: one episode's match, its reward and its end, per task.

A :class:`Table` is what one environment plays: a :class:`~nineball.game.Match`, the agent's
phases (:class:`~nineball.env.spaces.Turns`) and the strokes taken. A step is split in two so
that many tables can share one batched simulation: :meth:`Table.begin` applies a checked
action and gives back the stroke to play (or None when the action played none: a push-out
declaration or a shoot-or-pass answer), and :meth:`Table.end` takes the stroke's report and
gives the reward and whether the episode ended. The single environments play the stroke with
:meth:`Match.strike <nineball.game.Match.strike>`, the vector environment
(:mod:`nineball.env.vector`) every table's at once with
:func:`~nineball.game.strikes.strike_matches`; both give the same reports, bit for bit.

The tasks (:data:`TASKS`):

========  ==========================================================================  ============
task      the episode                                                                 reward
========  ==========================================================================  ============
match     a match against a computer player (:class:`MatchTable`, the rules of        +1 win,
          :class:`~nineball.env.NineBallEnv`)                                         -1 loss
pot       the cue ball and ``balls`` object balls (the 9 among them) at random; one   +1 the
          stroke                                                                      lowest
                                                                                      legally in
runout    the nine object balls at random, the cue ball in hand anywhere; the agent   +0.1 a ball,
          shoots until its turn ends (a miss or a foul) or it pockets the 9           +1 the game
break     a fresh rack, the cue ball in hand in the kitchen; one stroke: the break    +1 keeps the
                                                                                      table, -1 a
                                                                                      foul
========  ==========================================================================  ============
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable
from typing import Any

import numpy as np
from gymnasium import spaces
from numpy.typing import NDArray

from nineball.env.spaces import (
    EnvPhase,
    Turns,
    check_count,
    encode,
    explained,
    observation_space,
)
from nineball.equipment import BallId, Point
from nineball.errors import InvalidInputError, InvalidPlacementError, NineballError
from nineball.game import CueBall, MatchConfig, Ruling, Seat, Stroke
from nineball.game.layout import check_placement
from nineball.game.match import Match, ShotReport
from nineball.game.noise import TOURNAMENT_NOISE, ExecutionNoise
from nineball.players.play import play_turn
from nineball.players.registry import PLAYERS, make_player

__all__ = [
    "MAX_RACKS",
    "TASKS",
    "BreakTable",
    "MatchTable",
    "PotTable",
    "Racking",
    "RunOutTable",
    "Table",
    "make_table",
    "open_matches",
]

MAX_RACKS = 100
"""How many matches a reset racks, at most, to find one the opponent has not won already."""

Observation = dict[str, NDArray[Any]]


def _noise(noise: str | None) -> ExecutionNoise | None:
    if noise not in ("tournament", None):
        raise InvalidInputError(f"noise is 'tournament' or None, got {noise!r}")
    return TOURNAMENT_NOISE if noise == "tournament" else None


class Table(ABC):
    """One environment's table: the episode's match, the agent's phases, the strokes taken."""

    task: str = ""
    """The task's name in :data:`TASKS`."""

    def __init__(self, *, noise: str | None = "tournament", max_strokes: int = 200) -> None:
        """Check the common arguments.

        Raises:
            InvalidInputError: an unknown noise, or a stroke cap that is not a whole number.
        """
        check_count(max_strokes, "max_strokes", 10**9)
        self.noise = _noise(noise)
        """The agent's execution noise."""
        self.max_strokes = max_strokes
        self._match: Match | None = None
        self.turns = Turns()
        self.strokes = 0
        self.ruling: Ruling | None = None
        """The last ruling (None before the first, or after an action that ruled nothing)."""
        self._space = observation_space()

    @property
    def last(self) -> str:
        """The last ruling's explanation (English), written when asked for ("" if none)."""
        return explained(self.ruling)

    @property
    def match(self) -> Match:
        """The episode's match (after :meth:`reset`)."""
        if self._match is None:
            raise InvalidInputError("call reset() before step()")
        return self._match

    def reset(self, rng: np.random.Generator) -> dict[str, Any]:
        """Start an episode from ``rng``: the match ready for the agent; the info."""
        self.clear()
        extra = self._start(rng)
        return self.info() | extra

    def clear(self) -> None:
        """Forget the episode's phases, strokes and ruling (the first part of a reset)."""
        self.turns = Turns()
        self.strokes = 0
        self.ruling = None

    @abstractmethod
    def _start(self, rng: np.random.Generator) -> dict[str, Any]:
        """Set :attr:`_match` to the episode's match, ready for the agent; extra info."""

    def begin(self, action: NDArray[np.float64]) -> tuple[Stroke, bool] | None:
        """Apply a checked action: the stroke and push-out flag to play, or None (played none).

        Raises:
            InvalidInputError: the episode is over.
        """
        match = self.match
        if match.state.is_over or self._ended():
            raise InvalidInputError("the episode is over: call reset()")
        self.strokes += 1
        got = self.turns.stroke_of(match, action)
        if not isinstance(got, tuple):
            self.ruling = got
            return None
        return got

    def end(self, report: ShotReport | None) -> tuple[float, bool, bool]:
        """The reward, terminated and truncated, given the report of :meth:`begin`'s stroke.

        ``report`` is None when :meth:`begin` asked for no stroke. The three steps of the
        end: :meth:`scored`, the opponent's turns (:meth:`opponent_moves`), :meth:`ended`.
        """
        reward = self.scored(report)
        if self.waits_for_opponent():
            self.opponent_moves()
        return self.ended(reward)

    def scored(self, report: ShotReport | None) -> float:
        """The reward of the agent's stroke itself (before any opponent's turn)."""
        if report is not None:
            self.ruling = report.ruling
        return self._scored(report)

    def _scored(self, report: ShotReport | None) -> float:
        return 0.0

    def waits_for_opponent(self) -> bool:
        """Whether a computer opponent plays now (only in the full match)."""
        return False

    def opponent_moves(self) -> None:
        """Let the opponent play until the agent's turn (none but in the full match)."""
        return None

    def ended(self, reward: float) -> tuple[float, bool, bool]:
        """The step's reward (``reward`` and the end's), terminated and truncated."""
        more, terminated = self._ended_reward()
        truncated = not terminated and self.strokes >= self.max_strokes
        return reward + more, terminated, truncated

    def _ended(self) -> bool:
        """Whether the task's episode ended with the match still on."""
        return False

    @abstractmethod
    def _ended_reward(self) -> tuple[float, bool]:
        """The reward of the episode's end, if it ended now, and whether it did."""

    def phase(self) -> EnvPhase:
        """What the agent decides now."""
        return self.turns.phase(self.match)

    def observe(self, flat: bool) -> Observation | NDArray[np.float32]:
        """The agent's observation (one Box when ``flat``)."""
        observation = encode(self.match, Seat.FIRST, self.phase())
        if flat:
            return np.asarray(spaces.flatten(self._space, observation), dtype=np.float32)
        return observation

    def info(self) -> dict[str, Any]:
        """The phase, the score and the last ruling's explanation."""
        state = self.match.state
        return {"phase": self.phase().name.lower(), "score": state.score, "ruling": self.last}


class MatchTable(Table):
    """A match against a computer player: the task of :class:`~nineball.env.NineBallEnv`.

    Rewards: +1 when the agent wins the match, -1 when it loses; with ``shaping`` also +0.1
    per object ball pocketed on a legal stroke and -0.1 per foul. Ends when the match does.
    """

    task = "match"

    def __init__(
        self,
        *,
        opponent: str = "club",
        race_to: int = 1,
        noise: str | None = "tournament",
        shaping: bool = False,
        max_strokes: int = 200,
        breaker: str = "random",
    ) -> None:
        """Set the opponent and the rules of the episode.

        Raises:
            InvalidInputError: an unknown opponent, noise or breaker, a race or a stroke cap
                that is not a positive whole number.
        """
        check_count(race_to, "race_to", 99)
        if not isinstance(opponent, str) or opponent not in PLAYERS:
            raise InvalidInputError(f"unknown opponent {opponent!r} (known: {', '.join(PLAYERS)})")
        super().__init__(noise=noise, max_strokes=max_strokes)
        if not isinstance(shaping, bool):
            raise InvalidInputError(f"shaping is True or False, got {shaping!r}")
        if breaker not in ("random", "agent", "opponent"):
            raise InvalidInputError(f"breaker is random, agent or opponent, got {breaker!r}")
        self.opponent = opponent
        self.race_to = race_to
        self.shaping = shaping
        self.breaker = breaker

    def _start(self, rng: np.random.Generator) -> dict[str, Any]:
        first = self.first_breaker(rng)
        self.rack(rng, first)
        (discarded,) = open_matches([(self, first, rng)], _one_by_one)
        return {"discarded": discarded}

    def first_breaker(self, rng: np.random.Generator) -> Seat:
        """Who breaks the episode's matches (drawn from ``rng`` when ``breaker="random"``)."""
        if self.breaker == "random":
            return Seat(int(rng.integers(2)))
        return Seat.FIRST if self.breaker == "agent" else Seat.SECOND

    def rack(self, rng: np.random.Generator, first: Seat) -> None:
        """A new match, ``first`` to break, on a seed drawn from ``rng``; no stroke played yet.

        :func:`open_matches` racks again while the opponent wins before the agent acts.
        """
        config = MatchConfig(
            players=("agent", self.opponent), race_to=self.race_to, first_breaker=first
        )
        self._match = Match(
            config, seed=int(rng.integers(0, 2**62)), agents=("agent", self.opponent)
        )
        self.strokes = 0
        self.ruling = None

    def opponent_moves(self) -> None:
        """Let the computer play until it is the agent's turn (or the match is over)."""
        match = self.match
        opponent = make_player(self.opponent)
        while not match.state.is_over and match.state.to_act is Seat.SECOND:
            turn = play_turn(match, opponent)
            self.ruling = turn.ruling
        self.turns = Turns()

    def _scored(self, report: ShotReport | None) -> float:
        if report is None or not self.shaping:
            return 0.0
        if report.ruling.fouls:
            return -0.1
        if report.shot.push_out:
            return 0.0
        return 0.1 * len(report.facts.pocketed_object_balls)

    def waits_for_opponent(self) -> bool:
        """Whether the opponent is to act: after the agent's stroke, or its pass of a push out."""
        state = self.match.state
        return not state.is_over and state.to_act is Seat.SECOND

    def _ended_reward(self) -> tuple[float, bool]:
        state = self.match.state
        if not state.is_over:
            return 0.0, False
        return (1.0 if state.winner is Seat.FIRST else -1.0), True


Racking = tuple[MatchTable, Seat, np.random.Generator]
"""A match table being reset: the table (racked), who breaks its matches, its generator."""


def open_matches(racking: list[Racking], move: Callable[[list[MatchTable]], None]) -> list[int]:
    """Let each racked table's opponent play its opening turns, racking again while it wins.

    ``move`` plays the opponents of the tables it is given until the agent is to act (one table
    after another, or the vector environment's rounds of batched strokes). A match the opponent
    wins before the agent acts is thrown away and another racked from the table's generator,
    up to :data:`MAX_RACKS` racks a table. Returns how many each table threw away.

    Raises:
        NineballError: a table whose opponent won every one of its racks.
    """
    discarded = [0] * len(racking)
    pending = list(range(len(racking)))
    for attempt in range(MAX_RACKS):
        if attempt:
            for q in pending:
                table, first, rng = racking[q]
                table.rack(rng, first)
                discarded[q] += 1
        move([racking[q][0] for q in pending])
        pending = [q for q in pending if racking[q][0].match.state.is_over]
        if not pending:
            return discarded
    opponent = racking[pending[0]][0].opponent
    raise NineballError(
        f"the opponent {opponent!r} won {MAX_RACKS} matches in a row before the agent could act"
    )


def _one_by_one(tables: list[MatchTable]) -> None:
    for table in tables:
        table.opponent_moves()


def _scatter(balls: list[BallId], rng: np.random.Generator, match: Match) -> dict[BallId, Point]:
    """``balls`` put at random on the playing surface, each clear of the others."""
    table, params = match.table, match.params
    r = params.radius
    placed: dict[BallId, Point] = {}
    for ball in balls:
        while True:
            x = float(rng.uniform(r, table.width - r))
            y = float(rng.uniform(r, table.length - r))
            try:
                check_placement(ball, (x, y), placed, CueBall.ANYWHERE, table, params)
            except InvalidPlacementError:
                continue
            placed[ball] = (x, y)
            break
    return placed


def _practice(rng: np.random.Generator) -> Match:
    """A match of one game against no one, on its own seed from ``rng``."""
    config = MatchConfig(players=("agent", "nobody"), race_to=1, first_breaker=Seat.FIRST)
    return Match(config, seed=int(rng.integers(0, 2**62)))


class PotTable(Table):
    """Pot one ball: the cue ball and ``balls`` object balls at random, one stroke.

    The object balls are the 9 and ``balls - 1`` others drawn from the 1-8, all placed
    uniformly on the playing surface (clear of each other), the cue ball too; the agent must
    pot the lowest. Reward: +1 when the stroke is legal and pockets the lowest ball, else 0.
    Ends (terminated) after the one stroke.
    """

    task = "pot"

    def __init__(
        self, *, balls: int = 1, noise: str | None = "tournament", max_strokes: int = 1
    ) -> None:
        """Set the number of object balls (1-9).

        Raises:
            InvalidInputError: ``balls`` not 1-9, or the common arguments (:class:`Table`).
        """
        check_count(balls, "balls", 9)
        super().__init__(noise=noise, max_strokes=max_strokes)
        self.balls = balls
        self._target = BallId.NINE

    def _start(self, rng: np.random.Generator) -> dict[str, Any]:
        match = _practice(rng)
        others = [BallId(int(b)) for b in rng.choice(np.arange(1, 9), self.balls - 1, False)]
        objects = sorted([*others, BallId.NINE])
        match.set_position(_scatter([BallId.CUE, *objects], rng, match))
        self._match = match
        self._target = objects[0]
        return {"target": int(self._target)}

    def _scored(self, report: ShotReport | None) -> float:
        if report is None:  # pragma: no cover - a potting position has no other phase
            return 0.0
        made = not report.ruling.fouls and self._target in report.facts.pocketed_object_balls
        return 1.0 if made else 0.0

    def _ended_reward(self) -> tuple[float, bool]:
        return 0.0, self.strokes >= 1


class RunOutTable(Table):
    """Run out from ball in hand: the nine object balls at random, the cue ball in hand.

    Reward: +0.1 per object ball pocketed on a legal stroke, +1 more when the agent pockets
    the 9 legally (the game won). Ends (terminated) when the game is won or the agent's turn
    ends (a miss or a foul); truncated after ``max_strokes`` (20).
    """

    task = "runout"

    def __init__(self, *, noise: str | None = "tournament", max_strokes: int = 20) -> None:
        """Set the common arguments (:class:`Table`)."""
        super().__init__(noise=noise, max_strokes=max_strokes)

    def _start(self, rng: np.random.Generator) -> dict[str, Any]:
        match = _practice(rng)
        match.set_position(_scatter([BallId(b) for b in range(1, 10)], rng, match))
        self._match = match
        return {}

    def _ended(self) -> bool:
        return self.match.state.to_act is not Seat.FIRST

    def _scored(self, report: ShotReport | None) -> float:
        if report is None or report.ruling.fouls:
            return 0.0
        return 0.1 * len(report.facts.pocketed_object_balls)

    def _ended_reward(self) -> tuple[float, bool]:
        state = self.match.state
        won = state.is_over and state.winner is Seat.FIRST
        return (1.0 if won else 0.0), state.is_over or state.to_act is not Seat.FIRST


class BreakTable(Table):
    """The break: a fresh rack, the cue ball in hand in the kitchen, one stroke.

    Reward: +1 when the agent keeps the table (a legal break that pockets a ball) or wins
    (the 9 on the break), -1 for a foul (a scratch, an illegal break...), 0 otherwise. Ends
    (terminated) after the break.
    """

    task = "break"

    def __init__(self, *, noise: str | None = "tournament", max_strokes: int = 1) -> None:
        """Set the common arguments (:class:`Table`)."""
        super().__init__(noise=noise, max_strokes=max_strokes)

    def _start(self, rng: np.random.Generator) -> dict[str, Any]:
        self._match = _practice(rng)
        return {}

    def _scored(self, report: ShotReport | None) -> float:
        if report is None:  # pragma: no cover - the break has no other phase
            return 0.0
        state = self.match.state
        if report.ruling.fouls:
            return -1.0
        kept = state.winner is Seat.FIRST or (not state.is_over and state.to_act is Seat.FIRST)
        return 1.0 if kept else 0.0

    def _ended_reward(self) -> tuple[float, bool]:
        return 0.0, self.strokes >= 1


TASKS: dict[str, type[Table]] = {
    "match": MatchTable,
    "pot": PotTable,
    "runout": RunOutTable,
    "break": BreakTable,
}
"""The tasks by name."""


def make_table(task: str, **options: Any) -> Table:
    """A table of ``task`` with its options.

    Raises:
        InvalidInputError: an unknown task or option, or a bad option's value.
    """
    kind = TASKS.get(task) if isinstance(task, str) else None
    if kind is None:
        raise InvalidInputError(f"unknown task {task!r} (known: {', '.join(TASKS)})")
    try:
        return kind(**options)
    except TypeError as error:
        raise InvalidInputError(f"task {task!r}: {error}") from None
