"""Property tests of the bracket logic: formats, byes, progress, placings, tables (hypothesis)."""

from __future__ import annotations

import itertools
from collections import Counter

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from nineball.errors import InvalidInputError
from nineball.tournament import (
    BYE,
    Bye,
    Entrant,
    Format,
    PlaceOf,
    Progress,
    Result,
    Seed,
    Seeding,
    Stage,
    Status,
    assign_tables,
    double_elimination,
    groups_to_bracket,
    resolve,
    round_robin,
    seed_order,
    seed_positions,
    single_elimination,
)
from nineball.tournament.bracket import Bracket


def _play(
    bracket: Bracket, winners: list[int], order: list[int] | None = None
) -> tuple[Progress, list[str], list[tuple[str, ...]]]:
    """Play the bracket to its end: each ready match, in an order drawn from ``order``, won by the
    slot ``winners`` says; returns the final progress, the keys in the order played and the ready
    sets seen."""
    results: dict[str, Result] = {}
    played: list[str] = []
    seen: list[tuple[str, ...]] = []
    step = 0
    while True:
        progress = resolve(bracket, results)
        ready = progress.ready()
        seen.append(tuple(m.key for m in ready))
        if not ready:
            return progress, played, seen
        pick = ready[(order[step % len(order)] if order else 0) % len(ready)]
        winner = winners[step % len(winners)]
        results[pick.key] = Result(winner=winner, score=(3, 1) if winner == 0 else (1, 3))
        played.append(pick.key)
        step += 1


_WINNERS = st.lists(st.integers(0, 1), min_size=1, max_size=64)
_ORDER = st.lists(st.integers(0, 50), min_size=1, max_size=16)


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), winners=_WINNERS, order=_ORDER)
def test_double_elimination_every_player_plays_until_two_losses(
    n: int, winners: list[int], order: list[int]
) -> None:
    bracket = double_elimination(n)
    progress, played, _seen = _play(bracket, winners, order)
    assert progress.is_over
    # No match is ever scheduled twice: each key is played once.
    assert len(played) == len(set(played))
    losses: Counter[int] = Counter()
    matches: Counter[int] = Counter()
    for state in progress:
        if state.status is Status.DONE:
            assert BYE not in state.players
            assert None not in state.players
            losses[state.loser] += 1  # type: ignore[index]
            for player in state.players:
                matches[player] += 1  # type: ignore[index]
    final = progress["F1"]
    reset = progress["F2"]
    champion = reset.winner if reset.status is Status.DONE else final.winner
    assert champion is not None
    for seed in range(1, n + 1):
        assert matches[seed] >= 1  # a bye is never a whole event
        if seed == champion:
            assert losses[seed] <= 1
        else:
            assert losses[seed] == 2, (seed, losses)
    # The reset is played exactly when the losers' champion won the first final.
    assert final.status is Status.DONE
    assert final.result is not None
    assert (reset.status is Status.DONE) == (final.result.winner == 1)
    assert reset.status in (Status.DONE, Status.VOID)
    if reset.status is Status.DONE:
        assert set(reset.players) == set(final.players)
    # 2n - 2 matches, one more with the reset.
    assert len(played) == 2 * n - 2 + (reset.status is Status.DONE)
    # Everyone is placed once; one champion; the other finalist second.
    placings = progress.placings()
    assert sorted(seed for _, seed in placings) == list(range(1, n + 1))
    assert [seed for place, seed in placings if place == 1] == [champion]
    assert [place for place, seed in placings if seed in final.players and seed != champion] == [2]


@settings(max_examples=80, deadline=None)
@given(n=st.integers(2, 40), winners=_WINNERS, order=_ORDER)
def test_single_elimination_loses_once(n: int, winners: list[int], order: list[int]) -> None:
    progress, played, _ = _play(single_elimination(n), winners, order)
    assert len(played) == n - 1 == len(set(played))
    losers = Counter(s.loser for s in progress if s.status is Status.DONE)
    assert set(losers.values()) <= {1}
    assert len(losers) == n - 1
    placings = progress.placings()
    assert sorted(seed for _, seed in placings) == list(range(1, n + 1))


@settings(max_examples=100, deadline=None)
@given(n=st.integers(2, 64))
def test_byes_go_to_the_best_seeds_in_the_first_round(n: int) -> None:
    for bracket in (single_elimination(n), double_elimination(n)):
        size = bracket.size
        assert size >= n > size // 2
        first = [m for m in bracket.matches if m.stage is Stage.WINNERS and m.round == 1]
        assert len(first) == size // 2
        byes = [m for m in first if Bye() in m.sources]
        assert len(byes) == size - n
        # Each bye faces a seed, and they are the best seeds: 1 .. size - n.
        given_to = sorted(s.seed for m in byes for s in m.sources if isinstance(s, Seed))
        assert given_to == list(range(1, size - n + 1))
        # No bye against a bye, and every seed appears once.
        seeds = [s.seed for m in first for s in m.sources if isinstance(s, Seed)]
        assert sorted(seeds) == list(range(1, n + 1))
        progress = resolve(bracket, {})
        assert all(
            s.status is not Status.WALKOVER or s.winner != BYE
            for s in progress
            if s.match.round == 1 and s.match.stage is Stage.WINNERS
        )


