"""Many matches' strokes simulated together: :func:`strike_matches`."""

from __future__ import annotations

from collections.abc import Sequence

from nineball.errors import InvalidInputError, NineballError
from nineball.game.match import Match
from nineball.game.noise import ExecutionNoise
from nineball.game.report import PendingStroke, ShotReport
from nineball.game.step import play_strokes
from nineball.physics import Stroke

__all__ = ["strike_matches"]


def strike_matches(
    matches: Sequence[Match],
    strokes: Sequence[Stroke],
    *,
    push_outs: Sequence[bool] | None = None,
    safeties: Sequence[bool] | None = None,
    noises: Sequence[ExecutionNoise | None] | None = None,
    max_events: int = 10000,
) -> list[ShotReport]:
    """``matches[i].strike(strokes[i], push_out=..., safety=..., noise=...)`` for each i, together.

    The strokes' simulations run in one compiled call over the cores
    (:func:`nineball.game.play_strokes`); each match ends as its own :meth:`Match.strike`
    would leave it, bit for bit (each draws its noise from its own streams). A match may
    appear once.

    Raises:
        InvalidInputError: sequences of different lengths, or a match given twice; nothing
            changes.
        NineballError: a stroke refused (as :meth:`Match.strike` raises, led by its index):
            none of the matches changes.
    """
    size = len(matches)
    pushes: list[bool] = [False] * size if push_outs is None else list(push_outs)
    safe: list[bool] = [False] * size if safeties is None else list(safeties)
    noise_of: list[ExecutionNoise | None] = [None] * size if noises is None else list(noises)
    if not len(strokes) == len(pushes) == len(safe) == len(noise_of) == size:
        raise InvalidInputError(
            f"{size} matches: give as many strokes, push outs, safeties and noises"
        )
    if len({id(m) for m in matches}) != size:
        raise InvalidInputError("a match is given twice: one stroke per match")
    pending: list[PendingStroke] = []
    for i, match in enumerate(matches):
        try:
            pending.append(match._pending(strokes[i], None, pushes[i], safe[i], None, noise_of[i]))
        except NineballError as error:
            raise type(error)(f"stroke {i}: {error}") from error
    outcomes = play_strokes(
        [p.position for p in pending],
        [p.stroke for p in pending],
        push_outs=pushes,
        racks=[m._rack for m in matches],
        max_events=max_events,
    )
    return [m._played(p, o) for m, p, o in zip(matches, pending, outcomes, strict=True)]
