"""Who may act in a session: its mode, and the secret seat tokens for which seat.

A token is a random secret handed to a page once; the session keeps only its SHA-256 digest,
so neither memory nor the database holds a token that could be replayed.
"""

from __future__ import annotations

import hashlib
import secrets
from enum import StrEnum

from nineball.errors import IllegalActionError
from nineball.game import Seat

__all__ = ["ActionError", "Mode", "SeatTokens"]


class Mode(StrEnum):
    """How a session is played."""

    COMPUTER = "computer"
    """One person against the computer."""
    LOCAL = "local"
    """Two people on one screen (one token acts for both seats)."""
    NETWORK = "network"
    """Two people on two screens, each with the secret link of a seat."""
    PRACTICE = "practice"
    """One person alone: any ball anywhere, undo, the computer's analysis (not stored)."""
    SCORE = "score"
    """The scorekeeper of a real table: what happened is entered by hand."""


class ActionError(IllegalActionError):
    """An action the session refuses now: not your turn, a spectator, a wrong mode, no such match.

    One of the :class:`~nineball.errors.IllegalActionError` family (the action is not allowed
    now); a message that cannot be read at all is a :class:`~nineball.errors.ProtocolError`.
    """


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class SeatTokens:
    """The digests of a session's tokens and the seats each acts for."""

    def __init__(self, seats_by_digest: dict[str, frozenset[Seat]] | None = None) -> None:
        """Start from the digests kept in the store (none for a new session)."""
        self._seats = dict(seats_by_digest or {})

    def seats_of(self, token: str | None) -> frozenset[Seat]:
        """The seats a token acts for (none: a spectator).

        Raises:
            ActionError: a token this session never gave out.
        """
        if token is None:
            return frozenset()
        for digest, seats in self._seats.items():
            if secrets.compare_digest(digest, _digest(token)):
                return seats
        raise ActionError("this link's token is not valid for this match")

    def add(self, seats: frozenset[Seat]) -> str:
        """A new secret token acting for ``seats``."""
        token = secrets.token_urlsafe(18)
        self._seats[_digest(token)] = seats
        return token

    @property
    def digests(self) -> dict[str, list[int]]:
        """The token digests and their seats (what the database keeps)."""
        return {d: sorted(int(s) for s in seats) for d, seats in self._seats.items()}
