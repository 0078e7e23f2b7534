"""``nineball stats``, ``nineball export`` and ``nineball replay``: reading stored matches."""

from __future__ import annotations

import io
from collections.abc import Callable
from pathlib import Path

from rich.console import Console
from rich.rule import Rule
from rich.table import Table

from nineball.errors import NineballError
from nineball.game import Language, RulingKind
from nineball.game.record import InvalidRecordError, MatchRecord, RecordProblem, dump_record
from nineball.game.rulings import iter_rulings
from nineball.game.stats import PlayerStats, compute_stats, stats_to_csv, stats_to_json
from nineball.game.store import Store

__all__ = ["export_match", "load_or_report", "replay_record", "show_stats"]

_COLUMNS: tuple[tuple[str, Callable[[PlayerStats], str]], ...] = (
    ("matches", lambda p: f"{p.matches_won}/{p.matches_played}"),
    ("games", lambda p: f"{p.games_won}/{p.games_played}"),
    ("breaks: legal+ball", lambda p: f"{p.breaks_with_a_ball}/{p.breaks}"),
    ("balls on break", lambda p: str(p.balls_on_break)),
    ("break scratches", lambda p: str(p.break_scratches)),
    ("B&R", lambda p: str(p.break_and_runs)),
    ("run outs", lambda p: str(p.run_outs)),
    ("balls/inning", lambda p: f"{p.balls_per_inning:.2f}"),
    ("fouls", lambda p: str(p.fouls)),
    ("safeties", lambda p: str(p.safeties)),
    ("push outs", lambda p: str(p.push_outs)),
)


def _table(stats: dict[str, PlayerStats]) -> Table:
    table = Table(title="nineball statistics")
    table.add_column("player")
    for name, _ in _COLUMNS:
        table.add_column(name, justify="right")
    for name, player in sorted(stats.items()):
        table.add_row(name, *(cell(player) for _, cell in _COLUMNS))
    return table


def show_stats(
    console: Console,
    *,
    db: Path | None,
    player: str | None,
    fmt: str,
    output: Path | None,
    match_id: int | None = None,
) -> int:
    """Print (or write to ``output``) the statistics of the stored matches (or of one)."""
    try:
        with Store(db) as store:
            ids = [m.id for m in store.matches(player=player)] if match_id is None else [match_id]
            records = [store.load(i) for i in ids]
    except NineballError as exc:
        console.print(str(exc), style="red", markup=False)
        return 1
    try:
        stats = compute_stats(records)
    except NineballError as exc:
        console.print(f"cannot count a stored match: {exc}", style="red")
        return 1
    if player is not None:
        stats = {name: s for name, s in stats.items() if name == player}
    if fmt == "table":
        if not stats:
            console.print("no matches stored yet")
            return 0
        if output is None:
            console.print(_table(stats))
            return 0
        text = io.StringIO()
        Console(file=text, width=10_000, no_color=True, highlight=False).print(_table(stats))
        return _write(console, text.getvalue(), output, "wrote {output}")
    text_out = stats_to_csv(stats) if fmt == "csv" else stats_to_json(stats)
    return _write(console, text_out, output, "wrote {output}")


def export_match(
    console: Console, *, db: Path | None, match_id: int | None, output: Path | None
) -> int:
    """Write a stored match (the newest when ``match_id`` is None) as a record."""
    try:
        with Store(db) as store:
            if match_id is None:
                matches = store.matches()
                if not matches:
                    console.print("no matches stored yet", style="red")
                    return 1
                match_id = matches[0].id
            record = store.load(match_id)
    except NineballError as exc:
        console.print(str(exc), style="red", markup=False)
        return 1
    return _write(console, dump_record(record), output, f"wrote match #{match_id} to {{output}}")


def load_or_report(console: Console, path: Path) -> MatchRecord | None:
    """Read a record file; on failure print why (every problem with its place) and give None."""
    from nineball.game.record_read import read_record  # pydantic: only when a record is read

    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        console.print(f"cannot read {str(path)!r}: {exc}", style="red")
        return None
    record, problems = read_record(text)
    if problems or record is None:
        _report(console, path, problems)
        return None
    return record


def _report(console: Console, path: Path, problems: list[RecordProblem]) -> None:
    console.print(f"{path}: {len(problems)} problem(s)", style="red", markup=False)
    for problem in problems:
        console.print(f"  {problem.path}: {problem.message}", markup=False)


def _write(console: Console, text: str, output: Path | None, done: str) -> int:
    """Write ``text`` to ``output`` (or the console); a path it cannot write: a message, 1."""
    if output is None:
        console.file.write(text)
        return 0
    try:
        output.write_text(text, encoding="utf-8")
    except OSError as exc:
        console.print(f"cannot write {str(output)!r}: {exc.strerror or exc}", style="red")
        return 1
    console.print(done.format(output=output), markup=False)
    return 0


def replay_record(console: Console, path: Path, lang: Language) -> int:
    """Read a record, report every problem with its place, and tell its story entry by entry.

    A record that reads but cannot be played (an entry the referee refuses, a stroke the physics
    cannot play: a negative speed, a cue ball off the table) is reported the same way.
    """
    record = load_or_report(console, path)
    if record is None:
        return 1
    try:
        return _tell(console, record, lang)
    except InvalidRecordError as exc:
        _report(console, path, exc.problems)
        return 1


def _tell(console: Console, record: MatchRecord, lang: Language) -> int:
    a, b = record.config.players
    console.print(
        f"{a} v {b}, race to {record.config.race_to}, rules {record.config.rules.name}"
        + (f", {record.event}" if record.event else "")
        + (f", {record.date}" if record.date else ""),
        style="bold",
        markup=False,
    )
    current = -1
    for entry in iter_rulings(record):
        if entry.game != current:
            current = entry.game
            console.print(Rule(f"game {entry.before.game.number}"), width=min(console.width, 80))
        mark = "FOUL" if entry.ruling.fouls else "    "
        kind = entry.ruling.kind.value if entry.ruling.kind is not RulingKind.SHOT else "shot"
        console.print(
            f"{mark} {record.config.players[entry.shot.player]:>12} {kind:>8}  "
            f"{entry.ruling.explanation.text(lang)}",
            markup=False,
        )
    if record.winner is not None:
        sa, sb = (sum(1 for g in record.games if g.result and g.result.winner == s) for s in (0, 1))
        console.print(f"{record.config.players[record.winner]} wins {sa}-{sb}", style="bold")
    strokes = sum(1 for g in record.games for s in g.shots if s.positions is not None)
    if strokes and record.seed is not None:
        from nineball.game.match import replay

        bad = [p for _, _, _, p in replay(record) if p is not None]
        for problem in bad:
            console.print(f"  {problem.path}: {problem.message}", style="red", markup=False)
        if bad:
            console.print(f"{len(bad)} of {strokes} strokes replay differently", style="red")
            return 1
        console.print(f"{strokes} strokes simulated again: every ball position identical")
    return 0
