"""Matches onto tables: each free table takes the next match that can be played.

A table is busy while a match it was given is not finished; a player is busy while one of their
matches is on a table. :func:`assign_tables` gives each free table, lowest number first, the
earliest match in play order that is ready and whose players are both free (in a round robin a
player has several ready matches, and plays them one at a time).
"""

from __future__ import annotations

from collections.abc import Mapping

from nineball.tournament.progress import Progress, Status

__all__ = ["assign_tables", "up_next"]


def _busy(progress: Progress, on_table: Mapping[str, int]) -> tuple[set[int], set[int]]:
    tables: set[int] = set()
    players: set[int] = set()
    for key, table in on_table.items():
        state = progress[key]
        if state.status is Status.READY:
            tables.add(table)
            players |= {p for p in state.players if p is not None}
    return tables, players


def up_next(progress: Progress, on_table: Mapping[str, int]) -> tuple[str, ...]:
    """The ready matches not on a table, in the order the next free tables will take them."""
    _, players = _busy(progress, on_table)
    waiting = []
    for state in progress.ready():
        if state.key in on_table:
            continue
        waiting.append(state.key)
    # Those whose players are both free go first (they can start at the next free table).
    free = [k for k in waiting if not players & {p for p in progress[k].players if p is not None}]
    return tuple(free + [k for k in waiting if k not in free])


def assign_tables(progress: Progress, on_table: Mapping[str, int], tables: int) -> dict[str, int]:
    """The new assignments (match key -> table) for the free tables.

    Args:
        progress: the bracket as it stands.
        on_table: the matches already given a table (finished ones may be left in).
        tables: the event's tables, numbered 1 to ``tables``.
    """
    busy_tables, busy_players = _busy(progress, on_table)
    free = [t for t in range(1, tables + 1) if t not in busy_tables]
    given: dict[str, int] = {}
    for state in progress.ready():
        if not free:
            break
        if state.key in on_table:
            continue
        players = {p for p in state.players if p is not None}
        if players & busy_players:
            continue
        given[state.key] = free.pop(0)
        busy_players |= players
    return given
