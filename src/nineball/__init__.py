"""nineball: the game of nine-ball pool in Python.

The facade re-exports the main names of the referee. Physics and game names are loaded lazily
on first use, so that ``import nineball.rules`` never imports numpy or numba.
"""

from __future__ import annotations

from nineball.__about__ import __version__
from nineball.equipment import BallId, PocketId
from nineball.errors import (
    IllegalActionError,
    InvalidInputError,
    InvalidPlacementError,
    InvalidShotError,
    NineballError,
    ProtocolError,
)

__all__ = [
    "BallId",
    "IllegalActionError",
    "InvalidInputError",
    "InvalidPlacementError",
    "InvalidShotError",
    "NineballError",
    "PocketId",
    "ProtocolError",
    "__version__",
]
