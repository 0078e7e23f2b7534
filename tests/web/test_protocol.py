from __future__ import annotations

import json

import pytest

from nineball.web.protocol import MAX_MESSAGE_BYTES, ProtocolError, parse_message

STRIKE = {
    "type": "strike",
    "speed": 3.0,
    "aim": 1.0,
    "elevation": 0.0,
    "side": 0.1,
    "height": -0.2,
    "push_out": False,
}


def test_a_good_strike_is_converted() -> None:
    message = parse_message(json.dumps(STRIKE | {"cue": [0.5, 0.4]}))
    assert message.type == "strike"
    assert message.number("speed") == 3.0
    assert message.fields["cue"] == (0.5, 0.4)
    assert parse_message(json.dumps(STRIKE)).fields["cue"] is None


@pytest.mark.parametrize(
    ("raw", "words"),
    [
        ("not json", "not JSON"),
        ("[1, 2]", "JSON object"),
        ('{"type": "fly"}', "unknown message type"),
        ('{"speed": 1}', "unknown message type"),
        (json.dumps(STRIKE | {"extra": 1}), "unknown field"),
        (json.dumps({k: v for k, v in STRIKE.items() if k != "aim"}), "missing field 'aim'"),
        (json.dumps(STRIKE | {"speed": "fast"}), "finite number"),
        (json.dumps(STRIKE | {"speed": True}), "finite number"),
        (json.dumps(STRIKE | {"speed": 99}), "must be in"),
        (json.dumps(STRIKE | {"side": 0.9}), "must be in"),
        (json.dumps(STRIKE | {"push_out": 1}), "true or false"),
        (json.dumps(STRIKE | {"cue": [1]}), "[x, y]"),
        (json.dumps(STRIKE | {"cue": ["a", 1]}), "[x, y]"),
        ('{"type": "strike", "speed": NaN}', "finite number"),
        ('{"type": "choose", "choice": "maybe"}', "one of"),
        ('{"type": "join", "match": ""}', "string of 1"),
        ('{"type": "join", "match": 5}', "string of 1"),
        ('{"type": "move_ball", "ball": 10, "x": 1, "y": 1}', "must be in 0..9"),
        ('{"type": "move_ball", "ball": 1.5, "x": 1, "y": 1}', "integer"),
        (
            '{"type": "facts", "first": 1, "pocketed": [1, 1], "rails": [], "push_out": false}',
            "distinct",
        ),
        ("x" * (MAX_MESSAGE_BYTES + 1), "too long"),
    ],
)
def test_bad_messages_are_refused_with_the_reason(raw: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=None) as caught:
        parse_message(raw)
    assert words in str(caught.value)


def test_optional_fields() -> None:
    join = parse_message('{"type": "join", "match": "abc"}')
    assert join.text("token") is None
    facts = parse_message(
        '{"type": "facts", "first": null, "pocketed": [], "rails": [0], "push_out": false}'
    )
    assert facts.fields["first"] is None
    assert facts.fields["rails"] == (0,)
    assert parse_message('{"type": "remove_ball", "ball": 3}').integer("ball") == 3
