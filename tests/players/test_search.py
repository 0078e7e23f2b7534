"""The search player: candidates from geometry, corrected aim, noisy scoring, decisions."""

from __future__ import annotations

import itertools
import math
from dataclasses import replace

import numpy as np
import pytest

from nineball import BallId
from nineball.game.layout import check_cue_placement
from nineball.game.match import Match
from nineball.game.position import Position
from nineball.physics import BallInput, PhysicsParams, Stroke, nine_foot, simulate
from nineball.players import play_match, view_of
from nineball.players.evaluation import position_value
from nineball.players.search import BREAK, LEVELS, SearchPlayer, pot_quality
from nineball.rules import Choice, CueBall, MatchConfig, MatchState, Phase, Seat, ShotFacts, shoot

TABLE, PARAMS = nine_foot(), PhysicsParams()


def _view(layout: dict[BallId, tuple[float, float]], state: MatchState | None = None) -> Position:
    if state is None:
        # After a legal break with the 2-8 down: the 1 and the 9 are left, Ann to shoot.
        start = MatchState.start(MatchConfig(players=("Ann", "Bob")))
        state = shoot(start, ShotFacts.of(first_contact=1, pocketed=[2, 3, 4, 5, 6, 7, 8])).state
        state = replace(state, game=replace(state.game, push_out_allowed=False))
    return Position(state=state, layout=layout, table=TABLE, params=PARAMS)


def test_levels_get_steadier_and_search_wider() -> None:
    levels = list(LEVELS.values())
    assert [lv.name for lv in levels] == ["beginner", "amateur", "club", "advanced", "pro", "max"]
    for weaker, stronger in itertools.pairwise(levels):
        assert stronger.noise.aim < weaker.noise.aim
        assert stronger.samples >= weaker.samples
        assert stronger.shortlist >= weaker.shortlist
    # No level plans a stroke the physics refuses as a miscue.
    assert all(abs(h) < PARAMS.miscue_limit - 0.03 for lv in levels for h in lv.spins)


