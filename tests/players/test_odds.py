"""The prior behind the stated odds: its posterior means, its checks and its fit."""

from __future__ import annotations

import math

import numpy as np
import pytest

from nineball.errors import InvalidInputError
from nineball.players.odds import SUCCESSION, OddsPrior, fit_odds_prior


def test_one_beta_states_k_plus_a_over_n_plus_a_plus_b() -> None:
    assert SUCCESSION.mean(0, 32) == 1 / 34
    assert SUCCESSION.mean(32, 32) == 33 / 34
    assert OddsPrior.beta(0.4, 0.2).mean(7, 32) == pytest.approx(7.4 / 32.6)
    # two equal components are the one Beta
    twice = OddsPrior(((0.3, 2.0, 5.0), (0.7, 2.0, 5.0)))
    for k in range(33):
        assert twice.mean(k, 32) == pytest.approx(OddsPrior.beta(2.0, 5.0).mean(k, 32))


def test_a_mixture_weighs_its_components_by_how_well_they_explain_the_samples() -> None:
    # Mostly sure shots and a few even ones: 16 of 32 comes from the even ones, so it is
    # stated about one half, not pulled up to the sure shots' 0.97; 32 of 32 is a sure shot.
    prior = OddsPrior(((0.9, 30.0, 1.0), (0.1, 5.0, 5.0)))
    assert prior.mean(16, 32) == pytest.approx(21 / 42, abs=0.01)
    assert prior.mean(32, 32) > 0.96
    # the mean against a sum over a fine grid of chances
    p = np.linspace(0.0005, 0.9995, 1000)
    density = 0.9 * 30 * p**29 + 0.1 * 630 * p**4 * (1 - p) ** 4  # 1/B(30,1), 1/B(5,5)
    for k in (3, 16, 25, 31):
        like = density * p**k * (1 - p) ** (32 - k)
        assert prior.mean(k, 32) == pytest.approx((p * like).sum() / like.sum(), rel=1e-3)
    # the stated chance never falls as more samples work
    means = [prior.mean(k, 32) for k in range(33)]
    assert means == sorted(means)
    assert prior.components[0][0] == pytest.approx(0.9)  # weights normalised
    assert OddsPrior(((3.0, 1.0, 1.0), (1.0, 2.0, 2.0))).components[0][0] == 0.75


def test_bad_priors_and_counts_are_refused() -> None:
    for bad in (
        (),
        ((0.0, 1.0, 1.0),),
        ((1.0, math.nan, 1.0),),
        ((1.0, 1.0, -2.0),),
        ((1.0, 1.0),),
        (("a", 1.0, 1.0),),
        ((True, 1.0, 1.0),),
        [(1.0, 1.0, 1.0)],
    ):
        with pytest.raises(InvalidInputError, match="odds_prior"):
            OddsPrior(bad)  # type: ignore[arg-type]
    for k, n in ((-1, 32), (33, 32), (0, -1), (3.5, 32), (True, 32), (3, 32.0), ("3", 32)):
        with pytest.raises(InvalidInputError, match="kept"):
            SUCCESSION.mean(k, n)  # type: ignore[arg-type]


def test_the_prior_is_found_from_the_samples_alone() -> None:
    rng = np.random.default_rng(5)
    kept = rng.binomial(32, rng.beta(2.0, 0.5, 4000))  # shots that mostly work, 32 samples each
    (one,) = fit_odds_prior(kept.tolist(), 32).components  # one Beta is enough
    assert one[1] == pytest.approx(2.0, rel=0.15)
    assert one[2] == pytest.approx(0.5, rel=0.15)
    (even,) = fit_odds_prior(rng.binomial(32, rng.uniform(size=4000)).tolist(), 32).components
    assert even[1:] == pytest.approx((1.0, 1.0), rel=0.15)
    # sure shots and a few doubtful ones: two components, found with their weights
    chances = np.where(rng.uniform(size=4000) < 0.85, rng.beta(20, 0.3, 4000), rng.beta(3, 3, 4000))
    fitted = fit_odds_prior(rng.binomial(32, chances).tolist(), 32)
    assert len(fitted.components) == 2
    (w1, a1, b1), (_, a2, b2) = fitted.components  # the lower mean first
    assert w1 == pytest.approx(0.15, abs=0.03)
    assert a1 / (a1 + b1) == pytest.approx(0.5, abs=0.05)
    assert a2 / (a2 + b2) > 0.97
    # and states the doubtful ones' chances as they are, on fresh shots of the same kind
    chances = np.where(rng.uniform(size=4000) < 0.85, rng.beta(20, 0.3, 4000), rng.beta(3, 3, 4000))
    kept = rng.binomial(32, chances)
    middle = (kept >= 10) & (kept <= 22)
    stated = np.array([fitted.mean(int(k), 32) for k in kept[middle]])
    assert stated.mean() == pytest.approx(chances[middle].mean(), abs=0.02)
    for bad in ([], [33], [-1, 4]):
        with pytest.raises(InvalidInputError, match="counts"):
            fit_odds_prior(bad, 32)
