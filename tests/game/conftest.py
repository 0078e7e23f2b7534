"""Helpers for the game tests: play a match from compact notation."""

from __future__ import annotations

from nineball.game import ShotKind, ShotRecord
from nineball.game.recorder import MatchRecorder
from nineball.rules import Choice
from nineball.rules.notation import Command, CommandEntry, parse_entry


def play(recorder: MatchRecorder, *entries: str) -> None:
    """Play each entry (scorekeeper notation) for whoever is to act."""
    for text in entries:
        entry = parse_entry(text)
        player = recorder.state.to_act
        if isinstance(entry, CommandEntry):
            if entry.command is Command.FORFEIT:
                shot = ShotRecord(kind=ShotKind.FORFEIT, player=entry.seat or player)
            else:
                choice = Choice(entry.command.value)
                shot = ShotRecord(kind=ShotKind.CHOICE, player=player, choice=choice)
        else:
            shot = ShotRecord(
                kind=ShotKind.STROKE,
                player=player,
                facts=entry.facts,
                push_out=entry.push_out,
                safety=entry.safety,
            )
        recorder.play(shot)
