"""Self-play datasets: games, positions and shots as Parquet (docs/dataset.md)."""

from __future__ import annotations

__all__: list[str] = []
