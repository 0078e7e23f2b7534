"""Issue 16: a plain install gives a working ``nineball`` command; heavy parts are extras that
the commands needing them name."""

from __future__ import annotations

import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

import nineball
from nineball.cli import main
from nineball.game import PhysicsParams
from nineball.game.match import TABLES
from nineball.render import table_png, table_svg

ROOT = Path(__file__).resolve().parents[1]
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_version_option(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--version"]) == 0
    assert capsys.readouterr().out == f"nineball {nineball.__version__}\n"


def test_the_metadata_a_plain_install_needs() -> None:
    names = {dep.split(">")[0].split("[")[0] for dep in PROJECT["dependencies"]}
    assert {"typer", "rich"} <= names  # the command line works without extras
    assert "pillow" not in names  # Pillow only where PNGs are drawn
    extras = PROJECT["optional-dependencies"]
    assert any(d.startswith("pillow") for d in extras["png"])
    assert any(d.startswith("stable-baselines3") for d in extras["sb3"])
    assert PROJECT["license"] == "MIT"
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert "Programming Language :: Python :: 3.11" in PROJECT["classifiers"]


def test_a_png_without_pillow_names_the_extra_and_an_svg_still_draws(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)  # as if Pillow were not installed
    table, params = TABLES["9ft"](), PhysicsParams()
    assert table_svg({0: (0.6, 0.6)}, table=table, params=params).startswith("<svg")
    with pytest.raises(ImportError, match=r"pip install 'nineball\[png\]'"):
        table_png({0: (0.6, 0.6)}, table=table, params=params)


def test_the_cli_refuses_a_png_without_pillow_before_any_work(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    monkeypatch.setitem(sys.modules, "PIL", None)
    out = tmp_path / "shot.png"
    assert main(["render", str(tmp_path / "missing.json"), "-o", str(out)]) == 2
    assert "nineball[png]" in capsys.readouterr().err
    assert not out.exists()


def test_nothing_imports_pillow_at_import_time() -> None:
    code = (
        "import sys; sys.modules['PIL'] = None\n"
        "import nineball.render, nineball.cli.app, nineball.cli.render, nineball.cli.analyse\n"
    )
    result = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stderr


@pytest.mark.slow
def test_the_wheel_installs_into_a_fresh_venv_and_the_command_works() -> None:
    """Build the wheel, pip install it with no extras, run nineball (tools/check_install.py)."""
    result = subprocess.run(
        [sys.executable, str(ROOT / "tools" / "check_install.py")],
        capture_output=True,
        text=True,
        check=False,
        timeout=1200,
    )
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.count("ok ") == 9
    assert "vendored files (three.js)" in result.stdout
