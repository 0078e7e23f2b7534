"""Computer players over the game API."""

from __future__ import annotations

from nineball.players.base import Decision, Player, TableView
from nineball.players.ghost import GhostBallPlayer
from nineball.players.play import Turn, lag_for_break, play_match, play_turn, turn_rng, view_of

__all__ = [
    "Decision",
    "GhostBallPlayer",
    "Player",
    "TableView",
    "Turn",
    "lag_for_break",
    "play_match",
    "play_turn",
    "turn_rng",
    "view_of",
]
