"""How the search player values shots: simulation under its own noise, judged by the referee.

A :class:`Search` is one decision in progress: the position, the level, the random generator and
the outcomes seen. It plays a stroke through the game's step (:func:`nineball.game.play_stroke`),
values the outcome (1 for a game won, the next shot's prospects when the player keeps the table,
minus the opponent's when the turn passes), scores a :class:`Candidate` over noisy samples, plays
one more ply at the top level (:meth:`Search.deepen`), and corrects a pot's aim by simulation
(:meth:`Search.correct_aim`). Leaves are valued by geometry alone (:func:`pot_quality`), or at
a level that asks for it by the learned win probability (:meth:`Search.leaf`).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field, replace

import numpy as np

from nineball.equipment import BallId, Point
from nineball.errors import NineballError
from nineball.game import CueBall, Seat, Stroke
from nineball.game.noise import ExecutionNoise
from nineball.game.position import Position
from nineball.game.step import ShotOutcome, play_stroke, try_strokes
from nineball.players.aim import (
    POCKET_SLACK,
    cut_angle,
    ghost_ball,
    pocket_aim,
    pot_chances,
    pot_quality,
)
from nineball.players.levels import Level

__all__ = [
    "MISSED",
    "POCKET_SLACK",
    "Candidate",
    "Search",
    "position_value",
    "pot_chances",
    "pot_quality",
    "speed_for",
]

MISSED = -0.5
"""The value of a missed pot: the opponent at the table, usually with a shot."""

AIM_STEPS = 5
"""Simulations at most behind one corrected aim."""

AIM_TOLERANCE = math.radians(0.02)
"""Close enough: the object ball's line within 0.02 degree (0.35 mm a metre on)."""

KICK_FAN = 17
"""Aims tried around a kick's mirror aim (:meth:`Search.aim_kick`)."""

KICK_STEP = math.radians(1.0)
"""The spacing of those aims: the fan spans 16 degrees, about what the cushions bend a route
off its mirror."""


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


def speed_for(distance: float, cut: float, extra: float, travel: float = 0.5) -> float:
    """A cue-ball speed (m/s) that sends the object ball ``distance`` m after a cut, and more.

    The least speed that pots a ball, measured on the default table (corner pockets, object
    ball 0.2-1.4 m from the pocket, cuts of 0-60 deg, the cue ball 0.3-1.5 m from the object
    ball; root-mean-square error of the fit 0.1 m/s), is about
    sqrt(0.125 + 0.85 distance) / cos(cut)^0.75 + 0.16 travel; the base speed is 10% above it,
    and ``extra`` m/s is added for position.
    """
    least = math.sqrt(0.125 + 0.85 * distance) / max(math.cos(cut), 0.25) ** 0.75 + 0.16 * travel
    return float(min(8.0, 1.1 * least + extra))


def position_value(view: Position, me: Seat, aim_sd: float) -> float:
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


