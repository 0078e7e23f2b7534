"""The prior behind a player's stated odds, and its fit to the player's own shots.

A computer player states the chance of the shot it chose from ``n`` fresh noisy samples of it,
``k`` of which kept the table (:meth:`nineball.players.search.SearchPlayer.stated`). ``k / n``
binned by its own value is not honest (a shot seen to work 31 times in 32 is more often a sure
shot with one unlucky sample than a 97% shot), so the player states the mean of the shot's
chance given ``k``, under a prior over the chances of the shots it chooses: an
:class:`OddsPrior`, a mixture of Beta distributions. The prior is fitted to the samples of many
of the level's statements (:func:`fit_odds_prior`, the beta-binomial likelihood, by EM), never
to what the shots did afterwards, so the statements can be checked against that honestly
(benchmarks/stated_odds.py; docs/players.md).

>>> OddsPrior().mean(3, 4)  # one uniform Beta(1, 1): the rule of succession, (k + 1) / (n + 2)
0.6666666666666666
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.errors import InvalidInputError

__all__ = ["SUCCESSION", "OddsPrior", "fit_odds_prior"]

MAX_COMPONENTS = 3
"""The most Beta components :func:`fit_odds_prior` tries (it keeps the fewest the data need)."""

_LOG_SPAN = (-6.0, 9.0)
"""The range of log a and log b searched: a Beta's weights between 0.0025 and about 8,100."""


@dataclass(frozen=True, slots=True)
class OddsPrior:
    """A mixture of Beta(a, b) priors over shots' chances: ``(weight, a, b)`` each.

    The weights are normalised; the default is one Beta(1, 1) (the rule of succession).

    Raises:
        InvalidInputError: no component, a component not three numbers, or a weight, ``a`` or
            ``b`` that is not a finite positive number.
    """

    components: tuple[tuple[float, float, float], ...] = ((1.0, 1.0, 1.0),)

    def __post_init__(self) -> None:
        """Check every component and normalise the weights."""
        parts = self.components
        if not isinstance(parts, tuple) or not parts:
            raise InvalidInputError(f"odds_prior wants (weight, a, b) components, got {parts!r}")
        for part in parts:
            if not (
                isinstance(part, tuple)
                and len(part) == 3
                and all(isinstance(x, (int, float)) and not isinstance(x, bool) for x in part)
                and all(math.isfinite(x) and x > 0 for x in part)
            ):
                raise InvalidInputError(
                    f"odds_prior components must be three finite positive numbers "
                    f"(weight, a, b), got {part!r}"
                )
        total = math.fsum(w for w, _, _ in parts)
        normal = tuple((float(w) / total, float(a), float(b)) for w, a, b in parts)
        object.__setattr__(self, "components", normal)

    @classmethod
    def beta(cls, a: float, b: float) -> OddsPrior:
        """One Beta(a, b)."""
        return cls(((1.0, a, b),))

    def mean(self, kept: int, n: int) -> float:
        """The mean chance of a shot whose ``kept`` of ``n`` samples worked, under this prior.

        Each component's weight is updated by how likely ``kept`` of ``n`` is under it (the
        beta-binomial), and its mean is (kept + a) / (n + a + b).

        Raises:
            InvalidInputError: ``kept`` or ``n`` is not a whole number, or ``kept`` is outside
                0..n.
        """
        whole = (int, np.integer)
        if not (
            all(isinstance(x, whole) and not isinstance(x, bool) for x in (kept, n))
            and 0 <= kept <= n
        ):
            raise InvalidInputError(f"kept must be a whole number in 0..{n!r}, got {kept!r}")
        if len(self.components) == 1:
            _, a, b = self.components[0]
            return (kept + a) / (n + a + b)
        logs = [
            math.log(w)
            + math.lgamma(kept + a)
            + math.lgamma(n - kept + b)
            - math.lgamma(n + a + b)
            - math.lgamma(a)
            - math.lgamma(b)
            + math.lgamma(a + b)
            for w, a, b in self.components
        ]
        top = max(logs)
        weights = [math.exp(x - top) for x in logs]
        means = [(kept + a) / (n + a + b) for _, a, b in self.components]
        return math.fsum(w * m for w, m in zip(weights, means, strict=True)) / math.fsum(weights)


SUCCESSION = OddsPrior()
"""One Beta(1, 1): a shot's chance stated as (k + 1) / (n + 2), Laplace's rule of succession."""


