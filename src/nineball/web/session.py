"""Matches in play on the server: who may act in each, and what the pages are told.

A :class:`GameSession` wraps one :class:`~nineball.game.match.Match` (or, for the scorekeeper,
a :class:`~nineball.game.saved.SavedMatch` of a real table) under an opaque id, with secret seat
tokens: a token lets its holder act for one seat (network play) or both (two players on one
screen). A page without a token is a spectator and may only read. Every action checks the token's
seats against the seat to act, then calls the game layer, which refuses illegal actions before
changing anything.

:class:`SessionRegistry` keeps the sessions in memory and in the SQLite store (the match through
the game's :class:`~nineball.game.store.Store`, the session's mode and token digests in a table of
its own), so a server restart or a closed tab finds the match where it stood. It forgets, from
memory only, sessions idle for longer than ``idle_seconds`` and, beyond ``max_sessions``, the
least recently active ones: a stored match comes back from the store the next time a page asks
for it; a practice session (never stored) is gone, and the page sets its position up again.
"""

from __future__ import annotations

import copy
import hashlib
import json
import math
import secrets
import sqlite3
import time
from collections.abc import Callable, Mapping
from enum import StrEnum
from pathlib import Path

from nineball.equipment import BallId, PocketId
from nineball.errors import IllegalActionError, InvalidInputError, NineballError
from nineball.game import (
    Choice,
    MatchConfig,
    MatchState,
    Phase,
    PhysicsParams,
    Ruling,
    Seat,
    ShotFacts,
    Stroke,
    TableSpec,
    Trajectory,
)
from nineball.game.layout import Point
from nineball.game.match import TABLES, Match, ShotReport
from nineball.game.record import MatchRecord, ShotKind, ShotRecord, iter_rulings
from nineball.game.saved import SavedMatch
from nineball.game.store import Store, default_db_path
from nineball.players import Player, play_turn, turn_rng, view_of
from nineball.players.analysis import analyse, expected_path
from nineball.players.registry import PLAYERS
from nineball.players.search import LEVELS as SEARCH_LEVELS
from nineball.web.protocol import Message
from nineball.web.segments import trajectory_json

__all__ = [
    "ANALYSIS_LEVEL",
    "DEFAULT_IDLE_SECONDS",
    "DEFAULT_MAX_SESSIONS",
    "LEVELS",
    "ActionError",
    "GameSession",
    "Mode",
    "SessionRegistry",
    "ruling_json",
    "state_json",
    "table_json",
]

LEVELS: dict[str, Callable[[], Player]] = dict(PLAYERS)
"""The computer's levels, weakest first: the ghost-ball player, then the search levels."""

ANALYSIS_LEVEL = "advanced"
"""The search level of practice's analysis when the session's level is not a search level."""

ANALYSIS_SHOTS = 3
"""How many of the best shots the analysis draws."""

DEFAULT_IDLE_SECONDS = 4 * 3600.0
"""A session no page has acted in or joined for this long (s) is forgotten from memory."""

DEFAULT_MAX_SESSIONS = 500
"""The most sessions kept in memory; beyond it the least recently active are forgotten."""

_PRACTICE_UNDO = 100
"""Practice keeps this many positions to undo to."""


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


class ActionError(InvalidInputError):
    """An action refused by the session (not your turn, a spectator, a wrong mode)."""


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def table_json(table: TableSpec, radius: float) -> dict[str, object]:
    """The table's geometry for drawing it to scale (m)."""
    return {
        "width": table.width,
        "length": table.length,
        "radius": radius,
        "head_string": table.head_string,
        "foot_spot": list(table.foot_spot),
        "segments": [[float(v) for v in row[:4]] for row in table.segments],
        "jaws": [[float(v) for v in row] for row in table.jaws],
        "points": [[[float(p[0]), float(p[1])] for p in pair] for pair in table.points],
        "pockets": {p.value: list(table.pocket_centre(p)) for p in PocketId},
    }


