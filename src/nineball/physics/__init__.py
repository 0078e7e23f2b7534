"""Event-based pool physics (numpy + numba): exact, compiled, deterministic.

Never imports :mod:`nineball.rules`; the referee sees a shot only through :class:`TrajectoryFacts`.
"""

from __future__ import annotations

from nineball.physics.batch import ShotBatch, simulate_batch, strike_batch
from nineball.physics.events import BallState, Event, EventKind
from nineball.physics.facts import TrajectoryFacts, shot_facts
from nineball.physics.params import ALCIATORE_FIT, PhysicsParams
from nineball.physics.rack import diamond_rack
from nineball.physics.simulate import BallInput, PreparedBalls, Trajectory, simulate
from nineball.physics.state import MotionState
from nineball.physics.stroke import Stroke
from nineball.physics.table import TableSpec, eight_foot, nine_foot, seven_foot

__all__ = [
    "ALCIATORE_FIT",
    "BallInput",
    "BallState",
    "Event",
    "EventKind",
    "MotionState",
    "PhysicsParams",
    "PreparedBalls",
    "ShotBatch",
    "Stroke",
    "TableSpec",
    "Trajectory",
    "TrajectoryFacts",
    "diamond_rack",
    "eight_foot",
    "nine_foot",
    "seven_foot",
    "shot_facts",
    "simulate",
    "simulate_batch",
    "strike_batch",
]
