"""A pooltool shot in nineball's terms: the values and pooltool's stroke speed.

A pooltool ``System`` holds balls (ids ``"cue"``, ``"1"``... with a state matrix ``rvw`` of
position, velocity and spin, a motion state ``s`` and physical ``params``), a table (see
:mod:`nineball.interop.pooltool.table`), a cue stick (``V0``, ``phi``, ``theta``, ``a``, ``b``
and its ``specs``) and, once simulated, the events. A :class:`PooltoolShot` is one System as
nineball plays it: nineball's balls, stroke, table and parameters, the notes on what did not map
exactly, and, when the file was simulated, what pooltool's events say (:class:`PooltoolOutcome`).

The frames are the same (docs/simulate-protocol.md): origin at the head-left nose corner, x
across, y along the table, pooltool's ``phi`` our aim. The mapping, field by field, is in
``docs/pooltool.md``; the differences between the two engines are in ``docs/physics.md``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

from nineball.equipment import BallId, PocketId, Point
from nineball.game import BallInput, PhysicsParams, Stroke, TableSpec, Trajectory, simulate

__all__ = [
    "BALL_IDS",
    "CUE_MASS",
    "TIE",
    "PooltoolCue",
    "PooltoolOutcome",
    "PooltoolShot",
    "ball_speed",
    "cue_speed",
]

BALL_IDS: dict[str, BallId] = {"cue": BallId.CUE, **{str(int(b)): b for b in BallId if b}}
"""pooltool's ball ids of a nine-ball set and nineball's balls."""

CUE_MASS = 0.567
"""pooltool's default cue mass ``M``, kg."""

TIE = 1e-9
"""Two first contacts closer in time (s) are a tie, won by the lower ball (docs/rules.md, D8)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PooltoolCue:
    """pooltool's cue stick, what nineball's stroke has no place for (kept to write it back).

    The cue's end mass (squirt) is nineball's ``cue_endmass`` parameter, not kept here.
    """

    mass: float = 0.567
    """The cue's mass ``M``, kg: it sets the ball's speed for a ``V0`` (:func:`ball_speed`)."""
    length: float = 1.4732
    """m (pooltool draws the cue with it)."""
    tip_radius: float = 0.0106045
    """m (not used by pooltool 0.6.0's stroke)."""
    shaft_radius_at_tip: float = 0.0065
    """m."""
    shaft_radius_at_butt: float = 0.02
    """m."""
    brand: str = "Predator"
    """pooltool's label."""
    id: str = "cue_stick"
    """pooltool's id of the cue."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PooltoolOutcome:
    """What pooltool's events say of a simulated System, in the referee's terms."""

    first_contact: int | None
    """The first ball the cue ball hit (contacts within :data:`TIE` s go to the lower ball)."""
    pocketed: tuple[tuple[int, PocketId], ...]
    """Each ball pocketed and its pocket, by ball."""
    rails: tuple[int, ...]
    """The balls that touched a cushion at or after the first contact, ascending."""
    final: tuple[tuple[int, Point | None], ...]
    """Where each ball came to rest (None: pocketed), by ball, in nineball's frame."""
    events: int
    """How many events pooltool recorded (its null event and the cue strike included)."""
    duration: float
    """pooltool's simulated time, s."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PooltoolShot:
    """One pooltool System in nineball's terms, or a nineball shot to write as one."""

    balls: tuple[BallInput, ...]
    """The balls on the table at t = 0 (balls in a pocket are left out)."""
    stroke: Stroke | None
    """The cue's stroke on the cue ball (None: no cue ball on the table to strike)."""
    table: TableSpec = field(default_factory=TableSpec)
    params: PhysicsParams = field(default_factory=PhysicsParams)
    cue: PooltoolCue = field(default_factory=PooltoolCue)
    notes: tuple[str, ...] = ()
    """What did not map exactly, one sentence each."""
    outcome: PooltoolOutcome | None = None
    """pooltool's own result, when the file was simulated."""

    def simulate(self, *, max_events: int = 10000) -> Trajectory:
        """Play the shot on nineball's engine.

        Raises:
            InvalidInputError, InvalidPlacementError: see :func:`nineball.game.simulate`.
        """
        return simulate(
            self.balls, stroke=self.stroke, params=self.params, table=self.table,
            max_events=max_events,
        )  # fmt: skip


def ball_speed(
    cue_speed: float, *, a: float, b: float, theta_deg: float, ball_mass: float, cue_mass: float
) -> float:
    """The cue ball's horizontal speed (m/s) after pooltool's stroke at ``V0 = cue_speed``.

    pooltool's stick-ball model (Alciatore, TP A.30: an instantaneous point impact of a cue of
    mass M on a ball of mass m, tip offset (a, b) in R) gives the ball
    v = 2 V0 / (1 + m / M + 5/2 (a^2 + b^2)) along the cue; pooltool 0.6.0 keeps only its
    horizontal part, v cos(theta).
    """
    lost = 1.0 + ball_mass / cue_mass + 2.5 * (a * a + b * b)
    return 2.0 * cue_speed * math.cos(math.radians(theta_deg)) / lost


def cue_speed(
    speed: float, *, a: float, b: float, theta_deg: float, ball_mass: float, cue_mass: float
) -> float:
    """The ``V0`` of pooltool's cue that gives the cue ball ``speed`` m/s (:func:`ball_speed`)."""
    lost = 1.0 + ball_mass / cue_mass + 2.5 * (a * a + b * b)
    return speed * lost / (2.0 * math.cos(math.radians(theta_deg)))
