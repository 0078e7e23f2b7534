"""Explanations of rulings: what the referee says, decided once for every language.

An explanation is at most two sentences: what happened on the stroke, then what follows from it.
Each is a :class:`Message` (a :class:`Text` and its arguments); the words are in the gettext
catalogs (see :mod:`nineball.rules.message`), whose French and Polish texts use the seed texts'
own words (bris, coup poussé, blanche en main, mouche; rozbicie, wypchnięcie, biała bila w ręce,
punkt główny stołu). Every clause cited comes from the data: a foul's from
:meth:`Foul.clauses`, every other rule's from :class:`Ground`.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from nineball.equipment import BallId
from nineball.rules.clauses import Clause, Ground
from nineball.rules.facts import ShotFacts
from nineball.rules.fouls import Foul
from nineball.rules.message import Items, Message
from nineball.rules.ruling import Explanation
from nineball.rules.state import GameOver, MatchConfig, MatchState, Seat, Termination
from nineball.rules.texts import Text

__all__ = ["Judgement", "JudgementKind", "explain"]


class JudgementKind(StrEnum):
    """What a judgement is about."""

    BREAK = "break"
    SHOT = "shot"
    PUSH_OUT = "push_out"
    CHOOSE_SHOOT = "choose_shoot"
    CHOOSE_PASS = "choose_pass"
    FORFEIT = "forfeit"


@dataclass(frozen=True, slots=True, kw_only=True)
class Judgement:
    """What the referee decided, in the terms an explanation needs."""

    kind: JudgementKind
    """What was judged."""

    config: MatchConfig
    """The match's settings (the players' names)."""

    actor: Seat
    """Who shot, chose or forfeited."""

    lowest: BallId
    """The lowest ball before the stroke."""

    after: MatchState
    """The match after the ruling."""

    facts: ShotFacts = field(default_factory=ShotFacts)
    """What happened on the stroke (nothing, for a choice or a forfeit)."""

    fouls: tuple[Foul, ...] = ()
    """The fouls called, in the order of :class:`Foul`."""

    respotted: bool = False
    """The 9 was respotted."""

    nine_off_table: bool = False
    """The 9 left the table."""

    warning: bool = False
    """The foul was the shooter's second in a row."""

    game_over: GameOver | None = None
    """How the game ended, when it ended."""


def explain(judgement: Judgement) -> Explanation:
    """Explain ``judgement`` in one or two sentences, in no language yet."""
    second = _second_sentence(judgement)
    first = _first_sentence(judgement)
    return Explanation(sentences=(first,) if second is None else (first, second))


def _cite(clauses: Iterable[Clause]) -> Message:
    cited = tuple(str(clause) for clause in clauses)
    return Message.of(Text.CLAUSE, count=len(cited), clauses=Items(cited))


def _ground(ground: Ground) -> Message:
    return _cite(ground.clauses)


def _ball(ball: BallId) -> Message:
    return Message.of(Text.ball(ball))


def _balls(balls: frozenset[BallId]) -> Items:
    return Items(tuple(_ball(ball) for ball in sorted(balls)))


def _object_rails(facts: ShotFacts) -> int:
    return len(facts.rails - {BallId.CUE})


_FOUL_INTRO = {
    JudgementKind.BREAK: Text.FOUL_ON_BREAK,
    JudgementKind.PUSH_OUT: Text.FOUL_ON_PUSH_OUT,
}

_FOUL_TEXT = {
    Foul.CUE_BALL_POCKETED: Text.CUE_BALL_POCKETED,
    Foul.CUE_BALL_OFF_TABLE: Text.CUE_BALL_OFF_TABLE,
    Foul.NO_CONTACT: Text.NO_CONTACT,
    Foul.NO_RAIL: Text.NO_RAIL,
    Foul.OBSTRUCTION_MOVED: Text.OBSTRUCTION_MOVED,
}
"""The fouls whose text needs no argument but the clauses."""


def _first_sentence(j: Judgement) -> Message:
    if j.fouls:
        reasons = Items(tuple(_foul(foul, j) for foul in j.fouls))
        return Message.of(_FOUL_INTRO.get(j.kind, Text.FOUL), fouls=reasons)
    return _happened(j)


def _foul(foul: Foul, j: Judgement) -> Message:
    facts = j.facts
    cite = _cite(foul.clauses(on_break=j.kind is JudgementKind.BREAK))
    match foul:
        case Foul.ILLEGAL_BREAK if facts.first_contact is not BallId.ONE:
            return Message.of(Text.BREAK_MISSED_ONE, cite=cite)
        case Foul.ILLEGAL_BREAK if _object_rails(facts) == 0:
            return Message.of(Text.BREAK_NO_RAIL, cite=cite)
        case Foul.ILLEGAL_BREAK:
            n = _object_rails(facts)
            return Message.of(Text.BREAK_TOO_FEW_RAILS, count=n, n=n, cite=cite)
        case Foul.OBJECT_BALL_OFF_TABLE:
            off = facts.off_table_object_balls
            return Message.of(
                Text.OBJECT_BALL_OFF_TABLE, count=len(off), balls=_balls(off), cite=cite
            )
        case Foul.WRONG_BALL_FIRST:
            first = _ball(facts.first_contact or j.lowest)
            return Message.of(Text.WRONG_BALL_FIRST, first=first, lowest=_ball(j.lowest), cite=cite)
        case _:
            return Message.of(_FOUL_TEXT[foul], cite=cite)


