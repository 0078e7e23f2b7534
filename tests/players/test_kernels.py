"""The players' kernels give the numbers of the Python and numpy code they replaced, bit for bit."""

from __future__ import annotations

import math

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from numpy.typing import NDArray

from nineball.equipment import BallId, PocketId
from nineball.physics import PhysicsParams, nine_foot
from nineball.players._kernels import (
    cluster_pairs,
    forest_leaves,
    near_segment,
    open_lines,
    segments_clear,
)
from nineball.players.aim import is_path_clear, paths_clear, pocket_aim, routes_clear
from nineball.players.value import shipped_value_model

TABLE = nine_foot()
RADIUS = PhysicsParams().radius
AIMS = np.array([pocket_aim(TABLE, p) for p in PocketId], dtype=np.float64)


def _open_lines_numpy(
    points: NDArray[np.float64], aims: NDArray[np.float64], radius: float
) -> tuple[NDArray[np.int64], NDArray[np.float64]]:
    """The numpy reference: every ball, pocket and other ball at once."""
    d = aims[None, :, :] - points[:, None, :]  # (balls, pockets, 2)
    length2 = np.einsum("bpk,bpk->bp", d, d)
    rel = points[None, None, :, :] - points[:, None, None, :]  # (ball, 1, other, 2)
    t = np.clip(np.einsum("bpok,bpk->bpo", rel, d) / length2[:, :, None], 0.0, 1.0)
    gap = rel - t[..., None] * d[:, :, None, :]
    near = np.einsum("bpok,bpok->bpo", gap, gap) < (2.0 * radius - 1e-9) ** 2
    each = np.arange(points.shape[0])
    near[each, :, each] = False  # a ball does not block its own line
    clear = ~near.any(axis=2)
    distance = np.sqrt(length2)
    nearest = np.where(clear, distance, np.inf).min(axis=1)
    return clear.sum(axis=1), np.where(np.isfinite(nearest), nearest, distance.min(axis=1))


def _layout(rng: np.random.Generator, n: int, packed: bool) -> NDArray[np.float64]:
    """``n`` ball centres on the table; ``packed`` puts them within a foot of each other."""
    if packed:
        centre = rng.uniform([0.4, 0.6], [TABLE.width - 0.4, TABLE.length - 0.6])
        return centre + rng.uniform(-0.15, 0.15, (n, 2))
    return rng.uniform([RADIUS, RADIUS], [TABLE.width - RADIUS, TABLE.length - RADIUS], (n, 2))


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(1, 9), st.booleans())
def test_open_lines_and_clusters_agree_with_numpy(seed: int, n: int, packed: bool) -> None:
    points = _layout(np.random.default_rng(seed), n, packed)
    counts, nearest = open_lines(points, AIMS, RADIUS)
    want_counts, want_nearest = _open_lines_numpy(points, AIMS, RADIUS)
    assert counts.tolist() == want_counts.tolist()
    assert nearest.tobytes() == want_nearest.tobytes()
    within = 2.0 * RADIUS + 0.02
    apart = np.sqrt(((points[:, None, :] - points[None, :, :]) ** 2).sum(axis=2))
    assert cluster_pairs(points, within) == int(np.triu(apart < within, k=1).sum())


def test_a_ball_in_the_way_closes_a_line_and_the_nearest_open_pocket_counts() -> None:
    # a ball halfway along the line from the other to its nearest pocket
    one = AIMS[0] + np.array([0.3, 0.3])
    blocker = (one + AIMS[0]) / 2.0
    counts, nearest = open_lines(np.array([one, blocker]), AIMS, RADIUS)
    distances = np.hypot(*(AIMS - one).T)
    assert counts[0] == 5  # every pocket but the one the other ball stands before
    assert nearest[0] == np.sort(distances)[1]


