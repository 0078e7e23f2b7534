"""The search player: geometric candidates scored by simulation under the player's own noise.

The recipe of the computational-pool olympiads (PickPocket, CueCard; docs/players.md):

1. **Candidates from geometry**, for the lowest ball: direct pots aimed by the ghost ball, banks
   (one cushion, by mirroring the pocket), combinations (the lowest ball into another), kicks
   (the cue ball off one cushion), safeties (the object ball aimed at zones on the cushions at
   a sweep of speeds, the few that leave the opponent least) and, at the top level, caroms and
   kisses (a ball glancing off another by the 90-degree rule), each at a few speeds and tip
   heights (stun, follow, draw); from ``club`` up, side spin on the best few direct pots.
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
   each side. The break is data, chosen offline for each level (:data:`BREAKS`).

The pieces live by concept: the levels and the break in :mod:`nineball.players.levels`, the
candidates in :mod:`nineball.players.candidates`, their simulation and scoring in
:mod:`nineball.players.evaluation`; this module decides (shots, ball in hand, push outs).
"""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np

from nineball.equipment import BallId, PocketId, Point
from nineball.errors import InvalidPlacementError
from nineball.game import Choice, CueBall, Phase, Seat, Stroke, choose
from nineball.game.layout import check_cue_placement
from nineball.game.noise import ExecutionNoise
from nineball.game.position import Position
from nineball.players.aim import pocket_aim
from nineball.players.base import Decision
from nineball.players.candidates import diverse, kicks_and_safeties, pots, with_side
from nineball.players.evaluation import (
    POCKET_SLACK,
    Candidate,
    Search,
    pot_chances,
    pot_quality,
)
from nineball.players.levels import BREAK, BREAKS, LEVELS, BreakPlan, Level
from nineball.players.odds import SUCCESSION

__all__ = [
    "BREAK",
    "BREAKS",
    "LEVELS",
    "POCKET_SLACK",
    "BreakPlan",
    "Candidate",
    "Level",
    "SearchPlayer",
    "pot_chances",
    "pot_quality",
]


PUSH_AIMS = 16
"""Directions of the push outs tried, evenly spaced (every 22.5 degrees)."""

PUSH_SPEEDS = (0.5, 1.0, 1.8)
"""Speeds of the push outs tried, m/s: a short roll, about a diamond or two, across the table."""

PUSH_FINALISTS = 4
"""Pushes searched from both sides, picked across the range of the next pot's chance."""