def _happened(j: Judgement) -> Message:
    names = j.config.players
    actor = names[j.actor]
    facts = j.facts
    down = facts.pocketed_object_balls
    match j.kind:
        case JudgementKind.FORFEIT:
            return Message.of(Text.FORFEIT, actor=actor, cite=_ground(Ground.FORFEIT))
        case JudgementKind.CHOOSE_SHOOT:
            return Message.of(Text.CHOOSE_SHOOT, actor=actor, cite=_ground(Ground.PUSH_OUT))
        case JudgementKind.CHOOSE_PASS:
            other = names[j.actor.other]
            return Message.of(
                Text.CHOOSE_PASS, actor=actor, other=other, cite=_ground(Ground.PUSH_OUT)
            )
        case JudgementKind.PUSH_OUT:
            return Message.of(Text.LEGAL_PUSH_OUT, cite=_ground(Ground.PUSH_OUT))
        case JudgementKind.BREAK if j.game_over is not None:
            return Message.of(Text.BREAK_NINE, actor=actor, cite=_ground(Ground.LEGAL_BREAK))
        case JudgementKind.BREAK if down:
            cite = _ground(Ground.LEGAL_BREAK)
            return Message.of(Text.BREAK_POCKETED, count=len(down), balls=_balls(down), cite=cite)
        case JudgementKind.BREAK:
            n = _object_rails(facts)
            return Message.of(Text.BREAK_RAILS, count=n, n=n, cite=_ground(Ground.LEGAL_BREAK))
        case _ if j.game_over is not None:
            return Message.of(Text.SHOT_NINE, actor=actor, cite=_ground(Ground.LEGAL_SHOT))
        case _ if down:
            return Message.of(
                Text.SHOT_POCKETED,
                count=len(down),
                lowest=_ball(j.lowest),
                balls=_balls(down),
                cite=_ground(Ground.LEGAL_SHOT),
            )
        case _:
            return Message.of(Text.SHOT_NOTHING, cite=_ground(Ground.LEGAL_SHOT))


def _respot(j: Judgement) -> Ground:
    if j.nine_off_table:
        if j.kind is JudgementKind.BREAK:
            return Ground.RESPOT_OFF_TABLE_ON_BREAK
        return Ground.RESPOT_OFF_TABLE
    return Ground.RESPOT_AFTER_FOUL if j.fouls else Ground.RESPOT_AFTER_PUSH_OUT


def _second_sentence(j: Judgement) -> Message | None:
    parts: list[Message] = []
    names = j.config.players
    actor, opponent = names[j.actor], names[j.actor.other]
    if j.respotted:
        parts.append(Message.of(Text.RESPOT, cite=_ground(_respot(j))))
    if j.game_over is not None:
        parts.append(_game_won(j, j.game_over))
        parts.append(_match_state(j.after))
    elif j.fouls:
        hand = Message.of(Text.BALL_IN_HAND, player=opponent, cite=_ground(Ground.BALL_IN_HAND))
        parts.append(_may_push(hand, j.after))
        if j.warning:
            parts.append(Message.of(Text.WARNING, player=actor, cite=_ground(Ground.WARNING)))
    elif j.kind is JudgementKind.PUSH_OUT:
        parts.append(Message.of(Text.CHOOSE, chooser=opponent, pusher=actor))
    elif j.kind in (JudgementKind.BREAK, JudgementKind.SHOT):
        nxt = j.after.to_act
        if nxt is j.actor:
            then = Message.of(Text.KEEPS_SHOOTING, player=actor)
        else:
            then = Message.of(Text.AS_IT_LIES, player=names[nxt])
        parts.append(_may_push(then, j.after))
    if not parts:
        return None
    semicolons = Items(tuple(parts), more=Text.LIST_SEMICOLON, last=Text.LIST_SEMICOLON)
    return Message.of(Text.SENTENCE, parts=semicolons)


def _may_push(then: Message, after: MatchState) -> Message:
    if not after.push_out_allowed:
        return then
    return Message.of(Text.MAY_PUSH_OUT, then=then, cite=_ground(Ground.PUSH_OUT))


def _game_won(j: Judgement, over: GameOver) -> Message:
    winner = j.config.players[over.winner]
    if over.reason is Termination.THREE_FOULS:
        actor = j.config.players[j.actor]
        cite = _ground(Ground.THREE_FOULS)
        return Message.of(Text.THREE_FOULS, actor=actor, winner=winner, game=over.game, cite=cite)
    return Message.of(Text.GAME_WON, winner=winner, game=over.game, cite=_ground(Ground.GAME_WON))


def _match_state(after: MatchState) -> Message:
    first, second = after.score
    if after.winner is not None:
        winner = after.name(after.winner)
        return Message.of(Text.MATCH_WON, winner=winner, first=first, second=second)
    breaker = after.name(after.game.breaker)
    return Message.of(Text.SCORE, first=first, second=second, breaker=breaker)
