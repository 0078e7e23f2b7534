"""A sound record as JSON and the kind of each of its fields, for the reader and schema tests.

:data:`KINDS` is the oracle: for each field, which JSON values the format admits there, written
from ``docs/record-format.md`` and independently of the pydantic models.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Callable
from typing import Any

from hypothesis import strategies as st

from nineball.rules import BreakRule, Choice, Foul, Termination

Path = tuple[str | int, ...]
"""A place in a JSON document: object keys and list indexes."""


def _facts(first: int | None = None, **lists: list[int]) -> dict[str, Any]:
    empty: dict[str, Any] = {"pocketed": [], "off_table": [], "rails": []}
    return {"first_contact": first, **empty, **lists, "obstruction_moved": False}


STROKE = {"speed": 7.1, "aim_deg": 91.0, "elevation_deg": 0.0, "side": 0.1, "height": -0.3}
BASE: dict[str, Any] = {
    "format": "nineball-record",
    "version": 1,
    "event": "club night",
    "date": "2026-11-30T18:00:00Z",
    "players": ["Ann", "Bob"],
    "race_to": 2,
    "breaks": "alternate",
    "first_breaker": 0,
    "rules": "fr",
    "refereed": True,
    "seed": 42,
    "table": "9ft",
    "params": {"mu_slide": 0.2},
    "agents": ["human", "ghost"],
    "games": [
        {
            "number": 1,
            "breaker": 0,
            "rack": {"1": [0.635, 1.905], "9": [0.635, 2.00397]},
            "shots": [
                {
                    "kind": "stroke",
                    "player": 0,
                    "push_out": False,
                    "cue_ball": [0.5, 0.3],
                    "stroke": STROKE,
                    "intended": {**STROKE, "speed": 7.0},
                    "facts": _facts(1, rails=[2, 3, 4, 5]),
                    "fouls": [],
                    "safety": True,
                    "positions": {"0": [0.30000000000000004, 0.3333333333333333]},
                },
                {
                    "kind": "stroke",
                    "player": 1,
                    "push_out": True,
                    "facts": _facts(rails=[0]),
                    "fouls": [],
                },
                {"kind": "choice", "player": 0, "choice": "pass"},
                {
                    "kind": "stroke",
                    "player": 1,
                    "push_out": False,
                    "facts": _facts(3),
                    "fouls": ["wrong_ball_first"],
                },
                {
                    "kind": "stroke",
                    "player": 0,
                    "push_out": False,
                    "facts": _facts(1, pocketed=[9]),
                    "fouls": [],
                },
            ],
            "result": {"winner": 0, "reason": "nine_ball"},
        },
        {
            "number": 2,
            "breaker": 1,
            "rack": None,
            "shots": [{"kind": "forfeit", "player": 1}],
            "result": {"winner": 0, "reason": "forfeit"},
        },
    ],
    "winner": 0,
}
"""A sound record, as the writer writes it (the referee agrees with every entry), with a field of
every kind."""


def _is_int(v: object) -> bool:
    return type(v) is int


def _is_number(v: object) -> bool:
    return type(v) in (int, float) and math.isfinite(v)  # type: ignore[arg-type]


def _in(low: int, high: int) -> Callable[[object], bool]:
    return lambda v: _is_int(v) and low <= v <= high  # type: ignore[operator]


def _or_null(kind: Callable[[object], bool]) -> Callable[[object], bool]:
    return lambda v: v is None or kind(v)


def _one_of(values: list[str]) -> Callable[[object], bool]:
    return lambda v: type(v) is str and v in values


def _position(v: object) -> bool:
    return type(v) is list and len(v) == 2 and all(_is_number(c) for c in v)


SEAT = _in(0, 1)
KINDS: dict[Path, Callable[[object], bool]] = {
    ("event",): lambda v: type(v) is str,
    ("table",): lambda v: type(v) is str,
    ("race_to",): _is_int,
    ("breaks",): _one_of([b.value for b in BreakRule]),
    ("first_breaker",): SEAT,
    ("refereed",): lambda v: type(v) is bool,
    ("seed",): _or_null(_is_int),
    ("params", "mu_slide"): _is_number,
    ("agents",): _or_null(
        lambda v: type(v) is list and len(v) == 2 and {type(a) for a in v} == {str}
    ),
    ("games", 0, "number"): _is_int,
    ("games", 0, "breaker"): SEAT,
    ("games", 0, "rack", "9"): _position,
    ("games", 0, "shots", 0, "player"): SEAT,
    ("games", 0, "shots", 0, "push_out"): lambda v: type(v) is bool,
    ("games", 0, "shots", 0, "cue_ball"): _position,
    ("games", 0, "shots", 0, "stroke", "speed"): _is_number,
    ("games", 0, "shots", 0, "intended", "height"): _is_number,
    ("games", 0, "shots", 0, "facts", "first_contact"): _or_null(_in(1, 9)),
    ("games", 0, "shots", 0, "facts", "rails", 1): _in(0, 9),
    ("games", 0, "shots", 0, "facts", "obstruction_moved"): lambda v: type(v) is bool,
    ("games", 0, "shots", 0, "positions", "0"): _position,
    ("games", 0, "shots", 0, "safety"): lambda v: type(v) is bool,
    ("games", 0, "shots", 2, "choice"): _one_of([c.value for c in Choice]),
    ("games", 0, "shots", 3, "fouls", 0): _one_of([f.value for f in Foul]),
    ("games", 0, "result", "winner"): SEAT,
    ("games", 0, "result", "reason"): _one_of([t.value for t in Termination]),
    ("games", 1, "shots", 0, "player"): SEAT,
    ("winner",): _or_null(SEAT),
}
"""Every field the tests change, and the JSON values its kind admits (the oracle)."""

SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**20), 10**20),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=6),
    st.sampled_from(["0", "1", "9", "1.5", "true", "null", "Alternate", "FOUL"]),
)
ANY_JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3) | st.dictionaries(st.text(max_size=4), inner, max_size=2)
    ),
    max_leaves=4,
)
"""Any JSON value (NaN and infinities included, as Python's json module reads them)."""


def json_path(path: Path) -> str:
    return "$" + "".join(f"[{p}]" if isinstance(p, int) else f".{p}" for p in path)


def put(doc: dict[str, Any], path: Path, value: object) -> dict[str, Any]:
    """A copy of ``doc`` with ``value`` at ``path``."""
    doc = copy.deepcopy(doc)
    parent: Any = doc
    for part in path[:-1]:
        parent = parent[part]
    parent[path[-1]] = value
    return doc


OBJECTS: list[tuple[Path, set[str]]] = [
    ((), set(BASE)),
    (("games", 0), set(BASE["games"][0])),
    (("games", 0, "shots", 0), set(BASE["games"][0]["shots"][0])),
    (("games", 0, "shots", 0, "stroke"), set(STROKE)),
    (("games", 0, "shots", 0, "facts"), set(_facts())),
    (("games", 0, "shots", 2), {"kind", "player", "choice"}),
    (("games", 1, "shots", 0), {"kind", "player"}),
    (("games", 0, "result"), {"winner", "reason"}),
]
"""Every kind of object in a record, and its fields."""