def test_a_straight_pot_is_found_and_made() -> None:
    layout = {BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)}
    player = SearchPlayer(LEVELS["pro"])
    ranked = player.evaluate(_view(layout), np.random.default_rng(0))
    best = ranked[0]
    assert best.kind == "direct"
    assert best.target == "1 in foot_right"
    assert best.success > 0.7
    # The finalists come first, best first, each with the most samples behind it.
    level = LEVELS["pro"]
    finalists = ranked[: level.finalists]
    assert [c.value for c in finalists] == sorted((c.value for c in finalists), reverse=True)
    assert all(c.samples == 2 * level.samples + max(2, level.samples // 4) for c in finalists)
    assert all(c.samples < finalists[-1].samples for c in ranked[level.finalists :])


def test_the_odds_stated_for_a_chosen_shot_are_taken_again_on_fresh_samples() -> None:
    from nineball.errors import InvalidInputError
    from nineball.players.search import STATED_SAMPLES

    # A thin cut of the 1 to the far corner: the search's best estimate of it is the luckiest
    # of several, so the player restates its odds on samples drawn after the choice.
    layout = {BallId.CUE: (0.3, 0.9), BallId.ONE: (0.95, 2.2), BallId.NINE: (0.3, 0.4)}
    view = _view(layout)
    player = SearchPlayer(LEVELS["club"])
    chosen = player.evaluate(view, np.random.default_rng(0))[0]
    cue = layout[BallId.CUE]
    stated = player.stated(view, np.random.default_rng(1), cue, chosen)
    assert stated.samples == STATED_SAMPLES
    assert stated.value == chosen.value  # the search's value ranked the shots; it stays
    assert stated.stroke == chosen.stroke
    # the rule of succession: (k + 1) / (n + 2), never certain either way
    n = STATED_SAMPLES
    for rate in (stated.success, stated.foul):
        kept = rate * (n + 2) - 1
        assert kept == pytest.approx(round(kept))
        assert 0 <= round(kept) <= n
        assert 0.0 < rate < 1.0
    # the same stream states the same odds; the search's own samples play no part
    assert player.stated(view, np.random.default_rng(1), cue, chosen) == stated
    assert player.stated(view, np.random.default_rng(1), cue, replace(chosen, success=1.0)) == (
        stated
    )
    # a level with a prior of its own states the same samples' success under it
    from nineball.players.odds import OddsPrior

    skewed = SearchPlayer(replace(LEVELS["club"], odds_prior=OddsPrior.beta(0.4, 0.2)))
    under = skewed.stated(view, np.random.default_rng(1), cue, chosen)
    kept = round(stated.success * (n + 2) - 1)
    assert under.success == pytest.approx((kept + 0.4) / (n + 0.6))
    assert under.foul == stated.foul  # fouls keep the rule of succession
    raw = player.restate(view, np.random.default_rng(1), cue, chosen)  # the same samples
    assert raw.success == kept / n
    assert raw.value == chosen.value
    assert LEVELS["pro"].odds_prior != OddsPrior()  # fitted to pro's own shots (docs/players.md)
    with pytest.raises(InvalidInputError, match="odds_prior"):
        replace(LEVELS["club"], odds_prior=(0.4, 0.2))  # type: ignore[arg-type]
    # without execution noise the one noiseless stroke says what happens: 0 or 1
    player.noise = None
    exact = player.stated(view, np.random.default_rng(1), cue, chosen)
    assert exact.samples == 0
    assert exact.success in (0.0, 1.0)


def test_the_analysis_states_fresh_odds() -> None:
    from nineball.players.analysis import analyse
    from nineball.players.search import STATED_SAMPLES

    layout = {BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)}
    result = analyse(_view(layout), np.random.default_rng(0), level="club", top=3)
    assert [c.samples for c in result.candidates] == [STATED_SAMPLES] * 3
    # the straight short pot: nearly every fresh sample keeps the table
    direct = [c for c in result.candidates if c.kind == "direct"]
    assert direct
    assert direct[0].target == "1 in foot_right"
    assert direct[0].success > 0.85


def test_a_hidden_ball_is_kicked_at_off_two_cushions_with_an_aim_found_by_simulation() -> None:
    from nineball.players.candidates import hidden, kick_routes, kicks

    # The 9 sits just in front of the cue ball, on the line to the 1: no straight line and no
    # one-cushion route reaches the 1, so the kicks go round off two or three cushions.
    layout = {BallId.CUE: (0.6, 0.4), BallId.NINE: (0.6, 0.47), BallId.ONE: (0.6, 2.0)}
    view = _view(layout)
    cue = layout[BallId.CUE]
    assert hidden(view, cue, BallId.ONE)
    assert not hidden(_view({**layout, BallId.NINE: (0.3, 0.47)}), cue, BallId.ONE)
    assert kick_routes(view, cue, BallId.ONE, 1) == []
    two = kick_routes(view, cue, BallId.ONE, 2)
    assert two
    assert [t for _, t in two] == sorted(t for _, t in two)  # shortest first
    assert all(t > math.dist(cue, layout[BallId.ONE]) for _, t in two)
    # on an open table each cushion gives a one-cushion route, unless it meets a pocket: off
    # a long cushion halfway up, the side pocket
    open_layout = {BallId.CUE: (0.6, 0.5), BallId.ONE: (0.7, 0.9), BallId.NINE: (1.1, 2.3)}
    assert len(kick_routes(_view(open_layout), (0.6, 0.5), BallId.ONE, 1)) == 4
    side = {**open_layout, BallId.CUE: (0.6, 1.0), BallId.ONE: (0.7, 1.6)}
    assert len(kick_routes(_view(side), (0.6, 1.0), BallId.ONE, 1)) == 2
    player = SearchPlayer(LEVELS["pro"])
    search = player._search(view, np.random.default_rng(0))
    found = kicks(search, cue)
    assert any("off 2 cushions" in k.target for k in found)
    # every kick kept reaches the 1 first when played as intended (the fan's aim)
    for result in search.play_all(cue, [k.stroke for k in found]):
        assert result is not None
        assert result.facts.first_contact == BallId.ONE
    # and the search plays one of them, not a foul into the 9
    decision = player.decide(view, np.random.default_rng(1))
    assert player.last[0].kind == "kick"
    assert decision.stroke == player.last[0].stroke


def test_the_aim_is_corrected_for_throw() -> None:
    # A thin cut into the foot-right corner: the ghost-ball aim alone misses by throw.
    layout = {BallId.CUE: (0.5, 1.7), BallId.ONE: (1.0, 2.25), BallId.NINE: (0.3, 0.8)}
    view = _view(layout)
    player = SearchPlayer(replace(LEVELS["pro"], spins=(0.0,), kinds=frozenset({"direct"})))
    best = player.evaluate(view, np.random.default_rng(0))[0]
    balls = [BallInput(id=int(b), r=p) for b, p in layout.items()]
    trajectory = simulate(balls, stroke=best.stroke, table=TABLE, params=PARAMS)
    assert 1 in trajectory.facts().pocketed


@pytest.mark.parametrize(
    ("cue", "height"),
    [
        ((0.2, 0.891), 0.0),  # a 34-degree cut to the right into the side pocket, 0.49 m away
        ((0.2, 0.891), -0.45),  # the same with draw: the cue ball arrives with another spin
        ((0.2, 0.891), 0.45),
        ((0.25, 1.45), 0.0),  # a cut to the other side
        ((0.53, 1.13), 0.0),  # close: 2.6 cm between the balls
    ],
)
def test_the_corrected_aim_sends_the_ball_along_the_wanted_line(
    cue: tuple[float, float], height: float
) -> None:
    # Throw turns the object ball off the line of centres by up to a few degrees, depending on
    # the speed and on the cue ball's spin at contact; the correction must undo it.
    from nineball.equipment import PocketId
    from nineball.physics import EventKind
    from nineball.players.aim import ghost_ball, pocket_aim

    one = (0.591, 1.186)
    layout = {BallId.CUE: cue, BallId.ONE: one, BallId.NINE: (0.3, 2.3)}
    view = _view(layout)
    player = SearchPlayer(LEVELS["pro"])
    search = player._search(view, np.random.default_rng(0))
    to = pocket_aim(TABLE, PocketId.SIDE_RIGHT)
    wanted = math.atan2(to[1] - one[1], to[0] - one[0])
    ghost = ghost_ball(one, to, PARAMS.radius)
    naive = Stroke(speed=1.64, aim=math.atan2(ghost[1] - cue[1], ghost[0] - cue[0]), height=height)
    balls = [BallInput(id=int(b), r=p) for b, p in layout.items()]

    def error(stroke: Stroke) -> float:
        trajectory = simulate(balls, stroke=stroke, table=TABLE, params=PARAMS)
        event = next(e for e in trajectory.events() if e.kind is EventKind.BALL_BALL)
        assert event.balls == (0, 1)
        v = event.states[1].v
        return abs(math.remainder(math.atan2(v[1], v[0]) - wanted, 2 * math.pi))

    corrected = search.correct_aim(cue, naive, BallId.ONE, to)
    assert error(naive) > math.radians(0.3)  # the ghost-ball aim alone is off
    assert error(corrected) < math.radians(0.03)


def test_ball_in_hand_is_placed_legally() -> None:
    layout = {BallId.ONE: (0.6, 1.5), BallId.FIVE: (0.62, 1.45), BallId.NINE: (0.3, 2.0)}
    base = _view({**layout, BallId.CUE: (0.1, 0.1)})
    state = shoot(base.state, ShotFacts.of(first_contact=9)).state  # Ann fouls: Bob in hand
    view = Position(state=state, layout=layout, table=TABLE, params=PARAMS)
    assert view.in_hand is CueBall.ANYWHERE
    decision = SearchPlayer(LEVELS["club"]).decide(view, np.random.default_rng(1))
    assert decision.cue_ball is not None
    check_cue_placement(decision.cue_ball, layout, CueBall.ANYWHERE, TABLE, PARAMS)


def test_the_break_comes_from_the_kitchen() -> None:
    match = Match(MatchConfig(), seed=1)
    decision = SearchPlayer(LEVELS["pro"]).decide(view_of(match), np.random.default_rng(0))
    assert decision.cue_ball is not None
    assert decision.cue_ball[1] < TABLE.head_string
    assert decision.stroke.speed == BREAK.speed == LEVELS["pro"].break_plan.speed


def test_each_level_breaks_its_own_way_and_a_new_level_as_pro() -> None:
    from dataclasses import replace

    from nineball.players.levels import BREAKS

    assert set(BREAKS) == set(LEVELS)
    match = Match(MatchConfig(), seed=1)
    for name, level in LEVELS.items():
        decision = SearchPlayer(level).decide(view_of(match), np.random.default_rng(0))
        assert decision.stroke.speed == BREAKS[name].speed
        assert decision.cue_ball == (BREAKS[name].x, TABLE.head_string - 0.1)
    assert replace(LEVELS["club"], name="custom").break_plan == BREAK


def test_same_seed_same_decision() -> None:
    layout = {BallId.CUE: (0.5, 1.0), BallId.ONE: (0.8, 1.8), BallId.NINE: (0.3, 2.0)}
    player = SearchPlayer(LEVELS["club"])
    first = player.decide(_view(layout), np.random.default_rng(5))
    again = player.decide(_view(layout), np.random.default_rng(5))
    assert first == again


def test_pot_quality_prefers_easy_shots() -> None:
    view = _view({BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8), BallId.CUE: (0.9, 1.9)})
    straight = pot_quality(view, (0.9, 1.9), BallId.ONE)
    blocked = pot_quality(
        _view({BallId.ONE: (1.1, 2.3), BallId.NINE: (1.0, 2.1), BallId.CUE: (0.9, 1.9)}),
        (0.9, 1.9),
        BallId.ONE,
    )
    assert 0.3 < straight <= 1.0
    assert blocked < straight


