"""Reports of an event: figures per player and for the event, and the results as CSV.

Racks come from both ways of scoring: a rack entered by its result counts as won or lost, and as a
break with the figures the scorer gave (balls made, a foul, a break and run); a rack scored shot by
shot counts everything the referee saw (:func:`nineball.game.compute_stats`: legal breaks, balls on
the break, break-and-runs, fouls by clause). Fouls by clause therefore cover the racks scored shot
by shot only; ``racks_refereed`` says how many those are.

**Performance against rating**: for each rack a player played against a rated opponent, the
Fargo-style scale gives the chance of winning it, ``p = 1 / (1 + 2 ** (-D / 100))``; the sum is
the racks the rating expected (``expected_racks``). The performance rating is the rating at which
that sum equals the racks actually won (found by bisection; none when every rack or none was won).

**The results CSV** (:func:`results_csv`, ``docs/tournaments.md``): UTF-8, a header line, one row a
played match (byes left out), in play order, with the columns of :data:`CSV_COLUMNS`.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field
from typing import Any

from nineball.game import Store, compute_stats
from nineball.game.event_store import EventStore
from nineball.players.ladder import win_probability
from nineball.tournament.entries import Mode
from nineball.tournament.view import EventView, MatchView, Standing

__all__ = ["CSV_COLUMNS", "PlayerReport", "event_report", "performance_rating", "results_csv"]

CSV_COLUMNS = (
    "date",
    "event",
    "match",
    "stage",
    "round",
    "table",
    "player_a",
    "player_b",
    "rating_a",
    "rating_b",
    "race_a",
    "race_b",
    "score_a",
    "score_b",
    "winner",
    "mode",
)
"""The columns of the results CSV, in order (``docs/tournaments.md`` describes each)."""


@dataclass(slots=True, kw_only=True)
class PlayerReport:
    """One player's figures in an event (counted as the matches are read)."""

    number: int
    name: str
    rating: float | None
    seed: int | None
    place: int | None = None
    matches_played: int = 0
    matches_won: int = 0
    matches_awarded: int = 0
    """Matches given without play (won or lost)."""
    racks_played: int = 0
    racks_won: int = 0
    racks_refereed: int = 0
    """Racks scored shot by shot (the fouls by clause count these only)."""
    breaks: int = 0
    legal_breaks: int = 0
    breaks_counted: int = 0
    """Breaks whose balls were counted (every refereed one, the quick ones the scorer counted)."""
    balls_on_break: int = 0
    break_and_runs: int = 0
    fouls_by_clause: dict[int, int] = field(default_factory=dict)
    expected_racks: float | None = None
    performance: float | None = None
    """The rating the racks won make (see the module's docstring)."""
    opponents: list[tuple[float, bool]] = field(default_factory=list)
    """(opponent's rating, won) for each rack against a rated opponent."""

    def as_json(self) -> dict[str, Any]:
        """The figures as a JSON object."""
        out = asdict(self)
        out.pop("opponents")
        out["fouls_by_clause"] = {str(k): v for k, v in sorted(self.fouls_by_clause.items())}
        for key in ("expected_racks", "performance"):
            if out[key] is not None:
                out[key] = round(out[key], 1)
        return out


def performance_rating(racks: Iterable[tuple[float, bool]]) -> float | None:
    """The rating at which the expected racks against these opponents equal the racks won.

    Args:
        racks: (the opponent's rating, won) for each rack.

    Returns:
        The rating to 0.01 point, or None when every rack or none was won (or no rack).

    >>> round(performance_rating([(500.0, True), (500.0, False)]))
    500
    """
    played = list(racks)
    won = sum(w for _, w in played)
    if not played or won in (0, len(played)):
        return None
    low, high = -2000.0, 6000.0
    while high - low > 0.01:
        middle = (low + high) / 2
        expected = sum(win_probability(middle - rating) for rating, _ in played)
        low, high = (middle, high) if expected < won else (low, middle)
    return (low + high) / 2


def _players(view: EventView) -> dict[int, PlayerReport]:
    places = {number: place for place, number in view.placings}
    return {
        p.number: PlayerReport(
            number=p.number,
            name=p.name,
            rating=p.rating,
            seed=view.seed_of(p.number),
            place=places.get(p.number),
        )
        for p in view.players
    }


