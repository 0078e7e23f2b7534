"""Jump shots for the computer players: the cue ball over a ball that hides the lowest one.

A jump stroke (the cue raised 30-60 degrees, struck at the centre) drives the cue ball into the
slate; it bounces up and flies along the aim in a few hops of falling height (physics.md,
"Flight"). Whether it clears a ball in its way and then meets the lowest ball is a question of
that flight's shape alone: how high the cue ball is at each distance along its line. The shape
is **measured once from the physics** for a grid of elevations and speeds (a lone cue ball
struck on an empty table, its hops read from the events: in flight a ball keeps its horizontal
velocity, so each hop is a parabola in the distance travelled), and every candidate line is
checked against it:

* the lines: a full hit on the lowest ball, and its ghost ball for each pocket it has a clear
  path to (the ghost moved back when the cue ball meets the object ball in the air, where the
  centres touch at a slant);
* along a line, every ball within two radii of it is met where the cue ball's centre first
  comes within 2R of its centre (a touch in the air counts); the first ball met must be the
  lowest one, with :data:`CLEARANCE` to spare over every ball it flies over;
* of the speeds that do it at each elevation, the middle of the widest run is taken (the most
  room for a speed error either way), and the widest few per line are kept;
* a stroke whose stick or bridge hand would touch a ball (clause 11,
  :func:`nineball.physics.cue.cue_contacts`) is dropped.

The search player scores what remains by simulation under its own noise, as every shot.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.equipment import BallId, PocketId, Point
from nineball.game import BallInput, EventKind, PhysicsParams, PreparedBalls, Stroke, cue_contacts
from nineball.game.position import Position
from nineball.players.aim import cut_angle, ghost_ball, is_path_clear, pocket_aim

__all__ = [
    "CLEARANCE",
    "JUMP_ELEVATIONS",
    "JUMP_SPEEDS",
    "LANDED",
    "Flight",
    "JumpShot",
    "flights",
    "is_hidden",
    "jump_shots",
]

JUMP_ELEVATIONS: tuple[float, ...] = tuple(math.radians(d) for d in (30, 35, 40, 45, 50, 55, 60))
"""Cue elevations tried, rad (30-60 deg)."""
JUMP_SPEEDS: tuple[float, ...] = tuple(1.5 + 0.125 * k for k in range(25))
"""Stroke speeds tried, m/s (1.5-4.5): ``Stroke.speed``, the horizontal speed the cue gives."""
CLEARANCE = 0.003
"""m the cue ball's surface must pass above or beside a ball it jumps, by the measured flight."""
PER_LINE = 2
"""Jump strokes kept per line (the widest runs of speeds, at different elevations)."""
LANDED = 0.002
"""m: the most the cue ball may be above the cloth where it meets the object ball of a jump pot."""
MAX_CUT = math.radians(60.0)
"""The largest cut a jump pot is tried at."""
_STEP = 0.001
"""m between the points at which a flight is checked near a ball."""


@dataclass(frozen=True, slots=True)
class Flight:
    """The cue ball's path along its line after a centre-ball jump stroke, from the physics."""

    elevation: float
    """The cue's elevation, rad."""
    speed: float
    """The stroke's speed, m/s."""
    starts: NDArray[np.float64]
    """Distance along the line where each hop leaves the cloth, m (ascending)."""
    ends: NDArray[np.float64]
    """Where each hop comes back down, m."""
    rise: NDArray[np.float64]
    """Each hop's upward speed over its horizontal speed (the slope at take-off)."""
    fall: NDArray[np.float64]
    """Each hop's g / (2 horizontal speed^2), 1/m: height = rise x - fall x^2 (x from the start)."""
    reach: float
    """How far along the line the flight is known (to the first cushion or where it stops), m."""

    def height(self, along: NDArray[np.float64]) -> NDArray[np.float64]:
        """The cue ball's centre above its height at rest (m) at distances ``along`` (m)."""
        out = np.zeros_like(along)
        for start, end, rise, fall in zip(
            self.starts, self.ends, self.rise, self.fall, strict=True
        ):
            inside = (along >= start) & (along <= end)
            x = along[inside] - start
            out[inside] = np.maximum(rise * x - fall * x * x, 0.0)
        return out


