"""The page's end-to-end runs again on the 3D table (the default a new visitor gets).

The tests are those of ``test_browser.py`` and ``test_browser_endings.py``, collected here a
second time with pages that open in 3D: a local match (the cue ball in hand dragged on the 3D
table, a push out answered, the languages, a reload), a whole match against the computer, and
the rack-over and match-over screens with the rematch, Step and replay. Their screenshots go to
``artifacts/3d/``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.web.conftest import ARTIFACTS
from tests.web.test_browser import (
    test_a_scripted_session_in_the_browser,
    test_a_short_match_against_the_computer,
)
from tests.web.test_browser_endings import (
    test_concede_rack_card_match_over_and_rematch,
    test_step_replay_and_slow_motion_never_leave_the_table_stuck,
)

__all__ = [
    "test_a_scripted_session_in_the_browser",
    "test_a_short_match_against_the_computer",
    "test_concede_rack_card_match_over_and_rematch",
    "test_step_replay_and_slow_motion_never_leave_the_table_stuck",
]

pytestmark = pytest.mark.browser


@pytest.fixture
def browser_context_args(browser_context_args: dict[str, Any], server_url: str) -> dict[str, Any]:
    """Pages that remember the 3D table chosen (as a first visit opens it)."""
    remembered = [{"name": "nineball.view", "value": "3d"}]
    storage = {"cookies": [], "origins": [{"origin": server_url, "localStorage": remembered}]}
    return {**browser_context_args, "storage_state": storage}


@pytest.fixture
def artifacts() -> Path:
    (ARTIFACTS / "3d").mkdir(parents=True, exist_ok=True)
    return ARTIFACTS / "3d"


@pytest.fixture(autouse=True)
def _in_3d(page: Any) -> Any:
    """Every run here was on the 3D table, to its end."""
    yield
    assert page.evaluate("window.nbView") == "3d"
