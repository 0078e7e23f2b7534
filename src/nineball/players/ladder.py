"""The rating ladder: self-play between computer players and a Fargo-style fit.

FargoRate's scale (docs/players.md): a player rated D points above another wins a game with
probability ``1 / (1 + 2 ** (-D / 100))``; 100 points is 2:1 odds, 200 points 4:1. The fit is the
maximum-likelihood Bradley-Terry fit on that scale (the minorize-maximize iteration of Hunter
2004), anchored so that the naive ghost-ball player sits at :data:`GHOST_RATING`; standard errors
come from the Fisher information.

Games are single racks with alternating breakers; game ``k`` of a pairing is seeded from
``(seed, pairing, k)``, so a ladder is reproducible whatever the backend and the number of
workers.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import asdict, dataclass
from typing import Any

import numpy as np

from nineball.game import MatchConfig, MatchRecord, Seat, Termination
from nineball.game.match import Match
from nineball.players.backends import run_jobs
from nineball.players.play import play_match
from nineball.players.registry import make_player

__all__ = [
    "GHOST_RATING",
    "GameResult",
    "Gap",
    "Job",
    "Rating",
    "fit_ratings",
    "game_from_row",
    "game_results",
    "game_row",
    "ladder_jobs",
    "ladder_pairs",
    "pairing_jobs",
    "play_game",
    "play_job",
    "play_pairing",
    "rating_gaps",
    "round_robin",
    "round_robin_jobs",
    "win_probability",
]

Job = tuple[str, str, int, int]
"""A game to play: the first seat's player, the second's, the game's seed, the breaking seat."""

GHOST_RATING = 300.0
"""Where the fit puts the naive ghost-ball player (a beginner league player is about 300)."""


def win_probability(difference: float) -> float:
    """P(win a game) for a rating ``difference`` in Fargo points."""
    return float(1.0 / (1.0 + 2.0 ** (-difference / 100.0)))