def test_seed_positions_keep_the_best_apart() -> None:
    assert seed_positions(16) == (1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11)
    for size in (2, 4, 8, 32, 64):
        positions = seed_positions(size)
        assert sorted(positions) == list(range(1, size + 1))
        assert all(positions[2 * i] + positions[2 * i + 1] == size + 1 for i in range(size // 2))
        half = size // 2
        assert (1 in positions[:half]) != (2 in positions[:half]) or size == 2


@settings(max_examples=60, deadline=None)
@given(n=st.integers(2, 25), winners=_WINNERS)
def test_a_round_robin_meets_everyone_once(n: int, winners: list[int]) -> None:
    bracket = round_robin(n)
    pairs = [
        tuple(sorted(s.seed for s in m.sources if isinstance(s, Seed))) for m in bracket.matches
    ]
    assert sorted(pairs) == sorted(itertools.combinations(range(1, n + 1), 2))
    rounds = Counter(m.round for m in bracket.matches)
    assert len(rounds) == (n if n % 2 else n - 1)
    for round_number in rounds:
        players = [
            s.seed
            for m in bracket.matches
            if m.round == round_number
            for s in m.sources
            if isinstance(s, Seed)
        ]
        assert len(players) == len(set(players))  # nobody twice in a round
    progress, played, _ = _play(bracket, winners)
    assert len(played) == n * (n - 1) // 2
    table = progress.tables[0]
    assert sum(line.won for line in table) == len(played)
    assert [line.won for line in table] == sorted((line.won for line in table), reverse=True)


@settings(max_examples=60, deadline=None)
@given(groups=st.integers(2, 6), extra=st.integers(0, 12), winners=_WINNERS)
def test_groups_send_their_best_into_a_bracket(groups: int, extra: int, winners: list[int]) -> None:
    n = 3 * groups + extra
    bracket = groups_to_bracket(n, groups, 2)
    sizes = [len(g) for g in bracket.groups]
    assert max(sizes) - min(sizes) <= 1
    assert sum(sizes) == n
    first = [m for m in bracket.matches if m.stage is Stage.KNOCKOUT and m.round == 1]
    for match in first:
        places = [s for s in match.sources if isinstance(s, PlaceOf)]
        if len(places) == 2 and {p.place for p in places} == {1, 2}:
            assert places[0].group != places[1].group  # no group's winner v its own runner-up
    progress, _, _ = _play(bracket, winners)
    assert progress.is_over
    placings = progress.placings()
    assert sorted(seed for _, seed in placings) == list(range(1, n + 1))
    knockout = {p for m in progress if m.match.stage is Stage.KNOCKOUT for p in m.players}
    for group, table in enumerate(progress.tables, start=1):
        assert {line.seed for line in table[:2]} <= knockout, group


def test_results_a_bracket_cannot_hold_are_refused() -> None:
    bracket = double_elimination(5)
    with pytest.raises(InvalidInputError, match="not in the bracket"):
        resolve(bracket, {"W9-9": Result(winner=0, score=(1, 0))})
    with pytest.raises(InvalidInputError, match="cannot have a result: it is walkover"):
        resolve(bracket, {"W1-1": Result(winner=0, score=(1, 0))})
    with pytest.raises(InvalidInputError, match="cannot have a result: it is waiting"):
        resolve(bracket, {"W2-1": Result(winner=0, score=(1, 0))})
    with pytest.raises(InvalidInputError, match="slot 0 or 1"):
        Result(winner=2, score=(1, 0))
    with pytest.raises(InvalidInputError, match="entrants"):
        double_elimination(1)
    with pytest.raises(InvalidInputError, match="too few"):
        groups_to_bracket(5, 2, 2)


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 30),
    tables=st.integers(1, 9),
    winners=_WINNERS,
    form=st.sampled_from([Format.DOUBLE, Format.ROUND_ROBIN]),
)
def test_tables_never_hold_two_matches_nor_a_player_two_tables(
    n: int, tables: int, winners: list[int], form: Format
) -> None:
    bracket = double_elimination(n) if form is Format.DOUBLE else round_robin(n)
    results: dict[str, Result] = {}
    on_table: dict[str, int] = {}
    step = 0
    while True:
        progress = resolve(bracket, results)
        on_table = {k: t for k, t in on_table.items() if progress[k].status is Status.READY}
        on_table |= assign_tables(progress, on_table, tables)
        assert len(set(on_table.values())) == len(on_table) <= tables
        players = [p for key in on_table for p in progress[key].players]
        assert len(players) == len(set(players))
        if not on_table:
            assert not progress.ready()
            break
        # A free table while a ready match waits only when its players are busy.
        if len(on_table) < tables:
            busy = set(players)
            for waiting in progress.ready():
                if waiting.key not in on_table:
                    assert busy & set(waiting.players)
        key = min(on_table, key=lambda k: on_table[k])
        results[key] = Result(winner=winners[step % len(winners)], score=(1, 0))
        step += 1
    assert progress.is_over


def test_the_seeding_is_reproducible() -> None:
    players = [
        Entrant(name=f"P{i}", rating=None if i % 3 == 0 else 400.0 + 10 * (i % 4))
        for i in range(12)
    ]
    by_rating = seed_order(players, Seeding.RATING, seed=5)
    assert by_rating == seed_order(players, Seeding.RATING, seed=5)
    ratings = [players[i].rating for i in by_rating]
    rated = [r for r in ratings if r is not None]
    assert rated == sorted(rated, reverse=True)
    assert ratings[len(rated) :] == [None] * (len(players) - len(rated))  # the unrated last
    draws = {seed_order(players, Seeding.RANDOM, seed=s) for s in range(10)}
    assert len(draws) > 5
    assert seed_order(players, Seeding.RANDOM, seed=3) == tuple(
        int(i) for i in np.random.default_rng(3).permutation(12)
    )
