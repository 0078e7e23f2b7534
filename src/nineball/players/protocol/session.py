"""The program's side of the engine protocol, played by a built-in player (``nineball engine``).

:class:`EngineSession` reads nineball's messages (JSON objects) and answers them with a
:class:`~nineball.players.Player`, without any I/O: ``nineball engine --level pro`` runs it over
standard input and output (:func:`serve_engine`), and the arena runs it in process for the
built-in players it plays directly, so that a built-in player makes the same decisions through
the pipe and in process, bit for bit (docs/engine-protocol.md).

It rebuilds each position from the ``turn`` message alone (the state, the balls, the table of
``new_match``), tells the player the noise it will be held to (the search samples with it), and
draws the player's randomness from the turn's ``seed``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, BinaryIO

import numpy as np

from nineball.__about__ import __version__
from nineball.errors import NineballError, ProtocolError
from nineball.game import MAX_LINE_BYTES, MatchConfig, Stroke, decode_line, dump_line
from nineball.game.match import Match
from nineball.players.base import Player
from nineball.players.ghost import GhostBallPlayer
from nineball.players.protocol.wire import (
    MatchSetup,
    answer_json,
    hello_json,
    match_from_json,
    noise_from_json,
    position_from_json,
)

__all__ = ["EngineSession", "serve_engine"]

JSON = dict[str, Any]

_CHUNK = 65_536
"""How much of an overlong line is read at a time while it is skipped."""

_WARMED: set[str] = set()
"""The players that have made their warm-up decision in this process (the kernels they load
and the tables they fill are the process's, so once is enough)."""


class EngineSession:
    """A built-in player speaking the engine protocol: a message in, at most one answer out.

    >>> from nineball.players import GhostBallPlayer
    >>> session = EngineSession(GhostBallPlayer())
    >>> session.handle({"type": "hello", "protocols": [1]})["name"]
    'ghost'
    """

    def __init__(self, player: Player, *, name: str | None = None) -> None:
        """Answer with ``player``, announced as ``name`` (default: the player's own name)."""
        self.player = player
        self.name = name or player.name
        self.setup: MatchSetup | None = None
        """The match in progress (its ``new_match``)."""
        self.finished = False
        """True once nineball said ``quit``."""

    def handle(self, message: object) -> JSON | None:
        """The answer to one of nineball's messages (None when it needs none).

        A message this side does not understand is answered with a ``log`` line saying so (it
        would be nineball's bug, not the program's); nothing raises.
        """
        if not isinstance(message, dict):
            return _log(f"not a message: {message!r:.80}")
        kind = message.get("type")
        try:
            if kind == "hello":
                return hello_json(name=self.name, author="nineball", version=__version__)
            if kind == "new_match":
                self.setup = match_from_json(message)
                return None
            if kind == "ready":
                self._warm_up()
                return {"type": "readyok"}
            if kind == "turn":
                return self._turn(message)
            if kind == "quit":
                self.finished = True
                return None
            if kind in ("option", "result", "error", "match_over"):
                return None
        except (ProtocolError, NineballError) as exc:
            return _log(f"cannot answer {kind!r}: {exc}")
        return _log(f"unknown message type {kind!r}")

    def _warm_up(self) -> None:
        """Once a process and player, before ``readyok``: one decision on a fixed position.

        It loads the compiled kernels and fills the player's caches while no clock runs (the
        start time), as a chess engine initialises before its ``readyok``; the decision is
        thrown away.
        """
        if self.player.name in _WARMED:
            return
        _WARMED.add(self.player.name)
        match = Match(MatchConfig(players=("a", "b"), race_to=1), seed=0)
        match.place_cue_ball((0.6, 0.4))
        match.strike(Stroke(speed=0.0, aim=1.0))  # a foul break: the cue ball in hand
        self.player.decide(match.position, np.random.default_rng(0))

    def _turn(self, message: Mapping[str, Any]) -> JSON:
        if self.setup is None:
            raise ProtocolError("a turn before any new_match")
        view = position_from_json(self.setup, message["position"])
        self.player.noise = noise_from_json(message["noise"])
        rng = np.random.default_rng(int(message["seed"]))
        turn = int(message["id"])
        if message["action"] == "choice":
            return answer_json(turn, self.player.answer_push_out(view, rng))
        try:
            decided = self.player.decide(view, rng)
        except NineballError:  # pragma: no cover - a built-in player found nothing to play
            decided = GhostBallPlayer().decide(view, rng)
        return answer_json(turn, decided)


def _log(text: str) -> JSON:
    return {"type": "log", "text": text}


def serve_engine(session: EngineSession, source: BinaryIO, sink: BinaryIO) -> int:
    """Speak the protocol over ``source`` and ``sink`` until ``quit`` or the end of input.

    Each answer is one line, flushed at once. An overlong or unreadable line from nineball is
    answered with a ``log`` line. Returns the exit status (0).
    """
    limit = MAX_LINE_BYTES + 2
    while not session.finished and (raw := source.readline(limit)):
        if len(raw) == limit and not raw.endswith(b"\n"):
            rest = raw
            while rest and not rest.endswith(b"\n"):
                rest = source.readline(_CHUNK)
            reply: JSON | None = _log("a line over the protocol's limit was skipped")
        else:
            try:
                reply = session.handle(decode_line(raw.decode("utf-8")))
            except (ProtocolError, UnicodeDecodeError) as exc:
                reply = _log(f"unreadable line: {exc}")
        if reply is None:
            continue
        try:
            sink.write(dump_line(reply).encode("utf-8") + b"\n")
            sink.flush()
        except BrokenPipeError:  # pragma: no cover - nineball went away
            return 0
    return 0
