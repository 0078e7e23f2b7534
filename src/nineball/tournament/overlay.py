"""The stream overlay's win probability: a hook for a model, shown only where it can be known.

The overlay page has a slot for the chance each player has of winning the match. It is filled
only when a model has been registered (:func:`set_win_probability_model`; the model itself is
another piece of work: a win-probability model over a known layout) **and** the layout of the
balls is known, that is, when the match's last entry carries the positions of the balls (a
simulated or recorded match). A match scored by hand at a real table has no layout, and the
slot stays hidden: the overlay never shows a number that nothing backs.

>>> from nineball.game import MatchConfig, MatchRecord
>>> win_probability(MatchRecord(config=MatchConfig(players=("Ann", "Bob"))))
"""

from __future__ import annotations

from typing import Protocol

from nineball.game import MatchRecord, MatchRecorder, MatchState

__all__ = [
    "WinProbabilityModel",
    "has_win_probability_model",
    "layout_known",
    "set_win_probability_model",
    "win_probability",
]


class WinProbabilityModel(Protocol):
    """A model of the chance that seat 0 wins the match from a known layout."""

    def __call__(self, record: MatchRecord, state: MatchState) -> float | None:
        """Seat 0's chance (0-1) after the record's last entry, or None when it cannot tell."""
        ...


_MODEL: list[WinProbabilityModel] = []


def set_win_probability_model(model: WinProbabilityModel | None) -> None:
    """Register the model the overlay asks (None: none, the slot stays hidden)."""
    _MODEL.clear()
    if model is not None:
        _MODEL.append(model)


def has_win_probability_model() -> bool:
    """True once a model is registered (else the overlay need not read the match at all)."""
    return bool(_MODEL)


def layout_known(record: MatchRecord) -> bool:
    """True when the match's last stroke carries the positions of the balls."""
    shots = [shot for game in record.games for shot in game.shots]
    return bool(shots) and shots[-1].positions is not None


def win_probability(record: MatchRecord) -> tuple[float, float] | None:
    """Each seat's chance of winning the match, or None (no model, or no layout known)."""
    if not _MODEL or not layout_known(record):
        return None
    state = MatchRecorder.resume(record).state
    chance = _MODEL[0](record, state)
    if chance is None or not 0.0 <= chance <= 1.0:
        return None
    return (float(chance), 1.0 - float(chance))
