"""Where many independent jobs run: in this process, a local process pool, or a Ray cluster.

Every job carries its own seed, so the results (returned in job order) are the same whatever the
backend and the number of workers. Ray is optional (extra ``[scale]``) and imported only when
asked for.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from typing import Any, TypeVar

from nineball.errors import InvalidInputError

__all__ = ["BACKENDS", "run_jobs"]

BACKENDS = ("process", "ray")
"""The backends by name."""

J = TypeVar("J")
R = TypeVar("R")


def _threads_off() -> None:
    # Two cores: numeric libraries' own threads would fight the workers (docs/development.md).
    for name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
        os.environ.setdefault(name, "1")


def run_jobs(
    fn: Callable[[J], R],
    jobs: Sequence[J],
    *,
    backend: str = "process",
    workers: int = 1,
    address: str | None = None,
    on_result: Callable[[R], None] | None = None,
) -> list[R]:
    """Run ``fn`` on every job and return the results in job order.

    Args:
        fn: a module-level function (it is sent to other processes).
        jobs: its arguments, one per call.
        backend: ``"process"`` (this process when ``workers`` is 1, else a process pool) or
            ``"ray"`` (a local Ray instance with ``workers`` CPUs, or the cluster at ``address``).
        workers: how many processes work at once.
        address: a Ray cluster to join (``ray://...`` or ``host:port``); None starts a local one.
        on_result: called with each result as it arrives (in job order), e.g. for progress.

    Raises:
        InvalidInputError: an unknown backend or a worker count below 1.
    """
    if backend not in BACKENDS:
        raise InvalidInputError(f"unknown backend {backend!r} (known: {', '.join(BACKENDS)})")
    if workers < 1:
        raise InvalidInputError(f"workers must be >= 1, got {workers!r}")
    results: list[R] = []

    def keep(result: R) -> None:
        results.append(result)
        if on_result is not None:
            on_result(result)

    if backend == "ray":
        for result in _ray_results(fn, jobs, workers, address):
            keep(result)
        return results
    if workers == 1:
        for job in jobs:
            keep(fn(job))
        return results
    _threads_off()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        for result in pool.map(fn, jobs, chunksize=1):
            keep(result)
    return results


def _ray_results(
    fn: Callable[[J], R], jobs: Sequence[J], workers: int, address: str | None
) -> Iterator[R]:
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
            ray.init(address=address, logging_level=logging.ERROR, log_to_driver=False)
    try:
        remote: Any = ray.remote(num_cpus=1)(fn)
        refs = [remote.remote(job) for job in jobs]
        for ref in refs:  # in job order, each as soon as it is done
            yield ray.get(ref)
    finally:
        if started:
            ray.shutdown()
