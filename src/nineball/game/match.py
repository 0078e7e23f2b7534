"""A match of nine-ball played through the physics, ruled by the referee, recorded and stored.

:class:`Match` is where the two halves meet: a stroke goes through the physics, the trajectory's
facts go to the referee, and the ruling decides the next position (balls pocketed leave the table,
the 9 is respotted, a new rack after a game). Every entry is recorded (and committed to a
:class:`Store` when one is given), with the layout it leaves, so that replaying the record
through the physics reproduces every ball position bit for bit.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass, fields, replace

import numpy as np

from nineball.equipment import BallId
from nineball.errors import IllegalActionError, InvalidInputError, InvalidPlacementError
from nineball.game.layout import Layout, Position, check_cue_placement, rack, respot_nine
from nineball.game.noise import ExecutionNoise
from nineball.game.record import (
    MatchRecord,
    RecordProblem,
    ShotKind,
    ShotRecord,
    StrokeRecord,
    iter_rulings,
    rule,
)
from nineball.game.recorder import MatchRecorder
from nineball.game.saved import SavedMatch
from nineball.game.store import Store
from nineball.physics import (
    BallInput,
    MotionState,
    PhysicsParams,
    Stroke,
    TableSpec,
    Trajectory,
    eight_foot,
    nine_foot,
    seven_foot,
    simulate,
)
from nineball.physics.cue import ELEVATED, cue_contacts
from nineball.rules import (
    Choice,
    CueBall,
    MatchConfig,
    MatchState,
    Phase,
    Ruling,
    Seat,
    ShotFacts,
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


def to_referee_facts(trajectory: Trajectory, *, obstruction_moved: bool = False) -> ShotFacts:
    """What the physics saw, in the referee's terms (the physics is the referee's eyes)."""
    seen = trajectory.facts()
    return ShotFacts.of(
        first_contact=seen.first_contact,
        pocketed=seen.pocketed,
        off_table=seen.off_table,
        rails=seen.rails,
        obstruction_moved=obstruction_moved,
    )


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotReport:
    """What one stroke did."""

    trajectory: Trajectory
    """Every event and state, for animation and analysis."""
    facts: ShotFacts
    """What the referee was told."""
    ruling: Ruling
    """The referee's decision."""
    shot: ShotRecord
    """The entry as recorded."""
    layout: dict[BallId, Position]
    """The balls on the table afterwards (9 respotted; a new rack when a game ended)."""


def obstruction_moved(layout: Layout, stroke: Stroke, params: PhysicsParams | None = None) -> bool:
    """Clause 11: whether a jump, curve or massé attempt moves an obstructing ball.

    The stroke is such an attempt when the cue is raised at least
    :data:`nineball.physics.cue.ELEVATED`; the ball moves when the stick or the bridge hand
    touches it (:func:`nineball.physics.cue.cue_contacts`).
    """
    if stroke.elevation < ELEVATED or BallId.CUE not in layout:
        return False
    balls = {int(b): p for b, p in layout.items()}
    return bool(cue_contacts(balls, stroke, params))


def _balls(layout: Layout) -> list[BallInput]:
    return [BallInput(id=int(b), r=p) for b, p in sorted(layout.items())]


def _after(trajectory: Trajectory) -> dict[BallId, Position]:
    out: dict[BallId, Position] = {}
    for ball, state in trajectory.final_states().items():
        if state.motion not in (MotionState.POCKETED, MotionState.OFF_TABLE):
            out[BallId(ball)] = (state.r[0], state.r[1])
    return out


