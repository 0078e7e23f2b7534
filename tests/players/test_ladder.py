"""The rating ladder: Fargo-style probabilities, the fit, reproducible pairings."""

from __future__ import annotations

import numpy as np
import pytest

from nineball.players.ladder import (
    GameResult,
    fit_ratings,
    ladder_pairs,
    play_pairing,
    rating_gaps,
    win_probability,
)
from nineball.rules import Seat


def test_fargo_scale() -> None:
    assert win_probability(0) == 0.5
    assert win_probability(100) == pytest.approx(2 / 3)
    assert win_probability(200) == pytest.approx(0.8)
    assert win_probability(-100) == pytest.approx(1 / 3)


def _games(a: str, b: str, wins_a: int, wins_b: int) -> list[GameResult]:
    def one(winner: Seat) -> GameResult:
        return GameResult(first=a, second=b, breaker=Seat.FIRST, winner=winner, shots=10,
                          broke_and_ran=False, legal_break_with_ball=True)  # fmt: skip

    return [one(Seat.FIRST)] * wins_a + [one(Seat.SECOND)] * wins_b


def test_the_fit_recovers_known_gaps() -> None:
    # 2:1 odds are 100 points; 4:1 are 200.
    games = _games("ghost", "club", 200, 400) + _games("club", "pro", 200, 800)
    ratings = {r.name: r for r in fit_ratings(games)}
    assert ratings["ghost"].rating == pytest.approx(300.0)
    assert ratings["club"].rating == pytest.approx(400.0, abs=1.0)
    assert ratings["pro"].rating == pytest.approx(600.0, abs=1.0)
    assert ratings["ghost"].error == 0.0
    assert 5.0 < ratings["club"].error < ratings["pro"].error < 30.0
    assert [r.name for r in fit_ratings(games)] == ["pro", "club", "ghost"]


def test_the_gaps_of_a_chain_are_its_pairs_own() -> None:
    # In a chain each gap rests on one pair's games alone: 600 games at 2:1 are 100 points
    # with the delta-method error of that score; a pair listed the wrong way round is negative.
    games = _games("ghost", "club", 200, 400) + _games("club", "pro", 200, 800)
    club, pro = rating_gaps(games, [("ghost", "club"), ("pro", "club")])
    assert (club.weaker, club.stronger, club.games, club.wins) == ("ghost", "club", 600, 400)
    assert club.gap == pytest.approx(100.0, abs=1.0)
    p = 2 / 3
    assert club.error == pytest.approx(100 / (np.log(2) * np.sqrt(600 * p * (1 - p))), rel=0.02)
    assert (pro.wins, pro.games) == (200, 1000)
    assert pro.gap == pytest.approx(-200.0, abs=1.0)
    # The gap's error is less than the sum of the two ratings' errors (they are correlated).
    ratings = {r.name: r for r in fit_ratings(games)}
    assert pro.error < ratings["pro"].error
    with pytest.raises(ValueError, match="'max'"):
        rating_gaps(games, [("pro", "max")])


def test_a_clean_sweep_stays_finite() -> None:
    ratings = {r.name: r for r in fit_ratings(_games("ghost", "max", 0, 20))}
    assert np.isfinite(ratings["max"].rating)
    assert ratings["max"].rating > 600


def test_the_anchor_must_play() -> None:
    with pytest.raises(ValueError, match="anchor 'ghost'"):
        fit_ratings(_games("club", "pro", 1, 1))


def test_pairings_do_not_depend_on_workers() -> None:
    one = play_pairing("ghost", "beginner", 4, seed=3, workers=1)
    two = play_pairing("ghost", "beginner", 4, seed=3, workers=2)
    assert one == two
    assert [g.first for g in one] == ["ghost", "beginner", "ghost", "beginner"]
    assert [g.breaker for g in one] == [Seat.FIRST, Seat.FIRST, Seat.SECOND, Seat.SECOND]


def test_adjacent_pairs() -> None:
    assert ladder_pairs(["a", "b", "c"]) == [("a", "b"), ("b", "c")]


def test_backends_give_the_same_results() -> None:
    from nineball.players.ladder import round_robin

    serial = round_robin(["ghost", "beginner", "amateur"], 2, seed=4, workers=1)
    pooled = round_robin(["ghost", "beginner", "amateur"], 2, seed=4, workers=2)
    assert serial == pooled
    assert len(serial) == 6


def test_ray_gives_the_same_tournament_as_the_process_pool() -> None:
    from nineball.players.ladder import round_robin

    pooled = round_robin(["ghost", "beginner"], 2, seed=5, workers=2)
    on_ray = round_robin(["ghost", "beginner"], 2, seed=5, workers=2, backend="ray")
    assert on_ray == pooled


def test_unknown_backend() -> None:
    from nineball import InvalidInputError
    from nineball.players.backends import run_jobs

    with pytest.raises(InvalidInputError, match="unknown backend 'dask'"):
        run_jobs(abs, [1], backend="dask")
    with pytest.raises(InvalidInputError, match="workers must be >= 1"):
        run_jobs(abs, [1], workers=0)