def test_pot_chance_is_a_probability_of_the_players_own_aim() -> None:
    # A 30-degree cut, the 1 0.6 m from the foot-right corner and the cue ball 1 m from it.
    from nineball.equipment import PocketId
    from nineball.players.aim import ghost_ball, pocket_aim

    aim = pocket_aim(TABLE, PocketId.FOOT_RIGHT)
    one = (aim[0] - 0.6 * math.cos(math.radians(60)), aim[1] - 0.6 * math.sin(math.radians(60)))
    ghost = ghost_ball(one, aim, PARAMS.radius)
    back = math.radians(240 + 30)
    cue = (ghost[0] + math.cos(back), ghost[1] + math.sin(back))
    view = _view({BallId.CUE: cue, BallId.ONE: one, BallId.NINE: (0.3, 0.8)})
    chances = [pot_quality(view, cue, BallId.ONE, math.radians(sd)) for sd in (0.05, 0.2, 1.0)]
    assert chances[0] > 0.95 > chances[1] > chances[2]
    # Measured against the physics: the same shot under the same aim error, many times.
    rng = np.random.default_rng(7)
    phi = math.atan2(ghost[1] - cue[1], ghost[0] - cue[0])
    made = 0
    for _ in range(200):
        stroke = Stroke(speed=2.0, aim=phi + rng.normal(0.0, math.radians(0.2)))
        balls = [BallInput(id=0, r=cue), BallInput(id=1, r=one)]
        made += 1 in simulate(balls, stroke=stroke, table=TABLE, params=PARAMS).facts().pocketed
    assert abs(made / 200 - chances[1]) < 0.15


