"""The random streams of a match, by name: one seed, and a stream for each use of chance.

Every random draw of a match comes from its seed, through a :class:`numpy.random.SeedSequence`
keyed by what the draw is for, so that the same seed gives the same match bit for bit, and a
match resumed after a crash goes on exactly as it would have:

- the lag for the first break: ``(seed, 0)``;
- the rack of game ``n`` (from 1): ``(seed, n)``;
- for entry ``k`` of game ``n``: the player's choices ``(seed, n, k, 1)`` and the execution
  noise ``(seed, n, k, 2)``;
- the level of a variable noise class (:class:`nineball.game.noise.NoiseClass`) for games
  ``2p - 1`` and ``2p``: ``(seed, p, 0, 3)`` (3 is never an entry's purpose).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

import numpy as np

__all__ = ["Purpose", "Streams", "fresh_seed"]


class Purpose(IntEnum):
    """What a draw for one entry of a game is for (the last key of its stream)."""

    CHOICES = 1
    """The player's choices: a computer player's search, a learning agent's exploration."""
    NOISE = 2
    """The execution noise: the gap between the stroke chosen and the stroke played."""


def fresh_seed() -> int:
    """A seed from fresh entropy (63 bits), for a match the caller did not seed."""
    return int(np.random.SeedSequence().generate_state(1, dtype=np.uint64)[0] >> 1)


@dataclass(frozen=True, slots=True)
class Streams:
    """The named random streams of a match with seed :attr:`seed`.

    >>> streams = Streams(7)
    >>> bool(streams.rack(1).random() == Streams(7).rack(1).random())
    True
    """

    seed: int
    """The match's seed."""

    def lag(self) -> np.random.Generator:
        """The lag for the first break: who lags, and the coin toss after tied lags."""
        return np.random.default_rng(np.random.SeedSequence([self.seed, 0]))

    def rack(self, game: int) -> np.random.Generator:
        """The rack of game ``game`` (from 1): the order of the balls and their gaps."""
        return np.random.default_rng(np.random.SeedSequence([self.seed, game]))

    def noise_level(self, pair: int) -> np.random.Generator:
        """The level of a variable noise class for the ``pair``-th two games (from 1)."""
        return np.random.default_rng(np.random.SeedSequence([self.seed, pair, 0, 3]))

    def entry(self, game: int, entry: int, purpose: Purpose) -> np.random.Generator:
        """The draws of entry ``entry`` (from 0) of game ``game`` for ``purpose``."""
        return np.random.default_rng(np.random.SeedSequence([self.seed, game, entry, int(purpose)]))
