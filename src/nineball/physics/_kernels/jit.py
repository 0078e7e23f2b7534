"""The decorator of the kernels that only other kernels call."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba import njit

__all__ = ["internal"]

F = TypeVar("F", bound=Callable[..., Any])


def internal(func: F) -> F:
    """Compile ``func`` like every kernel (cached, numpy error model), without a Python entry.

    ``no_cpython_wrapper=True``: no wrapper to call it from Python is compiled, which shortens
    the cold start; it can only be called from other kernels.
    """
    return cast(F, njit(**_OPTIONS)(func))


_OPTIONS: dict[str, Any] = {"cache": True, "error_model": "numpy", "no_cpython_wrapper": True}
"""numba's options (``no_cpython_wrapper`` is missing from numba's type stubs)."""
