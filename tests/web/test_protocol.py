from __future__ import annotations

import json
from pathlib import Path

import pytest

from nineball.errors import ProtocolError
from nineball.game import stroke_limits
from nineball.web.protocol import (
    MAX_MESSAGE_BYTES,
    Facts,
    Join,
    RemoveBall,
    Strike,
    client_schema,
    parse_message,
)

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
    assert isinstance(message, Strike)
    assert message.speed == 3.0
    assert message.cue == (0.5, 0.4)
    plain = parse_message(json.dumps(STRIKE))
    assert isinstance(plain, Strike)
    assert plain.cue is None


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
        # the tip offset lies in the miscue disc, not in a square
        (json.dumps(STRIKE | {"side": 0.4, "height": 0.4}), "beyond the miscue limit"),
        (json.dumps(STRIKE | {"speed": "3.0"}), "speed must be a finite number, got '3.0'"),
        (json.dumps(STRIKE | {"elevation": 2.0}), "elevation must be in"),
        ('{"type": "setup", "balls": {"0": [0.5, 0.5], "x": [1, 1]}}', "balls '0'-'9'"),
        ('{"type": "setup", "balls": {"0": [0.5, "a"]}}', "balls[0] must be [x, y]"),
        ('{"type": "check", "x": 1, "y": 1, "ball": true}', "ball must be an integer"),
    ],
)
def test_bad_messages_are_refused_with_the_reason(raw: str, words: str) -> None:
    with pytest.raises(ProtocolError, match=None) as caught:
        parse_message(raw)
    assert words in str(caught.value)


def test_optional_fields() -> None:
    join = parse_message('{"type": "join", "match": "abc"}')
    assert isinstance(join, Join)
    assert join.token is None
    facts = parse_message(
        '{"type": "facts", "first": null, "pocketed": [], "rails": [0], "push_out": false}'
    )
    assert isinstance(facts, Facts)
    assert facts.first is None
    assert facts.rails == (0,)
    assert facts.off_table == ()
    assert facts.obstruction_moved is False
    remove = parse_message('{"type": "remove_ball", "ball": 3}')
    assert isinstance(remove, RemoveBall)
    assert remove.ball == 3


SCHEMA = Path(__file__).parents[2] / "docs" / "web-protocol.schema.json"


def test_the_published_schema_is_the_models() -> None:
    # Regenerate with: python -c "import json; from nineball.web.protocol import client_schema;
    # print(json.dumps(client_schema(), indent=2, sort_keys=True))" > docs/web-protocol.schema.json
    published = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert published == client_schema()
    kinds = {ref["$ref"].rsplit("/", 1)[1] for ref in published["oneOf"]}
    assert {"Join", "Strike", "Facts", "Setup", "Ping"} <= kinds
    strike = published["$defs"]["Strike"]
    assert strike["additionalProperties"] is False
    assert strike["properties"]["speed"]["maximum"] == stroke_limits().max_speed
