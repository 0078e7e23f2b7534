"""The game: where the referee and the physics meet (positions, strokes, matches, records).

This is the only package that imports both :mod:`nineball.rules` and :mod:`nineball.physics`,
and the one the interfaces (the web, the CLI, the environments) talk to: it re-exports what they
need of both, so that they import nothing from either directly. The record reader
(:func:`read_record`, :func:`load_record`, :func:`record_schema`) is loaded on first use: it
brings pydantic, which the programs that only play and write need not import.

>>> from nineball.game import Match, MatchConfig, Stroke
>>> match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=1)
>>> match.place_cue_ball((0.635, 0.4))
>>> match.strike(Stroke(speed=9.0, aim=1.5708)).ruling.kind.value
'break'
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

from nineball.equipment import Point
from nineball.game.lag import LAG_SPOTS, Lagger, LagResult, lag, lag_for_break, lag_spot
from nineball.game.layout import (
    PLACEMENT_CLEARANCE,
    Layout,
    check_cue_placement,
    check_placement,
    rack,
    respot_nine,
)
from nineball.game.limits import PLAYER_MAX_SPEED, StrokeLimits, stroke_limits
from nineball.game.match import (
    TABLES,
    Match,
    ShotReport,
    position_before,
    replay,
    stroke_record,
)
from nineball.game.noise import (
    HIGH_NOISE,
    NOISE_CLASSES,
    TOURNAMENT_NOISE,
    ExecutionNoise,
    NoiseClass,
    find_noise_class,
)
from nineball.game.position import Position
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
from nineball.game.recorder import MatchRecorder
from nineball.game.rulings import check_rulings, iter_rulings
from nineball.game.saved import SavedMatch
from nineball.game.stats import PlayerStats, compute_stats, stats_to_csv, stats_to_json
from nineball.game.step import (
    Racks,
    ShotOutcome,
    obstruction_moved,
    play_stroke,
    play_strokes,
    to_referee_facts,
    try_strokes,
)
from nineball.game.store import MatchSummary, Store, default_db_path
from nineball.game.streams import Purpose, Streams, fresh_seed
from nineball.game.strikes import strike_matches
from nineball.physics import (
    BallInput,
    BallState,
    EventKind,
    MotionState,
    PhysicsParams,
    PreparedBalls,
    Stroke,
    TableSpec,
    Trajectory,
    eight_foot,
    nine_foot,
    seven_foot,
    simulate,
)
from nineball.physics.cue import cue_contacts
from nineball.physics.pieces import MotionPiece, motion_pieces
from nineball.physics.protocol import main_stdio as simulate_protocol
from nineball.physics.protocol import trajectory_json
from nineball.rules import (
    RULE_NAMES,
    STANDARD,
    VARIANTS,
    BreakRule,
    Choice,
    CueBall,
    Explanation,
    Foul,
    GameOver,
    GameState,
    Language,
    MatchConfig,
    MatchState,
    Phase,
    RefereeSession,
    RuleSet,
    Ruling,
    RulingKind,
    Seat,
    ShotFacts,
    Termination,
    check_stroke,
    choose,
    find_variant,
)
from nineball.rules.notation import Command, CommandEntry, Entry, ShotEntry, parse_entry
from nineball.rules.protocol import (
    MAX_LINE_BYTES,
    decode_line,
    dump_line,
    ruling_to_json,
    state_to_json,
)
from nineball.rules.state import check_player_name

if TYPE_CHECKING:
    from nineball.game.record_models import record_schema
    from nineball.game.record_read import load_record, read_record

__all__ = [
    "HIGH_NOISE",
    "LAG_SPOTS",
    "MAX_LINE_BYTES",
    "NOISE_CLASSES",
    "PLACEMENT_CLEARANCE",
    "PLAYER_MAX_SPEED",
    "RECORD_FORMAT",
    "RECORD_VERSION",
    "RULE_NAMES",
    "STANDARD",
    "TABLES",
    "TOURNAMENT_NOISE",
    "VARIANTS",
    "BallInput",
    "BallState",
    "BreakRule",
    "Choice",
    "Command",
    "CommandEntry",
    "CueBall",
    "Entry",
    "EventKind",
    "ExecutionNoise",
    "Explanation",
    "Foul",
    "GameOver",
    "GameRecord",
    "GameState",
    "InvalidRecordError",
    "LagResult",
    "Lagger",
    "Language",
    "Layout",
    "Match",
    "MatchConfig",
    "MatchRecord",
    "MatchRecorder",
    "MatchState",
    "MatchSummary",
    "MotionPiece",
    "MotionState",
    "NoiseClass",
    "Phase",
    "PhysicsParams",
    "PlayerStats",
    "Point",
    "Position",
    "PreparedBalls",
    "Purpose",
    "Racks",
    "RecordProblem",
    "RefereeSession",
    "RuleSet",
    "Ruling",
    "RulingKind",
    "SavedMatch",
    "Seat",
    "ShotEntry",
    "ShotFacts",
    "ShotKind",
    "ShotOutcome",
    "ShotRecord",
    "ShotReport",
    "Store",
    "Streams",
    "Stroke",
    "StrokeLimits",
    "StrokeRecord",
    "TableSpec",
    "Termination",
    "Trajectory",
    "check_cue_placement",
    "check_placement",
    "check_player_name",
    "check_rulings",
    "check_stroke",
    "choose",
    "compute_stats",
    "cue_contacts",
    "decode_line",
    "default_db_path",
    "dump_line",
    "dump_record",
    "eight_foot",
    "find_noise_class",
    "find_variant",
    "fresh_seed",
    "iter_rulings",
    "lag",
    "lag_for_break",
    "lag_spot",
    "load_record",
    "motion_pieces",
    "nine_foot",
    "obstruction_moved",
    "parse_entry",
    "play_stroke",
    "play_strokes",
    "position_before",
    "rack",
    "read_record",
    "record_schema",
    "record_to_json",
    "replay",
    "respot_nine",
    "ruling_to_json",
    "seven_foot",
    "simulate",
    "simulate_protocol",
    "state_to_json",
    "stats_to_csv",
    "stats_to_json",
    "strike_matches",
    "stroke_limits",
    "stroke_record",
    "to_referee_facts",
    "trajectory_json",
    "try_strokes",
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
