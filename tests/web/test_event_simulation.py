"""A seeded double elimination of 16, scored at 8 tables at once through the real server.

The scorers behave as the phones do, a proxy loses one answer in six after the server handled
the request, and the server is restarted half-way (``tests/web/event_simulation.py`` tells how).
The event must come out exactly as the plan makes it, every entry stored once. The figures are
printed (``pytest -s``) and written to ``artifacts/event-simulation.json``.
"""

from __future__ import annotations

import json
from pathlib import Path

from tests.web.conftest import ARTIFACTS
from tests.web.event_simulation import play_event, players


def test_a_double_elimination_of_16_at_8_tables_with_drops_and_a_restart(tmp_path: Path) -> None:
    figures = play_event(tmp_path, players(16), race=3, tables=8, drop=1 / 6)
    assert figures["matches_played"] in (30, 31)
    assert figures["answers_dropped_by_the_proxy"] > 0
    assert figures["entries_sent_again_not_applied"] > 0
    ARTIFACTS.mkdir(exist_ok=True)
    (ARTIFACTS / "event-simulation.json").write_text(json.dumps(figures, indent=2) + "\n")
    print("event simulation:", json.dumps(figures))
