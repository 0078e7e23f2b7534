"""Game review: the win probability before and after every entry of a recorded match.

For each entry (a stroke, a push out, a push-out answer) :func:`review` gives the chance that
the player who acted wins the game, and the match, just before and just after it, by the learned
model (:mod:`nineball.players.value`), from the layouts the record holds (nothing is simulated).
What the entry gained or lost is the change of the game's chance; a loss of more than
:data:`MISTAKE` marks a mistake, of more than :data:`BLUNDER` a blunder, as chess players' analysis
boards do. The loss includes the luck of the execution: a review says what happened to the
player's chances, not why. A break is never marked: what it leaves is mostly the luck of the
spread, and there is no other shot to have played (its change is still shown).

With a ``level`` (:func:`review`'s option) every stroke is also set against the best shot that
level finds from the same position (:class:`Alternative`): each stroke, the one played (as the
player meant it) and the best, is played :data:`ALTERNATIVE_SAMPLES` times under the level's
execution noise, and the model values where the balls stop; the difference is what the choice
cost, the luck of the execution taken out.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

import numpy as np

from nineball.equipment import BallId, Point
from nineball.errors import InvalidInputError, NineballError
from nineball.game import Phase, RulingKind, Seat, Stroke
from nineball.game.history import recorded_positions
from nineball.game.match import record_stroke
from nineball.game.position import Position
from nineball.game.record import MatchRecord, ShotKind
from nineball.game.rulings import RuledShot
from nineball.players.value import ValueModel, shipped_value_model

__all__ = [
    "ALTERNATIVE_SAMPLES",
    "BLUNDER",
    "MISTAKE",
    "Alternative",
    "Mark",
    "Review",
    "ShotReview",
    "review",
]

ALTERNATIVE_SAMPLES = 16
"""Noisy executions behind each expected chance of :class:`Alternative`."""

MISTAKE = 0.10
"""A loss of more than 10 points of the game's chance is a mistake."""

BLUNDER = 0.25
"""A loss of more than 25 points is a blunder."""


class Mark(StrEnum):
    """The mark an entry gets for the chance it lost."""

    NONE = ""
    MISTAKE = "mistake"
    """Lost more than :data:`MISTAKE`."""
    BLUNDER = "blunder"
    """Lost more than :data:`BLUNDER`."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Alternative:
    """A stroke set against the best shot a level finds in its place, the luck taken out."""

    level: str
    """The level whose search and execution noise judged."""
    target: str
    """What the best shot tries (``"3 in foot_left"``, ``"kick at the 2 off 2 cushions"``)."""
    best: float
    """P(the player wins the game) after the best shot, expected over the level's noise."""
    played: float
    """The same for the stroke the player meant, from where the player placed the cue ball."""

    @property
    def cost(self) -> float:
        """What choosing the stroke played cost (> 0) of the game's chance, against the best."""
        return self.best - self.played


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotReview:
    """One entry of the record, valued."""

    game: int
    """The game's number, from 1."""
    shot: int
    """The entry's number in its game, from 1."""
    player: Seat
    """Who acted."""
    kind: str
    """``break``, ``shot``, ``safety``, ``push_out``, ``shoot`` or ``pass`` (a push-out answer),
    ``forfeit``."""
    before: float
    """P(the player wins the game) just before."""
    after: float
    """Just after (1 or 0 when the entry ended the game)."""
    match_before: float
    """P(the player wins the match) just before."""
    match_after: float
    fouls: tuple[str, ...]
    pocketed: tuple[int, ...]
    """Object balls pocketed (the 9 even if respotted)."""
    mark: Mark
    alternative: Alternative | None = None
    """The best shot at the review's level, for a stroke when a level was asked for."""

    @property
    def change(self) -> float:
        """What the entry gained (> 0) or lost (< 0) of the game's chance."""
        return self.after - self.before


@dataclass(frozen=True, slots=True, kw_only=True)
class Review:
    """A whole match reviewed."""

    players: tuple[str, str]
    shots: tuple[ShotReview, ...]

    def to_json(self) -> dict[str, Any]:
        """The review as JSON values (chances rounded to 4 places)."""
        return {
            "players": list(self.players),
            "mistake": MISTAKE,
            "blunder": BLUNDER,
            "shots": [
                {
                    "game": s.game,
                    "shot": s.shot,
                    "player": int(s.player),
                    "name": self.players[s.player],
                    "kind": s.kind,
                    "before": round(s.before, 4),
                    "after": round(s.after, 4),
                    "change": round(s.change, 4),
                    "match_before": round(s.match_before, 4),
                    "match_after": round(s.match_after, 4),
                    "fouls": list(s.fouls),
                    "pocketed": list(s.pocketed),
                    "mark": s.mark.value or None,
                    "alternative": None
                    if s.alternative is None
                    else {
                        "level": s.alternative.level,
                        "target": s.alternative.target,
                        "best": round(s.alternative.best, 4),
                        "played": round(s.alternative.played, 4),
                        "cost": round(s.alternative.cost, 4),
                    },
                }
                for s in self.shots
            ],
        }


def _mark(change: float) -> Mark:
    if change < -BLUNDER:
        return Mark.BLUNDER
    if change < -MISTAKE:
        return Mark.MISTAKE
    return Mark.NONE