_FLIGHTS: dict[PhysicsParams, tuple[tuple[Flight, ...], NDArray[np.float64]]] = {}
"""Per parameter set: the flights, and their heights on a grid (see :func:`_heights`)."""
_UNKNOWN = 1e3
"""A height (m) standing for "not known here" in the grid: past a flight's reach."""


def _measure(layout: PreparedBalls, elevation: float, speed: float, g: float) -> Flight:
    """One flight: a lone cue ball struck up the table along +y."""
    trajectory = layout.strike(Stroke(speed=speed, aim=math.pi / 2, elevation=elevation))
    y0 = float(trajectory.initial[0, 0, 1])
    # The first hop starts at the stroke (t = 0), each later one at an ``airborne`` event.
    starts, ends, rise, fall = [], [], [], []
    open_hop: tuple[float, float, float] | None = None
    state = trajectory.initial[0]
    if state[1, 2] > 0.0:
        open_hop = (0.0, float(state[1, 1]), float(state[1, 2]))
    reach = float(trajectory.final[0, 0, 1]) - y0
    for e in range(trajectory.times.shape[0]):
        kind = EventKind.from_code(int(trajectory.kinds[e]))
        after = trajectory.after[e, 0]
        along = float(after[0, 1]) - y0
        if open_hop is not None and kind in (EventKind.AIRBORNE, EventKind.LAND):
            start, vh, vz = open_hop
            starts.append(start)
            ends.append(along)
            rise.append(vz / vh)
            fall.append(g / (2.0 * vh * vh))
            open_hop = None
        if kind is EventKind.AIRBORNE:
            open_hop = (along, float(after[1, 1]), float(after[1, 2]))
        elif kind in (EventKind.CUSHION, EventKind.OFF_TABLE, EventKind.BALL_BALL):
            reach = along
            break
    return Flight(
        elevation=elevation,
        speed=speed,
        starts=np.array(starts),
        ends=np.array(ends),
        rise=np.array(rise),
        fall=np.array(fall),
        reach=reach,
    )


def flights(params: PhysicsParams) -> tuple[Flight, ...]:
    """Every flight of the grid (:data:`JUMP_ELEVATIONS` x :data:`JUMP_SPEEDS`) under ``params``.

    Elevation-major. Measured from the physics on the first call for ``params`` (a few hundredths
    of a second), then kept.
    """
    return _measured(params)[0]


def _heights(params: PhysicsParams) -> NDArray[np.float64]:
    """The flights' heights (m) every :data:`_STEP` m along, shape (elevations, speeds, points).

    :data:`_UNKNOWN` past a flight's reach.
    """
    return _measured(params)[1]


def _measured(params: PhysicsParams) -> tuple[tuple[Flight, ...], NDArray[np.float64]]:
    cached = _FLIGHTS.get(params)
    if cached is None:
        r = params.radius
        layout = PreparedBalls([BallInput(id=0, r=(0.635, r + 0.001))], params=params)
        every = tuple(
            _measure(layout, elevation, speed, params.g)
            for elevation in JUMP_ELEVATIONS
            for speed in JUMP_SPEEDS
        )
        points = int(max(f.reach for f in every) / _STEP) + 2
        xs = np.arange(points, dtype=np.float64) * _STEP
        grid = np.stack([np.where(xs <= f.reach, f.height(xs), _UNKNOWN) for f in every])
        grid = grid.reshape(len(JUMP_ELEVATIONS), len(JUMP_SPEEDS), points)
        grid.setflags(write=False)
        if len(_FLIGHTS) > 8:  # parameter sets are few; never let the cache grow without bound
            _FLIGHTS.clear()
        cached = _FLIGHTS[params] = (every, grid)
    return cached


