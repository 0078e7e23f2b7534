"""``nineball engine`` and ``nineball arena``: programs that play through the engine protocol.

docs/engine-protocol.md is the protocol; the commands only parse their arguments and call the
library (:mod:`nineball.players.protocol`), which they import on first use.
"""

from __future__ import annotations

import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Annotated

import typer

from nineball.cli.common import (
    AddressOpt,
    BackendOpt,
    DbOpt,
    FormatOpt,
    ReportFormat,
    ResumeOpt,
    WorkersOpt,
    check_level,
    reporting_console,
    run_options,
)
from nineball.errors import NineballError

__all__ = ["arena", "engine"]


def engine(
    level: Annotated[str, typer.Option(help="The built-in player that plays.")] = "pro",
) -> None:
    """A built-in player as a program of the engine protocol, on standard input and output."""
    check_level(level)
    from nineball.players.protocol import EngineSession, serve_engine
    from nineball.players.registry import make_player

    session = EngineSession(make_player(level))
    raise typer.Exit(serve_engine(session, sys.stdin.buffer, sys.stdout.buffer))


def _seconds(value: float, flag: str) -> float | None:
    """A time budget from the command line: 0 means none."""
    if value < 0:
        raise typer.BadParameter(f"{flag} must be >= 0 s (0: no limit), got {value!r}")
    return None if value == 0 else value


def _keyed(items: list[str] | None, flag: str, sep: str, form: str) -> list[tuple[str, str]]:
    out = []
    for item in items or ():
        key, found, value = item.partition(sep)
        if not found or not key.strip():
            raise typer.BadParameter(f"{flag} takes {form}, got {item!r}")
        out.append((key.strip(), value))
    return out


def arena(
    entrants: Annotated[
        list[str] | None,
        typer.Argument(
            help="Two or more players: a built-in one (ghost, beginner ... max) or NAME=COMMAND "
            "for a program that speaks the engine protocol (docs/engine-protocol.md)."
        ),
    ] = None,
    matches: Annotated[int, typer.Option(min=1, help="Matches per pairing.")] = 10,
    race_to: Annotated[int, typer.Option(min=1, max=99, help="Games to win a match.")] = 1,
    seed: Annotated[int, typer.Option(help="Same seed, same racks and noise.")] = 0,
    noise: Annotated[
        str, typer.Option(help="The programs' noise class: tournament, high, variable or none.")
    ] = "tournament",
    same_noise: Annotated[
        bool,
        typer.Option(
            "--same-noise/--own-noise", help="Built-in players under --noise too (not their own)."
        ),
    ] = False,
    noise_of: Annotated[
        list[str] | None,
        typer.Option(help="NAME=NOISE: one player's noise (a class, a level's hands, a multiple)."),
    ] = None,
    option: Annotated[
        list[str] | None,
        typer.Option(
            help="NAME:KEY=VALUE: an option for a program (VALUE read as JSON, else text)."
        ),
    ] = None,
    move_time: Annotated[float, typer.Option(help="Seconds per turn.")] = 30.0,
    game_time: Annotated[float, typer.Option(help="Seconds per game (0: no limit).")] = 300.0,
    match_time: Annotated[float, typer.Option(help="Seconds per match (0: no limit).")] = 0.0,
    start_time: Annotated[float, typer.Option(help="Seconds to start and say hello.")] = 30.0,
    records: Annotated[
        Path | None, typer.Option(help="Write every match's record into this directory.")
    ] = None,
    workers: WorkersOpt = None,
    backend: BackendOpt = None,
    address: AddressOpt = None,
    db: DbOpt = None,
    fmt: FormatOpt = ReportFormat.TABLE,
    resume: ResumeOpt = None,
) -> None:
    """A round robin between programs and built-in players, rated on the ladder's scale."""
    import json as json_module

    from nineball.cli.arena import run_arena
    from nineball.players.protocol import TimeControl
    from nineball.players.protocol.arena import ArenaSettings, parse_entrant, resolve_noise

    options = run_options(workers, backend, address, db, fmt, resume)
    console = reporting_console()
    if resume is not None:
        raise typer.Exit(
            run_arena(
                console,
                entrants=[],
                matches=1,
                seed=0,
                settings=ArenaSettings(),
                records=records,
                options=options,
            )
        )
    cwd = os.getcwd()
    try:
        parsed = [parse_entrant(text, cwd=cwd) for text in entrants or ()]
        names = [e.name for e in parsed]
        if len(parsed) < 2 or len(set(names)) < len(names):
            raise typer.BadParameter(f"give two or more players with different names, got {names}")
        noises = dict(_keyed(noise_of, "--noise-of", "=", "NAME=NOISE"))
        for name, spec in noises.items():
            if name not in names:
                raise typer.BadParameter(f"--noise-of names no player: {name!r}")
            resolve_noise(spec)
        parsed = [replace(e, noise=noises.get(e.name, e.noise)) for e in parsed]
        resolve_noise(noise)
        if noise not in ("tournament", "high", "variable", "none"):
            raise typer.BadParameter(
                f"--noise is tournament, high, variable or none, got {noise!r}"
            )
        values: dict[str, dict[str, object]] = {}
        for name, setting in _keyed(option, "--option", ":", "NAME:KEY=VALUE"):
            key, found, raw = setting.partition("=")
            if not found or name not in names:
                raise typer.BadParameter(
                    f"--option takes NAME:KEY=VALUE for a player, got {name}:{setting}"
                )
            try:
                value: object = json_module.loads(raw)
            except ValueError:
                value = raw
            values.setdefault(name, {})[key] = value
        time_control = TimeControl(
            move=move_time,
            game=_seconds(game_time, "--game-time"),
            match=_seconds(match_time, "--match-time"),
            start=start_time,
        )
    except NineballError as exc:
        raise typer.BadParameter(str(exc)) from None
    settings = ArenaSettings(
        race_to=race_to, noise=noise, same_noise=same_noise, time=time_control, options=values
    )
    code = run_arena(
        console,
        entrants=parsed,
        matches=matches,
        seed=seed,
        settings=settings,
        records=records,
        options=options,
    )
    raise typer.Exit(code)
