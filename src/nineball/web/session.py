"""A match in play on the server: who may act in it, and what the pages are told.

A :class:`GameSession` wraps one :class:`~nineball.game.Match` (or, for the scorekeeper, a
:class:`~nineball.game.SavedMatch` of a real table) under an opaque id, with secret seat tokens
(:mod:`nineball.web.seats`): a token lets its holder act for one seat (network play) or both (two
players on one screen). A page without a token is a spectator and may only read. Every action
checks the token's seats against the seat to act, then calls the game layer, which refuses
illegal actions before changing anything. The sessions of a server are kept by
:class:`nineball.web.registry.SessionRegistry`.
"""

from __future__ import annotations

import copy
import math
from collections.abc import Mapping

from nineball.equipment import BallId
from nineball.errors import IllegalActionError, NineballError
from nineball.game import (
    TABLES,
    Choice,
    CueBall,
    Match,
    MatchRecord,
    MatchState,
    Phase,
    PhysicsParams,
    Point,
    Ruling,
    SavedMatch,
    Seat,
    ShotFacts,
    ShotKind,
    ShotRecord,
    ShotReport,
    Stroke,
    check_placement,
    iter_rulings,
    stroke_limits,
)
from nineball.players import Player, turn_rng, view_of
from nineball.players.analysis import analyse, expected_path
from nineball.players.base import Decision
from nineball.players.play import carry_out, decide_turn
from nineball.players.registry import PLAYERS
from nineball.players.search import LEVELS as SEARCH_LEVELS
from nineball.web.endings import match_stats_json, rack_json
from nineball.web.history import start_json
from nineball.web.preview import preview_json
from nineball.web.protocol import Aim, Facts, Preview, Strike
from nineball.web.seats import ActionError, Mode, SeatTokens
from nineball.web.segments import trajectory_json
from nineball.web.views import (
    chance_json,
    layout_json,
    paths_json,
    ruling_json,
    state_json,
    table_json,
)

__all__ = [
    "ANALYSIS_LEVEL",
    "ANALYSIS_SHOTS",
    "ActionError",
    "GameSession",
    "Mode",
]

ANALYSIS_LEVEL = "advanced"
"""The search level of practice's analysis when the session's level is not a search level."""

ANALYSIS_SHOTS = 3
"""How many of the best shots the analysis draws."""


_SPOT_STEP = (0.15, 0.1)
"""The grid of spots tried for the cue ball in hand, across and along the table (m)."""

_PRACTICE_UNDO = 100
"""Practice keeps this many positions to undo to."""


