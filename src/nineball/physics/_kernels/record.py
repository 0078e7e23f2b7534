"""Writing states and events into the event loop's arrays (shared by the loop and clusters)."""

from __future__ import annotations

import numpy as np

from nineball.physics._kernels.jit import lean

__all__ = ["put", "record"]


@lean
def put(dst: np.ndarray, b: int, src: np.ndarray) -> None:
    """dst[b] = src for a (3, 3) state (explicit loops compile faster than slice assignment)."""
    for r in range(3):
        for c in range(3):
            dst[b, r, c] = src[r, c]


@lean
def record(
    ev_t: np.ndarray,
    ev_k: np.ndarray,
    ev_i: np.ndarray,
    ev_j: np.ndarray,
    ev_s: np.ndarray,
    ev_m: np.ndarray,
    count: int,
    t: float,
    kind: int | np.int64,
    i: int,
    j: int | np.int64,
    state_i: np.ndarray,
    mot_i: int,
    state_j: np.ndarray,
    mot_j: int | np.int64,
) -> None:
    """Write event ``count``."""
    ev_t[count] = t
    ev_k[count] = kind
    ev_i[count] = i
    ev_j[count] = j
    ev_m[count, 0] = mot_i
    ev_m[count, 1] = mot_j
    for r in range(3):
        for c in range(3):
            ev_s[count, 0, r, c] = state_i[r, c]
            ev_s[count, 1, r, c] = state_j[r, c]