@dataclass(frozen=True, slots=True, kw_only=True)
class GameResult:
    """One game of a pairing."""

    first: str
    second: str
    breaker: Seat
    winner: Seat
    shots: int
    broke_and_ran: bool
    """The breaker won without the opponent playing a stroke."""
    legal_break_with_ball: bool
    """The break was legal and pocketed at least one ball."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Rating:
    """A fitted rating."""

    name: str
    rating: float
    """Fargo-style points."""
    error: float
    """One standard error, in points."""
    games: int


def game_results(record: MatchRecord, first: str, second: str) -> list[GameResult]:
    """Every finished game of a match record, as the ladder counts it (``first`` in seat 0).

    A game lost by forfeit counts as lost; a break and run is a game the breaker won on the 9
    without the opponent playing a stroke.
    """
    out = []
    for game in record.games:
        result = game.result
        if result is None:
            continue
        strokes = [s for s in game.shots if s.stroke is not None]
        opponent_struck = any(s.player is not game.breaker for s in strokes)
        facts = strokes[0].facts if strokes else None
        out.append(
            GameResult(
                first=first,
                second=second,
                breaker=game.breaker,
                winner=result.winner,
                shots=len(strokes),
                broke_and_ran=result.winner is game.breaker
                and result.reason is Termination.NINE_BALL
                and not opponent_struck,
                legal_break_with_ball=bool(strokes)
                and not strokes[0].fouls
                and facts is not None
                and bool(facts.pocketed_object_balls),
            )
        )
    return out


def play_game(first: str, second: str, seed: int, breaker: Seat) -> GameResult:
    """Play one rack between two computer players (``first`` in seat 0)."""
    names = (f"{first} (1)", f"{second} (2)")
    config = MatchConfig(players=names, race_to=1, first_breaker=breaker)
    match = Match(config, seed=seed, agents=(first, second))
    play_match(match, [make_player(first), make_player(second)])
    games = game_results(match.record, first, second)
    if not games:  # pragma: no cover - a race to 1 always ends with its first game
        raise RuntimeError(f"the game of seed {seed} did not end")
    return games[0]


def play_job(job: Job) -> GameResult:
    """Play one game given as a :data:`Job` (the form sent to worker processes)."""
    first, second, seed, breaker = job
    return play_game(first, second, seed, Seat(breaker))


def game_row(game: GameResult) -> dict[str, object]:
    """A game as plain JSON data (seats as numbers)."""
    return asdict(game) | {"breaker": int(game.breaker), "winner": int(game.winner)}


def game_from_row(row: Mapping[str, Any]) -> GameResult:
    """A game back from :func:`game_row`'s data.

    Raises:
        KeyError, TypeError, ValueError: data that is not such a row.
    """
    return GameResult(
        **(dict(row) | {"breaker": Seat(int(row["breaker"])), "winner": Seat(int(row["winner"]))})
    )


def pairing_jobs(first: str, second: str, games: int, seed: int, pairing: int) -> list[Job]:
    """The games of one pairing: game ``k`` seeded from ``(seed, pairing, k)``."""
    jobs = []
    for k in range(games):
        game_seed = int(np.random.SeedSequence([seed, pairing, k]).generate_state(1)[0])
        # Alternate seats and breaks: each player breaks half of the games from each seat.
        a, b = (first, second) if k % 2 == 0 else (second, first)
        jobs.append((a, b, game_seed, (k // 2) % 2))
    return jobs


def round_robin_jobs(players: Sequence[str], games: int, seed: int) -> list[Job]:
    """Every pair of ``players`` (in the order listed), ``games`` each, as one list of jobs."""
    pairs = [(a, b) for i, a in enumerate(players) for b in players[i + 1 :]]
    return [job for k, (a, b) in enumerate(pairs) for job in pairing_jobs(a, b, games, seed, k)]


def ladder_jobs(players: Sequence[str], games: int, seed: int) -> list[Job]:
    """Every adjacent pair of a ladder, ``games`` each, as one list of jobs.

    Pairing ``k`` is the ``k``-th adjacent pair, so the games are those of :func:`play_pairing`
    with ``pairing=k``.
    """
    return [
        job
        for k, (a, b) in enumerate(ladder_pairs(players))
        for job in pairing_jobs(a, b, games, seed, k)
    ]


def play_pairing(
    first: str,
    second: str,
    games: int,
    *,
    seed: int = 0,
    pairing: int = 0,
    workers: int = 1,
    backend: str = "process",
    address: str | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Play ``games`` racks between two players on ``workers`` processes (see :func:`run_jobs`).

    The results (in game order) do not depend on the backend or the workers: every game has its
    own seed. ``on_game`` is called with each game as it finishes.
    """
    jobs = pairing_jobs(first, second, games, seed, pairing)
    return run_jobs(
        play_job,
        jobs,
        backend=backend,
        workers=workers,
        address=address,
        on_result=None if on_game is None else lambda _k, game: on_game(game),
    )


def round_robin(
    players: Sequence[str],
    games: int,
    *,
    seed: int = 0,
    workers: int = 1,
    backend: str = "process",
    address: str | None = None,
    on_game: Callable[[GameResult], None] | None = None,
) -> list[GameResult]:
    """Every pair of ``players`` plays ``games`` racks; all games run as one batch of jobs."""
    return run_jobs(
        play_job,
        round_robin_jobs(players, games, seed),
        backend=backend,
        workers=workers,
        address=address,
        on_result=None if on_game is None else lambda _k, game: on_game(game),
    )


def fit_ratings(
    results: Iterable[GameResult], *, anchor: str = "ghost", anchor_rating: float = GHOST_RATING
) -> list[Rating]:
    """Maximum-likelihood ratings on the Fargo scale, strongest first.

    Raises:
        ValueError: no games, or the anchor did not play.
    """
    fit = _fit(list(results), anchor, anchor_rating)
    out = [
        Rating(
            name=name,
            rating=float(fit.rating[i]),
            error=float(math.sqrt(max(fit.covariance[i, i], 0.0))),
            games=int(fit.played[i].sum()),
        )
        for i, name in enumerate(fit.names)
    ]
    out.sort(key=lambda r: r.rating, reverse=True)
    return out


