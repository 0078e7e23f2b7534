"""Computer players over the game API."""

from __future__ import annotations

from nineball.players.base import Decision, Player, TableView
from nineball.players.ghost import GhostBallPlayer
from nineball.players.play import Turn, play_match, play_turn, view_of

__all__ = [
    "Decision",
    "GhostBallPlayer",
    "Player",
    "TableView",
    "Turn",
    "play_match",
    "play_turn",
    "view_of",
]
