"""The cold start on two cores: half of the event loop compiled in a child process.

With an empty numba cache the first simulation compiles every kernel one after another, in one
thread (numba holds a global compiler lock). :func:`prepare`, called before the first table is
packed, splits that work in two about equal halves: a child process compiles
:func:`.loop._handle` (the resolution of an event, with the collision kernels it calls) and
:func:`.cluster.impact` (simultaneous impacts) into the on-disk cache, while this process
compiles :func:`.loop._update` (the event times, with the detection kernels) and the small
kernels :func:`.shot.shot` calls itself; :func:`join` waits for the child and loads its work,
and :func:`.shot.shot` is compiled last. One child, not one per half: the two halves share
kernels (the motion, the ball-ball collision, the record) that each process must compile
again. The machine code is the same either way; only the wall time of the first simulation
changes. Nothing happens when the engine is already compiled or cached, on one core, or when
the child cannot run or write the cache (numba then compiles that part here).
"""

from __future__ import annotations

import os
import subprocess
import sys
from typing import Any, cast

import numba
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
    """The argument types with which :func:`.shot.shot` calls the kernels compiled ahead.

    ``readonly``: whether the table array given to ``shot`` (:func:`.shot.pack_table`) is
    read-only, as the table's and parameters' views inside it then are.
    """
    f, i = types.float64, types.int64

    def array(dtype: Any, ndim: int, ro: bool = False) -> Any:
        return types.Array(dtype, ndim, "C", readonly=ro)

    prm = array(f, 1, readonly)
    table = array(f, 2, readonly)
    state = array(f, 3)
    ball = array(f, 2)
    return {
        # the small kernels shot.shot calls itself, compiled here while the child works
        "strike": (f, f, f, f, f, prm, ball),
        "_check": (state, i, prm),
        "_classify_input": (ball, prm),
        "_astray": (state, array(i, 1), table, prm),
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


_CHILD_PROCESS: subprocess.Popen[bytes] | None = None
_READONLY = True


def prepare(readonly: bool = True) -> None:
    """Before the process's first simulation: split a cold compile over two processes.

    Starts the child (compiling the event's resolution) and compiles the event times here;
    :func:`join` takes the child's work. ``readonly``: whether the packed table
    :func:`.shot.shot` will be called with (:func:`.shot.pack_table`) is read-only. The
    table kit (``physics/kit.py``) calls this before it packs its first table, so that the
    packing compiles here while the child works too.
    """
    global _STARTED, _CHILD_PROCESS, _READONLY
    if _STARTED:
        return
    _STARTED = True
    from nineball.physics._kernels import loop, shot, strike

    entry: Any = shot.shot
    if entry.signatures or _cached(entry) or _cores() < 2:
        return
    _READONLY = readonly
    try:
        _CHILD_PROCESS = subprocess.Popen(
            [sys.executable, "-c", _CHILD, repr(readonly)],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
    except OSError:
        return
    sigs = signatures(readonly)
    cast(Any, loop._update).compile(sigs["_update"])
    for name, kernel in (
        ("strike", strike.strike),
        ("_check", shot._check),
        ("_classify_input", shot._classify_input),
        ("_astray", loop._astray),
    ):
        cast(Any, kernel).compile(sigs[name])


def join() -> None:
    """Before the first simulation: wait for the child of :func:`prepare` and load its work.

    Nothing to do when no child ran; when it failed or hung, numba compiles its part here.
    """
    global _CHILD_PROCESS
    child = _CHILD_PROCESS
    if child is None:
        return
    _CHILD_PROCESS = None
    from nineball.physics._kernels import cluster, loop

    try:
        child.wait(timeout=120)
    except subprocess.TimeoutExpired:
        child.kill()
        child.wait()
        return
    if child.returncode == 0:
        sigs = signatures(_READONLY)
        cast(Any, loop._handle).compile(sigs["_handle"])
        cast(Any, cluster.impact).compile(sigs["impact"])


_CHILD = """
import sys
from nineball.physics._kernels import warm
from nineball.physics._kernels import cluster, loop
sigs = warm.signatures(sys.argv[1] == "True")
loop._handle.compile(sigs["_handle"])
cluster.impact.compile(sigs["impact"])
"""
