"""The columns of a self-play dataset: one row per entry of a game (a stroke or a push-out answer).

Each column has a name, an Arrow type, a unit and a meaning; ``docs/dataset.md`` shows this table
(a test keeps the two the same) and :func:`arrow_schema` builds the Parquet files' schema from it.
Positions are in the table frame of ``docs/simulate-protocol.md`` (m; origin at the head-left
nose corner, x across, y along the table), angles in degrees as in the match record.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["COLUMNS", "DATASET_VERSION", "Column", "arrow_schema", "column_names"]

DATASET_VERSION = 1
"""The version of the columns: a change of meaning or type raises it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Column:
    """One column of the dataset."""

    name: str
    type: str
    """The Arrow type: ``int8``, ``int16``, ``int32``, ``int64``, ``float32``, ``float64``,
    ``bool``, ``string``, ``list<int8>`` or ``list<string>``. Every column may be null."""
    unit: str
    """The unit (``m``, ``m/s``, ``deg``, ``R``: a fraction of the ball's radius, ``s``), or
    ``-`` for a count, a label or an id."""
    meaning: str


def _balls(prefix: str, when: str) -> tuple[Column, ...]:
    out = []
    for ball in range(10):
        name = "the cue ball" if ball == 0 else f"the {ball}"
        for axis in ("x", "y"):
            out.append(
                Column(
                    name=f"{prefix}{ball}_{axis}",
                    type="float64",
                    unit="m",
                    meaning=f"{axis} of {name} {when}; null when it is not on the table",
                )
            )
    return tuple(out)


def _stroke(prefix: str, what: str) -> tuple[Column, ...]:
    return (
        Column(name=f"{prefix}_speed", type="float64", unit="m/s",
               meaning=f"the cue ball's speed just after the stroke, {what}"),
        Column(name=f"{prefix}_aim_deg", type="float64", unit="deg",
               meaning=f"the cue's direction, counter-clockwise from +x, {what}"),
        Column(name=f"{prefix}_elevation_deg", type="float64", unit="deg",
               meaning=f"the cue's elevation above horizontal, {what}"),
        Column(name=f"{prefix}_side", type="float64", unit="R",
               meaning=f"the tip's offset right of the ball's centre, {what}"),
        Column(name=f"{prefix}_height", type="float64", unit="R",
               meaning=f"the tip's offset above the ball's centre (follow > 0), {what}"),
    )  # fmt: skip


