"""Hostile input for the referee protocol (issue 16): hypothesis strategies and the check of
an answer, shared by ``tests/rules/test_hostile.py`` and ``tests/cli/test_referee_fuzz.py``."""

from __future__ import annotations

import json
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st

FUZZ = settings(  # small and fixed: part of `make test`
    max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow], derandomize=True
)

# Text of every kind, lone surrogates (Cs), controls and separators included.
any_char = st.characters(exclude_categories=())
any_text = st.text(any_char, max_size=30)
hostile_chars = st.sampled_from(
    ["\ud800", "\udfff", "\u2028", "\u2029", "\n", "\r", "\x00", "\x85", "\x1c", "\t", "é", "🎱"]
)
hostile_text = st.lists(st.one_of(hostile_chars, any_char), max_size=8).map("".join)

json_scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(),
    st.integers(min_value=10**40),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from([0, 1, 2, 9, 10, -1, 99, 100]),
    st.one_of(any_text, hostile_text),
)
json_values = st.recursive(
    json_scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.dictionaries(any_text, inner, max_size=3)
    ),
    max_leaves=12,
)

FIELDS = {
    "new_match": ["players", "race_to", "breaks", "first_breaker", "rules", "refereed", "lang"],
    "shot": ["push_out", "first_contact", "pocketed", "off_table", "rails", "obstruction_moved"],
    "choice": ["choice"],
    "forfeit": ["player"],
    "state": [],
}
field_values = st.one_of(
    json_values,
    st.lists(st.integers(0, 9), max_size=4),
    st.lists(st.one_of(any_text, hostile_text), min_size=2, max_size=2),
    st.sampled_from(["alternate", "winner", "standard", "fr", "pl", "en", "shoot", "pass"]),
)


@st.composite
def near_requests(draw: st.DrawFn) -> dict[str, Any]:
    """A request of a known type with some of its fields (or a stranger), valued at random."""
    kind = draw(st.sampled_from([*FIELDS, "dance"]))
    names = [*FIELDS.get(kind, []), "type", "extra"]
    request: dict[str, Any] = {"type": kind}
    for name in draw(st.lists(st.sampled_from(names), max_size=4, unique=True)):
        request[name] = draw(field_values)
    return request


def ascii_json(value: object) -> str:
    # Escaped JSON carries lone surrogates and separators as \\uXXXX, as a caller would send them.
    return json.dumps(value, ensure_ascii=True)


deep_lines = st.builds(
    lambda n, close, head: head + "[" * n + ("]" * n if close else ""),
    st.integers(1, 3_000),
    st.booleans(),
    st.sampled_from(["", '{"type": "state", "x": ']),
)
huge_numbers = st.builds(
    lambda digits, sign, tail: '{"type": "new_match", "race_to": ' + sign + digits + tail + "}",
    st.integers(1, 6_000).map(lambda n: "9" * n),
    st.sampled_from(["", "-"]),
    st.sampled_from(["", ".5", "e999", "e-999"]),
)
text_lines = st.one_of(
    near_requests().map(ascii_json),
    near_requests().map(lambda r: json.dumps(r, ensure_ascii=False)),
    json_values.map(ascii_json),
    any_text,
    hostile_text,
    deep_lines,
    huge_numbers,
    st.just(""),
    st.sampled_from(["NaN", "Infinity", '{"type": "state", "type": "shot"}', "{", "]"]),
)
# A few legal requests between the hostile ones, so that refusals come in varied states.
good_lines = st.sampled_from(
    [
        '{"type": "shot", "first_contact": 1, "pocketed": [2], "rails": [3]}',
        '{"type": "shot", "first_contact": 1, "rails": [0]}',
        '{"type": "shot", "push_out": true, "rails": [0]}',
        '{"type": "choice", "choice": "pass"}',
        '{"type": "forfeit", "player": 1}',
        '{"type": "new_match", "players": ["Zoë", "李"], "race_to": 2, "lang": "pl"}',
    ]
)
lines = st.lists(st.one_of(text_lines, text_lines, good_lines), min_size=1, max_size=8)


byte_lines = st.one_of(
    st.binary(max_size=40),
    text_lines.map(lambda t: t.encode("utf-8", "surrogatepass")),
    good_lines.map(str.encode),
    st.integers(65_530, 65_540).map(lambda n: b"[" * n),
).map(lambda b: b.replace(b"\n", b" "))


def check_answer(line: str, before: dict[str, Any]) -> dict[str, Any]:
    assert "\n" not in line
    assert line.splitlines() == [line]
    line.encode("utf-8")  # no lone surrogate left in the answer
    reply = json.loads(line)
    assert isinstance(reply, dict)
    assert reply["ok"] in (True, False)
    if not reply["ok"]:
        assert reply["error"]["code"] == "invalid_request", reply
        assert reply["state"] == before
    state: dict[str, Any] = reply["state"]
    return state
