"""The game: where the referee and the physics meet (racks, strokes, matches, records, storage).

This is the only package that imports both :mod:`nineball.rules` and :mod:`nineball.physics`.
"""

from __future__ import annotations

from nineball.game.record import (
    RECORD_FORMAT,
    RECORD_VERSION,
    GameRecord,
    InvalidRecordError,
    MatchRecord,
    RecordProblem,
    ShotKind,
    ShotRecord,
    StrokeRecord,
    dump_record,
    record_to_json,
)
from nineball.game.record_read import load_record, read_record
from nineball.game.rulings import check_rulings

__all__ = [
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "GameRecord",
    "InvalidRecordError",
    "MatchRecord",
    "RecordProblem",
    "ShotKind",
    "ShotRecord",
    "StrokeRecord",
    "check_rulings",
    "dump_record",
    "load_record",
    "read_record",
    "record_to_json",
]