COLUMNS: tuple[Column, ...] = (
    # ids
    Column(name="match", type="int64", unit="-",
           meaning="the match's index in the dataset, from 0"),
    Column(name="match_seed", type="int64", unit="-",
           meaning="the match's seed: `Match(config, seed=...)` plays it again"),
    Column(name="game", type="int16", unit="-", meaning="the game's number in the match, from 1"),
    Column(name="shot", type="int16", unit="-",
           meaning="the entry's number in the game, from 1 (as `--shot` of the commands)"),
    Column(name="player_0", type="string", unit="-",
           meaning="the computer player in seat 0 (`ghost`, `club`...)"),
    Column(name="player_1", type="string", unit="-", meaning="the computer player in seat 1"),
    # the referee's state before the entry
    Column(name="kind", type="string", unit="-",
           meaning="`stroke`, or `choice` (the answer to a push out)"),
    Column(name="phase", type="string", unit="-",
           meaning="`break`, `shot` or `push_out_choice`: what the player to act has to do"),
    Column(name="shooter", type="int8", unit="-", meaning="the seat (0 or 1) of the player to act"),
    Column(name="breaker", type="int8", unit="-", meaning="the seat that broke this game"),
    Column(name="ball_on", type="int8", unit="-",
           meaning="the lowest ball on the table: the ball to hit first (clause 1)"),
    Column(name="cue_ball", type="string", unit="-",
           meaning="`kitchen` or `anywhere` (ball in hand), or `in_place`"),
    Column(name="push_out_allowed", type="bool", unit="-",
           meaning="the stroke may be declared a push out (clause 5)"),
    Column(name="fouls_0", type="int8", unit="-",
           meaning="seat 0's fouls in a row in this game (clause 12)"),
    Column(name="fouls_1", type="int8", unit="-", meaning="seat 1's fouls in a row in this game"),
    Column(name="warned", type="bool", unit="-",
           meaning="the player to act is on two fouls in a row: a third loses the game"),
    Column(name="score_0", type="int16", unit="-", meaning="games won by seat 0 before this one"),
    Column(name="score_1", type="int16", unit="-", meaning="games won by seat 1 before this one"),
    Column(name="race_to", type="int16", unit="-", meaning="games needed to win the match"),
    Column(name="rules", type="string", unit="-",
           meaning="the rule profile (`standard`, `fr`, `pl`; docs/rules.md)"),
    # the layout before
    *_balls("ball", "before the entry (the cue ball null while it is in hand)"),
    Column(name="cue_x", type="float64", unit="m",
           meaning="x where the cue ball was placed by hand; null when it was not in hand"),
    Column(name="cue_y", type="float64", unit="m", meaning="y of that placement"),
    # the stroke
    *_stroke("chosen", "as the player chose it (null for a choice)"),
    *_stroke("played", "as played, after the execution noise (null for a choice)"),
    Column(name="push_out", type="bool", unit="-", meaning="the stroke was declared a push out"),
    Column(name="safety", type="bool", unit="-",
           meaning="the player meant the stroke as a safety (its own declaration)"),
    Column(name="choice", type="string", unit="-",
           meaning="`shoot` or `pass` for a choice; null for a stroke"),
    # the outcome
    Column(name="ruling", type="string", unit="-",
           meaning="what the referee ruled on: `break`, `shot`, `push_out` or `choice`"),
    Column(name="legal", type="bool", unit="-", meaning="no foul was called"),
    Column(name="fouls", type="list<string>", unit="-",
           meaning="the fouls called (docs/rules.md: `wrong_ball_first`, `no_rail`...)"),
    Column(name="first_contact", type="int8", unit="-",
           meaning="the first ball the cue ball hit; null when none (or for a choice)"),
    Column(name="pocketed", type="list<int8>", unit="-",
           meaning="the balls pocketed, ascending (0: the cue ball)"),
    Column(name="pockets", type="list<string>", unit="-",
           meaning="the pocket of each ball of `pocketed`, in the same order (`foot_left`...)"),
    Column(name="rails", type="list<int8>", unit="-",
           meaning="the balls that touched a cushion after the first contact, ascending"),
    Column(name="off_table", type="list<int8>", unit="-",
           meaning="the balls that left the table, ascending"),
    Column(name="respotted", type="bool", unit="-", meaning="the 9 was put back on the foot spot"),
    Column(name="warning", type="bool", unit="-",
           meaning="this foul was the shooter's second in a row: the warning of clause 12"),
    Column(name="game_over", type="string", unit="-",
           meaning="`nine_ball` or `three_fouls` when the game ended on this entry, else null"),
    Column(name="next_to_act", type="int8", unit="-",
           meaning="the seat that acts next (in the next game when this one ended)"),
    Column(name="duration", type="float64", unit="s",
           meaning="the time until every ball came to rest (null for a choice)"),
    Column(name="events", type="int32", unit="-",
           meaning="the physics' events of the stroke (null for a choice)"),
    *_balls("after", "once the balls came to rest (the 9 respotted)"),
    # labels
    Column(name="game_winner", type="int8", unit="-",
           meaning="the seat that won this game (null if it did not end)"),
    Column(name="match_winner", type="int8", unit="-",
           meaning="the seat that won the match (null if it did not end)"),
    Column(name="win_probability", type="float32", unit="-",
           meaning="the chance that the player to act wins this game, before the entry, "
           "by the value model shipped with nineball (players/value.json)"),
)  # fmt: skip
"""Every column, in the files' order."""


def column_names() -> tuple[str, ...]:
    """The column names, in order."""
    return tuple(c.name for c in COLUMNS)


def arrow_schema() -> Any:
    """The files' Arrow schema (needs pyarrow, the ``[data]`` extra).

    Raises:
        ImportError: pyarrow is not installed; the message names the extra.
    """
    try:
        import pyarrow as pa
    except ImportError:
        raise ImportError(
            "self-play datasets need pyarrow: pip install 'nineball[data]'", name="pyarrow"
        ) from None
    types = {
        "int8": pa.int8(),
        "int16": pa.int16(),
        "int32": pa.int32(),
        "int64": pa.int64(),
        "float32": pa.float32(),
        "float64": pa.float64(),
        "bool": pa.bool_(),
        "string": pa.string(),
        "list<int8>": pa.list_(pa.int8()),
        "list<string>": pa.list_(pa.string()),
    }
    fields = [
        pa.field(c.name, types[c.type], metadata={"unit": c.unit, "meaning": c.meaning})
        for c in COLUMNS
    ]
    return pa.schema(
        fields, metadata={"format": "nineball-dataset", "version": str(DATASET_VERSION)}
    )
