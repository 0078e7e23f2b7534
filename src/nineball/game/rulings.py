"""The referee replayed over a match record: the ruling on every entry, and where they disagree.

A record stores what the referee ruled when the match was played; :func:`check_rulings` rules
every entry again from the start and reports each disagreement with its place (a JSON path), and
:func:`iter_rulings` gives the position before each entry and the ruling on it, for the replay
and the statistics.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from nineball.errors import NineballError
from nineball.game.record import (
    InvalidRecordError,
    MatchRecord,
    RecordProblem,
    ShotKind,
    ShotRecord,
    result_to_json,
)
from nineball.rules import (
    Choice,
    GameOver,
    MatchState,
    Ruling,
    Seat,
    ShotFacts,
    choose,
    forfeit,
    shoot,
    start_match,
)

__all__ = ["RuledShot", "check_rulings", "iter_rulings", "rule", "ruling_json", "state_json"]


@dataclass(frozen=True, slots=True, kw_only=True)
class RuledShot:
    """One entry of a record with the position before it and the referee's ruling on it."""

    game: int
    """Index of the game in the record (0-based)."""
    index: int
    """Index of the shot in its game (0-based)."""
    shot: ShotRecord
    """The entry as the record holds it."""
    before: MatchState
    """The match just before the entry."""
    ruling: Ruling
    """The referee's ruling on the entry (its ``state`` is the match just after)."""


def rule(state: MatchState, shot: ShotRecord) -> Ruling:
    """The referee's ruling on one entry of a record, from the state before it.

    Raises:
        NineballError: the referee refuses the entry.
    """
    if shot.kind is ShotKind.STROKE:
        return shoot(state, shot.facts or ShotFacts(), push_out=shot.push_out)
    if shot.kind is ShotKind.CHOICE:
        return choose(state, shot.choice or Choice.SHOOT)
    return forfeit(state, shot.player)


def iter_rulings(record: MatchRecord) -> Iterator[RuledShot]:
    """Replay the referee over every entry of a record, in order.

    Raises:
        InvalidRecordError: an entry the referee refuses (see :func:`check_rulings`).
    """
    state = start_match(record.config)
    for g, game in enumerate(record.games):
        for i, shot in enumerate(game.shots):
            try:
                ruling = rule(state, shot)
            except NineballError as exc:
                place = f"$.games[{g}].shots[{i}]"
                raise InvalidRecordError([RecordProblem(place, str(exc))]) from exc
            yield RuledShot(game=g, index=i, shot=shot, before=state, ruling=ruling)
            state = ruling.state


def check_rulings(record: MatchRecord) -> list[RecordProblem]:
    """Replay the referee over a record and report where it disagrees with what is written.

    Each stroke's facts must fit the position (no ball that is already down), its fouls must be
    the referee's, every game's result must be the referee's, and the match winner too.
    """
    problems: list[RecordProblem] = []
    state = start_match(record.config)
    for g, game in enumerate(record.games):
        path = f"$.games[{g}]"
        if state.is_over:
            problems.append(RecordProblem(path, "a game after the end of the match"))
            break
        if game.breaker is not state.game.breaker:
            expected = int(state.game.breaker)
            problems.append(
                RecordProblem(f"{path}.breaker", f"expected {expected}, got {int(game.breaker)}")
            )
        result: GameOver | None = None
        for s, shot in enumerate(game.shots):
            where = f"{path}.shots[{s}]"
            if result is not None:
                problems.append(RecordProblem(where, "a shot after the end of the game"))
                break
            if shot.kind is not ShotKind.FORFEIT and shot.player is not state.to_act:
                problems.append(
                    RecordProblem(
                        f"{where}.player",
                        f"expected player {int(state.to_act)} to act, got {int(shot.player)}",
                    )
                )
                return problems
            try:
                ruling = rule(state, shot)
            except NineballError as exc:
                problems.append(RecordProblem(where, str(exc)))
                return problems
            if shot.kind is ShotKind.STROKE and ruling.fouls != shot.fouls:
                written = [f.value for f in shot.fouls]
                ruled = [f.value for f in ruling.fouls]
                problems.append(
                    RecordProblem(
                        f"{where}.fouls", f"the referee rules {ruled}, the record says {written}"
                    )
                )
            state = ruling.state
            result = ruling.game_over
        if result != game.result:
            problems.append(
                RecordProblem(
                    f"{path}.result",
                    f"the referee ends this game with {result_to_json(result)}, "
                    f"the record says {result_to_json(game.result)}",
                )
            )
            return problems
    if record.winner is not state.winner:
        winner = None if state.winner is None else int(state.winner)
        problems.append(RecordProblem("$.winner", f"the referee gives {winner}"))
    return problems


# ------------------------------------------------------------------------- as JSON


def state_json(state: MatchState) -> dict[str, object]:
    """The referee's state as the page shows it."""
    game = state.game
    return {
        "phase": state.phase.value,
        "to_act": int(state.to_act),
        "cue_ball": state.cue_ball.value,
        "push_out_allowed": state.push_out_allowed,
        "lowest": int(min(game.on_table)) if game.on_table else None,
        "on_table": sorted(int(b) for b in game.on_table),
        "score": list(state.score),
        "race_to": state.config.race_to,
        "races": [state.config.race_of(seat) for seat in Seat],
        "players": list(state.config.players),
        "game": game.number,
        "breaker": int(game.breaker),
        "consecutive_fouls": list(game.consecutive_fouls),
        "winner": None if state.winner is None else int(state.winner),
    }


def ruling_json(ruling: Ruling, game: int) -> dict[str, object]:
    """A ruling with its explanation in every language and the clause of each foul."""
    over = ruling.game_over
    return {
        "game": game,
        "kind": ruling.kind.value,
        "shooter": int(ruling.shooter),
        "legal": ruling.legal,
        "fouls": [{"code": f.value, "clause": f.clause} for f in ruling.fouls],
        "warning": ruling.warning,
        "respotted": [int(b) for b in ruling.respotted],
        "game_over": None
        if over is None
        else {"game": over.game, "winner": int(over.winner), "reason": over.reason.value},
        "match_winner": None if ruling.match_winner is None else int(ruling.match_winner),
        "explanation": {
            "en": ruling.explanation.en,
            "fr": ruling.explanation.fr,
            "pl": ruling.explanation.pl,
        },
    }