@dataclass(frozen=True, slots=True, kw_only=True)
class JumpShot:
    """A jump stroke the geometry says works, for the search to score."""

    stroke: Stroke
    target: str
    """What it tries, e.g. ``"jump: 3 in foot_left over the 5"``."""
    ball: int
    """The lowest ball."""
    pocket: str = ""
    """The pocket it aims the lowest ball at (a :class:`PocketId` value; empty: a hit)."""
    over: tuple[int, ...] = ()
    """The balls it jumps."""
    width: float = 0.0
    """The range of speeds (m/s) around the stroke's that also work: the room for error."""


def is_hidden(view: Position, cue: Point) -> bool:
    """Whether a ball stands between the cue ball at ``cue`` and the lowest ball's centre."""
    target = view.state.lowest
    ball = view.layout[target]
    return not is_path_clear(cue, ball, view.layout, (BallId.CUE, target), view.params.radius)


def _meets(
    heights: NDArray[np.float64], along: list[float], lateral: list[float], target: int, r: float
) -> NDArray[np.float64]:
    """For every flight of ``heights``, the cue ball's height (m) where it meets the target.

    ``target`` indexes ``along`` and ``lateral`` (the balls near the line, m). NaN where the
    flight fails: it meets another ball first, or passes one with less than :data:`CLEARANCE`
    to spare.
    """
    points = heights.shape[-1]
    xs = np.arange(points) * _STEP
    first = []  # where each ball is first met, per flight (inf: never)
    for d, b in zip(along, lateral, strict=True):
        reach = math.sqrt(4.0 * r * r - b * b)
        k0 = max(math.ceil((d - reach) / _STEP), 0)
        k1 = min(math.floor((d + reach) / _STEP) + 1, points)
        met = np.full(heights.shape[:2], np.inf)
        if k0 < k1:
            x = xs[k0:k1]
            inside = (d - x) ** 2 + b * b + heights[:, :, k0:k1] ** 2 < 4.0 * r * r
            hit = inside.any(axis=-1)
            met[hit] = x[np.argmax(inside, axis=-1)][hit]
        first.append(met)
    s = first[target]
    ok = np.isfinite(s)
    for q, (d, b) in enumerate(zip(along, lateral, strict=True)):
        if q == target:
            continue
        ok &= first[q] > s
        k0 = max(math.ceil((d - 2.0 * r) / _STEP), 0)
        k1 = min(math.floor((d + 2.0 * r) / _STEP) + 1, points)
        if k0 < k1:
            x = xs[k0:k1]
            gap = np.sqrt((d - x) ** 2 + b * b + heights[:, :, k0:k1] ** 2) - 2.0 * r
            before = x[None, None, :] < s[:, :, None]
            ok &= np.where(before, gap, np.inf).min(axis=-1) >= CLEARANCE
    index = np.clip(np.nan_to_num(s / _STEP, posinf=0.0).astype(np.int64), 0, points - 1)
    height = np.take_along_axis(heights, index[:, :, None], axis=-1)[:, :, 0]
    return np.where(ok, height, np.nan)


def _widest_run(works: list[bool]) -> tuple[int, int] | None:
    """The first and last index of the longest run of True in ``works`` (None: no True)."""
    best: tuple[int, int] | None = None
    start: int | None = None
    for k, ok in enumerate([*works, False]):
        if ok and start is None:
            start = k
        elif not ok and start is not None:
            if best is None or k - 1 - start > best[1] - best[0]:
                best = (start, k - 1)
            start = None
    return best


@dataclass(frozen=True, slots=True)
class _Line:
    """The balls near a line from the cue ball: ids, distances along it and off it (m)."""

    ids: list[int]
    along: list[float]
    lateral: list[float]


def _line(view: Position, cue: Point, phi: float) -> _Line:
    r = view.params.radius
    ux, uy = math.cos(phi), math.sin(phi)
    line = _Line(ids=[], along=[], lateral=[])
    for other, (x, y) in view.layout.items():
        d = (x - cue[0]) * ux + (y - cue[1]) * uy
        b = -(x - cue[0]) * uy + (y - cue[1]) * ux
        if other is not BallId.CUE and d > 0.0 and abs(b) < 2.0 * r:
            line.ids.append(int(other))
            line.along.append(d)
            line.lateral.append(b)
    return line


