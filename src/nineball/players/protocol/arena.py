"""The arena: round robins between programs and built-in players, through the engine protocol.

An :class:`Entrant` is a built-in player (played in process, through the protocol's messages)
or a program (a command, played through its standard input and output). Every pairing plays a
number of seeded matches (:func:`arena_jobs`: match ``k`` of pairing ``p`` is seeded from
``(seed, p, k)`` and seats and breaks alternate, as in the ladder); each match is one job
(:func:`play_arena_job`), so the arena runs on the backends of :mod:`nineball.players.backends`
and is saved and resumed job by job like every batch run. The games are rated on the ladder's
scale (:func:`rate_arena`), anchored as the ladder is.
"""

from __future__ import annotations

import contextlib
import math
import shlex
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from nineball.errors import ForfeitError, InvalidInputError, NineballError
from nineball.game import (
    NOISE_CLASSES,
    TOURNAMENT_NOISE,
    Choice,
    Language,
    MatchConfig,
    NoiseClass,
    Ruling,
    Seat,
    ShotKind,
    ShotRecord,
    record_to_json,
    ruling_to_json,
)
from nineball.game.match import Match
from nineball.game.record import shot_to_json
from nineball.players.ladder import (
    GHOST_RATING,
    GameResult,
    Rating,
    fit_ratings,
    game_from_row,
    game_results,
    game_row,
    pairing_jobs,
)
from nineball.players.play import carry_out, decide_turn
from nineball.players.protocol.connection import Connection, LocalConnection, PipeConnection
from nineball.players.protocol.host import EnginePlayer
from nineball.players.protocol.session import EngineSession
from nineball.players.protocol.terms import Fault, SeatNoise, TimeControl
from nineball.players.protocol.wire import position_json
from nineball.players.registry import PLAYERS, RATINGS, make_player
from nineball.players.search import LEVELS

__all__ = [
    "Anchor",
    "ArenaJob",
    "ArenaMatch",
    "ArenaSettings",
    "Entrant",
    "arena_anchor",
    "arena_from_row",
    "arena_games",
    "arena_jobs",
    "arena_row",
    "parse_entrant",
    "play_arena_job",
    "play_engine_match",
    "rate_arena",
    "resolve_noise",
]

JSON = dict[str, Any]


