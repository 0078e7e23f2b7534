"""Statistics per player over match records, exported as CSV or JSON.

Definitions (each computed by replaying the referee over the records):

- an *inning* is a player's unbroken run of strokes in a game (a push out handed back with
  ``pass`` does not end it);
- *balls pocketed* counts object balls pocketed on legal strokes, push outs excluded;
- a *break and run* is a game the breaker won without the opponent playing a stroke;
- a *run out* is any other inning that began with a stroke and ended with the game won on the 9;
- *safeties* are strokes the player declared as safeties (computer players always declare).
"""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from dataclasses import asdict, dataclass, field, fields

from nineball.game.record import MatchRecord, ShotKind
from nineball.game.rulings import RuledShot, iter_rulings
from nineball.rules import Foul, RulingKind, Seat, Termination

__all__ = ["PlayerStats", "compute_stats", "stats_to_csv", "stats_to_json"]


@dataclass(slots=True, kw_only=True)
class PlayerStats:
    """The statistics of one player (mutable while they are counted)."""

    name: str
    matches_played: int = 0
    matches_won: int = 0
    games_played: int = 0
    games_won: int = 0
    breaks: int = 0
    legal_breaks: int = 0
    breaks_with_a_ball: int = 0
    """Legal breaks that pocketed at least one object ball."""
    balls_on_break: int = 0
    break_scratches: int = 0
    nine_on_break: int = 0
    break_and_runs: int = 0
    run_outs: int = 0
    innings: int = 0
    strokes: int = 0
    balls_pocketed: int = 0
    safeties: int = 0
    push_outs: int = 0
    fouls: int = 0
    """Strokes with at least one foul (several fouls on a stroke count once, clause 6)."""
    fouls_by_clause: dict[int, int] = field(default_factory=dict)
    """Each foul code counted under its clause (a stroke may add to several clauses)."""
    three_foul_losses: int = 0
    forfeits: int = 0

    @property
    def balls_per_inning(self) -> float:
        """Object balls pocketed per inning (0 before the first inning)."""
        return self.balls_pocketed / self.innings if self.innings else 0.0

    @property
    def break_success(self) -> float:
        """Share of breaks that were legal and pocketed a ball."""
        return self.breaks_with_a_ball / self.breaks if self.breaks else 0.0

    def as_row(self) -> dict[str, object]:
        """A flat dictionary: every counter, the two ratios, and ``fouls_clause_N`` columns."""
        row: dict[str, object] = {
            f.name: getattr(self, f.name) for f in fields(self) if f.name != "fouls_by_clause"
        }
        row["balls_per_inning"] = round(self.balls_per_inning, 4)
        row["break_success"] = round(self.break_success, 4)
        for clause in sorted({f.clause for f in Foul}):
            row[f"fouls_clause_{clause}"] = self.fouls_by_clause.get(clause, 0)
        return row


def _count_game(
    entries: list[RuledShot], names: tuple[str, str], table: dict[str, PlayerStats]
) -> None:
    stats = [table[names[0]], table[names[1]]]
    breaker = entries[0].before.game.breaker
    last_stroker: Seat | None = None
    inning_start: int | None = None
    opponent_stroked = False
    for n, entry in enumerate(entries):
        ruling = entry.ruling
        player = stats[entry.shot.player]
        if entry.shot.kind is ShotKind.FORFEIT:
            player.forfeits += 1
            continue
        if entry.shot.kind is ShotKind.CHOICE:
            continue
        player.strokes += 1
        if entry.shot.player is not breaker:
            opponent_stroked = True
        if entry.shot.player is not last_stroker:
            player.innings += 1
            inning_start = n
        last_stroker = entry.shot.player
        facts = entry.shot.facts
        down = 0 if facts is None else len(facts.pocketed_object_balls)
        if ruling.fouls:
            player.fouls += 1
            for clause in {f.clause for f in ruling.fouls}:
                player.fouls_by_clause[clause] = player.fouls_by_clause.get(clause, 0) + 1
        elif ruling.kind is not RulingKind.PUSH_OUT:
            player.balls_pocketed += down
        if ruling.kind is RulingKind.BREAK:
            player.breaks += 1
            player.balls_on_break += down
            player.legal_breaks += ruling.legal
            player.breaks_with_a_ball += ruling.legal and down > 0
            player.break_scratches += Foul.CUE_BALL_POCKETED in ruling.fouls
        player.push_outs += ruling.kind is RulingKind.PUSH_OUT
        player.safeties += entry.shot.safety
        over = ruling.game_over
        if over is None:
            continue
        if over.reason is Termination.THREE_FOULS:
            player.three_foul_losses += 1
        elif over.reason is Termination.NINE_BALL:
            if ruling.kind is RulingKind.BREAK:
                player.nine_on_break += 1
            if entry.shot.player is breaker and not opponent_stroked:
                player.break_and_runs += 1
            elif (
                inning_start is not None
                and entries[inning_start].ruling.kind is not RulingKind.BREAK
            ):
                player.run_outs += 1


def compute_stats(records: Iterable[MatchRecord]) -> dict[str, PlayerStats]:
    """Statistics for every player named in ``records``, by name.

    Raises:
        InvalidRecordError: a record the referee cannot replay.
    """
    table: dict[str, PlayerStats] = {}
    for record in records:
        names = record.config.players
        for name in names:
            table.setdefault(name, PlayerStats(name=name))
        by_game: dict[int, list[RuledShot]] = {}
        for entry in iter_rulings(record):
            by_game.setdefault(entry.game, []).append(entry)
        for g, game in enumerate(record.games):
            if game.result is None and g not in by_game:
                continue
            for name in names:
                table[name].games_played += 1
            if game.result is not None:
                table[names[game.result.winner]].games_won += 1
            if g in by_game:
                _count_game(by_game[g], names, table)
        for name in names:
            table[name].matches_played += 1
        if record.winner is not None:
            table[names[record.winner]].matches_won += 1
    return table


def stats_to_json(stats: dict[str, PlayerStats]) -> str:
    """The statistics as JSON: one object per player, by name."""
    data = {}
    for name, player in sorted(stats.items()):
        item = asdict(player)
        item["fouls_by_clause"] = {str(k): v for k, v in sorted(player.fouls_by_clause.items())}
        item["balls_per_inning"] = player.balls_per_inning
        item["break_success"] = player.break_success
        data[name] = item
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def stats_to_csv(stats: dict[str, PlayerStats]) -> str:
    """The statistics as CSV: a header row, then one row per player."""
    rows = [player.as_row() for _, player in sorted(stats.items())]
    out = io.StringIO()
    if rows:
        writer = csv.DictWriter(out, fieldnames=list(rows[0]), lineterminator="\n")
        writer.writeheader()
        writer.writerows(rows)
    return out.getvalue()