def _line_shots(
    view: Position, line: _Line, max_height: float
) -> list[tuple[float, float, float, float]]:
    """(elevation, speed, width, height at contact) of the jump strokes along ``line``.

    Each is the middle of the widest run of speeds at its elevation whose flight meets the
    lowest ball first, at most ``max_height`` m up; the widest :data:`PER_LINE`.
    """
    r = view.params.radius
    target = int(view.state.lowest)
    met = _meets(_heights(view.params), line.along, line.lateral, line.ids.index(target), r)
    found: list[tuple[float, float, float, float]] = []
    for e, elevation in enumerate(JUMP_ELEVATIONS):
        run = _widest_run([bool(h <= max_height) for h in met[e]])
        if run is not None:
            lo, hi = run
            mid = (lo + hi) // 2
            found.append(
                (
                    elevation,
                    JUMP_SPEEDS[mid],
                    JUMP_SPEEDS[hi] - JUMP_SPEEDS[lo],
                    float(met[e, mid]),
                )
            )
    found.sort(key=lambda f: -f[2])
    return found[:PER_LINE]


def jump_shots(view: Position, cue: Point) -> list[JumpShot]:
    """Jump strokes at the lowest ball when a ball hides it from the cue ball at ``cue``.

    A full hit, and pots in every pocket the lowest ball has a clear path to at a cut of at
    most :data:`MAX_CUT`; none when the lowest ball is in plain view (:func:`is_hidden`).
    """
    if not is_hidden(view, cue):
        return []
    r = view.params.radius
    target = view.state.lowest
    ball = view.layout[target]
    balls = {int(b): p for b, p in view.layout.items() if b is not BallId.CUE}
    balls[0] = cue
    lines: list[tuple[float, PocketId | None]] = [
        (math.atan2(ball[1] - cue[1], ball[0] - cue[0]), None)
    ]
    for each in PocketId:
        spot = pocket_aim(view.table, each)
        ghost = ghost_ball(ball, spot, r)
        if cut_angle(cue, ghost, ball, spot) <= MAX_CUT and is_path_clear(
            ball, spot, view.layout, (BallId.CUE, target), r
        ):
            lines.append((math.atan2(ghost[1] - cue[1], ghost[0] - cue[0]), each))
    out: list[JumpShot] = []
    for phi, pocket in lines:
        line = _line(view, cue, phi)
        if int(target) not in line.ids:
            continue
        reach_target = line.along[line.ids.index(int(target))]
        over = tuple(
            i
            for i, d in zip(line.ids, line.along, strict=True)
            if i != int(target) and d < reach_target
        )
        jumped = " over the " + ", ".join(map(str, over)) if over else ""
        # A pot must meet the object ball on the cloth: met in the air, the object ball's line
        # turns with the height of the meeting, which a small error in speed changes.
        for elevation, speed, width, height in _line_shots(
            view, line, LANDED if pocket is not None else math.inf
        ):
            aim = phi
            if pocket is not None:
                # Met in the air, the centres touch at a slant: their horizontal distance is
                # less than 2R, so the aim point moves toward the object ball.
                spot = pocket_aim(view.table, pocket)
                reach = math.sqrt(max(4.0 * r * r - height * height, 0.0))
                point = ghost_ball(ball, spot, reach / 2.0)
                aim = math.atan2(point[1] - cue[1], point[0] - cue[0])
            stroke = Stroke(speed=speed, aim=aim, elevation=elevation)
            if cue_contacts(balls, stroke, view.params):
                continue  # the stick or the bridge hand would move a ball (clause 11)
            what = f"{int(target)} in {pocket.value}" if pocket else f"hit the {int(target)}"
            out.append(
                JumpShot(
                    stroke=stroke,
                    target=f"jump: {what}{jumped}",
                    ball=int(target),
                    pocket="" if pocket is None else pocket.value,
                    over=over,
                    width=width,
                )
            )
    return out
