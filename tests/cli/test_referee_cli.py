"""``nineball referee`` as a real process, exactly as other programs will drive it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

EXAMPLES = Path(__file__).resolve().parents[1] / "rules" / "data" / "referee-examples.jsonl"


def _run(data: bytes, *args: str) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "nineball.cli", "referee", *args],
        input=data,
        capture_output=True,
        timeout=60,
        check=False,
    )


def test_examples_one_line_out_per_line_in() -> None:
    data = EXAMPLES.read_bytes()
    done = _run(data)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.decode("utf-8").splitlines()
    assert len(lines) == len(data.decode("utf-8").splitlines())
    replies = [json.loads(line) for line in lines]
    assert all(r["ok"] for r in replies)
    assert replies[-1]["state"]["score"] == [1, 0]


def test_bad_lines_are_answered_and_the_process_goes_on() -> None:
    data = (
        b'{"type": "shot", "first_contact": 1, "pocketed": [2]}\n'
        b"not json\n"
        b"\xff\xfe\n"
        b'{"type": "shot", "pocketed": [2]}\n'
        b"\n"
        b'{"type": "state"}\n'
    )
    done = _run(data)
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.decode("utf-8").splitlines()]
    assert [r["ok"] for r in replies] == [True, False, False, False, False, True]
    assert "not UTF-8" in replies[2]["error"]["message"]
    assert "ball 2 is not on the table" in replies[3]["error"]["message"]
    assert all(r["state"] == replies[0]["state"] for r in replies[1:])


def test_rules_and_language_options() -> None:
    data = b'{"type": "shot", "first_contact": 1, "rails": [2, 3]}\n{"type": "state"}\n'
    done = _run(data, "--rules", "fr", "--lang", "fr")
    assert done.returncode == 0, done.stderr
    first, state = (json.loads(line) for line in done.stdout.decode("utf-8").splitlines())
    assert first["ruling"]["explanation"].startswith("Faute au bris")
    assert state["state"]["rules"] == "fr"
    assert state["state"]["push_out_allowed"] is True  # D1 in the fr profile


def test_empty_input_exits_zero_with_no_output() -> None:
    done = _run(b"")
    assert done.returncode == 0
    assert done.stdout == b""


def test_unknown_option_is_a_usage_error() -> None:
    done = _run(b"", "--rules", "wpa")
    assert done.returncode == 2
    assert b"wpa" in done.stderr
