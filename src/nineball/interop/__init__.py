"""Other programs' files, read and written by nineball: pooltool's shots (``docs/pooltool.md``).

nineball imports nothing of those programs: it reads and writes their file formats itself.
"""

from __future__ import annotations

from nineball.interop.pooltool import (
    BALL_IDS,
    POCKET_IDS,
    PooltoolCue,
    PooltoolFileError,
    PooltoolOutcome,
    PooltoolShot,
    ball_speed,
    cue_speed,
    dump_pooltool,
    load_pooltool,
    read_pooltool,
    record_shots,
    save_pooltool,
)

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