def _kind(entry: RuledShot) -> str:
    shot = entry.shot
    if shot.kind is ShotKind.CHOICE and shot.choice is not None:
        return shot.choice.value
    if shot.kind is ShotKind.FORFEIT:
        return "forfeit"
    if entry.ruling.kind is RulingKind.SHOT and shot.safety:
        return "safety"
    return entry.ruling.kind.value


def _chances(model: ValueModel, position: Position, seat: Seat) -> tuple[float, float]:
    """P(``seat`` wins the game, the match) at ``position``."""
    state = position.state
    if state.is_over:
        won = 1.0 if state.winner == seat else 0.0
        return won, won
    return model.seat_chances(position).of_seat(seat)


def _expected(
    model: ValueModel,
    position: Position,
    cue: Point,
    stroke: Stroke,
    level: str,
    rng: np.random.Generator,
) -> float:
    """P(the player to act wins the game) after ``stroke`` from ``cue``, over the level's noise."""
    from nineball.players.search import LEVELS, SearchPlayer

    player = SearchPlayer(LEVELS[level])
    search = player._search(position, rng)
    noise = player.noise
    strokes = [
        stroke if noise is None else noise.apply(stroke, rng, position.params)
        for _ in range(ALTERNATIVE_SAMPLES)
    ]
    seat = position.state.to_act
    chances = []
    for outcome in search.play_all(cue, strokes):
        if outcome is None:  # a stroke the physics refuses (a miscue): not counted
            continue
        over = outcome.ruling.game_over
        if over is not None:
            chances.append(1.0 if over.winner == seat else 0.0)
        else:
            chances.append(_chances(model, outcome.after, seat)[0])
    return sum(chances) / len(chances) if chances else 0.0


def _alternative(
    model: ValueModel, entry: RuledShot, position: Position, level: str, seed: int
) -> Alternative | None:
    """The stroke of ``entry`` against the best shot ``level`` finds (None: not a stroke)."""
    from nineball.players.analysis import analyse

    shot = entry.shot
    state = position.state
    if shot.kind is not ShotKind.STROKE or shot.push_out or state.phase is Phase.BREAK:
        return None
    executed = shot.intended or shot.stroke
    if executed is None:
        return None
    played_cue = shot.cue_ball if shot.cue_ball is not None else position.layout.get(BallId.CUE)
    if played_cue is None:
        return None
    rng = np.random.default_rng([seed, entry.game, entry.index])
    try:
        found = analyse(position, rng, level=level, top=1)
    except NineballError:
        return None
    if not found.candidates:
        return None
    chosen = found.candidates[0]
    best = _expected(model, position, found.cue_ball, chosen.stroke, level, rng)
    played = _expected(model, position, played_cue, record_stroke(executed), level, rng)
    return Alternative(level=level, target=chosen.target, best=best, played=played)


def review(
    record: MatchRecord,
    model: ValueModel | None = None,
    *,
    level: str | None = None,
    seed: int = 0,
    progress: Callable[[int, int], None] | None = None,
) -> Review:
    """Value every entry of ``record`` by ``model`` (default: the shipped one).

    Args:
        record: a simulated match's record.
        model: the value model.
        level: a search level (:data:`nineball.players.search.LEVELS`): every stroke also gets
            its :class:`Alternative`, the best shot the level finds in its place (about a
            third of a second each at ``club``). None: no alternatives.
        seed: the seed of the alternatives' searches and noise (the same review each time).
        progress: called with (entries done, entries) after each entry.

    Raises:
        InvalidRecordError: a record without its layouts (scored by hand), or an entry the
            referee refuses.
        InvalidInputError: an unknown level.
    """
    model = model or shipped_value_model()
    if level is not None:
        from nineball.players.search import LEVELS

        if level not in LEVELS:  # before any work
            raise InvalidInputError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
    entries = list(recorded_positions(record))
    out: list[ShotReview] = []
    for k, (entry, position) in enumerate(entries):
        seat = entry.shot.player
        ruling = entry.ruling
        before, match_before = _chances(model, position, seat)
        over = ruling.game_over
        if k + 1 < len(entries) and entries[k + 1][0].game == entry.game:
            after, match_after = _chances(model, entries[k + 1][1], seat)
        else:
            layout = entry.shot.positions if entry.shot.positions is not None else position.layout
            following = replace(position, state=ruling.state, layout=dict(layout))
            if k + 1 < len(entries):
                following = entries[k + 1][1]
            after, match_after = _chances(model, following, seat)
        if over is not None:
            after = 1.0 if over.winner == seat else 0.0
        facts = entry.shot.facts
        pocketed = (
            () if facts is None else tuple(sorted(int(b) for b in facts.pocketed_object_balls))
        )
        kind = _kind(entry)
        out.append(
            ShotReview(
                game=entry.game + 1,
                shot=entry.index + 1,
                player=seat,
                kind=kind,
                before=before,
                after=after,
                match_before=match_before,
                match_after=match_after,
                fouls=tuple(f.value for f in ruling.fouls),
                pocketed=pocketed,
                mark=Mark.NONE if kind == RulingKind.BREAK.value else _mark(after - before),
                alternative=None
                if level is None
                else _alternative(model, entry, position, level, seed),
            )
        )
        if progress is not None:
            progress(k + 1, len(entries))
    return Review(players=record.config.players, shots=tuple(out))
