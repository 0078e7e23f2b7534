"""``python -m nineball.cli``."""

from __future__ import annotations

import sys

from nineball.cli import main

sys.exit(main())
