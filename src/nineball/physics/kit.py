"""The kernels' view of a table and its parameters: one vector, one packed array per pair.

:func:`param_vector` lays the parameters out as the kernels read them (``_kernels/constants``);
:func:`kit` packs the table and that vector for ``shot.shot`` once per (parameters, table) pair.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from nineball.physics._kernels import constants as k
from nineball.physics._kernels import warm
from nineball.physics._kernels.shot import pack_table
from nineball.physics.params import PhysicsParams
from nineball.physics.table import TableSpec

__all__ = ["Kit", "kit", "param_vector"]


@functools.lru_cache(maxsize=64)
def param_vector(params: PhysicsParams, table: TableSpec) -> NDArray[np.float64]:
    """The kernels' parameter vector (layout in :mod:`._kernels.constants`), read-only."""
    prm = np.zeros(k.NPRM)
    fa, fb, fc = params.ball_friction_coefficients()
    prm[k.P_R] = params.radius
    prm[k.P_M] = params.mass
    prm[k.P_G] = params.g
    prm[k.P_MUS] = params.mu_slide
    prm[k.P_MUR] = params.mu_roll
    prm[k.P_ALPHA] = params.spin_decel
    prm[k.P_EB] = params.e_ball
    prm[k.P_FA] = fa
    prm[k.P_FB] = fb
    prm[k.P_FC] = fc
    prm[k.P_EC] = params.e_cushion
    prm[k.P_MUC] = params.mu_cushion
    prm[k.P_SLOW] = params.settle_below
    prm[k.P_H] = min(max(table.nose_height, params.radius), 2.0 * params.radius)
    prm[k.P_ES] = params.e_slate
    prm[k.P_HOP] = params.hop_below
    prm[k.P_CUE_END] = params.cue_endmass
    prm[k.P_MISCUE] = params.miscue_limit
    prm[k.P_WIDTH] = table.width
    prm[k.P_LENGTH] = table.length
    prm.setflags(write=False)
    return prm


@dataclass(frozen=True, slots=True)
class Kit:
    """What the kernel needs of a table and parameters, prepared once per pair."""

    params: PhysicsParams
    table: TableSpec
    tab: NDArray[np.float64]
    """The table and parameters packed for the kernel (``shot.pack_table``), read-only."""
    names: tuple[str, ...]


_KITS: dict[tuple[int, int], Kit] = {}


@functools.lru_cache(maxsize=64)
def _packed(params: PhysicsParams, table: TableSpec) -> tuple[NDArray[np.float64], tuple[str, ...]]:
    """The packed table of (params, table) and its cushions' names, cached by value.

    Equal parameters made anew (each new match makes its own) share one array, packed once.
    """
    warm.prepare(readonly=True)  # a cold start: a child compiles while we pack
    prm = param_vector(params, table)
    tab = pack_table(table.segments, table.jaws, table.captures, table.boundary, prm)
    tab.setflags(write=False)
    return tab, table.cushion_names()


def kit(params: PhysicsParams, table: TableSpec) -> Kit:
    """The kit of (params, table), cached by identity (both are frozen; the cache holds them).

    Its packed array is cached by value (:func:`_packed`).
    """
    key = (id(params), id(table))
    found = _KITS.get(key)
    if found is None or found.params is not params or found.table is not table:
        if len(_KITS) >= 64:
            _KITS.clear()
        tab, names = _packed(params, table)
        made = Kit(params, table, tab, names)
        _KITS[key] = made
        return made
    return found