def _cumlog(values: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    """Log Γ(v + j) - log Γ(v) for j = 0..n, each row one v: the sums of log(v + i), i < j."""
    steps = np.log(values[:, None] + np.arange(n, dtype=np.float64)[None, :])
    out = np.zeros((values.size, n + 1))
    np.cumsum(steps, axis=1, out=out[:, 1:])
    return out


def _log_bb(u: NDArray[np.float64], v: NDArray[np.float64], n: int) -> NDArray[np.float64]:
    """Log P(k | n, Beta(e^u, e^v)) for k = 0..n, less log C(n, k): one row per (u, v)."""
    a, b = np.exp(u), np.exp(v)
    ks = np.arange(n + 1)
    return np.asarray(
        _cumlog(a, n)[:, ks] + _cumlog(b, n)[:, n - ks] - _cumlog(a + b, n)[:, [n]],
        dtype=np.float64,
    )


def _fit_one(
    counts: NDArray[np.float64], n: int, start: tuple[float, float]
) -> tuple[float, float]:
    """The (log a, log b) that maximise the weighted beta-binomial likelihood of ``counts``.

    A grid of step 0.05 within 0.5 of ``start``, moved on while the best is on its edge, then
    a grid of step 0.005 around the best.
    """
    best = start
    for step, span, moves in ((0.05, 0.5, 40), (0.005, 0.05, 1)):
        offsets = np.arange(-span, span + step / 2, step)
        for _ in range(moves):
            grid_u, grid_v = np.meshgrid(best[0] + offsets, best[1] + offsets)
            u = np.clip(grid_u.ravel(), *_LOG_SPAN)
            v = np.clip(grid_v.ravel(), *_LOG_SPAN)
            k = int(np.argmax(_log_bb(u, v, n) @ counts))
            edge = max(abs(u[k] - best[0]), abs(v[k] - best[1])) > span - step / 2
            best = (float(u[k]), float(v[k]))
            if not edge:
                break
    return best


def _em(
    counts: NDArray[np.float64], n: int, starts: list[tuple[float, float]]
) -> tuple[float, list[tuple[float, float, float]]]:
    """A mixture of ``len(starts)`` Betas fitted by EM from ``starts``: (log likelihood, parts)."""
    params = list(starts)
    weights = np.full(len(params), 1.0 / len(params))
    last = -math.inf
    for _ in range(200):
        logs = _log_bb(np.array([u for u, _ in params]), np.array([v for _, v in params]), n)
        joint = np.log(np.maximum(weights, 1e-300))[:, None] + logs
        top = joint.max(axis=0)
        total = top + np.log(np.exp(joint - top).sum(axis=0))
        loglik = float(counts @ total)
        if loglik - last < 1e-7 * max(1.0, abs(loglik)):
            break
        last = loglik
        shares = np.exp(joint - total) * counts  # each component's part of each count
        weights = shares.sum(axis=1) / counts.sum()
        params = [_fit_one(shares[i], n, params[i]) for i in range(len(params))]
    parts = [
        (float(w), math.exp(u), math.exp(v)) for w, (u, v) in zip(weights, params, strict=True)
    ]
    return last, parts


def fit_odds_prior(kept: Sequence[int], n: int) -> OddsPrior:
    """The mixture of Betas that best explains how often many shots' samples worked.

    ``kept``: for each of many shots, how many of its ``n`` noisy samples kept the table. One,
    two and three Beta components are fitted by maximum likelihood (the beta-binomial, by EM
    from starts spread over the chances), and the one with the best Bayesian information
    criterion is kept: more components only where the shots need them. Weights are rounded to
    three decimals (summing to 1), the Betas' a and b to two decimals or, under 0.1, two
    significant figures. Only the samples are used, never what the shots did afterwards.

    Raises:
        InvalidInputError: no counts, or a count outside 0..n.
    """
    values = np.asarray(kept, dtype=np.int64).reshape(-1)
    if values.size == 0 or n < 1 or values.min() < 0 or values.max() > n:
        bad = "none" if values.size == 0 else f"{values.min()}..{values.max()}"
        raise InvalidInputError(f"counts of 0..{n} successes wanted, got {bad}")
    counts = np.bincount(values, minlength=n + 1).astype(np.float64)
    best: tuple[float, list[tuple[float, float, float]]] | None = None
    for size in range(1, MAX_COMPONENTS + 1):
        # Starts: means spread evenly over (0, 1), each a Beta of weight 4.
        means = [(i + 0.5) / size for i in range(size)]
        starts = [(math.log(4 * m), math.log(4 * (1 - m))) for m in means]
        loglik, parts = _em(counts, n, starts)
        bic = -2 * loglik + (3 * size - 1) * math.log(values.size)
        if best is None or bic < best[0]:
            best = (bic, parts)
    assert best is not None
    parts = sorted(best[1], key=lambda p: p[1] / (p[1] + p[2]))
    weights = [max(round(w, 3), 0.001) for w, _, _ in parts]
    heaviest = weights.index(max(weights))
    weights[heaviest] = round(1.0 - math.fsum(weights) + weights[heaviest], 3)
    return OddsPrior(
        tuple((w, _round(a), _round(b)) for w, (_, a, b) in zip(weights, parts, strict=True))
    )


def _round(x: float) -> float:
    """Two decimals, or two significant figures for numbers under 0.1 (never 0)."""
    return round(x, 2) if x >= 0.1 else float(f"{x:.2g}")