def test_the_screen_takes_every_kind_in_turn() -> None:
    from nineball.physics import Stroke as S
    from nineball.players.candidates import diverse
    from nineball.players.search import Candidate

    banks = [Candidate(kind="bank", stroke=S(speed=1.0, aim=0.0), value=0.9) for _ in range(5)]
    pots = [Candidate(kind="direct", stroke=S(speed=1.0, aim=0.0), value=0.5) for _ in range(5)]
    picked = diverse(banks + pots, 4)
    assert [c.kind for c in picked] == ["bank", "direct", "bank", "direct"]
    assert len(diverse(banks, 9)) == 5


def _after_break() -> MatchState:
    """A legal break that pocketed the 5 to the 8: the breaker shoots on, and may push out."""
    start = MatchState.start(MatchConfig(players=("Ann", "Bob")))
    return shoot(start, ShotFacts.of(first_contact=1, pocketed=[5, 6, 7, 8])).state


def test_a_push_out_is_answered_by_the_value_of_the_position() -> None:
    pushed = shoot(_after_break(), ShotFacts(), push_out=True).state
    assert pushed.phase is Phase.PUSH_OUT_CHOICE
    player = SearchPlayer(LEVELS["club"])
    easy = {BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)}
    easy |= {BallId.TWO: (0.1, 0.1), BallId.THREE: (0.1, 0.3), BallId.FOUR: (0.1, 0.5)}
    view = Position(state=pushed, layout=easy, table=TABLE, params=PARAMS)
    assert player.answer_push_out(view, np.random.default_rng(0)) is Choice.SHOOT
    # The 1 frozen on the foot cushion behind a wall of balls: better to hand it back.
    hidden = {
        BallId.CUE: (0.2, 0.3),
        BallId.ONE: (0.635, 2.5114),
        BallId.TWO: (0.57, 2.44),
        BallId.THREE: (0.635, 2.44),
        BallId.FOUR: (0.70, 2.44),
        BallId.NINE: (0.3, 0.8),
    }
    view = Position(state=pushed, layout=hidden, table=TABLE, params=PARAMS)
    assert player.answer_push_out(view, np.random.default_rng(0)) is Choice.PASS


