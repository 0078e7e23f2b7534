"""Where many independent jobs run: in this process, a local process pool, or a Ray cluster.

Every job carries its own seed, so the results are the same whatever the backend and the number
of workers. Results are handed over as each job finishes (:func:`iter_jobs`, with the job's
index), so a caller can save them one by one; a stop (Ctrl-C, or SIGTERM under
:func:`stop_on_signals`) terminates the pool's workers or cancels the Ray tasks before it goes
on. Ray is optional (extra ``[scale]``) and imported only when asked for; with no address given
it joins the cluster named by ``RAY_ADDRESS`` (what ``ray job submit`` sets), else starts a local
instance.
"""

from __future__ import annotations

import contextlib
import functools
import logging
import multiprocessing
import os
import signal
import socket
from collections.abc import Callable, Generator, Iterator, Sequence
from types import FrameType
from typing import Any, TypeVar

from nineball.errors import InvalidInputError

__all__ = [
    "BACKENDS",
    "RAY_ADDRESS_ENV",
    "RAY_TIMEOUT",
    "ClusterUnreachableError",
    "Stopped",
    "check_ray_address",
    "default_workers",
    "iter_jobs",
    "ray_address",
    "run_jobs",
    "stop_on_signals",
]

BACKENDS = ("process", "ray")
"""The backends by name."""

RAY_ADDRESS_ENV = "RAY_ADDRESS"
"""The environment variable naming the Ray cluster to join (set by ``ray job submit``)."""

RAY_TIMEOUT = 5.0
"""Seconds to wait for a Ray cluster's address to answer before giving up, s."""

J = TypeVar("J")
R = TypeVar("R")


class ClusterUnreachableError(InvalidInputError):
    """A Ray cluster address that is malformed or does not answer."""


