"""The package surface and its layers."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

import nineball

ROOT = Path(__file__).resolve().parents[1]
PUBLIC_MODULES = [
    "nineball",
    "nineball.rules",
    "nineball.errors",
    "nineball.equipment",
    "nineball.physics",
    "nineball.game",
    "nineball.players",
    "nineball.players.protocol",
    "nineball.render",
    "nineball.tournament",
    "nineball.interop",
    "nineball.interop.pooltool",
    "nineball.dataset",
]


def _isort_key(name: str) -> tuple[int, str]:
    """The order ruff's RUF022 keeps: CONSTANTS, then Classes, then functions and dunders."""
    if name.isupper():
        return (0, name)
    return (1, name) if name[0].isupper() else (2, name)


@pytest.mark.parametrize("name", PUBLIC_MODULES)
def test_all_is_sorted_and_complete(name: str) -> None:
    module = importlib.import_module(name)
    exported = list(module.__all__)
    assert exported == sorted(exported, key=_isort_key)
    public = {
        attr
        for attr, value in vars(module).items()
        if not attr.startswith("_")
        and not isinstance(value, type(sys))
        and getattr(value, "__module__", name).startswith("nineball")
        and attr != "annotations"
    }
    assert public <= set(exported) | {"TYPE_CHECKING"}
    for attr in exported:
        assert hasattr(module, attr), attr


def test_version() -> None:
    assert nineball.__version__.count(".") == 2


def test_the_referee_imports_no_numerics_and_no_physics() -> None:
    code = (
        "import sys, nineball.rules, nineball.rules.protocol, nineball.rules.notation\n"
        "bad = sorted(m for m in sys.modules if m.split('.')[0] in ('numpy', 'numba', 'typer',"
        " 'rich') or m.startswith(('nineball.physics', 'nineball.game')))\n"
        "print(','.join(bad))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60
    )
    assert done.stdout.strip() == ""


def test_layer_contracts_hold() -> None:
    """The import-linter contracts of pyproject.toml (layers: docs/development.md) are kept."""
    done = subprocess.run(
        [str(Path(sys.executable).with_name("lint-imports")), "--no-cache"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout


def test_no_source_file_is_over_600_lines() -> None:
    """Files a person can hold: every source file of the package, the page's included.

    The vendored libraries (``web/static/vendor/``, copied from npm by ``tools/vendor_web.py``,
    git-ignored) are not the project's sources.
    """
    package = ROOT / "src" / "nineball"
    vendor = package / "web" / "static" / "vendor"
    sizes = {
        path.relative_to(package).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(package.rglob("*"))
        if path.suffix in {".py", ".js", ".html", ".css"} and vendor not in path.parents
    }
    assert {"game/step.py", "players/search.py", "web/static/main.js"} <= set(sizes)
    assert {name: n for name, n in sizes.items() if n > 600} == {}
