"""The referee stays light: importing it never loads numpy, numba or the physics."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import nineball.physics


def test_rules_import_loads_no_physics() -> None:
    code = (
        "import sys, nineball.rules\n"
        "bad = [m for m in ('numpy', 'numba', 'nineball.physics') if m in sys.modules]\n"
        "print(','.join(bad))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert out.stdout.strip() == ""


def test_physics_all_is_sorted_and_complete() -> None:
    names = nineball.physics.__all__
    assert list(names) == sorted(names)
    for name in names:
        assert hasattr(nineball.physics, name)


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
