"""The sessions of a server: in memory, and in the SQLite store for those that are stored.

:class:`SessionRegistry` keeps the sessions in memory and in the store (the match through the
game's :class:`~nineball.game.Store`, the session's mode and token digests in a table of its own),
so a server restart or a closed tab finds the match where it stood. It forgets, from memory only,
sessions idle for longer than ``idle_seconds`` and, beyond ``max_sessions``, the least recently
active ones: a stored match comes back from the store the next time a page asks for it; a practice
session (never stored) is gone, and the page sets its position up again.
"""

from __future__ import annotations

import json
import math
import secrets
import sqlite3
import time
from collections.abc import Callable
from pathlib import Path

from nineball.errors import InvalidInputError
from nineball.game import Match, MatchConfig, SavedMatch, Seat, Store, default_db_path
from nineball.players.registry import PLAYERS
from nineball.web.seats import ActionError, Mode
from nineball.web.session import GameSession

__all__ = ["DEFAULT_IDLE_SECONDS", "DEFAULT_MAX_SESSIONS", "SessionRegistry"]

DEFAULT_IDLE_SECONDS = 4 * 3600.0
"""A session no page has acted in or joined for this long (s) is forgotten from memory."""

DEFAULT_MAX_SESSIONS = 500
"""The most sessions kept in memory; beyond it the least recently active are forgotten."""


class SessionRegistry:
    """The sessions of a server: in memory, and in the store for those that are stored."""

    def __init__(
        self,
        store_path: Path | str | None = None,
        *,
        idle_seconds: float = DEFAULT_IDLE_SECONDS,
        max_sessions: int = DEFAULT_MAX_SESSIONS,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """Open the store (the default database when ``store_path`` is None).

        Args:
            store_path: the SQLite database.
            idle_seconds: forget a session from memory after this long without activity (s).
            max_sessions: the most sessions kept in memory.
            clock: seconds from any origin (injected by tests).

        Raises:
            InvalidInputError: a limit that is not positive.
        """
        if not (math.isfinite(idle_seconds) and idle_seconds > 0):
            raise InvalidInputError(f"idle_seconds must be positive, got {idle_seconds!r}")
        if isinstance(max_sessions, bool) or max_sessions < 1:
            raise InvalidInputError(f"max_sessions must be at least 1, got {max_sessions!r}")
        self.idle_seconds = idle_seconds
        self.max_sessions = max_sessions
        self.clock = clock
        self._active: dict[str, float] = {}
        """When each session in memory was last joined or acted in (by :attr:`clock`)."""
        self.evicted: list[str] = []
        """The sessions forgotten by the last :meth:`evict`."""
        self.path = str(default_db_path() if store_path is None else store_path)
        self.store = Store(self.path)
        self._db = sqlite3.connect(self.path, timeout=30, isolation_level=None)
        self._db.execute("PRAGMA busy_timeout=30000")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS web_sessions (id TEXT PRIMARY KEY, match_id INTEGER,"
            " mode TEXT NOT NULL, level TEXT NOT NULL, computer_seat INTEGER, tokens TEXT NOT NULL)"
        )
        self.sessions: dict[str, GameSession] = {}

    def close(self) -> None:
        """Close the databases."""
        self._db.close()
        self.store.close()

    def _keep(self, session: GameSession) -> GameSession:
        """Hold ``session`` in memory as active now, and forget those that must go."""
        self.sessions[session.id] = session
        self._active[session.id] = self.clock()
        self.evict(keep=session.id)
        return session

    def evict(self, *, keep: str | None = None) -> list[str]:
        """Forget idle sessions, then the least recently active ones beyond the cap.

        Only memory is freed: a stored match stays in the store and comes back on :meth:`get`.

        Args:
            keep: a session never evicted now (the one being used).

        Returns:
            The ids forgotten, oldest activity first.
        """
        now = self.clock()
        by_age = sorted((t, sid) for sid, t in self._active.items() if sid != keep)
        gone = [sid for t, sid in by_age if now - t >= self.idle_seconds]
        left = [sid for _, sid in by_age if sid not in gone]
        excess = len(self.sessions) - len(gone) - self.max_sessions
        if excess > 0:
            gone += left[:excess]
        for sid in gone:
            del self.sessions[sid]
            del self._active[sid]
        self.evicted = gone
        return gone

    def create(
        self,
        mode: Mode,
        config: MatchConfig,
        *,
        level: str = "ghost",
        human_seat: Seat = Seat.FIRST,
        seed: int | None = None,
    ) -> tuple[GameSession, dict[str, str]]:
        """Start a session; returns it and its tokens by role (``"0"``, ``"1"`` or ``"both"``).

        Raises:
            InvalidInputError: an unknown level.
        """
        if level not in PLAYERS:
            raise InvalidInputError(f"unknown level {level!r} (known: {', '.join(PLAYERS)})")
        session_id = secrets.token_urlsafe(12)
        computer_seat = human_seat.other if mode is Mode.COMPUTER else None
        agents = ("human", "human")
        if computer_seat is not None:
            agents = (level, "human") if computer_seat is Seat.FIRST else ("human", level)
        match: Match | None = None
        scored: SavedMatch | None = None
        if mode is Mode.SCORE:
            scored = SavedMatch.start(
                self.store, config, event="scored in the browser", agents=agents
            )
        else:
            store = None if mode is Mode.PRACTICE else self.store
            match = Match(config, seed=seed, store=store, event=f"web {mode.value}", agents=agents)
        session = GameSession(
            session_id, mode, match=match, scored=scored, level=level, computer_seat=computer_seat
        )
        tokens: dict[str, str] = {}
        if mode is Mode.NETWORK:
            tokens["0"] = session.add_token(frozenset({Seat.FIRST}))
            tokens["1"] = session.add_token(frozenset({Seat.SECOND}))
        elif mode is Mode.COMPUTER:
            tokens[str(int(human_seat))] = session.add_token(frozenset({human_seat}))
        else:
            tokens["both"] = session.add_token(frozenset(Seat))
        stored_id = match.match_id if match is not None else scored.match_id  # type: ignore[union-attr]
        if stored_id is not None:
            self._db.execute(
                "INSERT INTO web_sessions VALUES (?, ?, ?, ?, ?, ?)",
                (session_id, stored_id, mode.value, level,
                 None if computer_seat is None else int(computer_seat),
                 json.dumps(session.digests)),
            )  # fmt: skip
        return self._keep(session), tokens

    def get(self, session_id: str) -> GameSession:
        """The session with this id, from memory or from the store; it counts as active now.

        Raises:
            ActionError: no such session (or a practice session that was forgotten).
        """
        if session_id in self.sessions:
            return self._keep(self.sessions[session_id])
        row = self._db.execute(
            "SELECT match_id, mode, level, computer_seat, tokens FROM web_sessions WHERE id = ?",
            (session_id,),
        ).fetchone()
        if row is None:
            raise ActionError(f"no match {session_id[:16]!r} on this server")
        match_id, mode_name, level, computer_seat, tokens = row
        mode = Mode(mode_name)
        seats = {d: frozenset(Seat(s) for s in v) for d, v in json.loads(tokens).items()}
        match: Match | None = None
        scored: SavedMatch | None = None
        if mode is Mode.SCORE:
            scored = SavedMatch.resume(self.store, match_id)
        else:
            match = Match.resume(self.store, match_id)
        session = GameSession(
            session_id, mode, match=match, scored=scored, level=level,
            computer_seat=None if computer_seat is None else Seat(computer_seat),
            seats_by_digest=seats,
        )  # fmt: skip
        return self._keep(session)
