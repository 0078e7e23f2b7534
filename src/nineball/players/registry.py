"""The computer players by name: ``ghost`` and the search levels."""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from nineball.players.base import Player
from nineball.players.ghost import GhostBallPlayer
from nineball.players.search import LEVELS, SearchPlayer

__all__ = ["PLAYERS", "make_player"]

PLAYERS: dict[str, Callable[[], Player]] = {
    "ghost": GhostBallPlayer,
    **{name: partial(SearchPlayer, level) for name, level in LEVELS.items()},
}
"""Factories of the computer players, by name: the naive ghost-ball player, then the levels."""


def make_player(name: str) -> Player:
    """A new computer player called ``name``.

    Raises:
        ValueError: no player has that name.
    """
    try:
        return PLAYERS[name]()
    except KeyError:
        raise ValueError(f"unknown player {name!r} (known: {', '.join(PLAYERS)})") from None
