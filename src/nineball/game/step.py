"""The step of the game: a position and a stroke in, what happened and the next position out.

:func:`play_stroke` is the one place where the two halves of the package meet on a stroke: the
physics plays it, the trajectory's facts go to the referee, and the ruling decides the next
position (balls pocketed leave the table, the 9 is respotted (D3), a new rack when a game ends).
It is pure: the same position and stroke give the same outcome, bit for bit, and nothing else
changes. :class:`nineball.game.Match` records and stores its outcomes; the computer players'
search, the analysis, the break optimiser and the environments all call it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TypeVar

from nineball.equipment import BALLS, BallId, Point
from nineball.errors import InvalidInputError, NineballError
from nineball.game.layout import Layout, respot_nine
from nineball.game.position import Position
from nineball.physics import MotionState, PhysicsParams, Stroke, Trajectory, strike_batch
from nineball.physics.cue import ELEVATED, cue_contacts
from nineball.rules import Ruling, ShotFacts, check_stroke, shoot

__all__ = [
    "Racks",
    "ShotOutcome",
    "obstruction_moved",
    "play_stroke",
    "play_strokes",
    "to_referee_facts",
    "try_strokes",
]

T = TypeVar("T")

Racks = Callable[[int], Mapping[BallId, Point]]
"""How a match racks its games: the layout of game ``number``."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotOutcome:
    """What one stroke did."""

    trajectory: Trajectory
    """Every event and state, for animation and analysis."""
    facts: ShotFacts
    """What the referee was told."""
    ruling: Ruling
    """The referee's decision."""
    layout: dict[BallId, Point]
    """The balls on the table once they came to rest (the 9 respotted)."""
    after: Position
    """The next position: the balls of :attr:`layout`, or a new rack when the stroke ended a
    game and the match goes on (no balls at all when :func:`play_stroke` had no ``racks``)."""


def to_referee_facts(trajectory: Trajectory, *, obstruction_moved: bool = False) -> ShotFacts:
    """What the physics saw, in the referee's terms (the physics is the referee's eyes)."""
    seen = trajectory.facts()
    return ShotFacts.of(
        first_contact=seen.first_contact,
        pocketed=seen.pocketed,
        off_table=seen.off_table,
        rails=seen.rails,
        obstruction_moved=obstruction_moved,
    )


def obstruction_moved(layout: Layout, stroke: Stroke, params: PhysicsParams | None = None) -> bool:
    """Clause 11: whether a jump, curve or massé attempt moves an obstructing ball.

    The stroke is such an attempt when the cue is raised at least
    :data:`nineball.physics.cue.ELEVATED` (:func:`_attempt`); the ball moves when the stick or
    the bridge hand touches it (:func:`nineball.physics.cue.cue_contacts`).
    """
    if not _attempt(stroke) or BallId.CUE not in layout:
        return False
    balls = {int(b): p for b, p in layout.items()}
    return bool(cue_contacts(balls, stroke, params))


def _attempt(stroke: Stroke) -> bool:
    """Whether the stroke is a jump, curve or massé attempt (clause 11): a raised cue."""
    return stroke.elevation >= ELEVATED


def lying(trajectory: Trajectory) -> dict[BallId, Point]:
    """The balls on the table at the end of a trajectory (neither pocketed nor off it).

    Read from the final arrays (no :class:`BallState` made for each ball: this runs for every
    stroke a search or a learning environment plays).
    """
    where = trajectory.final[:, 0, :2].tolist()
    motions = trajectory.final_motion.tolist()
    return {
        BALLS[ball]: (where[i][0], where[i][1])
        for i, ball in enumerate(trajectory.ball_ids)
        if motions[i] not in _GONE
    }


_GONE = (int(MotionState.POCKETED), int(MotionState.OFF_TABLE))


def play_stroke(
    position: Position,
    stroke: Stroke,
    *,
    push_out: bool = False,
    racks: Racks | None = None,
    max_events: int = 10000,
) -> ShotOutcome:
    """Play ``stroke`` from ``position``: simulate it, rule on it, set up the next position.

    Args:
        position: the position before the stroke; a cue ball in hand must be placed
            (:meth:`Position.place`), or lie on the table where it may be played from.
        stroke: the stroke as executed (execution noise already applied).
        push_out: the shooter declared a push out (clause 5).
        racks: how the next game is racked when this stroke ends one.
        max_events: the physics' event bound.

    Raises:
        IllegalActionError: the match is over, a push-out choice is pending, a push out is not
            allowed, or the cue ball is in hand and not placed.
        InvalidPlacementError: the balls cannot be played from where they are.
        InvalidInputError: a stroke the physics refuses (a miscue).
    """
    position = _ready(position, push_out)
    trajectory = position.prepared.strike(stroke, max_events=max_events)
    return _outcome(position, stroke, trajectory, push_out, racks)


