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
from typing import Any

import numpy as np
from numba import njit
from numpy.random.bit_generator import ISeedSequence
from numpy.typing import NDArray

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
        return _generator(self.seed, 0)

    def rack(self, game: int) -> np.random.Generator:
        """The rack of game ``game`` (from 1): the order of the balls and their gaps."""
        return _generator(self.seed, game)

    def noise_level(self, pair: int) -> np.random.Generator:
        """The level of a variable noise class for the ``pair``-th two games (from 1)."""
        return _generator(self.seed, pair, 0, 3)

    def entry(self, game: int, entry: int, purpose: Purpose) -> np.random.Generator:
        """The draws of entry ``entry`` (from 0) of game ``game`` for ``purpose``."""
        return _generator(self.seed, game, entry, int(purpose))


def _generator(seed: int, *key: int) -> np.random.Generator:
    """``np.random.default_rng(np.random.SeedSequence([seed, *key]))``, bit for bit.

    About eight times faster (:class:`_Key`) for a seed below 2**63 and the rest of the key
    below 2**32: a search or a learning environment makes one or two for every stroke it plays.
    """
    if 0 <= seed < 2**63 and all(0 <= k < 2**32 for k in key):
        # numpy takes any ISeedSequence; its stubs name only SeedSequence
        return np.random.Generator(np.random.PCG64(_Key(seed, key)))  # type: ignore[arg-type]
    return np.random.default_rng(np.random.SeedSequence([seed, *key]))


class _Key(ISeedSequence):
    """numpy's ``SeedSequence`` of a stream's key, its first state words from a kernel.

    A PCG64 generator asks its seed sequence for four 64-bit words once; numpy's own
    ``SeedSequence`` spends about 20 us making them in Python-level code (its entropy coerced
    word by word, its pool mixed under an ``errstate``), :func:`_pool_words` about 1 us. Any
    other request goes to numpy's ``SeedSequence`` of the same key.
    """

    __slots__ = ("_key", "_seed")

    def __init__(self, seed: int, key: tuple[int, ...]) -> None:
        self._seed = seed
        self._key = key

    def generate_state(self, n_words: int, dtype: Any = np.uint32) -> NDArray[Any]:
        """The state words numpy's ``SeedSequence([seed, *key])`` generates."""
        if n_words == 4 and dtype is np.uint64:
            more = (*self._key, 0, 0, 0)
            return _pool_words(self._seed, len(self._key), more[0], more[1], more[2])
        return np.random.SeedSequence([self._seed, *self._key]).generate_state(n_words, dtype)


@njit(cache=True, error_model="numpy")
def _pool_words(seed: int, count: int, a: int, b: int, c: int) -> NDArray[np.uint64]:
    """``SeedSequence([seed, *(a, b, c)[:count]]).generate_state(4, np.uint64)``.

    numpy's algorithm (after O'Neill's ``seed_seq_fe``): the key as 32-bit words (the seed in
    one or two, low word first; the others in one each), hashed into a pool of four words (0
    for the words a short key lacks) and mixed, then the pool hashed out into eight 32-bit
    words, paired low word first. ``seed`` below 2**63, ``a``, ``b`` and ``c`` below 2**32.
    """
    mask = np.uint64(0xFFFFFFFF)
    shift = np.uint64(16)
    words = np.zeros(5, np.uint64)
    n = 0
    rest = np.uint64(seed)
    if rest == 0:
        n = 1
    while rest:
        words[n] = rest & mask
        n += 1
        rest >>= np.uint64(32)
    words[n] = a
    words[n + 1] = b
    words[n + 2] = c
    n += count
    hash_a = np.uint64(0x43B0D7E5)
    mult_a = np.uint64(0x931E8875)
    mix_l = np.uint64(0xCA01F9DD)
    mix_r = np.uint64(0x4973F715)
    pool = np.zeros(4, np.uint64)
    for i in range(4):
        value = words[i] ^ hash_a
        hash_a = (hash_a * mult_a) & mask
        value = (value * hash_a) & mask
        pool[i] = value ^ (value >> shift)
    for src in range(4 + n):  # each pool word into the others, then the words past the pool
        if src < 4:
            word = pool[src]
        elif src < n:
            word = words[src]
        else:
            break
        for dst in range(4):
            if src == dst:
                continue
            value = word ^ hash_a
            hash_a = (hash_a * mult_a) & mask
            value = (value * hash_a) & mask
            value ^= value >> shift
            mixed = (mix_l * pool[dst] - mix_r * value) & mask
            pool[dst] = mixed ^ (mixed >> shift)
    hash_b = np.uint64(0x8B51F9DD)
    mult_b = np.uint64(0x58F38DED)
    out = np.zeros(4, np.uint64)
    for i in range(8):
        value = pool[i & 3] ^ hash_b
        hash_b = (hash_b * mult_b) & mask
        value = (value * hash_b) & mask
        value ^= value >> shift
        out[i // 2] |= value << np.uint64(32 * (i & 1))
    return out