STATED_SAMPLES = 32
"""Fresh noisy samples behind the chance a player states for the shot it chose."""


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

    def _search(self, view: Position, rng: np.random.Generator) -> Search:
        """A new decision from ``view`` with this player's level, noise and aim."""
        return Search(view=view, level=self.level, rng=rng, noise=self.noise, aim_sd=self._aim_sd)

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
        search = self._search(view, rng)
        level = self.level
        candidates = pots(search, cue) + kicks_and_safeties(search, cue)
        first = search.score_all(cue, candidates, 0)
        first.sort(key=lambda c: c.value, reverse=True)
        # Side spin where the search found the best pots (from club up), scored the same way.
        sided = with_side(search, cue, first)
        if sided:
            first += search.score_all(cue, sided, 0)
            first.sort(key=lambda c: c.value, reverse=True)
        # Screening: a few noisy samples for the best of each kind in turn, so that shots that
        # only work without noise (long banks, thin cuts) cannot crowd out the rest.
        screened_ids = set(map(id, diverse(first, level.screen)))
        screened = search.score_all(
            cue, [c for c in first if id(c) in screened_ids], max(2, level.samples // 4)
        )
        rest = [c for c in first if id(c) not in screened_ids]
        screened.sort(key=lambda c: c.value, reverse=True)
        # The shortlist gets the full sample budget, and the finalists the same again (the more
        # samples behind the chosen shot, the less its estimate flatters it).
        short = search.score_all(cue, screened[: level.shortlist], level.samples)
        short.sort(key=lambda c: c.value, reverse=True)
        final = search.score_all(cue, short[: level.finalists], level.samples)
        if level.lookahead:
            final = [search.deepen(cue, c, level.lookahead) for c in final]
        if level.replies:
            final = [self._reply(search, cue, c, level.replies) for c in final]
        final.sort(key=lambda c: c.value, reverse=True)
        return final + short[level.finalists :] + screened[level.shortlist :] + rest

    def _reply(self, search: Search, cue: Point, candidate: Candidate, samples: int) -> Candidate:
        """``candidate`` with its leaves for the opponent valued by the opponent's best reply.

        In ``samples`` fresh noisy outcomes where the turn passes without a foul (a miss, a
        safety), the geometric value of the leave (which says the same of a hook and of an open
        table with no pot: the opponent's next pot is all it sees) is set against the
        opponent's best reply, found by a small search of their own (:attr:`Level.replying`:
        their pots, kicks, safeties and jumps under this player's noise, their fouls counted).
        The mean difference, weighted by the candidate's share of such outcomes, corrects its
        value. The opponent's level is not known to the search: it answers as this one would.
        """
        me = search.view.state.to_act
        total, n = 0.0, 0
        for result in search.replay(cue, candidate, samples):
            ruling = result.ruling
            if ruling.fouls or ruling.game_over is not None or ruling.state.to_act == me:
                continue
            # no foul: the cue ball is on the table, in place, for the opponent
            after = result.after
            total += self.reply_value(after, search.rng) - search.leaf(after, me)
            n += 1
        if n == 0:
            return candidate
        passed = max(0.0, 1.0 - candidate.success - candidate.foul)
        return replace(candidate, value=candidate.value + passed * total / n)

    def reply_value(self, view: Position, rng: np.random.Generator) -> float:
        """The value in [-1, 1] of ``view`` for the player not to act, by the other's best reply.

        The player to act searches ``view`` as this level's :attr:`Level.replying` does, and
        their best shot's value, turned round, is the value for the one waiting (there is
        always one: a plain full hit on the ball on is among the candidates).
        """
        return -SearchPlayer(self.level.replying).evaluate(view, rng)[0].value

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
        search = self._search(view, rng)
        most = max((c.samples for c in candidates), default=0)
        out = [
            search.score(cue, c, most - c.samples) if c.samples < most else c for c in candidates
        ]
        out.sort(key=lambda c: c.value, reverse=True)
        return out

    def restate(
        self, view: Position, rng: np.random.Generator, cue: Point, chosen: Candidate
    ) -> Candidate:
        """``chosen`` scored again on :data:`STATED_SAMPLES` fresh noisy samples, nothing more.

        Its success and foul are the shares of those samples (no prior); its value is the
        search's. :meth:`stated` is what the player says of it.
        """
        fresh = replace(chosen, value=0.0, success=0.0, foul=0.0, samples=0)
        return replace(
            self._search(view, rng).score(cue, fresh, STATED_SAMPLES), value=chosen.value
        )

    def stated(
        self, view: Position, rng: np.random.Generator, cue: Point, chosen: Candidate
    ) -> Candidate:
        """``chosen`` as the player states it: its odds taken again on fresh noisy samples.

        The search's own figures for the shot it chose are the best of many noisy estimates,
        and so too high (the winner's curse: at ``club`` a shot the search gave 50-60% went
        in 32% of the time); :data:`STATED_SAMPLES` samples drawn after the choice
        (:meth:`restate`) are not. The success is stated as its mean given k of n samples
        under the level's prior over its shots' chances (:attr:`Level.odds_prior`: the rule of
        succession, (k + 1) / (n + 2), unless fitted to the level's shots), the foul as
        (k + 1) / (n + 2). A plain k / n, binned by its own value, says 4% for shots that work
        7% of the time and 97% for shots that work 96% (benchmarks/stated_odds.py;
        docs/players.md). The value stays the search's, which ranked the shots.
        """
        return self.say(self.restate(view, rng, cue, chosen))

    def say(self, restated: Candidate) -> Candidate:
        """What the player states of a shot from the fresh samples of :meth:`restate`.

        The success under the level's prior, the foul by the rule of succession (:meth:`stated`).
        """
        n = restated.samples
        if n == 0:  # no execution noise: the one noiseless stroke says what happens
            return restated
        return replace(
            restated,
            success=self.level.odds_prior.mean(round(restated.success * n), n),
            foul=SUCCESSION.mean(round(restated.foul * n), n),
        )

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
                return Decision(stroke=choice.stroke, cue_ball=spot, safety=_is_safety(choice))
            from nineball.players.ghost import GhostBallPlayer

            return GhostBallPlayer().decide(view, rng)
        ranked = self.evaluate(view, rng)
        self.last = ranked
        choice = ranked[0]
        if view.state.push_out_allowed and choice.value < 0.0:
            push = self._push_out(view, rng)
            if push is not None and push[0] > choice.value:
                return push[1]
        return Decision(stroke=choice.stroke, safety=_is_safety(choice))

    def _push_out(self, view: Position, rng: np.random.Generator) -> tuple[float, Decision] | None:
        """The push out that leaves the position nearest even, with its value for the pusher.

        Every stroke of a grid (:data:`PUSH_AIMS` directions at each of :data:`PUSH_SPEEDS`)
        is played in one batch; a push that fouls is dropped. After a push the opponent shoots
        or hands the shot back, whichever is better for them, and they value the position as
        this player does (the same search): worth v to whoever shoots it, the opponent takes
        ``|v|`` and leaves the pusher ``-|v|``, so the best push is the one whose v is nearest 0.
        v is the level's own search of the position (:meth:`evaluate`, its best shot), for
        :data:`PUSH_FINALISTS` pushes picked across the range of the shooter's next-pot chance
        (:func:`pot_quality`), from the deepest hook to the easiest shot. (A push chosen by
        the geometric value alone, which never says less than +0.15 for the shooter, always
        hid the cue ball; the opponent's search then handed the hook back.)
        """
        cue = view.layout[BallId.CUE]
        search = self._search(view, rng)
        me = view.state.to_act
        strokes = [
            Stroke(speed=speed, aim=2 * math.pi * k / PUSH_AIMS)
            for speed in PUSH_SPEEDS
            for k in range(PUSH_AIMS)
        ]
        pushed: list[tuple[float, Stroke, Position]] = []
        for stroke, result in zip(
            strokes, search.play_all(cue, strokes, push_out=True), strict=True
        ):
            if result is None or result.ruling.fouls or result.after.state.is_over:
                continue
            shooter = _as_shooter(result.after, me)
            placed = shooter.layout.get(BallId.CUE)
            if placed is None:
                continue
            chance = pot_quality(shooter, placed, shooter.state.lowest, self._aim_sd)
            pushed.append((chance, stroke, shooter))
        if not pushed:
            return None
        pushed.sort(key=lambda p: p[0])
        last = len(pushed) - 1
        picks = sorted(
            {round(k * last / max(1, PUSH_FINALISTS - 1)) for k in range(PUSH_FINALISTS)}
        )
        best: tuple[float, Stroke] | None = None
        for k in picks:
            _, stroke, shooter = pushed[k]
            ranked = self.evaluate(shooter, rng)
            if not ranked:
                continue
            value = -abs(ranked[0].value)
            if best is None or value > best[0]:
                best = (value, stroke)
        if best is None:
            return None
        return best[0], Decision(stroke=best[1], push_out=True)

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
        plan = self.level.break_plan
        cue = (plan.x, view.table.head_string - 0.1)  # the kitchen, 10 cm behind the string
        one = view.layout[BallId.ONE]
        distance = math.hypot(one[0] - cue[0], one[1] - cue[1])
        aim = math.atan2(one[1] - cue[1], one[0] - cue[0])
        aim += plan.offset * view.params.radius / distance
        stroke = Stroke(speed=plan.speed, aim=aim, height=plan.height)
        return Decision(stroke=stroke, cue_ball=cue)


def _is_safety(choice: Candidate) -> bool:
    """Whether a chosen shot is a safety, as the record labels it.

    One of the safety candidates that does not keep the player at the table in most of its
    noisy samples: a thin cut that pots the ball is a pot.
    """
    return choice.safety and choice.success < 0.5


def _as_shooter(view: Position, me: Seat) -> Position:
    """The position after a push out, as if ``me`` were to shoot it (for valuing both sides)."""
    game = replace(view.state.game, shooter=me, phase=Phase.SHOT)
    return Position(
        state=replace(view.state, game=game),
        layout=view.layout,
        table=view.table,
        params=view.params,
    )
