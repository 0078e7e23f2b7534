"""A plain ``pip install`` of the wheel gives a working ``nineball`` command, with no extras.

Builds the wheel of this checkout (``pip wheel . --no-deps``), installs it into a fresh virtual
environment (pip fetches the dependencies from the package index), and checks, with nothing
but the main dependencies installed:

* ``nineball --version`` prints the package's version;
* ``echo '{"type":"state"}' | nineball referee`` answers one JSON line with the state;
* ``nineball play`` stops with a message naming the ``[web]`` extra, ``nineball dataset`` the
  ``[data]`` extra;
* Pillow, FastAPI, Gymnasium and Matplotlib are not installed, and an SVG diagram still draws;
* the wheel holds the page's vendored browser libraries (three.js, :mod:`vendor_web`'s list),
  byte for byte as ``node_modules`` has them.

Usage: ``python tools/check_install.py [--keep DIR]``; prints one line per check and the time
each step took, exits 1 on the first failure. ``tests/test_packaging.py`` runs it (marker
``slow``).
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
import zipfile
from pathlib import Path

import vendor_web

ROOT = Path(__file__).resolve().parent.parent
NOT_INSTALLED = ("PIL", "fastapi", "gymnasium", "matplotlib", "pyarrow", "ray", "torch")
VENDOR_IN_WHEEL = "nineball/web/static/vendor/three/"


def vendor_missing(wheel: Path) -> list[str]:
    """The vendored files absent from ``wheel``, or differing from ``node_modules``' copies."""
    missing = []
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        for source, target in sorted(vendor_web.vendored_files().items()):
            name = VENDOR_IN_WHEEL + target
            if name not in names or archive.read(name) != (vendor_web.NODE / source).read_bytes():
                missing.append(name)
    return missing


def _run(
    command: list[str], *, stdin: str = "", cwd: Path | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        command, input=stdin, capture_output=True, text=True, check=False, cwd=cwd, timeout=900
    )


def _step(name: str, started: float) -> None:
    sys.stdout.write(f"ok   {name} ({time.perf_counter() - started:.1f} s)\n")
    sys.stdout.flush()


def _fail(name: str, result: subprocess.CompletedProcess[str]) -> int:
    sys.stdout.write(f"FAIL {name} (exit {result.returncode})\n{result.stdout}\n{result.stderr}\n")
    return 1


def check(work: Path) -> int:
    """Build, install and check in ``work``; 0 when every check passes."""
    started = time.perf_counter()
    wheels = work / "wheel"
    built = _run(
        [sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps", "-q", "-w", str(wheels)]
    )
    found = sorted(wheels.glob("nineball-*.whl"))
    if built.returncode != 0 or not found:
        return _fail("build the wheel", built)
    wheel = found[-1]
    _step(f"build {wheel.name} ({wheel.stat().st_size / 1e3:.0f} kB)", started)

    started = time.perf_counter()
    missing = vendor_missing(wheel)
    if missing:
        sys.stdout.write(f"FAIL the wheel holds the vendored files: missing {', '.join(missing)}\n")
        return 1
    _step(f"the wheel holds {len(vendor_web.vendored_files())} vendored files (three.js)", started)

    started = time.perf_counter()
    venv = work / "venv"
    made = _run([sys.executable, "-m", "venv", str(venv)])
    if made.returncode != 0:
        return _fail("create the venv", made)
    bin_dir = venv / "bin"
    installed = _run([str(bin_dir / "pip"), "install", "-q", str(wheel)])
    if installed.returncode != 0:
        return _fail("pip install the wheel", installed)
    _step("pip install the wheel into a fresh venv", started)

    nineball = str(bin_dir / "nineball")
    python = str(bin_dir / "python")
    away = work  # run outside the checkout: the installed package, never ./src

    started = time.perf_counter()
    version = _run([nineball, "--version"], cwd=away)
    about = (ROOT / "src/nineball/__about__.py").read_text(encoding="utf-8")
    expected = about.split('__version__ = "')[1].split('"')[0]
    if version.returncode != 0 or version.stdout.strip() != f"nineball {expected}":
        return _fail("nineball --version", version)
    _step(f"nineball --version: {version.stdout.strip()}", started)

    started = time.perf_counter()
    referee = _run([nineball, "referee"], stdin='{"type":"state"}\n', cwd=away)
    try:
        answer = json.loads(referee.stdout.splitlines()[0])
    except (IndexError, json.JSONDecodeError):
        return _fail("nineball referee", referee)
    if referee.returncode != 0 or "state" not in json.dumps(answer):
        return _fail("nineball referee", referee)
    _step(f"nineball referee answers {referee.stdout.strip()[:60]}...", started)

    started = time.perf_counter()
    play = _run([nineball, "play", "--no-browser"], cwd=away)
    if play.returncode != 2 or "nineball[web]" not in play.stderr:
        return _fail("nineball play names the [web] extra", play)
    _step(f"nineball play without the extra: {play.stderr.strip()}", started)

    started = time.perf_counter()
    png = _run([nineball, "render", "no-such-record.json", "-o", "shot.png"], cwd=away)
    if png.returncode != 2 or "nineball[png]" not in png.stderr:
        return _fail("nineball render -o F.png names the [png] extra", png)
    _step(f"nineball render -o F.png without the extra: {png.stderr.strip()}", started)

    started = time.perf_counter()
    data = _run([nineball, "dataset", "-o", "selfplay", "--matches", "1"], cwd=away)
    if data.returncode != 2 or "nineball[data]" not in data.stderr:
        return _fail("nineball dataset names the [data] extra", data)
    _step(f"nineball dataset without the extra: {data.stderr.strip()}", started)

    started = time.perf_counter()
    probe = (
        "import importlib.util, json;"
        f"print(json.dumps([m for m in {NOT_INSTALLED!r} if importlib.util.find_spec(m)]))"
    )
    present = _run([python, "-c", probe], cwd=away)
    if present.returncode != 0 or json.loads(present.stdout) != []:
        return _fail(f"none of {', '.join(NOT_INSTALLED)} installed", present)
    svg = _run(
        [
            python,
            "-c",
            "from nineball.game.match import TABLES; from nineball.game import PhysicsParams;"
            "from nineball.render import table_svg, table_png;"
            "print(len(table_svg({0: (0.6, 0.6)}, table=TABLES['9ft'](), params=PhysicsParams())))"
            "\ntry:\n table_png({0: (0.6, 0.6)}, table=TABLES['9ft'](), params=PhysicsParams())"
            "\nexcept ImportError as exc:\n print(exc)",
        ],
        cwd=away,
    )
    if svg.returncode != 0 or "nineball[png]" not in svg.stdout:
        return _fail("an SVG draws, a PNG names the [png] extra", svg)
    _step(f"no extras installed; SVG drawn, PNG says: {svg.stdout.splitlines()[-1]}", started)
    return 0


def main() -> int:
    """Run the check in a temporary folder (or the one given with ``--keep``)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--keep", type=Path, help="work in this folder and keep it")
    args = parser.parse_args()
    if args.keep is not None:
        args.keep.mkdir(parents=True, exist_ok=True)
        return check(args.keep)
    with tempfile.TemporaryDirectory(prefix="nineball-install-") as work:
        return check(Path(work))


if __name__ == "__main__":
    sys.exit(main())
