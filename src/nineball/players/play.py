"""Computer players at the table: one turn, or a whole match, through the game API."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

from nineball.game import Choice, Phase, Ruling
from nineball.game.match import Match, ShotReport
from nineball.game.position import Position
from nineball.game.streams import Purpose
from nineball.players.base import Decision, Player

__all__ = ["Turn", "carry_out", "decide_turn", "play_match", "play_turn", "turn_rng", "view_of"]


def view_of(match: Match) -> Position:
    """What the player to act sees."""
    return match.position


@dataclass(frozen=True, slots=True)
class Turn:
    """One action of a computer player: a stroke (with its report) or a push-out answer."""

    ruling: Ruling
    report: ShotReport | None


def turn_rng(match: Match) -> np.random.Generator:
    """The generator for the player's next choice: the entry's ``CHOICES`` stream."""
    return match.rng(Purpose.CHOICES)


def decide_turn(
    match: Match, player: Player, rng: np.random.Generator | None = None
) -> Decision | Choice:
    """What ``player`` would do now, changing nothing: its answer to a push out, or its stroke.

    It only reads the match, so it may run in a worker thread while nothing else acts on
    this match; :func:`carry_out` then plays it. ``play_turn`` is the two in one.
    """
    rng = turn_rng(match) if rng is None else rng
    view = view_of(match)
    if match.state.phase is Phase.PUSH_OUT_CHOICE:
        return player.answer_push_out(view, rng)
    return player.decide(view, rng)


def carry_out(match: Match, player: Player, decided: Decision | Choice) -> Turn:
    """Play what :func:`decide_turn` chose, on the match as it was when it chose.

    Raises:
        IllegalActionError: the match is over.
    """
    if isinstance(decided, Choice):
        return Turn(match.choose(decided), None)
    if decided.cue_ball is not None:
        match.place_cue_ball(decided.cue_ball)
    noise = None if decided.lost else player.noise
    report = match.strike(
        decided.stroke, push_out=decided.push_out, safety=decided.safety, noise=noise
    )
    return Turn(report.ruling, report)


def play_turn(match: Match, player: Player, rng: np.random.Generator | None = None) -> Turn:
    """Let ``player`` act once: answer a push out, or place the cue ball and strike.

    Args:
        match: the match.
        player: who acts.
        rng: the generator for the player's choices (default :func:`turn_rng`).

    Raises:
        IllegalActionError: the match is over.
    """
    return carry_out(match, player, decide_turn(match, player, rng))


def play_match(
    match: Match,
    players: Sequence[Player],
    rng: np.random.Generator | None = None,
    *,
    on_turn: Callable[[Turn], None] | None = None,
    max_turns: int = 100_000,
) -> None:
    """Play until the match is over (``players[0]`` in seat 0).

    With ``rng`` None each action draws from :func:`turn_rng`: same seed, same match, even
    across a resume.
    """
    for _ in range(max_turns):
        if match.state.is_over:
            return
        turn = play_turn(match, players[match.state.to_act], rng)
        if on_turn is not None:
            on_turn(turn)
