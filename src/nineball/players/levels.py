"""The search player's levels of play and its break.

A :class:`Level` is a playing strength: the execution noise the game applies to the player's
strokes and the search's budget (docs/players.md has the calibration). The break is data, chosen
offline by ``tools/optimise_break.py`` (:data:`BREAK`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from importlib.resources import files

from nineball.errors import InvalidInputError
from nineball.game.noise import PLAYER_NOISE_GROWTH, TOURNAMENT_NOISE, ExecutionNoise
from nineball.players.odds import SUCCESSION, OddsPrior

__all__ = ["BREAK", "BREAKS", "LEAVES", "LEVELS", "BreakPlan", "Level"]


@dataclass(frozen=True, slots=True, kw_only=True)
class BreakPlan:
    """A break: where the cue ball goes in the kitchen, and the stroke at the 1."""

    x: float
    """Cue ball x in m (the head string's y less 0.1 m is its y)."""
    speed: float
    """m/s."""
    height: float
    """Tip height (fraction of R): a little draw keeps the cue ball in the middle."""
    offset: float
    """Aim offset from the 1's centre, as a fraction of R (a fuller or thinner hit)."""


def _load_breaks() -> dict[str, BreakPlan]:
    data = json.loads(files("nineball.players").joinpath("break.json").read_text("utf-8"))
    return {name: BreakPlan(**entry["plan"]) for name, entry in data["levels"].items()}


BREAKS = _load_breaks()
"""Each level's break, chosen offline by ``tools/optimise_break.py`` under the level's own noise
and shipped as ``break.json`` (docs/players.md)."""

BREAK = BREAKS["pro"]
"""The ``pro`` level's break (pros break at 9.8-11.6 m/s); a level not shipped breaks so."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """A playing strength: execution noise and search budget."""

    name: str
    noise: ExecutionNoise
    """The execution noise the game applies to this player's strokes."""
    samples: int
    """Noisy simulations per short-listed candidate (and again per finalist)."""
    shortlist: int
    """Candidates kept after the screening pass."""
    screen: int = 12
    """Candidates screened with a few noisy samples, taken in turn from each kind of shot."""
    finalists: int = 0
    """The best few after the shortlist pass, sampled again before choosing (0: none)."""
    spins: tuple[float, ...] = (0.0, 0.35, -0.35)
    """Tip heights tried on pots (stun, follow, draw)."""
    sides: tuple[float, ...] = ()
    """Side spins (tip offsets right of centre, fraction of R) tried on the best direct pots
    (:func:`nineball.players.candidates.with_side`; none: no side spin)."""
    side_pots: int = 0
    """How many of the best direct pots get those side-spin variants."""
    speeds: tuple[float, ...] = (0.2, 1.2)
    """Extra speeds in m/s tried on pots, above the speed that just gets the ball there
    (:func:`nineball.players.evaluation.speed_for`)."""
    lookahead: int = 0
    """One more ply: noisy samples per finalist whose leave is judged by playing the next
    shot (its chance and the leave after it) rather than by its geometry alone (0: none)."""
    replies: int = 0
    """Noisy samples per finalist whose leaves with the opponent to shoot (a miss, a safety)
    are judged by the opponent's best reply, found by a small search of their own, rather than
    by the geometry of their next pot (0: none)."""
    kinds: frozenset[str] = frozenset({"direct", "bank", "combo", "kick", "safety"})
    """The kinds of candidate the level considers."""
    description: str = ""
    leaves: str = "geometry"
    """How the search values the positions its strokes leave: ``geometry`` (the next pot's
    chance, :func:`nineball.players.evaluation.position_value`) or ``model`` (the learned win
    probability, :mod:`nineball.players.value`; ``pro``, docs/players.md)."""
    odds_prior: OddsPrior = SUCCESSION
    """The prior over its chosen shots' chances under which the player states a shot's chance
    from its fresh samples (:meth:`SearchPlayer.stated`): one Beta(1, 1), the rule of
    succession, unless fitted to the level's own samples (``beginner``, ``pro`` and ``max``:
    :func:`nineball.players.odds.fit_odds_prior`, printed by benchmarks/stated_odds.py)."""

    def __post_init__(self) -> None:
        """Check the choice of leaves and the prior of the stated odds.

        Raises:
            InvalidInputError: ``leaves`` is neither ``geometry`` nor ``model``, or
                ``odds_prior`` is not an :class:`OddsPrior`.
        """
        if self.leaves not in LEAVES:
            raise InvalidInputError(f"leaves must be one of {LEAVES!r}, got {self.leaves!r}")
        if not isinstance(self.odds_prior, OddsPrior):
            raise InvalidInputError(f"odds_prior must be an OddsPrior, got {self.odds_prior!r}")

    @property
    def replying(self) -> Level:
        """The small search this level runs for its opponent's best reply (:attr:`replies`).

        The same noise, leaves and kinds of shot (less combinations and caroms), a few
        candidates and samples each, pots at one tip height and two speeds, no side spin, no
        further ply and no reply of its own.
        """
        return replace(
            self,
            samples=max(2, self.samples // 4),
            shortlist=3,
            screen=8,
            finalists=0,
            lookahead=0,
            replies=0,
            spins=(0.0,),
            speeds=(0.2, 1.2),
            sides=(),
            side_pots=0,
            kinds=self.kinds - {"combo", "carom"},
        )

    @property
    def break_plan(self) -> BreakPlan:
        """The level's break (:data:`BREAKS`; a level of another name breaks as ``pro``)."""
        return BREAKS.get(self.name, BREAK)


def _hand(factor: float) -> ExecutionNoise:
    """A level's noise: ``factor`` times the tournament deviations, growing with speed.

    The deviations grow with the stroke's speed as a player's do (:data:`PLAYER_NOISE_GROWTH`).
    """
    return replace(TOURNAMENT_NOISE.scaled(factor), growth=PLAYER_NOISE_GROWTH)


LEAVES = ("geometry", "model")
"""The ways a search may value its leaves."""


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            name="beginner",
            noise=_hand(6.0),
            samples=2,
            shortlist=3,
            screen=4,
            spins=(0.0,),
            kinds=frozenset({"direct"}),
            odds_prior=OddsPrior.beta(0.47, 1.01),
            description="aims at the easiest pot, shaky hands (6x tournament noise)",
        ),
        Level(
            name="amateur",
            noise=_hand(2.8),
            samples=3,
            shortlist=4,
            screen=8,
            spins=(0.0, 0.35),
            kinds=frozenset({"direct", "kick"}),
            description="pots and kicks, 2.8x tournament noise",
        ),
        Level(
            name="club",
            noise=_hand(2.0),
            samples=4,
            shortlist=5,
            screen=12,
            kinds=frozenset({"direct", "bank", "kick", "safety"}),
            sides=(0.3, -0.3),
            side_pots=2,
            description="plays position and safeties, 2.0x tournament noise",
        ),
        Level(
            name="advanced",
            noise=_hand(1.2),
            samples=6,
            shortlist=6,
            screen=18,
            finalists=2,
            kinds=frozenset({"direct", "bank", "combo", "kick", "safety", "jump"}),
            sides=(0.3, -0.3),
            side_pots=3,
            description="every kind of shot, 1.2x tournament noise",
        ),
        Level(
            name="pro",
            noise=_hand(0.8),
            samples=12,
            shortlist=8,
            screen=30,
            kinds=frozenset({"direct", "bank", "combo", "kick", "safety", "jump"}),
            finalists=3,
            spins=(0.0, 0.25, 0.45, -0.25, -0.45),
            sides=(0.3, -0.3),
            side_pots=4,
            speeds=(0.0, 0.35, 0.8, 1.5, 2.5),
            leaves="model",
            odds_prior=OddsPrior.beta(0.42, 0.16),
            description="every kind of shot, 0.8x tournament noise, position with speed and spin,"
            " leaves valued by the learned win probability",
        ),
        Level(
            name="max",
            noise=_hand(0.4),
            samples=24,
            shortlist=12,
            screen=48,
            finalists=4,
            lookahead=8,
            kinds=frozenset({"direct", "bank", "combo", "carom", "kick", "safety", "jump"}),
            spins=(0.0, 0.25, 0.45, -0.25, -0.45),
            sides=(0.3, -0.3),
            side_pots=6,
            speeds=(0.0, 0.35, 0.8, 1.5, 2.5),
            # fitted to 3,009 shots of 100 matches on the seeds from 700,000 (docs/players.md):
            # a few shots that always or never work, and the rest
            odds_prior=OddsPrior(((0.016, 0.014, 0.017), (0.984, 1.32, 0.085))),
            description="caroms and kisses too, one more ply, 0.4x tournament noise, widest search",
        ),
    )
}
"""The levels by name, weakest first."""
