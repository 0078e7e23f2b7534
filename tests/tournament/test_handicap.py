"""Handicapped races: the odds of a race, and the race that makes them even."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nineball.errors import InvalidInputError
from nineball.players.ladder import win_probability
from nineball.tournament import handicap_races, race_odds
from nineball.tournament.clock import ShotClock
from nineball.tournament.config import ShotClockRule


def _odds_by_recursion(p: float, a: int, b: int) -> float:
    table = np.zeros((a + 1, b + 1))
    table[0, 1:] = 1.0  # the first player needs nothing more: won
    for i in range(1, a + 1):
        for j in range(1, b + 1):
            table[i, j] = p * table[i - 1, j] + (1 - p) * table[i, j - 1]
    return float(table[a, b])


@settings(max_examples=60, deadline=None)
@given(p=st.floats(0.01, 0.99), a=st.integers(1, 15), b=st.integers(1, 15))
def test_the_closed_form_is_the_game_by_game_recursion(p: float, a: int, b: int) -> None:
    assert race_odds(p, (a, b)) == pytest.approx(_odds_by_recursion(p, a, b), abs=1e-12)
    assert race_odds(p, (a, b)) + race_odds(1 - p, (b, a)) == pytest.approx(1.0)


def test_the_odds_against_a_simulation() -> None:
    rng = np.random.default_rng(0)
    p, races = win_probability(100.0), (7, 4)
    wins = 0
    for _ in range(20000):
        score = [0, 0]
        while score[0] < races[0] and score[1] < races[1]:
            score[0 if rng.random() < p else 1] += 1
        wins += score[0] == races[0]
    assert wins / 20000 == pytest.approx(race_odds(p, races), abs=0.012)


@settings(max_examples=80, deadline=None)
@given(high=st.floats(0, 800), gap=st.floats(0, 400), race=st.integers(1, 13))
def test_the_handicap_makes_the_odds_as_even_as_a_race_can(
    high: float, gap: float, race: int
) -> None:
    low = max(0.0, high - gap)
    handicap = handicap_races((high, low), race)
    long, short = handicap.races
    assert 1 <= short <= long
    assert long >= race
    p = win_probability(high - low)
    assert handicap.odds == pytest.approx(race_odds(p, (long, short)))
    if long == race and short > 1:
        # no shorter or longer race for the weaker player is nearer even
        for other in (short - 1, short + 1):
            if 1 <= other <= long:
                assert abs(handicap.odds - 0.5) <= abs(race_odds(p, (long, other)) - 0.5) + 1e-12
    # the other way round: the same races, swapped
    swapped = handicap_races((low, high), race)
    assert swapped.races == (short, long)
    assert swapped.odds == pytest.approx(1 - handicap.odds)


def test_equal_or_unknown_ratings_race_the_same() -> None:
    assert handicap_races((500.0, 500.0), 7).races == (7, 7)
    assert handicap_races((None, 600.0), 7).races == (7, 7)
    assert handicap_races((600.0, 500.0), 7).races == (7, 4)  # 2:1 a game
    wide = handicap_races((900.0, 300.0), 5)
    assert wide.races[0] > 5
    assert wide.races[1] == 1
    with pytest.raises(InvalidInputError, match="race"):
        handicap_races((1.0, 2.0), 0)
    with pytest.raises(InvalidInputError, match="probability"):
        race_odds(1.5, (1, 1))


def test_the_shot_clock_counts_extends_and_gives_back_at_a_new_rack() -> None:
    clock = ShotClock(rule=ShotClockRule(seconds=30, extension=25, extensions=1))
    assert clock.remaining(now=5.0) == 30
    clock = clock.start(now=10.0, rack=1)
    assert clock.remaining(now=22.5) == 17.5
    clock = clock.extend(1, now=20.0)
    assert clock.remaining(now=20.0) == 45.0
    assert clock.extensions_left == (1, 0)
    with pytest.raises(Exception, match="no extension left"):
        clock.extend(1, now=21.0)
    stopped = clock.stop(now=50.0)
    assert not stopped.running
    assert stopped.remaining(now=99.0) == 15.0
    fresh = stopped.start(now=60.0, rack=2)
    assert fresh.extensions_left == (1, 1)
    assert fresh.remaining(now=60.0) == 30
    assert stopped.start(now=60.0, rack=1).extensions_left == (1, 0)
    assert fresh.to_json(now=61.0)["remaining"] == 29.0
