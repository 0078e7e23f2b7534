"""The web package stays in files a person can hold."""

from __future__ import annotations

from pathlib import Path

import nineball.web

MAX_LINES = 600

WEB = Path(nineball.web.__file__).parent


def test_no_web_file_is_over_600_lines() -> None:
    sizes = {
        path.relative_to(WEB).as_posix(): len(path.read_text(encoding="utf-8").splitlines())
        for path in sorted(WEB.rglob("*"))
        if path.suffix in {".py", ".js", ".html", ".css"}
    }
    assert "static/main.js" in sizes
    assert {name: n for name, n in sizes.items() if n > MAX_LINES} == {}