def test_a_whole_game_between_levels() -> None:
    match = Match(MatchConfig(players=("Ann", "Bob"), race_to=1), seed=3)
    play_match(match, [SearchPlayer(LEVELS["club"]), SearchPlayer(LEVELS["beginner"])])
    assert match.state.winner in (Seat.FIRST, Seat.SECOND)
    shots = match.record.games[0].shots
    assert all(s.intended is not None for s in shots if s.stroke is not None)


def test_analysis_of_a_position() -> None:
    from nineball.players.analysis import analyse, expected_path

    layout = {BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)}
    view = _view(layout)
    result = analyse(view, np.random.default_rng(0), level="club", top=3)
    assert len(result.candidates) == 3
    assert result.cue_ball == layout[BallId.CUE]
    assert result.candidates[0].value >= result.candidates[-1].value
    path = expected_path(view, result.cue_ball, result.candidates[0])
    assert 1 in path.facts().pocketed


def test_analysis_places_the_cue_ball_in_hand() -> None:
    from nineball.players.analysis import analyse

    layout = {BallId.ONE: (0.6, 1.5), BallId.NINE: (0.3, 2.0)}
    base = _view({**layout, BallId.CUE: (0.1, 0.1)})
    state = shoot(base.state, ShotFacts.of(first_contact=9)).state
    view = Position(state=state, layout=layout, table=TABLE, params=PARAMS)
    result = analyse(view, np.random.default_rng(0), level="club")
    check_cue_placement(result.cue_ball, layout, CueBall.ANYWHERE, TABLE, PARAMS)
    assert result.candidates


