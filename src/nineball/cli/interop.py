"""``nineball interop``: shots brought over from other programs and taken back (docs/pooltool.md).

``import-pooltool FILE`` plays every shot of a pooltool file on nineball's engine and shows what
happened beside what pooltool's own events say (when the file was simulated); ``export-pooltool``
writes the strokes of a recorded match as a pooltool file that pooltool loads and simulates.
"""

from __future__ import annotations

import json
import math
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

__all__ = ["interop_app", "run_export", "run_import"]

interop_app = typer.Typer(
    name="interop",
    help="Shots from other programs and back: pooltool's files (docs/pooltool.md).",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _error(console: Console, text: str) -> int:
    console.print(f"error: {text}", style="red", markup=False, highlight=False)
    return 1


def _balls(pocketed: Any) -> str:
    return ", ".join(f"{b} {p.value}" for b, p in pocketed) or "none"


def _final(final: Any) -> str:
    return "  ".join(
        f"{b}: pocketed" if p is None else f"{b}: ({p[0]:.3f}, {p[1]:.3f})" for b, p in final
    )


def _request(shot: Any) -> dict[str, Any]:
    """The shot as a simulate-protocol request (docs/simulate-protocol.md), and its table."""
    from dataclasses import fields

    from nineball.game import PhysicsParams

    defaults = PhysicsParams()
    stroke = shot.stroke
    table = shot.table
    return {
        "balls": [{"id": b.id, "r": list(b.r), "v": list(b.v), "w": list(b.w)} for b in shot.balls],
        "stroke": None
        if stroke is None
        else {
            "speed": stroke.speed,
            "aim_deg": math.degrees(stroke.aim),
            "elevation_deg": math.degrees(stroke.elevation),
            "side": stroke.side,
            "height": stroke.height,
        },
        "params": {
            f.name: getattr(shot.params, f.name)
            for f in fields(PhysicsParams)
            if getattr(shot.params, f.name) != getattr(defaults, f.name)
        },
        "table": {
            f.name: getattr(table, f.name) for f in fields(table) if f.init and f.name != "name"
        },
    }


def run_import(
    console: Console, path: Path, *, shot: int | None, output: Path | None, max_events: int
) -> int:
    """Play the shots of a pooltool file on nineball's engine; print and optionally write them."""
    from nineball.errors import NineballError
    from nineball.game import trajectory_json
    from nineball.interop import load_pooltool

    try:
        shots = load_pooltool(path)
    except NineballError as exc:
        return _error(console, f"{path}: {exc}")
    if shot is not None and not 1 <= shot <= len(shots):
        return _error(console, f"{path} holds {len(shots)} shot(s), not a shot {shot}")
    chosen = list(enumerate(shots, 1)) if shot is None else [(shot, shots[shot - 1])]
    written = []
    for number, item in chosen:
        try:
            trajectory = item.simulate(max_events=max_events)
        except NineballError as exc:
            return _error(console, f"{path}, shot {number}: nineball cannot play it: {exc}")
        _show(console, number, len(shots), item, trajectory)
        pooltool = item.outcome
        written.append(
            {
                "shot": number,
                "notes": list(item.notes),
                "request": _request(item),
                "nineball": trajectory_json(trajectory),
                "pooltool": None
                if pooltool is None
                else {
                    "first_contact": pooltool.first_contact,
                    "pocketed": {str(b): p.value for b, p in pooltool.pocketed},
                    "rails": list(pooltool.rails),
                    "final": {str(b): None if p is None else list(p) for b, p in pooltool.final},
                    "events": pooltool.events,
                },
            }
        )
    if output is not None:
        try:
            output.write_text(json.dumps({"file": str(path), "shots": written}, indent=1) + "\n")
        except OSError as exc:
            return _error(console, f"cannot write {str(output)!r}: {exc.strerror or exc}")
        console.print(f"wrote {output}")
    return 0


def _show(console: Console, number: int, count: int, shot: Any, trajectory: Any) -> None:
    stroke = shot.stroke
    what = (
        "no stroke"
        if stroke is None
        else (
            f"{stroke.speed:.3f} m/s at {math.degrees(stroke.aim):.2f} deg, elevation "
            f"{math.degrees(stroke.elevation):.1f} deg, side {stroke.side:+.3f} R, height "
            f"{stroke.height:+.3f} R"
        )
    )
    console.print(f"shot {number} of {count}: {len(shot.balls)} balls; stroke {what}")
    for note in shot.notes:
        console.print(f"  note: {note}", markup=False, highlight=False)
    from nineball.game import MotionState

    gone = (MotionState.POCKETED, MotionState.OFF_TABLE)
    facts = trajectory.facts()
    final = trajectory.final_states()
    ours = {
        "first ball hit": str(facts.first_contact),
        "pocketed": _balls((b, final[b].pocket) for b in facts.pocketed),
        "rails": ", ".join(map(str, facts.rails)) or "none",
        "final": _final(
            (b, None if s.motion in gone else s.r[:2]) for b, s in sorted(final.items())
        ),
    }
    table = Table(show_header=True, header_style="bold")
    table.add_column("")
    table.add_column("nineball")
    theirs = shot.outcome
    if theirs is not None:
        table.add_column("pooltool (the file's events)")
        values = {
            "first ball hit": str(theirs.first_contact),
            "pocketed": _balls(theirs.pocketed),
            "rails": ", ".join(map(str, theirs.rails)) or "none",
            "final": _final(theirs.final),
        }
        for key, value in ours.items():
            table.add_row(key, value, values[key])
    else:
        for key, value in ours.items():
            table.add_row(key, value)
    console.print(table)


def run_export(
    console: Console, record_path: Path, output: Path, *, game: int, shot: int | None
) -> int:
    """Write strokes of a recorded game as a pooltool file (format from the suffix)."""
    from nineball.cli.records import load_or_report
    from nineball.errors import NineballError
    from nineball.interop import save_pooltool
    from nineball.interop.pooltool.file import format_of
    from nineball.interop.pooltool.write import record_shots

    try:
        format_of(output)
    except NineballError as exc:
        return _error(console, str(exc).removeprefix("$: "))
    record = load_or_report(console, record_path)
    if record is None:
        return 1
    try:
        shots = record_shots(record, game - 1, None if shot is None else shot - 1)
        save_pooltool(output, shots[0] if shot is not None else shots)
    except (IndexError, NineballError) as exc:
        return _error(console, str(exc))
    except OSError as exc:
        return _error(console, f"cannot write {str(output)!r}: {exc.strerror or exc}")
    kind = "System" if shot is not None else f"MultiSystem of {len(shots)} shots"
    console.print(f"wrote {output}: a pooltool {kind} (pooltool.System.load reads it)")
    return 0


@interop_app.command("import-pooltool")
def import_pooltool(
    file: Annotated[Path, typer.Argument(help="A pooltool System or MultiSystem file.")],
    shot: Annotated[
        int | None, typer.Option(min=1, help="Only this shot of a MultiSystem (from 1).")
    ] = None,
    output: Annotated[
        Path | None,
        typer.Option("--output", "-o", help="Write nineball's results here (JSON)."),
    ] = None,
    max_events: Annotated[
        int, typer.Option(min=1, max=1_000_000, help="The most events to simulate.")
    ] = 10000,
) -> None:
    """Play a pooltool shot (.json or .msgpack) on nineball's engine, beside pooltool's result."""
    console = Console(highlight=False, soft_wrap=True)
    raise typer.Exit(run_import(console, file, shot=shot, output=output, max_events=max_events))


@interop_app.command("export-pooltool")
def export_pooltool(
    record: Annotated[Path, typer.Argument(help="A record (nineball export, match --record).")],
    output: Annotated[
        Path, typer.Option("--output", "-o", help="The pooltool file: .json or .msgpack.")
    ],
    game: Annotated[int, typer.Option(min=1, help="The game (from 1).")] = 1,
    shot: Annotated[
        int | None,
        typer.Option(min=1, help="One entry of the game (from 1); default: every stroke."),
    ] = None,
) -> None:
    """Write recorded strokes as a pooltool file (one System, or a MultiSystem of a game)."""
    console = Console(highlight=False, soft_wrap=True)
    raise typer.Exit(run_export(console, record, output, game=game, shot=shot))
