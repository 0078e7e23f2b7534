"""Reading a match record: the models parse it, then the values are built and checked.

:func:`read_record` is lenient: it reads as much as it can and reports every problem with its
place in the file (a JSON path such as ``$.games[0].shots[3].stroke.speed``), the way
python-chess's PGN reader collects errors. :func:`load_record` is strict: it raises
:class:`~nineball.game.record.InvalidRecordError` naming every problem.

Reading goes in three steps:

1. the standard library parses the JSON (its floats round-trip ``repr`` exactly);
2. the pydantic models of :mod:`nineball.game.record_models` check every field's type, at
   once, and report all the problems they find;
3. the record's frozen values are built, with the checks that concern more than one field: the
   games numbered 1, 2, ... in order, each stroke's facts consistent in themselves
   (:meth:`~nineball.rules.ShotFacts.of`), the match's configuration valid
   (:class:`~nineball.rules.MatchConfig`), and, when everything else is right, the referee
   replayed over the whole record (:func:`~nineball.game.rulings.check_rulings`).

When the models find a problem, the entries and games that have one are left out and the rest is
read again, so that step 3 still checks (and returns) what is sound. A record whose version is
not one this module knows is not read further: its other fields could mean something else.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any

from pydantic import ValidationError
from pydantic_core import ErrorDetails

from nineball.equipment import BallId, Point
from nineball.errors import NineballError
from nineball.game.record import (
    GameRecord,
    InvalidRecordError,
    MatchRecord,
    RecordProblem,
    ShotKind,
    ShotRecord,
    StrokeRecord,
)
from nineball.game.record_models import (
    ChoiceEntryModel,
    EntryModel,
    GameModel,
    MatchModel,
    StrokeEntryModel,
    StrokeModel,
    problems_of,
)
from nineball.game.rulings import check_rulings
from nineball.rules import GameOver, MatchConfig, Seat, ShotFacts, find_variant

__all__ = ["load_record", "read_record"]

_SEATS = (Seat.FIRST, Seat.SECOND)
"""The seat of each player number."""

_BALLS = {str(int(ball)): ball for ball in BallId}
"""The ball of each key of a map of balls ("0" to "9")."""


class _Builder:
    """Builds the record's values from the models, collecting the problems of step 3."""

    def __init__(self) -> None:
        self.problems: list[RecordProblem] = []

    def match(self, model: MatchModel, games: list[GameRecord]) -> MatchRecord | None:
        """The record, or None when its configuration is not valid (a problem says why)."""
        try:
            config = MatchConfig(
                players=model.players,
                race_to=model.race_to,
                races=None if model.races is None else (model.races[0], model.races[1]),
                breaks=model.breaks,
                first_breaker=_SEATS[model.first_breaker],
                rules=find_variant(model.rules),
                refereed=model.refereed,
            )
        except NineballError as exc:
            self.problems.append(RecordProblem("$", str(exc)))
            return None
        return MatchRecord(
            config=config,
            seed=model.seed,
            table=model.table,
            params=dict(model.params),
            event=model.event,
            date=model.date,
            agents=model.agents,
            games=tuple(games),
            winner=None if model.winner is None else _SEATS[model.winner],
        )

    def game(self, index: int, model: GameModel, shot_indices: Sequence[int]) -> GameRecord:
        """Game ``index`` of the file; ``shot_indices[i]`` is the place of its i-th entry."""
        path = f"$.games[{index}]"
        number = index + 1
        if model.number != number:
            self.problems.append(
                RecordProblem(f"{path}.number", f"expected game {number}, got {model.number}")
            )
        breaker = _SEATS[model.breaker]
        shots = [
            shot
            for i, entry in zip(shot_indices, model.shots, strict=True)
            if (shot := self.shot(entry, f"{path}.shots[{i}]")) is not None
        ]
        result = model.result
        return GameRecord(
            number=number,
            breaker=breaker,
            rack=_balls(model.rack),
            shots=tuple(shots),
            result=None
            if result is None
            else GameOver(
                game=number, winner=_SEATS[result.winner], reason=result.reason, breaker=breaker
            ),
        )

    def shot(self, model: EntryModel, path: str) -> ShotRecord | None:
        """The entry at ``path``, or None when its facts contradict each other."""
        player = _SEATS[model.player]
        if isinstance(model, StrokeEntryModel):
            facts = model.facts
            try:
                checked = ShotFacts.of(
                    first_contact=facts.first_contact,
                    pocketed=facts.pocketed,
                    off_table=facts.off_table,
                    rails=facts.rails,
                    obstruction_moved=facts.obstruction_moved,
                )
            except NineballError as exc:
                self.problems.append(RecordProblem(f"{path}.facts", str(exc)))
                return None
            return ShotRecord(
                kind=ShotKind.STROKE,
                player=player,
                push_out=model.push_out,
                cue_ball=model.cue_ball,
                stroke=_stroke(model.stroke),
                intended=_stroke(model.intended),
                facts=checked,
                fouls=tuple(model.fouls),
                safety=model.safety,
                positions=_balls(model.positions),
            )
        if isinstance(model, ChoiceEntryModel):
            return ShotRecord(kind=ShotKind.CHOICE, player=player, choice=model.choice)
        return ShotRecord(kind=ShotKind.FORFEIT, player=player)


