"""The two-process cold start (physics/_kernels/warm.py): same kernels, same code, same results."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

CODE = """
import hashlib
import numpy as np
from numba.core import event
from nineball.physics import BallInput, Stroke, simulate
from nineball.physics._kernels import warm
from nineball.physics._kernels.cluster import impact
from nineball.physics._kernels.loop import _astray, _handle, _update
from nineball.physics._kernels.shot import _check, _classify_input
from nineball.physics._kernels.record import record
from nineball.physics._kernels.shot import shot
from nineball.physics._kernels.strike import strike

in_join = []  # what numba compiles in the serial last step


class Compiles(event.Listener):
    def on_start(self, ev):
        in_join.append(ev.data["dispatcher"].py_func.__qualname__)

    def on_end(self, ev):
        pass


join = warm.join


def recorded_join():
    with event.install_listener("numba:compile", Compiles()):
        join()


warm.join = recorded_join
balls = [BallInput(id=0, r=(0.635, 0.4)), BallInput(id=1, r=(0.62, 1.2)),
         BallInput(id=2, r=(0.3, 2.0))]
trajectory = simulate(balls, stroke=Stroke(speed=3.0, aim=1.55, side=0.3, height=-0.3))
sigs = warm.signatures(True)  # simulate's packed table is read-only
kernels = {"_update": _update, "_handle": _handle, "impact": impact, "strike": strike,
           "_check": _check, "_classify_input": _classify_input, "_astray": _astray,
           "record": record, "shot": shot}
assert set(kernels) == set(sigs), sorted(sigs)
print(all(k.signatures == [sigs[name]] for name, k in kernels.items()),
      sorted(name for name, k in kernels.items() if k.signatures != [sigs[name]]))
# every way in compiles the one signature of the engine's entry: a stroke of ints, prepared
# balls (kept by the physics), a prepared shot (the simulate protocol's timed repeats)
from nineball.physics import PhysicsParams, PreparedBalls, nine_foot
from nineball.physics.simulate import PreparedShot
PreparedBalls(balls).strike(Stroke(speed=2, aim=1))
PreparedShot(balls, Stroke(speed=1, aim=2), PhysicsParams(), nine_foot()).run(100)
simulate([BallInput(id=0, r=(0.5, 0.5), v=(1.0, 0.0))])
print(len(shot.signatures))
digest = hashlib.sha256()
for array in (trajectory.times, trajectory.kinds, trajectory.after, trajectory.final):
    digest.update(np.ascontiguousarray(array).tobytes())
print(digest.hexdigest())
print(warm.cheap_entries)  # the entry compiled with the cheap module passes (0: loaded)
print(sorted(set(in_join)))
print(warm.internal_libraries, warm.cheap_kernels)
# the kernels whose code numba linked straight into the entry's module
from nineball.physics._kernels.jit import internal_only
linked = {lib.name for overload in shot.overloads.values()
          for lib in overload.library._linking_libraries}
ours = internal_only() | {"_handle", "impact"}
print(sorted(linked & ours), sorted(warm._DIRECT))
"""


def _one_core() -> None:
    os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})


def _run(cache: Path, *, one_core: bool = False) -> list[str]:
    env = dict(os.environ, NUMBA_CACHE_DIR=str(cache))
    out = subprocess.run(
        [sys.executable, "-c", CODE], capture_output=True, text=True, check=True, env=env,
        timeout=600, preexec_fn=_one_core if one_core else None,
    )  # fmt: skip
    return out.stdout.split("\n")


def test_cold_start_compiles_each_half_once_with_the_loops_own_types(tmp_path: Path) -> None:
    cold = _run(tmp_path)
    # the signatures warm.py compiles ahead are exactly those the engine calls them with:
    # otherwise numba would have compiled a second signature of each
    assert cold[0] == "True []"
    assert cold[1] == "1"  # one compiled signature of the entry, whatever the way in
    cached = {p.name.split("-")[0] for p in tmp_path.rglob("*.nbi")}
    assert {"shot.shot", "loop._handle", "cluster.impact"} <= cached, cached
    assert cold[3] == "1"  # the entry's module got the cheap module passes, once
    # the serial last step compiles the entry, not the np.empty of each array it allocates
    # (compiled ahead, while the child works); numba's int() is compiled again for the
    # entry's flags, and the child's kernels are loaded from the cache (no compile)
    assert cold[4] == "['ol_int.<locals>.impl', 'shot']"
    # internal kernels got no machine code of their own; those the entry does not call
    # directly got the cheap module passes (their callers optimise their code again)
    no_code, cheap = map(int, cold[5].split())
    assert no_code > 20
    assert 10 < cheap < no_code
    # every kernel the entry links directly keeps the full module passes: the list warm.py
    # keeps is the one numba links
    linked, direct = cold[6].split("] [")
    assert linked + "]" == "[" + direct
    # a warm process (everything loaded from the cache) gives the same events, bit for bit
    warm = _run(tmp_path)
    assert warm[2] == cold[2]
    assert warm[3] == "0"
    assert warm[5] == "0 0"


def test_a_cold_start_on_one_core_compiles_everything_here(tmp_path: Path) -> None:
    # no child process: every kernel compiles in this one, the simultaneous impact (which
    # allocates) from inside the lean loop too; a kernel that inherited the loop's lack of
    # numba's runtime failed to compile here
    cold = _run(tmp_path, one_core=True)
    assert cold[0] == "True []"
    assert cold[1] == "1"
    assert cold[3] == "1"
    assert cold[2] == _run(tmp_path)[2]


def test_no_fork_while_another_thread_runs() -> None:
    # a fork copies only the forking thread: a lock another thread holds would stay locked
    import threading

    from nineball.physics._kernels import warm

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        assert warm._fork(True) is None
    finally:
        stop.set()
        other.join()


def test_a_child_reaped_elsewhere_is_not_waited_for_forever() -> None:
    from nineball.physics._kernels import warm

    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()  # reaped here, as a SIGCHLD handler elsewhere would
    assert warm._wait_fork(child.pid, timeout=5) is True
