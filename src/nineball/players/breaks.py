"""Break statistics: many seeded breaks by one level, on fresh racks, under its noise."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from nineball.game import MatchConfig
from nineball.game.match import Match
from nineball.players.play import view_of
from nineball.players.registry import make_player

__all__ = ["BreakResult", "break_from_row", "break_jobs", "break_once", "break_row"]


@dataclass(frozen=True, slots=True, kw_only=True)
class BreakResult:
    """What one break did."""

    seed: int
    legal: bool
    balls: int
    """Object balls pocketed."""
    scratch: bool
    """The cue ball was pocketed."""
    nine: bool
    """The 9 went down on a legal break (a win)."""
    speed: float
    """The cue ball's speed as played (noise included), m/s."""
    cue: tuple[float, float] | None
    """Where the cue ball stopped (None when pocketed or off the table)."""


def break_once(job: tuple[str, int]) -> BreakResult:
    """One break by the player ``job[0]`` on the rack seeded by ``job[1]``."""
    level, seed = job
    match = Match(MatchConfig(players=("breaker", "other"), race_to=1), seed=seed)
    player = make_player(level)
    decision = player.decide(view_of(match), np.random.default_rng(seed))
    if decision.cue_ball is not None:
        match.place_cue_ball(decision.cue_ball)
    report = match.strike(decision.stroke, noise=player.noise)
    pocketed = report.facts.pocketed
    stroke = report.shot.stroke
    return BreakResult(
        seed=seed,
        legal=report.ruling.legal,
        balls=len(report.facts.pocketed_object_balls),
        scratch=0 in pocketed,
        nine=report.ruling.game_over is not None,
        speed=0.0 if stroke is None else stroke.speed,
        cue=None
        if 0 in pocketed or 0 in report.facts.off_table
        else report.trajectory.final_states()[0].r[:2],
    )


def break_jobs(level: str, breaks: int, seed: int) -> list[tuple[str, int]]:
    """The jobs of ``breaks`` breaks by ``level``: rack ``k`` seeded from ``(seed, k)``."""
    return [
        (level, int(np.random.SeedSequence([seed, k]).generate_state(1)[0])) for k in range(breaks)
    ]


def break_row(result: BreakResult) -> dict[str, object]:
    """A break as plain JSON data."""
    return asdict(result) | {"cue": None if result.cue is None else list(result.cue)}


def break_from_row(row: Mapping[str, Any]) -> BreakResult:
    """A break back from :func:`break_row`'s data.

    Raises:
        KeyError, TypeError, ValueError: data that is not such a row.
    """
    cue = row["cue"]
    return BreakResult(**(dict(row) | {"cue": None if cue is None else (cue[0], cue[1])}))
