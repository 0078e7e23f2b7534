"""Compiled kernels (numba, see :mod:`.jit`): plain arrays and floats in, arrays out.

The entry points (``@entry``: compiled with a Python wrapper and cached on disk) are
``loop.run``, ``motion.evolve``, ``motion.classify`` and ``roots.first_down_crossing``; every
other kernel is ``@internal`` (callable only from kernels, linked into the entry points that call
it), except ``loop._handle`` (``@shared``: internal, and cached on its own so that a second
process can compile it on a cold start, :mod:`.warm`). :mod:`.jit` lists the options and why.

Private to :mod:`nineball.physics`. Ownership: every kernel returns new arrays and never writes
into its arguments, except the event loop, which owns the working copies it allocates itself.
"""

from __future__ import annotations

__all__: list[str] = []