def state_json(state: MatchState) -> dict[str, object]:
    """The referee's state as the page shows it."""
    game = state.game
    return {
        "phase": state.phase.value,
        "to_act": int(state.to_act),
        "cue_ball": state.cue_ball.value,
        "push_out_allowed": state.push_out_allowed,
        "lowest": int(min(game.on_table)) if game.on_table else None,
        "on_table": sorted(int(b) for b in game.on_table),
        "score": list(state.score),
        "race_to": state.config.race_to,
        "players": list(state.config.players),
        "game": game.number,
        "breaker": int(game.breaker),
        "consecutive_fouls": list(game.consecutive_fouls),
        "winner": None if state.winner is None else int(state.winner),
    }


def ruling_json(ruling: Ruling, game: int) -> dict[str, object]:
    """A ruling with its explanation in every language and the clause of each foul."""
    over = ruling.game_over
    return {
        "game": game,
        "kind": ruling.kind.value,
        "shooter": int(ruling.shooter),
        "legal": ruling.legal,
        "fouls": [{"code": f.value, "clause": f.clause} for f in ruling.fouls],
        "warning": ruling.warning,
        "respotted": [int(b) for b in ruling.respotted],
        "game_over": None
        if over is None
        else {"game": over.game, "winner": int(over.winner), "reason": over.reason.value},
        "match_winner": None if ruling.match_winner is None else int(ruling.match_winner),
        "explanation": {
            "en": ruling.explanation.en,
            "fr": ruling.explanation.fr,
            "pl": ruling.explanation.pl,
        },
    }


def _layout_json(layout: dict[BallId, Point]) -> dict[str, list[float]]:
    return {str(int(b)): [p[0], p[1]] for b, p in sorted(layout.items())}


def _paths(trajectory: Trajectory, points: int = 40) -> dict[str, list[list[float]]]:
    """The cue ball's path and the first ball it hits, as polylines (m) for the page."""
    first = trajectory.facts().first_contact
    wanted = {0} if first is None else {0, first}
    times = [trajectory.duration * k / (points - 1) for k in range(points)]
    where = trajectory.positions_at(times)
    return {
        str(ball): [[round(float(p[0]), 4), round(float(p[1]), 4)] for p in where[:, index, :2]]
        for index, ball in enumerate(trajectory.ball_ids)
        if int(ball) in wanted
    }


