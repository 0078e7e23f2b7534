"""Game review: the win probability before and after every entry of a recorded match.

For each entry (a stroke, a push out, a push-out answer) :func:`review` gives the chance that
the player who acted wins the game, and the match, just before and just after it, by the learned
model (:mod:`nineball.players.value`), from the layouts the record holds (nothing is simulated).
What the entry gained or lost is the change of the game's chance; a loss of more than
:data:`MISTAKE` marks a mistake, of more than :data:`BLUNDER` a blunder, as chess players' analysis
boards do. The loss includes the luck of the execution: a review says what happened to the
player's chances, not why.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any

from nineball.game import RulingKind, Seat
from nineball.game.history import recorded_positions
from nineball.game.position import Position
from nineball.game.record import MatchRecord, ShotKind
from nineball.game.rulings import RuledShot
from nineball.players.value import ValueModel, shipped_value_model

__all__ = ["BLUNDER", "MISTAKE", "Mark", "Review", "ShotReview", "review"]

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


def review(record: MatchRecord, model: ValueModel | None = None) -> Review:
    """Value every entry of ``record`` by ``model`` (default: the shipped one).

    Raises:
        InvalidRecordError: a record without its layouts (scored by hand), or an entry the
            referee refuses.
    """
    model = model or shipped_value_model()
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
        out.append(
            ShotReview(
                game=entry.game + 1,
                shot=entry.index + 1,
                player=seat,
                kind=_kind(entry),
                before=before,
                after=after,
                match_before=match_before,
                match_after=match_after,
                fouls=tuple(f.value for f in ruling.fouls),
                pocketed=pocketed,
                mark=_mark(after - before),
            )
        )
    return Review(players=record.config.players, shots=tuple(out))
