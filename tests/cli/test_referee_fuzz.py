"""Fuzz test (issue 16): random and hostile byte lines through ``nineball referee``'s loop."""

from __future__ import annotations

import io

from hypothesis import given
from hypothesis import strategies as st

from nineball.cli.referee import serve
from nineball.game import STANDARD, Language, RefereeSession
from tests.rules.hostile_lines import FUZZ, byte_lines, check_answer


@FUZZ
@given(st.lists(byte_lines, min_size=1, max_size=8), st.booleans())
def test_the_command_loop_answers_every_byte_line_once(batch: list[bytes], crlf: bool) -> None:
    end = b"\r\n" if crlf else b"\n"
    sink = io.BytesIO()
    serve(io.BytesIO(end.join(batch) + end), sink, rules=STANDARD, lang=Language.EN)
    out = sink.getvalue()
    assert out.endswith(b"\n")
    answers = out.decode("utf-8").split("\n")[:-1]
    assert len(answers) == len(batch)
    state = RefereeSession().handle({"type": "state"})["state"]
    for answer in answers:
        state = check_answer(answer, state)
