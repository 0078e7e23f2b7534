"""The search player: geometric candidates scored by simulation under the player's own noise.

The recipe of the computational-pool olympiads (PickPocket, CueCard; docs/players.md):

1. **Candidates from geometry**, for the lowest ball: direct pots aimed by the ghost ball, banks
   (one cushion, by mirroring the pocket), combinations (the lowest ball into another), kicks
   (the cue ball off one cushion), safeties (thin and soft contacts) and, at the top level,
   caroms and kisses (a ball glancing off another by the 90-degree rule), each at a few speeds
   and tip heights (stun, follow, draw).
2. **Aim corrected by simulation**: a direct pot is simulated without noise and its aim nudged
   until the object ball leaves along the line to the pocket (this corrects cut- and
   spin-induced throw and the cue ball's deflection).
3. **Scored by simulation under noise**, in stages: every candidate once without noise; a
   screen of a few noisy samples for the best of each kind in turn (so that shots that only
   work without noise, long banks and thin cuts, cannot crowd out the rest); the full
   ``samples`` for the shortlist; as many again for the finalists (the more samples behind the
   chosen shot, the less its estimate flatters it). The referee rules on every outcome. An
   outcome is worth 1 when it wins the game, the next shot's value when the player keeps the
   table, and minus the opponent's prospects when the turn passes (a foul gives the opponent
   ball in hand, which is worth more to them).
4. **The leave** is valued by the chance of the best next pot under the player's own aim error
   (:func:`pot_quality`, an error function of the pocket's angular tolerance over the object
   ball's angular error). At the top level one more ply: the finalists' leaves are played out
   (the best next pot, its chance and what it leaves in turn).
5. **Ball in hand** is placed by the same search over spots behind the lowest ball; push outs
   are played when no shot is worth taking, and answered by comparing the position's value for
   each side. The break is data, chosen offline (:data:`BREAK`).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field, replace
from importlib.resources import files

import numpy as np

from nineball.equipment import BallId, PocketId
from nineball.errors import InvalidPlacementError, NineballError
from nineball.game.layout import Point, check_cue_placement
from nineball.game.noise import TOURNAMENT_NOISE, ExecutionNoise
from nineball.game.position import Position
from nineball.game.step import ShotOutcome, play_stroke
from nineball.physics import EventKind, Stroke
from nineball.players.aim import cut_angle, ghost_ball, is_path_clear, pocket_aim
from nineball.players.base import Decision
from nineball.players.jump import jump_shots
from nineball.rules import Choice, CueBall, Phase, Seat, choose

__all__ = [
    "BREAK",
    "LEVELS",
    "BreakPlan",
    "Candidate",
    "Level",
    "SearchPlayer",
    "pot_chances",
    "pot_quality",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class BreakPlan:
    """A break: where the cue ball goes in the kitchen, and the stroke at the 1."""

    x: float
    """Cue ball x in m (the head string's y less 0.1 m is its y)."""
    speed: float
    """m/s."""
    height: float
    """Tip height (fraction of R): a little draw keeps the cue ball in the middle."""
    offset: float
    """Aim offset from the 1's centre, as a fraction of R (a fuller or thinner hit)."""


def _load_break() -> BreakPlan:
    data = json.loads(files("nineball.players").joinpath("break.json").read_text("utf-8"))
    return BreakPlan(**data["plan"])


BREAK = _load_break()
"""The break every search level plays, chosen offline by ``tools/optimise_break.py`` under pro
noise and shipped as ``break.json`` (pros break at 9.8-11.6 m/s, docs/players.md). Weaker
levels break softer (:attr:`Level.break_speed`)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Level:
    """A playing strength: execution noise and search budget."""

    name: str
    noise: ExecutionNoise
    """The execution noise the game applies to this player's strokes."""
    samples: int
    """Noisy simulations per short-listed candidate (and again per finalist)."""
    shortlist: int
    """Candidates kept after the screening pass."""
    screen: int = 12
    """Candidates screened with a few noisy samples, taken in turn from each kind of shot."""
    finalists: int = 0
    """The best few after the shortlist pass, sampled again before choosing (0: none)."""
    spins: tuple[float, ...] = (0.0, 0.35, -0.35)
    """Tip heights tried on pots (stun, follow, draw)."""
    speeds: tuple[float, ...] = (0.2, 1.2)
    """Extra speeds in m/s tried on pots, above the speed that just gets the ball there
    (:func:`_speed_for`)."""
    lookahead: int = 0
    """One more ply: noisy samples per finalist whose leave is judged by playing the next
    shot (its chance and the leave after it) rather than by its geometry alone (0: none)."""
    kinds: frozenset[str] = frozenset({"direct", "bank", "combo", "kick", "safety"})
    """The kinds of candidate the level considers."""
    break_speed: float | None = None
    """The break's speed in m/s (None: the shipped plan's, :data:`BREAK`)."""
    description: str = ""


LEVELS: dict[str, Level] = {
    level.name: level
    for level in (
        Level(
            name="beginner",
            noise=TOURNAMENT_NOISE.scaled(6.0),
            samples=2,
            shortlist=3,
            screen=4,
            spins=(0.0,),
            kinds=frozenset({"direct"}),
            break_speed=7.0,
            description="aims at the easiest pot, shaky hands (6x tournament noise)",
        ),
        Level(
            name="amateur",
            noise=TOURNAMENT_NOISE.scaled(2.8),
            samples=3,
            shortlist=4,
            screen=8,
            spins=(0.0, 0.35),
            kinds=frozenset({"direct", "kick"}),
            break_speed=8.0,
            description="pots and kicks, 2.8x tournament noise",
        ),
        Level(
            name="club",
            noise=TOURNAMENT_NOISE.scaled(2.0),
            samples=4,
            shortlist=5,
            screen=12,
            kinds=frozenset({"direct", "bank", "kick", "safety"}),
            break_speed=9.0,
            description="plays position and safeties, 2.0x tournament noise",
        ),
        Level(
            name="advanced",
            noise=TOURNAMENT_NOISE.scaled(1.2),
            samples=6,
            shortlist=6,
            screen=18,
            finalists=2,
            kinds=frozenset({"direct", "bank", "combo", "kick", "safety", "jump"}),
            break_speed=10.0,
            description="every kind of shot, 1.2x tournament noise",
        ),
        Level(
            name="pro",
            noise=TOURNAMENT_NOISE.scaled(0.8),
            samples=12,
            shortlist=8,
            screen=30,
            kinds=frozenset({"direct", "bank", "combo", "kick", "safety", "jump"}),
            finalists=3,
            spins=(0.0, 0.25, 0.45, -0.25, -0.45),
            speeds=(0.0, 0.35, 0.8, 1.5, 2.5),
            description="every kind of shot, 0.8x tournament noise, position with speed and spin",
        ),
        Level(
            name="max",
            noise=TOURNAMENT_NOISE.scaled(0.4),
            samples=24,
            shortlist=12,
            screen=48,
            finalists=4,
            lookahead=8,
            kinds=frozenset({"direct", "bank", "combo", "carom", "kick", "safety", "jump"}),
            spins=(0.0, 0.25, 0.45, -0.25, -0.45),
            speeds=(0.0, 0.35, 0.8, 1.5, 2.5),
            description="caroms and kisses too, one more ply, 0.4x tournament noise, widest search",
        ),
    )
}
"""The levels by name, weakest first."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Candidate:
    """A shot considered, and what the search found of it."""

    kind: str
    stroke: Stroke
    target: str = ""
    """What it tries: e.g. ``"3 in foot_left"``."""
    value: float = 0.0
    """Expected value in [-1, 1] (1: wins the game)."""
    success: float = 0.0
    """Share of samples in which the player kept the table or won."""
    foul: float = 0.0
    """Share of samples that fouled."""
    safety: bool = False
    samples: int = 0
    """Noisy simulations behind ``value``, ``success`` and ``foul`` (0: one without noise)."""
    ball: int = 0
    """The ball it pots (a carom: the ball the cue ball caroms into) or plays on."""
    pocket: str = ""
    """The pocket it aims at (a :class:`PocketId` value; empty for kicks and safeties)."""
    other: int = 0
    """The second ball of a combination, kiss or carom (0: none)."""


@dataclass(slots=True)
class _Search:
    """One decision: the position, the budget and the outcomes seen."""

    view: Position
    level: Level
    rng: np.random.Generator
    simulations: int = 0
    positions: dict[Point, Position | None] = field(default_factory=dict)
    """The position with the cue ball at each spot tried, checked by the physics once (None:
    the physics refuses it)."""

    def at(self, cue: Point) -> Position | None:
        """The position with the cue ball at ``cue``, ready to strike (None: refused)."""
        if cue not in self.positions:
            position: Position | None = replace(self.view, placed=cue)
            try:
                assert position is not None
                _ = position.prepared
            except NineballError:
                position = None
            self.positions[cue] = position
        return self.positions[cue]


def _speed_for(distance: float, cut: float, extra: float, travel: float = 0.5) -> float:
    """A cue-ball speed (m/s) that sends the object ball ``distance`` m after a cut, and more.

    The least speed that pots a ball, measured on the default table (corner pockets, object
    ball 0.2-1.4 m from the pocket, cuts of 0-60 deg, the cue ball 0.3-1.5 m from the object
    ball; root-mean-square error of the fit 0.1 m/s), is about
    sqrt(0.125 + 0.85 distance) / cos(cut)^0.75 + 0.16 travel; the base speed is 10% above it,
    and ``extra`` m/s is added for position.
    """
    least = math.sqrt(0.125 + 0.85 * distance) / max(math.cos(cut), 0.25) ** 0.75 + 0.16 * travel
    return float(min(8.0, 1.1 * least + extra))


POCKET_SLACK = 1.35
"""How much wider than the mouth less a ball a pocket plays: a ball that grazes a point or a
facing can still drop (measured against the physics on cuts of 0-45 degrees)."""


def pot_quality(
    view: Position, cue: Point, target: BallId, aim_sd: float = math.radians(0.125)
) -> float:
    """The chance in [0, 1] of the best direct pot on ``target`` from ``cue``.

    For a player whose aim errs by ``aim_sd`` (rad, one standard deviation); geometry alone, no
    simulation.

    An aim error turns the object ball's line by about d / (2R cos(cut)) times as much (d: the
    cue ball's travel to the ghost ball); the pot is made when the object ball reaches the
    pocket within its tolerance, the mouth less a ball, narrowed as the ball comes in off the
    pocket's axis (sharply for a side pocket), widened by :data:`POCKET_SLACK`. The error is
    Gaussian, so the chance is an erf.
    """
    return max(pot_chances(view, cue, target, aim_sd).values(), default=0.0)


def pot_chances(view: Position, cue: Point, target: BallId, aim_sd: float) -> dict[PocketId, float]:
    """:func:`pot_quality` pocket by pocket (the pockets with a clear, makeable line)."""
    r = view.params.radius
    ball = view.layout[target]
    chances: dict[PocketId, float] = {}
    for pocket in PocketId:
        aim = pocket_aim(view.table, pocket)
        ghost = ghost_ball(ball, aim, r)
        cut = cut_angle(cue, ghost, ball, aim)
        if cut > math.radians(80):
            continue
        skip = (BallId.CUE, target)
        if not (
            is_path_clear(cue, ghost, view.layout, skip, r)
            and is_path_clear(ball, aim, view.layout, skip, r)
        ):
            continue
        d1 = math.hypot(ghost[0] - cue[0], ghost[1] - cue[1])
        d2 = math.hypot(aim[0] - ball[0], aim[1] - ball[1])
        # The object ball's angular error: the aim's, magnified; and a floor for throw and
        # squirt that the aim cannot see.
        sd = math.hypot(aim_sd * d1 / (2.0 * r * max(math.cos(cut), 0.2)), 0.2 * aim_sd)
        cx, cy = view.table.pocket_centre(pocket)
        axis = math.atan2(cy - aim[1], cx - aim[0])
        off = abs(math.remainder(math.atan2(aim[1] - ball[1], aim[0] - ball[0]) - axis, math.pi))
        side = pocket in (PocketId.SIDE_LEFT, PocketId.SIDE_RIGHT)
        narrowing = math.cos(off) ** (3.0 if side else 1.0)
        if narrowing <= 0.0:
            continue
        half = POCKET_SLACK * max(view.table.mouth(pocket) / 2.0 - r, 1e-3) * narrowing
        tolerance = math.atan2(half, d2)
        chances[pocket] = math.erf(tolerance / (sd * math.sqrt(2.0)))
    return chances


def _position_value(view: Position, me: Seat, aim_sd: float) -> float:
    """Value in [-1, 1] of a position for seat ``me`` from geometry alone (no simulation).

    The next shot's chance is judged with the aim error ``aim_sd`` (rad).
    """
    state = view.state
    if state.is_over:
        return 1.0 if state.winner == me else -1.0
    cue = view.layout.get(BallId.CUE)
    if state.cue_ball is not CueBall.IN_PLACE or cue is None:
        quality = 0.9  # ball in hand: nearly always a good shot
    else:
        quality = pot_quality(view, cue, state.lowest, aim_sd)
    mine = state.to_act == me
    value = 0.15 + 0.7 * quality
    return value if mine else -value


class SearchPlayer:
    """A computer player of a given :class:`Level`.

    >>> player = SearchPlayer(LEVELS["club"])
    >>> player.name, player.noise == LEVELS["club"].noise
    ('club', True)
    """

    def __init__(self, level: Level) -> None:
        """Play at ``level``."""
        self.level = level
        self.name = level.name
        self.noise: ExecutionNoise | None = level.noise
        """The noise the game applies to this player's strokes."""
        self.last: list[Candidate] = []
        """The candidates of the last decision, best first (for analysis)."""
        # Leaves are judged by this player's own aim, with a floor: nobody is perfect.
        self._aim_sd = max(level.noise.aim, math.radians(0.03))

    # ---------------------------------------------------------------- simulation and scoring

    def _simulate(
        self, search: _Search, cue: Point, stroke: Stroke, *, push_out: bool = False
    ) -> ShotOutcome | None:
        """Play a stroke from the search's position with the cue ball at ``cue``.

        Returns None for a stroke the physics or the referee refuses.
        """
        position = search.at(cue)
        if position is None:
            return None
        try:
            outcome = play_stroke(position, stroke, push_out=push_out)
        except NineballError:
            return None
        search.simulations += 1
        return outcome

    def _outcome(self, search: _Search, outcome: ShotOutcome) -> float:
        me = search.view.state.to_act
        ruling = outcome.ruling
        if ruling.game_over is not None:
            return 1.0 if ruling.game_over.winner == me else -1.0
        value = _position_value(outcome.after, me, self._aim_sd)
        if ruling.fouls:
            value -= 0.15  # ball in hand for the opponent, and a foul counted against me
        return value

    def _score(self, search: _Search, cue: Point, candidate: Candidate, samples: int) -> Candidate:
        """Rate ``candidate``, pooling new outcomes with the ones it already has.

        Once without noise when ``samples`` is 0, else with ``samples`` more noisy simulations.
        """
        noise = self.noise
        if samples == 0 or noise is None:
            strokes = [candidate.stroke]
        else:
            params = search.view.params
            strokes = [noise.apply(candidate.stroke, search.rng, params) for _ in range(samples)]
        me = search.view.state.to_act
        total = kept = fouls = 0.0
        for stroke in strokes:
            result = self._simulate(search, cue, stroke)
            if result is None:  # a stroke the physics refuses: as bad as a foul
                total -= 1.0
                fouls += 1
                continue
            ruling = result.ruling
            total += self._outcome(search, result)
            if ruling.fouls:
                fouls += 1
            elif ruling.state.to_act == me or ruling.game_over is not None:
                kept += 1
        n = len(strokes)
        noisy = samples > 0 and noise is not None
        before = candidate.samples if noisy else 0
        weight = before + n
        return replace(
            candidate,
            value=(candidate.value * before + total) / weight,
            success=(candidate.success * before + kept) / weight,
            foul=(candidate.foul * before + fouls) / weight,
            samples=weight if noisy else 0,
        )

    def _deepen(self, search: _Search, cue: Point, candidate: Candidate, samples: int) -> Candidate:
        """One more ply: correct ``candidate``'s value by how its leaves really play.

        In ``samples`` fresh noisy outcomes where the player keeps the table, the leave's value
        by geometry is set against the value of the best next shot actually played from it;
        the mean difference, weighted by the chance of keeping the table, corrects the value.
        """
        view = search.view
        me = view.state.to_act
        noise = self.noise
        strokes = (
            [candidate.stroke]
            if noise is None
            else [noise.apply(candidate.stroke, search.rng, view.params) for _ in range(samples)]
        )
        total, n = 0.0, 0
        for stroke in strokes:
            result = self._simulate(search, cue, stroke)
            if result is None:
                continue
            ruling = result.ruling
            if ruling.fouls or ruling.game_over is not None or ruling.state.to_act != me:
                continue
            after = result.after
            total += self._next_value(search, after) - _position_value(after, me, self._aim_sd)
            n += 1
        if n == 0:
            return candidate
        return replace(candidate, value=candidate.value + candidate.success * total / n)

    def _next_value(self, search: _Search, view: Position) -> float:
        """The value of ``view`` (this player to shoot, the cue ball in place) by its best pot.

        The pot's chance times the value of the position it leaves, and a miss otherwise.
        """
        me = view.state.to_act
        cue = view.layout.get(BallId.CUE)
        if cue is None or view.state.is_over or view.state.cue_ball is not CueBall.IN_PLACE:
            return _position_value(view, me, self._aim_sd)
        target = view.state.lowest
        chances = pot_chances(view, cue, target, self._aim_sd)
        sub = _Search(view=view, level=search.level, rng=search.rng)
        ball = view.layout[target]
        r = view.params.radius
        best = _MISSED  # nothing to pot: about as good as a miss (a safety at best)
        for pocket in sorted(chances, key=lambda p: -chances[p])[:3]:
            chance = chances[pocket]
            aim = pocket_aim(view.table, pocket)
            ghost = ghost_ball(ball, aim, r)
            phi = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
            distance = math.hypot(aim[0] - ball[0], aim[1] - ball[1])
            cut = cut_angle(cue, ghost, ball, aim)
            travel = math.hypot(ghost[0] - cue[0], ghost[1] - cue[1])
            base = Stroke(speed=_speed_for(distance, cut, 0.0, travel), aim=phi)
            phi = self._correct_aim(sub, cue, base, target, aim).aim
            for extra in (0.2, 1.0):
                for height in (0.0, 0.3, -0.3):
                    speed = _speed_for(distance, cut, extra, travel)
                    stroke = Stroke(speed=speed, aim=phi, height=height)
                    result = self._simulate(sub, cue, stroke)
                    if result is None:
                        continue
                    made = self._outcome(sub, result)
                    best = max(best, chance * made + (1.0 - chance) * _MISSED)
        search.simulations += sub.simulations
        return best

    # ---------------------------------------------------------------- candidates

    def _correct_aim(
        self, search: _Search, cue: Point, stroke: Stroke, ball: BallId, to: Point
    ) -> Stroke:
        """The aim that sends ``ball`` off toward ``to`` (corrects throw and deflection).

        The object ball leaves along the line of centres at contact; turning the aim by a small
        angle turns that line the other way, about d / (2R cos(cut)) - 1 times as much (d: the
        cue ball's travel to the contact). Secant steps from that estimate, each checked by
        simulation; the best aim seen is kept.
        """
        view = search.view
        r = view.params.radius
        start = view.layout[ball]
        wanted = math.atan2(to[1] - start[1], to[0] - start[0])
        ghost = ghost_ball(start, to, r)
        cut = cut_angle(cue, ghost, start, to)
        d_cue = math.hypot(ghost[0] - cue[0], ghost[1] - cue[1])
        slope = -max(d_cue / (2.0 * r * max(math.cos(cut), 0.2)) - 1.0, 0.5)
        best = (math.inf, stroke)
        previous: tuple[float, float] | None = None
        aim = stroke.aim
        for _ in range(_AIM_STEPS):
            trial = replace(stroke, aim=aim)
            error = self._leaving_error(search, cue, trial, ball, wanted)
            if error is None:
                break
            if abs(error) < best[0]:
                best = (abs(error), trial)
            if abs(error) < _AIM_TOLERANCE:
                break
            if previous is not None and error != previous[1] and aim != previous[0]:
                secant = (error - previous[1]) / (aim - previous[0])
                if secant < 0.0:  # the expected sign; otherwise keep the estimate
                    slope = secant
            previous = (aim, error)
            aim -= error / slope
        return best[1]

    def _leaving_error(
        self, search: _Search, cue: Point, stroke: Stroke, ball: BallId, wanted: float
    ) -> float | None:
        """The angle (rad) by which ``ball`` leaves its first contact off ``wanted``.

        None when the stroke is refused or the cue ball reaches the ball first through another.
        """
        position = search.at(cue)
        if position is None:
            return None
        try:
            trajectory = position.prepared.strike(stroke)
        except NineballError:
            return None
        search.simulations += 1
        for event in trajectory.events():
            if event.kind is EventKind.BALL_BALL and ball in event.balls:
                if BallId.CUE not in event.balls:
                    return None  # hit by another ball first: not this shot
                state = event.states[event.balls.index(int(ball))]
                return math.remainder(math.atan2(state.v[1], state.v[0]) - wanted, 2 * math.pi)
        return None

    def _pots(self, search: _Search, cue: Point) -> list[Candidate]:
        view, level = search.view, self.level
        r = view.params.radius
        target = view.state.lowest
        ball = view.layout[target]
        out: list[Candidate] = []
        others = [b for b in view.layout if b not in (BallId.CUE, target)]
        for pocket in PocketId:
            aim = pocket_aim(view.table, pocket)
            routes: list[tuple[str, Point, BallId | None, Point]] = []
            if "direct" in level.kinds:
                routes.append(("direct", aim, None, aim))
            if "bank" in level.kinds:
                for mirror in _mirrors(view, aim):
                    if math.dist(mirror, aim) > 0.25:  # not the cushion beside the pocket
                        routes.append(("bank", mirror, None, aim))
            if "combo" in level.kinds:
                for other in others:
                    second = view.layout[other]
                    ghost2 = ghost_ball(second, aim, r)
                    if cut_angle(ball, ghost2, second, aim) < math.radians(50):
                        routes.append(("combo", ghost2, other, aim))
            if "carom" in level.kinds:
                # A kiss: the lowest ball glances off another ball into the pocket (it leaves
                # the contact at right angles to the line of centres).
                for other in others:
                    for contact in _glances(view.layout[other], aim, ball, r):
                        routes.append(("kiss", contact, other, aim))
            for kind, via, second_ball, final in routes:
                ghost = ghost_ball(ball, via, r)
                cut = cut_angle(cue, ghost, ball, via)
                if cut > math.radians(78):
                    continue
                skip = (
                    (BallId.CUE, target)
                    if second_ball is None
                    else (BallId.CUE, target, second_ball)
                )
                if not is_path_clear(cue, ghost, view.layout, skip, r):
                    continue
                if kind == "direct" and not is_path_clear(ball, aim, view.layout, skip, r):
                    continue
                distance = math.hypot(via[0] - ball[0], via[1] - ball[1]) + (
                    math.hypot(final[0] - via[0], final[1] - via[1]) if kind != "direct" else 0.0
                )
                phi = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
                label = f"{int(target)} in {pocket.value}" + (
                    ""
                    if second_ball is None
                    else f" off the {int(second_ball)}"
                    if kind == "kiss"
                    else f" via the {int(second_ball)}"
                )
                travel = math.hypot(ghost[0] - cue[0], ghost[1] - cue[1])
                route = _ROUTE_EXTRA.get(kind, 0.0)
                for extra in level.speeds:
                    speed = _speed_for(distance, cut, extra + route, travel)
                    for height in level.spins:
                        stroke = Stroke(speed=speed, aim=phi, height=height)
                        # Throw depends on the speed and on the cue ball's spin at contact
                        # (up to a few degrees): each variant gets its own aim, starting from
                        # the last one found, that sends the ball toward the pocket, the mirror
                        # point of the bank or the ghost ball of the combination. (A kiss turns
                        # on the second contact's own throw: its ghost-ball aim is kept.)
                        if kind != "kiss":
                            stroke = self._correct_aim(search, cue, stroke, target, via)
                            phi = stroke.aim
                        out.append(
                            Candidate(
                                kind=kind,
                                stroke=stroke,
                                target=label,
                                ball=int(target),
                                pocket=pocket.value,
                                other=0 if second_ball is None else int(second_ball),
                            )
                        )
        if "carom" in level.kinds:
            out += self._caroms(search, cue)
        return out

    def _caroms(self, search: _Search, cue: Point) -> list[Candidate]:
        """The cue ball glances off the lowest ball into another ball, which it pots."""
        view, level = search.view, self.level
        r = view.params.radius
        target = view.state.lowest
        ball = view.layout[target]
        out: list[Candidate] = []
        for other in view.layout:
            if other in (BallId.CUE, target):
                continue
            second = view.layout[other]
            for pocket in PocketId:
                aim = pocket_aim(view.table, pocket)
                if not is_path_clear(second, aim, view.layout, (other,), r):
                    continue
                ghost = ghost_ball(second, aim, r)
                for contact in _glances(ball, ghost, cue, r):
                    skip = (BallId.CUE, target, other)
                    if not (
                        is_path_clear(cue, contact, view.layout, (BallId.CUE, target), r)
                        and is_path_clear(contact, ghost, view.layout, skip, r)
                    ):
                        continue
                    phi = math.atan2(contact[1] - cue[1], contact[0] - cue[0])
                    travel = math.dist(cue, contact) + math.dist(contact, ghost)
                    for extra in level.speeds[:2]:
                        speed = _speed_for(travel + math.dist(second, aim), 1.0, extra)
                        for height in (0.0, -0.3):  # stun or a little draw: the 90-degree line
                            out.append(
                                Candidate(
                                    kind="carom",
                                    stroke=Stroke(speed=speed, aim=phi, height=height),
                                    target=f"{int(other)} in {pocket.value} off the {int(target)}",
                                    ball=int(other),
                                    pocket=pocket.value,
                                    other=int(target),
                                )
                            )
        return out

    def _kicks_and_safeties(self, search: _Search, cue: Point) -> list[Candidate]:
        view, level = search.view, self.level
        r = view.params.radius
        target = view.state.lowest
        ball = view.layout[target]
        out: list[Candidate] = []
        distance = math.hypot(ball[0] - cue[0], ball[1] - cue[1])
        if "kick" in level.kinds:
            for mirror in _mirrors(view, ball):
                phi = math.atan2(mirror[1] - cue[1], mirror[0] - cue[0])
                length = math.hypot(mirror[0] - cue[0], mirror[1] - cue[1])
                for speed in (1.2 + 0.6 * length, 2.0 + 0.9 * length):
                    out.append(
                        Candidate(
                            kind="kick",
                            stroke=Stroke(speed=min(speed, 8.0), aim=phi),
                            target=f"kick at the {int(target)}",
                            ball=int(target),
                        )
                    )
        if "safety" in level.kinds:
            base = math.atan2(ball[1] - cue[1], ball[0] - cue[0])
            spread = math.asin(min(1.0, 2.0 * r / max(distance, 2.0 * r)))
            for fraction in (-0.85, -0.5, 0.5, 0.85):
                for speed in (0.8 + 0.5 * distance, 1.6 + 0.8 * distance):
                    out.append(
                        Candidate(
                            kind="safety",
                            stroke=Stroke(speed=min(speed, 6.0), aim=base + fraction * spread),
                            target=f"safety on the {int(target)}",
                            ball=int(target),
                            safety=True,
                        )
                    )
        if "jump" in level.kinds:
            out += [
                Candidate(
                    kind="jump", stroke=j.stroke, target=j.target, ball=j.ball, pocket=j.pocket
                )
                for j in jump_shots(view, cue)
            ]
        # Always: a plain full hit, so that there is something legal to play.
        full = Stroke(
            speed=min(1.5 + distance, 6.0), aim=math.atan2(ball[1] - cue[1], ball[0] - cue[0])
        )
        out.append(
            Candidate(kind="hit", stroke=full, target=f"hit the {int(target)}", ball=int(target))
        )
        return out

    def evaluate(
        self, view: Position, rng: np.random.Generator, cue: Point | None = None
    ) -> list[Candidate]:
        """Every candidate for the position, scored, best first.

        Args:
            view: the position (the player to act is the one searching).
            rng: the generator for the noisy samples.
            cue: where the cue ball is (default: where it lies).
        """
        cue = view.layout.get(BallId.CUE) if cue is None else cue
        if cue is None:
            raise InvalidPlacementError("the cue ball is in hand: choose a spot first")
        search = _Search(view=view, level=self.level, rng=rng)
        level = self.level
        candidates = self._pots(search, cue) + self._kicks_and_safeties(search, cue)
        first = [self._score(search, cue, c, 0) for c in candidates]
        first.sort(key=lambda c: c.value, reverse=True)
        # Screening: a few noisy samples for the best of each kind in turn, so that shots that
        # only work without noise (long banks, thin cuts) cannot crowd out the rest.
        screened_ids = set(map(id, _diverse(first, level.screen)))
        screened = [
            self._score(search, cue, c, max(2, level.samples // 4))
            for c in first
            if id(c) in screened_ids
        ]
        rest = [c for c in first if id(c) not in screened_ids]
        screened.sort(key=lambda c: c.value, reverse=True)
        # The shortlist gets the full sample budget, and the finalists the same again (the more
        # samples behind the chosen shot, the less its estimate flatters it).
        short = [self._score(search, cue, c, level.samples) for c in screened[: level.shortlist]]
        short.sort(key=lambda c: c.value, reverse=True)
        final = [self._score(search, cue, c, level.samples) for c in short[: level.finalists]]
        if level.lookahead:
            final = [self._deepen(search, cue, c, level.lookahead) for c in final]
        final.sort(key=lambda c: c.value, reverse=True)
        return final + short[level.finalists :] + screened[level.shortlist :] + rest

    def refine(
        self,
        view: Position,
        rng: np.random.Generator,
        candidates: list[Candidate],
        cue: Point | None = None,
    ) -> list[Candidate]:
        """``candidates`` sampled up to the most samples any of them has, best first.

        What an analysis shows: shots compared on equal evidence.
        """
        cue = view.layout.get(BallId.CUE) if cue is None else cue
        if cue is None:
            raise InvalidPlacementError("the cue ball is in hand: choose a spot first")
        search = _Search(view=view, level=self.level, rng=rng)
        most = max((c.samples for c in candidates), default=0)
        out = [
            self._score(search, cue, c, most - c.samples) if c.samples < most else c
            for c in candidates
        ]
        out.sort(key=lambda c: c.value, reverse=True)
        return out

    # ---------------------------------------------------------------- decisions

    def _spots(self, view: Position) -> list[Point]:
        """Places for the cue ball in hand: behind the lowest ball on lines to each pocket."""
        region = view.in_hand or CueBall.ANYWHERE
        ball = view.layout[view.state.lowest]
        others: dict[BallId, Point] = {b: p for b, p in view.layout.items() if b is not BallId.CUE}
        spots: list[Point] = []
        for pocket in PocketId:
            aim = pocket_aim(view.table, pocket)
            d = math.hypot(aim[0] - ball[0], aim[1] - ball[1])
            ux, uy = (aim[0] - ball[0]) / d, (aim[1] - ball[1]) / d
            for back in (0.25, 0.45):
                for turn in (0.0, 0.35, -0.35):
                    c, s = math.cos(turn), math.sin(turn)
                    spot = (ball[0] - back * (ux * c - uy * s), ball[1] - back * (ux * s + uy * c))
                    try:
                        check_cue_placement(spot, others, region, view.table, view.params)
                    except InvalidPlacementError:
                        continue
                    spots.append(spot)
        return spots

    def decide(self, view: Position, rng: np.random.Generator) -> Decision:
        """Break, place the cue ball in hand, pot, push out or play safe: whatever scores best."""
        if view.in_hand is CueBall.KITCHEN:
            return self._break(view)
        if view.in_hand is not None:
            best: tuple[float, Point, Candidate] | None = None
            spots = self._spots(view)
            quick = sorted(
                spots, key=lambda s: -pot_quality(view, s, view.state.lowest, self._aim_sd)
            )[:4]
            for spot in quick:
                ranked = self.evaluate(view, rng, spot)
                if ranked and (best is None or ranked[0].value > best[0]):
                    best = (ranked[0].value, spot, ranked[0])
                    self.last = ranked
            if best is not None:
                _, spot, choice = best
                return Decision(stroke=choice.stroke, cue_ball=spot, safety=choice.safety)
            from nineball.players.ghost import GhostBallPlayer

            return GhostBallPlayer().decide(view, rng)
        ranked = self.evaluate(view, rng)
        self.last = ranked
        choice = ranked[0]
        if view.state.push_out_allowed and choice.value < 0.0:
            push = self._push_out(view, rng)
            if push is not None:
                return push
        return Decision(stroke=choice.stroke, safety=choice.safety)

    def _push_out(self, view: Position, rng: np.random.Generator) -> Decision | None:
        """A soft push out to the spot whose value is closest to even (the opponent chooses)."""
        cue = view.layout[BallId.CUE]
        search = _Search(view=view, level=self.level, rng=rng)
        best: tuple[float, Stroke] | None = None
        me = view.state.to_act
        for k in range(8):
            stroke = Stroke(speed=1.0, aim=2 * math.pi * k / 8)
            result = self._simulate(search, cue, stroke, push_out=True)
            if result is None:
                continue
            if result.ruling.fouls:
                continue
            after = result.after
            # The opponent chooses whichever side of the position is better for them.
            value = abs(_position_value(_as_shooter(after, me), me, self._aim_sd))
            if best is None or value < best[0]:
                best = (value, stroke)
        if best is None:
            return None
        return Decision(stroke=best[1], push_out=True)

    def answer_push_out(self, view: Position, rng: np.random.Generator) -> Choice:
        """Shoot when the position is worth more to the shooter than to the opponent."""
        # The same position is shot by one side or the other: take it when it is worth >= 0.
        shooter_view = replace(view, state=choose(view.state, Choice.SHOOT).state)
        shooting = self.evaluate(shooter_view, rng)
        return Choice.SHOOT if shooting and shooting[0].value >= 0.0 else Choice.PASS

    def lag(self, view: Position, rng: np.random.Generator) -> Stroke:
        """As the ghost-ball player: the speed that brings the ball back to the head cushion."""
        from nineball.players.ghost import GhostBallPlayer

        return GhostBallPlayer().lag(view, rng)

    def _break(self, view: Position) -> Decision:
        cue = (BREAK.x, view.table.head_string - 0.1)  # the kitchen, 10 cm behind the string
        one = view.layout[BallId.ONE]
        distance = math.hypot(one[0] - cue[0], one[1] - cue[1])
        aim = math.atan2(one[1] - cue[1], one[0] - cue[0])
        aim += BREAK.offset * view.params.radius / distance
        speed = BREAK.speed if self.level.break_speed is None else self.level.break_speed
        stroke = Stroke(speed=speed, aim=aim, height=BREAK.height)
        return Decision(stroke=stroke, cue_ball=cue)


_MISSED = -0.5

_ROUTE_EXTRA = {"bank": 0.5, "kiss": 0.5, "combo": 0.3}
"""m/s added to the base speed of a route for what it takes on the way: a cushion about half
of the ball's speed, a glancing contact or a second ball a share of it."""

_AIM_STEPS = 5
"""Simulations at most behind one corrected aim."""

_AIM_TOLERANCE = math.radians(0.02)
"""Close enough: the object ball's line within 0.02 degree (0.35 mm a metre on)."""
"""The value of a missed pot: the opponent at the table, usually with a shot."""


def _glances(centre: Point, towards: Point, start: Point, r: float) -> list[Point]:
    """Where a ball from ``start`` must touch the ball at ``centre`` to glance toward ``towards``.

    It leaves at right angles to the line of centres (the 90-degree rule).
    """
    d = math.dist(centre, towards)
    if d <= 2.0 * r:
        return []
    ux, uy = (towards[0] - centre[0]) / d, (towards[1] - centre[1]) / d
    cos_a = 2.0 * r / d
    sin_a = math.sqrt(1.0 - cos_a * cos_a)
    out = []
    for sign in (1.0, -1.0):
        cx = centre[0] + 2.0 * r * (cos_a * ux - sign * sin_a * uy)
        cy = centre[1] + 2.0 * r * (cos_a * uy + sign * sin_a * ux)
        inx, iny = cx - start[0], cy - start[1]
        # Coming in, it must strike the ball and carry on toward the target side.
        hits = inx * (centre[0] - cx) + iny * (centre[1] - cy) > 0.0
        onward = inx * (towards[0] - cx) + iny * (towards[1] - cy) > 0.0
        if hits and onward:
            out.append((cx, cy))
    return out


def _diverse(ranked: list[Candidate], count: int) -> list[Candidate]:
    """Up to ``count`` of ``ranked`` (best first), taken in turn from each kind of shot."""
    by_kind: dict[str, list[Candidate]] = {}
    for candidate in ranked:
        by_kind.setdefault(candidate.kind, []).append(candidate)
    queues = sorted(by_kind.values(), key=lambda q: -q[0].value)
    out: list[Candidate] = []
    depth = 0
    while len(out) < count and any(depth < len(q) for q in queues):
        for queue in queues:
            if depth < len(queue) and len(out) < count:
                out.append(queue[depth])
        depth += 1
    return out


def _as_shooter(view: Position, me: Seat) -> Position:
    """The position after a push out, as if ``me`` were to shoot it (for valuing both sides)."""
    game = replace(view.state.game, shooter=me, phase=Phase.SHOT)
    return Position(
        state=replace(view.state, game=game),
        layout=view.layout,
        table=view.table,
        params=view.params,
    )


def _mirrors(view: Position, point: Point) -> list[Point]:
    """``point`` reflected in the four lines a ball's centre bounces on (R inside each cushion)."""
    r = view.params.radius
    x, y = point
    w, length = view.table.width, view.table.length
    return [(2 * r - x, y), (2 * (w - r) - x, y), (x, 2 * r - y), (x, 2 * (length - r) - y)]
