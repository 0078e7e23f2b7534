"""``nineball review RECORD``: the win probability before and after every entry of a match."""

from __future__ import annotations

import json
from pathlib import Path

from rich.console import Console
from rich.progress import Progress
from rich.table import Table

from nineball.cli.common import percent
from nineball.cli.records import load_or_report
from nineball.errors import NineballError
from nineball.game.record import InvalidRecordError

__all__ = ["run_review"]

_STYLES = {"mistake": "yellow", "blunder": "bold red"}


def run_review(
    console: Console,
    path: Path,
    *,
    as_json: bool,
    model_path: Path | None,
    level: str | None = None,
) -> int:
    """Review a record: a table (or JSON on stdout) of every entry's chances and marks.

    With ``level``, every stroke is also set against the best shot that level finds in its
    place (a progress bar on the console while it searches).

    Returns:
        The exit status: 0, or 1 for a record, model or level that cannot be read or used.
    """
    from nineball.players.review import review
    from nineball.players.value import load_value_model, shipped_value_model

    record = load_or_report(console, path)
    if record is None:
        return 1
    try:
        model = shipped_value_model() if model_path is None else load_value_model(model_path)
        if level is None:
            result = review(record, model)
        else:
            with Progress(transient=True, console=Console(stderr=True)) as bar:
                task = bar.add_task(f"searching each stroke at {level}", total=None)
                result = review(
                    record, model, level=level,
                    progress=lambda done, total: bar.update(task, completed=done, total=total),
                )  # fmt: skip
    except InvalidRecordError as exc:
        console.print(f"{path}: cannot be reviewed", style="red", markup=False)
        for problem in exc.problems:
            console.print(f"  {problem.path}: {problem.message}", markup=False)
        return 1
    except NineballError as exc:
        console.print(f"error: {exc}", style="red", markup=False)
        return 1
    if as_json:
        console.file.write(json.dumps(result.to_json(), indent=1) + "\n")
        return 0
    a, b = record.config.players
    table = Table(title=f"{a} v {b}: the chance to win the game, before and after each entry")
    columns = ["game", "#", "player", "kind", "before", "after", "change", "match", "mark",
               "what happened"]  # fmt: skip
    if level is not None:
        columns += [f"best at {level}", "best / played", "cost"]
    for column in columns:
        right = column in ("game", "#", "before", "after", "change", "match", "cost")
        table.add_column(column, justify="right" if right else "left")
    for s in result.shots:
        what = []
        if s.pocketed:
            what.append("pocketed " + " ".join(str(b) for b in s.pocketed))
        if s.fouls:
            what.append("foul: " + ", ".join(s.fouls))
        style = _STYLES.get(s.mark.value)
        cells = [
            str(s.game),
            str(s.shot),
            result.players[s.player],
            s.kind,
            percent(s.before),
            percent(s.after),
            f"{100 * s.change:+.0f}",
            f"{percent(s.match_before)} -> {percent(s.match_after)}",
            s.mark.value,
            "; ".join(what),
        ]
        if level is not None:
            alt = s.alternative
            cells += (
                ["", "", ""]
                if alt is None
                else [
                    alt.target,
                    f"{percent(alt.best)} / {percent(alt.played)}",
                    f"{100 * alt.cost:.0f}",
                ]
            )
        table.add_row(*cells, style=style)
    console.print(table)
    marks = [s for s in result.shots if s.mark.value]
    for seat, name in enumerate(result.players):
        mine = [s for s in marks if s.player == seat]
        blunders = sum(1 for s in mine if s.mark.value == "blunder")
        line = f"{name}: {len(mine) - blunders} mistake(s), {blunders} blunder(s)"
        costs = [
            s.alternative.cost
            for s in result.shots
            if s.player == seat and s.alternative is not None
        ]
        if costs:
            line += (
                f"; against {level}'s best shot, {100 * sum(costs) / len(costs):.1f} points "
                f"a stroke on average ({len(costs)} strokes)"
            )
        console.print(line, markup=False)
    return 0
