"""The match's random streams: each entry's generator is numpy's SeedSequence of its key."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from nineball.game.streams import Purpose, Streams, _EntryKey


def _numpy(seed: int, game: int, entry: int, purpose: Purpose) -> np.random.Generator:
    return np.random.default_rng(np.random.SeedSequence([seed, game, entry, int(purpose)]))


@settings(max_examples=300, deadline=None)
@given(
    seed=st.one_of(
        st.integers(0, 2**63 - 1),
        st.sampled_from([0, 1, 2**32 - 1, 2**32, 2**62, 2**63 - 1, 2**63, 2**70]),
    ),
    game=st.one_of(st.integers(0, 2**32 - 1), st.sampled_from([0, 2**32, 2**40])),
    entry=st.one_of(st.integers(0, 300), st.sampled_from([2**32 - 1, 2**32])),
    purpose=st.sampled_from(list(Purpose)),
)
def test_an_entry_draws_what_numpy_seed_sequence_draws(
    seed: int, game: int, entry: int, purpose: Purpose
) -> None:
    ours = Streams(seed).entry(game, entry, purpose)
    theirs = _numpy(seed, game, entry, purpose)
    assert ours.bit_generator.state == theirs.bit_generator.state
    assert np.array_equal(ours.random(4), theirs.random(4))


def test_other_requests_of_the_key_go_to_numpy() -> None:
    key = (12345678901, 3, 7, 2)
    ours, theirs = _EntryKey(key), np.random.SeedSequence(list(key))
    for words, dtype in ((4, np.uint64), (8, np.uint32), (3, np.uint64), (1, np.uint32)):
        assert np.array_equal(
            ours.generate_state(words, dtype), theirs.generate_state(words, dtype)
        )