@dataclass(frozen=True, slots=True, kw_only=True)
class Gap:
    """How far apart the fit puts the two players of a pairing."""

    weaker: str
    stronger: str
    """The pairing's second player (the stronger one when the ladder is listed weakest first)."""
    games: int
    """Games the two played against each other."""
    wins: int
    """Games of those the ``stronger`` won."""
    gap: float
    """``stronger``'s rating minus ``weaker``'s, in points (negative if the order was wrong)."""
    error: float
    """One standard error of the gap, from the fit's covariance."""


def rating_gaps(
    results: Iterable[GameResult],
    pairs: Sequence[tuple[str, str]],
    *,
    anchor: str = "ghost",
) -> list[Gap]:
    """The fitted gap of each pair, with its standard error and the pair's own score.

    Raises:
        ValueError: no games, the anchor did not play, or a pair names a player who did not.
    """
    games = list(results)
    fit = _fit(games, anchor, GHOST_RATING)
    index = {name: i for i, name in enumerate(fit.names)}
    missing = sorted({name for pair in pairs for name in pair} - set(index))
    if missing:
        raise ValueError(f"no games were played by {', '.join(map(repr, missing))}")
    out = []
    for a, b in pairs:
        i, j = index[a], index[b]
        c = fit.covariance
        variance = c[i, i] + c[j, j] - 2.0 * c[i, j]
        pair = [g for g in games if {g.first, g.second} == {a, b}]
        wins = sum((g.first if g.winner is Seat.FIRST else g.second) == b for g in pair)
        out.append(
            Gap(
                weaker=a,
                stronger=b,
                games=len(pair),
                wins=wins,
                gap=float(fit.rating[j] - fit.rating[i]),
                error=float(math.sqrt(max(variance, 0.0))),
            )
        )
    return out


@dataclass(frozen=True, slots=True)
class _Fit:
    names: list[str]
    rating: np.ndarray
    covariance: np.ndarray
    """Of the ratings, in points squared; the anchor's row and column are zero."""
    played: np.ndarray
    """Games between each two players."""


def _fit(games: list[GameResult], anchor: str, anchor_rating: float) -> _Fit:
    names = sorted({g.first for g in games} | {g.second for g in games})
    if not games or anchor not in names:
        raise ValueError(f"the games must include the anchor {anchor!r}")
    index = {name: i for i, name in enumerate(names)}
    n = len(names)
    wins = np.zeros((n, n))
    for g in games:
        winner = g.first if g.winner is Seat.FIRST else g.second
        loser = g.second if g.winner is Seat.FIRST else g.first
        wins[index[winner], index[loser]] += 1
    played = wins + wins.T
    total_wins = wins.sum(axis=1)
    # Strengths s = 2 ** (r / 100); a player who never wins or never loses gets half a game's
    # worth of prior against the others so that the fit stays finite.
    prior = 0.5
    strength = np.ones(n)
    for _ in range(10_000):
        previous = strength.copy()
        for i in range(n):
            opponents = played[i] > 0
            games_i = played[i, opponents] + 2 * prior
            denominator = np.sum(games_i / (strength[i] + strength[opponents]))
            strength[i] = (total_wins[i] + prior * opponents.sum()) / denominator
        strength /= strength[index[anchor]]
        if np.max(np.abs(np.log(strength) - np.log(previous))) < 1e-12:
            break
    rating = 100.0 * np.log2(strength) + anchor_rating
    # The covariance is the inverse of the Fisher information (the anchor fixed).
    scale = math.log(2.0) / 100.0
    info = np.zeros((n, n))
    for i in range(n):
        for j in range(n):
            if i != j and played[i, j]:
                p = win_probability(rating[i] - rating[j])
                w = played[i, j] * p * (1 - p) * scale * scale
                info[i, i] += w
                info[i, j] -= w
    free = [i for i in range(n) if i != index[anchor]]
    covariance = np.zeros((n, n))
    if free:
        covariance[np.ix_(free, free)] = np.linalg.pinv(info[np.ix_(free, free)])
    return _Fit(names=names, rating=rating, covariance=covariance, played=played)


def ladder_pairs(names: Sequence[str]) -> list[tuple[str, str]]:
    """Adjacent pairs of a ladder in the order given: (ghost, beginner), (beginner, amateur)..."""
    return list(itertools.pairwise(names))
