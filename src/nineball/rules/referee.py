"""The referee: rules on strokes, push-out choices and forfeits, and says what may happen next.

Every function is pure: it takes a :class:`MatchState` and returns a :class:`Ruling` holding the
state after, or raises and changes nothing. The checks of a stroke run in a fixed order:

1. Is the request allowed now (phase, push-out permission) and do its facts fit the table?
2. Fouls, in the order of :class:`Foul`: the break's own test (clause 3a), the cue ball
   pocketed or off the table (6, 10), object balls off the table (10), then the contact rules
   (7, 8; suspended on a push out and replaced by clause 3a on the break), then clause 11.
3. Balls: pocketed and off-table object balls leave the table; the 9 is respotted when it went
   down on a foul or a push out, or left the table (clauses 3c, 5, 6, 10; D5, D6).
4. Outcome: the 9 legally pocketed wins (clauses 1, 13; D4); a third consecutive foul loses
   (clause 12; D10); otherwise the turn stays or passes (clauses 1, 4, 5, 6).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from nineball.equipment import BallId
from nineball.errors import IllegalActionError, InvalidShotError
from nineball.rules.explain import Judgement, JudgementKind
from nineball.rules.facts import ShotFacts
from nineball.rules.fouls import Foul
from nineball.rules.ruling import Ruling, RulingKind
from nineball.rules.state import (
    Action,
    BreakRule,
    Choice,
    CueBall,
    GameOver,
    GameState,
    MatchConfig,
    MatchState,
    Phase,
    Seat,
    Termination,
)

__all__ = [
    "check_stroke",
    "choose",
    "forfeit",
    "legal_actions",
    "shoot",
    "start_match",
]

_BREAK_RAILS_NEEDED = 4
"""Clause 3a: object balls that must reach a rail on a break that pockets nothing."""


def start_match(config: MatchConfig | None = None) -> MatchState:
    """Start a match: game 1, the first breaker to break with the cue ball in the kitchen."""
    return MatchState.start(config)


def legal_actions(state: MatchState) -> frozenset[Action]:
    """What the player to act may do now.

    >>> sorted(legal_actions(start_match()))
    [<Action.SHOOT: 'shoot'>]
    """
    match state.phase:
        case Phase.MATCH_OVER:
            return frozenset()
        case Phase.PUSH_OUT_CHOICE:
            return frozenset({Action.CHOOSE_SHOOT, Action.CHOOSE_PASS})
        case _ if state.push_out_allowed:
            return frozenset({Action.SHOOT, Action.PUSH_OUT})
        case _:
            return frozenset({Action.SHOOT})


def _check_not_over(state: MatchState) -> None:
    if state.is_over:
        winner = state.name(state.winner) if state.winner is not None else ""
        raise IllegalActionError(f"the match is over: {winner!r} won it")


def _check_facts(game: GameState, facts: ShotFacts) -> None:
    for ball in sorted(facts.balls_seen):
        if ball is not BallId.CUE and ball not in game.on_table:
            raise InvalidShotError(f"ball {int(ball)} is not on the table")


def _fouls(
    state: MatchState, facts: ShotFacts, *, is_break: bool, push_out: bool
) -> tuple[Foul, ...]:
    game = state.game
    found: list[Foul] = []
    pocketed_object = bool(facts.pocketed_object_balls)
    if is_break:
        rail_balls = facts.rails - {BallId.CUE}
        if facts.first_contact is not BallId.ONE or (
            not pocketed_object and len(rail_balls) < _BREAK_RAILS_NEEDED
        ):
            found.append(Foul.ILLEGAL_BREAK)
    if BallId.CUE in facts.pocketed:
        found.append(Foul.CUE_BALL_POCKETED)
    if BallId.CUE in facts.off_table:
        found.append(Foul.CUE_BALL_OFF_TABLE)
    if facts.off_table_object_balls:
        found.append(Foul.OBJECT_BALL_OFF_TABLE)
    if not is_break and not push_out:
        if facts.first_contact is None:
            found.append(Foul.NO_CONTACT)
        elif facts.first_contact is not game.lowest:
            found.append(Foul.WRONG_BALL_FIRST)
        elif not pocketed_object and not facts.rails:
            found.append(Foul.NO_RAIL)
    if facts.obstruction_moved and state.config.rules.is_obstruction_foul(
        refereed=state.config.refereed
    ):
        found.append(Foul.OBSTRUCTION_MOVED)
    return tuple(found)


def _end_game(state: MatchState, game_over: GameOver) -> MatchState:
    """The match after ``game_over``: the score, then the next rack or the end of the match."""
    score = list(state.score)
    score[game_over.winner] += 1
    new_score = (score[0], score[1])
    results = (*state.results, game_over)
    if new_score[game_over.winner] >= state.config.race_of(game_over.winner):
        return replace(state, score=new_score, results=results, winner=game_over.winner)
    if state.config.breaks is BreakRule.WINNER:
        breaker = game_over.winner
    else:
        breaker = state.game.breaker.other
    return replace(
        state,
        score=new_score,
        results=results,
        game=GameState.rack(state.game.number + 1, breaker),
    )


def _with_fouls(counts: tuple[int, int], seat: Seat, value: int) -> tuple[int, int]:
    return (value, counts[1]) if seat is Seat.FIRST else (counts[0], value)


def check_stroke(state: MatchState, *, push_out: bool = False) -> None:
    """Check that a stroke (a push out if ``push_out``) may be played now, before it is.

    What happens on the stroke cannot make it illegal to play; this is the part of
    :func:`shoot` that does not need the facts, so that a caller can refuse a stroke before
    playing it.

    Raises:
        IllegalActionError: the match is over, a push-out choice is pending, or a push out is
            declared when none is allowed.
    """
    _check_not_over(state)
    game = state.game
    if game.phase is Phase.PUSH_OUT_CHOICE:
        raise IllegalActionError(
            f"{state.name(game.shooter)!r} must first choose to shoot or pass after the push out"
        )
    if push_out and not game.push_out_allowed:
        raise IllegalActionError(
            "a push out is not allowed now: only on the shot right after the break (clause 5)"
        )


def shoot(state: MatchState, facts: ShotFacts, *, push_out: bool = False) -> Ruling:
    """Rule on one stroke (the break in the break phase) from what happened on it.

    Args:
        state: the match before the stroke.
        facts: what happened, once every ball came to rest.
        push_out: the shooter declared a push out before the stroke (clause 5).

    Returns:
        The ruling, with the state after it.

    Raises:
        IllegalActionError: the match is over, a push-out choice is pending, or a push out was
            declared when none is allowed.
        InvalidShotError: the facts name a ball that is not on the table.
    """
    check_stroke(state, push_out=push_out)
    game = state.game
    shooter = game.shooter
    _check_facts(game, facts)

    is_break = game.phase is Phase.BREAK
    fouls = _fouls(state, facts, is_break=is_break, push_out=push_out)
    foul = bool(fouls)

    # Balls: what went down or off stays there, except the 9 on a foul, a push out or off the table.
    gone = facts.pocketed_object_balls | facts.off_table_object_balls
    nine_gone = BallId.NINE in gone
    respot_nine = nine_gone and (foul or push_out)
    on_table = game.on_table - gone
    if respot_nine:
        on_table = on_table | {BallId.NINE}
    respotted = (BallId.NINE,) if respot_nine else ()
    wins = nine_gone and not respot_nine

    count = game.consecutive_fouls[shooter] + 1 if foul else 0
    counts = _with_fouls(game.consecutive_fouls, shooter, count)
    loses = count >= 3
    warning = count == 2

    kind = RulingKind.BREAK if is_break else RulingKind.PUSH_OUT if push_out else RulingKind.SHOT
    game_over: GameOver | None = None
    next_game: GameState | None = None
    if wins or loses:
        winner = shooter if wins else shooter.other
        reason = Termination.NINE_BALL if wins else Termination.THREE_FOULS
        game_over = GameOver(game=game.number, winner=winner, reason=reason, breaker=game.breaker)
        played = replace(game, on_table=on_table, consecutive_fouls=counts)
        after = _end_game(replace(state, game=played), game_over)
    else:
        turn: dict[str, Any]  # who shoots next and how (one replace of the game below)
        if foul:
            turn = {
                "shooter": shooter.other,
                "phase": Phase.SHOT,
                "cue_ball": CueBall.ANYWHERE,
                "push_out_allowed": is_break
                and state.config.rules.push_out_after_foul_break
                and Foul.CUE_BALL_POCKETED not in fouls,
            }
        elif push_out:
            turn = {
                "shooter": shooter.other,
                "phase": Phase.PUSH_OUT_CHOICE,
                "cue_ball": CueBall.IN_PLACE,
                "push_out_allowed": False,
            }
        else:
            keeps_table = bool(facts.pocketed_object_balls)
            turn = {
                "shooter": shooter if keeps_table else shooter.other,
                "phase": Phase.SHOT,
                "cue_ball": CueBall.IN_PLACE,
                "push_out_allowed": is_break,
            }
        next_game = replace(game, on_table=on_table, consecutive_fouls=counts, **turn)
        after = replace(state, game=next_game)

    judgement = Judgement(
        kind=JudgementKind(kind.value),
        config=state.config,
        actor=shooter,
        facts=facts,
        lowest=game.lowest,
        fouls=fouls,
        respotted=respot_nine,
        nine_off_table=BallId.NINE in facts.off_table,
        warning=warning,
        game_over=game_over,
        after=after,
    )
    return Ruling(
        kind=kind,
        shooter=shooter,
        legal=not foul,
        fouls=fouls,
        respotted=respotted,
        warning=warning,
        game_over=game_over,
        judgement=judgement,
        state=after,
    )


def choose(state: MatchState, choice: Choice) -> Ruling:
    """Answer a legal push out: shoot from the position, or pass the shot back (clause 5).

    Raises:
        IllegalActionError: no push-out choice is pending.
    """
    _check_not_over(state)
    game = state.game
    if game.phase is not Phase.PUSH_OUT_CHOICE:
        raise IllegalActionError(f"there is no push out to answer with {choice.value!r}")
    chooser = game.shooter
    shooter = chooser if choice is Choice.SHOOT else chooser.other
    after = replace(state, game=replace(game, shooter=shooter, phase=Phase.SHOT))
    judgement = Judgement(
        kind=JudgementKind.CHOOSE_SHOOT if choice is Choice.SHOOT else JudgementKind.CHOOSE_PASS,
        config=state.config,
        actor=chooser,
        lowest=game.lowest,
        after=after,
    )
    return Ruling(
        kind=RulingKind.CHOICE,
        shooter=chooser,
        legal=True,
        fouls=(),
        respotted=(),
        warning=False,
        game_over=None,
        judgement=judgement,
        state=after,
    )


def forfeit(state: MatchState, seat: Seat) -> Ruling:
    """The player in ``seat`` loses the current game for a serious infraction (clause 4, D14).

    Raises:
        IllegalActionError: the match is over.
    """
    _check_not_over(state)
    game_over = GameOver(
        game=state.game.number,
        winner=seat.other,
        reason=Termination.FORFEIT,
        breaker=state.game.breaker,
    )
    after = _end_game(state, game_over)
    judgement = Judgement(
        kind=JudgementKind.FORFEIT,
        config=state.config,
        actor=seat,
        lowest=state.game.lowest,
        game_over=game_over,
        after=after,
    )
    return Ruling(
        kind=RulingKind.FORFEIT,
        shooter=seat,
        legal=False,
        fouls=(),
        respotted=(),
        warning=False,
        game_over=game_over,
        judgement=judgement,
        state=after,
    )
