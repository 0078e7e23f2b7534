"""Checked access to a decoded pooltool file: every value read names its place when it is bad.

Places are JSON paths into the file: ``$.balls["3"].state.rvw[0][1]``.
"""

from __future__ import annotations

import math
from typing import Any

from nineball.interop.pooltool.file import PooltoolFileError

__all__ = ["get", "inside", "number", "obj", "short", "text", "vector"]


def inside(where: str, key: str | int) -> str:
    """The place of ``key`` inside the value at ``where``."""
    if isinstance(key, int):
        return f"{where}[{key}]"
    return f"{where}.{key}" if key.isidentifier() else f"{where}[{key!r}]"


def short(value: object) -> str:
    """A value as a message shows it: its repr, cut at 80 characters."""
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def obj(value: object, where: str) -> dict[str, Any]:
    """``value`` as an object (a JSON object, a msgpack map).

    Raises:
        PooltoolFileError: it is not one.
    """
    if not isinstance(value, dict):
        raise PooltoolFileError(where, f"must be an object, got {short(value)}")
    return value


def get(value: object, key: str, where: str) -> Any:
    """The field ``key`` of the object ``value`` at ``where``.

    Raises:
        PooltoolFileError: ``value`` is not an object, or has no such field.
    """
    if key not in obj(value, where):
        raise PooltoolFileError(inside(where, key), "is missing")
    return value[key]  # type: ignore[index]


def number(value: object, where: str, low: float | None = None, high: float | None = None) -> float:
    """``value`` as a finite number in [``low``, ``high``].

    Raises:
        PooltoolFileError: not a number (booleans are not), not finite, or out of range.
    """
    if isinstance(value, bool) or not isinstance(value, int | float) or not math.isfinite(value):
        raise PooltoolFileError(where, f"must be a finite number, got {short(value)}")
    if (low is not None and value < low) or (high is not None and value > high):
        raise PooltoolFileError(where, f"must be in [{low}, {high}], got {value!r}")
    return float(value)


def text(value: object, where: str) -> str:
    """``value`` as a string of at most 200 characters.

    Raises:
        PooltoolFileError: not a string, or a longer one.
    """
    if not isinstance(value, str) or len(value) > 200:
        raise PooltoolFileError(
            where, f"must be a string (at most 200 characters), got {short(value)}"
        )
    return value


def vector(value: object, where: str, size: int, what: str) -> list[float]:
    """``value`` as ``size`` numbers, each within 1000 (m, m/s or rad/s).

    Raises:
        PooltoolFileError: not a list of ``size`` such numbers.
    """
    if not isinstance(value, list) or len(value) != size:
        raise PooltoolFileError(where, f"must be {size} numbers ({what}), got {short(value)}")
    return [number(x, inside(where, i), -1e3, 1e3) for i, x in enumerate(value)]
