"""Compiled kernels (numba ``@njit(cache=True, error_model="numpy")``): plain arrays and floats in, arrays out.

Private to :mod:`nineball.physics`. Ownership: every kernel returns new arrays and never writes
into its arguments, except the event loop, which owns the working copies it allocates itself.
"""

from __future__ import annotations

__all__: list[str] = []
