"""The ``nineball`` command line (extra ``[cli]``: Typer and Rich).

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
    except ImportError as exc:  # pragma: no cover - only without the [cli] extra
        missing = exc.name or "typer"
        print(
            f"nineball: the command line needs the [cli] extra ({missing} is missing): "
            "pip install 'nineball[cli]'",
            file=sys.stderr,
        )
        return 1
    return run(list(sys.argv[1:] if argv is None else argv))