class Stopped(KeyboardInterrupt):
    """The run was asked to stop by a signal (SIGTERM; Ctrl-C raises KeyboardInterrupt)."""

    def __init__(self, signum: int) -> None:
        """Remember which signal stopped the run."""
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextlib.contextmanager
def stop_on_signals() -> Iterator[None]:
    """Within the block, SIGTERM raises :class:`Stopped` (as Ctrl-C raises KeyboardInterrupt).

    So a terminated run unwinds like an interrupted one: the pool's workers are ended and what
    was saved stays saved. Outside the main thread (where handlers cannot be set) it does nothing.
    """

    def stop(signum: int, _frame: FrameType | None) -> None:
        raise Stopped(signum)

    try:
        previous = signal.signal(signal.SIGTERM, stop)
    except ValueError:  # not the main thread
        yield
        return
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def default_workers() -> int:
    """The cores this process may use (its CPU affinity where the system tells it)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # pragma: no cover - not on Linux
        return max(1, os.cpu_count() or 1)


def ray_address(address: str | None) -> str | None:
    """The cluster to join: ``address`` if given, else ``$RAY_ADDRESS``, else None (local)."""
    if address:
        return address
    return os.environ.get(RAY_ADDRESS_ENV) or None


def check_ray_address(address: str, *, timeout: float = RAY_TIMEOUT) -> None:
    """Check that a Ray address is well formed and that its host answers within ``timeout`` s.

    ``auto`` and ``local`` are Ray's own and are left to it; ``host:port`` (the head's GCS) and
    ``ray://host:port`` (Ray Client) must accept a connection.

    Raises:
        ClusterUnreachableError: a malformed address, or one that does not answer.
    """
    if address in ("auto", "local"):
        return
    if address.startswith(("http://", "https://")):
        raise ClusterUnreachableError(
            f"Ray address {address!r} is a dashboard (job submission) address; give the head's "
            "host:port (6379) or ray://host:port (10001)"
        )
    rest = address.removeprefix("ray://")
    host, _, port = rest.rpartition(":")
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise ClusterUnreachableError(
            f"Ray address {address!r} is not host:port or ray://host:port"
        )
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise ClusterUnreachableError(
            f"no Ray cluster answers at {address!r} (within {timeout:g} s: {error}); start one "
            f"with `ray start --head`, or fix --address / ${RAY_ADDRESS_ENV}"
        ) from None


def _threads_off() -> None:
    # Two cores: numeric libraries' own threads would fight the workers (docs/development.md).
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def _worker_start() -> None:
    # Ctrl-C reaches the whole process group; the parent alone decides, and ends the workers.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _indexed(fn: Callable[[J], R], item: tuple[int, J]) -> tuple[int, R]:
    index, job = item
    return index, fn(job)


def _check(backend: str, workers: int) -> None:
    if backend not in BACKENDS:
        raise InvalidInputError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if workers < 1:
        raise InvalidInputError(f"workers must be >= 1, got {workers!r}")


def iter_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    backend: str = "process",
    workers: int = 1,
    address: str | None = None,
) -> Generator[tuple[int, R], None, None]:
    """Run ``fn`` on every job; yield ``(index of the job, result)`` as each one finishes.

    Close the iterator (``contextlib.closing``) when stopping early: that ends the workers.

    Args:
        fn: a module-level function (it is sent to other processes).
        jobs: its arguments, one per call.
        backend: ``"process"`` (this process when ``workers`` is 1, else a process pool) or
            ``"ray"`` (the cluster at ``address`` or ``$RAY_ADDRESS``, else a local Ray instance
            with ``workers`` CPUs).
        workers: how many processes work at once.
        address: a Ray cluster to join (``ray://host:port``, ``host:port`` or ``auto``).

    Raises:
        InvalidInputError: an unknown backend or a worker count below 1.
        ClusterUnreachableError: a Ray address that is malformed or does not answer.
    """
    _check(backend, workers)
    if backend == "ray":
        return _ray_results(fn, jobs, workers, ray_address(address))
    if workers == 1 or len(jobs) <= 1:
        return ((k, fn(job)) for k, job in enumerate(jobs))
    return _pool_results(fn, jobs, workers)


def _pool_results(
    fn: Callable[[J], R], jobs: Sequence[J], workers: int
) -> Generator[tuple[int, R], None, None]:
    _threads_off()
    # forkserver: no fork of a process with threads (Rich's refresh thread); the server has
    # the players imported once, so each worker starts in milliseconds.
    context = multiprocessing.get_context("forkserver")
    context.set_forkserver_preload(
        ["nineball.players.ladder", "nineball.players.breaks", "nineball.players.protocol.arena"]
    )
    pool = context.Pool(min(workers, len(jobs)), initializer=_worker_start)
    try:
        yield from pool.imap_unordered(functools.partial(_indexed, fn), enumerate(jobs))
        pool.close()
    finally:
        pool.terminate()  # at once on a stop; a no-op for a pool that has finished
        pool.join()


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    backend: str = "process",
    workers: int = 1,
    address: str | None = None,
    on_result: Callable[[int, R], None] | None = None,
) -> list[R]:
    """Run ``fn`` on every job and return the results in job order (see :func:`iter_jobs`).

    Args:
        fn: a module-level function (it is sent to other processes).
        jobs: its arguments, one per call.
        backend: ``"process"`` or ``"ray"``.
        workers: how many processes work at once.
        address: a Ray cluster to join; None: ``$RAY_ADDRESS``, else a local instance.
        on_result: called with each job's index and result as soon as it finishes.

    Raises:
        InvalidInputError: an unknown backend or a worker count below 1.
        ClusterUnreachableError: a Ray address that is malformed or does not answer.
    """
    results: dict[int, R] = {}
    with contextlib.closing(
        iter_jobs(fn, jobs, backend=backend, workers=workers, address=address)
    ) as finished:
        for index, result in finished:
            results[index] = result
            if on_result is not None:
                on_result(index, result)
    return [results[k] for k in range(len(jobs))]


def _ray_results(
    fn: Callable[[J], R], jobs: Sequence[J], workers: int, address: str | None
) -> Generator[tuple[int, R], None, None]:
    if address is not None:
        check_ray_address(address)  # fail fast: ray.init itself waits a minute for a lost head
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    _threads_off()
    import ray  # the [scale] extra

    started = not ray.is_initialized()
    if started:
        if address is None:
            ray.init(
                address="local",
                num_cpus=workers,
                include_dashboard=False,
                logging_level=logging.ERROR,
                log_to_driver=False,
            )
        else:
            try:
                ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
            except ConnectionError as error:
                raise ClusterUnreachableError(f"no Ray cluster at {address!r}: {error}") from None
    pending: list[Any] = []
    try:
        remote: Any = ray.remote(num_cpus=1)(fn)
        index = {}
        for k, job in enumerate(jobs):
            ref = remote.remote(job)
            index[ref] = k
            pending.append(ref)
        while pending:
            done, pending = ray.wait(pending, num_returns=1)
            for ref in done:
                yield index[ref], ray.get(ref)
    finally:
        for ref in pending:  # a stop: the cluster drops what is left
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
