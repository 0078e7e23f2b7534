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

The child is a fork of this process when this process runs one thread (it then starts
compiling at once, with numba and the kernels' modules already imported: about 0.7 s sooner
than a new interpreter) and a new interpreter otherwise (forking a process that runs other
threads may copy a lock one of them holds).

:func:`join` then compiles the entry itself, :func:`.shot.shot`, the one step no second
process can share. numba links the machine-independent code of every kernel a function calls
into that function's module and runs LLVM's whole module optimisation over it again; for the
entry that is the whole engine, every kernel of which was already optimised in its own
module. The entry's module gets LLVM's cheap module passes instead (those numba runs before
its full ones: the always-inline inliner, loop rotation, instruction combining, jump
threading); its own function passes are unchanged. Measured (docs/physics.md, "The serial step
made cheaper"): that step 3.9-6.2 s where it was 6.3-7.5 s, the same speed warm, the same
events bit for bit. Where numba's internals differ from those this relies on, the entry is
compiled as numba compiles it.

Three more savings on every compile of this cold start (docs/physics.md, "Less work per
kernel"): an internal kernel gets no machine code of its own (nothing runs it: its callers
link its machine-independent code), an internal kernel the entry does not call directly gets
the cheap module passes too (the full module passes of the kernel that calls it optimise its
code again), and numba's ``np.empty`` for the entry's arrays is compiled while the child works
rather than in the last step.
"""

from __future__ import annotations

import contextlib
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any, cast

import numba
from numba import types

__all__ = ["prepare", "signatures"]

_STARTED = False
_COLD = False
"""Whether :func:`prepare` found the entry neither compiled nor cached: :func:`join` compiles it."""
cheap_entries = 0
"""How many times this process compiled the entry with the cheap module passes (for tests)."""
cheap_kernels = 0
"""How many internal kernels this process compiled with the cheap module passes (for tests)."""
internal_libraries = 0
"""How many internal kernels this process compiled without machine code (for tests)."""

_ENTRY_NAME = "shot"
"""The name of the entry's code library (numba names a library by its function's name)."""


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
    # the event arrays (times, kinds, first balls, second indices, states, motions)
    events = (array(f, 1), array(i, 1), array(i, 1), array(i, 1), array(f, 4), array(i, 2))
    return {
        "shot": (state, i, i, f, f, f, f, f, prm, i, array(f, 1), array(i, 1)),
        # the small kernels shot.shot calls itself, compiled here while the child works
        "strike": (f, f, f, f, f, prm, ball),
        "_check": (state, i, prm),
        "_classify_input": (ball, prm),
        "_astray": (state, array(i, 1), table, prm),
        "record": (
            *events,
            i,
            f,
            i,
            i,
            i,
            ball,
            i,
            ball,
            i,
        ),
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
            *events,
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
            *events,
        ),
    }


_DIRECT = (frozenset(signatures(True)) - {_ENTRY_NAME}) | {"transition_time"}
"""The kernels whose code numba links straight into the entry's module: those compiled ahead
(:func:`signatures`) and the motion's transition time. They keep LLVM's full module passes,
which optimise again the code of every kernel they call (a test compares this with the
libraries numba links into the entry)."""


@contextlib.contextmanager
def _lean_compiles(entry: bool = False) -> Iterator[None]:
    """While inside: the cold start's compiles without the work nothing uses.

    The internal kernels get no machine code of their own (:func:`_internal_code_only`), and
    those the entry does not call directly (with the entry itself when ``entry``) get LLVM's
    cheap module passes: their callers' full module passes optimise their code again.
    """
    from nineball.physics._kernels.jit import internal_only

    cheap = internal_only() - _DIRECT
    with _internal_code_only(), _cheap_module_passes(cheap | {_ENTRY_NAME} if entry else cheap):
        yield


def _cached(dispatcher: Any) -> bool:
    """Whether ``dispatcher`` has an index in numba's on-disk cache."""
    try:
        return bool(os.path.exists(dispatcher._cache._cache_file._index_path))
    except AttributeError:
        return True  # numba's internals moved: do not guess


_CHILD_PROCESS: subprocess.Popen[bytes] | int | None = None
"""The child of :func:`prepare`: a new interpreter, or the process id of a fork."""
_READONLY = True


def _compile_child_half(readonly: bool) -> None:
    """The child's work: the event's resolution and the simultaneous impact, into the cache."""
    from nineball.physics._kernels import cluster, loop

    sigs = signatures(readonly)
    with _lean_compiles():
        cast(Any, loop._handle).compile(sigs["_handle"])
        cast(Any, cluster.impact).compile(sigs["impact"])


