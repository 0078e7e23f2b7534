"""Errors raised by nineball.

Rulings are data, never exceptions: a foul is a member of :class:`nineball.rules.Foul` inside a
ruling. Exceptions mean misuse of the API or bad input, and every one of them leaves the state it
was given exactly as it was. Messages are lowercase and name the offending value.

The hierarchy::

    NineballError
     ├── IllegalActionError (ValueError)     the action is not allowed now (out of turn, phase)
     ├── InvalidShotError (ValueError)       the facts of a shot do not fit the position
     ├── InvalidPlacementError (ValueError)  a ball placed on another ball or off the surface
     ├── InvalidInputError (ValueError)      malformed input: a bad field, value or type
     │    └── DatabaseError                  a database file that cannot be used (damaged...)
     ├── ProtocolError (ValueError)          a wire-protocol request that cannot be read
     ├── AccessError (PermissionError)       a token that does not open this event or table
     ├── ConcurrentWriteError (RuntimeError) another writer changed a stored match meanwhile
     ├── ForfeitError (RuntimeError)         a program playing through the engine protocol
     │                                       forfeits the game or the match (it died, hung...)
     └── EngineError (RuntimeError)          the physics broke one of its own invariants (a bug)
"""

from __future__ import annotations

__all__ = [
    "AccessError",
    "ConcurrentWriteError",
    "DatabaseError",
    "EngineError",
    "ForfeitError",
    "IllegalActionError",
    "InvalidInputError",
    "InvalidPlacementError",
    "InvalidShotError",
    "NineballError",
    "ProtocolError",
    "WorkerError",
]


class NineballError(Exception):
    """Base class of every error nineball raises on purpose."""


class IllegalActionError(NineballError, ValueError):
    """The action is not allowed in the current phase (for example a push out after a foul)."""


class InvalidShotError(NineballError, ValueError):
    """The reported facts of a shot are impossible in the position (a ball not on the table)."""


class InvalidPlacementError(NineballError, ValueError):
    """A ball would overlap another ball or lie outside the playing surface."""


class InvalidInputError(NineballError, ValueError):
    """A value given to the API is malformed or out of range."""


class DatabaseError(InvalidInputError):
    """A database file that cannot be used: not SQLite, damaged, not nineball's, or newer.

    The message names the file and what is wrong; the file is left exactly as it was.
    """


class AccessError(NineballError, PermissionError):
    """A token that does not open what it was sent for (an event's organiser, a table).

    The message never repeats the token.
    """


class ConcurrentWriteError(NineballError, RuntimeError):
    """Another writer (a second ``nineball resume``, the web server) changed a stored match.

    Each stored match has one writer at a time: a write made on a copy loaded before someone
    else's write is refused whole, and the stored match stays as the other writer left it.
    """


class WorkerError(NineballError, RuntimeError):
    """A worker process of a vector environment died or failed (``nineball.env.workers``)."""


class ProtocolError(NineballError, ValueError):
    """A request of a line protocol is malformed: bad JSON, unknown type, field or value."""


class ForfeitError(NineballError, RuntimeError):
    """A player forfeits the game or the whole match instead of acting.

    Raised by :class:`nineball.players.protocol.EnginePlayer` when the program it runs has
    died, hung, flooded its output or run out of its time budget (docs/engine-protocol.md,
    "Faults"). ``scope`` is ``"game"`` or ``"match"``; ``fault`` is what the program did.
    """

    def __init__(self, message: str, *, scope: str, fault: object = None) -> None:
        """Keep the scope of the forfeit and the fault behind it."""
        super().__init__(message)
        self.scope = scope
        self.fault = fault


class EngineError(NineballError, RuntimeError):
    """The physics engine broke one of its own invariants: a bug, never a result.

    For example a ball that ends outside the playing surface without an event that took it
    there. The message carries what is needed to reproduce it.
    """
