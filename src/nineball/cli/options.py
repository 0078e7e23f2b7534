"""Command-line options shared by the commands that run many jobs (workers, backend, cluster)."""

from __future__ import annotations

from typing import Annotated

import typer

__all__ = ["AddressOpt", "BackendOpt", "WorkersOpt", "check_backend"]

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


def check_backend(backend: str) -> None:
    """Refuse a ``--backend`` that is not one of :data:`nineball.players.backends.BACKENDS`.

    Raises:
        typer.BadParameter: an unknown backend.
    """
    from nineball.players.backends import BACKENDS

    if backend not in BACKENDS:
        raise typer.BadParameter(f"--backend is one of {', '.join(BACKENDS)}, got {backend!r}")
