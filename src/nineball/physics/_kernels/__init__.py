"""Compiled kernels (numba, see :mod:`.jit`): plain arrays and floats in, arrays written.

The entry points (``@entry``: compiled with a Python wrapper and cached on disk) are
``shot.shot`` (a whole simulation: check, strike, event loop, packed results),
``strike.velocities``, ``motion.evolve`` and ``roots.first_down_crossing``,
and ``batch.shots`` (``@parallel_entry``: many shots over numba's threads, each ``shot.shot``).
Every other kernel is ``@internal`` (callable only from kernels, linked into the entry points
that call it) or, when it allocates nothing, ``@lean`` (internal and compiled without numba's
reference counting); ``loop._handle`` is also cached on its own (``@shared_lean``) so that a
second process can compile it on a cold start (:mod:`.warm`), and ``cluster.impact``
(``@shared``) likewise. :mod:`.jit` lists the options and why. ``shot.pack_table`` and
``cull.table_boxes`` are plain Python, run once per table.

Private to :mod:`nineball.physics`. Ownership: ``shot.shot`` writes its results into the two
arrays its caller gives and never into its input; the kernels it calls work in place on the
working arrays it allocates (``*_into`` and ``*_inplace`` kernels write into the arrays they are
given, as their names say); ``motion.evolve``, ``resolve.ball_ball`` and the other allocating
kernels return new arrays.
"""

from __future__ import annotations

__all__: list[str] = []
