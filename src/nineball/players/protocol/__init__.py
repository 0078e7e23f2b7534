"""The engine protocol: programs in any language play nine-ball through nineball.

docs/engine-protocol.md is the specification. nineball's side is :class:`EnginePlayer` (a
:class:`~nineball.players.Player` that runs a program through a :class:`PipeConnection`, or a
built-in player in process through a :class:`LocalConnection`); the program's side, for the
built-in players, is :class:`EngineSession` (``nineball engine --level LEVEL``);
:mod:`nineball.players.protocol.arena` plays round robins between programs.
"""

from __future__ import annotations

from nineball.players.protocol.connection import (
    Closed,
    Connection,
    Flooded,
    Line,
    LinkError,
    LocalConnection,
    PipeConnection,
    Silence,
)
from nineball.players.protocol.host import EnginePlayer
from nineball.players.protocol.session import EngineSession, serve_engine
from nineball.players.protocol.terms import Fault, SeatNoise, TimeControl
from nineball.players.protocol.wire import PROTOCOL_VERSION

__all__ = [
    "PROTOCOL_VERSION",
    "Closed",
    "Connection",
    "EnginePlayer",
    "EngineSession",
    "Fault",
    "Flooded",
    "Line",
    "LinkError",
    "LocalConnection",
    "PipeConnection",
    "SeatNoise",
    "Silence",
    "TimeControl",
    "serve_engine",
]