def test_caroms_and_kisses_pot_what_they_say() -> None:
    from nineball.players.candidates import caroms, glances, pots

    r = PARAMS.radius
    # The 90-degree rule: the contact lies 2R from the struck ball, at right angles to the exit.
    for contact in glances((0.6, 1.5), (1.0, 2.2), (0.3, 1.0), r):
        assert math.dist(contact, (0.6, 1.5)) == pytest.approx(2 * r)
        out = (1.0 - contact[0], 2.2 - contact[1])
        normal = (0.6 - contact[0], 1.5 - contact[1])
        assert out[0] * normal[0] + out[1] * normal[1] == pytest.approx(0.0, abs=1e-12)
    # The 9 hangs in the foot-right corner, 50 degrees off the line from the cue ball to the 1.
    layout = {BallId.CUE: (0.5, 1.9), BallId.ONE: (0.7, 2.3), BallId.NINE: (1.16, 2.43)}
    view = _view(layout)
    player = SearchPlayer(LEVELS["max"])
    search = player._search(view, np.random.default_rng(0))
    caroms = caroms(search, layout[BallId.CUE])
    assert caroms
    assert all(c.kind == "carom" and "off the 1" in c.target for c in caroms)
    balls = [BallInput(id=int(b), r=p) for b, p in layout.items()]
    made = [
        c
        for c in caroms
        if (facts := simulate(balls, stroke=c.stroke, table=TABLE, params=PARAMS).facts())
        and facts.first_contact == 1
        and 9 in facts.pocketed
    ]
    assert made, "no carom off the 1 pots the 9"
    # A kiss: the 1 glances off the 5 (near the left cushion) up the table into a pocket.
    layout = {BallId.CUE: (1.05, 1.76), BallId.ONE: (0.6, 2.07), BallId.FIVE: (0.13, 1.96)}
    layout[BallId.NINE] = (0.1, 0.3)
    search = player._search(_view(layout), np.random.default_rng(0))
    kisses = [c for c in pots(search, layout[BallId.CUE]) if c.kind == "kiss"]
    assert all(" off the 5" in c.target for c in kisses)
    balls = [BallInput(id=int(b), r=p) for b, p in layout.items()]
    made = [
        c
        for c in kisses
        if (facts := simulate(balls, stroke=c.stroke, table=TABLE, params=PARAMS).facts())
        and facts.first_contact == 1
        and facts.pocketed == (1,)
    ]
    assert made, "no kiss off the 5 pots the 1"


def test_the_push_out_leaves_the_position_nearest_even_as_the_search_values_it() -> None:
    """The pusher expects the opponent to take the better side of the position: of the pushes
    searched, it plays the one whose value to the shooter is nearest 0, not the deepest hook
    (which the opponent would hand back)."""
    from nineball.players.search import PUSH_AIMS, PUSH_SPEEDS, Candidate

    after_break = _after_break()
    assert after_break.push_out_allowed
    layout = {
        BallId.CUE: (0.5, 1.0),
        BallId.ONE: (0.9, 2.2),
        BallId.TWO: (0.3, 2.0),
        BallId.THREE: (0.62, 1.25),
        BallId.FOUR: (1.0, 0.6),
        BallId.NINE: (0.2, 0.5),
    }
    view = Position(state=after_break, layout=layout, table=TABLE, params=PARAMS)
    aim_sd = LEVELS["club"].noise.aim
    searched: list[tuple[float, float]] = []  # (the next pot's chance, the value) per push

    class Valuer(SearchPlayer):
        """The search's value of a position replaced by 2 q - 1 (q: the next pot's chance)."""

        def evaluate(self, view: Position, rng: np.random.Generator, cue=None):  # type: ignore[no-untyped-def, override]
            q = pot_quality(view, view.layout[BallId.CUE], view.state.lowest, self._aim_sd)
            searched.append((q, 2.0 * q - 1.0))
            return [Candidate(kind="direct", stroke=Stroke(speed=1.0, aim=0.0), value=2 * q - 1)]

    player = Valuer(LEVELS["club"])
    player._aim_sd = aim_sd
    found = player._push_out(view, np.random.default_rng(0))
    assert found is not None
    value, decision = found
    assert decision.push_out
    grid = [
        Stroke(speed=s, aim=2 * math.pi * k / PUSH_AIMS)
        for s in PUSH_SPEEDS
        for k in range(PUSH_AIMS)
    ]
    assert decision.stroke in grid
    assert len(searched) >= 3
    hook = min(searched)
    assert hook[0] < 0.3  # a deep hook was among the pushes searched...
    assert value == max(-abs(v) for _, v in searched)  # ...but the push nearest even is played
    assert value > -abs(hook[1])