@dataclass(frozen=True, slots=True, kw_only=True)
class Entrant:
    """One player of the arena: a built-in player, or a program run by a command."""

    name: str
    """Its name in the tables, the ratings and the records."""
    level: str | None = None
    """A built-in player's name (:data:`nineball.players.registry.PLAYERS`), played in process."""
    command: tuple[str, ...] = ()
    """A program and its arguments (no shell), played through a pipe."""
    cwd: str | None = None
    """Where the program runs."""
    noise: str | None = None
    """Its noise: a class, a level (whose hands) or a multiple of the tournament noise (None:
    a built-in player's own hands, the arena's class for a program)."""

    @property
    def kind(self) -> str:
        """``built-in`` or ``program``."""
        return "built-in" if self.level is not None else "program"

    def as_json(self) -> JSON:
        """The entrant as the arena's parameters and results give it."""
        return {
            "name": self.name,
            "level": self.level,
            "command": list(self.command),
            "cwd": self.cwd,
            "noise": self.noise,
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> Entrant:
        """An entrant back from :meth:`as_json`."""
        return cls(
            name=obj["name"],
            level=obj.get("level"),
            command=tuple(obj.get("command") or ()),
            cwd=obj.get("cwd"),
            noise=obj.get("noise"),
        )


def parse_entrant(text: str, *, cwd: str | None = None) -> Entrant:
    """An entrant from the command line: ``LEVEL`` (built-in) or ``NAME=COMMAND`` (a program).

    The command is split as a POSIX shell splits words, and run without a shell.

    >>> parse_entrant("pro").kind, parse_entrant("bot=python3 bot.py --fast").command
    ('built-in', ('python3', 'bot.py', '--fast'))

    Raises:
        InvalidInputError: an unknown player, an empty command, or a bad name.
    """
    name, sep, command = text.partition("=")
    name = name.strip()
    if not sep:
        if name not in PLAYERS:
            raise InvalidInputError(
                f"{text!r} is neither a built-in player ({', '.join(PLAYERS)}) nor NAME=COMMAND"
            )
        return Entrant(name=name, level=name)
    try:
        words = tuple(shlex.split(command))
    except ValueError as exc:
        raise InvalidInputError(f"cannot split the command of {name!r}: {exc}") from None
    if not words:
        raise InvalidInputError(f"the command of {name!r} is empty")
    try:
        MatchConfig(players=(name, name + "'"))
    except NineballError as exc:
        raise InvalidInputError(f"bad entrant name {name!r}: {exc}") from None
    return Entrant(name=name, command=words, cwd=cwd)


def resolve_noise(spec: str) -> SeatNoise:
    """A noise as the arena takes it: a class, a level's hands, or a multiple (``0.8``).

    Raises:
        InvalidInputError: none of these.
    """
    if spec in NOISE_CLASSES:
        return SeatNoise.of_class(spec)
    if spec in PLAYERS:
        return SeatNoise(label=spec, fixed=make_player(spec).noise)
    try:
        factor = float(spec)
    except ValueError:
        factor = math.nan
    if not (math.isfinite(factor) and 0.0 <= factor <= 100.0):
        known = ", ".join([*NOISE_CLASSES, *PLAYERS])
        raise InvalidInputError(
            f"unknown noise {spec!r}: a class or a player's hands ({known}), or a multiple of "
            "the tournament noise from 0 to 100"
        )
    return SeatNoise(label=f"x{factor:g}", noise_class=NoiseClass(name=spec, factor=factor))


@dataclass(frozen=True, slots=True, kw_only=True)
class ArenaSettings:
    """What every match of an arena is played under."""

    race_to: int = 1
    """Games to win a match (1: single games, as the ladder plays)."""
    noise: str = "tournament"
    """The noise class of the programs (and of the built-in players with ``same_noise``)."""
    same_noise: bool = False
    """Built-in players play under ``noise`` too, instead of their own hands."""
    time: TimeControl = field(default_factory=TimeControl)
    options: Mapping[str, Mapping[str, object]] = field(default_factory=dict)
    """Option values by entrant name."""

    def noise_of(self, entrant: Entrant) -> SeatNoise:
        """The noise nineball applies to ``entrant``'s strokes."""
        if entrant.noise is not None:
            return resolve_noise(entrant.noise)
        if entrant.level is not None and not self.same_noise:
            return resolve_noise(entrant.level)
        return resolve_noise(self.noise)

    def as_json(self) -> JSON:
        """The settings as the run's parameters keep them."""
        return {
            "race_to": self.race_to,
            "noise": self.noise,
            "same_noise": self.same_noise,
            "time": self.time.as_json(),
            "options": {k: dict(v) for k, v in self.options.items()},
        }

    @classmethod
    def from_json(cls, obj: Mapping[str, Any]) -> ArenaSettings:
        """Settings back from :meth:`as_json`."""
        t = obj["time"]
        return cls(
            race_to=int(obj["race_to"]),
            noise=str(obj["noise"]),
            same_noise=bool(obj["same_noise"]),
            time=TimeControl(
                move=t["move_s"], game=t["game_s"], match=t["match_s"], start=t["start_s"]
            ),
            options={k: dict(v) for k, v in obj.get("options", {}).items()},
        )


@dataclass(frozen=True, slots=True, kw_only=True)
class ArenaJob:
    """One match of the arena: who plays which seat, its seed and who breaks first."""

    pairing: int
    index: int
    """The match's number within its pairing, from 0."""
    first: Entrant
    """Seat 0."""
    second: Entrant
    seed: int
    breaker: Seat
    settings: ArenaSettings


def arena_jobs(
    entrants: Sequence[Entrant], matches: int, seed: int, settings: ArenaSettings
) -> list[ArenaJob]:
    """Every match of a round robin between ``entrants``, ``matches`` per pairing.

    Match ``k`` of pairing ``p`` is seeded from ``(seed, p, k)``; the two entrants take turns in
    seat 0 and at breaking the first game (:func:`nineball.players.ladder.pairing_jobs`).
    """
    by_name = {e.name: e for e in entrants}
    jobs = []
    pairs = [(a, b) for i, a in enumerate(entrants) for b in entrants[i + 1 :]]
    for p, (a, b) in enumerate(pairs):
        for k, (first, second, game_seed, breaker) in enumerate(
            pairing_jobs(a.name, b.name, matches, seed, p)
        ):
            jobs.append(
                ArenaJob(
                    pairing=p,
                    index=k,
                    first=by_name[first],
                    second=by_name[second],
                    seed=game_seed,
                    breaker=Seat(breaker),
                    settings=settings,
                )
            )
    return jobs


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatReport:
    """How one seat's player behaved in a match."""

    name: str
    hello: JSON | None
    """What the program said of itself (name, author, version)."""
    turns: int
    thinking: float
    """Seconds spent on its turns."""
    longest: float
    """Its longest turn, s."""
    logs: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class ArenaMatch:
    """What one match of the arena gave."""

    pairing: int
    index: int
    seed: int
    players: tuple[str, str]
    first_breaker: Seat
    winner: Seat | None
    """None: a void match (neither program could start)."""
    score: tuple[int, int]
    games: tuple[GameResult, ...]
    faults: tuple[JSON, ...]
    """Every fault, with the ``seat`` and ``name`` of who made it."""
    seats: tuple[SeatReport, SeatReport]
    seconds: float
    """Wall-clock time of the match, s."""
    record: JSON = field(default_factory=dict)
    """The match record (docs/record-format.md)."""


def _connect(entrant: Entrant) -> Connection:
    if entrant.level is not None:
        return LocalConnection(EngineSession(make_player(entrant.level)))
    return PipeConnection(entrant.command, cwd=entrant.cwd)


def play_engine_match(
    match: Match,
    players: Sequence[EnginePlayer],
    *,
    on_result: Callable[[JSON], None] | None = None,
) -> None:
    """Play ``match`` to its end between two programs (``players[0]`` in seat 0).

    Each program is started for the match, asked for every action of its seat and told every
    result. A shot it loses is played as the protocol says; a program that forfeits the game
    has that game forfeited (clause 4, D14), and one that forfeits the match (it did not start,
    or died, hung, flooded...) every game left, at once. Each program's faults stay in its
    :attr:`EnginePlayer.faults`. When neither program starts, nothing is played.

    Args:
        match: a new match.
        players: the two programs.
        on_result: called with every ``result`` message as it is sent.
    """
    for player in players:
        player.launch()  # both programs start up at once
    for seat in Seat:
        with contextlib.suppress(ForfeitError):  # kept as the program's fault
            players[seat].start_match(match.config, seat, table=match.table, params=match.params)
    if all(player.dead is not None for player in players):
        return

    def tell(seat: Seat, entry: ShotRecord, ruling: Ruling, fault: Fault | None) -> None:
        message = {
            "type": "result",
            "seat": int(seat),
            "entry": shot_to_json(entry),
            "ruling": ruling_to_json(ruling, Language.EN),
            "position": position_json(match.position),
            "fault": None if fault is None else fault.as_json(),
        }
        for player in players:
            player.observe(message)
        if on_result is not None:
            on_result(message)

    def forfeit(seat: Seat, fault: Fault | None) -> None:
        tell(seat, ShotRecord(kind=ShotKind.FORFEIT, player=seat), match.forfeit(seat), fault)

    game = 0
    while not match.state.is_over:
        # A program that forfeits the match (at its start, or found dead since) loses every
        # game left, at once.
        dead = next((seat for seat in Seat if players[seat].dead is not None), None)
        if dead is not None:
            while not match.state.is_over:
                forfeit(dead, players[dead].dead)
            break
        state = match.state
        if state.game.number != game:
            game = state.game.number
            for player in players:
                player.new_game(seed=match.seed, game=game)
        seat = state.to_act
        player = players[seat]
        before = len(player.faults)
        try:
            decided = decide_turn(match, player)
        except ForfeitError as exc:
            if exc.scope == "game":
                forfeit(seat, exc.fault if isinstance(exc.fault, Fault) else None)
            continue
        try:
            turn = carry_out(match, player, decided)
        except NineballError as exc:  # a stroke the physics refuses (a scoop)
            turn = carry_out(match, player, player.refused(str(exc), match.position))
        lost = [f for f in player.faults[before:] if f.penalty == "lost_shot"]
        fault = lost[-1] if lost else None
        if turn.report is not None:
            tell(seat, turn.report.shot, turn.ruling, fault)
        elif isinstance(decided, Choice):
            entry = ShotRecord(kind=ShotKind.CHOICE, player=seat, choice=decided)
            tell(seat, entry, turn.ruling, fault)
    winner = match.state.winner
    over = {
        "type": "match_over",
        "winner": None if winner is None else int(winner),
        "score": list(match.state.score),
    }
    for player in players:
        player.observe(over)


def play_arena_job(job: ArenaJob) -> ArenaMatch:
    """Play one match of the arena (the function sent to the workers)."""
    settings = job.settings
    names = (job.first.name, job.second.name)
    config = MatchConfig(players=names, race_to=settings.race_to, first_breaker=job.breaker)
    match = Match(
        config,
        seed=job.seed,
        agents=names,
        event=f"nineball arena: pairing {job.pairing + 1}, match {job.index + 1}",
    )
    players = [
        EnginePlayer(
            _connect(entrant),
            name=entrant.name,
            time_control=settings.time,
            noise=settings.noise_of(entrant),
            options=settings.options.get(entrant.name, {}),
        )
        for entrant in (job.first, job.second)
    ]
    start = time.monotonic()
    try:
        play_engine_match(match, players)
    finally:
        for player in players:
            player.close()
    seconds = time.monotonic() - start
    faults = tuple(
        {"seat": seat, "name": names[seat], **fault.as_json()}
        for seat, player in enumerate(players)
        for fault in player.faults
    )
    seats = tuple(
        SeatReport(
            name=names[seat],
            hello=None
            if player.hello is None
            else {k: getattr(player.hello, k) for k in ("name", "author", "version")},
            turns=player.turns,
            thinking=player.thinking,
            longest=player.longest,
            logs=tuple(player.logs),
        )
        for seat, player in enumerate(players)
    )
    return ArenaMatch(
        pairing=job.pairing,
        index=job.index,
        seed=job.seed,
        players=names,
        first_breaker=job.breaker,
        winner=match.state.winner,
        score=(match.state.score[0], match.state.score[1]),
        games=tuple(game_results(match.record, *names)),
        faults=faults,
        seats=(seats[0], seats[1]),
        seconds=seconds,
        record=record_to_json(match.record),
    )


def arena_row(result: ArenaMatch) -> JSON:
    """A match as plain JSON data (for the run store)."""
    return {
        "pairing": result.pairing,
        "index": result.index,
        "seed": result.seed,
        "players": list(result.players),
        "first_breaker": int(result.first_breaker),
        "winner": None if result.winner is None else int(result.winner),
        "score": list(result.score),
        "games": [game_row(g) for g in result.games],
        "faults": list(result.faults),
        "seats": [asdict(s) for s in result.seats],
        "seconds": result.seconds,
        "record": result.record,
    }


def arena_from_row(row: Mapping[str, Any]) -> ArenaMatch:
    """A match back from :func:`arena_row`'s data.

    Raises:
        KeyError, TypeError, ValueError: data that is not such a row.
    """
    seats = [SeatReport(**(dict(s) | {"logs": tuple(s.get("logs", ()))})) for s in row["seats"]]
    winner = row["winner"]
    return ArenaMatch(
        pairing=int(row["pairing"]),
        index=int(row["index"]),
        seed=int(row["seed"]),
        players=(row["players"][0], row["players"][1]),
        first_breaker=Seat(int(row["first_breaker"])),
        winner=None if winner is None else Seat(int(winner)),
        score=(int(row["score"][0]), int(row["score"][1])),
        games=tuple(game_from_row(g) for g in row["games"]),
        faults=tuple(dict(f) for f in row["faults"]),
        seats=(seats[0], seats[1]),
        seconds=float(row["seconds"]),
        record=dict(row.get("record") or {}),
    )


def arena_games(results: Sequence[ArenaMatch]) -> list[GameResult]:
    """Every game of every match, as the rating fit takes them."""
    return [game for result in results for game in result.games]


@dataclass(frozen=True, slots=True, kw_only=True)
class Anchor:
    """Who the rating fit is anchored on, at which rating."""

    name: str
    rating: float
    ladder: bool
    """True when the ratings are on the ladder's own scale (the anchor plays as on the
    ladder: ``ghost`` with the tournament noise, or a built-in level with its own hands)."""

    def as_json(self) -> JSON:
        """The anchor as the results give it."""
        return {"name": self.name, "rating": self.rating, "ladder": self.ladder}


def arena_anchor(
    entrants: Sequence[Entrant], settings: ArenaSettings, played: set[str] | None = None
) -> Anchor:
    """The anchor of the ratings, as the ladder's.

    ``ghost`` at 300 when it plays with the tournament noise (its own); else the first built-in
    level that plays with its own hands, at its shipped rating (``ratings.json``); else the
    first entrant at 300, a scale of the arena's own. Only entrants that played (``played``)
    can anchor.
    """
    candidates = [e for e in entrants if played is None or e.name in played]
    for entrant in candidates:
        if entrant.level == "ghost":
            noise = settings.noise_of(entrant)
            if noise.for_game(seed=0, game=1) == TOURNAMENT_NOISE:
                return Anchor(name=entrant.name, rating=GHOST_RATING, ladder=True)
    for entrant in candidates:
        level = entrant.level
        if level is None or level not in LEVELS or level not in RATINGS:
            continue
        if settings.noise_of(entrant).for_game(seed=0, game=1) == LEVELS[level].noise:
            return Anchor(name=entrant.name, rating=float(RATINGS[level]), ladder=True)
    first = candidates[0].name if candidates else entrants[0].name
    return Anchor(name=first, rating=GHOST_RATING, ladder=False)


def rate_arena(
    results: Sequence[ArenaMatch], entrants: Sequence[Entrant], settings: ArenaSettings
) -> tuple[list[Rating], Anchor]:
    """The entrants' ratings on the ladder's scale (strongest first), and their anchor.

    Entrants without a finished game are left out.
    """
    games = arena_games(results)
    played = {g.first for g in games} | {g.second for g in games}
    anchor = arena_anchor(entrants, settings, played)
    if not games:
        return [], anchor
    return fit_ratings(games, anchor=anchor.name, anchor_rating=anchor.rating), anchor
