"""Copy the browser libraries the page loads from ``node_modules`` into the package's static files.

``npm ci`` (the versions pinned by ``package.json`` and ``package-lock.json``) puts three.js in
``node_modules/three``; this tool copies exactly the modules the page imports, the modules those
import (followed through their relative ``import ... from './x.js'`` lines), and three's licence,
into ``src/nineball/web/static/vendor/three/`` (git-ignored; the wheel carries it as an artifact).

The page's import map (``static/index.html``) names them: ``three`` is
``/static/vendor/three/three.module.js``, ``three/addons/`` is ``/static/vendor/three/addons/``.

Usage: ``python tools/vendor_web.py [--check]``; ``--check`` copies nothing and exits 1 when a
vendored file is missing or differs from ``node_modules``. The Makefile's install steps run it
after ``npm ci``.
"""

from __future__ import annotations

import argparse
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
NODE = ROOT / "node_modules" / "three"
VENDOR = ROOT / "src" / "nineball" / "web" / "static" / "vendor" / "three"

ENTRIES: dict[str, str] = {
    "build/three.module.js": "three.module.js",
    "examples/jsm/controls/OrbitControls.js": "addons/controls/OrbitControls.js",
}
"""The modules the page imports: path in the npm package -> path under ``vendor/three/``."""

LICENCE = ("LICENSE", "LICENSE")

_RELATIVE = re.compile(r"""(?:from|import)\s*['"](\.{1,2}/[^'"]+)['"]""")


def vendored_files() -> dict[str, str]:
    """Every file to copy (package path -> vendor path): the entries and what they import."""
    out: dict[str, str] = {}
    todo = list(ENTRIES.items())
    while todo:
        source, target = todo.pop()
        if source in out:
            continue
        out[source] = target
        text = (NODE / source).read_text(encoding="utf-8")
        for relative in _RELATIVE.findall(text):
            src = (Path(source).parent / relative).as_posix()
            dst = (Path(target).parent / relative).as_posix()
            todo.append((_normal(src), _normal(dst)))
    out[LICENCE[0]] = LICENCE[1]
    return out


def _normal(path: str) -> str:
    parts: list[str] = []
    for part in path.split("/"):
        if part == "..":
            if not parts:
                raise ValueError(f"import leaves the package: {path}")
            parts.pop()
        elif part not in ("", "."):
            parts.append(part)
    return "/".join(parts)


def main() -> int:
    """Copy (or with ``--check`` compare) the vendored files; 0 on success."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="compare only, copy nothing")
    args = parser.parse_args()
    if not (NODE / "package.json").is_file():
        sys.stderr.write(f"{NODE} is missing: run `npm ci --ignore-scripts` first\n")
        return 1
    files = vendored_files()
    stale = []
    for source, target in sorted(files.items()):
        data = (NODE / source).read_bytes()
        dest = VENDOR / target
        if args.check:
            if not dest.is_file() or dest.read_bytes() != data:
                stale.append(target)
            continue
        dest.parent.mkdir(parents=True, exist_ok=True)
        if not dest.is_file() or dest.read_bytes() != data:
            dest.write_bytes(data)
    if stale:
        sys.stderr.write(f"vendored files missing or stale: {', '.join(stale)}\n")
        return 1
    verb = "checked" if args.check else "vendored"
    sys.stdout.write(f"{verb} {len(files)} files into {VENDOR.relative_to(ROOT)}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
