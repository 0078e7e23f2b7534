"""The seeding of an event: who is seed 1, 2, ... n.

By rating (best first) or at random; every draw comes from a ``numpy.random.Generator`` made
from the event's seed, so the same players and seed always give the same seeding.

>>> from nineball.tournament.config import Entrant, Seeding
>>> players = [Entrant(name="Ann", rating=480), Entrant(name="Bob"), Entrant(name="Cy", rating=520)]
>>> seed_order(players, Seeding.RATING, seed=1)
(2, 0, 1)
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from nineball.tournament.config import Entrant, Seeding

__all__ = ["seed_order"]


def seed_order(entrants: Sequence[Entrant], seeding: Seeding, *, seed: int) -> tuple[int, ...]:
    """The entrants' indices (in registration order) from seed 1 down.

    ``RATING``: highest rating first; equal ratings, and every unrated player (after the rated
    ones), in an order drawn from ``seed``. ``RANDOM``: a permutation drawn from ``seed``.
    """
    rng = np.random.default_rng(seed)
    draw = [int(i) for i in rng.permutation(len(entrants))]
    if seeding is Seeding.RANDOM:
        return tuple(draw)
    place = {index: position for position, index in enumerate(draw)}

    def key(index: int) -> tuple[int, float, int]:
        rating = entrants[index].rating
        return (rating is None, -(rating or 0.0), place[index])

    return tuple(sorted(range(len(entrants)), key=key))
