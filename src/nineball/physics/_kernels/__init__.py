"""Compiled kernels (numba ``@njit(cache=True)``): plain arrays and floats in, arrays out.

Every kernel uses ``error_model="numpy"`` (no Python exception checks on division: smaller,
faster code). Kernels only called from other kernels also use ``no_cpython_wrapper=True``
(no Python entry point is compiled for them: a shorter cold start); the entry points are
``loop.run``, ``motion.evolve``, ``motion.classify`` and ``roots.first_down_crossing``.

Private to :mod:`nineball.physics`. Ownership: every kernel returns new arrays and never writes
into its arguments, except the event loop, which owns the working copies it allocates itself.
"""

from __future__ import annotations

__all__: list[str] = []
