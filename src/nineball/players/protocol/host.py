"""nineball's side of the engine protocol: a :class:`~nineball.players.Player` that is a program.

:class:`EnginePlayer` runs a program (any language) through a :class:`Connection`, asks it for
each action with a ``turn`` message and turns its answer into a
:class:`~nineball.players.Decision` or a :class:`~nineball.game.Choice`. It keeps the program's
clocks (:class:`TimeControl`) and applies the protocol's penalties (docs/engine-protocol.md,
"Faults"): a bad, illegal or late answer loses the shot (a zero-speed stroke, a foul; ``pass``
for a push-out answer); running out of the game's time forfeits the game; dying, hanging,
flooding, not reading or running out of the match's time forfeits the match, raised as
:class:`~nineball.errors.ForfeitError` for the caller to apply. Every fault is kept in
:attr:`EnginePlayer.faults`; nothing the program does can raise anything else.
"""

from __future__ import annotations

import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from nineball.errors import ForfeitError, ProtocolError
from nineball.game import (
    TABLES,
    Choice,
    ExecutionNoise,
    MatchConfig,
    Phase,
    PhysicsParams,
    Position,
    Seat,
    Stroke,
    TableSpec,
)
from nineball.players.base import Decision
from nineball.players.ghost import GhostBallPlayer
from nineball.players.protocol.connection import (
    Closed,
    Connection,
    Flooded,
    Line,
    LinkError,
    Silence,
)
from nineball.players.protocol.terms import Fault, SeatNoise, TimeControl
from nineball.players.protocol.wire import (
    PROTOCOL_VERSION,
    AnswerError,
    Hello,
    lost_decision,
    nineball_hello,
    noise_json,
    parse_answer,
    parse_hello,
    position_json,
    table_json,
)

__all__ = ["LOG_LINES", "EnginePlayer"]

LOG_LINES = 20
"""The most ``log`` lines kept per program and match (each cut to 300 characters)."""

_HUNG_AFTER = 2
"""Turns in a row a program may let run out without writing anything before it is taken to
have hung."""

JSON = dict[str, Any]