def _stroke(match: Match, message: Strike | Preview) -> Stroke:
    """The stroke of a page's message, checked against the match's stroke limits.

    Raises:
        InvalidInputError: a speed, elevation or tip offset beyond the limits, named.
    """
    stroke = Stroke(
        speed=message.speed,
        aim=math.remainder(message.aim, 2 * math.pi),
        elevation=message.elevation,
        side=message.side,
        height=message.height,
    )
    stroke_limits(match.params).check(stroke)
    return stroke


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
        self.computer: Player | None = None if computer_seat is None else PLAYERS[level]()
        self.tokens = SeatTokens(seats_by_digest)
        self.history: list[dict[str, object]] = []
        self.successor: tuple[str, dict[str, str]] | None = None
        """The network rematch made from this match: its session id and its tokens by role."""
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
        """The seats a token acts for (none: a spectator).

        Raises:
            ActionError: a token this session never gave out.
        """
        return self.tokens.seats_of(token)

    def add_token(self, seats: frozenset[Seat]) -> str:
        """A new secret token acting for ``seats``."""
        return self.tokens.add(seats)

    @property
    def digests(self) -> dict[str, list[int]]:
        """The token digests and their seats (what the database keeps)."""
        return self.tokens.digests

    def chance(self) -> dict[str, list[float]] | None:
        """Each player's chance of the game and the match as the position stands (the page's bar).

        None for a match kept by hand (no balls to value) or over (:func:`chance_json`).
        """
        return chance_json(None if self.match is None else self.match.position)

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
            "chance": self.chance(),
        }
        params = PhysicsParams() if self.match is None else self.match.params
        out["limits"] = stroke_limits(params).as_json()
        if self.match is not None:
            out["table"] = table_json(self.match.table, self.match.params.radius)
            out |= self._balls_json(self.match)
            out["stored_id"] = self.match.match_id
        else:  # a real table: drawn at the standard size for entering what happened on it
            out["table"] = table_json(TABLES["9ft"](), PhysicsParams().radius)
            out["stored_id"] = None if self.scored is None else self.scored.match_id
        out["rematch"] = self.rematch()
        record = self.record_state()
        if record is not None:
            if state.is_over:
                out["match_stats"] = match_stats_json(record)
            last = self.history[-1] if self.history else None
            over = None if last is None else last.get("game_over")
            if isinstance(over, dict) and (state.is_over or state.phase is Phase.BREAK):
                out["rack"] = rack_json(record, int(over["game"]))
        return out

    def _balls_json(self, match: Match) -> dict[str, object]:
        """The balls on the simulated table, and where the cue ball is or may be placed."""
        cue = match.cue_ball
        return {
            "layout": layout_json(match.layout),
            "cue": None if cue is None else list(cue),
            "in_hand": match.cue_ball_in_hand,
            "cue_spot": self.cue_spot(),
        }

    def check_rematch(self, seats: frozenset[Seat]) -> None:
        """Whether these seats may start the network rematch (:meth:`rematch`) of this match.

        Raises:
            IllegalActionError: not a network match, a spectator, or the match is not over.
        """
        if self.mode is not Mode.NETWORK:
            raise IllegalActionError(
                f"a rematch over the network is for network matches, not {self.mode.value}"
            )
        if not seats:
            raise IllegalActionError("a spectator cannot start a rematch")
        if not self.state.is_over:
            raise IllegalActionError("the match is not over: a rematch follows its end")

    def rematch(self) -> dict[str, object]:
        """The body of ``POST /api/matches`` for a fresh match like this one (a rematch)."""
        config = self.state.config
        body: dict[str, object] = {
            "mode": self.mode.value,
            "players": list(config.players),
            "race_to": config.race_to,
            "first_breaker": int(config.first_breaker),
            "breaks": config.breaks.value,
            "rules": config.rules.name,
        }
        if self.computer_seat is not None:
            body["level"] = self.level
            body["human_seat"] = 1 - int(self.computer_seat)
        return body

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

    def check(self, ball: int, x: float, y: float) -> str | None:
        """Why ``ball`` may not go to (x, y) now, or None when it may (the game's own checks).

        The cue ball in hand is checked as :meth:`~nineball.game.Match.place_cue_ball` would;
        in practice any other ball as :meth:`move_ball` would put it (anywhere on the surface,
        touching no other ball).
        """
        if self.match is None:
            return "no table"
        try:
            if (
                ball == BallId.CUE and self.match.cue_ball_in_hand
            ) or self.mode is not Mode.PRACTICE:
                self.match.check_cue_ball((x, y))
            else:
                check_placement(
                    BallId(ball), (x, y), self.match.position.balls, CueBall.ANYWHERE,
                    self.match.table, self.match.params,
                )  # fmt: skip
        except NineballError as error:
            return str(error)
        return None

    def cue_spot(self) -> list[float] | None:
        """Where the page shows the cue ball in hand until it is dragged: a free spot (m).

        The middle of the kitchen on the break, else the first spot of a grid up the table from
        the kitchen's middle that the match accepts; None when the cue ball is not in hand.
        """
        match = self.match
        if match is None or not match.cue_ball_in_hand:
            return None
        table = match.table
        spots = [(table.width / 2, table.head_string / 2)] if (
            match.state.cue_ball is CueBall.KITCHEN
        ) else []  # fmt: skip
        rows = int((table.length - table.head_string / 2) / _SPOT_STEP[1]) + 1
        columns = int((table.width - _SPOT_STEP[0]) / _SPOT_STEP[0]) + 1
        spots += [
            (_SPOT_STEP[0] * (1 + c), table.head_string / 2 + _SPOT_STEP[1] * r)
            for r in range(rows)
            for c in range(columns)
        ]
        for spot in spots:
            if self.check(BallId.CUE, *spot) is None:
                return [spot[0], spot[1]]
        return None

    def place(self, seats: frozenset[Seat], x: float, y: float) -> None:
        """Place the cue ball in hand (refused when it is not allowed there)."""
        self._require(seats).place_cue_ball((x, y))

    def strike(self, seats: frozenset[Seat], message: Strike) -> list[dict[str, object]]:
        """Play a stroke; then the computer's turns, if it is to act. Returns the shots."""
        match = self._require(seats)
        stroke = _stroke(match, message)
        push_out = message.push_out
        # The match places the cue ball only if the stroke is played: a refused strike leaves
        # everything where it was.
        before = self._before()
        report = match.strike(stroke, cue=message.cue, push_out=push_out)
        self._changed(before)
        return [self._shot(report, None)]

    def preview(self, seats: frozenset[Seat], message: Preview) -> dict[str, object]:
        """The aiming aid: what this stroke would do, played without noise; nothing changes.

        Checked as :meth:`strike` checks it (the seat to act only, the stroke's limits, the
        place of a cue ball in hand); the engine's paths of the cue ball and the first ball it
        hits (:mod:`nineball.web.preview`), and the stroke asked about, for the page to match.
        """
        match = self._require(seats)
        outcome = match.preview(_stroke(match, message), cue=message.cue, push_out=message.push_out)
        asked = message.model_dump(exclude={"type"})
        asked["cue"] = None if message.cue is None else list(message.cue)
        return preview_json(outcome, lowest=int(match.state.lowest), push_out=message.push_out) | {
            "stroke": asked
        }

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
            "chance": self.chance(),
        }
        if report is not None:
            out["trajectory"] = trajectory_json(report.trajectory)
            out["start"] = start_json(report.trajectory)
        if self.match is not None:
            out |= self._balls_json(self.match)
        record = self.record_state()
        if ruling.game_over is not None and record is not None:
            out["rack"] = rack_json(record, ruling.game_over.game)
            if ruling.match_winner is not None:
                out["match_stats"] = match_stats_json(record)
        if report is not None:
            self.last_shot = out
        return out

    def aim(self, seats: frozenset[Seat], message: Aim) -> dict[str, object]:
        """The aim of the player to act, as the other pages are told it (nothing is stored).

        Raises:
            ActionError: a spectator, not this seat's turn, or a match kept by hand.
        """
        self._require(seats)
        fields = message.model_dump()
        fields["cue"] = list(message.cue)
        return fields | {"seat": int(self.state.to_act)}

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

    def facts(self, seats: frozenset[Seat], message: Facts) -> list[dict[str, object]]:
        """A stroke at a real table, as the scorekeeper entered it."""
        self._require_turn(seats)
        saved = self._scored()
        facts = ShotFacts.of(
            first_contact=message.first,
            pocketed=list(message.pocketed),
            rails=list(message.rails),
            off_table=list(message.off_table),
            obstruction_moved=message.obstruction_moved,
        )
        shot = ShotRecord(
            kind=ShotKind.STROKE,
            player=self.state.to_act,
            push_out=message.push_out,
            facts=facts,
        )
        return [self._shot(None, saved.play(shot))]

    def move_ball(self, seats: frozenset[Seat], ball: int, x: float, y: float) -> None:
        """Practice: put a ball anywhere on the table, not overlapping another.

        A ball that was pocketed (or taken off) goes back on the table, and the referee counts it
        again.
        """
        match = self._require_practice(seats)
        before = self._before()
        point = (x, y)
        if ball == BallId.CUE and match.cue_ball_in_hand:
            match.place_cue_ball(point)
        elif BallId(ball) in match.layout:
            match.move_ball(BallId(ball), point)
        else:  # a ball that went down goes back on the table
            match.set_position(match.position.balls | {BallId(ball): point})
        self._changed(before)

    def remove_ball(self, seats: frozenset[Seat], ball: int) -> None:
        """Practice: take a ball off the table; the referee no longer counts it (not the 9)."""
        match = self._require_practice(seats)
        if BallId(ball) not in match.layout:
            raise ActionError(f"the {ball} is not on the table")
        layout = match.position.balls
        del layout[BallId(ball)]
        self._set_position(match, layout)

    def setup(self, seats: frozenset[Seat], balls: Mapping[int, tuple[float, float]]) -> None:
        """Practice: set the whole position up (a position the page kept, restored)."""
        match = self._require_practice(seats)
        self._set_position(match, {BallId(b): p for b, p in balls.items()})

    def _set_position(self, match: Match, layout: dict[BallId, Point]) -> None:
        before = self._before()
        match.set_position(layout)
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
                    "paths": paths_json(path),
                }
            )  # fmt: skip
        best = shots[0]["stroke"] if shots else None
        return {"type": "analysis", "level": level, "cue": list(cue), "stroke": best,
                "shots": shots}  # fmt: skip

    def computer_decision(self) -> Decision | Choice | None:
        """What the computer will do, if it is its turn (None when it is not); changes nothing.

        The slow part of a computer turn (the search), safe in a worker thread while the
        session's lock keeps every other action of this session waiting.
        """
        if self.match is None or self.computer is None:
            return None
        state = self.match.state
        if state.is_over or state.to_act is not self.computer_seat:
            return None
        return decide_turn(self.match, self.computer)

    def computer_play(self, decided: Decision | Choice) -> dict[str, object]:
        """Play what :meth:`computer_decision` chose on the unchanged match; the shot."""
        if self.match is None or self.computer is None:  # pragma: no cover - decided above
            raise ActionError("no computer plays in this session")
        turn = carry_out(self.match, self.computer, decided)
        return self._shot(turn.report, turn.ruling)

    def computer_turn(self) -> dict[str, object] | None:
        """Let the computer act once if it is its turn; the shot, or None when it is not."""
        decided = self.computer_decision()
        return None if decided is None else self.computer_play(decided)
