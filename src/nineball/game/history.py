"""The positions of a match record, entry by entry, from the layouts it holds (no physics).

A simulated match's record keeps each rack and where the balls came to rest after every stroke;
:func:`recorded_positions` rebuilds the :class:`~nineball.game.position.Position` before each
entry from them and from the referee's rulings, without simulating anything (what a review of
the match needs; :func:`nineball.game.match.replay` plays the strokes again instead).
"""

from __future__ import annotations

from collections.abc import Iterator

from nineball.equipment import BallId, Point
from nineball.game.match import TABLES
from nineball.game.position import Position
from nineball.game.record import InvalidRecordError, MatchRecord, RecordProblem, ShotKind
from nineball.game.rulings import RuledShot, iter_rulings
from nineball.physics import PhysicsParams, nine_foot

__all__ = ["recorded_positions"]


def recorded_positions(record: MatchRecord) -> Iterator[tuple[RuledShot, Position]]:
    """Every entry of a record with the position before it, from the recorded layouts.

    Nothing is simulated: each game starts from its recorded rack and each stroke leaves the
    balls where the record says they came to rest (a cue ball in hand is not placed).

    Raises:
        InvalidRecordError: a game without its rack or a stroke without its resting layout (a
            match scored by hand), or an entry the referee refuses.
    """
    table = TABLES.get(record.table, nine_foot)()
    params = PhysicsParams(**dict(record.params))
    layout: dict[BallId, Point] = {}
    for entry in iter_rulings(record):
        shot = entry.shot
        place = f"$.games[{entry.game}]"
        if entry.index == 0:
            racked = record.games[entry.game].rack
            if racked is None:
                raise InvalidRecordError([RecordProblem(place, "no rack: the layout is unknown")])
            layout = dict(racked)
        yield entry, Position(state=entry.before, layout=layout, table=table, params=params)
        if shot.kind is ShotKind.STROKE:
            if shot.positions is None:
                where = f"{place}.shots[{entry.index}]"
                problem = RecordProblem(where, "no positions: the layout after it is unknown")
                raise InvalidRecordError([problem])
            layout = dict(shot.positions)
