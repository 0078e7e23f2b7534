"""The cold start on two cores: parts of the event loop compiled in child processes.

With an empty numba cache the first simulation compiles every kernel one after another, in one
thread (numba holds a global compiler lock). :func:`prepare` splits that work in three: two
child processes compile :func:`.loop._handle` (the resolution of an event, with the collision
kernels it calls) and :func:`.cluster.impact` (simultaneous impacts) into the
on-disk cache while this process compiles :func:`.loop._update` (the event times, with the
detection kernels); :func:`.shot.shot` is compiled last and finds both in the cache. The
machine code is the same either way; only the wall time of the first simulation changes.
Nothing happens when the event loop is already compiled or cached, on one core, or when a child
cannot run or write the cache (numba then compiles that part here).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, cast

import numba
import numpy as np
from numba import types

__all__ = ["prepare", "signatures"]

_STARTED = False


def typeof(value: Any) -> Any:
    """The numba type of ``value``."""
    return cast(Any, numba.typeof)(value)


def _cores() -> int:
    """The CPU cores this process may run on."""
    affinity = getattr(os, "sched_getaffinity", None)
    return len(affinity(0)) if affinity is not None else os.cpu_count() or 1


def signatures(readonly: bool) -> dict[str, tuple[Any, ...]]:
    """The argument types with which :func:`.shot.shot` calls its halves and ``cluster.impact``.

    ``readonly``: whether the table array given to ``shot`` (:func:`.shot.pack_table`) is
    read-only, as the table's and parameters' views inside it then are.
    """
    f, i = types.float64, types.int64

    def array(dtype: Any, ndim: int, ro: bool = False) -> Any:
        return types.Array(dtype, ndim, "C", readonly=ro)

    prm = array(f, 1, readonly)
    table = array(f, 2, readonly)
    return {
        "_update": (
            i,
            f,
            array(f, 3),
            array(i, 1),
            array(f, 1),
            array(f, 1),
            array(f, 1),
            array(i, 1),
            array(f, 1),
            array(i, 1),
            array(f, 2),
            table,
            table,
            table,
            table,
            prm,
            array(f, 2),
            table,
            array(f, 3),
        ),
        "_handle": (
            f,
            i,
            i,
            i,
            i,
            array(f, 3),
            array(i, 1),
            array(f, 1),
            table,
            table,
            prm,
            array(i, 1),
            array(i, 1),
            array(i, 1),
            array(f, 1),
            array(i, 1),
            array(i, 1),
            array(i, 1),
            array(f, 4),
            array(i, 2),
            array(f, 3),
        ),
        "impact": (
            f,
            i,
            i,
            i,
            array(f, 3),
            array(i, 1),
            array(f, 1),
            prm,
            array(i, 1),
            array(i, 1),
            array(f, 1),
            array(i, 1),
            array(i, 1),
            array(i, 1),
            array(f, 4),
            array(i, 2),
        ),
    }


def _cached(dispatcher: Any) -> bool:
    """Whether ``dispatcher`` has an index in numba's on-disk cache."""
    try:
        return bool(os.path.exists(dispatcher._cache._cache_file._index_path))
    except AttributeError:
        return True  # numba's internals moved: do not guess


def prepare(tab: np.ndarray) -> None:
    """Before the process's first simulation: split a cold compile over two processes.

    ``tab``: the packed table :func:`.shot.shot` will be called with.
    """
    global _STARTED
    if _STARTED:
        return
    _STARTED = True
    from nineball.physics._kernels import cluster, loop, shot

    kernels: Any = loop  # numba's dispatchers (typed as plain functions by the decorators)
    entry: Any = shot.shot
    if entry.signatures or _cached(entry) or _cores() < 2:
        return
    readonly = not tab.flags.writeable
    sigs = signatures(readonly)
    children = []
    for name in ("_handle", "impact"):
        try:
            child = subprocess.Popen(
                [sys.executable, "-c", _CHILD, repr(readonly), name],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        except OSError:
            continue
        children.append((name, child))
    kernels._update.compile(sigs["_update"])
    for name, child in children:
        try:
            child.wait(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            continue
        if child.returncode == 0:
            getattr(kernels if name == "_handle" else cluster, name).compile(sigs[name])


_CHILD = """
import sys
from nineball.physics._kernels import warm
from nineball.physics._kernels import cluster, loop
sigs = warm.signatures(sys.argv[1] == "True")
getattr(loop if sys.argv[2] == "_handle" else cluster, sys.argv[2]).compile(sigs[sys.argv[2]])
"""
