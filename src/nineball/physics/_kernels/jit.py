"""The two decorators of the kernels: entry points (called from Python) and internal kernels.

Measured on the cold start (an empty numba cache), where numba's typing and lowering cost a few
milliseconds per operation and a fixed amount per compiled function:

* no kernel gets a C-callable ``cfunc`` wrapper (``no_cfunc_wrapper``): nothing uses kernels as
  first-class function values, and the wrapper is lowered and compiled for every function;
* kernels only called by other kernels get no Python wrapper either (``no_cpython_wrapper``),
  and are not cached on disk: their code is linked into the cached entry points that call
  them, so a warm process loads the entry points and never needs them; caching them only
  wrote files at the cold start.

``error_model="numpy"`` everywhere: no Python exception checks on division (smaller code).

Each decorator notes the kernel's name as internal (never run on its own, never cached) or not
(:func:`internal_only`): on a cold start, the internal kernels get no machine code of their own
(:mod:`.warm`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from numba import njit

__all__ = [
    "entry",
    "internal",
    "internal_only",
    "lean",
    "parallel_entry",
    "shared",
    "shared_lean",
]

F = TypeVar("F", bound=Callable[..., Any])

_INTERNAL_NAMES: set[str] = set()
"""The names of the kernels only other kernels call and nothing caches (:func:`internal`,
:func:`lean`)."""
_OTHER_NAMES: set[str] = set()
"""The names of every other kernel (entry points, and internal kernels cached on their own)."""


def internal_only() -> frozenset[str]:
    """The names of the kernels whose machine code nothing ever runs.

    Only other kernels call them, and numba links their machine-independent code into each
    caller; they are not cached. numba names a kernel's code library by its function's
    qualified name, so a name that is also a kernel of another kind is left out.
    """
    return frozenset(_INTERNAL_NAMES - _OTHER_NAMES)


def _named(func: Any, internal_only: bool) -> None:
    (_INTERNAL_NAMES if internal_only else _OTHER_NAMES).add(func.__qualname__)


_ENTRY: dict[str, Any] = {"cache": True, "error_model": "numpy", "no_cfunc_wrapper": True}
"""numba's options of the entry points (``no_cfunc_wrapper`` and ``no_cpython_wrapper`` are
missing from numba's type stubs, hence dicts)."""

_INTERNAL: dict[str, Any] = {
    "error_model": "numpy",
    "no_cfunc_wrapper": True,
    "no_cpython_wrapper": True,
}
"""numba's options of the internal kernels."""


_SHARED: dict[str, Any] = {**_INTERNAL, "_nrt": True}
"""numba's options of the internal kernels cached on their own (:func:`shared`)."""

_LEAN: dict[str, Any] = {**_INTERNAL, "_nrt": False}
"""numba's options of the lean kernels: internal, and compiled without the reference counts of
numba's runtime (NRT)."""


def entry(func: F) -> F:
    """Compile ``func`` as a kernel callable from Python, cached on disk (``NUMBA_CACHE_DIR``)."""
    _named(func, internal_only=False)
    return cast(F, njit(**_ENTRY)(func))


def internal(func: F) -> F:
    """Compile ``func`` as a kernel only other kernels call: no Python entry, not cached alone."""
    _named(func, internal_only=True)
    return cast(F, njit(**_INTERNAL)(func))


def shared(func: F) -> F:
    """Compile ``func`` as an internal kernel that is also cached on disk on its own.

    For one half of the event loop (``loop._handle``): on a cold start a second process
    compiles it into the cache while this one compiles the other half (:mod:`.warm`).
    It may allocate: numba's runtime is asked for explicitly (``_nrt=True``), because a kernel
    compiled from inside a lean caller would otherwise inherit the caller's ``_nrt=False``
    and fail to compile its allocations (``cluster.impact``, called by the lean loop, on a
    cold start with no second process to compile it alone).
    """
    _named(func, internal_only=False)
    return cast(F, njit(cache=True, **_SHARED)(func))


def lean(func: F) -> F:
    """Compile ``func`` as an internal kernel that allocates no array: no reference counting.

    numba counts the references of every array a function receives or views (``a[i]``), with
    an atomic increment and decrement each; on the event loop's hot paths those counts cost
    about a quarter of the time (measured with ``perf``: ``NRT_incref`` and ``NRT_decref``).
    A kernel that allocates nothing needs none of them: it only borrows arrays its caller
    holds. (numba refuses to compile an allocation without its runtime, so a lean kernel that
    tried would fail at once.)
    """
    _named(func, internal_only=True)
    return cast(F, njit(**_LEAN)(func))


def shared_lean(func: F) -> F:
    """:func:`shared` and :func:`lean`: cached on its own, and no reference counting."""
    _named(func, internal_only=False)
    return cast(F, njit(cache=True, **_LEAN)(func))


def parallel_entry(func: F) -> F:
    """:func:`entry` compiled with ``parallel=True``: its ``prange`` loops run on numba's threads.

    For the batch of shots (:mod:`.batch`); compiled when first called, then cached on disk.
    """
    _named(func, internal_only=False)
    return cast(F, njit(parallel=True, **_ENTRY)(func))