class GameSession:
    """One match in play, with its seats' tokens."""

    def __init__(
        self,
        session_id: str,
        mode: Mode,
        *,
        match: Match | None = None,
        scored: SavedMatch | None = None,
        level: str = "ghost",
        computer_seat: Seat | None = None,
        seats_by_digest: dict[str, frozenset[Seat]] | None = None,
    ) -> None:
        """Wrap a match (or a scored match) under ``session_id``."""
        self.id = session_id
        self.mode = mode
        self.match = match
        self.scored = scored
        self.level = level
        self.computer_seat = computer_seat
        self.computer: Player | None = None if computer_seat is None else LEVELS[level]()
        self._seats = dict(seats_by_digest or {})
        self.history: list[dict[str, object]] = []
        self.last_shot: dict[str, object] | None = None
        self._undo: list[tuple[Match, list[dict[str, object]]]] = []
        """Practice: the positions before each change, to undo ball moves as well as strokes."""
        record = self.record_state()
        if record is not None:
            for entry in iter_rulings(record):
                self.history.append(ruling_json(entry.ruling, entry.ruling.state.game.number))

    # ------------------------------------------------------------------ seats and state

    def record_state(self) -> MatchRecord | None:
        """The match record (for the history), if any."""
        if self.match is not None:
            return self.match.record
        return None if self.scored is None else self.scored.record

    @property
    def state(self) -> MatchState:
        """The referee's state."""
        if self.match is not None:
            return self.match.state
        if self.scored is None:  # pragma: no cover - a session always has one of the two
            raise IllegalActionError("the session has no match")
        return self.scored.state

    def seats_of(self, token: str | None) -> frozenset[Seat]:
        """The seats a token acts for (none: a spectator)."""
        if token is None:
            return frozenset()
        for digest, seats in self._seats.items():
            if secrets.compare_digest(digest, _digest(token)):
                return seats
        raise ActionError("this link's token is not valid for this match")

    def add_token(self, seats: frozenset[Seat]) -> str:
        """A new secret token acting for ``seats``."""
        token = secrets.token_urlsafe(18)
        self._seats[_digest(token)] = seats
        return token

    @property
    def digests(self) -> dict[str, list[int]]:
        """The token digests and their seats (what the database keeps)."""
        return {d: sorted(int(s) for s in seats) for d, seats in self._seats.items()}

    def snapshot(self, seats: frozenset[Seat]) -> dict[str, object]:
        """Everything a page needs to draw the match as it stands."""
        state = self.state
        out: dict[str, object] = {
            "type": "state",
            "match": self.id,
            "mode": self.mode.value,
            "level": self.level,
            "seats": sorted(int(s) for s in seats),
            "computer_seat": None if self.computer_seat is None else int(self.computer_seat),
            "state": state_json(state),
            "history": self.history,
            "stored_id": None,
        }
        if self.match is not None:
            out["table"] = table_json(self.match.table, self.match.params.radius)
            out["layout"] = _layout_json(self.match.layout)
            cue = self.match.cue_ball
            out["cue"] = None if cue is None else list(cue)
            out["in_hand"] = self.match.cue_ball_in_hand
            out["stored_id"] = self.match.match_id
        else:  # a real table: drawn at the standard size for entering what happened on it
            out["table"] = table_json(TABLES["9ft"](), PhysicsParams().radius)
            out["stored_id"] = None if self.scored is None else self.scored.match_id
        return out

    def _before(self) -> tuple[Match, list[dict[str, object]]] | None:
        """Practice: a copy of the position and history, kept once the change succeeds."""
        if self.mode is not Mode.PRACTICE or self.match is None:
            return None
        shared = {id(self.match.table): self.match.table, id(self.match.params): self.match.params}
        return copy.deepcopy(self.match, shared), list(self.history)

    def _changed(self, before: tuple[Match, list[dict[str, object]]] | None) -> None:
        if before is not None:
            self._undo = [*self._undo[-(_PRACTICE_UNDO - 1) :], before]

    # ------------------------------------------------------------------ actions

    def _require_turn(self, seats: frozenset[Seat]) -> None:
        state = self.state
        if not seats:
            raise ActionError("spectators cannot act")
        if state.is_over:
            raise ActionError("the match is over")
        if state.to_act not in seats:
            raise ActionError(f"it is not your turn: {state.name(state.to_act)} is to act")

    def _require(self, seats: frozenset[Seat]) -> Match:
        self._require_turn(seats)
        if self.match is None:
            raise ActionError("this match is kept by hand: enter what happened at the table")
        return self.match

    def _require_practice(self, seats: frozenset[Seat]) -> Match:
        if self.mode is not Mode.PRACTICE:
            raise ActionError(f"only in practice, not in a {self.mode.value} match")
        if not seats or self.match is None:
            raise ActionError("spectators cannot act")
        return self.match

    def check(self, x: float, y: float) -> str | None:
        """Why the cue ball in hand may not go to (x, y), or None when it may."""
        if self.match is None:
            return "no table"
        try:
            self.match.check_cue_ball((x, y))
        except NineballError as error:
            return str(error)
        return None

    def place(self, seats: frozenset[Seat], x: float, y: float) -> None:
        """Place the cue ball in hand (refused when it is not allowed there)."""
        self._require(seats).place_cue_ball((x, y))

    def strike(self, seats: frozenset[Seat], message: Message) -> list[dict[str, object]]:
        """Play a stroke; then the computer's turns, if it is to act. Returns the shots."""
        match = self._require(seats)
        cue = message.fields["cue"]
        if isinstance(cue, tuple):
            match.place_cue_ball((float(cue[0]), float(cue[1])))
        stroke = Stroke(
            speed=message.number("speed"),
            aim=math.remainder(message.number("aim"), 2 * math.pi),
            elevation=message.number("elevation"),
            side=message.number("side"),
            height=message.number("height"),
        )
        push_out = message.fields["push_out"] is True
        if push_out and not match.state.push_out_allowed:
            raise ActionError("a push out is not allowed now (clause 5)")
        before = self._before()
        report = match.strike(stroke, push_out=push_out)
        self._changed(before)
        return [self._shot(report, None)]

    def _shot(self, report: ShotReport | None, ruling: Ruling | None) -> dict[str, object]:
        if report is not None:
            ruling = report.ruling
        if ruling is None:  # pragma: no cover - one of the two is always given
            raise IllegalActionError("nothing was played")
        entry = ruling_json(ruling, self._game_of(ruling))
        self.history.append(entry)
        out: dict[str, object] = {
            "type": "shot" if report is not None else "ruling",
            "ruling": entry,
            "state": state_json(ruling.state),
        }
        if report is not None:
            out["trajectory"] = trajectory_json(report.trajectory)
            out["start"] = _layout_json(
                {BallId(b): (float(r[0]), float(r[1]))
                 for b, r in zip(report.trajectory.ball_ids, report.trajectory.initial[:, 0],
                                 strict=True)}
            )  # fmt: skip
        if self.match is not None:
            out["layout"] = _layout_json(self.match.layout)
            out["in_hand"] = self.match.cue_ball_in_hand
            cue = self.match.cue_ball
            out["cue"] = None if cue is None else list(cue)
        if report is not None:
            self.last_shot = out
        return out

    def _game_of(self, ruling: Ruling) -> int:
        if ruling.game_over is not None:
            return ruling.game_over.game
        return ruling.state.game.number

    def choose(self, seats: frozenset[Seat], choice: str) -> list[dict[str, object]]:
        """Answer a legal push out; then the computer's turns."""
        self._require_turn(seats)
        if self.state.phase is not Phase.PUSH_OUT_CHOICE:
            raise ActionError("there is no push out to answer")
        if self.match is not None:
            before = self._before()
            ruling = self.match.choose(Choice(choice))
            self._changed(before)
        else:
            ruling = self._scored().play(
                ShotRecord(kind=ShotKind.CHOICE, player=self.state.to_act, choice=Choice(choice))
            )
        return [self._shot(None, ruling)]

    def forfeit(self, seats: frozenset[Seat]) -> list[dict[str, object]]:
        """The player to act concedes the game."""
        self._require_turn(seats)
        seat = self.state.to_act
        if self.match is not None:
            before = self._before()
            ruling = self.match.forfeit(seat)
            self._changed(before)
        else:
            ruling = self._scored().play(ShotRecord(kind=ShotKind.FORFEIT, player=seat))
        return [self._shot(None, ruling)]

    def undo(self, seats: frozenset[Seat]) -> None:
        """Take back the last entry (practice, two players on one screen, scorekeeper)."""
        if self.mode not in (Mode.PRACTICE, Mode.LOCAL, Mode.SCORE):
            raise ActionError(f"undo is not allowed in a {self.mode.value} match")
        if not seats:
            raise ActionError("spectators cannot act")
        if self.mode is Mode.PRACTICE:
            if not self._undo:
                raise ActionError("nothing to undo")
            self.match, self.history = self._undo.pop()
            self.last_shot = None
            return
        try:
            if self.match is not None:
                self.match.undo()
            else:
                self._scored().undo()
        except IndexError:
            raise ActionError("nothing to undo") from None
        if self.history:
            self.history.pop()
        self.last_shot = None

    def _scored(self) -> SavedMatch:
        if self.scored is None:
            raise ActionError("this match is played on the simulated table")
        return self.scored

    def facts(self, seats: frozenset[Seat], message: Message) -> list[dict[str, object]]:
        """A stroke at a real table, as the scorekeeper entered it."""
        self._require_turn(seats)
        saved = self._scored()
        first = message.fields["first"]
        pocketed = message.fields["pocketed"]
        rails = message.fields["rails"]
        off = message.fields["off_table"]
        facts = ShotFacts.of(
            first_contact=first if isinstance(first, int) else None,
            pocketed=list(pocketed) if isinstance(pocketed, tuple) else [],
            rails=list(rails) if isinstance(rails, tuple) else [],
            off_table=list(off) if isinstance(off, tuple) else [],
            obstruction_moved=message.fields.get("obstruction_moved") is True,
        )
        shot = ShotRecord(
            kind=ShotKind.STROKE,
            player=self.state.to_act,
            push_out=message.fields["push_out"] is True,
            facts=facts,
        )
        return [self._shot(None, saved.play(shot))]

    def move_ball(self, seats: frozenset[Seat], ball: int, x: float, y: float) -> None:
        """Practice: put a ball anywhere on the table, not overlapping another.

        A ball that was pocketed (or taken off) goes back on the table, and the referee counts it
        again.
        """
        match = self._require_practice(seats)
        r = match.params.radius
        table = match.table
        if not (r <= x <= table.width - r and r <= y <= table.length - r):
            raise ActionError(f"({x:.3f}, {y:.3f}) m is off the playing surface")
        others = dict(match.layout)
        if match.cue_ball is not None:
            others[BallId.CUE] = match.cue_ball
        for other, (bx, by) in others.items():
            if other != ball and math.hypot(bx - x, by - y) < 2 * r + 1e-6:
                raise ActionError(f"the {ball} would touch the {int(other)}")
        before = self._before()
        if ball == 0 and match.cue_ball_in_hand:
            match.place_cue_ball((x, y))
        elif ball != 0 and BallId(ball) not in match.state.on_table:
            if match.state.is_over or match.state.phase is Phase.PUSH_OUT_CHOICE:
                raise ActionError("no ball can go back on the table now")
            match.set_position(others | {BallId(ball): (x, y)})
        else:
            try:
                match.move_ball(BallId(ball), (x, y))
            except NineballError as error:
                raise ActionError(str(error)) from None
        self._changed(before)

    def remove_ball(self, seats: frozenset[Seat], ball: int) -> None:
        """Practice: take a ball off the table; the referee no longer counts it (not the 9)."""
        match = self._require_practice(seats)
        if BallId(ball) not in match.layout:
            raise ActionError(f"the {ball} is not on the table")
        layout = dict(match.layout)
        if match.cue_ball is not None:
            layout[BallId.CUE] = match.cue_ball
        del layout[BallId(ball)]
        self._set_position(match, layout)

    def setup(self, seats: frozenset[Seat], balls: Mapping[int, tuple[float, float]]) -> None:
        """Practice: set the whole position up (a position the page kept, restored)."""
        match = self._require_practice(seats)
        self._set_position(match, {BallId(b): p for b, p in balls.items()})

    def _set_position(self, match: Match, layout: dict[BallId, Point]) -> None:
        before = self._before()
        try:
            match.set_position(layout)
        except NineballError as error:
            raise ActionError(str(error)) from None
        self._changed(before)

    def analysis(self, seats: frozenset[Seat]) -> dict[str, object]:
        """Practice: the computer's best few shots here, with their paths and their odds.

        With the cue ball in hand, the cue ball is where the computer would place it.

        Each shot has its stroke, what it tries, its estimated success and foul rates under the
        level's execution noise, and the paths (m) of the cue ball and of the first ball it hits
        when the stroke is played exactly as intended.
        """
        match = self._require_practice(seats)
        if match.state.phase is Phase.PUSH_OUT_CHOICE or match.state.is_over:
            raise ActionError("no stroke to analyse now")
        if BallId(match.state.lowest) not in match.layout:
            raise ActionError(f"the {int(match.state.lowest)} is not on the table")
        level = self.level if self.level in SEARCH_LEVELS else ANALYSIS_LEVEL
        view = view_of(match)
        found = analyse(view, turn_rng(match), level=level, top=ANALYSIS_SHOTS)
        cue = found.cue_ball  # in hand: where the computer would place it
        shots = []
        for candidate in found.candidates:
            stroke = candidate.stroke
            path = expected_path(view, cue, candidate)
            shots.append(
                {
                    "kind": candidate.kind,
                    "target": candidate.target,
                    "ball": candidate.ball,
                    "pocket": candidate.pocket,
                    "other": candidate.other,
                    "success": candidate.success,
                    "foul": candidate.foul,
                    "value": candidate.value,
                    "stroke": {"speed": stroke.speed, "aim": stroke.aim, "side": stroke.side,
                               "height": stroke.height, "elevation": stroke.elevation},
                    "paths": _paths(path),
                }
            )  # fmt: skip
        best = shots[0]["stroke"] if shots else None
        return {"type": "analysis", "level": level, "cue": list(cue), "stroke": best,
                "shots": shots}  # fmt: skip

    def computer_turn(self) -> dict[str, object] | None:
        """Let the computer act once if it is its turn; the shot, or None when it is not."""
        if self.match is None or self.computer is None:
            return None
        state = self.match.state
        if state.is_over or state.to_act is not self.computer_seat:
            return None
        turn = play_turn(self.match, self.computer)
        return self._shot(turn.report, turn.ruling)


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
        if level not in LEVELS:
            raise InvalidInputError(f"unknown level {level!r} (known: {', '.join(LEVELS)})")
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
