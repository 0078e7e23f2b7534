"""The tables of a vector environment spread over worker processes, one share per core.

A step of the vector environment is mostly Python (the referee, the game's bookkeeping, the
opponents' decisions), which runs on one core at a time. :class:`Workers` gives each of
``workers`` processes a contiguous share of the tables, as a :class:`NineBallVectorEnv` of its
own (its physics on one thread: the processes are the parallelism), and steps them all at once:
the actions go out, each process steps its share, and the results come back in table order.
Table i is the same table it would be in one process (seeded ``seed + i``), so the results are
the same, bit for bit.

The processes are started with ``spawn`` (never ``fork``: numba's threads and a parent's locks
do not survive it). A process that dies or answers with an error ends the pool: the step raises
:class:`WorkerError` naming the process, and the environment must be made again.
"""

from __future__ import annotations

import contextlib
import multiprocessing
import multiprocessing.connection
from typing import Any

import numpy as np
from numpy.typing import NDArray

from nineball.errors import WorkerError

__all__ = ["Workers", "joined", "shares"]


def shares(num_envs: int, workers: int) -> list[range]:
    """The tables of each worker: contiguous, sizes differing by at most one.

    >>> shares(5, 2)
    [range(0, 3), range(3, 5)]
    """
    out = []
    start = 0
    for w in range(workers):
        size = num_envs // workers + (1 if w < num_envs % workers else 0)
        out.append(range(start, start + size))
        start += size
    return out


def _serve(conn: multiprocessing.connection.Connection, size: int, kwargs: dict[str, Any]) -> None:
    """A worker's loop: make the share's environment, then answer commands until ``close``."""
    import numba

    numba.set_num_threads(1)  # the processes are the parallelism
    from nineball.env.vector import NineBallVectorEnv

    try:
        env = NineBallVectorEnv(size, **kwargs)
    except Exception as error:  # reported to the parent, which raises it
        conn.send(("error", error))
        return
    conn.send(("ok", None))
    while True:
        try:
            command, payload = conn.recv()
        except EOFError:  # the parent is gone
            return
        if command == "close":
            env.close()
            conn.send(("ok", None))
            return
        try:
            if command == "reset":
                result: Any = env.reset(seed=payload)
            else:
                result = env.step(payload)
        except Exception as error:
            conn.send(("error", error))
            continue
        conn.send(("ok", result))


class Workers:
    """``workers`` processes stepping contiguous shares of ``num_envs`` tables.

    Raises (construction):
        WorkerError: a process could not start.
        InvalidInputError: the options refused (as the environment itself refuses them).
    """

    def __init__(self, num_envs: int, workers: int, kwargs: dict[str, Any]) -> None:
        """Start the processes, each making its share's environment with ``kwargs``."""
        self.shares = shares(num_envs, workers)
        context = multiprocessing.get_context("spawn")
        self._conns: list[multiprocessing.connection.Connection] = []
        self._procs: list[Any] = []
        try:
            for share in self.shares:
                parent, child = context.Pipe()
                proc = context.Process(target=_serve, args=(child, len(share), kwargs), daemon=True)
                proc.start()
                child.close()
                self._conns.append(parent)
                self._procs.append(proc)
            self._gather()
        except BaseException:
            self.close()
            raise

    def _gather(self) -> list[Any]:
        """Each worker's answer, in order; the first error raised (after reading them all)."""
        results: list[Any] = []
        failure: BaseException | None = None
        for w, conn in enumerate(self._conns):
            try:
                status, value = conn.recv()
            except (EOFError, OSError):
                status, value = "error", self._died(w)
            if status == "error":
                failure = failure or value
                results.append(None)
            else:
                results.append(value)
        if failure is not None:
            raise failure
        return results

    def _died(self, w: int) -> WorkerError:
        return WorkerError(f"worker {w} died (exit code {self._procs[w].exitcode})")

    def _send(self, command: str, payloads: list[Any]) -> list[Any]:
        for w, (conn, payload) in enumerate(zip(self._conns, payloads, strict=True)):
            try:
                conn.send((command, payload))
            except OSError:  # BrokenPipeError among them
                raise self._died(w) from None
        return self._gather()

    def reset(self, seeds: list[int | None]) -> list[Any]:
        """Reset every share with its tables' seeds; each share's ``(observations, infos)``."""
        return self._send("reset", [[seeds[i] for i in share] for share in self.shares])

    def step(self, actions: NDArray[Any]) -> list[Any]:
        """Step every share with its rows of ``actions``; each share's step result."""
        return self._send("step", [actions[share.start : share.stop] for share in self.shares])

    def close(self) -> None:
        """Stop the processes (a process that does not stop in 5 s is killed)."""
        for conn in self._conns:
            with contextlib.suppress(OSError):  # a process already gone
                conn.send(("close", None))
        for proc, conn in zip(self._procs, self._conns, strict=False):
            proc.join(timeout=5)
            if proc.is_alive():
                proc.kill()
                proc.join()
            conn.close()
        self._conns = []
        self._procs = []


def joined(parts: list[Any]) -> Any:
    """Observations of the shares, in order, as one batch (Dict of arrays or one array)."""
    if isinstance(parts[0], dict):
        return {key: np.concatenate([p[key] for p in parts]) for key in parts[0]}
    return np.concatenate(parts)
