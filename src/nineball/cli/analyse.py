"""``nineball analyse``: the best shots of a position in a recorded match."""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
from rich.console import Console
from rich.table import Table

from nineball.cli.common import percent
from nineball.cli.records import load_or_report
from nineball.cli.render import _paths
from nineball.errors import NineballError
from nineball.game.match import position_before
from nineball.players.analysis import analyse, expected_path
from nineball.render import table_png, table_svg

__all__ = ["run_analyse"]


def _spin(height: float, side: float) -> str:
    """The tip's offset in words and fractions of R: "follow 0.30", "draw 0.34, left 0.30".

    >>> _spin(0.0, 0.0), _spin(0.3, 0.0), _spin(-0.33541, -0.3), _spin(0.0, 0.25)
    ('stun', 'follow 0.30', 'draw 0.34, left 0.30', 'stun, right 0.25')
    """
    vertical = "stun" if height == 0 else f"{'follow' if height > 0 else 'draw'} {abs(height):.2f}"
    if side == 0:
        return vertical
    return f"{vertical}, {'right' if side > 0 else 'left'} {abs(side):.2f}"


def run_analyse(
    console: Console,
    record_path: Path,
    *,
    game: int,
    shot: int,
    level: str,
    top: int,
    seed: int,
    diagram: Path | None,
) -> int:
    """Analyse the position before entry ``shot`` of game ``game`` (both from 1)."""
    record = load_or_report(console, record_path)
    if record is None:
        return 1
    try:
        view = position_before(record, game - 1, shot - 1)
    except (IndexError, NineballError) as exc:
        console.print(str(exc), style="red")
        return 1
    state, layout, table, params = view.state, view.layout, view.table, view.params
    if state.is_over:
        console.print("the match is over at that point", style="red")
        return 1
    result = analyse(view, np.random.default_rng(seed), level=level, top=top)
    who = state.name(state.to_act)
    title = f"{who} to play (lowest ball {int(state.lowest)}), level {level}"
    out = Table(title=title)
    for column in ("#", "shot", "kind", "speed m/s", "tip (R)", "success", "foul", "value"):
        out.add_column(column, justify="right" if column not in ("shot", "kind") else "left")
    for n, c in enumerate(result.candidates, 1):
        spin = _spin(c.stroke.height, c.stroke.side)
        out.add_row(
            str(n),
            c.target,
            c.kind,
            f"{c.stroke.speed:.2f}",
            spin,
            percent(c.success),
            percent(c.foul),
            f"{c.value:+.2f}",
        )
    if view.in_hand is not None:
        x, y = result.cue_ball
        console.print(f"cue ball in hand: place it at ({x:.3f}, {y:.3f}) m")
    console.print(out)
    if diagram is not None and result.candidates:
        best = result.candidates[0]
        trajectory = expected_path(view, result.cue_ball, best)
        balls = {int(b): p for b, p in layout.items()}
        balls[0] = result.cue_ball
        aim = math.degrees(best.stroke.aim)
        label = f"{title}: {best.target} ({best.stroke.speed:.1f} m/s, aim {aim:.1f} deg)"
        paths = _paths(trajectory)
        if diagram.suffix.lower() == ".png":
            diagram.write_bytes(
                table_png(balls, table=table, params=params, paths=paths, title=label)
            )
        else:
            text = table_svg(balls, table=table, params=params, paths=paths, title=label)
            diagram.write_text(text, encoding="utf-8")
        console.print(f"wrote {diagram}")
    return 0
