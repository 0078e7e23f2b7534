"""Self-play matches for a dataset: the jobs, and one match played into rows (in any process).

Match ``k`` of a dataset is seeded from ``(seed, 0, k)`` and seats its two players as the ladder
does (:func:`nineball.players.ladder.pairing_jobs`: the seats and the first break alternate), so
a dataset is the same whatever the backend, the number of workers or a resume in between.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from dataclasses import dataclass

from nineball.dataset.rows import Rows, match_rows
from nineball.game import MatchConfig, Ruling, Seat, Trajectory, find_variant, record_to_json
from nineball.game.match import Match
from nineball.game.position import Position
from nineball.players.base import Player
from nineball.players.ladder import pairing_jobs
from nineball.players.play import Turn, play_match
from nineball.players.registry import make_player
from nineball.players.value import shipped_value_model

__all__ = [
    "MAX_TURNS",
    "Job",
    "Played",
    "dataset_jobs",
    "match_positions",
    "play_job",
    "start_match",
]

MAX_TURNS = 2000
"""The most entries one match may take (a match of computer players never comes near it)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Job:
    """One match of a dataset, as sent to a worker process."""

    index: int
    """The match's index in the dataset."""
    first: str
    """The computer player in seat 0."""
    second: str
    """The computer player in seat 1."""
    seed: int
    breaker: int
    """The seat that breaks the first game."""
    race_to: int
    rules: str
    """The rule profile's name."""
    record: bool
    """Send the match's record back too (JSON text)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Played:
    """A match played: its rows, its record if asked for, and the CPU time it took."""

    index: int
    rows: Rows
    record: str | None
    cpu_seconds: float


def dataset_jobs(
    players: tuple[str, str],
    start: int,
    stop: int,
    *,
    seed: int,
    race_to: int,
    rules: str,
    record: bool,
) -> list[Job]:
    """The jobs of matches ``start`` to ``stop - 1`` of a dataset."""
    seated = pairing_jobs(players[0], players[1], stop, seed, 0)[start:]
    return [
        Job(
            index=start + k,
            first=first,
            second=second,
            seed=match_seed,
            breaker=breaker,
            race_to=race_to,
            rules=rules,
            record=record,
        )
        for k, (first, second, match_seed, breaker) in enumerate(seated)
    ]


def start_match(job: Job) -> tuple[Match, list[Player]]:
    """The match of a job, before its first break, and its two computer players."""
    config = MatchConfig(
        players=(f"{job.first} (1)", f"{job.second} (2)"),
        race_to=job.race_to,
        first_breaker=Seat(job.breaker),
        rules=find_variant(job.rules),
    )
    match = Match(config, seed=job.seed, agents=(job.first, job.second))
    return match, [make_player(job.first), make_player(job.second)]


def match_positions(
    match: Match, players: list[Player], *, on_turn: Callable[[Turn], None] | None = None
) -> list[Position]:
    """Play a match out; the position before each of its entries (``on_turn`` told of each)."""
    positions = [match.position]

    def keep(turn: Turn) -> None:
        if on_turn is not None:
            on_turn(turn)
        if not match.state.is_over:
            positions.append(match.position)

    play_match(match, players, on_turn=keep, max_turns=MAX_TURNS)
    return positions


def play_job(job: Job) -> Played:
    """Play one match between two computer players and turn it into rows."""
    start = time.process_time()
    match, players = start_match(job)
    trajectories: list[Trajectory | None] = []
    rulings: list[Ruling] = []

    def keep(turn: Turn) -> None:
        trajectories.append(None if turn.report is None else turn.report.trajectory)
        rulings.append(turn.ruling)

    positions = match_positions(match, players, on_turn=keep)
    record = match.record
    chances = shipped_value_model().game_wins(positions[: len(rulings)])
    rows = match_rows(
        record,
        trajectories,
        match=job.index,
        players=(job.first, job.second),
        rulings=rulings,
        chances=chances.tolist(),
    )
    text = json.dumps(record_to_json(record), separators=(",", ":")) if job.record else None
    return Played(index=job.index, rows=rows, record=text, cpu_seconds=time.process_time() - start)
