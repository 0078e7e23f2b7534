"""The game: where the referee and the physics meet (racks, strokes, matches, records, storage).

This is the only package that imports both :mod:`nineball.rules` and :mod:`nineball.physics`.
The record reader (:func:`read_record`, :func:`load_record`, :func:`record_schema`) is loaded
on first use: it brings pydantic, which the programs that only play and write need not import.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

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
from nineball.game.rulings import check_rulings

if TYPE_CHECKING:
    from nineball.game.record_models import record_schema
    from nineball.game.record_read import load_record, read_record

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
    "record_schema",
    "record_to_json",
]

_LAZY = {
    "load_record": "nineball.game.record_read",
    "read_record": "nineball.game.record_read",
    "record_schema": "nineball.game.record_models",
}
"""The names loaded on first use, and their modules."""


def __getattr__(name: str) -> object:
    """The record reader's names, imported on first use.

    Raises:
        AttributeError: ``name`` is not one of them.
    """
    if name in _LAZY:
        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