def _stroke(model: StrokeModel | None) -> StrokeRecord | None:
    if model is None:
        return None
    return StrokeRecord(
        speed=model.speed,
        aim_deg=model.aim_deg,
        elevation_deg=model.elevation_deg,
        side=model.side,
        height=model.height,
    )


def _balls(model: dict[str, Point] | None) -> dict[BallId, Point] | None:
    return None if model is None else {_BALLS[key]: at for key, at in model.items()}


def _salvage(data: object, errors: list[ErrorDetails], builder: _Builder) -> MatchRecord | None:
    """What can still be read of a record the models refused (their problems are reported).

    Every entry and every game with a problem is left out; the rest is read again and built,
    with the checks of step 3. The record is None when the problems are in its own fields.
    """
    locs = [error["loc"] for error in errors]
    if not isinstance(data, dict) or not isinstance(data.get("games", []), list):
        return None
    bad_games: set[int | str] = set()
    bad_entries: set[tuple[int | str, int | str]] = set()
    whole = True
    for loc in locs:
        if len(loc) >= 4 and loc[0] == "games" and loc[2] == "shots":
            bad_entries.add((loc[1], loc[3]))
        elif len(loc) >= 2 and loc[0] == "games":
            bad_games.add(loc[1])
        else:
            whole = False
    games: list[GameRecord] = []
    for g, raw in enumerate(data.get("games", [])):
        if g in bad_games or not isinstance(raw, dict):
            continue
        shots = raw.get("shots", [])
        kept = [s for s in range(len(shots)) if (g, s) not in bad_entries]
        try:
            model = GameModel.model_validate({**raw, "shots": [shots[s] for s in kept]})
        except ValidationError:  # pragma: no cover - every problem of this game was left out
            continue
        games.append(builder.game(g, model, kept))
    if not whole:
        return None
    try:
        head = MatchModel.model_validate({**data, "games": []})
    except ValidationError:  # pragma: no cover - the match's own fields were sound
        return None
    return builder.match(head, games)


def read_record(text: str, *, check: bool = True) -> tuple[MatchRecord | None, list[RecordProblem]]:
    """Read a record leniently: what could be read, and every problem with its place.

    The record is None when its own fields (not those of a game or an entry) could not be read.
    A non-empty problem list means the record is not valid; what was read is then the record
    without its games and entries that have a problem.

    Args:
        text: the JSON text.
        check: also replay the referee over the record (:func:`check_rulings`); turn it off to
            read a match cut short in the middle of a shot.
    """
    try:
        data: Any = json.loads(text)
    except ValueError as exc:
        lineno = getattr(exc, "lineno", 0)
        colno = getattr(exc, "colno", 0)
        return None, [RecordProblem(f"line {lineno}, column {colno}", f"bad JSON: {exc}")]
    builder = _Builder()
    try:
        model = MatchModel.model_validate(data)
    except ValidationError as exc:
        errors = exc.errors(include_url=False)
        problems = problems_of(errors)
        if any(error["loc"][:1] == ("version",) for error in errors):
            head = {("format",), ("version",)}
            return None, [p for p, e in zip(problems, errors, strict=True) if e["loc"] in head]
        record = _salvage(data, errors, builder)
        return record, problems + builder.problems
    games = [builder.game(g, game, range(len(game.shots))) for g, game in enumerate(model.games)]
    record = builder.match(model, games)
    if check and record is not None and not builder.problems:
        builder.problems.extend(check_rulings(record))
    return record, builder.problems


def load_record(text: str, *, check: bool = True) -> MatchRecord:
    """Read a record strictly (``check`` as for :func:`read_record`).

    Raises:
        InvalidRecordError: the record has at least one problem; all of them are listed.
    """
    record, problems = read_record(text, check=check)
    if problems or record is None:
        raise InvalidRecordError(problems or [RecordProblem("$", "no record")])
    return record
