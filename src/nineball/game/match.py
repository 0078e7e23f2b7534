"""A match of nine-ball played through the physics, ruled by the referee, recorded and stored.

:class:`Match` is where the two halves meet: a stroke goes through the physics, the trajectory's
facts go to the referee, and the ruling decides the next position (balls pocketed leave the table,
the 9 is respotted, a new rack after a game). Every entry is recorded (and committed to a
:class:`Store` when one is given), with the layout it leaves, so that replaying the record
through the physics reproduces every ball position bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import fields, replace

import numpy as np

from nineball.equipment import BallId, Point
from nineball.errors import IllegalActionError, InvalidInputError, NineballError
from nineball.game.lag import Lagger, LagResult, lag_for_break
from nineball.game.layout import check_placement, rack
from nineball.game.noise import ExecutionNoise
from nineball.game.position import Position
from nineball.game.record import (
    InvalidRecordError,
    MatchRecord,
    RecordProblem,
    ShotKind,
    ShotRecord,
    StrokeRecord,
)
from nineball.game.recorder import MatchRecorder
from nineball.game.report import PendingStroke, ShotReport
from nineball.game.rulings import iter_rulings
from nineball.game.saved import SavedMatch
from nineball.game.step import (
    ShotOutcome,
    obstruction_moved,
    play_stroke,
    to_referee_facts,
)
from nineball.game.store import Store
from nineball.game.streams import Purpose, Streams, fresh_seed
from nineball.physics import (
    PhysicsParams,
    Stroke,
    TableSpec,
    Trajectory,
    eight_foot,
    nine_foot,
    seven_foot,
)
from nineball.rules import (
    Choice,
    CueBall,
    MatchConfig,
    MatchState,
    Phase,
    Ruling,
    Seat,
    check_stroke,
)

__all__ = [
    "TABLES",
    "Match",
    "ShotReport",
    "obstruction_moved",
    "replay",
    "stroke_record",
    "to_referee_facts",
]

TABLES: dict[str, Callable[[], TableSpec]] = {
    "9ft": nine_foot,
    "9ft-pro": lambda: nine_foot(pro_pockets=True),
    "8ft": eight_foot,
    "7ft": seven_foot,
}
"""Table presets by the name a record stores."""


_DEFAULT_PARAMS = PhysicsParams()
"""The default parameters, made once (frozen): a match on them records no overrides."""


def stroke_record(stroke: Stroke) -> StrokeRecord:
    """A physics stroke as a record stores it (degrees at this edge)."""
    return StrokeRecord(
        speed=stroke.speed,
        aim_deg=math.degrees(stroke.aim),
        elevation_deg=math.degrees(stroke.elevation),
        side=stroke.side,
        height=stroke.height,
    )


def record_stroke(record: StrokeRecord) -> Stroke:
    """The physics stroke of a recorded one."""
    return Stroke(
        speed=record.speed,
        aim=math.radians(record.aim_deg),
        elevation=math.radians(record.elevation_deg),
        side=record.side,
        height=record.height,
    )


class Match:
    """A match between two players on a simulated table: the stateful shell around the step.

    The match keeps the current :class:`Position`, plays each stroke through
    :func:`nineball.game.play_stroke`, records every entry (committing it to a :class:`Store`
    when one is given), racks each game from its named random stream (:class:`Streams`) and
    takes entries back (:meth:`undo`).

    >>> from nineball.physics import Stroke
    >>> match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=1)
    >>> match.place_cue_ball((0.635, 0.4))
    >>> report = match.strike(Stroke(speed=9.0, aim=math.pi / 2))
    >>> report.facts.first_contact
    <BallId.ONE: 1>
    """

    def __init__(
        self,
        config: MatchConfig | None = None,
        *,
        seed: int | None = None,
        table: str = "9ft",
        params: PhysicsParams | None = None,
        store: Store | None = None,
        event: str = "",
        date: str = "",
        agents: tuple[str, str] | None = None,
    ) -> None:
        """Start a match and rack its first game.

        Args:
            config: what the players agreed (default :class:`MatchConfig`).
            seed: the seed of the match (racks); same seed, same racks. None draws one, which
                the record keeps.
            table: a table preset name (:data:`TABLES`).
            params: physics parameters (default :class:`PhysicsParams`).
            store: where to commit every entry as it is played (None: keep it in memory).
            event: free text for the record.
            date: ISO date for the record.
            agents: who plays each seat (``"human"`` or a computer player's name), for the record.

        Raises:
            InvalidInputError: an unknown table preset.
        """
        if table not in TABLES:
            raise InvalidInputError(f"unknown table {table!r} (known: {', '.join(TABLES)})")
        self.config = config or MatchConfig()
        self.table: TableSpec = TABLES[table]()
        self.params = params or _DEFAULT_PARAMS
        self.seed: int = fresh_seed() if seed is None else seed
        """The match's seed, kept in the record: every draw of the match comes from it."""
        self.streams = Streams(self.seed)
        """The match's named random streams."""
        overrides = {
            f.name: getattr(self.params, f.name)
            for f in fields(PhysicsParams)
            if getattr(self.params, f.name) != getattr(_DEFAULT_PARAMS, f.name)
        }
        header: dict[str, object] = {
            "seed": self.seed,
            "table": table,
            "params": overrides,
            "event": event,
            "date": date,
            "agents": agents,
        }
        self._saved: SavedMatch | None = None
        if store is not None:
            self._saved = SavedMatch.start(store, self.config, **header)
            self._recorder = self._saved.recorder
        else:
            self._recorder = MatchRecorder(self.config, **header)
        self._position = Position(state=self.state, layout={}, table=self.table, params=self.params)
        self._history: list[Position] = []
        self._new_rack()

    @staticmethod
    def lag(
        laggers: Sequence[Lagger],
        *,
        seed: int,
        table: str = "9ft",
        params: PhysicsParams | None = None,
    ) -> tuple[Seat, list[LagResult]]:
        """The lag for the first break of the match with ``seed`` (D12), on its own table.

        The lag draws from the match's lag stream (:meth:`Streams.lag`), so the same seed gives
        the same lag; start the match with the winner as ``config.first_breaker``.

        Raises:
            InvalidInputError: an unknown table preset.
        """
        if table not in TABLES:
            raise InvalidInputError(f"unknown table {table!r} (known: {', '.join(TABLES)})")
        return lag_for_break(
            laggers, TABLES[table](), params or PhysicsParams(), Streams(seed).lag()
        )

    @classmethod
    def resume(cls, store: Store, match_id: int) -> Match:
        """Continue a stored match where it stood (the last committed entry).

        Raises:
            InvalidInputError: no such match, or a match that was not simulated (no seed).
            InvalidRecordError: stored entries the referee refuses.
        """
        record = store.load(match_id)
        if record.seed is None or record.table not in TABLES:
            raise InvalidInputError(f"match {match_id} was not played on the simulated table")
        match = cls.__new__(cls)
        match.config = record.config
        match.table = TABLES[record.table]()
        match.params = PhysicsParams(**dict(record.params))
        match.seed = record.seed
        match.streams = Streams(record.seed)
        match._saved = SavedMatch.resume(store, match_id)
        match._recorder = match._saved.recorder
        match._history = []
        games = match.record.games
        current = games[-1] if games else None
        layout: dict[BallId, Point] = {}
        if current is not None and current.result is None:
            layout = dict(current.rack or {})
            for shot in current.shots:
                if shot.positions is not None:
                    layout = dict(shot.positions)
        match._position = Position(
            state=match.state, layout=layout, table=match.table, params=match.params
        )
        if current is None or current.result is not None:
            match._new_rack()
        return match

    # ------------------------------------------------------------------ state and queries

    @property
    def state(self) -> MatchState:
        """The referee's state of the match."""
        return self._recorder.state

    @property
    def position(self) -> Position:
        """The position now: the referee's state, the balls, the cue ball placed by hand."""
        return self._position

    @property
    def layout(self) -> dict[BallId, Point]:
        """The balls on the table now (a copy); the cue ball is absent while it is in hand."""
        return dict(self._position.layout)

    @property
    def record(self) -> MatchRecord:
        """The record of the match so far."""
        return self._recorder.record

    @property
    def match_id(self) -> int | None:
        """The id of the match in the store, if it is stored."""
        return None if self._saved is None else self._saved.match_id

    @property
    def cue_ball_in_hand(self) -> bool:
        """True when the player to shoot places the cue ball by hand (kitchen or anywhere)."""
        return self._position.in_hand is not None

    @property
    def cue_ball(self) -> Point | None:
        """Where the cue ball is (or has been placed by hand), if anywhere."""
        return self._position.cue

    def check_cue_ball(self, point: Point) -> None:
        """Check a placement of the cue ball in hand without making it.

        Raises:
            InvalidPlacementError: see :func:`check_cue_placement`.
        """
        self._position.check_cue_ball(point)

    def place_cue_ball(self, point: Point) -> None:
        """Place the cue ball in hand (it may be moved again until the stroke, clause 9).

        Raises:
            InvalidPlacementError: the cue ball is not in hand, or the place is not allowed;
                nothing changes.
        """
        self._position = self._position.place(point)

    # ------------------------------------------------------------------ actions

    def rng(self, purpose: Purpose) -> np.random.Generator:
        """The generator for ``purpose`` on the next entry (:meth:`Streams.entry`).

        Each entry of each game gets its own streams, so a match resumed after a crash goes on
        exactly as it would have.
        """
        game = self._recorder.game  # the game in progress (not the whole record, made anew)
        entries = len(game.shots) if game is not None else 0
        return self.streams.entry(self.state.game.number, entries, purpose)

    def strike(
        self,
        stroke: Stroke,
        *,
        cue: Point | None = None,
        push_out: bool = False,
        safety: bool = False,
        intended: Stroke | None = None,
        noise: ExecutionNoise | None = None,
        max_events: int = 10000,
    ) -> ShotReport:
        """Play a stroke through :func:`play_stroke`, record it and move to the next position.

        Nothing changes when the stroke is refused: a cue ball placed with ``cue`` stays where
        it was unless the stroke is played.

        Args:
            stroke: the stroke as executed, or as chosen when ``noise`` is given.
            cue: where to place the cue ball in hand for this stroke (None: as placed, or
                where it lies).
            push_out: declared a push out (clause 5).
            safety: declared a safety (statistics only).
            intended: the stroke as chosen, before execution noise, for the record.
            noise: execution noise to apply to ``stroke`` (drawn from the entry's
                :attr:`Purpose.NOISE` stream); the record keeps both strokes.
            max_events: the physics' event bound.

        Raises:
            IllegalActionError: the match is over, a choice is pending, a push out is not
                allowed, or the cue ball is in hand and has not been placed.
            InvalidPlacementError: ``cue`` is not a place for the cue ball, or the cue ball is
                in hand where it lies and may not be played from there.
            InvalidInputError: a stroke the physics refuses (a miscue).
        """
        pending = self._pending(stroke, cue, push_out, safety, intended, noise)
        outcome = play_stroke(
            pending.position,
            pending.stroke,
            push_out=push_out,
            racks=self._rack,
            max_events=max_events,
        )
        return self._played(pending, outcome)

    def _pending(
        self,
        stroke: Stroke,
        cue: Point | None,
        push_out: bool,
        safety: bool,
        intended: Stroke | None,
        noise: ExecutionNoise | None,
    ) -> PendingStroke:
        """The first half of :meth:`strike`: the checks and the noise; nothing changes."""
        check_stroke(self.state, push_out=push_out)
        position = self._ready(cue)
        if noise is not None:
            intended = stroke
            stroke = noise.apply(stroke, self.rng(Purpose.NOISE), self.params)
        # The record keeps the stroke in degrees; play the stroke exactly as the record will
        # give it back, so that a replay is bit for bit the same.
        recorded = stroke_record(stroke)
        return PendingStroke(
            position=position,
            stroke=record_stroke(recorded),
            recorded=recorded,
            intended=None if intended is None else stroke_record(intended),
            push_out=push_out,
            safety=safety,
        )

    def _played(self, pending: PendingStroke, outcome: ShotOutcome) -> ShotReport:
        """The second half of :meth:`strike`: record the outcome and move on."""
        # the step ruled from this very state on these very facts: the referee is not asked twice
        known = outcome.ruling if pending.position.state is self.state else None
        shot = ShotRecord(
            kind=ShotKind.STROKE,
            player=self.state.to_act,
            push_out=pending.push_out,
            cue_ball=pending.position.placed,
            stroke=pending.recorded,
            intended=pending.intended,
            facts=outcome.facts,
            fouls=() if known is None else known.fouls,
            safety=pending.safety,
            positions=dict(outcome.layout),
        )
        (self._saved or self._recorder).play(shot, ruling=known)
        self._history.append(self._position)
        self._position = replace(outcome.after, state=self.state)
        if outcome.ruling.game_over is not None and not self.state.is_over:
            self._recorder.set_rack(self._position.layout)
        return ShotReport(outcome, shot)

    def preview(
        self, stroke: Stroke, *, cue: Point | None = None, push_out: bool = False
    ) -> ShotOutcome:
        """What :meth:`strike` would play for ``stroke`` without noise; nothing changes.

        The same checks and the same stroke as :meth:`strike` (as the record gives it back),
        and no random stream drawn from: the aiming aid of an interface.

        Raises:
            IllegalActionError, InvalidPlacementError, InvalidInputError: as :meth:`strike`.
        """
        check_stroke(self.state, push_out=push_out)
        return play_stroke(
            self._ready(cue), record_stroke(stroke_record(stroke)), push_out=push_out
        )

    def _ready(self, cue: Point | None) -> Position:
        """The position to strike from, with the cue ball in hand placed at ``cue`` if given."""
        return (self._position if cue is None else self._position.place(cue)).ready()

    def choose(self, choice: Choice) -> Ruling:
        """Answer a legal push out (clause 5).

        Raises:
            IllegalActionError: no push out to answer.
        """
        shot = ShotRecord(kind=ShotKind.CHOICE, player=self.state.to_act, choice=choice)
        ruling = (self._saved or self._recorder).play(shot)
        self._history.append(self._position)
        self._position = replace(self._position, state=self.state)
        return ruling

    def forfeit(self, seat: Seat) -> Ruling:
        """``seat`` loses the game for a serious infraction (clause 4, D14).

        Raises:
            IllegalActionError: the match is over.
        """
        ruling = (self._saved or self._recorder).play(
            ShotRecord(kind=ShotKind.FORFEIT, player=seat)
        )
        self._history.append(self._position)
        self._position = replace(self._position, state=self.state)
        if not ruling.state.is_over:
            self._new_rack()
        return ruling

    def undo(self) -> None:
        """Take back the last entry (for practice and corrections): position and record.

        Raises:
            IndexError: nothing has been played.
        """
        if not self._history:
            raise IndexError("nothing to undo")
        (self._saved or self._recorder).undo()
        self._position = replace(self._history.pop(), state=self.state)

    def set_position(self, layout: Mapping[BallId, Point]) -> None:
        """Practice: play on from exactly these balls, wherever they lie.

        The referee's state follows the table: the object balls of ``layout`` are the balls on
        it, a break position becomes an ordinary shot by the same player, and the cue ball is in
        hand anywhere when ``layout`` has none. The record no longer replays to this position,
        so a stored match refuses it and the entries before it cannot be undone.

        Args:
            layout: every ball to put on the table (the cue ball optional), in m.

        Raises:
            IllegalActionError: a stored match, a match over or a push out to answer, or a
                layout without the 9 (the game ends only when the 9 drops); nothing changes.
            InvalidPlacementError: a ball off the playing surface or touching another.
        """
        if self._saved is not None:
            raise IllegalActionError("a stored match is played as the balls lie: practise instead")
        state = self.state
        if state.is_over or state.phase is Phase.PUSH_OUT_CHOICE:
            raise IllegalActionError(f"no position can be set up now ({state.phase.value})")
        if BallId.NINE not in layout:
            raise IllegalActionError("the 9 must be on the table")
        placed = {BallId(b): (float(p[0]), float(p[1])) for b, p in layout.items()}
        for ball, point in placed.items():
            check_placement(ball, point, placed, CueBall.ANYWHERE, self.table, self.params)
        game = replace(
            state.game,
            phase=Phase.SHOT,
            cue_ball=CueBall.IN_PLACE if BallId.CUE in placed else CueBall.ANYWHERE,
            push_out_allowed=False,
            on_table=frozenset(placed) - {BallId.CUE},
        )
        self._recorder.state = replace(state, game=game)
        self._position = replace(self._position, state=self.state, layout=placed, placed=None)
        self._history.clear()

    def move_ball(self, ball: BallId, point: Point) -> None:
        """Practice: move a ball that is on the table to ``point`` (the referee's state stays).

        Raises:
            IllegalActionError: a stored match, or a ball not on the table; nothing changes.
            InvalidPlacementError: off the playing surface, or touching another ball.
        """
        if self._saved is not None:
            raise IllegalActionError("a stored match is played as the balls lie: practise instead")
        if ball not in self._position.layout:
            raise IllegalActionError(f"the {int(ball)} is not on the table")
        check_placement(
            ball, point, self._position.balls, CueBall.ANYWHERE, self.table, self.params
        )
        moved = dict(self._position.layout)
        moved[ball] = (float(point[0]), float(point[1]))
        self._position = replace(self._position, layout=moved)

    def _rack(self, number: int) -> dict[BallId, Point]:
        return dict(rack(self.streams.rack(number), self.table, self.params))

    def _new_rack(self) -> None:
        layout = self._rack(self.state.game.number)
        self._position = replace(self._position, state=self.state, layout=layout, placed=None)
        self._recorder.set_rack(layout)


def _replayed(
    record: MatchRecord, params: PhysicsParams | None = None
) -> Iterator[tuple[int, int, Position, ShotOutcome | None, RecordProblem | None]]:
    """Every entry of a record played again: its position before, the outcome, any problem."""
    table = TABLES.get(record.table, nine_foot)()
    params = params or PhysicsParams(**dict(record.params))
    layout: dict[BallId, Point] = {}
    for entry in iter_rulings(record):
        shot = entry.shot
        if entry.index == 0:
            layout = dict(record.games[entry.game].rack or {})
        position = Position(
            state=entry.before, layout=layout, placed=shot.cue_ball, table=table, params=params
        )
        if shot.kind is not ShotKind.STROKE or shot.stroke is None:
            yield entry.game, entry.index, position, None, None
            continue
        try:
            outcome = play_stroke(position, record_stroke(shot.stroke), push_out=shot.push_out)
        except NineballError as exc:  # a record that parses but the physics cannot play
            place = f"$.games[{entry.game}].shots[{entry.index}]"
            raise InvalidRecordError([RecordProblem(place, str(exc))]) from exc
        problem = None
        if shot.positions is not None and outcome.layout != dict(shot.positions):
            problem = RecordProblem(
                f"$.games[{entry.game}].shots[{entry.index}].positions",
                "the physics leaves the balls elsewhere than the record says",
            )
        yield entry.game, entry.index, position, outcome, problem
        layout = outcome.layout


def replay(
    record: MatchRecord, *, params: PhysicsParams | None = None
) -> Iterator[tuple[int, int, Trajectory | None, RecordProblem | None]]:
    """Simulate every stroke of a record again from its racks and cue-ball placements.

    Yields, for each entry: the game index, the entry index, the trajectory (None for a choice
    or a forfeit) and a problem when the layout it leaves differs from the recorded one by even
    one bit (None when they are identical).

    Raises:
        InvalidRecordError: an entry the referee refuses, or a stroke the physics cannot play.
    """
    for game, index, _, outcome, problem in _replayed(record, params):
        yield game, index, None if outcome is None else outcome.trajectory, problem


def position_before(record: MatchRecord, game: int, index: int) -> Position:
    """The position just before an entry of a record (a cue ball in hand not yet placed).

    Args:
        record: the record.
        game: the game's index (0-based).
        index: the entry's index in its game (0-based).

    Raises:
        IndexError: no such entry.
        InvalidRecordError: an entry the referee refuses on the way.
    """
    if not (0 <= game < len(record.games) and 0 <= index < len(record.games[game].shots)):
        raise IndexError(f"the record has no entry {index + 1} in game {game + 1}")
    for g, i, position, _, _ in _replayed(record):
        if (g, i) == (game, index):
            return replace(position, placed=None)
    raise IndexError(f"the record has no entry {index + 1} in game {game + 1}")  # pragma: no cover
