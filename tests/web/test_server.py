from __future__ import annotations

import os
import signal
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest

from nineball.errors import InvalidInputError
from nineball.web.__main__ import main
from nineball.web.server import is_loopback, serve


def test_loopback_only_unless_asked() -> None:
    assert is_loopback("127.0.0.1")
    assert is_loopback("localhost")
    assert is_loopback("::1")
    assert not is_loopback("0.0.0.0")
    assert not is_loopback("example.org")
    with pytest.raises(InvalidInputError, match="not loopback"):
        serve("0.0.0.0", open_browser=False)
    with pytest.raises(InvalidInputError, match="port"):
        serve("127.0.0.1", 70000, open_browser=False)


def test_main_reports_bad_options(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["--port", "70000", "--no-browser"]) == 2
    assert "port" in capsys.readouterr().err
    assert main(["--idle-minutes", "0", "--no-browser"]) == 2
    assert "idle time" in capsys.readouterr().err
    assert main(["--max-sessions", "0", "--no-browser"]) == 2
    assert "session cap" in capsys.readouterr().err


def test_the_server_prints_its_url_and_serves_the_page(tmp_path: Path) -> None:
    env = {**os.environ, "NINEBALL_DB": str(tmp_path / "db.sqlite3")}
    process = subprocess.Popen(
        [sys.executable, "-m", "nineball.web", "--no-browser"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env=env,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline()
        url = line.split()[4]
        assert url.startswith("http://127.0.0.1:")
        # The URL is printed once the server listens: the first request is answered, no retry.
        with urllib.request.urlopen(url, timeout=30) as response:
            assert b"<canvas" in response.read()
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(timeout=30)
        if process.stderr is not None:
            process.stderr.close()
        process.stdout.close()  # type: ignore[union-attr]
