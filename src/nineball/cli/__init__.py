"""The ``nineball`` command line (Typer and Rich, main dependencies: a plain install has it).

Each command is a thin layer over the public API: it parses input, calls the library and prints.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

__all__ = ["main"]


def main(argv: Sequence[str] | None = None) -> int:
    """Run the ``nineball`` command with ``argv`` (default: the process arguments).

    Returns:
        The exit status.
    """
    try:
        from nineball.cli.app import run
    except ImportError as exc:  # pragma: no cover - only in a broken installation
        missing = exc.name or "typer"
        print(
            f"nineball: the command line cannot start, {missing} is missing "
            "(a dependency of nineball): pip install --force-reinstall nineball",
            file=sys.stderr,
        )
        return 1
    return run(list(sys.argv[1:] if argv is None else argv))
