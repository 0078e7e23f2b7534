"""The computer players by name: ``ghost`` and the search levels."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import partial
from importlib.resources import files

from nineball.players.base import Player
from nineball.players.ghost import GhostBallPlayer
from nineball.players.search import LEVELS, SearchPlayer

__all__ = ["PLAYERS", "RATINGS", "describe_players", "make_player"]

PLAYERS: dict[str, Callable[[], Player]] = {
    "ghost": GhostBallPlayer,
    **{name: partial(SearchPlayer, level) for name, level in LEVELS.items()},
}
"""Factories of the computer players, by name: the naive ghost-ball player, then the levels."""

RATINGS: dict[str, int] = {
    name: int(entry["rating"])
    for name, entry in json.loads(
        files("nineball.players").joinpath("ratings.json").read_text("utf-8")
    )["ratings"].items()
}
"""Each player's rating on the ladder (``ghost`` anchored at 300), rounded: the figures of
``docs/ladder.json`` shipped with the package as ``ratings.json`` (docs/players.md)."""

_GHOST_DESCRIPTION = "aims at the easiest pot by the ghost ball, no spin, no position play"


def describe_players() -> list[dict[str, object]]:
    """Each computer player in :data:`PLAYERS` order: its name, rating and a short description.

    The description is English; the page has its own translated words for each level.
    ``search``: whether it is a search level (:data:`LEVELS`), which can also judge a game's
    strokes (``nineball review --level``).
    """
    return [
        {
            "name": name,
            "rating": RATINGS.get(name),
            "description": LEVELS[name].description if name in LEVELS else _GHOST_DESCRIPTION,
            "search": name in LEVELS,
        }
        for name in PLAYERS
    ]


def make_player(name: str) -> Player:
    """A new computer player called ``name``.

    Raises:
        ValueError: no player has that name.
    """
    try:
        return PLAYERS[name]()
    except KeyError:
        raise ValueError(f"unknown player {name!r} (known: {', '.join(PLAYERS)})") from None
