"""Computer players over the game API."""

from __future__ import annotations

from nineball.players.base import Decision, Player
from nineball.players.ghost import GhostBallPlayer
from nineball.players.play import Turn, play_match, play_turn, turn_rng, view_of
from nineball.players.search import LEVELS, Candidate, Level, SearchPlayer

__all__ = [
    "LEVELS",
    "Candidate",
    "Decision",
    "GhostBallPlayer",
    "Level",
    "Player",
    "SearchPlayer",
    "Turn",
    "play_match",
    "play_turn",
    "turn_rng",
    "view_of",
]
