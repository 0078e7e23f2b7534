"""The aiming aid: a stroke as aimed now, played by the engine without noise, as the page draws it.

A page sends ``preview`` with the stroke it would strike; the session plays it through
:meth:`nineball.game.Match.preview` (the very stroke :meth:`~nineball.game.Match.strike` would
play, nothing changed, no random stream drawn from) and :func:`preview_json` writes what the aid
shows: the cue ball's path, the first object ball's path from the contact on, as polylines
sampled from the engine's own pieces of motion, the ghost ball (the cue ball's centre at the first
contact), the first ball hit, and whether it is not the ball on. :class:`Previews` keeps one
preview computing per connection: a newer request supersedes an older one.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Generic, TypeVar

import numpy as np

from nineball.errors import NineballError
from nineball.game import EventKind, MotionPiece, ShotOutcome, Trajectory, motion_pieces

__all__ = ["MAX_POINTS", "Previews", "polyline", "preview_json"]

MAX_POINTS = 240
"""The most points of one path (a path longer than this is cut: the aid shows its start)."""

_CURVED_STEPS = 8
"""Points per piece of a curving ball (a straight piece needs only its two ends)."""

_BEND = 0.001
"""How far a piece may bend off its chord and still be drawn as one segment, m."""

_DIGITS = 4
"""Decimals of a coordinate, m (0.1 mm: far below a pixel, and short JSON)."""

_LOG = logging.getLogger(__name__)

Item = TypeVar("Item")


def _moves(piece: MotionPiece) -> bool:
    c = piece.coefficients
    return piece.end > piece.start and bool(abs(c[1, :2]).max() > 0 or abs(c[2, :2]).max() > 0)


def _curved(piece: MotionPiece, start: float) -> bool:
    """Whether the piece from ``start`` bends off its chord by more than :data:`_BEND` (m)."""
    c = piece.coefficients
    span = piece.end - start
    dt0 = start - piece.start
    velocity = c[1, :2] + 2 * c[2, :2] * dt0  # at ``start``
    chord = velocity * span + c[2, :2] * span * span
    length = float(np.hypot(*chord))
    if length < 1e-9:
        return False
    across = abs(float(c[2, 0] * chord[1] - c[2, 1] * chord[0])) / length
    return across * span * span / 4 > _BEND


def polyline(pieces: tuple[MotionPiece, ...], since: float = 0.0) -> list[list[float]]:
    """A ball's centre on the cloth from ``since`` (s) until it rests, as ``[[x, y], ...]`` (m).

    Each piece the ball moves in gives its two ends, and a curving piece (a swerve, a massé, a
    ball that slides off a contact) points in between; at most :data:`MAX_POINTS` points.
    """
    out: list[list[float]] = []

    def add(t: float, piece: MotionPiece) -> None:
        x, y, _ = piece.position(t)
        point = [round(float(x), _DIGITS), round(float(y), _DIGITS)]
        if not out or out[-1] != point:
            out.append(point)

    for piece in pieces:
        if piece.end <= since or not _moves(piece):
            continue
        start = max(piece.start, since)
        steps = _CURVED_STEPS if _curved(piece, start) else 1
        for k in range(steps + 1):
            if len(out) >= MAX_POINTS:
                return out
            add(start + (piece.end - start) * k / steps, piece)
    if not out:  # a ball that never moves: where it stands
        add(since, pieces[0])
    return out


def _first_contact(trajectory: Trajectory, ball: int) -> tuple[float, list[float]] | None:
    """When the cue ball first meets ``ball``, and where the cue ball's centre is then (m)."""
    for event in trajectory.events():
        if event.kind is EventKind.BALL_BALL and set(event.balls) == {0, ball}:
            r = event.states[event.balls.index(0)].r
            return event.time, [round(float(r[0]), _DIGITS), round(float(r[1]), _DIGITS)]
    return None  # pragma: no cover - the first contact is one of the events


def preview_json(outcome: ShotOutcome, *, lowest: int, push_out: bool) -> dict[str, object]:
    """What the aiming aid shows of a stroke played without noise.

    Args:
        outcome: the stroke as the engine plays it (:meth:`nineball.game.Match.preview`).
        lowest: the ball on (the lowest ball on the table).
        push_out: the stroke is a push out, where any first ball is legal.
    """
    trajectory = outcome.trajectory
    pieces = motion_pieces(trajectory)
    index = {ball: k for k, ball in enumerate(trajectory.ball_ids)}
    first = outcome.facts.first_contact
    paths = {"0": polyline(pieces[index[0]])}
    ghost = None
    if first is not None:
        contact = _first_contact(trajectory, int(first))
        if contact is not None:
            paths[str(int(first))] = polyline(pieces[index[int(first)]], contact[0])
            ghost = contact[1]
    return {
        "type": "preview",
        "first": None if first is None else int(first),
        "lowest": lowest,
        "wrong_ball": first is not None and int(first) != lowest and not push_out,
        "ghost": ghost,
        "paths": paths,
        "pocketed": sorted(int(b) for b in outcome.facts.pocketed),
    }


class Previews(Generic[Item]):
    """One connection's previews: one computed at a time, the newest request waiting.

    A request made while another is computed waits, replacing any request already waiting (the
    stroke has changed again); the answer of a request superseded while it was computed is
    dropped, so the page hears only about a stroke that is still the one it aims. A refusal is
    an ``error`` with ``"about": "preview"``: the page's aid takes it, not its status line.
    """

    def __init__(
        self,
        compute: Callable[[Item], Awaitable[dict[str, object]]],
        send: Callable[[dict[str, object]], Awaitable[None]],
    ) -> None:
        """Answer each request with ``compute``'s message, sent with ``send``."""
        self._compute = compute
        self._send = send
        self._waiting: Item | None = None
        self._task: asyncio.Task[None] | None = None
        self.computed = 0
        """How many requests were computed (for tests)."""
        self.dropped = 0
        """How many answers were dropped, superseded while computed (for tests)."""

    def request(self, item: Item) -> None:
        """Ask for a preview of ``item``; it supersedes any request not yet answered."""
        self._waiting = item
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run())

    async def idle(self) -> None:
        """Wait until every request is answered or dropped."""
        while self._task is not None and not self._task.done():
            await asyncio.shield(self._task)

    def close(self) -> None:
        """Stop: the connection is gone."""
        self._waiting = None
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        while self._waiting is not None:
            item, self._waiting = self._waiting, None
            self.computed += 1
            try:
                answer = await self._compute(item)
            except (NineballError, ValueError) as error:
                answer = {"type": "error", "message": str(error)[:300], "about": "preview"}
            except Exception as error:  # a fault of the server's: said, logged
                _LOG.exception("a preview failed")
                answer = {
                    "type": "error",
                    "message": f"internal error: {error!s:.200}",
                    "about": "preview",
                }
            if self._waiting is not None:  # the stroke changed meanwhile
                self.dropped += 1
                continue
            try:
                await self._send(answer)
            except Exception:  # the connection closed under us
                return
