"""pooltool's saved shots (its ``System`` and ``MultiSystem`` files), read and written by nineball.

pooltool (github.com/ekiefl/pooltool) is never imported: :mod:`.file` reads and writes its two
file formats, :mod:`.table` maps its table geometry, :mod:`.read` and :mod:`.write` the rest.
``docs/pooltool.md`` is the guide.
"""

from __future__ import annotations

from nineball.interop.pooltool.file import PooltoolFileError
from nineball.interop.pooltool.read import load_pooltool, read_pooltool
from nineball.interop.pooltool.shot import (
    BALL_IDS,
    PooltoolCue,
    PooltoolOutcome,
    PooltoolShot,
    ball_speed,
    cue_speed,
)
from nineball.interop.pooltool.table import POCKET_IDS
from nineball.interop.pooltool.write import dump_pooltool, record_shots, save_pooltool

__all__ = [
    "BALL_IDS",
    "POCKET_IDS",
    "PooltoolCue",
    "PooltoolFileError",
    "PooltoolOutcome",
    "PooltoolShot",
    "ball_speed",
    "cue_speed",
    "dump_pooltool",
    "load_pooltool",
    "read_pooltool",
    "record_shots",
    "save_pooltool",
]