@pytest.mark.parametrize("rows", [1, 7, 300])
def test_the_forest_walk_agrees_with_numpy(rows: int) -> None:
    model = shipped_value_model()
    rng = np.random.default_rng(rows)
    x = rng.uniform(-1.0, 4.0, (rows, len(model.features)))
    # half the values exactly on a split of their feature: the walk goes left at equality
    split = np.isfinite(model.threshold)
    for f in range(x.shape[1]):
        on = model.threshold[split & (model.feature == f)]
        if on.size:
            x[::2, f] = rng.choice(on, size=x[::2, f].shape)
    leaves = forest_leaves(
        x, model.roots, model.feature, model.threshold, model.left, model.right, model.value,
        model.depth,
    )  # fmt: skip
    nodes = np.broadcast_to(model.roots, (rows, model.trees))
    for _ in range(model.depth):
        values = np.take_along_axis(x, model.feature[nodes], axis=1)
        nodes = np.where(values <= model.threshold[nodes], model.left[nodes], model.right[nodes])
    assert leaves.tobytes() == model.value[nodes].tobytes()
    assert model.raw(x).tobytes() == model.value[nodes].sum(axis=1).tobytes()


def _clear_python(
    start: tuple[float, float], end: tuple[float, float], points: NDArray[np.float64]
) -> bool:
    """The Python reference: the nearest point of the segment to each centre, by ``hypot``."""
    ax, ay = start
    dx, dy = end[0] - ax, end[1] - ay
    length2 = dx * dx + dy * dy
    for px, py in points.tolist():
        t = 0.0 if length2 == 0 else ((px - ax) * dx + (py - ay) * dy) / length2
        t = min(1.0, max(0.0, t))
        if math.hypot(ax + t * dx - px, ay + t * dy - py) < 2.0 * RADIUS - 1e-9:
            return False
    return True


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(0, 9), st.booleans())
def test_segments_clear_agrees_with_python(seed: int, n: int, packed: bool) -> None:
    rng = np.random.default_rng(seed)
    points = _layout(rng, n, packed).reshape(-1, 2)
    ends = _layout(rng, 12, packed)
    segments = [(tuple(ends[2 * i]), tuple(ends[2 * i + 1])) for i in range(6)]
    segments.append((segments[0][0], segments[0][0]))  # a point: no length
    if n:  # a segment that grazes the first ball at 2R less 1 mm
        x, y = points[0]
        segments.append(((x - 0.3, y + 2 * RADIUS - 1e-3), (x + 0.3, y + 2 * RADIUS - 1e-3)))
    rows = np.array([(*a, *b) for a, b in segments], dtype=np.float64)
    got = segments_clear(rows, points, 2.0 * RADIUS - 1e-9).tolist()
    assert got == [_clear_python(a, b, points) for a, b in segments]
    for (a, b), row in zip(segments, rows, strict=True):  # and ball by ball, counted
        near = sum(not _clear_python(a, b, points[i : i + 1]) for i in range(n))
        assert near_segment(row, points, 2.0 * RADIUS - 1e-9) == near
    if n:
        assert got[-1] is False


def test_paths_clear_skips_balls_and_takes_no_segments() -> None:
    layout = {BallId.CUE: (0.5, 0.5), BallId.ONE: (0.5, 1.0), BallId.TWO: (0.5, 1.5)}
    line = ((0.5, 0.5), (0.5, 2.0))
    assert paths_clear([line], layout, (BallId.CUE,), RADIUS) == [False]
    assert paths_clear([line], layout, {BallId.CUE, BallId.ONE, BallId.TWO}, RADIUS) == [True]
    assert is_path_clear(*line, layout, iter([BallId.CUE, BallId.ONE, BallId.TWO]), RADIUS)
    assert paths_clear([], layout, (), RADIUS) == []
    beside = ((0.6, 0.5), (0.6, 2.0))  # 10 cm to the side: clear of every ball
    assert paths_clear([line, beside], layout, (BallId.CUE,), RADIUS) == [False, True]
    # routes: clear when every segment is; a blocked first segment leaves the next routes' own
    assert routes_clear(
        [[line, beside], [beside], [], [beside, line]], layout, (BallId.CUE,), RADIUS
    ) == [
        False,
        True,
        True,
        False,
    ]
