"""Shared test setup: no test ever touches the user's own database."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def _private_database(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "nineball-test.sqlite3"
    monkeypatch.setenv("NINEBALL_DB", str(path))
    return path
