"""Write ``docs/record.schema.json``, the JSON Schema of a match record, from the record's models.

    python tools/record_schema.py [--check]

Run it after changing a model in ``src/nineball/game/record_models.py`` and commit the file with
the change: ``tests/game/test_record_schema.py`` fails while the two differ. ``--check`` writes
nothing and exits with 1 when the file is out of date.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from nineball.game.record_models import dump_schema

SCHEMA = Path(__file__).resolve().parents[1] / "docs" / "record.schema.json"
"""Where the schema is published."""


def main() -> int:
    """Write (or check) the schema file; the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only check that the file is current")
    args = parser.parse_args()
    text = dump_schema()
    current = SCHEMA.read_text(encoding="utf-8") if SCHEMA.exists() else ""
    if args.check:
        if current != text:
            sys.stdout.write(f"{SCHEMA} is out of date: run python tools/record_schema.py\n")
            return 1
        return 0
    SCHEMA.write_text(text, encoding="utf-8")
    sys.stdout.write(f"wrote {SCHEMA}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
