"""The cue stick and the bridge hand at the stroke: which other balls they would touch.

Clause 11 of the rules makes it a foul when, on a jump, curve or massé attempt, an obstructing
ball moves "by hand, cue or bridge". The engine does not simulate the stick, so this module
answers the geometric question before the stroke: with the cue at the stroke's aim and
elevation, its tip on the cue ball where the tip offsets put it, does the stick (from its tip
back over the table, and the tip's follow-through) or the bridge hand come within a ball's
radius of another ball?

Model (documented assumptions, not a measured standard):

* the stick is a cone along the cue axis, radius :data:`TIP_RADIUS` at the tip growing by
  :data:`TAPER` per metre back toward the butt, checked over its front :data:`SHAFT_LENGTH`
  (past that it is well above any ball at the elevations that matter);
* the tip follows through :data:`FOLLOW_THROUGH` past its contact point along the cue axis (it
  stops at the cloth);
* the bridge hand rests on the cloth on the cue line, :data:`BRIDGE_DISTANCE` behind the cue
  ball's centre: a disc of radius :data:`HAND_RADIUS` where the hand and fingers touch the cloth
  (an elevated bridge stands on the fingertips at the same place). A ball whose centre is within
  ``R + HAND_RADIUS`` of the bridge point is touched. With the cue nearly level the bridge can be
  put anywhere along the line, so the hand is only checked for elevated strokes
  (:data:`ELEVATED`), where the stick's angle fixes it.

Everything here is plain geometry in the table frame (x across, y along, z up; a ball's centre at
z = R), in SI units.
"""

from __future__ import annotations

import math
from collections.abc import Mapping

from nineball.physics.params import PhysicsParams
from nineball.physics.stroke import Stroke

__all__ = [
    "BRIDGE_DISTANCE",
    "ELEVATED",
    "FOLLOW_THROUGH",
    "HAND_RADIUS",
    "SHAFT_LENGTH",
    "TAPER",
    "TIP_RADIUS",
    "cue_contacts",
]

TIP_RADIUS = 0.0065
"""m: a 13 mm tip (common shafts are 12-13.5 mm)."""
TAPER = 0.008
"""Growth of the stick's radius per metre from the tip (13 mm to about 29 mm over 1 m)."""
SHAFT_LENGTH = 0.6
"""m of stick checked from the tip back."""
FOLLOW_THROUGH = 0.04
"""m the tip travels on past its contact point (a jump or massé stroke is short and sharp)."""
BRIDGE_DISTANCE = 0.2
"""m from the cue ball's centre back to the bridge hand, along the cue line."""
HAND_RADIUS = 0.05
"""m: the patch of cloth the bridge hand covers around the cue line."""
ELEVATED = math.radians(10.0)
"""Elevation (rad) from which the bridge is checked: a raised cue fixes where the hand goes."""


def _segment_distance(
    p: tuple[float, float, float], a: tuple[float, float, float], b: tuple[float, float, float]
) -> tuple[float, float]:
    """Distance from ``p`` to segment ``ab``, and where along it (0 at ``a``, 1 at ``b``)."""
    d = (b[0] - a[0], b[1] - a[1], b[2] - a[2])
    length2 = d[0] * d[0] + d[1] * d[1] + d[2] * d[2]
    t = 0.0
    if length2 > 0.0:
        t = ((p[0] - a[0]) * d[0] + (p[1] - a[1]) * d[1] + (p[2] - a[2]) * d[2]) / length2
        t = min(1.0, max(0.0, t))
    q = (a[0] + t * d[0], a[1] + t * d[1], a[2] + t * d[2])
    return math.dist(p, q), t


def cue_contacts(
    balls: Mapping[int, tuple[float, float]],
    stroke: Stroke,
    params: PhysicsParams | None = None,
) -> tuple[int, ...]:
    """The balls other than the cue ball that the stick or the bridge hand would touch.

    Args:
        balls: ball id -> centre (x, y) in m, the cue ball (id 0) included.
        stroke: the stroke about to be played on the cue ball.
        params: the physical parameters (the ball's radius).

    Returns:
        The ids touched, ascending (empty when the stroke is clear).

    Raises:
        KeyError: no cue ball (id 0) in ``balls``.
    """
    params = params or PhysicsParams()
    R = params.radius
    cx, cy = balls[0]
    ce, se = math.cos(stroke.elevation), math.sin(stroke.elevation)
    ca, sa = math.cos(stroke.aim), math.sin(stroke.aim)
    d = (ce * ca, ce * sa, -se)  # cue axis, butt to tip
    right = (sa, -ca, 0.0)
    up = (
        right[1] * d[2] - right[2] * d[1],
        right[2] * d[0] - right[0] * d[2],
        right[0] * d[1] - right[1] * d[0],
    )
    depth = math.sqrt(max(0.0, 1.0 - stroke.side**2 - stroke.height**2))
    tip_x, tip_y, tip_z = (
        c + R * (stroke.side * right[q] + stroke.height * up[q] - depth * d[q])
        for q, c in enumerate((cx, cy, R))
    )
    tip = (tip_x, tip_y, tip_z)
    back = (tip_x - SHAFT_LENGTH * d[0], tip_y - SHAFT_LENGTH * d[1], tip_z - SHAFT_LENGTH * d[2])
    # The follow-through, stopped by the cloth (the tip's lowest point is at z = 0).
    through = FOLLOW_THROUGH if d[2] >= 0.0 else min(FOLLOW_THROUGH, tip_z / -d[2])
    ahead = (tip_x + through * d[0], tip_y + through * d[1], tip_z + through * d[2])
    bridge = (cx - BRIDGE_DISTANCE * ca, cy - BRIDGE_DISTANCE * sa)
    # No part of the stick, its follow-through or the hand reaches past this from the cue
    # ball's centre (the tip lies within R of it); a ball farther away is not looked at.
    reach = R + max(SHAFT_LENGTH, FOLLOW_THROUGH) + R + TIP_RADIUS + TAPER * SHAFT_LENGTH
    reach = max(reach, BRIDGE_DISTANCE + R + HAND_RADIUS) + 0.01
    touched = []
    for ball, (x, y) in sorted(balls.items()):
        if ball == 0 or abs(x - cx) > reach or abs(y - cy) > reach:
            continue
        centre = (x, y, R)
        distance, along = _segment_distance(centre, tip, back)
        stick = distance < R + TIP_RADIUS + TAPER * SHAFT_LENGTH * along
        tip_path = _segment_distance(centre, tip, ahead)[0] < R + TIP_RADIUS
        hand = (
            stroke.elevation >= ELEVATED
            and math.hypot(x - bridge[0], y - bridge[1]) < R + HAND_RADIUS
        )
        if stick or tip_path or hand:
            touched.append(ball)
    return tuple(touched)
