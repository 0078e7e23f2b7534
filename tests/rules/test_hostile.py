"""Fuzz tests (issue 16): hostile lines through the referee protocol and the notation parser.

Every line gets exactly one answer, a JSON object on one line; a refused line leaves the match
as it was; the parser either reads an entry or refuses it with a ``NineballError``.
"""

from __future__ import annotations

import json

from hypothesis import given
from hypothesis import strategies as st

from nineball.errors import NineballError
from nineball.rules import RefereeSession, ShotFacts
from nineball.rules.notation import CommandEntry, ShotEntry, parse_entry
from tests.rules.hostile_lines import (
    FUZZ,
    any_text,
    check_answer,
    hostile_text,
    json_values,
    lines,
    near_requests,
)


@FUZZ
@given(lines)
def test_every_line_gets_one_json_answer_and_a_refusal_changes_nothing(batch: list[str]) -> None:
    session = RefereeSession()
    state = session.handle({"type": "state"})["state"]
    for text in batch:
        lang = session.lang
        answer = session.handle_line(text)
        refused = not json.loads(answer)["ok"]
        state = check_answer(answer, state)
        assert session.handle({"type": "state"})["state"] == state
        if refused:
            assert session.lang is lang


@FUZZ
@given(st.lists(st.one_of(near_requests(), json_values), min_size=1, max_size=6))
def test_decoded_requests_get_an_answer_that_never_raises(batch: list[object]) -> None:
    session = RefereeSession()
    state = session.handle({"type": "state"})["state"]
    for request in batch:
        reply = session.handle(request)
        if not reply["ok"]:
            assert reply["error"]["code"] == "invalid_request", reply
            assert reply["state"] == state
        state = reply["state"]


tokens = st.one_of(
    st.sampled_from(["1", "9", "-", "x", "0", "s", "m", "push", "safe", "c", ",", "p", "r", "o"]),
    st.from_regex(r"[proPRO][0-9c,²٣]{0,5}", fullmatch=True),
    any_text,
    hostile_text,
)


@FUZZ
@given(st.lists(tokens, max_size=6).map(" ".join))
def test_the_notation_reads_an_entry_or_refuses_it_cleanly(text: str) -> None:
    try:
        result: object = parse_entry(text)
    except NineballError as exc:  # a refusal: anything else is a crash and fails the test
        result = str(exc)
    assert isinstance(result, ShotEntry | CommandEntry) or (result and "\n" not in result)


balls = st.lists(st.integers(0, 9), max_size=4, unique=True)


@FUZZ
@given(st.none() | st.integers(1, 9), balls, balls, st.booleans(), st.booleans())
def test_notation_written_from_facts_reads_back_as_those_facts(
    first: int | None, pocketed: list[int], rails: list[int], moved: bool, comma: bool
) -> None:
    text = "-" if first is None else str(first)
    join = ",".join if comma else "".join
    if pocketed:
        text += " p" + join(str(b) for b in pocketed)
    if rails:
        text += " r" + join(str(b) for b in rails)
    if moved:
        text += " m"
    facts = ShotFacts.of(
        first_contact=first, pocketed=pocketed, rails=rails, obstruction_moved=moved
    )
    assert parse_entry(text) == ShotEntry(facts=facts)