def _fork(readonly: bool) -> int | None:
    """A forked child that compiles :func:`_compile_child_half` and exits; its process id.

    ``None`` (no child) where forking is unsafe or impossible: another thread runs here, or
    the platform has no ``fork``.
    """
    fork = getattr(os, "fork", None)
    if fork is None or threading.active_count() != 1:
        return None
    try:
        pid: int = fork()
    except OSError:
        return None
    if pid != 0:
        return pid
    status = 1  # the child: never returns into the parent's code, never runs its exit handlers
    try:
        devnull = os.open(os.devnull, os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(devnull, fd)
        _compile_child_half(readonly)
        status = 0
    finally:
        os._exit(status)


def _wait_fork(pid: int, timeout: float) -> bool:
    """Wait up to ``timeout`` s for the forked child ``pid``; whether it compiled its part."""
    deadline = time.monotonic() + timeout
    while True:
        try:
            done, status = os.waitpid(pid, os.WNOHANG)
        except ChildProcessError:  # reaped elsewhere (SIGCHLD ignored): whatever it left counts
            return True
        if done == pid:
            return os.waitstatus_to_exitcode(status) == 0
        if time.monotonic() > deadline:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
            return False
        time.sleep(0.005)


def prepare(readonly: bool = True) -> None:
    """Before the process's first simulation: split a cold compile over two processes.

    Starts the child (compiling the event's resolution) and compiles the event times here;
    :func:`join` takes the child's work. ``readonly``: whether the packed table
    :func:`.shot.shot` will be called with (:func:`.shot.pack_table`) is read-only. The
    table kit (``physics/kit.py``) calls this before it packs its first table, so that the
    packing compiles here while the child works too.
    """
    global _STARTED, _CHILD_PROCESS, _READONLY, _COLD
    if _STARTED:
        return
    _STARTED = True
    from nineball.physics._kernels import loop, record, shot, strike

    entry: Any = shot.shot
    if entry.signatures or _cached(entry):
        return
    _COLD = True
    _READONLY = readonly
    if _cores() < 2:
        return
    _CHILD_PROCESS = _fork(readonly)
    if _CHILD_PROCESS is None:
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
    with _lean_compiles():
        cast(Any, loop._update).compile(sigs["_update"])
        for name, kernel in (
            ("strike", strike.strike),
            ("_check", shot._check),
            ("_classify_input", shot._classify_input),
            ("_astray", loop._astray),
            ("record", record.record),
        ):
            cast(Any, kernel).compile(sigs[name])
    _allocations_ahead(shot.shot)


def _allocations_ahead(entry: Any) -> None:
    """Compile numba's ``np.empty`` for each kind of array the entry allocates.

    numba compiles its own implementation of ``np.empty`` for each distinct signature (the
    shape's type, the dtype given or not) and each set of the caller's compiler flags, when
    it types the first call. The entry's are compiled here, as its typing would ask for them
    (the flags of its dispatcher, the dtype as a keyword), while the child still compiles its
    half, rather than in the serial last step. A test checks that the entry's compile then
    compiles no ``np.empty`` of its own. Where numba's internals differ, nothing is done.
    """
    try:
        import numpy as np
        from numba.core import compiler, registry, targetconfig

        flags: Any = cast(Any, compiler).Flags()
        entry.targetdescr.options.parse_as_flags(flags, entry.targetoptions)
        flags = entry._compiler._customize_flags(flags)
        typing: Any = cast(Any, registry).cpu_target.typing_context
        stack: Any = cast(Any, targetconfig).ConfigStack()
        tuple_type: Any = cast(Any, types).UniTuple
        with stack.enter(flags.copy()):
            empty = typing.resolve_value_type(np.empty)
            i = types.int64
            for shape, dtype in _ENTRY_ALLOCATIONS:
                kws = {} if dtype is None else {"dtype": types.NumberClass(dtype)}
                shape_type = i if shape == 1 else tuple_type(i, shape)
                typing.resolve_function_type(empty, (shape_type,), kws)
    except Exception:  # numba's internals moved: the entry compiles them itself
        return


_ENTRY_ALLOCATIONS: tuple[tuple[int, Any], ...] = (
    (1, None),
    (2, None),
    (3, None),
    (1, types.int64),
    (2, types.int64),
)
"""The arrays :func:`.shot.shot` allocates: (dimensions, dtype given as a keyword, or ``None``
for numba's default float64)."""


def join() -> None:
    """Before the first simulation: take the child's work, compile the entry cheaply.

    Waits for the child of :func:`prepare`, loads its work, and compiles :func:`.shot.shot`
    with the cheap module passes.

    Nothing to do unless :func:`prepare` found a cold start; when the child failed or hung,
    numba compiles its part here.
    """
    global _COLD
    if not _COLD:
        return
    _COLD = False
    _join_child()
    from nineball.physics._kernels import shot

    entry: Any = shot.shot
    with _lean_compiles(entry=True):
        entry.compile(signatures(_READONLY)["shot"])


def _join_child() -> None:
    """Wait for the child of :func:`prepare`, if one runs, and load its work."""
    global _CHILD_PROCESS
    child = _CHILD_PROCESS
    if child is None:
        return
    _CHILD_PROCESS = None
    if isinstance(child, int):
        compiled = _wait_fork(child, timeout=120)
    else:
        try:
            child.wait(timeout=120)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
            return
        compiled = child.returncode == 0
    if compiled:
        _compile_child_half(_READONLY)  # loaded from the cache the child wrote


@contextlib.contextmanager
def _cheap_module_passes(library_names: frozenset[str]) -> Iterator[None]:
    """While inside: the code libraries named get LLVM's cheap module passes only.

    Every other library compiled meanwhile is optimised as numba does. numba compiles under
    its global lock, so no other thread compiles while the method is replaced.
    """
    try:
        from numba.core import codegen, config

        library_class: Any = codegen.CPUCodeLibrary
        full = library_class._optimize_final_module
        prune: Any = cast(Any, codegen).remove_redundant_nrt_refct
        refprune_pass = bool(cast(Any, config).LLVM_REFPRUNE_PASS)
    except (ImportError, AttributeError):  # numba's internals moved: compile as numba does
        yield
        return

    def final_module(library: Any) -> None:
        global cheap_entries, cheap_kernels
        if library.name not in library_names:
            full(library)
            return
        try:
            cg = library._codegen
            passes, builder = cg._module_pass_manager(
                loop_vectorize=cg._loopvect, slp_vectorize=False, opt=cg._opt_level, cost="cheap"
            )
        except (AttributeError, TypeError):
            full(library)
            return
        passes.run(library._final_module, builder)
        if not refprune_pass:
            library._final_module = prune(library._final_module)
        if library.name == _ENTRY_NAME:
            cheap_entries += 1
        else:
            cheap_kernels += 1

    library_class._optimize_final_module = final_module
    try:
        yield
    finally:
        library_class._optimize_final_module = full


@contextlib.contextmanager
def _internal_code_only() -> Iterator[None]:
    """While inside: the kernels only other kernels call get no machine code of their own.

    numba turns every compiled function into machine code, but nothing runs that of an
    internal kernel (:func:`.jit.internal_only`): its callers link its machine-independent code
    into their own modules, and a warm process loads only the cached entry points. So the code
    library of such a kernel is finalised without being handed to LLVM's code generator (and
    numba's pointer to its environment, which only that machine code would read, is not set).
    Every other library, entry points and kernels cached on their own among them, is finalised
    as numba does. numba compiles under its global lock, so no other thread compiles while the
    methods are replaced; where numba's internals differ from those this relies on, nothing
    changes.
    """
    global internal_libraries
    try:
        from numba.core import codegen

        library_class: Any = codegen.CPUCodeLibrary
        codegen_class: Any = codegen.JITCPUCodegen
        finalize = library_class._finalize_final_module
        set_env = codegen_class.set_env
        for method in ("_finalize_dynamic_globals", "_verify_declare_only_symbols"):
            getattr(library_class, method)
    except (ImportError, AttributeError):  # numba's internals moved: compile as numba does
        yield
        return
    from nineball.physics._kernels.jit import internal_only

    names = internal_only()

    def final_module(library: Any) -> None:
        global internal_libraries
        if library.name not in names:
            finalize(library)
            return
        # numba's finalisation up to handing the module to the code generator
        library._finalize_dynamic_globals()
        library._verify_declare_only_symbols()
        library._finalized = True
        internal_libraries += 1

    def environment(codegen: Any, name: str, env: Any) -> None:
        if codegen._engine.get_global_value_address(name) == 0:
            return  # the function's machine code was never made: nothing reads the pointer
        set_env(codegen, name, env)

    library_class._finalize_final_module = final_module
    codegen_class.set_env = environment
    try:
        yield
    finally:
        library_class._finalize_final_module = finalize
        codegen_class.set_env = set_env


_CHILD = """
import sys
from nineball.physics._kernels import warm
warm._compile_child_half(sys.argv[1] == "True")
"""