def _count_rack(reports: dict[int, PlayerReport], match: MatchView, winner: int) -> None:
    numbers = [side.number for side in match.sides]
    for slot, number in enumerate(numbers):
        if number is None:
            continue
        report = reports[number]
        report.racks_played += 1
        report.racks_won += winner == slot
        opponent = match.sides[1 - slot].rating
        if opponent is not None:
            report.opponents.append((opponent, winner == slot))


def event_report(store: Store, view: EventView) -> dict[str, Any]:
    """Every player's figures, best placed first, and the event's totals."""
    reports = _players(view)
    racks = EventStore(store).racks(view.id)
    records = []
    for match in view.matches:
        if match.standing not in (Standing.DONE, Standing.PLAYING):
            continue
        numbers = [side.number for side in match.sides]
        for slot, number in enumerate(numbers):
            if number is None:
                continue
            report = reports[number]
            if match.standing is Standing.DONE:
                report.matches_played += match.mode is not Mode.AWARD
                report.matches_awarded += match.mode is Mode.AWARD
                report.matches_won += match.winner == slot
        if match.mode is Mode.QUICK:
            for rack in racks.get(match.key, []):
                _count_rack(reports, match, rack.winner)
                breaker = numbers[rack.breaker]
                if breaker is None:
                    continue
                report = reports[breaker]
                report.breaks += 1
                report.legal_breaks += not rack.data.get("break_foul", False)
                report.break_and_runs += bool(rack.data.get("break_and_run", False))
                balls = rack.data.get("break_balls")
                if isinstance(balls, int):
                    report.breaks_counted += 1
                    report.balls_on_break += balls
        elif match.mode is Mode.SHOTS and match.record_id is not None:
            record = store.load(match.record_id)
            records.append((match, record))
            for game in record.games:
                if game.result is not None:
                    _count_rack(reports, match, int(game.result.winner))
                    for number in numbers:
                        if number is not None:
                            reports[number].racks_refereed += 1
    for match, record in records:
        stats = compute_stats([record])
        for slot, side in enumerate(match.sides):
            if side.number is None or side.name not in stats:
                continue
            figures = stats[record.config.players[slot]]
            report = reports[side.number]
            report.breaks += figures.breaks
            report.legal_breaks += figures.legal_breaks
            report.breaks_counted += figures.breaks
            report.balls_on_break += figures.balls_on_break
            report.break_and_runs += figures.break_and_runs
            for clause, count in figures.fouls_by_clause.items():
                report.fouls_by_clause[clause] = report.fouls_by_clause.get(clause, 0) + count
    for report in reports.values():
        if report.rating is not None and report.opponents:
            report.expected_racks = sum(
                win_probability(report.rating - rating) for rating, _ in report.opponents
            )
        report.performance = performance_rating(report.opponents)
    ordered = sorted(reports.values(), key=lambda r: (r.place or 10**6, r.seed or 10**6))
    fouls: dict[str, int] = {}
    for report in ordered:
        for clause, count in report.fouls_by_clause.items():
            fouls[str(clause)] = fouls.get(str(clause), 0) + count
    played = [m for m in view.matches if m.standing is Standing.DONE]
    return {
        "event": {"id": view.id, "name": view.config.name, "date": view.config.date},
        "players": [r.as_json() for r in ordered],
        "totals": {
            "matches": len(played),
            "racks": sum(r.racks_won for r in ordered),
            "breaks": sum(r.breaks for r in ordered),
            "break_and_runs": sum(r.break_and_runs for r in ordered),
            "fouls_by_clause": dict(sorted(fouls.items(), key=lambda kv: int(kv[0]))),
        },
    }


def results_csv(view: EventView) -> str:
    """The event's results, one row a played match (:data:`CSV_COLUMNS`)."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for match in view.matches:
        if match.standing is not Standing.DONE or match.winner is None:
            continue
        a, b = match.sides
        day = (match.finished or view.config.date)[:10]
        writer.writerow(
            [
                day,
                view.config.name,
                match.key,
                match.match.stage.value,
                match.match.round,
                match.table or "",
                a.name,
                b.name,
                _rating(a.rating),
                _rating(b.rating),
                match.races[0],
                match.races[1],
                match.score[0],
                match.score[1],
                (a.name, b.name)[match.winner],
                "" if match.mode is None else match.mode.value,
            ]
        )
    return out.getvalue()


def _rating(rating: float | None) -> str:
    return "" if rating is None else f"{rating:g}"