class Match:
    """A match between two players on a simulated table.

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
        self.params = params or PhysicsParams()
        if seed is None:  # fresh entropy, kept in the record so the match can be replayed
            seed = int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] >> 1)
        self.seed: int = seed
        """The match's seed: game n is racked from ``(seed, n)``."""
        defaults = PhysicsParams()
        overrides = {
            f.name: getattr(self.params, f.name)
            for f in fields(PhysicsParams)
            if getattr(self.params, f.name) != getattr(defaults, f.name)
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
        self.layout: dict[BallId, Position] = {}
        """The balls on the table now; the cue ball is absent while it is in hand."""
        self._placed: Position | None = None
        self._history: list[tuple[dict[BallId, Position], Position | None]] = []
        self._new_rack()

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
        match._saved = SavedMatch.resume(store, match_id)
        match._recorder = match._saved.recorder
        match._placed = None
        match._history = []
        games = match.record.games
        current = games[-1] if games else None
        if current is None or current.result is not None:
            match._new_rack()
        else:
            layout = dict(current.rack or {})
            for shot in current.shots:
                if shot.positions is not None:
                    layout = dict(shot.positions)
            match.layout = layout
        return match

    # ------------------------------------------------------------------ state and queries

    @property
    def state(self) -> MatchState:
        """The referee's state of the match."""
        return self._recorder.state

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
        return self.state.cue_ball is not CueBall.IN_PLACE and not self.state.is_over

    @property
    def cue_ball(self) -> Position | None:
        """Where the cue ball is (or has been placed by hand), if anywhere."""
        return self._placed or self.layout.get(BallId.CUE)

    def check_cue_ball(self, position: Position) -> None:
        """Check a placement of the cue ball in hand without making it.

        Raises:
            InvalidPlacementError: see :func:`check_cue_placement`.
        """
        if not self.cue_ball_in_hand:
            raise InvalidPlacementError("the cue ball is not in hand: it is played where it lies")
        others: dict[BallId, Position] = {
            b: p for b, p in self.layout.items() if b is not BallId.CUE
        }
        check_cue_placement(position, others, self.state.cue_ball, self.table, self.params)

    def place_cue_ball(self, position: Position) -> None:
        """Place the cue ball in hand (it may be moved again until the stroke, clause 9).

        Raises:
            InvalidPlacementError: the cue ball is not in hand, or the place is not allowed;
                nothing changes.
        """
        self.check_cue_ball(position)
        self._placed = (float(position[0]), float(position[1]))

    # ------------------------------------------------------------------ actions

    def rng_for(self, stream: int) -> np.random.Generator:
        """A generator for the next entry, from ``(seed, game, entry, stream)``.

        Each entry of each game gets its own streams (1: the player's choices, 2: execution
        noise), so a match resumed after a crash goes on exactly as it would have.
        """
        game = self.record.games[-1] if self.record.games else None
        number = self.state.game.number
        entries = len(game.shots) if game is not None and game.number == number else 0
        return np.random.default_rng(np.random.SeedSequence([self.seed, number, entries, stream]))

    def strike(
        self,
        stroke: Stroke,
        *,
        push_out: bool = False,
        safety: bool = False,
        intended: Stroke | None = None,
        noise: ExecutionNoise | None = None,
        max_events: int = 10000,
    ) -> ShotReport:
        """Play a stroke: simulate it, rule on it, record it and set up the next position.

        Args:
            stroke: the stroke as executed, or as chosen when ``noise`` is given.
            push_out: declared a push out (clause 5).
            safety: declared a safety (statistics only).
            intended: the stroke as chosen, before execution noise, for the record.
            noise: execution noise to apply to ``stroke`` (drawn from :meth:`rng_for` stream 2);
                the record keeps both strokes.
            max_events: the physics' event bound.

        Raises:
            IllegalActionError: the match is over, a choice is pending, a push out is not
                allowed, or the cue ball is in hand and has not been placed.
            InvalidInputError: a stroke the physics refuses (a miscue).
        """
        state = self.state
        if state.is_over:
            raise IllegalActionError("the match is over")
        if self.cue_ball_in_hand and self._placed is None and BallId.CUE in self.layout:
            # In hand where it came to rest: it may be played from there if that is allowed.
            self.place_cue_ball(self.layout[BallId.CUE])
        if self.cue_ball_in_hand and self._placed is None:
            where = "behind the head string" if state.cue_ball is CueBall.KITCHEN else "anywhere"
            raise IllegalActionError(f"place the cue ball in hand first ({where})")
        if noise is not None:
            intended = stroke
            stroke = noise.apply(stroke, self.rng_for(2), self.params)
        layout = {b: p for b, p in self.layout.items() if b is not BallId.CUE or not self._placed}
        if self._placed is not None:
            layout[BallId.CUE] = self._placed
        # The record keeps the stroke in degrees; simulate the stroke exactly as the record will
        # give it back, so that a replay is bit for bit the same.
        recorded = stroke_record(stroke)
        played = record_stroke(recorded)
        trajectory = simulate(
            _balls(layout),
            stroke=played,
            params=self.params,
            table=self.table,
            max_events=max_events,
        )
        facts = to_referee_facts(
            trajectory, obstruction_moved=obstruction_moved(layout, played, self.params)
        )
        after = _after(trajectory)
        shot = ShotRecord(
            kind=ShotKind.STROKE,
            player=state.to_act,
            push_out=push_out,
            cue_ball=self._placed,
            stroke=recorded,
            intended=None if intended is None else stroke_record(intended),
            facts=facts,
            safety=safety,
        )
        return self._apply(shot, after, trajectory)

    def _apply(
        self, shot: ShotRecord, after: dict[BallId, Position], trajectory: Trajectory
    ) -> ShotReport:
        # The referee first: a refusal (a push out not allowed, a pending choice) changes nothing.
        ruling = rule(self.state, shot)
        if ruling.respotted:
            after[BallId.NINE] = respot_nine(after, self.table, self.params)
        if ruling.game_over is not None and not ruling.state.is_over:
            next_layout: dict[BallId, Position] | None = None  # racked below
        else:
            next_layout = after
        shot = replace(shot, positions=dict(after))
        self._history.append((dict(self.layout), self._placed))
        (self._saved or self._recorder).play(shot)
        self._placed = None
        if next_layout is None:
            self._new_rack()
        else:
            self.layout = next_layout
        return ShotReport(
            trajectory=trajectory,
            facts=shot.facts or ShotFacts(),
            ruling=ruling,
            shot=shot,
            layout=dict(self.layout),
        )

    def choose(self, choice: Choice) -> Ruling:
        """Answer a legal push out (clause 5).

        Raises:
            IllegalActionError: no push out to answer.
        """
        shot = ShotRecord(kind=ShotKind.CHOICE, player=self.state.to_act, choice=choice)
        ruling = (self._saved or self._recorder).play(shot)
        self._history.append((dict(self.layout), self._placed))
        return ruling

    def forfeit(self, seat: Seat) -> Ruling:
        """``seat`` loses the game for a serious infraction (clause 4, D14).

        Raises:
            IllegalActionError: the match is over.
        """
        ruling = (self._saved or self._recorder).play(
            ShotRecord(kind=ShotKind.FORFEIT, player=seat)
        )
        self._history.append((dict(self.layout), self._placed))
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
        self.layout, self._placed = self._history.pop()

    def set_position(self, layout: Mapping[BallId, Position]) -> None:
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
        for ball, position in placed.items():
            others: dict[BallId, Position] = {
                b: p for b, p in placed.items() if b is not ball and b is not BallId.CUE
            }
            try:
                check_cue_placement(position, others, CueBall.ANYWHERE, self.table, self.params)
            except InvalidPlacementError as error:
                said = str(error)
                if ball is not BallId.CUE:
                    said = said.replace("the cue ball", f"the {int(ball)}", 1)
                raise InvalidPlacementError(said) from None
        game = replace(
            state.game,
            phase=Phase.SHOT,
            cue_ball=CueBall.IN_PLACE if BallId.CUE in placed else CueBall.ANYWHERE,
            push_out_allowed=False,
            on_table=frozenset(placed) - {BallId.CUE},
        )
        self._recorder.state = replace(state, game=game)
        self.layout = placed
        self._placed = None
        self._history.clear()

    def _new_rack(self) -> None:
        number = self.state.game.number
        rng = np.random.default_rng(np.random.SeedSequence([self.seed, number]))
        self.layout = dict(rack(rng, self.table, self.params))
        self._placed = None
        self._recorder.set_rack(self.layout)


def replay(
    record: MatchRecord, *, params: PhysicsParams | None = None
) -> Iterator[tuple[int, int, Trajectory | None, RecordProblem | None]]:
    """Simulate every stroke of a record again from its racks and cue-ball placements.

    Yields, for each entry: the game index, the entry index, the trajectory (None for a choice
    or a forfeit) and a problem when the layout it leaves differs from the recorded one by even
    one bit (None when they are identical).

    Raises:
        InvalidRecordError: an entry the referee refuses.
    """
    table = TABLES.get(record.table, nine_foot)()
    params = params or PhysicsParams(**dict(record.params))
    layout: dict[BallId, Position] = {}
    for entry in iter_rulings(record):
        shot = entry.shot
        if entry.index == 0:
            layout = dict(record.games[entry.game].rack or {})
        if shot.kind is not ShotKind.STROKE or shot.stroke is None:
            yield entry.game, entry.index, None, None
            continue
        balls = {b: p for b, p in layout.items() if b is not BallId.CUE or not shot.cue_ball}
        if shot.cue_ball is not None:
            balls[BallId.CUE] = shot.cue_ball
        trajectory = simulate(
            _balls(balls), stroke=record_stroke(shot.stroke), params=params, table=table
        )
        after = _after(trajectory)
        if entry.ruling.respotted:
            after[BallId.NINE] = respot_nine(after, table, params)
        problem = None
        if shot.positions is not None and after != dict(shot.positions):
            problem = RecordProblem(
                f"$.games[{entry.game}].shots[{entry.index}].positions",
                "the physics leaves the balls elsewhere than the record says",
            )
        yield entry.game, entry.index, trajectory, problem
        layout = after


def position_before(
    record: MatchRecord, game: int, index: int
) -> tuple[MatchState, dict[BallId, Position]]:
    """The referee's state and the balls on the table just before an entry of a record.

    Args:
        record: the record.
        game: the game's index (0-based).
        index: the entry's index in its game (0-based).

    Returns:
        The state before the entry and the layout (the cue ball absent while in hand, unless it
        lies where it stopped).

    Raises:
        IndexError: no such entry.
        InvalidRecordError: an entry the referee refuses on the way.
    """
    if not (0 <= game < len(record.games) and 0 <= index < len(record.games[game].shots)):
        raise IndexError(f"the record has no entry {index + 1} in game {game + 1}")
    table = TABLES.get(record.table, nine_foot)()
    params = PhysicsParams(**dict(record.params))
    layout: dict[BallId, Position] = {}
    for (g, i, trajectory, _), entry in zip(replay(record), iter_rulings(record), strict=True):
        if i == 0:
            layout = dict(record.games[g].rack or {})
        if (g, i) == (game, index):
            return entry.before, layout
        if trajectory is not None:
            layout = _after(trajectory)
            if entry.ruling.respotted:
                layout[BallId.NINE] = respot_nine(layout, table, params)
    raise IndexError(f"the record has no entry {index + 1} in game {game + 1}")  # pragma: no cover
