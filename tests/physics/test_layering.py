"""The physics stands alone: it never imports the referee; its compiled cache goes where told."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path


def test_physics_does_not_import_rules() -> None:
    code = "import sys, nineball.physics\nprint('nineball.rules' in sys.modules)\n"
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120
    )
    assert out.stdout.strip() == "False"


def test_numba_cache_dir_is_respected(tmp_path: Path) -> None:
    code = (
        "from nineball.physics._kernels.roots import first_down_crossing\n"
        "print(first_down_crossing(0.0, 0.0, 1.0, -3.0, 2.0, 10.0, 0.0))\n"
    )
    env = dict(os.environ, NUMBA_CACHE_DIR=str(tmp_path))
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        timeout=300,
    )
    assert float(out.stdout) == 1.0
    cached = [p.name for p in tmp_path.rglob("*.nbi")]
    assert any(name.startswith("roots.first_down_crossing") for name in cached), cached
