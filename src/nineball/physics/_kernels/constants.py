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
    "NPRM",
    "P_ALPHA",
    "P_EB",
    "P_EC",
    "P_ES",
    "P_FA",
    "P_FB",
    "P_FC",
    "P_G",
    "P_H",
    "P_HOP",
    "P_M",
    "P_MUC",
    "P_MUR",
    "P_MUS",
    "P_R",
    "P_SLOW",
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
NPRM = 16

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
