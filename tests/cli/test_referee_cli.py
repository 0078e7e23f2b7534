"""``nineball referee`` as a real process, exactly as other programs will drive it."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from nineball.cli.referee import serve
from nineball.game import STANDARD, Language

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


def test_the_hostile_lines_of_issue_16_each_get_one_answer_in_a_real_process() -> None:
    """``print('['*100000)`` and a surrogate name used to end the process with a traceback."""
    lines = [
        b'{"type": "shot", "first_contact": 1, "pocketed": [2]}',
        b"[" * 100_000,
        b'{"type":"new_match","players":["\\ud800","Bob"]}',
        b'{"type":"new_match","players":["A\\u2028nn","Bob"]}',
        b"[" * 5_000,
        b'{"race_to": ' + b"9" * 10_000 + b"}",
        b"\xed\xa0\x80",
        b"x" * 3_000_000,
        b"",
        b'{"type": "forfeit", "player": 0}',
    ]
    done = _run(b"\n".join(lines) + b"\n")
    assert done.returncode == 0, done.stderr
    assert done.stderr == b""
    out = done.stdout.split(b"\n")
    assert out[-1] == b""
    replies = [json.loads(line) for line in out[:-1]]
    assert len(replies) == len(lines)
    assert [r["ok"] for r in replies] == [True] + [False] * 8 + [True]
    assert all(r["state"] == replies[0]["state"] for r in replies[1:-1])
    assert "Ann forfeits" in replies[-1]["ruling"]["explanation"]


def _serve(data: bytes) -> list[bytes]:
    sink = io.BytesIO()
    serve(io.BytesIO(data), sink, rules=STANDARD, lang=Language.EN)
    return sink.getvalue().split(b"\n")


@pytest.mark.parametrize("size", [65_535, 65_536, 65_537, 65_538, 65_539, 200_000])
def test_a_line_near_or_over_the_limit_is_one_answer_and_the_next_line_is_read(size: int) -> None:
    body = b'"' + b"x" * (size - 2) + b'"'
    *replies, tail = _serve(body + b"\n" + b'{"type": "state"}\n')
    assert tail == b""
    first, second = (json.loads(r) for r in replies)
    assert first["ok"] is False
    over = "the line is over 65536 bytes long" in first["error"]["message"]
    assert over is (size > 65_536)
    assert second["ok"] is True


def test_an_overlong_last_line_without_a_line_end() -> None:
    *replies, tail = _serve(b'{"type": "state"}\n' + b"[" * 300_000)
    assert tail == b""
    assert [json.loads(r)["ok"] for r in replies] == [True, False]


def test_a_reader_that_goes_away_ends_the_loop_quietly() -> None:
    class Gone(io.BytesIO):
        def write(self, data: object) -> int:
            raise BrokenPipeError

    source = io.BytesIO(b'{"type": "state"}\n' * 3)
    serve(source, Gone(), rules=STANDARD, lang=Language.EN)
    assert source.tell() == len(b'{"type": "state"}\n')
