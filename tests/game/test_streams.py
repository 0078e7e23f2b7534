"""The match's random streams: each is numpy's SeedSequence of its key, bit for bit."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nineball.game.streams import Purpose, Streams, _Key


def _numpy(*key: int) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence(list(key)))


def _same(ours: np.random.Generator, theirs: np.random.Generator) -> None:
    assert ours.bit_generator.state == theirs.bit_generator.state
    assert np.array_equal(ours.random(4), theirs.random(4))


SEEDS = st.one_of(
    st.integers(0, 2**63 - 1),
    st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**62, 2**63 - 1, 2**63, 2**70]),
)
"""Seeds of one and two 32-bit words, and past the compiled hash's range (numpy's path)."""
SMALL = st.one_of(st.integers(0, 300), st.sampled_from([2**32 - 1, 2**32, 2**40]))


@settings(max_examples=300, deadline=None)
@given(seed=SEEDS, game=SMALL, entry=SMALL, purpose=st.sampled_from(list(Purpose)))
def test_every_stream_draws_what_numpy_seed_sequence_draws(
    seed: int, game: int, entry: int, purpose: Purpose
) -> None:
    streams = Streams(seed)
    _same(streams.entry(game, entry, purpose), _numpy(seed, game, entry, int(purpose)))
    _same(streams.rack(game), _numpy(seed, game))
    _same(streams.noise_level(entry), _numpy(seed, entry, 0, 3))
    _same(streams.lag(), _numpy(seed, 0))


def test_other_requests_of_the_key_go_to_numpy() -> None:
    ours, theirs = _Key(12345678901, (3, 7, 2)), np.random.SeedSequence([12345678901, 3, 7, 2])
    for words, dtype in ((4, np.uint64), (8, np.uint32), (3, np.uint64), (1, np.uint32)):
        assert np.array_equal(
            ours.generate_state(words, dtype), theirs.generate_state(words, dtype)
        )