def test_a_safety_that_pots_the_ball_is_labelled_a_pot() -> None:
    from nineball.players.search import Candidate, _is_safety

    def safety(success: float, kind: str = "safety") -> Candidate:
        return Candidate(
            kind=kind, stroke=Stroke(speed=1.0, aim=0.0), safety=kind == "safety", success=success
        )

    assert _is_safety(safety(0.2))  # it hands the table over, as a safety does
    assert not _is_safety(safety(0.7))  # a thin cut that keeps the player at the table: a pot
    assert not _is_safety(safety(0.1, kind="direct"))  # a missed pot is no safety either


def test_the_opponents_best_reply_values_the_leaves_the_geometry_cannot_tell_apart() -> None:
    player = SearchPlayer(replace(LEVELS["max"], replies=6))
    # Bob to wait, Ann to shoot: hooked (the 9 just in front of the cue ball on the line to
    # the 1), open with no pot (the 1 frozen to the foot cushion, straight up the table), and
    # an easy pot of the 1.
    hook = _view({BallId.CUE: (0.6, 0.4), BallId.NINE: (0.6, 0.47), BallId.ONE: (0.6, 2.0)})
    frozen = (0.635, TABLE.length - PARAMS.radius)
    no_pot = _view({BallId.CUE: (0.6, 0.4), BallId.NINE: (0.3, 0.47), BallId.ONE: frozen})
    easy = _view({BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)})
    bob = Seat.SECOND
    # The geometry sees only Ann's next pot: the two shotless leaves are worth the same to Bob.
    assert position_value(hook, bob, player._aim_sd) == -0.15
    assert position_value(no_pot, bob, player._aim_sd) == -0.15
    # By Ann's best reply, both are worth more than that to Bob, and the easy pot far less.
    rng = np.random.default_rng(0)
    assert player.reply_value(hook, rng) > 0.0
    assert player.reply_value(no_pot, rng) > 0.0
    assert player.reply_value(easy, rng) < -0.6
    # Ann's best reply to the hook is a kick, and her fouls count against it.
    replier = SearchPlayer(player.level.replying)
    best = replier.evaluate(hook, np.random.default_rng(1))[0]
    assert best.kind == "kick"
    assert best.samples > 0
    assert -best.value == player.reply_value(hook, np.random.default_rng(1))


def test_a_finalist_that_passes_the_turn_is_valued_by_the_opponents_reply() -> None:
    from nineball.players.evaluation import Candidate

    player = SearchPlayer(replace(LEVELS["max"], replies=6))
    # An easy pot that keeps the table in every sample is left as it is.
    easy = _view({BallId.CUE: (0.9, 1.9), BallId.ONE: (1.1, 2.3), BallId.NINE: (0.3, 0.8)})
    cue = easy.layout[BallId.CUE]
    pot = SearchPlayer(LEVELS["max"]).evaluate(easy, np.random.default_rng(0))[0]
    assert pot.kind == "direct"
    assert pot.success == 1.0
    search = player._search(easy, np.random.default_rng(0))
    aim = pot.stroke.aim
    assert player._reply(search, cue, pot, 6) == pot
    # A soft roll that stops short of the 1 (no contact: a foul every time) is left as well.
    short = search.score(cue, Candidate(kind="hit", stroke=Stroke(speed=0.2, aim=aim)), 6)
    assert short.foul == 1.0
    assert player._reply(search, cue, short, 6) == short
    # Safeties (no pot worth taking, the 1 in plain sight): their leaves are worth more to
    # the player than the geometry's flat -0.15 for a shotless opponent, and only the value
    # changes.
    from nineball.players.candidates import safeties

    layout = {BallId.CUE: (1.0, 0.9), BallId.ONE: (0.635, 2.2), BallId.NINE: (0.9, 1.5)}
    view = _view(layout)
    cue = layout[BallId.CUE]
    search = player._search(view, np.random.default_rng(2))
    found = search.score_all(cue, safeties(search, cue), 6)
    assert found
    gains = []
    for candidate in found:
        replied = player._reply(search, cue, candidate, 6)
        assert replace(replied, value=candidate.value) == candidate
        gains.append(replied.value - candidate.value)
    assert max(gains) > 0.1