@dataclass(slots=True)
class Search:
    """One decision: the position, the budget and the outcomes seen."""

    view: Position
    level: Level
    rng: np.random.Generator
    noise: ExecutionNoise | None
    """The noise the game applies to the player's strokes, sampled in the scoring."""
    aim_sd: float
    """The player's own aim error (rad), by which leaves are judged."""
    simulations: int = 0
    positions: dict[Point, Position | None] = field(default_factory=dict)
    """The position with the cue ball at each spot tried, checked by the physics once (None:
    the physics refuses it)."""

    def at(self, cue: Point) -> Position | None:
        """The position with the cue ball at ``cue``, ready to strike (None: refused)."""
        if cue not in self.positions:
            position = replace(self.view, placed=cue)
            try:
                position.prepared.check()  # checked by the physics once, kept with the position
            except NineballError:
                self.positions[cue] = None
            else:
                self.positions[cue] = position
        return self.positions[cue]

    def play(self, cue: Point, stroke: Stroke, *, push_out: bool = False) -> ShotOutcome | None:
        """Play a stroke from the search's position with the cue ball at ``cue``.

        Returns None for a stroke the physics or the referee refuses.
        """
        position = self.at(cue)
        if position is None:
            return None
        try:
            outcome = play_stroke(position, stroke, push_out=push_out)
        except NineballError:
            return None
        self.simulations += 1
        return outcome

    def leaf(self, view: Position, me: Seat) -> float:
        """The value in [-1, 1] of a position for seat ``me``, as the level values leaves.

        ``geometry``: :func:`position_value`. ``model``: ``2 P - 1`` with P the learned chance
        that ``me`` wins the game (:mod:`nineball.players.value`).
        """
        if self.level.leaves == "geometry" or view.state.is_over:
            return position_value(view, me, self.aim_sd)
        from nineball.players.value import shipped_value_model  # it imports this module

        chance = shipped_value_model().game_win(view)
        return 2.0 * (chance if view.state.to_act == me else 1.0 - chance) - 1.0

    def value_of(self, outcome: ShotOutcome) -> float:
        """The value in [-1, 1] of an outcome for the player to act."""
        me = self.view.state.to_act
        ruling = outcome.ruling
        if ruling.game_over is not None:
            return 1.0 if ruling.game_over.winner == me else -1.0
        value = self.leaf(outcome.after, me)
        if ruling.fouls and self.level.leaves == "geometry":
            value -= 0.15  # ball in hand for the opponent, and a foul counted against me
        return value

    def play_all(
        self, cue: Point, strokes: list[Stroke], *, push_out: bool = False
    ) -> list[ShotOutcome | None]:
        """:meth:`play` for each of ``strokes``, simulated together (one compiled batch).

        Entry i is what ``self.play(cue, strokes[i])`` returns, bit for bit.
        """
        position = self.at(cue)
        if position is None:
            return [None] * len(strokes)
        out: list[ShotOutcome | None] = []
        for result in try_strokes(position, strokes, push_outs=push_out):
            if isinstance(result, NineballError):
                out.append(None)
            else:
                self.simulations += 1
                out.append(result)
        return out

    def score(self, cue: Point, candidate: Candidate, samples: int) -> Candidate:
        """Rate ``candidate``, pooling new outcomes with the ones it already has.

        Once without noise when ``samples`` is 0, else with ``samples`` more noisy simulations.
        """
        return self.score_all(cue, [candidate], samples)[0]

    def score_all(self, cue: Point, candidates: list[Candidate], samples: int) -> list[Candidate]:
        """:meth:`score` for each candidate in turn, their strokes simulated in one batch.

        The noise of every candidate's samples is drawn first, in the candidates' order (as
        one :meth:`score` after another draws it), so the result is theirs, bit for bit.
        """
        noise = self.noise
        params = self.view.params
        drawn: list[list[Stroke]] = []
        for candidate in candidates:
            if samples == 0 or noise is None:
                drawn.append([candidate.stroke])
            else:
                drawn.append(
                    [noise.apply(candidate.stroke, self.rng, params) for _ in range(samples)]
                )
        results = self.play_all(cue, [stroke for strokes in drawn for stroke in strokes])
        out: list[Candidate] = []
        start = 0
        for candidate, strokes in zip(candidates, drawn, strict=True):
            mine = results[start : start + len(strokes)]
            start += len(strokes)
            out.append(self._pooled(candidate, samples, mine))
        return out

    def _pooled(
        self, candidate: Candidate, samples: int, results: list[ShotOutcome | None]
    ) -> Candidate:
        """``candidate`` with the outcomes of its new strokes pooled in."""
        noise = self.noise
        me = self.view.state.to_act
        total = kept = fouls = 0.0
        for result in results:
            if result is None:  # a stroke the physics refuses: as bad as a foul
                total -= 1.0
                fouls += 1
                continue
            ruling = result.ruling
            total += self.value_of(result)
            if ruling.fouls:
                fouls += 1
            elif ruling.state.to_act == me or ruling.game_over is not None:
                kept += 1
        n = len(results)
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

    def replay(self, cue: Point, candidate: Candidate, samples: int) -> list[ShotOutcome]:
        """``samples`` fresh noisy outcomes of ``candidate``'s stroke, simulated together.

        One outcome without noise when the player has none; strokes the physics refuses are
        left out.
        """
        noise = self.noise
        strokes = (
            [candidate.stroke]
            if noise is None
            else [noise.apply(candidate.stroke, self.rng, self.view.params) for _ in range(samples)]
        )
        return [result for result in self.play_all(cue, strokes) if result is not None]

    def deepen(self, cue: Point, candidate: Candidate, samples: int) -> Candidate:
        """One more ply: correct ``candidate``'s value by how its leaves really play.

        In ``samples`` fresh noisy outcomes where the player keeps the table, the leave's value
        by geometry is set against the value of the best next shot actually played from it;
        the mean difference, weighted by the chance of keeping the table, corrects the value.
        """
        me = self.view.state.to_act
        total, n = 0.0, 0
        for result in self.replay(cue, candidate, samples):
            ruling = result.ruling
            if ruling.fouls or ruling.game_over is not None or ruling.state.to_act != me:
                continue
            after = result.after
            total += self.next_value(after) - self.leaf(after, me)
            n += 1
        if n == 0:
            return candidate
        return replace(candidate, value=candidate.value + candidate.success * total / n)

    def next_value(self, view: Position) -> float:
        """The value of ``view`` (this player to shoot, the cue ball in place) by its best pot.

        The pot's chance times the value of the position it leaves, and a miss otherwise.
        """
        me = view.state.to_act
        cue = view.layout.get(BallId.CUE)
        if cue is None or view.state.is_over or view.state.cue_ball is not CueBall.IN_PLACE:
            return self.leaf(view, me)
        target = view.state.lowest
        chances = pot_chances(view, cue, target, self.aim_sd)
        sub = Search(
            view=view, level=self.level, rng=self.rng, noise=self.noise, aim_sd=self.aim_sd
        )
        ball = view.layout[target]
        r = view.params.radius
        best = MISSED  # nothing to pot: about as good as a miss (a safety at best)
        for pocket in sorted(chances, key=lambda p: -chances[p])[:3]:
            chance = chances[pocket]
            aim = pocket_aim(view.table, pocket)
            ghost = ghost_ball(ball, aim, r)
            phi = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
            distance = math.hypot(aim[0] - ball[0], aim[1] - ball[1])
            cut = cut_angle(cue, ghost, ball, aim)
            travel = math.hypot(ghost[0] - cue[0], ghost[1] - cue[1])
            base = Stroke(speed=speed_for(distance, cut, 0.0, travel), aim=phi)
            phi = sub.correct_aim(cue, base, target, aim).aim
            tries = [
                Stroke(speed=speed_for(distance, cut, extra, travel), aim=phi, height=height)
                for extra in (0.2, 1.0)
                for height in (0.0, 0.3, -0.3)
            ]
            for result in sub.play_all(cue, tries):
                if result is None:
                    continue
                made = sub.value_of(result)
                best = max(best, chance * made + (1.0 - chance) * MISSED)
        self.simulations += sub.simulations
        return best

    def correct_aim(self, cue: Point, stroke: Stroke, ball: BallId, to: Point) -> Stroke:
        """The aim that sends ``ball`` off toward ``to`` (corrects throw and deflection).

        The object ball leaves along the line of centres at contact; turning the aim by a small
        angle turns that line the other way, about d / (2R cos(cut)) - 1 times as much (d: the
        cue ball's travel to the contact). Secant steps from that estimate, each checked by
        simulation; the best aim seen is kept.
        """
        view = self.view
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
        for _ in range(AIM_STEPS):
            trial = replace(stroke, aim=aim)
            error = self.leaving_error(cue, trial, ball, wanted)
            if error is None:
                break
            if abs(error) < best[0]:
                best = (abs(error), trial)
            if abs(error) < AIM_TOLERANCE:
                break
            if previous is not None and error != previous[1] and aim != previous[0]:
                secant = (error - previous[1]) / (aim - previous[0])
                if secant < 0.0:  # the expected sign; otherwise keep the estimate
                    slope = secant
            previous = (aim, error)
            aim -= error / slope
        return best[1]

    def aim_kick(self, cue: Point, stroke: Stroke, ball: BallId) -> Stroke | None:
        """The aim near ``stroke``'s that brings the cue ball onto ``ball`` first with most room.

        A cushion does not reflect a ball as a mirror does (the rebound depends on the speed
        and the spin, and a rolling ball's path curves after it), so the mirror's aim is only a
        start: a fan of :data:`KICK_FAN` aims :data:`KICK_STEP` apart around it is played in
        one batch, and the aim in the middle of the widest run of aims whose first contact is
        ``ball`` is kept (the most room for the execution's error either way); a run of one
        aim is narrowed by a second fan, a fifth of the step apart. None when no aim of the fan
        reaches the ball first.
        """
        step = KICK_STEP
        centre = stroke.aim
        for _ in range(2):
            aims = [centre + (k - KICK_FAN // 2) * step for k in range(KICK_FAN)]
            results = self.play_all(cue, [replace(stroke, aim=a) for a in aims])
            hits = [r is not None and r.facts.first_contact == ball for r in results]
            best, run, first = (0, 0), 0, 0
            for k, hit in enumerate(hits):
                if not hit:
                    run = 0
                    continue
                if run == 0:
                    first = k
                run += 1
                if run > best[0]:
                    best = (run, first)
            if best[0] == 0:
                return None
            centre = aims[best[1]] + (best[0] - 1) * step / 2.0
            if best[0] > 1:
                break
            step /= 5.0
        return replace(stroke, aim=centre)

    def leaving_error(
        self, cue: Point, stroke: Stroke, ball: BallId, wanted: float
    ) -> float | None:
        """The angle (rad) by which ``ball`` leaves its first contact off ``wanted``.

        None when the stroke is refused or the cue ball reaches the ball first through another.
        """
        position = self.at(cue)
        if position is None:
            return None
        try:
            trajectory = position.prepared.strike(stroke)
        except NineballError:
            return None
        self.simulations += 1
        met = trajectory.first_collision(int(ball))
        if met is None or met[0] != BallId.CUE:
            return None  # never hit, or hit by another ball first: not this shot
        vx, vy = met[1]
        return math.remainder(math.atan2(vy, vx) - wanted, 2 * math.pi)
