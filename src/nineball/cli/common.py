"""What the reporting commands share: their console, and the options of the batch commands."""

from __future__ import annotations

from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer
from rich.console import Console

if TYPE_CHECKING:
    from nineball.cli.batch import RunOptions

__all__ = [
    "AddressOpt",
    "BackendOpt",
    "DbOpt",
    "FormatOpt",
    "ReportFormat",
    "ResumeOpt",
    "WorkersOpt",
    "check_backend",
    "check_level",
    "percent",
    "reporting_console",
    "run_options",
]

_PIPED_WIDTH = 10_000
"""The console width when output is not a terminal: tables keep their natural width."""


def percent(chance: float) -> str:
    """A chance in whole percents, never rounded to a certainty it is not: ">99%", "<1%".

    >>> percent(0.995), percent(1.0), percent(0.004), percent(0.0), percent(0.42)
    ('>99%', '100%', '<1%', '0%', '42%')
    """
    if 0.99 < chance < 1.0:
        return ">99%"
    if 0.0 < chance < 0.01:
        return "<1%"
    return f"{chance:.0%}"


def reporting_console() -> Console:
    """A console for a reporting command: the terminal's width, or no cut when piped."""
    console = Console(highlight=False, soft_wrap=True)
    if not console.is_terminal:
        console.width = _PIPED_WIDTH
    return console


DbOpt = Annotated[
    Path | None,
    typer.Option(help="The database (default: $NINEBALL_DB, else your data directory)."),
]


class ReportFormat(StrEnum):
    """How a batch command reports its figures."""

    TABLE = "table"
    JSON = "json"


WorkersOpt = Annotated[
    int | None, typer.Option(min=1, help="Processes (or local Ray CPUs); default: the cores.")
]
BackendOpt = Annotated[
    str | None,
    typer.Option(help="process (a local pool) or ray; default: ray if a cluster is named."),
]
AddressOpt = Annotated[
    str | None,
    typer.Option(help="A Ray cluster to join (host:port, ray://host:port); default: $RAY_ADDRESS."),
]
FormatOpt = Annotated[
    ReportFormat, typer.Option("--format", help="table, or json on stdout (the same figures).")
]
ResumeOpt = Annotated[
    str | None,
    typer.Option(help="Finish a stopped run (its id, as printed); its own parameters are used."),
]


def run_options(
    workers: int | None,
    backend: str | None,
    address: str | None,
    db: Path | None,
    fmt: ReportFormat,
    resume: str | None,
) -> RunOptions:
    """The options of a batch command, checked.

    Raises:
        typer.BadParameter: an unknown backend.
    """
    from nineball.cli.batch import RunOptions

    if backend is not None:
        check_backend(backend)
    return RunOptions(
        workers=workers, backend=backend, address=address, db=db, fmt=fmt.value, resume=resume
    )


def two(text: str, what: str) -> tuple[str, str]:
    """Two comma-separated ``what`` (players, names) from ``text``, stripped.

    Raises:
        typer.BadParameter: not exactly two.
    """
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise typer.BadParameter(f"give two {what} separated by a comma, got {text!r}")
    return parts[0], parts[1]


def check_backend(backend: str) -> None:
    """Refuse an unknown backend.

    Raises:
        typer.BadParameter: it is not one of the backends.
    """
    from nineball.players.backends import BACKENDS

    if backend not in BACKENDS:
        raise typer.BadParameter(f"--backend is one of {', '.join(BACKENDS)}, got {backend!r}")


def check_level(level: str) -> None:
    """Refuse an unknown computer player.

    Raises:
        typer.BadParameter: no player has that name.
    """
    from nineball.players.registry import PLAYERS

    if level not in PLAYERS:
        raise typer.BadParameter(f"unknown level {level!r} (known: {', '.join(PLAYERS)})")
