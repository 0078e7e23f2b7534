"""Indices and codes shared by the kernels and their Python wrappers."""

from __future__ import annotations

__all__ = [
    "EV_AIRBORNE",
    "EV_BALL_BALL",
    "EV_CUSHION",
    "EV_LAND",
    "EV_OFF_TABLE",
    "EV_POCKET",
    "EV_ROLL_SPIN",
    "EV_ROLL_STOP",
    "EV_SLIDE_ROLL",
    "EV_SPIN_STOP",
    "EV_STROKE",
    "MAX_SPEED",
    "MAX_SPIN",
    "NPRM",
    "PLACEMENT_TOLERANCE",
    "P_ALPHA",
    "P_CUE_END",
    "P_EB",
    "P_EC",
    "P_ES",
    "P_FA",
    "P_FB",
    "P_FC",
    "P_G",
    "P_H",
    "P_HOP",
    "P_LENGTH",
    "P_M",
    "P_MISCUE",
    "P_MUC",
    "P_MUR",
    "P_MUS",
    "P_R",
    "P_SLOW",
    "P_WIDTH",
    "ROLLING_INPUT_TOLERANCE",
    "ST_NOT_FINITE",
    "ST_OK",
    "ST_OUTSIDE",
    "ST_OVERLAP",
    "ST_ROOM",
    "ST_SCOOP",
    "ST_SPEED",
    "ST_SPIN",
    "S_AIRBORNE",
    "S_OFF_TABLE",
    "S_POCKETED",
    "S_ROLLING",
    "S_SLIDING",
    "S_SPINNING",
    "S_STATIONARY",
]

# Parameter vector layout (float64 array of length NPRM).
P_R = 0  # ball radius, m
P_M = 1  # ball mass, kg
P_G = 2  # gravity, m/s^2
P_MUS = 3  # sliding friction, 1
P_MUR = 4  # rolling resistance, 1
P_ALPHA = 5  # z-spin deceleration, rad/s^2
P_EB = 6  # ball-ball restitution, 1
P_FA = 7  # ball-ball friction mu(v) = FA + FB exp(-FC v)
P_FB = 8
P_FC = 9
P_EC = 10  # cushion restitution, 1
P_MUC = 11  # cushion friction, 1
P_H = 12  # cushion nose height above the cloth, m
P_SLOW = 13  # approach speed below which an impact first settles sliding balls, m/s
P_ES = 14  # slate (ball-table) restitution, 1
P_HOP = 15  # vertical speed below which a ball does not leave the cloth, m/s
P_CUE_END = 16  # the cue's effective end mass (squirt), kg
P_MISCUE = 17  # the miscue limit: the largest tip offset, a fraction of R
P_WIDTH = 18  # the playing surface's width (x), m
P_LENGTH = 19  # the playing surface's length (y), m
NPRM = 20

# Limits of the input the engine accepts (checked by ``shot.shot``).
MAX_SPEED = 20.0
"""Largest speed of a ball in m/s, the cue ball's after a stroke included (the hardest recorded
breaks are about 14 m/s)."""
MAX_SPIN = 2000.0
"""Largest angular speed in rad/s accepted for a ball given in motion (a ball rolling at the
largest stroke speed spins at 700 rad/s)."""
PLACEMENT_TOLERANCE = 1e-9
"""Overlap (m) tolerated between balls, or past the cushion noses, when checking input."""
ROLLING_INPUT_TOLERANCE = 1e-3
"""An input ball whose cloth slip is at most this fraction of its speed is taken as rolling, and
its spin is set to roll exactly (inputs such as v = 1.0, w = -35.0 are rounded rolling states)."""

# What ``shot.shot`` says of its input (its first result).
ST_OK = 0
ST_SPEED = 1  # ball a moves faster than MAX_SPEED
ST_SPIN = 2  # ball a spins faster than MAX_SPIN
ST_OUTSIDE = 3  # ball a's centre is outside the playing surface's rectangle
ST_OVERLAP = 4  # balls a and b overlap
ST_SCOOP = 5  # the stroke's cue would dig under the cue ball
ST_NOT_FINITE = 6  # ball a has a value that is not finite
ST_ROOM = 7  # the results did not fit the arrays given: the event count is in the header

# Motion states (same values as nineball.physics.state.MotionState).
S_STATIONARY = 0
S_SPINNING = 1
S_SLIDING = 2
S_ROLLING = 3
S_POCKETED = 4
S_AIRBORNE = 5
S_OFF_TABLE = 6

# Event codes (same values as nineball.physics.events.EventKind order).
EV_STROKE = 0
EV_BALL_BALL = 1
EV_CUSHION = 2
EV_POCKET = 3
EV_SLIDE_ROLL = 4
EV_ROLL_SPIN = 5
EV_ROLL_STOP = 6
EV_SPIN_STOP = 7
EV_AIRBORNE = 8
EV_LAND = 9
EV_OFF_TABLE = 10