class EnginePlayer:
    """A player that is a program speaking the engine protocol.

    Start it for a match with :meth:`start_match` (the handshake, the options, ``new_match``,
    ``ready``); then it answers through the :class:`~nineball.players.Player` methods, and
    :meth:`observe` passes every result on to the program. :meth:`close` ends the program.
    Used without :meth:`start_match` (by :func:`nineball.players.play_match`), it starts itself
    at its first turn.
    """

    def __init__(
        self,
        connection: Connection,
        *,
        name: str = "engine",
        time_control: TimeControl | None = None,
        noise: SeatNoise | None = None,
        options: Mapping[str, object] | None = None,
    ) -> None:
        """A program on ``connection``, called ``name`` in the match.

        Args:
            connection: how to reach the program.
            name: its name in the match and the records.
            time_control: its clocks (default :class:`TimeControl`).
            noise: the noise nineball applies to its strokes (default: the tournament class).
            options: values for the options it declares (others are not sent, and noted).
        """
        self.connection = connection
        self.name = name
        self.time = time_control or TimeControl()
        self.seat_noise = noise or SeatNoise.of_class("tournament")
        self.noise: ExecutionNoise | None = self.seat_noise.for_game(seed=0, game=1)
        """The noise of the game in progress (set by :meth:`new_game`)."""
        self.options = dict(options or {})
        self.hello: Hello | None = None
        """What the program said of itself."""
        self.faults: list[Fault] = []
        """Every fault, in order."""
        self.logs: list[str] = []
        """The first :data:`LOG_LINES` ``log`` lines of the match."""
        self.turns = 0
        """Turns answered (or lost) this match."""
        self.thinking = 0.0
        """Seconds spent on the turns of this match."""
        self.longest = 0.0
        """The longest turn of this match, s."""
        self.dead: Fault | None = None
        """The fault that ended the program's match (None while it plays)."""
        self._turn_id = 0
        self._game = 0
        self._game_used = 0.0
        self._match_used = 0.0
        self._silent = 0
        self._opened = False
        self._launched = 0.0
        self._started = False

    # ------------------------------------------------------------------------------ faults

    def _fault(self, code: str, penalty: str, message: str, turn: int | None) -> Fault:
        fault = Fault(code=code, penalty=penalty, message=message, game=self._game, turn=turn)
        self.faults.append(fault)
        if penalty == "match" and self.dead is None:
            self.dead = fault
        return fault

    def _tell(self, fault: Fault) -> None:
        """Send the program an ``error`` about its fault, if it can still hear it."""
        if self.dead is not None:
            return
        message = {
            "type": "error",
            "id": fault.turn,
            "error": {"code": fault.code, "message": fault.message},
            "penalty": fault.penalty,
        }
        try:
            self.connection.send(message)
        except LinkError as exc:
            self._lost_link(exc)

    def _lost_link(self, exc: LinkError) -> Fault:
        fault = self._fault(exc.code, "match", str(exc), None)
        self.connection.kill()
        return fault

    def _forfeit(self, fault: Fault) -> ForfeitError:
        scope = "game" if fault.penalty == "game" else "match"
        return ForfeitError(
            f"{self.name} forfeits the {scope}: {fault.message}", scope=scope, fault=fault
        )

    def _fatal(self, code: str, message: str, turn: int | None) -> ForfeitError:
        fault = self._fault(code, "match", message, turn)
        self.connection.kill()
        return self._forfeit(fault)

    # ------------------------------------------------------------------------------ the match

    def launch(self) -> None:
        """Start the program and greet it, without waiting for its hello.

        :meth:`start_match` does it when it has not been done; calling it first for both
        players of a match lets the two programs start up at the same time. A program that
        cannot be started is recorded (``start_failed``) and forfeits the match.
        """
        if self._opened:
            return
        self._opened = True
        self._launched = time.monotonic()
        try:
            self.connection.open()
            self.connection.send(nineball_hello())
        except LinkError as exc:
            self._lost_link(exc)

    def _handshake(self) -> None:
        self.launch()
        if self.dead is not None:
            raise self._forfeit(self.dead)
        deadline = self._launched + self.time.start
        while True:
            incoming = self.connection.receive(deadline)
            if isinstance(incoming, Silence):
                raise self._fatal("handshake", f"no hello within {self.time.start:g} s", None)
            if isinstance(incoming, Closed | Flooded):
                raise self._fatal(*self._gone(incoming), None)
            if incoming.error is not None or _kind(incoming.value) != "hello":
                continue  # a banner before the hello is let pass
            try:
                hello = parse_hello(incoming.value)
            except ProtocolError as exc:
                raise self._fatal("handshake", str(exc), None) from None
            if hello.protocol != PROTOCOL_VERSION:
                raise self._fatal(
                    "handshake",
                    f"the program speaks protocol {hello.protocol}, nineball {PROTOCOL_VERSION}",
                    None,
                )
            self.hello = hello
            return

    def _gone(self, incoming: Closed | Flooded) -> tuple[str, str]:
        if isinstance(incoming, Flooded):
            return (
                "flood",
                f"the program wrote {incoming.lines} lines, {incoming.size} bytes in one turn",
            )
        status = "" if incoming.status is None else f" (exit status {incoming.status})"
        tail = incoming.stderr.strip()[-300:]
        return "crashed", f"the program closed its output{status}" + (
            f"; stderr ends: {tail}" if tail else ""
        )

    def start_match(
        self, config: MatchConfig, seat: Seat, *, table: TableSpec, params: PhysicsParams
    ) -> None:
        """Tell the program of a new match in which it plays ``seat``, and wait for ``ready``.

        Args:
            config: the match's configuration.
            seat: the program's seat.
            table: the table (one of :data:`nineball.game.TABLES`).
            params: the physical parameters.

        Raises:
            ForfeitError: the program did not start, did not say hello in the protocol's
                version, or did not answer ``ready`` in time (scope ``match``).
        """
        if self.dead is not None:
            raise self._forfeit(self.dead)
        if self.hello is None:
            self._handshake()
        self.turns, self.thinking, self.longest = 0, 0.0, 0.0
        self._match_used = 0.0
        self._game, self._game_used, self._silent = 0, 0.0, 0
        self.logs = []
        self._started = True
        messages: list[JSON] = []
        declared = {o.name: o for o in (self.hello.options if self.hello else ())}
        for key, value in self.options.items():
            spec = declared.get(key)
            try:
                if spec is None:
                    raise ProtocolError(f"the program has no option {key!r}")
                messages.append({"type": "option", "name": key, "value": spec.check(value)})
            except ProtocolError as exc:
                self._fault("option", "none", f"{exc}; not sent", None)
        messages.append(
            {
                "type": "new_match",
                "you": int(seat),
                "players": list(config.players),
                "race_to": config.race_to,
                "breaks": config.breaks.value,
                "first_breaker": int(config.first_breaker),
                "rules": config.rules.name,
                "refereed": config.refereed,
                "table": table_json(_table_name(table), table, params),
                "noise": self.seat_noise.label,
                "time": self.time.as_json(),
            }
        )
        messages.append({"type": "ready"})
        try:
            for message in messages:
                self.connection.send(message)
        except LinkError as exc:
            raise self._forfeit(self._lost_link(exc)) from None
        self._await_ready()

    def _await_ready(self) -> None:
        deadline = time.monotonic() + self.time.start
        while True:
            incoming = self.connection.receive(deadline)
            if isinstance(incoming, Silence):
                raise self._fatal("handshake", f"no readyok within {self.time.start:g} s", None)
            if isinstance(incoming, Closed | Flooded):
                raise self._fatal(*self._gone(incoming), None)
            if incoming.error is None and _kind(incoming.value) == "readyok":
                return
            self._stray(incoming)

    def _stray(self, incoming: Line) -> None:
        """A line while no turn waits: a log is kept, anything else is ignored and noted."""
        kind = None if incoming.error is not None else _kind(incoming.value)
        if kind == "log":
            self._log(incoming.value)
            return
        answer_id = _turn_id(incoming.value)
        if kind in ("shot", "choice") and answer_id is not None and answer_id <= self._turn_id:
            message = f"an answer to turn {answer_id}, after its time ran out"
            self._tell(self._fault("stale", "none", message, None))
            return
        what = incoming.error or f"a {kind or 'line'} while no turn was asked"
        self._tell(self._fault("out_of_turn", "none", what, None))

    def _log(self, value: object) -> None:
        text = value.get("text") if isinstance(value, dict) else None
        if isinstance(text, str) and len(self.logs) < LOG_LINES:
            self.logs.append(text[:300])

    def new_game(self, *, seed: int, game: int) -> None:
        """A new game of the match with ``seed`` starts: its noise and its clock."""
        self.noise = self.seat_noise.for_game(seed=seed, game=game)
        self._game, self._game_used = game, 0.0

    def observe(self, result: JSON) -> None:
        """Pass a ``result`` (or ``match_over``) on to the program, and read what it wrote."""
        if self.dead is not None or not self._started:
            return
        try:
            self.connection.send(result)
        except LinkError as exc:
            self._lost_link(exc)
            return
        while True:
            incoming = self.connection.receive(time.monotonic())
            if isinstance(incoming, Silence):
                return
            if isinstance(incoming, Closed | Flooded):
                code, message = self._gone(incoming)
                self._fault(code, "match", message, None)
                self.connection.kill()
                return
            self._stray(incoming)

    def close(self) -> None:
        """End the program (``quit``, then kill it if it lingers)."""
        self.connection.close()

    # ------------------------------------------------------------------------------ turns

    def _limit(self) -> tuple[float, str]:
        """The time this turn may take, and the budget that sets it."""
        limits = [(self.time.move, "move")]
        if self.time.game is not None:
            limits.append((self.time.game - self._game_used, "game"))
        if self.time.match is not None:
            limits.append((self.time.match - self._match_used, "match"))
        return min(limits)

    def _ask(self, view: Position, action: str, rng: np.random.Generator) -> Decision | Choice:
        """One turn: the question, the answer or the fault, and the clocks."""
        if not self._started:
            self.start_match_from(view)
        if self.dead is not None:
            raise self._forfeit(self.dead)
        if view.state.game.number != self._game:
            self._game, self._game_used = view.state.game.number, 0.0
        self._turn_id += 1
        turn = self._turn_id
        limit, budget = self._limit()
        message = {
            "type": "turn",
            "id": turn,
            "action": action,
            "you": int(view.state.to_act),
            "position": position_json(view),
            "noise": noise_json(self.noise, self.seat_noise.label),
            "clock": {
                "move_s": self.time.move,
                "game_left_s": None if self.time.game is None else self.time.game - self._game_used,
                "match_left_s": None
                if self.time.match is None
                else self.time.match - self._match_used,
            },
            "seed": int(rng.integers(0, 2**63 - 1)),
        }
        self.connection.reset_counts()
        start = time.monotonic()
        try:
            self.connection.send(message)
            outcome = self._answer(turn, action, view, start + limit)
        except LinkError as exc:
            raise self._forfeit(self._lost_link(exc)) from None
        spent = time.monotonic() - start
        self.turns += 1
        self.thinking += spent
        self.longest = max(self.longest, spent)
        self._game_used += spent
        self._match_used += spent
        if spent > limit and not isinstance(outcome, Fault | _TimedOut):
            outcome = _TimedOut(wrote=True)  # an in-process player's overrun, judged now
        if isinstance(outcome, _TimedOut):
            outcome = self._timeout(turn, budget, limit, wrote=outcome.wrote)
        if isinstance(outcome, Fault):
            if outcome.penalty == "match":
                raise self._forfeit(outcome)
            self._tell(outcome)
            if outcome.penalty == "game":
                raise self._forfeit(outcome)
            return Choice.PASS if action == "choice" else lost_decision(view)
        self._silent = 0
        return outcome

    def _timeout(self, turn: int, budget: str, limit: float, *, wrote: bool) -> Fault:
        if budget == "game":
            return self._fault("game_time", "game", "the game's time ran out", turn)
        if budget == "match":
            fault = self._fault("match_time", "match", "the match's time ran out", turn)
            self.connection.kill()
            return fault
        self._silent = 0 if wrote else self._silent + 1
        if self._silent >= _HUNG_AFTER:
            fault = self._fault(
                "hung", "match", f"{_HUNG_AFTER} turns in a row ran out with no output", turn
            )
            self.connection.kill()
            return fault
        return self._fault("timeout", "lost_shot", f"no answer within {limit:.3g} s", turn)

    def _answer(
        self, turn: int, action: str, view: Position, deadline: float
    ) -> Decision | Choice | Fault | _TimedOut:
        """Read until the turn's answer (or its fault, or the end of its time)."""
        wrote = False
        while True:
            incoming = self.connection.receive(deadline)
            if isinstance(incoming, Silence):
                return _TimedOut(wrote=wrote or incoming.wrote)
            if isinstance(incoming, Closed | Flooded):
                code, message = self._gone(incoming)
                fault = self._fault(code, "match", message, turn)
                self.connection.kill()
                return fault
            wrote = True
            if incoming.error is not None:
                return self._fault("bad_line", "lost_shot", incoming.error, turn)
            value = incoming.value
            kind = _kind(value)
            if kind == "log":
                self._log(value)
                continue
            answer_id = _turn_id(value)
            if kind in ("shot", "choice") and answer_id is not None and answer_id != turn:
                late = answer_id < turn
                message = (
                    f"an answer to turn {answer_id}, after its time ran out"
                    if late
                    else f"an answer to turn {answer_id}, which was never asked"
                )
                code = "stale" if late else "out_of_turn"
                self._tell(self._fault(code, "none", message, turn))
                continue
            if kind in ("hello", "readyok"):
                self._tell(self._fault("out_of_turn", "none", f"a {kind} during a turn", turn))
                continue
            if not isinstance(value, dict) or answer_id != turn:
                shown = repr(value)[:60]
                return self._fault(
                    "bad_answer", "lost_shot", f"not an answer to turn {turn}: {shown}", turn
                )
            try:
                return parse_answer(value, action, view)
            except AnswerError as exc:
                return self._fault(exc.code, "lost_shot", str(exc), turn)

    def refused(self, message: str, view: Position) -> Decision:
        """The game refused the program's stroke after all (the physics: a scoop): a lost shot.

        Its fault is recorded and told to the program.
        """
        fault = self._fault("illegal_action", "lost_shot", message, self._turn_id)
        self._tell(fault)
        return lost_decision(view)

    def start_match_from(self, view: Position) -> None:
        """Start the program for the match ``view`` belongs to (when not started explicitly)."""
        self.start_match(view.state.config, view.state.to_act, table=view.table, params=view.params)

    # ------------------------------------------------------------------------------ Player

    def decide(self, view: Position, rng: np.random.Generator) -> Decision:
        """Ask the program for its stroke (a lost shot on a fault).

        Raises:
            ForfeitError: the program forfeits the game or the match.
        """
        answer = self._ask(view, "shot", rng)
        if isinstance(answer, Choice):  # pragma: no cover - parse_answer matched the action
            return lost_decision(view)
        return answer

    def answer_push_out(self, view: Position, rng: np.random.Generator) -> Choice:
        """Ask the program whether it shoots after the opponent's push out (``pass`` on a fault).

        Raises:
            ForfeitError: the program forfeits the game or the match.
        """
        if view.state.phase is not Phase.PUSH_OUT_CHOICE:  # pragma: no cover - misuse
            raise ProtocolError("no push out to answer")
        answer = self._ask(view, "choice", rng)
        return answer if isinstance(answer, Choice) else Choice.PASS

    def lag(self, view: Position, rng: np.random.Generator) -> Stroke:
        """The lag is not part of protocol 1: nineball lags for the program as the ghost does."""
        return GhostBallPlayer().lag(view, rng)


@dataclass(frozen=True, slots=True)
class _TimedOut:
    """A turn's time ran out (``wrote``: the program wrote something meanwhile)."""

    wrote: bool


def _table_name(table: TableSpec) -> str:
    """The preset name of ``table`` (a table that is no preset is sent as its nearest, 9ft)."""
    return next((name for name, make in TABLES.items() if make() == table), "9ft")


def _turn_id(value: object) -> int | None:
    """The ``id`` of an answer, when it is an integer."""
    found = value.get("id") if isinstance(value, dict) else None
    return found if isinstance(found, int) and not isinstance(found, bool) else None


def _kind(value: object) -> str | None:
    kind = value.get("type") if isinstance(value, dict) else None
    return kind if isinstance(kind, str) else None
