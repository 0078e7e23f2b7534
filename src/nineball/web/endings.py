"""What the page shows when a game or the match ends: the rack's figures and the match's stats.

Both are counted by :func:`nineball.game.compute_stats` on the match's record: a rack's figures
are the difference between the record up to that game and the record before it.
"""

from __future__ import annotations

import dataclasses

from nineball.game import MatchRecord, compute_stats

__all__ = ["RACK_FIGURES", "STAT_FIGURES", "match_stats_json", "rack_json"]

RACK_FIGURES = ("balls_pocketed", "fouls", "innings", "strokes")
"""The figures of one rack, per player."""

STAT_FIGURES = (
    "games_won", "balls_pocketed", "innings", "balls_per_inning", "fouls", "safeties",
    "push_outs", "break_and_runs", "run_outs", "breaks_with_a_ball", "breaks",
    "three_foul_losses", "forfeits",
)  # fmt: skip
"""The statistics of the match-over screen, per player."""


def _figures(record: MatchRecord, games: int) -> list[dict[str, float]]:
    cut = dataclasses.replace(record, games=record.games[:games], winner=None)
    stats = compute_stats([cut])
    return [
        {name: getattr(stats[player], name) for name in RACK_FIGURES}
        for player in record.config.players
    ]


def rack_json(record: MatchRecord, game: int) -> dict[str, object]:
    """Each seat's figures in game ``game`` (1-based): balls pocketed, fouls, innings, strokes.

    Balls count on legal strokes only (push outs excluded), as the statistics count them.
    """
    after = _figures(record, game)
    before = _figures(record, game - 1)
    return {
        "game": game,
        "players": [
            {name: after[s][name] - before[s][name] for name in RACK_FIGURES} for s in (0, 1)
        ],
    }


def match_stats_json(record: MatchRecord) -> list[dict[str, object]]:
    """Each seat's statistics over the whole match (seat order)."""
    stats = compute_stats([record])
    out: list[dict[str, object]] = []
    for player in record.config.players:
        row = stats[player]
        out.append(
            {"name": player}
            | {
                name: round(row.balls_per_inning, 3)
                if name == "balls_per_inning"
                else getattr(row, name)
                for name in STAT_FIGURES
            }
        )
    return out