def _ready(position: Position, push_out: bool) -> Position:
    """The position checked for a stroke and ready to strike (what :func:`play_stroke` raises)."""
    check_stroke(position.state, push_out=push_out)  # refused before it is played
    return position.ready()


def _outcome(
    position: Position,
    stroke: Stroke,
    trajectory: Trajectory,
    push_out: bool,
    racks: Racks | None,
) -> ShotOutcome:
    """The ruling on a trajectory played from ``position`` and the position after it."""
    # the balls are gathered only for an attempt (most strokes are level)
    moved = _attempt(stroke) and obstruction_moved(position.balls, stroke, position.params)
    facts = to_referee_facts(trajectory, obstruction_moved=moved)
    ruling = shoot(position.state, facts, push_out=push_out)
    after = lying(trajectory)
    if ruling.respotted:
        after[BallId.NINE] = respot_nine(after, position.table, position.params)
    if ruling.game_over is not None and not ruling.state.is_over:
        number = ruling.state.game.number
        following: Mapping[BallId, Point] = {} if racks is None else racks(number)
    else:
        following = after
    return ShotOutcome(
        trajectory=trajectory,
        facts=facts,
        ruling=ruling,
        layout=after,
        after=Position(
            state=ruling.state, layout=following, table=position.table, params=position.params
        ),
    )


def _each(value: T | Sequence[T], size: int, name: str, kind: type[T]) -> list[T]:
    """``value`` for each of ``size`` strokes: one for all, or a sequence of one each.

    Raises:
        InvalidInputError: a sequence of another length.
    """
    if isinstance(value, kind):
        return [value] * size
    items = list(value)  # type: ignore[arg-type]
    if len(items) != size:
        raise InvalidInputError(f"{name}: {len(items)} given for {size} strokes")
    return items


_PENDING = NineballError("not played yet")
"""The place of a stroke in :func:`try_strokes`'s list until its outcome is in."""


def try_strokes(
    positions: Position | Sequence[Position],
    strokes: Sequence[Stroke],
    *,
    push_outs: bool | Sequence[bool] = False,
    racks: Racks | Sequence[Racks | None] | None = None,
    max_events: int = 10000,
) -> list[ShotOutcome | NineballError]:
    """:func:`play_stroke` for many strokes, simulated together; each one's outcome or error.

    Stroke i is played from ``positions[i]`` (or from the one position given), with
    ``push_outs[i]`` and ``racks[i]`` (or the one value given). The simulations run in one
    compiled call over all the cores (:func:`nineball.physics.strike_batch`); the referee
    rules on each in turn. Entry i is what ``play_stroke(positions[i], strokes[i], ...)``
    returns, bit for bit, or the error it raises.

    Raises:
        InvalidInputError: a sequence whose length is not the strokes', or a bad
            ``max_events`` (the errors of single strokes are in the list).
    """
    size = len(strokes)
    where = _each(positions, size, "positions", Position)
    pushes = _each(push_outs, size, "push_outs", bool)
    rackings: list[Racks | None]
    if racks is None or callable(racks):
        rackings = [racks] * size
    else:
        rackings = list(racks)
        if len(rackings) != size:
            raise InvalidInputError(f"racks: {len(rackings)} given for {size} strokes")
    out: list[ShotOutcome | NineballError] = []
    ready: list[Position] = []
    played: list[int] = []
    for i in range(size):
        try:
            position = _ready(where[i], pushes[i])
            _ = position.prepared  # packed (checked with the strike: an error is the stroke's)
        except NineballError as error:
            out.append(error)
            continue
        out.append(_PENDING)
        ready.append(position)
        played.append(i)
    batch = strike_batch(
        [p.prepared for p in ready], [strokes[i] for i in played], max_events=max_events
    )
    for q, i in enumerate(played):
        refused = batch.errors[q]
        if refused is not None:
            out[i] = refused
            continue
        out[i] = _outcome(ready[q], strokes[i], batch.trajectory(q), pushes[i], rackings[i])
    return out


def play_strokes(
    positions: Position | Sequence[Position],
    strokes: Sequence[Stroke],
    *,
    push_outs: bool | Sequence[bool] = False,
    racks: Racks | Sequence[Racks | None] | None = None,
    max_events: int = 10000,
) -> list[ShotOutcome]:
    """:func:`play_stroke` for many strokes, simulated together (see :func:`try_strokes`).

    Entry i is ``play_stroke(positions[i], strokes[i], ...)``, bit for bit.

    Raises:
        NineballError: the first stroke's error, of its class, its message led by the
            stroke's index (``stroke 3: ...``); the call is refused as a whole.
    """
    results = try_strokes(
        positions, strokes, push_outs=push_outs, racks=racks, max_events=max_events
    )
    out: list[ShotOutcome] = []
    for i, result in enumerate(results):
        if isinstance(result, NineballError):
            raise type(result)(f"stroke {i}: {result}") from result
        out.append(result)
    return out
